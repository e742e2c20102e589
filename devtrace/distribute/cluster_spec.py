"""The cluster messages ``tf.train.ClusterSpec`` converts to and from (``ClusterDef``, ``JobDef``,
``ServerDef``), printed in protobuf's text format as TensorFlow prints them; ``ClusterSpec``
itself is ``distribute.cluster_resolver``'s, with the conversions."""

from __future__ import annotations

from ..distribute.cluster_resolver import ClusterSpec as _ClusterSpec


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


class ClusterSpec(_ClusterSpec):
    """``tf.train.ClusterSpec``: the one ``tf.distribute.cluster_resolver`` checks and returns
    (``distribute.cluster_resolver``), converting to and from a ``ClusterDef`` too."""

    def __init__(self, cluster):
        if isinstance(cluster, ClusterDef):
            cluster = {j.name: dict(j.tasks) for j in cluster.job}
        super().__init__(cluster)

    def as_cluster_def(self) -> ClusterDef:
        return ClusterDef([JobDef(job, self._jobs[job]) for job in sorted(self._jobs)])
