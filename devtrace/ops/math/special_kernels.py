"""Special functions on NumPy float64 arrays, for ``tf.math.special`` and the incomplete gamma/beta,
Hurwitz zeta and inverse-error ops: NumPy has none of them (and SciPy is no dependency). Each is
computed to about double precision by a quadrature of an integral representation (Gauss-Legendre,
or the trapezoidal rule where the integrand is periodic or decays doubly exponentially, where it
converges geometrically) or by a convergent/asymptotic series, with TensorFlow's values at the
edges of each domain (inf at a pole, nan outside the domain)."""

from __future__ import annotations

import functools
import math

import numpy as np

EULER = 0.57721566490153286061


@functools.lru_cache(maxsize=None)
def _legendre(n: int):
    return np.polynomial.legendre.leggauss(n)


def _gauss(fn, a, b, n=128):
    """``∫_a^b fn(t) dt`` for each pair of limits (arrays), by n-point Gauss-Legendre."""
    nodes, weights = _legendre(n)
    a, b = np.asarray(a, np.float64)[..., None], np.asarray(b, np.float64)[..., None]
    half = (b - a) / 2
    t = a + half * (nodes + 1)
    return (half * weights * fn(t)).sum(-1)


def _elementwise(fn):
    """A function of float64 arrays (any shape) from one of 1-D arrays."""
    def wrapped(x):
        x = np.asarray(x, np.float64)
        return fn(x.reshape(-1)).reshape(x.shape)
    return wrapped


