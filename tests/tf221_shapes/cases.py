"""Programs whose static shapes TensorFlow 2.21 infers inside a ``tf.function`` traced from an
``input_signature`` with ``None`` dimensions: one function per case, ``cases(tf)`` for either
TensorFlow (``capture_graph_shapes.py`` writes ``graph_shapes.json``) or devtrace (the test)."""


def cases(tf):
    S = lambda *d: tf.TensorSpec(list(d), tf.float32)  # noqa: E731
    I = tf.TensorSpec([], tf.int32)  # noqa: E731,E741
    cases = {
     "ss_cols": ([S(None, 8, 16, 8)], lambda x: x[:, 1:5]),
     "ss_ell": ([S(None, 8, 16, 8)], lambda x: x[..., :4]),
     "ss_ell_mid": ([S(None, 8, 16, 8)], lambda x: x[:, ..., 2:6:2]),
     "ss_shrink": ([S(None, 8, 16)], lambda x: x[:, 0]),
     "ss_shrink_last": ([S(None, 8, 16)], lambda x: x[..., -1]),
     "ss_newaxis": ([S(None, 8)], lambda x: x[:, tf.newaxis, :]),
     "ss_newaxis2": ([S(None, 8)], lambda x: x[tf.newaxis, ..., None]),
     "ss_neg_stride": ([S(None, 8)], lambda x: x[:, ::-1]),
     "ss_neg_stride2": ([S(None, 8)], lambda x: x[:, 6:1:-2]),
     "ss_batch_slice": ([S(None, 8)], lambda x: x[1:3]),
     "ss_batch_slice_open": ([S(None, 8)], lambda x: x[:3]),
     "ss_batch_neg": ([S(None, 8)], lambda x: x[-2:]),
     "ss_batch_shrink": ([S(None, 8)], lambda x: x[0]),
     "ss_out_of_range": ([S(None, 8)], lambda x: x[:, 5:100]),
     "ss_empty": ([S(None, 8)], lambda x: x[:, 5:2]),
     "ss_fn_masks": ([S(None, 8, 6)], lambda x: tf.strided_slice(x, [0, 1, 0], [0, 5, 0], [1, 2, 1], begin_mask=1, end_mask=5)),
     "ss_fn_shrink": ([S(None, 8, 6)], lambda x: tf.strided_slice(x, [0, 2], [0, 3], [1, 1], begin_mask=1, end_mask=1, shrink_axis_mask=2)),
     "ss_fn_ell": ([S(None, 8, 6)], lambda x: tf.strided_slice(x, [0, 1], [0, 3], [1, 1], ellipsis_mask=1)),
     "ss_fn_new": ([S(None, 8, 6)], lambda x: tf.strided_slice(x, [0, 0, 1], [0, 0, 3], [1, 1, 1], begin_mask=1, end_mask=1, new_axis_mask=2)),
     "ss_all_none": ([S(None, None)], lambda x: x[:, 1:3]),
     "ss_none_middle": ([S(4, None, 8)], lambda x: x[1:3, :, 2:]),
     "ss_unknown_rank": ([tf.TensorSpec(None, tf.float32)], lambda x: x[:, 1:3]),
     "ss_unknown_rank_ell": ([tf.TensorSpec(None, tf.float32)], lambda x: x[..., 1:3]),
     "reshape_m1": ([S(None, 4, 16)], lambda x: tf.reshape(x, [-1, 64])),
     "reshape_m1_last": ([S(None, 4, 16)], lambda x: tf.reshape(x, [8, -1])),
     "reshape_shape_chain": ([S(None, 4, 16)], lambda x: tf.reshape(x, [tf.shape(x)[0], 4, 4, 4])),
     "reshape_shape_chain2": ([S(None, 4, 16)], lambda x: tf.reshape(x, tf.concat([tf.shape(x)[:1], [64]], 0))),
     "reshape_shape_chain3": ([S(None, 4, 16)], lambda x: tf.reshape(x, tf.stack([tf.shape(x)[0], 2, -1]))),
     "reshape_shape_full": ([S(None, 4, 16)], lambda x: tf.reshape(x, tf.shape(x))),
     "reshape_shape_other": ([S(None, 4, 16), S(None, 64)], lambda x, y: tf.reshape(y, tf.shape(x))),
     "reshape_shape_mul": ([S(None, 4, 16)], lambda x: tf.reshape(x, [tf.shape(x)[0] * 4, 16])),
     "concat": ([S(None, 4), S(None, 6)], lambda x, y: tf.concat([x, y], axis=1)),
     "concat0": ([S(None, 4), S(3, 4)], lambda x, y: tf.concat([x, y], axis=0)),
     "concat_merge": ([S(None, 4), S(3, None)], lambda x, y: tf.concat([x, y], axis=-1)),
     "pack": ([S(None, 4), S(None, 4)], lambda x, y: tf.stack([x, y], axis=1)),
     "pack_merge": ([S(None, 4), S(3, None)], lambda x, y: tf.stack([x, y])),
     "unpack": ([S(None, 3)], lambda x: tf.unstack(x, axis=1)),
     "tile": ([S(None, 4)], lambda x: tf.tile(x, [2, 3])),
     "tile_dyn": ([S(None, 4)], lambda x: tf.tile(x, [1, tf.shape(x)[0]])),
     "pad": ([S(None, 4)], lambda x: tf.pad(x, [[1, 1], [2, 0]])),
     "pad_const": ([S(None, 4)], lambda x: tf.pad(x, [[0, 0], [2, 3]], constant_values=1.0)),
     "mirror_pad": ([S(None, 4)], lambda x: tf.pad(x, [[0, 0], [1, 1]], mode="REFLECT")),
     "gather_ax0": ([S(None, 4)], lambda x: tf.gather(x, [0, 1, 2])),
     "gather_ax1": ([S(None, 4)], lambda x: tf.gather(x, [0, 1, 2], axis=1)),
     "gather_dyn_idx": ([S(None, 4), tf.TensorSpec([None], tf.int32)], lambda x, i: tf.gather(x, i, axis=1)),
     "gather_batch": ([S(None, 5, 4), tf.TensorSpec([None, 3], tf.int32)], lambda x, i: tf.gather(x, i, axis=1, batch_dims=1)),
     "transpose": ([S(None, 4, 5)], lambda x: tf.transpose(x, [0, 2, 1])),
     "transpose_default": ([S(None, 4, 5)], lambda x: tf.transpose(x)),
     "expand": ([S(None, 4)], lambda x: tf.expand_dims(x, -1)),
     "expand1": ([S(None, 4)], lambda x: tf.expand_dims(x, 1)),
     "squeeze_ax": ([S(None, 1, 4)], lambda x: tf.squeeze(x, 1)),
     "squeeze_all": ([S(None, 1, 4)], lambda x: tf.squeeze(x)),
     "split": ([S(None, 6)], lambda x: tf.split(x, 3, axis=1)),
     "split_v": ([S(None, 6)], lambda x: tf.split(x, [1, 5], axis=1)),
     "split_v_m1": ([S(None, 6)], lambda x: tf.split(x, [1, -1], axis=1)),
     "split_batch": ([S(None, 6)], lambda x: tf.split(x, 2, axis=0)),
     "slice": ([S(None, 6)], lambda x: tf.slice(x, [0, 1], [-1, 3])),
     "slice_batch": ([S(None, 6)], lambda x: tf.slice(x, [1, 1], [2, -1])),
     "matmul": ([S(None, 6), S(6, 3)], lambda x, w: tf.matmul(x, w)),
     "bmm": ([S(None, 4, 6), S(None, 6, 3)], lambda x, w: tf.matmul(x, w)),
     "bmm_bcast": ([S(None, 4, 6), S(6, 3)], lambda x, w: tf.matmul(x, w)),
     "bmm_t": ([S(None, 2, 4, 6), S(None, 2, 5, 6)], lambda x, w: tf.matmul(x, w, transpose_b=True)),
     "conv2d": ([S(None, 8, 8, 3), S(3, 3, 3, 4)], lambda x, w: tf.nn.conv2d(x, w, 1, "SAME")),
     "conv2d_valid_s2": ([S(None, 9, 9, 3), S(3, 3, 3, 4)], lambda x, w: tf.nn.conv2d(x, w, 2, "VALID")),
     "conv2d_none_hw": ([S(None, None, None, 3), S(3, 3, 3, 4)], lambda x, w: tf.nn.conv2d(x, w, 1, "VALID")),
     "maxpool": ([S(None, 8, 8, 3)], lambda x: tf.nn.max_pool2d(x, 2, 2, "VALID")),
     "avgpool_same": ([S(None, 7, 7, 3)], lambda x: tf.nn.avg_pool2d(x, 3, 2, "SAME")),
     "reduce_keep": ([S(None, 4, 5)], lambda x: tf.reduce_sum(x, axis=1, keepdims=True)),
     "reduce_keep_all": ([S(None, 4, 5)], lambda x: tf.reduce_mean(x, keepdims=True)),
     "reduce_noaxis": ([S(None, 4, 5)], lambda x: tf.reduce_max(x, axis=[0, 2])),
     "reduce_dyn_axis": ([S(None, 4, 5), tf.TensorSpec([], tf.int32)], lambda x, a: tf.reduce_sum(x, axis=a)),
     "reduce_dyn_axis_keep": ([S(None, 4, 5), tf.TensorSpec([], tf.int32)], lambda x, a: tf.reduce_sum(x, axis=a, keepdims=True)),
     "shape_op": ([S(None, 4, 5)], lambda x: tf.shape(x)),
     "shape_slice": ([S(None, 4, 5)], lambda x: tf.shape(x)[1:]),
     "fill_shape": ([S(None, 4, 5)], lambda x: tf.zeros(tf.shape(x))),
     "fill_shape2": ([S(None, 4, 5)], lambda x: tf.ones([tf.shape(x)[0], 3])),
     "zeros_like": ([S(None, 4, 5)], lambda x: tf.zeros_like(x)),
     "bcast_to": ([S(None, 1, 5)], lambda x: tf.broadcast_to(x, [tf.shape(x)[0], 4, 5])),
     "one_hot": ([tf.TensorSpec([None, 3], tf.int32)], lambda i: tf.one_hot(i, 10)),
     "argmax": ([S(None, 4, 5)], lambda x: tf.argmax(x, axis=-1)),
     "cumsum": ([S(None, 4, 5)], lambda x: tf.cumsum(x, axis=1)),
     "range_shape": ([S(None, 4)], lambda x: tf.range(tf.shape(x)[0])),
     "range_const": ([S(None, 4)], lambda x: tf.range(tf.shape(x)[1])),
     "softmax": ([S(None, 4, 5)], lambda x: tf.nn.softmax(x)),
     "where3": ([S(None, 4), S(None, 4)], lambda x, y: tf.where(x > 0, x, y)),
     "bias_add": ([S(None, 4), S(4)], lambda x, b: tf.nn.bias_add(x, b)),
     "einsum": ([S(None, 4, 5), S(5, 6)], lambda x, w: tf.einsum("bij,jk->bik", x, w)),
     "topk": ([S(None, 8)], lambda x: tf.math.top_k(x, 3)),
     "reverse": ([S(None, 8)], lambda x: tf.reverse(x, [1])),
     "depth_to_space": ([S(None, 4, 4, 8)], lambda x: tf.nn.depth_to_space(x, 2)),
     "resize": ([S(None, 4, 4, 3)], lambda x: tf.image.resize(x, [8, 8])),
     "boolean_mask": ([S(None, 4), tf.TensorSpec([None], tf.bool)], lambda x, m: tf.boolean_mask(x, m)),
     "seq_mask": ([tf.TensorSpec([None], tf.int32)], lambda l: tf.sequence_mask(l, 7)),
     "segment": ([S(None, 4)], lambda x: tf.math.unsorted_segment_sum(x, tf.zeros([tf.shape(x)[0]], tf.int32), 3)),
     "batch_to_space": ([S(None, 2, 2, 1)], lambda x: tf.nn.space_to_depth(x, 2)),
     "layer_norm_moments": ([S(None, 4, 5)], lambda x: tf.nn.moments(x, axes=[-1], keepdims=True)),
     "linspace": ([S(None, 4)], lambda x: tf.linspace(0.0, 1.0, 5)),
     "ensure_shape": ([S(None, None)], lambda x: tf.ensure_shape(x, [None, 4])),
     "set_shape_reshape_dyn": ([S(None, 4, 16)], lambda x: tf.reshape(x, [-1, tf.shape(x)[1] * tf.shape(x)[2]])),
     "keras_mha_style": ([S(None, 10, 16)], lambda x: tf.transpose(tf.reshape(x, [tf.shape(x)[0], -1, 4, 4]), [0, 2, 1, 3])),
     "tensor_idx": ([S(None, 8, 5), I], lambda x, i: x[:, i]),
     "tensor_idx0": ([S(None, 8, 5), I], lambda x, i: x[i]),
     "tensor_bounds": ([S(None, 8, 5), I], lambda x, i: x[:, i:i + 2]),
     "tensor_bounds_ell": ([S(None, 8, 5), I], lambda x, i: x[..., :i]),
     "tensor_idx_ell": ([S(None, 8, 5), I], lambda x, i: x[..., i]),
     "ss_fn_tensor_begin": ([S(None, 8, 5), tf.TensorSpec([3], tf.int32)], lambda x, b: tf.strided_slice(x, b, [0, 4, 5], [1, 1, 1], begin_mask=1, end_mask=1)),
     "shrink_oob": ([S(None, 8)], lambda x: x[:, 10]),
     "stride0": ([S(None, 8)], lambda x: x[:, ::0]),
     "too_many": ([S(None, 8)], lambda x: x[:, 1, 2]),
     "ss_unknown_rank_2": ([tf.TensorSpec(None, tf.float32)], lambda x: x[:, 1:3]),
     "ss_unknown_rank_shrink": ([tf.TensorSpec(None, tf.float32)], lambda x: x[0]),
     "ss_scalar": ([S()], lambda x: x[0]),
     "two_ell": ([S(None, 8)], lambda x: x[..., ...]),
     "shape_of_slice": ([S(None, 8, 3)], lambda x: tf.zeros(tf.shape(x)[1:])),
     "shape_ss_reshape": ([S(None, 8, 3)], lambda x: tf.reshape(x, tf.concat([[-1], tf.shape(x)[1:2], [3]], 0))),
     "shape_ss_reshape2": ([S(None, 8, 3)], lambda x: tf.reshape(x, tf.concat([tf.shape(x)[:-1], [3, 1]], 0))),
     "shape_mul_dyn": ([S(None, 8, 3)], lambda x: tf.reshape(x, [tf.shape(x)[0] * 8, 3])),
     "shape_mul_static": ([S(None, 8, 3)], lambda x: tf.reshape(x, [-1, tf.shape(x)[1] * tf.shape(x)[2]])),
     "shape_add_static": ([S(None, 8, 3)], lambda x: tf.zeros([tf.shape(x)[1] + 1])),
     "shape_cast": ([S(None, 8, 3)], lambda x: tf.zeros(tf.cast(tf.shape(x)[1:], tf.int64))),
     "shapen": ([S(None, 8, 3)], lambda x: tf.reshape(x, tf.shape_n([x])[0])),
     "shape_int_fold": ([S(None, 8, 3)], lambda x: tf.reshape(x, [tf.shape(x)[0], tf.shape(x)[1] // 2, -1])),
     "fill_dims_pack": ([S(None, 8, 3)], lambda x: tf.fill([tf.shape(x)[0], tf.shape(x)[2]], 1.0)),
     "ones_tensor_shape": ([S(None, 8, 3)], lambda x: tf.ones((tf.shape(x)[0], 8))),
     "random_shape": ([S(None, 8, 3)], lambda x: tf.random.uniform(tf.shape(x))),
     "random_shape2": ([S(None, 8, 3)], lambda x: tf.random.normal([tf.shape(x)[0], 4])),
     "tile_pack": ([S(None, 8)], lambda x: tf.tile(x[:, None, :], [1, tf.shape(x)[1], 1])),
     "bcast_shape": ([S(None, 1, 3)], lambda x: tf.broadcast_to(x, tf.concat([tf.shape(x)[:1], [5, 3]], 0))),
     "range_static": ([S(None, 8, 3)], lambda x: tf.range(tf.shape(x)[1])),
     "range_static2": ([S(None, 8, 3)], lambda x: tf.range(0, tf.shape(x)[1], 2)),
     "eye_shape": ([S(None, 8, 3)], lambda x: tf.eye(tf.shape(x)[1])),
     "one_hot_dyn_depth": ([tf.TensorSpec([None], tf.int32), S(None, 8)], lambda i, x: tf.one_hot(i, tf.shape(x)[1])),
     "seq_mask_static": ([tf.TensorSpec([None], tf.int32), S(None, 8)], lambda l, x: tf.sequence_mask(l, tf.shape(x)[1])),
     "unstack_none_axis": ([S(None, 3)], lambda x: tf.unstack(x, axis=1)),
     "pad_dyn": ([S(None, 8)], lambda x: tf.pad(x, [[0, 0], [0, tf.shape(x)[1]]])),

        # a second sweep: composites built from shape chains, and other common shape functions
        "tensordot": ([S(None, 4, 5), S(5, 6)], lambda x, w: tf.tensordot(x, w, axes=1)),
        "tensordot2": ([S(None, 4, 5), S(4, 5, 6)], lambda x, w: tf.tensordot(x, w, axes=[[1, 2], [0, 1]])),
        "conv1d": ([S(None, 10, 3), S(3, 3, 4)], lambda x, w: tf.nn.conv1d(x, w, 1, "SAME")),
        "depthwise": ([S(None, 8, 8, 3), S(3, 3, 3, 2)], lambda x, w: tf.nn.depthwise_conv2d(x, w, [1, 1, 1, 1], "SAME")),
        "avg_pool1d": ([S(None, 10, 3)], lambda x: tf.nn.avg_pool1d(x, 2, 2, "VALID")),
        "max_pool_none_hw": ([S(None, None, None, 3)], lambda x: tf.nn.max_pool2d(x, 2, 2, "SAME")),
        "global_mean": ([S(None, 7, 7, 3)], lambda x: tf.reduce_mean(x, axis=[1, 2])),
        "reduce_neg_keep": ([S(None, 4, 5)], lambda x: tf.reduce_max(x, axis=-1, keepdims=True)),
        "squeeze_neg": ([S(None, 4, 1)], lambda x: tf.squeeze(x, -1)),
        "expand_unknown_rank": ([tf.TensorSpec(None, tf.float32)], lambda x: tf.expand_dims(x, -1)),
        "reshape_shape_slice": ([S(None, 4, 5), S(None, 20)], lambda x, y: tf.reshape(y, tf.shape(x)[:2] * [1, 5])),
        "reshape_concat_shapes": ([S(None, 4, 5)], lambda x: tf.reshape(x, tf.concat([tf.shape(x)[:-2], [-1]], 0))),
        "gather_nd": ([S(None, 4, 5), tf.TensorSpec([None, 2], tf.int32)], lambda x, i: tf.gather_nd(x, i)),
        "gather_nd_batch": ([S(None, 4, 5), tf.TensorSpec([None, 3, 1], tf.int32)],
                            lambda x, i: tf.gather_nd(x, i, batch_dims=1)),
        "scatter_nd_shape": ([tf.TensorSpec([None, 1], tf.int32), S(None, 4)],
                             lambda i, u: tf.scatter_nd(i, u, tf.stack([8, tf.shape(u)[1]]))),
        "sort": ([S(None, 5)], lambda x: tf.sort(x, axis=-1)),
        "argsort": ([S(None, 5)], lambda x: tf.argsort(x)),
        "repeat": ([S(None, 3)], lambda x: tf.repeat(x, 2, axis=1)),
        "repeat_batch": ([S(None, 3)], lambda x: tf.repeat(x, 2, axis=0)),
        "cumprod_rev": ([S(None, 3)], lambda x: tf.math.cumprod(x, axis=1, reverse=True)),
        "l2norm": ([S(None, 3)], lambda x: tf.math.l2_normalize(x, axis=-1)),
        "log_softmax": ([S(None, 3)], lambda x: tf.nn.log_softmax(x)),
        "sparse_xent": ([S(None, 3), tf.TensorSpec([None], tf.int32)],
                        lambda x, y: tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=x)),
        "xent": ([S(None, 3), S(None, 3)], lambda x, y: tf.nn.softmax_cross_entropy_with_logits(labels=y, logits=x)),
        "frame": ([S(None, 16)], lambda x: tf.signal.frame(x, 4, 2)),
        "matmul_none_inner": ([S(None, None), S(None, 3)], lambda x, w: tf.matmul(x, w)),
        "bmm_rank_mismatch": ([S(None, 2, 4, 6), S(6, 3)], lambda x, w: tf.matmul(x, w)),
        "unstack_unknown": ([S(3, None)], lambda x: tf.unstack(x, axis=1)),
        "split_unknown_axis": ([S(3, None)], lambda x: tf.split(x, 2, axis=1)),
        "where_1arg": ([S(None, 3)], lambda x: tf.where(x > 0)),
        "linalg_t": ([S(None, 3, 4)], lambda x: tf.linalg.matrix_transpose(x)),
        "diag_part": ([S(None, 3, 3)], lambda x: tf.linalg.diag_part(x)),
        "band_part": ([S(None, 3, 3)], lambda x: tf.linalg.band_part(x, 0, -1)),
        "one_hot_axis0": ([tf.TensorSpec([None, 3], tf.int32)], lambda i: tf.one_hot(i, 4, axis=0)),
        "clip": ([S(None, 3)], lambda x: tf.clip_by_value(x, 0.0, 1.0)),
        "stack_neg_axis": ([S(None, 3), S(None, 3)], lambda x, y: tf.stack([x, y], axis=-1)),
        "concat_neg_axis": ([S(None, 3), S(None, 2)], lambda x, y: tf.concat([x, y], axis=-1)),
        "ss_shape_then_zeros": ([S(None, 4, 5)], lambda x: tf.zeros([tf.shape(x)[0], tf.shape(x)[-1]])),
        "range_len_mul": ([S(None, 4, 5)], lambda x: tf.range(tf.shape(x)[1] * tf.shape(x)[2])),
        "size_static": ([S(2, 4, 5)], lambda x: tf.zeros([tf.size(x)])),
        "rank_static": ([S(None, 4, 5)], lambda x: tf.zeros([tf.rank(x)])),
        "maximum_shapes": ([S(None, 4, 5)], lambda x: tf.zeros([tf.maximum(tf.shape(x)[1], tf.shape(x)[2])])),
    }
    return cases


def slice_programs(tf):
    """``(input_signature, fn, arguments)``: a slice's gradient, and slices with tensor indices."""
    S = lambda *d: tf.TensorSpec(list(d), tf.float32)  # noqa: E731
    I = tf.TensorSpec([], tf.int32)  # noqa: E731,E741

    def grad_of(slicer):
        def fn(x):
            with tf.GradientTape() as tape:
                tape.watch(x)
                y = tf.reduce_sum(slicer(x) * 2.0)
            return tape.gradient(y, x)
        return fn

    x = tf.reshape(tf.range(12.0), [2, 6])
    return {
        "grad_batch_none": ([S(None, 6)], grad_of(lambda x: x[:, 1:3]), (x,)),
        "grad_static": ([S(2, 6)], grad_of(lambda x: x[:, 1:3]), (x,)),
        "grad_shrink_none": ([S(None, 6)], grad_of(lambda x: x[..., -1]), (x,)),
        "index_tensor": ([S(None, 6), I], lambda x, i: x[:, i], (x, tf.constant(4))),
        "bounds_tensor": ([S(None, 6), I], lambda x, i: x[:, i:i + 2], (x, tf.constant(3))),
        "index_tensor_ellipsis": ([S(None, 6), I], lambda x, i: x[..., i], (x, tf.constant(-1))),
    }


def _shapes(out):
    """The outputs' static shapes (nested lists; ``None``: unknown rank)."""
    if isinstance(out, (list, tuple)):
        return [_shapes(o) for o in out]
    return None if out.shape.rank is None else out.shape.as_list()


def run(tf, sig, fn, autograph=True):
    """The traced outputs' static shapes, or the error's first line (``autograph=False``: the test's,
    the programs have no control flow to convert)."""
    try:
        traced = tf.function(fn, input_signature=sig, autograph=autograph).get_concrete_function()
        return _shapes(traced.structured_outputs)
    except Exception as e:  # noqa: BLE001 (the error is the captured result)
        line = str(e).split(" for '")[0].splitlines()[-1].strip()  # AutoGraph's text ends "ValueError: …"
        return f"error: {type(e).__name__}: " + line.removeprefix(f"{type(e).__name__}: ")


def dynamic_programs(tf):
    """``(input_signature, fn, arguments)``: ops given an argument computed in the graph (known only
    when it runs), their static shapes and values."""
    S = lambda *d: tf.TensorSpec(list(d), tf.float32)  # noqa: E731
    I = tf.TensorSpec([], tf.int32)  # noqa: E731,E741
    x = tf.reshape(tf.range(12.0), [3, 4])
    return {
        "slice_begin": ([S(None, 4), I], lambda x, i: tf.slice(x, [0, i], [-1, 2]), (x, tf.constant(1))),
        "slice_size": ([S(None, 4), I], lambda x, i: tf.slice(x, [0, 1], [i, -1]), (x, tf.constant(2))),
        "slice_tensor_begin": ([S(None, 4), tf.TensorSpec([2], tf.int32)], lambda x, b: tf.slice(x, b, [1, 2]),
                               (x, tf.constant([1, 1]))),
        "top_k": ([S(None, 4), I], lambda x, k: tf.math.top_k(x, k)[0], (x, tf.constant(2))),
        "one_hot_depth": ([tf.TensorSpec([None], tf.int32), I], lambda i, d: tf.one_hot(i, d),
                          (tf.constant([0, 1]), tf.constant(3))),
        "one_hot_on_value": ([tf.TensorSpec([None], tf.int32)], lambda i: tf.one_hot(i, 3, on_value=tf.constant(5.0)),
                             (tf.constant([0, 2]),)),
        "tile": ([S(None, 4), I], lambda x, p: tf.tile(x, [p, 1]), (x, tf.constant(2))),
        "strided_slice_begin": ([S(None, 4), tf.TensorSpec([2], tf.int32)],
                                lambda x, b: tf.strided_slice(x, b, [3, 4], [1, 2]), (x, tf.constant([1, 0]))),
        "repeat": ([S(None, 4)], lambda x: tf.repeat(x, 2, axis=0), (x,)),
        "pad": ([S(None, 4), I], lambda x, p: tf.pad(x, [[0, 0], [p, 0]]), (x, tf.constant(1))),
        "concat_axis": ([S(None, 4), I], lambda x, a: tf.concat([x, x], a), (x, tf.constant(1))),
        "transpose_perm": ([S(None, 4), tf.TensorSpec([2], tf.int32)], lambda x, p: tf.transpose(x, p),
                           (x, tf.constant([1, 0]))),
        "expand_dims_axis": ([S(None, 4), I], lambda x, a: tf.expand_dims(x, a), (x, tf.constant(1))),
    }
