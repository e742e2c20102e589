/* The runtime's per-op hot path in C: the eager tensor's storage and release, and
 * executor.execute_binary, step for step: its checks (executor._execute_binary), then the execution
 * step's two-input case (execution.run_binary, the one Python implementation of the step).
 *
 * The call most programs make most -- an eager two-input op with its placement cached, both inputs
 * on the op's device with its dtype, a NumPy kernel, no placement log, no tape -- costs several
 * times the kernel in Python bytecode. This module runs that one case without a Python frame: the
 * same checks, kernel, allocator accounting, trace record and Tensor as executor._execute_binary and
 * execution.run_binary, the Python reference, which runs instead when this module is not built (no C compiler when
 * devtrace was installed) or DEVTRACE_PURE_PYTHON is set. Every other case, and every error, is
 * handed to the Python functions the reference calls, so copies, logs, tapes and errors have one
 * implementation.
 *
 * TensorBase holds an eager tensor's slots (tensor.py's _TensorBase is its Python twin) and gives
 * its allocation back when the tensor goes: host memory (HostAllocator's counters) directly, any
 * other through the Python twin's __del__.
 *
 * The Python objects read here (Context, Device, Trace, OpDef, HostAllocator) have __slots__: they
 * are read at the offsets their member descriptors give, after an exact type check; a subclass,
 * an unset slot or an unexpected value takes the Python path. Trace records (trace/events.py's
 * OpRecord, a tuple subclass whose field names configure() maps to indices: the layout is declared
 * once, in Python) and allocation tags hold only ints, strings and such tuples, so they are
 * untracked by the cyclic GC when made (the collector would never untrack a tuple subclass itself).
 *
 * Nothing read is borrowed across an allocation of a tracked object (a tuple, a Tensor) or a call:
 * CPython 3.10 and 3.11 run a collection inside such an allocation, and a collection may run any
 * finaliser (a generator leaving a tf.device() scope replaces ctx.scope); the kernel, the allocator
 * and a flush may run any Python code. What is read is held first, then used.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>
#if PY_VERSION_HEX < 0x030B0000
#include <frameobject.h>  /* 3.10: PyFrameObject's f_lasti */
#elif PY_VERSION_HEX < 0x030C0000
/* 3.11: the interpreter's frames, read without making their frame objects (an op's source line,
 * caller_source); other versions make them through the public API */
#define INTERPRETER_FRAMES 1
#define FREE_LISTS 1  /* Tensors and records kept for reuse, their deallocation in C (see below) */
#ifndef Py_BUILD_CORE
#define Py_BUILD_CORE 1
#define UNDEF_BUILD_CORE
#endif
#include <internal/pycore_frame.h>
#undef _PyGC_FINALIZED  /* objimpl.h's deprecated twin of pycore_gc.h's */
#include <internal/pycore_gc.h>  /* a Tensor kept for reuse: its GC header's finalized flag (FREE_LISTS) */
#ifdef UNDEF_BUILD_CORE
#undef Py_BUILD_CORE
#endif
#endif
#include <limits.h>
#include <math.h>
#include <time.h>
#ifdef _WIN32
#include <windows.h>
#endif

/* what native.py expects: a module built from other sources is not used */
#define FASTPATH_ABI 15

#include "_fastpath.h"

/* The exception being raised, taken out of the error indicator and put back (3.12's API, and
 * before it the type, value and traceback it replaced) */
#if PY_VERSION_HEX >= 0x030C0000
typedef struct {
    PyObject *exc;
} SavedError;
#define SAVE_ERROR(s) ((s).exc = PyErr_GetRaisedException())
#define RESTORE_ERROR(s) PyErr_SetRaisedException((s).exc)
#else
typedef struct {
    PyObject *type, *value, *tb;
} SavedError;
#define SAVE_ERROR(s) PyErr_Fetch(&(s).type, &(s).value, &(s).tb)
#define RESTORE_ERROR(s) PyErr_Restore((s).type, (s).value, (s).tb)
#endif

/* ---- what configure() was given ------------------------------------------------------------ */

static PyTypeObject *Tensor_T, *Context_T, *Device_T, *Trace_T, *OpDef_T, *Host_T, *NDArray_T, *Record_T;

/* The fields of an op's record this module fills, in the order it fills them: configure() finds each
 * by name in OpRecord._fields (its index there) and takes every other field's default. */
enum { F_SEQ, F_OP, F_NODE, F_REQUESTED, F_DEVICE, F_REASON, F_INPUTS, F_SRC, F_SHAPE, F_DTYPE, F_DURATION, F_MEM,
       N_FIELDS };
#define N_HEAD F_SHAPE  /* the fields known before the kernel runs */
static const char *const field_names[N_FIELDS] = {"seq", "op", "node", "requested", "device", "reason", "inputs",
                                                  "src", "shape", "dtype", "duration_ns", "mem_in_use"};
static Py_ssize_t field_index[N_FIELDS];
static PyObject *record_defaults;  /* a tuple: each field's default (None where it has none: this module fills it) */
static int *filled_by;  /* for each index of the record, the F_ field filled there (-1: none, its default) */
static Py_ssize_t c_initialized_by, c_eager, c_tapes, c_op_callbacks, c_placement_cache, c_scope, c_soft_placement, c_trace, c_threaded;
static int threaded;  /* set_threaded(): the program runs ops from several threads (runtime/threads.py) */
static Py_ssize_t d_xp, d_allocator, d_name;
static Py_ssize_t r_seq, r_listeners, r_events;
static Py_ssize_t o_fn, o_ufunc, o_gpu_fn;
static Py_ssize_t h_onednn;
static long long host_large;  /* HostAllocator books requests of this size and more with oneDNN too */
static PyObject *context_globals;  /* runtime/context.py's globals: its _context */
static PyObject *registry, *by_np, *plain, *kernel_errors;
static PyObject *execute, *lookup, *kernel_failed, *finish, *oom, *resource_handle, *run_step;
static PyObject *s_context, *s_flush, *s_allocate, *s_dtype, *s_shape, *s_nbytes, *s_name,
    *s_bytes_in_use, *s_append, *s_ufunc, *s_fn, *s_itemsize, *s_x_dtype;
static int configured;
static int check_array_layout(PyObject *sample);
static int record_layout(void);
static void forget_dtypes(void);
static PyObject *release;  /* frees a tensor's handle that is not a host byte count */

/* ---- TensorBase ------------------------------------------------------------------------------ */

typedef struct {
    PyObject_HEAD
    PyObject *value;  /* a NumPy or CuPy array (or NumPy scalar), resident on device */
    PyObject *device;
    PyObject *handle;  /* the allocator's handle, freed with the tensor (None: not accounted) */
    PyObject *dtype;
    PyObject *seq;  /* the op that produced it */
} TensorBase;

static PyMemberDef tensor_members[] = {
    {"_value", T_OBJECT_EX, offsetof(TensorBase, value), 0, NULL},
    {"_device", T_OBJECT_EX, offsetof(TensorBase, device), 0, NULL},
    {"_handle", T_OBJECT_EX, offsetof(TensorBase, handle), 0, NULL},
    {"_dtype", T_OBJECT_EX, offsetof(TensorBase, dtype), 0, NULL},
    {"_seq", T_OBJECT_EX, offsetof(TensorBase, seq), 0, NULL},
    {NULL, 0, 0, 0, NULL},
};

static int
tensor_traverse(TensorBase *self, visitproc visit, void *arg)
{
    Py_VISIT(self->value);
    Py_VISIT(self->device);
    Py_VISIT(self->handle);
    Py_VISIT(self->dtype);
    Py_VISIT(self->seq);
    return 0;
}

static int
tensor_clear(TensorBase *self)
{
    Py_CLEAR(self->value);
    Py_CLEAR(self->device);
    Py_CLEAR(self->handle);
    Py_CLEAR(self->dtype);
    Py_CLEAR(self->seq);
    return 0;
}

static void
tensor_dealloc(TensorBase *self)
{
    /* a TensorBase itself (a subclass's dealloc has already finalised it: this call is then a no-op) */
    if (PyObject_CallFinalizerFromDealloc((PyObject *)self) < 0)
        return;  /* resurrected */
    PyObject_GC_UnTrack(self);
    tensor_clear(self);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* ---- HostBase: HostAllocator's counters as C integers ---------------------------------------- */

/* Every CPU op books its output on a HostAllocator and frees it again: its four counters are C
 * integers here (memory/host.py's _Counters is the Python twin: four __slots__), read and written
 * without a Python int made or read; Python sees them as ints, made when read. */
typedef struct {
    PyObject_HEAD
    long long counter[4];  /* bytes_in_use, peak_bytes_in_use, num_allocs, largest_alloc_size */
} HostBase;
enum { H_IN_USE, H_PEAK, H_ALLOCS, H_LARGEST };

static PyObject *
host_get(HostBase *self, void *which)
{
    return PyLong_FromLongLong(self->counter[(intptr_t)which]);
}

static int
host_set(HostBase *self, PyObject *value, void *which)
{
    if (value == NULL) {
        PyErr_SetString(PyExc_AttributeError, "HostAllocator's counters cannot be deleted");
        return -1;
    }
    if (!PyLong_Check(value)) {
        PyErr_Format(PyExc_TypeError, "HostAllocator's counters are ints, not %.100s", Py_TYPE(value)->tp_name);
        return -1;
    }
    long long n = PyLong_AsLongLong(value);
    if (n == -1 && PyErr_Occurred())
        return -1;
    self->counter[(intptr_t)which] = n;
    return 0;
}

static PyGetSetDef host_getset[] = {
    {"bytes_in_use", (getter)host_get, (setter)host_set, NULL, (void *)H_IN_USE},
    {"peak_bytes_in_use", (getter)host_get, (setter)host_set, NULL, (void *)H_PEAK},
    {"num_allocs", (getter)host_get, (setter)host_set, NULL, (void *)H_ALLOCS},
    {"largest_alloc_size", (getter)host_get, (setter)host_set, NULL, (void *)H_LARGEST},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject HostBase_T = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "devtrace.runtime._fastpath.HostBase",
    .tp_doc = "HostAllocator's counters (bytes_in_use, peak_bytes_in_use, num_allocs, largest_alloc_size) as C integers.",
    .tp_basicsize = sizeof(HostBase),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_getset = host_getset,
    .tp_new = PyType_GenericNew,
};

/* an exact int's value in *n: 1, else 0 (no exception) */
static inline int
small_int(PyObject *value, long long *n)
{
    if (!PyLong_CheckExact(value))
        return 0;
    int overflow;
    *n = PyLong_AsLongLongAndOverflow(value, &overflow);
    if (*n == -1 && PyErr_Occurred()) {
        PyErr_Clear();
        return 0;
    }
    return !overflow;
}

/* HostAllocator.free(handle) for a plain byte count: 1 done, 0 not that case */
static int
host_free(PyObject *alloc, PyObject *handle)
{
    long long n;
    if (!configured || Py_TYPE(alloc) != Host_T || !small_int(handle, &n))
        return 0;
    ((HostBase *)alloc)->counter[H_IN_USE] -= n;
    return 1;
}

/* The tensor's allocation back to its device: host memory here, any other through `release`
 * (tensor.py's _TensorBase.__del__, the Python reference: a Ctrl-C inside it is deferred by
 * interrupts.py, which looks for a frame named __del__) */
static void
tensor_finalize(TensorBase *self)
{
    PyObject *handle = self->handle, *device = self->device;
    if (handle == NULL || handle == Py_None || device == NULL)
        return;
    SavedError saved;
    int pending = PyErr_Occurred() != NULL;  /* the error being raised, kept (the common case: none) */
    if (pending)
        SAVE_ERROR(saved);
    PyObject *alloc = configured && Py_TYPE(device) == Device_T ? SLOT(device, d_allocator) : NULL;
    int done = alloc == NULL || threaded ? 0 : host_free(alloc, handle);  /* threads: release locks */
    if (done == 0 && alloc != NULL && !threaded) {  /* a simulated GPU's: its free without the reference's frame */
        Py_INCREF(alloc);
        done = bfc_release(alloc, handle);
        Py_DECREF(alloc);
    }
    if (done == 0 && release != NULL) {
        PyObject *fn = release, *out;
        Py_INCREF(fn);
        out = PyObject_CallOneArg(fn, (PyObject *)self);
        done = out == NULL ? -1 : 1;
        Py_XDECREF(out);
        if (done < 0)
            PyErr_WriteUnraisable(fn);
        Py_DECREF(fn);
    } else if (done < 0) {
        PyErr_WriteUnraisable(NULL);  /* no memory for the counter */
    }
    if (pending)
        RESTORE_ERROR(saved);
    else if (PyErr_Occurred())
        PyErr_Clear();
}

#ifdef FREE_LISTS
static void tensor_free(void *p);

/* a Tensor's weak references cleared, and those its finaliser made since (as subtype_dealloc does) */
static void
clear_weakrefs(PyObject *self)
{
    PyObject **list = (PyObject **)((char *)self + Py_TYPE(self)->tp_weaklistoffset);
    if (*list == NULL)
        return;
    PyObject_ClearWeakRefs(self);
    while (*list != NULL)
        _PyWeakref_ClearRef((PyWeakReference *)*list);
}

/* The tp_dealloc of Tensor and of each subclass laid out as it is (TensorBase's slots and a weak
 * reference list, nothing else: tensor_init_subclass gives it to them, so that __class__ can still
 * move a tensor between them): subtype_dealloc's steps for such a tensor, its finaliser's case of host
 * memory done in C without a call: no Python code runs there, so nothing can resurrect the tensor.
 * Every other allocation (or a finaliser of the subclass's own) goes through the finaliser, as
 * subtype_dealloc runs it. The subtype_dealloc of a subclass laid out otherwise calls this as its first
 * base's dealloc, its finaliser run and its own slots cleared: TensorBase's part then, and the weak
 * references and type subtype_dealloc leaves to a heap base. */
static void
tensor_type_dealloc(PyObject *self)
{
    PyTypeObject *type = Py_TYPE(self);
    TensorBase *t = (TensorBase *)self;
    PyObject_GC_UnTrack(self);
    if (type->tp_dealloc != tensor_type_dealloc) {
        clear_weakrefs(self);
        tensor_dealloc(t);
        Py_DECREF(type);
        return;
    }
    Py_TRASHCAN_BEGIN(self, tensor_type_dealloc)
    PyObject *alloc = t->handle == NULL || t->handle == Py_None || t->device == NULL || threaded || !configured
        || Py_TYPE(t->device) != Device_T ? NULL : SLOT(t->device, d_allocator);
    int released = type->tp_finalize == (destructor)tensor_finalize && (t->handle == NULL || t->handle == Py_None
        || t->device == NULL || (alloc != NULL && host_free(alloc, t->handle)));
    if (!released) {
        PyObject_GC_Track(self);
        if (PyObject_CallFinalizerFromDealloc(self) < 0)
            goto done;  /* resurrected */
        PyObject_GC_UnTrack(self);
    }
    clear_weakrefs(self);
    tensor_clear(t);
    type->tp_free(self);
    Py_DECREF(type);
done:
    Py_TRASHCAN_END
}
#endif

/* TensorBase.__init_subclass__: a subclass laid out as Tensor (TensorBase's slots and a weak reference
 * list) is deallocated by tensor_type_dealloc, its memory freed by tensor_free (which keeps configure()'s
 * Tensor's); then object.__init_subclass__ */
static PyObject *
tensor_init_subclass(PyObject *cls, PyObject *args, PyObject *kwargs)
{
#ifdef FREE_LISTS
    PyTypeObject *type = (PyTypeObject *)cls;
    if (PyType_Check(cls) && (type->tp_flags & Py_TPFLAGS_HEAPTYPE) && type->tp_dealloc != tensor_type_dealloc
            && type->tp_weaklistoffset == sizeof(TensorBase)
            && type->tp_basicsize == sizeof(TensorBase) + (Py_ssize_t)sizeof(PyObject *) && !type->tp_dictoffset
            && !type->tp_del && type->tp_itemsize == 0 && (type->tp_flags & Py_TPFLAGS_HAVE_GC)
            && type->tp_free == PyObject_GC_Del) {
        type->tp_dealloc = tensor_type_dealloc;
        type->tp_free = tensor_free;  /* (keeps Tensor's alone; __class__ assignment asks for the same tp_free) */
    }
#endif
    PyObject *base_init = PyObject_GetAttrString((PyObject *)&PyBaseObject_Type, "__init_subclass__");
    if (base_init == NULL)
        return NULL;
    PyObject *out = PyObject_Call(base_init, args, kwargs);
    Py_DECREF(base_init);
    return out;
}

static PyMethodDef tensor_methods[] = {
    {"__init_subclass__", (PyCFunction)(void (*)(void))tensor_init_subclass, METH_VARARGS | METH_KEYWORDS | METH_CLASS,
     "A subclass laid out as Tensor is freed by the C module's deallocation."},
    {NULL, NULL, 0, NULL},
};

static PyObject *
set_release(PyObject *self, PyObject *fn)
{
    Py_INCREF(fn);
    Py_XSETREF(release, fn);
    Py_RETURN_NONE;
}

/* Free lists (CPython 3.11, whose GC header this reads: elsewhere every object is made and freed as
 * usual). An eager op makes a Tensor and a trace record, and the program frees both soon after (the
 * record at the next flush): their memory is kept here on the way out, as CPython keeps its tuples',
 * and handed to the next op's, which saves the allocator's and the collector's bookkeeping of each.
 * The types' tp_free (Tensor's, OpRecord's) keeps them; configure() sets it and empties the lists, and
 * so does a full collection, as it empties CPython's own. */
#ifdef FREE_LISTS
#define N_FREE_TENSORS 256
#define N_FREE_RECORDS 4096  /* Trace.FLUSH_EVERY: what one flush frees */
static PyObject *free_tensors[N_FREE_TENSORS], *free_records[N_FREE_RECORDS];
static int n_free_tensors, n_free_records;
static Py_ssize_t free_record_size;  /* the records kept: OpRecord's size when configured */

/* Tensor_T's tp_free: a Tensor's memory, its slots and weak references cleared (tensor_dealloc and
 * subtype_dealloc have run), kept for the next */
static void
tensor_free(void *p)
{
    PyObject *o = (PyObject *)p;
    if (Py_TYPE(o) == Tensor_T && n_free_tensors < N_FREE_TENSORS)
        free_tensors[n_free_tensors++] = o;
    else
        PyObject_GC_Del(p);
}

/* Record_T's tp_free: a record's memory (its items let go by tupledealloc) kept for the next */
static void
record_free(void *p)
{
    PyObject *o = (PyObject *)p;
    if (Py_TYPE(o) == Record_T && Py_SIZE(o) == free_record_size && n_free_records < N_FREE_RECORDS)
        free_records[n_free_records++] = o;
    else
        PyObject_GC_Del(p);
}

/* Record_T's tp_dealloc: what subtype_dealloc and tuple's dealloc do to a record (it has no finaliser,
 * weak references or dict: its items let go, its memory freed, its type let go) without their
 * general steps. A subclass's subtype_dealloc calls it as its base's: tuple's dealloc then, and the
 * type let go here, as subtype_dealloc leaves that to a heap type's own dealloc. */
static void
record_dealloc(PyObject *op)
{
    PyTypeObject *type = Py_TYPE(op);
    if (type != Record_T) {
        PyTuple_Type.tp_dealloc(op);
        Py_DECREF(type);
        return;
    }
    PyObject_GC_UnTrack(op);
    Py_TRASHCAN_BEGIN(op, record_dealloc)
    PyObject **items = ((PyTupleObject *)op)->ob_item;
    for (Py_ssize_t i = Py_SIZE(op); --i >= 0;)
        Py_XDECREF(items[i]);
    type->tp_free(op);
    Py_DECREF(type);
    Py_TRASHCAN_END
}

static void
drop_free_lists(void)
{
    while (n_free_tensors > 0)
        PyObject_GC_Del(free_tensors[--n_free_tensors]);
    while (n_free_records > 0)
        PyObject_GC_Del(free_records[--n_free_records]);
}

/* gc.callbacks' entry: a full collection empties the lists */
static PyObject *
collected(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs == 2 && PyUnicode_Check(args[0]) && PyUnicode_CompareWithASCIIString(args[0], "stop") == 0
            && PyDict_Check(args[1])) {
        PyObject *generation = PyDict_GetItemString(args[1], "generation");
        if (generation != NULL && PyLong_Check(generation) && PyLong_AsLong(generation) == 2)
            drop_free_lists();
        PyErr_Clear();
    }
    Py_RETURN_NONE;
}

