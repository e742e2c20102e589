"""tf.experimental.ExtensionType, BatchableExtensionType, their Specs, and type-based dispatch
(dispatch_for_api, the elementwise dispatchers, unregister_dispatch_for), against TensorFlow 2.21.

The expected texts were printed by the same code under TensorFlow 2.21 (``/work/tfvenv``,
``tensorflow-cpu==2.21.0``), 2026-11-28."""

import typing

import pytest

import devtrace as tf


class MaskedTensor(tf.experimental.ExtensionType):
    values: tf.Tensor
    mask: tf.Tensor

    def __validate__(self):
        self.values.shape.assert_is_compatible_with(self.mask.shape)
        if not self.mask.dtype.is_bool:  # (the guide's assert; pytest would rewrite its message)
            raise AssertionError("mask.dtype must be bool")


class Pt(tf.experimental.ExtensionType):
    x: float
    name: str = "p"
    shape: tf.TensorShape = None
    dt: tf.DType = tf.float32
    t: typing.Tuple[int, ...] = ()
    m: typing.Mapping[str, tf.Tensor] = {}
    o: typing.Optional[tf.Tensor] = None
    u: typing.Union[int, str] = 3


MT_REPR = ("MaskedTensor(values=<tf.Tensor: shape=(2,), dtype=int32, numpy=array([1, 2], dtype=int32)>, "
           "mask=<tf.Tensor: shape=(2,), dtype=bool, numpy=array([ True, False])>)")


def _error(fn):
    with pytest.raises(Exception) as info:
        fn()
    return f"{type(info.value).__name__}: {info.value}"


def test_fields_repr_and_spec():
    mt = MaskedTensor([1, 2], [True, False])
    assert repr(mt) == str(mt) == MT_REPR
    assert repr(mt._type_spec) == ("MaskedTensor.Spec(values=TensorSpec(shape=(2,), dtype=tf.int32, name=None), "
                                   "mask=TensorSpec(shape=(2,), dtype=tf.bool, name=None))")
    assert type(mt._type_spec).__name__ == type(mt._type_spec).__qualname__ == "MaskedTensor.Spec"
    assert tf.type_spec_from_value(mt) == mt._type_spec
    assert isinstance(mt._type_spec, tf.experimental.ExtensionTypeSpec) and mt._type_spec.value_type is MaskedTensor
    assert tf.experimental.extension_type.as_dict(mt)["mask"] is mt.mask
    spec = MaskedTensor.Spec(values=tf.TensorSpec([None], tf.int32), mask=tf.TensorSpec([None], tf.bool))
    assert repr(spec) == ("MaskedTensor.Spec(values=TensorSpec(shape=(None,), dtype=tf.int32, name=None), "
                          "mask=TensorSpec(shape=(None,), dtype=tf.bool, name=None))")
    assert spec.is_compatible_with(mt) and not spec.is_compatible_with(MaskedTensor([[1]], [[True]]))


def test_python_fields_convert_as_tensorflow():
    p = Pt(1.0, shape=[2, None], t=[1, 2], m={"a": 1})
    assert repr(p) == ("Pt(x=1.0, name='p', shape=TensorShape([2, None]), dt=tf.float32, t=(1, 2), "
                       "m=ImmutableDict({'a': <tf.Tensor: shape=(), dtype=int32, numpy=1>}), o=None, u=3)")
    assert Pt(1.0, dt="float32").dt is tf.float32
    assert repr(Pt(1.0, o=[1, 2]).o) == "<tf.Tensor: shape=(2,), dtype=int32, numpy=array([1, 2], dtype=int32)>"
    assert bool(p == Pt(1.0, shape=[2, None], t=[1, 2], m={"a": 1}))


@pytest.mark.parametrize("make,message", [
    (lambda: MaskedTensor([1, 2], [1, 2]), "AssertionError: mask.dtype must be bool"),
    (lambda: MaskedTensor([1, 2, 3], [True, False]), "ValueError: Shapes (3,) and (2,) are incompatible"),
    (lambda: MaskedTensor(values=[1]), "TypeError: missing a required argument: 'mask'"),
    (lambda: MaskedTensor([1], [True], 3), "TypeError: too many positional arguments"),
    (lambda: MaskedTensor([1], [True], foo=3), "TypeError: got an unexpected keyword argument 'foo'"),
    (lambda: Pt("a"), "TypeError: x: expected 'float', got 'str'"),
    (lambda: Pt(1), "TypeError: x: expected 'float', got 'int'"),
    (lambda: Pt(1.0, t=["x"]), "TypeError: t[0]: expected 'int', got 'str'"),
    (lambda: Pt(1.0, u=1.5), "TypeError: u: expected typing.Union[int, str], got 'float'"),
    (lambda: hash(Pt(1.0)), "TypeError: unhashable type: 'Pt'"),
])
def test_errors_are_tensorflows(make, message):
    assert _error(make) == message


