"""fit's input batches on a GPU: made on the host (TensorFlow's tf.data iterator is on the CPU) and
copied host→GPU by the train step, once per tensor per step — the only copies TensorFlow makes."""

import json

from conftest import devtrace, program


def _events(tmp_path, *args):
    trace = tmp_path / "t.jsonl"
    r = devtrace("run", program("keras_fit_batches.py"), "--simulate", "1", "--trace", str(trace), *args)
    assert r.returncode == 0, r.stderr
    return [json.loads(line) for line in trace.read_text().splitlines()]


def test_each_step_copies_its_batch_to_the_gpu_once(tmp_path):
    events = _events(tmp_path)
    copies = [e for e in events if e["event"] == "tensor_copied"]
    steps = 2 * 64 // 16
    assert len(copies) == 2 * steps  # x and y, each once a step
    assert {(e["src"][-5:], e["dst"][-5:]) for e in copies} == {("CPU:0", "GPU:0")}
    assert sorted({e["nbytes"] for e in copies}) == [16 * 1 * 4, 16 * 4 * 4]
    host = [e["op"] for e in events if e["event"] == "op_placed" and e["device"].endswith("CPU:0")]
    # on the host: the step's calls and the _Arg nodes of x and y (a NumPy batch made on the CPU runs no op)
    assert sorted(set(host)) == ["_Arg", "__inference_multi_step_on_iterator_1"]
    assert host.count("_Arg") == 2 and host.count("__inference_multi_step_on_iterator_1") == steps


def test_no_fallbacks_in_a_fit(tmp_path):
    r = devtrace("run", program("keras_fit_batches.py"), "--simulate", "1", "--no-fallback", "--max-copies",
                 str(2 * 2 * 64 // 16))
    assert r.returncode == 0, r.stderr
