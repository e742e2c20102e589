"""More of ``tf.strings``: ngrams (``StringNGrams``), unicode_transcode (``UnicodeTranscode``),
unsorted_segment_join (``UnsortedSegmentJoin``), unicode_decode/split ``_with_offsets``. CPU
only, as every string kernel of TensorFlow."""

from __future__ import annotations

import numpy as np

from ...runtime import dtypes
from ...runtime.eager.executor import execute
from ...runtime.registry import CPU
from ...runtime.values import constant
from ..declare import as_tensor, on_host, op, public
from .string_ops import _codec, _string


def _ngrams(xp, data, splits, separator=" ", ngram_widths=(), left_pad="", right_pad="", pad_width=0,
            preserve_short_sequences=False):
    data, splits = on_host(xp, data), on_host(xp, splits)
    out, out_splits = [], [0]
    for a, b in zip(splits[:-1], splits[1:]):
        row = list(data[a:b])
        for width in ngram_widths:
            pad = width - 1 if pad_width < 0 else min(pad_width, width - 1)
            padded = [left_pad.encode()] * pad + row + [right_pad.encode()] * pad
            grams = [separator.encode().join(padded[i:i + width]) for i in range(len(padded) - width + 1)]
            if not grams and preserve_short_sequences and row:
                grams = [separator.encode().join(padded)]
            out.extend(grams)
        out_splits.append(len(out))
    return np.array(out, dtype=object), np.array(out_splits, np.int64)


def _ngram_shapes(name, shapes, attrs, dtype):
    return [(dtypes.string, None), (dtypes.int64, None)], None


op("StringNGrams", _ngrams, {CPU: {"string"}}, devices=(CPU,), shape=_ngram_shapes, multi=True, mixed_dtypes=True)


@public("strings.ngrams")
def ngrams(data, ngram_width, separator=" ", pad_values=None, padding_width=None, preserve_short_sequences=False,
           name=None):
    from ..ragged.ragged_tensor import RaggedTensor  # strings sits below ragged
    widths = [int(ngram_width)] if np.ndim(ngram_width) == 0 else [int(w) for w in ngram_width]
    left, right = (pad_values if isinstance(pad_values, (list, tuple)) else (pad_values, pad_values)) \
        if pad_values is not None else ("", "")
    attrs = {"separator": separator, "ngram_widths": widths, "left_pad": left, "right_pad": right,
             "pad_width": (-1 if padding_width is None else int(padding_width)) if pad_values is not None else 0,
             "preserve_short_sequences": bool(preserve_short_sequences)}
    if isinstance(data, RaggedTensor):
        grams, splits = execute("StringNGrams", (data.flat_values, data.row_splits), attrs, name=name)
        return RaggedTensor(grams, splits)
    x = _string(data)
    rows = x.numpy().reshape(-1, x.shape[-1]) if x.shape.rank else x.numpy().reshape(1, -1)
    splits = constant(np.arange(rows.shape[0] + 1, dtype=np.int64) * rows.shape[1], dtypes.int64)
    grams, _ = execute("StringNGrams", (constant(rows.reshape(-1), dtypes.string), splits), attrs, name=name)
    return constant(grams.numpy().reshape(tuple(x.shape[:-1]) + (-1,)), dtypes.string)


def _transcode(xp, x, input_encoding="", output_encoding="", errors="replace", replacement_char=65533,
               replace_control_characters=False):
    flat = [v.decode(_codec(input_encoding), errors).encode(_codec(output_encoding)) for v in
            np.asarray(x, object).reshape(-1).tolist()]
    return np.array(flat, dtype=object).reshape(np.shape(x))


op("UnicodeTranscode", _transcode, {CPU: {"string"}}, devices=(CPU,))


@public("strings.unicode_transcode")
def unicode_transcode(input, input_encoding, output_encoding, errors="replace", replacement_char=65533,  # noqa: A002
                      replace_control_characters=False, name=None):
    attrs = {"input_encoding": input_encoding, "output_encoding": output_encoding, "errors": errors,
             "replacement_char": int(replacement_char), "replace_control_characters": bool(replace_control_characters)}
    return execute("UnicodeTranscode", (_string(input),), attrs, name=name)


def _segment_join(xp, inputs, segment_ids, num_segments, separator=""):
    inputs, ids = np.asarray(inputs, object), on_host(xp, segment_ids)
    n = int(num_segments)
    groups = [[[] for _ in range(int(np.prod(inputs.shape[ids.ndim:], dtype=np.int64)))] for _ in range(n)]
    rest = inputs.reshape((ids.size, -1))
    for segment, row in zip(ids.reshape(-1), rest):
        if 0 <= segment < n:
            for k, v in enumerate(row):
                groups[segment][k].append(v)
    out = np.array([[separator.encode().join(g) for g in group] for group in groups] or np.zeros((0, 0)), object)
    return out.reshape((n,) + inputs.shape[ids.ndim:])


op("UnsortedSegmentJoin", _segment_join, None, devices=(CPU,), mixed_dtypes=True, host_args={"num_segments": "num_segments"})


@public("strings.unsorted_segment_join")
def unsorted_segment_join(inputs, segment_ids, num_segments, separator="", name=None):
    return execute("UnsortedSegmentJoin", (_string(inputs), as_tensor(segment_ids)),
                   {"num_segments": int(num_segments), "separator": separator}, name=name, dtype=dtypes.string)


def _with_offsets(input, encoding, errors, as_chars):  # noqa: A002
    from ..ragged.ragged_ops import ragged_constant  # strings sits below ragged
    codec = _codec(encoding)
    values, offsets = [], []
    for v in _string(input).numpy().reshape(-1).tolist():
        chars = v.decode(codec, errors)
        row_offsets, at = [], 0
        for c in chars:
            row_offsets.append(at)
            at += len(c.encode(codec))
        values.append([c.encode(codec) for c in chars] if as_chars else [ord(c) for c in chars])
        offsets.append(row_offsets)
    return (ragged_constant(values, dtypes.string if as_chars else dtypes.int32, ragged_rank=1),
            ragged_constant(offsets, dtypes.int64, ragged_rank=1))


@public("strings.unicode_decode_with_offsets")
def unicode_decode_with_offsets(input, input_encoding, errors="replace", replacement_char=65533,  # noqa: A002
                                replace_control_characters=False, name=None):
    return _with_offsets(input, input_encoding, errors, as_chars=False)


@public("strings.unicode_split_with_offsets")
def unicode_split_with_offsets(input, input_encoding, errors="replace", replacement_char=65533, name=None):  # noqa: A002
    return _with_offsets(input, input_encoding, errors, as_chars=True)
