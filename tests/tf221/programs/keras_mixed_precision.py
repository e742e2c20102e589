# keras.mixed_precision (issue 29): policies, layer dtype policies, autocast of float32 variables in float16 layers, the
# softmax Activation(dtype="float32") idiom, compile wrapping SGD in a LossScaleOptimizer, fit, scale_loss and the gradients.
import numpy as np
import tensorflow as tf

keras = tf.keras
mp = keras.mixed_precision
print(mp.Policy is keras.DTypePolicy, mp.DTypePolicy is keras.DTypePolicy, mp.LossScaleOptimizer is keras.optimizers.LossScaleOptimizer)
print(mp.global_policy(), keras.config.dtype_policy())
p = mp.Policy("mixed_float16")
print(p, p.name, p.compute_dtype, p.variable_dtype)
print(mp.Policy("mixed_bfloat16").compute_dtype, mp.Policy("float64").variable_dtype)
mp.set_global_policy("mixed_float16")
print(mp.global_policy(), keras.config.dtype_policy(), keras.config.floatx())
d = keras.layers.Dense(3)
print(d.dtype_policy, d.compute_dtype, d.variable_dtype, d.dtype)
d2 = keras.layers.Dense(3, dtype="float32")
print(d2.dtype_policy, d2.compute_dtype)
d3 = keras.layers.Dense(3, dtype=mp.Policy("mixed_bfloat16"))
print(d3.dtype_policy, d3.compute_dtype)
x = np.arange(6, dtype="float32").reshape(2, 3) / 10
out = d(x)
print(out.dtype, tf.as_dtype(d.kernel.dtype).name, tf.as_dtype(d.bias.dtype).name)
print(d3(x).dtype, d2(out).dtype)
print(d.get_config()["dtype"])
inp = keras.Input((3,))
print(inp.dtype, d(inp).dtype)
act = keras.layers.Activation("softmax", dtype="float32")
print(act(d(inp)).dtype)

rng = np.random.default_rng(0)
xs = rng.normal(size=(16, 3)).astype("float32")
ys = (np.arange(16) % 2).astype("int32")
model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(4, activation="relu"), keras.layers.Dense(2),
                          keras.layers.Activation("softmax", dtype="float32")])
model.set_weights([np.full((3, 4), 0.1, "float32") * np.arange(1, 5, dtype="float32"), np.zeros(4, "float32"),
                   np.array([[0.5, -0.5], [-0.5, 0.25], [0.25, 1.0], [1.0, 0.1]], "float32"), np.zeros(2, "float32")])
print(model.dtype_policy, [l.dtype_policy.name for l in model.layers], model.compute_dtype)
print(model(xs[:2]).dtype, model.layers[1](xs[:2]).dtype if False else "")
model.compile(optimizer=keras.optimizers.SGD(0.1), loss="sparse_categorical_crossentropy", metrics=["accuracy"])
opt = model.optimizer
print(type(opt).__name__, opt.name, type(opt.inner_optimizer).__name__)
print(opt.built, opt.initial_scale, opt.dynamic_growth_steps, float(opt.scale_loss(tf.constant(1.0))), opt.learning_rate)
h = model.fit(xs, ys, batch_size=4, epochs=2, verbose=0, shuffle=False)
print([round(v, 4) for v in h.history["loss"]], h.history["accuracy"])
print(float(opt.dynamic_scale), int(opt.iterations.numpy()), int(opt.step_counter.numpy()))
print([tf.as_dtype(w.dtype).name for w in model.weights], [np.round(w, 4).tolist() for w in model.get_weights()[2:]])
print(np.round(model.predict(xs[:3], verbose=0), 3), model.predict(xs[:3], verbose=0).dtype)
print(model.evaluate(xs, ys, verbose=0))
with tf.GradientTape() as tape:
    y = model(xs[:4])
    loss = keras.losses.sparse_categorical_crossentropy(ys[:4], y)
    loss = tf.reduce_mean(loss)
    scaled = opt.scale_loss(loss)
print(y.dtype, loss.dtype, scaled.dtype, float(scaled) / float(loss))
g = tape.gradient(scaled, model.trainable_variables)
print([t.dtype for t in g])
