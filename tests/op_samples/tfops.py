"""Samples: issue 28's breadth of tf.math / tf.math.special, tf.nn, tf.linalg, tf.signal, tf.sparse,
tf.strings and tf's top level. The special functions' values are TensorFlow 2.21's (probed in
/work/tfvenv: ``tf.math.special.bessel_i0(np.array([0.5, 1.5, 3.0], np.float32))`` …), as NumPy has
none of them."""

import numpy as np

import devtrace as tf

from . import Sample
from .math import t

S = np.array([0.5, 1.5, 3.0], np.float32)
_TF_SPECIAL = {  # TensorFlow 2.21's values of S
    "bessel_i0": ("BesselI0", [1.063483476638794, 1.6467232704162598, 4.88079309463501]),
    "bessel_i0e": ("BesselI0e", [0.6450353860855103, 0.3674336373806, 0.24300038814544678]),
    "bessel_i1": ("BesselI1", [0.2578943371772766, 0.9816663861274719, 3.953371047973633]),
    "bessel_i1e": ("BesselI1e", [0.15642082691192627, 0.21903938055038452, 0.1968267560005188]),
    "bessel_j0": ("BesselJ0", [0.9384698867797852, 0.5118277072906494, -0.2600519061088562]),
    "bessel_j1": ("BesselJ1", [0.24226847290992737, 0.5579365491867065, 0.3390589654445648]),
    "bessel_k0": ("BesselK0", [0.924419105052948, 0.2138056457042694, 0.034739505499601364]),
    "bessel_k0e": ("BesselK0e", [1.5241093635559082, 0.9582104086875916, 0.6977616548538208]),
    "bessel_k1": ("BesselK1", [1.6564409732818604, 0.2773878574371338, 0.04015643149614334]),
    "bessel_k1e": ("BesselK1e", [2.7310094833374023, 1.2431660890579224, 0.8065634965896606]),
    "bessel_y0": ("BesselY0", [-0.44451871514320374, 0.3824489414691925, 0.37685003876686096]),
    "bessel_y1": ("BesselY1", [-1.4714723825454712, -0.41230863332748413, 0.3246743977069855]),
    "dawsn": ("Dawsn", [0.42443639039993286, 0.4282490909099579, 0.17827101051807404]),
    "expint": ("Expint", [0.4542198181152344, 3.301285743713379, 9.933833122253418]),
    "fresnel_cos": ("FresnelCos", [0.4923442006111145, 0.4452612102031708, 0.6057207584381104]),
    "fresnel_sin": ("FresnelSin", [0.06473242491483688, 0.6975048780441284, 0.4963130056858063]),
    "spence": ("Spence", [0.5822403430938721, -0.4484141767024994, -1.43674635887146]),
}


def _f32(values):
    return np.array(values, np.float32)


def _special(name, op, want):
    return Sample(op, lambda: getattr(tf.math.special, name)(t(S)), _f32(want))


def _igamma_grad_a():
    a = t(np.array([0.5, 2.0, 4.0], np.float32))
    with tf.GradientTape() as tape:
        tape.watch(a)
        y = tf.math.igamma(a, t(np.array([1.0, 1.0, 5.0], np.float32)))
    return tape.gradient(y, a)


