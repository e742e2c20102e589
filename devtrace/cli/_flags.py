"""The configuration flags every command shares, and the one place that applies them.

Each flag maps to one ``devtrace.config`` call, so a flag and the equivalent program line
behave identically. Runtime errors raised by those calls become one-line usage errors.
"""

from typing import Annotated, Optional

import typer

from ..errors import UsageError

PANEL = "Configuration"

Simulate = Annotated[Optional[str], typer.Option(
    "--simulate", metavar="SPEC", rich_help_panel=PANEL,
    help="Simulate GPUs: '4', '2xH100', '4xK20m:5GiB' (also DEVTRACE_SIMULATE).")]
MachineFile = Annotated[Optional[str], typer.Option(
    "--machine", metavar="FILE.toml", rich_help_panel=PANEL,
    help="Simulate the GPUs a machine file describes (also DEVTRACE_MACHINE).")]
Compat = Annotated[Optional[str], typer.Option(
    "--compat", metavar="tf2|tf1", rich_help_panel=PANEL,
    help="Which TensorFlow to behave as: tf2 (2.21, the default) or tf1 (the 2017 guide's: Cast on the CPU "
         "only, TF1 graph order, ref variables; also DEVTRACE_COMPAT).")]
Compute = Annotated[Optional[str], typer.Option(
    "--compute", metavar="all|none", rich_help_panel=PANEL,
    help="all (the default) runs every kernel; none places, logs, traces and accounts every op as a computing "
         "run does without computing values: device memory of full-size models in seconds (also DEVTRACE_COMPUTE).")]
Visible = Annotated[Optional[str], typer.Option(
    "--visible", metavar="0,2", rich_help_panel=PANEL,
    help="GPUs the runtime may use (set_visible_devices), by physical index.")]
Growth = Annotated[Optional[bool], typer.Option(
    "--growth/--no-growth", rich_help_panel=PANEL, show_default=False,
    help="Memory growth on every visible GPU (set_memory_growth).")]
Limit = Annotated[Optional[str], typer.Option(
    "--limit", metavar="MIB[,MIB…]", rich_help_panel=PANEL,
    help="Memory limit in MiB; a list splits each visible GPU into that many logical GPUs.")]
Fraction = Annotated[Optional[float], typer.Option(
    "--fraction", metavar="F", rich_help_panel=PANEL,
    help="Per-process GPU memory fraction in (0, 1] (per_process_gpu_memory_fraction).")]


def _indices(text: str, flag: str) -> list[int]:
    out = []
    for part in text.split(","):
        part = part.strip()
        if not (part.isascii() and part.isdigit()):
            raise UsageError(f"{flag} {text}: '{part}' is not a GPU index (expected e.g. {flag} 0,2)")
        if int(part) in out:
            raise UsageError(f"{flag} {text}: GPU {int(part)} is listed twice")
        out.append(int(part))
    return out


def parse_limits(text: str) -> list[int]:
    """Whole MiB, as TensorFlow takes ``memory_limit`` (it truncates to whole MiB: 0.5 would be a
    0-byte GPU)."""
    limits = []
    for part in text.split(","):
        part = part.strip()
        try:
            value = float(part)
        except ValueError:
            raise UsageError(f"--limit {text}: '{part}' is not a number of MiB (expected e.g. --limit 1024)") from None
        if not value > 0 or value == float("inf"):
            raise UsageError(f"--limit {text}: {part} MiB is not a positive memory limit")
        if value < 1:
            raise UsageError(f"--limit {text}: {part} MiB is below 1 MiB, the smallest GPU memory limit")
        if value != int(value):
            raise UsageError(f"--limit {text}: {part} is not a whole number of MiB (memory limits are whole MiB, "
                             f"as TensorFlow's memory_limit; expected e.g. --limit {max(1, int(value))})")
        limits.append(int(value))
    return limits


def configure(simulate=None, machine=None, visible=None, growth=None, limit=None, fraction=None,
              soft_placement=None, compat=None, compute=None):
    """A fresh runtime context for this machine and configuration."""
    from ..devices.discovery import compat_mode, compute_mode, probe
    from .. import config
    from ..runtime.context import reset_context

    if simulate is not None and machine is not None:
        raise UsageError("--simulate and --machine both describe the machine; give one")
    if growth and limit is not None:
        raise UsageError("--growth has no effect with --limit: TensorFlow ignores memory growth on GPUs with "
                         "virtual devices (tensorflow#38367); choose one")
    if fraction is not None and not 0 < fraction <= 1:
        raise UsageError(f"--fraction {fraction:g}: must be in (0, 1], e.g. --fraction 0.4")
    if fraction is not None and limit is not None:
        raise UsageError("--fraction and --limit both set the memory limit; give one "
                         "(TensorFlow: it's invalid to set per_process_gpu_memory_fraction when virtual_devices is set)")
    limits = parse_limits(limit) if limit is not None else None
    compat_mode(compat)  # a bad --compat before a bad machine: the flag the user typed is named
    compute_mode(compute)
    ctx = reset_context()
    ctx.set_machine(probe(simulate=simulate, machine=machine, compat=compat, compute=compute), deferred=True)
    if visible is None and growth is None and limits is None and fraction is None:
        if soft_placement is not None:
            config.set_soft_device_placement(soft_placement)
        return ctx  # no device use yet: the program's own CUDA_VISIBLE_DEVICES still counts
    gpus = config.list_physical_devices("GPU")
    try:
        if visible is not None:
            wanted = _indices(visible, "--visible") if visible.strip() else []
            for i in wanted:
                if i >= len(gpus):
                    have = f"{len(gpus)} GPUs (0-{len(gpus) - 1})" if gpus else "no GPUs"
                    raise UsageError(f"--visible {visible}: there is no GPU {i}; this process sees {have}")
            config.set_visible_devices([gpus[i] for i in wanted], "GPU")
        shown = config.get_visible_devices("GPU")
        if growth is not None:
            for gpu in shown:
                config.set_memory_growth(gpu, growth)
        if limits is not None:
            if not shown:
                raise UsageError(f"--limit {limit}: there is no visible GPU to limit; simulate one with --simulate 1")
            for gpu in shown:
                try:
                    config.set_logical_device_configuration(
                        gpu, [config.LogicalDeviceConfiguration(memory_limit=m) for m in limits])
                except ValueError as e:
                    raise UsageError(f"--limit {limit}: {e}") from None
        if fraction is not None:
            tiny = [g for g in ctx.machine.gpus if g.memory_total * fraction < 1 << 20]
            if tiny:
                raise UsageError(f"--fraction {fraction:g}: leaves GPU {tiny[0].index} ({tiny[0].name}) less than "
                                 f"1 MiB of memory")
            config.set_memory_fraction(fraction)
        if soft_placement is not None:
            config.set_soft_device_placement(soft_placement)
    except (ValueError, RuntimeError) as e:
        if isinstance(e, UsageError):
            raise
        raise UsageError(str(e).splitlines()[0]) from None
    return ctx
