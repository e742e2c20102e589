"""What ``keras.<namespace>.get`` returns for strings, dicts, classes, callables, ``None`` and
unknown identifiers, and Keras's error texts: described by ``describe`` (a value's kind and class or
function name), evaluated by ``getters_capture.py`` with Keras 3.15.1 and by
``tests/test_keras_getters.py`` under devtrace."""

import types

NAMESPACES = ("losses", "metrics", "activations", "optimizers", "initializers", "regularizers", "constraints")

IDENTIFIERS = ["mse", "MSE", "mae", "bce", "MeanSquaredError", "mean_squared_error", "auc", "AUC", "accuracy", "acc",
               "relu", "ReLU", "swish", "sgd", "SGD", "adam", "Adam", "glorot_uniform", "GlorotUniform", "zeros",
               "one", "normal", "l2", "L2", "l1_l2", "max_norm", "MaxNorm", "NonNeg", "non_neg", "unit_norm",
               "nope", "None", "3", "abs", "{'class_name': 'MeanSquaredError', 'config': {}}",
               "{'class_name': 'L2', 'config': {'l2': 0.5}}", "{'class_name': 'nope', 'config': {}}"]

# expressions: the same under both (``keras`` is Keras or devtrace's)
EXPRESSIONS = [
    "keras.losses.get(keras.losses.MeanSquaredError)",
    "keras.losses.get(keras.losses.Huber(name='h')).name",
    "keras.losses.get('CategoricalCrossentropy').name",
    "keras.losses.get({'class_name': 'CategoricalCrossentropy', 'config': {'from_logits': True}}).from_logits",
    "keras.metrics.get('mse').name",
    "keras.metrics.get('MSE').name",
    "keras.metrics.get('categorical_crossentropy')",
    "keras.metrics.get(keras.metrics.AUC)",
    "keras.activations.get(None)",
    "keras.activations.get(keras.activations.relu)",
    "keras.optimizers.get({'class_name': 'Adam', 'config': {'learning_rate': 0.5}}).get_config()['learning_rate']",
    "keras.optimizers.get({'class_name': 'SGD', 'config': {}})",
    "keras.initializers.get('Ones')",
    "keras.initializers.get({'class_name': 'Constant', 'config': {'value': 2.0}}).value",
    "keras.regularizers.get('l1l2').l1",
    "keras.regularizers.get({'class_name': 'L2', 'config': {'l2': 0.5}}).l2",
    "keras.constraints.get({'class_name': 'MaxNorm', 'config': {'max_value': 3}}).max_value",
]

# after keras.backend.clear_session(), in this order: the names Keras draws (auc, auc_1 …)
NAMES_IN_ORDER = [
    "keras.metrics.get('auc').name",
    "keras.metrics.get('AUC').name",
    "keras.metrics.AUC().name",
    "keras.metrics.Precision().name",
    "keras.metrics.Precision().name",
    "keras.metrics.get('recall').name",
    "keras.metrics.Mean().name",
    "keras.metrics.Mean().name",
    "keras.metrics.get('mae').name",
    "keras.optimizers.get('sgd').name",
    "keras.optimizers.get('SGD').name",
    "keras.optimizers.get('adam').name",
]


def describe(value):
    if value is None:
        return "None"
    if isinstance(value, type):
        return "class " + value.__name__
    if isinstance(value, (types.FunctionType, types.BuiltinFunctionType)):
        return "function " + value.__name__
    if isinstance(value, (bool, int, float, str)):
        return repr(round(value, 6) if isinstance(value, float) else value)
    return "instance " + type(value).__name__


def evaluate(expression, keras):
    try:
        return describe(eval(expression, {"keras": keras}))
    except Exception as e:  # noqa: BLE001 (the error is what is compared)
        return f"{type(e).__name__}: {e}"