def test_immutable_outside_the_constructor():
    mt = MaskedTensor([1, 2], [True, False])
    message = "AttributeError: Cannot mutate attribute `values` outside the custom constructor of ExtensionType."
    assert _error(lambda: setattr(mt, "values", 3)) == message
    assert _error(lambda: delattr(mt, "values")) == message

    class Scaled(tf.experimental.ExtensionType):
        a: tf.Tensor

        def __init__(self, a, scale=1):
            self.a = tf.convert_to_tensor(a) * scale
    assert repr(Scaled([1, 2], scale=3)) == \
        "Scaled(a=<tf.Tensor: shape=(2,), dtype=int32, numpy=array([3, 6], dtype=int32)>)"

    class Forgets(tf.experimental.ExtensionType):
        a: tf.Tensor

        def __init__(self, x):
            pass
    assert _error(lambda: Forgets(1)) == "ValueError: Missing required fields: {'a'}"


def test_class_definition_errors():
    assert _error(lambda: type("E", (tf.experimental.ExtensionType,), {"__annotations__": {"a": list}})) == \
        "TypeError: In field 'a': Unsupported type annotation 'list'"
    assert _error(lambda: type("E", (tf.experimental.ExtensionType,), {
        "__annotations__": {"st": tf.SparseTensor}, "st": None})) == \
        "TypeError: default value for st: expected 'SparseTensor', got 'NoneType'"


def test_equality():
    mt = MaskedTensor([1, 2], [True, False])
    assert repr(mt == mt) == "<tf.Tensor: shape=(), dtype=bool, numpy=True>"
    assert bool(mt != MaskedTensor([1, 3], [True, False]))
    assert (mt == MaskedTensor([1, 3, 4], [True, False, True])) is False
    assert (mt == 3) is False


def test_nested_and_nest():
    class Outer(tf.experimental.ExtensionType):
        inner: MaskedTensor
        n: int
    mt = MaskedTensor([1, 2], [True, False])
    assert _error(lambda: Outer([1], 3)) == "TypeError: inner: expected 'MaskedTensor', got 'list'"
    o = Outer(mt, 3)
    assert [t.numpy().tolist() for t in tf.nest.flatten(o, expand_composites=True)] == [[1, 2], [True, False]]
    assert tf.nest.flatten(o) == [o]
    doubled = tf.nest.map_structure(lambda t: t, o, expand_composites=True)
    assert type(doubled) is Outer and doubled.n == 3


def test_tf_function_traces_by_spec():
    traces = []

    @tf.function
    def f(x):
        traces.append(repr(x))
        return x.values * 2
    assert f(MaskedTensor([1, 2], [True, False])).numpy().tolist() == [2, 4]
    assert f(MaskedTensor([3, 4], [True, True])).numpy().tolist() == [6, 8]
    assert f(MaskedTensor([3, 4, 5], [True, True, False])).numpy().tolist() == [6, 8, 10]
    assert traces == ["MaskedTensor(values=<tf.Tensor 'x:0' shape=(2,) dtype=int32>, "
                      "mask=<tf.Tensor 'x_1:0' shape=(2,) dtype=bool>)",
                      "MaskedTensor(values=<tf.Tensor 'x:0' shape=(3,) dtype=int32>, "
                      "mask=<tf.Tensor 'x_1:0' shape=(3,) dtype=bool>)"]

    @tf.function
    def g(x):
        return MaskedTensor(x.values + 1, x.mask)
    out = g(MaskedTensor([1, 2], [True, False]))
    assert type(out) is MaskedTensor and out.values.numpy().tolist() == [2, 3]
    spec = MaskedTensor.Spec(tf.TensorSpec([None], tf.int32), tf.TensorSpec([None], tf.bool))
    assert repr(g.get_concrete_function(spec).structured_input_signature) == (
        "((MaskedTensor.Spec(values=TensorSpec(shape=(None,), dtype=tf.int32, name=None), "
        "mask=TensorSpec(shape=(None,), dtype=tf.bool, name=None)),), {})")


