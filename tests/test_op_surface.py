"""Every name issue 10 enumerates ("The everyday op surface") exists in devtrace, under each
TensorFlow 2.21 namespace that has it: ``tf.math.X`` and, where TensorFlow has the alias, ``tf.X``
(TensorFlow's names: ``devtrace/generated/tf_api_names.py``). None may be the "does not implement" answer.
Their values are checked against TensorFlow by the wide oracle (``tests/tf221_oracle``) and
``tests/tf221``; this test keeps the list whole."""

import pytest

import devtrace as tf
from devtrace.generated.tf_api_names import NAMES

_TOP = frozenset(NAMES[""][1].split())


def _names(prefix, text):
    return [f"{prefix}.{n}" for n in text.split()]


MATH = ("abs sign exp log log1p sqrt rsqrt square pow sin cos tan asin acos atan atan2 sinh cosh tanh asinh acosh "
        "atanh floor ceil round maximum minimum floordiv floormod truediv divide divide_no_nan cumsum cumprod "
        "argmax argmin top_k is_nan is_finite is_inf logical_and logical_or logical_not logical_xor equal "
        "not_equal less less_equal greater greater_equal add_n add subtract multiply negative reciprocal expm1 "
        "reduce_sum reduce_mean reduce_max reduce_min reduce_prod reduce_any reduce_all reduce_std "
        "reduce_variance reduce_logsumexp count_nonzero")
SHAPE = ("reshape transpose concat stack unstack split squeeze expand_dims tile pad broadcast_to shape size rank "
         "fill zeros ones zeros_like ones_like eye range linspace one_hot where boolean_mask reverse sort argsort "
         "unique identity gather gather_nd scatter_nd tensor_scatter_nd_update tensor_scatter_nd_add "
         "tensor_scatter_nd_sub tensor_scatter_nd_min tensor_scatter_nd_max slice strided_slice newaxis "
         "clip_by_value cast as_dtype constant convert_to_tensor Variable Tensor TensorShape IndexedSlices "
         "einsum matmul")
NN = ("relu relu6 elu selu gelu sigmoid softplus softsign softmax log_softmax bias_add l2_normalize dropout "
      "sparse_softmax_cross_entropy_with_logits softmax_cross_entropy_with_logits "
      "sigmoid_cross_entropy_with_logits moments")
LINALG = "matmul matvec inv det solve svd qr cholesky eigh diag diag_part trace norm band_part einsum"
DTYPES = ("uint8 uint16 uint32 uint64 int8 int16 int32 int64 float16 bfloat16 float32 float64 complex64 "
          "complex128 bool string DType as_dtype")
STRINGS = "length upper lower split join format to_number"
RANDOM = ("set_seed normal uniform truncated_normal categorical shuffle stateless_normal stateless_uniform "
          "stateless_truncated_normal stateless_categorical Generator get_global_generator set_global_generator")

NAMESPACED = (_names("math", MATH) + _names("nn", NN) + _names("linalg", LINALG) + _names("dtypes", DTYPES)
              + _names("strings", STRINGS) + _names("random", RANDOM)
              + ["ragged.constant", "sparse.SparseTensor", "sparse.to_dense", "sparse.from_dense",
                 "sparse.add", "sparse.reorder", "data.Dataset"])
# the namespaced names TensorFlow also has at the top (tf.abs, tf.matmul, tf.uint8), and the top-level ones
PUBLIC = sorted(set(NAMESPACED + [n.split(".", 1)[1] for n in NAMESPACED if n.split(".", 1)[1] in _TOP]
                    + [n for n in SHAPE.split() if n in _TOP]))

TENSOR = ("__pow__ __rpow__ __floordiv__ __rfloordiv__ __mod__ __rmod__ __matmul__ __rmatmul__ __neg__ __abs__ "
          "__eq__ __ne__ __lt__ __le__ __gt__ __ge__ __and__ __rand__ __or__ __ror__ __xor__ __rxor__ __invert__ "
          "__iter__ __len__ __bool__ __int__ __float__ __index__ __format__ __array__ __hash__ __getitem__ "
          "numpy shape ndim dtype device backing_device")
VARIABLE = ("__getitem__ assign assign_add assign_sub scatter_nd_update scatter_nd_add scatter_nd_sub "
            "scatter_update scatter_add scatter_sub sparse_read numpy shape dtype device")
DATASET = "from_tensor_slices range map batch shuffle take repeat __iter__"
GENERATOR = "from_seed from_non_deterministic_state split reset_from_seed normal uniform truncated_normal"


def _resolve(path):
    value = tf
    for part in path.split("."):
        value = getattr(value, part)
    return value


def test_tensorflow_has_every_listed_name():
    """The list is TensorFlow's: a name it does not have would be a typo here."""
    missing = [p for p in PUBLIC if p.rpartition(".")[2] not in NAMES[p.rpartition(".")[0]][1].split()]
    assert missing == []


@pytest.mark.parametrize("path", PUBLIC)
def test_public_name_is_implemented(path):
    """Reaching it raises no "devtrace does not implement" (``tf.newaxis`` is ``None``, as TensorFlow's)."""
    assert _resolve(path) is not None or path == "newaxis"


@pytest.mark.parametrize("kind,names", [("<Tensor>", TENSOR), ("<Variable>", VARIABLE)])
def test_tensor_and_variable_members(kind, names):
    value = tf.constant([1, 2]) if kind == "<Tensor>" else tf.Variable([1.0, 2.0])
    lacking = [n for n in names.split() if getattr(type(value), n, None) is None and not hasattr(value, n)]
    assert lacking == []


def test_dataset_and_generator_members():
    lacking = [n for n in DATASET.split() if not hasattr(tf.data.Dataset, n)]
    lacking += [n for n in GENERATOR.split() if not hasattr(tf.random.Generator, n)]
    assert lacking == []
