"""``--compute none`` (``DEVTRACE_COMPUTE=none``, ``runtime/compute_mode.py``): every op placed,
logged, traced and accounted as in a computing run, no value computed.

The programs under ``fixtures/programs/compute_none_*.py`` are small enough to compute: their
traces (every op, device, shape, dtype, copy, the bytes in use after each op, the allocators'
figures at exit) must be those of the computing run but for the kernels' timings. Every op sample
(``tests/op_samples/``) runs both ways with its float inputs left uncomputed: its outputs planned by
the op's shape function (or by example) must be the computed ones, or the run says in one line why
it cannot go on (an output shape that depends on values, a value the sample reads)."""

import json
import re
import sys

import numpy as np
import pytest

import devtrace as tf
import devtrace.ops  # noqa: F401 (every op declared)
from devtrace.devices import simulated
from devtrace.devices.physical import CPUInfo, Machine
from devtrace.errors import ValueNotComputed
from devtrace.runtime import compute_mode
from devtrace.runtime.context import reset_context

from conftest import ROOT, devtrace, program
from op_samples import samples

READS = "fixtures/programs/compute_none_reads.py"


def _trace(tmp_path, name, compute, *flags):
    path = tmp_path / f"{name}-{compute}.jsonl"
    done = devtrace("run", "--simulate", "1", "--compute", compute, "--trace", str(path), *flags, program(name))
    assert done.returncode == 0, done.stderr
    return done, [_untimed(json.loads(line)) for line in path.read_text().splitlines()]


def _untimed(event):
    event.pop("duration_ns", None)  # the only field a kernel's run sets that planning cannot know
    return event


@pytest.mark.parametrize("name", ["compute_none_mlp.py", "compute_none_cnn.py", "compute_none_transformer.py"])
def test_the_trace_and_memory_figures_are_the_computing_runs(tmp_path, name):
    computed, want = _trace(tmp_path, name, "all")
    planned, got = _trace(tmp_path, name, "none")
    assert len(got) == len(want)
    for i, (g, w) in enumerate(zip(got, want)):
        assert g == w, (i, want[max(0, i - 2):i + 1], g)
    stats = [e for e in got if e["event"] == "memory_stats"]
    assert stats and any(e["peak"] > 1 << 20 for e in stats)  # the figures compared are a model's, not empty


def test_mem_reports_the_computing_runs_figures():
    runs = [devtrace("mem", "--json", "--simulate", "1", "--compute", compute, program("compute_none_mlp.py"))
            for compute in ("all", "none")]
    assert [r.returncode for r in runs] == [0, 0]
    computed, planned = (json.loads(r.stdout)["devices"] for r in runs)
    assert planned == computed
    assert planned[1]["peak"] > 1 << 20 and planned[1]["num_allocs"] > 100


def test_keras_fit_prints_no_loss_numbers():
    computed = devtrace("run", "--simulate", "1", program("compute_none_mlp.py"))
    planned = devtrace("run", "--simulate", "1", "--compute", "none", program("compute_none_mlp.py"))
    assert re.search(r"^4/4 - \d+s - \d+(us|ms|s)/step - accuracy: \d\.\d{4} - loss: \d\.\d{4}$", computed.stdout, re.M)
    lines = planned.stdout.splitlines()
    assert [line for line in lines if line.startswith("Epoch")] == ["Epoch 1/2", "Epoch 2/2"]
    steps = [line for line in lines if not line.startswith("Epoch")]
    assert len(steps) == 2 and all(re.fullmatch(r"4/4 - \d+s - \d+(us|ms|s)/step", line) for line in steps), steps
    assert planned.returncode == 0


def test_keras_progress_bar_shows_no_numbers():
    planned = devtrace("run", "--simulate", "1", "--compute", "none", program("compute_none_cnn.py"))
    assert planned.returncode == 0, planned.stderr
    final = re.split(r"[\r\n\x08]+", re.sub(r"\x1b\[[0-9;]*m", "", planned.stdout).strip())[-1]  # its last drawing
    assert re.fullmatch(r"2/2 ━{20} \d+s \d+(us|ms|s)/step", final), final
    assert "loss" not in planned.stdout and "accuracy" not in planned.stdout


@pytest.mark.parametrize("how,line,op", [("numpy", 13, "MatMul"), ("print", 15, "Sum"), ("if", 17, "Greater"),
                                         ("float", 20, "Mean")])
