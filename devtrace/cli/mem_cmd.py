"""``devtrace mem [PROG.py]``: what each logical device reserves, uses and peaks at."""

from typing import Annotated, Optional

import typer

from ._flags import Compat, Compute, Fraction, Growth, Limit, MachineFile, Simulate, Visible


def mem(
    program: Annotated[Optional[str], typer.Argument(metavar="[PROG.py]", help="Run this program first.")] = None,
    args: Annotated[Optional[list[str]], typer.Argument(metavar="[-- ARGS…]", help="Arguments for the program.")] = None,
    json_: Annotated[bool, typer.Option("--json", help="Machine-readable output (schema 1).")] = False,
    simulate: Simulate = None, machine: MachineFile = None, visible: Visible = None, growth: Growth = None,
    limit: Limit = None, fraction: Fraction = None, compat: Compat = None, compute: Compute = None,
):
    """Device memory per logical device: at initialisation, or after a program ran."""
    from .. import output as _output
    from . import _program
    from ._flags import configure

    ctx = configure(simulate, machine, visible, growth, limit, fraction, compat=compat, compute=compute)
    status = 0
    if program is not None:
        if json_:  # keep stdout for the JSON document: the program's own prints go to stderr
            import contextlib
            import sys

            with contextlib.redirect_stdout(sys.stderr):
                status = _program.execute_program(ctx, program, args or [])
        else:
            status = _program.execute_program(ctx, program, args or [])
    ctx.ensure_initialized("devtrace mem")
    report = memory_report(ctx, program, status)
    if json_:
        _output.print_json(report)
    else:
        print_memory(report)
    if status:
        raise typer.Exit(status)


def memory_report(ctx, program, status, nvml_module=None) -> dict:
    driver = {}
    if ctx.machine.backend == "nvml":
        from ..devices.nvml import memory_now

        driver = memory_now(nvml_module)
    reserved_on = {}
    for d in ctx.devices:
        if d.gpu is not None:
            reserved_on[d.platform_id] = reserved_on.get(d.platform_id, 0) + d.allocator.bytes_reserved
    at_exit = {e.device: e for e in ctx.trace.events if e.kind == "memory_stats"}  # recorded as the program ended
    devices = []
    for d in ctx.devices:
        a = d.allocator
        s = at_exit.get(d.name)
        entry = {"name": d.short_name, "full_name": d.name, "device_type": d.device_type, "allocator": a.name,
                 "policy": d.policy, "limit": a.limit, "reserved": a.bytes_reserved,
                 "in_use": s.in_use if s else a.bytes_in_use, "peak": s.peak if s else a.peak_bytes_in_use,
                 "num_allocs": a.num_allocs, "largest_alloc": a.largest_alloc_size,
                 "num_regions": a.num_regions, "region_sizes": list(getattr(a, "region_sizes", [])),
                 "num_ooms": a.num_ooms}
        if getattr(d._backend, "name", None) == "cupy":  # CuPy's own pool bytes, apart from the tensors'
            entry["cupy_own"] = s.cupy_own if s and s.cupy_own is not None else d._backend.own_bytes()
            entry["cupy_own_peak"] = max(s.cupy_own_peak if s and s.cupy_own_peak is not None else 0,
                                         d._backend.own_peak, entry["cupy_own"])
        if d.gpu is not None:
            entry.update({"physical_device": f"/physical_device:GPU:{d.platform_id}", "model": d.gpu.name,
                          "total": d.gpu.memory_total, "free_before": d.gpu.memory_free,
                          "left_for_others": d.gpu.memory_free - reserved_on[d.platform_id],
                          "simulated": d.gpu.backend == "simulated"})
            if d.gpu.uuid in driver:  # what the driver says, beside devtrace's own figures
                entry["nvml_used"], entry["nvml_free"] = driver[d.gpu.uuid]
        else:
            entry.update({"physical_device": "/physical_device:CPU:0", "total": ctx.machine.cpu.memory_total})
        devices.append(entry)
    return {"schema": 1, "program": program, "exit_status": status if program else None,
            "backend": ctx.machine.backend, "note": ctx.machine.note, "devices": devices,
            "physical_devices": _physical_gpus(ctx, reserved_on)}


