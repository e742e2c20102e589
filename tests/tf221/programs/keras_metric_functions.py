# keras.metrics' functions (keras.losses' own, top-k accuracies) and a function given to compile's
# metrics (averaged under its name).
import numpy as np
import keras

y = np.array([[0, 1, 0], [1, 0, 0]], "float32")
p = np.array([[0.2, 0.5, 0.3], [0.1, 0.7, 0.2]], "float32")
print(keras.metrics.mean_squared_error is keras.losses.mean_squared_error,
      keras.metrics.binary_crossentropy is keras.losses.binary_crossentropy)
print("mae", np.round(keras.metrics.mean_absolute_error(y, p).numpy(), 4).tolist())
print("mape", np.round(keras.metrics.mean_absolute_percentage_error(y + 1, p + 1).numpy(), 4).tolist())
print("top1", keras.metrics.top_k_categorical_accuracy(y, p, k=1).numpy().tolist())
print("sparse top2", keras.metrics.sparse_top_k_categorical_accuracy(np.array([1, 2]), p, k=2).numpy().tolist())
model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(3, kernel_initializer="ones")])
model.compile("sgd", "mse", metrics=[keras.metrics.mean_absolute_error, keras.metrics.top_k_categorical_accuracy])
history = model.fit(p, y, verbose=0, epochs=2)
print(sorted(history.history), np.round(history.history["mean_absolute_error"], 4).tolist())
