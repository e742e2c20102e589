"""MobileNetV3 (Small, Large; Howard et al. 2019): inverted residual blocks with optional
squeeze-and-excitation and hard-swish, over the paper's tables, with the layer names, order and
parameter counts Keras's ``keras.applications.MobileNetV3Small``/``Large`` give (``weights=None``;
``'imagenet'`` loads Keras's file)."""

from __future__ import annotations

import os

from .. import layers as L
from ..engine import Input
from . import imagenet_utils as iu
from .builders import KERAS_APPS, _model, make_divisible

# (expansion, filters, kernel — "k": the variant's (5, or 3 when minimalistic) —, stride, squeeze-excite,
# activation — "re": ReLU, "hs": the variant's (hard-swish, or ReLU when minimalistic))
SMALL = ((1, 16, 3, 2, True, "re"), (72 / 16, 24, 3, 2, False, "re"), (88 / 24, 24, 3, 1, False, "re"),
         (4, 40, "k", 2, True, "hs"), (6, 40, "k", 1, True, "hs"), (6, 40, "k", 1, True, "hs"),
         (3, 48, "k", 1, True, "hs"), (3, 48, "k", 1, True, "hs"), (6, 96, "k", 2, True, "hs"),
         (6, 96, "k", 1, True, "hs"), (6, 96, "k", 1, True, "hs"))
LARGE = ((1, 16, 3, 1, False, "re"), (4, 24, 3, 2, False, "re"), (3, 24, 3, 1, False, "re"),
         (3, 40, "k", 2, True, "re"), (3, 40, "k", 1, True, "re"), (3, 40, "k", 1, True, "re"),
         (6, 80, 3, 2, False, "hs"), (2.5, 80, 3, 1, False, "hs"), (2.3, 80, 3, 1, False, "hs"),
         (2.3, 80, 3, 1, False, "hs"), (6, 112, 3, 1, True, "hs"), (6, 112, 3, 1, True, "hs"),
         (6, 160, "k", 2, True, "hs"), (6, 160, "k", 1, True, "hs"), (6, 160, "k", 1, True, "hs"))
_BN = {"axis": -1, "epsilon": 1e-3, "momentum": 0.999}


def _relu(x):
    return L.ReLU()(x)


def _hard_swish(x):
    return L.Activation("hard_swish")(x)


def _hard_sigmoid(x):
    return L.ReLU(6.0)(x + 3.0) * (1.0 / 6.0)  # two symbolic ops around the layer, as Keras's


def _squeeze_excite(inputs, filters, ratio, prefix):
    x = L.GlobalAveragePooling2D(keepdims=True, name=f"{prefix}squeeze_excite_avg_pool")(inputs)
    x = L.Conv2D(make_divisible(filters * ratio), kernel_size=1, padding="same", name=f"{prefix}squeeze_excite_conv")(x)
    x = L.ReLU(name=f"{prefix}squeeze_excite_relu")(x)
    x = L.Conv2D(filters, kernel_size=1, padding="same", name=f"{prefix}squeeze_excite_conv_1")(x)
    return L.Multiply(name=f"{prefix}squeeze_excite_mul")([inputs, _hard_sigmoid(x)])


def _block(x, expansion, filters, kernel, stride, se_ratio, activation, block_id):
    shortcut, channels = x, x.shape[-1]
    prefix = f"expanded_conv_{block_id}_" if block_id else "expanded_conv_"
    wide = make_divisible(channels * expansion)
    if block_id:
        x = L.Conv2D(wide, kernel_size=1, padding="same", use_bias=False, name=f"{prefix}expand")(x)
        x = activation(L.BatchNormalization(name=f"{prefix}expand_bn", **_BN)(x))
    if stride == 2:
        x = L.ZeroPadding2D(padding=iu.correct_pad(x, kernel), name=f"{prefix}depthwise_pad")(x)
    x = L.DepthwiseConv2D(kernel, strides=stride, padding="same" if stride == 1 else "valid", use_bias=False,
                          name=f"{prefix}depthwise")(x)
    x = activation(L.BatchNormalization(name=f"{prefix}depthwise_bn", **_BN)(x))
    if se_ratio:
        x = _squeeze_excite(x, wide, se_ratio, prefix)
    x = L.Conv2D(filters, kernel_size=1, padding="same", use_bias=False, name=f"{prefix}project")(x)
    x = L.BatchNormalization(name=f"{prefix}project_bn", **_BN)(x)
    if stride == 1 and channels == filters:
        x = L.Add(name=f"{prefix}add")([shortcut, x])
    return x


