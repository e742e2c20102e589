"""tf.distribute's parameter-server names and the rest of tf.distribute.experimental, against
TensorFlow 2.21: the expected values and error texts were printed by TensorFlow 2.21
(tensorflow-cpu in a separate venv) running the same calls (its ParameterServerStrategy with a
valid cluster waits to connect to it, and its Server starts a gRPC server: there devtrace says in
one line what it lacks)."""

from __future__ import annotations

import pytest

import devtrace as tf

E = tf.distribute.experimental
R = tf.distribute.cluster_resolver


def test_parameter_server_strategy_checks_the_cluster_as_tensorflow():
    assert E.ParameterServerStrategy is tf.distribute.ParameterServerStrategy
    with pytest.raises(TypeError, match="missing 1 required positional argument: 'cluster_resolver'"):
        tf.distribute.ParameterServerStrategy()
    with pytest.raises(ValueError, match=r"^Cluster spec must be non-empty in `tf\.distribute\.cluster_resolver\."
                                         r"ClusterResolver`\.$"):
        tf.distribute.ParameterServerStrategy(R.TFConfigClusterResolver())
    with pytest.raises(ValueError, match="^There must be at least one ps.$"):
        tf.distribute.ParameterServerStrategy(R.SimpleClusterResolver(tf.train.ClusterSpec({"worker": ["h:1"]})))
    with pytest.raises(AttributeError, match="'str' object has no attribute 'cluster_spec'"):
        tf.distribute.ParameterServerStrategy("notaresolver")
    both = R.SimpleClusterResolver(tf.train.ClusterSpec({"worker": ["h:1"], "ps": ["h:2"]}))
    with pytest.raises(NotImplementedError, match="^devtrace does not implement tf.distribute.ParameterServerStrategy"):
        tf.distribute.ParameterServerStrategy(both)


def test_server_checks_its_server_def_then_says_devtrace_lacks_it():
    with pytest.raises(TypeError, match=r"^Could not convert `server_or_cluster_def` to a `tf\.train\.ServerDef` or "):
        tf.distribute.Server("x", start=False)
    with pytest.raises(ValueError, match="^Must specify an explicit `job_name`.$"):
        tf.distribute.Server(tf.train.ClusterSpec({"worker": ["h:1"], "ps": ["h:2"]}), start=False)
    with pytest.raises(ValueError, match="^Must specify an explicit `task_index`.$"):
        tf.distribute.Server({"worker": ["h:1", "h:2"]}, start=False)
    with pytest.raises(NotImplementedError, match="^devtrace does not implement tf.distribute.Server yet"):
        tf.distribute.Server({"worker": ["localhost:2222"]}, start=False)


def test_partitioners_as_tensorflow():
    P = E.partitioners
    assert P.FixedShardsPartitioner(num_shards=2)(tf.TensorShape([10, 3]), tf.float32) == [2, 1]
    assert P.FixedShardsPartitioner(num_shards=2)(tf.TensorShape([10, 3]), tf.float32, axis=1) == [1, 2]
    assert P.MinSizePartitioner(min_shard_bytes=4, max_shards=2)(tf.TensorShape([6, 1]), tf.float32) == [2, 1]
    assert P.MinSizePartitioner(min_shard_bytes=256 << 10, max_shards=2)(tf.TensorShape([6, 1]), tf.float32) == [1, 1]
    assert P.MaxSizePartitioner(max_shard_bytes=4, max_shards=2)(tf.TensorShape([6, 1]), tf.float32) == [2, 1]
    assert P.MaxSizePartitioner(max_shard_bytes=8)(tf.TensorShape([6, 2]), tf.float32) == [6, 1]
    for make, text in [(lambda: P.MaxSizePartitioner(max_shard_bytes=0), "`max_shard_bytes` must be positive. Received 0"),
                       (lambda: P.MinSizePartitioner(min_shard_bytes=0), "`min_shard_bytes` must be positive. Received: 0"),
                       (lambda: P.MinSizePartitioner(max_shards=0), "`max_shards` must be positive. Received: 0")]:
        with pytest.raises(ValueError, match=f"^Argument {text}$"):
            make()


def test_coordinator_and_option_records():
    assert tf.distribute.coordinator.ClusterCoordinator is E.coordinator.ClusterCoordinator
    assert tf.distribute.coordinator.PerWorkerValue is E.coordinator.PerWorkerValues
    with pytest.raises(AttributeError, match="^'MirroredStrategy' object has no attribute '_cluster_coordinator'$"):
        E.coordinator.ClusterCoordinator(tf.distribute.MirroredStrategy())
    with pytest.raises(RuntimeError, match="^Cannot retrieve the worker index."):
        tf.distribute.coordinator.experimental_get_current_worker_index()
    with pytest.raises(AssertionError, match="^`PerWorkerValues` should only take `RemoteValue`s.$"):
        E.coordinator.PerWorkerValues((1, 2))
    hints = E.CollectiveHints(bytes_per_pack=4)
    assert isinstance(hints, E.CommunicationOptions) and (hints.bytes_per_pack, hints.timeout_seconds) == (4, None)
    assert vars(E.TerminationConfig(grace_period=5)) == {
        "termination_watcher_fn": None, "exit_fn": None, "grace_period": 5, "save_fn": None}


def test_the_rest_of_tf_distribute_experimental():
    with pytest.raises(ValueError, match="^Please provide a TPU Name to connect to.$"):
        E.TPUStrategy()
    assert E.PreemptionWatcher().preemption_message is None
    with pytest.raises(NotImplementedError, match=r"^devtrace does not implement tf\.distribute\.experimental\.rpc\."
                                                  r"Server\.create yet"):
        E.rpc.Server.create("grpc", "localhost:0")
    tensorflows = ["CentralStorageStrategy", "CollectiveCommunication", "CollectiveHints", "CommunicationImplementation",
                   "CommunicationOptions", "MultiWorkerMirroredStrategy", "ParameterServerStrategy",
                   "PreemptionCheckpointHandler", "PreemptionWatcher", "TPUStrategy", "TerminationConfig",
                   "ValueContext", "coordinator", "partitioners", "rpc"]  # dir(tf.distribute.experimental), TF 2.21
    assert [n for n in tensorflows if not hasattr(E, n)] == ["PreemptionCheckpointHandler"]
