"""tf.Module tracking and tf.train.Checkpoint round trips (values against TensorFlow: tests/tf221
module_*.py)."""

import json
import os

import numpy as np
import pytest

import devtrace as tf
from devtrace.runtime.context import reset_context


@pytest.fixture(autouse=True)
def fresh():
    reset_context()


def test_round_trip_is_exact_for_every_dtype(tmp_path):
    values = {"h": np.array([1.5, -2.25], np.float16), "d": np.array([[1e-300]], np.float64),
              "i": np.array([2**40], np.int64), "b": np.array([True, False])}
    variables = {k: tf.Variable(v) for k, v in values.items()}
    ck = tf.train.Checkpoint(**variables)
    path = ck.save(tmp_path / "ck")
    for v in variables.values():
        v.assign(np.zeros_like(v.numpy()))
    status = ck.restore(path)
    status.assert_consumed()
    for k, v in variables.items():
        got = v.numpy()
        assert got.dtype == values[k].dtype and got.tobytes() == values[k].tobytes()
    index = json.loads((tmp_path / "ck-1.index").read_text())
    assert index["format"] == "devtrace-checkpoint" and index["variables"]["h"] == {"dtype": "float16", "shape": [2],
                                                                                  "name": "Variable"}


def test_restore_reports_what_did_not_match(tmp_path):
    a = tf.Variable(1.0)
    path = tf.train.Checkpoint(a=a).write(str(tmp_path / "one"))
    status = tf.train.Checkpoint(b=tf.Variable(2.0)).restore(path)
    with pytest.raises(AssertionError) as e:  # TensorFlow 2.21's text: the Python objects first
        status.assert_consumed()
    assert str(e.value) == (
        "Found 2 Python objects that were not bound to checkpointed values, likely due to changes in the Python "
        "program. Showing 2 of 2 unmatched objects: [<tf.Variable 'Variable:0' shape=() dtype=float32, numpy=2.0>, "
        "<tf.Variable 'save_counter:0' shape=() dtype=int64, numpy=0>]")
    status.expect_partial()
    saved = tf.train.Checkpoint(a=a, step=tf.Variable(3, dtype=tf.int64)).save(str(tmp_path / "two"))
    partial = tf.train.Checkpoint(step=tf.Variable(0, dtype=tf.int64)).restore(saved)
    partial.assert_existing_objects_matched()
    with pytest.raises(AssertionError) as e:  # then the first saved value no object took
        partial.assert_consumed()
    assert str(e.value) == ('Unresolved object in checkpoint (root).a: attributes {\n  name: "VARIABLE_VALUE"\n'
                            '  full_name: "Variable"\n  checkpoint_key: "a/.ATTRIBUTES/VARIABLE_VALUE"\n}\n'
                            'has_checkpoint_values {\n  value: true\n}\n')


def test_no_temporary_files_are_left(tmp_path):
    tf.train.Checkpoint(v=tf.Variable([1.0])).save(tmp_path / "x")
    assert sorted(os.listdir(tmp_path)) == ["checkpoint", "x-1.data-00000-of-00001", "x-1.index"]


def test_module_tracks_nested_structures_once():
    class Inner(tf.Module):
        def __init__(self):
            super().__init__()
            self.v = tf.Variable(1.0, name="v")

    class Outer(tf.Module):
        def __init__(self):
            super().__init__()
            self.inner = Inner()
            self.same = self.inner  # the same module twice: tracked once
            self.table = {"z": tf.Variable(3.0, name="z"), "a": [tf.Variable(2.0, name="a")]}

    m = Outer()
    assert [v.name for v in m.variables] == ["a:0", "z:0", "v:0"]
    assert m.submodules == (m.inner,)


def test_module_names_and_scopes():
    class MyDense(tf.Module):
        @tf.Module.with_name_scope
        def make(self):
            return tf.Variable(0.0, name="kernel")

    d = MyDense()
    assert d.name == "my_dense" and d.make().name == "my_dense/kernel:0"
    with pytest.raises(ValueError, match="^'1x' is not a valid module name"):
        tf.Module(name="1x")


