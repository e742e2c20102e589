"""tf.keras.backend (Keras 2's functional backend kept for tf.keras), tf.metrics/losses/optimizers/
initializers (tf.keras's namespaces), tf.keras.optimizers.legacy's error and standalone keras.backend's names."""
import numpy as np
import tensorflow as tf

K = tf.keras.backend
x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
print(K.mean(x), K.sum(x, axis=0), K.max(x, axis=1, keepdims=True))
print(K.std(x), K.var(x, axis=0), K.prod(x), K.min(x))
print(K.int_shape(x), K.ndim(x), K.dtype(x), K.floatx(), K.epsilon(), K.image_data_format())
print(K.eval(x))
v = K.variable([1.0, 2.0])
print(v.dtype, K.get_value(v), K.count_params(v))
K.set_value(v, [5.0, 6.0])
print(K.batch_get_value([v]))
print(K.batch_dot(tf.ones((2, 3)), tf.ones((2, 3)), axes=1))
print(K.batch_dot(tf.ones((2, 3, 4)), tf.ones((2, 4, 5))).shape)
print(K.batch_dot(tf.reshape(tf.range(24.0), (2, 3, 4)), tf.reshape(tf.range(30.0), (2, 3, 5)), axes=(1, 1)))
print(K.dot(tf.ones((2, 3)), tf.ones((3, 4))).shape, K.dot(tf.ones((2, 3, 4)), tf.ones((4, 5))).shape)
print(K.concatenate([x, x]), K.concatenate([x, x], axis=0).shape)
print(K.relu(tf.constant([-2.0, 0.5, 7.0]), alpha=0.1, max_value=6.0))
print(K.relu(tf.constant([-2.0, 0.5, 7.0]), max_value=6))
print(K.elu(tf.constant([-1.0, 1.0]), alpha=0.5), K.hard_sigmoid(tf.constant([-3.0, 0.0, 1.0])))
print(K.softmax(x), K.softplus(tf.constant([0.0])), K.softsign(tf.constant([1.0])))
t = tf.constant([[0.0, 1.0], [1.0, 0.0]])
p = tf.constant([[0.2, 0.8], [0.6, 0.4]])
print(K.categorical_crossentropy(t, p), K.binary_crossentropy(t, p))
print(K.sparse_categorical_crossentropy(tf.constant([1, 0]), p))
print(K.categorical_crossentropy(t, p, from_logits=True))
print(K.clip(x, 1.5, 3.5), K.clip(x, 3.0, 2.0))
print(K.one_hot(tf.constant([0, 2]), 3), K.gather(x, [1]))
print(K.reshape(x, (4,)), K.permute_dimensions(x, (1, 0)), K.flatten(x), K.batch_flatten(tf.ones((2, 2, 3))).shape)
print(K.expand_dims(x).shape, K.squeeze(tf.ones((2, 1)), 1).shape, K.repeat(x, 3).shape)
print(K.repeat_elements(x, 2, axis=1), K.tile(x, (1, 2)).shape, K.reverse(x, 0), K.stack([x, x]).shape)
print(K.arange(5), K.arange(1, 7, 2, dtype="float32"), K.arange(-3))
print(K.zeros((2,)), K.ones((1, 2)), K.eye(2), K.zeros_like(x), K.ones_like(x, dtype="int32"))
print(K.cast(x, "int32"), K.cast_to_floatx(np.array([1, 2])), K.constant([1, 2]))
print(K.switch(tf.constant([True, False]), tf.constant([1.0, 2.0]), tf.constant([3.0, 4.0])))
print(K.temporal_padding(tf.ones((1, 2, 1))).shape, K.spatial_2d_padding(tf.ones((1, 2, 2, 1))).shape)
print(K.l2_normalize(tf.constant([3.0, 4.0]), axis=0), K.all(x > 0), K.any(x > 3, axis=1))
print(K.argmax(x), K.argmin(x, axis=0), K.cumsum(x), K.cumprod(x, axis=1))
print(K.equal(x, 2.0), K.maximum(x, 2.5), K.square(x), K.sqrt(x), K.exp(tf.constant([0.0])), K.log(x))
print(K.is_keras_tensor(tf.keras.Input((2,))), K.is_keras_tensor(x), K.is_sparse(x))
print(K.bias_add(tf.ones((1, 2, 2)), tf.constant([1.0, 2.0])))
print(K.update_add(v, [1.0, 1.0]).numpy() if hasattr(K.update_add(v, [0.0, 0.0]), "numpy") else v.numpy())
print(K.moving_average_update(tf.Variable([1.0]), tf.constant([3.0]), 0.9))
try:
    K.gradients(x, [x])
except Exception as e:
    print(type(e).__name__, e)
K.clear_session()
print(tf.keras.layers.Dense(2).name, tf.keras.layers.Dense(2).name, K.get_uid("dense"), K.get_uid("other"))
print(tf.metrics.MeanSquaredError().name, tf.losses.MeanSquaredError().name, tf.optimizers.Adam().name,
      type(tf.initializers.Zeros()).__name__)
try:
    tf.keras.optimizers.legacy.Adam()
except Exception as e:
    print(type(e).__name__, e)
import keras
print([n for n in dir(keras.backend) if not n.startswith("_")])
try:
    keras.backend.mean
except AttributeError as e:
    print("AttributeError", e)
m = keras.Sequential([keras.layers.Dense(2)])
for draw in (keras.utils.plot_model, tf.keras.utils.model_to_dot):
    try:
        draw(m)
    except Exception as e:
        print(type(e).__name__, e)
m = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2)])
for draw in (keras.utils.plot_model, tf.keras.utils.model_to_dot):
    try:
        draw(m, show_shapes=True)
    except Exception as e:
        print(type(e).__name__, e)
