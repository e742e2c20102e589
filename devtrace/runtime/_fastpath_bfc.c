/* The BFC allocator in C: BFCBase.allocate, BFCBase.free and BFCBase._allocate, the base of
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
 * Past the steady state, the allocations a graph run makes (many tensors alive at once: best fit,
 * split, coalesce) are _allocate and free's coalescing path, also here, step for step as their Python
 * references (bfc._Methods._allocate, _Methods.free, BFCAllocator._coalesce, _insert_free,
 * _remove_free, _take_best_fit) on the same fields: the same dicts, heaps (heapq's push and pop, move for
 * move, on their ints) and size index, so either side can take the next step (rebuilding a heap of stale entries, _compact,
 * and the frees the collector deferred, _drain, too). Reserving a region (_extend) stays in Python,
 * called from here. An allocator with attributes of its own (a test patching a method) runs the
 * references. A tensor's release frees its handle here directly (bfc_release) when no Python code
 * can run on the way.
 *
 * What costs most per step is Python objects made and freed, so the ints the allocator makes again and
 * again (sizes, addresses, size keys, counts) come from a small cache (int_of), and chunks merged away
 * are kept for the next split's remainder (drop_chunk, new_chunk): no caller looks at an int's or a
 * dropped chunk's identity.
 *
 * The allocator's fields and a chunk's are __slots__, read at their offsets after an exact type
 * check. Nothing here runs Python code or makes a GC-tracked
 * object between reading a field and using it.
 */
#include "_fastpath.h"

static PyTypeObject *BFC_T, *Chunk_T, *SizeIndex_T;
static PyObject *nothing, *allocate_ref, *free_ref, *allocate_slow_ref, *s__allocate, *s__extend, *s__drain,
    *s__compact, *minus_one, *one;
static long long max_fragmentation;
static Py_ssize_t k_addr, k_size, k_request, k_tag, k_prev, k_next, k_in_use;
static Py_ssize_t a_pending, a_absent, a_nfree, a_handle, a_live, a_in_use, a_busy, a_free_at, a_deferred, a_heaps,
    a_sizes, a_peak, a_largest, a_ooms, i_keys;
static int bfc_configured;

/* An int of value v, a new reference. The sizes, addresses, size keys and counts the allocator makes
 * recur step after step (a training step repeats the last one's tensors), so the last ints made are
 * kept in a small direct-mapped table and handed out again instead of made anew: an int's identity is
 * nothing the reference or a caller looks at, only its value. */
#define INT_CACHE 1024
static PyObject *int_cache[INT_CACHE];
static long long int_value[INT_CACHE];

PyObject *
int_of(long long v)
{
    if (v >= -5 && v <= 256)
        return PyLong_FromLongLong(v);  /* CPython's own small ints */
    unsigned long long u = (unsigned long long)v;
    size_t at = (size_t)((u >> 8) ^ (u >> 18) ^ u) & (INT_CACHE - 1);
    PyObject *o = int_cache[at];
    if (o != NULL && int_value[at] == v) {
        Py_INCREF(o);
        return o;
    }
    if (!(o = PyLong_FromLongLong(v)))
        return NULL;
    Py_INCREF(o);
    Py_XSETREF(int_cache[at], o);
    int_value[at] = v;
    return o;
}

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

/* an exact int's value in *out, else 0 (a float, a subclass, too big: not read here). The ints the
 * allocator keeps (sizes, addresses, counts) are one or two digits: read in place on CPython 3.11 */
static inline int
exact(PyObject *value, long long *out)
{
    int overflow = 0;
    if (value == NULL || !PyLong_CheckExact(value))
        return 0;
#if PY_VERSION_HEX >= 0x030B0000 && PY_VERSION_HEX < 0x030C0000
    const digit *d = ((PyLongObject *)value)->ob_digit;
    switch (Py_SIZE(value)) {
    case 0:
        *out = 0;
        return 1;
    case 1:
        *out = (long long)d[0];
        return 1;
    case 2:
        *out = (long long)d[0] | ((long long)d[1] << PyLong_SHIFT);
        return 1;
    case -1:
        *out = -(long long)d[0];
        return 1;
    }
#endif
    *out = PyLong_AsLongLongAndOverflow(value, &overflow);
    return !overflow;
}

/* a Python int that fits a long long and is >= 0, else -1 (no exception left) */
static long long
natural(PyObject *value)
{
    long long n;
    return exact(value, &n) ? n : -1;
}

/* whether `self` is a BFCAllocator whose fields this file reads, without attributes of its own (a
 * patched method: else the reference runs) */
