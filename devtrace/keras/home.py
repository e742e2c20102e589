"""Keras's home folder and its ``keras.json``, read as Keras 3 reads them: ``$KERAS_HOME``, else
``~/.keras`` (``/tmp/.keras`` when the home folder is not writable). devtrace reads the file and
never writes it."""

from __future__ import annotations

import json
import os


def keras_home() -> str:
    if "KERAS_HOME" in os.environ:
        return os.environ["KERAS_HOME"]
    base = os.path.expanduser("~")
    return os.path.join(base if os.access(base, os.W_OK) else "/tmp", ".keras")


def config_path() -> str:
    return os.path.expanduser(os.path.join(keras_home(), "keras.json"))


def config() -> dict:
    """The config file's settings (``{}`` when there is none or it is not JSON, as Keras treats it)."""
    try:
        with open(config_path()) as f:
            value = json.load(f)
    except (OSError, ValueError):
        return {}
    return value if isinstance(value, dict) else {}


def backend() -> str:
    """The backend Keras would load: ``KERAS_BACKEND``, else the config file's, else ``tensorflow``."""
    return os.environ.get("KERAS_BACKEND") or config().get("backend", "tensorflow")


def image_data_format() -> str:
    return config().get("image_data_format", "channels_last")