def _asymptotic_hankel(n: int, x):
    """Hankel's asymptotic ``P`` and ``Q`` of order ``n`` (|x| large)."""
    mu = 4.0 * n * n
    p, q = np.ones_like(x), np.zeros_like(x)
    term = np.ones_like(x)
    for k in range(1, 30):
        term = term * (mu - (2 * k - 1) ** 2) / (k * 8.0 * x)
        if k % 2:
            q += term * (-1) ** ((k - 1) // 2)
        else:
            p += term * (-1) ** (k // 2)
    return p, q


def _bessel_i_scaled(n: int):
    @_elementwise
    def fn(x):
        ax = np.abs(x)
        out = np.empty_like(x)
        small = ax <= 500
        if small.any():
            m = 64 + int(8 * math.sqrt(ax[small].max()))
            t = (np.arange(m) + 0.5) * (np.pi / m)  # the midpoint rule: exact as the trapezoid on a period
            out[small] = (np.exp(np.multiply.outer(ax[small], np.cos(t) - 1)) * np.cos(n * t)).mean(-1)
        big = ~small & np.isfinite(ax)
        if big.any():
            z, mu = ax[big], 4.0 * n * n
            s, term = np.ones_like(z), np.ones_like(z)
            for k in range(1, 20):
                term = -term * (mu - (2 * k - 1) ** 2) / (k * 8.0 * z)
                s += term
            out[big] = s / np.sqrt(2 * np.pi * z)
        out[np.isinf(ax)] = 0.0
        out[np.isnan(x)] = np.nan
        return out * np.sign(x) if n % 2 else out
    return fn


bessel_i0e = _bessel_i_scaled(0)
bessel_i1e = _bessel_i_scaled(1)


def bessel_i0(x):
    with np.errstate(over="ignore", invalid="ignore"):
        return bessel_i0e(x) * np.exp(np.abs(x))


def bessel_i1(x):
    with np.errstate(over="ignore", invalid="ignore"):
        out = bessel_i1e(x) * np.exp(np.abs(x))
    return np.where(np.isinf(x), x, out)


def _bessel_j(n: int):
    @_elementwise
    def fn(x):
        ax = np.abs(x)
        out = np.zeros_like(x)
        small = ax <= 25
        if small.any():
            m = 64 + int(ax[small].max())
            t = np.arange(m) * (2 * np.pi / m)
            out[small] = np.cos(np.subtract.outer(ax[small] * 0, n * t) + np.multiply.outer(ax[small], np.sin(t))).mean(-1)
        big = ~small & np.isfinite(ax)
        if big.any():
            z = ax[big]
            p, q = _asymptotic_hankel(n, z)
            chi = z - (n / 2 + 0.25) * np.pi
            out[big] = np.sqrt(2 / (np.pi * z)) * (p * np.cos(chi) - q * np.sin(chi))
        out[np.isnan(x)] = np.nan
        return out * np.sign(x) if n % 2 else out
    return fn


bessel_j0 = _bessel_j(0)
bessel_j1 = _bessel_j(1)


def _bessel_y(n: int):
    @_elementwise
    def fn(x):
        out = np.full_like(x, np.nan)
        out[x <= 0] = -np.inf
        out[np.isposinf(x)] = 0.0
        small = (x > 0) & (x <= 25)
        if small.any():
            z = x[small]
            first = _gauss(lambda t: np.sin(z[:, None] * np.sin(t) - n * t), np.zeros_like(z), np.full_like(z, np.pi))
            upper = np.arcsinh(60.0 / z) + 1.0
            second = _gauss(lambda t: (np.exp(n * t) + (-1) ** n * np.exp(-n * t)) * np.exp(-z[:, None] * np.sinh(t)),
                            np.zeros_like(z), upper, 256)
            out[small] = (first - second) / np.pi
        big = (x > 25) & np.isfinite(x)
        if big.any():
            z = x[big]
            p, q = _asymptotic_hankel(n, z)
            chi = z - (n / 2 + 0.25) * np.pi
            out[big] = np.sqrt(2 / (np.pi * z)) * (p * np.sin(chi) + q * np.cos(chi))
        return out
    return fn


bessel_y0 = _bessel_y(0)
bessel_y1 = _bessel_y(1)


def _bessel_k_scaled(n: int):
    @_elementwise
    def fn(x):
        out = np.full_like(x, np.nan)
        out[x <= 0] = np.inf
        out[np.isposinf(x)] = 0.0
        pos = (x > 0) & np.isfinite(x)
        if pos.any():
            z = x[pos]
            upper = np.arccosh(1 + 60.0 / z)  # where the integrand has fallen below e^-60
            h = min(0.05, float(upper.min()) / 64)
            steps = int(np.ceil(upper.max() / h)) + 1
            t = np.arange(steps) * h
            weights = np.full(steps, h)
            weights[0] = h / 2  # the trapezoid on [0, ∞) of an even integrand
            with np.errstate(over="ignore"):
                values = np.exp(-np.multiply.outer(z, np.cosh(t) - 1)) * np.cosh(n * t)
            out[pos] = (values * weights).sum(-1)
        return out
    return fn


bessel_k0e = _bessel_k_scaled(0)
bessel_k1e = _bessel_k_scaled(1)


def bessel_k0(x):
    with np.errstate(over="ignore", invalid="ignore"):
        return bessel_k0e(x) * np.exp(-np.asarray(x, np.float64))


def bessel_k1(x):
    with np.errstate(over="ignore", invalid="ignore"):
        return bessel_k1e(x) * np.exp(-np.asarray(x, np.float64))


@_elementwise
def dawsn(x):
    ax = np.abs(x)
    out = np.zeros_like(x)
    small = ax <= 6
    if small.any():
        z = ax[small]
        out[small] = _gauss(lambda t: np.exp((t - z[:, None]) * (t + z[:, None])), np.zeros_like(z), z, 160)
    big = ~small & np.isfinite(ax)
    if big.any():
        z = ax[big]
        s, term = np.ones_like(z), np.ones_like(z)
        for k in range(1, 40):
            term = term * (2 * k - 1) / (2 * z * z)
            s += term
        out[big] = s / (2 * z)
    out[np.isnan(x)] = np.nan
    return out * np.sign(x)


def _ei(x: float) -> float:
    if math.isnan(x):
        return math.nan
    if x == 0:
        return -math.inf
    if x < 0:  # TensorFlow's domain (Cephes's): x ≥ 0
        return math.nan
    if x == math.inf:
        return math.inf
    if x < 40:
        s, term = 0.0, 1.0
        for k in range(1, 200):
            term *= x / k
            s += term / k
            if term / k < 1e-17 * abs(s):
                break
        return EULER + math.log(x) + s
    if x > 710:
        return math.inf
    s, term = 1.0, 1.0
    for k in range(1, 60):
        new = term * k / x
        if new > term:
            break
        term = new
        s += term
    return math.exp(x) / x * s


expint = np.vectorize(_ei, otypes=[np.float64])


def _fresnel(x):
    """Both Fresnel integrals ``(S, C)`` of float64 values."""
    x = np.asarray(x, np.float64).reshape(-1)
    ax = np.abs(x)
    s, c = np.zeros_like(x), np.zeros_like(x)
    small = ax <= 6
    if small.any():
        z = ax[small]
        zero = np.zeros_like(z)
        s[small] = _gauss(lambda t: np.sin(np.pi / 2 * t * t), zero, z, 200)
        c[small] = _gauss(lambda t: np.cos(np.pi / 2 * t * t), zero, z, 200)
    big = ~small & np.isfinite(ax)
    if big.any():
        z = ax[big]
        u = np.pi * z * z
        f, g = np.zeros_like(z), np.zeros_like(z)
        term_f, term_g = np.ones_like(z), 1 / u
        for k in range(0, 30):
            f += term_f
            g += term_g
            term_f = -term_f * (4 * k + 1) * (4 * k + 3) / (u * u)
            term_g = -term_g * (4 * k + 3) * (4 * k + 5) / (u * u)
        f, g = f / (np.pi * z), g / (np.pi * z)
        half = np.mod(z * z, 4.0) * (np.pi / 2)  # π z²/2, reduced exactly where z² is large
        c[big] = 0.5 + f * np.sin(half) - g * np.cos(half)
        s[big] = 0.5 - f * np.cos(half) - g * np.sin(half)
    inf = np.isinf(ax)
    s[inf], c[inf] = 0.5, 0.5
    nan = np.isnan(x)
    s[nan], c[nan] = np.nan, np.nan
    return s * np.sign(x), c * np.sign(x)


def fresnel_sin(x):
    x = np.asarray(x, np.float64)
    return _fresnel(x)[0].reshape(x.shape)


def fresnel_cos(x):
    x = np.asarray(x, np.float64)
    return _fresnel(x)[1].reshape(x.shape)


@_elementwise
def spence(x):
    """``∫_1^x log(t) / (1 - t) dt`` (x ≥ 0), over ``u = log t``."""
    out = np.full_like(x, np.nan)
    out[x == 0] = np.pi ** 2 / 6
    out[np.isposinf(x)] = -np.inf
    pos = (x > 0) & np.isfinite(x)
    if pos.any():
        end = np.maximum(np.log(x[pos]), -60.0)

        def integrand(u):
            with np.errstate(invalid="ignore", divide="ignore"):
                return np.where(u == 0, -1.0, u / np.expm1(-u))
        out[pos] = _gauss(integrand, np.zeros_like(end), end, 160)
    return out


# B_2k / (2k)!, for Euler-Maclaurin's sum
_BERNOULLI = [1 / 6, -1 / 30, 1 / 42, -1 / 30, 5 / 66, -691 / 2730, 7 / 6, -3617 / 510, 43867 / 798, -174611 / 330,
              854513 / 138, -236364091 / 2730]
_B2K = [b / math.factorial(2 * (k + 1)) for k, b in enumerate(_BERNOULLI)]


def _zeta(x: float, q: float) -> float:
    """Hurwitz's zeta ``Σ_k (k + q)^-x``, as TensorFlow's (Cephes's) domain: x > 1, q > 0."""
    if math.isnan(x) or math.isnan(q):
        return math.nan
    if x == 1:
        return math.inf
    if x < 1:
        return math.nan
    if q <= 0 and (q == math.floor(q) or x != math.floor(x)):
        return math.inf if q == math.floor(q) else math.nan
    n = 12
    s = sum((q + k) ** -x for k in range(n))
    a = q + n
    s += a ** (1 - x) / (x - 1) + 0.5 * a ** -x
    factor = x * a ** (-x - 1)
    for k, b in enumerate(_B2K):
        s += b * factor
        factor *= (x + 2 * k + 1) * (x + 2 * k + 2) / (a * a)
    return s


zeta = np.vectorize(_zeta, otypes=[np.float64])


def _igamma_series(a: float, x: float) -> float:
    term = s = 1.0 / a
    ap = a
    for _ in range(2000):
        ap += 1
        term *= x / ap
        s += term
        if abs(term) < abs(s) * 1e-17:
            break
    return s * math.exp(-x + a * math.log(x) - math.lgamma(a))


def _igammac_fraction(a: float, x: float) -> float:
    b = x + 1 - a
    c = 1e300
    d = 1 / b
    h = d
    for i in range(1, 2000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = 1e-300 if abs(d) < 1e-300 else d
        c = b + an / c
        c = 1e-300 if abs(c) < 1e-300 else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-16:
            break
    return math.exp(-x + a * math.log(x) - math.lgamma(a)) * h


def _igamma(a: float, x: float, upper: bool) -> float:
    if math.isnan(a) or math.isnan(x) or a <= 0 or x < 0:
        return math.nan
    if x == 0:
        return 1.0 if upper else 0.0
    if math.isinf(x):
        return 0.0 if upper else 1.0
    if x < a + 1:
        p = _igamma_series(a, x)
        return 1 - p if upper else p
    q = _igammac_fraction(a, x)
    return q if upper else 1 - q


igamma = np.vectorize(lambda a, x: _igamma(a, x, False), otypes=[np.float64])
igammac = np.vectorize(lambda a, x: _igamma(a, x, True), otypes=[np.float64])


def _beta_fraction(a: float, b: float, x: float) -> float:
    qab, qap, qam = a + b, a + 1, a - 1
    c, d = 1.0, 1 - qab * x / qap
    d = 1e-300 if abs(d) < 1e-300 else d
    d = 1 / d
    h = d
    for m in range(1, 3000):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1 + aa * d
        d = 1e-300 if abs(d) < 1e-300 else d
        c = 1 + aa / c
        c = 1e-300 if abs(c) < 1e-300 else c
        d = 1 / d
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1 + aa * d
        d = 1e-300 if abs(d) < 1e-300 else d
        c = 1 + aa / c
        c = 1e-300 if abs(c) < 1e-300 else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-16:
            break
    return h


def _betainc(a: float, b: float, x: float) -> float:
    """The regularized incomplete beta function I_x(a, b)."""
    if math.isnan(a) or math.isnan(b) or math.isnan(x) or a <= 0 or b <= 0 or x < 0 or x > 1:
        return math.nan
    if x == 0 or x == 1:
        return x
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x))
    if x < (a + 1) / (a + b + 2):
        return front * _beta_fraction(a, b, x) / a
    return 1 - front * _beta_fraction(b, a, 1 - x) / b


betainc = np.vectorize(_betainc, otypes=[np.float64])


def _erfc_inverse(y: float) -> float:
    """z with erfc(z) = y, 0 < y < 2 (Newton's method from a rational first guess)."""
    if y > 1:
        return -_erfc_inverse(2 - y)
    if y == 1:
        return 0.0
    t = math.sqrt(-2 * math.log(y / 2))
    z = (t - (2.515517 + 0.802853 * t + 0.010328 * t * t) / (1 + 1.432788 * t + 0.189269 * t * t + 0.001308 * t ** 3)) \
        / math.sqrt(2)
    for _ in range(60):
        step = (math.erfc(z) - y) / (-2 / math.sqrt(math.pi) * math.exp(-z * z))
        z -= step
        if abs(step) <= 1e-16 * max(1.0, abs(z)):
            break
    return z


def _erfinv(y: float) -> float:
    if math.isnan(y) or abs(y) > 1:
        return math.nan
    if abs(y) == 1:
        return math.copysign(math.inf, y)
    if abs(y) < 0.5:  # Newton on erf itself, where 1 - y loses nothing
        z = y * math.sqrt(math.pi) / 2
        for _ in range(60):
            step = (math.erf(z) - y) / (2 / math.sqrt(math.pi) * math.exp(-z * z))
            z -= step
            if abs(step) <= 1e-17 * max(abs(z), 1e-300):
                break
        return z
    return math.copysign(_erfc_inverse(1 - abs(y)), y)


def _ndtri(p: float) -> float:
    if math.isnan(p) or p < 0 or p > 1:
        return math.nan
    if p == 0:
        return -math.inf
    if p == 1:
        return math.inf
    return -math.sqrt(2) * _erfc_inverse(2 * p) + 0.0  # ndtri(0.5) is +0


erfinv = np.vectorize(_erfinv, otypes=[np.float64])
ndtri = np.vectorize(_ndtri, otypes=[np.float64])
