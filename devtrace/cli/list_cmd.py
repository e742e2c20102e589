"""``devtrace list``: physical devices and the logical devices the configuration produces."""

from typing import Annotated, Optional

import typer

from ._flags import Compat, Fraction, Growth, Limit, MachineFile, Simulate, Visible


def list_devices(
    json_: Annotated[bool, typer.Option("--json", help="Machine-readable output (schema 1).")] = False,
    physical: Annotated[bool, typer.Option("--physical", help="Only physical devices.")] = False,
    logical: Annotated[bool, typer.Option("--logical", help="Only logical devices.")] = False,
    require_gpus: Annotated[int, typer.Option("--require-gpus", metavar="N", min=0,
                                              help="Exit 3 unless at least N logical GPUs exist.")] = 0,
    simulate: Simulate = None, machine: MachineFile = None, visible: Visible = None, growth: Growth = None,
    limit: Limit = None, fraction: Fraction = None, compat: Compat = None,
    cluster: Annotated[Optional[str], typer.Option(
        "--cluster", metavar="[ADDRESS]", is_flag=False, flag_value="auto",
        help="Every node of a Ray cluster (ADDRESS, else RAY_ADDRESS, else a local one): one probe per node, "
             "one table (--json: a top-level nodes list). Needs the cluster extra.")] = None,
):
    """List physical and logical devices (as a table, or --json)."""
    from ..errors import CheckFailed
    from .. import output as _output

    if cluster is not None:
        from ..cluster.nodes import cluster_report, print_cluster

        report = cluster_report(cluster, simulate, machine)
        _output.print_json(report) if json_ else print_cluster(report)
        return
    from ._flags import configure

    ctx = configure(simulate, machine, visible, growth, limit, fraction, compat=compat)
    report = device_report(ctx)
    if json_:
        _output.print_json(report)
    else:
        print_report(report, physical=physical or not logical, logical=logical or not physical)
    gpus = sum(1 for d in report["logical_devices"] if d["device_type"] == "GPU")
    if gpus < require_gpus:
        why = f" ({report['note']})" if report["note"] else ""
        raise CheckFailed(f"--require-gpus {require_gpus}: {gpus} logical GPU{'s' if gpus != 1 else ''} "
                          f"available{why}")


def device_report(ctx) -> dict:
    """The JSON document ``devtrace list --json`` prints (schema 1)."""
    from .. import config

    machine = ctx.machine
    physical = [{"name": "/physical_device:CPU:0", "device_type": "CPU", "model": machine.cpu.model,
                 "cores": machine.cpu.cores, "memory_total": machine.cpu.memory_total}]
    for i, (dev, gpu) in enumerate(zip(config.list_physical_devices("GPU"), machine.gpus)):
        physical.append({
            "name": dev.name, "device_type": "GPU", "platform_id": i, "index": gpu.index, "model": gpu.name,
            "uuid": gpu.uuid, "pci_bus_id": gpu.pci_bus_id, "memory_total": gpu.memory_total,
            "memory_used": gpu.memory_used, "memory_free": gpu.memory_free,
            "compute_capability": "%d.%d" % gpu.compute_capability,
            "multiprocessor_count": gpu.multiprocessor_count, "driver_version": gpu.driver_version,
            "simulated": gpu.backend == "simulated",
            "visible": dev in ctx.visible_devices,
        })
    ctx.ensure_initialized("devtrace list")
    logical = []
    for d in ctx.devices:
        a = d.allocator
        logical.append({
            "name": d.short_name, "full_name": d.name, "device_type": d.device_type,
            "physical_device": f"/physical_device:GPU:{d.platform_id}" if d.gpu else "/physical_device:CPU:0",
            "memory_limit": a.limit, "memory_reserved": a.bytes_reserved, "policy": d.policy,
            "allocator": a.name if d.gpu else None,
            "simulated": bool(d.gpu and d.gpu.backend == "simulated"),
        })
    return {"schema": 1, "backend": machine.backend, "note": machine.note,
            "unavailable": [{"index": i, "reason": r} for i, r in machine.unavailable],
            "physical_devices": physical, "logical_devices": logical,
            "messages": [m.text for m in ctx.trace.events if getattr(m, "kind", "") == "message"]}


def print_report(report: dict, physical=True, logical=True) -> None:
    from ..output import format_mib
    from ..output import print_table, printable

    backend = report["backend"]
    if physical:
        rows = []
        for d in report["physical_devices"]:
            if d["device_type"] == "CPU":
                rows.append([d["name"], "CPU", "", d["model"], format_mib(d["memory_total"]), "", "",
                             f"{d['cores']} cores"])
            else:
                state = ("simulated" if d["simulated"] else "real") + ("" if d["visible"] else ", hidden")
                rows.append([d["name"], "GPU", str(d["index"]), d["model"], format_mib(d["memory_total"]),
                             d["pci_bus_id"], d["compute_capability"], state])
        print_table(["PHYSICAL DEVICE", "TYPE", "INDEX", "MODEL", "MEMORY", "PCI BUS ID", "CC", "SOURCE"], rows,
                    title=f"Physical devices ({backend})", right=(4,))
    if physical and logical:
        print()
    if logical:
        rows = [[d["name"], d["device_type"], d["physical_device"], format_mib(d["memory_limit"]),
                 format_mib(d["memory_reserved"]) if d["device_type"] == "GPU" else "-", d["policy"]]
                for d in report["logical_devices"]]
        print_table(["LOGICAL DEVICE", "TYPE", "ON", "LIMIT", "RESERVED", "POLICY"], rows,
                    title="Logical devices", right=(3, 4))
    for gpu in report.get("unavailable", ()):
        mig = gpu["reason"].startswith("MIG instance")  # its GPU is usable, through another instance
        print(printable(f"Note: {gpu['reason']}" if mig else f"Note: GPU {gpu['index']} is unavailable: {gpu['reason']}"))
    if report["note"]:
        print(printable(f"Note: {report['note']}"))