def mobilenet_v3(table, last_point, variant, input_shape=None, alpha=1.0, minimalistic=False, include_top=True,
                 weights="imagenet", input_tensor=None, classes=1000, pooling=None, dropout_rate=0.2,
                 classifier_activation="softmax", include_preprocessing=True, name=None):
    import warnings

    if not (weights in {"imagenet", None} or os.path.exists(weights)):
        raise ValueError("The `weights` argument should be either `None` (random initialization), `imagenet` "
                         "(pre-training on ImageNet), or the path to the weights file to be loaded.  "
                         f"Received weights={weights}")
    if weights == "imagenet" and include_top and classes != 1000:
        raise ValueError('If using `weights="imagenet"` with `include_top` as true, `classes` should be 1000.  '
                         f"Received classes={classes}")
    if input_tensor is not None:
        raise NotImplementedError("devtrace does not implement keras.applications models' input_tensor= yet")
    input_shape = tuple(input_shape) if input_shape is not None else (None, None, 3)  # any size by default
    rows, cols = input_shape[0], input_shape[1]
    if rows and cols and (rows < 32 or cols < 32):
        raise ValueError(f"Input size must be at least 32x32; Received `input_shape={input_shape}`")
    if weights == "imagenet":
        if not minimalistic and alpha not in (0.75, 1.0) or minimalistic and alpha != 1.0:
            raise ValueError("If imagenet weights are being loaded, alpha can be one of `0.75`, `1.0` for non "
                             "minimalistic or `1.0` for minimalistic only.")
        if rows != cols or rows != 224:
            warnings.warn("`input_shape` is undefined or non-square, or `rows` is not 224. Weights for input shape "
                          "(224, 224) will be loaded as the default.", stacklevel=3)
    inputs = Input(shape=input_shape)
    kernel, activation, se_ratio = (3, _relu, None) if minimalistic else (5, _hard_swish, 0.25)
    x = L.Rescaling(scale=1.0 / 127.5, offset=-1.0)(inputs) if include_preprocessing else inputs
    x = L.Conv2D(16, kernel_size=3, strides=(2, 2), padding="same", use_bias=False, name="conv")(x)
    x = activation(L.BatchNormalization(name="conv_bn", **_BN)(x))
    for block_id, (expansion, filters, k, stride, se, act) in enumerate(table):
        x = _block(x, expansion, make_divisible(filters * alpha), kernel if k == "k" else k, stride,
                   se_ratio if se else None, _relu if act == "re" else activation, block_id)
    last_conv = make_divisible(x.shape[-1] * 6)
    if alpha > 1.0:
        last_point = make_divisible(last_point * alpha)
    x = L.Conv2D(last_conv, kernel_size=1, padding="same", use_bias=False, name="conv_1")(x)
    x = activation(L.BatchNormalization(name="conv_1_bn", **_BN)(x))
    if include_top:
        x = L.GlobalAveragePooling2D(keepdims=True)(x)
        x = activation(L.Conv2D(last_point, kernel_size=1, padding="same", use_bias=True, name="conv_2")(x))
        if dropout_rate > 0:
            x = L.Dropout(dropout_rate)(x)
        x = L.Conv2D(classes, kernel_size=1, padding="same", name="logits")(x)
        x = L.Activation(classifier_activation, name="predictions")(L.Flatten()(x))
    elif pooling == "avg":
        x = L.GlobalAveragePooling2D(name="avg_pool")(x)
    elif pooling == "max":
        x = L.GlobalMaxPooling2D(name="max_pool")(x)
    model = _model(inputs, x, name)
    kind = f"{variant}{'_minimalistic' if minimalistic else ''}_224_{alpha}_float"
    file_name = f"weights_mobilenet_v3_{kind}{'' if include_top else '_no_top_v2'}.h5"
    iu.load_weights(model, weights, f"{KERAS_APPS}mobilenet_v3/{file_name}", file_name)
    return model
