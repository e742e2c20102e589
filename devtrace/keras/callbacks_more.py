"""Keras 3's callbacks that watch a quantity (``EarlyStopping``, ``ModelCheckpoint``,
``ReduceLROnPlateau``: Keras's ``MonitorCallback`` rules — ``mode="auto"`` minimises a loss,
maximises what a compiled metric says is better up), write logs (``CSVLogger``), stop on NaN
(``TerminateOnNaN``), back training up (``BackupAndRestore``), or call the program
(``LambdaCallback``); their lines are Keras's."""

from __future__ import annotations

import collections
import csv
import importlib
import json
import os
import shutil
import warnings

import numpy as np

from .callback_base import Callback

_UP = ("Accuracy", "AUC", "Precision", "Recall", "CosineSimilarity", "F1Score", "FBetaScore", "IoU", "R2Score",
       "PearsonCorrelation", "ConcordanceCorrelation", "TruePositives", "TrueNegatives")
_DOWN = ("Error", "Crossentropy", "Hinge", "Divergence", "Poisson", "LogCosh", "FalsePositives", "FalseNegatives")


def _say(text: str) -> None:
    """Keras's ``io_utils.print_msg``."""
    print(text, flush=True)


class MonitorCallback(Callback):
    def __init__(self, monitor="val_loss", mode="auto", baseline=None, min_delta=0):
        super().__init__()
        if mode not in ("auto", "min", "max"):
            warnings.warn(f"{type(self).__name__} mode '{mode}' is unknown, fallback to auto mode.", stacklevel=2)
            mode = "auto"
        self.monitor, self.mode, self.best, self.min_delta = monitor, mode, baseline, abs(min_delta)
        self.monitor_op = None

    def _set_monitor_op(self):
        if self.mode in ("min", "max"):
            self.monitor_op = np.less if self.mode == "min" else np.greater
        else:
            name = self.monitor.removeprefix("val_")
            if name == "loss":
                self.monitor_op = np.less
            for metric in _compiled_metrics(self.model):
                if metric.name == name:
                    direction = _direction(metric)
                    if direction is not None:
                        self.monitor_op = np.greater if direction == "up" else np.less
            if self.monitor_op is None:
                raise ValueError(f"{type(self).__name__} callback received monitor={self.monitor}, but Keras isn't "
                                 "able to automatically determine whether that metric should be maximized or "
                                 "minimized. Pass `mode='max'` in order to monitor based on the highest metric "
                                 "value, or pass `mode='min'` in order to use the lowest value.")
        if self.monitor_op is np.less:
            self.min_delta *= -1

    def _is_improvement(self, value, reference) -> bool:
        if reference is None:
            return True
        return bool(self.monitor_op(value - self.min_delta, reference))


def _compiled_metrics(model) -> list:
    found = []
    for m in getattr(model, "metrics", []) or []:
        found.extend(getattr(m, "metrics", []) if isinstance(getattr(m, "metrics", None), list) else [])
    return found


def _direction(metric):
    name = type(metric).__name__
    if any(word in name for word in _UP):
        return "up"
    if any(word in name for word in _DOWN):
        return "down"
    return None


