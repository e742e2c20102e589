"""The HTML report (issue 17): drawn by Plotly (the ``viz`` extra), plotly.js embedded once so the
file opens offline; without Plotly, ``--html`` and ``devtrace report`` say in one line how to
install it and exit 2 before any work."""

import json
import os
import pathlib
import re
import shutil
import subprocess
import sys

import pytest

from conftest import devtrace, program
from devtrace.errors import UsageError
from devtrace.trace import events as ev
from devtrace.trace import jsonl, render_html

CPU0 = "/job:localhost/replica:0/task:0/device:CPU:0"
NO_PLOTLY = "needs Plotly: pip install 'devtrace[viz]'"


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    out = tmp_path_factory.mktemp("html") / "report.html"
    r = devtrace("run", program("multi_tower.py"), "--simulate", "4", "--html", str(out))
    assert r.returncode == 0, r.stderr
    return out


def test_report_is_self_contained_with_plotly_embedded_once(report):
    import plotly.offline

    html = report.read_text(encoding="utf-8")
    assert html.startswith("<!DOCTYPE html>") and html.rstrip().endswith("</html>")
    # nothing fetched: no external scripts, styles, images or fonts
    assert not re.search(r"""<(script|link|img|iframe)[^>]*\s(src|href)\s*=""", html)
    assert "@import" not in html and "url(http" not in html
    js = plotly.offline.get_plotlyjs()
    assert html.count(js) == 1 and html.count('<script id="plotly-js">') == 1
    records = json.loads(re.search(r'id="dt-records">(.*?)</script>', html, re.S).group(1))
    meta = json.loads(re.search(r'id="dt-meta">(.*?)</script>', html, re.S).group(1))
    assert sum(1 for r in records if r[0] == "o") == 13 and sum(1 for r in records if r[0] == "c") == 4
    assert [t["short"] for t in meta["tracks"]] == ["CPU:0", "GPU:0", "GPU:1", "GPU:2", "GPU:3"]
    assert meta["meta"]["sampled"] is False
    # memory: in use after every op (OpPlaced.mem_in_use), GPU:0's three allocations one after another
    gpu0 = next(t["i"] for t in meta["tracks"] if t["short"] == "GPU:0")
    in_use = [r[3] for r in records if r[0] == "m" and r[1] == gpu0]
    assert in_use[:1] == [0] and [256, 512, 768] == [v for v in in_use if v][:3]


def test_report_command_escapes_script_end_in_names(tmp_path):
    trace = tmp_path / "t.jsonl"
    jsonl.write(trace, [ev.TraceStart("eager", "devtrace", "</script><b>x.py", None), ev.DeviceCreated(CPU0, "CPU"),
                        ev.OpPlaced(1, "MyOp", "</script>", "", CPU0, ev.DEFAULT, [], [1], "float32", 10)])
    out = tmp_path / "r.html"
    r = devtrace("report", str(trace), "-o", str(out))
    assert r.returncode == 0, r.stderr
    html = out.read_text(encoding="utf-8")
    assert html.count("</script>") == 4  # records, meta, plotly.js, the app: no name closes a script early


# -- without the extra --------------------------------------------------------------------------

@pytest.fixture
def no_plotly(tmp_path):
    """An environment in which ``import plotly`` fails, as without the ``viz`` extra."""
    shim = tmp_path / "shim"
    (shim / "plotly").mkdir(parents=True)
    (shim / "plotly" / "__init__.py").write_text("raise ImportError('No module named plotly (test shim)')\n")
    check = subprocess.run([sys.executable, "-c", "import plotly"], env={**os.environ, "PYTHONPATH": str(shim)},
                           capture_output=True, text=True)
    assert check.returncode == 1 and "ImportError" in check.stderr  # the shim works
    return {"PYTHONPATH": str(shim)}


def test_run_html_without_plotly_exits_2_before_the_program_runs(tmp_path, no_plotly):
    out = tmp_path / "out"
    out.mkdir()
    r = devtrace("run", program("multi_tower.py"), "--simulate", "4", "--html", str(out / "r.html"), env=no_plotly)
    assert (r.returncode, r.stdout) == (2, "")  # the program printed nothing: it never ran
    assert r.stderr == f"Error: --html {NO_PLOTLY}\n"
    assert os.listdir(out) == []


def test_report_without_plotly_exits_2_and_writes_nothing(tmp_path, no_plotly):
    trace = tmp_path / "t.jsonl"
    jsonl.write(trace, [ev.TraceStart(), ev.DeviceCreated(CPU0, "CPU"),
                        ev.OpPlaced(1, "AddV2", None, "", CPU0, ev.DEFAULT, [], [1], "float32", 10)])
    r = devtrace("report", str(trace), "-o", str(tmp_path / "r.html"), env=no_plotly)
    assert (r.returncode, r.stdout, r.stderr) == (2, "", f"Error: devtrace report {NO_PLOTLY}\n")
    assert sorted(os.listdir(tmp_path)) == ["shim", "t.jsonl"]
    # the timeline needs no extra
    r = devtrace("timeline", str(trace), "-o", str(tmp_path / "t.json"), env=no_plotly)
    assert r.returncode == 0, r.stderr


