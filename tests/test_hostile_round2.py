"""Trust, round two (issue 33): tried again as a hostile user would. A trace file is owned by one run;
signals at any moment end with 130/143 and a trace that says so; every writer handles a full disk,
a closed pipe and a closed descriptor in one line; nothing read from a file reaches the terminal
raw or the HTML report unescaped; every input is read in bounded memory and depth; output files
keep their mode, read-only ones are refused, messages name the path given.

(Threads — one trace per run whatever the threads — are not covered here yet.)"""

import json
import os
import random
import signal
import subprocess
import sys
import time

import pytest

from conftest import ROOT, devtrace

PROG = "import devtrace as tf\nprint(tf.add(1.0, 2.0))\n"
WAIT = """import os, time, devtrace as tf
x = tf.add(1.0, 2.0)
print("ready", flush=True)
while not os.path.exists(os.environ["GO"]):
    time.sleep(0.01)
tf.add(x, x)
"""
CONTROL = [chr(c) for c in range(0x20) if chr(c) not in "\n\t"] + ["\x7f", "\x9b", "\u202e"]


def one_error_line(r, code=2):
    """Exit ``code``, stderr one ``Error:`` line, no traceback."""
    assert r.returncode == code, (r.returncode, r.stderr[-2000:])
    assert "Traceback" not in r.stderr, r.stderr[-3000:]
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), r.stderr
    return lines[0]


def terminal_safe(text):
    return not any(c in text for c in CONTROL)


def strays(directory):
    return sorted(p for p in os.listdir(directory) if p.endswith(".tmp"))


@pytest.fixture
def prog(tmp_path):
    path = tmp_path / "prog.py"
    path.write_text(PROG)
    return path


@pytest.fixture
def good(prog, tmp_path):
    trace = tmp_path / "good.jsonl"
    r = devtrace("run", str(prog), "--trace", str(trace))
    assert r.returncode == 0, r.stderr
    return trace


def _env(**extra):
    env = {k: v for k, v in os.environ.items() if not k.startswith("DEVTRACE_")}
    env.update({"DEVTRACE_NVML": "0", "NO_COLOR": "1", "PYTHONIOENCODING": "utf-8", **extra})
    env.pop("TTY_COMPATIBLE", None)
    env.pop("FORCE_COLOR", None)
    return env


def popen(*args, env=None, **kw):
    return subprocess.Popen([sys.executable, "-m", "devtrace", *args], cwd=ROOT, env=env or _env(), text=True, **kw)


# -- a trace file is owned by one run at a time ------------------------------------------------

def test_a_second_run_on_the_same_trace_is_refused_and_the_first_trace_stays_whole(tmp_path):
    program, trace, go = tmp_path / "wait.py", tmp_path / "t.jsonl", tmp_path / "go"
    program.write_text(WAIT)
    first = popen("run", str(program), "--trace", str(trace), env=_env(GO=str(go)), stdout=subprocess.PIPE,
                  stderr=subprocess.PIPE)
    try:
        assert first.stdout.readline() == "ready\n"
        second = devtrace("run", str(program), "--trace", str(trace), env={"GO": str(go)})
        line = one_error_line(second)
        assert line == (f"Error: --trace {trace}: another devtrace run is writing this trace; wait for it to end "
                        f"or choose another file")
        assert "ready" not in second.stdout  # refused before the program ran
        go.touch()
        assert first.wait(timeout=60) == 0
    finally:
        first.kill()
        first.communicate()
    events = [json.loads(line) for line in trace.read_text().splitlines()]
    assert events[0]["event"] == "trace_start" and events[-1]["event"] == "trace_end"
    assert [e["event"] for e in events].count("trace_start") == 1
    assert sum(e["event"] == "op_placed" and e["op"] == "AddV2" for e in events) == 2
    assert devtrace("run", str(program), "--trace", str(trace), env={"GO": str(go)}).returncode == 0  # free again