IG_A, IG_X = np.array([0.5, 2.0, 4.0], np.float32), np.array([1.0, 1.0, 5.0], np.float32)
MATH = [_special(name, op, want) for name, (op, want) in _TF_SPECIAL.items()] + [
    Sample("Erfinv", lambda: tf.math.erfinv(t(np.array([-0.5, 0.25, 0.9], np.float32))),
           _f32([-0.47693631052970886, 0.22531205415725708, 1.1630871295928955])),
    Sample("Ndtri", lambda: tf.math.ndtri(t(np.array([0.1, 0.5, 0.975], np.float32))),
           _f32([-1.2815515995025635, 0.0, 1.959964394569397])),
    Sample("Igamma", lambda: tf.math.igamma(t(IG_A), t(IG_X)), _f32([0.8427008390426636, 0.26424112915992737,
                                                               0.7349740266799927])),
    Sample("Igammac", lambda: tf.math.igammac(t(IG_A), t(IG_X)), _f32([0.15729916095733643, 0.735758900642395,
                                                                 0.26502594351768494])),
    Sample("IgammaGradA", _igamma_grad_a, _f32([-0.38983726501464844, -0.2761960029602051, -0.16328980028629303])),
    Sample("Zeta", lambda: tf.math.zeta(t(_f32([2, 3, 1.5])), t(_f32([1, 2, 0.5]))),
           _f32([1.644934058189392, 0.2020569145679474, 4.776537895202637])),
    Sample("Betainc", lambda: tf.math.betainc(t(_f32([0.5, 2, 3])), t(_f32([1, 2, 0.5])), t(_f32([0.2, 0.5, 0.9]))),
           _f32([0.4472135603427887, 0.5, 0.4454154968261719])),
    Sample("NextAfter", lambda: tf.math.nextafter(t(_f32([1, 0])), t(_f32([2, -1]))),
           np.nextafter(_f32([1, 0]), _f32([2, -1]))),
    Sample("Xlog1py", lambda: tf.math.xlog1py(t(_f32([0, 2, 3])), t(_f32([-1, 1, 0.5]))),
           _f32([0.0, 2 * np.log(2), 3 * np.log(1.5)])),
    Sample("ApproxTopK", lambda: tf.math.approx_max_k(t(_f32([[3, 1, 4, 1, 5]])), 2),
           [_f32([[5, 4]]), np.array([[4, 2]], np.int32)]),
]



def _assert_in_function():
    @tf.function
    def check(x):
        tf.debugging.Assert(tf.reduce_all(x > 0), [x])
        return x + 1
    return check(t(_f32([1, 2])))


_STACKED = np.arange(16, dtype=np.float32).reshape(1, 4, 4, 1)
_BATCHED = np.array([[[0, 2], [8, 10]], [[1, 3], [9, 11]], [[4, 6], [12, 14]], [[5, 7], [13, 15]]],
                    np.float32).reshape(4, 2, 2, 1)
TOP = [
    Sample("IdentityN", lambda: tf.identity_n([t(_f32([1, 2])), t(np.int64(3))]), [_f32([1, 2]), np.int64(3)]),
    Sample("GuaranteeConst", lambda: tf.guarantee_const(t(_f32([1, 2]))), _f32([1, 2]), "CPU"),
    Sample("DynamicPartition", lambda: tf.dynamic_partition(t(_f32([1, 2, 3, 4])), t(np.array([0, 1, 0, 1], np.int32)),
                                                            2), [_f32([1, 3]), _f32([2, 4])]),
    Sample("DynamicStitch", lambda: tf.dynamic_stitch([t(np.array([0, 2], np.int32)), t(np.array([1, 3], np.int32))],
                                                      [t(_f32([1, 2])), t(_f32([3, 4]))]), _f32([1, 3, 2, 4])),
    Sample("SpaceToBatchND", lambda: tf.space_to_batch(t(_STACKED), [2, 2], [[0, 0], [0, 0]]), _BATCHED),
    Sample("BatchToSpaceND", lambda: tf.batch_to_space(t(_BATCHED), [2, 2], [[0, 0], [0, 0]]), _STACKED),
    # TensorFlow 2.21's: tf.fingerprint(tf.constant(["hello"]))
    Sample("Fingerprint", lambda: tf.fingerprint(t(np.array([b"hello"], object))),
           np.array([[232, 12, 56, 49, 169, 229, 139, 180]], np.uint8), "CPU"),
    Sample("Timestamp", lambda: tf.timestamp(), lambda v: v.dtype == np.float64 and v > 1.7e9, "CPU"),
    Sample("EditDistance", lambda: tf.edit_distance(
        tf.sparse.SparseTensor([[0, 0, 0], [1, 0, 0]], ["a", "b"], [2, 2, 1]),
        tf.sparse.SparseTensor([[0, 1, 0], [1, 0, 0], [1, 0, 1]], ["a", "b", "c"], [2, 2, 2])),
        _f32([[np.inf, 1], [0.5, 0]]), "CPU"),
    Sample("Assert", _assert_in_function, _f32([2, 3])),  # a DEFAULT kernel: every device type
]



