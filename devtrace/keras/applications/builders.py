"""Keras's ImageNet architectures, each a few lines over one table: its stages (blocks, widths,
strides), the blocks shared by a family, and the layer names Keras gives them, so a model built
here has Keras's layers in Keras's order, its parameter counts, output shapes and ``summary()``.
The weights are Keras's files (``imagenet_utils.load_weights``); ``weights=None`` initializes them."""

from __future__ import annotations

import math

from .. import layers as L
from ..engine import Input
from . import imagenet_utils as iu

_BN_EPS = 1.001e-5  # ResNet's and DenseNet's BatchNormalization epsilon
KERAS_APPS = "https://storage.googleapis.com/tensorflow/keras-applications/"


def _top(x, include_top, pooling, classes, activation, prefix_pool=True, dropout=None, dense_init=None):
    """The classifier (global average pooling, optional dropout, the ``predictions`` layer) or the
    pooling asked for a feature extractor."""
    avg = {"name": "avg_pool"} if prefix_pool else {}
    if include_top:
        x = L.GlobalAveragePooling2D(**avg)(x)
        if dropout:
            x = L.Dropout(dropout, name="top_dropout")(x)
        extra = {"kernel_initializer": dense_init} if dense_init is not None else {}
        return L.Dense(classes, activation=activation, name="predictions", **extra)(x)
    if pooling == "avg":
        return L.GlobalAveragePooling2D(**avg)(x)
    if pooling == "max":
        return L.GlobalMaxPooling2D(**({"name": "max_pool"} if prefix_pool else {}))(x)
    return x


def _model(inputs, outputs, name):
    from ..models import Model

    return Model(inputs, outputs, name=name)


def _start(weights, include_top, classes, input_shape, default_size, min_size, input_tensor, family=None):
    iu.check_weights(weights, include_top, classes, family)
    shape = iu.obtain_input_shape(input_shape, default_size, min_size, include_top, weights)
    if input_tensor is not None:
        raise NotImplementedError("devtrace does not implement keras.applications models' input_tensor= yet")
    return Input(shape=shape)


# -- ResNet (v1): stages of bottleneck blocks -------------------------------------------------------------
RESNET_STAGES = {"resnet50": (3, 4, 6, 3), "resnet101": (3, 4, 23, 3), "resnet152": (3, 8, 36, 3)}
RESNET_STAGES.update({f"{k}v2": v for k, v in RESNET_STAGES.items()})


def _bottleneck(x, filters, stride, shortcut_conv, name):
    """1x1 → 3x3 → 1x1 (×4) convolutions, each batch-normalized, added to the shortcut."""
    shortcut = x
    if shortcut_conv:
        shortcut = L.Conv2D(4 * filters, 1, strides=stride, name=f"{name}_0_conv")(x)
        shortcut = L.BatchNormalization(axis=3, epsilon=_BN_EPS, name=f"{name}_0_bn")(shortcut)
    for i, (width, kernel, step) in enumerate(((filters, 1, stride), (filters, 3, 1), (4 * filters, 1, 1)), 1):
        x = L.Conv2D(width, kernel, strides=step, padding="same" if kernel == 3 else "valid",
                     name=f"{name}_{i}_conv")(x)
        x = L.BatchNormalization(axis=3, epsilon=_BN_EPS, name=f"{name}_{i}_bn")(x)
        if i < 3:
            x = L.Activation("relu", name=f"{name}_{i}_relu")(x)
    x = L.Add(name=f"{name}_add")([shortcut, x])
    return L.Activation("relu", name=f"{name}_out")(x)