# -- signals at any moment ---------------------------------------------------------------------

def _signal_at_random_moments(sig, tries, tmp_path, extra=()):
    """``devtrace run --trace`` of a short program, ``sig`` sent at a random moment from start-up to
    the end of its final writing; each run's exit code, its trace's state and stray files."""
    rng = random.Random(sig * 7 + tries)
    program = tmp_path / "p.py"
    program.write_text(PROG)
    results = []
    for i in range(tries):
        trace = tmp_path / f"t{i}.jsonl"
        p = popen("run", str(program), "--trace", str(trace), *extra, stdout=subprocess.DEVNULL,
                  stderr=subprocess.PIPE)
        time.sleep(rng.uniform(0.15, 2.5))  # (before ~0.1 s: Python itself is starting, not yet devtrace)
        p.send_signal(sig)
        _, err = p.communicate(timeout=60)
        code = p.returncode
        if not trace.exists() and code in (-sig, 1) and f"{os.sep}devtrace{os.sep}" not in err:
            continue  # the signal came while Python itself was starting, before any of devtrace ran
        text = trace.read_text() if trace.exists() else ""
        last = json.loads(text.splitlines()[-1]) if text.strip() else None
        results.append((code, last, "Traceback" in err, strays(tmp_path)))
    return results


@pytest.mark.slow
@pytest.mark.parametrize("sig,code", [(signal.SIGINT, 130), (signal.SIGTERM, 143)], ids=["SIGINT", "SIGTERM"])
def test_a_signal_at_any_moment_ends_with_its_status_and_a_trace_that_says_so(sig, code, tmp_path):
    for rc, last, traceback, stray in _signal_at_random_moments(sig, 8, tmp_path, ["--format", "timeline", "-o",
                                                                                  str(tmp_path / "tl.json")]):
        assert not traceback and stray == []
        assert rc in (code, 0), rc  # 0: the run had ended before the signal came
        if last is not None:  # no trace: the signal came before the run opened it
            assert last["event"] == "trace_end" and last["status"] == rc, (rc, last)


def test_sigterm_early_in_a_run_never_exits_0(tmp_path):
    for rc, last, traceback, stray in _signal_at_random_moments(signal.SIGTERM, 3, tmp_path):
        assert not traceback and stray == []
        if last is not None:
            assert last["status"] == rc


# -- every writer: full disk, closed stdout, closed pipe ----------------------------------------

WRITERS = {
    "list --json": ["list", "--json"],
    "list": ["list", "--simulate", "2"],
    "spec --json": ["spec", "GPU:0", "--json"],
    "mem --json": ["mem", "--json"],
    "timeline": ["timeline", "{good}"],
    "diff": ["diff", "{good}", "{good}"],
    "diff --json": ["diff", "{good}", "{good}", "--json"],
    "import": ["import", "{log}"],
    "import --format jsonl": ["import", "{log}", "--format", "jsonl"],
    "run --format jsonl": ["run", "{prog}", "--format", "jsonl"],
}


def _fill(argv, prog, good, log):
    return [a.replace("{good}", str(good)).replace("{prog}", str(prog)).replace("{log}", str(log)) for a in argv]


@pytest.fixture
def log(tmp_path):
    path = tmp_path / "tf.log"
    path.write_text("Executing op MatMul in device /job:localhost/replica:0/task:0/device:GPU:0\n")
    return path


@pytest.mark.parametrize("case", list(WRITERS))
def test_a_full_stdout_is_one_line_exit_2(case, prog, good, log, tmp_path):
    argv = _fill(WRITERS[case], prog, good, log)
    with open("/dev/full", "w") as full:
        r = subprocess.run([sys.executable, "-m", "devtrace", *argv], stdout=full, stderr=subprocess.PIPE, text=True,
                           cwd=ROOT, env=_env(), timeout=120)
    assert r.returncode == 2, r.stderr
    assert "Traceback" not in r.stderr and r.stderr.strip().splitlines()[-1] == \
        "Error: stdout: cannot write (No space left on device)"
    assert strays(tmp_path) == []


