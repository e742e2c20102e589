"""Dtypes and casts as TensorFlow 2.21 has them: bfloat16 (ml_dtypes' NumPy type), quantized
dtypes, narrow-int constants, bitcast, saturate_cast, complex ops. Expected values and texts
are TensorFlow's, observed with tensorflow-cpu 2.21.0."""

import numpy as np
import pytest

import devtrace as tf
from devtrace.devices.physical import CPUInfo, Machine
from devtrace.runtime.context import reset_context

ml_dtypes = pytest.importorskip("ml_dtypes")


@pytest.fixture(autouse=True)
def cpu_machine():
    reset_context(Machine(CPUInfo("cpu", 2, 1 << 34), (), (), "cpu"), env={})


def test_bfloat16_dtype_properties():
    d = tf.bfloat16
    assert (repr(d), str(d), d.name, d.size, d.as_datatype_enum) == ("tf.bfloat16", "<dtype: 'bfloat16'>",
                                                                     "bfloat16", 2, 14)
    assert (d.is_floating, d.is_integer, d.is_complex, d.is_quantized, d.is_numeric) == (True, False, False, False,
                                                                                          True)
    assert d.as_numpy_dtype is ml_dtypes.bfloat16
    assert str((d.min, d.max)) == "(-3.38953e+38, 3.38953e+38)"
    assert tf.as_dtype("bfloat16") is d and tf.as_dtype(ml_dtypes.bfloat16) is d and tf.dtypes.bfloat16 is d
    assert d == "bfloat16" and not d.is_compatible_with(tf.float32)


def test_bfloat16_values_print_as_tensorflow_rounds_them():
    assert str(tf.cast(tf.constant([0.1, 1.0, 3.14159, 1e30]), tf.bfloat16)) == \
        "tf.Tensor([0.100098 1 3.14062 1.00026e+30], shape=(4,), dtype=bfloat16)"
    assert repr(tf.constant([1.5, 2.25], dtype=tf.bfloat16)) == \
        "<tf.Tensor: shape=(2,), dtype=bfloat16, numpy=array([1.5, 2.25], dtype=bfloat16)>"
    assert repr(tf.constant(0.1, tf.bfloat16)) == "<tf.Tensor: shape=(), dtype=bfloat16, numpy=0.10009765625>"
    assert str(tf.constant(0.1, tf.bfloat16)) == "tf.Tensor(0.100098, shape=(), dtype=bfloat16)"
    assert str(tf.constant([1e-40 * 0, 3e38, 4e38, float("nan")], tf.bfloat16)) == \
        "tf.Tensor([0 3.00406e+38 inf nan], shape=(4,), dtype=bfloat16)"
    assert tf.constant([1.0], tf.bfloat16).numpy().dtype.name == "bfloat16"


def test_bfloat16_arithmetic():
    x = tf.constant([1.5, 2.5], tf.bfloat16)
    assert str(tf.constant([1.0], tf.bfloat16) + tf.constant([0.001], tf.bfloat16)) == \
        "tf.Tensor([1], shape=(1,), dtype=bfloat16)"
    assert str(x / 3) == "tf.Tensor([0.5 0.832031], shape=(2,), dtype=bfloat16)"
    assert str(x + 0.1) == "tf.Tensor([1.60156 2.59375], shape=(2,), dtype=bfloat16)"
    assert str(tf.sqrt(x)) == "tf.Tensor([1.22656 1.57812], shape=(2,), dtype=bfloat16)"
    assert str(tf.exp(x)) == "tf.Tensor([4.46875 12.1875], shape=(2,), dtype=bfloat16)"
    assert str(tf.cast(x, tf.int32)) == "tf.Tensor([1 2], shape=(2,), dtype=int32)"
    assert str(tf.range(3, dtype=tf.bfloat16)) == "tf.Tensor([0 1 2], shape=(3,), dtype=bfloat16)"


def test_bfloat16_sums_and_products_accumulate_in_float32():
    # bfloat16 steps would give 10.0625
    assert str(tf.reduce_sum(tf.constant([0.1] * 100, tf.bfloat16))) == "tf.Tensor(10, shape=(), dtype=bfloat16)"
    x = tf.constant([1.5, 2.5], tf.bfloat16)
    assert str(tf.matmul(tf.reshape(x, [1, 2]), tf.reshape(x, [2, 1]))) == \
        "tf.Tensor([[8.5]], shape=(1, 1), dtype=bfloat16)"
    assert tf.einsum("ij,jk->ik", tf.reshape(x, [1, 2]), tf.reshape(x, [2, 1])).dtype is tf.bfloat16


