"""The cases of tests/test_keras_layers_more.py (convolutions, attention, small layers), run by both
sides: the layer's source text, its inputs' shapes (several: called on the list, or with
``"args"``: called positionally), keyword text evaluated with ``np`` and the inputs ``x``; inputs
and weights are NumPy RandomState draws, the same on both sides."""

import numpy as np

CASES = [
    {"id": "conv2d_transpose", "layer": "keras.layers.Conv2DTranspose(3, 3, strides=2, activation='relu')",
     "shapes": [(2, 4, 5, 2)]},
    {"id": "conv2d_transpose_same", "layer": "keras.layers.Conv2DTranspose(2, (2, 3), strides=(2, 1), padding='same')",
     "shapes": [(1, 3, 4, 3)]},
    {"id": "conv1d_transpose", "layer": "keras.layers.Conv1DTranspose(3, 3, strides=2)", "shapes": [(2, 5, 4)]},
    {"id": "depthwise2d", "layer": "keras.layers.DepthwiseConv2D(3, depth_multiplier=2)", "shapes": [(2, 6, 5, 3)]},
    {"id": "depthwise1d", "layer": "keras.layers.DepthwiseConv1D(3, strides=2, padding='same')", "shapes": [(2, 7, 3)]},
    {"id": "separable2d", "layer": "keras.layers.SeparableConv2D(4, 3, padding='same')", "shapes": [(2, 5, 5, 3)]},
    {"id": "separable1d", "layer": "keras.layers.SeparableConv1D(4, 2, depth_multiplier=2)", "shapes": [(2, 6, 3)]},
    {"id": "leaky_relu", "layer": "keras.layers.LeakyReLU()", "shapes": [(3, 4)]},
    {"id": "prelu", "layer": "keras.layers.PReLU(shared_axes=[1])", "shapes": [(2, 3, 4)]},
    {"id": "elu", "layer": "keras.layers.ELU(alpha=0.5)", "shapes": [(3, 4)]},
    {"id": "zero_padding2d", "layer": "keras.layers.ZeroPadding2D(((1, 0), (2, 1)))", "shapes": [(1, 2, 2, 1)]},
    {"id": "cropping1d", "layer": "keras.layers.Cropping1D((1, 2))", "shapes": [(2, 6, 2)]},
    {"id": "cropping2d", "layer": "keras.layers.Cropping2D(((1, 1), (0, 2)))", "shapes": [(1, 4, 5, 2)]},
    {"id": "upsampling3d", "layer": "keras.layers.UpSampling3D((1, 2, 1))", "shapes": [(1, 2, 2, 2, 1)]},
    {"id": "dot_axes", "layer": "keras.layers.Dot(axes=(1, 2))", "shapes": [(2, 5, 3), (2, 4, 5)]},
    {"id": "dot_normalize", "layer": "keras.layers.Dot(axes=1, normalize=True)", "shapes": [(3, 4), (3, 4)]},
    {"id": "rms_normalization", "layer": "keras.layers.RMSNormalization()", "shapes": [(2, 5)]},
    {"id": "unit_normalization", "layer": "keras.layers.UnitNormalization()", "shapes": [(2, 5)]},
    {"id": "layer_norm_axes", "layer": "keras.layers.LayerNormalization(axis=[1, 2])", "shapes": [(2, 3, 4)]},
    {"id": "softmax_mask", "layer": "keras.layers.Softmax()", "shapes": [(2, 4)],
     "kwargs": "{'mask': np.array([[True, True, False, True], [False, False, False, False]])}"},
    {"id": "masking_lstm", "layer": "keras.Sequential([keras.layers.Masking(0.0), keras.layers.LSTM(2)])",
     "shapes": [(2, 4, 3)], "zero_steps": [[0, 2], [1, 3]]},
    {"id": "einsum_dense", "layer": "keras.layers.EinsumDense('abc,cd->abd', output_shape=(None, 4), bias_axes='d')",
     "shapes": [(2, 3, 5)]},
    {"id": "einsum_dense_left", "layer": "keras.layers.EinsumDense('...b,bc->...c', output_shape=3, "
     "activation='relu')", "shapes": [(2, 3, 4)]},
    {"id": "mha_self", "layer": "keras.layers.MultiHeadAttention(num_heads=2, key_dim=3)", "shapes": [(2, 4, 6)],
     "args": 2},
    {"id": "mha_cross_scores", "layer": "keras.layers.MultiHeadAttention(3, 2, value_dim=4)",
     "shapes": [(2, 3, 5), (2, 4, 6)], "args": 2, "kwargs": "{'return_attention_scores': True}"},
    {"id": "mha_mask", "layer": "keras.layers.MultiHeadAttention(2, 3)", "shapes": [(2, 4, 6), (2, 5, 6)], "args": 2,
     "kwargs": "{'attention_mask': np.array([[[1, 1, 0, 1, 1]] * 4, [[1, 0, 0, 0, 0]] * 4])}"},
    {"id": "mha_causal", "layer": "keras.layers.MultiHeadAttention(2, 3, use_bias=False)", "shapes": [(2, 4, 6)],
     "args": 3, "kwargs": "{'use_causal_mask': True}"},
    {"id": "mha_2d", "layer": "keras.layers.MultiHeadAttention(2, 3)", "shapes": [(2, 3, 4, 5)], "args": 2},
    {"id": "mha_axes_2d_scores", "layer": "keras.layers.MultiHeadAttention(2, 2, attention_axes=(1, 2))",
     "shapes": [(2, 3, 2, 4), (2, 2, 3, 4)], "args": 2, "kwargs": "{'return_attention_scores': True}"},
    {"id": "mha_axis_last", "layer": "keras.layers.MultiHeadAttention(2, 3, attention_axes=2, value_dim=2)",
     "shapes": [(2, 3, 4, 5), (2, 3, 6, 5)], "args": 2},
    {"id": "mha_axis_negative_mask", "layer": "keras.layers.MultiHeadAttention(3, 2, attention_axes=[-2])",
     "shapes": [(2, 2, 3, 4), (2, 2, 5, 4)], "args": 2,
     "kwargs": "{'attention_mask': np.arange(60).reshape(2, 2, 3, 5) % 3 != 1}"},
    {"id": "mha_axis_1_rank4", "layer": "keras.layers.MultiHeadAttention(2, 2, attention_axes=1, dropout=0.5)",
     "shapes": [(2, 3, 4, 5)], "args": 3, "kwargs": "{'training': False}"},
    {"id": "mha_axes_3d", "layer": "keras.layers.MultiHeadAttention(1, 2, attention_axes=(1, 2, 3))",
     "shapes": [(1, 2, 2, 3, 3)], "args": 2},
    {"id": "attention_dot", "layer": "keras.layers.Attention(use_scale=True)", "shapes": [(2, 3, 4), (2, 5, 4)],
     "kwargs": "{'return_attention_scores': True, 'mask': [None, np.array([[1, 1, 1, 0, 0], [1, 1, 1, 1, 1]], bool)]}"},
    {"id": "attention_concat", "layer": "keras.layers.Attention(score_mode='concat')",
     "shapes": [(2, 3, 4), (2, 5, 4), (2, 5, 4)]},
    {"id": "attention_causal", "layer": "keras.layers.Attention()", "shapes": [(2, 4, 3), (2, 4, 3)],
     "kwargs": "{'use_causal_mask': True}"},
    {"id": "conv3d", "layer": "keras.layers.Conv3D(3, (2, 3, 2), strides=(1, 2, 1), padding='same')",
     "shapes": [(2, 3, 5, 4, 2)]},
    {"id": "conv3d_transpose", "layer": "keras.layers.Conv3DTranspose(2, 2, strides=2)", "shapes": [(1, 2, 3, 2, 3)]},
    {"id": "depthwise2d_grad", "layer": "keras.layers.DepthwiseConv2D(3, strides=2, padding='same', "
     "depth_multiplier=2)", "shapes": [(2, 5, 6, 3)], "grad": True},
    {"id": "separable2d_grad", "layer": "keras.layers.SeparableConv2D(4, 2)", "shapes": [(2, 5, 5, 3)], "grad": True},
    {"id": "conv3d_grad", "layer": "keras.layers.Conv3D(2, 2, padding='same')", "shapes": [(1, 3, 4, 3, 2)],
     "grad": True},
    {"id": "conv3d_transpose_grad", "layer": "keras.layers.Conv3DTranspose(2, 3, strides=(1, 2, 1), padding='same')",
     "shapes": [(1, 2, 3, 2, 2)], "grad": True},
    {"id": "mask_through_dropout_to_lstm", "layer": "keras.Sequential([keras.layers.Embedding(6, 3, mask_zero=True), "
     "keras.layers.Dropout(0.5), keras.layers.Dense(3), keras.layers.LSTM(2, return_sequences=True)])",
     "shapes": [(2, 5)], "ints": 6},
    {"id": "mask_to_global_average", "layer": "keras.Sequential([keras.layers.Embedding(6, 3, mask_zero=True), "
     "keras.layers.GlobalAveragePooling1D(), keras.layers.Dense(2)])", "shapes": [(3, 5)], "ints": 6},
    {"id": "mask_to_attention", "layer": "(lambda i: keras.Model(i, keras.layers.MultiHeadAttention(2, 2)("
     "*[keras.layers.Embedding(6, 4, mask_zero=True)(i)] * 2)))(keras.Input((5,), dtype='int32'))",
     "shapes": [(2, 5)], "ints": 6},
    {"id": "additive_attention", "layer": "keras.layers.AdditiveAttention()", "shapes": [(2, 3, 4), (2, 5, 4)]},
]