static int
plain(PyObject *self)
{
    if (!bfc_configured || Py_TYPE(self) != BFC_T)
        return 0;
    PyObject **dict = _PyObject_GetDictPtr(self);
    return dict == NULL || *dict == NULL || (PyDict_CheckExact(*dict) && PyDict_GET_SIZE(*dict) == 0);
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
    long long n;
    if (!exact(SLOT(self, offset), &n) && (n = PyLong_AsLongLong(SLOT(self, offset))) == -1 && PyErr_Occurred())
        return -1;  /* counts(self) held */
    PyObject *value = offset == a_handle ? PyLong_FromLongLong(n + delta) : int_of(n + delta);
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

/* the chunk's in_use, or -1 when it is not a bool */
static int
in_use(PyObject *chunk)
{
    PyObject *value = SLOT(chunk, k_in_use);
    return value == Py_True ? 1 : value == Py_False ? 0 : -1;
}

/* ---- best fit, split and coalesce: bfc._Methods._allocate and BFCAllocator's internals ------------ */

/* obj.slot := value (a new reference, stolen) */
static void
put(PyObject *obj, Py_ssize_t offset, PyObject *value)
{
    Py_XSETREF(SLOT(obj, offset), value);
}

/* obj.slot := value (borrowed) */
static void
put_ref(PyObject *obj, Py_ssize_t offset, PyObject *value)
{
    Py_INCREF(value);
    Py_XSETREF(SLOT(obj, offset), value);
}

/* an exact int slot's value; -1 with an exception when it is not one */
static int
int_slot(PyObject *obj, Py_ssize_t offset, long long *out)
{
    if (exact(SLOT(obj, offset), out))
        return 0;
    PyErr_SetString(PyExc_TypeError, "BFC allocator: a field that should be an int is not");
    return -1;
}

/* a field the allocator keeps as a dict (as a list when `list`), borrowed; NULL with an exception when not */
static PyObject *
container(PyObject *self, Py_ssize_t offset, int list)
{
    PyObject *value = SLOT(self, offset);
    if (value != NULL && (list ? PyList_CheckExact(value) : PyDict_CheckExact(value)))
        return value;
    PyErr_SetString(PyExc_TypeError, "BFC allocator: a field of an unexpected type");
    return NULL;
}

/* the size index's keys (a sorted list of exact ints), borrowed */
static PyObject *
size_keys(PyObject *self)
{
    PyObject *index = SLOT(self, a_sizes);
    if (index != NULL && Py_TYPE(index) == SizeIndex_T && SLOT(index, i_keys) != NULL
            && PyList_CheckExact(SLOT(index, i_keys)))
        return SLOT(index, i_keys);
    PyErr_SetString(PyExc_TypeError, "BFC allocator: its size index is not a _SizeIndex");
    return NULL;
}

/* bisect_left(keys, k) on a list of exact ints; -1 with an exception */
static Py_ssize_t
bisect(PyObject *keys, long long k)
{
    Py_ssize_t lo = 0, hi = PyList_GET_SIZE(keys);
    while (lo < hi) {
        Py_ssize_t mid = (lo + hi) / 2;
        long long v;
        if (!exact(PyList_GET_ITEM(keys, mid), &v)) {
            PyErr_SetString(PyExc_TypeError, "BFC allocator: a size index key is not an int");
            return -1;
        }
        if (v < k)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* the key at keys[i] equals k */
static int
key_at(PyObject *keys, Py_ssize_t i, long long k)
{
    long long v;
    return i < PyList_GET_SIZE(keys) && exact(PyList_GET_ITEM(keys, i), &v) && v == k;
}

/* _SizeIndex.add / discard */
static int
sizes_add(PyObject *self, PyObject *key, long long k)
{
    PyObject *keys = size_keys(self);
    Py_ssize_t i = keys == NULL ? -1 : bisect(keys, k);
    if (i < 0)
        return -1;
    return key_at(keys, i, k) ? 0 : PyList_Insert(keys, i, key);
}

static int
sizes_discard(PyObject *self, long long k)
{
    PyObject *keys = size_keys(self);
    Py_ssize_t i = keys == NULL ? -1 : bisect(keys, k);
    if (i < 0)
        return -1;
    if (!key_at(keys, i, k))
        return 0;
    PyObject **items = ((PyListObject *)keys)->ob_item, *gone = items[i];  /* del keys[i] */
    Py_ssize_t n = PyList_GET_SIZE(keys);
    memmove(&items[i], &items[i + 1], (size_t)(n - i - 1) * sizeof(PyObject *));
    Py_SET_SIZE(keys, n - 1);
    Py_DECREF(gone);
    return 0;
}

/* a heap entry's value (the allocator keeps addresses there: exact ints); 0 with an exception when not */
static int
entry(PyObject *item, long long *out)
{
    if (exact(item, out))
        return 1;
    PyErr_SetString(PyExc_TypeError, "BFC allocator: a heap entry is not an int");
    return 0;
}

/* heapq's _siftdown(heap, 0, pos): the item at pos moved up past the larger parents, the same moves */
static int
sift_down(PyObject **items, Py_ssize_t pos, long long value)
{
    PyObject *item = items[pos];
    while (pos > 0) {
        Py_ssize_t parent = (pos - 1) >> 1;
        long long above;
        if (!entry(items[parent], &above))
            return -1;
        if (!(value < above))
            break;
        items[pos] = items[parent];
        pos = parent;
    }
    items[pos] = item;
    return 0;
}

/* heapq.heappush(heap, addr), step for step in C */
static int
heap_push(PyObject *heap, PyObject *addr)
{
    long long value;
    if (!entry(addr, &value) || PyList_Append(heap, addr) < 0)
        return -1;
    return sift_down(((PyListObject *)heap)->ob_item, PyList_GET_SIZE(heap) - 1, value);
}

/* heapq.heappop(heap), step for step in C, the item popped dropped */
static int
heap_pop(PyObject *heap)
{
    Py_ssize_t n = PyList_GET_SIZE(heap);
    long long value, left, right;
    if (n == 0) {
        PyErr_SetString(PyExc_IndexError, "index out of range");
        return -1;
    }
    PyObject *last = PyList_GET_ITEM(heap, n - 1);
    if (!entry(last, &value))
        return -1;
    Py_INCREF(last);
    if (PyList_SetSlice(heap, n - 1, n, NULL) < 0) {
        Py_DECREF(last);
        return -1;
    }
    if (--n == 0) {
        Py_DECREF(last);
        return 0;
    }
    PyObject **items = ((PyListObject *)heap)->ob_item, *top = items[0];
    Py_ssize_t pos = 0, child = 1;
    int status = 0;
    while (child < n) {  /* heapq's _siftup(heap, 0): the smaller child up to a leaf, then _siftdown */
        if (child + 1 < n) {
            if (!entry(items[child], &left) || !entry(items[child + 1], &right)) {
                status = -1;
                break;
            }
            if (!(left < right))
                child += 1;
        }
        items[pos] = items[child];
        pos = child;
        child = 2 * pos + 1;
    }
    items[pos] = last;  /* our reference, now the list's */
    if (status == 0)
        status = sift_down(items, pos, value);
    Py_DECREF(top);
    return status;
}

/* self.<name>(*args) (a Python method of the allocator), its result (a new reference) */
static PyObject *
call_method(PyObject *self, PyObject *name, PyObject *a, PyObject *b)
{
    PyObject *argv[] = {self, a, b};
    return PyObject_VectorcallMethod(name, argv, (a == NULL ? 1 : b == NULL ? 2 : 3) | PY_VECTORCALL_ARGUMENTS_OFFSET,
                                     NULL);
}

/* dict[key] += delta on an exact int; a missing key counts 0 only when `fresh` */
static int
dict_add(PyObject *dict, PyObject *key, long long delta)
{
    PyObject *now = PyDict_GetItemWithError(dict, key);
    long long n;
    if (now == NULL) {
        if (!PyErr_Occurred())
            PyErr_SetObject(PyExc_KeyError, key);
        return -1;
    }
    if (!exact(now, &n)) {
        PyErr_SetString(PyExc_TypeError, "BFC allocator: a free count is not an int");
        return -1;
    }
    PyObject *value = int_of(n + delta);
    if (value == NULL)
        return -1;
    int status = PyDict_SetItem(dict, key, value);
    Py_DECREF(value);
    return status;
}

/* BFCAllocator._insert_free(chunk): mark it free and file it under its size */
static int
insert_free(PyObject *self, PyObject *chunk)
{
    long long size;
    put_ref(chunk, k_in_use, Py_False);
    put_ref(chunk, k_tag, Py_None);
    put_ref(self, a_absent, minus_one);
    PyObject *free_at = container(self, a_free_at, 0), *addr = SLOT(chunk, k_addr);
    if (free_at == NULL || addr == NULL || int_slot(chunk, k_size, &size) < 0)
        return -1;
    Py_INCREF(addr);
    int status = -1;
    PyObject *key = NULL, *heap, *heaps, *nfree;
    if (PyDict_SetItem(free_at, addr, chunk) < 0 || !(key = int_of(size >> 8))
            || !(heaps = container(self, a_heaps, 0)) || !(nfree = container(self, a_nfree, 0)))
        goto done;
    heap = PyDict_GetItemWithError(heaps, key);
    if (heap == NULL) {
        if (PyErr_Occurred() || !(heap = PyList_New(1)))
            goto done;
        Py_INCREF(addr);
        PyList_SET_ITEM(heap, 0, addr);
        Py_INCREF(nfree);
        status = PyDict_SetItem(heaps, key, heap) < 0 || PyDict_SetItem(nfree, key, one) < 0
            || sizes_add(self, key, size >> 8) < 0 ? -1 : 0;
        Py_DECREF(nfree);
        Py_DECREF(heap);
    } else {
        Py_INCREF(heap);
        Py_INCREF(nfree);
        status = heap_push(heap, addr) < 0 || dict_add(nfree, key, 1) < 0 ? -1 : 0;
        Py_DECREF(nfree);
        Py_DECREF(heap);
    }
done:
    Py_XDECREF(key);
    Py_DECREF(addr);
    return status;
}

/* BFCAllocator._compact(heap, k): the heap of free chunks of size k << 8 without its stale entries
 * (sorted, each address once) */
static int
compact(PyObject *self, PyObject *heap, long long k)
{
    PyObject *free_at = container(self, a_free_at, 0), *kept = free_at == NULL ? NULL : PyList_New(0), *unique = NULL;
    int status = -1;
    if (kept == NULL)
        return -1;
    Py_INCREF(heap);
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(heap); i++) {
        PyObject *addr = PyList_GET_ITEM(heap, i), *chunk;
        long long size;
        Py_INCREF(addr);
        chunk = PyDict_GetItemWithError(free_at, addr);
        int keep = chunk != NULL && Py_TYPE(chunk) == Chunk_T && exact(SLOT(chunk, k_size), &size) && size == k << 8;
        int failed = (chunk == NULL && PyErr_Occurred()) || (keep && PyList_Append(kept, addr) < 0);
        Py_DECREF(addr);
        if (failed)
            goto done;
    }
    if (PyList_Sort(kept) < 0 || !(unique = PyList_New(0)))
        goto done;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(kept); i++) {
        long long a, b;
        if (i > 0 && exact(PyList_GET_ITEM(kept, i), &a) && exact(PyList_GET_ITEM(kept, i - 1), &b) && a == b)
            continue;
        if (PyList_Append(unique, PyList_GET_ITEM(kept, i)) < 0)
            goto done;
    }
    status = PyList_SetSlice(heap, 0, PY_SSIZE_T_MAX, unique);
done:
    Py_XDECREF(unique);
    Py_DECREF(kept);
    Py_DECREF(heap);
    return status;
}

/* BFCAllocator._remove_free(chunk): forget a free chunk (its heap entry left behind, stale); `heap`
 * is its size's heap when the caller has it, else NULL */
static int
remove_free(PyObject *self, PyObject *chunk, PyObject *heap)
{
    long long size, n;
    PyObject *free_at = container(self, a_free_at, 0), *addr = SLOT(chunk, k_addr);
    if (free_at == NULL || addr == NULL || int_slot(chunk, k_size, &size) < 0 || PyDict_DelItem(free_at, addr) < 0)
        return -1;
    PyObject *nfree = container(self, a_nfree, 0), *heaps = container(self, a_heaps, 0), *key, *count;
    if (nfree == NULL || heaps == NULL || !(key = int_of(size >> 8)))
        return -1;
    int status = -1;
    if (!(count = PyDict_GetItemWithError(nfree, key))) {
        if (!PyErr_Occurred())
            PyErr_SetObject(PyExc_KeyError, key);
        goto done;
    }
    if (!exact(count, &n)) {
        PyErr_SetString(PyExc_TypeError, "BFC allocator: a free count is not an int");
        goto done;
    }
    n -= 1;
    if (n == 0) {
        status = PyDict_DelItem(nfree, key) < 0 || PyDict_DelItem(heaps, key) < 0
            || sizes_discard(self, size >> 8) < 0 ? -1 : 0;
        goto done;
    }
    PyObject *left = int_of(n);  /* nfree[k] = n */
    int stored = left == NULL ? -1 : PyDict_SetItem(nfree, key, left);
    Py_XDECREF(left);
    if (stored < 0)
        goto done;
    if (heap == NULL)
        heap = PyDict_GetItemWithError(heaps, key);
    if (heap == NULL || !PyList_CheckExact(heap)) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_TypeError, "BFC allocator: a heap is not a list");
        goto done;
    }
    status = 0;
    if (PyList_GET_SIZE(heap) > 2 * n + 16)  /* too many stale entries: rebuilt */
        status = compact(self, heap, size >> 8);
