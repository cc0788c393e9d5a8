"""The fitting report: per link the fitted table, the held-out half beside the simulated
link, the share of links inside issue 33's bounds (delivery within 0.05, mean loss burst
within 20%), and a figure of the three comparisons."""

from __future__ import annotations

import csv
import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from .fit import GaussMarkovFit, HeldOut

__all__ = ["DELIVERY_BOUND", "BURST_BOUND", "Summary", "summarise", "write_csv", "figure"]

DELIVERY_BOUND = 0.05
BURST_BOUND = 0.20


@dataclass(frozen=True)
class Summary:
    links: int
    delivery_ok: int
    with_bursts: int
    burst_ok: int
    both_ok: int
    memoryless: int
    #: Mean over the links of the autocorrelation at lags 1..10: held-out, simulated.
    acf: tuple[tuple[float, ...], tuple[float, ...]] = ((), ())

    def lines(self) -> list[str]:
        n = self.links
        return [
            f"links: {n} ({self.memoryless} fitted as independent loss)",
            f"delivery within {DELIVERY_BOUND}: {self.delivery_ok} ({self.delivery_ok / n:.0%})",
            f"mean loss burst within {BURST_BOUND:.0%}: {self.burst_ok} of the "
            f"{self.with_bursts} with bursts in both",
            f"both: {self.both_ok} ({self.both_ok / n:.0%})",
            "mean autocorrelation of delivery at lags 1-10, held-out: "
            + " ".join(f"{v:.3f}" for v in self.acf[0]),
            "                                            simulated: "
            + " ".join(f"{v:.3f}" for v in self.acf[1]),
        ]


def _burst_ok(r: HeldOut) -> bool | None:
    ratio = r.burst_ratio
    if math.isnan(ratio) or math.isnan(r.burst_simulated):
        return None
    return abs(ratio - 1) <= BURST_BOUND


def summarise(rows: Sequence[HeldOut]) -> Summary:
    d_ok = [r.delivery_error <= DELIVERY_BOUND for r in rows]
    b_ok = [_burst_ok(r) for r in rows]
    return Summary(
        links=len(rows),
        delivery_ok=sum(d_ok),
        with_bursts=sum(b is not None for b in b_ok),
        burst_ok=sum(b is True for b in b_ok),
        both_ok=sum(d and b is not False for d, b in zip(d_ok, b_ok, strict=True)),
        memoryless=sum(r.fit.memoryless for r in rows),
        acf=(_mean_acf(rows, "acf_measured"), _mean_acf(rows, "acf_simulated")),
    )


def _mean_acf(rows: Sequence[HeldOut], pick: str) -> tuple[float, ...]:
    """Per lag, the mean over the links where the autocorrelation is defined."""
    lags = max((len(getattr(r, pick)) for r in rows), default=0)
    out = []
    for k in range(lags):
        v = [getattr(r, pick)[k] for r in rows if not math.isnan(getattr(r, pick)[k])]
        out.append(sum(v) / len(v) if v else math.nan)
    return tuple(out)


def write_csv(
    path: Path, rows: Sequence[HeldOut], snr: Sequence[GaussMarkovFit | None] = ()
) -> None:
    """One row per link: the fitted table (from the first half), the comparison and, where
    the trace has SNR, the whole link's SNR fit (mean, `[radio.gauss_markov]`)."""
    with path.open("w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)
        w.writerow(["src", "dst", "probes", "interval_s", "good_mean_s", "bad_mean_s",
                    "loss_good", "loss_bad", "memoryless", "delivery_measured",
                    "delivery_simulated", "burst_measured", "burst_simulated", "snr_mean_db",
                    "snr_sigma_db", "snr_coherence_s"])  # fmt: skip
        for k, r in enumerate(rows):
            f = r.fit
            g = snr[k] if k < len(snr) else None
            gm = ["", "", ""] if g is None else [f"{g.mean_db:.4g}", f"{g.sigma_db:.4g}",
                                                 f"{g.coherence_s:.4g}"]  # fmt: skip
            w.writerow([f.src, f.dst, f.probes, f"{f.interval_s:.6g}", f"{f.good_mean_s:.6g}",
                        f"{f.bad_mean_s:.6g}", f"{f.loss_good:.6g}", f"{f.loss_bad:.6g}",
                        int(f.memoryless), f"{r.delivery_measured:.4f}",
                        f"{r.delivery_simulated:.4f}", f"{r.burst_measured:.4g}",
                        f"{r.burst_simulated:.4g}", *gm])  # fmt: skip


def figure(path: Path, rows: Sequence[HeldOut]) -> None:
    """Delivery and mean burst, held-out against simulated, and the mean autocorrelation."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(1, 3, figsize=(13, 4.2))
    dm = [r.delivery_measured for r in rows]
    ax[0].scatter(dm, [r.delivery_simulated for r in rows], s=6)
    ax[0].plot([0, 1], [0, 1], color="grey", lw=0.8)
    ax[0].set(xlabel="delivery, held-out half", ylabel="delivery, simulated", title="delivery")
    pairs = [(r.burst_measured, r.burst_simulated) for r in rows if _burst_ok(r) is not None]
    if pairs:
        ax[1].scatter(*zip(*pairs, strict=True), s=6)
        top = max(max(p) for p in pairs)
        ax[1].plot([1, top], [1, top], color="grey", lw=0.8)
        ax[1].set(xscale="log", yscale="log")
    ax[1].set(xlabel="mean loss burst, held-out (probes)", ylabel="simulated (probes)",
              title="loss bursts")  # fmt: skip
    lags = list(range(1, 11))
    for name, pick in (("held-out", "acf_measured"), ("simulated", "acf_simulated")):
        ax[2].plot(lags, _mean_acf(rows, pick), marker="o", label=name)
    ax[2].set(xlabel="lag (probes)", ylabel="mean autocorrelation of delivery",
              title="memory")  # fmt: skip
    ax[2].legend()
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
