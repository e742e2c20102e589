"""``tf.train.ExponentialMovingAverage``: a shadow variable per variable, moved toward it by
``apply`` (``shadow -= (1 - decay) * (shadow - value)``, the decay capped by
``(1 + num_updates) / (10 + num_updates)`` when ``num_updates`` is given), as TensorFlow's ops
(``AssignSubVariableOp`` on the shadow)."""

from __future__ import annotations

from ..ops import API
from ..runtime.eager.variables import Variable


class ExponentialMovingAverage:
    def __init__(self, decay, num_updates=None, zero_debias=False, name="ExponentialMovingAverage"):
        self._decay, self._num_updates = decay, num_updates
        self._zero_debias = zero_debias  # TensorFlow debiases averages of tensors only, never of variables
        self._name = name
        self._averages: dict = {}

    @property
    def name(self) -> str:
        return self._name

    def _decay_now(self):
        decay = API["cast"](API["convert_to_tensor"](self._decay), "float32")
        if self._num_updates is None:
            return decay
        n = API["cast"](API["convert_to_tensor"](self._num_updates), "float32")
        return API["minimum"](decay, API["divide"](1.0 + n, 10.0 + n))

    def average_name(self, var) -> str:
        return f"{var.name.rsplit(':', 1)[0]}/{self._name}"

    def apply(self, var_list=None):
        """Create the missing shadows (the variables' values) and move every shadow one step."""
        var_list = list(var_list or [])
        for var in var_list:
            if var.dtype.name not in ("float16", "bfloat16", "float32", "float64"):
                raise TypeError(f"The variables must be half, float, or double: {var.name}")
            if id(var) not in self._averages:
                self._averages[id(var)] = (var, Variable(var.read_value(), name=self.average_name(var),
                                                         trainable=False))
        decay = self._decay_now()
        for var in var_list:
            shadow = self._averages[id(var)][1]
            step = API["multiply"](API["subtract"](shadow.read_value(), var.read_value()),
                                   API["cast"](API["subtract"](1.0, decay), var.dtype))
            shadow.assign_sub(step)

    def average(self, var):
        found = self._averages.get(id(var))
        return None if found is None else found[1]