def test_quantized_dtypes():
    assert (repr(tf.qint8), tf.qint8.name, tf.qint8.size, tf.qint8.as_datatype_enum) == ("tf.qint8", "qint8", 1, 11)
    assert (tf.qint8.is_quantized, tf.qint8.is_integer, tf.qint8.is_numeric) == (True, False, True)
    assert str(tf.qint8.as_numpy_dtype) == "[('qint8', 'i1')]"
    with pytest.raises(TypeError, match=r"Cannot find minimum value of <dtype: 'qint8'> with quantized type"):
        tf.qint8.min


def test_scalar_repr_is_the_python_value():
    assert repr(tf.constant(0.1)) == "<tf.Tensor: shape=(), dtype=float32, numpy=0.10000000149011612>"
    assert repr(tf.constant(0.1, tf.float16)) == "<tf.Tensor: shape=(), dtype=float16, numpy=0.0999755859375>"
    assert repr(tf.constant(b"a")) == "<tf.Tensor: shape=(), dtype=string, numpy=b'a'>"


def test_narrow_integer_constants_wrap():
    assert str(tf.constant([200, -1, 300], tf.int8)) == "tf.Tensor([-56  -1  44], shape=(3,), dtype=int8)"
    assert str(tf.constant([-1], tf.uint8)) == "tf.Tensor([255], shape=(1,), dtype=uint8)"
    assert str(tf.constant(2**40, tf.int32)) == "tf.Tensor(0, shape=(), dtype=int32)"
    with pytest.raises(ValueError, match="Can't convert Python sequence with out-of-range integer to Tensor."):
        tf.constant([2**63], tf.int64)


def test_cast_to_and_from_string_is_unimplemented():
    with pytest.raises(tf.errors.UnimplementedError, match=r"Cast string to float is not supported \[Op:Cast\]"):
        tf.cast(tf.constant(["1"]), tf.float32)
    with pytest.raises(tf.errors.UnimplementedError, match=r"Cast bool to string is not supported"):
        tf.cast(tf.constant([True]), tf.string)
    assert str(tf.cast(tf.constant(["1"]), tf.string)) == "tf.Tensor([b'1'], shape=(1,), dtype=string)"


def test_bitcast():
    assert str(tf.bitcast(tf.constant([1.0, -2.0]), tf.int32)) == \
        "tf.Tensor([ 1065353216 -1073741824], shape=(2,), dtype=int32)"
    assert str(tf.bitcast(tf.constant([1, 2], tf.uint8), tf.uint16)) == "tf.Tensor(513, shape=(), dtype=uint16)"
    assert str(tf.bitcast(tf.constant([1.0], tf.float64), tf.float32)) == \
        "tf.Tensor([[0.    1.875]], shape=(1, 2), dtype=float32)"
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Cannot bitcast from 4 to 3 \[Op:Bitcast\]"):
        tf.bitcast(tf.constant([[1, 2]], tf.uint8), tf.int32)


def test_saturate_cast():
    assert str(tf.dtypes.saturate_cast(tf.constant([1e10, -1e10, float("nan")]), tf.int32)) == \
        "tf.Tensor([ 2147483520 -2147483648 -2147483648], shape=(3,), dtype=int32)"
    assert str(tf.dtypes.saturate_cast(tf.constant([-5, 300]), tf.int8)) == \
        "tf.Tensor([ -5 127], shape=(2,), dtype=int8)"
    assert str(tf.dtypes.saturate_cast(tf.constant([1 + 2j, 300]), tf.uint8)) == \
        "tf.Tensor([  1 255], shape=(2,), dtype=uint8)"


def test_complex_ops():
    z = tf.constant([1 + 2j, -3 + 0.5j], dtype=tf.complex64)
    assert str(tf.complex(1.0, 2.0)) == "tf.Tensor((1+2j), shape=(), dtype=complex64)"
    assert str(tf.abs(z)) == "tf.Tensor([2.236068  3.0413814], shape=(2,), dtype=float32)"
    assert str(tf.math.angle(tf.constant([-1.0, 2.0]))) == "tf.Tensor([3.1415927 0.       ], shape=(2,), dtype=float32)"
    assert str(tf.math.imag(tf.constant([-1.0, 2.0]))) == "tf.Tensor([0. 0.], shape=(2,), dtype=float32)"
    assert str(tf.signal.fft2d(tf.constant([[1, 2], [3, 4]], dtype=tf.complex64))) == \
        "tf.Tensor(\n[[10.+0.j -2.+0.j]\n [-4.+0.j  0.+0.j]], shape=(2, 2), dtype=complex64)"
    assert str(tf.signal.ifft(z)) == "tf.Tensor([-1.+1.25j  2.+0.75j], shape=(2,), dtype=complex64)"


