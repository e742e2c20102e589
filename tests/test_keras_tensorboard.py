"""keras.callbacks.TensorBoard writes TensorBoard's event files through tf.summary, with Keras 3.15's
tags, directories and steps (read from Keras's source: the oracle venv has no TensorBoard, so Keras's
callback fails there with TBNotInstalledError). The files are read back here with a minimal
TFRecord + protobuf reader."""

import pathlib
import struct

import numpy as np
import pytest

import devtrace as tf

keras = tf.keras


def _fields(data: bytes):
    """(field number, wire type, value) of one protobuf message."""
    at = 0
    while at < len(data):
        key, at = _varint(data, at)
        field, wire = key >> 3, key & 7
        if wire == 0:
            value, at = _varint(data, at)
        elif wire == 1:
            value, at = data[at:at + 8], at + 8
        elif wire == 2:
            size, at = _varint(data, at)
            value, at = data[at:at + size], at + size
        elif wire == 5:
            value, at = data[at:at + 4], at + 4
        else:
            raise ValueError(wire)
        yield field, wire, value


def _varint(data, at):
    shift = value = 0
    while True:
        byte = data[at]
        at += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if not byte & 0x80:
            return value, at


def _scalars(folder: pathlib.Path) -> list:
    """``(tag, step, value)`` of every scalar in a folder's event files."""
    out = []
    for path in sorted(folder.glob("events.out.tfevents.*")):
        data, at = path.read_bytes(), 0
        while at < len(data):
            (length,) = struct.unpack_from("<Q", data, at)
            record = data[at + 12:at + 12 + length]
            at += 12 + length + 4
            event = {f: v for f, _, v in _fields(record)}
            if 5 not in event:
                continue
            for f, _, value in _fields(event[5]):
                parts = {g: v for g, _, v in _fields(value)}
                tensor = {g: v for g, _, v in _fields(parts[8])}
                number = struct.unpack("<f", tensor[5] if len(tensor.get(5, b"")) == 4 else tensor[4][:4])[0] \
                    if 5 in tensor or 4 in tensor else None
                out.append((parts[1].decode(), event.get(2, 0), number))
    return out


@pytest.fixture
def logs(tmp_path):
    x = np.linspace(-1, 1, 32).reshape(16, 2).astype("float32")
    y = (x[:, :1] * 2 - x[:, 1:]).astype("float32")
    m = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1, kernel_initializer="zeros")])
    m.compile(optimizer=keras.optimizers.SGD(0.05), loss="mse", metrics=["mae"])
    h = m.fit(x, y, batch_size=4, epochs=2, verbose=0, shuffle=False, validation_data=(x[:8], y[:8]),
              callbacks=[keras.callbacks.TensorBoard(tmp_path, update_freq=2)])
    return tmp_path, h


def test_train_events_are_kerass_tags_at_kerass_steps(logs):
    folder, h = logs
    train = _scalars(folder / "train")
    assert [(tag, step) for tag, step, _ in train if tag.startswith("batch_")] == [
        ("batch_loss", 2), ("batch_mae", 2), ("batch_loss", 4), ("batch_mae", 4),
        ("batch_loss", 6), ("batch_mae", 6), ("batch_loss", 8), ("batch_mae", 8)]
    epochs = [(tag, step) for tag, step, _ in train if tag.startswith("epoch_")]
    assert epochs == [("epoch_loss", 0), ("epoch_mae", 0), ("epoch_learning_rate", 0),
                      ("epoch_loss", 1), ("epoch_mae", 1), ("epoch_learning_rate", 1)]
    values = {(tag, step): value for tag, step, value in train}
    assert values[("epoch_loss", 1)] == pytest.approx(h.history["loss"][1], rel=1e-6)
    assert values[("epoch_learning_rate", 0)] == pytest.approx(0.05)


def test_validation_events(logs):
    folder, h = logs
    val = _scalars(folder / "validation")
    assert [(tag, step) for tag, step, _ in val] == [
        ("evaluation_loss_vs_iterations", 4), ("evaluation_mae_vs_iterations", 4), ("epoch_loss", 0),
        ("epoch_mae", 0), ("evaluation_loss_vs_iterations", 8), ("evaluation_mae_vs_iterations", 8),
        ("epoch_loss", 1), ("epoch_mae", 1)]
    assert dict(((t, s), v) for t, s, v in val)[("epoch_loss", 1)] == pytest.approx(h.history["val_loss"][1],
                                                                                     rel=1e-6)


def test_what_tensorboard_does_not_write_fails_naming_it(tmp_path):
    with pytest.raises(NotImplementedError,
                       match=r"^devtrace does not implement keras.callbacks.TensorBoard\(histogram_freq=...\) yet$"):
        keras.callbacks.TensorBoard(tmp_path, histogram_freq=1)


def _tensor_summaries(folder: pathlib.Path) -> list:
    """``(tag, step, plugin name, plugin content, string value)`` of every summary holding a string."""
    out = []
    for path in sorted(folder.glob("events.out.tfevents.*")):
        data, at = path.read_bytes(), 0
        while at < len(data):
            (length,) = struct.unpack_from("<Q", data, at)
            record = data[at + 12:at + 12 + length]
            at += 12 + length + 4
            event = {f: v for f, _, v in _fields(record)}
            for _, _, value in _fields(event.get(5, b"")):
                parts = {g: v for g, _, v in _fields(value)}
                tensor = {g: v for g, _, v in _fields(parts[8])}
                plugin = {g: v for g, _, v in _fields({g: v for g, _, v in _fields(parts.get(9, b""))}.get(1, b""))}
                if 8 in tensor:
                    out.append((parts[1].decode(), event.get(2, 0), plugin.get(1, b"").decode(), plugin.get(2, b""),
                                tensor[8].decode()))
    return out


def _fit(model, folder, **kwargs):
    model.compile(optimizer="sgd", loss="mse")
    model.fit(np.ones((4, 2), "float32"), np.ones((4, 1), "float32"), epochs=1, verbose=0,
              callbacks=[keras.callbacks.TensorBoard(folder, **kwargs)])


def test_write_graph_writes_the_models_json_as_keras_does(tmp_path):
    """Keras 3 on TensorFlow: ``keras_model_summary("keras", model, step=0)`` for a Sequential or graph
    model (plugin graph_keras_model, content b"1"); its train_function is a Python function, no op graph."""
    model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)])
    _fit(model, tmp_path)
    assert _tensor_summaries(tmp_path / "train") == [("keras", 0, "graph_keras_model", b"1", model.to_json())]
    inputs = keras.Input((2,))
    graph = keras.Model(inputs, keras.layers.Dense(1)(inputs))
    _fit(graph, tmp_path / "graph")
    assert [s[:3] for s in _tensor_summaries(tmp_path / "graph" / "train")] == [("keras", 0, "graph_keras_model")]


def test_write_graph_off_or_a_subclassed_model_writes_no_graph(tmp_path):
    _fit(keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)]), tmp_path / "off", write_graph=False)
    assert _tensor_summaries(tmp_path / "off" / "train") == []

    class Net(keras.Model):
        def __init__(self):
            super().__init__()
            self.dense = keras.layers.Dense(1)

        def call(self, x):
            return self.dense(x)

    _fit(Net(), tmp_path / "sub")
    assert _tensor_summaries(tmp_path / "sub" / "train") == []
