"""``keras.callbacks``. What the callbacks print is Keras 3.15's text, on stdout."""

from __future__ import annotations

from devtrace.util.namespace import missing as _missing

from .callback_base import Callback, LearningRateScheduler
from .callback_list import CallbackList, History, ProgbarLogger
from .callbacks_more import (BackupAndRestore, CSVLogger, EarlyStopping, LambdaCallback, ModelCheckpoint,
                             ReduceLROnPlateau, RemoteMonitor, TensorBoard, TerminateOnNaN)

__all__ = ["BackupAndRestore", "CSVLogger", "Callback", "CallbackList", "EarlyStopping", "History", "LambdaCallback",
           "LearningRateScheduler", "ModelCheckpoint", "ProgbarLogger", "ReduceLROnPlateau", "RemoteMonitor",
           "TensorBoard", "TerminateOnNaN"]
__getattr__ = _missing("keras.callbacks")
