"""Fitting [radio.gilbert_elliott] to a measured link, and checking the fit on data it did not
see.

The fit takes the probes' fates as the chain's states (good = delivered, bad = lost: Gilbert's
model, ``loss_good`` 0 and ``loss_bad`` 1) and estimates the one-step transition
probabilities by their maximum-likelihood counts, p = n(g->b) / n(g) and q = n(b->g) / n(b).
A continuous-time two-state chain sampled every h has exactly these when its total rate is
lambda = -ln(1 - p - q) / h and its bad share pi = p / (p + q) (the chain's transient
solution, as phy/dynamics/gilbert_elliott.rs uses it): the rate good -> bad is pi lambda,
so good_mean_s = 1 / (pi lambda) and bad_mean_s = 1 / ((1 - pi) lambda). Where p + q >= 1
the losses carry no memory at the probe spacing (or alternate): the fit is then independent
loss at the link's loss ratio (``loss_good`` = ``loss_bad``), which the chain represents
exactly.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from .trace import LinkSeries

__all__ = [
    "GaussMarkovFit",
    "GilbertFit",
    "HeldOut",
    "autocorrelation",
    "burst_lengths",
    "fit_link",
    "held_out_report",
    "fit_snr",
]


@dataclass(frozen=True)
class GilbertFit:
    """A link's fitted `[radio.gilbert_elliott]` table."""

    src: int
    dst: int
    probes: int
    interval_s: float
    delivery: float
    good_mean_s: float
    bad_mean_s: float
    loss_good: float
    loss_bad: float
    memoryless: bool

    def table(self) -> dict[str, float]:
        """The scenario table (keys of docs/models.md 23)."""
        return {
            "good_mean_s": self.good_mean_s,
            "bad_mean_s": self.bad_mean_s,
            "loss_good": self.loss_good,
            "loss_bad": self.loss_bad,
        }


def fit_link(link: LinkSeries) -> GilbertFit:
    """The Gilbert-Elliott table that reproduces ``link``'s fates (at least 2 probes)."""
    fates, h = link.delivered, link.interval_s
    if len(fates) < 2 or not h > 0:
        raise ValueError(f"link {link.src}->{link.dst}: needs two probes or more over time")
    n_g = n_b = n_gb = n_bg = 0
    for a, b in zip(fates, fates[1:], strict=False):
        if a:
            n_g += 1
            n_gb += not b
        else:
            n_b += 1
            n_bg += b
    p = n_gb / n_g if n_g else 1.0
    q = n_bg / n_b if n_b else 1.0
    loss = 1.0 - link.delivery
    base = {"src": link.src, "dst": link.dst, "probes": len(fates), "interval_s": h}
    # No transition one way (losses only at an end, or none): nothing to fit a memory to.
    if p + q >= 1.0 or p == 0.0 or q == 0.0:
        return GilbertFit(**base, delivery=1 - loss, good_mean_s=h, bad_mean_s=h,
                          loss_good=loss, loss_bad=loss, memoryless=True)  # fmt: skip
    rate = -math.log(1.0 - p - q) / h
    pi_bad = p / (p + q)
    return GilbertFit(**base, delivery=1 - loss, good_mean_s=1 / (pi_bad * rate),
                      bad_mean_s=1 / ((1 - pi_bad) * rate), loss_good=0.0, loss_bad=1.0,
                      memoryless=False)  # fmt: skip


def burst_lengths(fates: Sequence[bool]) -> list[int]:
    """The lengths of the runs of consecutive losses."""
    out, run = [], 0
    for ok in fates:
        if ok:
            if run:
                out.append(run)
            run = 0
        else:
            run += 1
    if run:
        out.append(run)
    return out


def autocorrelation(fates: Sequence[bool], lags: Sequence[int]) -> list[float]:
    """The sample autocorrelation of the delivered indicator at ``lags`` (NaN where the
    indicator does not vary)."""
    x = [float(v) for v in fates]
    n = len(x)
    mean = sum(x) / n if n else math.nan
    var = sum((v - mean) ** 2 for v in x) / n if n else 0.0
    if not var > 0:
        return [math.nan for _ in lags]
    return [
        sum((x[i] - mean) * (x[i + k] - mean) for i in range(n - k)) / (n * var) if k < n
        else math.nan
        for k in lags
    ]  # fmt: skip


@dataclass(frozen=True)
class HeldOut:
    """One link: the measured held-out half beside a simulated link of the fitted model."""

    fit: GilbertFit
    delivery_measured: float
    delivery_simulated: float
    burst_measured: float
    burst_simulated: float
    #: Autocorrelation of the delivered indicator at lags 1..10 (probes).
    acf_measured: tuple[float, ...] = ()
    acf_simulated: tuple[float, ...] = ()

    @property
    def delivery_error(self) -> float:
        return abs(self.delivery_simulated - self.delivery_measured)

    @property
    def burst_ratio(self) -> float:
        """Simulated over measured mean loss-burst length (NaN without bursts)."""
        if not self.burst_measured > 0:
            return math.nan
        return self.burst_simulated / self.burst_measured


def _mean(xs: Sequence[int]) -> float:
    return sum(xs) / len(xs) if xs else math.nan


#: A simulated link: (fit, probes, spacing in s, seed) -> the probes' fates.
Simulate = Callable[["GilbertFit", int, float, int], list[bool]]


def held_out_report(link: LinkSeries, simulate: Simulate, seed: int = 1) -> HeldOut:
    """Fit ``link``'s first half, then compare its second half with ``simulate(fit,
    probes, interval_s, seed)`` (the fates of a simulated link: hopsim.links.sim)."""
    first, second = link.halves()
    fit = fit_link(first)
    fates = simulate(fit, len(second.delivered), fit.interval_s, seed)
    lags = range(1, 11)
    return HeldOut(fit, second.delivery, sum(fates) / len(fates),
                   _mean(burst_lengths(second.delivered)), _mean(burst_lengths(fates)),
                   tuple(autocorrelation(second.delivered, lags)),
                   tuple(autocorrelation(fates, lags)))  # fmt: skip


@dataclass(frozen=True)
class GaussMarkovFit:
    """A link's SNR as a mean plus `[radio.gauss_markov]` (from the probes that arrived)."""

    mean_db: float
    sigma_db: float
    #: exp(-dt / coherence_s) fits the correlation of consecutive samples; NaN where they
    #: are not positively correlated (the coherence is below the probe spacing).
    coherence_s: float
    samples: int


def fit_snr(link: LinkSeries) -> GaussMarkovFit | None:
    """Mean, deviation and coherence of the SNR over the probes that arrived (None with
    fewer than 3 SNR samples). Probes that were lost carry no SNR, so where losses follow
    low SNR the deviation is an underestimate (the fades that lost probes are not seen)."""
    pts = [(t, v) for t, v in zip(link.times_s, link.snr_db, strict=True) if v is not None]
    if len(pts) < 3:
        return None
    xs = [v for _, v in pts]
    n, mean = len(xs), sum(xs) / len(xs)
    var = sum((v - mean) ** 2 for v in xs) / (n - 1)
    pairs = [(a, b, tb - ta) for (ta, a), (tb, b) in zip(pts, pts[1:], strict=False) if tb > ta]
    coherence = math.nan
    if var > 0 and pairs:
        rho = sum((a - mean) * (b - mean) for a, b, _ in pairs) / (len(pairs) * var)
        gap = sum(d for _, _, d in pairs) / len(pairs)
        if 0 < rho < 1:
            coherence = -gap / math.log(rho)
    return GaussMarkovFit(mean, math.sqrt(var), coherence, n)
