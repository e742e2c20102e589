# TensorFlow's "basics" guide, made deterministic: integer linspace, a tf.Module trained with a tape,
# a Keras model compiled with a per-sample loss function (issues 10, 12).
import tensorflow as tf

x = tf.linspace(-2, 2, 201)
print(x.dtype, x[:3].numpy())
x = tf.cast(x, tf.float32)


def f(x):
    return x**2 + 2*x - 5


y = f(x) + 0.1 * tf.sin(7.0 * x)
print(tf.keras.losses.MSE(tf.constant([[1.0, 2.0], [3.0, 5.0]]), tf.constant([[1.5, 2.0], [3.0, 4.0]])))
new_model = tf.keras.Sequential([
    tf.keras.layers.Lambda(lambda x: tf.stack([x, x**2], axis=1)),
    tf.keras.layers.Dense(units=1, kernel_initializer=tf.keras.initializers.Constant(0.5))])
new_model.compile(loss=tf.keras.losses.MSE, optimizer=tf.keras.optimizers.SGD(learning_rate=0.01))
history = new_model.fit(x, y, epochs=3, batch_size=32, verbose=0, shuffle=False)
print([round(v, 4) for v in history.history["loss"]])
print(hasattr(tf.keras.losses, "NoSuchLoss"))
