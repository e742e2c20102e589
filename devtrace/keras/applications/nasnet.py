"""NASNet-A (Zoph et al. 2018; Mobile, Large): a stem, two reduction cells, then three runs of normal
cells split by reduction cells; each cell combines the current input ``x`` and the previous cell's ``p``
(brought to ``x``'s size and width first) through separable convolutions and poolings, with the layer
names, order and parameter counts Keras's ``keras.applications.NASNetMobile``/``Large`` give
(``weights=None``; ``'imagenet'`` loads Keras's file)."""

from __future__ import annotations

import os

from .. import layers as L
from ..engine import Input
from . import imagenet_utils as iu
from .builders import _model

WEIGHTS = "https://storage.googleapis.com/tensorflow/keras-applications/nasnet/"
_BN = {"axis": -1, "momentum": 0.9997, "epsilon": 1e-3}
# variant: (penultimate filters, cells per run, stem filters, skip reduction, default size, weights file stem)
NASNET = {"mobile": (1056, 4, 32, False, 224, "NASNet-mobile"), "large": (4032, 6, 96, True, 331, "NASNet-large")}


def _separable(x, filters, kernel=(3, 3), strides=(1, 1), block_id=None):
    """Twice ReLU, separable convolution, batch norm (the first strided, after a zero padding)."""
    kernel = (kernel, kernel) if isinstance(kernel, int) else kernel
    x = L.Activation("relu")(x)
    padding = "same"
    if strides == (2, 2):
        x = L.ZeroPadding2D(padding=iu.correct_pad(x, kernel), name=f"separable_conv_1_pad_{block_id}")(x)
        padding = "valid"
    x = L.SeparableConv2D(filters, kernel, strides=strides, name=f"separable_conv_1_{block_id}", padding=padding,
                          use_bias=False)(x)
    x = L.BatchNormalization(name=f"separable_conv_1_bn_{block_id}", **_BN)(x)
    x = L.Activation("relu")(x)
    x = L.SeparableConv2D(filters, kernel, name=f"separable_conv_2_{block_id}", padding="same", use_bias=False)(x)
    return L.BatchNormalization(name=f"separable_conv_2_bn_{block_id}", **_BN)(x)


def _adjust(p, ip, filters, block_id):
    """``p`` at ``ip``'s size (two strided 1x1 paths, one shifted by a pixel, concatenated) or width
    (a 1x1 projection)."""
    if p is None:
        return ip
    if p.shape[-2] != ip.shape[-2]:
        p = L.Activation("relu", name=f"adjust_relu_1_{block_id}")(p)
        p1 = L.AveragePooling2D((1, 1), strides=(2, 2), padding="valid", name=f"adjust_avg_pool_1_{block_id}")(p)
        p1 = L.Conv2D(filters // 2, (1, 1), padding="same", use_bias=False, name=f"adjust_conv_1_{block_id}",
                      kernel_initializer="he_normal")(p1)
        p2 = L.ZeroPadding2D(padding=((0, 1), (0, 1)))(p)
        p2 = L.Cropping2D(cropping=((1, 0), (1, 0)))(p2)
        p2 = L.AveragePooling2D((1, 1), strides=(2, 2), padding="valid", name=f"adjust_avg_pool_2_{block_id}")(p2)
        p2 = L.Conv2D(filters // 2, (1, 1), padding="same", use_bias=False, name=f"adjust_conv_2_{block_id}",
                      kernel_initializer="he_normal")(p2)
        p = L.concatenate([p1, p2], axis=-1)
        return L.BatchNormalization(name=f"adjust_bn_{block_id}", **_BN)(p)
    if p.shape[-1] != filters:
        p = L.Activation("relu")(p)
        p = L.Conv2D(filters, (1, 1), strides=(1, 1), padding="same", name=f"adjust_conv_projection_{block_id}",
                     use_bias=False, kernel_initializer="he_normal")(p)
        return L.BatchNormalization(name=f"adjust_bn_{block_id}", **_BN)(p)
    return p


def _squeeze(ip, kind, filters, block_id):
    """A cell's input ``ip`` through ReLU, a 1x1 convolution and batch norm."""
    h = L.Activation("relu")(ip)
    h = L.Conv2D(filters, (1, 1), strides=(1, 1), padding="same", name=f"{kind}_conv_1_{block_id}", use_bias=False,
                 kernel_initializer="he_normal")(h)
    return L.BatchNormalization(name=f"{kind}_bn_1_{block_id}", **_BN)(h)


def _avg3(x, strides, name):
    return L.AveragePooling2D((3, 3), strides=strides, padding="same" if strides == (1, 1) else "valid",
                              name=name)(x)