def test_eager_tensor_type_and_numpy_operands():
    t = tf.constant([1.0])
    assert type(t).__name__ == "EagerTensor" and isinstance(t, tf.Tensor)
    assert type(np.ones(1) + t).__name__ == "EagerTensor"
    assert str(np.float64(1.0) + t) == "tf.Tensor([2.], shape=(1,), dtype=float32)"
    with pytest.raises(ValueError, match=r"Failed to convert a NumPy array to a Tensor \(Unsupported object type "
                                         r"float\)\."):
        tf.constant(np.array([1.5, 2], dtype=object))




def test_to_hash_bucket_fast_is_farmhash_fingerprint64():
    assert str(tf.strings.to_hash_bucket_fast(tf.constant(["a", "b"]), 100)) == \
        "tf.Tensor([39 22], shape=(2,), dtype=int64)"
    # each length class of FarmHash (0-16, 17-32, 33-64, longer), TensorFlow's values
    strings = ["", "hello", "hello world, 20 byte", "x" * 40, "y" * 100]
    assert tf.strings.to_hash_bucket_fast(strings, 2**63 - 1).numpy().tolist() == [
        1936946117179621456, 3786372426573024489, 834918596714809380, 7780224193200209045, 7898120570302252548]


def test_conversion_errors_are_tensorflow_s():
    with pytest.raises(TypeError, match="^Cannot convert 1.0 to EagerTensor of dtype string$"):
        tf.constant(1.0, dtype=tf.string)
    with pytest.raises(ValueError, match=r"^Attempt to convert a value \(None\) with an unsupported type"):
        tf.constant([None])
    for big in (2**64, [2**64], -2**63 - 1, 2**63):
        with pytest.raises(ValueError, match="^Can't convert Python sequence with out-of-range integer to Tensor.$"):
            tf.constant(big)
    assert str(tf.constant(2**63, tf.uint64)) == "tf.Tensor(9223372036854775808, shape=(), dtype=uint64)"
    with pytest.raises(ValueError, match=r"^Tensor conversion requested dtype float32 for Tensor with dtype int32: "
                                         r"<tf.Tensor: shape=\(1,\), dtype=int32"):
        tf.convert_to_tensor(tf.constant([1]), dtype=tf.float32)
    with pytest.raises(TypeError, match=r"Tensor \[1 2 3\] \(converted from \[1, 2, 3\]\) has 3 elements, but got "
                                        r"`shape` \(2, 2\) with 4 elements\)\.$"):
        tf.constant([1, 2, 3], shape=[2, 2])



def test_complex_gradients_are_tensorflow_s():
    x, w = tf.Variable(3.0), tf.Variable(4.0)
    with tf.GradientTape(persistent=True) as tape:
        z = tf.complex(x, w)
        a = tf.abs(z)
        r = tf.math.real(z * z)
        angle = tf.math.angle(z)
        f = tf.math.real(tf.reduce_sum(tf.signal.fft(tf.stack([z, z * 2.0]))))
        fi = tf.math.imag(tf.reduce_sum(tf.signal.ifft(tf.stack([z, z * 2.0, z]))))
    observed = [[float(g) for g in tape.gradient(y, [x, w])] for y in (a, r, angle, f, fi)]
    assert np.allclose(observed, [[0.6, 0.8], [6.0, -8.0], [-0.16, 0.12], [2.0, 0.0], [0.0, 1.0]])


def test_experimental_narrow_dtypes():
    e = tf.dtypes.experimental
    d = e.float8_e4m3fn
    assert (repr(d), d.size, d.as_datatype_enum, d.is_floating, d.is_numeric) == ("tf.float8_e4m3fn", 1, 25, True,
                                                                                 False)
    assert str((d.min, d.max)) == "(-448, 448)" and str((e.int4.min, e.int4.max)) == "(-8, 7)"
    assert d.as_numpy_dtype is ml_dtypes.float8_e4m3fn and tf.as_dtype("int4") is e.int4
    assert [e.float8_e5m2.as_datatype_enum, e.uint4.as_datatype_enum, e.float4_e2m1fn.as_datatype_enum] == [24, 30, 33]
    assert str(tf.cast(tf.constant([0.1, 1.0, 300.0, 500.0]), d)) == \
        "tf.Tensor([0.101562 1 288 nan], shape=(4,), dtype=float8_e4m3fn)"
    assert repr(tf.cast(tf.constant(0.3), e.float8_e5m2)) == \
        "<tf.Tensor: shape=(), dtype=float8_e5m2, numpy=0.3125>"
    assert str(tf.cast(tf.constant([1, 7, 8, -9, 300]), e.int4)) == \
        "tf.Tensor([1 7 -8 7 -4], shape=(5,), dtype=int4)"
    assert tf.cast(tf.cast(tf.constant([1]), e.int4), e.uint4).dtype is e.uint4
    with pytest.raises(tf.errors.UnimplementedError, match=r"Cast float to int4 is not supported \[Op:Cast\]"):
        tf.cast(tf.constant([1.5]), e.int4)
    with pytest.raises(tf.errors.UnimplementedError, match="Cast int32 to float8_e4m3fnuz is not supported"):
        tf.cast(tf.constant([1]), e.float8_e4m3fnuz)


