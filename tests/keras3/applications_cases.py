"""``keras.applications`` models built with ``weights=None`` (their layers, parameter counts,
output shapes and ``summary()`` lines), ``weights="imagenet"`` offline, ``preprocess_input`` on a
small batch and ``decode_predictions`` offline. Run by ``applications_capture.py`` with Keras 3.15.1
and by ``tests/test_keras_applications.py`` under devtrace."""

import numpy as np

MODELS = {  # name: (constructor, its module in keras.applications, keyword arguments)
    "ResNet50": ("ResNet50", "resnet", {}),
    "MobileNetV2": ("MobileNetV2", "mobilenet_v2", {}),
    "VGG16": ("VGG16", "vgg16", {}),
    "EfficientNetB0": ("EfficientNetB0", "efficientnet", {}),
    "DenseNet121": ("DenseNet121", "densenet", {}),
    "InceptionV3": ("InceptionV3", "inception_v3", {}),
    "MobileNet": ("MobileNet", "mobilenet", {}),
    "ResNet50V2": ("ResNet50V2", "resnet_v2", {}),
    "Xception": ("Xception", "xception", {}),
    "ResNet50_notop_avg": ("ResNet50", "resnet", {"include_top": False, "pooling": "avg", "input_shape": (64, 64, 3)}),
    "MobileNetV2_alpha": ("MobileNetV2", "mobilenet_v2", {"alpha": 0.35, "input_shape": (96, 96, 3), "classes": 10}),
    "VGG16_notop": ("VGG16", "vgg16", {"include_top": False, "input_shape": (32, 32, 3)}),
    "EfficientNetB0_notop_max": ("EfficientNetB0", "efficientnet", {"include_top": False, "pooling": "max"}),
    "DenseNet121_notop": ("DenseNet121", "densenet", {"include_top": False, "input_shape": (64, 64, 3)}),
    "MobileNet_alpha": ("MobileNet", "mobilenet", {"alpha": 0.5, "input_shape": (64, 64, 3), "classes": 7}),
    "MobileNetV2_notop": ("MobileNetV2", "mobilenet_v2", {"include_top": False, "input_shape": (64, 64, 3)}),
    "ResNet50V2_notop_max": ("ResNet50V2", "resnet_v2", {"include_top": False, "pooling": "max",
                                                         "input_shape": (64, 64, 3)}),
    "Xception_notop": ("Xception", "xception", {"include_top": False, "input_shape": (71, 71, 3)}),
    "InceptionV3_notop_avg": ("InceptionV3", "inception_v3", {"include_top": False, "pooling": "avg",
                                                              "input_shape": (75, 75, 3)}),
    "MobileNetV3Small": ("MobileNetV3Small", "mobilenet_v3", {}),
    "MobileNetV3Large_notop": ("MobileNetV3Large", "mobilenet_v3", {"include_top": False, "input_shape": (96, 96, 3)}),
    "MobileNetV3Small_minimalistic": ("MobileNetV3Small", "mobilenet_v3", {
        "minimalistic": True, "alpha": 0.75, "include_top": False, "pooling": "avg", "input_shape": (64, 64, 3)}),
    "ConvNeXtTiny": ("ConvNeXtTiny", "convnext", {}),
    "ConvNeXtTiny_notop_avg": ("ConvNeXtTiny", "convnext", {"include_top": False, "pooling": "avg",
                                                            "input_shape": (64, 64, 3)}),
    "ConvNeXtTiny_classes": ("ConvNeXtTiny", "convnext", {"input_shape": (32, 32, 3), "classes": 10,
                                                          "include_preprocessing": False}),
    "EfficientNetV2B0": ("EfficientNetV2B0", "efficientnet_v2", {}),
    "EfficientNetV2B0_notop_max": ("EfficientNetV2B0", "efficientnet_v2", {"include_top": False, "pooling": "max",
                                                                           "input_shape": (64, 64, 3)}),
    "EfficientNetV2S_notop": ("EfficientNetV2S", "efficientnet_v2", {"include_top": False, "input_shape": (64, 64, 3)}),
    "NASNetMobile": ("NASNetMobile", "nasnet", {}),
    "NASNetMobile_notop_avg": ("NASNetMobile", "nasnet", {"include_top": False, "pooling": "avg",
                                                          "input_shape": (64, 64, 3)}),
    "NASNetMobile_classes": ("NASNetMobile", "nasnet", {"input_shape": (96, 96, 3), "classes": 5}),
}

