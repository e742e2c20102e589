"""devtrace on a Ray cluster (the optional ``cluster`` extra): ``devtrace run --workers N`` starts
one worker process per task of a ``TF_CONFIG`` cluster (``launcher``), their collectives meet in a
Ray actor (``transport``), and ``devtrace list --cluster`` probes every node (``nodes``). Ray is
imported only here, and only when one of those runs."""

import os

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
