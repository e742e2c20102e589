"""The HTML report (issue 17): one self-contained file that opens offline; it draws itself on
canvases (no chart library), so a 400k-op run's report stays small and opens at once (issue 34)."""

import html as html_lib
import importlib.util
import json
import pathlib
import re
import shutil
import subprocess

import pytest

from conftest import devtrace, program
from devtrace.trace import events as ev
from devtrace.trace import jsonl, render_html

_spec = importlib.util.spec_from_file_location(
    "report_scale", pathlib.Path(__file__).resolve().parent.parent / "bench" / "report_scale.py")
report_scale = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(report_scale)  # the bench's synthetic 400k-op trace and its timing

CPU0 = "/job:localhost/replica:0/task:0/device:CPU:0"


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    out = tmp_path_factory.mktemp("html") / "report.html"
    r = devtrace("run", program("multi_tower.py"), "--simulate", "4", "--html", str(out))
    assert r.returncode == 0, r.stderr
    return out


def _data(html):
    """The report's records (strings looked up in the meta's table, as the page does) and its meta."""
    meta = json.loads(re.search(r'id="dt-meta">(.*?)</script>', html, re.S).group(1))
    records = json.loads(re.search(r'id="dt-records">(.*?)</script>', html, re.S).group(1))
    strings = meta["strings"]
    for r in records:
        if r[0] == "o":
            r[5:9] = [strings[v] if isinstance(v, int) else v for v in r[5:9]]
            r[10] = strings[r[10]] if isinstance(r[10], int) else r[10]
    return records, meta


def test_report_is_self_contained_and_small(report):
    html = report.read_text(encoding="utf-8")
    assert html.startswith("<!DOCTYPE html>") and html.rstrip().endswith("</html>")
    # nothing fetched: no external scripts, styles, images or fonts
    assert not re.search(r"""<(script|link|img|iframe)[^>]*\s(src|href)\s*=""", html)
    assert "@import" not in html and "url(http" not in html
    assert "plotly" not in html.lower() and len(html.encode()) < 100_000  # the page draws itself (issue 34)
    records, meta = _data(html)
    assert sum(1 for r in records if r[0] == "o") == 13 and sum(1 for r in records if r[0] == "c") == 4
    assert [r[5] for r in records if r[0] == "o"][:2] == ["_EagerConst", "_EagerConst"] and "MatMul" in meta["strings"]
    assert [t["short"] for t in meta["tracks"]] == ["CPU:0", "GPU:0", "GPU:1", "GPU:2", "GPU:3"]
    assert meta["meta"]["sampled"] is False
    # memory: in use after every op (OpPlaced.mem_in_use), GPU:0's three allocations one after another
    gpu0 = next(t["i"] for t in meta["tracks"] if t["short"] == "GPU:0")
    in_use = [r[3] for r in records if r[0] == "m" and r[1] == gpu0]
    assert in_use[:1] == [0] and [256, 512, 768] == [v for v in in_use if v][:3]
    # the density of every op and the copies per device pair, exact
    density = meta["density"]
    assert sum(d[2] for d in density["ops"]) == 13
    assert sorted((meta["tracks"][f[0]]["short"], meta["tracks"][f[1]]["short"], f[3]) for f in density["flows"]) == \
        [("GPU:0", "CPU:0", 1), ("GPU:1", "CPU:0", 1), ("GPU:2", "CPU:0", 1), ("GPU:3", "CPU:0", 1)]


def test_report_command_escapes_script_end_in_names(tmp_path):
    trace = tmp_path / "t.jsonl"
    jsonl.write(trace, [ev.TraceStart("eager", "devtrace", "</script><b>x.py", None), ev.DeviceCreated(CPU0, "CPU"),
                        ev.OpPlaced(1, "MyOp", "</script>", "", CPU0, ev.DEFAULT, [], [1], "float32", 10)])
    out = tmp_path / "r.html"
    r = devtrace("report", str(trace), "-o", str(out))
    assert r.returncode == 0, r.stderr
    html = out.read_text(encoding="utf-8")
    assert html.count("</script>") == 3  # records, meta, the app: no name closes a script early
    assert _data(html)[1]["strings"][:2] == ["MyOp", "</script>"]


def test_the_report_needs_no_chart_library(tmp_path):
    """Where ``import plotly`` fails (the old ``viz`` extra missing), ``--html`` and ``devtrace report``
    still write the report: the page draws itself."""
    shim = tmp_path / "shim"
    (shim / "plotly").mkdir(parents=True)
    (shim / "plotly" / "__init__.py").write_text("raise ImportError('No module named plotly (test shim)')\n")
    env = {"PYTHONPATH": str(shim)}
    r = devtrace("run", program("multi_tower.py"), "--simulate", "4", "--html", str(tmp_path / "r.html"),
                 "--trace", str(tmp_path / "t.jsonl"), env=env)
    assert r.returncode == 0, r.stderr
    r = devtrace("report", str(tmp_path / "t.jsonl"), "-o", str(tmp_path / "r2.html"), env=env)
    assert r.returncode == 0, r.stderr
    assert _data((tmp_path / "r2.html").read_text(encoding="utf-8"))[1]["meta"]["ops"] == 13