static PyMethodDef collected_def = {"_free_lists_collected", (PyCFunction)(void (*)(void))collected, METH_FASTCALL,
                                    "gc.callbacks' entry: a full collection empties the hot path's free lists"};

/* collected() into gc.callbacks, once */
static int
watch_collections(void)
{
    static int watching;
    if (watching)
        return 0;
    PyObject *gc = PyImport_ImportModule("gc"), *callbacks = gc == NULL ? NULL : PyObject_GetAttrString(gc, "callbacks");
    PyObject *fn = callbacks == NULL ? NULL : PyCFunction_New(&collected_def, NULL);
    int status = fn == NULL || !PyList_Check(callbacks) ? -1 : PyList_Append(callbacks, fn);
    if (status < 0 && !PyErr_Occurred())
        PyErr_SetString(PyExc_TypeError, "gc.callbacks is not a list");
    Py_XDECREF(fn);
    Py_XDECREF(callbacks);
    Py_XDECREF(gc);
    watching = status == 0;
    return status;
}
#endif

/* a new Tensor, every slot empty, tracked (as Tensor_T->tp_alloc makes one) */
static PyObject *
new_tensor(void)
{
#ifdef FREE_LISTS
    if (n_free_tensors > 0) {
        PyObject *o = free_tensors[--n_free_tensors];
        _Py_AS_GC(o)->_gc_prev &= ~(uintptr_t)_PyGC_PREV_MASK_FINALIZED;  /* a new object: not finalised yet */
        Py_INCREF(Tensor_T);  /* a heap type's instance holds its type, as tp_alloc's */
        _Py_NewReference(o);
        PyObject_GC_Track(o);
        return o;
    }
#endif
    return Tensor_T->tp_alloc(Tensor_T, 0);
}

/* a new OpRecord of `size` items to be set, untracked */
static PyObject *
new_record(Py_ssize_t size)
{
#ifdef FREE_LISTS
    if (n_free_records > 0 && size == free_record_size) {
        PyObject *o = free_records[--n_free_records];
        Py_INCREF(Record_T);
        _Py_NewReference(o);
        return o;
    }
#endif
    return (PyObject *)PyObject_GC_NewVar(PyTupleObject, Record_T, size);
}

static PyTypeObject TensorBase_T = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "devtrace.runtime._fastpath.TensorBase",
    .tp_doc = "An eager tensor's slots (_value, _device, _handle, _dtype, _seq); its allocation is freed with it.",
    .tp_basicsize = sizeof(TensorBase),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC,
    .tp_traverse = (traverseproc)tensor_traverse,
    .tp_clear = (inquiry)tensor_clear,
    .tp_dealloc = (destructor)tensor_dealloc,
    .tp_finalize = (destructor)tensor_finalize,
    .tp_members = tensor_members,
    .tp_methods = tensor_methods,
    .tp_new = PyType_GenericNew,
};

/* ---- configure() ------------------------------------------------------------------------------ */

/* The offset of `type`'s slot `name`; -1 with an exception when it is not a plain object slot. */
Py_ssize_t
slot_offset(PyTypeObject *type, const char *name)
{
    PyObject *descr = PyObject_GetAttrString((PyObject *)type, name);
    if (descr == NULL)
        return -1;
    if (Py_TYPE(descr) != &PyMemberDescr_Type || ((PyMemberDescrObject *)descr)->d_member->type != T_OBJECT_EX) {
        PyErr_Format(PyExc_TypeError, "%s.%s is not a __slots__ attribute", type->tp_name, name);
        Py_DECREF(descr);
        return -1;
    }
    Py_ssize_t offset = ((PyMemberDescrObject *)descr)->d_member->offset;
    Py_DECREF(descr);
    return offset;
}

/* configure()'s and configure_bfc()'s keyword `key` (a type when want_type) into *out */
int
take(const char *caller, PyObject *kwargs, const char *key, PyObject **out, int want_type)
{
    PyObject *value = kwargs == NULL ? NULL : PyDict_GetItemString(kwargs, key);
    if (value == NULL || (want_type && !PyType_Check(value))) {
        PyErr_Format(PyExc_TypeError, "%s() needs %s", caller, key);
        return -1;
    }
    Py_INCREF(value);
    Py_XSETREF(*out, value);
    return 0;
}

typedef struct {
    const char *name;
    Py_ssize_t *offset;
} SlotSpec;

static int
offsets(PyTypeObject *type, const SlotSpec *slots)
{
    for (; slots->name != NULL; slots++)
        if ((*slots->offset = slot_offset(type, slots->name)) < 0)
            return -1;
    return 0;
}

static int
intern(PyObject **out, const char *text)
{
    if (*out == NULL)
        *out = PyUnicode_InternFromString(text);
    return *out == NULL ? -1 : 0;
}

static PyObject *
configure(PyObject *self, PyObject *args, PyObject *kwargs)
{
    static const SlotSpec context_slots[] = {
        {"initialized_by", &c_initialized_by}, {"eager", &c_eager}, {"tapes", &c_tapes}, {"op_callbacks", &c_op_callbacks},
        {"placement_cache", &c_placement_cache}, {"scope", &c_scope}, {"soft_placement", &c_soft_placement},
        {"trace", &c_trace}, {"threaded", &c_threaded}, {NULL, NULL}};
    static const SlotSpec device_slots[] = {{"xp", &d_xp}, {"allocator", &d_allocator}, {"name", &d_name}, {NULL, NULL}};
    static const SlotSpec trace_slots[] = {{"_seq", &r_seq}, {"listeners", &r_listeners}, {"_events", &r_events},
                                           {NULL, NULL}};
    static const SlotSpec opdef_slots[] = {{"fn", &o_fn}, {"ufunc", &o_ufunc}, {"gpu_fn", &o_gpu_fn}, {NULL, NULL}};
    static const SlotSpec host_slots[] = {{"onednn", &h_onednn}, {NULL, NULL}};
    PyObject *large = NULL, *sample = NULL;

    configured = 0;
#ifdef FREE_LISTS
    drop_free_lists();  /* of the types configured before */
#endif
    if (PyTuple_GET_SIZE(args) || kwargs == NULL) {
        PyErr_SetString(PyExc_TypeError, "configure() takes keyword arguments only");
        return NULL;
    }
    if (take("configure", kwargs, "Tensor", (PyObject **)&Tensor_T, 1) || take("configure", kwargs, "Context", (PyObject **)&Context_T, 1)
            || take("configure", kwargs, "Device", (PyObject **)&Device_T, 1) || take("configure", kwargs, "Trace", (PyObject **)&Trace_T, 1)
            || take("configure", kwargs, "OpDef", (PyObject **)&OpDef_T, 1) || take("configure", kwargs, "HostAllocator", (PyObject **)&Host_T, 1)
            || take("configure", kwargs, "ndarray", (PyObject **)&NDArray_T, 1)
            || take("configure", kwargs, "OpRecord", (PyObject **)&Record_T, 1)
            || take("configure", kwargs, "context_globals", &context_globals, 0) || take("configure", kwargs, "registry", &registry, 0)
            || take("configure", kwargs, "by_np", &by_np, 0) || take("configure", kwargs, "plain", &plain, 0)
            || take("configure", kwargs, "kernel_errors", &kernel_errors, 0) || take("configure", kwargs, "execute", &execute, 0)
            || take("configure", kwargs, "lookup", &lookup, 0) || take("configure", kwargs, "kernel_failed", &kernel_failed, 0)
            || take("configure", kwargs, "finish", &finish, 0) || take("configure", kwargs, "oom", &oom, 0)
            || take("configure", kwargs, "ResourceHandle", &resource_handle, 0) || take("configure", kwargs, "run_step", &run_step, 0)
            || take("configure", kwargs, "host_large", &large, 0)
            || take("configure", kwargs, "sample_array", &sample, 0)) {
        Py_XDECREF(large);
        return NULL;
    }
    forget_dtypes();  /* by_np may be another dict now */
    host_large = PyLong_AsLongLong(large);
    Py_DECREF(large);
    if (host_large == -1 && PyErr_Occurred())
        return NULL;
    if (!PyDict_CheckExact(context_globals) || !PyDict_CheckExact(registry) || !PyDict_CheckExact(by_np)
            || !PyFrozenSet_CheckExact(plain) || !PyTuple_CheckExact(kernel_errors)) {
        PyErr_SetString(PyExc_TypeError, "configure(): context_globals, registry and by_np are dicts, plain a "
                                         "frozenset, kernel_errors a tuple");
        return NULL;
    }
    if (!PyType_IsSubtype(Tensor_T, &TensorBase_T) || !PyType_IsSubtype(Host_T, &HostBase_T)) {
        PyErr_SetString(PyExc_TypeError, "configure(): Tensor must derive from TensorBase, HostAllocator from HostBase");
        return NULL;
    }
    if (offsets(Context_T, context_slots) || offsets(Device_T, device_slots) || offsets(Trace_T, trace_slots)
            || offsets(OpDef_T, opdef_slots) || offsets(Host_T, host_slots) || record_layout())
        return NULL;
    if (intern(&s_context, "_context") || intern(&s_flush, "flush") || intern(&s_allocate, "allocate")
            || intern(&s_dtype, "dtype")
            || intern(&s_shape, "shape") || intern(&s_nbytes, "nbytes") || intern(&s_name, "name")
            || intern(&s_bytes_in_use, "bytes_in_use")
            || intern(&s_append, "append") || intern(&s_ufunc, "ufunc") || intern(&s_fn, "fn")
            || intern(&s_itemsize, "itemsize") || intern(&s_x_dtype, "_dtype"))
        return NULL;
    int checked = check_array_layout(sample);
    Py_DECREF(sample);
    if (checked < 0)
        return NULL;
#ifdef FREE_LISTS
    if (watch_collections() < 0)
        return NULL;
    free_record_size = PyTuple_GET_SIZE(record_defaults);
    if (Record_T->tp_free == PyObject_GC_Del || Record_T->tp_free == record_free) {
        Record_T->tp_free = record_free;
        /* OpRecord and its bases: tuples with __slots__ = () (record_layout() checked its size) */
        if (!Record_T->tp_finalize && !Record_T->tp_del && !Record_T->tp_weaklistoffset && !Record_T->tp_dictoffset)
            Record_T->tp_dealloc = record_dealloc;
    }
#endif
    configured = 1;
    Py_RETURN_NONE;
}

/* ---- execute_binary -------------------------------------------------------------------------- */

/* Lookups the steady state repeats, answered from what the last identical lookup found while the dict
 * it was made in is unchanged: CPython 3.10 and 3.11 give every dict a version tag, unique across all
 * dicts and changed by every write, so a dict's (address, tag) names one state of one live dict.
 * A key is matched by the identity of its items, which the memo holds (an object freed and another
 * made at its address cannot pass for it); the value is the dict's, read only while the tag matches.
 * Other versions look every time. */
#if PY_VERSION_HEX < 0x030C0000
#define DICT_MEMO 1
#define DICT_TAG(d) (((PyDictObject *)(d))->ma_version_tag)
#define N_MEMO 64  /* a power of two */
#define MEMO_SLOT(a, b, c) \
    ((((uintptr_t)(a) >> 4) ^ ((uintptr_t)(b) >> 4) ^ ((uintptr_t)(c) >> 6)) & (N_MEMO - 1))
