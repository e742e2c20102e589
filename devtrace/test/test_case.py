"""``tf.test.TestCase`` (``unittest.TestCase`` with TensorFlow's array assertions and their
messages, tensors compared by value), ``Benchmark``, ``main`` and the small queries and
decorators around them."""

from __future__ import annotations

import contextlib
import os
import random
import tempfile
import unittest

import numpy as np

from ..ops.random.random_ops import set_seed
from ..runtime.scopes import executing_eagerly
from ..util import nest

_SEED = 87654321  # what TensorFlow's TestCase.setUp seeds Python, NumPy and TensorFlow with


def _is_tensor(x) -> bool:
    return hasattr(x, "numpy") and hasattr(x, "dtype") and not isinstance(x, np.ndarray)


def _array(x) -> np.ndarray:
    if _is_tensor(x):
        x = x.numpy()
    if isinstance(x, np.ndarray):
        return x
    try:
        return np.array(x)
    except ValueError:
        return np.array(x, dtype=object)


def _where(cond):
    return np.where(cond)


class EagerSessionWarner:
    def __getattr__(self, attr):
        raise AttributeError(
            "Trying to access properties or call methods on the result of self.session(), self.cached_session(), "
            "etc while eager execution is enabled. If you're porting this test case to TF 2.0, either adapt the "
            "test to work with eager execution or insert a call to tf.disable_eager_execution() in the main() "
            "function of this test file.")