def test_reading_a_value_is_one_line(how, line, op):
    done = devtrace("run", "--simulate", "1", "--compute", "none", READS, "--", how)
    assert done.returncode == 1
    assert done.stdout == "rows 128 shape [128, 64]\n"  # tf.shape arithmetic and int() on it are computed
    assert done.stderr == (f"Error: --compute none: {READS}:{line} reads a value of op {op}, which was not computed "
                           f"(this mode places, traces and accounts every op without computing values)\n")


def test_the_same_program_computing_reads_its_values():
    done = devtrace("run", "--simulate", "1", READS, "--", "float")
    assert done.returncode == 0 and done.stderr == ""


@pytest.mark.parametrize("args,env,text", [
    (("--compute", "some"), {}, "Error: --compute some: choose all (every kernel computes, the default) or none (ops "
                                "are placed, traced and accounted, no value is computed)\n"),
    ((), {"DEVTRACE_COMPUTE": "off"}, "Error: DEVTRACE_COMPUTE=off: choose all (every kernel computes, the default) "
                                      "or none (ops are placed, traced and accounted, no value is computed)\n"),
])
def test_a_bad_mode_is_one_line(args, env, text):
    for command in ("run", "mem"):
        done = devtrace(command, *args, "--simulate", "1", READS, env=env)
        assert (done.returncode, done.stdout, done.stderr) == (2, "", text)


def test_the_environment_variable_sets_the_mode():
    done = devtrace("run", "--simulate", "1", READS, "--", "numpy", env={"DEVTRACE_COMPUTE": "none"})
    assert done.returncode == 1 and "--compute none:" in done.stderr
    flag_wins = devtrace("run", "--simulate", "1", "--compute", "all", READS, "--", "numpy",
                         env={"DEVTRACE_COMPUTE": "none"})
    assert flag_wins.returncode == 0


def test_a_library_user_gets_the_error_class(monkeypatch):
    monkeypatch.setenv("DEVTRACE_COMPUTE", "none")
    monkeypatch.setenv("DEVTRACE_SIMULATE", "1")
    reset_context()
    x = tf.matmul(tf.ones((512, 512)), tf.ones((512, 512)))
    assert x.shape == (512, 512) and x.dtype == tf.float32
    assert tf.shape(x).numpy().tolist() == [512, 512]
    with pytest.raises(ValueNotComputed, match=r"^--compute none: .*test_compute_none\.py:\d+ reads a value of op "
                                               r"MatMul, which was not computed"):
        x.numpy()
    assert type(x._value) is compute_mode.Uncomputed and x._value.nbytes == 512 * 512 * 4


def _zeros_peak(monkeypatch, compute, side):
    monkeypatch.setenv("DEVTRACE_COMPUTE", compute)
    monkeypatch.setenv("DEVTRACE_SIMULATE", "1xH100")
    reset_context()
    with tf.device("/GPU:0"):
        big = tf.zeros((side, side))
        total = tf.reduce_sum(big + big)
    assert total.shape == ()
    return tf.config.experimental.get_memory_info("GPU:0")["peak"], big


def test_no_buffer_is_allocated_for_a_planned_output(monkeypatch):
    small = 1 << 11
    peak, _ = _zeros_peak(monkeypatch, "all", small)
    assert _zeros_peak(monkeypatch, "none", small)[0] == peak
    side = 1 << 14  # 1 GiB a tensor, accounted on the GPU, never held by the host
    planned, big = _zeros_peak(monkeypatch, "none", side)
    assert planned == peak + 2 * 4 * (side * side - small * small)
    assert type(big._value) is compute_mode.Uncomputed


# -- every op: its planned outputs are its computed ones --------------------------------------------
# the samples that cannot be planned: "shape" (an output shape that depends on values), "read" (the
# sample reads a value: a TF1 session fetches, an eager tf.cond takes its predicate's value)
CANNOT = {**{op: "shape" for op in ("Where", "Unique", "UniqueWithCounts", "SegmentSum", "SegmentMean", "SegmentProd",
                                    "SegmentMax", "SegmentMin", "StringFormat", "PrintV2", "EagerPyFunc",
                                    "NonMaxSuppressionV3", "NonMaxSuppressionV5", "NonMaxSuppressionWithOverlaps",
                                    "CTCGreedyDecoder")},
          **{op: "read" for op in ("Placeholder", "VariableV2", "Assign", "AssignAdd", "AssignSub", "CTCBeamSearchDecoder",
                                   "PlaceholderWithDefault", "StatelessIf", "If", "OptionalFromValue",
                                   "OptionalGetValue", "OptionalNone")}}