class EarlyStopping(MonitorCallback):
    """Stops when ``monitor`` has not improved by more than ``min_delta`` for ``patience`` epochs."""

    def __init__(self, monitor="val_loss", min_delta=0, patience=0, verbose=0, mode="auto", baseline=None,
                 restore_best_weights=False, start_from_epoch=0):
        super().__init__(monitor, mode, min_delta=min_delta)
        self.patience, self.verbose, self.baseline = patience, verbose, baseline
        self.wait = self.stopped_epoch = 0
        self.restore_best_weights, self.best_weights, self.start_from_epoch = restore_best_weights, None, start_from_epoch

    def on_train_begin(self, logs=None):
        self.wait = self.stopped_epoch = self.best_epoch = 0
        self.best, self.best_weights = None, None

    def on_epoch_end(self, epoch, logs=None):
        if self.monitor_op is None:
            self._set_monitor_op()
        current = self.get_monitor_value(logs)
        if current is None or epoch < self.start_from_epoch:
            return
        if self.restore_best_weights and self.best_weights is None:
            self.best_weights, self.best_epoch = self.model.get_weights(), epoch
        self.wait += 1
        if self._is_improvement(current, self.best):
            self.best, self.best_epoch = current, epoch
            if self.restore_best_weights:
                self.best_weights = self.model.get_weights()
            if self.baseline is None or self._is_improvement(current, self.baseline):
                self.wait = 0
            return
        if self.wait >= self.patience and epoch > 0:
            self.stopped_epoch = epoch
            self.model.stop_training = True

    def on_train_end(self, logs=None):
        if self.stopped_epoch > 0 and self.verbose > 0:
            _say(f"Epoch {self.stopped_epoch + 1}: early stopping")
        if self.restore_best_weights and self.best_weights is not None:
            if self.verbose > 0:
                _say(f"Restoring model weights from the end of the best epoch: {self.best_epoch + 1}.")
            self.model.set_weights(self.best_weights)

    def get_monitor_value(self, logs):
        logs = logs or {}
        value = logs.get(self.monitor)
        if value is None:
            warnings.warn(f"Early stopping conditioned on metric `{self.monitor}` which is not available. "
                          f"Available metrics are: {','.join(logs)}", stacklevel=2)
        return value


class ModelCheckpoint(MonitorCallback):
    """Saves the model (or its weights) each epoch or every ``save_freq`` batches, to ``filepath``
    formatted with the epoch (``{epoch:02d}``) and the logs (``{val_loss:.2f}``)."""

    def __init__(self, filepath, monitor="val_loss", verbose=0, save_best_only=False, save_weights_only=False,
                 mode="auto", save_freq="epoch", initial_value_threshold=None):
        super().__init__(monitor, mode, initial_value_threshold)
        self.verbose, self.filepath = verbose, os.fspath(filepath)
        self.save_best_only, self.save_weights_only, self.save_freq = save_best_only, save_weights_only, save_freq
        self._since_saved, self._last_batch, self._current_epoch = 0, None, 0
        if save_freq != "epoch" and not isinstance(save_freq, int):
            raise ValueError(f"Unrecognized save_freq: {save_freq}. Expected save_freq are 'epoch' or integer values")
        if save_weights_only and not self.filepath.endswith(".weights.h5"):
            raise ValueError("When using `save_weights_only=True` in `ModelCheckpoint`, the filepath provided must "
                             f"end in `.weights.h5` (Keras weights format). Received: filepath={self.filepath}")
        if not save_weights_only and not self.filepath.endswith((".keras", ".h5")):
            raise ValueError("The filepath provided must end in `.keras` (Keras model format). Received: "
                             f"filepath={self.filepath}")

    def on_epoch_begin(self, epoch, logs=None):
        self._current_epoch = epoch

    def on_train_batch_end(self, batch, logs=None):
        if self.save_freq == "epoch":
            return
        added = batch + 1 if self._last_batch is None or batch <= self._last_batch else batch - self._last_batch
        self._since_saved += added
        self._last_batch = batch
        if self._since_saved >= self.save_freq:
            self._since_saved = 0
            self._save(self._current_epoch, batch, logs)

    def on_epoch_end(self, epoch, logs=None):
        if self.monitor_op is None:
            self._set_monitor_op()
        if self.save_freq == "epoch":
            self._save(epoch, None, logs)

    def _should_save(self, epoch, logs, filepath) -> bool:
        logs = logs or {}
        if not self.save_best_only:
            if self.verbose > 0:
                _say(f"\nEpoch {epoch + 1}: saving model to {filepath}")
            return True
        current = logs.get(self.monitor)
        if current is None:
            warnings.warn(f"Can save best model only with {self.monitor} available.", stacklevel=2)
            return True
        best = "None" if self.best is None else f"{self.best:.5f}"
        if self._is_improvement(current, self.best):
            if self.verbose > 0:
                _say(f"\nEpoch {epoch + 1}: {self.monitor} improved from {best} to {current:.5f}, saving model to "
                     f"{filepath}")
            self.best = current
            return True
        if self.verbose > 0:
            _say(f"\nEpoch {epoch + 1}: {self.monitor} did not improve from {best}")
        return False

    def _save(self, epoch, batch, logs):
        filepath = self._file_path(epoch, batch, logs or {})
        if os.path.isdir(filepath):
            raise IOError("Please specify a non-directory filepath for ModelCheckpoint. Filepath used is an existing "
                          f"directory: {filepath}")
        if not self._should_save(epoch, logs, filepath):
            return
        folder = os.path.dirname(filepath)
        if folder:
            os.makedirs(folder, exist_ok=True)
        if self.save_weights_only:
            self.model.save_weights(filepath, overwrite=True)
        else:
            self.model.save(filepath, overwrite=True)
        if self.verbose > 0:
            _say(f"\nEpoch {epoch + 1}: finished saving model to {filepath}")

    def _file_path(self, epoch, batch, logs) -> str:
        try:
            if batch is None or "batch" in logs:
                return self.filepath.format(epoch=epoch + 1, **logs)
            return self.filepath.format(epoch=epoch + 1, batch=batch + 1, **logs)
        except KeyError as e:
            raise KeyError(f'Failed to format this callback filepath: "{self.filepath}". Reason: {e}') from None


