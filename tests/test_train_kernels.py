"""The training step's kernels (issue 31: convolutions as matrix products, pooling without window
reductions): values against the straightforward definitions they replaced, and TensorFlow 2.21's
where a dtype was missing."""

import platform
import resource

import numpy as np
import pytest

import devtrace as tf
from devtrace.ops.nn.nn_grad import _scatter
from devtrace.ops.nn import native as nn_native, nn_impl
from devtrace.ops.nn.nn_impl import _pad_amounts
from devtrace.runtime import blas_threads, host_heap
from devtrace.runtime.registry import lookup


def windows(x, k, s, padding, fill=0.0):
    """``(n, oh, ow, kh, kw, c)`` windows, padded as TensorFlow pads (the old kernels' view)."""
    top, bottom, _ = _pad_amounts(x.shape[1], k, s, padding)
    left, right, _ = _pad_amounts(x.shape[2], k, s, padding)
    padded = np.pad(x, ((0, 0), (top, bottom), (left, right), (0, 0)), constant_values=fill)
    view = np.lib.stride_tricks.sliding_window_view(padded, (k, k), axis=(1, 2))
    return view[:, ::s, ::s].transpose(0, 1, 2, 4, 5, 3)


CASES = [(28, 1, 8, 3, 1, "VALID"), (13, 32, 16, 3, 1, "SAME"), (9, 20, 5, 3, 2, "SAME"), (8, 2, 4, 2, 2, "VALID")]


@pytest.mark.parametrize("im2col_bytes", [nn_impl.IM2COL_BYTES, 0], ids=["small", "large"])
@pytest.mark.parametrize("size,c,o,k,s,padding", CASES)
def test_convolution_and_its_gradients_are_the_window_sums(size, c, o, k, s, padding, im2col_bytes, monkeypatch):
    """Both ways of Conv2D with many input channels: one product of the windows (a small input) and
    one product per window offset (a large one)."""
    monkeypatch.setattr(nn_impl, "IM2COL_BYTES", im2col_bytes)
    rng = np.random.default_rng(0)
    x = rng.standard_normal((3, size, size, c)).astype("f4")
    f = rng.standard_normal((k, k, c, o)).astype("f4")
    win = windows(x, k, s, padding)
    out = lookup("Conv2D").fn(np, x, f, strides=(s, s), padding=padding)
    np.testing.assert_allclose(out, np.einsum("nhwijc,ijco->nhwo", win, f), rtol=1e-4, atol=1e-4)
    g = rng.standard_normal(out.shape).astype("f4")
    df = lookup("Conv2DBackpropFilter").fn(np, x, g, filter_sizes=f.shape, strides=(s, s), padding=padding)
    np.testing.assert_allclose(df, np.einsum("nhwijc,nhwo->ijco", win, g), rtol=1e-4, atol=1e-3)
    dx = lookup("Conv2DBackpropInput").fn(np, f, g, input_sizes=x.shape, strides=(s, s), padding=padding)
    pieces = np.einsum("nhwo,ijco->nhwijc", g, f)
    np.testing.assert_allclose(dx, _scatter(np, x.shape, pieces, (k, k), (s, s), padding), rtol=1e-4, atol=1e-4)
    assert (out.dtype, df.dtype, dx.dtype) == (np.float32,) * 3


@pytest.mark.parametrize("size,k,s,padding", [(26, 2, 2, "VALID"), (9, 3, 2, "SAME"), (8, 2, 1, "VALID"),
                                              (7, 3, 3, "SAME"), (7, 2, 2, "VALID")])
