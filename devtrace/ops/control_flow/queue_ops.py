"""``tf.queue``: TensorFlow's queues (``FIFOQueueV2``, ``PaddingFIFOQueueV2``, ``RandomShuffleQueueV2``,
``PriorityQueueV2``) and the ops that use them (``QueueEnqueueV2``, ``QueueEnqueueManyV2``,
``QueueDequeueV2``, ``QueueDequeueManyV2``, ``QueueDequeueUpToV2``, ``QueueCloseV2``, ``QueueSizeV2``,
``QueueIsClosedV2``), placed and logged like every op, with TensorFlow 2.21's kernels per device type
(a queue's first input is its resource handle: eagerly the op runs on the queue's device, in a graph
it is colocated with the queue, as TensorFlow pins and colocates resource ops).

A queue lives in ``QUEUES`` under its key, the string its handle holds; an eager queue's entry goes
with its Python object. Its elements are tuples of host arrays. ``RandomShuffleQueue`` draws as
TensorFlow's kernel does (Philox seeded by the op's two seeds, one 32-bit word per element taken,
its index that word modulo the size), so a seeded queue dequeues in TensorFlow's order.

TensorFlow blocks an enqueue into a full queue and a dequeue from an empty open one until another
thread makes room or adds elements; devtrace runs one op at a time, so it says it cannot wait
(``UnimplementedError``) instead of waiting forever.
"""

from __future__ import annotations

import contextlib
import heapq
import itertools
import weakref
from dataclasses import dataclass, field

import numpy as np

from ...errors import CancelledError, InvalidArgumentError, OutOfRangeError, UnimplementedError
from ...runtime import dtypes
from ...runtime.context import context
from ...runtime.eager.executor import ResourceHandle, execute
from ...runtime import scopes
from ...runtime.graph.graph import get_default_graph, init_scope
from ...runtime.registry import CPU, GPU
from ...runtime.tensor import Tensor
from ...runtime.tensor_shape import TensorShape
from ...runtime.values import constant
from ..declare import host_arg, on_host, op, public
from ..random import philox

QUEUES: dict = {}
_KEYS = itertools.count()
_UIDS = itertools.count()


@dataclass
class Queue:
    kind: str  # FIFOQueue, PaddingFIFOQueue, RandomShuffleQueue, PriorityQueue
    name: str  # as TensorFlow's errors name it (its shared name)
    dtypes: tuple
    shapes: tuple  # one tuple a component (None: an unknown dimension), or () when unconstrained
    capacity: int
    min_after_dequeue: int = 0
    words: object = None  # RandomShuffleQueue's Philox stream: (key, counter, words taken)
    elements: list = field(default_factory=list)
    closed: bool = False
    _order: object = field(default_factory=itertools.count)  # PriorityQueue: ties dequeue in arrival order

    def fail(self, error, text):
        e = _KernelError(f"{self.kind} '{self.name}' {text}")
        e.error_class = error
        return e


class _KernelError(ValueError):
    error_class = InvalidArgumentError


def _queue(xp, handle) -> Queue:
    return QUEUES[on_host(xp, handle).reshape(-1)[0].decode()]


def _creator(kind):
    def create(xp, **attrs):
        return _create(kind, **attrs)
    return create


def _create(kind, component_types=(), shapes=(), capacity=-1, container="", shared_name="", queue_key="",
            min_after_dequeue=0, seed=0, seed2=0):
    """The queue's handle: the queue made the first time its op runs (a graph's node runs again, the
    queue stays), as TensorFlow's resource manager looks a queue up by its name."""
    if queue_key not in QUEUES:
        words = None
        if kind == "RandomShuffleQueue":
            if seed == 0 and seed2 == 0:
                seed, seed2 = (int.from_bytes(np.random.bytes(8), "little") for _ in range(2))
            words = [seed, (0, seed2), 0, np.zeros(0, np.uint32)]
        types, shapes = tuple(component_types), tuple(tuple(s) for s in shapes)
        if kind == "PriorityQueue":  # an element's first component is its int64 priority
            types, shapes = ("int64",) + types, (((),) + shapes) if shapes else ()
        QUEUES[queue_key] = Queue(kind, shared_name, types, shapes, capacity, min_after_dequeue, words)
    return np.asarray(queue_key.encode(), dtype=object)


