/* The BFC allocator's steady state in C: BFCBase.allocate and BFCBase.free, the base of
 * memory/bfc.py's BFCAllocator.
 *
 * Every op on a simulated GPU allocates its output and frees a tensor; most of those pairs are the
 * steady state BFCAllocator's Python methods (bfc._Methods, the reference) already single out: a
 * free that parks its chunk as pending, an allocate of that size that takes it back. These two
 * methods do just that, step for step as the reference; a request of another size goes to
 * `self._allocate` as the reference's allocate sends it (one Python frame less: random sizes cost
 * no more than before the steady state had a path of its own), and any other case -- a free that
 * coalesces, a busy allocator, an unknown handle, a subclass, keywords -- is handed to the reference
 * whole, before anything was changed, so TF's best fit, coalescing, regions and stats keep one
 * implementation.
 *
 * The allocator's fields and a chunk's are __slots__, read at their offsets after an exact type
 * check. Nothing here runs Python code or makes a GC-tracked
 * object between reading a field and using it.
 */
#include "_fastpath.h"

static PyTypeObject *BFC_T, *Chunk_T;
static PyObject *nothing, *allocate_ref, *free_ref, *s__allocate;
static long long max_fragmentation;
static Py_ssize_t k_size, k_request, k_tag, k_prev, k_next, k_in_use;
static Py_ssize_t a_pending, a_absent, a_nfree, a_handle, a_live, a_in_use, a_busy, a_free_at;
static int bfc_configured;

/* the reference method, with the arguments as they came */
static PyObject *
reference(PyObject *method, PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    if (method == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "BFCBase before configure_bfc()");
        return NULL;
    }
    Py_ssize_t n = nargs + (kwnames ? PyTuple_GET_SIZE(kwnames) : 0);
    PyObject *small[8], **argv = n + 1 <= 8 ? small : PyMem_Malloc((n + 1) * sizeof(PyObject *));
    if (argv == NULL)
        return PyErr_NoMemory();
    argv[0] = self;
    for (Py_ssize_t i = 0; i < n; i++)
        argv[i + 1] = args[i];
    PyObject *out = PyObject_Vectorcall(method, argv, nargs + 1, kwnames);
    if (argv != small)
        PyMem_Free(argv);
    return out;
}

/* a Python int that fits a long long and is >= 0, else -1 (no exception left) */
static long long
natural(PyObject *value)
{
    if (value == NULL || !PyLong_CheckExact(value))
        return -1;
    long long n = PyLong_AsLongLong(value);
    if (n == -1 && PyErr_Occurred())
        PyErr_Clear();
    return n;
}

/* whether `self` is a BFCAllocator whose fields this file reads (else the reference runs) */
static int
plain(PyObject *self)
{
    return bfc_configured && Py_TYPE(self) == BFC_T;
}

/* whether the handle and byte counters are plain ints (as the allocator keeps them) */
static int
counts(PyObject *self)
{
    PyObject *handle = SLOT(self, a_handle), *in_use = SLOT(self, a_in_use);
    return handle != NULL && PyLong_CheckExact(handle) && in_use != NULL && PyLong_CheckExact(in_use);
}

/* the allocator's field at `offset` += delta, on a plain int; -1 with an exception on failure */
static int
add_to(PyObject *self, Py_ssize_t offset, long long delta)
{
    long long n = PyLong_AsLongLong(SLOT(self, offset));  /* counts(self) held */
    if (n == -1 && PyErr_Occurred())
        return -1;
    PyObject *value = PyLong_FromLongLong(n + delta);
    if (value == NULL)
        return -1;
    Py_SETREF(SLOT(self, offset), value);
    return 0;
}

/* bytes_in_use's last move by one chunk's size, both ways: `lo` is `hi` less `moved`. The steady state
 * moves it down by a size and back up by the same, so the two ints are reused, not made again */
static PyObject *in_use_hi, *in_use_lo;
static long long in_use_moved;

/* bytes_in_use += delta (a chunk's size, either sign) */
static int
move_in_use(PyObject *self, long long delta)
{
    PyObject *now = SLOT(self, a_in_use), *to = NULL;  /* counts(self) held */
    if (delta == in_use_moved && now == in_use_lo)
        to = in_use_hi;
    else if (delta == -in_use_moved && now == in_use_hi)
        to = in_use_lo;
    if (to != NULL) {
        Py_INCREF(to);
        Py_SETREF(SLOT(self, a_in_use), to);
        return 0;
    }
    Py_INCREF(now);  /* kept for the cache: add_to replaces it */
    if (add_to(self, a_in_use, delta) < 0) {
        Py_DECREF(now);
        return -1;
    }
    PyObject *after = SLOT(self, a_in_use);
    Py_INCREF(after);
    Py_XSETREF(in_use_hi, delta > 0 ? after : now);
    Py_XSETREF(in_use_lo, delta > 0 ? now : after);
    in_use_moved = delta > 0 ? delta : -delta;
    return 0;
}