typedef struct {
    PyObject *op_name, *dtype, *scope, *soft;  /* the key's items, held */
    PyObject *cache;  /* the dict's address (its tag tells whether it is the same dict, unchanged) */
    uint64_t tag;
    PyObject *hit;  /* borrowed from the dict, read only while its tag is `tag` */
} PlacementMemo;
static PlacementMemo placement_memo[N_MEMO];
typedef struct {
    PyObject *op_name;  /* held */
    uint64_t tag;
    PyObject *opdef;  /* borrowed from registry, as hit above */
} RegistryMemo;
static RegistryMemo registry_memo[N_MEMO];
static uint64_t context_tag;  /* context_globals' tag when _context was read, and what it held */
static PyObject *context_seen;
#endif

/* context_globals["_context"], borrowed (NULL: absent, or an error) */
static PyObject *
current_context(void)
{
#ifdef DICT_MEMO
    if (context_seen != NULL && DICT_TAG(context_globals) == context_tag)
        return context_seen;
    PyObject *ctx = PyDict_GetItemWithError(context_globals, s_context);
    context_seen = ctx;
    context_tag = DICT_TAG(context_globals);
    return ctx;
#else
    return PyDict_GetItemWithError(context_globals, s_context);
#endif
}

/* registry[op_name], borrowed (NULL: absent, or an error) */
static PyObject *
registered(PyObject *op_name)
{
#ifdef DICT_MEMO
    RegistryMemo *m = &registry_memo[MEMO_SLOT(op_name, 0, 0)];
    if (m->op_name == op_name && m->tag == DICT_TAG(registry))
        return m->opdef;
    PyObject *opdef = PyDict_GetItemWithError(registry, op_name);
    if (opdef != NULL) {
        PyObject *old = m->op_name;
        Py_INCREF(op_name);
        m->op_name = op_name;
        m->opdef = opdef;
        m->tag = DICT_TAG(registry);
        Py_XDECREF(old);  /* an op's name: a string */
    }
    return opdef;
#else
    return PyDict_GetItemWithError(registry, op_name);
#endif
}

/* cache.get((op_name, dtype, scope, soft)), a new reference (NULL: absent, or an error); the key's
 * items are held while the key is made, as the reference's locals hold them */
static PyObject *
placement_lookup(PyObject *cache, PyObject *op_name, PyObject *dtype, PyObject *scope, PyObject *soft)
{
#ifdef DICT_MEMO
    PlacementMemo *m = &placement_memo[MEMO_SLOT(op_name, dtype, scope)];
    if (m->cache == cache && m->tag == DICT_TAG(cache) && m->op_name == op_name && m->dtype == dtype
            && m->scope == scope && m->soft == soft) {
        Py_INCREF(m->hit);
        return m->hit;
    }
#endif
    PyObject *items[4] = {op_name, dtype, scope, soft};
    for (int i = 0; i < 4; i++)
        Py_INCREF(items[i]);
    Py_INCREF(cache);
    PyObject *key = PyTuple_New(4);
    if (key == NULL) {
        for (int i = 0; i < 4; i++)
            Py_DECREF(items[i]);
        Py_DECREF(cache);
        return NULL;
    }
    for (int i = 0; i < 4; i++)
        PyTuple_SET_ITEM(key, i, items[i]);
    PyObject *hit = PyDict_GetItemWithError(cache, key);
    Py_XINCREF(hit);
#ifdef DICT_MEMO
    if (hit != NULL) {  /* remembered: the key's items held by the memo, what it held before let go */
        PyObject *old[4] = {m->op_name, m->dtype, m->scope, m->soft};
        for (int i = 0; i < 4; i++)
            Py_INCREF(items[i]);
        m->op_name = op_name;
        m->dtype = dtype;
        m->scope = scope;
        m->soft = soft;
        m->cache = cache;
        m->tag = DICT_TAG(cache);
        m->hit = hit;
        for (int i = 0; i < 4; i++)
            Py_XDECREF(old[i]);
    }
#endif
    Py_DECREF(cache);
    Py_DECREF(key);
    return hit;
}

static long long
now_ns(void)
{
#ifdef _WIN32
    static LARGE_INTEGER freq;
    LARGE_INTEGER t;
    if (!freq.QuadPart)
        QueryPerformanceFrequency(&freq);
    QueryPerformanceCounter(&t);
    return (long long)((double)t.QuadPart * 1e9 / (double)freq.QuadPart);
#else
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);  /* what time.perf_counter_ns reads on Linux */
    return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
#endif
}

/* a tuple of ints, strings, None and such tuples: no cycle can run through it */
static PyObject *
untracked(PyObject *tuple)
{
    if (tuple != NULL && PyObject_GC_IsTracked(tuple))
        PyObject_GC_UnTrack(tuple);
    return tuple;
}

/* execute(op_name, (x, y), None, name, dtype): every case but the common one */
static PyObject *
slow(PyObject *op_name, PyObject *x, PyObject *y, PyObject *name, PyObject *dtype)
{
    PyObject *inputs = PyTuple_Pack(2, x, y);
    if (inputs == NULL)
        return NULL;
    PyObject *argv[] = {op_name, inputs, Py_None, name, dtype};
    PyObject *out = PyObject_Vectorcall(execute, argv, 5, NULL);
    Py_DECREF(inputs);
    return out;
}

/* The op's OpRecord: seq, op, node, requested, device, reason, inputs and src (NULL: None), then, when
 * `n` is N_HEAD + 3 or + 4, shape, dtype, duration_ns and the bytes in use (`tail` holds those 3 or 4
 * values); the fields not given take their defaults, as OpRecord(seq, ...) gives them. */
typedef struct {
    PyObject *seq, *op_name, *name, *scope, *device_name, *reason, *producers, *src;
} Head;

static PyObject *
record(const Head *h, Py_ssize_t n, PyObject *const *tail)
{
    Py_ssize_t size = PyTuple_GET_SIZE(record_defaults);
    /* made untracked (PyTuple_New's allocation, without its free list: OpRecord's own type) */
    PyObject *out = new_record(size);
    if (out == NULL)
        return NULL;
    PyObject *items[N_FIELDS] = {h->seq, h->op_name, h->name, h->scope, h->device_name, h->reason, h->producers,
                                 h->src != NULL ? h->src : Py_None};
    for (int k = F_SHAPE; k < n; k++)
        items[k] = tail[k - F_SHAPE];
    if (n == N_FIELDS && size == N_FIELDS) {  /* every field given (an op that ran): each at its index */
        for (int k = 0; k < N_FIELDS; k++) {
            Py_INCREF(items[k]);
            PyTuple_SET_ITEM(out, field_index[k], items[k]);
        }
    } else {
        for (Py_ssize_t i = 0; i < size; i++) {
            int k = filled_by[i];
            PyObject *item = k < 0 || k >= n ? PyTuple_GET_ITEM(record_defaults, i) : items[k];
            Py_INCREF(item);
            PyTuple_SET_ITEM(out, i, item);
        }
    }
    if (h->name != Py_None && !PyUnicode_CheckExact(h->name))
        PyObject_GC_Track(out);  /* a name of another type: the collector visits the record */
    return out;
}

/* OpRecord's layout from its Python declaration: the index of each field this module fills, the
 * defaults of all (trace/events.py; tests/test_op_step.py checks a reordered declaration) */
static int
record_layout(void)
{
    PyObject *fields = PyObject_GetAttrString((PyObject *)Record_T, "_fields");
    PyObject *defaults = fields == NULL ? NULL : PyObject_GetAttrString((PyObject *)Record_T, "_field_defaults");
    PyObject *values = NULL;
    int status = -1;
    if (defaults == NULL)
        goto done;
    if (!PyType_IsSubtype(Record_T, &PyTuple_Type) || Record_T->tp_basicsize != PyTuple_Type.tp_basicsize
            || !PyTuple_CheckExact(fields) || !PyDict_Check(defaults)) {
        PyErr_SetString(PyExc_TypeError, "configure(): OpRecord must be a namedtuple with __slots__ = ()");
        goto done;
    }
    Py_ssize_t size = PyTuple_GET_SIZE(fields);
    if (!(values = PyTuple_New(size)))
        goto done;
    for (Py_ssize_t i = 0; i < size; i++) {
        PyObject *value = PyDict_GetItemWithError(defaults, PyTuple_GET_ITEM(fields, i));
        if (value == NULL && PyErr_Occurred())
            goto done;
        value = value == NULL ? Py_None : value;
        Py_INCREF(value);
        PyTuple_SET_ITEM(values, i, value);
    }
    for (int k = 0; k < N_FIELDS; k++) {
        field_index[k] = -1;
        for (Py_ssize_t i = 0; i < size; i++)
            if (PyUnicode_CompareWithASCIIString(PyTuple_GET_ITEM(fields, i), field_names[k]) == 0)
                field_index[k] = i;
        if (field_index[k] < 0) {
            PyErr_Format(PyExc_TypeError, "configure(): OpRecord has no field %s", field_names[k]);
            goto done;
        }
    }
    for (Py_ssize_t i = 0; i < size; i++) {  /* a field without a default is one this module fills */
        int filled = 0;
        for (int k = 0; k < N_FIELDS; k++)
            filled |= field_index[k] == i;
        if (!filled && PyDict_GetItemWithError(defaults, PyTuple_GET_ITEM(fields, i)) == NULL) {
            if (!PyErr_Occurred())
                PyErr_Format(PyExc_TypeError, "configure(): OpRecord's field %R has no default",
                             PyTuple_GET_ITEM(fields, i));
            goto done;
        }
    }
    int *by = PyMem_Calloc(size ? size : 1, sizeof(int));
    if (by == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t i = 0; i < size; i++)
        by[i] = -1;
    for (int k = 0; k < N_FIELDS; k++)
        by[field_index[k]] = k;
    PyMem_Free(filled_by);
    filled_by = by;
    Py_XSETREF(record_defaults, values);
    values = NULL;
    status = 0;
done:
    Py_XDECREF(values);
    Py_XDECREF(defaults);
    Py_XDECREF(fields);
    return status;
}

/* trace.append(rec): Trace.append's body (trace/events.py) in C, the record onto the trace's list */
static int
append_record(PyObject *trace, PyObject *rec)
{
    PyObject *events = SLOT(trace, r_events);
    if (events != NULL && PyList_CheckExact(events))
        return PyList_Append(events, rec);
    PyObject *out = PyObject_CallMethodOneArg(trace, s_append, rec);
    Py_XDECREF(out);
    return out == NULL ? -1 : 0;
}

/* `raise error`, for an exception a Python function returned */
static void
raise_returned(PyObject *error)
{
    if (PyExceptionInstance_Check(error))
        PyErr_SetObject((PyObject *)Py_TYPE(error), error);
    else
        PyErr_SetString(PyExc_TypeError, "exceptions must derive from BaseException");
}

/* `except ... as e:` in C: e is the exception being handled until handling_end, on a stack item of
 * its own (as a generator pushes one while it runs), so the caller's is left as it was. The item
 * owns its references, as the interpreter's do. */
static void
handling_begin(_PyErr_StackItem *item, PyObject *e)
{
    PyThreadState *ts = PyThreadState_Get();
#if PY_VERSION_HEX < 0x030B0000
    Py_INCREF(Py_TYPE(e));
    item->exc_type = (PyObject *)Py_TYPE(e);
    item->exc_traceback = PyException_GetTraceback(e);
#endif
    Py_INCREF(e);
    item->exc_value = e;
    item->previous_item = ts->exc_info;
    ts->exc_info = item;
}

static void
handling_end(_PyErr_StackItem *item)
{
    PyThreadState_Get()->exc_info = item->previous_item;
#if PY_VERSION_HEX < 0x030B0000
    Py_CLEAR(item->exc_type);
    Py_CLEAR(item->exc_traceback);
#endif
    Py_CLEAR(item->exc_value);
}

/* The reference's `except kernel_errors as e: raise kernel_failed(ctx, device, opdef, arrays, attrs,
 * record, node, e) from None`: what kernel_failed raises, and the error it returns, get e as their
 * __context__ (e itself, which kernel_failed returns for a MemoryError, keeps its own). */
static void
raise_kernel_failed(PyObject *ctx, PyObject *device, PyObject *opdef, PyObject *arrays, PyObject *attrs,
                    PyObject *node, const Head *h)
{
    PyObject *e;
#if PY_VERSION_HEX >= 0x030C0000
    e = PyErr_GetRaisedException();
#else
    PyObject *type, *tb;
    PyErr_Fetch(&type, &e, &tb);
    PyErr_NormalizeException(&type, &e, &tb);
    if (tb != NULL && e != NULL)
        PyException_SetTraceback(e, tb);
    Py_XDECREF(type);
    Py_XDECREF(tb);
#endif
    if (e == NULL)
        return;  /* normalising failed with another error, which is set */
    _PyErr_StackItem item;
    handling_begin(&item, e);
    PyObject *head = record(h, N_HEAD, NULL), *error = NULL;
    if (head != NULL) {
        PyObject *argv[] = {ctx, device, opdef, arrays, attrs, head, node, e};
        error = PyObject_Vectorcall(kernel_failed, argv, 8, NULL);
    }
    Py_XDECREF(head);
    if (error != NULL) {
        raise_returned(error);  /* chained to e, being handled */
        if (PyExceptionInstance_Check(error))
            PyException_SetCause(error, NULL);  /* from None: __suppress_context__ */
        Py_DECREF(error);
    }
    handling_end(&item);
    Py_DECREF(e);
}

/* HostAllocator.allocate(nbytes) for a request oneDNN does not book: the handle (the byte count),
 * or NULL without an exception when it is not that case */
static PyObject *
host_allocate(PyObject *alloc, PyObject *nbytes)
{
    long long n;
    if (Py_TYPE(alloc) != Host_T || !small_int(nbytes, &n) || n < 0)
        return NULL;
    PyObject *onednn = SLOT(alloc, h_onednn);
    if (onednn == NULL || (n >= host_large && onednn != Py_None))
        return NULL;
    long long *c = ((HostBase *)alloc)->counter;
    c[H_ALLOCS] += 1;
    c[H_IN_USE] += n;
    if (c[H_IN_USE] > c[H_PEAK])
        c[H_PEAK] = c[H_IN_USE];
    if (n > c[H_LARGEST])
        c[H_LARGEST] = n;
    Py_INCREF(nbytes);
    return nbytes;
}

/* NumPy's array object as its C headers lay it out (PyArrayObject_fields: the same from NumPy 1.7
 * through 2.x, which extensions built against older headers rely on). configure() checks it on a
 * sample array, else every array is read through its Python attributes. */
typedef struct {
    PyObject_HEAD
    char *data;
    int nd;
    Py_ssize_t *dimensions;
    Py_ssize_t *strides;
    PyObject *base;
    PyObject *descr;
    int flags;
    PyObject *weakreflist;
} ArrayFields;

static int array_layout;  /* ArrayFields matches this NumPy */
static PyObject *last_descr, *last_dtype, *last_name;  /* the last NumPy dtype seen: its DType and name */
static Py_ssize_t last_itemsize;

static void
forget_dtypes(void)
{
    Py_CLEAR(last_descr);
    Py_CLEAR(last_dtype);
    Py_CLEAR(last_name);
}

static int
check_array_layout(PyObject *sample)
{
    ArrayFields *f = (ArrayFields *)sample;
    array_layout = 0;
    if (Py_TYPE(sample) != NDArray_T)
        return 0;
    PyObject *descr = PyObject_GetAttr(sample, s_dtype);
    if (descr == NULL)
        return -1;
    array_layout = f->nd == 2 && f->dimensions[0] == 3 && f->dimensions[1] == 5 && f->descr == descr;
    Py_DECREF(descr);
    return 0;
}

/* The last output shape made (a tuple of ints, untracked): the next output of those dims shares it, a new
 * reference; NULL when the dims differ (no exception) */
static PyObject *last_shape;

