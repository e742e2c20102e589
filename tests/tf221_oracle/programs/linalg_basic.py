# Issue 10 area 1 (tf.linalg): matmul flags and batches, matvec, inv, det, solve, diag, trace, norm, band_part, einsum.
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


a = tf.constant([[1.0, 2.0], [3.0, 4.0]])
b = tf.constant([[5.0, 6.0], [7.0, 8.0]])
cell("matmul", lambda: tf.matmul(a, b))
cell("matmul transpose_a", lambda: tf.matmul(a, b, transpose_a=True))
cell("matmul transpose_b", lambda: tf.linalg.matmul(a, b, transpose_b=True))
cell("matmul adjoint complex", lambda: tf.matmul(tf.constant([[1 + 1j, 2]], dtype=tf.complex64), tf.constant([[1j, 1]], dtype=tf.complex64), adjoint_b=True))
cell("matmul batch", lambda: tf.matmul(tf.reshape(tf.range(8.0), [2, 2, 2]), a))
cell("matmul batch broadcast shape", lambda: tf.matmul(tf.ones([3, 1, 2, 4]), tf.ones([5, 4, 2])).shape)
cell("matmul int", lambda: tf.matmul(tf.constant([[1, 2]]), tf.constant([[3], [4]])))
cell("matmul shape mismatch (error)", lambda: tf.matmul(a, tf.ones([3, 2])))
cell("matmul rank 1 (error)", lambda: tf.matmul(tf.constant([1.0, 2.0]), a))
cell("matmul dtype mismatch (error)", lambda: tf.matmul(a, tf.constant([[1, 2], [3, 4]])))
cell("matvec", lambda: tf.linalg.matvec(a, [1.0, 1.0]))
cell("inv", lambda: tf.linalg.inv(a))
cell("inv singular (error)", lambda: tf.linalg.inv(tf.constant([[1.0, 2.0], [2.0, 4.0]])))
cell("det", lambda: tf.linalg.det(a))
cell("slogdet", lambda: tf.linalg.slogdet(a))
cell("solve", lambda: tf.linalg.solve(a, tf.constant([[1.0], [2.0]])))
cell("triangular_solve", lambda: tf.linalg.triangular_solve(tf.constant([[2.0, 0.0], [1.0, 1.0]]), tf.constant([[2.0], [3.0]])))
cell("diag", lambda: tf.linalg.diag([1, 2, 3]))
cell("diag_part", lambda: tf.linalg.diag_part(a))
cell("set_diag", lambda: tf.linalg.set_diag(a, [0.0, 0.0]))
cell("trace", lambda: tf.linalg.trace(a))
cell("norm default", lambda: tf.norm(a))
cell("norm ord 1 vector", lambda: tf.norm(tf.constant([3.0, -4.0]), ord=1))
cell("norm inf axis", lambda: tf.norm(a, ord=float("inf"), axis=1))
cell("norm fro matrix", lambda: tf.linalg.norm(a, ord="fro", axis=[0, 1]))
cell("norm bad ord (error)", lambda: tf.norm(a, ord=3, axis=[0, 1]))
cell("band_part lower", lambda: tf.linalg.band_part(tf.ones([3, 3]), -1, 0))
cell("band_part tridiag", lambda: tf.linalg.band_part(tf.ones([3, 3]), 1, 1))
cell("einsum matmul", lambda: tf.einsum("ij,jk->ik", a, b))
cell("einsum trace", lambda: tf.einsum("ii", a))
cell("einsum outer", lambda: tf.einsum("i,j->ij", tf.constant([1.0, 2.0]), tf.constant([3.0, 4.0, 5.0])))
cell("einsum batch", lambda: tf.einsum("bij,bjk->bik", tf.ones([2, 2, 3]), tf.ones([2, 3, 1])).shape)
cell("einsum bad (error)", lambda: tf.einsum("ij,jk->ik", a, tf.ones([3, 3])))
cell("tensordot", lambda: tf.tensordot(a, b, axes=1))
cell("cross", lambda: tf.linalg.cross([1.0, 0.0, 0.0], [0.0, 1.0, 0.0]))
cell("matrix_transpose", lambda: tf.linalg.matrix_transpose(tf.ones([2, 1, 3])).shape)
cell("eye matmul float64", lambda: tf.matmul(tf.eye(2, dtype=tf.float64), tf.constant([[1.0], [2.0]], dtype=tf.float64)))