def _physical_gpus(ctx, reserved_on) -> list[dict]:
    """Each physical GPU with the logical GPUs carved out of it (several with virtual devices)."""
    out = {}
    for d in ctx.devices:
        if d.gpu is None:
            continue
        entry = out.setdefault(d.platform_id, {
            "name": f"/physical_device:GPU:{d.platform_id}", "model": d.gpu.name, "total": d.gpu.memory_total,
            "free_before": d.gpu.memory_free, "reserved": reserved_on[d.platform_id],
            "left_for_others": d.gpu.memory_free - reserved_on[d.platform_id], "logical_devices": []})
        entry["logical_devices"].append({"name": d.short_name, "allocator": d.allocator.name,
                                         "limit": d.allocator.limit})
    return [out[k] for k in sorted(out)]


def _human(nbytes) -> str:
    """MiB as the other columns (``64 MiB``); below 1 MiB, bytes or KiB (``768 B``, not ``0.0 MiB``)."""
    from ..output import MiB, format_bytes, format_mib

    if nbytes is None:
        return "-"
    return format_bytes(int(nbytes)) if nbytes < MiB else format_mib(nbytes)


def print_memory(report) -> None:
    from ..output import format_mib
    from ..output import print_table, printable

    ran = report["program"] is not None
    headers = ["DEVICE", "ON", "TOTAL", "LIMIT", "RESERVED", "LEFT FOR OTHERS", "POLICY"]
    if ran:
        headers += ["IN USE", "PEAK", "ALLOCS", "LARGEST", "OOMS"]
    nvml = any("nvml_used" in d for d in report["devices"])
    if nvml:
        headers += ["NVML USED", "NVML FREE"]
    rows = []
    for d in report["devices"]:
        gpu = d["device_type"] == "GPU"
        row = [d["name"], d["physical_device"], format_mib(d["total"]), format_mib(d["limit"]),
               format_mib(d["reserved"]) if gpu else "-", format_mib(d.get("left_for_others")) if gpu else "-",
               d["policy"]]
        if ran:
            row += [_human(d["in_use"]), _human(d["peak"]), str(d["num_allocs"]),  # 768 B, not "0.0 MiB"
                    _human(d["largest_alloc"]), str(d["num_ooms"]) if gpu else "-"]
        if nvml:
            row += [format_mib(d.get("nvml_used")), format_mib(d.get("nvml_free"))]
        rows.append(row)
    title = f"Device memory after {report['program']}" if ran else "Device memory at initialisation"
    print_table(headers, rows, title=title, right=tuple(range(2, 6)) + tuple(range(7, len(headers))))
    if nvml:
        print("NVML USED includes the CUDA context and other processes, which no framework's allocator counts.")
    own = [d for d in report["devices"] if "cupy_own" in d]
    if own and ran:
        parts = ", ".join(f"{d['name']} {_human(d['cupy_own'])} now, {_human(d['cupy_own_peak'])} at peak" for d in own)
        print(f"CuPy's own allocations in the pool (FFT plans, workspaces, temporaries; in no tensor, not in IN USE): "
              f"{parts}.")
    for p in report.get("physical_devices", ()):
        logical = p["logical_devices"]
        if len(logical) > 1:
            parts = ", ".join(f"{d['name']} ({d['allocator']}, {format_mib(d['limit'])})" for d in logical)
            print(f"{p['name']} ({p['model']}, {format_mib(p['total'])}) is carved into {len(logical)} logical "
                  f"GPUs: {parts}; {format_mib(p['reserved'])} reserved, "
                  f"{format_mib(p['left_for_others'])} left for others")
    if report["note"]:
        print(printable(f"Note: {report['note']}"))