class ReduceLROnPlateau(MonitorCallback):
    """Multiplies the learning rate by ``factor`` when ``monitor`` has not improved for ``patience`` epochs."""

    def __init__(self, monitor="val_loss", factor=0.1, patience=10, verbose=0, mode="auto", min_delta=1e-4,
                 cooldown=0, min_lr=0.0, **kwargs):
        super().__init__(monitor, mode, min_delta=min_delta)
        if factor >= 1.0:
            raise ValueError(f"ReduceLROnPlateau does not support a factor >= 1.0. Received factor={factor}")
        self.factor, self.min_lr, self.patience, self.verbose, self.cooldown = factor, min_lr, patience, verbose, cooldown
        self.cooldown_counter = self.wait = 0

    def on_train_begin(self, logs=None):
        self.best, self.cooldown_counter, self.wait = None, 0, 0

    def in_cooldown(self) -> bool:
        return self.cooldown_counter > 0

    def on_epoch_end(self, epoch, logs=None):
        if self.monitor_op is None:
            self._set_monitor_op()
        logs = logs if logs is not None else {}
        logs["learning_rate"] = float(self.model.optimizer.learning_rate.numpy())
        current = logs.get(self.monitor)
        if current is None:
            warnings.warn(f"Learning rate reduction is conditioned on metric `{self.monitor}` which is not "
                          f"available. Available metrics are: {','.join(logs)}.", stacklevel=2)
            return
        if self.in_cooldown():
            self.cooldown_counter -= 1
            self.wait = 0
        if self._is_improvement(current, self.best):
            self.best, self.wait = current, 0
        elif not self.in_cooldown():
            self.wait += 1
            if self.wait >= self.patience and self._reduce(epoch):
                self.cooldown_counter, self.wait = self.cooldown, 0

    def _reduce(self, epoch) -> bool:
        optimizer = self.model.optimizer
        old = float(optimizer.learning_rate.numpy())
        if old <= np.float32(self.min_lr):
            return False
        new = max(old * self.factor, self.min_lr)
        optimizer.learning_rate = new
        if self.verbose > 0:
            _say(f"\nEpoch {epoch + 1}: ReduceLROnPlateau reducing learning rate to {new}.")
        return True