def test_batchable_spec_and_map_fn():
    class Vehicle(tf.experimental.BatchableExtensionType):
        top_speed: tf.Tensor
        mpg: tf.Tensor
    batch = Vehicle([120, 150, 80], [30, 40, 12])
    assert tf.map_fn(lambda v: v.top_speed * v.mpg, batch, fn_output_signature=tf.int32).numpy().tolist() == \
        [3600, 6000, 960]
    spec = batch._type_spec
    assert repr(spec._batch(4)) == ("Vehicle.Spec(top_speed=TensorSpec(shape=(4, 3), dtype=tf.int32, name=None), "
                                    "mpg=TensorSpec(shape=(4, 3), dtype=tf.int32, name=None))")
    assert repr(spec._unbatch()) == ("Vehicle.Spec(top_speed=TensorSpec(shape=(), dtype=tf.int32, name=None), "
                                     "mpg=TensorSpec(shape=(), dtype=tf.int32, name=None))")


def test_dispatch_for_api_and_unregister():
    abs_before, add_before = type(tf.abs), tf.math.add
    class MyTensor(tf.experimental.ExtensionType):
        value: tf.Tensor

    @tf.experimental.dispatch_for_api(tf.abs)
    def my_abs(x: MyTensor):
        return MyTensor(tf.abs(x.value))

    @tf.experimental.dispatch_for_api(tf.concat, {"values": typing.List[MyTensor]})
    def my_concat(values, axis):
        return MyTensor(tf.concat([v.value for v in values], axis))
    try:
        assert repr(tf.abs(MyTensor(-5))) == "MyTensor(value=<tf.Tensor: shape=(), dtype=int32, numpy=5>)"
        assert tf.abs(-3).numpy() == 3  # a plain tensor: the API itself
        assert tf.concat([MyTensor([1]), MyTensor([2])], 0).value.numpy().tolist() == [1, 2]
        assert _error(lambda: tf.experimental.dispatch_for_api(tf.math.add, {"z": MyTensor})) == \
            "ValueError: signature includes annotation for unknown parameter 'z'."

        def wrong(a, b):
            return a
        assert _error(lambda: tf.experimental.dispatch_for_api(tf.math.add, {"x": MyTensor})(wrong)).startswith(
            "ValueError: Dispatch function's signature (a, b) does not match API's signature")
        assert tf.math.add is add_before and tf.add is add_before  # registrations that failed left it as it was
    finally:
        tf.experimental.unregister_dispatch_for(my_abs)
        tf.experimental.unregister_dispatch_for(my_concat)
    assert _error(lambda: tf.abs(MyTensor(5))) == (
        "ValueError: Attempt to convert a value (MyTensor(value=<tf.Tensor: shape=(), dtype=int32, numpy=5>)) with "
        f"an unsupported type ({MyTensor!r}) to a Tensor.")
    assert _error(lambda: tf.experimental.unregister_dispatch_for(my_abs)) == (
        f"ValueError: Function {my_abs} was not registered using a `@dispatch_for_*` decorator.")
    assert type(tf.abs) is abs_before  # as it was before this test's dispatchers


def test_elementwise_dispatch():
    class MT(tf.experimental.ExtensionType):
        values: tf.Tensor
        mask: tf.Tensor

    @tf.experimental.dispatch_for_unary_elementwise_apis(MT)
    def unary(api_func, x):
        return MT(api_func(x.values), x.mask)

    @tf.experimental.dispatch_for_binary_elementwise_apis(MT, MT)
    def binary(api_func, x, y):
        return MT(api_func(x.values, y.values), x.mask & y.mask)

    @tf.experimental.dispatch_for_binary_elementwise_assert_apis(MT, MT)
    def asserts(assert_func, x, y):
        merged = tf.logical_and(x.mask, y.mask)
        assert_func(tf.boolean_mask(x.values, merged), tf.boolean_mask(y.values, merged))
    try:
        mt = MT([1, -2, -3], [True, False, True])
        out = tf.abs(mt)
        assert f"values={out.values.numpy()}, mask={out.mask.numpy()}" == "values=[1 2 3], mask=[ True False  True]"
        ones = tf.ones_like(mt, dtype=tf.float32)
        assert f"values={ones.values.numpy()}" == "values=[1. 1. 1.]"
        c = tf.add(MT([1, 2, 3, 4, 5], [True, True, True, True, False]), MT([2, 4, 6, 8, 0], [True, True, True,
                                                                                              False, True]))
        assert f"values={c.values.numpy()}, mask={c.mask.numpy()}" == \
            "values=[ 3  6  9 12  5], mask=[ True  True  True False False]"
        tf.debugging.assert_equal(MT([1, 1, 0, 1, 1], [False, False, True, True, True]),
                                  MT([2, 2, 0, 2, 2], [True, True, True, False, False]))
        with pytest.raises(tf.errors.InvalidArgumentError, match="Condition x > y did not hold"):
            tf.debugging.assert_greater(MT([1, 1, 1, 1, 1], [True] * 5), MT([0, 0, 0, 0, 2], [True] * 5))
        assert _error(lambda: tf.experimental.dispatch_for_unary_elementwise_apis(MT)(unary)).startswith(
            "ValueError: A unary elementwise dispatch handler (")
    finally:
        for handler in (unary, binary, asserts):
            tf.experimental.unregister_dispatch_for(handler)
    assert tf.add(1, 2).numpy() == 3 and type(tf.add).__name__ == "function"


