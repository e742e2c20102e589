"""``tf.train.ClusterSpec`` and ``tf.distribute.cluster_resolver``: the cluster a multi-worker
program belongs to, read from ``TF_CONFIG`` (``TFConfigClusterResolver``) or given
(``SimpleClusterResolver``), with TensorFlow 2.21's validation and its error texts
(``tests/tf221_multi_worker/``). ``multi_worker_util``'s checks live here too: the strategy runs
them when it starts."""

from __future__ import annotations

import json
import os

from ..util.namespace import Namespace, missing

ALLOWED_TASK_TYPES = ("chief", "worker", "evaluator", "ps", None)


class ClusterSpec:
    """Job name → task addresses (a list, or a dict index → address for sparse jobs)."""

    def __init__(self, cluster):
        if isinstance(cluster, ClusterSpec):
            cluster = cluster.as_dict()
        if not isinstance(cluster, dict):
            raise TypeError("`cluster` must be a dictionary mapping one or more job names to lists of network "
                            "addresses, or a `ClusterDef` protocol buffer")
        self._jobs: dict[str, dict[int, str]] = {}
        for job, tasks in cluster.items():
            if isinstance(tasks, (list, tuple)):
                self._jobs[job] = dict(enumerate(tasks))
            elif isinstance(tasks, dict):
                self._jobs[job] = {int(i): a for i, a in tasks.items()}
            else:
                raise TypeError(f"The tasks for job {job!r} must be a list or a dictionary from integers to "
                                f"strings.")

    def __repr__(self):
        jobs = self.as_dict()
        return "ClusterSpec({" + ", ".join(f"{k!r}: {jobs[k]!r}" for k in sorted(jobs)) + "})"

    def __eq__(self, other):
        return isinstance(other, ClusterSpec) and self.as_dict() == other.as_dict()

    def __bool__(self):
        return bool(self._jobs)

    def as_dict(self) -> dict:
        out = {}
        for job, tasks in self._jobs.items():
            dense = sorted(tasks) == list(range(len(tasks)))
            out[job] = [tasks[i] for i in sorted(tasks)] if dense else dict(tasks)
        return out

    @property
    def jobs(self) -> list[str]:
        return list(self._jobs)

    def _job(self, job_name) -> dict[int, str]:
        try:
            return self._jobs[job_name]
        except (KeyError, TypeError):
            raise ValueError(f"No such job in cluster: {job_name!r}") from None

    def num_tasks(self, job_name) -> int:
        return len(self._job(job_name))

    def task_indices(self, job_name) -> list[int]:
        return sorted(self._job(job_name))

    def task_address(self, job_name, task_index) -> str:
        tasks = self._job(job_name)
        if task_index not in tasks:
            raise ValueError(f"No task with index {task_index!r} in job {job_name!r}")
        return tasks[task_index]

    def job_tasks(self, job_name) -> list:
        tasks = self._job(job_name)
        return [tasks.get(i) for i in range(max(tasks) + 1)] if tasks else []


class ClusterResolver:
    """``tf.distribute.cluster_resolver.ClusterResolver``: the base."""

    task_type = None
    task_id = None
    rpc_layer = None

    def cluster_spec(self) -> ClusterSpec:
        raise NotImplementedError

    def master(self, task_type=None, task_id=None, rpc_layer=None) -> str:
        raise NotImplementedError

    def num_accelerators(self, task_type=None, task_id=None, config_proto=None) -> dict:
        """The GPUs this process sees, as TensorFlow counts them (its local devices)."""
        from ..runtime.context import context

        gpus = len(context().logical_devices("GPU"))
        return {"GPU": gpus} if gpus else {}

    @property
    def environment(self) -> str:
        return ""


def _address(spec: ClusterSpec, task_type, task_id, rpc_layer) -> str:
    address = spec.task_address(task_type, task_id)
    return f"{rpc_layer}://{address}" if rpc_layer else address


class SimpleClusterResolver(ClusterResolver):
    def __init__(self, cluster_spec, master="", task_type=None, task_id=None, environment="",
                 num_accelerators=None, rpc_layer=None):
        if not isinstance(cluster_spec, ClusterSpec):
            raise TypeError("cluster_spec must be a `tf.train.ClusterSpec`.")
        self._spec = cluster_spec
        self._master = master
        self.task_type, self.task_id, self.rpc_layer = task_type, task_id, rpc_layer
        self._environment = environment
        self._accelerators = num_accelerators

    def cluster_spec(self) -> ClusterSpec:
        return self._spec

    def master(self, task_type=None, task_id=None, rpc_layer=None) -> str:
        if task_type is not None and task_id is not None:
            return _address(self._spec, task_type, task_id, rpc_layer or self.rpc_layer)
        return self._master

    def num_accelerators(self, task_type=None, task_id=None, config_proto=None) -> dict:
        return dict(self._accelerators) if self._accelerators is not None else super().num_accelerators()

    @property
    def environment(self) -> str:
        return self._environment


