# mixed_float16 through Keras's common layers (issue 29): output dtypes and values (fixed weights, to float16's 2 decimals),
# then a functional model ending in Activation("softmax", dtype="float32") fit with Adam wrapped in a LossScaleOptimizer.
import numpy as np
import tensorflow as tf

keras = tf.keras
keras.mixed_precision.set_global_policy("mixed_float16")
L = keras.layers
rng = np.random.default_rng(1)


def fixed(layer, x, **kwargs):
    out = layer(x, **kwargs)
    layer.set_weights([np.linspace(-0.5, 0.5, w.size).reshape(w.shape).astype("float32") for w in layer.get_weights()])
    out = layer(x, **kwargs)
    outs = out if isinstance(out, (list, tuple)) else [out]
    print(type(layer).__name__, [o.dtype.name for o in outs], [np.round(np.asarray(o, "float32").ravel()[:6], 2).tolist() for o in outs])


img = rng.normal(size=(2, 6, 6, 3)).astype("float32")
seq = rng.normal(size=(2, 5, 4)).astype("float32")
fixed(L.Conv2D(4, 3, activation="relu"), img)
fixed(L.Conv1D(3, 2), seq)
fixed(L.MaxPooling2D(), img)
fixed(L.AveragePooling2D(2), img)
fixed(L.GlobalAveragePooling2D(), img)
fixed(L.GlobalMaxPooling1D(), seq)
fixed(L.Flatten(), img)
fixed(L.Embedding(10, 3), np.array([[1, 2], [3, 9]]))
fixed(L.LayerNormalization(), seq)
fixed(L.BatchNormalization(), seq, training=True)
fixed(L.BatchNormalization(), seq, training=False)
fixed(L.Dropout(0.5), seq, training=False)
fixed(L.SimpleRNN(3), seq)
fixed(L.LSTM(3), seq)
fixed(L.GRU(3, return_sequences=True), seq)
fixed(L.MultiHeadAttention(2, 2), seq, value=seq)
fixed(L.Add(), [seq, seq])
fixed(L.Concatenate(), [seq, seq])
fixed(L.Reshape((20,)), seq)
fixed(L.Dense(2, activation="softmax"), seq)
fixed(L.Softmax(), seq)
fixed(L.ReLU(), seq)
fixed(L.Rescaling(0.5), seq)
fixed(L.Conv2DTranspose(2, 2), img)
fixed(L.DepthwiseConv2D(2), img)
fixed(L.SeparableConv2D(2, 2), img)
fixed(L.UpSampling2D(), img)
fixed(L.ZeroPadding2D(), img)
fixed(L.TimeDistributed(L.Dense(2)), seq)
fixed(L.Bidirectional(L.LSTM(2)), seq)

inp = keras.Input((5, 4))
h = L.Conv1D(4, 2, activation="relu")(inp)
h = L.LayerNormalization()(h)
h = L.GlobalAveragePooling1D()(h)
h = L.Dense(3)(h)
out = L.Activation("softmax", dtype="float32")(h)
model = keras.Model(inp, out)
print([t.dtype for t in (inp, h, out)], model.dtype_policy)
model.set_weights([np.linspace(-0.5, 0.5, w.size).reshape(w.shape).astype("float32") for w in model.get_weights()])
model.compile(optimizer=keras.optimizers.Adam(0.01), loss="sparse_categorical_crossentropy", metrics=["accuracy"])
print(type(model.optimizer).__name__)
ys = np.array([0, 2])
h = model.fit(seq, ys, epochs=3, verbose=0)
print([round(v, 3) for v in h.history["loss"]], float(model.optimizer.dynamic_scale.numpy()))
print(np.round(model.predict(seq, verbose=0), 3))