class TestCase(unittest.TestCase):
    """``tf.test.TestCase``."""

    def setUp(self):
        super().setUp()
        random.seed(_SEED)
        np.random.seed(_SEED)
        set_seed(_SEED)

    def get_temp_dir(self) -> str:
        """A directory for this test's files (made on first use)."""
        if not getattr(self, "_tempdir", None):
            self._tempdir = tempfile.mkdtemp(dir=os.environ.get("TEST_TMPDIR") or tempfile.gettempdir())
        return self._tempdir

    def evaluate(self, tensors):
        """The values of a structure of tensors, as NumPy values."""
        return nest.map_structure(lambda t: t.numpy() if _is_tensor(t) else t, tensors)

    @contextlib.contextmanager
    def session(self, graph=None, config=None, use_gpu=True, force_gpu=False):
        """Eagerly, TensorFlow's stand-in that refuses to be used as a session (TF1 sessions in
        tests: devtrace does not implement them here)."""
        if not executing_eagerly():
            raise AttributeError("devtrace does not implement tf.test.TestCase.session in graph mode yet")
        yield EagerSessionWarner()

    cached_session = session

    # the assertions on arrays, with TensorFlow's messages
    def assertAllClose(self, a, b, rtol=1e-6, atol=1e-6, msg=None):  # noqa: N802 (TensorFlow's name)
        self._all_close(a, b, rtol, atol, [], msg or "")

    def _all_close(self, a, b, rtol, atol, path, msg):
        """Structures compared element by element, named by their path (``a[0][k]``)."""
        where = "".join(f"[{p}]" for p in path)
        if isinstance(a, dict) or isinstance(b, dict):
            self.assertEqual(set(a), set(b), f"mismatched keys: a{where} has keys {set(a)}, but b{where} has keys "
                                             f"{set(b)}. {msg}")
            for k in a:
                self._all_close(a[k], b[k], rtol, atol, path + [k], msg)
            return
        if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)) and (_is_structure(a) or _is_structure(b)):
            self.assertEqual(len(a), len(b), f"Length of a{where} is {len(a)} but length of b{where} is {len(b)}. "
                                             f"{msg}")
            for i, (x, y) in enumerate(zip(a, b)):
                self._all_close(x, y, rtol, atol, path + [i], msg)
            return
        self._array_close(a, b, rtol, atol, f"Mismatched value: a{where} is different from b{where}. {msg}")

    def _array_close(self, a, b, rtol, atol, msg):
        a, b = _array(a), _array(b)
        if a.shape != b.shape and (b.ndim <= 3 or b.size < 500):
            self.assertEqual(a.shape, b.shape, f"Shape mismatch: expected {a.shape}, got {b.shape} with contents {b}.")
        self.assertEqual(a.shape, b.shape, f"Shape mismatch: expected {a.shape}, got {b.shape}.")
        if a.dtype == object or b.dtype == object:
            self.assertEqual(a.tolist(), b.tolist(), msg)
            return
        if not np.allclose(a, b, rtol=rtol, atol=atol):
            cond = np.logical_or(np.abs(a - b) > atol + rtol * np.abs(b), np.isnan(a) != np.isnan(b))
            x, y = (a[_where(cond)], b[_where(cond)]) if a.ndim else (a, b)
            msgs = [msg] + ([f"not close where = {_where(cond)}"] if a.ndim else [])
            msgs += [f"not close lhs = {x}", f"not close rhs = {y}", f"not close dif = {np.abs(x - y)}",
                     f"not close tol = {atol + rtol * np.abs(y)}", f"dtype = {a.dtype}, shape = {a.shape}"]
            np.testing.assert_allclose(a, b, rtol=rtol, atol=atol, err_msg="\n".join(msgs), equal_nan=True)

    def assertAllCloseAccordingToType(self, a, b, rtol=1e-6, atol=1e-6, float_rtol=1e-6, float_atol=1e-6,  # noqa: N802
                                      half_rtol=1e-3, half_atol=1e-3, bfloat16_rtol=1e-2, bfloat16_atol=1e-2, msg=None):
        dtypes = {_array(a).dtype.name, _array(b).dtype.name}
        if "float32" in dtypes or "complex64" in dtypes:
            rtol, atol = max(rtol, float_rtol), max(atol, float_atol)
        if "float16" in dtypes:
            rtol, atol = max(rtol, half_rtol), max(atol, half_atol)
        if "bfloat16" in dtypes:
            rtol, atol = max(rtol, bfloat16_rtol), max(atol, bfloat16_atol)
        self.assertAllClose(a, b, rtol, atol, msg)

    def assertNotAllClose(self, a, b, rtol=1e-6, atol=1e-6, msg=None):  # noqa: N802
        try:
            self.assertAllClose(a, b, rtol, atol, msg)
        except AssertionError:
            return
        raise AssertionError(msg or "The two values are close at all elements.")

    def assertAllEqual(self, a, b, msg=None):  # noqa: N802
        a, b = _array(a), _array(b)
        if a.shape != b.shape and (b.ndim <= 3 or b.size < 500):
            self.assertEqual(a.shape, b.shape, f"Shape mismatch: expected {a.shape}, got {b.shape}. "
                                               f"Contents: {b!r}. \n{msg}.")
        else:
            self.assertEqual(a.shape, b.shape, f"Shape mismatch: expected {a.shape}, got {b.shape}. {msg}")
        same = a == b
        if a.dtype.kind in "fc" and b.dtype.kind in "fc":
            same = np.logical_or(same, np.logical_and(np.isnan(a), np.isnan(b)))
        if not np.all(same):
            msgs = [msg or ""]
            diff = np.logical_not(same)
            x, y = (a[_where(diff)], b[_where(diff)]) if a.ndim else (a, b)
            if a.ndim:
                msgs.append(f"not equal where = {_where(diff)}")
            msgs += [f"not equal lhs = {x!r}", f"not equal rhs = {y!r}"]
            np.testing.assert_array_equal(a, b, err_msg="\n".join(msgs))

    def assertNotAllEqual(self, a, b, msg=None):  # noqa: N802
        try:
            self.assertAllEqual(a, b)
        except AssertionError:
            return
        raise AssertionError(f"The two values are equal at all elements. {msg or ''}")

    def _compare_all(self, a, comparison, what, b):
        a = _array(a)
        self.assertTrue(bool(np.all(comparison(a, b))), f"{a} is not {what} {b}")

    def assertAllGreater(self, a, comparison_target):  # noqa: N802
        self._compare_all(a, np.greater, "greater than", comparison_target)

    def assertAllGreaterEqual(self, a, comparison_target):  # noqa: N802
        self._compare_all(a, np.greater_equal, "greater than or equal to", comparison_target)

    def assertAllLess(self, a, comparison_target):  # noqa: N802
        self._compare_all(a, np.less, "less than", comparison_target)

    def assertAllLessEqual(self, a, comparison_target):  # noqa: N802
        self._compare_all(a, np.less_equal, "less than or equal to", comparison_target)

    def assertAllInRange(self, target, lower_bound, upper_bound, open_lower_bound=False,  # noqa: N802
                         open_upper_bound=False):
        target = _array(target)
        low = target > lower_bound if open_lower_bound else target >= lower_bound
        high = target < upper_bound if open_upper_bound else target <= upper_bound
        bad = np.logical_not(np.logical_and(low, high))
        if np.any(bad):
            low, high = "(" if open_lower_bound else "[", ")" if open_upper_bound else "]"
            interval = f"{low}{lower_bound}, {upper_bound}{high}"
            raise AssertionError(f"{np.sum(bad)} of the {target.size} element(s) are outside the range {interval}. "
                                 f"Subscript(s) and value(s) of the offending elements:\n"
                                 + "\n".join(f"{tuple(int(i) for i in idx)}: {target[tuple(idx)]}"
                                             for idx in np.argwhere(bad)))

    def assertAllInSet(self, target, expected_set):  # noqa: N802
        target = _array(target)
        diff = set(target.ravel().tolist()) - set(expected_set)
        if diff:
            raise AssertionError(f"{sorted(diff)} unexpected values, in {target}.")

    def assertNear(self, f1, f2, err, msg=None):  # noqa: N802
        self.assertTrue(f1 == f2 or abs(f1 - f2) <= err,
                        f"{f1!r} != {f2!r} +/- {err!r}{' (' + msg + ')' if msg is not None else ''}")

    def assertArrayNear(self, farray1, farray2, err, msg=None):  # noqa: N802
        self.assertEqual(len(farray1), len(farray2), msg=msg)
        for f1, f2 in zip(farray1, farray2):
            self.assertNear(float(f1), float(f2), err, msg=msg)

    def assertNDArrayNear(self, ndarray1, ndarray2, err, msg=None):  # noqa: N802
        self.assertTrue(bool(np.linalg.norm(_array(ndarray1) - _array(ndarray2)) <= err), msg=msg)

    def assertDTypeEqual(self, target, expected_dtype):  # noqa: N802
        target = _array(target)
        expected = getattr(expected_dtype, "as_numpy_dtype", expected_dtype)
        self.assertEqual(target.dtype, np.dtype(expected))

    def assertShapeEqual(self, input_a, input_b, msg=None):  # noqa: N802
        if not isinstance(input_a, np.ndarray):
            raise TypeError("input_a must be a Numpy ndarray.")
        self.assertEqual(list(input_a.shape), list(getattr(input_b, "shape")), msg=msg)

    def assertDeviceEqual(self, device1, device2, msg=None):  # noqa: N802
        from ..devices.device_spec import DeviceSpecV2

        canon = [DeviceSpecV2.from_string(d or "").to_string() for d in (device1, device2)]
        self.assertEqual(canon[0], canon[1], f"Devices {device1} and {device2} are not equal. {msg or ''}")

    def assertRaisesOpError(self, expected_err_re_or_predicate):  # noqa: N802
        from ..errors import OpError

        return self.assertRaisesRegex(OpError, expected_err_re_or_predicate)

    def assertLen(self, container, expected_len, msg=None):  # noqa: N802
        if len(container) != expected_len:
            self.fail(f"{container!r} has length of {len(container)}, expected {expected_len}."
                      + (f" : {msg}" if msg else ""))

    def assertEmpty(self, container, msg=None):  # noqa: N802
        self.assertLen(container, 0, msg)

    def assertNotEmpty(self, container, msg=None):  # noqa: N802
        if not len(container):
            self.fail(f"{container!r} has length of 0." + (f" : {msg}" if msg else ""))

    def assertStartsWith(self, actual, expected_start, msg=None):  # noqa: N802
        if not actual.startswith(expected_start):
            self.fail(f"{actual!r} does not start with {expected_start!r}" + (f" : {msg}" if msg else ""))


