# keras.mixed_precision.LossScaleOptimizer on its own: variables, config, scale_loss, skipped non-finite steps, growth, errors;
# then in a tf.function training step of a mixed_float16 Dense (its tf.conds traced).
import numpy as np
import tensorflow as tf

keras = tf.keras
LSO = keras.mixed_precision.LossScaleOptimizer
opt = LSO(keras.optimizers.SGD(0.5), dynamic_growth_steps=2)
print(opt.name, opt.initial_scale, opt.dynamic_growth_steps, opt.built, float(opt.scale_loss(tf.constant(2.0))))
v = keras.Variable([1.0, 2.0], name="w")
opt.build([v])
print([(x.path, tf.as_dtype(x.dtype).name, x.numpy().tolist()) for x in opt.variables])
print(opt.get_config())
for grads in ([4.0, 8.0], [np.inf, 1.0], [4.0, 8.0], [4.0, 8.0], [np.nan, 0.0], [2.0, 2.0]):
    opt.apply([tf.constant(grads)], [v])
    print(v.numpy().tolist(), float(opt.dynamic_scale.numpy()), int(opt.step_counter.numpy()), int(opt.iterations.numpy()))
opt2 = LSO(keras.optimizers.Adam(0.1), initial_scale=8.0)
w = keras.Variable([[1.0, -1.0]], name="k")
with tf.GradientTape() as tape:
    loss = tf.reduce_sum(w * w)
    scaled = opt2.scale_loss(loss)
g = tape.gradient(scaled, [w])
print(float(scaled), g[0].numpy().tolist())
opt2.apply_gradients(zip(g, [w]))
print(w.numpy().tolist(), float(opt2.dynamic_scale.numpy()), opt2.learning_rate.numpy())
opt2.learning_rate = 0.2
print(opt2.inner_optimizer.learning_rate.numpy(), int(opt2.iterations.numpy()))
for bad in (dict(dynamic=False), dict(foo=1), dict(clipnorm=1.0)):
    try:
        LSO(keras.optimizers.SGD(), **bad)
    except Exception as e:
        print(type(e).__name__, e)
print(type(LSO(keras.optimizers.SGD())).__mro__[1].__name__, isinstance(opt, keras.optimizers.Optimizer))

keras.mixed_precision.set_global_policy("mixed_float16")
d = keras.layers.Dense(2, kernel_initializer="ones")
d.build((None, 3))
x = tf.constant(np.arange(6, dtype="float32").reshape(2, 3) / 10)

opt = keras.mixed_precision.LossScaleOptimizer(keras.optimizers.SGD(0.1), initial_scale=4.0)
opt.build(d.trainable_variables)


@tf.function
def step(x):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.cast(d(x), "float32"))
        scaled = opt.scale_loss(loss)
    grads = tape.gradient(scaled, d.trainable_variables)
    opt.apply(grads, d.trainable_variables)
    return loss, scaled, grads


for inputs in (x, x * np.inf, x, x):
    loss, scaled, grads = step(inputs)
    print(loss.numpy(), scaled.numpy(), [g.numpy().tolist() for g in grads], [g.dtype.name for g in grads])
    print(d.kernel.numpy().tolist(), float(opt.dynamic_scale.numpy()), int(opt.step_counter.numpy()),
          int(opt.iterations.numpy()))