static PyObject *
same_shape(int nd, const Py_ssize_t *dims)
{
    PyObject *shape = last_shape;
    if (shape == NULL || PyTuple_GET_SIZE(shape) != nd)
        return NULL;
    for (int i = 0; i < nd; i++) {
        PyObject *d = PyTuple_GET_ITEM(shape, i);
        if (!PyLong_CheckExact(d) || PyLong_AsSsize_t(d) != dims[i]) {
            PyErr_Clear();
            return NULL;
        }
    }
    Py_INCREF(shape);
    return shape;
}

/* an output's DType (found in by_np), its name, shape and size in bytes, all new references:
 * 1 found, 0 a dtype devtrace does not know (finish() takes it), -1 error */
static int
describe(PyObject *out, PyObject **out_dtype, PyObject **dtype_name, PyObject **shape, PyObject **nbytes)
{
    if (array_layout && Py_TYPE(out) == NDArray_T) {
        ArrayFields *f = (ArrayFields *)out;
        if (f->descr != last_descr) {  /* look it up once, keep it until another dtype comes */
            PyObject *descr = f->descr, *dtype = PyDict_GetItemWithError(by_np, descr), *name, *itemsize;
            if (dtype == NULL)
                return PyErr_Occurred() ? -1 : 0;
            Py_INCREF(dtype);
            Py_INCREF(descr);
            name = PyObject_GetAttr(dtype, s_name);
            itemsize = name == NULL ? NULL : PyObject_GetAttr(descr, s_itemsize);
            Py_ssize_t size = itemsize == NULL ? -1 : PyLong_AsSsize_t(itemsize);
            Py_XDECREF(itemsize);
            if (size < 0) {
                if (!PyErr_Occurred())
                    PyErr_SetString(PyExc_ValueError, "a NumPy dtype of negative itemsize");
                Py_XDECREF(name);
                Py_DECREF(dtype);
                Py_DECREF(descr);
                return -1;
            }
            last_itemsize = size;
            Py_XSETREF(last_descr, descr);
            Py_XSETREF(last_dtype, dtype);
            Py_XSETREF(last_name, name);
        }
        Py_ssize_t size = last_itemsize;
        PyObject *dims = same_shape(f->nd, f->dimensions);
        if (dims == NULL) {
            if (!(dims = PyTuple_New(f->nd)))
                return -1;
            for (int i = 0; i < f->nd; i++) {
                PyObject *d = PyLong_FromSsize_t(f->dimensions[i]);
                if (d == NULL) {
                    Py_DECREF(dims);
                    return -1;
                }
                PyTuple_SET_ITEM(dims, i, d);
            }
            untracked(dims);
            Py_INCREF(dims);
            Py_XSETREF(last_shape, dims);
        }
        for (int i = 0; i < f->nd; i++)
            size *= f->dimensions[i];
        if (!(*nbytes = PyLong_FromSsize_t(size))) {
            Py_DECREF(dims);
            return -1;
        }
        *shape = dims;
        Py_INCREF(last_dtype);
        *out_dtype = last_dtype;
        Py_INCREF(last_name);
        *dtype_name = last_name;
        return 1;
    }
    PyObject *np_dtype = PyObject_GetAttr(out, s_dtype);  /* a NumPy scalar: its Python attributes */
    if (np_dtype == NULL)
        return -1;
    PyObject *dtype = PyDict_GetItemWithError(by_np, np_dtype);
    Py_XINCREF(dtype);
    Py_DECREF(np_dtype);
    if (dtype == NULL)
        return PyErr_Occurred() ? -1 : 0;
    *out_dtype = *dtype_name = *shape = *nbytes = NULL;
    *out_dtype = dtype;
    if (!(*shape = PyObject_GetAttr(out, s_shape)) || !(*dtype_name = PyObject_GetAttr(dtype, s_name))
            || !(*nbytes = PyObject_GetAttr(out, s_nbytes))) {
        Py_CLEAR(*out_dtype);
        Py_CLEAR(*shape);
        Py_CLEAR(*dtype_name);
        return -1;
    }
    if (PyTuple_CheckExact(*shape))
        untracked(*shape);
    return 1;
}

/* finish()'s common case, one NumPy array or scalar of a dtype devtrace knows: the output Tensor;
 * NULL and *failed == 0 when it is not that case */
static PyObject *
plain_output(PyObject *ctx, PyObject *device, PyObject *trace, PyObject *out, const Head *h, long long duration,
             PyObject *node, int *failed)
{
    PyObject *out_dtype, *dtype_name, *shape, *nbytes;
    int found = describe(out, &out_dtype, &dtype_name, &shape, &nbytes);
    *failed = found < 0;
    if (found <= 0)
        return NULL;
    *failed = 1;
    PyObject *alloc = SLOT(device, d_allocator);
    Py_XINCREF(alloc);
    PyObject *tag = NULL, *handle = NULL, *in_use = NULL, *rec = NULL, *dur = NULL, *t = NULL;
    if (alloc == NULL) {
        PyErr_SetString(PyExc_AttributeError, "allocator");  /* a Device without one */
        goto done;
    }
    if (!(dur = PyLong_FromLongLong(duration)))
        goto done;
    handle = host_allocate(alloc, nbytes);
    if (handle == NULL) {
        if (PyErr_Occurred() || !(tag = untracked(PyTuple_Pack(3, h->op_name, shape, dtype_name))))
            goto done;
        PyObject *argv[] = {NULL, alloc, nbytes, tag};  /* argv[0]: room for the bound call */
        if (!(handle = PyObject_VectorcallMethod(s_allocate, argv + 1, 3 | PY_VECTORCALL_ARGUMENTS_OFFSET, NULL)))
            goto done;
    }
    if (handle == Py_None) {  /* the device is full: the record without the bytes in use, then TF's OOM */
        PyObject *tail[] = {shape, dtype_name, dur};
        if (!(rec = record(h, N_HEAD + 3, tail)) || append_record(trace, rec))
            goto done;
        PyObject *argv[] = {ctx, device, out, h->op_name, h->seq, out_dtype, node};
        PyObject *error = PyObject_Vectorcall(oom, argv, node == NULL ? 6 : 7, NULL);
        if (error != NULL) {
            raise_returned(error);
            Py_DECREF(error);
        }
        goto done;
    }
    if (Py_TYPE(alloc) == Host_T) {
        if (!(in_use = int_of(((HostBase *)alloc)->counter[H_IN_USE])))
            goto done;
    } else if (!(in_use = PyObject_GetAttr(alloc, s_bytes_in_use)))
        goto done;
    {
        PyObject *tail[] = {shape, dtype_name, dur, in_use};
        if (!(rec = record(h, N_HEAD + 4, tail)) || append_record(trace, rec))
            goto done;
    }
    t = new_tensor();  /* Tensor(...) without __init__: the slots set here */
    if (t == NULL)
        goto done;
    TensorBase *tb = (TensorBase *)t;
    Py_INCREF(out);
    tb->value = out;
    Py_INCREF(device);
    tb->device = device;
    tb->handle = handle;
    handle = NULL;
    tb->dtype = out_dtype;
    out_dtype = NULL;
    Py_INCREF(h->seq);
    tb->seq = h->seq;
    *failed = 0;
done:
    Py_XDECREF(alloc);
    Py_XDECREF(out_dtype);
    Py_XDECREF(shape);
    Py_XDECREF(dtype_name);
    Py_XDECREF(nbytes);
    Py_XDECREF(tag);
    Py_XDECREF(handle);
    Py_XDECREF(in_use);
    Py_XDECREF(dur);
    Py_XDECREF(rec);
    return t;
}

/* opdef's attribute: its slot when opdef is an OpDef and the slot is set, else read as Python reads it */
static PyObject *
opdef_attr(PyObject *opdef, Py_ssize_t offset, PyObject *name)
{
    PyObject *value = Py_TYPE(opdef) == OpDef_T ? SLOT(opdef, offset) : NULL;
    if (value == NULL)
        return PyObject_GetAttr(opdef, name);
    Py_INCREF(value);
    return value;
}

/* the kernel's output: the op's NumPy ufunc for two arrays, else its kernel fn(xp, a, b) */
static PyObject *
run_kernel(PyObject *opdef, PyObject *xp, PyObject *a, PyObject *b)
{
    PyObject *ufunc = opdef_attr(opdef, o_ufunc, s_ufunc), *out;
    if (ufunc == NULL)
        return NULL;
    if (ufunc != Py_None && Py_TYPE(a) == NDArray_T && Py_TYPE(b) == NDArray_T) {
        PyObject *argv[] = {a, b};
        out = PyObject_Vectorcall(ufunc, argv, 2, NULL);
        Py_DECREF(ufunc);
        return out;
    }
    Py_DECREF(ufunc);
    PyObject *fn = opdef_attr(opdef, o_fn, s_fn);
    if (fn == NULL)
        return NULL;
    PyObject *argv[] = {xp, a, b};
    out = PyObject_Vectorcall(fn, argv, 3, NULL);
    Py_DECREF(fn);
    return out;
}

/* The last two-input op's inputs (x._seq, y._seq), untracked: the next op of the same inputs shares the
 * tuple, as outputs of one shape share last_shape (a tuple's identity is nothing a reader looks at) */
static PyObject *last_producers;

/* the op once its placement is found and its inputs are clean: its seq, then execution.run_binary */
static PyObject *
run_op(PyObject *ctx, PyObject *device, PyObject *trace, PyObject *xp, Head *h, long long seq, TensorBase *tx,
       TensorBase *ty)
{
    PyObject *result = NULL, *opdef = NULL, *out = NULL, *a = tx->value, *b = ty->value;
    Py_INCREF(a);
    Py_INCREF(b);
    if (!(seq & 4095)) {  /* Trace.FLUSH_EVERY, as the reference */
        PyObject *argv[] = {NULL, trace};
        PyObject *flushed = PyObject_VectorcallMethod(s_flush, argv + 1, 1 | PY_VECTORCALL_ARGUMENTS_OFFSET, NULL);
        if (flushed == NULL)
            goto done;
        Py_DECREF(flushed);
    }
    opdef = registered(h->op_name);
    if (opdef != NULL) {
        Py_INCREF(opdef);
    } else {
        if (PyErr_Occurred() || !(opdef = PyObject_Vectorcall(lookup, &h->op_name, 1, NULL)))
            goto done;
    }
    PyObject *producers = last_producers;  /* the last op's, when its inputs were these (a loop's op) */
    if (producers != NULL && PyTuple_GET_ITEM(producers, 0) == tx->seq && PyTuple_GET_ITEM(producers, 1) == ty->seq) {
        Py_INCREF(producers);
    } else {
        if (!(producers = PyTuple_New(2)))  /* made before the slots it holds are read */
            goto done;
        Py_INCREF(tx->seq);
        PyTuple_SET_ITEM(producers, 0, tx->seq);
        Py_INCREF(ty->seq);
        PyTuple_SET_ITEM(producers, 1, ty->seq);
        untracked(producers);
        Py_INCREF(producers);
        Py_XSETREF(last_producers, producers);  /* (the one let go holds ints: no code runs) */
    }
    h->producers = producers;
    long long start = now_ns();
    out = run_kernel(opdef, xp, a, b);
    long long duration = now_ns() - start;
    if (out == NULL) {
        if (PyErr_ExceptionMatches(kernel_errors)) {
            PyObject *arrays = PyTuple_Pack(2, a, b);
            if (arrays != NULL)
                raise_kernel_failed(ctx, device, opdef, arrays, Py_None, Py_None, h);
            Py_XDECREF(arrays);
        }
        goto done;
    }
    int contains = Py_TYPE(out) == NDArray_T ? 1 : PySet_Contains(plain, (PyObject *)Py_TYPE(out));  /* ndarray: in plain */
    if (contains < 0)
        goto done;
    if (contains) {
        int failed;
        result = plain_output(ctx, device, trace, out, h, duration, NULL, &failed);
        if (result != NULL || failed)
            goto done;
    }
    {
        PyObject *head = record(h, N_HEAD, NULL), *dur = head == NULL ? NULL : PyLong_FromLongLong(duration);
        if (dur != NULL) {
            PyObject *argv[] = {ctx, device, opdef, out, head, Py_None, dur};
            result = PyObject_Vectorcall(finish, argv, 7, NULL);
        }
        Py_XDECREF(head);
        Py_XDECREF(dur);
    }
    if (result == Py_None) {
        Py_DECREF(result);
        PyObject *argv[] = {device, h->seq};
        result = PyObject_Vectorcall(resource_handle, argv, 2, NULL);
    }
done:
    Py_XDECREF(out);
    Py_XDECREF(opdef);
    Py_DECREF(a);
    Py_DECREF(b);
    Py_CLEAR(h->producers);
    return result;
}

/* ---- run_node: a function graph's node through the execution step ---------------------------- */

/* execution.run_step(ctx, device, opdef, arrays, attrs, OpRecord(seq, *head, inputs, src=src), node):
 * the reference, for every case run_node does not take */
static PyObject *
node_reference(PyObject *const *args, const Head *h)
{
    PyObject *rec = record(h, N_HEAD, NULL);
    if (rec == NULL)
        return NULL;
    PyObject *argv[] = {args[0], args[1], args[2], args[3], args[4], rec, args[9]};
    PyObject *out = PyObject_Vectorcall(run_step, argv, 7, NULL);
    Py_DECREF(rec);
    return out;
}

/* run_node(ctx, device, opdef, arrays, attrs, seq, head, inputs, src, node): a node of a function
 * graph run from its plan (graph/function_run.py), whose record is OpRecord(seq, *head, inputs,
 * src=src) with head (op, node, requested, device, reason): execution.run_step's steps for a NumPy
 * device, the op's kernel on its inputs (a list, at least one), then finish's common case (one NumPy
 * array or scalar of a dtype devtrace knows) in C; finish itself for any other output, run_step for
 * any other node, kernel_failed for a kernel's error, as the reference. */
static PyObject *node_step(PyObject *const *args, PyObject *fast, unsigned dead, int *into_input);

static PyObject *
run_node(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 10 || !PyTuple_CheckExact(args[6]) || PyTuple_GET_SIZE(args[6]) != 5) {
        PyErr_SetString(PyExc_TypeError, "run_node(ctx, device, opdef, arrays, attrs, seq, head, inputs, src, node)");
        return NULL;
    }
    if (!configured) {
        PyErr_SetString(PyExc_RuntimeError, "run_node before configure()");
        return NULL;
    }
    return node_step(args, NULL, 0, NULL);
}

/* ---- a plan's fast kernels (function_run._fast_kernel): a ufunc, forwarding, quiet's errstate -- */

/* NumPy's flags an array must have for a ufunc to write its result in it: C-contiguous, owning its
 * data, aligned, writeable (NPY_ARRAY_C_CONTIGUOUS | OWNDATA | ALIGNED | WRITEABLE) */
#define FORWARD_FLAGS (0x0001 | 0x0004 | 0x0100 | 0x0400)

static int fast_state;  /* 0: not looked up yet, 1: ready, -1: this NumPy has no errstate context variable */
static PyObject *extobj_var, *make_extobj, *float32_descr, *float64_descr;
static PyObject *quiet_base, *quiet_extobj;  /* the errstate quiet's was made from, and quiet's own */

static int
fast_setup(void)
{
    if (fast_state)
        return fast_state;
    PyObject *umath = PyImport_ImportModule("numpy._core.umath"), *numpy = PyImport_ImportModule("numpy");
    PyObject *dtype = numpy == NULL ? NULL : PyObject_GetAttrString(numpy, "dtype");
    if (umath != NULL && dtype != NULL) {
        extobj_var = PyObject_GetAttrString(umath, "_extobj_contextvar");
        make_extobj = extobj_var == NULL ? NULL : PyObject_GetAttrString(umath, "_make_extobj");
        float32_descr = make_extobj == NULL ? NULL : PyObject_CallFunction(dtype, "s", "float32");
        float64_descr = float32_descr == NULL ? NULL : PyObject_CallFunction(dtype, "s", "float64");
    }
    Py_XDECREF(umath);
    Py_XDECREF(numpy);
    Py_XDECREF(dtype);
    if (float64_descr == NULL || !PyContextVar_CheckExact(extobj_var)) {
        PyErr_Clear();
        Py_CLEAR(extobj_var);
        Py_CLEAR(make_extobj);
        Py_CLEAR(float32_descr);
        Py_CLEAR(float64_descr);
        return fast_state = -1;
    }
    return fast_state = 1;
}