done:
    Py_DECREF(key);
    return status;
}

/* BFCAllocator._take_best_fit(rounded): the smallest free chunk >= rounded, lowest address among
 * equals, removed from the index (a new reference); Py_None when there is none; NULL on error */
static PyObject *
take_best_fit(PyObject *self, long long rounded)
{
    PyObject *keys = size_keys(self);
    Py_ssize_t i = keys == NULL ? -1 : bisect(keys, rounded >> 8);
    if (i < 0)
        return NULL;
    if (i == PyList_GET_SIZE(keys))
        Py_RETURN_NONE;
    PyObject *key = PyList_GET_ITEM(keys, i), *heaps = container(self, a_heaps, 0), *free_at, *heap, *chunk;
    long long k, size;
    if (heaps == NULL || !exact(key, &k))
        return NULL;
    Py_INCREF(key);
    heap = PyDict_GetItemWithError(heaps, key);
    Py_DECREF(key);
    if (heap == NULL || !PyList_CheckExact(heap)) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_TypeError, "BFC allocator: a heap is not a list");
        return NULL;
    }
    Py_INCREF(heap);
    for (;;) {  /* the heap's top is the lowest address, unless it is a stale entry */
        if (PyList_GET_SIZE(heap) == 0 || !(free_at = container(self, a_free_at, 0))) {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_IndexError, "index out of range");
            Py_DECREF(heap);
            return NULL;
        }
        chunk = PyDict_GetItemWithError(free_at, PyList_GET_ITEM(heap, 0));
        if (chunk == NULL && PyErr_Occurred()) {
            Py_DECREF(heap);
            return NULL;
        }
        if (chunk != NULL && Py_TYPE(chunk) == Chunk_T && exact(SLOT(chunk, k_size), &size) && size == k << 8)
            break;
        if (heap_pop(heap) < 0) {
            Py_DECREF(heap);
            return NULL;
        }
    }
    Py_INCREF(chunk);
    int removed = remove_free(self, chunk, heap);
    Py_DECREF(heap);
    if (removed < 0) {
        Py_DECREF(chunk);
        return NULL;
    }
    return chunk;
}

