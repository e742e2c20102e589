/* What the C files of the runtime's _fastpath module share (_fastpath.c: the eager hot path and the
 * tensor's storage; _fastpath_bfc.c: the BFC allocator's steady state; _fastpath_nn.c: window loops of the
 * training step's kernels). */
#ifndef DEVTRACE_FASTPATH_H
#define DEVTRACE_FASTPATH_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

/* a __slots__ attribute of an object whose exact type was checked, at its member descriptor's offset */
#define SLOT(obj, offset) (*(PyObject **)((char *)(obj) + (offset)))

/* The offset of `type`'s slot `name`; -1 with an exception when it is not a plain object slot. */
Py_ssize_t slot_offset(PyTypeObject *type, const char *name);
int take(const char *caller, PyObject *kwargs, const char *key, PyObject **out, int want_type);

/* _fastpath_bfc.c */
/* an int of value v, a new reference: the last ints made are handed out again (their identity is nothing
 * anyone looks at) */
PyObject *int_of(long long v);
extern PyTypeObject BFCBase_T;
PyObject *configure_bfc(PyObject *self, PyObject *args, PyObject *kwargs);
/* a tensor's handle freed on a BFCAllocator (tensor._TensorBase.__del__'s call, its errors ignored as
 * there): 1 done, 0 not a BFCAllocator */
int bfc_release(PyObject *alloc, PyObject *handle);
#define CONFIGURE_BFC_DOC "configure_bfc(**classes_and_functions): the BFC allocator's class, its chunk class and " \
    "the Python reference its methods hand every case but the steady state to (memory/bfc.py calls it once)"

/* _fastpath_nn.c */
PyObject *max_pool(PyObject *self, PyObject *args);
PyObject *max_pool_grad(PyObject *self, PyObject *args);
PyObject *col2im(PyObject *self, PyObject *args);
PyObject *relu(PyObject *self, PyObject *args);
PyObject *relu_grad(PyObject *self, PyObject *args);
PyObject *im2col(PyObject *self, PyObject *args);
PyObject *bias_add(PyObject *self, PyObject *args);

#endif
