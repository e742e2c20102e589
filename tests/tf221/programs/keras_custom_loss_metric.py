# A keras.losses.Loss subclass (super().__init__(name=...), call(y_true, y_pred)) and a
# keras.metrics.Metric subclass keeping its state in add_variable (reset_state reads it), in compile
# and fit, and used directly.
import numpy as np
import keras
from keras import ops


class CustomMSE(keras.losses.Loss):
    def __init__(self, factor=0.1, name="custom_mse"):
        super().__init__(name=name)
        self.factor = factor

    def call(self, y_true, y_pred):
        return ops.mean(ops.square(y_true - y_pred), axis=-1) + self.factor * ops.mean(ops.square(y_pred), axis=-1)


class Unnamed(keras.losses.Loss):
    def call(self, y_true, y_pred):
        return ops.mean(ops.abs(y_true - y_pred), axis=-1)


class Hits(keras.metrics.Metric):
    def __init__(self, name="hits", **kwargs):
        super().__init__(name=name, **kwargs)
        self.hits = self.add_variable(shape=(), name="hits", initializer="zeros")

    def update_state(self, y_true, y_pred, sample_weight=None):
        match = ops.cast(ops.argmax(y_true, axis=-1) == ops.argmax(y_pred, axis=-1), "float32")
        self.hits.assign_add(ops.sum(match))

    def result(self):
        return self.hits

    def reset_state(self):
        self.hits.assign(0.0)


y = np.array([[0, 1], [1, 0], [1, 0]], "float32")
p = np.array([[0.2, 0.8], [0.6, 0.4], [0.3, 0.7]], "float32")
print("loss", CustomMSE().name, round(float(CustomMSE()(y, p)), 5), Unnamed().name, round(float(Unnamed()(y, p)), 5))
hits = Hits()
hits.update_state(y, p)
print("metric", hits.name, float(hits.result()), len(hits.variables))
hits.reset_state()
print("reset", float(hits.result()))
model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(2, kernel_initializer="identity")])
model.compile(keras.optimizers.SGD(0.1), loss=CustomMSE(), metrics=[Hits()])
history = model.fit(p, y, batch_size=3, epochs=2, verbose=0)
print(sorted(history.history), np.round(history.history["loss"], 4).tolist(), history.history["hits"])
