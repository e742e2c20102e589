"""``tf.autodiff``: ``GradientTape`` and ``ForwardAccumulator`` (forward-mode JVPs, computed
from reverse mode: ``backprop/forward_accumulator.py``)."""

from ..backprop.backprop import GradientTape
from ..backprop.forward_accumulator import ForwardAccumulator
from ..util.namespace import missing

__all__ = ["ForwardAccumulator", "GradientTape"]
__getattr__ = missing("autodiff")
