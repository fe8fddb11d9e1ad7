"""Small statistics for :mod:`stpete.experiment`, standard library only: means with Student-t 95% intervals, the
paired t test and the exact sign test (two-sided p-values). The t distribution comes from the regularized
incomplete beta function (continued fraction, Numerical Recipes §6.4)."""
import math

__all__ = ["mean_ci", "t_sf2", "t_quantile", "paired_t", "sign_test"]


def _betacf(a, b, x):
    """Continued fraction of the incomplete beta function (modified Lentz)."""
    tiny = 1e-300
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c, d = 1.0, 1.0 - qab * x / qap
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 400):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < 1e-15:
            break
    return h


def _betai(a, b, x):
    """Regularized incomplete beta I_x(a, b)."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x))
    if x < (a + 1.0) / (a + b + 2.0):
        return front * _betacf(a, b, x) / a
    return 1.0 - front * _betacf(b, a, 1.0 - x) / b


def t_sf2(t, df):
    """Two-sided tail probability P(|T| >= |t|) of Student's t with ``df`` degrees of freedom."""
    if math.isinf(t):
        return 0.0
    return _betai(df / 2.0, 0.5, df / (df + t * t))


def t_quantile(p, df):
    """The t value with P(|T| >= t) = 1 - p (e.g. p = 0.95 gives 1.96 for large df), by bisection."""
    lo, hi = 0.0, 1000.0
    for _ in range(100):
        mid = (lo + hi) / 2
        if t_sf2(mid, df) > 1 - p:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def mean_ci(values):
    """(mean, half-width of its 95% interval, n): Student t on the sample standard deviation; half-width 0 for
    n < 2."""
    n = len(values)
    if n == 0:
        return float("nan"), float("nan"), 0
    mean = math.fsum(values) / n
    if n < 2:
        return mean, 0.0, n
    var = math.fsum((v - mean) ** 2 for v in values) / (n - 1)
    return mean, t_quantile(0.95, n - 1) * math.sqrt(var / n), n


def paired_t(diffs):
    """Paired t test on differences: (mean, 95% half-width, t, two-sided p, n). With no spread, p is 1 for a zero
    mean and 0 otherwise (t is then 0 or ±inf)."""
    mean, half, n = mean_ci(diffs)
    if n < 2:
        return mean, half, float("nan"), float("nan"), n
    sd = math.sqrt(math.fsum((d - mean) ** 2 for d in diffs) / (n - 1))
    if sd == 0.0:
        return mean, 0.0, 0.0 if mean == 0 else math.copysign(math.inf, mean), 1.0 if mean == 0 else 0.0, n
    t = mean / (sd / math.sqrt(n))
    return mean, half, t, t_sf2(t, n - 1), n


def sign_test(diffs):
    """Exact two-sided sign test (ties dropped): (positives, negatives, p). Normal approximation with continuity
    correction above 5000 non-zero differences."""
    pos = sum(1 for d in diffs if d > 0)
    neg = sum(1 for d in diffs if d < 0)
    n = pos + neg
    if n == 0:
        return pos, neg, 1.0
    k = min(pos, neg)
    if n > 5000:
        z = (abs(pos - neg) - 1) / math.sqrt(n)
        return pos, neg, min(1.0, math.erfc(max(z, 0.0) / math.sqrt(2)))
    tail = sum(math.comb(n, i) for i in range(k + 1))
    return pos, neg, min(1.0, 2 * tail / 2 ** n)