/* np.errstate(all="ignore") entered (quiet's): the context variable's token, NULL with an exception.
 * The errstate it sets is made from the one in force (its buffer size and call), once for each */
static PyObject *
quiet_enter(void)
{
    PyObject *now;
    if (PyContextVar_Get(extobj_var, NULL, &now) < 0)
        return NULL;
    if (now == NULL || now != quiet_base) {
        PyObject *kwargs = Py_BuildValue("{s:s}", "all", "ignore"), *made = NULL, *empty = PyTuple_New(0);
        if (kwargs != NULL && empty != NULL)
            made = PyObject_Call(make_extobj, empty, kwargs);
        Py_XDECREF(kwargs);
        Py_XDECREF(empty);
        if (made == NULL) {
            Py_XDECREF(now);
            return NULL;
        }
        Py_XSETREF(quiet_base, now);  /* held: its address stays its own */
        Py_XSETREF(quiet_extobj, made);
    } else {
        Py_DECREF(now);
    }
    return PyContextVar_Set(extobj_var, quiet_extobj);
}

/* the errstate quiet_enter found, back in force; the exception being raised, if any, kept */
static void
quiet_exit(PyObject *token)
{
    SavedError saved;
    SAVE_ERROR(saved);
    if (PyContextVar_Reset(extobj_var, token) < 0)
        PyErr_WriteUnraisable(extobj_var);
    RESTORE_ERROR(saved);
    Py_DECREF(token);
}

/* whether a ufunc of `cand` and `other` may write its result into `cand` (what TF's forward_input
 * checks): one float dtype, `other` 0-d or of `cand`'s shape, and `cand` an array of at least one
 * dimension held by nothing but its tensor, the plan's list and the call (`held`: those references)
 * -- no view, no other tensor, no variable, no weak reference sees its data */
static int
forwardable(PyObject *cand, PyObject *other, Py_ssize_t held)
{
    if (!array_layout || Py_TYPE(cand) != NDArray_T || Py_TYPE(other) != NDArray_T || Py_REFCNT(cand) != held)
        return 0;
    ArrayFields *c = (ArrayFields *)cand, *o = (ArrayFields *)other;
    if (c->base != NULL || c->weakreflist != NULL || (c->flags & FORWARD_FLAGS) != FORWARD_FLAGS || c->nd < 1
            || c->descr != o->descr || (c->descr != float32_descr && c->descr != float64_descr))
        return 0;
    if (o->nd == 0)
        return 1;
    if (o->nd != c->nd)
        return 0;
    for (int i = 0; i < c->nd; i++)
        if (o->dimensions[i] != c->dimensions[i])
            return 0;
    return 1;
}

/* run_node's steps, its arguments checked; fast: NULL, or (kernel, ufunc, inner, reuse) from a plan
 * (function_run._fast_kernel): while the op's kernel is that kernel, its ufunc on its one or two
 * NumPy arrays (its result in the array of an input in `reuse` whose bit is set in `dead`:
 * planned_step found its tensor held by the run alone; *into_input: that input's position, else
 * -1), else the kernel quiet wraps (`inner`); either under quiet's errstate when `inner` is set */
static PyObject *
node_step(PyObject *const *args, PyObject *fast, unsigned dead, int *into_input)
{
    PyObject *ctx = args[0], *device = args[1], *opdef = args[2], *arrays = args[3], *attrs = args[4];
    PyObject *head = args[6], *node = args[9];
    Head h = {args[5], PyTuple_GET_ITEM(head, 0), PyTuple_GET_ITEM(head, 1), PyTuple_GET_ITEM(head, 2),
              PyTuple_GET_ITEM(head, 3), PyTuple_GET_ITEM(head, 4), args[7], args[8] == Py_None ? NULL : args[8]};
    PyObject *xp = Py_TYPE(device) == Device_T ? SLOT(device, d_xp) : NULL;
    PyObject *trace = Py_TYPE(ctx) == Context_T ? SLOT(ctx, c_trace) : NULL;
    PyObject *fn = Py_TYPE(opdef) == OpDef_T ? SLOT(opdef, o_fn) : NULL;
    PyObject *gpu_fn = fn != NULL ? SLOT(opdef, o_gpu_fn) : NULL;
    if (xp == NULL || xp == Py_None || trace == NULL || Py_TYPE(trace) != Trace_T || fn == NULL || gpu_fn != Py_None
            || !PyList_CheckExact(arrays) || PyList_GET_SIZE(arrays) == 0
            || (attrs != Py_None && !PyDict_CheckExact(attrs)) || PyList_GET_SIZE(arrays) > 15)
        return node_reference(args, &h);
    PyObject *argv[16], *out, *result = NULL;
    Py_ssize_t n = PyList_GET_SIZE(arrays);
    Py_INCREF(xp);
    Py_INCREF(fn);
    Py_INCREF(trace);
    argv[0] = xp;
    for (Py_ssize_t i = 0; i < n; i++) {  /* held: the list could change under the kernel */
        argv[i + 1] = PyList_GET_ITEM(arrays, i);
        Py_INCREF(argv[i + 1]);
    }
    int plain_call = attrs == Py_None || PyDict_GET_SIZE(attrs) == 0;
    PyObject *ufunc = NULL, *inner = NULL, *reuse = NULL;
    if (fast != NULL && PyTuple_CheckExact(fast) && PyTuple_GET_SIZE(fast) == 4 && PyTuple_GET_ITEM(fast, 0) == fn) {
        ufunc = PyTuple_GET_ITEM(fast, 1);
        inner = PyTuple_GET_ITEM(fast, 2);
        reuse = PyTuple_GET_ITEM(fast, 3);
        if (ufunc == Py_None || n > 2 || !plain_call || Py_TYPE(argv[1]) != NDArray_T
                || (n == 2 && Py_TYPE(argv[2]) != NDArray_T))
            ufunc = NULL;
        if (inner == Py_None)
            inner = NULL;
        if (inner != NULL && fast_setup() < 0)  /* no errstate to set from C: the kernel's own wrapper */
            ufunc = inner = NULL;
    }
    PyObject *into = NULL;  /* the input array the ufunc writes its result in */
    if (ufunc != NULL && dead && PyTuple_CheckExact(reuse) && fast_setup() > 0) {
        for (Py_ssize_t r = 0; r < PyTuple_GET_SIZE(reuse) && into == NULL; r++) {
            long p = PyLong_AsLong(PyTuple_GET_ITEM(reuse, r));
            if (p == -1 && PyErr_Occurred()) {
                PyErr_Clear();
                break;
            }
            if (p >= 0 && p < n && (dead & (1u << p)) && forwardable(argv[p + 1], argv[n == 2 ? 2 - p : 1], 3)) {
                into = argv[p + 1];
                *into_input = (int)p;
            }
        }
    }
    PyObject *token = NULL;  /* quiet's errstate, in force while the kernel runs */
    long long start = now_ns();
    if (inner != NULL && !(token = quiet_enter())) {
        out = NULL;
    } else if (into != NULL) {
        PyObject *uargv[] = {argv[1], n == 2 ? argv[2] : into, into};
        out = PyObject_Vectorcall(ufunc, uargv, n + 1, NULL);
    } else if (ufunc != NULL) {
        out = PyObject_Vectorcall(ufunc, argv + 1, n, NULL);
    } else if (inner != NULL) {
        out = plain_call ? PyObject_Vectorcall(inner, argv, n + 1, NULL) : PyObject_VectorcallDict(inner, argv, n + 1, attrs);
    } else {
        out = plain_call ? PyObject_Vectorcall(fn, argv, n + 1, NULL) : PyObject_VectorcallDict(fn, argv, n + 1, attrs);
    }
    if (token != NULL)
        quiet_exit(token);
    long long duration = now_ns() - start;
    for (Py_ssize_t i = 0; i < n; i++)
        Py_DECREF(argv[i + 1]);
    if (out == NULL) {
        if (PyErr_ExceptionMatches(kernel_errors))
            raise_kernel_failed(ctx, device, opdef, arrays, attrs, node, &h);
        goto done;
    }
    int contains = Py_TYPE(out) == NDArray_T ? 1 : PySet_Contains(plain, (PyObject *)Py_TYPE(out));  /* ndarray: in plain */
    if (contains < 0)
        goto done;
    if (contains) {
        int failed;
        result = plain_output(ctx, device, trace, out, &h, duration, node, &failed);
        if (result != NULL || failed)
            goto done;
    }
    {
        PyObject *rec = record(&h, N_HEAD, NULL), *dur = rec == NULL ? NULL : PyLong_FromLongLong(duration);
        if (dur != NULL) {
            PyObject *fargv[] = {ctx, device, opdef, out, rec, node, dur};
            result = PyObject_Vectorcall(finish, fargv, 7, NULL);
        }
        Py_XDECREF(rec);
        Py_XDECREF(dur);
    }
done:
    Py_XDECREF(out);
    Py_DECREF(trace);
    Py_DECREF(fn);
    Py_DECREF(xp);
    return result;
}

/* run_planned(ctx, device, values, producers, opdef, attrs, head, src, node): function_run.run's
 * planned node whole: its inputs from the run's values ({node id: Tensor or tuple of them}, each
 * producer a (node id, output index) pair), the trace's next seq, then run_node. NotImplemented,
 * before anything changed, when an input is not an eager Tensor on the node's device (the
 * reference's own lines take it). */
static PyObject *
planned_step(PyObject *const *args, PyObject *fast)
{
    PyObject *ctx = args[0], *device = args[1], *values = args[2], *producers = args[3];
    PyObject *trace = Py_TYPE(ctx) == Context_T ? SLOT(ctx, c_trace) : NULL;
    PyObject *seq_obj = trace != NULL && Py_TYPE(trace) == Trace_T ? SLOT(trace, r_seq) : NULL;
    if (seq_obj == NULL || !PyLong_CheckExact(seq_obj))
        Py_RETURN_NOTIMPLEMENTED;
    Py_ssize_t n = PyTuple_GET_SIZE(producers);
    /* the inputs the plan found dead after this node (fast's reuse), whose tensor only the run holds */
    PyObject *reuse = fast != NULL && PyTuple_CheckExact(fast) && PyTuple_GET_SIZE(fast) == 4 ? PyTuple_GET_ITEM(fast, 3)
                                                                                              : NULL;
    PyObject *callbacks = SLOT(ctx, c_op_callbacks);
    int may_reuse = reuse != NULL && PyTuple_CheckExact(reuse) && PyTuple_GET_SIZE(reuse) > 0 && n <= 2
        && callbacks != NULL && PyList_CheckExact(callbacks) && PyList_GET_SIZE(callbacks) == 0;
    unsigned dead = 0;
    PyObject *dead_tensor[2] = {NULL, NULL};
    int into_input = -1;
    PyObject *arrays = PyList_New(n), *seqs = arrays == NULL ? NULL : PyList_New(n), *result = NULL;
    if (seqs == NULL) {
        Py_XDECREF(arrays);
        return NULL;
    }
    for (Py_ssize_t k = 0; k < n; k++) {
        PyObject *producer = PyTuple_GET_ITEM(producers, k), *value;
        if (!PyTuple_CheckExact(producer) || PyTuple_GET_SIZE(producer) != 2) {
            result = Py_NewRef(Py_NotImplemented);
            goto done;
        }
        value = PyDict_GetItemWithError(values, PyTuple_GET_ITEM(producer, 0));
        if (value == NULL) {
            if (!PyErr_Occurred())
                PyErr_SetObject(PyExc_KeyError, PyTuple_GET_ITEM(producer, 0));
            goto done;
        }
        if (PyTuple_CheckExact(value)) {
            Py_ssize_t index = PyLong_AsSsize_t(PyTuple_GET_ITEM(producer, 1));
            if (index == -1 && PyErr_Occurred())
                goto done;
            if (index < 0 || index >= PyTuple_GET_SIZE(value)) {
                PyErr_SetString(PyExc_IndexError, "tuple index out of range");
                goto done;
            }
            value = PyTuple_GET_ITEM(value, index);
        } else if (may_reuse && Py_REFCNT(value) == 1) {  /* held by the run's values alone */
            for (Py_ssize_t r = 0; r < PyTuple_GET_SIZE(reuse); r++)
                if (PyLong_CheckExact(PyTuple_GET_ITEM(reuse, r)) && PyLong_AsSsize_t(PyTuple_GET_ITEM(reuse, r)) == k
                        && dead_tensor[k] == NULL) {
                    dead |= 1u << k;
                    dead_tensor[k] = Py_NewRef(value);
                }
        }
        TensorBase *t = (TensorBase *)value;
        if (Py_TYPE(value) != Tensor_T || t->device != device || t->value == NULL || t->seq == NULL) {
            result = Py_NewRef(Py_NotImplemented);
            goto done;
        }
        PyList_SET_ITEM(arrays, k, Py_NewRef(t->value));
        PyList_SET_ITEM(seqs, k, Py_NewRef(t->seq));
    }
    seq_obj = SLOT(trace, r_seq);  /* read again: the lists' allocations may have run a collection */
    long long seq_value = PyLong_AsLongLong(seq_obj);
    PyObject *seq = seq_value == -1 && PyErr_Occurred() ? NULL : PyLong_FromLongLong(seq_value + 1);
    if (seq == NULL)
        goto done;
    Py_INCREF(seq);
    Py_SETREF(SLOT(trace, r_seq), seq);  /* trace._seq = seq = trace._seq + 1 */
    PyObject *argv[] = {ctx, device, args[4], arrays, args[5], seq, args[6], seqs, args[7], args[8]};
    result = node_step(argv, fast, dead, &into_input);
    if (result != NULL && into_input >= 0) {
        /* the dead input's array is the output's now: its tensor (which no node reads again, nor the
         * call returns) lets go of it, so that the next node may write into it again */
        TensorBase *t = (TensorBase *)dead_tensor[into_input];
        Py_SETREF(t->value, Py_NewRef(Py_None));
    }
    Py_DECREF(seq);
done:
    Py_XDECREF(dead_tensor[0]);
    Py_XDECREF(dead_tensor[1]);
    Py_DECREF(arrays);
    Py_DECREF(seqs);
    return result;
}

static PyObject *
run_planned(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 9 || !PyDict_CheckExact(args[2]) || !PyTuple_CheckExact(args[3]) || !PyTuple_CheckExact(args[6])
            || PyTuple_GET_SIZE(args[6]) != 5) {
        PyErr_SetString(PyExc_TypeError, "run_planned(ctx, device, values, producers, opdef, attrs, head, src, node)");
        return NULL;
    }
    if (!configured) {
        PyErr_SetString(PyExc_RuntimeError, "run_planned before configure()");
        return NULL;
    }
    return planned_step(args, NULL);
}

/* ---- run_plan: function_run.run's loop over a placed function's plan --------------------------- */

static PyObject *s_backend, *s_from_host, *s_value_attr, *pool_exhausted;

