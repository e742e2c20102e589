# keras.ops on functional-API tensors (KerasTensors): each call is a node of the graph with the output
# shape Keras gives it (expand_dims, mean, reshape, split, tile, matmul …), and the model runs them.
import numpy as np
import keras
from keras import ops

inputs = keras.Input((4, 8))
weights = ops.expand_dims(ops.softmax(ops.mean(inputs, axis=-1)), axis=-1)
weighted = weights * inputs
flat = ops.reshape(weighted, (-1, 32))
halves = ops.split(inputs, 2, axis=-1)
tiled = ops.tile(halves[0], [1, 1, 2])
gram = ops.matmul(inputs, ops.transpose(inputs, (0, 2, 1)))
print(weights.shape, weighted.shape, flat.shape, [h.shape for h in halves], tiled.shape, gram.shape)
model = keras.Model(inputs, [flat, tiled, gram])
x = np.arange(2 * 4 * 8, dtype="float32").reshape(2, 4, 8) / 64
outs = model(x)
print([tuple(o.shape) for o in outs], np.round(ops.convert_to_numpy(outs[0])[0, :4], 5).tolist())
model.compile("sgd", "mse")
print(np.round(model.predict(x, verbose=0)[1][1, 0], 5).tolist())
