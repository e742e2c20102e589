"""Tried as a hostile user would: the catalogue in ``hostile/catalogue.py`` (≥ 150 bad inputs) runs
clean — the exit code the README names, one ``Error:`` line naming the source for bad input, no
traceback through devtrace's own code, and no file damaged (issue 16)."""

import os
import sys

import pytest

from conftest import devtrace

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "hostile"))
import catalogue  # noqa: E402

CASES = catalogue.cases()
GOOD_TRACE = None


def test_the_catalogue_has_at_least_150_cases():
    assert len(CASES) >= 150 and len({c[0] for c in CASES}) == len(CASES)


@pytest.fixture(scope="module")
def scratch(tmp_path_factory):
    d = tmp_path_factory.mktemp("hostile")
    for name, text in catalogue.FILES.items():
        (d / name).write_bytes(text.encode("utf-8", "surrogateescape") if name != "latin1.jsonl"
                               else b"\xe9\xe8\n")
    r = devtrace("run", str(d / "prog.py"), "--trace", str(d / "good.jsonl"))
    assert r.returncode == 0, r.stderr
    return d


def _files(d):
    return {p.name: p.read_bytes() for p in d.iterdir() if p.is_file() and p.name not in ("out.json", "x.txt")}


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_bad_input_runs_clean(case, scratch):
    _, argv, env, code = case
    subst = {"{dir}": str(scratch), "{prog}": str(scratch / "prog.py"), "{trace}": str(scratch / "good.jsonl")}

    def fill(text):
        for k, v in subst.items():
            text = text.replace(k, v)
        return text

    before = _files(scratch)
    r = devtrace(*[fill(a) for a in argv], env={k: fill(v) for k, v in env.items()}, cwd=str(scratch))
    assert r.returncode == code, (r.returncode, r.stderr[-2000:])
    own_frames = [line for line in r.stderr.splitlines()
                  if line.strip().startswith("File ") and f"{os.sep}devtrace{os.sep}" in line]
    assert own_frames == [], r.stderr[-3000:]
    if code == 2:
        last = r.stderr.strip().splitlines()[-1]
        assert last.startswith("Error: "), r.stderr
        assert "\x1b" not in r.stderr
    assert _files(scratch) == before  # nothing damaged, nothing clobbered
