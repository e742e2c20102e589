"""ConvNeXt (Liu et al. 2022; Tiny to XLarge): a 4x4 patchifying stem, then four stages of blocks
(7x7 depthwise convolution, layer norm, a 4x wide MLP, a learned per-channel scale) between 2x2
downsamplings, with the layer names, order and parameter counts Keras's ``keras.applications.ConvNeXt*``
give (``weights=None``; ``'imagenet'`` loads Keras's file). The stem and each downsampling are
``Sequential`` models inside the functional one, as in Keras."""

from __future__ import annotations

import os

import devtrace as tf
from .. import initializers
from .. import layers as L
from ..engine import Input, Layer
from . import imagenet_utils as iu
from .builders import KERAS_APPS, _model

# variant: (blocks per stage, widths per stage); every variant's default size is 224
CONVNEXT = {"tiny": ((3, 3, 9, 3), (96, 192, 384, 768)), "small": ((3, 3, 27, 3), (96, 192, 384, 768)),
            "base": ((3, 3, 27, 3), (128, 256, 512, 1024)), "large": ((3, 3, 27, 3), (192, 384, 768, 1536)),
            "xlarge": ((3, 3, 27, 3), (256, 512, 1024, 2048))}
IMAGENET_MEAN = (0.485, 0.456, 0.406)
IMAGENET_STDDEV = (0.229, 0.224, 0.225)


class LayerScale(Layer):
    """Keras's ``LayerScale`` of ConvNeXt: the input times a learned per-channel ``gamma``."""

    def __init__(self, init_values, projection_dim, **kwargs):
        super().__init__(**kwargs)
        self.init_values, self.projection_dim = init_values, projection_dim

    def build(self, input_shape):
        self.gamma = self.add_weight(shape=(self.projection_dim,),
                                     initializer=initializers.Constant(self.init_values), trainable=True)
        self.built = True

    def call(self, x):
        return x * tf.cast(self.gamma, x.dtype)

    def compute_output_shape(self, input_shape):
        return input_shape

    def get_config(self):
        return {**super().get_config(), "init_values": self.init_values, "projection_dim": self.projection_dim}


def _check(weights, include_top, classes):
    if not (weights in {"imagenet", None} or os.path.exists(weights)):
        raise ValueError("The `weights` argument should be either `None` (random initialization), `imagenet` "
                         "(pre-training on ImageNet), or the path to the weights file to be loaded.")
    if weights == "imagenet" and include_top and classes != 1000:
        raise ValueError('If using `weights="imagenet"` with `include_top=True`, `classes` should be 1000. '
                         f"Received classes={classes}")


def _block(x, width, name):
    inputs = x
    x = L.Conv2D(width, kernel_size=7, padding="same", groups=width, name=f"{name}_depthwise_conv")(x)
    x = L.LayerNormalization(epsilon=1e-6, name=f"{name}_layernorm")(x)
    x = L.Dense(4 * width, name=f"{name}_pointwise_conv_1")(x)
    x = L.Activation("gelu", name=f"{name}_gelu")(x)
    x = L.Dense(width, name=f"{name}_pointwise_conv_2")(x)
    x = LayerScale(1e-6, width, name=f"{name}_layer_scale")(x)
    return inputs + L.Activation("linear", name=f"{name}_identity")(x)


def convnext(variant, include_top=True, include_preprocessing=True, weights="imagenet", input_tensor=None,
             input_shape=None, pooling=None, classes=1000, classifier_activation="softmax", name=None):
    from ..models import Sequential

    depths, widths = CONVNEXT[variant]
    name = name or f"convnext_{variant}"
    _check(weights, include_top, classes)
    shape = iu.obtain_input_shape(input_shape, 224, 32, include_top, weights)
    if input_tensor is not None:
        raise NotImplementedError("devtrace does not implement keras.applications models' input_tensor= yet")
    inputs = x = Input(shape=shape)
    if include_preprocessing and shape[-1] == 3:
        x = L.Normalization(mean=[m * 255 for m in IMAGENET_MEAN], variance=[(s * 255) ** 2 for s in IMAGENET_STDDEV],
                            name=f"{name}_prestem_normalization")(x)
    stem = Sequential([L.Conv2D(widths[0], kernel_size=4, strides=4, name=f"{name}_stem_conv"),
                       L.LayerNormalization(epsilon=1e-6, name=f"{name}_stem_layernorm")], name=f"{name}_stem")
    downsamplings = [stem] + [
        Sequential([L.LayerNormalization(epsilon=1e-6, name=f"{name}_downsampling_layernorm_{i}"),
                    L.Conv2D(widths[i + 1], kernel_size=2, strides=2, name=f"{name}_downsampling_conv_{i}")],
                   name=f"{name}_downsampling_block_{i}") for i in range(3)]
    for stage, (blocks, width) in enumerate(zip(depths, widths)):
        x = downsamplings[stage](x)
        for b in range(blocks):
            x = _block(x, width, f"{name}_stage_{stage}_block_{b}")
    if include_top:
        x = L.GlobalAveragePooling2D(name=f"{name}_head_gap")(x)
        x = L.LayerNormalization(epsilon=1e-6, name=f"{name}_head_layernorm")(x)
        x = L.Dense(classes, activation=classifier_activation, name=f"{name}_head_dense")(x)
    else:
        if pooling == "avg":
            x = L.GlobalAveragePooling2D()(x)
        elif pooling == "max":
            x = L.GlobalMaxPooling2D()(x)
        x = L.LayerNormalization(epsilon=1e-6)(x)
    model = _model(inputs, x, name)
    file_name = name + (".h5" if include_top else "_notop.h5")
    iu.load_weights(model, weights, f"{KERAS_APPS}convnext/{file_name}", file_name)
    return model