# tf.nn: inputs and TensorFlow 2.21's values for them (tf.nn.conv3d(X3, W3, [1, 1, 1, 1, 1], "VALID") …)
X3 = (np.arange(2 * 3 * 3 * 2, dtype=np.float32).reshape(1, 2, 3, 3, 2) - 15) / 8
W3 = (np.arange(2 * 2 * 1 * 2 * 2, dtype=np.float32).reshape(2, 2, 1, 2, 2) - 7) / 5
X4 = (np.arange(1 * 3 * 3 * 2, dtype=np.float32).reshape(1, 3, 3, 2) - 8) / 4
D4 = (np.arange(2 * 2 * 2 * 1, dtype=np.float32).reshape(2, 2, 2, 1) - 3) / 2
G4 = (np.arange(1 * 2 * 2 * 2, dtype=np.float32).reshape(1, 2, 2, 2) - 3) / 3
L3 = np.log(np.array([[[0.6, 0.3, 0.1]], [[0.2, 0.7, 0.1]], [[0.1, 0.1, 0.8]]], np.float32))
_CONV3D = [[[[[8.5, 8.0], [8.5, 8.399999618530273], [8.5, 8.800000190734863]], [[8.5, 9.200000762939453], [8.5, 9.600000381469727], [8.5, 10.0]]]]]
_CONV3DT = [[[[[-21.5, -14.899999618530273], [-21.979999542236328, -15.220000267028809], [-22.46000099182129, -15.539999961853027]], [[-31.240001678466797, -17.560001373291016], [-31.880001068115234, -17.880001068115234], [-32.52000045776367, -18.200000762939453]], [[-8.780000686645508, -1.7000000476837158], [-8.940000534057617, -1.7000000476837158], [-9.100000381469727, -1.7000000476837158]]], [[[4.900000095367432, 11.5], [5.059999942779541, 11.820000648498535], [5.220000267028809, 12.140000343322754]], [[23.48000144958496, 37.160003662109375], [24.1200008392334, 38.12000274658203], [24.76000213623047, 39.08000183105469]], [[19.540000915527344, 26.6200008392334], [20.020000457763672, 27.260000228881836], [20.5, 27.899999618530273]]]]]
_MP3 = [[[[[1.375, 1.5], [1.625, 1.75]], [[2.125, 2.25], [2.375, 2.5]]]]]
_AP3 = [[[[[-0.25, -0.125], [0.0, 0.125], [0.125, 0.25]], [[0.5, 0.625], [0.75, 0.875], [0.875, 1.0]], [[0.875, 1.0], [1.125, 1.25], [1.25, 1.375]]], [[[0.875, 1.0], [1.125, 1.25], [1.25, 1.375]], [[1.625, 1.75], [1.875, 2.0], [2.0, 2.125]], [[2.0, 2.125], [2.25, 2.375], [2.375, 2.5]]]]]
_LRN = [[[[-0.6439712047576904, -0.5634747743606567], [-0.673893928527832, -0.5615782737731934], [-0.6485692262649536, -0.4864269196987152]], [[-0.4484161138534546, -0.2242080569267273], [0.0, 0.2442963868379593], [0.3871890902519226, 0.5807836055755615]], [[0.5387289524078369, 0.6734111905097961], [0.5673020482063293, 0.6618523597717285], [0.5545140504837036, 0.6238282918930054]]]]
_DIL = [[[[1.5, 2.25], [2.0, 2.75]], [[3.0, 3.75], [3.5, 4.25]]]]
_MPA_O = [[[[0.0, 0.25], [0.5, 0.75]], [[1.5, 1.75], [2.0, 2.25]]]]
_MPA_A = [[[[8, 9], [10, 11]], [[14, 15], [16, 17]]]]
_DWI = [[[[1.5, 0.6666666865348816], [1.0, 0.0], [0.1666666716337204, 0.0]], [[-1.0, -1.3333333730697632], [-3.3333332538604736, -2.6666667461395264], [-1.0, 0.0]], [[0.1666666716337204, 0.6666666865348816], [1.0, 2.6666667461395264], [1.5, 2.6666667461395264]]]]
_DWF = [[[[2.3333332538604736], [1.3333333730697632]], [[2.3333334922790527], [2.0]]], [[[2.3333334922790527], [3.3333334922790527]], [[2.3333332538604736], [4.000000476837158]]]]
_GD_I = [[0, 0], [0, 1]]
_GD_V = [0, 1]
_GD_S = [1, 2]
_GD_LP = [[1.090644121170044]]
NN = [
    Sample("Conv3D", lambda: tf.nn.conv3d(t(X3), t(W3), [1, 1, 1, 1, 1], "VALID"), _f32(_CONV3D)),
    Sample("Conv3DBackpropInputV2", lambda: tf.nn.conv3d_transpose(t(_f32(_CONV3D)), t(W3), [1, 2, 3, 3, 2],
                                                                   [1, 1, 1, 1, 1], "VALID"), _f32(_CONV3DT)),
    Sample("MaxPool3D", lambda: tf.nn.max_pool3d(t(X3), 2, 1, "VALID"), _f32(_MP3)),
    Sample("AvgPool3D", lambda: tf.nn.avg_pool3d(t(X3), 2, 1, "SAME"), _f32(_AP3)),
    Sample("LRN", lambda: tf.nn.lrn(t(X4), 1, 1.0, 0.5, 0.75), _f32(_LRN)),
    Sample("Dilation2D", lambda: tf.nn.dilation2d(t(X4), t(D4[:, :, :, 0]), [1, 1, 1, 1], "VALID", "NHWC",
                                                  [1, 1, 1, 1]), _f32(_DIL)),
    Sample("MaxPoolWithArgmax", lambda: tf.nn.max_pool_with_argmax(t(X4), 2, 1, "VALID"),
           [_f32(_MPA_O), np.array(_MPA_A, np.int64)]),
    Sample("DepthwiseConv2dNativeBackpropInput", lambda: tf.nn.depthwise_conv2d_backprop_input(
        [1, 3, 3, 2], t(D4), t(G4), [1, 1, 1, 1], "VALID"), _f32(_DWI)),
    Sample("DepthwiseConv2dNativeBackpropFilter", lambda: tf.nn.depthwise_conv2d_backprop_filter(
        t(X4), [2, 2, 2, 1], t(G4), [1, 1, 1, 1], "VALID"), _f32(_DWF)),
    Sample("CTCGreedyDecoder", lambda: (lambda d: [d[0][0].indices, d[0][0].values, d[0][0].dense_shape, d[1]])(
        tf.nn.ctc_greedy_decoder(t(L3), [3])), [np.array(_GD_I, np.int64), np.array(_GD_V, np.int64),
                                                np.array(_GD_S, np.int64), _f32(_GD_LP)], "CPU"),
    Sample("RaggedFillEmptyRows", lambda: tf.ragged_fill_empty_rows(
        t(np.array([0, 0, 2, 2], np.int64)), t(np.array([1, 2, 3, 4], np.float32)), t(np.int64(4)),
        t(np.float32(-1))), [np.array([0, 0, 1, 2, 2, 3], np.int64), np.array([1, 2, -1, 3, 4, -1], np.float32),
                             np.array([False, True, False, True]), np.array([0, 1, 3, 4], np.int64)]),
    Sample("RaggedFillEmptyRowsGrad", lambda: tf.ragged_fill_empty_rows_grad(
        t(np.array([0, 1, 3, 4], np.int64)), t(np.array([1, 2, 3, 4, 5, 6], np.float32))),
        [np.array([1, 2, 4, 5], np.float32), np.float32(9)]),
    # TensorFlow 2.21's paths and scores for these log probabilities (beam 2, the top two paths)
    Sample("CTCBeamSearchDecoder", lambda: (lambda d: [d[0][0].values, d[0][1].values, d[0][1].indices, d[1]])(
        tf.nn.ctc_beam_search_decoder(t(np.log(np.array([[[0.6, 0.3, 0.1]], [[0.2, 0.2, 0.6]], [[0.5, 0.4, 0.1]]],
                                                         np.float32))), [3], beam_width=2, top_paths=2)),
        [np.array([0, 1], np.int64), np.array([0, 0], np.int64), np.array([[0, 0], [0, 1]], np.int64),
         _f32([[-1.6502597332000732, -1.7147983312606812]])], "CPU"),
    Sample("ComputeAccidentalHits", lambda: tf.nn.compute_accidental_hits(
        t(np.array([[1, 2], [3, 4]], np.int64)), t(np.array([2, 3, 5], np.int64)), 2),
        [np.array([0, 1], np.int32), np.array([0, 1], np.int64), _f32([-np.finfo(np.float32).max] * 2)], "CPU"),
]