/* the input at (node id, output index) of the run's values: borrowed; NULL with an exception */
static PyObject *
produced(PyObject *values, PyObject *producer)
{
    if (!PyTuple_CheckExact(producer) || PyTuple_GET_SIZE(producer) != 2) {
        PyErr_SetString(PyExc_TypeError, "run_plan: a producer is a (node id, output index) pair");
        return NULL;
    }
    PyObject *value = PyDict_GetItemWithError(values, PyTuple_GET_ITEM(producer, 0));
    if (value == NULL) {
        if (!PyErr_Occurred())
            PyErr_SetObject(PyExc_KeyError, PyTuple_GET_ITEM(producer, 0));
        return NULL;
    }
    if (PyTuple_CheckExact(value)) {
        Py_ssize_t index = PyLong_AsSsize_t(PyTuple_GET_ITEM(producer, 1));
        if (index == -1 && PyErr_Occurred())
            return NULL;
        if (index < 0 || index >= PyTuple_GET_SIZE(value)) {
            PyErr_SetString(PyExc_IndexError, "tuple index out of range");
            return NULL;
        }
        value = PyTuple_GET_ITEM(value, index);
    }
    return value;
}

/* trace._seq = trace._seq + 1: the new seq, or NULL with an exception */
static PyObject *
next_seq(PyObject *trace)
{
    PyObject *seq_obj = SLOT(trace, r_seq);
    long long value = seq_obj != NULL && PyLong_CheckExact(seq_obj) ? PyLong_AsLongLong(seq_obj) : -1;
    if (value == -1) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_TypeError, "run_plan: the trace's seq is not an int");
        return NULL;
    }
    PyObject *seq = PyLong_FromLongLong(value + 1);
    if (seq == NULL)
        return NULL;
    Py_INCREF(seq);
    Py_XSETREF(SLOT(trace, r_seq), seq);
    return seq;
}

/* A Const from its plan step (array, dtype, fields, node, host): function_run.run's lines for it */
static PyObject *
plan_const(PyObject *ctx, PyObject *trace, PyObject *device, PyObject *step, PyObject *call_src, PyObject *call)
{
    PyObject *array = PyTuple_GET_ITEM(step, 0), *dtype = PyTuple_GET_ITEM(step, 1);
    PyObject *fields = PyTuple_GET_ITEM(step, 2), *node = PyTuple_GET_ITEM(step, 3);
    int host = PyObject_IsTrue(PyTuple_GET_ITEM(step, 4));
    if (host < 0)
        return NULL;
    if (!PyTuple_CheckExact(fields) || PyTuple_GET_SIZE(fields) == 0) {
        PyErr_SetString(PyExc_TypeError, "run_plan: a Const's fields are a tuple");
        return NULL;
    }
    PyObject *seq = next_seq(trace), *backend = NULL, *value = NULL, *rec = NULL, *handle = NULL, *t = NULL;
    PyObject *nbytes = NULL, *shape = NULL, *name = NULL, *tag = NULL;
    if (seq == NULL)
        return NULL;
    if (!(backend = PyObject_GetAttr(device, s_backend)))
        goto done;
    {
        PyObject *argv[] = {backend, array};
        value = PyObject_VectorcallMethod(s_from_host, argv, 2 | PY_VECTORCALL_ARGUMENTS_OFFSET, NULL);
    }
    if (value == NULL) {
        if (pool_exhausted != NULL && PyErr_ExceptionMatches(pool_exhausted)) {  /* `raise oom(...) from None` */
            PyErr_Clear();
            PyObject *argv[] = {ctx, device, array, PyTuple_GET_ITEM(fields, 0), seq, dtype, node};
            PyObject *error = PyObject_Vectorcall(oom, argv, 7, NULL);
            if (error != NULL) {
                raise_returned(error);
                Py_DECREF(error);
            }
        }
        goto done;
    }
    Py_ssize_t n = PyTuple_GET_SIZE(fields);
    if (!(rec = new_record(n + 1)))
        goto done;
    Py_INCREF(seq);
    PyTuple_SET_ITEM(rec, 0, seq);
    for (Py_ssize_t k = 0; k < n; k++) {
        PyObject *item = PyTuple_GET_ITEM(fields, k);
        if (k == n - 1 && item == call)
            item = call_src;
        Py_INCREF(item);
        PyTuple_SET_ITEM(rec, k + 1, item);
    }
    PyObject_GC_Track(rec);  /* as tuple.__new__ makes it */
    if (append_record(trace, rec))
        goto done;
    if (host) {
        handle = Py_NewRef(Py_None);
    } else {
        PyObject *alloc = SLOT(device, d_allocator);
        if (alloc == NULL) {
            PyErr_SetString(PyExc_AttributeError, "allocator");
            goto done;
        }
        Py_INCREF(alloc);
        if ((nbytes = PyObject_GetAttr(value, s_nbytes)) && (shape = PyObject_GetAttr(value, s_shape))
                && (name = PyObject_GetAttr(dtype, s_name))
                && (tag = PyTuple_Pack(3, PyTuple_GET_ITEM(fields, 0), shape, name))) {
            PyObject *argv[] = {alloc, nbytes, tag};
            handle = PyObject_VectorcallMethod(s_allocate, argv, 3 | PY_VECTORCALL_ARGUMENTS_OFFSET, NULL);
        }
        Py_DECREF(alloc);
        if (handle == NULL)
            goto done;
        if (handle == Py_None) {
            PyObject *argv[] = {ctx, device, value, PyTuple_GET_ITEM(fields, 0), seq, dtype, node};
            PyObject *error = PyObject_Vectorcall(oom, argv, 7, NULL);
            if (error != NULL) {
                raise_returned(error);
                Py_DECREF(error);
            }
            goto done;
        }
    }
    if (!(t = new_tensor()))
        goto done;
    TensorBase *tb = (TensorBase *)t;
    tb->value = Py_NewRef(value);
    tb->device = Py_NewRef(device);
    tb->handle = handle;
    handle = NULL;
    tb->dtype = Py_NewRef(dtype);
    tb->seq = Py_NewRef(seq);
done:
    Py_DECREF(seq);
    Py_XDECREF(backend);
    Py_XDECREF(value);
    Py_XDECREF(rec);
    Py_XDECREF(handle);
    Py_XDECREF(nbytes);
    Py_XDECREF(shape);
    Py_XDECREF(name);
    Py_XDECREF(tag);
    return t;
}

/* A variable's read or assignment from its plan step (opdef, head, producers, attrs, reads, assigns,
 * kernel_dtype, tail, op_attrs, op_type, node): function_run._variable_op's lines for it.
 * NotImplemented, before anything changed, when _variable_op would hand it to _node. */
static PyObject *
plan_variable(PyObject *ctx, PyObject *trace, PyObject *device, PyObject *values, PyObject *step, PyObject *call_src,
              PyObject *call)
{
    PyObject *producers = PyTuple_GET_ITEM(step, 2), *head = PyTuple_GET_ITEM(step, 1);
    PyObject *tail = PyTuple_GET_ITEM(step, 7);
    int reads = PyObject_IsTrue(PyTuple_GET_ITEM(step, 4)), assigns = PyObject_IsTrue(PyTuple_GET_ITEM(step, 5));
    if (reads < 0 || assigns < 0)
        return NULL;
    PyObject *xp = SLOT(device, d_xp);
    if (!PyTuple_CheckExact(producers) || PyTuple_GET_SIZE(producers) < 1 || !PyTuple_CheckExact(head)
            || PyTuple_GET_SIZE(head) != 5 || xp == NULL || xp == Py_None
            || (tail != call && (!PyTuple_CheckExact(tail) || PyTuple_GET_SIZE(tail) == 0)))
        Py_RETURN_NOTIMPLEMENTED;
    Py_ssize_t n = PyTuple_GET_SIZE(producers);
    PyObject *variable = produced(values, PyTuple_GET_ITEM(producers, 0));
    if (variable == NULL)
        return NULL;
    Py_INCREF(variable);
    PyObject *held = PyObject_GetAttr(variable, s_value_attr), *result = NULL;
    PyObject *arrays = NULL, *seqs = NULL, *seq = NULL;
    if (held == NULL)
        goto done;
    Py_ssize_t m = reads ? n : n - 1, j = 0;
    if (!(arrays = PyList_New(m)) || !(seqs = PyList_New(m)))
        goto done;
    for (Py_ssize_t k = reads ? 0 : 1; k < n; k++, j++) {
        PyObject *value = k == 0 ? held : produced(values, PyTuple_GET_ITEM(producers, k));
        if (value == NULL)
            goto done;
        TensorBase *t = (TensorBase *)value;
        if (Py_TYPE(value) != Tensor_T || t->device != device || t->value == NULL || t->seq == NULL) {
            result = Py_NewRef(Py_NotImplemented);
            goto done;
        }
        PyList_SET_ITEM(arrays, j, Py_NewRef(t->value));
        PyList_SET_ITEM(seqs, j, Py_NewRef(t->seq));
    }
    if (!(seq = next_seq(trace)))
        goto done;
    {
        PyObject *src = tail == call ? call_src : PyTuple_GET_ITEM(tail, PyTuple_GET_SIZE(tail) - 1);
        PyObject *argv[] = {ctx, device, PyTuple_GET_ITEM(step, 0), arrays, PyTuple_GET_ITEM(step, 3), seq, head,
                            seqs, src, PyTuple_GET_ITEM(step, 10)};
        result = node_step(argv, NULL, 0, NULL);
    }
    if (result != NULL && assigns && PyObject_SetAttr(variable, s_value_attr, result) < 0)
        Py_CLEAR(result);
done:
    Py_DECREF(variable);
    Py_XDECREF(held);
    Py_XDECREF(arrays);
    Py_XDECREF(seqs);
    Py_XDECREF(seq);
    return result;
}

/* run_plan(ctx, plan, start, values, feeds, call_src, call, executed): function_run.run's loop from
 * plan[start] on, each entry (node id, op, device, step): a fed node's value, a Const, a variable's
 * read or assignment, a planned node, as its lines run them; the index of the first entry left to
 * them (a node _node runs, an input elsewhere, a gradient tape recording), len(plan) when none is.
 * executed[0] counts the nodes run (also when one fails). */
static PyObject *
run_plan(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 8 || !PyList_CheckExact(args[1]) || !PyLong_CheckExact(args[2]) || !PyDict_CheckExact(args[3])
            || !PyDict_CheckExact(args[4]) || !PyList_CheckExact(args[7]) || PyList_GET_SIZE(args[7]) != 1) {
        PyErr_SetString(PyExc_TypeError, "run_plan(ctx, plan, start, values, feeds, call_src, call, executed)");
        return NULL;
    }
    if (!configured) {
        PyErr_SetString(PyExc_RuntimeError, "run_plan before configure()");
        return NULL;
    }
    PyObject *ctx = args[0], *plan = args[1], *values = args[3], *feeds = args[4], *call_src = args[5];
    PyObject *call = args[6], *counter = args[7];
    Py_ssize_t k = PyLong_AsSsize_t(args[2]), count = 0;
    if (k < 0)
        return PyErr_Occurred() ? NULL : PyLong_FromSsize_t(k);
    PyObject *trace = Py_TYPE(ctx) == Context_T ? SLOT(ctx, c_trace) : NULL;
    if (trace == NULL || Py_TYPE(trace) != Trace_T)
        return PyLong_FromSsize_t(k);
    if (pool_exhausted == NULL) {
        PyObject *backends = PyImport_ImportModule("devtrace.runtime.backends");
        pool_exhausted = backends == NULL ? NULL : PyObject_GetAttrString(backends, "PoolExhausted");
        Py_XDECREF(backends);
        if (pool_exhausted == NULL || (!s_backend && (intern(&s_backend, "backend") || intern(&s_from_host, "from_host")
                                                       || intern(&s_value_attr, "_value"))))
            return NULL;
    }
    Py_INCREF(trace);
    int failed = 0;
    for (; k < PyList_GET_SIZE(plan); k++) {
        PyObject *entry = PyList_GET_ITEM(plan, k);
        if (!PyTuple_CheckExact(entry) || PyTuple_GET_SIZE(entry) != 4)
            break;
        Py_INCREF(entry);
        PyObject *i = PyTuple_GET_ITEM(entry, 0), *device = PyTuple_GET_ITEM(entry, 2);
        PyObject *step = PyTuple_GET_ITEM(entry, 3), *out = NULL;
        PyObject *fed = PyDict_GetItemWithError(feeds, i);
        int stop = 0;
        if (fed != NULL) {
            failed = PyDict_SetItem(values, i, fed) < 0;
        } else if (PyErr_Occurred()) {
            failed = 1;
        } else if (device == Py_None) {  /* a placeholder nothing fed */
        } else if (step == Py_None || !PyTuple_CheckExact(step) || Py_TYPE(device) != Device_T
                   || SLOT(ctx, c_trace) != trace) {
            stop = 1;
        } else {
            PyObject *tapes = SLOT(ctx, c_tapes);
            Py_ssize_t size = PyTuple_GET_SIZE(step);
            if (tapes == NULL || !PyList_CheckExact(tapes) || PyList_GET_SIZE(tapes)) {
                stop = size != 5;  /* a Const is recorded on no tape */
            }
            if (stop) {
            } else if (size == 5) {
                out = plan_const(ctx, trace, device, step, call_src, call);
            } else if (size == 11) {
                out = plan_variable(ctx, trace, device, values, step, call_src, call);
            } else if (size == 8) {
                PyObject *tail = PyTuple_GET_ITEM(step, 6), *head = PyTuple_GET_ITEM(step, 1);
                if (!PyTuple_CheckExact(PyTuple_GET_ITEM(step, 2)) || !PyTuple_CheckExact(head)
                        || PyTuple_GET_SIZE(head) != 5 || (tail != call && (!PyTuple_CheckExact(tail)
                                                                            || PyTuple_GET_SIZE(tail) == 0))) {
                    stop = 1;
                } else {
                    PyObject *src = tail == call ? call_src : PyTuple_GET_ITEM(tail, PyTuple_GET_SIZE(tail) - 1);
                    PyObject *argv[] = {ctx, device, values, PyTuple_GET_ITEM(step, 2), PyTuple_GET_ITEM(step, 0),
                                        PyTuple_GET_ITEM(step, 3), head, src, PyTuple_GET_ITEM(step, 5)};
                    out = planned_step(argv, PyTuple_GET_ITEM(step, 7));
                }
            } else {
                stop = 1;
            }
            if (!stop) {
                if (out == NULL) {
                    failed = 1;
                } else if (out == Py_NotImplemented) {
                    Py_DECREF(out);
                    stop = 1;
                } else {
                    failed = PyDict_SetItem(values, i, out) < 0;
                    Py_DECREF(out);
                    count += !failed;
                }
            }
        }
        Py_DECREF(entry);
        if (failed || stop)
            break;
    }
    Py_DECREF(trace);
    if (count) {
        PyObject *before = PyList_GET_ITEM(counter, 0), *after;
        PyObject *add = PyLong_FromSsize_t(count);
        after = add == NULL ? NULL : PyNumber_Add(before, add);
        Py_XDECREF(add);
        if (after == NULL)
            return NULL;
        PyList_SetItem(counter, 0, after);
    }
    return failed ? NULL : PyLong_FromSsize_t(k);
}

/* ---- where an op came from (runtime/sources.py's `here`, in C) ------------------------------- */

static int sources_on;  /* set_sources(): each op's record holds the program's line that made it */
static PyObject *src_kinds, *src_kind_of, *src_resolve;  /* sources.KINDS, kind_of, resolve */
enum { KIND_SKIP, KIND_USER, KIND_LAUNCHER };  /* sources.SKIP, USER, LAUNCHER */

/* The call sites seen: (code, bytecode offset) -> "path:line", an open-addressing table keyed by
 * the code's address (each code held, so that its address stays its own); cleared past MAX_SITES. */
typedef struct {
    PyObject *code;
    int lasti;
    PyObject *src;
} Site;
static Site *sites;
static size_t sites_mask, sites_used;
#define MAX_SITES 65536

static size_t
site_hash(PyObject *code, int lasti)
{
    size_t h = ((size_t)code >> 4) ^ ((size_t)(unsigned)lasti * (size_t)0x9E3779B97F4A7C15ull);
    return h ^ (h >> 29);
}

