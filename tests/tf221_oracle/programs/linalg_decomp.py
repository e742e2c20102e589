# Issue 10 area 1 (tf.linalg): svd, qr, cholesky, eigh, eigvalsh, lstsq, pinv, expm (sign-stable prints only).
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


a = tf.constant([[4.0, 1.0], [1.0, 3.0]])
r = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
cell("svd singular values", lambda: tf.linalg.svd(r, compute_uv=False))
cell("svd shapes", lambda: [t.shape for t in tf.linalg.svd(r)])
cell("svd full_matrices shapes", lambda: [t.shape for t in tf.linalg.svd(r, full_matrices=True)])
cell("svd reconstruct", lambda: (lambda s, u, v: tf.matmul(u * s, v, adjoint_b=True))(*tf.linalg.svd(r)))
cell("svd |u|", lambda: tf.abs(tf.linalg.svd(r)[1]))
cell("qr shapes", lambda: [t.shape for t in tf.linalg.qr(r)])
cell("qr |r|", lambda: tf.abs(tf.linalg.qr(r).r))
cell("qr reconstruct", lambda: (lambda q, rr: tf.matmul(q, rr))(*tf.linalg.qr(r)))
cell("qr full shapes", lambda: [t.shape for t in tf.linalg.qr(r, full_matrices=True)])
cell("cholesky", lambda: tf.linalg.cholesky(a))
# Not positive definite: TF's CPU kernel raises no error; the strict upper triangle of its result is
# uninitialised memory, so only the lower triangle is printed.
cell("cholesky not PD (no error, NaNs)", lambda: tf.linalg.band_part(tf.linalg.cholesky(tf.constant([[1.0, 2.0], [2.0, 1.0]])), -1, 0))
cell("eigh values", lambda: tf.linalg.eigh(a)[0])
cell("eigh |vectors|", lambda: tf.abs(tf.linalg.eigh(a)[1]))
cell("eigvalsh", lambda: tf.linalg.eigvalsh(a))
cell("eig values (complex)", lambda: tf.linalg.eigvals(tf.constant([[2.0, 0.0], [0.0, 3.0]])))
cell("lstsq", lambda: tf.linalg.lstsq(r, tf.constant([[1.0], [2.0], [3.0]])))
cell("pinv", lambda: tf.linalg.pinv(r))
cell("expm", lambda: tf.linalg.expm(tf.constant([[0.0, 1.0], [0.0, 0.0]])))
cell("logdet", lambda: tf.linalg.logdet(a))
cell("lu shapes", lambda: [t.shape for t in tf.linalg.lu(a)])
cell("svd non-float (error)", lambda: tf.linalg.svd(tf.constant([[1, 2], [3, 4]])))
