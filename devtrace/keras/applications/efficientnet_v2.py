"""EfficientNetV2 (Tan & Le 2021; B0-B3, S, M, L): fused MBConv stages (one full convolution in
place of expansion and depthwise) then MBConv stages with squeeze-and-excitation, with the layer names,
order and parameter counts Keras's ``keras.applications.EfficientNetV2*`` give (``weights=None``;
``'imagenet'`` loads Keras's file)."""

from __future__ import annotations

import math
import os

from .. import layers as L
from ..engine import Input
from . import imagenet_utils as iu
from .builders import CONV_INIT, DENSE_INIT, _model

WEIGHTS = "https://storage.googleapis.com/tensorflow/keras-applications/efficientnet_v2/"
# stages: (kernel, repeats, filters in, filters out, expansion, squeeze ratio, stride, fused)
_B = ((3, 1, 32, 16, 1, 0, 1, True), (3, 2, 16, 32, 4, 0, 2, True), (3, 2, 32, 48, 4, 0, 2, True),
      (3, 3, 48, 96, 4, 0.25, 2, False), (3, 5, 96, 112, 6, 0.25, 1, False), (3, 8, 112, 192, 6, 0.25, 2, False))
STAGES = {
    "s": ((3, 2, 24, 24, 1, 0, 1, True), (3, 4, 24, 48, 4, 0, 2, True), (3, 4, 48, 64, 4, 0, 2, True),
          (3, 6, 64, 128, 4, 0.25, 2, False), (3, 9, 128, 160, 6, 0.25, 1, False),
          (3, 15, 160, 256, 6, 0.25, 2, False)),
    "m": ((3, 3, 24, 24, 1, 0, 1, True), (3, 5, 24, 48, 4, 0, 2, True), (3, 5, 48, 80, 4, 0, 2, True),
          (3, 7, 80, 160, 4, 0.25, 2, False), (3, 14, 160, 176, 6, 0.25, 1, False),
          (3, 18, 176, 304, 6, 0.25, 2, False), (3, 5, 304, 512, 6, 0.25, 1, False)),
    "l": ((3, 4, 32, 32, 1, 0, 1, True), (3, 7, 32, 64, 4, 0, 2, True), (3, 7, 64, 96, 4, 0, 2, True),
          (3, 10, 96, 192, 4, 0.25, 2, False), (3, 19, 192, 224, 6, 0.25, 1, False),
          (3, 25, 224, 384, 6, 0.25, 2, False), (3, 7, 384, 640, 6, 0.25, 1, False)),
    "b0": _B, "b1": _B, "b2": _B, "b3": _B}
# variant: (width coefficient, depth coefficient, default size)
SCALES = {"b0": (1.0, 1.0, 224), "b1": (1.0, 1.1, 240), "b2": (1.1, 1.2, 260), "b3": (1.2, 1.4, 300),
          "s": (1.0, 1.0, 384), "m": (1.0, 1.0, 480), "l": (1.0, 1.0, 480)}
_BN = {"axis": 3, "momentum": 0.9}