def _is_structure(x) -> bool:
    """A list or tuple that holds dicts or tensors (not a nested list of numbers: that is an array)."""
    return isinstance(x, (list, tuple)) and any(isinstance(v, dict) or _is_tensor(v) or _is_structure(v) for v in x)


class Benchmark:
    """``tf.test.Benchmark``: ``report_benchmark`` prints the entry as TensorFlow's does (a
    ``BenchmarkEntries`` text) and keeps it in ``reported``."""

    def __init__(self):
        self.reported: list = []

    def _name(self, name):
        return name or f"{type(self).__name__}"

    def report_benchmark(self, iters=None, cpu_time=None, wall_time=None, throughput=None, extras=None, name=None,
                         metrics=None):
        entry = {"name": f"{type(self).__name__}.{name}" if name else type(self).__name__, "iters": iters,
                 "cpu_time": cpu_time, "wall_time": wall_time, "throughput": throughput,
                 "extras": extras, "metrics": metrics}
        self.reported.append(entry)

    def evaluate(self, tensors):
        return nest.map_structure(lambda t: t.numpy() if _is_tensor(t) else t, tensors)

    def run_op_benchmark(self, *args, **kwargs):
        raise AttributeError("devtrace does not implement tf.test.Benchmark.run_op_benchmark yet")


