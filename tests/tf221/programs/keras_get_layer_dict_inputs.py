# Model.get_layer by name and index (and its error), and a functional model made with a dict of Inputs
# called with a dict.
import keras, numpy as np
from keras import layers
m = keras.Sequential([keras.Input((3,)), layers.Dense(2, name="a"), layers.Dense(1, name="b")])
print(m.get_layer("b").name, m.get_layer(index=0).name)
try:
    m.get_layer("zz")
except ValueError as e:
    print(e)
ins = {"img": keras.Input((2,), name="img"), "meta": keras.Input((1,), name="meta")}
out = layers.Dense(1)(layers.Concatenate()([ins["img"], ins["meta"]]))
f = keras.Model(inputs=ins, outputs=out)
print(f({"img": np.ones((2, 2)), "meta": np.ones((2, 1))}).shape, [t.name for t in f.inputs])
a, b = keras.Input((1, 4)), keras.Input((3, 4))
added = layers.Add()([a, b])
print("Add broadcasts", added.shape, keras.Model([a, b], added)([np.ones((2, 1, 4)), np.ones((2, 3, 4))]).shape)
