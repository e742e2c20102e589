# Keras 3 API that keras.io programs use (issue 29): Sequential.pop, keras.config's traceback
# filtering, dict inputs by Input name (functional and subclassed fit), a layer called with keywords
# only, bool data cast to the Input's dtype, metrics updated inside a tf.function, the symbolic output
# shape of a custom layer without compute_output_shape (its call traced: tf.shape, tf.random.normal
# and tf.reshape of a dynamic batch), tensor._keras_mask, Conv2D.convolution_op, clone_model.
import numpy as np
import tensorflow as tf
import keras
from keras import layers

keras.utils.set_random_seed(1)

model = keras.Sequential([keras.Input((3,)), layers.Dense(4), layers.Dense(2), layers.Dense(5)])
popped = model.pop()
print("pop", type(popped).__name__, len(model.layers), model.outputs[0].shape, model(np.ones((2, 3))).shape)
print("traceback filtering", keras.config.is_traceback_filtering_enabled())


class Broken(layers.Layer):
    def call(self, x):
        raise ValueError("broken layer")


for enabled in (True, False):
    (keras.config.enable_traceback_filtering if enabled else keras.config.disable_traceback_filtering)()
    try:
        Broken()(np.ones((1, 2)))
    except ValueError as e:
        print("filtering", keras.config.is_traceback_filtering_enabled(), str(e).splitlines()[0])
keras.config.enable_traceback_filtering()

inputs = keras.Input((4,), name="features")
extra = keras.Input((1,), name="extra")
out = layers.Dense(1)(layers.Concatenate()([inputs, extra]))
functional = keras.Model([inputs, extra], out)
functional.compile("sgd", "mse")
data = {"features": np.ones((8, 4), "float32"), "extra": np.zeros((8, 1), "float32"), "unused": np.ones((8, 2))}
history = functional.fit(data, np.ones((8, 1)), batch_size=4, epochs=2, verbose=0)
print("dict fit", sorted(history.history), len(history.history["loss"]))
print("dict call", functional({"features": np.ones((2, 4)), "extra": np.ones((2, 1))}).shape)


class Endpoint(layers.Layer):
    def __init__(self):
        super().__init__()
        self.error = keras.metrics.MeanAbsoluteError(name="error")

    def call(self, logits, targets=None):
        if targets is not None:
            self.add_loss(tf.reduce_mean(tf.square(targets - logits)))
            self.error.update_state(targets, logits)
        return logits


class ByName(keras.Model):
    def __init__(self):
        super().__init__()
        self.dense = layers.Dense(1)
        self.end = Endpoint()

    def call(self, inputs):
        return self.end(logits=self.dense(inputs["x"]), targets=inputs["y"])


by_name = ByName()
by_name.compile("sgd")
history = by_name.fit({"x": np.ones((8, 3), "float32"), "y": np.ones((8, 1), "float32")}, batch_size=4, verbose=0)
print("subclassed dict fit", sorted(history.history), [m.name for m in by_name.metrics])

seq = keras.Sequential([keras.Input((3, 2)), layers.Flatten(), layers.Dense(1)])
print("bool input", seq(np.ones((2, 3, 2), bool)).dtype)

dense = keras.Sequential([keras.Input((4,)), layers.Dense(3, kernel_initializer="ones")])
accuracy, mean = keras.metrics.SparseCategoricalAccuracy(), keras.metrics.Mean()
sgd = keras.optimizers.SGD(0.1)
loss_fn = keras.losses.SparseCategoricalCrossentropy(from_logits=True)


@tf.function
def step(x, y):
    with tf.GradientTape() as tape:
        logits = dense(x, training=True)
        loss = loss_fn(y, logits)
    sgd.apply(tape.gradient(loss, dense.trainable_weights), dense.trainable_weights)
    accuracy.update_state(y, logits)
    mean.update_state(loss)
    return loss, accuracy.result()


xs = np.arange(24, dtype="float32").reshape(6, 4) / 10
ys = np.array([0, 1, 2, 0, 1, 2])
for k in range(3):
    loss, acc = step(xs[2 * k:2 * k + 2], ys[2 * k:2 * k + 2])
    print("step", k, round(float(loss), 5), round(float(acc), 5))
print("metrics after", round(float(accuracy.result()), 5), round(float(mean.result()), 5))


class Sampling(layers.Layer):
    def call(self, inputs):
        z_mean, z_log_var = inputs
        epsilon = tf.random.normal(shape=(tf.shape(z_mean)[0], tf.shape(z_mean)[1]))
        return z_mean + tf.exp(0.5 * z_log_var) * epsilon


class Patches(layers.Layer):
    def call(self, images):
        batch = tf.shape(images)[0]
        return tf.reshape(images, (batch, -1, 4))


encoder_in = keras.Input((6,))
z = Sampling()([layers.Dense(2)(encoder_in), layers.Dense(2)(encoder_in)])
print("sampling", z.shape, keras.Model(encoder_in, z)(np.ones((5, 6))).shape)
patches = Patches()(keras.Input((4, 4, 1)))
print("patches", patches.shape)


class OpsPatches(layers.Layer):
    def call(self, images):
        batch, channels = keras.ops.shape(images)[0], keras.ops.shape(images)[-1]
        return keras.ops.reshape(keras.ops.image.extract_patches(images, 2), (batch, -1, 4 * channels))


print("ops patches", OpsPatches()(keras.Input((4, 4, 3))).shape, keras.ops.shape(np.ones((2, 3))))

embedded = layers.Embedding(5, 2, mask_zero=True)(np.array([[1, 2, 0], [3, 0, 0]]))
print("mask", embedded._keras_mask.numpy().tolist(), hasattr(tf.constant([1.0]), "_keras_mask"))


class Standardized(layers.Conv2D):
    def call(self, inputs):
        return self.convolution_op(inputs, self.kernel * 2.0)


conv = Standardized(1, 2, kernel_initializer="ones", use_bias=False)
print("convolution_op", conv(np.ones((1, 3, 3, 1), "float32")).numpy().reshape(-1).tolist())

clone = keras.models.clone_model(model)
print("clone", clone.name == model.name, [w.shape for w in clone.weights], clone.layers[0] is model.layers[0])

stack = keras.Sequential([keras.Input((8, 8, 1)), layers.Conv2D(2, 3), layers.Flatten(), layers.Dense(3)])
features = keras.Model(inputs=stack.inputs, outputs=[layer.output for layer in stack.layers])
print("layer outputs", [tuple(o.shape) for o in features(np.ones((1, 8, 8, 1)))], stack.layers[1].input.shape)
print("model output", functional.output.shape, [t.name for t in functional.input])
try:
    layers.Dense(2).output
except AttributeError as e:
    print("AttributeError", e)

ids = keras.Input(shape=(None,), dtype="int32")
masked = layers.Embedding(input_dim=50, output_dim=4, mask_zero=True)(ids)
passed_on = layers.Dense(2)(masked)
print("symbolic mask", masked._keras_mask.shape, masked._keras_mask.dtype, passed_on._keras_mask.shape,
      hasattr(ids, "_keras_mask"))
