# Issue 28 (breadth): the gradients of the ops added with tf.math.special, tf.nn's convolutions and the array
# breadth (space/batch, dynamic stitch, identity_n), against TensorFlow's.
import tensorflow as tf

from _grad_probe import c, gcell

x = [0.3, 0.7, 1.2, 2.5]
for dt in (tf.float32, tf.float64):
    X = c(x, dt)
    n = dt.name
    for name, fn in (("BesselI0", tf.math.special.bessel_i0), ("BesselI0e", tf.math.special.bessel_i0e),
                     ("BesselI1", tf.math.special.bessel_i1), ("BesselI1e", tf.math.special.bessel_i1e),
                     ("BesselJ0", tf.math.special.bessel_j0), ("BesselJ1", tf.math.special.bessel_j1),
                     ("BesselK0", tf.math.special.bessel_k0), ("BesselK0e", tf.math.special.bessel_k0e),
                     ("BesselK1", tf.math.special.bessel_k1), ("BesselK1e", tf.math.special.bessel_k1e),
                     ("BesselY0", tf.math.special.bessel_y0), ("BesselY1", tf.math.special.bessel_y1),
                     ("Dawsn", tf.math.special.dawsn), ("Expint", tf.math.special.expint),
                     ("FresnelCos", tf.math.special.fresnel_cos), ("FresnelSin", tf.math.special.fresnel_sin),
                     ("Spence", tf.math.special.spence)):
        gcell(f"{name} {n}", fn, X)
    P = c([0.1, 0.35, 0.6, 0.85], dt)
    gcell(f"Erfinv {n}", tf.math.erfinv, P)
    gcell(f"Ndtri {n}", tf.math.ndtri, P)
    gcell(f"Igamma {n}", tf.math.igamma, c([0.5, 1.5, 2.0, 3.0], dt), X)
    gcell(f"Igammac {n}", tf.math.igammac, c([0.5, 1.5, 2.0, 3.0], dt), X)
    gcell(f"Betainc {n}", lambda v: tf.math.betainc(c([0.5, 1.5, 2.0, 3.0], dt), c([1.0, 2.0, 0.5, 1.5], dt), v), P)
    gcell(f"Zeta {n}", lambda q: tf.math.zeta(c([2.0, 3.0, 4.5, 6.0], dt), q), X)
    gcell(f"Xlog1py {n}", tf.math.xlog1py, X, P)
    B = tf.reshape(tf.cast(tf.range(32), dt) * 0.1 - 1.0, [2, 4, 4, 1])
    gcell(f"SpaceToBatchND {n}", lambda v: tf.space_to_batch_nd(v, [2, 2], [[0, 0], [0, 0]]), B)
    gcell(f"BatchToSpaceND {n}", lambda v: tf.batch_to_space(v, [2, 2], [[0, 0], [0, 0]]),
          tf.reshape(B, [8, 2, 2, 1]))
    gcell(f"DynamicStitch {n}", lambda a, b: tf.dynamic_stitch([[0, 2], [1, 3]], [a, b]), c([1.5, -0.5], dt),
          c([2.5, 0.25], dt))
    gcell(f"IdentityN {n}", lambda a, b: tf.identity_n([a, b]), X, P)
    V = tf.reshape(tf.cast(tf.range(2 * 4 * 4 * 4 * 2), dt) * 0.01 - 0.5, [2, 4, 4, 4, 2])
    K3 = tf.reshape(tf.cast(tf.range(2 * 2 * 2 * 2 * 3), dt) * 0.05 - 0.4, [2, 2, 2, 2, 3])
    gcell(f"Conv3D {n}", lambda v, k: tf.nn.conv3d(v, k, [1, 1, 1, 1, 1], "VALID"), V, K3)
    I = tf.reshape(tf.cast(tf.range(2 * 5 * 5 * 3), dt) * 0.02 - 0.7, [2, 5, 5, 3])
    KD = tf.reshape(tf.cast(tf.range(3 * 3 * 3 * 2), dt) * 0.03 - 0.5, [3, 3, 3, 2])
    gcell(f"DepthwiseConv2dNative {n}", lambda v, k: tf.nn.depthwise_conv2d(v, k, [1, 1, 1, 1], "SAME"), I, KD)
    G3 = tf.reshape(tf.cast(tf.range(2 * 3 * 3 * 3 * 3), dt) * 0.02 - 0.9, [2, 3, 3, 3, 3])
    gcell(f"Conv3DBackpropInputV2 {n}", lambda g, k: tf.nn.conv3d_transpose(g, k, [2, 4, 4, 4, 2], [1, 1, 1, 1, 1],
                                                                             "VALID"), G3, K3)
    gcell(f"RaggedFillEmptyRows {n}", lambda v, d: tf.ragged_fill_empty_rows(
        tf.constant([1, 1, 3], tf.int64), v, tf.constant(5, tf.int64), d).output_values * c([1, 2, 3, 4, 5, 6], dt),
          c([1.0, 2.0, 3.0], dt), c(0.5, dt))
