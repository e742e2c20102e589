/* The training step's loops that NumPy can only do as several passes (ops/nn/ calls them on
 * C-contiguous NumPy arrays, float32 or float64, through ops/nn/native.py; their NumPy code is the
 * reference, and runs on CuPy arrays, other dtypes, or when this module is not built):
 *
 * max_pool: each window's maximum, channels side by side, where NumPy takes one strided pass per
 * window offset;
 * max_pool_grad: each window's gradient to its first maximum (row-major in the window, a NaN
 * being a maximum: the first NaN if there is one), one pass over the input instead of a
 * comparison, a "found" mask and a product per window offset; its windows do not overlap, and it
 * writes their elements only (the caller zeroes the others);
 * col2im: a convolution's input gradient, each output position's window of gradients
 * (``(n, oh, ow, kh, kw, c)``) added onto the (padded) input positions it covered, in one pass over
 * the input instead of one strided addition over the whole input per window offset;
 * relu, relu_grad: elementwise, one pass where NumPy's maximum is slow and ReluGrad takes three. */
#include "_fastpath.h"

#include <math.h>
#include <string.h>

/* n, h, w, c, kh, kw, sh, sw, oh, ow: the shapes both loops read */
typedef struct {
    Py_ssize_t n, h, w, c, kh, kw, sh, sw, oh, ow;
} Windows;

static int
windows_checked(const char *name, Windows *g, Py_ssize_t itemsize, Py_buffer *a, Py_ssize_t a_items,
                Py_buffer *b, Py_ssize_t b_items, Py_buffer *out, Py_ssize_t out_items)
{
    if ((itemsize != 4 && itemsize != 8) || g->n < 0 || g->h < 0 || g->w < 0 || g->c < 0 || g->kh < 1 || g->kw < 1
            || g->sh < 1 || g->sw < 1 || g->oh < 0 || g->ow < 0
            || (g->oh > 0 && (g->oh - 1) * g->sh + g->kh > g->h) || (g->ow > 0 && (g->ow - 1) * g->sw + g->kw > g->w)
            || a->len != a_items * itemsize || b->len != b_items * itemsize || out->len != out_items * itemsize) {
        PyErr_Format(PyExc_ValueError, "%s: buffers and sizes do not agree", name);
        return -1;
    }
    return 0;
}

/* per window, channels side by side (c each in best and left): the maximum (a NaN once one is seen),
 * then, element by element in row-major order, the gradient still left to the element that is the
 * maximum (or a NaN) and 0 to the others -- selects, no branches. ``left`` starts as the gradient
 * plus 0.0: a -0.0 gradient gives 0.0, as a sum onto zeros gives. Writes the windows' elements only. */
#define MAX_POOL_GRAD(T)                                                                                    \
    static void max_pool_grad_##T(const Windows *g, const T *restrict x, const T *restrict grad,            \
                                  T *restrict out, T *restrict best, T *restrict left)                      \
    {                                                                                                       \
        Py_ssize_t row = g->w * g->c, image = g->h * row, c = g->c;                                         \
        for (Py_ssize_t b = 0; b < g->n; b++)                                                               \
            for (Py_ssize_t y = 0; y < g->oh; y++)                                                          \
                for (Py_ssize_t z = 0; z < g->ow; z++) {                                                    \
                    Py_ssize_t corner = b * image + y * g->sh * row + z * g->sw * c;                        \
                    const T *dy = grad + ((b * g->oh + y) * g->ow + z) * c;                                 \
                    for (Py_ssize_t k = 0; k < c; k++)                                                      \
                        best[k] = x[corner + k];                                                            \
                    for (Py_ssize_t i = 0; i < g->kh; i++)                                                  \
                        for (Py_ssize_t j = 0; j < g->kw; j++) {                                            \
                            const T *v = x + corner + i * row + j * c;                                      \
                            for (Py_ssize_t k = 0; k < c; k++)                                              \
                                best[k] = ((v[k] > best[k]) | (v[k] != v[k])) ? v[k] : best[k];             \
                        }                                                                                   \
                    for (Py_ssize_t k = 0; k < c; k++)                                                      \
                        left[k] = dy[k] + (T)0;                                                             \
                    for (Py_ssize_t i = 0; i < g->kh; i++)                                                  \
                        for (Py_ssize_t j = 0; j < g->kw; j++) {                                            \
                            Py_ssize_t e = corner + i * row + j * c;                                        \
                            const T *v = x + e;                                                             \
                            T *o = out + e;                                                                 \
                            for (Py_ssize_t k = 0; k < c; k++) {                                            \
                                int hit = (v[k] == best[k]) | (v[k] != v[k]);                               \
                                o[k] = hit ? left[k] : (T)0;                                                \
                                left[k] = hit ? (T)0 : left[k];                                             \
                            }                                                                               \
                        }                                                                                   \
                }                                                                                           \
    }

