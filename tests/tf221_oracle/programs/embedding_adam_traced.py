import numpy as np
import keras

# An Embedding trained by Adam in a traced train step: its gradient is IndexedSlices, so a row
# looked up twice in a batch gets one summed slice per lookup squared in Adam's second moment
# (Keras's sparse update), not the square of the summed row.
keras.utils.set_random_seed(0)
ids = np.array([[1, 1, 2, 0], [3, 3, 3, 1], [2, 4, 4, 0], [1, 2, 3, 4]])
labels = np.array([1, 0, 1, 0], "float32")
model = keras.Sequential([keras.Input((4,), dtype="int32"), keras.layers.Embedding(5, 3),
                          keras.layers.GlobalAveragePooling1D(), keras.layers.Dense(1, activation="sigmoid")])
model.compile(optimizer=keras.optimizers.Adam(0.1), loss="binary_crossentropy")
h = model.fit(ids, labels, epochs=4, batch_size=2, verbose=0, shuffle=False)
print([round(v, 5) for v in h.history["loss"]])
print(np.round(model.layers[0].embeddings.numpy(), 5).tolist())
