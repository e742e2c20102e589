"""Keras breadth (keras.io's making-new-layers, transfer-learning and functional-API guides): a
layer's weights, trainable weights and losses include its sublayers' (attributes and lists),
``trainable`` reaches the sublayers, ``summary(show_trainable=True)``, a functional model with dict
outputs (compiled with dicts of losses and loss weights, fitted, called, its config round trip),
and a custom layer whose ``get_config`` leaves the name out, rebuilt from the model's config."""
import os
os.environ["TF_CPP_MIN_LOG_LEVEL"] = "3"
import numpy as np
import tensorflow as tf
import keras
from keras import layers, ops


class Linear(layers.Layer):
    def __init__(self, units=4, **kwargs):
        super().__init__(**kwargs)
        self.units = units

    def build(self, input_shape):
        self.w = self.add_weight(shape=(input_shape[-1], self.units), initializer="ones", name="w")
        self.b = self.add_weight(shape=(self.units,), initializer="zeros", name="b")

    def call(self, inputs):
        return ops.matmul(inputs, self.w) + self.b


class Block(layers.Layer):
    def __init__(self):
        super().__init__()
        self.first = Linear(3)
        self.rest = [Linear(2), layers.BatchNormalization()]
        self.reg = layers.Dense(2, kernel_regularizer=keras.regularizers.l2(1e-3), kernel_initializer="ones")

    def call(self, inputs):
        x = self.first(inputs)
        for layer in self.rest:
            x = layer(x)
        self.add_loss(0.5 * ops.mean(x))
        return self.reg(x)


block = Block()
y = block(ops.ones((2, 4)))
print(len(block.weights), len(block.trainable_weights), len(block.non_trainable_weights))
print([w.path for w in block.weights])
print([round(float(loss), 6) for loss in block.losses])
block(ops.ones((2, 4)))
print(len(block.losses))
block.trainable = False
print(block.first.trainable, block.rest[1].trainable, len(block.trainable_weights), len(block.losses))

inner = keras.Sequential([keras.Input((3,)), layers.Dense(3), layers.Dense(3)], name="inner")
outer = keras.Sequential([keras.Input((3,)), inner, layers.Dense(1)])
outer.trainable = False
print(inner.trainable, inner.layers[0].trainable, len(outer.trainable_weights), len(outer.non_trainable_weights))
base = keras.Sequential([keras.Input((6, 6, 2)), layers.Conv2D(2, 3), layers.BatchNormalization()], name="base")
base.trainable = False
inputs = keras.Input(shape=(6, 6, 2))
x = layers.GlobalAveragePooling2D()(base(inputs, training=False))
model = keras.Model(inputs, layers.Dense(1)(x), name="frozen_base")
model.summary(show_trainable=True)

title = keras.Input(shape=(5,), name="title")
tags = keras.Input(shape=(3,), name="tags")
features = layers.concatenate([layers.Dense(4, kernel_initializer="ones")(title), tags])
priority = layers.Dense(1, name="priority", kernel_initializer="zeros")(features)
department = layers.Dense(2, name="department", kernel_initializer="zeros")(features)
model = keras.Model(inputs=[title, tags], outputs={"priority": priority, "department": department})
print([t.name for t in model.outputs] == [department.name, priority.name], model.output_shape)
model.compile(optimizer=keras.optimizers.RMSprop(1e-2),
              loss={"priority": keras.losses.BinaryCrossentropy(from_logits=True),
                    "department": keras.losses.CategoricalCrossentropy(from_logits=True)},
              loss_weights={"priority": 1.0, "department": 0.2})
rng = np.random.RandomState(0)
x_title, x_tags = rng.random_sample((16, 5)).astype("float32"), rng.randint(2, size=(16, 3)).astype("float32")
y_priority, y_department = rng.random_sample((16, 1)), np.eye(2)[rng.randint(2, size=16)]
history = model.fit({"title": x_title, "tags": x_tags}, {"priority": y_priority, "department": y_department},
                    epochs=2, batch_size=8, verbose=0, shuffle=False)
print({k: [round(v, 5) for v in vs] for k, vs in sorted(history.history.items())})
out = model.predict([x_title[:2], x_tags[:2]], verbose=0)
print(type(out).__name__, sorted(out), out["department"].shape, out["priority"].shape)
again = keras.Model.from_config(model.get_config())
print(sorted(again.get_config()["output_layers"].items()))
print(sorted(again([x_title[:1], x_tags[:1]])))


class Scale(layers.Layer):
    def __init__(self, factor, **kwargs):
        super().__init__(**kwargs)
        self.factor = factor

    def call(self, x):
        return x * self.factor

    def get_config(self):
        return {"factor": self.factor}


inputs = keras.Input(shape=(4,))
model = keras.Model(inputs, layers.Dense(1, kernel_initializer="ones")(Scale(2.0)(inputs)))
rebuilt = keras.Model.from_config(model.get_config(), custom_objects={"Scale": Scale})
print([type(layer).__name__ for layer in rebuilt.layers], rebuilt(np.ones((1, 4))).numpy())


class RawVariables(layers.Layer):
    """tf.Variable attributes, as TensorFlow's intro-to-modules guide makes them: Keras 3 does not track them."""

    def build(self, input_shape):
        self.w = tf.Variable(np.ones((input_shape[-1], 2), "float32"), name="w")

    def call(self, inputs):
        return ops.matmul(inputs, self.w)


raw = RawVariables()
print(raw.variables, raw(np.ones((1, 3), "float32")).shape, raw.variables, raw.weights, raw.trainable_variables)
print([v.path for v in block.variables] == [w.path for w in block.weights], len(model.variables))