@pytest.mark.parametrize("data", ["ties", "random", "nan"])
def test_max_pool_gradient_goes_to_each_windows_first_maximum(size, k, s, padding, data):
    rng = np.random.default_rng(1)
    x = (rng.integers(0, 3, (2, size, size, 3)) if data == "ties" else rng.standard_normal((2, size, size, 3)))
    x = x.astype("f4")
    if data == "nan":
        x[0, 1, 1, 0] = np.nan
    win = windows(x, k, s, padding, -np.inf)
    n, oh, ow, kh, kw, c = win.shape
    np.testing.assert_array_equal(lookup("MaxPool").fn(np, x, ksize=(k, k), strides=(s, s), padding=padding),
                                  win.max(axis=(3, 4)))
    first = win.reshape(n, oh, ow, kh * kw, c).argmax(axis=3)  # argmax: the first maximum (a NaN wins)
    g = rng.standard_normal((n, oh, ow, c)).astype("f4")
    onehot = np.arange(kh * kw)[None, None, None, :, None] == first[:, :, :, None, :]
    want = _scatter(np, x.shape, (onehot.reshape(win.shape) * g[:, :, :, None, None, :]).astype("f4"), (k, k),
                    (s, s), padding)
    got = lookup("MaxPoolGrad").fn(np, x, None, g, ksize=(k, k), strides=(s, s), padding=padding)
    np.testing.assert_array_equal(got, want)
    assert not np.signbit(got[got == 0]).any()  # no -0.0 where no gradient went


def test_max_pool_and_its_gradient_in_bfloat16():
    """TensorFlow 2.21: ``bfloat16 [-3.0, -1.0, 5.0, 7.0]`` and the gradient below (tf.nn.max_pool2d
    of ``range(16) - 8`` as 1x4x4x1, 2x2 stride 2, under a GradientTape)."""
    x = tf.cast(tf.reshape(tf.range(16.0), [1, 4, 4, 1]) - 8.0, tf.bfloat16)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.nn.max_pool2d(x, 2, 2, "VALID")
    g = tape.gradient(y, x)
    assert y.dtype.name == "bfloat16"
    assert tf.reshape(tf.cast(y, tf.float32), [-1]).numpy().tolist() == [-3.0, -1.0, 5.0, 7.0]
    assert tf.reshape(tf.cast(g, tf.float32), [-1]).numpy().tolist() == [0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 1.0,
                                                                        0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 1.0]


@pytest.mark.skipif(platform.libc_ver()[0] != "glibc", reason="glibc's malloc")
def test_devtrace_run_keeps_freed_host_memory_for_the_next_step(monkeypatch):
    """An array freed and made again (each step's op outputs) reuses the heap's pages: no page faults
    (by default glibc gives the second array fresh pages, after handing the first's back)."""
    monkeypatch.setenv("GLIBC_TUNABLES", "glibc.malloc.check=0")
    assert not host_heap.keep_freed_memory()  # the user's own malloc settings win
    monkeypatch.delenv("GLIBC_TUNABLES")
    assert host_heap.keep_freed_memory()
    first = np.ones(24 << 18, np.float32)  # 24 MiB
    del first
    faults = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    second = np.ones(20 << 18, np.float32)
    assert resource.getrusage(resource.RUSAGE_SELF).ru_minflt - faults < 50, "the freed pages were not reused"
    assert second[-1] == 1


@pytest.mark.parametrize("dtype", ["f4", "f8", "f2", "i4", "u1", "?", "c8"])
@pytest.mark.parametrize("shapes", [((64, 200), (64, 200), ()), ((200,), (64, 200), (64, 200)),
                                    ((64, 200), (64, 1), (1, 200)), ((64, 1), (64, 200), (64, 200))])
def test_select_on_a_random_mask_gives_wheres_exact_values(dtype, shapes):
    """Dropout's select (a large one, bitwise on the host): each value copied exactly, NaN and -0.0
    included, whichever operand broadcasts."""
    rng = np.random.default_rng(2)
    c = rng.random(shapes[0]) > 0.5
    a, b = ((rng.standard_normal(s) * 100).astype(dtype) for s in shapes[1:])
    if a.dtype.kind == "f" and a.ndim:
        a.flat[:2] = np.nan, -0.0
    got = lookup("SelectV2").fn(np, c, a, b)
    want = np.where(c, a, b)
    assert (got.dtype, got.shape) == (want.dtype, want.shape)
    assert np.ascontiguousarray(got).tobytes() == want.tobytes()