# Keys and restores of Keras objects and deferred restoration, against TensorFlow 2.21 (tensorflow-cpu 2.21.0,
# Keras 3.15.1, /work/tfvenv: the guide checkpoint.ipynb's Net, an Adam step, tf.train.list_variables of the save).
KERAS_KEYS_TF221 = [
    "_CHECKPOINTABLE_OBJECT_GRAPH", "net/l1/_kernel/.ATTRIBUTES/VARIABLE_VALUE", "net/l1/bias/.ATTRIBUTES/VARIABLE_VALUE",
    "optimizer/_iterations/.ATTRIBUTES/VARIABLE_VALUE", "optimizer/_learning_rate/.ATTRIBUTES/VARIABLE_VALUE",
    "optimizer/_variables/2/.ATTRIBUTES/VARIABLE_VALUE", "optimizer/_variables/3/.ATTRIBUTES/VARIABLE_VALUE",
    "optimizer/_variables/4/.ATTRIBUTES/VARIABLE_VALUE", "optimizer/_variables/5/.ATTRIBUTES/VARIABLE_VALUE",
    "save_counter/.ATTRIBUTES/VARIABLE_VALUE", "step/.ATTRIBUTES/VARIABLE_VALUE"]
SEQUENTIAL_KEYS_TF221 = ["_CHECKPOINTABLE_OBJECT_GRAPH", "m/_functional/_operations/1/_kernel/.ATTRIBUTES/VARIABLE_VALUE",
                         "m/_functional/_operations/1/bias/.ATTRIBUTES/VARIABLE_VALUE",
                         "save_counter/.ATTRIBUTES/VARIABLE_VALUE"]


