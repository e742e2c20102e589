# CategoricalCrossentropy / BinaryCrossentropy with label_smoothing (and from_logits), and a layer
# whose call takes no training argument called with training= (Keras drops it).
import numpy as np
import keras

y = np.array([[0, 1, 0], [1, 0, 0]], "float32")
p = np.array([[0.2, 0.5, 0.3], [0.1, 0.7, 0.2]], "float32")
for smoothing in (0.0, 0.1):
    cce = keras.losses.CategoricalCrossentropy(label_smoothing=smoothing)
    logits = keras.losses.CategoricalCrossentropy(from_logits=True, label_smoothing=smoothing)
    bce = keras.losses.BinaryCrossentropy(label_smoothing=smoothing)
    print(smoothing, round(float(cce(y, p)), 5), round(float(logits(y, p)), 5), round(float(bce(y, p)), 5))
print(keras.losses.CategoricalCrossentropy(label_smoothing=0.2).get_config()["label_smoothing"])


class Block(keras.layers.Layer):
    def __init__(self):
        super().__init__()
        self.inner = keras.layers.Identity()

    def call(self, x, training=False):
        return self.inner(x, training=training) * 2


print(Block()(np.ones((1, 2), "float32"), training=True).numpy().tolist())
model = keras.Sequential([keras.Input((2,)), Block(), keras.layers.Dense(1)])
model.compile("sgd", "mse")
print(model.fit(np.ones((4, 2)), np.ones((4, 1)), verbose=0).history.keys())
