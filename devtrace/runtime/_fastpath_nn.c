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
 * (``(n, oh, ow, kh, kw, c)``) added onto the (padded) input positions it covered, an image at a time
 * in the core's cache, instead of one strided addition over the whole input per window offset;
 * relu, relu_grad: elementwise, one pass where NumPy's maximum is slow and ReluGrad takes three;
 * bias_add: x + bias, the bias repeated along each row, where NumPy's broadcast runs a loop of a few
 * elements per row;
 * im2col: a convolution's windows' matrix (positions, kh * kw * c), one copy per window row, where
 * NumPy copies a strided view element by element (or one window offset at a time).
 *
 * The channel loops run in blocks of whole vectors (V_T below: no per-window vector set-up), built
 * for AVX2 and for the baseline (x86-64); relu's and relu_grad's plain loops twice by the compiler
 * (CLONED, x86-64 Linux). Both pick the CPU's at run time. No loop fuses a product and a sum (no FMA:
 * "avx2" alone does not allow contraction) and none reorders a sum, so every build gives the same
 * floats: the NumPy code's. A convolution's products stay BLAS's: summed in another order, a first
 * layer's (few taps) printed other digits than TensorFlow's (tests/tf221_oracle's grad_second_order). */
#include "_fastpath.h"

#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>

#if defined(__x86_64__) && defined(__linux__) && defined(__GNUC__) && \
    ((!defined(__clang__) && __GNUC__ >= 6) || (defined(__clang__) && __clang_major__ >= 14))
#define CLONED __attribute__((target_clones("avx2", "default")))
#else
#define CLONED
#endif

#if defined(__x86_64__) && defined(__GNUC__) && ((!defined(__clang__) && __GNUC__ >= 6) || defined(__clang__))
#define WIDE_VECTORS
#define VARIANT_CALL(name, ...)                                                                             \
    do {                                                                                                    \
        if (__builtin_cpu_supports("avx2"))                                                                 \
            name##_wide(__VA_ARGS__);                                                                       \
        else                                                                                                \
            name##_narrow(__VA_ARGS__);                                                                     \
    } while (0)
#else
#define VARIANT_CALL(name, ...) name##_narrow(__VA_ARGS__)
#endif

/* a block of channels as one vector value (GCC's and Clang's vector extensions; unaligned: elements of an
 * array, wherever a block starts): V_T the values, M_T a comparison's lanes (all ones or zeros), N_T
 * lanes. The kernels below are built twice (VARIANT): with 32-byte vectors for AVX2 on x86-64, and with
 * 16-byte ones (SSE2, NEON: every 64-bit CPU's) for the others, the one the CPU runs picked at each
 * call (VARIANT_CALL); 32-byte vectors without AVX2 are far slower than 16-byte ones. */
typedef float V32_float __attribute__((vector_size(32), aligned(4), may_alias));
typedef int M32_float __attribute__((vector_size(32)));
typedef double V32_double __attribute__((vector_size(32), aligned(8), may_alias));
typedef long long M32_double __attribute__((vector_size(32)));
typedef float V16_float __attribute__((vector_size(16), aligned(4), may_alias));
typedef int M16_float __attribute__((vector_size(16)));
typedef double V16_double __attribute__((vector_size(16), aligned(8), may_alias));
typedef long long M16_double __attribute__((vector_size(16)));
#define LOAD(T, p) (*(const V_##T *)(p))
#define STORE(T, p, v) (*(V_##T *)(p) = (v))
#define PICK(T, mask, a, b) ((V_##T)(((M_##T)(a) & (mask)) | ((M_##T)(b) & ~(mask))))
#define AND(T, a, mask) ((V_##T)((M_##T)(a) & (mask)))
#define IS_NAN(T, v) ((M_##T)((v) != (v)))

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

/* per window, a block of channels at a time (N_T lanes of a vector, then the rest one by one): the
 * maximum (a NaN once one is seen), then, element by element in row-major order, the gradient still
 * left to the element that is the maximum (or a NaN) and 0 to the others -- selects, no branches.
 * ``left`` starts as the gradient plus 0.0: a -0.0 gradient gives 0.0, as a sum onto zeros gives.
 * Writes the windows' elements only. */
#define WINDOW_GRAD_V(T, k0)                                                                                \
    do {                                                                                                    \
        V_##T best = LOAD(T, x + corner + k0), left;                                                        \
        for (Py_ssize_t i = 0; i < g->kh; i++)                                                              \
            for (Py_ssize_t j = 0; j < g->kw; j++) {                                                        \
                V_##T v = LOAD(T, x + corner + i * row + j * c + k0);                                       \
                best = PICK(T, (M_##T)(v > best) | IS_NAN(T, v), v, best);                                  \
            }                                                                                               \
        left = LOAD(T, dy + k0) + (T)0;                                                                     \
        for (Py_ssize_t i = 0; i < g->kh; i++)                                                              \
            for (Py_ssize_t j = 0; j < g->kw; j++) {                                                        \
                Py_ssize_t e = corner + i * row + j * c + k0;                                               \
                V_##T v = LOAD(T, x + e);                                                                   \
                M_##T hit = (M_##T)(v == best) | IS_NAN(T, v);                                              \
                STORE(T, out + e, AND(T, left, hit));                                                       \
                left = AND(T, left, ~hit);                                                                  \
            }                                                                                               \
    } while (0)

#define WINDOW_GRAD_1(T, k)                                                                                 \
    do {                                                                                                    \
        T best = x[corner + k], left;                                                                       \
        for (Py_ssize_t i = 0; i < g->kh; i++)                                                              \
            for (Py_ssize_t j = 0; j < g->kw; j++) {                                                        \
                T v = x[corner + i * row + j * c + k];                                                      \
                best = ((v > best) | (v != v)) ? v : best;                                                  \
            }                                                                                               \
        left = dy[k] + (T)0;                                                                                \
        for (Py_ssize_t i = 0; i < g->kh; i++)                                                              \
            for (Py_ssize_t j = 0; j < g->kw; j++) {                                                        \
                Py_ssize_t e = corner + i * row + j * c + k;                                                \
                int hit = (x[e] == best) | (x[e] != x[e]);                                                  \
                out[e] = hit ? left : (T)0;                                                                 \
                left = hit ? (T)0 : left;                                                                   \
            }                                                                                               \
    } while (0)

#define MAX_POOL_GRAD(T)                                                                                    \
    static TARGET void VARIANT(max_pool_grad_##T)(const Windows *g, const T *restrict x, const T *restrict grad,     \
                                         T *restrict out)                                                   \
    {                                                                                                       \
        Py_ssize_t row = g->w * g->c, image = g->h * row, c = g->c;                                         \
        for (Py_ssize_t b = 0; b < g->n; b++)                                                               \
            for (Py_ssize_t y = 0; y < g->oh; y++)                                                          \
                for (Py_ssize_t z = 0; z < g->ow; z++) {                                                    \
                    Py_ssize_t corner = b * image + y * g->sh * row + z * g->sw * c, k0 = 0;                \
                    const T *dy = grad + ((b * g->oh + y) * g->ow + z) * c;                                 \
                    for (; k0 + N_##T <= c; k0 += N_##T)                                                    \
                        WINDOW_GRAD_V(T, k0);                                                               \
                    for (; k0 < c; k0++)                                                                    \
                        WINDOW_GRAD_1(T, k0);                                                               \
                }                                                                                           \
    }


/* MaxPool as the NumPy reference's running maximum(out, view) per window offset gives it: of equal
 * elements the later one (maximum(-0.0, 0.0) is 0.0, maximum(0.0, -0.0) is -0.0), a NaN once one is
 * seen. Windows may overlap. */
#define MAX_POOL(T)                                                                                         \
    static TARGET void VARIANT(max_pool_##T)(const Windows *g, const T *restrict x, T *restrict out)                \
    {                                                                                                       \
        Py_ssize_t row = g->w * g->c, image = g->h * row, c = g->c;                                         \
        for (Py_ssize_t b = 0; b < g->n; b++)                                                               \
            for (Py_ssize_t y = 0; y < g->oh; y++)                                                          \
                for (Py_ssize_t z = 0; z < g->ow; z++) {                                                    \
                    const T *corner = x + b * image + y * g->sh * row + z * g->sw * c;                      \
                    T *o = out + ((b * g->oh + y) * g->ow + z) * c;                                         \
                    Py_ssize_t k0 = 0;                                                                      \
                    for (; k0 + N_##T <= c; k0 += N_##T) {                                                  \
                        V_##T m = LOAD(T, corner + k0);                                                     \
                        for (Py_ssize_t i = 0; i < g->kh; i++)                                              \
                            for (Py_ssize_t j = i ? 0 : 1; j < g->kw; j++) {                                \
                                V_##T v = LOAD(T, corner + i * row + j * c + k0);                           \
                                m = PICK(T, (M_##T)(v >= m) | IS_NAN(T, v), v, m);                          \
                            }                                                                               \
                        STORE(T, o + k0, m);                                                                \
                    }                                                                                       \
                    for (; k0 < c; k0++) {                                                                  \
                        T m = corner[k0];                                                                   \
                        for (Py_ssize_t i = 0; i < g->kh; i++)                                              \
                            for (Py_ssize_t j = i ? 0 : 1; j < g->kw; j++) {                                \
                                T v = corner[i * row + j * c + k0];                                         \
                                m = ((v >= m) | (v != v)) ? v : m;                                          \
                            }                                                                               \
                        o[k0] = m;                                                                          \
                    }                                                                                       \
                }                                                                                           \
    }


/* each input element's sum: its windows' entries in window-offset order (row-major), from 0.0, as
 * the NumPy reference's one addition per offset adds them (the same float sums) -- an image at a
 * time (it stays in the core's cache), zeroed, then each window offset's entries added onto the
 * positions they cover, a vector of channels at a time. */
#define COL2IM(T)                                                                                           \
    static TARGET void VARIANT(col2im_##T)(const Windows *g, const T *restrict cols, T *restrict out)                \
    {                                                                                                       \
        Py_ssize_t window = g->kh * g->kw * g->c, c = g->c, row = g->w * c, image = g->h * row;             \
        for (Py_ssize_t b = 0; b < g->n; b++) {                                                             \
            T *img = out + b * image;                                                                       \
            memset(img, 0, image * sizeof(T));                                                              \
            for (Py_ssize_t i = 0; i < g->kh; i++)                                                          \
                for (Py_ssize_t j = 0; j < g->kw; j++)                                                      \
                    for (Py_ssize_t y = 0; y < g->oh; y++) {                                                \
                        T *t = img + (y * g->sh + i) * row + j * c;                                         \
                        const T *p = cols + (b * g->oh + y) * g->ow * window + (i * g->kw + j) * c;         \
                        for (Py_ssize_t z = 0; z < g->ow; z++, t += g->sw * c, p += window) {               \
                            Py_ssize_t k = 0;                                                               \
                            for (; k + N_##T <= c; k += N_##T)                                              \
                                STORE(T, t + k, LOAD(T, t + k) + LOAD(T, p + k));                           \
                            for (; k < c; k++)                                                              \
                                t[k] += p[k];                                                               \
                        }                                                                                   \
                    }                                                                                       \
        }                                                                                                   \
    }


/* the windows' matrix of images b0 .. b0 + nb and output rows r0 .. r0 + nr of a padded x: per
 * output position and window row, its kw * c contiguous elements copied (a window row of a few
 * elements: each window element's column of an output row copied at once) */
#define IM2COL(T)                                                                                           \
    static void im2col_##T(const Windows *g, const T *restrict x, T *restrict cols, Py_ssize_t b0,          \
                           Py_ssize_t nb, Py_ssize_t r0, Py_ssize_t nr)                                     \
    {                                                                                                       \
        Py_ssize_t row = g->w * g->c, span = g->kw * g->c, window = g->kh * span;                           \
        T *dst = cols;                                                                                      \
        if (span < 8) { /* a few channels: one strided copy per window element and output row */          \
            for (Py_ssize_t b = b0; b < b0 + nb; b++)                                                       \
                for (Py_ssize_t y = r0; y < r0 + nr; y++, dst += g->ow * window)                            \
                    for (Py_ssize_t i = 0; i < g->kh; i++)                                                  \
                        for (Py_ssize_t e = 0; e < span; e++) {                                             \
                            const T *src = x + (b * g->h + y * g->sh + i) * row + e;                        \
                            T *to = dst + i * span + e;                                                     \
                            for (Py_ssize_t z = 0; z < g->ow; z++)                                          \
                                to[z * window] = src[z * g->sw * g->c];                                     \
                        }                                                                                   \
            return;                                                                                         \
        }                                                                                                   \
        for (Py_ssize_t b = b0; b < b0 + nb; b++)                                                           \
            for (Py_ssize_t y = r0; y < r0 + nr; y++)                                                       \
                for (Py_ssize_t z = 0; z < g->ow; z++) {                                                    \
                    const T *src = x + (b * g->h + y * g->sh) * row + z * g->sw * g->c;                     \
                    for (Py_ssize_t i = 0; i < g->kh; i++, dst += span, src += row)                         \
                        memcpy(dst, src, span * sizeof(T));                                                 \
                }                                                                                           \
    }

IM2COL(float)
IM2COL(double)

/* x + bias, a row of c channels at a time */
#define BIAS_ADD(T)                                                                                         \
    static TARGET void VARIANT(bias_add_##T)(Py_ssize_t rows, Py_ssize_t c, const T *restrict x,                    \
                                    const T *restrict bias, T *restrict out)                               \
    {                                                                                                       \
        for (Py_ssize_t r = 0; r < rows; r++, x += c, out += c) {                                           \
            Py_ssize_t k = 0;                                                                               \
            for (; k + N_##T <= c; k += N_##T)                                                              \
                STORE(T, out + k, LOAD(T, x + k) + LOAD(T, bias + k));                                      \
            for (; k < c; k++)                                                                              \
                out[k] = x[k] + bias[k];                                                                    \
        }                                                                                                   \
    }


#define VECTOR_KERNELS(T) MAX_POOL_GRAD(T) MAX_POOL(T) COL2IM(T) BIAS_ADD(T)

#ifdef WIDE_VECTORS
#define V_float V32_float
#define M_float M32_float
#define N_float 8
#define V_double V32_double
#define M_double M32_double
#define N_double 4
#define VARIANT(name) name##_wide
#define TARGET __attribute__((target("avx2")))
VECTOR_KERNELS(float)
VECTOR_KERNELS(double)
#undef V_float
#undef M_float
#undef N_float
#undef V_double
#undef M_double
#undef N_double
#undef VARIANT
#undef TARGET
#endif

#define V_float V16_float
#define M_float M16_float
#define N_float 4
#define V_double V16_double
#define M_double M16_double
#define N_double 2
#define VARIANT(name) name##_narrow
#define TARGET
VECTOR_KERNELS(float)
VECTOR_KERNELS(double)

/* The per-op loops over a whole tensor (MaxPool, MaxPoolGrad, Relu, ReluGrad, BiasAdd, a first layer's
 * Conv2D) split in two when the caller asks for two threads (runtime/blas_threads.py: a big tensor on
 * a machine with an idle core): the first half of the images (elements, rows) on the calling thread,
 * the second on a thread of its own. Each element's arithmetic is the same either way. */
typedef struct Job {
    void (*run)(const struct Job *, Py_ssize_t lo, Py_ssize_t hi);
    Windows g;
    Py_ssize_t itemsize, o;
    const char *a, *b;
    char *out;
} Job;

typedef struct {
    const Job *job;
    Py_ssize_t lo, hi;
} Half;

static void *
half_main(void *arg)
{
    const Half *half = arg;
    half->job->run(half->job, half->lo, half->hi);
    return NULL;
}

/* the second half's thread starts with every signal blocked (they stay the calling thread's, whose
 * handlers Python runs) */
static void
run_split(const Job *job, Py_ssize_t n, Py_ssize_t threads)
{
    if (threads > 1 && n > 1) {
        Half second = {job, n / 2, n};
        pthread_t thread;
        sigset_t all, before;
        sigfillset(&all);
        pthread_sigmask(SIG_SETMASK, &all, &before);
        int started = pthread_create(&thread, NULL, half_main, &second) == 0;
        pthread_sigmask(SIG_SETMASK, &before, NULL);
        if (started) {
            job->run(job, 0, n / 2);
            pthread_join(thread, NULL);
            return;
        }
    }
    job->run(job, 0, n);
}

static void
max_pool_part(const Job *j, Py_ssize_t lo, Py_ssize_t hi)
{
    Windows g = j->g;
    g.n = hi - lo;
    Py_ssize_t in = lo * g.h * g.w * g.c * j->itemsize, out = lo * g.oh * g.ow * g.c * j->itemsize;
    if (j->itemsize == 4)
        VARIANT_CALL(max_pool_float, &g, (const float *)(j->a + in), (float *)(j->out + out));
    else
        VARIANT_CALL(max_pool_double, &g, (const double *)(j->a + in), (double *)(j->out + out));
}

static void
max_pool_grad_part(const Job *j, Py_ssize_t lo, Py_ssize_t hi)
{
    Windows g = j->g;
    g.n = hi - lo;
    Py_ssize_t in = lo * g.h * g.w * g.c * j->itemsize, grad = lo * g.oh * g.ow * g.c * j->itemsize;
    if (j->itemsize == 4)
        VARIANT_CALL(max_pool_grad_float, &g, (const float *)(j->a + in),
            (const float *)(j->b + grad), (float *)(j->out + in));
    else
        VARIANT_CALL(max_pool_grad_double, &g, (const double *)(j->a + in),
            (const double *)(j->b + grad), (double *)(j->out + in));
}

#define WINDOW_ARGS "nnnnnnnnnnn"
#define WINDOW_REFS &g.n, &g.h, &g.w, &g.c, &g.kh, &g.kw, &g.sh, &g.sw, &g.oh, &g.ow, &itemsize

PyObject *
max_pool_grad(PyObject *self, PyObject *args)
{
    Windows g;
    Py_ssize_t itemsize;
    Py_buffer x, grad, out;
    Py_ssize_t threads = 1;
    if (!PyArg_ParseTuple(args, "y*y*w*" WINDOW_ARGS "|n", &x, &grad, &out, WINDOW_REFS, &threads))
        return NULL;
    Py_ssize_t size = g.n * g.h * g.w * g.c;
    if (windows_checked("max_pool_grad", &g, itemsize, &x, size, &grad, g.n * g.oh * g.ow * g.c, &out, size) < 0) {
        PyBuffer_Release(&x);
        PyBuffer_Release(&grad);
        PyBuffer_Release(&out);
        return NULL;
    }
    Job job = {max_pool_grad_part, g, itemsize, 0, x.buf, grad.buf, out.buf};
    Py_BEGIN_ALLOW_THREADS
    run_split(&job, g.n, threads);
    Py_END_ALLOW_THREADS
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
    Py_ssize_t threads = 1;
    if (!PyArg_ParseTuple(args, "y*w*" WINDOW_ARGS "|n", &x, &out, WINDOW_REFS, &threads))
        return NULL;
    Py_ssize_t size = g.n * g.h * g.w * g.c;
    if (windows_checked("max_pool", &g, itemsize, &x, size, &x, size, &out, g.n * g.oh * g.ow * g.c) < 0) {
        PyBuffer_Release(&x);
        PyBuffer_Release(&out);
        return NULL;
    }
    Job job = {max_pool_part, g, itemsize, 0, x.buf, NULL, out.buf};
    Py_BEGIN_ALLOW_THREADS
    run_split(&job, g.n, threads);
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
    Py_BEGIN_ALLOW_THREADS
    if (itemsize == 4)
        VARIANT_CALL(col2im_float, &g, (const float *)cols.buf, (float *)out.buf);
    else
        VARIANT_CALL(col2im_double, &g, (const double *)cols.buf, (double *)out.buf);
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&cols);
    PyBuffer_Release(&out);
    Py_RETURN_NONE;
}

/* Relu as NumPy's maximum(x, 0) gives it (a NaN stays, -0.0 is 0.0) and ReluGrad as dy * (y > 0) in
 * dy's type (TensorFlow's product: -0.0 where a negative gradient meets y <= 0), one pass each. */
#define ELEMENTWISE(T)                                                                                      \
    static CLONED void relu_##T(Py_ssize_t n, const T *restrict x, T *restrict out)                               \
    {                                                                                                       \
        for (Py_ssize_t i = 0; i < n; i++)                                                                  \
            out[i] = ((x[i] > 0) | (x[i] != x[i])) ? x[i] : (T)0;                                          \
    }                                                                                                       \
    static CLONED void relu_grad_##T(Py_ssize_t n, const T *restrict dy, const T *restrict y, T *restrict out)    \
    {                                                                                                       \
        for (Py_ssize_t i = 0; i < n; i++) {                                                                \
            /* (T)(y > 0) alone is not vectorised by GCC (trapping compares); with the NaN test it is */    \
            T on = ((y[i] > 0) | (y[i] != y[i])) ? (T)1 : (T)0;                                             \
            out[i] = dy[i] * ((y[i] != y[i]) ? (T)0 : on);                                                  \
        }                                                                                                   \
    }

ELEMENTWISE(float)
ELEMENTWISE(double)

static void
relu_part(const Job *j, Py_ssize_t lo, Py_ssize_t hi)
{
    Py_ssize_t at = lo * j->itemsize;
    if (j->itemsize == 4)
        relu_float(hi - lo, (const float *)(j->a + at), (float *)(j->out + at));
    else
        relu_double(hi - lo, (const double *)(j->a + at), (double *)(j->out + at));
}

static void
relu_grad_part(const Job *j, Py_ssize_t lo, Py_ssize_t hi)
{
    Py_ssize_t at = lo * j->itemsize;
    if (j->itemsize == 4)
        relu_grad_float(hi - lo, (const float *)(j->a + at), (const float *)(j->b + at), (float *)(j->out + at));
    else
        relu_grad_double(hi - lo, (const double *)(j->a + at), (const double *)(j->b + at), (double *)(j->out + at));
}

static void
bias_add_part(const Job *j, Py_ssize_t lo, Py_ssize_t hi)
{
    Py_ssize_t at = lo * j->o * j->itemsize;
    if (j->itemsize == 4)
        VARIANT_CALL(bias_add_float, hi - lo, j->o,
            (const float *)(j->a + at), (const float *)j->b, (float *)(j->out + at));
    else
        VARIANT_CALL(bias_add_double, hi - lo, j->o,
            (const double *)(j->a + at), (const double *)j->b, (double *)(j->out + at));
}

PyObject *
relu(PyObject *self, PyObject *args)
{
    Py_ssize_t itemsize, threads = 1;
    Py_buffer x, out;
    if (!PyArg_ParseTuple(args, "y*w*n|n", &x, &out, &itemsize, &threads))
        return NULL;
    if ((itemsize != 4 && itemsize != 8) || x.len != out.len || x.len % itemsize) {
        PyBuffer_Release(&x);
        PyBuffer_Release(&out);
        PyErr_SetString(PyExc_ValueError, "relu: buffers and sizes do not agree");
        return NULL;
    }
    Job job = {relu_part, {0}, itemsize, 0, x.buf, NULL, out.buf};
    Py_BEGIN_ALLOW_THREADS
    run_split(&job, x.len / itemsize, threads);
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&x);
    PyBuffer_Release(&out);
    Py_RETURN_NONE;
}

PyObject *
relu_grad(PyObject *self, PyObject *args)
{
    Py_ssize_t itemsize, threads = 1;
    Py_buffer dy, y, out;
    if (!PyArg_ParseTuple(args, "y*y*w*n|n", &dy, &y, &out, &itemsize, &threads))
        return NULL;
    if ((itemsize != 4 && itemsize != 8) || dy.len != out.len || y.len != out.len || out.len % itemsize) {
        PyBuffer_Release(&dy);
        PyBuffer_Release(&y);
        PyBuffer_Release(&out);
        PyErr_SetString(PyExc_ValueError, "relu_grad: buffers and sizes do not agree");
        return NULL;
    }
    Job job = {relu_grad_part, {0}, itemsize, 0, dy.buf, y.buf, out.buf};
    Py_BEGIN_ALLOW_THREADS
    run_split(&job, out.len / itemsize, threads);
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&dy);
    PyBuffer_Release(&y);
    PyBuffer_Release(&out);
    Py_RETURN_NONE;
}

PyObject *
im2col(PyObject *self, PyObject *args)
{
    Windows g;
    Py_ssize_t itemsize, b0, nb, r0, nr;
    Py_buffer x, cols;
    if (!PyArg_ParseTuple(args, "y*w*" WINDOW_ARGS "nnnn", &x, &cols, WINDOW_REFS, &b0, &nb, &r0, &nr))
        return NULL;
    Py_ssize_t size = g.n * g.h * g.w * g.c;
    if (b0 < 0 || nb < 0 || r0 < 0 || nr < 0 || b0 + nb > g.n || r0 + nr > g.oh ||
            windows_checked("im2col", &g, itemsize, &x, size, &x, size, &cols,
                            nb * nr * g.ow * g.kh * g.kw * g.c) < 0) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "im2col: buffers and sizes do not agree");
        PyBuffer_Release(&x);
        PyBuffer_Release(&cols);
        return NULL;
    }
    Py_BEGIN_ALLOW_THREADS
    if (itemsize == 4)
        im2col_float(&g, (const float *)x.buf, (float *)cols.buf, b0, nb, r0, nr);
    else
        im2col_double(&g, (const double *)x.buf, (double *)cols.buf, b0, nb, r0, nr);
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&x);
    PyBuffer_Release(&cols);
    Py_RETURN_NONE;
}

PyObject *
bias_add(PyObject *self, PyObject *args)
{
    Py_ssize_t itemsize, threads = 1;
    Py_buffer x, bias, out;
    if (!PyArg_ParseTuple(args, "y*y*w*n|n", &x, &bias, &out, &itemsize, &threads))
        return NULL;
    Py_ssize_t c = itemsize > 0 ? bias.len / itemsize : 0;
    if ((itemsize != 4 && itemsize != 8) || c < 1 || bias.len % itemsize || x.len != out.len ||
            x.len % (c * itemsize)) {
        PyBuffer_Release(&x);
        PyBuffer_Release(&bias);
        PyBuffer_Release(&out);
        PyErr_SetString(PyExc_ValueError, "bias_add: buffers and sizes do not agree");
        return NULL;
    }
    Py_ssize_t rows = x.len / (c * itemsize);
    Job job = {bias_add_part, {0}, itemsize, c, x.buf, bias.buf, out.buf};
    Py_BEGIN_ALLOW_THREADS
    run_split(&job, rows, threads);
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&x);
    PyBuffer_Release(&bias);
    PyBuffer_Release(&out);
    Py_RETURN_NONE;
}

