"""``tf.distribute.TPUStrategy``: devtrace's machines have no TPU. Without a cluster resolver TensorFlow
looks for a TPU's name (the ``TPU_NAME`` variable, a Cloud TPU's metadata) and, finding none, raises
its ``ValueError``; so does devtrace. A resolver naming a TPU cannot be connected to here: that says so
in one line."""

from __future__ import annotations

import os


class TPUStrategy:
    def __init__(self, tpu_cluster_resolver=None, experimental_device_assignment=None,
                 experimental_spmd_xla_partitioning=False):
        if tpu_cluster_resolver is None and not os.environ.get("TPU_NAME"):
            raise ValueError("Please provide a TPU Name to connect to.")
        raise NotImplementedError("devtrace does not implement tf.distribute.TPUStrategy on a TPU yet (it simulates "
                                  "CPUs and GPUs)")
