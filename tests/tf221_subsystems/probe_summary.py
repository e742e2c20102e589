"""Run under TensorFlow 2.21 with TensorBoard 2.20 on PYTHONPATH (README), in this directory:
writes ``summary.json``: the records of the event file TensorFlow's tf.summary writes for
``summary_program.write_all`` (hex) and TensorFlow's text of each Event, the values and errors
the API returns, and TensorFlow's reading of ``devtrace_events.v2`` (the file devtrace wrote for
the same program: ``python -c "import devtrace as tf, summary_program as p; p.write_all(tf, 'ev')"``,
its one file renamed)."""

import json
import pathlib
import shutil

import tensorflow as tf

from summary_program import write_all

HERE = pathlib.Path(__file__).parent
LOGDIR = HERE / "events"
shutil.rmtree(LOGDIR, ignore_errors=True)
out = {}


def error(fn):
    try:
        fn()
    except Exception as e:  # noqa: BLE001
        return [type(e).__name__, str(e)]
    return None


out["no_writer"] = [bool(tf.summary.scalar("x", 1.0, step=1)), bool(tf.summary.should_record_summaries())]
out["get_step_none"] = repr(tf.summary.experimental.get_step())
writer = tf.summary.create_file_writer(str(LOGDIR))
with writer.as_default():
    out["no_step"] = error(lambda: tf.summary.scalar("x", 1.0))
with writer.as_default(step=3):
    out["get_step_default"] = int(tf.summary.experimental.get_step())
    out["should_record"] = bool(tf.summary.should_record_summaries())
    out["scalar"] = bool(tf.summary.scalar("loss", 0.5, step=1))
    with tf.summary.record_if(False):
        out["record_if_false"] = [bool(tf.summary.scalar("never", 1.0)),
                                  bool(tf.summary.should_record_summaries())]
    tf.summary.experimental.set_step(11)
    out["set_step_inside"] = int(tf.summary.experimental.get_step())
    with tf.summary.experimental.summary_scope("my scope!", "default") as (tag, scope):
        out["summary_scope"] = [tag, scope]
writer.close()
shutil.rmtree(LOGDIR)
write_all(tf, LOGDIR)
out["after_set_step"] = repr(tf.summary.experimental.get_step())
tf.summary.experimental.set_step(None)
out["trace_export_off"] = error(lambda: tf.summary.trace_export("t", step=0))
out["noop"] = type(tf.summary.create_noop_writer()).__name__
out["flush_none"] = repr(tf.summary.flush())

(path,) = LOGDIR.iterdir()
out["filename_parts"] = path.name.split(".")[:3] + [path.name.split(".")[-1]]
records = list(tf.compat.v1.io.tf_record_iterator(str(path)))
out["records"] = [r.hex() for r in records]
out["events"] = [str(tf.compat.v1.Event.FromString(r)) for r in records]
# what TensorFlow reads from the file devtrace wrote (devtrace_events.v2, written by the same program)
out["read_devtrace"] = [str(e).replace(f"wall_time: {e.wall_time!r}", "wall_time: W")
                        for e in tf.compat.v1.train.summary_iterator(str(HERE / "devtrace_events.v2"))]
(HERE / "summary.json").write_text(json.dumps(out, indent=1, sort_keys=True) + "\n")
