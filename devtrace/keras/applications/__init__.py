"""``keras.applications``: Keras's ImageNet models (ResNet50/101/152 and their V2s, VGG16/19,
DenseNet121/169/201, MobileNet, MobileNetV2, MobileNetV3Small/Large, EfficientNetB0–B7, EfficientNetV2B0–B3/S/M/L, ConvNeXtTiny–XLarge, NASNetMobile/Large,
InceptionV3, Xception) with their
``preprocess_input``/``decode_predictions``, and the modules Keras files them under (``keras.applications.resnet50`` …). Built by ``builders`` from
tables; pretrained weights are Keras's files, fetched as Keras fetches them."""

from __future__ import annotations

import functools

from devtrace.util.namespace import Namespace, missing as _missing

from . import builders, mobilenet_v3 as _mobilenet_v3
from . import convnext as _convnext, efficientnet_v2 as _efficientnet_v2, nasnet as _nasnet
from . import imagenet_utils as _iu


def _model(builder, key, default_name, doc):
    @functools.wraps(builder)
    def make(include_top=True, weights="imagenet", input_tensor=None, input_shape=None, pooling=None, classes=1000,
             classifier_activation="softmax", name=default_name):
        return builder(key, include_top=include_top, weights=weights, input_tensor=input_tensor,
                       input_shape=input_shape, pooling=pooling, classes=classes,
                       classifier_activation=classifier_activation, name=name)
    make.__name__ = make.__qualname__ = doc
    make.__doc__ = f"Keras's ``{doc}`` (``weights=None``: initialized; ``'imagenet'``: Keras's file)."
    return make


ResNet50 = _model(builders.resnet, "resnet50", "resnet50", "ResNet50")
ResNet101 = _model(builders.resnet, "resnet101", "resnet101", "ResNet101")
ResNet152 = _model(builders.resnet, "resnet152", "resnet152", "ResNet152")
ResNet50V2 = _model(builders.resnet, "resnet50v2", "resnet50v2", "ResNet50V2")
ResNet101V2 = _model(builders.resnet, "resnet101v2", "resnet101v2", "ResNet101V2")
ResNet152V2 = _model(builders.resnet, "resnet152v2", "resnet152v2", "ResNet152V2")
VGG16 = _model(builders.vgg, "vgg16", "vgg16", "VGG16")
VGG19 = _model(builders.vgg, "vgg19", "vgg19", "VGG19")
DenseNet121 = _model(builders.densenet, "densenet121", "densenet121", "DenseNet121")
DenseNet169 = _model(builders.densenet, "densenet169", "densenet169", "DenseNet169")
DenseNet201 = _model(builders.densenet, "densenet201", "densenet201", "DenseNet201")
EfficientNetB0, EfficientNetB1, EfficientNetB2, EfficientNetB3, EfficientNetB4, EfficientNetB5, EfficientNetB6, \
    EfficientNetB7 = (_model(builders.efficientnet, f"b{i}", f"efficientnetb{i}", f"EfficientNetB{i}")
                      for i in range(8))


def InceptionV3(include_top=True, weights="imagenet", input_tensor=None, input_shape=None, pooling=None,  # noqa: N802
                classes=1000, classifier_activation="softmax", name="inception_v3"):
    """Keras's ``InceptionV3`` (299x299 by default, at least 75x75)."""
    return builders.inception_v3(include_top, weights, input_tensor, input_shape, pooling, classes,
                                 classifier_activation, name)


def Xception(include_top=True, weights="imagenet", input_tensor=None, input_shape=None, pooling=None,  # noqa: N802
             classes=1000, classifier_activation="softmax", name="xception"):
    """Keras's ``Xception`` (299x299 by default, at least 71x71)."""
    return builders.xception(include_top, weights, input_tensor, input_shape, pooling, classes,
                             classifier_activation, name)