@pytest.mark.parametrize("case", ["list --json", "timeline", "diff", "run --format jsonl"])
def test_a_closed_stdout_is_one_line_exit_2(case, prog, good, log):
    argv = " ".join(f"'{a}'" for a in _fill(WRITERS[case], prog, good, log))
    r = subprocess.run(f"'{sys.executable}' -m devtrace {argv} >&-", shell=True, stderr=subprocess.PIPE, text=True,
                       cwd=ROOT, env=_env(), timeout=120)
    assert r.returncode == 2, r.stderr
    assert r.stderr.strip().splitlines()[-1] == "Error: stdout: cannot write (Bad file descriptor)"


def test_a_closed_stdout_never_lets_the_trace_take_its_descriptor(prog, tmp_path):
    trace = tmp_path / "t.jsonl"
    r = subprocess.run(f"'{sys.executable}' -m devtrace run '{prog}' --trace '{trace}' >&-", shell=True,
                       stderr=subprocess.PIPE, text=True, cwd=ROOT, env=_env(), timeout=120)
    assert r.returncode == 0, r.stderr
    assert "tf.Tensor" not in trace.read_text()  # the program's print did not land in the trace
    assert json.loads(trace.read_text().splitlines()[-1])["event"] == "trace_end"


@pytest.fixture
def tiny_fs(tmp_path):
    """A 1 MiB tmpfs (root only; skipped elsewhere)."""
    mnt = tmp_path / "tiny"
    mnt.mkdir()
    r = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(mnt)], capture_output=True)
    if r.returncode != 0:
        pytest.skip("cannot mount a tmpfs here (not root)")
    yield mnt
    subprocess.run(["umount", str(mnt)], capture_output=True)


LONG = "import devtrace as tf\nx = tf.constant(0.0)\nfor _ in range(20000):\n    x = tf.add(x, 1.0)\n"


def test_a_trace_on_a_full_disk_is_one_line_and_reads_as_cut(tiny_fs, tmp_path):
    program, trace = tmp_path / "long.py", tiny_fs / "t.jsonl"
    program.write_text(LONG)
    r = devtrace("run", str(program), "--trace", str(trace))
    assert one_error_line(r) == f"Error: --trace {trace}: cannot write (No space left on device)"
    assert trace.read_bytes().endswith(b"\n")  # whole lines only
    r = devtrace("timeline", str(trace), "-o", str(tmp_path / "tl.json"))
    assert r.returncode == 0 and "Traceback" not in r.stderr
    assert "the trace was cut off before its run ended" in r.stderr


def test_an_output_on_a_full_disk_is_one_line_and_leaves_nothing(tiny_fs, tmp_path):
    program = tmp_path / "long.py"
    program.write_text(LONG)
    out = tiny_fs / "o.jsonl"
    r = devtrace("run", str(program), "--format", "jsonl", "-o", str(out))
    assert one_error_line(r) == f"Error: --output {out}: cannot write (No space left on device)"
    assert os.listdir(tiny_fs) == []


def test_a_trace_cut_mid_line_is_read_up_to_its_last_whole_line(good, tmp_path):
    data = good.read_bytes()
    cut = tmp_path / "cut.jsonl"
    cut.write_bytes(data[:data.rindex(b"\n", 0, len(data) - 1) + 12])  # half of the trace_end line
    lines = data[:data.rindex(b"\n", 0, len(data) - 1)].count(b"\n") + 1
    for argv in (["timeline", str(cut), "-o", str(tmp_path / "tl.json")], ["diff", str(cut), str(good)]):
        r = devtrace(*argv)
        assert r.returncode == 0, r.stderr
        assert r.stderr.splitlines()[0] == (f"Warning: {cut}: the trace was cut off mid-line (line {lines + 1} is "
                                            f"incomplete: a full disk or a kill while writing); it holds the run up "
                                            f"to line {lines}")


