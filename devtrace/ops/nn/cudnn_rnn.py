"""``CudnnRNNV3`` and its gradient ``CudnnRNNBackpropV3``: the fused one-layer, one-direction LSTM/GRU
that Keras 3's TensorFlow backend runs for an ``LSTM``/``GRU`` layer on a GPU (GPU kernels only, as
TensorFlow registers them). ``params`` is cuDNN's flat vector as Keras packs it: each gate's input
then recurrent weights (transposed, flattened), then the input biases and the recurrent biases; the
gates in cuDNN's order (LSTM ``i f c o``, GRU ``r z h``). Batch-major (``time_major=False``) states
are ``(batch, 1, units)``; a sequence shorter than the input (``sequence_lengths``) outputs zeros past
its end and keeps its state there. Computed in float32 at least (cuDNN's half precision accumulates
in float); the backward pass recomputes the forward one (``reserve_space`` carries nothing)."""

from __future__ import annotations

from ...runtime import dtypes
from ...runtime.eager.executor import execute
from ...runtime.registry import GPU
from ..array import array_ops
from ..declare import gradient, op

_GATES = {"lstm": 4, "gru": 3}
_FLOATS = {"bfloat16", "float16", "float32", "float64"}


def _unpack(xp, params, gates, features, units):
    """``(W, R, bW, bR)``: the input and recurrent weights as ``(features, gates*units)`` and
    ``(units, gates*units)`` (gate blocks side by side, as a Keras kernel), the biases ``(gates*units,)``."""
    at, blocks = 0, []
    for size, rows in ((features, gates), (units, gates)):
        mats = []
        for _ in range(rows):
            mats.append(params[at:at + units * size].reshape(units, size).T)
            at += units * size
        blocks.append(xp.concatenate(mats, axis=1))
    bw = params[at:at + gates * units]
    br = params[at + gates * units:at + 2 * gates * units]
    return blocks[0], blocks[1], bw, br


def _pack(xp, dw, dr, dbw, dbr, gates, units):
    parts = [dw[:, k * units:(k + 1) * units].T.reshape(-1) for k in range(gates)]
    parts += [dr[:, k * units:(k + 1) * units].T.reshape(-1) for k in range(gates)]
    return xp.concatenate(parts + [dbw, dbr])


def _sigmoid(xp, z):
    return 1.0 / (1.0 + xp.exp(-z))


def _batch_major(xp, x, time_major):
    return x if not time_major else xp.swapaxes(x, 0, 1)


def _work_dtype(xp, dtype):
    return xp.float64 if dtype == xp.float64 else xp.float32


def _forward(xp, x, h0, c0, params, lengths, mode, time_major):
    """Every step's values (batch-major ``x``: ``(B, T, F)``; states ``(B, U)``): the outputs and
    final states, and what the backward pass reads."""
    work = _work_dtype(xp, x.dtype)
    x = _batch_major(xp, x, time_major).astype(work)
    h = (h0[0] if time_major else h0[:, 0]).astype(work)
    units, steps = h.shape[-1], x.shape[1]
    gates = _GATES[mode]
    w, r, bw, br = (a.astype(work) for a in _unpack(xp, params, gates, x.shape[-1], units))
    c = (c0[0] if time_major else c0[:, 0]).astype(work) if mode == "lstm" else None
    outputs, trace = [], []
    for t in range(steps):
        live = (t < lengths)[:, None]
        xw, hr = x[:, t] @ w + bw, h @ r + br
        if mode == "lstm":
            z = xw + hr
            i, f = _sigmoid(xp, z[:, :units]), _sigmoid(xp, z[:, units:2 * units])
            g, o = xp.tanh(z[:, 2 * units:3 * units]), _sigmoid(xp, z[:, 3 * units:])
            c_new = f * c + i * g
            h_new = o * xp.tanh(c_new)
            trace.append((h, c, i, f, g, o, c_new))
            c = xp.where(live, c_new, c)
        else:
            rz = _sigmoid(xp, xw[:, :2 * units] + hr[:, :2 * units])
            reset, update = rz[:, :units], rz[:, units:]
            a = hr[:, 2 * units:]
            n = xp.tanh(xw[:, 2 * units:] + reset * a)
            h_new = (1.0 - update) * n + update * h
            trace.append((h, reset, update, n, a))
        h = xp.where(live, h_new, h)
        outputs.append(xp.where(live, h_new, 0.0))
    out = xp.stack(outputs, axis=1) if outputs else xp.zeros(x.shape[:2] + (units,), work)
    return out, h, c, (x, w, r, trace)


def _state(xp, value, like, time_major):
    return (value[None] if time_major else value[:, None]).astype(like.dtype)


