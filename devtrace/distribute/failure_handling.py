"""``tf.distribute.experimental``'s preemption handling on devtrace's machines: a
``PreemptionWatcher`` sees no preemption notice (TensorFlow 2.21 on a CPU machine supports no
platform's notice either: its ``preemption_message`` stays ``None``), and ``TerminationConfig`` is
the record of how a preemption would be handled."""

from __future__ import annotations


class PreemptionWatcher:
    def __init__(self):
        self._preemption_message = None

    @property
    def preemption_message(self):
        return self._preemption_message

    def block_until_worker_exit(self):
        raise NotImplementedError("devtrace does not implement PreemptionWatcher.block_until_worker_exit yet (no "
                                  "preemption notice ever comes on devtrace's machines: it would wait for good)")


class TerminationConfig:
    """How a preemption is noticed and handled (``PreemptionCheckpointHandler``'s configuration)."""

    def __init__(self, termination_watcher_fn=None, exit_fn=None, grace_period=None, save_fn=None):
        self.termination_watcher_fn = termination_watcher_fn
        self.exit_fn = exit_fn
        self.grace_period = grace_period
        self.save_fn = save_fn
