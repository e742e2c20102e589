"""Keras 3's default reprs (``<keras.src.callbacks.history.History object at 0x…>``, what a notebook shows
for ``model.fit(...)``'s result) for devtrace's classes of the same names: the class's path in Keras 3.15
(printed by Keras 3.15.1 under TensorFlow 2.21: each class of ``keras.optimizers``, ``keras.callbacks``,
``keras.initializers``, ``keras.regularizers`` whose repr is ``object``'s). A subclass keeps Python's repr
(``<__main__.MyCallback object at 0x…>``), as with Keras."""

from __future__ import annotations

from ..util.reprs import has_default_repr, shown_as

KERAS_PATHS = {
    "callbacks.BackupAndRestore": "keras.src.callbacks.backup_and_restore.BackupAndRestore",
    "callbacks.CSVLogger": "keras.src.callbacks.csv_logger.CSVLogger",
    "callbacks.Callback": "keras.src.callbacks.callback.Callback",
    "callbacks.CallbackList": "keras.src.callbacks.callback_list.CallbackList",
    "callbacks.EarlyStopping": "keras.src.callbacks.early_stopping.EarlyStopping",
    "callbacks.History": "keras.src.callbacks.history.History",
    "callbacks.LambdaCallback": "keras.src.callbacks.lambda_callback.LambdaCallback",
    "callbacks.LearningRateScheduler": "keras.src.callbacks.learning_rate_scheduler.LearningRateScheduler",
    "callbacks.ModelCheckpoint": "keras.src.callbacks.model_checkpoint.ModelCheckpoint",
    "callbacks.OrbaxCheckpoint": "keras.src.callbacks.orbax_checkpoint.OrbaxCheckpoint",
    "callbacks.ProgbarLogger": "keras.src.callbacks.progbar_logger.ProgbarLogger",
    "callbacks.ReduceLROnPlateau": "keras.src.callbacks.reduce_lr_on_plateau.ReduceLROnPlateau",
    "callbacks.RemoteMonitor": "keras.src.callbacks.remote_monitor.RemoteMonitor",
    "callbacks.SwapEMAWeights": "keras.src.callbacks.swap_ema_weights.SwapEMAWeights",
    "callbacks.TensorBoard": "keras.src.callbacks.tensorboard.TensorBoard",
    "callbacks.TerminateOnNaN": "keras.src.callbacks.terminate_on_nan.TerminateOnNaN",
    "initializers.Constant": "keras.src.initializers.constant_initializers.Constant",
    "initializers.GlorotNormal": "keras.src.initializers.random_initializers.GlorotNormal",
    "initializers.GlorotUniform": "keras.src.initializers.random_initializers.GlorotUniform",
    "initializers.HeNormal": "keras.src.initializers.random_initializers.HeNormal",
    "initializers.HeUniform": "keras.src.initializers.random_initializers.HeUniform",
    "initializers.Identity": "keras.src.initializers.constant_initializers.Identity",
    "initializers.IdentityInitializer": "keras.src.initializers.constant_initializers.Identity",
    "initializers.Initializer": "keras.src.initializers.initializer.Initializer",
    "initializers.LecunNormal": "keras.src.initializers.random_initializers.LecunNormal",
    "initializers.LecunUniform": "keras.src.initializers.random_initializers.LecunUniform",
    "initializers.Ones": "keras.src.initializers.constant_initializers.Ones",
    "initializers.Orthogonal": "keras.src.initializers.random_initializers.Orthogonal",
    "initializers.OrthogonalInitializer": "keras.src.initializers.random_initializers.Orthogonal",
    "initializers.RandomNormal": "keras.src.initializers.random_initializers.RandomNormal",
    "initializers.RandomUniform": "keras.src.initializers.random_initializers.RandomUniform",
    "initializers.STFT": "keras.src.initializers.constant_initializers.STFT",
    "initializers.STFTInitializer": "keras.src.initializers.constant_initializers.STFT",
    "initializers.TruncatedNormal": "keras.src.initializers.random_initializers.TruncatedNormal",
    "initializers.VarianceScaling": "keras.src.initializers.random_initializers.VarianceScaling",
    "initializers.Zeros": "keras.src.initializers.constant_initializers.Zeros",
    "initializers.constant": "keras.src.initializers.constant_initializers.Constant",
    "initializers.glorot_normal": "keras.src.initializers.random_initializers.GlorotNormal",
    "initializers.glorot_uniform": "keras.src.initializers.random_initializers.GlorotUniform",
    "initializers.he_normal": "keras.src.initializers.random_initializers.HeNormal",
    "initializers.he_uniform": "keras.src.initializers.random_initializers.HeUniform",
    "initializers.identity": "keras.src.initializers.constant_initializers.Identity",
    "initializers.lecun_normal": "keras.src.initializers.random_initializers.LecunNormal",
    "initializers.lecun_uniform": "keras.src.initializers.random_initializers.LecunUniform",
    "initializers.ones": "keras.src.initializers.constant_initializers.Ones",
    "initializers.orthogonal": "keras.src.initializers.random_initializers.Orthogonal",
    "initializers.random_normal": "keras.src.initializers.random_initializers.RandomNormal",
    "initializers.random_uniform": "keras.src.initializers.random_initializers.RandomUniform",
    "initializers.stft": "keras.src.initializers.constant_initializers.STFT",
    "initializers.truncated_normal": "keras.src.initializers.random_initializers.TruncatedNormal",
    "initializers.variance_scaling": "keras.src.initializers.random_initializers.VarianceScaling",
    "initializers.zeros": "keras.src.initializers.constant_initializers.Zeros",
    "optimizers.Adadelta": "keras.src.optimizers.adadelta.Adadelta",
    "optimizers.Adafactor": "keras.src.optimizers.adafactor.Adafactor",
    "optimizers.Adagrad": "keras.src.optimizers.adagrad.Adagrad",
    "optimizers.Adam": "keras.src.optimizers.adam.Adam",
    "optimizers.AdamW": "keras.src.optimizers.adamw.AdamW",
    "optimizers.Adamax": "keras.src.optimizers.adamax.Adamax",
    "optimizers.Ftrl": "keras.src.optimizers.ftrl.Ftrl",
    "optimizers.Lamb": "keras.src.optimizers.lamb.Lamb",
    "optimizers.Lion": "keras.src.optimizers.lion.Lion",
    "optimizers.LossScaleOptimizer": "keras.src.optimizers.loss_scale_optimizer.LossScaleOptimizer",
    "optimizers.MultiOptimizer": "keras.src.optimizers.multi_optimizer.MultiOptimizer",
    "optimizers.Muon": "keras.src.optimizers.muon.Muon",
    "optimizers.Nadam": "keras.src.optimizers.nadam.Nadam",
    "optimizers.Optimizer": "keras.src.optimizers.optimizer.Optimizer",
    "optimizers.OptimizerMap": "keras.src.optimizers.multi_optimizer.OptimizerMap",
    "optimizers.RMSprop": "keras.src.optimizers.rmsprop.RMSprop",
    "optimizers.SGD": "keras.src.optimizers.sgd.SGD",
    "optimizers.ScheduleFreeAdamW": "keras.src.optimizers.schedule_free_adamw.ScheduleFreeAdamW",
    "regularizers.L1": "keras.src.regularizers.regularizers.L1",
    "regularizers.L1L2": "keras.src.regularizers.regularizers.L1L2",
    "regularizers.L2": "keras.src.regularizers.regularizers.L2",
    "regularizers.OrthogonalRegularizer": "keras.src.regularizers.regularizers.OrthogonalRegularizer",
    "regularizers.Regularizer": "keras.src.regularizers.regularizers.Regularizer",
    "regularizers.l1": "keras.src.regularizers.regularizers.L1",
    "regularizers.l1_l2": "keras.src.regularizers.regularizers.L1L2",
    "regularizers.l2": "keras.src.regularizers.regularizers.L2",
    "regularizers.orthogonal_regularizer": "keras.src.regularizers.regularizers.OrthogonalRegularizer",
}


def install(namespaces: dict) -> None:
    """Give each class of ``namespaces`` (``{"optimizers": module, …}``) without a repr of its own Keras's."""
    for name, path in KERAS_PATHS.items():
        space, _, attr = name.partition(".")
        cls = vars(namespaces[space]).get(attr) if hasattr(namespaces[space], "__dict__") else None
        if isinstance(cls, type) and has_default_repr(cls):
            shown_as(cls, path)
