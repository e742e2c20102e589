# mixed_float16 in a subclassed model and a custom layer (issue 29): the model casts its input, its own weight and the
# layer's autocast weight read as float16 inside call, an autocast=False weight stays float32; a saved model's compile
# config keeps the optimizer unwrapped (loaded under float32: Adam, the saved LossScaleOptimizer's state skipped).
import os
import tempfile
import numpy as np
import tensorflow as tf
keras = tf.keras
keras.mixed_precision.set_global_policy("mixed_float16")
seen = set()


class Scale(keras.layers.Layer):
    def build(self, input_shape):
        self.w = self.add_weight(shape=(input_shape[-1],), initializer="ones", name="w")
        self.c = self.add_weight(shape=(), initializer="ones", name="c", autocast=False)

    def call(self, x):
        seen.add((x.dtype.name, tf.as_dtype(self.w.dtype).name, tf.as_dtype(self.c.dtype).name))
        return x * self.w + tf.cast(self.c, x.dtype)


class Net(keras.Model):
    def __init__(self):
        super().__init__()
        self.scale = Scale()
        self.out = keras.layers.Dense(1, kernel_initializer="ones")

    def build(self, input_shape):
        self.k = self.add_weight(shape=(input_shape[-1], input_shape[-1]), initializer="identity", name="k")

    def call(self, x):
        seen.add(("net", x.dtype.name))
        return self.out(self.scale(tf.matmul(x, self.k)))


net = Net()
x = np.ones((2, 3), "float32")
y = net(x)
print(y.dtype, [tf.as_dtype(w.dtype).name for w in net.weights], y.numpy().tolist())
seq = keras.Sequential([keras.Input((3,)), Scale(), keras.layers.Dense(2)])
print(seq(x).dtype, seq.get_config()["dtype"]["config"], seq.layers[0].get_config()["dtype"]["config"])
seq.compile(optimizer="adam", loss="mse")
seq.fit(x, np.zeros((2, 2), "float32"), epochs=1, verbose=0)
path = os.path.join(tempfile.mkdtemp(), "m.keras")
seq.save(path)
keras.mixed_precision.set_global_policy("float32")
back = keras.models.load_model(path, custom_objects={"Scale": Scale})
print(type(back.optimizer).__name__, back.layers[1].dtype_policy, back(x).dtype)
print(sorted(seen))