def _normal_cell(ip, p, filters, block_id):
    p = _adjust(p, ip, filters, block_id)
    h = _squeeze(ip, "normal", filters, block_id)
    x1 = L.add([_separable(h, filters, (5, 5), block_id=f"normal_left1_{block_id}"),
                _separable(p, filters, block_id=f"normal_right1_{block_id}")], name=f"normal_add_1_{block_id}")
    x2 = L.add([_separable(p, filters, (5, 5), block_id=f"normal_left2_{block_id}"),
                _separable(p, filters, (3, 3), block_id=f"normal_right2_{block_id}")], name=f"normal_add_2_{block_id}")
    x3 = L.add([_avg3(h, (1, 1), f"normal_left3_{block_id}"), p], name=f"normal_add_3_{block_id}")
    x4 = L.add([_avg3(p, (1, 1), f"normal_left4_{block_id}"), _avg3(p, (1, 1), f"normal_right4_{block_id}")],
               name=f"normal_add_4_{block_id}")
    x5 = L.add([_separable(h, filters, block_id=f"normal_left5_{block_id}"), h], name=f"normal_add_5_{block_id}")
    return L.concatenate([p, x1, x2, x3, x4, x5], axis=-1, name=f"normal_concat_{block_id}"), ip


def _reduction_cell(ip, p, filters, block_id):
    p = _adjust(p, ip, filters, block_id)
    h = _squeeze(ip, "reduction", filters, block_id)
    h3 = L.ZeroPadding2D(padding=iu.correct_pad(h, 3), name=f"reduction_pad_1_{block_id}")(h)
    two = (2, 2)
    x1 = L.add([_separable(h, filters, (5, 5), two, f"reduction_left1_{block_id}"),
                _separable(p, filters, (7, 7), two, f"reduction_right1_{block_id}")],
               name=f"reduction_add_1_{block_id}")
    x2 = L.add([L.MaxPooling2D((3, 3), strides=two, padding="valid", name=f"reduction_left2_{block_id}")(h3),
                _separable(p, filters, (7, 7), two, f"reduction_right2_{block_id}")],
               name=f"reduction_add_2_{block_id}")
    x3 = L.add([_avg3(h3, two, f"reduction_left3_{block_id}"),
                _separable(p, filters, (5, 5), two, f"reduction_right3_{block_id}")],
               name=f"reduction_add3_{block_id}")
    x4 = L.add([x2, _avg3(x1, (1, 1), f"reduction_left4_{block_id}")])
    x5 = L.add([_separable(x1, filters, (3, 3), block_id=f"reduction_left4_{block_id}"),
                L.MaxPooling2D((3, 3), strides=two, padding="valid", name=f"reduction_right5_{block_id}")(h3)],
               name=f"reduction_add4_{block_id}")
    return L.concatenate([x2, x3, x4, x5], axis=-1, name=f"reduction_concat_{block_id}"), ip


def nasnet(variant, input_shape=None, include_top=True, weights="imagenet", input_tensor=None, pooling=None,
           classes=1000, classifier_activation="softmax", name=None):
    penultimate, cells, stem_filters, skip_reduction, size, weights_file = NASNET[variant]
    if not (weights in {"imagenet", None} or os.path.exists(weights)):
        raise ValueError("The `weights` argument should be either `None` (random initialization), `imagenet` "
                         "(pre-training on ImageNet), or the path to the weights file to be loaded.")
    if weights == "imagenet" and include_top and classes != 1000:
        raise ValueError('If using `weights` as `"imagenet"` with `include_top` as true, `classes` should be 1000')
    if variant == "mobile" and not include_top and input_shape is None:
        input_shape = (224, 224, 3)
    if isinstance(input_shape, tuple) and None in input_shape and weights == "imagenet":
        raise ValueError("When specifying the input shape of a NASNet and loading `ImageNet` weights, the "
                         f"input_shape argument must be static (no None entries). Got: `input_shape={input_shape}`.")
    shape = iu.obtain_input_shape(input_shape, size, 32, include_top, weights)
    if input_tensor is not None:
        raise NotImplementedError("devtrace does not implement keras.applications models' input_tensor= yet")
    inputs = Input(shape=shape)
    filters, multiplier = penultimate // 24, 2
    x = L.Conv2D(stem_filters, (3, 3), strides=(2, 2), padding="valid", use_bias=False, name="stem_conv1",
                 kernel_initializer="he_normal")(inputs)
    x = L.BatchNormalization(name="stem_bn1", **_BN)(x)
    x, p = _reduction_cell(x, None, filters // multiplier ** 2, "stem_1")
    x, p = _reduction_cell(x, p, filters // multiplier, "stem_2")
    for run in range(3):
        width = filters * multiplier ** run
        if run:
            x, p0 = _reduction_cell(x, p, width, f"reduce_{run * cells}")
            p = p if skip_reduction else p0
        for i in range(cells):
            x, p = _normal_cell(x, p, width, f"{run * cells + i + 1 if run else i}")
    x = L.Activation("relu")(x)
    if include_top:
        x = L.GlobalAveragePooling2D()(x)
        x = L.Dense(classes, activation=classifier_activation, name="predictions")(x)
    elif pooling == "avg":
        x = L.GlobalAveragePooling2D()(x)
    elif pooling == "max":
        x = L.GlobalMaxPooling2D()(x)
    model = _model(inputs, x, name or f"nasnet_{variant}")
    suffix, file_name = ("", f"nasnet_{variant}.h5") if include_top else ("-no-top", f"nasnet_{variant}_no_top.h5")
    iu.load_weights(model, weights, f"{WEIGHTS}{weights_file}{suffix}.h5", file_name)
    return model
