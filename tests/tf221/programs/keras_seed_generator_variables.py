"""Keras 3 lists a layer's seed generators' states in `variables` (int64 (2,), not trainable,
`seed_generator/seed_generator_state`), not in `weights`; a dropout of rate 0 has none."""
import numpy as np
import tensorflow as tf
import keras

model = keras.Sequential([
    keras.Input((4,)),
    keras.layers.Dense(3),
    keras.layers.Dropout(0.5),
    keras.layers.Dropout(0.0),
    keras.layers.GaussianNoise(0.1),
    keras.layers.Dense(1),
])
for v in model.variables:
    print(v.path, v.name, v.shape, tf.as_dtype(v.dtype).name, v.trainable)
print(len(model.weights), len(model.trainable_variables), len(model.non_trainable_variables),
      len(model.non_trainable_weights))
print([v.path for v in model.non_trainable_variables])
print([v.path for v in model.layers[1].variables], model.layers[1].weights, model.layers[2].variables)
model.compile("sgd", "mse")
model.fit(np.ones((4, 4)), np.ones((4, 1)), verbose=0)
print(len(model.variables), [int(v.numpy()[1]) for v in model.non_trainable_variables])
