"""Keras 3's other optimizers — Lion, Nadam, Adamax, Adadelta, Ftrl, Lamb — with Keras's update rules
(``keras/src/optimizers/*.py``'s ``update_step``) on the base ``Optimizer``'s clipping, weight decay,
slots and schedules."""

from __future__ import annotations

import devtrace as tf
from .optimizer_base import Optimizer


class Lion(Optimizer):
    slots = (("momentum", 0.0),)

    def __init__(self, learning_rate=0.001, beta_1=0.9, beta_2=0.99, **kwargs):
        super().__init__(learning_rate, **kwargs)
        self.beta_1, self.beta_2 = beta_1, beta_2
        if beta_1 <= 0 or beta_1 > 1:
            raise ValueError("Argument `beta_1` must be in the [0, 1] range. Otherwise, the optimizer degenerates to "
                             f"SignSGD. Received: beta_1={beta_1}.")

    def _update(self, grad, var):
        m = self._slot(var, "momentum")
        var.assign_sub(self._lr(var) * tf.sign(m * self.beta_1 + grad * (1.0 - self.beta_1)))
        m.assign(m * self.beta_2 + grad * (1.0 - self.beta_2))


class Nadam(Optimizer):
    """Adam with Nesterov momentum; ``u_product`` (one variable) is advanced once a step, before the updates."""

    slots = (("momentum", 0.0), ("velocity", 0.0))

    def __init__(self, learning_rate=0.001, beta_1=0.9, beta_2=0.999, epsilon=1e-7, **kwargs):
        super().__init__(learning_rate, **kwargs)
        self.beta_1, self.beta_2, self.epsilon = beta_1, beta_2, epsilon
        self._u_product = None

    def build(self, var_list):
        if self._u_product is None:
            dtype = var_list[0].dtype if var_list else tf.float32
            with tf.init_scope():
                self._u_product = tf.Variable(tf.constant(1.0, dtype), trainable=False)
        super().build(var_list)

    @property
    def variables(self) -> list:
        """Keras's order: the base's, then ``u_product`` (made after the slots)."""
        return super().variables + ([self._u_product] if self._u_product is not None else [])

    def variable_sizes(self) -> tuple:
        count, size = super().variable_sizes()
        if self._u_product is None:
            return count, size
        return count + 1, size + self._u_product.dtype.size

    def _before_updates(self):
        dtype = self._u_product.dtype
        self._u_product.assign(self._u_product * self.beta_1 * (
            1.0 - 0.5 * tf.pow(tf.constant(0.96, dtype), tf.cast(self.iterations + 1, dtype))))

    def _update(self, grad, var):
        m, v = self._slot(var, "momentum"), self._slot(var, "velocity")
        dtype = var.dtype
        local_step, next_step = self._local_step(dtype), tf.cast(self.iterations + 2, dtype)
        decay = tf.constant(0.96, dtype)
        u_t = self.beta_1 * (1.0 - 0.5 * tf.pow(decay, local_step))
        u_t_1 = self.beta_1 * (1.0 - 0.5 * tf.pow(decay, next_step))
        u_product_t = tf.cast(self._u_product, dtype)
        u_product_t_1 = u_product_t * u_t_1
        m.assign_add((grad - m) * (1 - self.beta_1))
        v.assign_add((self._square(grad) - v) * (1 - self.beta_2))
        m_hat = u_t_1 * m / (1 - u_product_t_1) + (1 - u_t) * grad / (1 - u_product_t)
        v_hat = v / (1 - tf.pow(tf.constant(self.beta_2, dtype), local_step))
        var.assign_sub(m_hat * self._lr(var) / (tf.sqrt(v_hat) + self.epsilon))


class Adamax(Optimizer):
    slots = (("m", 0.0), ("u", 0.0))

    def __init__(self, learning_rate=0.001, beta_1=0.9, beta_2=0.999, epsilon=1e-7, **kwargs):
        super().__init__(learning_rate, **kwargs)
        self.beta_1, self.beta_2, self.epsilon = beta_1, beta_2, epsilon

    def _update(self, grad, var):
        m, u = self._slot(var, "m"), self._slot(var, "u")
        beta_1_power = tf.pow(tf.constant(self.beta_1, var.dtype), self._local_step(var.dtype))
        m.assign_add((grad - m) * (1 - self.beta_1))
        u.assign(tf.maximum(u * self.beta_2, tf.abs(grad)))
        var.assign_sub(self._lr(var) * m / ((1 - beta_1_power) * (u + self.epsilon)))