def test_density_splits_long_ops_across_bins_and_stays_exact_as_bins_double():
    from devtrace.trace.density import Density

    d = Density(bins=8)
    d.op(0, 0, 3, "A")  # bins of 1: 0-3 spans three
    d.op(1, 3, 10, "B")  # past 8: the bins double to 2 wide
    d.op(0, 13, 2.5, "A")
    d.copy(0, 1, 14, 1, 4096)
    j = d.to_json()
    assert (j["width"], j["names"]) == (2.0, ["A", "B"])
    assert [o[:4] for o in j["ops"]] == [[0, 0, 1, 2.0], [0, 1, 0, 1.0], [0, 6, 1, 1.0], [0, 7, 0, 1.5],
                                         [1, 1, 1, 1.0], [1, 2, 0, 2.0], [1, 3, 0, 2.0], [1, 4, 0, 2.0], [1, 5, 0, 2.0],
                                         [1, 6, 0, 1.0]]
    assert sum(o[3] for o in j["ops"]) == 15.5 and sum(o[2] for o in j["ops"]) == 3
    assert j["flows"] == [[0, 1, 7, 1, 4096]]


def test_density_counts_every_op_past_the_sampling_point():
    import io

    events = [ev.TraceStart(), ev.DeviceCreated(CPU0, "CPU")]
    events += [ev.OpPlaced(i, "AddV2" if i % 10 else "Mul", None, "", CPU0, ev.DEFAULT, [], [1], "float32", 2000)
               for i in range(1, 5001)]
    out = io.StringIO()
    tl = render_html.write(iter(events), out, full_ops=100, sample_every=50)
    records, meta = _data(out.getvalue())
    assert tl.meta()["sampled"] and sum(1 for r in records if r[0] == "o") == 100 + 98
    density = meta["density"]
    assert sum(d[2] for d in density["ops"]) == 5000  # every op, sampled out or not
    assert abs(sum(d[3] for d in density["ops"]) - 5000 * 2000) < 1e-3  # and every op's time
    assert density["width"] * density["bins"] >= meta["clock"] == 5000 * 2000
    assert {density["names"][d[4]] for d in density["ops"]} == {"AddV2"}  # each bin's most frequent op type


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


def _attr_json(dom, element_id, attr):
    """A JSON attribute the page wrote on an element once it had drawn (what it drew, its layout)."""
    m = re.search(rf'id="{element_id}"[^>]*?\s{attr}="([^"]*)"', dom) or \
        re.search(rf'\s{attr}="([^"]*)"[^>]*?id="{element_id}"', dom)
    assert m, f"no {attr} on #{element_id}"
    return json.loads(html_lib.unescape(m.group(1)))


@pytest.mark.browser
def test_report_renders_in_headless_chromium(report, tmp_path):
    dom = _render(report, tmp_path)
    timeline = dom[dom.index('<section id="timeline"'):dom.index('id="tl-note"')]
    rows = re.findall(r'<div class="tl-row" data-row="([^"]+)"', timeline)
    assert rows == ["CPU:0", "GPU:0", "GPU:1", "GPU:2", "GPU:3"]  # one row per logical device
    legend = re.findall(r'class="legendtext"[^>]*>([^<]*)<', timeline)
    assert legend == ["_EagerConst", "MatMul", "AddN", "copy (on the destination)",
                      "copy arrow / flow: producer \u2192 consumer"]
    drawn = _attr_json(dom, "tl-plot", "data-drawn")
    # a line from each MatMul to the AddN on the CPU, each ending in an arrowhead on CPU:0's row
    assert sorted(drawn["arrows"]) == [["GPU:0", "CPU:0"], ["GPU:1", "CPU:0"], ["GPU:2", "CPU:0"], ["GPU:3", "CPU:0"]]
    flows = re.findall(r'<tr class="flow" data-src="([^"]+)" data-dst="([^"]+)" data-count="(\d+)"', timeline)
    assert sorted(flows) == [(f"GPU:{i}", "CPU:0", "1") for i in range(4)]
    charts = re.findall(r'<div class="mem-chart[^"]*" data-device="([^"]+)"', dom)
    assert charts == ["CPU:0", "GPU:0", "GPU:1", "GPU:2", "GPU:3"]
    assert dom.count("<canvas") == 6  # the timeline and five memory charts
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
    rows = re.findall(r'<div class="tl-row" data-row="([^"]+)"', dom)
    assert rows[:4] == ["CPU:0", "GPU:0", "sessions &amp; log", "Session.run"]
    legend = re.findall(r'class="legendtext"[^>]*>([^<]*)<', dom)
    assert "Session.run call" in legend and "tf.compat.v1.Session" in legend
    assert _attr_json(dom, "tl-plot", "data-drawn")["slices"]["Session.run"] == 3  # one slice per call