_FULL = np.array([[4, 2, 0], [7, 5, 6], [0, 7, 8]], np.float32)  # the tridiagonal matrix of _DIAGS
_DIAGS = np.array([[2, 6, 0], [4, 5, 8], [0, 7, 7]], np.float32)  # superdiagonal, diagonal, subdiagonal
_RHS = np.array([[1, 0], [2, 1], [-1, 3]], np.float32)
LINALG = [
    Sample("MatrixSquareRoot", lambda: tf.linalg.sqrtm(t(np.array([[4, 1], [0, 9]], np.float32))),
           _f32([[2, 0.2], [0, 3]]), "CPU"),
    Sample("MatrixLogarithm", lambda: tf.linalg.logm(t(np.diag([np.e, np.e ** 2]).astype(np.complex64))),
           np.diag([1, 2]).astype(np.complex64), "CPU"),
    Sample("TridiagonalMatMul", lambda: tf.linalg.tridiagonal_matmul(t(_DIAGS), t(_RHS)),
           _FULL @ _RHS),
    Sample("TridiagonalSolve", lambda: tf.linalg.tridiagonal_solve(t(_DIAGS), t(_RHS)),
           np.linalg.solve(_FULL.astype(np.float64), _RHS).astype(np.float32)),
]


_C2 = (np.arange(6).reshape(2, 3) + 1j * np.arange(6)[::-1].reshape(2, 3)).astype(np.complex64)
_R2 = np.arange(6, dtype=np.float32).reshape(2, 3)
SIGNAL = [
    Sample("FFTND", lambda: tf.signal.fftnd(t(_C2)), np.fft.fftn(_C2).astype(np.complex64), "GPU only"),
    Sample("IFFTND", lambda: tf.signal.ifftnd(t(_C2)), np.fft.ifftn(_C2).astype(np.complex64), "GPU only"),
    Sample("RFFTND", lambda: tf.signal.rfftnd(t(_R2)), np.fft.rfftn(_R2).astype(np.complex64), "GPU only"),
    Sample("IRFFTND", lambda: tf.signal.irfftnd(t(_C2), fft_length=[2, 4], axes=[0, 1]),
           np.fft.irfftn(_C2, s=[2, 4]).astype(np.float32), "GPU only"),
]


