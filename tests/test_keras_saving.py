"""Keras's file formats without h5py: devtrace reads the `.keras` and `.weights.h5` files real Keras
3.15.1 wrote (tests/keras3/saving, made by tests/keras3/saving_capture.py) and writes the same
layout (HDF5 groups and datasets at Keras's paths) — Keras reading devtrace's files was checked with
tests/keras3/saving_keras_reads.py. The printed behaviour (configs, errors) is compared with Keras in
tests/tf221/programs/keras_saving.py."""

import pathlib

import numpy as np
import pytest

import devtrace as tf
from devtrace.keras import hdf5

HERE = pathlib.Path(__file__).parent / "keras3" / "saving"
WANT = np.load(HERE / "predictions.npz")
keras = tf.keras


def _sequential():
    return keras.Sequential([keras.Input((3,)), keras.layers.Dense(4, activation="relu"),
                             keras.layers.BatchNormalization(), keras.layers.Dense(1)])


def test_a_keras_file_of_keras_loads_with_its_weights_and_optimizer_state():
    m = keras.models.load_model(HERE / "sequential.keras")
    assert [type(layer).__name__ for layer in m.layers] == ["Dense", "BatchNormalization", "Dense"]
    np.testing.assert_allclose(m.predict(WANT["x"], verbose=0), WANT["sequential"], atol=1e-5)
    assert int(m.optimizer.iterations.numpy()) == int(WANT["iterations"]) == 4
    assert type(m.optimizer).__name__ == "Adam" and m.loss == "mse"


def test_keras_weights_h5_loads_into_the_same_architecture():
    m = _sequential()
    m.load_weights(HERE / "sequential.weights.h5")
    np.testing.assert_allclose(m.predict(WANT["x"], verbose=0), WANT["sequential"], atol=1e-5)


def test_a_functional_model_of_keras_loads():
    f = keras.models.load_model(HERE / "functional.keras")
    assert type(f).__name__ == "Functional"
    np.testing.assert_allclose(f.predict(WANT["x"], verbose=0), WANT["functional"], atol=1e-5)


def _layout(data: bytes) -> dict:
    return {path: (value.shape, value.dtype.name) for path, value in hdf5.flatten(hdf5.read(data)).items()}


def test_devtrace_writes_the_layout_keras_writes(tmp_path):
    m = _sequential()
    m.compile(optimizer="adam", loss="mse")
    m.fit(WANT["x"], WANT["x"].sum(1, keepdims=True), epochs=1, batch_size=4, verbose=0)
    m.save_weights(tmp_path / "m.weights.h5")
    ours = (tmp_path / "m.weights.h5").read_bytes()
    assert ours[:8] == b"\x89HDF\r\n\x1a\n"
    assert _layout(ours) == _layout((HERE / "sequential.weights.h5").read_bytes())
    assert "optimizer/vars/13" in _layout(ours) and _layout(ours)["optimizer/vars/0"] == ((), "int64")


def test_a_saved_model_round_trips(tmp_path):
    m = _sequential()
    m.compile(optimizer="adam", loss="mse")
    m.fit(WANT["x"], WANT["x"].sum(1, keepdims=True), epochs=2, batch_size=4, verbose=0)
    m.save(tmp_path / "m.keras")
    again = keras.models.load_model(tmp_path / "m.keras")
    np.testing.assert_allclose(again.predict(WANT["x"], verbose=0), m.predict(WANT["x"], verbose=0), atol=1e-6)
    for a, b in zip(again.optimizer.variables, m.optimizer.variables):
        np.testing.assert_allclose(a.numpy(), b.numpy())


def test_hdf5_round_trips_the_dtypes_weights_use():
    tree = {"a": {"f32": np.arange(6, dtype="float32").reshape(2, 3), "f64": np.array(1.5),
                  "f16": np.ones(3, "float16"), "i64": np.array(7, "int64"), "i32": np.arange(3, dtype="int32"),
                  "u8": np.arange(4, dtype="uint8"), "b": np.array([True, False]), "empty": np.zeros((0, 2), "float32")},
            "g": {}}
    back = hdf5.read(hdf5.write(tree, {"a": {"name": "x"}}))
    assert back["g"] == {}
    for key, value in tree["a"].items():
        assert back["a"][key].dtype == value.dtype and back["a"][key].shape == value.shape
        np.testing.assert_array_equal(back["a"][key], value)


def test_a_group_of_many_children_round_trips():
    tree = {"vars": {str(i): np.full((2,), i, "float32") for i in range(40)}}
    back = hdf5.read(hdf5.write(tree))
    assert sorted(back["vars"], key=int) == [str(i) for i in range(40)]
    assert float(back["vars"]["39"][0]) == 39.0


def test_what_devtrace_does_not_read_fails_naming_it():
    with pytest.raises(hdf5.HDF5Error, match="not an HDF5 file"):
        hdf5.read(b"PK\x03\x04 not hdf5")
    data = bytearray(hdf5.write({"x": np.zeros(2, "float32")}))
    data[8] = 2  # a superblock version devtrace does not read
    with pytest.raises(hdf5.HDF5Error, match="devtrace does not read HDF5 superblock version 2 yet"):
        hdf5.read(bytes(data))


def test_a_weights_file_for_another_architecture_fails_as_keras_does(tmp_path):
    m = _sequential()
    m.save_weights(tmp_path / "m.weights.h5")
    other = keras.Sequential([keras.Input((3,)), keras.layers.Dense(4), keras.layers.BatchNormalization(),
                              keras.layers.Dense(2)])
    with pytest.raises(ValueError, match=r"^A total of 1 objects could not be loaded. Example error message for "
                                         r"object <Dense name=dense_\d+, built=True>"):
        other.load_weights(tmp_path / "m.weights.h5")