/* a chunk's neighbour (prev or next): Py_None, or a Chunk */
static PyObject *
neighbour(PyObject *chunk, Py_ssize_t offset)
{
    PyObject *other = SLOT(chunk, offset);
    if (other != NULL && (other == Py_None || Py_TYPE(other) == Chunk_T))
        return other;
    PyErr_SetString(PyExc_TypeError, "BFC allocator: a chunk's neighbour is not a chunk");
    return NULL;
}

/* chunk.size += more */
static int
grow(PyObject *chunk, long long more)
{
    long long size;
    if (int_slot(chunk, k_size, &size) < 0)
        return -1;
    PyObject *value = int_of(size + more);
    if (value == NULL)
        return -1;
    put(chunk, k_size, value);
    return 0;
}

/* Chunks merged away by coalescing, kept for the next split's remainder: a split makes a _Chunk and a
 * coalesce drops one, once each per allocation, and a GC-tracked object made and freed costs more than
 * the rest of the step. Kept here with every slot empty, as tp_alloc hands a new one out. */
#define SPARE_CHUNKS 64
static PyObject *spare_chunks[SPARE_CHUNKS];
static int n_spare_chunks;

/* our reference to a chunk dropped: kept as a spare when it was the last one (nothing else sees it),
 * its fields let go first, in the order its deallocation would */
