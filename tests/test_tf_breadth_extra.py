"""tf.data.experimental's readers and helpers, tf.types.experimental, tf.experimental.dlpack and
tf.distribute's OneDeviceStrategy/option records, against TensorFlow 2.21 (the expected values
and messages were printed by the same calls under ``/work/tfvenv``'s TensorFlow 2.21, 2026-11-28)."""

import sqlite3

import pytest

import devtrace as tf


def test_csv_dataset_and_make_csv_dataset(tmp_path):
    path = tmp_path / "f.csv"
    path.write_text("a,b,c\n1,2.5,x\n3,,y\n")
    ds = tf.data.experimental.CsvDataset(str(path), [tf.int32, tf.constant([0.0]), tf.string], header=True)
    assert repr(ds.element_spec) == ("(TensorSpec(shape=(), dtype=tf.int32, name=None), TensorSpec(shape=(), "
                                     "dtype=tf.float32, name=None), TensorSpec(shape=(), dtype=tf.string, name=None))")
    assert [tuple(t.numpy() for t in row) for row in ds] == [(1, 2.5, b"x"), (3, 0.0, b"y")]
    batch = next(iter(tf.data.experimental.make_csv_dataset(str(path), batch_size=2, shuffle=False, num_epochs=1)))
    assert {k: v.numpy().tolist() for k, v in batch.items()} == {"a": [1, 3], "b": [2.5, 0.0], "c": [b"x", b"y"]}
    assert [v.dtype.name for v in batch.values()] == ["int32", "float32", "string"]


def test_sql_dataset(tmp_path):
    db = str(tmp_path / "db.sqlite")
    with sqlite3.connect(db) as c:
        c.execute("create table t (a int, b text)")
        c.execute("insert into t values (1, 'x'), (2, 'y')")
    ds = tf.data.experimental.SqlDataset("sqlite", db, "select a, b from t", (tf.int32, tf.string))
    assert [(a.numpy(), b.numpy()) for a, b in ds] == [(1, b"x"), (2, b"y")]
    with pytest.raises(tf.errors.InvalidArgumentError, match="^The database type, mysql, is not supported by "
                       "SqlDataset. The set of supported databases is: {'sqlite'}.$"):
        tf.data.experimental.SqlDataset("mysql", db, "select a from t", (tf.int32,))


def test_dataset_helpers():
    with pytest.raises(tf.errors.InvalidArgumentError, match="^Dataset was empty.$"):
        tf.data.Dataset.range(0).get_single_element()
    with pytest.raises(tf.errors.InvalidArgumentError, match="^Dataset had more than one element.$"):
        tf.data.experimental.get_single_element(tf.data.Dataset.range(2))
    reducer = tf.data.experimental.Reducer(lambda k: tf.constant(0, tf.int64), lambda s, x: s + x, lambda k, s: s)
    sums = tf.data.Dataset.range(10).apply(tf.data.experimental.group_by_reducer(lambda x: x % 2, reducer))
    assert [s.numpy() for s in sums] == [20, 25]
    assert tf.data.experimental.at(tf.data.Dataset.range(10), 3).numpy() == 3
    batches = tf.data.Dataset.range(5).apply(tf.data.experimental.map_and_batch(lambda x: x * 2, 2))
    assert [b.numpy().tolist() for b in batches] == [[0, 2], [4, 6], [8]]
    ds = tf.data.Dataset.from_tensor_slices([1., 2., 0., 4.]).map(lambda x: tf.debugging.check_numerics(1. / x, ""))
    assert list(ds.ignore_errors().as_numpy_iterator()) == [1.0, 0.5, 0.25]
    chosen = tf.data.Dataset.choose_from_datasets([tf.data.Dataset.from_tensors("a").repeat(),
                                                   tf.data.Dataset.from_tensors("b").repeat()],
                                                  tf.data.Dataset.range(2).repeat(2))
    assert [c.numpy() for c in chosen] == [b"a", b"b", b"a", b"b"]
    sampled = tf.data.Dataset.sample_from_datasets([tf.data.Dataset.range(3), tf.data.Dataset.range(3, 6)], seed=1)
    assert sorted(int(x) for x in sampled) == [0, 1, 2, 3, 4, 5]


