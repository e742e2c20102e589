"""``tf.autodiff.ForwardAccumulator``: Jacobian-vector products of what runs inside it.

devtrace computes a JVP from reverse mode (the double-VJP trick): the accumulator records the
ops on a persistent ``GradientTape``; ``jvp(y)`` takes ``g(u) = J^T u`` for a dummy ``u`` under a
second tape, then differentiates ``g`` with respect to ``u`` against the tangents, giving ``J t``.
The ops of both passes run, placed and logged, as the backward pass's ops do."""

from __future__ import annotations

import logging

from ..ops.array.array_ops import ones_like, zeros_like
from ..platform import tf_logging
from ..runtime.values import convert_to_tensor
from ..util.nest import flatten, map_structure
from .backprop import GradientTape, UnconnectedGradients


class ForwardAccumulator:
    """``tf.autodiff.ForwardAccumulator(primals, tangents)``."""

    def __init__(self, primals, tangents):
        self._primals = flatten(primals)
        for primal in self._primals:  # as TensorFlow's _watch: a dtype without is_floating (a Keras 3 variable's str) fails
            if not primal.dtype.is_floating:
                tf_logging.log_first_n(logging.WARN, "The dtype of the watched primal must be floating (e.g. "
                                       "tf.float32), got %r", 5, primal.dtype)
        self._tangents = [convert_to_tensor(t, p.dtype) for p, t in zip(self._primals, flatten(tangents))]
        self._tape = GradientTape(persistent=True)

    def __enter__(self):
        self._tape.__enter__()
        for primal in self._primals:
            self._tape.watch(primal)
        return self

    def __exit__(self, *exc):
        return self._tape.__exit__(*exc)

    def jvp(self, primals, unconnected_gradients=UnconnectedGradients.NONE):
        """The JVP of each tensor of ``primals`` (a structure): ``None`` where it does not depend
        on the watched primals (zeros with ``UnconnectedGradients.ZERO``)."""
        return map_structure(lambda target: self._jvp(target, unconnected_gradients), primals)

    def _jvp(self, target, unconnected_gradients):
        u = ones_like(target)
        with GradientTape() as outer:
            outer.watch(u)
            grads = self._tape.gradient(target, self._primals, output_gradients=u)
        pairs = [(g, t) for g, t in zip(grads, self._tangents) if g is not None]
        result = outer.gradient([g for g, _ in pairs], u, output_gradients=[t for _, t in pairs]) if pairs else None
        if result is None and UnconnectedGradients(unconnected_gradients) is UnconnectedGradients.ZERO:
            return zeros_like(target)
        return result
