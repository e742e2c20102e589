"""Values of the tf.linalg / tf.sparse / tf.ragged / tf.strings / tf.nn additions of issue 28 that
TensorFlow's docstring examples do not cover (k bands and alignments of the diagonals, explicit
pool paddings, strides, pads, combiners), against TensorFlow 2.21's.

``WANT`` was captured by running this file under TensorFlow 2.21:
``/work/tfvenv/bin/python tests/test_tf221_breadth_values.py`` prints the JSON."""

import json
import sys

import numpy as np

try:
    import pytest
except ImportError:  # the capture runs in TensorFlow's venv, without pytest
    pytest = None

CASES = {
 "diag_band": lambda tf: tf.linalg.diag([[1, 2], [3, 4]], k=(-1, 0)),
 "diag_part_band_pad": lambda tf: tf.linalg.diag_part(tf.reshape(tf.range(12), [3, 4]), k=(-1, 1), padding_value=9),
 "diag_k1_rows_cols": lambda tf: tf.linalg.diag([1, 2], k=1, num_rows=3, num_cols=3),
 "set_diag_band_right_left": lambda tf: tf.linalg.set_diag(tf.zeros([3, 3], tf.int32), [[1, 2, 0], [3, 4, 5]], k=(0, 1)),
 "tensor_diag_part": lambda tf: tf.linalg.tensor_diag_part(tf.reshape(tf.range(16), [2, 2, 2, 2])),
 "reduce_join_axis0_keepdims": lambda tf: tf.strings.reduce_join([["a", "b"], ["c", "d"]], axis=0, keepdims=True),
 "isotonic_increasing": lambda tf: tf.nn.isotonic_regression([1., 3., 2.], decreasing=False)[0],
 "max_pool_explicit": lambda tf: tf.nn.max_pool2d(tf.reshape(tf.range(16), [1, 4, 4, 1]), 2, 2, [[0, 0], [1, 1], [1, 1], [0, 0]]),
 "depthwise_same_stride2": lambda tf: tf.nn.depthwise_conv2d(tf.reshape(tf.range(18, dtype=tf.float32), [1, 3, 3, 2]), tf.ones([2, 2, 2, 2]), [1, 2, 2, 1], "SAME"),
 "ragged_range_deltas": lambda tf: tf.ragged.range([0, 10], [5, 4], [2, -3]),
 "ngrams_padded": lambda tf: tf.strings.ngrams(["a", "b", "c"], 2, pad_values="#"),
 "segment_join_2d": lambda tf: tf.strings.unsorted_segment_join([["a", "b"], ["c", "d"], ["e", "f"]], [1, 0, 1], 3, separator="-"),
 "embedding_sparse_mean": lambda tf: tf.nn.embedding_lookup_sparse(tf.constant([[1., 2.], [3., 4.], [5., 6.]]), tf.SparseTensor([[0, 0], [0, 1], [2, 0]], [0, 2, 1], [3, 2]), None, combiner="mean"),
 "embedding_sparse_sqrtn": lambda tf: tf.nn.embedding_lookup_sparse(tf.constant([[1., 2.], [3., 4.], [5., 6.]]), tf.SparseTensor([[0, 0], [0, 1], [2, 0]], [0, 2, 1], [3, 2]), None, combiner="sqrtn"),
 "sparse_split_3": lambda tf: [tf.sparse.to_dense(p) for p in tf.sparse.split(sp_input=tf.SparseTensor([[0, 0], [1, 4]], [1, 2], [2, 5]), num_split=3, axis=1)][2],
 "bincount_dense_1d": lambda tf: tf.sparse.to_dense(tf.sparse.bincount([1, 1, 4])),
 "ragged_merge_dims_1_2": lambda tf: tf.ragged.constant([[[1, 2], [3]], [[4, 5, 6]]]).merge_dims(1, 2),
 "banded_upper_adjoint": lambda tf: tf.linalg.banded_triangular_solve([[1., 2., 3.], [4., 5., 6.]], tf.ones([3, 1]), lower=False, adjoint=True),
 "signal_frame_pad_end": lambda tf: tf.signal.frame(tf.reshape(tf.range(10, dtype=tf.float32), [2, 5]), 3, 2, pad_end=True, pad_value=-1),
 "signal_overlap_and_add": lambda tf: tf.signal.overlap_and_add(tf.reshape(tf.range(12, dtype=tf.float32), [2, 2, 3]), 2),
 "signal_hann_odd_periodic": lambda tf: tf.signal.hann_window(5),
 "signal_hann_even_periodic": lambda tf: tf.signal.hann_window(4),
 "signal_hamming_symmetric": lambda tf: tf.signal.hamming_window(4, periodic=False),
 "signal_vorbis": lambda tf: tf.signal.vorbis_window(4),
 "signal_irfft_rfft": lambda tf: tf.signal.irfft(tf.signal.rfft(tf.constant([1., 2., 3., 4.]))),
 "signal_irfft2d_rfft2d": lambda tf: tf.signal.irfft2d(tf.signal.rfft2d(tf.reshape(tf.range(6, dtype=tf.float32), [2, 3]))),
}

