"""``tf.saved_model``'s constants, ``SaveOptions``/``LoadOptions``, ``Asset`` and the
``experimental`` names (``VariablePolicy``, ``TrackableResource``, ``Fingerprint``), with
TensorFlow 2.21's values and errors."""

from __future__ import annotations

import enum
import os
from dataclasses import dataclass

from ..runtime import dtypes
from ..runtime.values import constant

ASSETS_DIRECTORY = "assets"
ASSETS_KEY = "saved_model_assets"
DEBUG_DIRECTORY = "debug"
DEBUG_INFO_FILENAME_PB = "saved_model_debug_info.pb"
SAVED_MODEL_FILENAME_PB = "saved_model.pb"
SAVED_MODEL_FILENAME_PBTXT = "saved_model.pbtxt"
SAVED_MODEL_SCHEMA_VERSION = 1
VARIABLES_DIRECTORY = "variables"
VARIABLES_FILENAME = "variables"
DEFAULT_SERVING_SIGNATURE_DEF_KEY = "serving_default"
CLASSIFY_INPUTS = "inputs"
CLASSIFY_METHOD_NAME = "tensorflow/serving/classify"
CLASSIFY_OUTPUT_CLASSES = "classes"
CLASSIFY_OUTPUT_SCORES = "scores"
PREDICT_INPUTS = "inputs"
PREDICT_METHOD_NAME = "tensorflow/serving/predict"
PREDICT_OUTPUTS = "outputs"
REGRESS_INPUTS = "inputs"
REGRESS_METHOD_NAME = "tensorflow/serving/regress"
REGRESS_OUTPUTS = "outputs"
SERVING, TRAINING, GPU, TPU = "serve", "train", "gpu", "tpu"  # tag constants

DEVTRACE_FILENAME = "saved_model.json"  # devtrace's own format (saved_model/__init__.py)


class VariablePolicy(enum.Enum):
    """How a SavedModel keeps variables' devices and distributed variables."""

    NONE = None
    SAVE_VARIABLE_DEVICES = "save_variable_devices"
    EXPAND_DISTRIBUTED_VARIABLES = "expand_distributed_variables"

    def _save_variable_devices(self) -> bool:
        return self != VariablePolicy.NONE

    def _expand_distributed_variables(self) -> bool:
        return self == VariablePolicy.EXPAND_DISTRIBUTED_VARIABLES

    @staticmethod
    def from_obj(obj) -> VariablePolicy:
        if obj is None:
            return VariablePolicy.NONE
        if isinstance(obj, VariablePolicy):
            return obj
        key = str(obj).lower()
        for policy in VariablePolicy:
            if key == policy.value:
                return policy
        raise ValueError(f"Received invalid VariablePolicy value: {obj}.")


class SaveOptions:
    """``tf.saved_model.SaveOptions``: devtrace keeps them; the format they tune is TensorFlow's."""

    __slots__ = ("namespace_whitelist", "save_debug_info", "function_aliases", "experimental_debug_stripper",
                 "experimental_io_device", "experimental_variable_policy", "experimental_custom_gradients",
                 "experimental_image_format", "experimental_skip_saver", "experimental_sharding_callback",
                 "extra_tags")

    def __init__(self, namespace_whitelist=None, save_debug_info=False, function_aliases=None,
                 experimental_debug_stripper=False, experimental_io_device=None, experimental_variable_policy=None,
                 experimental_custom_gradients=True, experimental_image_format=False, experimental_skip_saver=False,
                 experimental_sharding_callback=None, extra_tags=None):
        self.namespace_whitelist = list(namespace_whitelist or [])
        self.save_debug_info = save_debug_info
        self.function_aliases = function_aliases if function_aliases else {}
        self.experimental_debug_stripper = experimental_debug_stripper
        self.experimental_io_device = experimental_io_device
        self.experimental_variable_policy = VariablePolicy.from_obj(experimental_variable_policy)
        self.experimental_custom_gradients = experimental_custom_gradients
        self.experimental_image_format = experimental_image_format
        self.experimental_skip_saver = experimental_skip_saver
        self.experimental_sharding_callback = experimental_sharding_callback
        self.extra_tags = extra_tags


class LoadOptions:
    """``tf.saved_model.LoadOptions``."""

    __slots__ = ("allow_partial_checkpoint", "experimental_io_device", "experimental_skip_checkpoint",
                 "experimental_variable_policy", "experimental_load_function_aliases")

    def __init__(self, allow_partial_checkpoint=False, experimental_io_device=None, experimental_skip_checkpoint=False,
                 experimental_variable_policy=None, experimental_load_function_aliases=False):
        self.allow_partial_checkpoint = allow_partial_checkpoint
        self.experimental_io_device = experimental_io_device
        self.experimental_skip_checkpoint = experimental_skip_checkpoint
        self.experimental_variable_policy = VariablePolicy.from_obj(experimental_variable_policy)
        self.experimental_load_function_aliases = experimental_load_function_aliases


class Asset:
    """``tf.saved_model.Asset``: a file the model needs; ``asset_path`` is its path as a string tensor."""

    def __init__(self, path):
        self._path = os.fspath(path) if not hasattr(path, "numpy") else path.numpy().decode()
        self.asset_path = constant(self._path, dtypes.string)


@dataclass
class Fingerprint:
    """``tf.saved_model.experimental.Fingerprint``: the hashes a SavedModel's ``fingerprint.pb`` holds."""

    saved_model_checksum: int = None
    graph_def_program_hash: int = None
    signature_def_hash: int = None
    saved_object_graph_hash: int = None
    checkpoint_hash: int = None
    version: int = None


def read_fingerprint(export_dir) -> Fingerprint:
    """TensorFlow's error for a directory with no ``fingerprint.pb`` (devtrace's SavedModels have none)."""
    export_dir = os.fspath(export_dir)
    raise FileNotFoundError(f"SavedModel Fingerprint Error: Could not find fingerprint in directory: {export_dir}\n"
                            f"NOT_FOUND: {export_dir}/fingerprint.pb not found")


def contains_saved_model(export_dir) -> bool:
    """Whether the directory holds a SavedModel (TensorFlow's ``saved_model.pb``/``.pbtxt`` or devtrace's)."""
    export_dir = os.fspath(export_dir)
    return any(os.path.isfile(os.path.join(export_dir, name))
               for name in (SAVED_MODEL_FILENAME_PB, SAVED_MODEL_FILENAME_PBTXT, DEVTRACE_FILENAME))


class TrackableResource:
    """``tf.saved_model.experimental.TrackableResource``: a resource made by ``_create_resource``
    on first use of ``resource_handle``, destroyed by ``_destroy_resource``."""

    def __init__(self, device=""):
        self._resource_device = device
        self._resource_handle_value = None

    def _create_resource(self):
        raise NotImplementedError("Resource creation method not implemented.")

    def _initialize(self):
        pass

    def _destroy_resource(self):
        pass

    @property
    def resource_handle(self):
        if self._resource_handle_value is None:
            self._resource_handle_value = self._create_resource()
        return self._resource_handle_value

    @resource_handle.setter
    def resource_handle(self, value):
        self._resource_handle_value = value