def _check_component(q: Queue, i, value, many):
    if value.dtype != dtypes.as_dtype(q.dtypes[i]).np and not (value.dtype == object and q.dtypes[i] == "string"):
        raise _KernelError(f"Type mismatch in tuple component {i}. Expected {q.dtypes[i]}, got {value.dtype}")
    if q.shapes:
        shape = value.shape[1:] if many else value.shape
        want = q.shapes[i]
        if len(shape) != len(want) or any(w is not None and w != d for w, d in zip(want, shape)):
            text = "[" + ",".join("?" if w is None else str(w) for w in want) + "]"
            raise _KernelError(f"Shape mismatch in tuple component {i}. Expected {text}, got "
                               f"[{','.join(str(d) for d in shape)}]")


def _push(q: Queue, element):
    if q.kind == "PriorityQueue":
        heapq.heappush(q.elements, (int(element[0]), next(q._order), element))
    else:
        q.elements.append(element)


def _room(q: Queue, n):
    if q.closed:
        raise q.fail(CancelledError, "is closed.")
    if q.capacity >= 0 and len(q.elements) + n > q.capacity:
        raise q.fail(UnimplementedError, f"is full (capacity {q.capacity}): TensorFlow would wait for a dequeue; "
                                         f"devtrace does not implement waiting on a queue yet")


def _enqueue(xp, handle, *components, Tcomponents=(), timeout_ms=-1):
    q = _queue(xp, handle)
    values = [on_host(xp, c) for c in components]
    for i, v in enumerate(values):
        _check_component(q, i, v, False)
    _room(q, 1)
    _push(q, tuple(v.copy() for v in values))


def _enqueue_many(xp, handle, *components, Tcomponents=(), timeout_ms=-1):
    q = _queue(xp, handle)
    values = [on_host(xp, c) for c in components]
    for i, v in enumerate(values):
        if v.ndim == 0:
            raise _KernelError(f"Shape must be at least rank 1 but is rank 0 for component {i}")
        _check_component(q, i, v, True)
    if len({v.shape[0] for v in values}) > 1:
        raise _KernelError("All input tensors must have the same size in the 0th dimension.")
    n = values[0].shape[0] if values else 0
    _room(q, n)
    for k in range(n):
        _push(q, tuple(v[k].copy() for v in values))


