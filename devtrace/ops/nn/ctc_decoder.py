"""``tf.nn.ctc_beam_search_decoder``: TensorFlow 2.21's ``CTCBeamSearchDecoder`` op (CPU only, float32
and float64), its beam search as TensorFlow's ``ctc::CTCBeamSearchDecoder`` runs it with the default
scorer: a prefix tree of beams, each with its blank-ending, label-ending and total log probability
(each frame's log-softmax of the logits), the beam pruned to ``beam_width`` leaves
after each frame, the top paths' totals as their scores. The arithmetic is the kernel's dtype's, so
scores match TensorFlow's to its float rounding."""

from __future__ import annotations

import numpy as np

from ...runtime import dtypes
from ...runtime.eager.executor import execute
from ...runtime.registry import CPU
from ..declare import as_tensor, not_differentiable, on_host, op, public

_LOG_ZERO = -np.inf


class _Prob:
    __slots__ = ("total", "blank", "label")

    def __init__(self):
        self.total = self.blank = self.label = _LOG_ZERO

    def copy(self):
        p = _Prob()
        p.total, p.blank, p.label = self.total, self.blank, self.label
        return p


class _Entry:
    __slots__ = ("parent", "label", "children", "newp", "oldp")

    def __init__(self, parent, label):
        self.parent, self.label, self.children = parent, label, {}
        self.newp, self.oldp = _Prob(), _Prob()

    def child(self, label):
        c = self.children.get(label)
        if c is None:
            c = self.children[label] = _Entry(self, label)
        return c

    def active(self):
        return self.newp.total != _LOG_ZERO

    def labels(self, merge_repeated):
        out, previous, c = [], -1, self
        while c.parent is not None:
            if not merge_repeated or c.label != previous:
                out.append(c.label)
            previous, c = c.label, c.parent
        return out[::-1]


def _log_sum_exp(a, b):
    if a <= _LOG_ZERO:
        return b
    if b <= _LOG_ZERO:
        return a
    return a + np.log1p(np.exp(b - a)) if a > b else b + np.log1p(np.exp(a - b))


class _Leaves:
    """The beam: at most ``width`` entries, the best by total (TensorFlow's ``gtl::TopN``)."""

    def __init__(self, width):
        self.width, self.items = width, []

    def bottom(self):
        return min(self.items, key=lambda e: e.newp.total)

    def push(self, e):
        if len(self.items) < self.width:
            self.items.append(e)
            return
        worst = self.bottom()
        if e.newp.total > worst.newp.total:
            self.items.remove(worst)
            self.items.append(e)

    def extract(self):
        out = sorted(self.items, key=lambda e: -e.newp.total)
        self.items = []
        return out


def _decode_one(frames, beam_width, blank, merge_repeated, top_paths, one):
    root = _Entry(None, -1)
    root.newp.total = root.newp.blank = one(0.0)
    leaves = _Leaves(beam_width)
    leaves.push(root)
    for raw in frames:
        branches = leaves.extract()
        for b in branches:
            b.oldp = b.newp.copy()
        for b in branches:
            if b.parent is not None:
                if b.parent.active():
                    previous = b.parent.oldp.blank if b.label == b.parent.label else b.parent.oldp.total
                    b.newp.label = _log_sum_exp(b.newp.label, previous)
                b.newp.label = one(b.newp.label + raw[b.label])
            b.newp.blank = one(b.oldp.total + raw[blank])
            b.newp.total = _log_sum_exp(b.newp.blank, b.newp.label)
            leaves.push(b)

        def candidate(p):
            return p.total > _LOG_ZERO and (len(leaves.items) < beam_width or p.total > leaves.bottom().newp.total)

        for b in branches:
            if not candidate(b.oldp):
                continue
            for label in range(len(raw) - 1):
                c = b.child(label)
                if c.active():
                    continue
                c.newp.blank = _LOG_ZERO
                previous = b.oldp.blank if c.label == b.label else b.oldp.total
                c.newp.label = one(raw[label] + previous)
                c.newp.total = c.newp.label
                if candidate(c.newp):
                    if len(leaves.items) == beam_width:
                        leaves.bottom().newp = _Prob()
                    leaves.push(c)
                else:
                    c.oldp, c.newp = _Prob(), _Prob()
    if top_paths > beam_width:
        raise ValueError("requested more paths than the beam width.")
    if top_paths > len(leaves.items):
        raise ValueError("Less leaves in the beam search than requested.")
    best = sorted(leaves.items, key=lambda e: -e.newp.total)[:top_paths]
    return [e.labels(merge_repeated) for e in best], [e.newp.total for e in best]


def _beam_search(xp, inputs, sequence_length, beam_width=100, top_paths=1, merge_repeated=True):
    logits, lengths = on_host(xp, inputs), on_host(xp, sequence_length)
    t, batch, classes = logits.shape
    one = logits.dtype.type
    with np.errstate(all="ignore"):  # each frame's log-softmax, as the kernel hands it to the search
        shifted = logits - logits.max(axis=2, keepdims=True)
        logits = shifted - np.log(np.exp(shifted).sum(axis=2, keepdims=True))
    paths, log_probs = [], np.zeros((batch, top_paths), logits.dtype)
    for b in range(batch):
        decoded, scores = _decode_one(logits[:int(lengths[b]), b], beam_width, classes - 1, merge_repeated, top_paths,
                                      one)
        paths.append(decoded)
        log_probs[b] = scores
    indices, values, shapes = [], [], []
    for p in range(top_paths):
        rows = [(b, i, v) for b in range(batch) for i, v in enumerate(paths[b][p])]
        indices.append(np.array([(b, i) for b, i, _ in rows], np.int64).reshape(-1, 2))
        values.append(np.array([v for _, _, v in rows], np.int64))
        shapes.append(np.array([batch, max((len(paths[b][p]) for b in range(batch)), default=0)], np.int64))
    return (*indices, *values, *shapes, log_probs)


def _shape(name, shapes, attrs, dtype):
    n = attrs.get("top_paths", 1)
    batch = shapes[0][1] if shapes and shapes[0] is not None else None
    return ([(dtypes.int64, (None, 2))] * n + [(dtypes.int64, (None,))] * n + [(dtypes.int64, (2,))] * n
            + [(dtype, (batch, n))]), None


op("CTCBeamSearchDecoder", _beam_search, {"float32", "float64"}, devices=(CPU,), shape=_shape, multi=True,
   mixed_dtypes=True, number_attr="top_paths")
not_differentiable("CTCBeamSearchDecoder")


@public("nn.ctc_beam_search_decoder")
def ctc_beam_search_decoder(inputs, sequence_length, beam_width=100, top_paths=1):
    """The ``top_paths`` most probable label sequences of each example (repeated labels not merged),
    as ``SparseTensor``s, and their log probabilities (batch, top_paths)."""
    from ..sparse.sparse_tensor import SparseTensor

    x = as_tensor(inputs)
    lengths = as_tensor(sequence_length, slow_list=True)  # TensorFlow hands a list to the op as it is
    out = execute("CTCBeamSearchDecoder", (x, lengths),
                  {"beam_width": int(beam_width), "top_paths": int(top_paths), "merge_repeated": False})
    n = int(top_paths)
    return [SparseTensor(out[i], out[n + i], out[2 * n + i]) for i in range(n)], out[3 * n]