def MobileNet(input_shape=None, alpha=1.0, depth_multiplier=1, dropout=1e-3, include_top=True,  # noqa: N802
              weights="imagenet", input_tensor=None, pooling=None, classes=1000, classifier_activation="softmax",
              name=None):
    """Keras's ``MobileNet`` (v1; named ``mobilenet_<alpha>_<rows>``)."""
    return builders.mobilenet(input_shape, alpha, depth_multiplier, dropout, include_top, weights, input_tensor,
                              pooling, classes, classifier_activation, name)


def MobileNetV2(input_shape=None, alpha=1.0, include_top=True, weights="imagenet", input_tensor=None,  # noqa: N802
                pooling=None, classes=1000, classifier_activation="softmax", name=None):
    """Keras's ``MobileNetV2`` (``alpha`` scales every width; named ``mobilenetv2_<alpha>_<rows>``)."""
    return builders.mobilenet_v2(input_shape, alpha, include_top, weights, input_tensor, pooling, classes,
                                 classifier_activation, name)


def MobileNetV3Small(input_shape=None, alpha=1.0, minimalistic=False, include_top=True,  # noqa: N802
                     weights="imagenet", input_tensor=None, classes=1000, pooling=None, dropout_rate=0.2,
                     classifier_activation="softmax", include_preprocessing=True, name="MobileNetV3Small"):
    """Keras's ``MobileNetV3Small`` (any input size by default; rescales its input itself)."""
    return _mobilenet_v3.mobilenet_v3(_mobilenet_v3.SMALL, 1024, "small", input_shape, alpha, minimalistic,
                                      include_top, weights, input_tensor, classes, pooling, dropout_rate,
                                      classifier_activation, include_preprocessing, name)


def MobileNetV3Large(input_shape=None, alpha=1.0, minimalistic=False, include_top=True,  # noqa: N802
                     weights="imagenet", input_tensor=None, classes=1000, pooling=None, dropout_rate=0.2,
                     classifier_activation="softmax", include_preprocessing=True, name="MobileNetV3Large"):
    """Keras's ``MobileNetV3Large`` (any input size by default; rescales its input itself)."""
    return _mobilenet_v3.mobilenet_v3(_mobilenet_v3.LARGE, 1280, "large", input_shape, alpha, minimalistic,
                                      include_top, weights, input_tensor, classes, pooling, dropout_rate,
                                      classifier_activation, include_preprocessing, name)


def _convnext_model(variant, doc):
    def make(include_top=True, include_preprocessing=True, weights="imagenet", input_tensor=None, input_shape=None,
             pooling=None, classes=1000, classifier_activation="softmax", name=f"convnext_{variant}"):
        return _convnext.convnext(variant, include_top, include_preprocessing, weights, input_tensor, input_shape,
                                  pooling, classes, classifier_activation, name)
    make.__name__ = make.__qualname__ = doc
    make.__doc__ = f"Keras's ``{doc}`` (normalizes its input itself; ``weights=None``: initialized)."
    return make


def _efficientnet_v2_model(variant, doc):
    def make(include_top=True, weights="imagenet", input_tensor=None, input_shape=None, pooling=None, classes=1000,
             classifier_activation="softmax", include_preprocessing=True, name=f"efficientnetv2-{variant}"):
        return _efficientnet_v2.efficientnet_v2(variant, include_top, weights, input_tensor, input_shape, pooling,
                                                classes, classifier_activation, include_preprocessing, name)
    make.__name__ = make.__qualname__ = doc
    make.__doc__ = f"Keras's ``{doc}`` (rescales its input itself; ``weights=None``: initialized)."
    return make


def _nasnet_model(variant, doc):
    def make(input_shape=None, include_top=True, weights="imagenet", input_tensor=None, pooling=None, classes=1000,
             classifier_activation="softmax", name=f"nasnet_{variant}"):
        return _nasnet.nasnet(variant, input_shape, include_top, weights, input_tensor, pooling, classes,
                              classifier_activation, name)
    make.__name__ = make.__qualname__ = doc
    make.__doc__ = f"Keras's ``{doc}`` (``weights=None``: initialized; ``'imagenet'``: Keras's file)."
    return make