static void
drop_chunk(PyObject *chunk)
{
    static const Py_ssize_t *offsets[] = {&k_addr, &k_size, &k_prev, &k_next, &k_in_use, &k_tag, &k_request};
    if (Py_REFCNT(chunk) != 1 || Py_TYPE(chunk) != Chunk_T || n_spare_chunks == SPARE_CHUNKS) {
        Py_DECREF(chunk);
        return;
    }
    for (size_t i = 0; i < sizeof offsets / sizeof offsets[0]; i++)
        Py_CLEAR(SLOT(chunk, *offsets[i]));  /* a tag's __del__ may run: the chunk is still ours alone */
    if (Py_REFCNT(chunk) == 1 && n_spare_chunks < SPARE_CHUNKS)
        spare_chunks[n_spare_chunks++] = chunk;
    else
        Py_DECREF(chunk);
}

/* a chunk with every slot empty (a new reference), as Chunk_T->tp_alloc makes one */
static PyObject *
new_chunk(void)
{
    if (n_spare_chunks > 0)
        return spare_chunks[--n_spare_chunks];
    return Chunk_T->tp_alloc(Chunk_T, 0);
}

/* BFCAllocator._coalesce(chunk): merge a freed chunk with its free neighbours and index the result */
static int
coalesce(PyObject *self, PyObject *chunk)
{
    long long size;
    int status = -1;
    Py_INCREF(chunk);
    PyObject *nxt = neighbour(chunk, k_next);
    if (nxt == NULL)
        goto done;
    if (nxt != Py_None && in_use(nxt) == 0) {  /* absorb the next chunk */
        Py_INCREF(nxt);
        PyObject *after;
        int failed = remove_free(self, nxt, NULL) < 0 || int_slot(nxt, k_size, &size) < 0 || grow(chunk, size) < 0
            || !(after = neighbour(nxt, k_next));
        if (!failed) {
            put_ref(chunk, k_next, after);
            if (after != Py_None)
                put_ref(after, k_prev, chunk);
        }
        drop_chunk(nxt);
        if (failed)
            goto done;
    }
    PyObject *prev = neighbour(chunk, k_prev);
    if (prev == NULL)
        goto done;
    if (prev != Py_None && in_use(prev) == 0) {  /* merge into the previous chunk */
        Py_INCREF(prev);
        PyObject *after;
        int failed = remove_free(self, prev, NULL) < 0 || int_slot(chunk, k_size, &size) < 0 || grow(prev, size) < 0
            || !(after = neighbour(chunk, k_next));
        if (!failed) {
            put_ref(prev, k_next, after);
            if (after != Py_None)
                put_ref(after, k_prev, prev);
        }
        PyObject *merged = chunk;
        chunk = prev;
        drop_chunk(merged);
        if (failed)
            goto done;
    }
    status = insert_free(self, chunk);
done:
    Py_DECREF(chunk);
    return status;
}

static PyObject *bfc_free(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames);
static PyObject *free_live(PyObject *self, PyObject *const *args, PyObject *chunk);

/* BFCAllocator._drain(): the frees the collector asked for while the allocator was busy, latest
 * first (no Python frame: a tensor's release runs this, where a signal must find none) */
static int
drain(PyObject *self)
{
    for (;;) {
        PyObject *deferred = SLOT(self, a_deferred);
        if (deferred == NULL || !PyList_CheckExact(deferred)) {
            PyObject *out = call_method(self, s__drain, NULL, NULL);
            Py_XDECREF(out);
            return out == NULL ? -1 : 0;
        }
        Py_ssize_t n = PyList_GET_SIZE(deferred);
        if (n == 0)
            return 0;
        PyObject *handle = PyList_GET_ITEM(deferred, n - 1);  /* self._deferred.pop() */
        Py_INCREF(handle);
        if (PyList_SetSlice(deferred, n - 1, n, NULL) < 0) {
            Py_DECREF(handle);
            return -1;
        }
        PyObject *out = bfc_free(self, &handle, 1, NULL);  /* self.free(handle) */
        Py_DECREF(handle);
        if (out == NULL)
            return -1;
        Py_DECREF(out);
    }
}