# the family members checked by their counts only (their builders are the same tables')
COUNTED = ["ResNet101", "ResNet152", "ResNet101V2", "ResNet152V2", "VGG19", "DenseNet169", "DenseNet201"] + [f"EfficientNetB{i}" for i in range(1, 8)] \
    + [f"ConvNeXt{v}" for v in ("Small", "Base", "Large", "XLarge")] \
    + [f"EfficientNetV2{v}" for v in ("B1", "B2", "B3", "S", "M", "L")] + ["NASNetLarge"]

PREPROCESS = ["resnet", "mobilenet_v2", "vgg16", "efficientnet", "densenet", "inception_v3", "mobilenet", "resnet_v2",
              "xception", "mobilenet_v3", "convnext", "efficientnet_v2", "nasnet"]


def build(keras, name):
    """The model's description: layer count, parameters, output shape, summary lines."""
    constructor, _module, kwargs = MODELS[name]
    keras.backend.clear_session()
    model = getattr(keras.applications, constructor)(weights=None, **kwargs)
    lines = []
    model.summary(print_fn=lambda line, *a, **k: lines.append(line))
    lines = [line for line in "\n".join(lines).split("\n") if not line.startswith("├")]  # the rows' separators
    if kwargs:  # a variant: the table's head and its totals
        lines = lines[:6] + lines[-5:]
    return {"name": model.name, "layers": len(model.layers), "params": int(model.count_params()),
            "output_shape": list(model.output_shape), "summary": lines}


def counts(keras, constructor):
    keras.backend.clear_session()
    model = getattr(keras.applications, constructor)(weights=None)
    return [model.name, len(model.layers), int(model.count_params()), list(model.output_shape),
            list(model.input_shape)]


def imagenet_offline(keras, constructor):
    try:
        getattr(keras.applications, constructor)(weights="imagenet")
    except Exception as e:  # noqa: BLE001 (the error is what is compared)
        return [type(e).__name__, str(e)]
    return "built"


def preprocess(keras, module):
    x = np.arange(2 * 2 * 2 * 3, dtype="float32").reshape(2, 2, 2, 3) * 10.0
    out = getattr(keras.applications, module).preprocess_input(x.copy())
    return np.round(np.asarray(out, dtype="float64"), 4).tolist()


def decode_offline(keras):
    try:
        keras.applications.resnet.decode_predictions(np.full((1, 1000), 0.001, "float32"), top=2)
    except Exception as e:  # noqa: BLE001
        return [type(e).__name__, str(e)]
    return "decoded"


def transfer(keras):
    """TensorFlow's transfer-learning tutorial's model: ``preprocess_input`` on the symbolic input (layers
    of the model), a frozen MobileNetV2 called with ``training=False``, a new head; its summary lines,
    trainable variables, and each module's ``preprocess_input`` of a tensor."""
    keras.backend.clear_session()
    base = keras.applications.MobileNetV2(input_shape=(96, 96, 3), include_top=False, weights=None)
    base.trainable = False
    inputs = keras.Input(shape=(96, 96, 3))
    x = keras.applications.mobilenet_v2.preprocess_input(inputs)
    x = base(x, training=False)
    x = keras.layers.GlobalAveragePooling2D()(x)
    x = keras.layers.Dropout(0.2)(x)
    model = keras.Model(inputs, keras.layers.Dense(1)(x))
    lines = []
    model.summary(print_fn=lambda line, *a, **k: lines.append(line))
    image = np.arange(2 * 2 * 3, dtype="float32").reshape(1, 2, 2, 3) * 20.0
    tensors = {m: np.round(np.asarray(getattr(keras.applications, m).preprocess_input(
        keras.ops.convert_to_tensor(image))), 4).tolist() for m in ("resnet", "densenet", "mobilenet_v2")}
    symbolic = {}
    for m in ("resnet", "densenet"):
        keras.backend.clear_session()
        given = keras.Input((4, 4, 3))
        out = getattr(keras.applications, m).preprocess_input(given)
        symbolic[m] = [layer.name for layer in keras.Model(given, out).layers]
    return {"summary": "\n".join(lines).split("\n"), "trainable": len(model.trainable_variables),
            "tensors": tensors, "symbolic": symbolic}

# built with weights="imagenet" offline: Keras's download error names each family's file
IMAGENET = ["ResNet50", "VGG16", "ConvNeXtTiny", "EfficientNetV2B0", "NASNetMobile"]