/* the allocator's field at `offset` := value */
static void
set_field(PyObject *self, Py_ssize_t offset, PyObject *value)
{
    Py_INCREF(value);
    Py_XSETREF(SLOT(self, offset), value);
}

/* an exact int's value in *out, else 0 (a float, a subclass, too big: not read here) */
static int
exact(PyObject *value, long long *out)
{
    int overflow = 0;
    if (value == NULL || !PyLong_CheckExact(value))
        return 0;
    *out = PyLong_AsLongLongAndOverflow(value, &overflow);
    return !overflow;
}

/* whether the reference's allocate would go straight to _allocate: a request (n > 0, rounded up
 * to `rounded`) neither the pending chunk's request nor its size (no chunk pending: the size -1) */
static int
other_size(PyObject *chunk, long long n, long long rounded)
{
    PyObject *request_obj = SLOT(chunk, k_request);
    long long size, request = -1;
    if (!exact(SLOT(chunk, k_size), &size) || (request_obj != Py_None && !exact(request_obj, &request)))
        return 0;
    return n != request && rounded != size;
}

/* allocate(nbytes, tag=None): the pending chunk handed back, else the reference */
static PyObject *
bfc_allocate(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    if (!plain(self) || kwnames != NULL || nargs < 1 || nargs > 2)
        return reference(allocate_ref, self, args, nargs, kwnames);
    PyObject *chunk = SLOT(self, a_pending), *tag = nargs > 1 ? args[1] : Py_None;
    long long n = natural(args[0]);
    if (chunk == NULL || Py_TYPE(chunk) != Chunk_T || n <= 0 || n > (1LL << 60))
        return reference(allocate_ref, self, args, nargs, kwnames);
    PyObject *size_obj = SLOT(chunk, k_size), *absent = SLOT(self, a_absent), *nfree = SLOT(self, a_nfree);
    PyObject *live = SLOT(self, a_live), *request_obj = SLOT(chunk, k_request);
    long long size = natural(size_obj), request = natural(request_obj), rounded = (n + 255) & ~255LL;
    if (other_size(chunk, n, rounded)) {
        /* another size: as the reference, self._allocate(nbytes, rounded, tag), one frame less */
        PyObject *r = PyLong_FromLongLong(rounded);
        if (r == NULL)
            return NULL;
        PyObject *argv[] = {self, args[0], r, nargs > 1 ? args[1] : Py_None};
        PyObject *out = PyObject_VectorcallMethod(s__allocate, argv, 4 | PY_VECTORCALL_ARGUMENTS_OFFSET, NULL);
        Py_DECREF(r);
        return out;
    }
    if (size < 0 || (n != request && rounded != size)  /* not the pending chunk's size */
            || absent == NULL || nfree == NULL || !PyDict_CheckExact(nfree) || live == NULL
            || !PyDict_CheckExact(live) || !counts(self))
        return reference(allocate_ref, self, args, nargs, kwnames);
    if (natural(absent) != size) {  /* is another free chunk of this size in the index? */
        PyObject *key = PyLong_FromLongLong(size >> 8);
        int found = key == NULL ? -1 : PyDict_Contains(nfree, key);
        Py_XDECREF(key);
        if (found != 0)
            return found < 0 ? NULL : reference(allocate_ref, self, args, nargs, kwnames);
        set_field(self, a_absent, size_obj);
    }
    /* the steady state: the pending chunk is what best fit returns; nothing else changes */
    Py_INCREF(chunk);
    set_field(self, a_pending, nothing);
    PyObject *handle = NULL;
    if (add_to(self, a_handle, 1) == 0) {
        handle = SLOT(self, a_handle);
        Py_INCREF(handle);
        if (PyDict_SetItem(live, handle, chunk) < 0 || move_in_use(self, size) < 0) {
            Py_CLEAR(handle);
        } else {
            Py_INCREF(tag);
            Py_SETREF(SLOT(chunk, k_tag), tag);  /* last: the old tag's __del__ finds the allocator in order */
        }
    }
    Py_DECREF(chunk);
    return handle;
}

/* the chunk's in_use, or -1 when it is not a bool */
static int
in_use(PyObject *chunk)
{
    PyObject *value = SLOT(chunk, k_in_use);
    return value == Py_True ? 1 : value == Py_False ? 0 : -1;
}