def _preactivated(x, filters, stride, shortcut_conv, name):
    """ResNet v2's block: batch norm and ReLU first; the stride on its 3x3 convolution (the stage's last
    block), the shortcut then a 1x1 max pooling."""
    preact = L.BatchNormalization(axis=3, epsilon=_BN_EPS, name=f"{name}_preact_bn")(x)
    preact = L.Activation("relu", name=f"{name}_preact_relu")(preact)
    if shortcut_conv:
        shortcut = L.Conv2D(4 * filters, 1, strides=stride, name=f"{name}_0_conv")(preact)
    else:
        shortcut = L.MaxPooling2D(1, strides=stride)(x) if stride > 1 else x
    x = L.Conv2D(filters, 1, strides=1, use_bias=False, name=f"{name}_1_conv")(preact)
    x = L.BatchNormalization(axis=3, epsilon=_BN_EPS, name=f"{name}_1_bn")(x)
    x = L.Activation("relu", name=f"{name}_1_relu")(x)
    x = L.ZeroPadding2D(padding=((1, 1), (1, 1)), name=f"{name}_2_pad")(x)
    x = L.Conv2D(filters, 3, strides=stride, use_bias=False, name=f"{name}_2_conv")(x)
    x = L.BatchNormalization(axis=3, epsilon=_BN_EPS, name=f"{name}_2_bn")(x)
    x = L.Activation("relu", name=f"{name}_2_relu")(x)
    x = L.Conv2D(4 * filters, 1, name=f"{name}_3_conv")(x)
    return L.Add(name=f"{name}_out")([shortcut, x])


def resnet(arch, include_top=True, weights="imagenet", input_tensor=None, input_shape=None, pooling=None,
           classes=1000, classifier_activation="softmax", name=None):
    inputs = _start(weights, include_top, classes, input_shape, 224, 32, input_tensor)
    x = L.ZeroPadding2D(padding=((3, 3), (3, 3)), name="conv1_pad")(inputs)
    x = L.Conv2D(64, 7, strides=2, name="conv1_conv")(x)
    v2 = arch.endswith("v2")
    if not v2:
        x = L.BatchNormalization(axis=3, epsilon=_BN_EPS, name="conv1_bn")(x)
        x = L.Activation("relu", name="conv1_relu")(x)
    x = L.ZeroPadding2D(padding=((1, 1), (1, 1)), name="pool1_pad")(x)
    x = L.MaxPooling2D(3, strides=2, name="pool1_pool")(x)
    stages = RESNET_STAGES[arch]
    for stage, blocks in enumerate(stages):
        filters = 64 * 2 ** stage
        for b in range(blocks):
            name_b = f"conv{stage + 2}_block{b + 1}"
            if v2:  # the stride on each stage's last block but the last stage's
                stride = 2 if b == blocks - 1 and stage < len(stages) - 1 else 1
                x = _preactivated(x, filters, stride, b == 0, name_b)
            else:
                x = _bottleneck(x, filters, (1 if stage == 0 else 2) if b == 0 else 1, b == 0, name_b)
    if v2:
        x = L.BatchNormalization(axis=3, epsilon=_BN_EPS, name="post_bn")(x)
        x = L.Activation("relu", name="post_relu")(x)
    x = _top(x, include_top, pooling, classes, classifier_activation)
    model = _model(inputs, x, name or arch)
    suffix = "" if include_top else "_notop"
    file_name = f"{arch}_weights_tf_dim_ordering_tf_kernels{suffix}.h5"
    iu.load_weights(model, weights, f"{KERAS_APPS}resnet/{file_name}", file_name)
    return model


# -- VGG: stages of 3x3 convolutions, each closed by a max pooling ------------------------------------------
VGG_STAGES = {"vgg16": (2, 2, 3, 3, 3), "vgg19": (2, 2, 4, 4, 4)}


def vgg(arch, include_top=True, weights="imagenet", input_tensor=None, input_shape=None, pooling=None, classes=1000,
        classifier_activation="softmax", name=None):
    inputs = _start(weights, include_top, classes, input_shape, 224, 32, input_tensor)
    x = inputs
    for stage, convs in enumerate(VGG_STAGES[arch], 1):
        width = min(64 * 2 ** (stage - 1), 512)
        for c in range(1, convs + 1):
            x = L.Conv2D(width, (3, 3), activation="relu", padding="same", name=f"block{stage}_conv{c}")(x)
        x = L.MaxPooling2D((2, 2), strides=(2, 2), name=f"block{stage}_pool")(x)
    if include_top:
        x = L.Flatten(name="flatten")(x)
        x = L.Dense(4096, activation="relu", name="fc1")(x)
        x = L.Dense(4096, activation="relu", name="fc2")(x)
        x = L.Dense(classes, activation=classifier_activation, name="predictions")(x)
    else:
        x = _top(x, False, pooling, classes, classifier_activation, prefix_pool=False)
    model = _model(inputs, x, name or arch)
    file_name = f"{arch}_weights_tf_dim_ordering_tf_kernels{'' if include_top else '_notop'}.h5"
    iu.load_weights(model, weights, f"{KERAS_APPS}{arch}/{file_name}", file_name)
    return model