def test_structured_tensor_from_pyval_prints_as_tensorflow():
    S = tf.experimental.StructuredTensor  # noqa: N806
    st = S.from_pyval([{"a": 1, "n": ["x"]}, {"a": 2, "n": ["y", "z"]}])
    assert repr(st) == ('<StructuredTensor(\n    fields={\n        "a": tf.Tensor([1 2], shape=(2,), dtype=int32),\n'
                        '        "n": <tf.RaggedTensor [[b\'x\'], [b\'y\', b\'z\']]>},\n    shape=(2,))>')
    assert st.to_pyval() == [{"a": 1, "n": [b"x"]}, {"a": 2, "n": [b"y", b"z"]}]
    nested = S.from_pyval([{"a": {"b": 1}}, {"a": {"b": 2}}])
    assert repr(nested) == ('<StructuredTensor(\n    fields={\n        "a": <StructuredTensor(\n                fields={\n'
                            '                    "b": tf.Tensor([1 2], shape=(2,), dtype=int32)},\n'
                            '                shape=(2,))>},\n    shape=(2,))>')
    rows = S.from_pyval([[{"foo": 12}, {"foo": 33}], [], [{"foo": 99}]])
    assert repr(rows.row_partitions) == "(tf.RowPartition(row_splits=[0 2 2 3]),)"
    assert tuple(rows.shape) == (3, None)
    assert repr(rows["foo"]) == "<tf.RaggedTensor [[12, 33], [], [99]]>"
    assert repr(rows[0]["foo"]) == "<tf.Tensor: shape=(2,), dtype=int32, numpy=array([12, 33], dtype=int32)>"
    assert rows.merge_dims(0, 1)["foo"].numpy().tolist() == [12, 33, 99]
    scalar = S.from_pyval({"a": 1.5, "s": "x", "e": []})
    assert repr(scalar) == ('<StructuredTensor(\n    fields={\n        "a": tf.Tensor(1.5, shape=(), dtype=float32),\n'
                            '        "e": tf.Tensor([], shape=(0,), dtype=float32),\n'
                            '        "s": tf.Tensor(b\'x\', shape=(), dtype=string)},\n    shape=())>')
    with pytest.raises(KeyError, match="'b'"):
        S.from_pyval([{"a": 1}, {"b": 2}])


def test_extension_types_through_tf_data():
    class B(tf.experimental.BatchableExtensionType):
        a: tf.Tensor
        name: str = "b"
    ds = tf.data.Dataset.from_tensor_slices(B([1, 2, 3]))
    assert repr(ds.element_spec) == "B.Spec(a=TensorSpec(shape=(), dtype=tf.int32, name=None), name='b')"
    assert repr(list(ds)[0]) == "B(a=<tf.Tensor: shape=(), dtype=int32, numpy=1>, name='b')"
    assert [x.numpy() for x in ds.map(lambda x: x.a * 2)] == [2, 4, 6]
    batched = ds.batch(2)
    assert repr(batched.element_spec) == "B.Spec(a=TensorSpec(shape=(None,), dtype=tf.int32, name=None), name='b')"
    assert [b.a.numpy().tolist() for b in batched] == [[1, 2], [3]]
    pairs = tf.data.Dataset.from_tensor_slices((B([1, 2, 3]), [4, 5, 6])).filter(lambda x, y: y > 4)
    assert [(x.a.numpy(), y.numpy()) for x, y in pairs] == [(2, 5), (3, 6)]
    mt = list(tf.data.Dataset.from_tensors(MaskedTensor([1, 2], [True, False])))[0]
    assert type(mt) is MaskedTensor and repr(mt) == MT_REPR