def test_options_groups():
    options = tf.data.Options()
    assert type(options.autotune) is tf.data.experimental.AutotuneOptions and options.autotune.enabled is None
    options.threading.private_threadpool_size = 2
    assert options.merge(tf.data.Options()).threading.private_threadpool_size == 2
    assert tf.data.ThreadingOptions is tf.data.experimental.ThreadingOptions
    with pytest.raises(AttributeError, match="^Cannot set the property foo on ThreadingOptions.$"):
        options.threading.foo = 1
    assert [(m.name, m.value) for m in tf.data.experimental.AutoShardPolicy] == [
        ("OFF", -1), ("AUTO", 0), ("FILE", 1), ("DATA", 2), ("HINT", 3)]
    assert tf.data.experimental.SHARD_HINT == -1


def test_types_dlpack_and_type_spec():
    assert isinstance(tf.function(lambda x: x), tf.types.experimental.PolymorphicFunction)
    assert tf.types.experimental.GenericFunction is tf.types.experimental.PolymorphicFunction
    assert isinstance(tf.TensorSpec([1]), tf.TypeSpec)
    capsule = tf.experimental.dlpack.to_dlpack(tf.constant([1, 2]))
    assert tf.experimental.dlpack.from_dlpack(capsule).numpy().tolist() == [1, 2]


def test_one_device_strategy_and_options():
    strategy = tf.distribute.OneDeviceStrategy("/cpu:0")
    assert isinstance(strategy, tf.distribute.Strategy) and strategy.num_replicas_in_sync == 1
    assert strategy.run(lambda: tf.constant(2.0)).numpy() == 2.0
    options = tf.distribute.InputOptions()
    assert options.experimental_replication_mode is tf.distribute.InputReplicationMode.PER_WORKER
    assert options.experimental_per_replica_buffer_size == 1 and options.experimental_fetch_to_device is None
    tf.distribute.experimental_set_strategy(strategy)
    try:
        assert tf.distribute.get_strategy() is strategy
    finally:
        tf.distribute.experimental_set_strategy(None)
    assert not tf.distribute.has_strategy()


def test_forward_accumulator_jvps():
    v = tf.Variable([1., 2.])
    with tf.autodiff.ForwardAccumulator(v, tf.constant([1., 0.])) as acc:
        y = v * v
        z = tf.constant(3.)
    assert acc.jvp(y).numpy().tolist() == [2.0, 0.0]
    assert acc.jvp(z) is None
    assert acc.jvp(z, unconnected_gradients=tf.UnconnectedGradients.ZERO).numpy() == 0.0
    out = acc.jvp([y, {"a": y * 2}])  # y * 2 ran outside the accumulator: TensorFlow's None
    assert out[0].numpy().tolist() == [2.0, 0.0] and out[1] == {"a": None}
    x = tf.constant(2.)
    with tf.autodiff.ForwardAccumulator(x, tf.constant(1.)) as acc:
        s = tf.sin(x)
    assert abs(acc.jvp(s).numpy() - -0.41614684) < 1e-6


