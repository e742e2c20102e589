"""The ops: each declared once (:mod:`.declare`), by TensorFlow's op name, with its kernels per
device type, dtypes, host-memory arguments, shape function and gradient slot — and the public
functions that run them (``devtrace.add``, ``devtrace.random.uniform``), collected in ``API``.

Importing this package declares every op. Modules are named as TensorFlow's are, in a subpackage per
family (``array``, ``math``, ``random``, ``nn``, ``linalg``, ``sparse``, ``ragged``, ``strings``,
``signal``, ``image``, ``io``, ``control_flow``); the op contract (``declare``, ``custom``, ``shapes``) and the few ops of
no family (variables, checks) sit here.
"""

# in this order: a module's ops before the modules that re-kernel, differentiate or dispatch over them
from .array import array_ops  # noqa: F401,I001
from .control_flow import control_flow_ops  # noqa: F401
from . import custom  # noqa: F401
from .math import math_ops  # noqa: F401
from .random import random_ops  # noqa: F401
from . import state_ops  # noqa: F401
from .strings import string_ops  # noqa: F401
from .strings import string_more  # noqa: F401
from .lookup import lookup_ops  # noqa: F401
from .summary import summary_ops  # noqa: F401
from .array import indexing_ops  # noqa: F401
from .linalg import linalg_ops  # noqa: F401
from .array import manip_ops  # noqa: F401
from .nn import nn_ops  # noqa: F401
from .math import reduction_ops  # noqa: F401
from .array import sort_ops, split_ops  # noqa: F401
from .random import candidate_sampling_ops, stateful_random_ops, stateless_random_ops  # noqa: F401
from .control_flow import tensor_array_ops  # noqa: F401
from .control_flow import queue_ops  # noqa: F401 (tf.queue: FIFOQueue, PaddingFIFOQueue, RandomShuffleQueue, PriorityQueue)
from .math import math_grad, reduction_grad  # noqa: F401 (gradients of the ops declared above)
from .array import array_grad  # noqa: F401
from .math import clip_ops  # noqa: F401
from .nn import nn_impl  # noqa: F401
from .ragged import ragged_ops  # noqa: F401
from .array import scatter_ops  # noqa: F401
from .math import segment_ops  # noqa: F401
from .sparse import sparse_ops  # noqa: F401
from .sparse import indexed_slices  # noqa: F401 (tf.IndexedSlices, Variable.scatter_*)
from .sparse import sparse_more  # noqa: F401
from .nn import dense_grad  # noqa: F401 (gradients: dense layers, linear algebra, slices, lists, conv)
from .linalg import linalg_grad  # noqa: F401
from .control_flow import list_grad  # noqa: F401
from .nn import nn_grad  # noqa: F401
from .nn import cudnn_rnn  # noqa: F401 (the fused LSTM/GRU Keras runs on a GPU)
from .control_flow import optional_ops  # noqa: F401 (what a cond's gradient reads its forward branch through)
from .declare import API
from .math import cast_ops, complex_ops  # noqa: F401
from .signal import fft_ops  # noqa: F401
from .signal import signal_more  # noqa: F401
from .image import codec_ops, image_ops  # noqa: F401
from . import check_ops  # noqa: F401 (tf.debugging's assert_*)
from . import debug_ops  # noqa: F401 (tfdbg2's numeric summary, enable_check_numerics' CheckNumericsV2)
from .nn import nn_dropout  # noqa: F401 (tf.nn.experimental's dropouts)
from .nn import nn_more  # noqa: F401
from .nn import conv3d_ops  # noqa: F401 (Conv3D, the depthwise convolution's gradients)
from .image import projective  # noqa: F401 (ImageProjectiveTransformV3)
from . import check_static  # noqa: F401 (tf.debugging's dtype and rank checks)
from .ragged import ragged_dispatch, ragged_shape  # noqa: F401 (RaggedTensor operands: after the ops they dispatch)
from .ragged import ragged_more  # noqa: F401
from .math import bfloat16_ops, complex_grad  # noqa: F401 (after the ops they re-kernel or differentiate)
from .random import random_grad  # noqa: F401
from .math import segment_grad  # noqa: F401