def _cudnn_rnn(xp, x, h0, c0, params, lengths, rnn_mode="lstm", input_mode="linear_input",
               direction="unidirectional", dropout=0.0, seed=0, seed2=0, num_proj=0, is_training=True,
               time_major=True):
    out, h, c, _ = _forward(xp, x, h0, c0, params, lengths, rnn_mode, time_major)
    c_out = _state(xp, c, x, time_major) if c is not None else xp.zeros_like(c0)
    return (_batch_major(xp, out, time_major).astype(x.dtype), _state(xp, h, x, time_major), c_out,
            xp.zeros((0,), x.dtype), xp.zeros((0,), xp.int8))


def _cudnn_rnn_backprop(xp, x, h0, c0, params, lengths, output, output_h, output_c, dy, dh, dc, reserve, host,
                        rnn_mode="lstm", input_mode="linear_input", direction="unidirectional", dropout=0.0, seed=0,
                        seed2=0, num_proj=0, is_training=True, time_major=True):
    """Backpropagation through time over the recomputed forward steps."""
    _, _, _, (xs, w, r, trace) = _forward(xp, x, h0, c0, params, lengths, rnn_mode, time_major)
    work = xs.dtype
    units, gates = w.shape[1] // _GATES[rnn_mode], _GATES[rnn_mode]
    dy = _batch_major(xp, dy, time_major).astype(work)
    dh_next = (dh[0] if time_major else dh[:, 0]).astype(work)
    dc_next = (dc[0] if time_major else dc[:, 0]).astype(work) if rnn_mode == "lstm" else None
    dw, dr = xp.zeros_like(w), xp.zeros_like(r)
    dbw, dbr = xp.zeros(gates * units, work), xp.zeros(gates * units, work)
    dx = xp.zeros_like(xs)
    for t in range(xs.shape[1] - 1, -1, -1):
        live = (t < lengths)[:, None]
        grad_h = dh_next + xp.where(live, dy[:, t], 0.0)
        if rnn_mode == "lstm":
            h, c, i, f, g, o, c_new = trace[t]
            tanh_c = xp.tanh(c_new)
            grad_c = dc_next + grad_h * o * (1.0 - tanh_c ** 2)
            dz = xp.concatenate([grad_c * g * i * (1.0 - i), grad_c * c * f * (1.0 - f), grad_c * i * (1.0 - g ** 2),
                                 grad_h * tanh_c * o * (1.0 - o)], axis=1)
            dz = xp.where(live, dz, 0.0)
            dxw = dhr = dz
            dc_next = xp.where(live, grad_c * f, dc_next)
            direct = 0.0
        else:
            h, reset, update, n, a = trace[t]
            dn = grad_h * (1.0 - update) * (1.0 - n ** 2)
            dreset = dn * a * reset * (1.0 - reset)
            dupdate = grad_h * (h - n) * update * (1.0 - update)
            dxw = xp.where(live, xp.concatenate([dreset, dupdate, dn], axis=1), 0.0)
            dhr = xp.where(live, xp.concatenate([dreset, dupdate, dn * reset], axis=1), 0.0)
            direct = grad_h * update
        dw += xs[:, t].T @ dxw
        dr += h.T @ dhr
        dbw += dxw.sum(axis=0)
        dbr += dhr.sum(axis=0)
        dx[:, t] = dxw @ w.T
        dh_next = xp.where(live, direct + dhr @ r.T, grad_h)
    dc0 = _state(xp, dc_next, x, time_major) if dc_next is not None else xp.zeros_like(c0)
    return (_batch_major(xp, dx, time_major).astype(x.dtype), _state(xp, dh_next, x, time_major), dc0,
            _pack(xp, dw, dr, dbw, dbr, gates, units).astype(params.dtype))


def _rnn_shapes(name, shapes, attrs, dtype):
    x, h, c = (shapes[i] if shapes else None for i in range(3))
    out = None
    if x is not None and h is not None:
        out = tuple(x[:-1]) + (h[-1],)
    return [(dtype, out), (dtype, h), (dtype, c), (dtype, (0,)), (dtypes.int8, (0,))], None


def _backprop_shapes(name, shapes, attrs, dtype):
    return [(dtype, shapes[i] if shapes else None) for i in range(4)], None


op("CudnnRNNV3", _cudnn_rnn, _FLOATS, devices=(GPU,), shape=_rnn_shapes, mixed_dtypes=True, multi=True,
   stateful=True)
op("CudnnRNNBackpropV3", _cudnn_rnn_backprop, _FLOATS, devices=(GPU,), shape=_backprop_shapes, mixed_dtypes=True,
   multi=True, stateful=True)


@gradient("CudnnRNNV3")
def _cudnn_rnn_grad(op, dy, dh, dc, _reserve, _host):
    outputs = list(op.outputs)
    dy, dh, dc = (g if g is not None else array_ops.zeros_like(o) for g, o in zip((dy, dh, dc), outputs[:3]))
    grads = execute("CudnnRNNBackpropV3", tuple(op.inputs) + (outputs[0], outputs[1], outputs[2], dy, dh, dc,
                                                              outputs[3], outputs[4]), dict(op.attrs))
    return list(grads) + [None]