WANT = json.loads('{"diag_band": [[1, 0], [3, 2]], "diag_part_band_pad": [[1, 6, 11], [0, 5, 10], [4, 9, 9]], "diag_k1_rows_cols": [[0, 1, 0], [0, 0, 2], [0, 0, 0]], "set_diag_band_right_left": [[3, 2, 0], [0, 4, 0], [0, 0, 5]], "tensor_diag_part": [[0, 5], [10, 15]], "reduce_join_axis0_keepdims": ["ac", "bd"], "isotonic_increasing": [1.0, 2.5, 2.5], "max_pool_explicit": [[[[0], [2], [3]], [[8], [10], [11]], [[12], [14], [15]]]], "depthwise_same_stride2": [[[[16.0, 16.0, 20.0, 20.0], [14.0, 14.0, 16.0, 16.0]], [[26.0, 26.0, 28.0, 28.0], [16.0, 16.0, 17.0, 17.0]]]], "ragged_range_deltas": [[0, 2, 4], [10, 7]], "ngrams_padded": ["# a", "a b", "b c", "c #"], "segment_join_2d": ["c", "d", "a-e", "b-f", "", ""], "embedding_sparse_mean": [[3.0, 4.0], [0.0, 0.0], [3.0, 4.0]], "embedding_sparse_sqrtn": [[4.242640495300293, 5.656854152679443], [0.0, 0.0], [3.0, 4.0]], "sparse_split_3": [[0], [2]], "bincount_dense_1d": [0, 2, 0, 0, 1], "ragged_merge_dims_1_2": [[1, 2, 3], [4, 5, 6]], "banded_upper_adjoint": [[0.25], [0.15000000596046448], [0.11666666716337204]], "signal_frame_pad_end": [[[0.0, 1.0, 2.0], [2.0, 3.0, 4.0], [4.0, -1.0, -1.0]], [[5.0, 6.0, 7.0], [7.0, 8.0, 9.0], [9.0, -1.0, -1.0]]], "signal_overlap_and_add": [[0.0, 1.0, 5.0, 4.0, 5.0], [6.0, 7.0, 17.0, 10.0, 11.0]], "signal_hann_odd_periodic": [0.0, 0.5, 1.0, 0.5, 0.0], "signal_hann_even_periodic": [0.0, 0.5, 1.0, 0.5], "signal_hamming_symmetric": [0.08000001311302185, 0.7700000405311584, 0.7699999809265137, 0.08000001311302185], "signal_vorbis": [0.22801436483860016, 0.9736577868461609, 0.9736577868461609, 0.22801415622234344], "signal_irfft_rfft": [1.0, 2.0, 3.0, 4.0], "signal_irfft2d_rfft2d": [[0.75, 2.25], [5.25, 6.75]]}')


def _value(t):
    if hasattr(t, "to_list"):
        return t.to_list()
    a = np.asarray(t.numpy() if hasattr(t, "numpy") else t)
    return a.tolist() if a.dtype != object else [x.decode() if isinstance(x, bytes) else x for x in a.reshape(-1).tolist()]


def _close(a, b) -> bool:
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_close(x, y) for x, y in zip(a, b))
    if isinstance(a, float) or isinstance(b, float):
        return bool(np.isclose(a, b, rtol=1e-6, atol=1e-6))
    return a == b


def _check(case):
    import devtrace as tf
    got = _value(CASES[case](tf))
    assert _close(got, WANT[case]), (got, WANT[case])


if pytest is not None:
    test_value_is_tensorflows = pytest.mark.parametrize("case", sorted(CASES))(_check)


if __name__ == "__main__":
    import tensorflow as tf  # the capture: run under TensorFlow 2.21
    print(json.dumps({k: _value(f(tf)) for k, f in CASES.items()}))
    sys.exit(0)
