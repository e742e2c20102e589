# Issue 13 area 4: tf.DeviceSpec parsing (TensorFlow's Python parser), reprs, errors; compat.v1.DeviceSpec.
import tensorflow as tf
import sys


def cell(label, f):
    """One cell: a '--- label' marker on stdout and stderr, then the result or the error."""
    print(f"--- {label}", flush=True)
    print(f"--- {label}", file=sys.stderr, flush=True)
    try:
        r = f()
        if r is not None:
            print(r, flush=True)
    except Exception as e:
        print(type(e).__name__, e, flush=True)


def parse(s):
    d = tf.DeviceSpec.from_string(s)
    return f"{d.to_string()!r} job={d.job!r} replica={d.replica!r} task={d.task!r} type={d.device_type!r} index={d.device_index!r}"


for s in ["/cpu:0", "CPU:0", "cpu:0", "/Cpu:0", "cpu", "/gpu", "GPU:1", "/device:GPU:1", "/device:Cpu:0",
          "/device:cpu:0", "/device:CPU:*", "/GPU:*", "/job:worker", "/job:worker/replica:1/task:2/device:GPU:3",
          "/job:w/job:v", "/job:worker/task:+1", "/task: 2 ", "/replica:01", "/GPU:01", "/TPU:0", "/device:XLA_CPU:0",
          "/job:my-job_1", "/job:1", "/GPU:-1", "", "/", "//cpu:0", "/job:localhost/replica:0/task:0/device:CPU:0",
          "/cpu:0/gpu:1", "/foo:bar", "/job:worker/task:x", "/replica:*", "/task:*", "/device:CPU", "/device:GPU",
          "/device:CPU:x", "/CPU:0:1", "job:worker", "/job:", "/cpu:*", "GPU", "/device:foo:0", "/foo", "/job:a/b",
          "/job:worker/replica:0/task:0/device:GPU:0/extra:1", "/JOB:worker", "cpu:0:", "/gpu:0 "]:
    cell(f"parse {s!r}", lambda s=s: parse(s))
cell("repr", lambda: repr(tf.DeviceSpec(job="w", device_type="GPU", device_index=1)))
cell("str", lambda: str(tf.DeviceSpec(job="w", device_type="GPU", device_index=1)))
cell("constructor lowercase type", lambda: tf.DeviceSpec(device_type="gpu", device_index=0).to_string())
cell("constructor replica str", lambda: tf.DeviceSpec(replica="1").to_string())
cell("constructor replica bad (error)", lambda: tf.DeviceSpec(replica="x").to_string())
cell("constructor index str (error?)", lambda: tf.DeviceSpec(device_type="CPU", device_index="0").to_string())
cell("make_merged_spec", lambda: tf.DeviceSpec(job="a", device_type="CPU").make_merged_spec(tf.DeviceSpec(device_type="GPU", device_index=2)).to_string())
cell("replace", lambda: tf.DeviceSpec.from_string("/job:a/device:GPU:0").replace(device_index=5, job="b").to_string())
cell("equality and hash", lambda: (tf.DeviceSpec.from_string("/cpu:0") == tf.DeviceSpec(device_type="CPU", device_index=0), hash(tf.DeviceSpec.from_string("/cpu:0")) == hash(tf.DeviceSpec(device_type="CPU", device_index=0))))
cell("immutable (error)", lambda: setattr(tf.DeviceSpec(), "job", "x"))
cell("from_string bad type (error)", lambda: tf.DeviceSpec.from_string(5))
cell("compat.v1.DeviceSpec", lambda: type(tf.compat.v1.DeviceSpec.from_string("/cpu:0")).__name__)
cell("compat.v1.DeviceSpec mutable", lambda: (lambda d: (setattr(d, "job", "x"), d.to_string())[1])(tf.compat.v1.DeviceSpec.from_string("/cpu:0")))
cell("compat.v1 parse_from_string", lambda: (lambda d: (d.parse_from_string("/job:a/gpu:1"), d.to_string())[1])(tf.compat.v1.DeviceSpec()))
cell("compat.v1 merge_from", lambda: (lambda d: (d.merge_from(tf.compat.v1.DeviceSpec(job="z")), d.to_string())[1])(tf.compat.v1.DeviceSpec.from_string("/cpu:0")))
cell("v2 has no parse_from_string", lambda: hasattr(tf.DeviceSpec(), "parse_from_string"))
cell("device from spec string", lambda: tf.DeviceSpec.from_string("/device:GPU:0").device_type)