# -- DenseNet: dense blocks of concatenated 32-channel layers, halved by transitions ----------------------
DENSENET_BLOCKS = {"densenet121": (6, 12, 24, 16), "densenet169": (6, 12, 32, 32), "densenet201": (6, 12, 48, 32)}


def _bn_relu(x, name):
    x = L.BatchNormalization(axis=3, epsilon=_BN_EPS, name=f"{name}_bn")(x)
    return L.Activation("relu", name=f"{name}_relu")(x)


def densenet(arch, include_top=True, weights="imagenet", input_tensor=None, input_shape=None, pooling=None,
             classes=1000, classifier_activation="softmax", name=None):
    inputs = _start(weights, include_top, classes, input_shape, 224, 32, input_tensor, "densenet")
    x = L.ZeroPadding2D(padding=((3, 3), (3, 3)))(inputs)
    x = L.Conv2D(64, 7, strides=2, use_bias=False, name="conv1_conv")(x)
    x = _bn_relu(x, "conv1")
    x = L.ZeroPadding2D(padding=((1, 1), (1, 1)))(x)
    x = L.MaxPooling2D(3, strides=2, name="pool1")(x)
    blocks = DENSENET_BLOCKS[arch]
    for stage, count in enumerate(blocks, 2):
        for b in range(1, count + 1):
            block = f"conv{stage}_block{b}"
            y = _bn_relu(x, f"{block}_0")
            y = L.Conv2D(128, 1, use_bias=False, name=f"{block}_1_conv")(y)
            y = _bn_relu(y, f"{block}_1")
            y = L.Conv2D(32, 3, padding="same", use_bias=False, name=f"{block}_2_conv")(y)
            x = L.Concatenate(axis=3, name=f"{block}_concat")([x, y])
        if stage < 1 + len(blocks):
            x = _bn_relu(x, f"pool{stage}")
            x = L.Conv2D(int(x.shape[3] * 0.5), 1, use_bias=False, name=f"pool{stage}_conv")(x)
            x = L.AveragePooling2D(2, strides=2, name=f"pool{stage}_pool")(x)
    x = L.BatchNormalization(axis=3, epsilon=_BN_EPS, name="bn")(x)
    x = L.Activation("relu", name="relu")(x)
    x = _top(x, include_top, pooling, classes, classifier_activation)
    model = _model(inputs, x, name or arch)
    file_name = f"{arch}_weights_tf_dim_ordering_tf_kernels{'' if include_top else '_notop'}.h5"
    iu.load_weights(model, weights, f"{KERAS_APPS}densenet/{file_name}", file_name)
    return model


# -- MobileNetV2: inverted residual blocks (expand, depthwise 3x3, project) ------------------------------
# (width, stride of the first block, blocks), expansion 6 but for the first
MOBILENET_V2_STAGES = ((16, 1, 1), (24, 2, 2), (32, 2, 3), (64, 2, 4), (96, 1, 3), (160, 2, 3), (320, 1, 1))