def load_tf_config(env=None) -> dict:
    """``json.loads(TF_CONFIG)`` ({} when unset); a bad value raises ``json.JSONDecodeError``, as
    TensorFlow's ``_load_tf_config`` does."""
    text = (os.environ if env is None else env).get("TF_CONFIG")
    return json.loads(text) if text else {}


class TFConfigClusterResolver(ClusterResolver):
    """The cluster, task and RPC layer of ``TF_CONFIG``, read again at each call (as TensorFlow's)."""

    def __init__(self, task_type=None, task_id=None, rpc_layer=None, environment=None):
        self._task_type, self._task_id, self._rpc_layer = task_type, task_id, rpc_layer
        self._environment = environment

    @property
    def task_type(self):
        if self._task_type is None:
            task = load_tf_config().get("task", {})
            return str(task["type"]) if "type" in task else None
        return str(self._task_type)

    @task_type.setter
    def task_type(self, value):
        self._task_type = value

    @property
    def task_id(self):
        if self._task_id is None:
            task = load_tf_config().get("task", {})
            return int(task["index"]) if "index" in task else None
        return self._task_id

    @task_id.setter
    def task_id(self, value):
        self._task_id = value

    @property
    def rpc_layer(self):
        return self._rpc_layer if self._rpc_layer is not None else load_tf_config().get("rpc_layer")

    @rpc_layer.setter
    def rpc_layer(self, value):
        self._rpc_layer = value

    @property
    def environment(self) -> str:
        return self._environment if self._environment is not None else load_tf_config().get("environment", "")

    def cluster_spec(self) -> ClusterSpec:
        return ClusterSpec(load_tf_config().get("cluster", {}))

    def master(self, task_type=None, task_id=None, rpc_layer=None) -> str:
        """``session_master`` if set; ``""`` for a cluster of one task; else the task's address."""
        session_master = load_tf_config().get("session_master")
        if session_master is not None:
            return session_master
        spec = self.cluster_spec()
        if not spec.jobs or (len(spec.jobs) == 1 and len(spec.job_tasks(spec.jobs[0])) == 1):
            return ""
        task_type = self.task_type if task_type is None else task_type
        task_id = self.task_id if task_id is None else task_id
        return _address(spec, task_type, task_id, rpc_layer if rpc_layer is not None else self.rpc_layer)


# -- multi_worker_util's checks (TensorFlow's texts) ----------------------------------------------

def _task_count(spec: ClusterSpec, task_type) -> int:
    try:
        return spec.num_tasks(task_type)
    except ValueError:
        return 0


def validate_cluster_spec(spec: ClusterSpec, task_type, task_id) -> None:
    """``multi_worker_util._validate_cluster_spec``."""
    if any(job not in ALLOWED_TASK_TYPES for job in spec.jobs):
        raise ValueError(f"Disallowed task type found in cluster spec. Allowed types are {ALLOWED_TASK_TYPES} and "
                         f"the cluster spec is {spec}.")
    if task_type not in ALLOWED_TASK_TYPES:
        raise ValueError(f"Unrecognized task_type: {task_type}, valid task types are: {ALLOWED_TASK_TYPES}")
    if task_type and task_type not in spec.jobs and task_type != "evaluator":
        raise ValueError(f"`task_type` {task_type!r} not found in cluster_spec.")
    if _task_count(spec, "chief") > 1:
        raise ValueError("There must be at most one 'chief' job.")
    if _task_count(spec, "evaluator") > 1:
        raise ValueError("There must be at most one 'evaluator' job.")
    if task_type in spec.jobs and task_id >= _task_count(spec, task_type):
        raise ValueError(f"The `task_id` {task_id} exceeds the maximum id of {task_type}.")


def worker_count(spec: ClusterSpec, task_type) -> int:
    """``multi_worker_util.worker_count``: the chief counts as a worker."""
    validate_cluster_spec(spec, task_type, 0)
    if task_type not in ("chief", "worker", "evaluator"):
        raise ValueError(f"Unexpected `task_type` {task_type!r}")
    jobs = spec.as_dict()
    if task_type == "evaluator":
        return len(jobs["evaluator"])
    return len(jobs.get("chief", [])) + len(jobs.get("worker", []))


def id_in_cluster(spec: ClusterSpec, task_type, task_id) -> int:
    """``multi_worker_util.id_in_cluster``: the chief is 0, the workers follow it."""
    validate_cluster_spec(spec, task_type, task_id)
    if task_type == "chief":
        return 0
    if task_type == "worker":
        return task_id + len(spec.as_dict().get("chief", []))
    if task_type == "evaluator":
        return task_id
    raise ValueError(f"There is no id for task_type {task_type!r}")


namespace = Namespace(_prefix="distribute.cluster_resolver", ClusterResolver=ClusterResolver,
                      SimpleClusterResolver=SimpleClusterResolver, TFConfigClusterResolver=TFConfigClusterResolver)
__getattr__ = missing("distribute.cluster_resolver")