/* the pending chunk, if any, filed before a best fit or a coalescing free (the reference's lines) */
static int
file_pending(PyObject *self, int for_allocation)
{
    PyObject *chunk = SLOT(self, a_pending);
    if (chunk == nothing)
        return 0;
    if (chunk == NULL || Py_TYPE(chunk) != Chunk_T) {
        PyErr_SetString(PyExc_TypeError, "BFC allocator: its pending chunk is not a chunk");
        return -1;
    }
    Py_INCREF(chunk);
    put_ref(self, a_pending, nothing);
    int status;
    PyObject *nxt = for_allocation ? neighbour(chunk, k_next) : NULL;
    if (for_allocation && nxt == NULL)
        status = -1;
    else if (for_allocation && (nxt == Py_None || in_use(nxt) == 1))  /* nothing to merge */
        status = insert_free(self, chunk);
    else
        status = coalesce(self, chunk);
    drop_chunk(chunk);
    return status;
}

/* the allocator's fields the paths below read, of the types they expect */
static int
fields_plain(PyObject *self)
{
    PyObject *pending = SLOT(self, a_pending), *deferred = SLOT(self, a_deferred);
    return counts(self) && pending != NULL && Py_TYPE(pending) == Chunk_T && deferred != NULL
        && PyList_CheckExact(deferred) && SLOT(self, a_live) != NULL && PyDict_CheckExact(SLOT(self, a_live))
        && SLOT(self, a_free_at) != NULL && PyDict_CheckExact(SLOT(self, a_free_at))
        && SLOT(self, a_heaps) != NULL && PyDict_CheckExact(SLOT(self, a_heaps))
        && SLOT(self, a_nfree) != NULL && PyDict_CheckExact(SLOT(self, a_nfree))
        && SLOT(self, a_sizes) != NULL && Py_TYPE(SLOT(self, a_sizes)) == SizeIndex_T
        && SLOT(self, a_peak) != NULL && PyLong_CheckExact(SLOT(self, a_peak))
        && SLOT(self, a_largest) != NULL && PyLong_CheckExact(SLOT(self, a_largest))
        && SLOT(self, a_ooms) != NULL && PyLong_CheckExact(SLOT(self, a_ooms));
}

/* the busy part of _allocate: the chunk best fit gives (split when big enough; a new reference),
 * Py_None when nothing fits, NULL on error */
static PyObject *
best_fit(PyObject *self, long long rounded, long long *size_out)
{
    if (file_pending(self, 1) < 0)
        return NULL;
    PyObject *chunk = take_best_fit(self, rounded);
    if (chunk == Py_None) {
        Py_DECREF(chunk);
        PyObject *r = PyLong_FromLongLong(rounded), *grew = r == NULL ? NULL : call_method(self, s__extend, r, NULL);
        Py_XDECREF(r);
        int extended = grew == NULL ? -1 : PyObject_IsTrue(grew);
        Py_XDECREF(grew);
        if (extended < 0)
            return NULL;
        if (!extended)
            Py_RETURN_NONE;
        chunk = take_best_fit(self, rounded);
    }
    if (chunk == NULL || chunk == Py_None)
        return chunk;
    long long size, addr;
    if (int_slot(chunk, k_size, &size) < 0 || int_slot(chunk, k_addr, &addr) < 0)
        goto fail;
    if (size >= 2 * rounded || size - rounded >= max_fragmentation) {  /* split: the rest is free */
        PyObject *nxt = neighbour(chunk, k_next), *rest;
        if (nxt == NULL || !(rest = new_chunk()))  /* _Chunk(...) without __init__ */
            goto fail;
        PyObject *a = int_of(addr + rounded), *s = a == NULL ? NULL : int_of(size - rounded);
        PyObject *r = s == NULL ? NULL : int_of(rounded);
        if (r == NULL) {
            Py_XDECREF(a);
            Py_XDECREF(s);
            Py_DECREF(rest);
            goto fail;
        }
        Py_INCREF(nxt);  /* rest.addr, rest.size, rest.prev, rest.next = ...; rest.request = None */
        put(rest, k_addr, a);
        put(rest, k_size, s);
        put_ref(rest, k_prev, chunk);
        put(rest, k_next, nxt);
        put_ref(rest, k_request, Py_None);
        if (nxt != Py_None)
            put_ref(nxt, k_prev, rest);
        put_ref(chunk, k_next, rest);
        put(chunk, k_size, r);
        size = rounded;
        int filed = insert_free(self, rest);
        Py_DECREF(rest);
        if (filed < 0)
            goto fail;
    }
    *size_out = size;
    return chunk;
fail:
    Py_DECREF(chunk);
    return NULL;
}

