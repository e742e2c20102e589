# keras.ops, the losses' reductions, the further losses and metrics, and weightless layers (issue 29):
# values as Keras 3 with TensorFlow 2.21 gives them.
import numpy as np
import tensorflow as tf
import keras
from keras import ops

x = np.array([[1.0, np.nan, 3.0], [np.nan, 2.0, 1.0]])
for name in ("nansum", "nanmean", "nanmax", "nanmin", "nanstd", "nanvar", "nanmedian"):
    print(name, getattr(ops, name)(x, axis=1).numpy())
print(ops.arange(5).dtype, ops.arange(0.0, 2.0, 0.5).numpy(), ops.zeros((2,)).dtype, ops.array([1, 2]).dtype)
a = ops.reshape(ops.arange(12, dtype="float32"), (3, 4))
print(ops.median(a, axis=1).numpy(), ops.quantile(a, 0.25, axis=0).numpy(), ops.percentile(a, 90).numpy())
print(ops.sum(a, axis=0).numpy(), ops.mean(a).numpy(), ops.std(a, axis=1).numpy(), ops.argmax(a, axis=1).numpy())
print(ops.add(ops.arange(3), 1.5).numpy(), ops.divide(ops.arange(3), 2).numpy(), ops.take(a, [0, 5]).numpy())
print(ops.clip(a, 2, 5).numpy()[0], ops.cumsum(a).numpy()[-1], ops.ptp(a, axis=0).numpy(), ops.deg2rad(90.0).numpy())
print(ops.rearrange(a, "(b h) w -> w (h b)", b=3).numpy())
print(ops.shape(a), ops.dtype(a), ops.linalg.norm(a).numpy(), ops.logsumexp(a, axis=1).numpy())
print(ops.softmax(ops.array([1.0, 2.0, 3.0])).numpy(), ops.one_hot(ops.array([0, 2]), 3).numpy())
print(ops.switch(1, [lambda v: v + 1, lambda v: v * 10], ops.array(2.0)).numpy())

y_true = np.array([[0.0, 1.0], [0.0, 0.0]], dtype="float32")
y_pred = np.array([[0.6, 0.4], [0.4, 0.6]], dtype="float32")
for reduction in ("sum_over_batch_size", "sum", "none", None):
    print(reduction, keras.losses.BinaryCrossentropy(reduction=reduction)(y_true, y_pred).numpy(),
          keras.losses.MeanSquaredError(reduction=reduction)(y_true, y_pred, sample_weight=[1.0, 0.5]).numpy())
for fn in ("hinge", "squared_hinge", "categorical_hinge", "poisson", "kl_divergence", "log_cosh",
           "mean_absolute_percentage_error", "mean_squared_logarithmic_error", "cosine_similarity"):
    print(fn, getattr(keras.losses, fn)(y_true, y_pred).numpy())
print(keras.losses.MeanAbsolutePercentageError()([100.0, 200.0], [90.0, 210.0]).numpy(), tf.keras.losses.Reduction.SUM)
try:
    keras.losses.MeanSquaredError(reduction="avg")
except ValueError as e:
    print("ValueError", str(e)[:48])

for metric in (keras.metrics.Hinge(), keras.metrics.KLDivergence(), keras.metrics.RootMeanSquaredError(),
               keras.metrics.CategoricalCrossentropy(), keras.metrics.MeanAbsolutePercentageError(),
               keras.metrics.CosineSimilarity(), keras.metrics.TopKCategoricalAccuracy(k=1),
               keras.metrics.Precision(), keras.metrics.Recall(), keras.metrics.TruePositives(),
               keras.metrics.FalseNegatives(), keras.metrics.MeanSquaredError()):
    metric.update_state(y_true, y_pred)
    metric.update_state(np.float32([[1, 0], [0, 1]]), np.float32([[1, 0], [1, 1]]), sample_weight=[1.0, 2.0])
    print(metric.name, metric.result().numpy())

x1, x2 = np.arange(6.0).reshape(2, 3), np.ones((2, 3))
L = keras.layers
print(L.Subtract()([x1, x2]).numpy()[1], L.Multiply()([x1, x2, x1]).numpy()[1], L.Average()([x1, x2]).numpy()[0])
print(L.maximum([x1, x2]).numpy()[0], L.minimum([x1, x2]).numpy()[0], L.add([x1, x2]).numpy()[0],
      L.concatenate([x1, x2]).shape)
seq = np.arange(12.0).reshape(1, 6, 2)
print(L.MaxPooling1D(2)(seq).numpy()[0, :, 0], L.AveragePooling1D(3, strides=1, padding="same")(seq).numpy()[0, :, 1])
print(L.GlobalMaxPooling1D()(seq).numpy(), L.GlobalAveragePooling1D(keepdims=True)(seq).shape,
      L.GlobalMaxPooling2D()(np.arange(16.0).reshape(1, 2, 2, 4)).numpy())
print(L.Permute((2, 1))(seq).shape, L.RepeatVector(3)(x1).shape, L.UpSampling1D(2)(seq).shape,
      L.UpSampling2D((2, 3))(np.ones((1, 2, 2, 1))).shape)
inp = keras.Input(shape=(6, 2))
print(L.Permute((2, 1))(inp).shape, L.GlobalAveragePooling1D()(inp).shape, L.MaxPooling1D(2)(inp).shape,
      L.UpSampling1D(3)(inp).shape)
print(L.Reshape((-1, 2, 2))(keras.Input(shape=(3, 4))).shape, L.Reshape((-1, 3))(np.ones((2, 6))).shape)

seqs = [[1], [2, 3], [4, 5, 6, 7]]
print(keras.utils.pad_sequences(seqs).tolist(), keras.utils.pad_sequences(seqs).dtype)
print(keras.utils.pad_sequences(seqs, maxlen=3, padding="post", truncating="post", value=-1).tolist())
print(keras.utils.pad_sequences(seqs, maxlen=2, dtype="float32").tolist())
print(ops.binary_crossentropy(np.float32([0, 1]), np.float32([0.2, 0.7])).numpy(),
      ops.categorical_crossentropy(np.float32([[0, 1]]), np.float32([[0.3, 0.7]])).numpy(),
      ops.sparse_categorical_crossentropy(np.int32([1]), np.float32([[1.0, 2.0]]), from_logits=True).numpy())