def test_io_decode_csv_compressed_sparse_feature_match_filenames(tmp_path):
    import gzip
    import zlib

    cols = tf.io.decode_csv(["1,2.5,x", "3,,y"], [[0], [0.0], ["d"]])
    assert [c.numpy().tolist() for c in cols] == [[1, 3], [2.5, 0.0], [b"x", b"y"]]
    assert [c.dtype.name for c in cols] == ["int32", "float32", "string"]
    for args, message in [((["1,2,3"], [[0], [0]]), "Expect 2 fields but have 3 in record 0"),
                          ((["a,2"], [[0], [0]]), "Field 0 in record 0 is not a valid int32: a")]:
        with pytest.raises(tf.errors.InvalidArgumentError, match=message):
            tf.io.decode_csv(*args)
    assert tf.io.decode_compressed(tf.constant([zlib.compress(b"hello")]), "ZLIB").numpy().tolist() == [b"hello"]
    assert tf.io.decode_compressed(gzip.compress(b"hi"), "GZIP").numpy() == b"hi"

    def example(ix, v):
        return tf.train.Example(features=tf.train.Features(feature={
            "ix": tf.train.Feature(int64_list=tf.train.Int64List(value=ix)),
            "v": tf.train.Feature(float_list=tf.train.FloatList(value=v))})).SerializeToString()
    parsed = tf.io.parse_example([example([3, 1], [1., 2.]), example([5], [7.])],
                                 {"sp": tf.io.SparseFeature("ix", "v", tf.float32, 10)})["sp"]
    assert parsed.indices.numpy().tolist() == [[0, 1], [0, 3], [1, 5]]
    assert parsed.values.numpy().tolist() == [2.0, 1.0, 7.0] and parsed.dense_shape.numpy().tolist() == [2, 10]
    (tmp_path / "m1.txt").write_text("")
    files = tf.io.match_filenames_once(str(tmp_path / "m*.txt"))
    assert isinstance(files, tf.Variable) and files.numpy().tolist() == [str(tmp_path / "m1.txt").encode()]


def test_one_device_strategy_plain_variables_and_the_default_strategy():
    strategy = tf.distribute.OneDeviceStrategy("/cpu:0")
    with strategy.scope():
        v = tf.Variable(1.0)
    assert repr(v) == "<tf.Variable 'Variable:0' shape=() dtype=float32, numpy=1.0>"  # TF 2.21: a plain variable
    assert repr(strategy.run(lambda x: x * 2, args=(tf.constant(3.0),))) == \
        "<tf.Tensor: shape=(), dtype=float32, numpy=6.0>"
    default = tf.distribute.get_strategy()
    assert default.reduce("SUM", tf.constant([1., 2.]), axis=0).numpy() == 3.0
    assert default.reduce("MEAN", tf.constant([1., 2.]), axis=None).numpy().tolist() == [1.0, 2.0]
    assert default.experimental_distribute_values_from_function(lambda ctx: ctx.replica_id_in_sync_group) == 0
    assert default.extended.variable_created_in_scope(tf.Variable(1.0))
    with pytest.raises(RuntimeError, match=r"^worker_devices\(\) method unsupported by default tf.distribute.Strategy.$"):
        default.extended.worker_devices
    batches = default.experimental_distribute_dataset(tf.data.Dataset.range(4).batch(2))
    assert [b.numpy().tolist() for b in batches] == [[0, 1], [2, 3]]


def test_pad_to_cardinality():
    ds = tf.data.Dataset.from_tensor_slices({"a": [1, 2]}).apply(tf.data.experimental.pad_to_cardinality(3))
    assert [(int(e["a"]), bool(e["valid"])) for e in ds.as_numpy_iterator()] == [(1, True), (2, True), (0, False)]
    assert ds.cardinality().numpy() == 3
    with pytest.raises(ValueError, match="^`pad_to_cardinality` requires its input dataset to be a dictionary.$"):
        tf.data.Dataset.range(3).apply(tf.data.experimental.pad_to_cardinality(5))
    with pytest.raises(ValueError, match=r"must have a cardinalty less than the target cardinality \(2\), but has "
                                         r"cardinality 3$"):
        tf.data.Dataset.from_tensor_slices({"a": [1, 2, 3]}).apply(tf.data.experimental.pad_to_cardinality(2))


def test_data_experimental_tfrecord_writer(tmp_path):
    path = str(tmp_path / "r.tfrecord")
    tf.data.experimental.TFRecordWriter(path).write(tf.data.Dataset.from_tensor_slices([b"a", b"bc"]))
    assert [r.numpy() for r in tf.data.TFRecordDataset(path)] == [b"a", b"bc"]
