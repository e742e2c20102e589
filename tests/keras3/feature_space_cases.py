"""``keras.utils.FeatureSpace`` on a small table: adapted on a batched ``tf.data`` dataset, called on a
dict batch (``concat`` and ``dict`` outputs), in a dataset's ``map``, its encoded features (symbolic),
discretized, hashed, rescaled and plain floats, and its errors. Run by ``feature_space_capture.py`` with
Keras 3.15.1 / TensorFlow 2.21 and by ``tests/test_feature_space.py`` under devtrace."""

import numpy as np

DATA = {"age": [25.0, 32.0, 47.0, 51.0, 62.0, 23.0], "city": ["paris", "rome", "paris", "oslo", "rome", "paris"],
        "code": [1, 2, 1, 3, 2, 1]}
BATCH = {"age": [30.0, 70.0], "city": ["rome", "lima"], "code": [2, 7]}


def _features(fs):
    return {"age": fs.float_normalized(), "city": fs.string_categorical(), "code": fs.integer_categorical()}


def _values(x):
    x = np.asarray(x)
    return [list(x.shape), str(x.dtype), np.round(x.astype("float64"), 4).tolist()]


def run(keras, tf):
    fs_cls = keras.utils.FeatureSpace
    out = {}
    keras.backend.clear_session()
    fs = fs_cls(features=_features(fs_cls), crosses=[fs_cls.cross(("city", "code"), crossing_dim=8)],
                output_mode="concat")
    try:
        fs(BATCH)
    except ValueError as e:
        out["unadapted"] = str(e)
    fs.adapt(tf.data.Dataset.from_tensor_slices(DATA).batch(2))
    out["concat"] = _values(fs(BATCH))
    encoded = fs.get_encoded_features()
    out["encoded"] = [list(encoded.shape), str(encoded.dtype)]
    out["one"] = _values(fs({"age": 40.0, "city": "oslo", "code": 3}))
    mapped = tf.data.Dataset.from_tensor_slices(DATA).batch(3).map(lambda x: fs(x))
    out["mapped"] = [_values(b) for b in mapped]
    keras.backend.clear_session()
    fs = fs_cls(features={"age": "float_normalized", "city": "string_categorical", "code": "integer_categorical"},
                output_mode="dict")
    fs.adapt(tf.data.Dataset.from_tensor_slices(DATA))
    got = fs(BATCH)
    out["dict"] = {k: _values(v) for k, v in sorted(got.items())}
    out["dict_encoded"] = {k: [list(v.shape), str(v.dtype)] for k, v in sorted(fs.get_encoded_features().items())}
    inputs = fs.get_inputs()
    out["inputs"] = {k: [list(v.shape), str(v.dtype), v.name] for k, v in sorted(inputs.items())}
    keras.backend.clear_session()
    table = {"x": [0.5, 1.5, 2.5, 3.5, 9.0, 4.0], "s": ["a", "b", "c", "a", "b", "z"], "i": [3, 4, 5, 3, 4, 7],
             "r": [1.0, 2.0, 3.0, 4.0, 5.0, 6.0], "f": [1.0, 0.0, 1.0, 0.0, 1.0, 0.0]}
    fs = fs_cls(features={"x": fs_cls.float_discretized(num_bins=3), "s": fs_cls.string_hashed(num_bins=4),
                          "i": fs_cls.integer_hashed(num_bins=5), "r": fs_cls.float_rescaled(scale=0.5, offset=1.0),
                          "f": "float"})
    fs.adapt(tf.data.Dataset.from_tensor_slices(table).batch(3))
    out["other_kinds"] = _values(fs({k: v[:3] for k, v in table.items()}))
    out["other_kinds_encoded"] = list(fs.get_encoded_features().shape)
    for bad in ({"output_mode": "flat"}, {"features": {}}):
        try:
            fs_cls(**{"features": {"age": "float"}, **bad})
        except ValueError as e:
            out.setdefault("errors", []).append(str(e))
    try:
        fs_cls(features={"age": "floaty"})
    except ValueError as e:
        out.setdefault("errors", []).append(str(e))
    try:
        fs.adapt([1, 2])
    except ValueError as e:
        out.setdefault("errors", []).append(str(e).split(" (of type")[0])
    try:
        fs([1.0])
    except ValueError as e:
        out.setdefault("errors", []).append(str(e))
    return out
