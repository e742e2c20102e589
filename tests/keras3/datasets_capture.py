"""Writes ``datasets.json``: what Keras 3.15 (TensorFlow 2.21) returns on the stand-in cache files of
``fake_datasets.py``, and its error with no cached file offline. Run by hand with the oracle venv:
``/work/tfvenv/bin/python tests/keras3/datasets_capture.py`` (no network: the machine has none)."""

import json
import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
home = tempfile.mkdtemp()
os.environ.update(KERAS_HOME=home, KERAS_BACKEND="tensorflow", TF_CPP_MIN_LOG_LEVEL="3")

import fake_datasets  # noqa: E402
import keras  # noqa: E402
from keras.src.utils import file_utils  # noqa: E402

out = {"keras": keras.__version__}
try:
    keras.datasets.mnist.load_data()
except Exception as e:  # noqa: BLE001
    out["offline"] = [type(e).__name__, str(e)]
fake_datasets.make(home)
file_utils.validate_file = lambda *args, **kwargs: True  # the stand-ins are not Keras's files: no hash check
out["cases"] = [fake_datasets.call(keras.datasets, name, kwargs) for name, kwargs in fake_datasets.CASES]
out["word_index"] = [keras.datasets.imdb.get_word_index(), keras.datasets.reuters.get_word_index()]
out["label_names"] = list(keras.datasets.reuters.get_label_names())
with open(os.path.join(HERE, "datasets.json"), "w") as f:
    json.dump(out, f, indent=1)
