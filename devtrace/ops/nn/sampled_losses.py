"""``tf.nn.nce_loss`` and ``tf.nn.sampled_softmax_loss``: composed as TensorFlow's ``nn_impl`` composes
them (``_compute_sampled_logits``: a candidate sampler's classes, their weights and biases gathered,
the true and sampled logits, accidental hits masked, log Q subtracted), so every op is placed, logged
and differentiated as TensorFlow's are; the default sampler is ``LogUniformCandidateSampler``, whose
draws for a seed are TensorFlow's."""

from __future__ import annotations

from ...runtime import dtypes
from ...runtime.eager.executor import execute
from ...runtime.values import constant
from ..array import array_ops, indexing_ops
from ..declare import API, as_tensor, public
from ..math import math_ops
from . import nn_impl


def _sum_rows(x):
    cols = array_ops.shape(x)[1]
    ones = API["ones"](API["stack"]([cols, 1]), x.dtype)
    return array_ops.reshape(math_ops.matmul(x, ones), [-1])


def _lookup(params, ids):
    """``embedding_lookup`` of a list of shards split as ``div`` does (contiguous ids): their rows in order."""
    params = list(params) if isinstance(params, (list, tuple)) else [params]
    table = params[0] if len(params) == 1 else API["concat"](params, 0)
    return indexing_ops.gather(table, ids)


def _compute_sampled_logits(weights, biases, labels, inputs, num_sampled, num_classes, num_true=1, sampled_values=None,
                            subtract_log_q=True, remove_accidental_hits=False, seed=None):
    cast, concat, slice_, shape = API["cast"], API["concat"], API["slice"], array_ops.shape
    labels, inputs = as_tensor(labels), as_tensor(inputs)
    if labels.dtype != dtypes.int64:
        labels = cast(labels, dtypes.int64)
    labels_flat = array_ops.reshape(labels, [-1])
    if sampled_values is None:
        sampled_values = API["random.log_uniform_candidate_sampler"](
            true_classes=labels, num_true=num_true, num_sampled=num_sampled, unique=True, range_max=num_classes,
            seed=seed)
    sampled, true_expected_count, sampled_expected_count = (API["stop_gradient"](s) for s in sampled_values)
    sampled = cast(sampled, dtypes.int64)
    all_ids = concat([labels_flat, sampled], 0)
    all_w = _lookup(weights, all_ids)
    if all_w.dtype != inputs.dtype:
        all_w = cast(all_w, inputs.dtype)
    n_true = shape(labels_flat)[0]
    true_w = slice_(all_w, [0, 0], API["stack"]([n_true, -1]))
    sampled_w = slice_(all_w, API["stack"]([n_true, 0]), [-1, -1])
    sampled_logits = math_ops.matmul(inputs, sampled_w, transpose_b=True)
    all_b = _lookup(biases, all_ids)
    if all_b.dtype != inputs.dtype:
        all_b = cast(all_b, inputs.dtype)
    true_b = slice_(all_b, [0], shape(labels_flat))
    sampled_b = slice_(all_b, shape(labels_flat), [-1])
    dim = shape(true_w)[1:2]
    new_true_w_shape = concat([[-1, num_true], dim], 0)
    row_wise_dots = math_ops.multiply(array_ops.expand_dims(inputs, 1), array_ops.reshape(true_w, new_true_w_shape))
    dots_as_matrix = array_ops.reshape(row_wise_dots, concat([[-1], dim], 0))
    true_logits = array_ops.reshape(_sum_rows(dots_as_matrix), [-1, num_true])
    true_b = array_ops.reshape(true_b, [-1, num_true])
    true_logits += true_b
    sampled_logits += sampled_b
    if remove_accidental_hits:
        acc_indices, acc_ids, acc_weights = API["nn.compute_accidental_hits"](labels, sampled, num_true=num_true)
        acc_indices_2d = array_ops.reshape(acc_indices, [-1, 1])
        acc_ids_2d_int32 = array_ops.reshape(cast(acc_ids, dtypes.int32), [-1, 1])
        sparse_indices = concat([acc_indices_2d, acc_ids_2d_int32], 1, "sparse_indices")
        sampled_logits_shape = concat([shape(labels)[:1], array_ops.expand_dims(num_sampled, 0)], 0)
        if sampled_logits.dtype != acc_weights.dtype:
            acc_weights = cast(acc_weights, sampled_logits.dtype)
        sampled_logits += execute("SparseToDense", (sparse_indices, sampled_logits_shape, acc_weights,
                                                    constant(0.0, acc_weights.dtype)),
                                  {"validate_indices": False}, dtype=acc_weights.dtype)
    if subtract_log_q:
        true_logits -= math_ops.log(true_expected_count)
        sampled_logits -= math_ops.log(sampled_expected_count)
    out_logits = concat([true_logits, sampled_logits], 1)
    out_labels = concat([API["ones_like"](true_logits) / num_true, API["zeros_like"](sampled_logits)], 1)
    return out_logits, out_labels


@public("nn.nce_loss")
def nce_loss(weights, biases, labels, inputs, num_sampled, num_classes, num_true=1, sampled_values=None,
             remove_accidental_hits=False, name="nce_loss"):
    """Noise-contrastive estimation: each example's true and sampled classes as binary logistic losses."""
    logits, labels = _compute_sampled_logits(weights, biases, labels, inputs, num_sampled, num_classes, num_true,
                                             sampled_values, True, remove_accidental_hits)
    sampled_losses = API["nn.sigmoid_cross_entropy_with_logits"](labels=labels, logits=logits)
    return _sum_rows(sampled_losses)


@public("nn.sampled_softmax_loss")
def sampled_softmax_loss(weights, biases, labels, inputs, num_sampled, num_classes, num_true=1, sampled_values=None,
                         remove_accidental_hits=True, seed=None, name="sampled_softmax_loss"):
    """The softmax loss over each example's true classes and a sample of the others."""
    logits, labels = _compute_sampled_logits(weights, biases, labels, inputs, num_sampled, num_classes, num_true,
                                             sampled_values, True, remove_accidental_hits, seed)
    labels = API["stop_gradient"](labels)
    return nn_impl.softmax_cross_entropy_with_logits(labels=labels, logits=logits)
