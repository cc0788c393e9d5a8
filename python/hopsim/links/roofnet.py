"""MIT Roofnet's link-level probe traces (Aguayo, Bicket, Biswas, Judd, Morris, "Link-level
Measurements from an 802.11b Mesh Network", SIGCOMM 2004) in hopsim's link-trace format.

The set (as Stanford's CS303 cleaned it): per bit rate a folder of ``<src>-<dst>-<rate>.csv``,
one row per probe ``dst`` received from ``src`` (``exp_id,link_test,test_phase,src,dst,seq,
time,signal,noise``; the probe's number is ``seq`` & 0xFFFFFF, ``time`` the receiver's clock,
seconds), and ``send-<src>-<rate>.txt`` (``<src> <probes sent>``). A probe not in a link's
file was lost. Its send time is the link's own clock line (least squares over the probes
received, time against number), so lost probes get the time they were sent at; SNR is
``signal - noise`` (the cards' units, close to dB). Node ids are the addresses in sorted
order. hopsim ships no Roofnet data (MIT published no licence for it): bring your own copy.
"""

from __future__ import annotations

import csv
import math
import re
from pathlib import Path

from .._core import ScenarioError
from .trace import LinkSeries

__all__ = ["read_roofnet"]

_LINK = re.compile(r"^(\d+)-(\d+)-([\d.]+)\.csv$")
_SEQ_MASK = 0xFFFFFF


def _sent(folder: Path, src: str, rate: str) -> int:
    path = folder / f"send-{src}-{rate}.txt"
    try:
        words = path.read_text(encoding="utf-8").split()
    except UnicodeDecodeError:
        raise ScenarioError(f"{path}: not '<src> <probes sent>': not UTF-8 text") from None
    except OSError as e:
        raise ScenarioError(f"{path}: cannot read the probes sent ({e.strerror or e})") from None
    if len(words) != 2 or words[0] != src or not words[1].isdigit():
        raise ScenarioError(f"{path}: not '<src> <probes sent>': {' '.join(words)[:60]!r}")
    return int(words[1])


def _received(path: Path) -> dict[int, tuple[float, float]]:
    """Probe number -> (receive time, signal - noise)."""
    out: dict[int, tuple[float, float]] = {}
    try:
        with path.open(encoding="utf-8", newline="") as fh:
            for n, row in enumerate(csv.DictReader(fh), start=2):
                try:
                    k = int(row["seq"]) & _SEQ_MASK
                    t, snr = float(row["time"]), float(row["signal"]) - float(row["noise"])
                except (KeyError, TypeError, ValueError):
                    raise ScenarioError(f"{path}:{n}: not a Roofnet probe row") from None
                if not (math.isfinite(t) and math.isfinite(snr)):
                    raise ScenarioError(f"{path}:{n}: a time or signal that is not a number")
                out[k] = (t, snr)
    except UnicodeDecodeError:
        raise ScenarioError(f"{path}: not a Roofnet link file: not UTF-8 text") from None
    except OSError as e:
        raise ScenarioError(f"{path}: cannot read ({e.strerror or e})") from None
    return out


def _clock(rx: dict[int, tuple[float, float]]) -> tuple[float, float]:
    """(time of probe 0, spacing): least squares of receive time against probe number."""
    ks = sorted(rx)
    n = len(ks)
    mk = sum(ks) / n
    mt = sum(rx[k][0] for k in ks) / n
    sxx = sum((k - mk) ** 2 for k in ks)
    slope = sum((k - mk) * (rx[k][0] - mt) for k in ks) / sxx
    return mt - slope * mk, slope


def read_roofnet(folder: str | Path, rate: str = "1") -> tuple[list[LinkSeries], dict[int, str]]:
    """The links of the Roofnet folder of one bit rate (``1``, ``2``, ``5.5``, ``11``) with
    two or more probes received, and the node map (id -> Roofnet address)."""
    root = Path(folder)
    pairs = []
    for p in sorted(root.glob(f"*-*-{rate}.csv")):
        if m := _LINK.match(p.name):
            pairs.append((m.group(1), m.group(2), p))
    if not pairs:
        raise ScenarioError(f"{root}: no Roofnet link files '<src>-<dst>-{rate}.csv'")
    addresses = sorted({a for s, d, _ in pairs for a in (s, d)}, key=int)
    ids = {a: i for i, a in enumerate(addresses)}
    links = []
    for src, dst, path in pairs:
        rx = _received(path)
        sent = _sent(root, src, rate)
        if len(rx) < 2 or max(rx) >= sent:
            continue  # no clock line to place the lost probes on, or not this sender's
        t0, step = _clock(rx)
        link = LinkSeries(ids[src], ids[dst])
        for k in range(sent):
            link.times_s.append(max(0.0, step * k))
            got = rx.get(k)
            link.delivered.append(got is not None)
            link.snr_db.append(None if got is None else got[1])
        links.append(link)
    return links, {i: a for a, i in ids.items()}