class CheckpointNet(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.l1 = tf.keras.layers.Dense(5)

    def call(self, x):
        return self.l1(x)


def _train_step(net, opt):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(net(tf.constant([[0.0], [1.0]])))
    opt.apply_gradients(zip(tape.gradient(loss, net.trainable_variables), net.trainable_variables))


def test_keras_objects_are_saved_under_keras_names_and_restored_into_a_fake_tree(tmp_path):
    tf.keras.backend.clear_session()  # layer names count from the start, as in the probe's new process
    net, opt = CheckpointNet(), tf.keras.optimizers.Adam(0.1)
    _train_step(net, opt)
    path = tf.train.Checkpoint(step=tf.Variable(1), optimizer=opt, net=net).save(str(tmp_path / "c"))
    assert [k for k, _ in tf.train.list_variables(path)] == KERAS_KEYS_TF221
    seq = tf.keras.Sequential([tf.keras.layers.Dense(2)])
    seq.build((None, 3))  # builds the layers in the model's scope, as Keras's
    assert [w.path for w in seq.weights] == ["sequential/dense_1/kernel", "sequential/dense_1/bias"]
    seq_path = tf.train.Checkpoint(m=seq).save(str(tmp_path / "s"))
    assert [k for k, _ in tf.train.list_variables(seq_path)] == SEQUENTIAL_KEYS_TF221
    bias = tf.Variable(tf.zeros([5]))
    status = tf.train.Checkpoint(net=tf.train.Checkpoint(l1=tf.train.Checkpoint(bias=bias))).restore(path)
    status.assert_existing_objects_matched()  # TF: passes; the bias is the trained one
    np.testing.assert_array_equal(bias.numpy(), net.l1.bias.numpy())


def test_restore_before_build_restores_layers_and_slots_when_made_and_the_save_counter(tmp_path):
    net, opt = CheckpointNet(), tf.keras.optimizers.Adam(0.1)
    _train_step(net, opt)
    ck = tf.train.Checkpoint(optimizer=opt, net=net)
    ck.save(str(tmp_path / "c"))
    path = ck.save(str(tmp_path / "c"))
    net2, opt2 = CheckpointNet(), tf.keras.optimizers.Adam(0.1)
    ck2 = tf.train.Checkpoint(optimizer=opt2, net=net2)
    ck2.restore(path)  # net2 has no variables yet: they are restored when it builds, the slots when made
    net2(tf.constant([[0.0]]))
    np.testing.assert_array_equal(net2.l1.kernel.numpy(), net.l1.kernel.numpy())
    _train_step(net, opt), _train_step(net2, opt2)
    np.testing.assert_array_equal(net2.l1.kernel.numpy(), net.l1.kernel.numpy())
    assert ck2.save(str(tmp_path / "c")).endswith("c-3")  # TF: numbering goes on from the restored counter


def test_lists_and_dicts_on_a_checkpoint_restore_by_any_path_and_when_appended(tmp_path):
    # guide checkpoint.ipynb: TF 2.21 prints ListWrapper([]) and both asserts hold
    save = tf.train.Checkpoint()
    save.listed = [tf.Variable(1.)]
    save.listed.append(tf.Variable(2.))
    save.mapped = {"one": save.listed[0]}
    save.mapped["two"] = save.listed[1]
    save_path = save.save(str(tmp_path / "tf_list_example"))
    restore = tf.train.Checkpoint()
    v2 = tf.Variable(0.)
    restore.mapped = {"two": v2}
    restore.restore(save_path)
    assert v2.numpy() == 2.
    restore.listed = []
    assert repr(restore.listed) == "ListWrapper([])"
    v1 = tf.Variable(0.)
    restore.listed.append(v1)
    assert v1.numpy() == 1.


def test_an_iterators_state_has_tensorflows_key_and_restores(tmp_path):
    # TF 2.21 (guide checkpoint.ipynb, sorted keys of load_checkpoint): 'iterator/.ATTRIBUTES/ITERATOR_STATE'
    it = iter(tf.data.Dataset.range(10))
    next(it), next(it)
    ck = tf.train.Checkpoint(iterator=it)
    path = ck.save(str(tmp_path / "c"))
    assert sorted(tf.train.load_checkpoint(path).get_variable_to_shape_map()) == [
        "_CHECKPOINTABLE_OBJECT_GRAPH", "iterator/.ATTRIBUTES/ITERATOR_STATE", "save_counter/.ATTRIBUTES/VARIABLE_VALUE"]
    next(it)
    ck.restore(path)
    assert int(next(it)) == 2


def test_default_reprs_are_tensorflows(tmp_path):
    # what TF 2.21 shows for values without a repr of their own (guide checkpoint.ipynb displays a load status)
    import re

    def shown(x):
        return re.sub(r"0x[0-9a-f]+", "0x..", repr(x))

    ck = tf.train.Checkpoint(v=tf.Variable(1.0))
    path = ck.save(str(tmp_path / "c"))
    assert shown(ck) == "<tensorflow.python.checkpoint.checkpoint.Checkpoint object at 0x..>"
    assert shown(ck.restore(path)) == "<tensorflow.python.checkpoint.checkpoint.CheckpointLoadStatus object at 0x..>"
    assert shown(ck.restore(None)) == "<tensorflow.python.checkpoint.checkpoint.InitializationOnlyStatus object at 0x..>"
    assert shown(tf.train.CheckpointManager(ck, str(tmp_path / "m"), 2)) == \
        "<tensorflow.python.checkpoint.checkpoint_management.CheckpointManager object at 0x..>"
    assert shown(tf.Module()) == "<tensorflow.python.module.module.Module object at 0x..>"
    assert shown(tf.function(lambda x: x)) == \
        "<tensorflow.python.eager.polymorphic_function.polymorphic_function.Function object at 0x..>"
    assert shown(tf.distribute.get_strategy()) == \
        "<tensorflow.python.distribute.distribute_lib._DefaultDistributionStrategy object at 0x..>"
    assert shown(tf.data.Options()) == "<tensorflow.python.data.ops.options.Options object at 0x..>"

    class Mine(tf.Module):
        pass
    assert shown(Mine()).startswith("<test_module_checkpoint.")  # a subclass keeps Python's repr, as with TF