static PyObject *
site_find(PyObject *code, int lasti)  /* borrowed, or NULL */
{
    if (sites == NULL)
        return NULL;
    for (size_t i = site_hash(code, lasti) & sites_mask; sites[i].code != NULL; i = (i + 1) & sites_mask)
        if (sites[i].code == code && sites[i].lasti == lasti)
            return sites[i].src;
    return NULL;
}

static void
site_insert(Site *table, size_t mask, Site site)
{
    size_t i = site_hash(site.code, site.lasti) & mask;
    while (table[i].code != NULL)
        i = (i + 1) & mask;
    table[i] = site;
}

static void
sites_clear(void)
{
    Site *old = sites;
    size_t n = old == NULL ? 0 : sites_mask + 1;
    sites = NULL;
    sites_mask = sites_used = 0;
    for (size_t i = 0; i < n; i++) {
        Py_XDECREF(old[i].code);
        Py_XDECREF(old[i].src);
    }
    PyMem_Free(old);
}

static int
site_add(PyObject *code, int lasti, PyObject *src)
{
    if (sites_used >= MAX_SITES)
        sites_clear();
    if (sites == NULL || (sites_used + 1) * 2 > sites_mask + 1) {  /* at most half full */
        size_t n = sites == NULL ? 1024 : (sites_mask + 1) * 2;
        Site *table = PyMem_Calloc(n, sizeof(Site));
        if (table == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        for (size_t i = 0; sites != NULL && i <= sites_mask; i++)
            if (sites[i].code != NULL)
                site_insert(table, n - 1, sites[i]);
        PyMem_Free(sites);
        sites = table;
        sites_mask = n - 1;
    }
    Py_INCREF(code);
    Py_INCREF(src);
    site_insert(sites, sites_mask, (Site){code, lasti, src});
    sites_used++;
    return 0;
}

/* What frames of `code` are (sources.kind_of of its file), remembered in the sites' table at
 * offset KIND_SITE (a dictionary lookup by file name costs as much as the rest of the walk); -1 with
 * an exception set on a failure. */
#define KIND_SITE INT_MIN
static long
code_kind(PyCodeObject *code)
{
    PyObject *kind_obj = site_find((PyObject *)code, KIND_SITE);
    if (kind_obj != NULL)
        return PyLong_AsLong(kind_obj);
    kind_obj = PyDict_GetItemWithError(src_kinds, code->co_filename);
    if (kind_obj != NULL)
        Py_INCREF(kind_obj);
    else if (PyErr_Occurred() || !(kind_obj = PyObject_CallOneArg(src_kind_of, code->co_filename)))
        return -1;
    long kind = PyLong_AsLong(kind_obj);
    if (!(kind == -1 && PyErr_Occurred()) && site_add((PyObject *)code, KIND_SITE, kind_obj) < 0)
        kind = -1;
    Py_DECREF(kind_obj);
    return kind;
}

/* The src of a new site, a frame of the program at `lasti` in `code` on line `line`: made by
 * sources.resolve and remembered (the line is looked up only then: it reads the code's line table).
 * A new reference; NULL on a failure. */
static PyObject *
site_new(PyCodeObject *code, int lasti, int line)
{
    PyObject *src, *number = PyLong_FromLong(line);
    PyObject *argv[] = {code->co_filename, number};
    src = number == NULL ? NULL : PyObject_Vectorcall(src_resolve, argv, 2, NULL);
    Py_XDECREF(number);
    if (src != NULL && site_add((PyObject *)code, lasti, src) < 0)
        Py_CLEAR(src);
    return src;
}

/* The src of the op the running Python code is making: the innermost frame of the program (a new
 * reference: its "path:line", or None; NULL on a failure). Frames are walked from the caller of
 * execute_binary until the first of the program's; what a file's frames are and a new site's text
 * come from sources.py. The code objects read are held by their frames, which outlive the walk
 * (nothing called from it pops a frame). */
static PyObject *
caller_source(void)
{
#ifdef INTERPRETER_FRAMES
    for (_PyInterpreterFrame *f = PyThreadState_Get()->cframe->current_frame; f != NULL; f = f->previous) {
        if (_PyFrame_IsIncomplete(f))
            continue;
        PyCodeObject *code = f->f_code;
        long kind = code_kind(code);
        if (kind == -1 && PyErr_Occurred())
            return NULL;
        if (kind == KIND_USER) {
            int lasti = _PyInterpreterFrame_LASTI(f);
            PyObject *src = site_find((PyObject *)code, lasti);
            if (src != NULL) {
                Py_INCREF(src);
                return src;
            }
            return site_new(code, lasti, PyCode_Addr2Line(code, lasti * (int)sizeof(_Py_CODEUNIT)));
        }
        if (kind == KIND_LAUNCHER)
            break;
    }
    Py_RETURN_NONE;
#else
    PyFrameObject *f = PyEval_GetFrame();
    Py_XINCREF(f);
    while (f != NULL) {
        PyCodeObject *code = PyFrame_GetCode(f);
        long kind = code_kind(code);
        PyObject *src = NULL;
        if (kind == KIND_USER) {
#if PY_VERSION_HEX >= 0x030B0000
            int lasti = PyFrame_GetLasti(f);
#else
            int lasti = f->f_lasti;
#endif
            src = site_find((PyObject *)code, lasti);
            if (src != NULL)
                Py_INCREF(src);
            else
                src = site_new(code, lasti, PyFrame_GetLineNumber(f));
        }
        if (kind == KIND_USER || (kind == -1 && PyErr_Occurred())) {
            Py_DECREF(code);
            Py_DECREF(f);
            return src;
        }
        Py_DECREF(code);
        PyFrameObject *back = kind == KIND_LAUNCHER ? NULL : PyFrame_GetBack(f);
        Py_DECREF(f);
        f = back;
    }
    Py_RETURN_NONE;
#endif
}

static PyObject *placed_op(PyObject *op_name, TensorBase *tx, TensorBase *ty, PyObject *name, PyObject *dtype,
                           PyObject *src, PyObject *public_fn);

/* every case but the common one: execute(op_name, (x, y), None, name, dtype), or for an OpFunction's call
 * public_fn(x, y), the op's public function (which calls execute_binary, and it execute) */
static PyObject *
not_common(PyObject *op_name, PyObject *x, PyObject *y, PyObject *name, PyObject *dtype, PyObject *public_fn)
{
    if (public_fn == NULL)
        return slow(op_name, x, y, name, dtype);
    PyObject *argv[] = {x, y};
    return PyObject_Vectorcall(public_fn, argv, 2, NULL);
}

/* execute_binary once x and y are eager Tensors and dtype is held: the op's src when sources are on,
 * then placed_op */
static PyObject *
place_op(PyObject *op_name, TensorBase *tx, TensorBase *ty, PyObject *name, PyObject *dtype, PyObject *public_fn)
{
    if (!sources_on || threaded)  /* (threads: execute() finds it, under the run's lock) */
        return placed_op(op_name, tx, ty, name, dtype, NULL, public_fn);
    PyObject *src = caller_source();
    if (src == NULL)
        return NULL;
    PyObject *out = placed_op(op_name, tx, ty, name, dtype, src, public_fn);
    Py_DECREF(src);
    return out;
}

/* the placement cache's answer, the checks of the reference, then run_op or execute() */
static PyObject *
placed_op(PyObject *op_name, TensorBase *tx, TensorBase *ty, PyObject *name, PyObject *dtype, PyObject *src,
          PyObject *public_fn)
{
    PyObject *x = (PyObject *)tx, *y = (PyObject *)ty;
    PyObject *ctx = current_context();
    if (ctx == NULL && PyErr_Occurred())
        return NULL;
    if (ctx == NULL || Py_TYPE(ctx) != Context_T || SLOT(ctx, c_initialized_by) == NULL
            || SLOT(ctx, c_initialized_by) == Py_None || SLOT(ctx, c_eager) != Py_True
            || SLOT(ctx, c_threaded) != Py_False)
        return not_common(op_name, x, y, name, dtype, public_fn);
    PyObject *tapes = SLOT(ctx, c_tapes), *cache = SLOT(ctx, c_placement_cache), *scope = SLOT(ctx, c_scope);
    PyObject *soft = SLOT(ctx, c_soft_placement), *callbacks = SLOT(ctx, c_op_callbacks);
    if (tapes == NULL || !PyList_CheckExact(tapes) || PyList_GET_SIZE(tapes) || callbacks == NULL
            || !PyList_CheckExact(callbacks) || PyList_GET_SIZE(callbacks) || cache == NULL
            || !PyDict_CheckExact(cache) || scope == NULL || soft == NULL)
        return not_common(op_name, x, y, name, dtype, public_fn);
    Py_INCREF(ctx);
    PyObject *hit = placement_lookup(cache, op_name, dtype, scope, soft);
    if (hit == NULL && PyErr_Occurred()) {
        Py_DECREF(ctx);
        return NULL;
    }
    /* device and reason are held by hit (a tuple); the rest is held before anything is made */
    PyObject *trace = SLOT(ctx, c_trace), *device = hit != NULL && PyTuple_CheckExact(hit) && PyTuple_GET_SIZE(hit) >= 2
        ? PyTuple_GET_ITEM(hit, 0) : NULL;
    PyObject *xp = device != NULL && Py_TYPE(device) == Device_T ? SLOT(device, d_xp) : NULL;
    PyObject *listeners = trace != NULL && Py_TYPE(trace) == Trace_T ? SLOT(trace, r_listeners) : NULL;
    PyObject *seq_obj = listeners != NULL ? SLOT(trace, r_seq) : NULL, *device_name = xp ? SLOT(device, d_name) : NULL;
    scope = SLOT(ctx, c_scope);
    if (xp == NULL || tx->device != device || ty->device != device || ty->dtype != dtype || tx->dtype != dtype
            || xp == Py_None || listeners == NULL || !PyList_CheckExact(listeners) || PyList_GET_SIZE(listeners)
            || seq_obj == NULL || !PyLong_CheckExact(seq_obj) || device_name == NULL || scope == NULL) {
        Py_XDECREF(hit);
        Py_DECREF(ctx);
        return not_common(op_name, x, y, name, dtype, public_fn);
    }
    Py_INCREF(trace);
    Py_INCREF(xp);
    Py_INCREF(scope);
    Py_INCREF(device_name);
    /* from here on the op has its seq: it runs, or fails as the reference fails. The seq is read and
     * written with nothing made between but the int (not a tracked object: no collection runs). */
    long long seq_value = PyLong_AsLongLong(seq_obj) + 1;
    PyObject *seq = seq_value == 0 && PyErr_Occurred() ? NULL : PyLong_FromLongLong(seq_value), *result = NULL;
    if (seq != NULL) {
        Py_INCREF(seq);
        Py_SETREF(SLOT(trace, r_seq), seq);
        Head h = {seq, op_name, name, scope, device_name, PyTuple_GET_ITEM(hit, 1), NULL, src};
        result = run_op(ctx, device, trace, xp, &h, seq_value, tx, ty);
        Py_DECREF(seq);
    }
    Py_DECREF(scope);
    Py_DECREF(device_name);
    Py_DECREF(xp);
    Py_DECREF(trace);
    Py_DECREF(hit);
    Py_DECREF(ctx);
    return result;
}

static PyObject *
execute_binary(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs < 3 || nargs > 5) {
        PyErr_SetString(PyExc_TypeError, "execute_binary(op_name, x, y, name=None, dtype=None)");
        return NULL;
    }
    PyObject *op_name = args[0], *x = args[1], *y = args[2];
    PyObject *name = nargs > 3 ? args[3] : Py_None;
    PyObject *dtype = nargs > 4 ? args[4] : Py_None;
    if (!configured) {
        PyErr_SetString(PyExc_RuntimeError, "execute_binary before configure()");
        return NULL;
    }
    if (Py_TYPE(x) != Tensor_T || Py_TYPE(y) != Tensor_T) {  /* not an eager Tensor: x._dtype as the reference reads it */
        if (dtype != Py_None)
            return slow(op_name, x, y, name, dtype);
        PyObject *x_dtype = PyObject_GetAttr(x, s_x_dtype);
        if (x_dtype == NULL)
            return NULL;
        PyObject *out = slow(op_name, x, y, name, x_dtype);
        Py_DECREF(x_dtype);
        return out;
    }
    TensorBase *tx = (TensorBase *)x, *ty = (TensorBase *)y;
    if (tx->dtype == NULL || ty->dtype == NULL || tx->value == NULL || ty->value == NULL || tx->seq == NULL
            || ty->seq == NULL) {
        PyErr_SetString(PyExc_AttributeError, "_dtype");  /* a Tensor made without its slots */
        return NULL;
    }
    if (dtype == Py_None)
        dtype = tx->dtype;
    Py_INCREF(dtype);  /* x._dtype: held, as the reference's local holds it */
    PyObject *out = place_op(op_name, tx, ty, name, dtype, NULL);
    Py_DECREF(dtype);
    return out;
}

/* ---- OpFunction: a binary op's public function, its common case without a Python frame ------ */

/* tf.add, tf.math.subtract …: the op's public function `fn` (declare.binary's, math_ops.add), whose
 * common call -- two eager Tensors, no name -- runs execute_binary's steps without fn's frame;
 * every other call, and every case execute_binary hands to execute(), is fn's own. Every attribute
 * (its name, doc, signature, __class__: isinstance sees a function) is fn's, so the object is fn
 * to whoever looks at it, and pickles and copies as fn would (by its qualified name). */
typedef struct {
    PyObject_HEAD
    vectorcallfunc vectorcall;
    PyObject *fn;  /* the public function */
    PyObject *op_name;
    PyObject *fixed;  /* the one dtype of an op without a T attr (LogicalAnd: bool), else None */
    PyObject *other;  /* an x dtype whose op is another one, left to fn (add: string, Add), else None */
    PyObject *weakrefs;
} OpFunction;

static int op_functions = 1;  /* set_op_functions(): off, each call is fn's (tests run fn's reference) */

static PyObject *
opfn_vectorcall(OpFunction *self, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    if (op_functions && configured && kwnames == NULL && (nargs == 2 || (nargs == 3 && args[2] == Py_None))
            && Py_TYPE(args[0]) == Tensor_T && Py_TYPE(args[1]) == Tensor_T) {
        TensorBase *tx = (TensorBase *)args[0], *ty = (TensorBase *)args[1];
        if (tx->dtype != NULL && ty->dtype != NULL && tx->value != NULL && ty->value != NULL && tx->seq != NULL
                && ty->seq != NULL && tx->dtype != self->other) {
            PyObject *dtype = self->fixed != Py_None ? self->fixed : tx->dtype;
            Py_INCREF(dtype);  /* as execute_binary holds it */
            PyObject *out = place_op(self->op_name, tx, ty, Py_None, dtype, self->fn);
            Py_DECREF(dtype);
            return out;
        }
    }
    return PyObject_Vectorcall(self->fn, args, nargsf, kwnames);
}

static PyObject *
opfn_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    PyObject *fn, *op_name, *fixed = Py_None, *other = Py_None;
    static char *keywords[] = {"fn", "op_name", "fixed", "other", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OU|OO:OpFunction", keywords, &fn, &op_name, &fixed, &other))
        return NULL;
    if (!PyCallable_Check(fn)) {
        PyErr_SetString(PyExc_TypeError, "OpFunction(fn, op_name, fixed=None, other=None): fn must be callable");
        return NULL;
    }
    OpFunction *self = (OpFunction *)type->tp_alloc(type, 0);
    if (self == NULL)
        return NULL;
    self->vectorcall = (vectorcallfunc)opfn_vectorcall;
    Py_INCREF(fn);
    self->fn = fn;
    Py_INCREF(op_name);
    PyUnicode_InternInPlace(&op_name);  /* the registry's key: found by identity */
    self->op_name = op_name;
    Py_INCREF(fixed);
    self->fixed = fixed;
    Py_INCREF(other);
    self->other = other;
    return (PyObject *)self;
}

static int
opfn_traverse(OpFunction *self, visitproc visit, void *arg)
{
    Py_VISIT(self->fn);
    Py_VISIT(self->fixed);
    Py_VISIT(self->other);
    return 0;
}