@pytest.mark.parametrize("shape", [(32, 26, 26, 32), (3, 7, 5), (17, 4), (5, 3)])
def test_bias_add_grad_is_each_channels_sum(shape):
    """Summed 16 rows side by side: within float32 rounding of the exact sum, whatever the number
    of rows (and, with many rows, closer than a row after another)."""
    dy = np.random.default_rng(3).standard_normal(shape).astype("f4")
    got = lookup("BiasAddGrad").fn(np, dy)
    exact = dy.astype("f8").reshape(-1, shape[-1]).sum(axis=0)
    assert (got.dtype, got.shape) == (np.float32, shape[-1:])
    np.testing.assert_allclose(got, exact, rtol=1e-5, atol=2e-3)
    if dy.size // shape[-1] >= 10000:  # many rows: the error of a row after another grows with their number
        one_after_another = dy.reshape(-1, shape[-1]).sum(axis=0)
        assert np.abs(got - exact).max() < np.abs(one_after_another - exact).max()


def _with_and_without_c(monkeypatch, kernel, *args, **kwargs):
    """A kernel's result through the C loops (_fastpath_nn.c) and through its NumPy code."""
    if getattr(nn_native.NATIVE, "relu_grad", None) is None:
        pytest.skip("the C module is not built")
    native = lookup(kernel).fn(np, *args, **kwargs)
    monkeypatch.setattr(nn_native, "NATIVE", None)
    return native, lookup(kernel).fn(np, *args, **kwargs)


@pytest.mark.parametrize("dtype", ["f4", "f8"])
@pytest.mark.parametrize("size,k,s,c", [(26, 2, 2, 5), (7, 2, 2, 13), (9, 2, 3, 5), (9, 3, 3, 16)])
@pytest.mark.parametrize("data", ["ties", "random", "nan", "inf"])
def test_max_pool_gradient_in_c_is_the_numpy_codes_bit_for_bit(size, k, s, c, data, dtype, monkeypatch):
    """Windows that do not overlap, in one pass in C: the same values as the NumPy code, ties (the
    first maximum), NaNs (the first NaN), infinite and -0.0 gradients (0.0 where none goes) alike;
    channels in whole vectors and the rest one by one (13: 8 + 5 in float32, 3 * 4 + 1 in float64)."""
    rng = np.random.default_rng(2)
    x = (rng.integers(0, 3, (2, size, size, c)) if data == "ties" else rng.standard_normal((2, size, size, c)))
    x = x.astype(dtype)
    out = (size - k) // s + 1
    g = rng.standard_normal((2, out, out, c)).astype(dtype)
    g[0, 0, 0, :2] = -0.0
    g[1, 1, 0, 9:] = -0.0
    if data == "nan":
        x[0, 1, 1, 0] = x[1, 2, 3, 4] = x[1, 3, 2, 4] = x[0, 2, 2, c - 1] = x[0, 2, 3, c - 1] = np.nan
    if data == "inf":
        g[0, 1, 1, :] = np.inf
        g[1, 0, 1, :] = -np.inf
    native, reference = _with_and_without_c(monkeypatch, "MaxPoolGrad", x, None, g, ksize=(k, k), strides=(s, s),
                                            padding="VALID")
    assert native.dtype == reference.dtype == np.dtype(dtype)
    np.testing.assert_array_equal(native, reference)
    np.testing.assert_array_equal(np.signbit(native), np.signbit(reference))


@pytest.mark.parametrize("dtype", ["f4", "f8"])
@pytest.mark.parametrize("size,c,o,k,s,padding", CASES + [(6, 13, 3, 3, 1, "SAME")])
def test_convolution_input_gradient_in_c_is_the_numpy_codes_bit_for_bit(size, c, o, k, s, padding, dtype,
                                                                       monkeypatch):
    """The windows' gradients summed onto the input in C, in the NumPy code's order: the same floats
    (channels in whole vectors and one by one; -0.0, infinities and NaNs alike)."""
    rng = np.random.default_rng(3)
    f = rng.standard_normal((k, k, c, o)).astype(dtype)
    out = _pad_amounts(size, k, s, padding)[2]
    g = rng.standard_normal((3, out, out, o)).astype(dtype)
    g[0, 0, 0, :] = -0.0
    f[0, 0, :, 0] = -0.0
    g[1, 1, 1, 0] = np.inf
    g[2, 0, 1, 0] = np.nan
    native, reference = _with_and_without_c(monkeypatch, "Conv2DBackpropInput", f, g, input_sizes=(3, size, size, c),
                                            strides=(s, s), padding=padding)
    assert native.dtype == reference.dtype == np.dtype(dtype)
    np.testing.assert_array_equal(native, reference)
    np.testing.assert_array_equal(np.signbit(native), np.signbit(reference))