/* _Methods._allocate(nbytes, rounded, tag) for n > 0, on an allocator of plain fields */
static PyObject *
allocate_slow(PyObject *self, PyObject *nbytes, long long n, long long rounded, PyObject *tag)
{
    long long size = 0, value;
    put_ref(self, a_busy, Py_True);
    PyObject *chunk = best_fit(self, rounded, &size);
    put_ref(self, a_busy, Py_False);
    if (chunk == NULL)
        return NULL;
    if (chunk == Py_None) {
        Py_DECREF(chunk);
        if (add_to(self, a_ooms, 1) < 0 || drain(self) < 0)
            return NULL;
        Py_RETURN_NONE;
    }
    /* unsplit chunks count whole (up to 2x the request), as TF counts them */
    PyObject *handle = NULL, *live;
    put_ref(chunk, k_in_use, Py_True);
    Py_INCREF(tag);
    put(chunk, k_tag, tag);
    put_ref(chunk, k_request, size == rounded ? nbytes : Py_None);
    if (!counts(self) || !(live = container(self, a_live, 0)))
        goto done;
    if (add_to(self, a_handle, 1) < 0)
        goto done;
    handle = SLOT(self, a_handle);
    Py_INCREF(handle);
    if (PyDict_SetItem(live, handle, chunk) < 0 || add_to(self, a_in_use, size) < 0
            || int_slot(self, a_in_use, &n) < 0 || int_slot(self, a_peak, &value) < 0)
        goto fail;
    if (n > value)
        put_ref(self, a_peak, SLOT(self, a_in_use));
    if (int_slot(self, a_largest, &value) < 0)
        goto fail;
    if (size > value) {
        PyObject *s = SLOT(chunk, k_size);
        put_ref(self, a_largest, s);
    }
    if (drain(self) < 0)
        goto fail;
    goto done;
fail:
    Py_CLEAR(handle);
done:
    Py_DECREF(chunk);
    return handle;
}

