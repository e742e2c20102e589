"""``tf.signal``'s Fourier transforms of complex input: ``FFT``/``IFFT`` over the innermost
axis, ``FFT2D``/``IFFT2D`` and ``FFT3D``/``IFFT3D`` over the innermost two and three."""

from __future__ import annotations

from ...runtime.eager.executor import execute
from .. import shapes
from ..math.complex_ops import COMPLEX
from ..declare import as_tensor, op, public


def _transform(op_name: str, rank: int, inverse: bool, api: str):
    axes = tuple(range(-rank, 0))

    def kernel(xp, x):
        return (xp.fft.ifftn if inverse else xp.fft.fftn)(x, axes=axes).astype(x.dtype)

    op(op_name, kernel, COMPLEX, shape=shapes.same)

    def fn(input, name=None):  # noqa: A002 (TensorFlow's parameter name)
        return execute(op_name, (as_tensor(input),), name=name)

    fn.__name__ = fn.__qualname__ = api
    return public(f"signal.{api}")(fn)


fft = _transform("FFT", 1, False, "fft")
ifft = _transform("IFFT", 1, True, "ifft")
fft2d = _transform("FFT2D", 2, False, "fft2d")
ifft2d = _transform("IFFT2D", 2, True, "ifft2d")
fft3d = _transform("FFT3D", 3, False, "fft3d")
ifft3d = _transform("IFFT3D", 3, True, "ifft3d")