__all__ = ["API"]
from .io import csv_ops, graph_io, io_ops, parsing_ops, proto_ops, sequence_parsing  # noqa: F401 (tf.io)
from . import numpy  # noqa: F401 (tf.experimental.numpy: composes the ops above)
from .math import special_ops  # noqa: F401 (tf.math.special, igamma, betainc, zeta, erfinv, ndtri …)
from .math import math_more  # noqa: F401 (accumulate_n, zero_fraction, approx_top_k)
from .array import array_more  # noqa: F401 (identity_n, dynamic_partition/stitch, space_to_batch, scan/fold …)
from .control_flow import assert_ops  # noqa: F401 (tf.debugging.Assert)
from .nn import nn_breadth  # noqa: F401 (tf.nn: conv3d, transposed/atrous convolutions, pools, lrn, dilation2d, ctc …)
from .linalg import linalg_more  # noqa: F401 (sqrtm, logm, tridiagonal ops, lu_solve …)
from .signal import signal_breadth  # noqa: F401 (dct, mdct, stft, the N-d FFTs, kaiser and mel helpers …)
from .sparse import sparse_breadth  # noqa: F401 (sparse segment reductions, retain, reshape, fill_empty_rows, cross …)
from .strings import string_breadth  # noqa: F401 (to_hash_bucket, to_hash_bucket_strong, unicode_encode)
from .linalg import linear_operator  # noqa: F401 (tf.linalg.LinearOperator*, linalg.experimental.conjugate_gradient)
from . import check_more  # noqa: F401 (tf.debugging: assert_all_finite, assert_near, assert_shapes)
from . import collective_ops  # noqa: F401 (MultiWorkerMirroredStrategy's CollectiveReduceV2, CollectiveBcast*)
from . import iterator_ops  # noqa: F401 (IteratorGetNext: next(iterator) in a tf.function)
from .nn import sampled_losses  # noqa: F401 (tf.nn.nce_loss, sampled_softmax_loss: composed as TensorFlow composes them)
from .nn import ctc_ops  # noqa: F401 (tf.nn.ctc_loss: TensorFlow's ctc_loss_dense, composed)
from . import raw_ops  # noqa: F401 (tf.raw_ops: a resource variable's VarHandleOp, AssignVariableOp, ReadVariableOp, DestroyResourceOp)
from .nn import ctc_decoder  # noqa: F401 (tf.nn.ctc_beam_search_decoder: CTCBeamSearchDecoder)
from .nn import conv_v2  # noqa: F401 (tf.conv2d_backprop_filter_v2/input_v2: no kernel in TensorFlow 2.21)
from .sparse import sparse_serialize  # noqa: F401 (tf.io.serialize_sparse, serialize_many_sparse, deserialize_many_sparse)
from .image import combined_nms  # noqa: F401 (tf.image.combined_non_max_suppression)
from .ragged import ragged_fill  # noqa: F401 (tf.ragged_fill_empty_rows and its gradient op)
from .image import jxl_ops  # noqa: F401 (tf.image.decode_jxl)
from .strings import unicode_script  # noqa: F401 (tf.strings.unicode_script)
from .image import bounding_box_ops  # noqa: F401 (tf.image.sample_distorted_bounding_box and its stateless twin)
from .nn import fractional_pool  # noqa: F401 (tf.nn.fractional_max_pool, fractional_avg_pool and their gradients)
from .math import sobol_ops  # noqa: F401 (tf.math.sobol_sample)
from .nn import rnn_cell_wrapper  # noqa: F401 (tf.nn.RNNCellDeviceWrapper, RNNCellDropoutWrapper, RNNCellResidualWrapper)
