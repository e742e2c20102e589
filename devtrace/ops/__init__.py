"""The ops: each declared once (:mod:`.declare`), by TensorFlow's op name, with its kernels per
device type, dtypes, host-memory arguments, shape function and gradient slot — and the public
functions that run them (``devtrace.add``, ``devtrace.random.uniform``), collected in ``API``.

Importing this package declares every op. Modules are named as TensorFlow's are.
"""

from . import array_ops, control_flow_ops, custom, math_ops, random_ops, state_ops, string_ops  # noqa: F401
from . import indexing_ops, linalg_ops, manip_ops, nn_ops, reduction_ops, sort_ops, split_ops  # noqa: F401,I001
from . import candidate_sampling_ops, stateful_random_ops, stateless_random_ops, tensor_array_ops  # noqa: F401,I001
from . import math_grad, reduction_grad  # noqa: F401,I001 (gradients of the ops declared above)
from . import array_grad, clip_ops, nn_impl, ragged_ops, scatter_ops, segment_ops, sparse_ops  # noqa: F401,I001
from . import indexed_slices  # noqa: F401,I001 (tf.IndexedSlices, Variable.scatter_*)
from . import dense_grad, linalg_grad, list_grad, nn_grad  # noqa: F401,I001 (gradients: dense layers, linear algebra, slices, lists, conv)
from . import optional_ops  # noqa: F401,I001 (what a cond's gradient reads its forward branch through)
from .declare import API
from . import cast_ops, complex_ops, fft_ops  # noqa: F401,I001
from . import check_ops  # noqa: F401,I001 (tf.debugging's assert_*)
from . import nn_dropout  # noqa: F401,I001 (tf.nn.experimental's dropouts)
from . import check_static  # noqa: F401,I001 (tf.debugging's dtype and rank checks)
from . import ragged_dispatch, ragged_shape  # noqa: F401,I001 (RaggedTensor operands: after the ops they dispatch)
from . import bfloat16_ops, complex_grad, random_grad, segment_grad  # noqa: F401,I001 (after the ops they re-kernel or differentiate)

__all__ = ["API"]