MAX_POOL_GRAD(float)
MAX_POOL_GRAD(double)

/* MaxPool as the NumPy reference's running maximum(out, view) per window offset gives it: of equal
 * elements the later one (maximum(-0.0, 0.0) is 0.0, maximum(0.0, -0.0) is -0.0), a NaN once one is
 * seen. Windows may overlap. */
#define MAX_POOL(T)                                                                                         \
    static void max_pool_##T(const Windows *g, const T *restrict x, T *restrict out)                       \
    {                                                                                                       \
        Py_ssize_t row = g->w * g->c, image = g->h * row, c = g->c;                                         \
        for (Py_ssize_t b = 0; b < g->n; b++)                                                               \
            for (Py_ssize_t y = 0; y < g->oh; y++)                                                          \
                for (Py_ssize_t z = 0; z < g->ow; z++) {                                                    \
                    const T *corner = x + b * image + y * g->sh * row + z * g->sw * c;                      \
                    T *o = out + ((b * g->oh + y) * g->ow + z) * c;                                         \
                    for (Py_ssize_t k = 0; k < c; k++)                                                      \
                        o[k] = corner[k];                                                                   \
                    for (Py_ssize_t i = 0; i < g->kh; i++)                                                  \
                        for (Py_ssize_t j = i ? 0 : 1; j < g->kw; j++) {                                    \
                            const T *v = corner + i * row + j * c;                                          \
                            for (Py_ssize_t k = 0; k < c; k++)                                              \
                                o[k] = ((v[k] >= o[k]) | (v[k] != v[k])) ? v[k] : o[k];                     \
                        }                                                                                   \
                }                                                                                           \
    }

MAX_POOL(float)
MAX_POOL(double)

/* each input element's sum, gathered: its windows' entries in window-offset order (row-major), from
 * 0.0, as the NumPy reference's one addition per offset adds them (the same float sums). ``cover``
 * lists, per input column, the window offsets j and output columns q whose windows cover it (-1
 * after the last), so that the inner loops divide nothing. */
#define COL2IM(T)                                                                                           \
    static void col2im_##T(const Windows *g, const T *restrict cols, T *restrict out, Py_ssize_t *cover)    \
    {                                                                                                       \
        Py_ssize_t window = g->kh * g->kw * g->c, c = g->c;                                                 \
        for (Py_ssize_t z = 0; z < g->w; z++) {                                                             \
            Py_ssize_t *at = cover + z * 2 * (g->kw + 1);                                                   \
            for (Py_ssize_t j = 0; j < g->kw && j <= z; j++)                                                \
                if ((z - j) % g->sw == 0 && (z - j) / g->sw < g->ow) {                                      \
                    *at++ = j;                                                                              \
                    *at++ = (z - j) / g->sw;                                                                \
                }                                                                                           \
            *at = -1;                                                                                       \
        }                                                                                                   \
        for (Py_ssize_t b = 0; b < g->n; b++)                                                               \
            for (Py_ssize_t y = 0; y < g->h; y++)                                                           \
                for (Py_ssize_t z = 0; z < g->w; z++) {                                                     \
                    T *target = out + ((b * g->h + y) * g->w + z) * c;                                      \
                    for (Py_ssize_t k = 0; k < c; k++)                                                      \
                        target[k] = 0;                                                                      \
                    for (Py_ssize_t i = 0; i < g->kh && i <= y; i++) {                                      \
                        Py_ssize_t p = y - i;                                                               \
                        if (p % g->sh || p / g->sh >= g->oh)                                                \
                            continue;                                                                       \
                        const T *base = cols + (b * g->oh + p / g->sh) * g->ow * window + i * g->kw * c;    \
                        for (const Py_ssize_t *at = cover + z * 2 * (g->kw + 1); *at >= 0; at += 2) {       \
                            const T *piece = base + at[1] * window + at[0] * c;                             \
                            for (Py_ssize_t k = 0; k < c; k++)                                              \
                                target[k] += piece[k];                                                      \
                        }                                                                                   \
                    }                                                                                       \
                }                                                                                           \
    }