class TerminateOnNaN(Callback):
    def __init__(self, raise_error: bool = False):
        super().__init__()
        self.raise_error = raise_error

    def on_batch_end(self, batch, logs=None):
        loss = (logs or {}).get("loss")
        if loss is None or not (np.isnan(loss) or np.isinf(loss)):
            return
        if self.raise_error:
            raise RuntimeError(f"NaN or Inf loss encountered at batch {batch}. Loss value: {loss}. Terminating "
                               "training immediately.")
        _say(f"Batch {batch}: Invalid loss, terminating training")
        self.model.stop_training = True


class CSVLogger(Callback):
    """One CSV row per epoch: ``epoch`` and the logs by sorted name (the ``val_`` columns added,
    ``NA`` until there are values)."""

    def __init__(self, filename, separator=",", append=False):
        super().__init__()
        self.sep, self.filename, self.append = separator, os.fspath(filename), append
        self.writer = self.keys = self.csv_file = None
        self.append_header = True

    def on_train_begin(self, logs=None):
        if self.append and os.path.exists(self.filename):
            with open(self.filename) as f:
                self.append_header = not bool(len(f.readline()))
        if self.csv_file is not None and not self.csv_file.closed:
            self.csv_file.close()
        self.csv_file = open(self.filename, "a" if self.append else "w", newline="")
        self.writer = self.keys = None

    def on_epoch_end(self, epoch, logs=None):
        logs = logs or {}
        if self.keys is None:
            self.keys = sorted(logs)
            if self.keys and not any(k.startswith("val_") for k in self.keys):
                self.keys.extend([f"val_{k}" for k in self.keys])
        if self.writer is None:
            dialect = type("Dialect", (csv.excel,), {"delimiter": self.sep})
            self.writer = csv.DictWriter(self.csv_file, fieldnames=["epoch"] + self.keys, dialect=dialect)
            if self.append_header:
                self.writer.writeheader()
        row = collections.OrderedDict({"epoch": epoch})
        row.update((k, _csv_value(logs.get(k, "NA"))) for k in self.keys)
        self.writer.writerow(row)
        self.csv_file.flush()

    def on_train_end(self, logs=None):
        if self.csv_file is not None and not self.csv_file.closed:
            self.csv_file.close()
        self.writer = None


def _csv_value(value):
    if isinstance(value, str):
        return value
    if isinstance(value, collections.abc.Iterable) and not (isinstance(value, np.ndarray) and value.ndim == 0):
        return f'"[{", ".join(map(str, value))}]"'
    return value


class LambdaCallback(Callback):
    def __init__(self, on_epoch_begin=None, on_epoch_end=None, on_train_begin=None, on_train_end=None,
                 on_train_batch_begin=None, on_train_batch_end=None, **kwargs):
        super().__init__()
        self.__dict__.update(kwargs)
        for name, fn in (("on_epoch_begin", on_epoch_begin), ("on_epoch_end", on_epoch_end),
                         ("on_train_begin", on_train_begin), ("on_train_end", on_train_end),
                         ("on_train_batch_begin", on_train_batch_begin), ("on_train_batch_end", on_train_batch_end)):
            if fn is not None:
                setattr(self, name, fn)