class Masked(tf.experimental.ExtensionType):
    values: tf.Tensor
    mask: tf.Tensor
    shape = property(lambda self: self.values.shape)

    def with_default(self, default):
        return tf.where(self.mask, self.values, default)

    class Spec:
        def __init__(self, shape, dtype=tf.float32):
            self.values = tf.TensorSpec(shape, dtype)
            self.mask = tf.TensorSpec(shape, tf.bool)
        shape = property(lambda self: self.values.shape)


def test_own_spec_input_signature_cond_and_loops():
    spec = Masked.Spec([5], tf.float32)
    assert repr(spec) == ("Masked.Spec(values=TensorSpec(shape=(5,), dtype=tf.float32, name=None), "
                          "mask=TensorSpec(shape=(5,), dtype=tf.bool, name=None))")
    assert tuple(spec.shape) == (5,) and isinstance(spec, tf.experimental.ExtensionTypeSpec)
    assert _error(lambda: setattr(spec, "values", 3)) == \
        "AttributeError: Cannot mutate attribute `values` outside the custom constructor of ExtensionTypeSpec."
    mt = Masked([1., 2, 3], [True, False, True])

    @tf.function(input_signature=[Masked.Spec(shape=[None], dtype=tf.float32)])
    def f(x):
        return x.with_default(0.0)
    assert f(mt).numpy().tolist() == [1.0, 0.0, 3.0]

    @tf.function
    def g(x, c):
        return tf.cond(c, lambda: Masked(x.values * 2, x.mask), lambda: x)
    assert g(mt, tf.constant(True)).values.numpy().tolist() == [2.0, 4.0, 6.0]
    assert g(mt, tf.constant(False)).values.numpy().tolist() == [1.0, 2.0, 3.0]

    @tf.function
    def h(x):
        out = x
        for _ in tf.range(3):
            out = Masked(out.values + 1.0, out.mask)
        return out
    out = h(mt)
    assert type(out) is Masked and out.values.numpy().tolist() == [4.0, 5.0, 6.0]
    assert out.mask.numpy().tolist() == [True, False, True]


class Node(tf.experimental.ExtensionType):
    value: tf.Tensor
    children: typing.Tuple["Node", ...] = ()


def test_forward_references_resolve_on_first_use():
    n = Node(1, [Node(2), Node(3)])
    assert [t.numpy() for t in tf.nest.flatten(n, expand_composites=True)] == [1, 2, 3]
    assert _error(lambda: Node(1, [3])) == "TypeError: children[0]: expected 'Node', got 'int'"


class _Network(tf.experimental.BatchableExtensionType):
    shape: tf.TensorShape
    work: tf.Tensor
    bandwidth: tf.Tensor

    def __init__(self, work, bandwidth):
        self.work = tf.convert_to_tensor(work)
        self.bandwidth = tf.convert_to_tensor(bandwidth)
        self.shape = self.work.shape[:-1].merge_with(self.bandwidth.shape[:-2])


def test_map_fn_and_datasets_of_a_batchable_type_batch_its_shape_field():
    # guide extension_type.ipynb's Network under TF 2.21: elements have shape=(), map_fn stacks to shape=(2,)
    batch = _Network(work=[[5., 3, 8], [3., 4, 2]], bandwidth=[[[0., 2, 0], [2, 0, 3], [0, 3, 0]],
                                                              [[0., 2, 2], [2, 0, 2], [2, 2, 0]]])
    assert [repr(n.shape) for n in tf.data.Dataset.from_tensor_slices(batch)] == ["TensorShape([])"] * 2

    def balance(network):
        delta = (tf.expand_dims(network.work, -1) - tf.expand_dims(network.work, -2)) / 4
        delta = tf.maximum(tf.minimum(delta, network.bandwidth), -network.bandwidth)
        return _Network(network.work + tf.reduce_sum(delta, -1), network.bandwidth)

    out = tf.map_fn(balance, batch)
    assert type(out) is _Network and repr(out.shape) == "TensorShape([2])"
    assert out.work.numpy().tolist() == [[5.5, 1.25, 9.25], [3.0, 4.75, 1.25]]
