"""Gradients of the complex-number ops, FFTs and casts of ``complex_ops``, ``fft_ops`` and
``cast_ops``, after TensorFlow's ``math_grad.py`` and ``fft_ops.py``: a real input's gradient
is the real part of the complex one."""

from __future__ import annotations

import numpy as np

from . import complex_ops
from ..signal import fft_ops
from . import math_ops
from ..array.array_ops import zeros_like
from ..declare import gradient
from .math_grad import reduce_to



def _zero(grad):
    return zeros_like(grad)


@gradient("Real")
def _real_grad(op, grad):
    return (complex_ops.complex(grad, _zero(grad)),)


@gradient("Imag")
def _imag_grad(op, grad):
    return (complex_ops.complex(_zero(grad), grad),)


@gradient("Complex")
def _complex_grad(op, grad):
    x, y = op.inputs
    return reduce_to(complex_ops.real(grad), x.shape), reduce_to(complex_ops.imag(grad), y.shape)


@gradient("Conj")
def _conj_grad(op, grad):
    return (complex_ops.conj(grad),)


@gradient("ComplexAbs")
def _complex_abs_grad(op, grad):
    out = op.outputs[0]
    return (math_ops.divide_no_nan(math_ops.multiply(complex_ops.complex(grad, _zero(grad)), op.inputs[0]),
                                   complex_ops.complex(out, _zero(out))),)


@gradient("Angle")
def _angle_grad(op, grad):
    x = op.inputs[0]
    z = math_ops.reciprocal(complex_ops.complex(complex_ops.imag(x), complex_ops.real(x)))
    return (math_ops.multiply(math_ops.negative(complex_ops.complex(grad, _zero(grad))), z),)


def _fft_grad(inverse_of, rank: int, scale_up: bool):
    def grad_fn(op, grad):
        size = float(np.prod(grad.shape[-rank:]))
        return (math_ops.multiply(inverse_of(grad), size if scale_up else 1.0 / size),)
    return grad_fn


for _name, _inverse, _rank, _up in (("FFT", fft_ops.ifft, 1, True), ("IFFT", fft_ops.fft, 1, False),
                                    ("FFT2D", fft_ops.ifft2d, 2, True), ("IFFT2D", fft_ops.fft2d, 2, False),
                                    ("FFT3D", fft_ops.ifft3d, 3, True), ("IFFT3D", fft_ops.fft3d, 3, False)):
    gradient(_name)(_fft_grad(_inverse, _rank, _up))