class BackupAndRestore(Callback):
    """Saves the weights and the epoch reached into ``backup_dir`` at each epoch's end (or every
    ``save_freq`` batches); a ``fit`` that finds them resumes there; a finished one deletes them."""

    def __init__(self, backup_dir, save_freq="epoch", double_checkpoint=False, delete_checkpoint=True):
        super().__init__()
        self.save_freq, self.double_checkpoint, self.delete_checkpoint = save_freq, double_checkpoint, delete_checkpoint
        self._since_saved = self._last_batch = self._current_epoch = 0
        if not backup_dir:
            raise ValueError("Empty `backup_dir` argument passed")
        self.backup_dir = backup_dir
        self._weights_path = os.path.join(backup_dir, "latest.weights.h5")
        self._metadata_path = os.path.join(backup_dir, "training_metadata.json")
        if save_freq != "epoch" and not isinstance(save_freq, int):
            raise ValueError(f"Invalid value for argument `save_freq`. Received: save_freq={save_freq}. Expected "
                             "either 'epoch' or an integer value.")

    def on_train_begin(self, logs=None):
        if not self.model.built:
            raise ValueError("To use the BackupAndRestore callback, you model must be built before you call `fit()`. "
                             f"Model {self.model} is unbuilt. You can build it beforehand by calling it on a batch "
                             "of data.")
        if os.path.exists(self._weights_path):
            if self.model.optimizer is not None and not self.model.optimizer.built:
                self.model.optimizer.build(self.model.trainable_variables)
            self.model.load_weights(self._weights_path)
        if os.path.exists(self._metadata_path):
            with open(self._metadata_path) as f:
                self.model._initial_epoch = json.loads(f.read())["epoch"]

    def on_epoch_end(self, epoch, logs=None):
        self._current_epoch, self._last_batch = epoch + 1, 0
        if self.save_freq == "epoch":
            self._save()

    def on_train_batch_end(self, batch, logs=None):
        if self.save_freq == "epoch":
            return
        self._since_saved += batch + 1 if batch <= self._last_batch else batch - self._last_batch
        self._last_batch = batch
        if self._since_saved >= self.save_freq:
            self._since_saved = 0
            self._save()

    def _save(self):
        os.makedirs(self.backup_dir, exist_ok=True)
        if self.double_checkpoint:
            for path in (self._weights_path, self._metadata_path):
                if os.path.exists(path):
                    shutil.copy(path, path + ".bkp")
        self.model.save_weights(self._weights_path, overwrite=True)
        with open(self._metadata_path, "w") as f:
            f.write(json.dumps({"epoch": self._current_epoch, "batch": self._last_batch}))

    def on_train_end(self, logs=None):
        if self.delete_checkpoint and os.path.exists(self.backup_dir):
            shutil.rmtree(self.backup_dir)