def test_writer_refuses_without_plotly_before_writing(monkeypatch):
    monkeypatch.setitem(sys.modules, "plotly", None)
    monkeypatch.delitem(sys.modules, "plotly.offline", raising=False)
    with pytest.raises(UsageError, match=re.escape(f"--html {NO_PLOTLY}")):
        render_html.require_plotly()
    written = []

    class Out:
        def write(self, text):
            written.append(text)

    with pytest.raises(UsageError):
        render_html.write(iter([ev.TraceStart()]), Out())
    assert written == []


# -- in a real browser --------------------------------------------------------------------------

def _chromium():
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        path = shutil.which(name)
        if path:
            return path
    return None


def _render(path, tmp_path):
    browser = _chromium()
    if browser is None:
        pytest.skip("no chromium binary found (apt-get install chromium)")
    done = subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                           "--disable-component-update", "--disable-sync", "--no-first-run",
                           "--virtual-time-budget=5000", f"--user-data-dir={tmp_path / 'profile'}", "--dump-dom",
                           path.as_uri()], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    return re.sub(r"<script\b.*?</script>", "", done.stdout, flags=re.S)  # what the scripts drew, not their text


def _trace_group(dom, uid):
    """The SVG group Plotly drew for the trace with this uid."""
    start = dom.index(f'class="trace scatter trace{uid}"')
    end = dom.find('<g class="trace', start + 10)
    return dom[start:end if end > 0 else len(dom)]


@pytest.mark.browser
def test_report_renders_with_plotly_in_headless_chromium(report, tmp_path):
    dom = _render(report, tmp_path)
    timeline = dom[dom.index('id="tl-plot"'):dom.index('id="tl-note"')]
    assert "js-plotly-plot" in timeline  # Plotly drew it
    rows = re.findall(r'<g class="ytick">.*?data-unformatted="([^"]+)"', timeline)
    assert rows == ["CPU:0", "GPU:0", "GPU:1", "GPU:2", "GPU:3"]  # one row per logical device
    legend = re.findall(r'class="legendtext"[^>]*>([^<]*)<', timeline)
    assert legend == ["_EagerConst", "MatMul", "AddN", "copy (on the destination)", "copy arrow: producer → consumer"]
    arrows = _trace_group(timeline, "copy-arrows")
    assert arrows.count('class="js-line"') == 4  # a line from each MatMul to the AddN on the CPU ...
    heads = re.findall(r'<path class="point" transform="translate\(([\d.]+),([\d.]+)\)" d="M0,0L', arrows)
    assert len(heads) == 4 and len({y for _, y in heads}) == 1  # ... each ending in an arrowhead on CPU:0's row
    charts = re.findall(r'<div class="mem-chart[^"]*" data-device="([^"]+)"', dom)
    assert charts == ["CPU:0", "GPU:0", "GPU:1", "GPU:2", "GPU:3"]
    assert dom.count("js-plotly-plot") == 6  # the timeline and five memory charts
    assert len(re.findall(r"<tr data-seq=", dom)) == 13
    assert re.search(r'<td class="r-">explicit</td>', dom)


@pytest.mark.browser
def test_tf1_report_draws_each_session_run_call(tmp_path):
    prog = tmp_path / "two_runs.py"
    prog.write_text("import devtrace as tf\ntf.compat.v1.disable_eager_execution()\n"
                    "with tf.device('/gpu:0'):\n    a = tf.constant([1.0, 2.0])\n"
                    "with tf.device('/cpu:0'):\n    b = a * 2.0\n"
                    "sess = tf.compat.v1.Session()\nsess.run(b)\nsess.run(b)\nsess.run(a)\n")
    out = tmp_path / "r.html"
    r = devtrace("run", str(prog), "--simulate", "1", "--html", str(out))
    assert r.returncode == 0, r.stderr
    dom = _render(out, tmp_path)
    rows = re.findall(r'<g class="ytick">.*?data-unformatted="([^"]+)"', dom)
    assert rows[:4] == ["CPU:0", "GPU:0", "sessions &amp; log", "Session.run"]
    legend = re.findall(r'class="legendtext"[^>]*>([^<]*)<', dom)
    assert "Session.run call" in legend and "tf.compat.v1.Session" in legend
    assert _trace_group(dom, "session-runs").count('class="js-line"') == 3  # one slice per call


@pytest.mark.browser
def test_the_report_names_the_threads_that_ran_ops(tmp_path):
    """A program whose threads run ops: the report's notes count each thread's ops (issue 33)."""
    out = tmp_path / "r.html"
    prog = pathlib.Path(__file__).resolve().parent.parent / "fixtures" / "threads" / "threaded_ops.py"
    r = devtrace("run", str(prog), "5", "--simulate", "2", "--html", str(out))
    assert r.returncode == 0, r.stderr
    note = re.search(r'<div class="note" id="dt-threads">([^<]*)</div>', _render(out, tmp_path))
    assert note, "no threads note"
    counts = re.findall(r"Thread-\d+ \(work\) \u00d7(\d+)", note.group(1))
    assert len(counts) == 8 and sorted(map(int, counts)) == [6] * 6 + [7] * 2  # a constant and 5 adds (+ the 1.0)