def _take(q: Queue):
    if q.kind == "PriorityQueue":
        return heapq.heappop(q.elements)[2]
    if q.kind == "RandomShuffleQueue":  # TensorFlow's DequeueLocked: a word modulo the size, the last moved there
        state = q.words
        if state[2] >= len(state[3]):
            state[3] = philox.words(state[0], state[1], 256, state[2] // 4).reshape(-1)
            state[2], state[3] = 0, state[3]
            state[1] = (state[1][0] + 256, state[1][1])
        index = int(state[3][state[2]]) % len(q.elements)
        state[2] += 1
        element, q.elements[index] = q.elements[index], q.elements[-1]
        q.elements.pop()
        return element
    return q.elements.pop(0)


def _available(q: Queue, n, up_to=False) -> int:
    """How many elements a dequeue of ``n`` takes now (TensorFlow's errors where it cannot)."""
    size = len(q.elements)
    keep = 0 if q.closed else q.min_after_dequeue
    if size - keep >= n:
        return n
    if q.closed:
        if up_to and size > 0:
            return size
        raise q.fail(OutOfRangeError, f"is closed and has insufficient elements (requested {n}, current size {size})")
    raise q.fail(UnimplementedError, f"has {size} elements, fewer than the {n + keep} a dequeue needs: TensorFlow "
                                     f"would wait for an enqueue; devtrace does not implement waiting on a queue yet")


def _dequeue(xp, handle, component_types=(), timeout_ms=-1, _shapes=None):
    q = _queue(xp, handle)
    _available(q, 1)
    return tuple(xp.asarray(v) if v.dtype != object else v for v in _take(q))


def _batch(xp, q: Queue, taken):
    out = []
    for i, dtype in enumerate(q.dtypes):
        parts = [element[i] for element in taken]
        if q.kind == "PaddingFIFOQueue" and parts:  # zeros up to the batch's largest element
            shape = tuple(max(p.shape[d] for p in parts) for d in range(parts[0].ndim))
            array = np.zeros((len(parts),) + shape, parts[0].dtype)
            if array.dtype == object:
                array[...] = b""
            for k, p in enumerate(parts):
                array[(k,) + tuple(slice(0, d) for d in p.shape)] = p
        elif parts:
            array = np.stack(parts)
        else:
            array = np.zeros((0,) + tuple(d or 0 for d in (q.shapes[i] if q.shapes else ())),
                             dtypes.as_dtype(dtype).np)
        out.append(array if array.dtype == object else xp.asarray(array))
    return tuple(out)


def _dequeue_many(up_to):
    def kernel(xp, handle, n=0, component_types=(), timeout_ms=-1, _shapes=None):
        q = _queue(xp, handle)
        n = int(n)
        if n < 0:
            raise _KernelError(f"Dequeue{'UpTo' if up_to else 'Many'} requested {n} < 0 elements")
        if not q.shapes and q.kind != "PaddingFIFOQueue":
            raise _KernelError(f"{q.kind}'s DequeueMany and DequeueUpTo require the components to have specified "
                               f"shapes.")
        count = _available(q, n, up_to)
        if up_to and q.closed and not q.elements:
            raise q.fail(OutOfRangeError, f"is closed and has insufficient elements (requested {n}, current size 0)")
        return _batch(xp, q, [_take(q) for _ in range(count)])
    return kernel


def _close(xp, handle, cancel_pending_enqueues=False):
    _queue(xp, handle).closed = True


def _size(xp, handle):
    return np.asarray(len(_queue(xp, handle).elements), np.int32)


def _is_closed(xp, handle):
    return np.asarray(_queue(xp, handle).closed)


# -- shapes --------------------------------------------------------------------------------------

def _resource(name, shapes, attrs, dtype):
    return dtypes.resource, ()


def _components(attrs, batch=False, known=None):
    types = attrs.get("component_types", ())
    shapes = attrs.get("_shapes") or [None] * len(types)
    lead = (known,) if batch else ()
    return [(dtypes.as_dtype(t), None if s is None else lead + tuple(s)) for t, s in zip(types, shapes)]


def _dequeue_shape(name, shapes, attrs, dtype):
    return _components(attrs), None


def _dequeue_many_shape(up_to):
    def shape(name, shapes, attrs, dtype):
        n = attrs.get("n")
        return _components(attrs, True, None if up_to or n is None else int(n)), None
    return shape


CREATORS = ("FIFOQueueV2", "PaddingFIFOQueueV2", "RandomShuffleQueueV2", "PriorityQueueV2")
# TensorFlow 2.21 registers these for every device type (a GPU runs them with the queue in host memory)
_ON_EVERY_DEVICE = ("FIFOQueueV2", "QueueEnqueueV2", "QueueDequeueV2", "QueueCloseV2", "QueueSizeV2",
                    "QueueIsClosedV2")


def _devices(name):
    return (CPU, GPU) if name in _ON_EVERY_DEVICE else (CPU,)


for _name in CREATORS:
    op(_name, _creator(_name[:-2]), None, devices=_devices(_name), shape=_resource, stateful=True,
       mixed_dtypes=True)
op("QueueEnqueueV2", _enqueue, None, devices=_devices("QueueEnqueueV2"), stateful=True, mixed_dtypes=True,
   number_attr="Tcomponents")
op("QueueEnqueueManyV2", _enqueue_many, None, devices=(CPU,), stateful=True, mixed_dtypes=True,
   number_attr="Tcomponents")
op("QueueDequeueV2", _dequeue, None, devices=_devices("QueueDequeueV2"), stateful=True, mixed_dtypes=True, multi=True,
   shape=_dequeue_shape, number_attr="component_types")
op("QueueDequeueManyV2", _dequeue_many(False), None, devices=(CPU,), stateful=True, mixed_dtypes=True, multi=True,
   shape=_dequeue_many_shape(False), number_attr="component_types", host_args={"n": "n"})
op("QueueDequeueUpToV2", _dequeue_many(True), None, devices=(CPU,), stateful=True, mixed_dtypes=True, multi=True,
   shape=_dequeue_many_shape(True), number_attr="component_types", host_args={"n": "n"})
op("QueueCloseV2", _close, None, devices=_devices("QueueCloseV2"), stateful=True, mixed_dtypes=True)
op("QueueSizeV2", _size, None, devices=_devices("QueueSizeV2"), stateful=True, mixed_dtypes=True,
   shape=lambda n, s, a, d: (dtypes.int32, ()))
op("QueueIsClosedV2", _is_closed, None, devices=_devices("QueueIsClosedV2"), stateful=True, mixed_dtypes=True,
   shape=lambda n, s, a, d: (dtypes.bool_, ()))
NO_OUTPUT = ("QueueEnqueueV2", "QueueEnqueueManyV2", "QueueCloseV2")


# -- the Python classes --------------------------------------------------------------------------

def _as_type_list(types):
    return list(types) if isinstance(types, (list, tuple)) else [types]


def _as_shape_list(shapes, unknown_dim_allowed=False):
    if unknown_dim_allowed and (not isinstance(shapes, (list, tuple)) or not shapes
                                or any(s is None or isinstance(s, int) for s in shapes)):
        raise ValueError("When providing partial shapes, a list of shapes must be provided.")
    if shapes is None:
        return None
    if isinstance(shapes, TensorShape):
        shapes = [shapes]
    if not isinstance(shapes, (tuple, list)):
        raise TypeError(f"Shapes must be a TensorShape or a list or tuple of TensorShapes, got {type(shapes)} instead.")
    if all(s is None or isinstance(s, int) for s in shapes):
        shapes = [shapes]
    shapes = [TensorShape(s) for s in shapes]
    if not unknown_dim_allowed and any(not s.is_fully_defined() for s in shapes):
        raise ValueError(f"All shapes must be fully defined: {shapes}")
    if any(s.rank is None for s in shapes):
        raise ValueError(f"All shapes must have a defined rank: {shapes}")
    return shapes


def _as_name_list(names, types):
    if names is None:
        return None
    names = list(names) if isinstance(names, (list, tuple)) else [names]
    if len(names) != len(types):
        raise ValueError(f"List of names must have the same length as the list of dtypes, received "
                         f"len(names)={len(names)},len(dtypes)={len(types)}")
    return names


def _shape_attr(shapes):
    return [tuple(s.as_list()) for s in shapes] if shapes else []


@public("queue.QueueBase", "compat.v1.QueueBase")
class QueueBase:
    """A queue from its handle: ``enqueue``/``enqueue_many``, ``dequeue``/``dequeue_many``/
    ``dequeue_up_to``, ``close``, ``is_closed``, ``size`` (TensorFlow's ``data_flow_ops.QueueBase``)."""

    def __init__(self, dtypes, shapes, names, queue_ref):
        self._dtypes = dtypes
        if shapes is not None:
            if len(shapes) != len(dtypes):
                raise ValueError(f"Queue shapes must have the same length as dtypes, received len(shapes)={len(shapes)}, "
                                 f"len(dtypes)={len(dtypes)}")
            self._shapes = [TensorShape(s) for s in shapes]
        else:
            self._shapes = [TensorShape(None) for _ in self._dtypes]
        if names is not None and len(names) != len(dtypes):
            raise ValueError(f"Queue names must have the same length as dtypes,received len(names)={len(names)},"
                             f"len {len(dtypes)}")
        self._names = names
        self._queue_ref = queue_ref
        if queue_ref._device is not None:  # an eager handle
            self._name = context().name_scope or "Empty"
        else:
            self._name = queue_ref._op.name.split("/")[-1]

    @property
    def queue_ref(self):
        return self._queue_ref

    @property
    def name(self):
        return self._name if context().eager or self._queue_ref._device is not None else self._queue_ref._op.name

    @property
    def dtypes(self):
        return self._dtypes

    @property
    def shapes(self):
        return self._shapes

    @property
    def names(self):
        return self._names

    def _run(self, op_type, inputs, attrs, name, multi=False):
        handle = self._queue_ref
        if context().eager:
            pin = ResourceHandle(handle._device, handle._seq)
            return execute(op_type, (handle, *inputs), attrs, name=name, dtype=self._dtypes[0], resource=pin)
        if handle._device is not None:  # a function uses an eager queue: its ops run on the queue's device
            with context().graph_builder.device(handle._device.name):
                return execute(op_type, (handle, *inputs), attrs, name=name, dtype=self._dtypes[0])
        return execute(op_type, (handle, *inputs), attrs, name=name, dtype=self._dtypes[0])

    def _check_enqueue_dtypes(self, vals):
        if isinstance(vals, dict):
            if not self._names:
                raise ValueError("Queue must have names to enqueue a dictionary")
            if sorted(self._names, key=str) != sorted(vals.keys(), key=str):
                raise ValueError(f"Keys in dictionary to enqueue do not match names of Queue.  Dictionary: "
                                 f"{sorted(vals.keys())},Queue: {sorted(self._names)}")
            vals = [vals[k] for k in self._names]
        else:
            if self._names:
                raise ValueError("You must enqueue a dictionary in a Queue with names")
            if not isinstance(vals, (list, tuple)):
                vals = [vals]
        out = []
        for i, (val, dtype) in enumerate(zip(vals, self._dtypes)):
            if isinstance(val, Tensor):
                if val.dtype != dtype:
                    raise ValueError(f"Tensor conversion requested dtype {dtype.name} for Tensor with dtype "
                                     f"{val.dtype.name}: {val!r}")
                out.append(val)
            else:
                out.append(constant(val, dtype, name=None if context().eager else f"component_{i}"))
        return out

    def _scope(self, name, default):
        if context().eager:
            return ""
        return context().graph_builder.name_scope(name or default)

    def enqueue(self, vals, name=None):
        """Enqueue one element (TensorFlow blocks on a full queue; devtrace says it cannot wait)."""
        return self._enqueue("QueueEnqueueV2", vals, name, f"{self._name}_enqueue", False)

    def enqueue_many(self, vals, name=None):
        """Enqueue the slices of ``vals`` along their first dimension, as elements."""
        return self._enqueue("QueueEnqueueManyV2", vals, name, f"{self._name}_EnqueueMany", True)

    def _enqueue(self, op_type, vals, name, default, many):
        if context().eager:
            return self._enqueue_in(op_type, vals, "", many)
        with context().graph_builder.name_scope(name or default) as scope:
            return self._enqueue_in(op_type, vals, scope, many)

    def _enqueue_in(self, op_type, vals, scope, many):
        vals = self._check_enqueue_dtypes(vals)
        batch = None
        for val, shape in zip(vals, self._shapes):
            got = TensorShape(val.shape)
            if many:
                if got.rank == 0:
                    raise ValueError(f"Shape must be at least rank 1 but is rank 0")
                first = got.as_list()[0] if got.rank else None
                if batch is not None and first is not None and first != batch:
                    raise ValueError(f"Dimensions {batch} and {first} are not compatible")
                batch = first if first is not None else batch
                got = TensorShape(got.as_list()[1:]) if got.rank is not None else got
            if not got.is_compatible_with(shape):
                raise ValueError(f"Shapes {got} and {shape} are incompatible")
        attrs = {"Tcomponents": tuple(v.dtype.name for v in vals), "timeout_ms": -1}
        out = self._run(op_type, vals, attrs, scope)
        return None if context().eager else out

    def _attrs(self):
        return {"component_types": tuple(d.name for d in self._dtypes), "timeout_ms": -1,
                "_shapes": [tuple(s.as_list()) if s.rank is not None else None for s in self._shapes]}

    def _dequeue_return_value(self, tensors):
        tensors = list(tensors)
        if self._names:
            return {n: tensors[i] for i, n in enumerate(self._names)}
        if len(tensors) == 1:
            return tensors[0]
        return tensors

    def dequeue(self, name=None):
        """Dequeue one element (``OutOfRangeError`` once closed and empty)."""
        out = self._run("QueueDequeueV2", (), self._attrs(), name or f"{self._name}_Dequeue")
        return self._dequeue_return_value(out)

    def dequeue_many(self, n, name=None):
        """Dequeue ``n`` elements, concatenated along a new first dimension."""
        out = self._run("QueueDequeueManyV2", (), dict(self._attrs(), n=_count(n)), name or f"{self._name}_DequeueMany")
        return self._dequeue_return_value(out)

    def dequeue_up_to(self, n, name=None):
        """As ``dequeue_many``, but a closed queue gives what it has left."""
        out = self._run("QueueDequeueUpToV2", (), dict(self._attrs(), n=_count(n)), name or f"{self._name}_DequeueUpTo")
        return self._dequeue_return_value(out)

    def close(self, cancel_pending_enqueues=False, name=None):
        """No more enqueues: dequeues take what is left, then raise ``OutOfRangeError``."""
        out = self._run("QueueCloseV2", (), {"cancel_pending_enqueues": bool(cancel_pending_enqueues)},
                        name or f"{self._name}_Close")
        return None if context().eager else out

    def is_closed(self, name=None):
        return self._run("QueueIsClosedV2", (), None, name or f"{self._name}_Is_Closed")

    def size(self, name=None):
        return self._run("QueueSizeV2", (), None, name or f"{self._name}_Size")

    @staticmethod
    def from_list(index, queues):
        raise NotImplementedError("devtrace does not implement tf.queue.QueueBase.from_list yet")


def _count(n):
    """``n`` on the host: eagerly a Python int becomes a constant as TensorFlow converts it (``_EagerConst``)."""
    if isinstance(n, Tensor) and n._device is None:
        return n
    return int(host_arg(n, dtypes.int32, slow_list=False))


def _make(op_type, name, types, shapes, shared_name, extra=None, on_cpu=False):
    """The queue op's handle: made eagerly outside any function (TensorFlow's ``init_scope``), on the
    CPU where TensorFlow asks for it (``FIFOQueue``)."""
    ctx = context()
    key = f"q{next(_KEYS)}"
    eager_name = str(next(_UIDS))
    attrs = {"component_types": tuple(t.name for t in types), "shapes": _shape_attr(shapes), "capacity": -1,
             "container": "", "shared_name": shared_name or eager_name, "queue_key": key, **(extra or {})}
    with scopes.device("CPU") if on_cpu else contextlib.nullcontext():
        handle = execute(op_type, (), attrs, name=name, dtype=types[0])  # the kernel's dtype: no constraint
    if ctx.eager:
        handle._dtype = dtypes.resource
    else:
        node = handle._op
        if not shared_name:
            node._attrs["shared_name"] = f"_0_{node.name}"
    return handle, key


class _Queue(QueueBase):
    def _finish(self, handle, key, types, shapes, names):
        super().__init__(types, shapes, names, handle)
        if context().eager:
            weakref.finalize(self, QUEUES.pop, key, None)


@public("queue.FIFOQueue", "compat.v1.FIFOQueue")
class FIFOQueue(_Queue):
    """Elements in, first out; bounded by ``capacity``."""

    def __init__(self, capacity, dtypes, shapes=None, names=None, shared_name=None, name="fifo_queue"):
        dtypes = [_dt(d) for d in _as_type_list(dtypes)]
        shapes = _as_shape_list(shapes)
        names = _as_name_list(names, dtypes)
        with _init_scope():
            handle, key = _make("FIFOQueueV2", name, dtypes, shapes, shared_name, {"capacity": int(capacity)},
                                on_cpu=True)
        self._finish(handle, key, dtypes, shapes, names)


@public("queue.PaddingFIFOQueue", "compat.v1.PaddingFIFOQueue")
class PaddingFIFOQueue(_Queue):
    """A FIFO queue whose components may vary in size along ``None`` dimensions; ``dequeue_many`` pads
    them with zeros to the batch's largest."""

    def __init__(self, capacity, dtypes, shapes, names=None, shared_name=None, name="padding_fifo_queue"):
        dtypes = [_dt(d) for d in _as_type_list(dtypes)]
        shapes = _as_shape_list(shapes, unknown_dim_allowed=True)
        names = _as_name_list(names, dtypes)
        if len(dtypes) != len(shapes):
            raise ValueError(f"Shapes must be provided for all components, but received {len(dtypes)} dtypes and "
                             f"{len(shapes)} shapes.")
        handle, key = _make("PaddingFIFOQueueV2", name, dtypes, shapes, shared_name, {"capacity": int(capacity)})
        self._finish(handle, key, dtypes, shapes, names)


@public("queue.RandomShuffleQueue", "compat.v1.RandomShuffleQueue")
class RandomShuffleQueue(_Queue):
    """Dequeues elements in a random order, keeping ``min_after_dequeue`` until it is closed."""

    def __init__(self, capacity, min_after_dequeue, dtypes, shapes=None, names=None, seed=None, shared_name=None,
                 name="random_shuffle_queue"):
        from ..random.random_ops import get_seed

        dtypes = [_dt(d) for d in _as_type_list(dtypes)]
        shapes = _as_shape_list(shapes)
        names = _as_name_list(names, dtypes)
        seed1, seed2 = get_seed(seed)
        if seed1 is None and seed2 is None:
            seed1, seed2 = 0, 0
        elif seed is None and shared_name is not None:
            import hashlib

            seed2 = int(hashlib.md5((str(seed1) + shared_name).encode("utf-8")).hexdigest()[:8], 16) & 0x7FFFFFFF
        handle, key = _make("RandomShuffleQueueV2", name, dtypes, shapes, shared_name,
                            {"capacity": int(capacity), "min_after_dequeue": int(min_after_dequeue), "seed": seed1,
                             "seed2": seed2})
        self._finish(handle, key, dtypes, shapes, names)


@public("queue.PriorityQueue", "compat.v1.PriorityQueue")
class PriorityQueue(_Queue):
    """Dequeues the element of the lowest int64 priority first (an element's first component)."""

    def __init__(self, capacity, types, shapes=None, names=None, shared_name=None, name="priority_queue"):
        types = [_dt(d) for d in _as_type_list(types)]
        shapes = _as_shape_list(shapes)
        handle, key = _make("PriorityQueueV2", name, types, shapes, shared_name, {"capacity": int(capacity)})
        priority_dtypes = [dtypes.int64] + types
        priority_shapes = [()] + shapes if shapes else shapes
        self._finish(handle, key, priority_dtypes, priority_shapes, names)


def _dt(d):
    return dtypes.as_dtype(d)


def _init_scope():
    """TensorFlow's ``init_scope`` around a queue: out of a function being traced (a TF1 graph stays)."""
    if not context().eager and getattr(get_default_graph(), "captures", None) is not None:
        return init_scope()
    return contextlib.nullcontext()