def make_divisible(v, divisor=8, min_value=None):
    """``v`` rounded to a multiple of ``divisor``, never more than 10% below ``v``."""
    new = max(min_value or divisor, int(v + divisor / 2) // divisor * divisor)
    return new + divisor if new < 0.9 * v else new


def _inverted_residual(x, expansion, stride, alpha, filters, block_id):
    channels = x.shape[-1]
    out = make_divisible(int(filters * alpha), 8)
    inputs, prefix = x, f"block_{block_id}_" if block_id else "expanded_conv_"
    if block_id:
        x = L.Conv2D(expansion * channels, kernel_size=1, padding="same", use_bias=False, activation=None,
                     name=f"{prefix}expand")(x)
        x = L.BatchNormalization(axis=-1, epsilon=1e-3, momentum=0.999, name=f"{prefix}expand_BN")(x)
        x = L.ReLU(6.0, name=f"{prefix}expand_relu")(x)
    if stride == 2:
        x = L.ZeroPadding2D(padding=iu.correct_pad(x, 3), name=f"{prefix}pad")(x)
    x = L.DepthwiseConv2D(kernel_size=3, strides=stride, activation=None, use_bias=False,
                          padding="same" if stride == 1 else "valid", name=f"{prefix}depthwise")(x)
    x = L.BatchNormalization(axis=-1, epsilon=1e-3, momentum=0.999, name=f"{prefix}depthwise_BN")(x)
    x = L.ReLU(6.0, name=f"{prefix}depthwise_relu")(x)
    x = L.Conv2D(out, kernel_size=1, padding="same", use_bias=False, activation=None, name=f"{prefix}project")(x)
    x = L.BatchNormalization(axis=-1, epsilon=1e-3, momentum=0.999, name=f"{prefix}project_BN")(x)
    if channels == out and stride == 1:
        return L.Add(name=f"{prefix}add")([inputs, x])
    return x


def _mobile_input(weights, include_top, classes, input_shape, input_tensor, sizes, family=None):
    """The input of MobileNet (v1, v2): a square size the weights exist for is the default; the rows
    its name and weights file say (224 for ``imagenet`` at another size, with Keras's warning)."""
    import warnings

    given = input_shape[0] if input_shape is not None else None
    default_size = given if given in sizes and input_shape[0] == input_shape[1] else 224
    inputs = _start(weights, include_top, classes, input_shape, default_size, 32, input_tensor, family)
    rows = inputs.shape[1]
    if weights == "imagenet" and (rows != inputs.shape[2] or rows not in sizes):
        rows = 224
        warnings.warn(f"`input_shape` is undefined or non-square, or `rows` is not in {list(sizes)}. Weights for "
                      "input shape (224, 224) will be loaded as the default.", stacklevel=3)
    return inputs, rows


def mobilenet(input_shape=None, alpha=1.0, depth_multiplier=1, dropout=1e-3, include_top=True, weights="imagenet",
              input_tensor=None, pooling=None, classes=1000, classifier_activation="softmax", name=None):
    """MobileNet (v1): a 3x3 convolution, then 13 depthwise-separable blocks."""
    if weights == "imagenet" and depth_multiplier != 1:
        raise ValueError("If imagenet weights are being loaded, depth multiplier must be 1.  "
                         f"Received depth_multiplier={depth_multiplier}")
    if weights == "imagenet" and alpha not in (0.25, 0.50, 0.75, 1.0):
        raise ValueError("If imagenet weights are being loaded, alpha can be one of`0.25`, `0.50`, `0.75` or "
                         f"`1.0` only.  Received alpha={alpha}")
    inputs, rows = _mobile_input(weights, include_top, classes, input_shape, input_tensor, (128, 160, 192, 224))
    x = L.Conv2D(int(32 * alpha), (3, 3), padding="same", use_bias=False, strides=(2, 2), name="conv1")(inputs)
    x = L.BatchNormalization(axis=-1, name="conv1_bn")(x)
    x = L.ReLU(6.0, name="conv1_relu")(x)
    widths = (64, 128, 128, 256, 256, 512, 512, 512, 512, 512, 512, 1024, 1024)
    for block, width in enumerate(widths, 1):
        stride = 2 if block in (2, 4, 6, 12) else 1
        if stride == 2:
            x = L.ZeroPadding2D(((0, 1), (0, 1)), name=f"conv_pad_{block}")(x)
        x = L.DepthwiseConv2D((3, 3), padding="same" if stride == 1 else "valid", depth_multiplier=depth_multiplier,
                              strides=(stride, stride), use_bias=False, name=f"conv_dw_{block}")(x)
        x = L.BatchNormalization(axis=-1, name=f"conv_dw_{block}_bn")(x)
        x = L.ReLU(6.0, name=f"conv_dw_{block}_relu")(x)
        x = L.Conv2D(int(width * alpha), (1, 1), padding="same", use_bias=False, strides=(1, 1),
                     name=f"conv_pw_{block}")(x)
        x = L.BatchNormalization(axis=-1, name=f"conv_pw_{block}_bn")(x)
        x = L.ReLU(6.0, name=f"conv_pw_{block}_relu")(x)
    if include_top:
        x = L.GlobalAveragePooling2D(keepdims=True)(x)
        x = L.Dropout(dropout, name="dropout")(x)
        x = L.Conv2D(classes, (1, 1), padding="same", name="conv_preds")(x)
        x = L.Reshape((classes,), name="reshape_2")(x)
        x = L.Activation(activation=classifier_activation, name="predictions")(x)
    else:
        x = _top(x, False, pooling, classes, classifier_activation, prefix_pool=False)
    model = _model(inputs, x, name or f"mobilenet_{alpha:0.2f}_{rows}")
    alpha_text = {1.0: "1_0", 0.75: "7_5", 0.50: "5_0", 0.25: "2_5"}.get(alpha, str(alpha))
    file_name = f"mobilenet_{alpha_text}_{rows}_tf{'' if include_top else '_no_top'}.h5"
    iu.load_weights(model, weights, f"{KERAS_APPS}mobilenet/{file_name}", file_name)
    return model


def mobilenet_v2(input_shape=None, alpha=1.0, include_top=True, weights="imagenet", input_tensor=None, pooling=None,
                 classes=1000, classifier_activation="softmax", name=None):
    inputs, rows = _mobile_input(weights, include_top, classes, input_shape, input_tensor, (96, 128, 160, 192, 224),
                                 "mobilenet_v2")
    if weights == "imagenet" and alpha not in (0.35, 0.50, 0.75, 1.0, 1.3, 1.4):
        raise ValueError("If imagenet weights are being loaded, alpha must be one of `0.35`, `0.50`, `0.75`, "
                         f"`1.0`, `1.3` or `1.4` only; Received `alpha={alpha}`")
    x = L.Conv2D(make_divisible(32 * alpha, 8), kernel_size=3, strides=(2, 2), padding="same", use_bias=False,
                 name="Conv1")(inputs)
    x = L.BatchNormalization(axis=-1, epsilon=1e-3, momentum=0.999, name="bn_Conv1")(x)
    x = L.ReLU(6.0, name="Conv1_relu")(x)
    block_id = 0
    for width, stride, blocks in MOBILENET_V2_STAGES:
        for b in range(blocks):
            x = _inverted_residual(x, 1 if block_id == 0 else 6, stride if b == 0 else 1, alpha, width, block_id)
            block_id += 1
    x = L.Conv2D(make_divisible(1280 * alpha, 8) if alpha > 1.0 else 1280, kernel_size=1, use_bias=False,
                 name="Conv_1")(x)
    x = L.BatchNormalization(axis=-1, epsilon=1e-3, momentum=0.999, name="Conv_1_bn")(x)
    x = L.ReLU(6.0, name="out_relu")(x)
    x = _top(x, include_top, pooling, classes, classifier_activation, prefix_pool=False)
    model = _model(inputs, x, name or f"mobilenetv2_{alpha:0.2f}_{rows}")
    file_name = f"mobilenet_v2_weights_tf_dim_ordering_tf_kernels_{float(alpha)}_{rows}" \
        f"{'' if include_top else '_no_top'}.h5"
    iu.load_weights(model, weights, f"{KERAS_APPS}mobilenet_v2/{file_name}", file_name)
    return model


# -- EfficientNet: mobile inverted bottlenecks with squeeze-and-excitation, scaled per variant ---------
# (kernel, repeats, filters in, filters out, expansion, stride) of B0; squeeze ratio 0.25, skips where they fit
EFFICIENTNET_STAGES = ((3, 1, 32, 16, 1, 1), (3, 2, 16, 24, 6, 2), (5, 2, 24, 40, 6, 2), (3, 3, 40, 80, 6, 2),
                       (5, 3, 80, 112, 6, 1), (5, 4, 112, 192, 6, 2), (3, 1, 192, 320, 6, 1))
# variant: (width coefficient, depth coefficient, default resolution, dropout)
EFFICIENTNET_SCALES = {"b0": (1.0, 1.0, 224, 0.2), "b1": (1.0, 1.1, 240, 0.2), "b2": (1.1, 1.2, 260, 0.3),
                       "b3": (1.2, 1.4, 300, 0.3), "b4": (1.4, 1.8, 380, 0.4), "b5": (1.6, 2.2, 456, 0.4),
                       "b6": (1.8, 2.6, 528, 0.5), "b7": (2.0, 3.1, 600, 0.5)}
CONV_INIT = {"class_name": "VarianceScaling",
             "config": {"scale": 2.0, "mode": "fan_out", "distribution": "truncated_normal"}}
DENSE_INIT = {"class_name": "VarianceScaling",
              "config": {"scale": 1.0 / 3.0, "mode": "fan_out", "distribution": "uniform"}}
IMAGENET_STDDEV_RGB = (0.229, 0.224, 0.225)


def _mbconv(x, kernel, f_in, f_out, expansion, stride, drop_rate, name):
    inputs, filters = x, f_in * expansion
    if expansion != 1:
        x = L.Conv2D(filters, 1, padding="same", use_bias=False, kernel_initializer=CONV_INIT,
                     name=f"{name}expand_conv")(x)
        x = L.BatchNormalization(axis=3, name=f"{name}expand_bn")(x)
        x = L.Activation("swish", name=f"{name}expand_activation")(x)
    if stride == 2:
        x = L.ZeroPadding2D(padding=iu.correct_pad(x, kernel), name=f"{name}dwconv_pad")(x)
    x = L.DepthwiseConv2D(kernel, strides=stride, padding="valid" if stride == 2 else "same", use_bias=False,
                          depthwise_initializer=CONV_INIT, name=f"{name}dwconv")(x)
    x = L.BatchNormalization(axis=3, name=f"{name}bn")(x)
    x = L.Activation("swish", name=f"{name}activation")(x)
    se = L.GlobalAveragePooling2D(name=f"{name}se_squeeze")(x)
    se = L.Reshape((1, 1, filters), name=f"{name}se_reshape")(se)
    se = L.Conv2D(max(1, int(f_in * 0.25)), 1, padding="same", activation="swish", kernel_initializer=CONV_INIT,
                  name=f"{name}se_reduce")(se)
    se = L.Conv2D(filters, 1, padding="same", activation="sigmoid", kernel_initializer=CONV_INIT,
                  name=f"{name}se_expand")(se)
    x = L.multiply([x, se], name=f"{name}se_excite")
    x = L.Conv2D(f_out, 1, padding="same", use_bias=False, kernel_initializer=CONV_INIT,
                 name=f"{name}project_conv")(x)
    x = L.BatchNormalization(axis=3, name=f"{name}project_bn")(x)
    if stride == 1 and f_in == f_out:
        if drop_rate > 0:
            x = L.Dropout(drop_rate, noise_shape=(None, 1, 1, 1), name=f"{name}drop")(x)
        x = L.add([x, inputs], name=f"{name}add")
    return x


def efficientnet(variant, include_top=True, weights="imagenet", input_tensor=None, input_shape=None, pooling=None,
                 classes=1000, classifier_activation="softmax", name=None):
    width, depth, size, dropout = EFFICIENTNET_SCALES[variant]
    inputs = _start(weights, include_top, classes, input_shape, size, 32, input_tensor, "efficientnet")

    def filters(n):
        n *= width
        rounded = max(8, int(n + 4) // 8 * 8)
        return int(rounded + 8 if rounded < 0.9 * n else rounded)

    x = L.Rescaling(1.0 / 255.0)(inputs)
    x = L.Normalization(axis=3)(x)
    if weights == "imagenet":
        x = L.Rescaling([1.0 / math.sqrt(s) for s in IMAGENET_STDDEV_RGB])(x)
    x = L.ZeroPadding2D(padding=iu.correct_pad(x, 3), name="stem_conv_pad")(x)
    x = L.Conv2D(filters(32), 3, strides=2, padding="valid", use_bias=False, kernel_initializer=CONV_INIT,
                 name="stem_conv")(x)
    x = L.BatchNormalization(axis=3, name="stem_bn")(x)
    x = L.Activation("swish", name="stem_activation")(x)
    total = float(sum(math.ceil(depth * stage[1]) for stage in EFFICIENTNET_STAGES))
    b = 0
    for i, (kernel, repeats, f_in, f_out, expansion, stride) in enumerate(EFFICIENTNET_STAGES):
        f_in, f_out = filters(f_in), filters(f_out)
        for j in range(math.ceil(depth * repeats)):
            x = _mbconv(x, kernel, f_in if j == 0 else f_out, f_out, expansion, stride if j == 0 else 1,
                        0.2 * b / total, f"block{i + 1}{chr(j + 97)}_")
            b += 1
    x = L.Conv2D(filters(1280), 1, padding="same", use_bias=False, kernel_initializer=CONV_INIT, name="top_conv")(x)
    x = L.BatchNormalization(axis=3, name="top_bn")(x)
    x = L.Activation("swish", name="top_activation")(x)
    x = _top(x, include_top, pooling, classes, classifier_activation, dropout=dropout, dense_init=DENSE_INIT)
    model = _model(inputs, x, name or f"efficientnet{variant}")
    file_name = f"efficientnet{variant}" + (".h5" if include_top else "_notop.h5")
    iu.load_weights(model, weights, "https://storage.googleapis.com/keras-applications/" + file_name, file_name)
    return model


# -- InceptionV3: a stem, then "mixed" blocks of parallel branches concatenated -------------------------
# a branch: convolutions (filters, rows, cols[, strides, padding]) — each unnamed Conv2D, BatchNormalization
# without scale and ReLU — after an optional pooling ("avg": 3x3 stride 1 same, "max": 3x3 stride 2); a
# ("split", a, b, name) ends a branch in two convolutions of its output, concatenated
def _a(pool):
    return [[(64, 1, 1)], [(48, 1, 1), (64, 5, 5)], [(64, 1, 1), (96, 3, 3), (96, 3, 3)], ["avg", (pool, 1, 1)]]


def _c(c7):
    return [[(192, 1, 1)], [(c7, 1, 1), (c7, 1, 7), (192, 7, 1)],
            [(c7, 1, 1), (c7, 7, 1), (c7, 1, 7), (c7, 7, 1), (192, 1, 7)], ["avg", (192, 1, 1)]]


def _e(i):
    return [[(320, 1, 1)], [(384, 1, 1), ("split", (384, 1, 3), (384, 3, 1), f"mixed9_{i}")],
            [(448, 1, 1), (384, 3, 3), ("split", (384, 1, 3), (384, 3, 1), None)], ["avg", (192, 1, 1)]]


INCEPTION_V3 = [_a(32), _a(64), _a(64),
                [[(384, 3, 3, 2, "valid")], [(64, 1, 1), (96, 3, 3), (96, 3, 3, 2, "valid")], ["max"]],
                _c(128), _c(160), _c(160), _c(192),
                [[(192, 1, 1), (320, 3, 3, 2, "valid")],
                 [(192, 1, 1), (192, 1, 7), (192, 7, 1), (192, 3, 3, 2, "valid")], ["max"]],
                _e(0), _e(1)]


def _conv_bn(x, filters, rows, cols, strides=1, padding="same"):
    x = L.Conv2D(filters, (rows, cols), strides=(strides, strides), padding=padding, use_bias=False)(x)
    x = L.BatchNormalization(axis=3, scale=False)(x)
    return L.Activation("relu")(x)


def _branch(x, steps):
    for step in steps:
        if step == "avg":
            x = L.AveragePooling2D((3, 3), strides=(1, 1), padding="same")(x)
        elif step == "max":
            x = L.MaxPooling2D((3, 3), strides=(2, 2))(x)
        elif step[0] == "split":
            parts = [_conv_bn(x, *step[1]), _conv_bn(x, *step[2])]
            x = L.concatenate(parts, axis=3, **({"name": step[3]} if step[3] else {}))
        else:
            x = _conv_bn(x, *step)
    return x


def inception_v3(include_top=True, weights="imagenet", input_tensor=None, input_shape=None, pooling=None,
                 classes=1000, classifier_activation="softmax", name="inception_v3"):
    inputs = _start(weights, include_top, classes, input_shape, 299, 75, input_tensor, "inception_v3")
    x = _branch(inputs, [(32, 3, 3, 2, "valid"), (32, 3, 3, 1, "valid"), (64, 3, 3), "max", (80, 1, 1, 1, "valid"),
                         (192, 3, 3, 1, "valid"), "max"])
    for i, block in enumerate(INCEPTION_V3):
        x = L.concatenate([_branch(x, branch) for branch in block], axis=3, name=f"mixed{i}")
    x = _top(x, include_top, pooling, classes, classifier_activation, prefix_pool=include_top)
    model = _model(inputs, x, name)
    file_name = f"inception_v3_weights_tf_dim_ordering_tf_kernels{'' if include_top else '_notop'}.h5"
    iu.load_weights(model, weights, f"{KERAS_APPS}inception_v3/{file_name}", file_name)
    return model


# -- Xception: separable convolutions; entry and exit blocks halve the size beside a strided 1x1 shortcut ------
# entry blocks: (block, first width, second width); the middle blocks 5-12 keep 728 channels
XCEPTION_ENTRY = ((2, 128, 128), (3, 256, 256), (4, 728, 728))


def _sep_bn(x, width, name, act_before=None, act_after=None):
    if act_before:
        x = L.Activation("relu", name=act_before)(x)
    x = L.SeparableConv2D(width, (3, 3), padding="same", use_bias=False, name=name)(x)
    x = L.BatchNormalization(axis=-1, name=f"{name}_bn")(x)
    return L.Activation("relu", name=act_after)(x) if act_after else x


def _reduction(x, block, first, second):
    """An entry or exit block: two separable convolutions and a max pooling, plus a strided 1x1 shortcut
    (block 2 has no ReLU before its first convolution: the stem's ends in one)."""
    residual = L.Conv2D(second, (1, 1), strides=(2, 2), padding="same", use_bias=False)(x)
    residual = L.BatchNormalization(axis=-1)(residual)
    x = _sep_bn(x, first, f"block{block}_sepconv1", None if block == 2 else f"block{block}_sepconv1_act")
    x = _sep_bn(x, second, f"block{block}_sepconv2", f"block{block}_sepconv2_act")
    x = L.MaxPooling2D((3, 3), strides=(2, 2), padding="same", name=f"block{block}_pool")(x)
    return L.add([x, residual])


def xception(include_top=True, weights="imagenet", input_tensor=None, input_shape=None, pooling=None, classes=1000,
             classifier_activation="softmax", name="xception"):
    inputs = _start(weights, include_top, classes, input_shape, 299, 71, input_tensor)
    x = inputs
    for width, conv, strides in ((32, "block1_conv1", (2, 2)), (64, "block1_conv2", (1, 1))):
        x = L.Conv2D(width, (3, 3), strides=strides, use_bias=False, name=conv)(x)
        x = L.BatchNormalization(axis=-1, name=f"{conv}_bn")(x)
        x = L.Activation("relu", name=f"{conv}_act")(x)
    for block, first, second in XCEPTION_ENTRY:
        x = _reduction(x, block, first, second)
    for block in range(5, 13):
        residual = x
        for i in (1, 2, 3):
            x = _sep_bn(x, 728, f"block{block}_sepconv{i}", f"block{block}_sepconv{i}_act")
        x = L.add([x, residual])
    x = _reduction(x, 13, 728, 1024)
    x = _sep_bn(x, 1536, "block14_sepconv1", act_after="block14_sepconv1_act")
    x = _sep_bn(x, 2048, "block14_sepconv2", act_after="block14_sepconv2_act")
    x = _top(x, include_top, pooling, classes, classifier_activation, prefix_pool=include_top)
    model = _model(inputs, x, name)
    file_name = f"xception_weights_tf_dim_ordering_tf_kernels{'' if include_top else '_notop'}.h5"
    iu.load_weights(model, weights, f"{KERAS_APPS}xception/{file_name}", file_name)
    return model