@pytest.mark.parametrize("dtype", ["f4", "f8"])
@pytest.mark.parametrize("im2col_bytes", [nn_impl.IM2COL_BYTES, 0], ids=["small", "large"])
@pytest.mark.parametrize("size,c,o,k,s,padding", CASES)
def test_convolution_windows_matrix_in_c_is_the_numpy_codes_bit_for_bit(size, c, o, k, s, padding, im2col_bytes,
                                                                       dtype, monkeypatch):
    """The windows' matrix copied in C (whole images, or rows of one image): Conv2D and its filter's
    gradient the same floats as through the NumPy code's copy (NaN and infinities alike)."""
    monkeypatch.setattr(nn_impl, "IM2COL_BYTES", im2col_bytes)
    rng = np.random.default_rng(7)
    x = rng.standard_normal((3, size, size, c)).astype(dtype)
    x[0, 1, 1, 0], x[2, 2, 1, c - 1] = np.nan, -np.inf
    f = rng.standard_normal((k, k, c, o)).astype(dtype)
    out = _pad_amounts(size, k, s, padding)[2]
    g = rng.standard_normal((3, out, out, o)).astype(dtype)
    attrs = dict(strides=(s, s), padding=padding)
    outputs = _with_and_without_c(monkeypatch, "Conv2D", x, f, **attrs)
    monkeypatch.setattr(nn_native, "NATIVE", nn_native.FASTPATH)
    filters = _with_and_without_c(monkeypatch, "Conv2DBackpropFilter", x, g, filter_sizes=f.shape, **attrs)
    for native, reference in (outputs, filters):
        assert native.dtype == reference.dtype == np.dtype(dtype) and native.shape == reference.shape
        np.testing.assert_array_equal(native, reference)


@pytest.mark.parametrize("shape", [(32, 26, 26, 32), (3, 5, 7), (4, 6), (2, 3, 5000), (6, 1)])
def test_bias_add_is_the_broadcast_sum(shape):
    """Added as long rows onto the bias repeated where the input is contiguous: the same floats as
    ``x + bias``, for a transposed (non-contiguous) input too."""
    rng = np.random.default_rng(4)
    x = rng.standard_normal(shape).astype("f4")
    bias = rng.standard_normal(shape[-1]).astype("f4")
    x.flat[:4] = np.nan, np.inf, -0.0, -np.inf
    np.testing.assert_array_equal(lookup("BiasAdd").fn(np, x, bias), x + bias)
    assert lookup("BiasAdd").fn(np, x, bias).tobytes() == (x + bias).tobytes()
    xt = np.swapaxes(rng.standard_normal(shape[:-2] + (shape[-1], shape[-2])).astype("f4"), -1, -2)
    np.testing.assert_array_equal(lookup("BiasAdd").fn(np, xt, bias), xt + bias)
    for dtype in ("f8", "i4"):  # in C, and the NumPy code's long rows
        assert lookup("BiasAdd").fn(np, x.astype(dtype), bias.astype(dtype)).tobytes() == \
            (x.astype(dtype) + bias.astype(dtype)).tobytes()


@pytest.mark.parametrize("dtype", ["f4", "f8"])
@pytest.mark.parametrize("transposed", [False, True])
def test_relu_and_its_gradient_in_c_are_the_numpy_codes_bit_for_bit(dtype, transposed, monkeypatch):
    """One C pass each: NaN stays NaN, -0.0 becomes 0.0 in Relu; ReluGrad's product keeps -0.0 where a
    negative gradient meets y <= 0, and NaN where an infinite one does."""
    rng = np.random.default_rng(5)
    x = rng.standard_normal((4, 9, 33)).astype(dtype)
    x[0, 0, :6] = [np.nan, -0.0, 0.0, np.inf, -np.inf, -1.0]
    dy = rng.standard_normal(x.shape).astype(dtype)
    dy[0, 0, :6] = [-1.0, -2.0, np.inf, np.nan, -0.0, -np.inf]
    if transposed:
        x, dy = np.swapaxes(x, 1, 2), np.swapaxes(dy, 1, 2)
    relus = _with_and_without_c(monkeypatch, "Relu", x)
    monkeypatch.undo()
    grads = _with_and_without_c(monkeypatch, "ReluGrad", dy, relus[1])
    for native, reference in (relus, grads):
        assert native.dtype == reference.dtype == np.dtype(dtype) and native.shape == reference.shape
        np.testing.assert_array_equal(native, reference)
        np.testing.assert_array_equal(np.signbit(native), np.signbit(reference))


