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


A3, X3 = np.array([0.5, 2.0, 4.0], np.float32), np.array([1.0, 1.0, 5.0], np.float32)
MATH = [_special(name, op, want) for name, (op, want) in _TF_SPECIAL.items()] + [
    Sample("Erfinv", lambda: tf.math.erfinv(t(np.array([-0.5, 0.25, 0.9], np.float32))),
           _f32([-0.47693631052970886, 0.22531205415725708, 1.1630871295928955])),
    Sample("Ndtri", lambda: tf.math.ndtri(t(np.array([0.1, 0.5, 0.975], np.float32))),
           _f32([-1.2815515995025635, 0.0, 1.959964394569397])),
    Sample("Igamma", lambda: tf.math.igamma(t(A3), t(X3)), _f32([0.8427008390426636, 0.26424112915992737,
                                                               0.7349740266799927])),
    Sample("Igammac", lambda: tf.math.igammac(t(A3), t(X3)), _f32([0.15729916095733643, 0.735758900642395,
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

SAMPLES = MATH + TOP
