"""``tf.train.ClusterSpec`` (the one ``tf.distribute.cluster_resolver`` checks and returns) and the
cluster messages it converts to and from (``ClusterDef``, ``JobDef``, ``ServerDef``), printed in
protobuf's text format as TensorFlow prints them."""

from __future__ import annotations



def _quote(value) -> str:
    return '"' + str(value).replace("\\", "\\\\").replace('"', '\\"') + '"'


class JobDef:
    """``JobDef``: a job's name and its tasks (index → address)."""

    def __init__(self, name="", tasks=None):
        self.name, self.tasks = name, dict(tasks or {})

    def _text(self, pad=""):
        out = f"{pad}name: {_quote(self.name)}\n" if self.name else ""
        for k in sorted(self.tasks):
            out += f"{pad}tasks {{\n{pad}  key: {k}\n{pad}  value: {_quote(self.tasks[k])}\n{pad}}}\n"
        return out

    def __str__(self):
        return self._text()

    def __eq__(self, other):
        return isinstance(other, JobDef) and (self.name, self.tasks) == (other.name, other.tasks)


class ClusterDef:
    """``ClusterDef``: its jobs."""

    def __init__(self, job=None):
        self.job = list(job or [])

    def _text(self, pad=""):
        return "".join(f"{pad}job {{\n{j._text(pad + '  ')}{pad}}}\n" for j in self.job)

    def __str__(self):
        return self._text()

    def __eq__(self, other):
        return isinstance(other, ClusterDef) and self.job == other.job


class ServerDef:
    """``ServerDef``: the cluster, this server's job and task, its protocol."""

    def __init__(self, cluster=None, job_name="", task_index=0, default_session_config=None, protocol="",
                 port=0, cluster_device_filters=None):
        self.cluster = cluster if cluster is not None else ClusterDef()
        self.job_name, self.task_index, self.protocol, self.port = job_name, task_index, protocol, port
        self.default_session_config = default_session_config

    def __str__(self):
        body = self.cluster._text("  ")
        out = f"cluster {{\n{body}}}\n" if body else ""
        out += f"job_name: {_quote(self.job_name)}\n" if self.job_name else ""
        out += f"task_index: {self.task_index}\n" if self.task_index else ""
        out += f"protocol: {_quote(self.protocol)}\n" if self.protocol else ""
        out += f"port: {self.port}\n" if self.port else ""
        return out


class _Jobs:
    """Job name → task addresses (a list, or a dict index → address for sparse jobs): what
    ``ClusterSpec`` is apart from its protobuf conversions."""

    def __init__(self, cluster):
        if isinstance(cluster, _Jobs):
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
        return isinstance(other, _Jobs) and self.as_dict() == other.as_dict()

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


class ClusterSpec(_Jobs):
    """``tf.train.ClusterSpec``, converting to and from a ``ClusterDef`` too."""

    def __init__(self, cluster):
        if isinstance(cluster, ClusterDef):
            cluster = {j.name: dict(j.tasks) for j in cluster.job}
        super().__init__(cluster)

    def as_cluster_def(self) -> ClusterDef:
        return ClusterDef([JobDef(job, self._jobs[job]) for job in sorted(self._jobs)])