def _round_filters(n, width):
    return int(max(8, int(n * width + 4) // 8 * 8))


def _squeeze_excite(x, f_in, filters, ratio, name):
    se = L.GlobalAveragePooling2D(name=f"{name}se_squeeze")(x)
    se = L.Reshape((1, 1, filters), name=f"{name}se_reshape")(se)
    se = L.Conv2D(max(1, int(f_in * ratio)), 1, padding="same", activation="swish", kernel_initializer=CONV_INIT,
                  name=f"{name}se_reduce")(se)
    se = L.Conv2D(filters, 1, padding="same", activation="sigmoid", kernel_initializer=CONV_INIT,
                  name=f"{name}se_expand")(se)
    return L.multiply([x, se], name=f"{name}se_excite")


def _conv_bn(x, filters, kernel, stride, name, act=True):
    x = L.Conv2D(filters, kernel, strides=stride, kernel_initializer=CONV_INIT, padding="same", use_bias=False,
                 name=f"{name}_conv")(x)
    x = L.BatchNormalization(name=f"{name}_bn", **_BN)(x)
    return L.Activation("swish", name=f"{name}_activation")(x) if act else x


def _block(x, kernel, f_in, f_out, expansion, se_ratio, stride, fused, drop, name):
    """MBConv (expand 1x1, depthwise, project 1x1) or fused MBConv (one kxk convolution, then a 1x1
    projection; the kxk alone when not expanded), squeeze-and-excitation between, a residual where the
    shape is kept."""
    inputs, filters = x, f_in * expansion
    if expansion != 1:
        x = _conv_bn(x, filters, kernel if fused else 1, stride if fused else 1, f"{name}expand")
    if not fused:
        x = L.DepthwiseConv2D(kernel, strides=stride, depthwise_initializer=CONV_INIT, padding="same",
                              use_bias=False, name=f"{name}dwconv2")(x)
        x = L.BatchNormalization(name=f"{name}bn", **_BN)(x)
        x = L.Activation("swish", name=f"{name}activation")(x)
    if 0 < se_ratio <= 1:
        x = _squeeze_excite(x, f_in, filters, se_ratio, name)
    unexpanded_fused = fused and expansion == 1
    x = _conv_bn(x, f_out, kernel if unexpanded_fused else 1, stride if unexpanded_fused else 1, f"{name}project",
                 act=unexpanded_fused)
    if stride == 1 and f_in == f_out:
        if drop:
            x = L.Dropout(drop, noise_shape=(None, 1, 1, 1), name=f"{name}drop")(x)
        x = L.add([x, inputs], name=f"{name}add")
    return x


def efficientnet_v2(variant, include_top=True, weights="imagenet", input_tensor=None, input_shape=None,
                    pooling=None, classes=1000, classifier_activation="softmax", include_preprocessing=True,
                    name=None):
    width, depth, size = SCALES[variant]
    name = name or f"efficientnetv2-{variant}"
    if not (weights in {"imagenet", None} or os.path.exists(weights)):
        raise ValueError("The `weights` argument should be either `None` (random initialization), `imagenet` "
                         "(pre-training on ImageNet), or the path to the weights file to be loaded."
                         f"Received: weights={weights}")
    if weights == "imagenet" and include_top and classes != 1000:
        raise ValueError('If using `weights="imagenet"` with `include_top` as true, `classes` should be 1000')
    shape = iu.obtain_input_shape(input_shape, size, 32, include_top, weights)
    if input_tensor is not None:
        raise NotImplementedError("devtrace does not implement keras.applications models' input_tensor= yet")
    inputs = x = Input(shape=shape)
    if include_preprocessing:
        if name.split("-")[-1].startswith("b") and shape[-1] == 3:  # EfficientNet (v1)'s normalization
            x = L.Rescaling(scale=1.0 / 255)(x)
            x = L.Normalization(mean=[0.485, 0.456, 0.406], variance=[0.229 ** 2, 0.224 ** 2, 0.225 ** 2], axis=3)(x)
        else:
            x = L.Rescaling(scale=1.0 / 128.0, offset=-1)(x)
    stages = STAGES[variant]
    x = _conv_bn(x, _round_filters(stages[0][2], width), 3, 2, "stem")
    total, b = float(sum(s[1] for s in stages)), 0
    for i, (kernel, repeats, f_in, f_out, expansion, se_ratio, stride, fused) in enumerate(stages):
        f_in, f_out = _round_filters(f_in, width), _round_filters(f_out, width)
        for j in range(int(math.ceil(depth * repeats))):
            x = _block(x, kernel, f_in if j == 0 else f_out, f_out, expansion, se_ratio, stride if j == 0 else 1,
                       fused, 0.2 * b / total, f"block{i + 1}{chr(j + 97)}_")
            b += 1
    x = _conv_bn(x, _round_filters(1280, width), 1, 1, "top")
    if include_top:
        x = L.GlobalAveragePooling2D(name="avg_pool")(x)
        x = L.Dropout(0.2, name="top_dropout")(x)
        x = L.Dense(classes, activation=classifier_activation, kernel_initializer=DENSE_INIT,
                    bias_initializer="zeros", name="predictions")(x)
    elif pooling == "avg":
        x = L.GlobalAveragePooling2D(name="avg_pool")(x)
    elif pooling == "max":
        x = L.GlobalMaxPooling2D(name="max_pool")(x)
    model = _model(inputs, x, name)
    file_name = name + (".h5" if include_top else "_notop.h5")
    iu.load_weights(model, weights, WEIGHTS + file_name, file_name)
    return model
