"""The callbacks every ``fit``/``evaluate``/``predict`` has, as Keras 3's ``CallbackList`` adds
them: the given callbacks first, then ``History`` (``fit`` only), then ``ProgbarLogger`` (unless
``verbose=0``), so that what a callback prints at an epoch's end comes before the progress bar's
final line, as in Keras."""

from __future__ import annotations

from .callback_base import Callback
from .progress import Progress


class History(Callback):
    def __init__(self):
        super().__init__()
        self.history: dict = {}
        self.epoch: list = []

    def on_train_begin(self, logs=None):
        self.epoch = []

    def on_epoch_end(self, epoch, logs=None):
        self.epoch.append(epoch)
        for key, value in (logs or {}).items():
            self.history.setdefault(key, []).append(value)
        self.model.history = self


class ProgbarLogger(Callback):
    """Prints ``Epoch i/n`` and the progress bar (``verbose=1``) or one line an epoch (``verbose=2``)."""

    def __init__(self):
        super().__init__()
        self.verbose, self.epochs, self.target = 1, 1, None
        self._progress, self._in_fit, self.seen = None, False, 0

    def set_params(self, params):
        verbose = params.get("verbose", 1)
        self.verbose = 1 if verbose == "auto" else verbose
        self.epochs, self.target = params.get("epochs", 1), params.get("steps")
        super().set_params(params)

    def _start(self):
        self._progress, self.seen = Progress(self.target or 0, self.verbose), 0

    def on_train_begin(self, logs=None):
        self._in_fit = True

    def on_epoch_begin(self, epoch, logs=None):
        self._start()
        self._progress.epoch(epoch, self.epochs)

    def on_train_batch_end(self, batch, logs=None):
        self._update(batch, logs)

    def on_epoch_end(self, epoch, logs=None):
        self._finish(logs)

    def on_test_begin(self, logs=None):
        if not self._in_fit:
            self._start()

    def on_test_batch_end(self, batch, logs=None):
        if not self._in_fit:
            self._update(batch, logs)

    def on_test_end(self, logs=None):
        if not self._in_fit:
            self._finish(logs)

    def on_predict_begin(self, logs=None):
        self._start()

    def on_predict_batch_end(self, batch, logs=None):
        self._update(batch, None)

    def on_predict_end(self, logs=None):
        self._finish(logs)

    def _update(self, batch, logs):
        if self._progress is None:
            self._start()
        self.seen = batch + 1
        if not self._progress.steps:
            self._progress.steps = self.seen
        self._progress.step(self.seen, dict(logs or {}))

    def _finish(self, logs):
        if self._progress is None:
            self._start()
        if not self._progress.steps:
            self._progress.steps = self.seen or 1
        self._progress.end(dict(logs or {}))


class CallbackList(Callback):
    """Keras's container: ``CallbackList(callbacks, add_history, add_progbar, model, **params)``;
    each ``on_*`` hook calls the callbacks' in order."""

    def __init__(self, callbacks=None, add_history=False, add_progbar=False, model=None, **params):
        super().__init__()
        self.callbacks = list(callbacks or [])
        self._history = next((cb for cb in self.callbacks if isinstance(cb, History)), None)
        self._progbar = next((cb for cb in self.callbacks if isinstance(cb, ProgbarLogger)), None)
        if self._history is None and add_history:
            self._history = History()
            self.callbacks.append(self._history)
        if self._progbar is None and add_progbar:
            self._progbar = ProgbarLogger()
            self.callbacks.append(self._progbar)
        if model is not None:
            self.set_model(model)
        if params:
            self.set_params(params)

    def set_model(self, model):
        super().set_model(model)
        for cb in self.callbacks:
            cb.set_model(model)

    def set_params(self, params):
        super().set_params(params)
        for cb in self.callbacks:
            cb.set_params(dict(params))

    def call(self, hook, *args):
        for cb in self.callbacks:
            getattr(cb, hook)(*args)

    def wants(self, hook) -> bool:
        """Whether a callback overrides ``hook`` (or the older hook Keras's default calls for it); if
        none does, calling it does nothing, and a loop skips it and the logs it would be given
        (Keras dispatches such a hook off the training thread)."""
        names = (hook,) + _OLDER.get(hook, ())
        return any(_overrides(cb, name) for cb in self.callbacks for name in names)

    def __iter__(self):
        return iter(self.callbacks)


_OLDER = {"on_train_batch_begin": ("on_batch_begin",), "on_train_batch_end": ("on_batch_end",)}


def _overrides(cb, name) -> bool:
    """Whether ``cb``'s ``name`` is not ``Callback``'s no-op (a subclass's method, or a function set
    on the instance as ``LambdaCallback`` sets them)."""
    return getattr(getattr(cb, name, None), "__func__", None) is not getattr(Callback, name)


def _hook(name):
    def hook(self, *args, **kwargs):
        for cb in self.callbacks:
            getattr(cb, name)(*args, **kwargs)
    hook.__name__ = name
    return hook


for _name in ("on_batch_begin", "on_batch_end", "on_epoch_begin", "on_epoch_end", "on_train_batch_begin",
              "on_train_batch_end", "on_test_batch_begin", "on_test_batch_end", "on_predict_batch_begin",
              "on_predict_batch_end", "on_train_begin", "on_train_end", "on_test_begin", "on_test_end",
              "on_predict_begin", "on_predict_end"):
    setattr(CallbackList, _name, _hook(_name))
