"""Keras breadth: ``compile(weighted_metrics=)`` with ``sample_weight`` and ``class_weight``
(``weighted_<name>`` when an unweighted metric has the name), ``train_on_batch`` /
``test_on_batch`` / ``predict_on_batch``, weight constraints applied after each optimizer update
(Dense, Embedding, an optimizer's ``apply_gradients`` in a custom loop), and binary cross-entropy
from logits trained from zero logits (the gradient of ``sigmoid_cross_entropy_with_logits`` at 0).
TensorFlow's logger is quieted: its retracing warning for Keras's step functions (the one-batch
calls trace anew) is not what is compared here."""
import os
os.environ["TF_CPP_MIN_LOG_LEVEL"] = "3"
import numpy as np
import tensorflow as tf
import keras
from keras import layers

tf.get_logger().setLevel("ERROR")

def rounded(logs):
    if isinstance(logs, dict):
        return {k: [round(float(v), 4) for v in vs] if isinstance(vs, list) else round(float(vs), 4)
                for k, vs in sorted(logs.items())}
    return [round(float(v), 4) for v in logs] if isinstance(logs, list) else round(float(logs), 4)


m = keras.Sequential([keras.Input((2,)), layers.Dense(1, kernel_initializer="ones")])
m.compile(optimizer="sgd", loss="mse", metrics=["mae"], weighted_metrics=["mse", "mae"])
x = np.array([[1.0, 2.0], [3.0, 4.0]], "float32")
y = np.array([[1.0], [2.0]], "float32")
print(rounded(m.evaluate(x, y, sample_weight=np.array([1.0, 0.0]), verbose=0, return_dict=True)))
print(rounded(m.evaluate(x, y, sample_weight=np.array([1.0, 0.0]), verbose=0)), m.metrics_names)
print(rounded(m.test_on_batch(x, y, return_dict=True)))
print(rounded(m.test_on_batch(x, y, sample_weight=np.array([0.0, 1.0]))))
print(rounded(m.train_on_batch(x, y, return_dict=True)))
print(m.predict_on_batch(x).round(4))
cw = keras.Sequential([keras.Input((2,)), layers.Dense(2, kernel_initializer="zeros")])
cw.compile(optimizer="sgd", loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True),
           weighted_metrics=["accuracy"])
h = cw.fit(np.array([[1.0, 0.0], [0.0, 1.0]]), np.array([0, 1]), class_weight={0: 1.0, 1: 3.0}, verbose=0,
           epochs=2, shuffle=False)
print(rounded(h.history))
print(rounded(cw.train_on_batch(np.array([[1.0, 0.0]]), np.array([1]), class_weight={1: 2.0}, return_dict=True)))

c = keras.Sequential([keras.Input((3,)), layers.Dense(2, kernel_initializer="ones", kernel_constraint=keras.constraints.NonNeg(),
                                                      bias_constraint=keras.constraints.MaxNorm(0.1))])
c.compile(optimizer=keras.optimizers.SGD(1.0), loss="mse")
c.fit(np.array([[1.0, 2.0, 3.0]], "float32"), np.array([[-10.0, 10.0]], "float32"), verbose=0, epochs=2)
print(c.layers[0].kernel.numpy().round(4), c.layers[0].bias.numpy().round(4))
e = layers.Embedding(4, 2, embeddings_initializer="ones", embeddings_constraint=keras.constraints.MaxNorm(1.0))
em = keras.Sequential([keras.Input((1,), dtype="int32"), e, layers.Flatten()])
em.compile(optimizer=keras.optimizers.SGD(0.1), loss="mse")
em.fit(np.array([[1]]), np.array([[5.0, 5.0]]), verbose=0)
print(e.embeddings.numpy().round(4))
unit = layers.Dense(2, kernel_initializer="ones", kernel_constraint=keras.constraints.UnitNorm(axis=0))
unit.build((None, 2))
opt = keras.optimizers.Adam(0.5)
with tf.GradientTape() as tape:
    loss = tf.reduce_sum(unit(tf.ones([1, 2])))
opt.apply_gradients(zip(tape.gradient(loss, unit.trainable_variables), unit.trainable_variables))
print(unit.kernel.numpy().round(4), unit.kernel.constraint.get_config())

rng = np.random.RandomState(0)
features, targets = rng.random_sample((16, 4)).astype("float32"), rng.random_sample((16, 1))
i = keras.Input((4,))
bce = keras.Model(i, layers.Dense(1, kernel_initializer="zeros")(i))
bce.compile(optimizer=keras.optimizers.SGD(0.1), loss=keras.losses.BinaryCrossentropy(from_logits=True))
print(rounded(bce.fit(features, targets, epochs=2, batch_size=8, verbose=0, shuffle=False).history))
print(bce.layers[1].kernel.numpy().ravel().round(5), bce.layers[1].bias.numpy().round(5))
z = tf.Variable(tf.zeros([3, 1]))
with tf.GradientTape() as tape:
    loss = tf.reduce_sum(tf.nn.sigmoid_cross_entropy_with_logits(labels=tf.constant([[0.0], [0.25], [1.0]]), logits=z))
print(tape.gradient(loss, z).numpy().ravel())
n = tf.Variable(2)
with tf.GradientTape() as tape:
    doubled = n * 2
print(tape.gradient(doubled, n))
