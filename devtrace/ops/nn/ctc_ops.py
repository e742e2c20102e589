"""``tf.nn.ctc_loss`` of dense labels: TensorFlow 2.21's ``ctc_loss_dense``, composed of its ops as
TensorFlow composes them (log-softmax, the state transitions, a forward-backward pass in log space
whose loop TensorFlow runs eagerly as a Python loop: here too, in a graph as well, unrolled over the
known number of frames), with its custom gradient (``exp(log_softmax) - exp(the states' posterior)``).
Sparse labels (TensorFlow's ``CTCLoss`` op) say in one line that devtrace does not implement them.
"""

from __future__ import annotations

from ...runtime import dtypes
from ...runtime.context import context
from ...runtime.eager import tape as tape_mod
from ..declare import API, as_tensor, public


def _dim(t, axis):
    d = t.shape[axis]
    return int(d) if d is not None else API["shape"](t)[axis]


def _ctc_state_trans(label_seq):
    a = API
    batch_size, num_labels = _dim(label_seq, 0), _dim(label_seq, 1)
    num_label_states = num_labels + 1
    num_states = 2 * num_label_states
    label_states = a["range"](num_label_states)
    blank_states = label_states + num_label_states
    start_to_label = [[1, 0]]
    blank_to_label = a["stack"]([label_states[1:], blank_states[:-1]], 1)
    label_to_blank = a["stack"]([blank_states, label_states], 1)
    indices = a["concat"]([start_to_label, blank_to_label, label_to_blank], 0)
    values = a["ones"]([_dim(indices, 0)])
    trans = a["scatter_nd"](indices, values, shape=[num_states, num_states])
    trans += a["eye"](num_states)
    batch_idx = a["zeros_like"](label_states[2:])
    indices = a["stack"]([batch_idx, label_states[2:], label_states[1:-1]], 1)
    indices = a["tile"](a["expand_dims"](indices, 0), [batch_size, 1, 1])
    batch_idx = a["expand_dims"](a["range"](batch_size), 1) * [1, 0, 0]
    indices += a["expand_dims"](batch_idx, 1)
    repeats = a["equal"](label_seq[:, :-1], label_seq[:, 1:])
    values = 1.0 - a["cast"](repeats, dtypes.float32)
    label_to_label = a["scatter_nd"](indices, values, [batch_size, num_states, num_states])
    return a["expand_dims"](trans, 0) + label_to_label


def _ctc_state_log_probs(seq_lengths, max_seq_length):
    a = API
    batch_size = _dim(seq_lengths, 0)
    num_label_states = max_seq_length + 1
    num_states = 2 * num_label_states
    log_0 = a["cast"](a["math.log"](a["cast"](0, dtypes.float64) + 1e-307), dtypes.float32)
    initial = a["one_hot"](indices=a["zeros"]([batch_size], dtype=dtypes.int32), depth=num_states, on_value=0.0,
                           off_value=log_0, axis=1)
    label_final_state_mask = a["one_hot"](seq_lengths, depth=num_label_states, axis=0)
    duration_final_state_mask = a["ones"]([2, 1, batch_size])
    final_state_mask = duration_final_state_mask * label_final_state_mask
    final = (1.0 - final_state_mask) * log_0
    final = a["reshape"](final, [num_states, batch_size])
    return initial, a["transpose"](final)


def _ilabel_to_state(labels, num_labels, ilabel_log_probs):
    a = API
    num_label_states = _dim(labels, 1)
    blank = a["tile"](ilabel_log_probs[:, :, :1], [1, 1, num_label_states + 1])
    one_hot = a["expand_dims"](a["one_hot"](labels, depth=num_labels), axis=0)
    ilabel_log_probs = a["expand_dims"](ilabel_log_probs, axis=2)
    state_log_probs = a["reduce_sum"](ilabel_log_probs * one_hot, axis=3)
    state_log_probs = a["concat"]([state_log_probs, blank], axis=2)
    return a["pad"](state_log_probs, [[0, 0], [0, 0], [1, 0]], constant_values=a["math.log"](0.0))


