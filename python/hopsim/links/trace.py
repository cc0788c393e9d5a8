"""hopsim's link-trace format: one CSV row per probe sent on a directed link.

    # comments (the source, the node map)
    src,dst,time_s,delivered[,snr_db]
    0,1,0.0000,1,23.0
    0,1,0.0127,0,

``src``, ``dst``: node ids (0..), different; ``time_s``: seconds from the trace's start,
non-decreasing on each link; ``delivered``: 1 if the probe arrived, else 0; ``snr_db``
(optional column): the probe's SNR where it arrived, empty where it did not. Bad rows are
refused naming the file, line, column, value and what is allowed.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from .._core import ScenarioError

__all__ = ["HEADER", "MAX_TRACE_BYTES", "LinkSeries", "read_trace", "write_trace"]

HEADER = ("src", "dst", "time_s", "delivered")
#: The largest trace read (MIT Roofnet's 1 Mbit/s set is about 80 MB in this format).
MAX_TRACE_BYTES = 512 * 1024 * 1024
#: The largest node id a trace may name.
MAX_NODE = 100_000
#: The latest probe time (the longest run hopsim simulates, scenario/ranges).
MAX_TIME_S = 1e7


@dataclass
class LinkSeries:
    """The probes of one directed link, in time order."""

    src: int
    dst: int
    times_s: list[float] = field(default_factory=list)
    delivered: list[bool] = field(default_factory=list)
    snr_db: list[float | None] = field(default_factory=list)

    @property
    def delivery(self) -> float:
        return sum(self.delivered) / len(self.delivered) if self.delivered else math.nan

    @property
    def interval_s(self) -> float:
        """The mean spacing of the probes (NaN with fewer than two)."""
        n = len(self.times_s)
        return (self.times_s[-1] - self.times_s[0]) / (n - 1) if n > 1 else math.nan

    def halves(self) -> tuple[LinkSeries, LinkSeries]:
        """The first and second half of the probes (for a fit and its held-out check)."""
        k = len(self.times_s) // 2
        a = LinkSeries(self.src, self.dst, self.times_s[:k], self.delivered[:k], self.snr_db[:k])
        b = LinkSeries(self.src, self.dst, self.times_s[k:], self.delivered[k:], self.snr_db[k:])
        return a, b


def _refuse(path: Path, line: int, what: str) -> ScenarioError:
    return ScenarioError(f"{path}:{line}: {what}")


def _node(path: Path, line: int, name: str, text: str) -> int:
    if not text.isdigit() or int(text) > MAX_NODE:
        raise _refuse(path, line, f"{name} = {text!r}: not a node id (0 to {MAX_NODE})")
    return int(text)


def _number(path: Path, line: int, name: str, text: str, allowed: str) -> float:
    try:
        v = float(text)
    except ValueError:
        v = math.nan
    if not math.isfinite(v):
        raise _refuse(path, line, f"{name} = {text!r}: not allowed, {allowed}")
    return v


def read_trace(path: str | Path) -> dict[tuple[int, int], LinkSeries]:
    """Every link of the trace at ``path``, by (src, dst)."""
    p = Path(path)
    try:
        size = p.stat().st_size
        fh = p.open("r", encoding="utf-8", newline="")
    except OSError as e:
        raise ScenarioError(f"{p}: cannot read the link trace ({e.strerror or e})") from None
    if size > MAX_TRACE_BYTES:
        fh.close()
        raise ScenarioError(
            f"{p}: not allowed, the link trace is larger than {MAX_TRACE_BYTES >> 20} MiB"
        )
    links: dict[tuple[int, int], LinkSeries] = {}
    try:
        with fh:
            columns = _rows(p, fh, links)
    except UnicodeDecodeError:
        raise ScenarioError(f"{p}: not a link trace: not UTF-8 text") from None
    if columns is None:
        raise ScenarioError(f"{p}: not a link trace: no header {','.join(HEADER)}")
    if not links:
        raise ScenarioError(f"{p}: the link trace has no probes")
    return links


def _rows(p: Path, fh: Iterable[str], links: dict[tuple[int, int], LinkSeries]) -> list[str] | None:
    """Read the rows into ``links``; the header's columns (None without one)."""
    columns: list[str] | None = None
    for n, raw in enumerate(fh, start=1):
        text = raw.strip()
        if not text or text.startswith("#"):
            continue
        cells = [c.strip() for c in text.split(",")]
        if columns is None:
            if tuple(cells[:4]) != HEADER or cells[4:] not in ([], ["snr_db"]):
                raise _refuse(p, n, f"header {text!r}: must be {','.join(HEADER)}[,snr_db]")
            columns = cells
            continue
        if len(cells) != len(columns):
            raise _refuse(p, n, f"{len(cells)} columns: the header names {len(columns)}")
        _row(p, n, cells, links)
    return columns


def _row(p: Path, n: int, cells: list[str], links: dict[tuple[int, int], LinkSeries]) -> None:
    src, dst = _node(p, n, "src", cells[0]), _node(p, n, "dst", cells[1])
    if src == dst:
        raise _refuse(p, n, f"src = dst = {src}: a link joins two nodes")
    t = _number(p, n, "time_s", cells[2], "seconds from the trace's start, 0 or more")
    if not 0 <= t <= MAX_TIME_S:
        raise _refuse(p, n, f"time_s = {cells[2]!r}: not allowed, 0 to {MAX_TIME_S:g} s")
    if cells[3] not in ("0", "1"):
        raise _refuse(p, n, f"delivered = {cells[3]!r}: not allowed, 0 or 1")
    ok = cells[3] == "1"
    snr: float | None = None
    if len(cells) > 4 and cells[4]:
        snr = _number(p, n, "snr_db", cells[4], "dB, or empty for a lost probe")
        if not ok:
            raise _refuse(p, n, f"snr_db = {cells[4]!r} for a lost probe: leave it empty")
    link = links.setdefault((src, dst), LinkSeries(src, dst))
    if link.times_s and t < link.times_s[-1]:
        raise _refuse(p, n, f"time_s = {cells[2]!r}: before the link's previous probe")
    link.times_s.append(t)
    link.delivered.append(ok)
    link.snr_db.append(snr)


def write_trace(
    path: str | Path, links: Iterable[LinkSeries], comments: Mapping[str, str] | None = None
) -> int:
    """Write ``links`` in the format above (with an ``snr_db`` column when any has one);
    returns the number of probes written."""
    links = list(links)
    with_snr = any(s is not None for link in links for s in link.snr_db)
    rows = 0
    with Path(path).open("w", encoding="utf-8", newline="\n") as fh:
        for k, v in (comments or {}).items():
            fh.write(f"# {k}: {v}\n")
        fh.write(",".join(HEADER + (("snr_db",) if with_snr else ())) + "\n")
        for link in links:
            for t, ok, snr in zip(link.times_s, link.delivered, link.snr_db, strict=True):
                row = f"{link.src},{link.dst},{t:.6f},{int(ok)}"
                if with_snr:
                    row += "," + ("" if snr is None else f"{snr:g}")
                fh.write(row + "\n")
                rows += 1
    return rows