def inputs_for(case):
    rng = np.random.RandomState(0)
    if case.get("ints"):  # token ids, zeros (masked) at the ends
        ids = rng.randint(1, case["ints"], case["shapes"][0])
        ids[0, -2:] = 0
        ids[-1, 1:] = 0
        return [ids]
    xs = [rng.standard_normal(s).astype("float32") for s in case["shapes"]]
    for b, t in case.get("zero_steps", ()):
        xs[0][b, t] = 0.0
    return xs


def weights_for(case, shapes):
    rng = np.random.RandomState(1)
    return [(rng.standard_normal(s) * 0.5 + (1.0 if len(s) == 0 else 0.0)).astype("float32") for s in shapes]


def gradients(tf, layer, case, xs, np_module):
    """The gradients of ``sum(output ** 2)`` with respect to the weights, then the input."""
    x = tf.constant(xs[0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = layer(x)
        loss = tf.reduce_sum(y * y)
    return tape.gradient(loss, list(layer.trainable_weights) + [x])


def call(layer, case, xs, np_module):
    kwargs = eval(case.get("kwargs", "{}"), {"np": np_module})  # noqa: S307 (the case table)
    if case.get("args"):
        args = (xs * case["args"])[:case["args"]] if len(xs) == 1 else xs
        return layer(*args, **kwargs)
    return layer(xs if len(xs) > 1 else xs[0], **kwargs)