/* free(handle): the chunk parked as pending, else the reference */
static PyObject *
bfc_free(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    if (!plain(self) || kwnames != NULL || nargs != 1)
        return reference(free_ref, self, args, nargs, kwnames);
    PyObject *live = SLOT(self, a_live), *free_at = SLOT(self, a_free_at);
    PyObject *chunk = live != NULL && PyDict_CheckExact(live) ? PyDict_GetItemWithError(live, args[0]) : NULL;
    if (chunk == NULL && PyErr_Occurred())
        return NULL;
    if (chunk == NULL || SLOT(self, a_busy) != Py_False || SLOT(self, a_pending) != nothing
            || Py_TYPE(chunk) != Chunk_T || free_at == NULL || !PyDict_CheckExact(free_at)
            || !counts(self))
        return reference(free_ref, self, args, nargs, kwnames);
    long long size = natural(SLOT(chunk, k_size));
    PyObject *prev = SLOT(chunk, k_prev), *next = SLOT(chunk, k_next);
    if (size < 0 || prev == NULL || next == NULL)
        return reference(free_ref, self, args, nargs, kwnames);
    /* parked when nothing need change for the next request of its size to get it back as best fit
     * would: nothing to coalesce, or its only free neighbour is the only free chunk, big enough that
     * the request splits it again (see BFCAllocator.free) */
    int prev_ok = prev == Py_None || (Py_TYPE(prev) == Chunk_T && in_use(prev) == 1);
    int next_ok = next == Py_None || (Py_TYPE(next) == Chunk_T && in_use(next) == 1);
    if (!next_ok && Py_TYPE(next) == Chunk_T && in_use(next) == 0 && PyDict_GET_SIZE(free_at) == 1) {
        long long next_size = natural(SLOT(next, k_size));
        next_ok = next_size >= 0 && (next_size >= size || next_size >= max_fragmentation);
    }
    if (!prev_ok || !next_ok)
        return reference(free_ref, self, args, nargs, kwnames);
    Py_INCREF(chunk);
    int failed = PyDict_DelItem(live, args[0]) < 0 || move_in_use(self, -size) < 0;
    if (!failed)
        set_field(self, a_pending, chunk);
    Py_DECREF(chunk);
    if (failed)
        return NULL;
    Py_RETURN_NONE;
}

static PyMethodDef bfc_methods[] = {
    {"allocate", (PyCFunction)(void (*)(void))bfc_allocate, METH_FASTCALL | METH_KEYWORDS,
     "allocate(nbytes, tag=None): a handle for nbytes (rounded up to 256), or None when it cannot be satisfied."},
    {"free", (PyCFunction)(void (*)(void))bfc_free, METH_FASTCALL | METH_KEYWORDS,
     "free(handle): return an allocation; it coalesces with free neighbours of the same region."},
    {NULL, NULL, 0, NULL},
};

PyTypeObject BFCBase_T = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "devtrace.runtime._fastpath.BFCBase",
    .tp_doc = "BFCAllocator's allocate and free: the steady state in C, every other case in bfc._Methods.",
    .tp_basicsize = sizeof(PyObject),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_methods = bfc_methods,
    .tp_new = PyType_GenericNew,
};

PyObject *
configure_bfc(PyObject *self, PyObject *args, PyObject *kwargs)
{
    PyObject *limit = NULL;
    bfc_configured = 0;
    if (PyTuple_GET_SIZE(args)) {
        PyErr_SetString(PyExc_TypeError, "configure_bfc() takes keyword arguments only");
        return NULL;
    }
    if (take("configure_bfc", kwargs, "BFCAllocator", (PyObject **)&BFC_T, 1) || take("configure_bfc", kwargs, "Chunk", (PyObject **)&Chunk_T, 1)
            || take("configure_bfc", kwargs, "nothing", &nothing, 0) || take("configure_bfc", kwargs, "allocate", &allocate_ref, 0)
            || take("configure_bfc", kwargs, "free", &free_ref, 0) || take("configure_bfc", kwargs, "max_fragmentation", &limit, 0))
        return NULL;
    max_fragmentation = PyLong_AsLongLong(limit);
    Py_DECREF(limit);
    if (max_fragmentation == -1 && PyErr_Occurred())
        return NULL;
    if (!PyType_IsSubtype(BFC_T, &BFCBase_T) || Py_TYPE(nothing) != Chunk_T) {
        PyErr_SetString(PyExc_TypeError, "configure_bfc(): BFCAllocator must derive from BFCBase, nothing be a Chunk");
        return NULL;
    }
    if ((k_size = slot_offset(Chunk_T, "size")) < 0 || (k_request = slot_offset(Chunk_T, "request")) < 0
            || (k_tag = slot_offset(Chunk_T, "tag")) < 0 || (k_prev = slot_offset(Chunk_T, "prev")) < 0
            || (k_next = slot_offset(Chunk_T, "next")) < 0 || (k_in_use = slot_offset(Chunk_T, "in_use")) < 0)
        return NULL;
    if ((a_pending = slot_offset(BFC_T, "_pending")) < 0 || (a_absent = slot_offset(BFC_T, "_absent")) < 0
            || (a_nfree = slot_offset(BFC_T, "_nfree")) < 0 || (a_handle = slot_offset(BFC_T, "_handle")) < 0
            || (a_live = slot_offset(BFC_T, "_live")) < 0 || (a_in_use = slot_offset(BFC_T, "bytes_in_use")) < 0
            || (a_busy = slot_offset(BFC_T, "_busy")) < 0 || (a_free_at = slot_offset(BFC_T, "_free_at")) < 0)
        return NULL;
    if (s__allocate == NULL && (s__allocate = PyUnicode_InternFromString("_allocate")) == NULL)
        return NULL;
    bfc_configured = 1;
    Py_RETURN_NONE;
}