def _state_to_olabel(labels, num_labels, states):
    a = API
    num_label_states = _dim(labels, 1) + 1
    label_states = states[:, :, 1:num_label_states]
    blank_states = states[:, :, num_label_states:]
    one_hot = a["one_hot"](labels - 1, depth=num_labels - 1, on_value=0.0, off_value=a["math.log"](0.0))
    one_hot = a["expand_dims"](one_hot, axis=0)
    label_states = a["expand_dims"](label_states, axis=3)
    label_olabels = a["reduce_logsumexp"](label_states + one_hot, axis=2)
    blank_olabels = a["reduce_logsumexp"](blank_states, axis=2, keepdims=True)
    return a["concat"]([blank_olabels, label_olabels], axis=-1)


def _scan(fn, elems, initial, reverse=False):
    """TensorFlow's ``ctc_ops._scan`` (inclusive), as it runs eagerly: a Python loop of gathers and
    ``TensorScatterUpdate``s over the frames."""
    a = API
    flat_elems = [as_tensor(x) for x in (elems if isinstance(elems, tuple) else (elems,))]
    flat_initial = [as_tensor(x) for x in (initial if isinstance(initial, tuple) else (initial,))]
    n = _dim(flat_elems[0], 0)
    if not isinstance(n, int):
        raise NotImplementedError("devtrace does not implement tf.nn.ctc_loss for logits of an unknown number of "
                                  "frames yet")
    i = n - 1 if reverse else 0
    outs = []
    for accum in flat_initial:
        out = a["zeros"](a["concat"]([[n + 1], a["shape"](accum)], 0), dtype=accum.dtype)
        outs.append(a["tensor_scatter_nd_add"](out, [[i + (1 if reverse else 0)]], [accum]))
    accum = flat_initial
    while (i >= 0) if reverse else (i < n):
        slices = [a["gather"](e, i) for e in flat_elems]
        packed_accum = tuple(accum) if isinstance(initial, tuple) else accum[0]
        packed_elems = tuple(slices) if isinstance(elems, tuple) else slices[0]
        result = fn(packed_accum, packed_elems)
        accum = list(result) if isinstance(result, tuple) else [result]
        at = i if reverse else i + 1
        outs = [a["tensor_scatter_nd_update"](x, [[at]], [y]) for x, y in zip(outs, accum)]
        i = i - 1 if reverse else i + 1
    return tuple(outs) if isinstance(initial, tuple) else outs[0]


def _forward_backward_log(state_trans_log_probs, initial_state_log_probs, final_state_log_probs, observed_log_probs,
                          sequence_length):
    a = API
    bwd_state_trans_log_probs = a["transpose"](state_trans_log_probs, [0, 2, 1])
    batch_size = _dim(observed_log_probs, 1)

    def forward(state_log_prob, obs_log_prob):
        state_log_prob = a["expand_dims"](state_log_prob, axis=1)
        state_log_prob += state_trans_log_probs
        state_log_prob = a["reduce_logsumexp"](state_log_prob, axis=-1)
        state_log_prob += obs_log_prob
        log_prob_sum = a["reduce_logsumexp"](state_log_prob, axis=-1, keepdims=True)
        return state_log_prob - log_prob_sum

    fwd = _scan(forward, observed_log_probs, initial_state_log_probs)

    def backward(accs, elems):
        state_log_prob, cum_log_sum = accs
        obs_log_prob, mask = elems
        state_log_prob += obs_log_prob
        state_log_prob = a["expand_dims"](state_log_prob, axis=1)
        state_log_prob += bwd_state_trans_log_probs
        state_log_prob = a["reduce_logsumexp"](state_log_prob, axis=-1)
        log_prob_sum = a["reduce_logsumexp"](state_log_prob, axis=-1, keepdims=True)
        state_log_prob -= log_prob_sum
        cum_log_sum += a["squeeze"](log_prob_sum, axis=[-1]) * mask
        batched_mask = a["expand_dims"](mask, axis=1)
        out = state_log_prob * batched_mask
        out += final_state_log_probs * (1.0 - batched_mask)
        return out, cum_log_sum

    zero_log_sum = a["zeros"]([batch_size])
    maxlen = _dim(observed_log_probs, 0)
    mask = a["sequence_mask"](sequence_length, maxlen, dtypes.float32)
    mask = a["transpose"](mask, perm=[1, 0])
    bwd, cum_log_sum = _scan(backward, (observed_log_probs, mask), (final_state_log_probs, zero_log_sum), reverse=True)
    fwd_bwd_log_probs = fwd[1:] + bwd[1:]
    fwd_bwd_log_probs -= a["reduce_logsumexp"](fwd_bwd_log_probs, axis=2, keepdims=True)
    fwd_bwd_log_probs += a["math.log"](a["expand_dims"](mask, axis=2))
    log_likelihood = bwd[0, :, 0] + cum_log_sum[0]
    return fwd_bwd_log_probs, log_likelihood


