"""Replication statistics: mean, sample standard deviation, Student-t confidence intervals.

The t quantile is computed from the t distribution's CDF, written with the regularised
incomplete beta function I_x(a, b) (Abramowitz & Stegun 26.7.1):
P(T <= t) = 1 - I_{n/(n+t^2)}(n/2, 1/2) / 2 for t >= 0, and I is evaluated by its
continued fraction (A&S 26.5.8) with the modified Lentz method. The quantile is then found
by bisection, which is plenty for confidence levels (1e-12 relative).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

__all__ = [
    "Summary",
    "means_differ",
    "student_t_cdf",
    "student_t_quantile",
    "summarize_values",
]


def _betacf(a: float, b: float, x: float) -> float:
    tiny = 1e-300
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c, d = 1.0, 1.0 - qab * x / qap
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 10_000):
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


def _betainc(a: float, b: float, x: float) -> float:
    """Regularised incomplete beta I_x(a, b), 0 <= x <= 1."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    ln_front = (
        math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    )
    front = math.exp(ln_front)
    # The continued fraction converges fast for x < (a+1)/(a+b+2); use symmetry otherwise.
    if x < (a + 1.0) / (a + b + 2.0):
        return front * _betacf(a, b, x) / a
    return 1.0 - front * _betacf(b, a, 1.0 - x) / b


def student_t_cdf(t: float, df: float) -> float:
    """P(T <= t) for Student's t with ``df`` degrees of freedom."""
    if df <= 0:
        raise ValueError(f"degrees of freedom must be positive, not {df}")
    tail = 0.5 * _betainc(df / 2.0, 0.5, df / (df + t * t))
    return 1.0 - tail if t >= 0 else tail


def student_t_quantile(p: float, df: float) -> float:
    """The t with P(T <= t) = p (e.g. p = 0.975 for a two-sided 95% interval)."""
    if not 0.0 < p < 1.0:
        raise ValueError(f"p must be in (0, 1), not {p}")
    if p == 0.5:
        return 0.0
    if p < 0.5:
        return -student_t_quantile(1.0 - p, df)
    lo, hi = 0.0, 1.0
    while student_t_cdf(hi, df) < p:
        lo, hi = hi, hi * 2.0
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if student_t_cdf(mid, df) < p:
            lo = mid
        else:
            hi = mid
        if hi - lo <= 1e-13 * hi:
            break
    return 0.5 * (lo + hi)


@dataclass(frozen=True)
class Summary:
    """Statistics of one metric at one sweep point over its replications."""

    n: int
    mean: float
    std: float  # sample standard deviation (n - 1); 0 for one replication
    half_width: float  # of the confidence interval; nan for one replication
    confidence: float = 0.95

    @property
    def ci_low(self) -> float:
        return self.mean - self.half_width

    @property
    def ci_high(self) -> float:
        return self.mean + self.half_width

    @property
    def relative_half_width(self) -> float:
        """Half-width over |mean|: 0 when every replication agrees, inf for a zero mean."""
        if self.half_width == 0.0:
            return 0.0
        if self.mean == 0.0 or math.isnan(self.half_width):
            return math.inf
        return abs(self.half_width / self.mean)


def summarize_values(values: Iterable[float | None], confidence: float = 0.95) -> Summary | None:
    """Mean, standard deviation and Student-t CI of the non-missing values (None if none)."""
    xs = [float(v) for v in values if v is not None and not math.isnan(v)]
    n = len(xs)
    if n == 0:
        return None
    mean = math.fsum(xs) / n
    if n == 1:
        return Summary(1, mean, 0.0, math.nan, confidence)
    var = math.fsum((x - mean) ** 2 for x in xs) / (n - 1)
    std = math.sqrt(var)
    t = student_t_quantile(0.5 + confidence / 2.0, n - 1)
    return Summary(n, mean, std, t * std / math.sqrt(n), confidence)


def means_differ(a: Summary, b: Summary) -> bool | None:
    """Welch's two-sided t-test at ``a``'s confidence: do the means of ``a`` and ``b``
    differ? Welch (1947) with the Welch-Satterthwaite degrees of freedom; None when either
    has a single replication (no variance to test with). Two points whose replications all
    agree differ exactly when their means do."""
    if a.n < 2 or b.n < 2:
        return None
    va, vb = a.std**2 / a.n, b.std**2 / b.n
    se2, gap = va + vb, abs(a.mean - b.mean)
    if se2 == 0.0:
        return gap > 0.0
    df = se2**2 / (va**2 / (a.n - 1) + vb**2 / (b.n - 1))
    return gap > student_t_quantile(0.5 + a.confidence / 2.0, df) * math.sqrt(se2)