COL2IM(float)
COL2IM(double)

#define WINDOW_ARGS "nnnnnnnnnnn"
#define WINDOW_REFS &g.n, &g.h, &g.w, &g.c, &g.kh, &g.kw, &g.sh, &g.sw, &g.oh, &g.ow, &itemsize

PyObject *
max_pool_grad(PyObject *self, PyObject *args)
{
    Windows g;
    Py_ssize_t itemsize;
    Py_buffer x, grad, out;
    if (!PyArg_ParseTuple(args, "y*y*w*" WINDOW_ARGS, &x, &grad, &out, WINDOW_REFS))
        return NULL;
    Py_ssize_t size = g.n * g.h * g.w * g.c;
    if (windows_checked("max_pool_grad", &g, itemsize, &x, size, &grad, g.n * g.oh * g.ow * g.c, &out, size) < 0) {
        PyBuffer_Release(&x);
        PyBuffer_Release(&grad);
        PyBuffer_Release(&out);
        return NULL;
    }
    char *best = PyMem_Malloc(g.c ? 2 * g.c * itemsize : 1);
    if (best == NULL) {
        PyBuffer_Release(&x);
        PyBuffer_Release(&grad);
        PyBuffer_Release(&out);
        return PyErr_NoMemory();
    }
    Py_BEGIN_ALLOW_THREADS
    if (itemsize == 4)
        max_pool_grad_float(&g, (const float *)x.buf, (const float *)grad.buf, (float *)out.buf, (float *)best,
                            (float *)best + g.c);
    else
        max_pool_grad_double(&g, (const double *)x.buf, (const double *)grad.buf, (double *)out.buf,
                             (double *)best, (double *)best + g.c);
    Py_END_ALLOW_THREADS
    PyMem_Free(best);
    PyBuffer_Release(&x);
    PyBuffer_Release(&grad);
    PyBuffer_Release(&out);
    Py_RETURN_NONE;
}

PyObject *
max_pool(PyObject *self, PyObject *args)
{
    Windows g;
    Py_ssize_t itemsize;
    Py_buffer x, out;
    if (!PyArg_ParseTuple(args, "y*w*" WINDOW_ARGS, &x, &out, WINDOW_REFS))
        return NULL;
    Py_ssize_t size = g.n * g.h * g.w * g.c;
    if (windows_checked("max_pool", &g, itemsize, &x, size, &x, size, &out, g.n * g.oh * g.ow * g.c) < 0) {
        PyBuffer_Release(&x);
        PyBuffer_Release(&out);
        return NULL;
    }
    Py_BEGIN_ALLOW_THREADS
    if (itemsize == 4)
        max_pool_float(&g, (const float *)x.buf, (float *)out.buf);
    else
        max_pool_double(&g, (const double *)x.buf, (double *)out.buf);
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&x);
    PyBuffer_Release(&out);
    Py_RETURN_NONE;
}

