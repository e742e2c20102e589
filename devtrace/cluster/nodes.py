"""``devtrace list --cluster [ADDRESS]``: every node's GPUs, as devtrace's discovery sees them on
that node (NVML there, or the simulated machine ``--simulate``/``--machine`` describes), probed by
one Ray task pinned to each alive node. JSON (schema 1): ``{"schema": 1, "nodes": [{"node_id",
"address", "backend", "note", "devices": [{"index", "model", "memory_total", "uuid", "pci_bus_id",
"mig", "health"}]}]}`` — ``health`` is ``"ok"`` or why the GPU is unusable (NVML's reason), ``mig``
the MIG instance a device is (``null`` for a whole GPU)."""

from __future__ import annotations

import os

from . import connected


def probe_node(simulate, machine) -> dict:
    """On one node: what devtrace's discovery finds there."""
    from ..devices.discovery import probe

    found = probe(simulate, machine, dict(os.environ))
    devices = [{"index": g.index, "model": g.name, "memory_total": g.memory_total, "uuid": g.uuid,
                "pci_bus_id": g.pci_bus_id, "mig": g.uuid if g.uuid.startswith("MIG-") else None, "health": "ok"}
               for g in found.gpus]
    for index, reason in found.unavailable:
        devices.append({"index": index, "model": None, "memory_total": None, "uuid": None, "pci_bus_id": None,
                        "mig": None, "health": reason})
    return {"backend": found.backend, "note": found.note, "devices": sorted(devices, key=lambda d: d["index"])}


def cluster_report(address, simulate=None, machine=None) -> dict:
    import uuid

    if address in (None, "auto"):
        address = os.environ.get("RAY_ADDRESS") or None
    quiet = dict(log_to_driver=False, configure_logging=False, include_dashboard=False)
    with connected(address, "--cluster", f"devtrace-{uuid.uuid4().hex[:12]}", **quiet) as ray:
        from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

        task = ray.remote(num_cpus=0)(probe_node)
        alive = sorted((n for n in ray.nodes() if n.get("Alive")), key=lambda n: n["NodeID"])
        refs = [task.options(scheduling_strategy=NodeAffinitySchedulingStrategy(n["NodeID"], soft=False))
                .remote(simulate, machine) for n in alive]
        nodes = []
        for n, found in zip(alive, ray.get(refs)):
            nodes.append({"node_id": n["NodeID"], "address": n.get("NodeManagerAddress"), **found})
        return {"schema": 1, "nodes": nodes}


def print_cluster(report: dict) -> None:
    from ..output import format_mib, print_table

    rows = []
    for node in report["nodes"]:
        name = f"{node['node_id'][:12]} ({node['address']})"
        if not node["devices"]:
            rows.append([name, "-", "no GPU", "", "", "", ""])
        for d in node["devices"]:
            memory = format_mib(d["memory_total"]) if d["memory_total"] is not None else ""
            rows.append([name, str(d["index"]), d["model"] or "", memory, d["uuid"] or "", d["mig"] or "-",
                         d["health"]])
    print_table(["NODE", "GPU", "MODEL", "MEMORY", "UUID", "MIG", "HEALTH"], rows,
                title=f"Cluster: {len(report['nodes'])} node{'s' if len(report['nodes']) != 1 else ''}", right=(3,))