class Adadelta(Optimizer):
    slots = (("accumulated_grad", 0.0), ("accumulated_delta_var", 0.0))

    def __init__(self, learning_rate=0.001, rho=0.95, epsilon=1e-7, **kwargs):
        super().__init__(learning_rate, **kwargs)
        self.rho, self.epsilon = rho, epsilon

    def _update(self, grad, var):
        acc_grad, acc_delta = self._slot(var, "accumulated_grad"), self._slot(var, "accumulated_delta_var")
        rho = self.rho
        acc_grad.assign(rho * acc_grad + (1 - rho) * self._square(grad))
        delta = -(tf.sqrt(acc_delta + self.epsilon) * grad) / tf.sqrt(acc_grad + self.epsilon)
        acc_delta.assign(rho * acc_delta + (1 - rho) * tf.square(delta))
        var.assign_add(self._lr(var) * delta)


class Ftrl(Optimizer):
    def __init__(self, learning_rate=0.001, learning_rate_power=-0.5, initial_accumulator_value=0.1,
                 l1_regularization_strength=0.0, l2_regularization_strength=0.0,
                 l2_shrinkage_regularization_strength=0.0, beta=0.0, **kwargs):
        super().__init__(learning_rate, **kwargs)
        for name, value, rule in (("initial_accumulator_value", initial_accumulator_value, "positive or zero"),
                                  ("learning_rate_power", -learning_rate_power, "negative or zero"),
                                  ("l1_regularization_strength", l1_regularization_strength, "positive or zero"),
                                  ("l2_regularization_strength", l2_regularization_strength, "positive or zero")):
            if value < 0.0:
                shown = learning_rate_power if name == "learning_rate_power" else value
                raise ValueError(f"`{name}` needs to be {rule}. Received: {name}={shown}.")
        if l2_shrinkage_regularization_strength < 0.0:
            raise ValueError("`l2_shrinkage_regularization_strength` needs to be positive or zero. Received: "
                             f"l2_shrinkage_regularization_strength={l2_shrinkage_regularization_strength}.")
        self.learning_rate_power = learning_rate_power
        self.initial_accumulator_value = initial_accumulator_value
        self.l1_regularization_strength = l1_regularization_strength
        self.l2_regularization_strength = l2_regularization_strength
        self.l2_shrinkage_regularization_strength = l2_shrinkage_regularization_strength
        self.beta = beta
        self.slots = (("accumulator", float(initial_accumulator_value)), ("linear", 0.0))

    def _update(self, grad, var):
        accum = self._slot(var, "accumulator", float(self.initial_accumulator_value))
        linear = self._slot(var, "linear")
        lr = self._lr(var)
        power = self.learning_rate_power
        l2 = self.l2_regularization_strength + self.beta / (2.0 * lr)
        grad_to_use = grad + 2 * self.l2_shrinkage_regularization_strength * var
        new_accum = accum + self._square(grad)
        linear.assign_add(grad_to_use - (tf.pow(new_accum, -power) - tf.pow(accum, -power)) / lr * var)
        quadratic = tf.pow(new_accum, -power) / lr + 2 * l2
        l1 = self.l1_regularization_strength
        clipped = tf.clip_by_value(linear, -l1, l1)
        var.assign((clipped - linear) / quadratic)
        accum.assign(new_accum)


class Lamb(Optimizer):
    slots = (("momentum", 0.0), ("velocity", 0.0))

    def __init__(self, learning_rate=0.001, beta_1=0.9, beta_2=0.999, epsilon=1e-7, **kwargs):
        super().__init__(learning_rate, **kwargs)
        self.beta_1, self.beta_2, self.epsilon = beta_1, beta_2, epsilon

    def _update(self, grad, var):
        m, v = self._slot(var, "momentum"), self._slot(var, "velocity")
        t = self._local_step(var.dtype)
        beta_1_power = tf.pow(tf.constant(self.beta_1, var.dtype), t)
        beta_2_power = tf.pow(tf.constant(self.beta_2, var.dtype), t)
        m.assign_add((grad - m) * (1 - self.beta_1))
        v.assign_add((self._square(grad) - v) * (1 - self.beta_2))
        update = (m / (1.0 - beta_1_power)) / (tf.sqrt(v / (1.0 - beta_2_power)) + self.epsilon)
        w_norm = tf.sqrt(tf.reduce_sum(tf.pow(var, 2)))
        g_norm = tf.sqrt(tf.reduce_sum(tf.pow(update, 2)))
        one = tf.ones_like(w_norm)
        ratio = tf.where(w_norm > 0, tf.where(g_norm > 0, w_norm / g_norm, one), one)
        var.assign_sub(ratio * self._lr(var) * update)
