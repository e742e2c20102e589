"""``tf.autodiff``: ``GradientTape`` (``ForwardAccumulator``, forward-mode differentiation, is not
implemented: reading it says so)."""

from .backprop import GradientTape
from .namespace import missing

__all__ = ["GradientTape"]
__getattr__ = missing("autodiff")