@pytest.mark.parametrize("dtype", ["f4", "f8"])
@pytest.mark.parametrize("size,k,s,c", [(26, 2, 2, 5), (11, 2, 2, 13), (9, 3, 2, 16), (8, 2, 1, 13), (9, 2, 3, 5)])
@pytest.mark.parametrize("data", ["ties", "random", "nan", "zeros"])
def test_max_pool_in_c_is_the_numpy_codes_bit_for_bit(size, k, s, c, data, dtype, monkeypatch):
    """Unpadded windows, overlapping or not, in one pass in C: NumPy's running maximum's values, its
    choice among signed zeros (the later of equal elements) and NaNs alike, channels in whole vectors
    and one by one."""
    rng = np.random.default_rng(6)
    x = (rng.integers(0, 3, (2, size, size, c)) if data == "ties" else rng.standard_normal((2, size, size, c)))
    x = x.astype(dtype)
    if data == "nan":
        x[0, 1, 1, 0] = x[1, 2, 3, 4] = x[1, 3, 2, 4] = x[0, 2, 2, c - 1] = x[1, 4, 4, 1] = np.nan
    if data == "zeros":
        x = np.where(rng.random(x.shape) < 0.5, -0.0, 0.0).astype(dtype) * (rng.random(x.shape) < 0.9)
    native, reference = _with_and_without_c(monkeypatch, "MaxPool", x, ksize=(k, k), strides=(s, s), padding="VALID")
    assert native.dtype == reference.dtype == np.dtype(dtype) and native.shape == reference.shape
    np.testing.assert_array_equal(native, reference)
    np.testing.assert_array_equal(np.signbit(native), np.signbit(reference))


@pytest.mark.parametrize("dtype", ["f4", "f8"])
def test_c_loops_split_over_two_threads_give_the_same_floats(dtype, monkeypatch):
    """On idle cores a big tensor's loop runs in two halves (images, rows or elements), the second on
    a thread of its own: bit for bit the one-thread result, whatever the halves' sizes."""
    if getattr(nn_native.NATIVE, "max_pool", None) is None:
        pytest.skip("the C module is not built")
    rng = np.random.default_rng(9)
    x = rng.standard_normal((3, 10, 10, 13)).astype(dtype)
    x[0, 1, 1, 0], x[2, 3, 4, 12] = np.nan, -0.0
    g = rng.standard_normal((3, 5, 5, 13)).astype(dtype)
    pool = dict(ksize=(2, 2), strides=(2, 2), padding="VALID")
    calls = [("MaxPool", (x,), pool), ("MaxPoolGrad", (x, None, g), pool), ("Relu", (x,), {}),
             ("ReluGrad", (x[::-1].copy(), x), {}), ("BiasAdd", (x, x[0, 0, 0]), {})]
    for kernel, args, attrs in calls:
        one = lookup(kernel).fn(np, *args, **attrs)
        monkeypatch.setattr(blas_threads, "loop_threads", lambda elements: 2)
        two = lookup(kernel).fn(np, *args, **attrs)
        monkeypatch.undo()
        assert one.dtype == two.dtype and one.tobytes() == two.tobytes(), kernel


@pytest.mark.parametrize("mode,load,elements,threads", [("auto", 0.5, 1 << 20, 2), ("auto", 0.5, 1000, 1),
                                                        ("auto", 3.0, 1 << 20, 1), ("1", 0.5, 1 << 20, 1)])
def test_c_loops_take_a_second_thread_only_on_idle_cores(mode, load, elements, threads, monkeypatch):
    monkeypatch.setattr(blas_threads, "_MODE", mode)
    monkeypatch.setattr(blas_threads, "_checked_at", -1e9)
    monkeypatch.setattr(blas_threads, "_CORES", 2)
    monkeypatch.setattr(blas_threads.os, "getloadavg", lambda: (load, load, load))
    assert blas_threads.loop_threads(elements) == threads
