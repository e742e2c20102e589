"""``tf.autodiff``: ``GradientTape`` (``ForwardAccumulator``, forward-mode differentiation, is not
implemented: reading it says so)."""

from ..backprop.backprop import GradientTape
from ..util.namespace import missing

__all__ = ["GradientTape"]
__getattr__ = missing("autodiff")
