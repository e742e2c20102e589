"""devtrace on a Ray cluster (the optional ``cluster`` extra): ``devtrace run --workers N`` starts
one worker process per task of a ``TF_CONFIG`` cluster (``launcher``), their collectives meet in a
Ray actor (``transport``), and ``devtrace list --cluster`` probes every node (``nodes``). Ray is
imported only here, and only when one of those runs."""

import os
from contextlib import contextmanager

INSTALL = "pip install 'devtrace[cluster]'"


def import_ray(option: str):
    """``ray``, or a ``UsageError`` saying in one line how to install it."""
    from ..errors import UsageError

    try:
        import ray
    except ImportError:
        raise UsageError(f"{option} needs Ray, which is not installed: {INSTALL}") from None
    return ray


def check_reachable(address: str, timeout: float = 3.0) -> None:
    """A ``host:port`` Ray address that does not answer fails in one line (exit 2), before Ray
    would wait out its own connection timeout."""
    import socket

    from ..errors import UsageError

    target = address.split("://", 1)[-1]
    host, _, port = target.rpartition(":")
    if not host or not port.isdigit():
        raise UsageError(f"--cluster {address}: not a Ray address (HOST:PORT)")
    try:
        socket.create_connection((host, int(port)), timeout=timeout).close()
    except OSError as e:
        raise UsageError(f"cannot reach the Ray cluster at {address}: {e.strerror or e}") from None


LOOPBACK_ENV = "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"


def loopback(address: str) -> None:
    """A cluster on 127.0.0.1 is reached there: Ray would swap a loopback address for this host's
    network address unless told it runs no multi-host cluster (its Windows/macOS setting)."""
    host = address.split("://", 1)[-1].rpartition(":")[0]
    if host in ("127.0.0.1", "localhost", "::1"):
        os.environ[LOOPBACK_ENV] = "0"


def leftovers(name: str, value: str) -> list[int]:
    """The processes whose environment has ``name=value`` (Linux's ``/proc``; elsewhere none found)."""
    mark = f"{name}={value}".encode()
    found = []
    try:
        entries = os.listdir("/proc")
    except OSError:
        return found
    for entry in entries:
        if not entry.isdigit() or int(entry) == os.getpid():
            continue
        try:
            with open(f"/proc/{entry}/environ", "rb") as f:
                env = f.read().split(b"\0")
        except OSError:
            continue
        if mark in env:
            found.append(int(entry))
    return found


def sweep(name: str, value: str, grace: float = 3.0) -> None:
    """End what a local cluster left: the processes marked ``name=value`` still alive after
    ``ray.shutdown`` (its workers exit on their own once their raylet is gone: wait for them
    ``grace`` seconds, then SIGKILL the rest)."""
    import signal
    import time

    deadline = time.monotonic() + grace
    while True:
        pids = leftovers(name, value)
        if not pids:
            return
        if time.monotonic() >= deadline:
            break
        time.sleep(0.1)
    for pid in pids:
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass


RUN_MARK = "DEVTRACE_RAY_RUN"  # in the environment of every process of a local cluster devtrace starts


@contextmanager
def connected(address, option: str, mark: str, num_cpus: int = 1, **init):
    """``ray`` connected to the cluster at ``address`` (checked reachable first), else to a local
    one started here on 127.0.0.1 and ended after: its files in a directory of its own (removed
    after, not Ray's ``/tmp/ray``), token authentication set explicitly (Ray's default for a local
    cluster, so Ray prints no line about it), every process it starts marked ``RUN_MARK=mark`` and
    any still alive after ``ray.shutdown`` ended (``sweep``)."""
    import shutil
    import tempfile

    if address and address != "auto":
        check_reachable(address)
    loopback(address or "127.0.0.1:0")  # (before Ray is imported: it reads the setting then)
    if address:
        ray = import_ray(option)
        ray.init(address=address, **init)
        try:
            yield ray
        finally:
            ray.shutdown()
        return
    saved = {k: os.environ.get(k) for k in (RUN_MARK, "RAY_AUTH_MODE")}
    os.environ[RUN_MARK] = mark
    os.environ.setdefault("RAY_AUTH_MODE", "token")
    files = None
    try:
        ray = import_ray(option)  # (after the settings: Ray reads them when imported)
        files = tempfile.mkdtemp(prefix="devtrace-ray-", dir=os.environ.get("RAY_TMPDIR"))
        ray.init(address="local", num_cpus=num_cpus, _node_ip_address="127.0.0.1", _temp_dir=files, **init)
        try:
            yield ray
        finally:
            ray.shutdown()
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
        if files is not None:
            sweep(RUN_MARK, mark)
            shutil.rmtree(files, ignore_errors=True)