/* _allocate(nbytes, rounded, tag): best fit; the reference for n <= 0 or an allocator this file does not read */
static PyObject *
bfc_allocate_slow(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    long long n, rounded;
    if (!plain(self) || kwnames != NULL || nargs != 3 || !exact(args[0], &n) || n <= 0 || n > (1LL << 60)
            || !exact(args[1], &rounded) || rounded != ((n + 255) & ~255LL) || SLOT(self, a_busy) != Py_False
            || !fields_plain(self))
        return reference(allocate_slow_ref, self, args, nargs, kwnames);
    return allocate_slow(self, args[0], n, rounded, args[2]);
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
        /* another size: as the reference, self._allocate(nbytes, rounded, tag) */
        if (SLOT(self, a_busy) == Py_False && fields_plain(self))
            return allocate_slow(self, args[0], n, rounded, tag);
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
        PyObject *key = int_of(size >> 8);
        int found = key == NULL ? -1 : PyDict_Contains(nfree, key);
        Py_XDECREF(key);
        if (found < 0)
            return NULL;
        if (found) {  /* another free chunk of its size: as the reference, self._allocate(nbytes, size, tag) */
            if (SLOT(self, a_busy) == Py_False && fields_plain(self))
                return allocate_slow(self, args[0], n, size, tag);
            return reference(allocate_ref, self, args, nargs, kwnames);
        }
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

/* free(handle): the chunk parked as pending, else coalesced with its free neighbours (the
 * reference's steps); an unknown handle, a busy allocator or one this file does not read: the reference */
static PyObject *
bfc_free(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    if (!plain(self) || kwnames != NULL || nargs != 1)
        return reference(free_ref, self, args, nargs, kwnames);
    PyObject *live = SLOT(self, a_live);
    PyObject *chunk = live != NULL && PyDict_CheckExact(live) ? PyDict_GetItemWithError(live, args[0]) : NULL;
    if (chunk == NULL && PyErr_Occurred())
        return NULL;
    if (chunk == NULL || SLOT(self, a_busy) != Py_False || !fields_plain(self))
        return reference(free_ref, self, args, nargs, kwnames);
    return free_live(self, args, chunk);
}

/* free(handle) of a live chunk (borrowed, _live's), on a plain allocator of plain fields, not busy */
static PyObject *
free_live(PyObject *self, PyObject *const *args, PyObject *chunk)
{
    PyObject *live = SLOT(self, a_live), *free_at = SLOT(self, a_free_at);
    if (Py_TYPE(chunk) != Chunk_T)
        return reference(free_ref, self, args, 1, NULL);
    long long size = natural(SLOT(chunk, k_size));
    PyObject *prev = SLOT(chunk, k_prev), *next = SLOT(chunk, k_next);
    if (size < 0 || prev == NULL || next == NULL)
        return reference(free_ref, self, args, 1, NULL);
    int parked = 0;
    if (SLOT(self, a_pending) == nothing) {
        /* parked when nothing need change for the next request of its size to get it back as best fit
         * would: nothing to coalesce, or its only free neighbour is the only free chunk, big enough that
         * the request splits it again (see BFCAllocator.free) */
        int prev_ok = prev == Py_None || (Py_TYPE(prev) == Chunk_T && in_use(prev) == 1);
        int next_ok = next == Py_None || (Py_TYPE(next) == Chunk_T && in_use(next) == 1);
        if (!next_ok && Py_TYPE(next) == Chunk_T && in_use(next) == 0 && PyDict_GET_SIZE(free_at) == 1) {
            long long next_size = natural(SLOT(next, k_size));
            next_ok = next_size >= 0 && (next_size >= size || next_size >= max_fragmentation);
        }
        parked = prev_ok && next_ok;
    }
    Py_INCREF(chunk);
    int failed = PyDict_DelItem(live, args[0]) < 0 || move_in_use(self, -size) < 0;
    if (!failed && parked)
        set_field(self, a_pending, chunk);
    else if (!failed) {  /* the pending chunk filed, then this one coalesced (busy meanwhile) */
        put_ref(self, a_busy, Py_True);
        failed = file_pending(self, 0) < 0 || coalesce(self, chunk) < 0;
        put_ref(self, a_busy, Py_False);
        failed = drain(self) < 0 || failed;
    }
    drop_chunk(chunk);
    if (failed)
        return NULL;
    Py_RETURN_NONE;
}

int
bfc_release(PyObject *alloc, PyObject *handle)
{
    PyObject *live = bfc_configured && Py_TYPE(alloc) == BFC_T ? SLOT(alloc, a_live) : NULL;
    /* only where no Python code runs (a free the collector asked for inside the allocator: the
     * reference, in its __del__ frame, which Ctrl-C waits for; see util/interrupts.py) */
    if (live == NULL || !plain(alloc) || SLOT(alloc, a_busy) != Py_False || !fields_plain(alloc)
            || PyList_GET_SIZE(SLOT(alloc, a_deferred)) || !PyDict_CheckExact(live) || !PyLong_CheckExact(handle)) {
        PyErr_Clear();
        return 0;
    }
    PyObject *chunk = PyDict_GetItemWithError(live, handle);
    if (chunk == NULL) {
        PyErr_Clear();
        return 0;
    }
    PyObject *out = free_live(alloc, &handle, chunk);
    if (out == NULL) {
        if (PyErr_ExceptionMatches(PyExc_Exception))
            PyErr_Clear();  /* as the reference's `except Exception: pass` */
        else
            return -1;
    }
    Py_XDECREF(out);
    return 1;
}

static PyMethodDef bfc_methods[] = {
    {"allocate", (PyCFunction)(void (*)(void))bfc_allocate, METH_FASTCALL | METH_KEYWORDS,
     "allocate(nbytes, tag=None): a handle for nbytes (rounded up to 256), or None when it cannot be satisfied."},
    {"free", (PyCFunction)(void (*)(void))bfc_free, METH_FASTCALL | METH_KEYWORDS,
     "free(handle): return an allocation; it coalesces with free neighbours of the same region."},
    {"_allocate", (PyCFunction)(void (*)(void))bfc_allocate_slow, METH_FASTCALL | METH_KEYWORDS,
     "_allocate(nbytes, rounded, tag): TF's best fit (reserving a region if need be), split when it is big enough."},
    {NULL, NULL, 0, NULL},
};

PyTypeObject BFCBase_T = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "devtrace.runtime._fastpath.BFCBase",
    .tp_doc = "BFCAllocator's allocate, free and _allocate in C; the cases they hand on run bfc._Methods.",
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
            || take("configure_bfc", kwargs, "free", &free_ref, 0) || take("configure_bfc", kwargs, "max_fragmentation", &limit, 0)
            || take("configure_bfc", kwargs, "SizeIndex", (PyObject **)&SizeIndex_T, 1)
            || take("configure_bfc", kwargs, "allocate_slow", &allocate_slow_ref, 0)) {
        Py_XDECREF(limit);
        return NULL;
    }
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
            || (a_busy = slot_offset(BFC_T, "_busy")) < 0 || (a_free_at = slot_offset(BFC_T, "_free_at")) < 0
            || (a_deferred = slot_offset(BFC_T, "_deferred")) < 0 || (a_heaps = slot_offset(BFC_T, "_heaps")) < 0
            || (a_sizes = slot_offset(BFC_T, "_sizes")) < 0 || (a_peak = slot_offset(BFC_T, "peak_bytes_in_use")) < 0
            || (a_largest = slot_offset(BFC_T, "largest_alloc_size")) < 0 || (a_ooms = slot_offset(BFC_T, "num_ooms")) < 0
            || (k_addr = slot_offset(Chunk_T, "addr")) < 0 || (i_keys = slot_offset(SizeIndex_T, "keys")) < 0)
        return NULL;
    if ((s__allocate == NULL && (s__allocate = PyUnicode_InternFromString("_allocate")) == NULL)
            || (s__extend == NULL && (s__extend = PyUnicode_InternFromString("_extend")) == NULL)
            || (s__drain == NULL && (s__drain = PyUnicode_InternFromString("_drain")) == NULL)
            || (s__compact == NULL && (s__compact = PyUnicode_InternFromString("_compact")) == NULL)
            || (minus_one == NULL && (minus_one = PyLong_FromLong(-1)) == NULL)
            || (one == NULL && (one = PyLong_FromLong(1)) == NULL))
        return NULL;
    bfc_configured = 1;
    Py_RETURN_NONE;
}