PyObject *
col2im(PyObject *self, PyObject *args)
{
    Windows g;
    Py_ssize_t itemsize;
    Py_buffer cols, out;
    if (!PyArg_ParseTuple(args, "y*w*" WINDOW_ARGS, &cols, &out, WINDOW_REFS))
        return NULL;
    Py_ssize_t size = g.n * g.oh * g.ow * g.kh * g.kw * g.c;
    if (windows_checked("col2im", &g, itemsize, &cols, size, &cols, size, &out, g.n * g.h * g.w * g.c) < 0) {
        PyBuffer_Release(&cols);
        PyBuffer_Release(&out);
        return NULL;
    }
    Py_ssize_t *cover = PyMem_Malloc((g.w ? g.w : 1) * 2 * (g.kw + 1) * sizeof(Py_ssize_t));
    if (cover == NULL) {
        PyBuffer_Release(&cols);
        PyBuffer_Release(&out);
        return PyErr_NoMemory();
    }
    Py_BEGIN_ALLOW_THREADS
    if (itemsize == 4)
        col2im_float(&g, (const float *)cols.buf, (float *)out.buf, cover);
    else
        col2im_double(&g, (const double *)cols.buf, (double *)out.buf, cover);
    Py_END_ALLOW_THREADS
    PyMem_Free(cover);
    PyBuffer_Release(&cols);
    PyBuffer_Release(&out);
    Py_RETURN_NONE;
}

/* Relu as NumPy's maximum(x, 0) gives it (a NaN stays, -0.0 is 0.0) and ReluGrad as dy * (y > 0) in
 * dy's type (TensorFlow's product: -0.0 where a negative gradient meets y <= 0), one pass each. */
#define ELEMENTWISE(T)                                                                                      \
    static void relu_##T(Py_ssize_t n, const T *restrict x, T *restrict out)                               \
    {                                                                                                       \
        for (Py_ssize_t i = 0; i < n; i++)                                                                  \
            out[i] = ((x[i] > 0) | (x[i] != x[i])) ? x[i] : (T)0;                                          \
    }                                                                                                       \
    static void relu_grad_##T(Py_ssize_t n, const T *restrict dy, const T *restrict y, T *restrict out)    \
    {                                                                                                       \
        for (Py_ssize_t i = 0; i < n; i++) {                                                                \
            /* (T)(y > 0) alone is not vectorised by GCC (trapping compares); with the NaN test it is */    \
            T on = ((y[i] > 0) | (y[i] != y[i])) ? (T)1 : (T)0;                                             \
            out[i] = dy[i] * ((y[i] != y[i]) ? (T)0 : on);                                                  \
        }                                                                                                   \
    }

ELEMENTWISE(float)
ELEMENTWISE(double)

PyObject *
relu(PyObject *self, PyObject *args)
{
    Py_ssize_t itemsize;
    Py_buffer x, out;
    if (!PyArg_ParseTuple(args, "y*w*n", &x, &out, &itemsize))
        return NULL;
    if ((itemsize != 4 && itemsize != 8) || x.len != out.len || x.len % itemsize) {
        PyBuffer_Release(&x);
        PyBuffer_Release(&out);
        PyErr_SetString(PyExc_ValueError, "relu: buffers and sizes do not agree");
        return NULL;
    }
    Py_BEGIN_ALLOW_THREADS
    if (itemsize == 4)
        relu_float(x.len / 4, (const float *)x.buf, (float *)out.buf);
    else
        relu_double(x.len / 8, (const double *)x.buf, (double *)out.buf);
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&x);
    PyBuffer_Release(&out);
    Py_RETURN_NONE;
}

PyObject *
relu_grad(PyObject *self, PyObject *args)
{
    Py_ssize_t itemsize;
    Py_buffer dy, y, out;
    if (!PyArg_ParseTuple(args, "y*y*w*n", &dy, &y, &out, &itemsize))
        return NULL;
    if ((itemsize != 4 && itemsize != 8) || dy.len != out.len || y.len != out.len || out.len % itemsize) {
        PyBuffer_Release(&dy);
        PyBuffer_Release(&y);
        PyBuffer_Release(&out);
        PyErr_SetString(PyExc_ValueError, "relu_grad: buffers and sizes do not agree");
        return NULL;
    }
    Py_BEGIN_ALLOW_THREADS
    if (itemsize == 4)
        relu_grad_float(out.len / 4, (const float *)dy.buf, (const float *)y.buf, (float *)out.buf);
    else
        relu_grad_double(out.len / 8, (const double *)dy.buf, (const double *)y.buf, (double *)out.buf);
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&dy);
    PyBuffer_Release(&y);
    PyBuffer_Release(&out);
    Py_RETURN_NONE;
}
