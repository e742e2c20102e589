"""A Keras training step under ``MirroredStrategy``, as Keras 3's TensorFlow trainer runs it: the
global batch split across the replicas, each replica's forward and backward pass on its own
device with its own copy of the variables (its loss scaled by 1 / replicas), the gradients
all-reduced (``ReductionToOneDevice``: ``AddN`` on the first replica's device, then an
``Identity`` broadcast to each), and the optimizer applied on every replica to its copies and
its mirrored slots."""

from __future__ import annotations

import numpy as np

import devtrace as tf
from ..distribute import MirroredVariable, PerReplica
from ..distribute.central_storage import AggregatingVariable
from ..errors import ValueNotComputed
from .uncomputed import HostValue


_waiting: dict = {}  # id(optimizer) -> {replica id: its (gradient, variable) pairs} of the running step


def in_replica(optimizer, pairs) -> bool:
    """``optimizer.apply_gradients`` called in a replica of ``strategy.run`` (a custom training
    loop), as Keras 3 runs it under ``tf.distribute``: every replica's gradients all-reduced (SUM;
    ``batch_all_reduce_sum``: one all-reduce of them all), then each replica's copy of every
    variable updated, out of the replicas (``merge_call``). devtrace runs the replicas one after
    another, so the replicas before the last leave their gradients here and go on; the last one's
    call reduces and applies them all. False outside a replica (nothing done)."""
    from .. import hooks

    where = hooks.DISTRIBUTION[0]() if hooks.DISTRIBUTION else None
    if where is None or where[1] is None:
        return False
    strategy, replica = where
    devices = strategy.extended.worker_devices
    waiting = _waiting.setdefault(id(optimizer), {})
    waiting[replica] = [(g, v) for g, v in pairs if g is not None]
    if len(waiting) < len(devices):
        return True
    del _waiting[id(optimizer)]
    variables = [v for _, v in waiting[0]]
    grads = [[tf.convert_to_tensor(g) for g, _ in waiting[i]] for i in range(len(devices))]
    with strategy._merged():
        reduced = strategy.extended.batch_all_reduce_sum(grads) if variables else [[] for _ in devices]
        optimizer.apply_replicated(reduced, variables, devices)
    return True


def replicated_step(model, x, y):
    strategy = model._strategy
    devices = strategy.extended.worker_devices
    n = len(devices)
    xs, ys = np.array_split(x, n), np.array_split(y, n)
    variables = model.trainable_weights

    def replica_step(xi, yi):
        local = [v._local() if isinstance(v, (MirroredVariable, AggregatingVariable)) else v for v in variables]
        with tf.GradientTape() as tape:
            pred = model(tf.constant(xi), training=True)
            loss = model._compute_loss(y=tf.constant(yi), y_pred=pred)
            scaled = loss / n  # Keras's scale_loss_for_distribution
        # an embedding's IndexedSlices all-reduced as a dense tensor (the same values)
        grads = [None if g is None else tf.convert_to_tensor(g) for g in tape.gradient(scaled, local)]
        return loss, grads, pred

    # Keras runs the replicas inside its train function: no eager-overhead warning
    losses, grads, preds = strategy._for_each_replica(replica_step, (PerReplica(xs), PerReplica(ys)), {})
    per_replica = [strategy.experimental_local_results(g) for g in grads]  # [variable][replica]
    reduced = [strategy.extended.all_reduce_sum(list(g)) for g in per_replica]
    model.optimizer.apply_replicated([[r[i] for r in reduced] for i in range(n)], variables, devices)
    sizes = [len(xi) for xi in xs]
    loss_values, pred_values = strategy.experimental_local_results(losses), strategy.experimental_local_results(preds)
    try:  # a float32 of its own, never the scalar cache's (a new loss each step would stay cached)
        mean = np.float32(sum(float(v.numpy()) * k for v, k in zip(loss_values, sizes)) / sum(sizes))
        return mean, np.concatenate([p.numpy() for p in pred_values])
    except ValueNotComputed:  # --compute none: what Keras reads back, as placeholders
        return HostValue((), tf.float32), HostValue((len(x),) + tuple(pred_values[0].shape[1:]), pred_values[0].dtype)


def replicated_forward(model, x, y=None):
    """``evaluate``/``predict`` under a ``MirroredStrategy``: the batch split over the replicas, each
    replica's forward pass (and loss) on its device; the predictions back in order, the loss as the
    mean weighted by each replica's share."""
    strategy = model._strategy
    n = strategy.num_replicas_in_sync
    xs = np.array_split(x, n)
    ys = np.array_split(y, n) if y is not None else [None] * n

    def replica_forward(xi, yi):
        pred = model(tf.constant(xi), training=False)
        return pred, (model._compute_loss(y=tf.constant(yi), y_pred=pred, training=False) if yi is not None else pred)

    preds, losses = strategy._for_each_replica(replica_forward, (PerReplica(xs), PerReplica(ys)), {})
    pred = np.concatenate([p.numpy() for p in strategy.experimental_local_results(preds)])
    if y is None:
        return pred, None
    values = strategy.experimental_local_results(losses)
    return pred, sum(float(v.numpy()) * len(xi) for v, xi in zip(values, xs)) / len(x)


def multi_worker_build(strategy, data):
    """Keras 3.15's ``_maybe_symbolic_build`` under a multi-worker strategy: this worker's share of
    the first batch, one ``PerReplica`` per leaf, reduced with ``strategy.reduce("MEAN", (x, y))`` —
    which TensorFlow 2.21 cannot reduce (a tuple of ``PerReplica``), so ``fit`` fails there with its
    ``ValueError`` (``tests/tf221_multi_worker/keras_fit_worker*.txt``)."""
    from .data import unpack

    for _, batch in data:
        x, y, _ = unpack(batch)
        if y is None:
            return
        mine = [strategy._id + strategy._num_workers * j for j in range(len(strategy._devices))]
        parts = []
        for leaf in (x, y):
            pieces = np.array_split(np.asarray(leaf), strategy.num_replicas_in_sync)
            values = []
            for d, i in zip(strategy._devices, mine):
                with tf.device(d):
                    values.append(tf.constant(pieces[i]))
            parts.append(PerReplica(values))
        strategy.reduce("MEAN", tuple(parts), axis=None)
        return
