# Issue 10 area 2/4 (TensorShape): reprs, partial shapes, unknown rank, as_list, rank, merging, errors.
import tensorflow as tf
import sys


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


full = tf.TensorShape([2, 3])
part = tf.TensorShape([None, 3])
unk = tf.TensorShape(None)
cell("repr full", lambda: repr(full))
cell("str full", lambda: str(full))
cell("repr partial", lambda: repr(part))
cell("str partial", lambda: str(part))
cell("repr unknown", lambda: repr(unk))
cell("str unknown", lambda: str(unk))
cell("repr scalar shape", lambda: (repr(tf.TensorShape([])), str(tf.TensorShape([]))))
cell("repr 1-d", lambda: (repr(tf.TensorShape([5])), str(tf.TensorShape([5]))))
cell("tensor.shape repr", lambda: repr(tf.zeros([4, 1]).shape))
cell("as_list", lambda: (full.as_list(), part.as_list()))
cell("as_list unknown (error)", lambda: unk.as_list())
cell("rank ndims", lambda: (full.rank, part.ndims, unk.rank))
cell("len", lambda: len(full))
cell("len unknown (error)", lambda: len(unk))
cell("getitem", lambda: (full[0], part[0], full[-1], type(full[0]).__name__))
cell("getitem slice", lambda: repr(full[1:]))
cell("getitem unknown rank", lambda: repr(unk[0]))
cell("num_elements", lambda: (full.num_elements(), part.num_elements(), unk.num_elements()))
cell("is_fully_defined", lambda: (full.is_fully_defined(), part.is_fully_defined()))
cell("is_compatible_with", lambda: (part.is_compatible_with(full), full.is_compatible_with([3, 3]), unk.is_compatible_with(full)))
cell("merge_with", lambda: repr(part.merge_with(full)))
cell("merge_with incompatible (error)", lambda: full.merge_with([2, 4]))
cell("concatenate", lambda: repr(full.concatenate([7])))
cell("== list", lambda: (full == [2, 3], full == (2, 3), part == [None, 3], full == tf.TensorShape([2, 3])))
cell("!=", lambda: full != [2, 4])
cell("iterate", lambda: list(full))
cell("dims", lambda: full.dims)
cell("as_proto", lambda: str(full.as_proto()).replace("\n", " "))
cell("with_rank", lambda: repr(part.with_rank(2)))
cell("with_rank mismatch (error)", lambda: part.with_rank(3))
cell("assert_has_rank (error)", lambda: full.assert_has_rank(1))
cell("assert_is_compatible_with (error)", lambda: full.assert_is_compatible_with([1, 1]))
cell("negative dim (error)", lambda: tf.TensorShape([-2]))
cell("most_specific_compatible_shape", lambda: repr(full.most_specific_compatible_shape(tf.TensorShape([2, 4]))))
cell("bool", lambda: (bool(full), bool(tf.TensorShape([])), bool(unk)))
cell("Dimension", lambda: (repr(tf.compat.v1.Dimension(3)), repr(tf.compat.v1.Dimension(None))))
cell("hash works", lambda: hash(full) == hash(tf.TensorShape([2, 3])))
cell("tf.TensorShape from tuple", lambda: repr(tf.TensorShape((1, None, 2))))
cell("shape + shape", lambda: repr(full + part))
cell("tf.shape vs .shape", lambda: (tf.shape(tf.ones([2, 3])), tf.ones([2, 3]).shape))