SAYS = {"shape": r"^--compute none: \w+ at tests/op_samples/\w+\.py:\d+: its output shape depends on the values of "
                 r"its inputs, which were not computed$",
        "read": r"^--compute none: tests/op_samples/\w+\.py:\d+ reads a value of op \w+, which was not computed"}


def _records(ctx):
    out = []
    for e in ctx.trace.events:
        if hasattr(e, "op") and hasattr(e, "shape"):
            op = re.sub(r"_\d+$", "", e.op)  # a function's uid counts up across runs
            out.append((op, e.device, None if e.shape is None else tuple(e.shape), e.dtype,
                        getattr(e, "mem_in_use", None)))
        elif getattr(e, "kind", None) in ("tensor_copied", "oom"):
            out.append((e.kind,))
    return out


def _run(sample, compute):
    gpus = tuple(simulated.parse_simulate("1"))
    ctx = reset_context(Machine(CPUInfo("cpu", 2, 1 << 34), gpus, gpus, "simulated", compute=compute), env={})
    ctx.ensure_initialized("test")
    try:
        with tf.device("/GPU:0"):
            sample.call()
    except Exception as e:  # noqa: BLE001 (compared by the caller)
        return _records(ctx), e
    return _records(ctx), None


def _uncomputed_floats(array):
    """The planner's ``from_host``, but float arrays (the samples' data) stay uncomputed: their ops
    are planned, while int shape arithmetic is still computed."""
    if type(array) is np.ndarray and array.dtype.kind in "fc" and array.ndim:
        return compute_mode.Uncomputed(array.shape, array.dtype, "_EagerConst")
    return array


def test_every_op_is_planned_as_it_computes(monkeypatch):
    failures, cannot = [], set()
    for sample in samples():
        want, error = _run(sample, "all")
        if error is not None:  # a sample of an error: compared in test_ops_backends
            continue
        with monkeypatch.context() as m:
            m.setattr(compute_mode.PLAN, "from_host", _uncomputed_floats)
            got, error = _run(sample, "none")
        if error is not None:
            kind = CANNOT.get(sample.op)
            if not (isinstance(error, ValueNotComputed) and kind and re.search(SAYS[kind], str(error))):
                failures.append(f"{sample.name}: {type(error).__name__}: {error}")
            cannot.add(sample.op)
        elif got != want:
            failures.append(f"{sample.name}: {next((g, w) for g, w in zip(got + [None], want + [None]) if g != w)}")
    assert failures == []
    assert cannot == set(CANNOT), "an op now planned: drop it from CANNOT"


def test_bench_scenario_small(tmp_path):
    import subprocess

    runs = {}
    for compute in ("all", "none"):
        done = subprocess.run([sys.executable, "bench/memory_estimate.py", "--small", "--batch", "16", "--compute",
                               compute], capture_output=True, text=True, cwd=ROOT, timeout=300)
        assert done.returncode == 0, done.stderr
        runs[compute] = done.stdout
    line = re.compile(r"^  (/device:GPU:\d) +peak +[\d.]+ MiB \((\d+) bytes\)$", re.M)
    peaks = {compute: line.findall(out) for compute, out in runs.items()}
    assert len(peaks["none"]) == 16 and peaks["none"] == peaks["all"]
    assert re.search(r"^resnet50 \(0\.2 M parameters\), batch 16 on 8xH100, --compute none: [\d.]+ s end to end "
                     r"\([\d.]+ s of CPU\), peak RSS \d+ MiB$", runs["none"], re.M)


def test_an_oom_is_the_computing_runs(tmp_path):
    runs = {}
    for compute in ("all", "none"):
        path = tmp_path / f"{compute}.jsonl"
        done = devtrace("run", "--simulate", "1xT4:600MiB", "--compute", compute, "--trace", str(path),
                        program("compute_none_oom.py"))
        events = [_untimed(json.loads(line)) for line in path.read_text().splitlines()]
        runs[compute] = (done.returncode, done.stderr, events)
    assert runs["none"] == runs["all"]
    assert runs["none"][0] == 1 and "OOM when allocating tensor with shape[8192,8192]" in runs["none"][1]
    assert any(e["event"] == "oom" for e in runs["none"][2])
