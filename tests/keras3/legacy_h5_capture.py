"""Writes ``legacy/tiny.h5`` (a small functional model's weights in Keras 2's ``.h5`` layout, as the
ImageNet weights of ``keras.applications`` are stored, written by Keras 3.15.1's
``legacy_h5_format``) and ``legacy/tiny.json`` (Keras's predictions after ``load_weights``). Run by
hand with the oracle venv: ``/work/tfvenv/bin/python tests/keras3/legacy_h5_capture.py``."""

import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
os.environ.update(KERAS_BACKEND="tensorflow", TF_CPP_MIN_LOG_LEVEL="3")

import h5py  # noqa: E402
import keras  # noqa: E402
import numpy as np  # noqa: E402
from keras.src.legacy.saving import legacy_h5_format  # noqa: E402
from legacy_h5_cases import INPUT, tiny  # noqa: E402

model = tiny(keras)
for w in model.weights:
    w.assign(np.random.RandomState(len(w.path)).uniform(-1, 1, w.shape).astype("float32"))
path = os.path.join(HERE, "legacy", "tiny.h5")
with h5py.File(path, "w") as f:
    legacy_h5_format.save_weights_to_hdf5_group(f, model)
fresh = tiny(keras)
fresh.load_weights(path)
with open(os.path.join(HERE, "legacy", "tiny.json"), "w") as f:
    json.dump({"predict": fresh.predict(INPUT, verbose=0).tolist()}, f)