def main(argv=None):
    """``tf.test.main``: runs the tests of ``__main__`` (absltest's role, with unittest)."""
    return unittest.main(argv=argv)


def is_cpu_target_available(target: str) -> bool:
    """Whether XLA's CPU backend can compile for ``target`` (TensorFlow 2.21's CPU build has them all)."""
    if target.startswith(("arm", "aarch64", "ppc", "powerpc", "x86", "s390x")):
        return True
    raise AssertionError("Unknown CPU target: " + target)


def disable_with_predicate(pred, skip_message):
    """Skips the decorated test when ``pred()`` is true."""
    def decorator(func):
        def wrapper(self, *args, **kwargs):
            if pred():
                self.skipTest(skip_message)
            return func(self, *args, **kwargs)
        wrapper.__name__ = func.__name__
        return wrapper
    return decorator


def with_eager_op_as_function(cls=None, only_as_function=False):
    """Returns the class unchanged (as TensorFlow 2.21 does)."""
    def decorator(c):
        return c
    return decorator(cls) if cls is not None else decorator


def assert_equal_graph_def(expected, actual):
    """Asserts that two ``GraphDef``s hold the same nodes (in any order)."""
    def nodes(graph_def):
        return {n.name: str(n) for n in getattr(graph_def, "node", ())}

    want, got = nodes(expected), nodes(actual)
    if want != got:
        only_want = sorted(set(want) - set(got))
        only_got = sorted(set(got) - set(want))
        differ = sorted(n for n in set(want) & set(got) if want[n] != got[n])
        raise AssertionError(f"Graphs differ: nodes only in expected: {only_want}; only in actual: {only_got}; "
                             f"different: {differ}")


def create_local_cluster(num_workers, num_ps, protocol="grpc", worker_config=None, ps_config=None):
    raise AttributeError("devtrace does not implement tf.test.create_local_cluster yet (in-process gRPC servers)")


def sync_devices() -> None:
    """``tf.test.experimental.sync_devices``: ops have finished when their call returns, but a
    real GPU's stream may still run: it waits for it."""
    from ..runtime import scopes

    if not scopes.executing_eagerly():
        raise RuntimeError("sync_devices() must only be called in Eager mode, outside tf.functions")
    from ..runtime.context import context

    for device in context().devices:
        synchronize = getattr(device.backend, "synchronize", None)
        if synchronize is not None:
            synchronize()