def _ctc_loss_and_grad(logits, labels, label_length, logit_length):
    a = API
    num_labels = _dim(logits, 2)
    max_label_seq_length = _dim(labels, 1)
    ilabel_log_probs = a["nn.log_softmax"](logits)
    state_log_probs = _ilabel_to_state(labels, num_labels, ilabel_log_probs)
    state_trans_probs = _ctc_state_trans(labels)
    initial, final = _ctc_state_log_probs(label_length, max_label_seq_length)
    fwd_bwd_log_probs, log_likelihood = _forward_backward_log(a["math.log"](state_trans_probs), initial, final,
                                                              state_log_probs, logit_length)
    olabel_log_probs = _state_to_olabel(labels, num_labels, fwd_bwd_log_probs)
    grad = a["exp"](ilabel_log_probs) - a["exp"](olabel_log_probs)
    logit_mask = a["sequence_mask"](logit_length, _dim(logits, 0), dtypes.float32)
    logit_mask = a["expand_dims"](a["transpose"](logit_mask, perm=[1, 0]), axis=2)
    grad *= logit_mask
    return -log_likelihood, grad


@public("nn.ctc_loss")
def ctc_loss(labels, logits, label_length, logit_length, logits_time_major=True, unique=None, blank_index=None,
             name=None):
    """Connectionist temporal classification loss of dense ``labels`` (batch, max label length)."""
    if hasattr(labels, "indices") and hasattr(labels, "dense_shape"):
        raise NotImplementedError("devtrace does not implement tf.nn.ctc_loss of SparseTensor labels (the CTCLoss "
                                  "op) yet")
    if unique is not None:
        raise NotImplementedError("devtrace does not implement tf.nn.ctc_loss's unique argument yet")
    a = API
    blank_index = 0 if blank_index is None else blank_index
    logits, labels = as_tensor(logits), as_tensor(labels)
    label_length, logit_length = as_tensor(label_length), as_tensor(logit_length)
    orig_dtype = logits.dtype
    if orig_dtype in (dtypes.float16, dtypes.bfloat16):
        logits = a["cast"](logits, dtypes.float32)
    if not logits_time_major:
        logits = a["transpose"](logits, perm=[1, 0, 2])
    if blank_index != 0:
        if blank_index < 0:
            blank_index += _dim(logits, 2)
        logits = a["concat"]([logits[:, :, blank_index:blank_index + 1], logits[:, :, :blank_index],
                              logits[:, :, blank_index + 1:]], axis=2)
        labels = a["where"](labels < blank_index, labels + 1, labels)
    args = (logits, labels, label_length, logit_length)

    def compute(logits_t, labels_t, label_length_t, logit_length_t):
        loss, grad = _ctc_loss_and_grad(logits_t, labels_t, label_length_t, logit_length_t)

        def grad_fn(grad_loss):
            return [a["reshape"](grad_loss, [1, -1, 1]) * grad, None, None, None]
        return loss, grad_fn

    loss = tape_mod.call_with_custom_gradient(context(), compute, args, API["identity"])
    if orig_dtype in (dtypes.float16, dtypes.bfloat16):
        loss = a["cast"](loss, orig_dtype)
    return loss
