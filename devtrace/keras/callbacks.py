"""Keras callbacks: ``Callback``, ``History`` (what ``fit`` returns) and ``EarlyStopping``."""

from __future__ import annotations

from devtrace.util.namespace import missing as _missing


class Callback:
    def __init__(self):
        self.model = None
        self.params: dict = {}

    def set_model(self, model):
        self.model = model

    def set_params(self, params):
        self.params = params

    def on_batch_begin(self, batch, logs=None):
        pass

    def on_batch_end(self, batch, logs=None):
        pass

    def on_train_batch_begin(self, batch, logs=None):
        self.on_batch_begin(batch, logs=logs)  # Keras's: the older hook's name, kept

    def on_train_batch_end(self, batch, logs=None):
        self.on_batch_end(batch, logs=logs)

    def on_test_begin(self, logs=None):
        pass

    def on_test_end(self, logs=None):
        pass

    def on_test_batch_begin(self, batch, logs=None):
        pass

    def on_test_batch_end(self, batch, logs=None):
        pass

    def on_predict_begin(self, logs=None):
        pass

    def on_predict_end(self, logs=None):
        pass

    def on_predict_batch_begin(self, batch, logs=None):
        pass

    def on_predict_batch_end(self, batch, logs=None):
        pass

    def on_train_begin(self, logs=None):
        pass

    def on_train_end(self, logs=None):
        pass

    def on_epoch_begin(self, epoch, logs=None):
        pass

    def on_epoch_end(self, epoch, logs=None):
        pass


class History(Callback):
    def __init__(self):
        super().__init__()
        self.history: dict = {}
        self.epoch: list = []

    def on_epoch_end(self, epoch, logs=None):
        self.epoch.append(epoch)
        for key, value in (logs or {}).items():
            self.history.setdefault(key, []).append(value)


class EarlyStopping(Callback):
    """Stop when ``monitor`` has not improved by more than ``min_delta`` for ``patience`` epochs."""

    def __init__(self, monitor="val_loss", min_delta=0, patience=0, verbose=0, mode="auto", baseline=None,
                 restore_best_weights=False, start_from_epoch=0):
        super().__init__()
        self.monitor, self.patience, self.baseline = monitor, patience, baseline
        maximize = mode == "max" or (mode == "auto" and ("acc" in monitor or monitor.endswith("auc")))
        self._better = (lambda a, b: a - min_delta > b) if maximize else (lambda a, b: a + min_delta < b)
        self.restore_best_weights, self.start_from_epoch = restore_best_weights, start_from_epoch
        self.stopped_epoch = 0

    def on_train_begin(self, logs=None):
        self.wait, self.stopped_epoch, self.best, self.best_weights = 0, 0, None, None

    def on_epoch_end(self, epoch, logs=None):
        current = (logs or {}).get(self.monitor)
        if current is None or epoch < self.start_from_epoch:
            return
        self.wait += 1
        if self.best is None or self._better(current, self.best):
            self.best = current
            if self.restore_best_weights:
                self.best_weights = self.model.get_weights()
            if self.baseline is None or self._better(current, self.baseline):
                self.wait = 0
            return
        if self.wait >= self.patience and epoch > 0:
            self.stopped_epoch = epoch
            self.model.stop_training = True
            if self.restore_best_weights and self.best_weights is not None:
                self.model.set_weights(self.best_weights)


class LearningRateScheduler(Callback):
    """Sets the optimizer's learning rate to ``schedule(epoch, lr)`` as each epoch begins, and logs it."""

    def __init__(self, schedule, verbose=0):
        super().__init__()
        self.schedule, self.verbose = schedule, verbose

    def on_epoch_begin(self, epoch, logs=None):
        rate = float(self.model.optimizer.learning_rate.numpy())
        try:
            rate = self.schedule(epoch, rate)
        except TypeError:  # a schedule of the epoch only
            rate = self.schedule(epoch)
        self.model.optimizer.learning_rate = float(rate)
        if self.verbose > 0:
            print(f"\nEpoch {epoch + 1}: LearningRateScheduler setting learning rate to {float(rate)}.")

    def on_epoch_end(self, epoch, logs=None):
        if logs is not None:
            logs["learning_rate"] = float(self.model.optimizer.learning_rate.numpy())


class CallbackList:
    def __init__(self, callbacks, model, params=None):
        self.callbacks = callbacks
        for cb in callbacks:
            cb.set_model(model)
            cb.set_params(dict(params or {}))

    def call(self, hook, *args):
        for cb in self.callbacks:
            getattr(cb, hook)(*args)


__all__ = ["Callback", "EarlyStopping", "History", "LearningRateScheduler"]
__getattr__ = _missing("keras.callbacks")