ConvNeXtTiny, ConvNeXtSmall, ConvNeXtBase, ConvNeXtLarge, ConvNeXtXLarge = (
    _convnext_model(v.lower(), f"ConvNeXt{v}") for v in ("Tiny", "Small", "Base", "Large", "XLarge"))
EfficientNetV2B0, EfficientNetV2B1, EfficientNetV2B2, EfficientNetV2B3, EfficientNetV2S, EfficientNetV2M, \
    EfficientNetV2L = (_efficientnet_v2_model(v.lower(), f"EfficientNetV2{v}")
                       for v in ("B0", "B1", "B2", "B3", "S", "M", "L"))
NASNetMobile = _nasnet_model("mobile", "NASNetMobile")
NASNetLarge = _nasnet_model("large", "NASNetLarge")


def _preprocessor(mode):
    def preprocess_input(x, data_format=None):
        return _iu.preprocess_input(x, data_format=data_format, mode=mode)
    return preprocess_input


def _efficientnet_preprocess(x, data_format=None):
    """EfficientNet rescales and normalizes inside the model: the input as it is."""
    return x


def _module(name, **names):
    return Namespace(_prefix=f"keras.applications.{name}", __name__=f"keras.applications.{name}",
                     decode_predictions=_iu.decode_predictions, **names)


resnet = _module("resnet", ResNet50=ResNet50, ResNet101=ResNet101, ResNet152=ResNet152,
                 preprocess_input=_preprocessor("caffe"))
resnet50 = _module("resnet50", ResNet50=ResNet50, preprocess_input=resnet.preprocess_input)
vgg16 = _module("vgg16", VGG16=VGG16, preprocess_input=_preprocessor("caffe"))
vgg19 = _module("vgg19", VGG19=VGG19, preprocess_input=_preprocessor("caffe"))
densenet = _module("densenet", DenseNet121=DenseNet121, DenseNet169=DenseNet169, DenseNet201=DenseNet201,
                   preprocess_input=_preprocessor("torch"))
resnet_v2 = _module("resnet_v2", ResNet50V2=ResNet50V2, ResNet101V2=ResNet101V2, ResNet152V2=ResNet152V2,
                    preprocess_input=_preprocessor("tf"))
mobilenet = _module("mobilenet", MobileNet=MobileNet, preprocess_input=_preprocessor("tf"))
mobilenet_v2 = _module("mobilenet_v2", MobileNetV2=MobileNetV2, preprocess_input=_preprocessor("tf"))
mobilenet_v3 = _module("mobilenet_v3", MobileNetV3Small=MobileNetV3Small, MobileNetV3Large=MobileNetV3Large,
                       preprocess_input=_efficientnet_preprocess)
efficientnet = _module("efficientnet", preprocess_input=_efficientnet_preprocess,
                       **{f"EfficientNetB{i}": globals()[f"EfficientNetB{i}"] for i in range(8)})
efficientnet_v2 = _module("efficientnet_v2", preprocess_input=_efficientnet_preprocess,
                          **{f"EfficientNetV2{v}": globals()[f"EfficientNetV2{v}"]
                             for v in ("B0", "B1", "B2", "B3", "S", "M", "L")})
convnext = _module("convnext", preprocess_input=_efficientnet_preprocess,
                   **{f"ConvNeXt{v}": globals()[f"ConvNeXt{v}"] for v in ("Tiny", "Small", "Base", "Large", "XLarge")})
nasnet = _module("nasnet", NASNetMobile=NASNetMobile, NASNetLarge=NASNetLarge, preprocess_input=_preprocessor("tf"))
xception = _module("xception", Xception=Xception, preprocess_input=_preprocessor("tf"))
inception_v3 = _module("inception_v3", InceptionV3=InceptionV3, preprocess_input=_preprocessor("tf"))
imagenet_utils = _module("imagenet_utils", preprocess_input=_iu.preprocess_input)

__getattr__ = _missing("keras.applications")