def test_a_program_that_closes_every_inherited_descriptor_keeps_its_trace(tmp_path):
    program, trace = tmp_path / "daemon.py", tmp_path / "t.jsonl"
    program.write_text("import os, devtrace as tf\ntf.add(1.0, 2.0)\nos.closerange(3, 65536)\n"
                       "for fd in range(3, 64):\n    try:\n        os.close(fd)\n    except OSError:\n        pass\n"
                       "f = open(os.devnull, 'w')\nfor _ in range(3000):\n    tf.add(1.0, 2.0)\n")
    r = devtrace("run", str(program), "--trace", str(trace), "--format", "summary")
    assert r.returncode == 0, r.stderr
    events = [json.loads(line) for line in trace.read_text().splitlines()]
    assert events[-1]["event"] == "trace_end" and events[-1]["status"] == 0
    assert sum(e["event"] == "op_placed" and e["op"] == "AddV2" for e in events) == 3001


# -- terminal and HTML injection ---------------------------------------------------------------

EVIL = "\x1b]0;pwned\x07\x1b[2J\x9b31m<script>alert(1)</script>\u202e"


@pytest.fixture
def evil_trace(good, tmp_path):
    """A run-produced trace whose op, node, device and message strings are escape sequences and HTML."""
    out = []
    for line in good.read_text().splitlines():
        e = json.loads(line)
        if e["event"] == "op_placed":
            e["op"], e["node"] = "Add" + EVIL, EVIL
            e["device"] = e["device"] + EVIL
        if e["event"] in ("device_created", "memory_stats") and "device" in e:
            e["device"] = e["device"] + EVIL
        if e["event"] == "trace_start":
            e["program"] = EVIL
        out.append(json.dumps(e, ensure_ascii=False))
    out.insert(1, json.dumps({"schema": 1, "event": "message", "level": "WARNING", "text": EVIL}, ensure_ascii=False))
    path = tmp_path / "evil.jsonl"
    path.write_text("\n".join(out) + "\n", encoding="utf-8")
    return path


def test_a_trace_full_of_escape_sequences_never_reaches_the_terminal(evil_trace, good, tmp_path):
    for argv in (["diff", evil_trace, good], ["diff", good, evil_trace, "--json"], ["timeline", evil_trace],
                 ["timeline", evil_trace, "-o", tmp_path / "tl.json"], ["report", evil_trace, "-o", tmp_path / "r.html"]):
        r = devtrace(*map(str, argv))
        assert r.returncode == 0, (argv, r.stderr)
        assert terminal_safe(r.stdout) and terminal_safe(r.stderr), argv
    html = (tmp_path / "r.html").read_text()
    assert "<script>alert(1)" not in html and "\\u003cscript>alert(1)" in html  # data, never markup
    assert json.loads((tmp_path / "tl.json").read_text())  # still valid JSON


def test_an_imported_log_full_of_escape_sequences_never_reaches_the_terminal(tmp_path):
    log = tmp_path / "evil.log"
    dev = "/job:localhost/replica:0/task:0/device:GPU:0"
    log.write_text(f"Executing op Mat\x1b[2JMul\x9b in device {dev}\nnode\x1b]0;x\x07: (MatMul): {dev}\n"
                   f"INFO:tensorflow:{EVIL}\n\x1b[31mgarbage\x07\n", encoding="utf-8")
    for fmt in ("table", "jsonl", "tf2", "tf1", "summary", "dot", "timeline"):
        r = devtrace("import", str(log), "--format", fmt)
        assert r.returncode == 0, (fmt, r.stderr)
        assert terminal_safe(r.stdout) and terminal_safe(r.stderr), fmt


