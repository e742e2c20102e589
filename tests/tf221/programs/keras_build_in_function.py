# Layers built on their first call inside a tf.function (a subclassed model first called in a traced
# training step): variables made on the first trace, as TensorFlow allows; Adam's slots too; paths.
import numpy as np
import tensorflow as tf

class MyModel(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.d1 = tf.keras.layers.Dense(4, activation="relu", kernel_initializer="ones")
        self.d2 = tf.keras.layers.Dense(1, kernel_initializer="ones")
    def call(self, x):
        return self.d2(self.d1(x))

model = MyModel()
opt = tf.keras.optimizers.Adam(0.01)
loss_fn = tf.keras.losses.MeanSquaredError()

@tf.function
def train_step(x, y):
    with tf.GradientTape() as tape:
        pred = model(x, training=True)
        loss = loss_fn(y, pred)
    grads = tape.gradient(loss, model.trainable_variables)
    opt.apply_gradients(zip(grads, model.trainable_variables))
    return loss

x = np.ones((4, 3), "float32"); y = np.zeros((4, 1), "float32")
for i in range(3):
    print(i, float(train_step(x, y)))
print(len(model.trainable_variables), [v.path for v in model.trainable_variables], len(opt.variables))
print(np.round(model.d1.kernel.numpy(), 4).tolist())
class MyModel(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.d1 = tf.keras.layers.Dense(4)
    def call(self, x):
        return self.d1(x)
m = MyModel(); m(np.ones((2, 3), "float32"))
print([v.path for v in m.trainable_variables])
m2 = MyModel()
tf.function(lambda x: m2(x))(np.ones((2, 3), "float32"))
print([v.path for v in m2.trainable_variables])
s = tf.keras.Sequential([tf.keras.layers.Dense(2)]); s(np.ones((2, 3), "float32"))
print([v.path for v in s.trainable_variables])