static int
opfn_clear(OpFunction *self)
{
    Py_CLEAR(self->fn);
    Py_CLEAR(self->fixed);
    Py_CLEAR(self->other);
    return 0;
}

static void
opfn_dealloc(OpFunction *self)
{
    PyObject_GC_UnTrack(self);
    if (self->weakrefs != NULL)
        PyObject_ClearWeakRefs((PyObject *)self);
    opfn_clear(self);
    Py_CLEAR(self->op_name);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* as fn is reduced by pickle and copy: a global, by its qualified name (in its __module__) */
static PyObject *
opfn_reduce(OpFunction *self, PyObject *unused)
{
    if (self->fn == NULL) {
        PyErr_SetString(PyExc_TypeError, "a cleared OpFunction");
        return NULL;
    }
    return PyObject_GetAttrString(self->fn, "__qualname__");
}

static PyMethodDef opfn_methods[] = {
    {"__reduce__", (PyCFunction)opfn_reduce, METH_NOARGS, NULL},
    {"__reduce_ex__", (PyCFunction)opfn_reduce, METH_O, NULL},
    {NULL, NULL, 0, NULL},
};

static PyObject *
opfn_getattro(OpFunction *self, PyObject *name)
{
    if (PyUnicode_Check(name) && (PyUnicode_CompareWithASCIIString(name, "__reduce_ex__") == 0
                                  || PyUnicode_CompareWithASCIIString(name, "__reduce__") == 0))
        return PyObject_GenericGetAttr((PyObject *)self, name);
    if (self->fn == NULL) {
        PyErr_SetObject(PyExc_AttributeError, name);
        return NULL;
    }
    return PyObject_GetAttr(self->fn, name);
}

static int
opfn_setattro(OpFunction *self, PyObject *name, PyObject *value)
{
    if (self->fn == NULL) {
        PyErr_SetObject(PyExc_AttributeError, name);
        return -1;
    }
    return PyObject_SetAttr(self->fn, name, value);
}

static PyObject *
opfn_repr(OpFunction *self)
{
    return self->fn == NULL ? PyUnicode_FromString("<OpFunction>") : PyObject_Repr(self->fn);
}

/* bound as a function is, on an instance (a class attribute: a method) */
static PyObject *
opfn_get(PyObject *self, PyObject *obj, PyObject *type)
{
    if (obj == NULL || obj == Py_None) {
        Py_INCREF(self);
        return self;
    }
    return PyMethod_New(self, obj);
}

/* named "function", as type(tf.add) prints under TensorFlow (<class 'function'>); the module exports it as OpFunction */
static PyTypeObject OpFunction_T = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "function",
    .tp_doc = "OpFunction(fn, op_name, fixed=None, other=None): fn, a binary op's public function, whose common call "
              "(two eager Tensors, no name) runs without fn's frame (see _fastpath.c)",
    .tp_basicsize = sizeof(OpFunction),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL | Py_TPFLAGS_METHOD_DESCRIPTOR,
    .tp_vectorcall_offset = offsetof(OpFunction, vectorcall),
    .tp_call = PyVectorcall_Call,
    .tp_new = opfn_new,
    .tp_traverse = (traverseproc)opfn_traverse,
    .tp_clear = (inquiry)opfn_clear,
    .tp_dealloc = (destructor)opfn_dealloc,
    .tp_getattro = (getattrofunc)opfn_getattro,
    .tp_setattro = (setattrofunc)opfn_setattro,
    .tp_repr = (reprfunc)opfn_repr,
    .tp_descr_get = opfn_get,
    .tp_weaklistoffset = offsetof(OpFunction, weakrefs),
    .tp_methods = opfn_methods,
};

static PyObject *
set_op_functions(PyObject *self, PyObject *flag)
{
    int on = PyObject_IsTrue(flag);
    if (on < 0)
        return NULL;
    op_functions = on;
    Py_RETURN_NONE;
}

static PyObject *
set_sources(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 4 || !PyDict_CheckExact(args[1]) || !PyCallable_Check(args[2]) || !PyCallable_Check(args[3])) {
        PyErr_SetString(PyExc_TypeError, "set_sources(flag, kinds: dict, kind_of, resolve)");
        return NULL;
    }
    int on = PyObject_IsTrue(args[0]);
    if (on < 0)
        return NULL;
    Py_INCREF(args[1]);
    Py_XSETREF(src_kinds, args[1]);
    Py_INCREF(args[2]);
    Py_XSETREF(src_kind_of, args[2]);
    Py_INCREF(args[3]);
    Py_XSETREF(src_resolve, args[3]);
    sources_on = on;
    sites_clear();  /* the roots paths are shown relative to may have changed */
    Py_RETURN_NONE;
}

static PyObject *
set_threaded(PyObject *self, PyObject *flag)
{
    int on = PyObject_IsTrue(flag);
    if (on < 0)
        return NULL;
    threaded = on;
    Py_RETURN_NONE;
}

/* ---- the C library's math, elementwise (ops/math/libm.py) --------------------------------------- */

static PyObject *
libm_map(PyObject *self, PyObject *args)
{
    int code;
    Py_buffer in, out;
    if (!PyArg_ParseTuple(args, "iy*w*", &code, &in, &out))
        return NULL;
    int dbl = code >= 3;
    Py_ssize_t item = dbl ? (Py_ssize_t)sizeof(double) : (Py_ssize_t)sizeof(float);
    if (code < 0 || code > 5 || in.len != out.len || in.len % item) {
        PyBuffer_Release(&in);
        PyBuffer_Release(&out);
        PyErr_SetString(PyExc_ValueError, "libm_map(code 0-5, in, out): buffers of one size, float32 (0-2) or float64 (3-5)");
        return NULL;
    }
    Py_ssize_t n = in.len / item;
    Py_BEGIN_ALLOW_THREADS
    if (dbl) {
        const double *x = (const double *)in.buf;
        double *y = (double *)out.buf;
        for (Py_ssize_t i = 0; i < n; i++)
            y[i] = code == 3 ? log(x[i]) : code == 4 ? sin(x[i]) : cos(x[i]);
    } else {
        const float *x = (const float *)in.buf;
        float *y = (float *)out.buf;
        for (Py_ssize_t i = 0; i < n; i++)
            y[i] = code == 0 ? logf(x[i]) : code == 1 ? sinf(x[i]) : cosf(x[i]);
    }
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&in);
    PyBuffer_Release(&out);
    Py_RETURN_NONE;
}

/* ---- Philox-4x32-10 (ops/random/philox.py) -------------------------------------------------- */

static PyObject *
philox_blocks(PyObject *self, PyObject *args)
{
    unsigned long long key, lo0, hi0;
    Py_buffer idx, out;
    if (!PyArg_ParseTuple(args, "KKKy*w*", &key, &lo0, &hi0, &idx, &out))
        return NULL;
    Py_ssize_t n = idx.len / (Py_ssize_t)sizeof(uint64_t);
    if (idx.len % (Py_ssize_t)sizeof(uint64_t) || out.len != n * 4 * (Py_ssize_t)sizeof(uint32_t)) {
        PyBuffer_Release(&idx);
        PyBuffer_Release(&out);
        PyErr_SetString(PyExc_ValueError, "philox_blocks(key, lo, hi, idx uint64[n], out uint32[n, 4])");
        return NULL;
    }
    const uint64_t *ix = (const uint64_t *)idx.buf;
    uint32_t *y = (uint32_t *)out.buf;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t i = 0; i < n; i++) {
        uint64_t lo = (uint64_t)lo0 + ix[i], hi = (uint64_t)hi0 + (lo < ix[i]);
        uint32_t c0 = (uint32_t)lo, c1 = (uint32_t)(lo >> 32), c2 = (uint32_t)hi, c3 = (uint32_t)(hi >> 32);
        uint32_t k0 = (uint32_t)key, k1 = (uint32_t)(key >> 32);
        for (int r = 0; r < 10; r++) {
            uint64_t p0 = (uint64_t)0xD2511F53u * c0, p1 = (uint64_t)0xCD9E8D57u * c2;
            uint32_t n0 = (uint32_t)(p1 >> 32) ^ c1 ^ k0, n2 = (uint32_t)(p0 >> 32) ^ c3 ^ k1;
            c1 = (uint32_t)p1;
            c3 = (uint32_t)p0;
            c0 = n0;
            c2 = n2;
            k0 += 0x9E3779B9u;
            k1 += 0xBB67AE85u;
        }
        y[4 * i] = c0;
        y[4 * i + 1] = c1;
        y[4 * i + 2] = c2;
        y[4 * i + 3] = c3;
    }
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&idx);
    PyBuffer_Release(&out);
    Py_RETURN_NONE;
}

static PyObject *
box_muller_f32(PyObject *self, PyObject *args)
{
    Py_buffer in, out;
    if (!PyArg_ParseTuple(args, "y*w*", &in, &out))
        return NULL;
    Py_ssize_t n = in.len / (Py_ssize_t)sizeof(uint32_t);
    if (in.len % (Py_ssize_t)(2 * sizeof(uint32_t)) || out.len != n * (Py_ssize_t)sizeof(float)) {
        PyBuffer_Release(&in);
        PyBuffer_Release(&out);
        PyErr_SetString(PyExc_ValueError, "box_muller_f32(words uint32[2n], out float32[2n])");
        return NULL;
    }
    const uint32_t *x = (const uint32_t *)in.buf;
    float *y = (float *)out.buf;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t i = 0; i < n; i += 2) {
        union { uint32_t u; float f; } a = {(x[i] & 0x7FFFFFu) | 0x3F800000u}, b = {(x[i + 1] & 0x7FFFFFu) | 0x3F800000u};
        float u1 = a.f - 1.0f, u2 = b.f - 1.0f;
        if (u1 < 1.0e-7f)
            u1 = 1.0e-7f;
        float theta = (float)(2.0 * M_PI * (double)u2);
        float radius = sqrtf(-2.0f * logf(u1));
        y[i] = sinf(theta) * radius;
        y[i + 1] = cosf(theta) * radius;
    }
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&in);
    PyBuffer_Release(&out);
    Py_RETURN_NONE;
}

/* ---- the module ----------------------------------------------------------------------------- */

static PyMethodDef methods[] = {
    {"configure", (PyCFunction)(void (*)(void))configure, METH_VARARGS | METH_KEYWORDS,
     "configure(**classes_and_functions): the classes whose slots the hot path reads and the Python functions "
     "it hands every other case to (runtime/eager/executor.py calls it once)"},
    {"set_release", set_release, METH_O,
     "set_release(fn): fn(tensor) frees a tensor's allocation when the host's counters cannot (tensor.py)"},
    {"set_sources", (PyCFunction)(void (*)(void))set_sources, METH_FASTCALL,
     "set_sources(flag, kinds, kind_of, resolve): each op's record holds the program's line that made it "
     "(runtime/sources.py)"},
    {"set_op_functions", set_op_functions, METH_O,
     "set_op_functions(flag): off, an OpFunction's every call is its Python function's (the tests of the reference)"},
    {"set_threaded", set_threaded, METH_O,
     "set_threaded(flag): ops run from several threads: every op and every free takes the Python path, "
     "which holds the run's lock (runtime/threads.py)"},
    {"configure_bfc", (PyCFunction)(void (*)(void))configure_bfc, METH_VARARGS | METH_KEYWORDS, CONFIGURE_BFC_DOC},
    {"execute_binary", (PyCFunction)(void (*)(void))execute_binary, METH_FASTCALL,
     "execute_binary(op_name, x, y, name=None, dtype=None): executor._execute_binary in C"},
    {"run_planned", (PyCFunction)(void (*)(void))run_planned, METH_FASTCALL,
     "run_planned(ctx, device, values, producers, opdef, attrs, head, src, node): a planned node of "
     "graph/function_run.py whole (its inputs, its seq, run_node); NotImplemented for the reference's lines"},
    {"run_plan", (PyCFunction)(void (*)(void))run_plan, METH_FASTCALL,
     "run_plan(ctx, plan, start, values, feeds, call_src, call, executed): graph/function_run.py's loop over a "
     "placed function's plan from start; the index of the first entry left to its Python lines"},
    {"run_node", (PyCFunction)(void (*)(void))run_node, METH_FASTCALL,
     "run_node(ctx, device, opdef, arrays, attrs, seq, head, inputs, src, node): execution.run_step for a "
     "function graph's node in C (graph/function_run.py)"},
    {"libm_map", libm_map, METH_VARARGS,
     "libm_map(code, x, out): out = logf/sinf/cosf (0-2, float32) or log/sin/cos (3-5, float64) of x, elementwise"},
    {"philox_blocks", philox_blocks, METH_VARARGS,
     "philox_blocks(key, lo, hi, idx, out): out[i] = Philox-4x32-10 of the 128-bit counter (hi, lo) + idx[i] under key"},
    {"box_muller_f32", box_muller_f32, METH_VARARGS,
     "box_muller_f32(words, out): TensorFlow's BoxMullerFloat over pairs of Philox words, with logf/sinf/cosf"},
    {"max_pool", max_pool, METH_VARARGS,
     "max_pool(x, out, n, h, w, c, kh, kw, sh, sw, oh, ow, itemsize[, threads]): MaxPool's unpadded windows, each one's "
     "running maximum as NumPy's in window-offset order (ops/nn/nn_impl.py)"},
    {"max_pool_grad", max_pool_grad, METH_VARARGS,
     "max_pool_grad(x, grad, out, n, h, w, c, kh, kw, sh, sw, oh, ow, itemsize[, threads]): MaxPoolGrad's windows that do not "
     "overlap, each one's gradient added onto its first maximum (ops/nn/nn_grad.py)"},
    {"col2im", col2im, METH_VARARGS,
     "col2im(cols, out, n, h, w, c, kh, kw, sh, sw, oh, ow, itemsize): each element of out the sum of its windows' "
     "entries of cols (n, oh, ow, kh, kw, c), in window-offset order (ops/nn/nn_grad.py)"},
    {"relu", relu, METH_VARARGS, "relu(x, out, itemsize[, threads]): out = maximum(x, 0) as NumPy's (ops/nn/nn_ops.py)"},
    {"relu_grad", relu_grad, METH_VARARGS,
     "relu_grad(dy, y, out, itemsize[, threads]): out = dy * (y > 0) in dy's type (ops/nn/dense_grad.py)"},
    {"im2col", im2col, METH_VARARGS,
     "im2col(x, cols, n, h, w, c, kh, kw, sh, sw, oh, ow, itemsize, b0, nb, r0, nr): the windows' matrix "
     "(positions, kh * kw * c) of images b0 .. b0 + nb, output rows r0 .. r0 + nr of a padded x (ops/nn/nn_impl.py)"},
    {"bias_add", bias_add, METH_VARARGS,
     "bias_add(x, bias, out, itemsize[, threads]): out = x + bias, bias along x's last axis (ops/nn/nn_impl.py)"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_fastpath", "The runtime's per-op hot path in C (see runtime/_fastpath.c).", -1, methods,
};

PyMODINIT_FUNC
PyInit__fastpath(void)
{
    if (PyType_Ready(&TensorBase_T) < 0 || PyType_Ready(&HostBase_T) < 0 || PyType_Ready(&BFCBase_T) < 0 || PyType_Ready(&OpFunction_T) < 0)
        return NULL;
    PyObject *m = PyModule_Create(&module);
    if (m == NULL)
        return NULL;
    if (PyModule_AddIntConstant(m, "ABI", FASTPATH_ABI) < 0
            || PyModule_AddObjectRef(m, "TensorBase", (PyObject *)&TensorBase_T) < 0
            || PyModule_AddObjectRef(m, "HostBase", (PyObject *)&HostBase_T) < 0
            || PyModule_AddObjectRef(m, "BFCBase", (PyObject *)&BFCBase_T) < 0
            || PyModule_AddObjectRef(m, "OpFunction", (PyObject *)&OpFunction_T) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