_SEG = np.array([[1, 2, 3, 4], [-1, -2, -3, -4], [5, 6, 7, 8]], np.float32)
_I3, _S3 = np.array([0, 1, 2], np.int32), np.array([0, 0, 1], np.int32)
SPARSE_STRINGS = [
    Sample("SparseSegmentSum", lambda: tf.sparse.segment_sum(t(_SEG), t(_I3), t(_S3)), _f32([[0, 0, 0, 0],
                                                                                          [5, 6, 7, 8]])),
    Sample("SparseSegmentMean", lambda: tf.sparse.segment_mean(t(_SEG), t(_I3), t(_S3)), _f32([[0, 0, 0, 0],
                                                                                            [5, 6, 7, 8]])),
    Sample("SparseSegmentSqrtN", lambda: tf.sparse.segment_sqrt_n(t(_SEG), t(_I3), t(_S3)),
           _f32([[0, 0, 0, 0], [5, 6, 7, 8]])),
    Sample("SparseSegmentSumWithNumSegments", lambda: tf.sparse.segment_sum(t(_SEG), t(_I3), t(_S3), 3),
           _f32([[0, 0, 0, 0], [5, 6, 7, 8], [0, 0, 0, 0]])),
    Sample("SparseSegmentMeanWithNumSegments", lambda: tf.sparse.segment_mean(t(_SEG), t(_I3), t(_S3), 3),
           _f32([[0, 0, 0, 0], [5, 6, 7, 8], [0, 0, 0, 0]])),
    Sample("SparseSegmentSqrtNWithNumSegments", lambda: tf.sparse.segment_sqrt_n(t(_SEG), t(_I3), t(_S3), 3),
           _f32([[0, 0, 0, 0], [5, 6, 7, 8], [0, 0, 0, 0]])),
    # TensorFlow 2.21's values (its docstrings' examples: tf.strings.to_hash_bucket(["Hello", "TensorFlow", "2.x"], 3))
    Sample("StringToHashBucket", lambda: tf.strings.to_hash_bucket(t(np.array([b"Hello", b"TensorFlow", b"2.x"],
                                                                              object)), 3),
           np.array([2, 0, 1], np.int64), "CPU"),
    Sample("StringToHashBucketStrong", lambda: tf.strings.to_hash_bucket_strong(
        t(np.array([b"Hello", b"TF"], object)), 3, [1, 2]), np.array([2, 0], np.int64), "CPU"),
    Sample("UnicodeEncode", lambda: tf.strings.unicode_encode(t(np.array([[71, 246, 246, 100]], np.int32)), "UTF-8"),
           np.array(["Gööd".encode()], object), "CPU"),
]


_VOL = np.arange(1 * 4 * 4 * 4 * 2, dtype=np.float32).reshape(1, 4, 4, 4, 2)
MORE = [
    Sample("Conv", lambda: tf.conv(t(np.ones([1, 3, 3, 3, 1], np.float32)), t(np.ones([2, 2, 2, 1, 1], np.float32)),
                                   [1, 1, 1, 1, 1], "VALID"), np.full([1, 2, 2, 2, 1], 8, np.float32)),
    # TensorFlow 2.21's: tf.extract_volume_patches(_VOL, [1, 2, 2, 2, 1], [1, 2, 2, 2, 1], "VALID")[0, 0, 0, 0]
    Sample("ExtractVolumePatches", lambda: tf.extract_volume_patches(t(_VOL), [1, 2, 2, 2, 1], [1, 2, 2, 2, 1],
                                                                     "VALID")[0, 0, 0, 0],
           _f32([0, 1, 2, 3, 8, 9, 10, 11, 32, 33, 34, 35, 40, 41, 42, 43])),
]

SAMPLES = MATH + TOP + NN + LINALG + SIGNAL + SPARSE_STRINGS + MORE
