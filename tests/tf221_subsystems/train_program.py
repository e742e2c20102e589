"""The tf.train cases both sides run (``tf``: TensorFlow or devtrace; ``error``: ``[class name,
message]`` of what a call raises; paths relative to ``tmp``)."""

import os
import threading


def cases(tf, error, tmp):
    class M(tf.Module):
        def __init__(self):
            super().__init__()
            self.a = tf.Variable(5.0)
            self.vs = [tf.Variable([1, 2])]

    m = M()
    m.leaf = M()
    ckpt = tf.train.Checkpoint(model=m)
    path = ckpt.save(os.path.join(tmp, "ck", "c"))
    rooted = tf.train.Checkpoint(root=m).save(os.path.join(tmp, "ck2", "c"))
    reader = tf.train.load_checkpoint(os.path.join(tmp, "ck"))
    state = tf.train.get_checkpoint_state(os.path.join(tmp, "ck"))
    status = ckpt.restore(None)
    calls = []
    manager = tf.train.CheckpointManager(ckpt, os.path.join(tmp, "mgr"), max_to_keep=2, init_fn=lambda: calls.append(1))
    first = manager.restore_or_initialize()
    manager.save()
    second = manager.restore_or_initialize() == manager.latest_checkpoint
    cluster = tf.train.ClusterSpec({"worker": ["a:1", "b:2"], "ps": ["c:3"]})
    sparse = tf.train.ClusterSpec({"worker": {1: "b:2", 3: "d:4"}})
    v = tf.Variable(1.0, name="w")
    ema = tf.train.ExponentialMovingAverage(0.9)
    ema.apply([v])
    first_average = float(ema.average(v).numpy())
    v.assign(2.0)
    ema.apply([v])
    counted = tf.train.ExponentialMovingAverage(0.99, num_updates=tf.Variable(0))
    u = tf.Variable(3.0)
    counted.apply([u])
    u.assign(5.0)
    counted.apply([u])
    seq = tf.train.SequenceExample(
        context=tf.train.Features(feature={"id": tf.train.Feature(int64_list=tf.train.Int64List(value=[7]))}),
        feature_lists=tf.train.FeatureLists(feature_list={"tokens": tf.train.FeatureList(feature=[
            tf.train.Feature(bytes_list=tf.train.BytesList(value=[b"a"])),
            tf.train.Feature(float_list=tf.train.FloatList(value=[0.5, 1.5]))])}))
    coord = tf.train.Coordinator()

    def worker():
        with coord.stop_on_exception():
            raise RuntimeError("boom")

    thread = threading.Thread(target=worker)
    thread.start()
    joined = error(lambda: coord.join([thread]))  # the worker's exception, raised by join
    view = tf.train.CheckpointView(rooted)
    other = M()
    other.leaf2 = M()
    matched, only_checkpoint, only_obj = view.diff(other)
    view_cases = [view.children(0), view.descendants(), sorted(view.match(other)), sorted(matched),
                  only_checkpoint, len(only_obj), tf.train.CheckpointView(path).children(0)]
    return {
        "checkpoint_view": view_cases,
        "save_path": os.path.relpath(path, tmp),
        "list_variables": [[k, list(s)] for k, s in tf.train.list_variables(os.path.join(tmp, "ck"))],
        "list_variables_root": [[k, list(s)] for k, s in tf.train.list_variables(rooted)],
        "dtypes": {k: d.name for k, d in reader.get_variable_to_dtype_map().items()},
        "get_tensor": repr(reader.get_tensor("model/a/.ATTRIBUTES/VARIABLE_VALUE")),
        "has_tensor": [reader.has_tensor("model/a/.ATTRIBUTES/VARIABLE_VALUE"), reader.has_tensor("x")],
        "load_variable": tf.train.load_variable(os.path.join(tmp, "ck"), "model/vs/0/.ATTRIBUTES/VARIABLE_VALUE")
        .tolist(),
        "missing_key": error(lambda: reader.get_tensor("x")),
        "missing_checkpoint": error(lambda: tf.train.load_checkpoint(os.path.join(tmp, "nope")))[0],
        "state": str(state).replace(tmp, "TMP"),
        "state_missing": repr(tf.train.get_checkpoint_state(os.path.join(tmp, "nope"))),
        "iterator": [os.path.relpath(p, tmp) for p in tf.train.checkpoints_iterator(os.path.join(tmp, "ck"),
                                                                                     timeout=0.1)],
        "restore_none": [type(status).__name__, error(status.assert_consumed),
                         error(status.assert_existing_objects_matched), status.expect_partial() is status],
        "restore_or_initialize": [first, second, calls],
        "cluster": [repr(cluster), cluster.jobs, cluster.num_tasks("worker"), cluster.task_address("worker", 1),
                    cluster.as_dict(), cluster.task_indices("ps"), str(cluster.as_cluster_def()),
                    error(lambda: cluster.task_address("ps", 5)), error(lambda: cluster.num_tasks("x")),
                    repr(sparse), sparse.as_dict(), sparse.job_tasks("worker"), bool(tf.train.ClusterSpec({})),
                    tf.train.ClusterSpec(cluster.as_cluster_def()).as_dict()],
        "server_def": str(tf.train.ServerDef(cluster=cluster.as_cluster_def(), job_name="worker", task_index=1,
                                             protocol="grpc")),
        "ema": [first_average, float(ema.average(v).numpy()), ema.average_name(v), ema.name,
                float(counted.average(u).numpy()), repr(ema.average(tf.Variable(9.0)))],
        "sequence_example": seq.SerializeToString().hex(),
        "sequence_example_text": str(seq),
        "trackable_children": list(tf.train.TrackableView(m).children(m)),
        "trackable_descendants": len(tf.train.TrackableView(m).descendants()),
        "coordinator": [coord.should_stop(), joined, coord.joined],
        "sharding": [tf.train.experimental.ShardByTaskPolicy().description,
                     tf.train.experimental.MaxShardSizePolicy(10).description],
    }
