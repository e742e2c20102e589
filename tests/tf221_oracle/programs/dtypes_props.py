# Issue 10 area 1/4 (dtypes): print/repr of DType, properties, tf.as_dtype, tf.dtypes namespace.
import tensorflow as tf
import sys
import numpy as np


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


names = ["float16", "bfloat16", "float32", "float64", "int8", "int16", "int32", "int64",
         "uint8", "uint16", "uint32", "uint64", "bool", "string", "complex64", "complex128",
         "qint8", "resource", "variant", "half", "double"]
cell("print(tf.float32)", lambda: tf.float32)
cell("repr(tf.float32)", lambda: repr(tf.float32))
cell("str(tf.int64)", lambda: str(tf.int64))
cell("format", lambda: f"{tf.uint8} {tf.bfloat16!r}")
for n in names:
    cell(f"{n}: repr name size", lambda n=n: (repr(getattr(tf, n)), getattr(tf, n).name, getattr(tf, n).size))
for n in ["float16", "bfloat16", "float32", "int8", "uint8", "uint64", "int64", "bool", "complex64", "string"]:
    cell(f"{n}: is_floating is_integer is_complex is_bool is_unsigned is_quantized is_numeric",
         lambda n=n: (lambda d: (d.is_floating, d.is_integer, d.is_complex, d.is_bool, d.is_unsigned, d.is_quantized, d.is_numeric))(getattr(tf, n)))
for n in ["float16", "bfloat16", "float32", "float64", "int8", "uint8", "int32", "uint32", "int64", "uint64", "bool"]:
    cell(f"{n}: min max", lambda n=n: (getattr(tf, n).min, getattr(tf, n).max))
cell("string.min (error)", lambda: tf.string.min)
cell("as_numpy_dtype", lambda: [getattr(tf, n).as_numpy_dtype for n in ["float32", "bfloat16", "string", "bool", "complex128"]])
cell("real_dtype", lambda: (tf.complex64.real_dtype, tf.complex128.real_dtype, tf.float32.real_dtype))
cell("base_dtype", lambda: tf.float32.base_dtype)
cell("as_datatype_enum", lambda: [getattr(tf, n).as_datatype_enum for n in ["float32", "float64", "int32", "uint8", "int16", "int8", "string", "complex64", "int64", "bool", "bfloat16", "uint16", "float16", "uint32", "uint64"]])
cell("as_dtype str", lambda: tf.as_dtype("float32"))
cell("as_dtype numpy", lambda: (tf.as_dtype(np.int64), tf.as_dtype(np.dtype("uint16")), tf.as_dtype(np.float16)))
cell("as_dtype python types", lambda: (tf.as_dtype(float), tf.as_dtype(int), tf.as_dtype(bool), tf.as_dtype(str)))
cell("as_dtype alias names", lambda: (tf.as_dtype("half"), tf.as_dtype("double"), tf.as_dtype("bfloat16")))
cell("as_dtype enum", lambda: tf.as_dtype(1))
cell("as_dtype bad str (error)", lambda: tf.as_dtype("float"))
cell("as_dtype bad object (error)", lambda: tf.as_dtype(object()))
cell("dtype == str", lambda: (tf.float32 == "float32", tf.float32 == tf.float32, tf.float32 != tf.float64))
cell("dtype == np", lambda: tf.float32 == np.float32)
cell("dtypes namespace", lambda: (tf.dtypes.float32 is tf.float32, tf.dtypes.as_dtype("int8"), tf.dtypes.DType.__name__))
cell("is_compatible_with", lambda: (tf.float32.is_compatible_with(tf.float32), tf.float32.is_compatible_with(tf.int32)))
cell("hash dtype usable", lambda: len({tf.float32, tf.float32, tf.int32}))
cell("tf.dtypes.saturate_cast", lambda: tf.dtypes.saturate_cast(tf.constant([300.0, -5.0]), tf.uint8))
cell("type(tf.float32)", lambda: type(tf.float32))
