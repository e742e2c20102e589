# `import keras` under mixed precision (issue 29): mixed_float16 fits with RMSprop wrapped in a LossScaleOptimizer and
# float16 outputs into float32 losses and metrics (float16 noise: 2 decimals); mixed_bfloat16 (no loss scaling; bfloat16 noise: 1 decimal);
# the policy errors.
import numpy as np
import keras
import tensorflow as tf

tf.get_logger().setLevel("ERROR")  # not the retracing warnings of the several small models
keras.mixed_precision.set_global_policy("mixed_float16")
rng = np.random.default_rng(3)
x = rng.normal(size=(8, 3)).astype("float32")
y = np.arange(8) % 2
yf = rng.normal(size=(8, 2)).astype("float32")
for loss, target, metrics in (("sparse_categorical_crossentropy", y, ["accuracy"]), ("mse", yf, ["mae"]),
                              ("categorical_crossentropy", np.eye(2)[y], ["categorical_accuracy"])):
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(4, activation="tanh"),
                              keras.layers.Dense(2, activation="softmax" if "cross" in loss else None)])
    model.set_weights([np.linspace(-0.5, 0.5, w.size).reshape(w.shape).astype("float32") for w in model.get_weights()])
    model.compile(optimizer=keras.optimizers.RMSprop(0.01), loss=loss, metrics=metrics)
    h = model.fit(x, target, batch_size=4, epochs=2, verbose=0, shuffle=False)
    print(loss, {k: [round(v, 2) for v in vals] for k, vals in h.history.items()})
    print({k: round(v, 2) for k, v in model.evaluate(x, target, verbose=0, return_dict=True).items()},
          model.predict(x[:2], verbose=0).dtype)
keras.mixed_precision.set_global_policy("mixed_bfloat16")
print(keras.mixed_precision.global_policy(), keras.config.dtype_policy().compute_dtype)
rng = np.random.default_rng(2)
x = rng.normal(size=(8, 6, 6, 2)).astype("float32")
y = np.arange(8) % 3
model = keras.Sequential([keras.Input((6, 6, 2)), keras.layers.Conv2D(3, 3, activation="relu"), keras.layers.MaxPooling2D(),
                          keras.layers.Flatten(), keras.layers.Dense(3), keras.layers.Activation("softmax", dtype="float32")])
model.set_weights([np.linspace(-0.5, 0.5, w.size).reshape(w.shape).astype("float32") for w in model.get_weights()])
print(model(x[:2]).dtype, model.layers[0](x[:2]).dtype)
model.compile(optimizer="sgd", loss="sparse_categorical_crossentropy")
print(type(model.optimizer).__name__)
h = model.fit(x, y, batch_size=4, epochs=2, verbose=0, shuffle=False)
print([round(v, 1) for v in h.history["loss"]])
pred = model.predict(x[:4], verbose=0)
print(np.argmax(pred, -1), pred.dtype)
keras.mixed_precision.set_global_policy("float32")
print(keras.layers.Dense(2).dtype_policy)
try:
    keras.mixed_precision.set_global_policy(3)
except Exception as e:
    print(type(e).__name__, e)
try:
    keras.mixed_precision.Policy("mixed_float8")
except Exception as e:
    print(type(e).__name__, e)
print(keras.mixed_precision.Policy("float16") == keras.DTypePolicy("float16"), repr(keras.mixed_precision.Policy("mixed_bfloat16")))