@pytest.mark.browser
@pytest.mark.parametrize("types", [1, 80])
def test_one_device_keeps_half_the_timeline_whatever_the_number_of_op_types(tmp_path, types):
    trace = tmp_path / "t.jsonl"
    jsonl.write(trace, [ev.TraceStart(), ev.DeviceCreated(CPU0, "CPU")] +
                [ev.OpPlaced(i, f"Op{i % types}", None, "", CPU0, ev.DEFAULT, [], [1], "float32", 1000 + i)
                 for i in range(1, 161)])
    out = tmp_path / "r.html"
    assert devtrace("report", str(trace), "-o", str(out)).returncode == 0
    dom = _render(out, tmp_path)
    layout = _attr_json(dom, "timeline", "data-layout")
    assert layout["devices"] >= 0.5 * (layout["legend"] + layout["plot"]), layout
    legend = re.findall(r'class="legendtext"[^>]*>([^<]*)<', dom)
    assert len(legend) == (1 if types == 1 else 11) and (types == 1 or legend[-1] == "other ops (70 types)")


@pytest.mark.browser
def test_a_400k_op_report_is_small_and_opens_at_once(tmp_path):
    """Issue 34: a report of a 400k-op trace (a Keras-fit-shaped one with 60 op types) is <= 3 MB and
    headless Chromium has drawn it within 3 s of navigating to it (measured on the project's 2-core
    machine with a load average of 14-18: 0.5-1.2 s, the report ~2.4 MB; the assertion allows CI
    twice the target); the legend keeps to a line or two whatever the number of op types, so the device
    rows keep at least half the timeline's height; copies are drawn as flows per device pair with
    their counts; every memory axis starts at 0."""
    trace = tmp_path / "t.jsonl"
    report_scale.write_trace(str(trace), 400_000, types=60)
    out = tmp_path / "r.html"
    r = devtrace("report", str(trace), "-o", str(out), timeout=600)
    assert r.returncode == 0, r.stderr
    assert re.search(r"400140 ops on 3 devices, (\d+) copies; sampled", r.stderr)
    size = out.stat().st_size
    assert size <= 3_000_000, size
    dom = _render(out, tmp_path)
    drawn_ms = report_scale.drawn_ms(dom)
    assert drawn_ms is not None and drawn_ms <= 6000, drawn_ms  # 3 s target: see the docstring
    layout = _attr_json(dom, "timeline", "data-layout")
    assert layout["devices"] >= 0.5 * (layout["legend"] + layout["plot"]), layout
    legend = re.findall(r'class="legendtext"[^>]*>([^<]*)<', dom)
    assert "other ops (51 types)" in legend and len(legend) <= 16  # 60 types and _Arg: the 10 most frequent, the rest
    drawn = _attr_json(dom, "tl-plot", "data-drawn")
    assert drawn["arrows"] == [] and drawn["flows"] > 0 and drawn["density"] > 0  # too many copies: flows
    meta = _data(out.read_text(encoding="utf-8"))[1]["meta"]
    flows = re.findall(r'<tr class="flow" data-src="([^"]+)" data-dst="([^"]+)" data-count="(\d+)" data-bytes="(\d+)"', dom)
    assert sorted(f[:2] for f in flows) == [("CPU:0", "GPU:0"), ("GPU:0", "CPU:0")]
    assert sum(int(f[2]) for f in flows) == meta["copies"] and sum(int(f[3]) for f in flows) == meta["copy_bytes"]
    charts = re.findall(r'<div class="mem-chart" data-device="([^"]+)" data-y-range="([^"]+)" data-y-ticks="([^"]+)"', dom)
    assert [c[0] for c in charts] == ["CPU:0", "GPU:0", "GPU:1"]
    assert all(c[1].startswith("0,") and c[2].startswith("0 B|") for c in charts)


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


@pytest.mark.browser
def test_an_op_s_hover_names_the_program_line_that_made_it(tmp_path):
    """Issue 34: the hover text of each op ends with the program's line (``from multi_tower.py:14``
    for the MatMul the guide's line 14 makes); read from the page's own hover function."""
    out = tmp_path / "r.html"
    r = devtrace("run", str(program("multi_tower.py")), "--simulate", "2", "--html", str(out))
    assert r.returncode == 0, r.stderr
    page = out.read_text(encoding="utf-8")
    page = page.replace("function opText(o) {", "window.__opText = function (o) { return opText(o); };\n"
                        "function opText(o) {", 1)
    start = page.index("var ops = []")
    end = page.index("\n", start) + 1
    page = page[:end] + "window.__ops = ops;\n" + page[end:]
    page = page.replace("</body>", '<script>document.body.setAttribute("data-hover", window.__ops.filter('
                        'function (o) { return !o.late; }).slice(0, 3).map(window.__opText).join(" || "));'
                        "</script></body>", 1)
    probe = tmp_path / "probe.html"
    probe.write_text(page, encoding="utf-8")
    hover = html_lib.unescape(re.search(r'<body[^>]*\sdata-hover="([^"]*)"', _render(probe, tmp_path)).group(1))
    lines = [h.rsplit("<br>", 1)[-1] for h in hover.split(" || ")]
    assert lines == ["from multi_tower.py:12", "from multi_tower.py:13", "from multi_tower.py:14"]
    assert hover.split(" || ")[2].startswith("<b>MatMul</b> #3 on GPU:0")