def test_tf_experimental_holds_the_narrow_dtypes_and_a_numpy_namespace():
    assert tf.experimental.int4 is tf.dtypes.experimental.int4
    assert tf.experimental.float8_e5m2 is tf.as_dtype("float8_e5m2")
    assert hasattr(tf.experimental, "numpy")
    assert tf.experimental.numpy.array([1.5]).dtype == tf.float64  # tnp's float64 default (tests/test_numpy_api.py)
    with pytest.raises(AttributeError, match="module 'tensorflow._api.v2.experimental.numpy' has no attribute 'float8'"):
        tf.experimental.numpy.float8


def test_float16_rsqrt_rounds_once_as_tensorflow():
    x = np.linspace(0.1, 50, 400).astype(np.float16)
    expected = (1 / np.sqrt(x.astype(np.float32))).astype(np.float16)  # TensorFlow's: exact to float32, rounded
    assert not np.array_equal(expected, np.float16(1) / np.sqrt(x))  # NumPy's float16 steps differ
    assert np.array_equal(tf.math.rsqrt(tf.constant(x)).numpy(), expected)


def test_cast_to_the_same_dtype_returns_the_input_without_an_op():
    from devtrace.runtime.context import context
    from devtrace.trace import events as ev

    t, v = tf.constant([1.0]), tf.Variable([1.0])
    before = sum(isinstance(e, ev.OpPlaced) for e in context().trace.events)
    assert tf.cast(t, tf.float32) is t and tf.cast(v, "float32") is v
    assert sum(isinstance(e, ev.OpPlaced) for e in context().trace.events) == before
    assert tf.cast(t, tf.float64).dtype is tf.float64


def test_conversion_texts_name_the_c_type_and_keep_bools_apart():
    with pytest.raises(TypeError, match="^Cannot convert 1j to EagerTensor of dtype float$"):
        tf.constant(1j, tf.float32)
    with pytest.raises(TypeError, match="^Cannot convert 1 to EagerTensor of dtype bool$"):
        tf.constant(1, tf.bool)
    with pytest.raises(ValueError, match="^Can't convert Python sequence with a value out of range for a "
                                         "double-precision float.$"):
        tf.constant(1e40)
    assert str(tf.constant(1e40, tf.float16)) == "tf.Tensor(inf, shape=(), dtype=float16)"
    assert tf.constant([1, 2], dtype=float).dtype is tf.float32 and tf.as_dtype(float) is tf.float32
    with pytest.raises(TypeError, match="Cannot convert the argument `type_value`: <class 'int'>"):
        tf.constant([1, 2], dtype=int)
    assert tf.zeros([2], tf.string).numpy().tolist() == [b"", b""]
    assert tf.zeros([2], tf.bool).numpy().tolist() == [False, False]
    assert str(tf.fill([2], "x")) == "tf.Tensor([b'x' b'x'], shape=(2,), dtype=string)"
    with pytest.raises(TypeError, match=r"^Cannot convert \[1.5\] to EagerTensor of dtype int32$"):
        tf.zeros([1.5])


def test_python_sequences_are_typed_by_their_first_element():
    for mixed in ([True, 1.5], [True, 1], [[True], [2]], [1, "a"], ["a", 1.5]):
        with pytest.raises(ValueError, match="^Can't convert Python sequence with mixed types to Tensor.$"):
            tf.constant(mixed)
    assert str(tf.constant([np.int32(1), True])) == "tf.Tensor([1 1], shape=(2,), dtype=int32)"
    assert str(tf.constant([1, 2.5, True])) == "tf.Tensor([1.  2.5 1. ], shape=(3,), dtype=float32)"


def test_as_string_formats_as_tensorflow_s_printf():
    a = tf.strings.as_string
    assert a(tf.constant([1.5, 2.0])).numpy().tolist() == [b"1.500000", b"2.000000"]
    assert a(tf.constant([1.5, 1e10], tf.bfloat16)).numpy().tolist() == [b"1.500000", b"9999220736.000000"]
    assert a(tf.constant([True, False])).numpy().tolist() == [b"true", b"false"]
    assert a(tf.constant([1 + 2j])).numpy().tolist() == [b"(1.000000,2.000000)"]
    assert a(tf.constant([1.5, 1e-7]), shortest=True).numpy().tolist() == [b"1.5", b"1e-07"]
    assert a(tf.constant([1.5]), precision=3, scientific=True).numpy().tolist() == [b"1.500e+00"]
    assert a(tf.constant([7]), width=4, fill="0").numpy().tolist() == [b"0007"]