def test_a_file_name_full_of_escape_sequences_is_printed_escaped(tmp_path):
    bad = tmp_path / "t\x1b[2J\x07.jsonl"
    bad.write_text("not a trace\n")
    r = devtrace("timeline", str(bad))
    assert "\\x1b[2J\\x07" in one_error_line(r) and terminal_safe(r.stderr)
    r = devtrace("list", "--machine", str(tmp_path / "m\x1b]0;x\x07.toml"))
    assert terminal_safe(one_error_line(r))


def test_the_line_that_says_the_program_failed_is_printed_escaped(tmp_path):
    program = tmp_path / "p\x1b[2J.py"
    program.write_text("raise ValueError('\\x1b]0;pwned\\x07')\n")
    r = devtrace("run", str(program))
    assert r.returncode == 1
    assert r.stderr.splitlines()[-1] == "Error: p\\x1b[2J.py raised ValueError: \\x1b]0;pwned\\x07"


# -- bounded memory and depth on any input -----------------------------------------------------

def _rss_run(argv, **kw):
    """Run devtrace in a fresh parent; its exit code, stderr, seconds, and peak RSS in MiB."""
    code = ("import resource, subprocess, sys, time\nt = time.monotonic()\n"
            f"r = subprocess.run([sys.executable, '-m', 'devtrace', *{[str(a) for a in argv]!r}], "
            "capture_output=True, text=True)\n"
            "print(r.returncode, time.monotonic() - t, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024)\n"
            "sys.stderr.write(r.stderr)\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, env=_env(), timeout=120)
    rc, seconds, rss = r.stdout.split()
    return int(rc), r.stderr, float(seconds), float(rss)


def test_a_gib_of_nul_bytes_is_refused_at_once_in_little_memory(tmp_path):
    zeros = tmp_path / "zeros.jsonl"
    with open(zeros, "wb") as f:
        f.truncate(1 << 30)  # sparse: 1 GiB of NUL bytes, no disk
    for argv in (["timeline", zeros], ["diff", zeros, zeros], ["import", zeros], ["report", zeros, "-o",
                                                                                tmp_path / "r.html"],
                 ["timeline", "/dev/zero"], ["import", "/dev/zero"], ["list", "--machine", zeros]):
        rc, err, seconds, rss = _rss_run(argv)
        assert rc == 2 and "binary" in err and len(err.strip().splitlines()) == 1, (argv, err)
        assert rss < 200, (argv, rss)
    assert not (tmp_path / "r.html").exists()


def test_one_endless_line_is_refused_at_the_line_limit_in_little_memory(tmp_path):
    line = tmp_path / "line.jsonl"
    line.write_bytes(b"a" * (24 << 20))
    for argv in (["timeline", line], ["import", line]):
        rc, err, _, rss = _rss_run(argv)
        assert rc == 2 and err.strip() == f"Error: {line}:1: line longer than 8 MiB, not " + (
            "a devtrace trace" if argv[0] == "timeline" else "a TensorFlow log"), err
        assert rss < 200, rss


@pytest.mark.parametrize("depth", [40, 5000, 200000])
def test_deeply_nested_json_is_one_line(good, tmp_path, depth):
    deep = tmp_path / "deep.jsonl"
    first = good.read_text().splitlines()[0]
    deep.write_text(first + "\n" + '{"schema": 1, "event": "message", "level": "INFO", "text": "x", "extra": '
                    + "[" * depth + "]" * depth + "}\n")
    for argv in (["timeline", deep], ["diff", deep, good], ["report", deep, "-o", tmp_path / "r.html"]):
        line = one_error_line(devtrace(*map(str, argv)))
        assert line == f"Error: {deep}:2: not a devtrace trace (JSON nested more than 32 deep)"


def test_a_deeply_nested_machine_file_is_one_line(tmp_path):
    machine = tmp_path / "m.toml"
    machine.write_text("x = " + "[" * 100000 + "]" * 100000 + "\n")
    assert one_error_line(devtrace("list", "--machine", str(machine))) == \
        f"Error: {machine}: not valid TOML: arrays or tables nested more than 32 deep"


def test_ctrl_c_is_honoured_at_once_on_an_endless_input(tmp_path):
    yes = subprocess.Popen(["yes", "not a log line"], stdout=subprocess.PIPE)
    p = popen("import", "-", stdin=yes.stdout, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        time.sleep(1.5)
        assert p.poll() is None  # still reading
        start = time.monotonic()
        p.send_signal(signal.SIGINT)
        out, err = p.communicate(timeout=10)
        assert time.monotonic() - start < 0.5 and p.returncode == 130, (p.returncode, err)
        assert "Traceback" not in err and "Aborted" not in err
    finally:
        p.kill()
        yes.kill()
        yes.wait()
        p.wait()


# -- output files ------------------------------------------------------------------------------

def test_a_read_only_output_is_refused_as_cp_does(good, tmp_path):
    out = tmp_path / "ro.json"
    out.write_text("keep me\n")
    out.chmod(0o444)
    line = one_error_line(devtrace("timeline", str(good), "-o", str(out)))
    assert line == (f"Error: --output {out}: is read-only (mode 0444); devtrace does not replace a read-only file: "
                    f"remove it or make it writable first")
    assert out.read_text() == "keep me\n" and (out.stat().st_mode & 0o777) == 0o444


def test_an_output_keeps_the_mode_of_the_file_it_replaces(good, tmp_path):
    out = tmp_path / "private.json"
    out.write_text("old\n")
    out.chmod(0o600)
    assert devtrace("timeline", str(good), "-o", str(out)).returncode == 0
    assert (out.stat().st_mode & 0o777) == 0o600 and out.read_text() != "old\n"


def test_a_dangling_symlink_output_names_the_path_given(good, tmp_path):
    (tmp_path / "link.json").symlink_to(tmp_path / "nowhere" / "x.json")
    r = devtrace("timeline", str(good), "-o", "link.json", cwd=str(tmp_path))
    assert one_error_line(r) == (f"Error: --output link.json: is a symlink to {tmp_path}/nowhere/x.json, whose "
                                 f"directory {tmp_path}/nowhere does not exist")
    (tmp_path / "ok.json").symlink_to("real.json")
    r = devtrace("timeline", str(good), "-o", "ok.json", cwd=str(tmp_path))
    assert r.returncode == 0 and r.stderr.startswith("Wrote timeline ok.json: ")


def test_report_refuses_to_write_html_to_a_terminal(good):
    r = devtrace("report", str(good), env={"TTY_COMPATIBLE": "1"})
    assert one_error_line(r) == ("Error: devtrace report writes an HTML file, not text for a terminal: give -o "
                                 "FILE.html (or redirect stdout)")
    assert r.stdout == ""


@pytest.mark.slow
def test_sigterm_while_the_report_is_written_leaves_no_temporary_file(tmp_path):
    big = tmp_path / "big.jsonl"
    from devtrace.trace import events as ev
    from devtrace.trace import jsonl

    jsonl.write(big, [ev.TraceStart()] + [ev.OpPlaced(i, "AddV2", None, "", "/job:localhost/replica:0/task:0/device:"
                                                      "CPU:0", ev.DEFAULT) for i in range(1, 60001)])
    start = time.monotonic()  # an undisturbed run first: the signals land within its length, however fast the machine
    p = popen("report", str(big), "-o", str(tmp_path / "r.html"), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    assert p.wait(timeout=120) == 0
    length = time.monotonic() - start
    (tmp_path / "r.html").unlink()
    rng = random.Random(33)
    codes = set()
    for _ in range(6):
        p = popen("report", str(big), "-o", str(tmp_path / "r.html"), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        time.sleep(rng.uniform(0.3, 0.9) * length)
        p.send_signal(signal.SIGTERM)
        _, err = p.communicate(timeout=60)
        codes.add(p.returncode)
        assert p.returncode in (0, 143) and "Traceback" not in err, err
        assert strays(tmp_path) == []
    assert 143 in codes


@pytest.mark.slow
def test_every_field_of_a_trace_given_a_hostile_value_is_read_or_refused_never_a_crash(tmp_path, monkeypatch):
    """Each field of a real multi-device trace replaced by values of other shapes, sizes and types:
    every reader and renderer either draws it or refuses it in one ``UsageError`` line."""
    import io

    from devtrace.errors import UsageError
    from devtrace.trace import diff as d
    from devtrace.trace import jsonl, render_html, render_summary, render_table, render_timeline

    src = tmp_path / "mt.jsonl"
    r = devtrace("run", os.path.join(ROOT, "fixtures", "programs", "multi_tower.py"), "--simulate", "2",
                 "--trace", str(src))
    assert r.returncode == 0, r.stderr
    good = [json.loads(line) for line in src.read_text().splitlines()]
    weird = [[{"a": 1}], ["x"], [None], [1.5], [[1, [2]]], [-1], [10 ** 30], [True], EVIL]
    cases, seen = [], set()
    for i, e in enumerate(good):
        for k, v in e.items():
            if (e["event"], k) in seen or k in ("schema", "event"):
                continue
            seen.add((e["event"], k))
            if isinstance(v, list):
                cases += [(i, k, w) for w in weird] + [(i, k, [w]) for w in weird if v and isinstance(v[0], list)]
            elif isinstance(v, int) and not isinstance(v, bool):
                cases += [(i, k, w) for w in (-1, 0, 10 ** 30, -10 ** 30, 1.5, "1")]
            elif isinstance(v, str):
                cases += [(i, k, w) for w in ("", EVIL, "/job:a/replica:0/task:0/device:GPU:99", 5)]
    path = tmp_path / "f.jsonl"
    crashes = []
    for i, k, w in cases:
        events = [dict(x) for x in good]
        events[i][k] = w
        path.write_text("\n".join(json.dumps(x) for x in events) + "\n")
        for name, fn in (("timeline", lambda: render_timeline.write(jsonl.iter_read(path), io.StringIO())),
                         ("html", lambda: render_html.write(jsonl.iter_read(path), io.StringIO())),
                         ("diff", lambda: list(d.render_lines(d.diff(jsonl.iter_read(path), jsonl.iter_read(src))))),
                         ("summary", lambda: render_summary.render(jsonl.read(path))),
                         ("table", lambda: render_table.render(jsonl.read(path)))):
            try:
                fn()
            except UsageError:
                pass
            except Exception as e:  # noqa: BLE001 (what the test looks for)
                crashes.append((good[i]["event"], k, repr(w)[:20], name, type(e).__name__))
    assert len(cases) > 100 and crashes == []


def test_a_signal_while_the_end_of_the_run_is_written_rewrites_its_trace_end(tmp_path, monkeypatch):
    from devtrace.util import interrupts
    from devtrace.cli import _program
    from devtrace.cli._flags import configure

    program, trace = tmp_path / "p.py", tmp_path / "t.jsonl"
    program.write_text(PROG)

    def terminated(*args, **kwargs):  # SIGTERM while the --format output is written
        raise interrupts.Terminated()

    monkeypatch.setattr(_program, "_write_format", terminated)
    with pytest.raises(interrupts.Terminated):
        _program.run_program(configure(), str(program), [], format_="summary", trace_path=str(trace))
    events = [json.loads(line) for line in trace.read_text().splitlines()]
    assert events[-1] == {"schema": 1, "event": "trace_end", "status": 143, "events": len(events) - 1}
    assert [e["event"] for e in events].count("trace_end") == 1


def test_a_closed_stderr_still_ends_with_the_documented_status(tmp_path):
    r = subprocess.run(f"'{sys.executable}' -m devtrace timeline '{tmp_path}/nope.jsonl' 2>&-", shell=True,
                       capture_output=False, cwd=ROOT, env=_env(), timeout=120)
    assert r.returncode == 2