class TensorBoard(Callback):
    """TensorBoard's event files through ``tf.summary``, as Keras writes them: ``<log_dir>/train``
    gets ``epoch_<metric>`` (and ``epoch_learning_rate``) at each epoch's end, ``<log_dir>/validation``
    the ``val_`` metrics as ``epoch_<metric>`` and, after each evaluation, ``evaluation_<metric>_vs_iterations``
    at the optimizer's step; with ``update_freq`` a number of batches (or ``"batch"``), ``batch_<metric>``
    every that many batches. ``write_graph`` (on by default) writes what Keras 3 writes on the
    TensorFlow backend: the model's JSON config under the tag ``keras`` (plugin ``graph_keras_model``,
    step 0) for a Sequential or graph model, when the model is set; no op graph (Keras's
    ``train_function`` is a Python function there, so its ``summary.graph`` is never reached).
    Histograms, images, embeddings, profiling and steps per second fail naming themselves."""

    def __init__(self, log_dir="logs", histogram_freq=0, write_graph=True, write_images=False,
                 write_steps_per_second=False, update_freq="epoch", profile_batch=0, embeddings_freq=0,
                 embeddings_metadata=None):
        from . import keywords

        super().__init__()
        keywords.unimplemented("keras.callbacks.TensorBoard", histogram_freq=(histogram_freq, 0),
                               write_images=(write_images, False), write_steps_per_second=(write_steps_per_second, False),
                               profile_batch=(profile_batch, 0), embeddings_freq=(embeddings_freq, 0),
                               embeddings_metadata=(embeddings_metadata, None))
        self.log_dir, self.write_graph = str(log_dir), write_graph
        self.update_freq = 1 if update_freq == "batch" else update_freq
        self._writers: dict = {}
        self._global_train_batch = 0

    def _writer(self, which):
        import devtrace as tf

        if which not in self._writers:
            self._writers[which] = tf.summary.create_file_writer(os.path.join(self.log_dir, which))
        return self._writers[which]

    def _scalars(self, which, values: dict, step) -> None:
        import devtrace as tf

        with self._writer(which).as_default():
            for name, value in values.items():
                tf.summary.scalar(name, value, step=step)

    def set_model(self, model):
        super().set_model(model)
        if self.write_graph and type(model).__name__ in ("Functional", "Sequential"):
            self._keras_model_summary(model)

    def _keras_model_summary(self, model) -> None:
        """Keras's ``keras_model_summary("keras", model, step=0)``."""
        import devtrace as tf
        from ..ops.summary import event_pb

        try:
            text = model.to_json()
        except Exception as exc:  # noqa: BLE001 (Keras's: a model that cannot serialize is not written)
            warnings.warn(f"Model failed to serialize as JSON. Ignoring... {exc}", stacklevel=2)
            return
        with self._writer("train").as_default():
            with tf.summary.experimental.summary_scope("keras", "graph_keras_model", [model, 0]) as (tag, _):
                tf.summary.write(tag=tag, tensor=text, step=0,
                                 metadata=event_pb.metadata("graph_keras_model", content=b"1"))

    def on_train_begin(self, logs=None):
        self._global_train_batch = 0

    def on_train_batch_begin(self, batch, logs=None):
        self._global_train_batch += 1

    def on_train_batch_end(self, batch, logs=None):
        if self.update_freq != "epoch" and isinstance(logs, dict) and self._global_train_batch % self.update_freq == 0:
            self._scalars("train", {f"batch_{k}": v for k, v in logs.items()}, self._global_train_batch)

    def on_test_end(self, logs=None):
        optimizer = getattr(self.model, "optimizer", None)
        if optimizer is not None and logs:
            self._scalars("validation", {f"evaluation_{k}_vs_iterations": v for k, v in logs.items()},
                          optimizer.iterations)

    def on_epoch_end(self, epoch, logs=None):
        if not logs:
            return
        train = {k: v for k, v in logs.items() if not k.startswith("val_")}
        if getattr(self.model, "optimizer", None) is not None:
            train["learning_rate"] = float(self.model.optimizer.learning_rate.numpy())
        self._scalars("train", {f"epoch_{k}": v for k, v in train.items()}, epoch)
        val = {f"epoch_{k[4:]}": v for k, v in logs.items() if k.startswith("val_")}
        if val:
            self._scalars("validation", val, epoch)

    def on_train_end(self, logs=None):
        for writer in self._writers.values():
            writer.close()
        self._writers = {}


class RemoteMonitor(Callback):
    """Posts each epoch's logs to a server with ``requests`` (Keras's error when it is not installed;
    a warning when the server cannot be reached)."""

    def __init__(self, root="http://localhost:9000", path="/publish/epoch/end/", field="data", headers=None,
                 send_as_json=False):
        super().__init__()
        self.root, self.path, self.field, self.headers, self.send_as_json = root, path, field, headers, send_as_json

    def on_epoch_end(self, epoch, logs=None):
        try:
            requests = importlib.import_module("requests")
        except ImportError:
            raise ImportError("RemoteMonitor requires the `requests` library.") from None
        send = {"epoch": epoch}
        send.update((k, v.item() if isinstance(v, (np.ndarray, np.generic)) else v) for k, v in (logs or {}).items())
        try:
            if self.send_as_json:
                requests.post(self.root + self.path, json=send, headers=self.headers)
            else:
                requests.post(self.root + self.path, {self.field: json.dumps(send)}, headers=self.headers)
        except requests.exceptions.RequestException:
            warnings.warn(f"Could not reach RemoteMonitor root server at {self.root}", stacklevel=2)
