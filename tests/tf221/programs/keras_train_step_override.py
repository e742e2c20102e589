# Keras 3's train_step(self, data) / test_step / predict_step overrides (keras.io's "Customizing what
# happens in fit()"): compute_loss(x=, y=, y_pred=), the metrics property, optimizer.apply,
# compute_metrics; a model with its own trackers compiled without a loss; add_loss without a loss.
import os

os.environ["KERAS_BACKEND"] = "tensorflow"
import keras  # noqa: E402
import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402
from keras import layers  # noqa: E402

x = np.linspace(-1, 1, 24).reshape(12, 2).astype("float32")
y = (x @ np.array([[1.5], [-0.5]], "float32") + 0.25).astype("float32")


def weights(m):
    m.set_weights([np.array([[0.2], [0.1]], "float32"), np.zeros(1, "float32")])
    return m


class CustomModel(keras.Model):
    def train_step(self, data):
        x, y = data
        with tf.GradientTape() as tape:
            y_pred = self(x, training=True)
            loss = self.compute_loss(y=y, y_pred=y_pred)
        trainable_vars = self.trainable_variables
        gradients = tape.gradient(loss, trainable_vars)
        self.optimizer.apply(gradients, trainable_vars)
        for metric in self.metrics:
            if metric.name == "loss":
                metric.update_state(loss)
            else:
                metric.update_state(y, y_pred)
        return {m.name: m.result() for m in self.metrics}


inputs = keras.Input(shape=(2,))
outputs = layers.Dense(1)(inputs)
model = weights(CustomModel(inputs, outputs))
model.compile(optimizer=keras.optimizers.SGD(0.1), loss="mse", metrics=["mae"])
print([m.name for m in model.metrics])
h = model.fit(x, y, batch_size=4, epochs=3, verbose=0, shuffle=False)
print(sorted(h.history), {k: [round(float(v), 5) for v in vs] for k, vs in h.history.items()})


class Trackers(keras.Model):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.loss_tracker = keras.metrics.Mean(name="loss")
        self.mae_metric = keras.metrics.MeanAbsoluteError(name="mae")

    def train_step(self, data):
        x, y = data
        with tf.GradientTape() as tape:
            y_pred = self(x, training=True)
            loss = keras.losses.mean_squared_error(y, y_pred)
        grads = tape.gradient(loss, self.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.trainable_variables))
        self.loss_tracker.update_state(loss)
        self.mae_metric.update_state(y, y_pred)
        return {"loss": self.loss_tracker.result(), "mae": self.mae_metric.result()}

    @property
    def metrics(self):
        return [self.loss_tracker, self.mae_metric]


inputs = keras.Input(shape=(2,))
model = weights(Trackers(inputs, layers.Dense(1)(inputs)))
model.compile(optimizer=keras.optimizers.SGD(0.1))
h = model.fit(x, y, batch_size=4, epochs=2, verbose=0, shuffle=False)
print({k: [round(float(v), 5) for v in vs] for k, vs in h.history.items()})


class Evaluating(keras.Model):
    def test_step(self, data):
        x, y = data
        y_pred = self(x, training=False)
        loss = self.compute_loss(y=y, y_pred=y_pred)
        for metric in self.metrics:
            if metric.name != "loss":
                metric.update_state(y, y_pred)
        return {m.name: m.result() for m in self.metrics if m.name != "loss"}

    def predict_step(self, data):
        return self(data, training=False) * 2.0


inputs = keras.Input(shape=(2,))
model = weights(Evaluating(inputs, layers.Dense(1)(inputs)))
model.compile(optimizer="sgd", loss="mse", metrics=["mae"])
print("evaluate", model.evaluate(x, y, batch_size=6, verbose=0, return_dict=True))
print("predict", np.round(model.predict(x[:3], verbose=0), 5).tolist())


class Defaults(keras.Model):
    def train_step(self, data):
        x, y = data
        with tf.GradientTape() as tape:
            y_pred = self(x, training=True)
            loss = self.compute_loss(x=x, y=y, y_pred=y_pred)
        self.optimizer.apply(tape.gradient(loss, self.trainable_variables), self.trainable_variables)
        return self.compute_metrics(x, y, y_pred)


inputs = keras.Input(shape=(2,))
model = weights(Defaults(inputs, layers.Dense(1)(inputs)))
model.compile(optimizer=keras.optimizers.SGD(0.1), loss="mse", metrics=["mae"])
h = model.fit(x, y, batch_size=4, epochs=2, verbose=0, shuffle=False)
print({k: [round(float(v), 5) for v in vs] for k, vs in h.history.items()})


class Penalised(layers.Layer):
    def call(self, inputs):
        self.add_loss(tf.reduce_mean(tf.square(inputs)))
        return inputs


inputs = keras.Input(shape=(2,))
hidden = Penalised()(layers.Dense(1)(inputs))
model = weights(keras.Model(inputs, hidden))
model.compile(optimizer=keras.optimizers.SGD(0.1))
h = model.fit(x, y, batch_size=4, epochs=2, verbose=0, shuffle=False)
print("add_loss", {k: [round(float(v), 5) for v in vs] for k, vs in h.history.items()})
print(np.round(model.get_weights()[0], 5).tolist())
try:
    m = weights(keras.Model(inputs, layers.Dense(1)(inputs)))
    m.compile(optimizer="sgd")
    m.fit(x, y, verbose=0)
except ValueError as e:
    print(type(e).__name__, e)
