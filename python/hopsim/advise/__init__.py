"""The CWL advisor: what each published rule says the TCP congestion window limit (CWL) of an
h-hop path should be, and a quick sweep that picks the best window and TCP variant.

from hopsim.advise import rules, search
for r in rules(7):
    print(r.rule, r.formula, r.value, r.in_flight())
res = search(7)
print(res.recommended.variant, res.recommended.window)

The rules and their sources are docs/research/paper-values.md section 6; ``Sxxx:L``
means line L of /work/shared/seeds/xxx_*.txt. CWLs are in segments and may be fractional;
the core lets floor(min(CWL, receiver_window)) segments be in flight, at least one
(docs/models.md 8.1), so 1.75 and 1 behave alike.
"""

from __future__ import annotations

import json
import math
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .. import _core
from ..scenario import RTS_NEVER_BYTES
from ..sweeps import Summary, load_sweep, run_sweep, summarize

__all__ = [
    "RATES",
    "RECEIVER_WINDOW",
    "default_receiver_window",
    "Recommendation",
    "SearchResult",
    "SearchRow",
    "build_sweep",
    "candidate_windows",
    "chen_table1",
    "choose",
    "in_flight",
    "parse_rate",
    "rules",
    "search",
    "summary_line",
    "testbed_table3",
    "window_key",
]

#: The 802.11b rates the rules were published for (Mbit/s); the testbed table also has "auto"
#: (rate adaptation). The advisor answers for 802.11b chains only.
RATES = (1.0, 2.0, 5.5, 11.0)


def default_receiver_window() -> int:
    """The core's default ``tcp.receiver_window`` (segments, ns-2's ``window_``), read from
    a resolved scenario: the Rust scenario model is its one home."""
    minimal = {
        "topology": {"kind": "chain", "hops": 1, "spacing_m": 200.0},
        "flows": [{"src": 0, "dst": 1, "transport": "tcp"}],
    }
    resolved = json.loads(_core.validate_json(json.dumps(minimal)))
    return int(resolved["tcp"]["receiver_window"])


#: The receiver window the advisor's paths use (the core's default): no CWL above it has an
#: effect.
RECEIVER_WINDOW = default_receiver_window()
#: Every TCP variant, from the core (its one list: ``TcpVariant::ALL``).
TCP_VARIANTS = tuple(_core.tcp_variants())
SEARCH_VARIANTS = ("newreno", "sack", "vegas")
# Quick runs: 100 s (10 s warmup) x 5 replications keeps h <= 8 well under a minute on 2
# cores (~90 runs of ~0.1 s) while the 95% CIs are a few kbit/s wide.
DEFAULT_DURATION_S = 100.0
DEFAULT_REPLICATIONS = 5

# Chen et al. Table 1 (S001:156-162): (largest round-trip hop count N of the row, CWL), as
# the core's hop_based window limit has it (its one home: transport/tcp/limits.rs).
CHEN_TABLE1 = tuple(_core.chen_table1())
# Kawadia & Kumar's rule, 1.5 segments per hop (the core's kawadia window limit).
KAWADIA = _core.KAWADIA_SEGMENTS_PER_HOP

# Koutsonikolas et al. Table 3 (S003:216-225), as printed: (hops, rate) -> (RTS/CTS, CWND).
# "on/off, 1/4" reads "1 MSS with RTS/CTS on, 4 MSS with it off" (table caption).
TESTBED_TABLE3: dict[tuple[int, str], tuple[str, str]] = {
    (1, "2"): ("off", "2"), (1, "5.5"): ("off", "2"), (1, "auto"): ("off", "2"),
    (2, "2"): ("on/off", "1/2"), (2, "5.5"): ("off", "3"), (2, "auto"): ("off", "2"),
    (3, "2"): ("on/off", "1/4"), (3, "5.5"): ("on", "1"), (3, "auto"): ("on/off", "1/5"),
    (4, "2"): ("on/off", "1/6"), (4, "5.5"): ("on", "6"), (4, "auto"): ("on", "1"),
}  # fmt: skip
# The prose's best window per RTS/CTS setting, where Table 3 recommends the other setting:
# (hops, rate, rts on) -> (CWND, seed line). 1 hop: "no clear winner", < 5% (S003:129).
TESTBED_PROSE: dict[tuple[int, str, bool], tuple[float, str]] = {
    (2, "5.5", True): (1.0, "S003:154"), (2, "auto", True): (1.0, "S003:154"),
    (3, "5.5", False): (5.0, "S003:181"),
    (4, "5.5", False): (6.0, "S003:208"), (4, "auto", False): (6.0, "S003:208"),
}  # fmt: skip


@dataclass(frozen=True)
class Recommendation:
    """One published rule evaluated for a path. ``value`` is the CWL in segments (per flow,
    as published), None when the rule gives no value for this path (``note`` says why)."""

    rule: str  # R1..R15, the numbering of the research note's section 6
    name: str
    formula: str
    value: float | None
    source: str  # seed file:line
    kind: str = "recommendation"  # or "bound" (an upper bound) or "baseline" (not an optimum)
    high: float | None = None  # upper end when the rule gives a range
    per_flow: float | None = None  # each flow's share with K flows, where the rule defines it
    note: str = ""

    @property
    def applies(self) -> bool:
        return self.value is not None

    def windows(self) -> list[float]:
        """The CWL(s) a flow gets: the per-flow share if defined, else the value (and range end)."""
        if self.per_flow is not None:
            return [self.per_flow]
        return [v for v in (self.value, self.high) if v is not None]

    def in_flight(self, receiver_window: int = RECEIVER_WINDOW) -> list[int]:
        """Segments the core would allow in flight for each of :meth:`windows`."""
        return [in_flight(w, receiver_window) for w in self.windows()]


def in_flight(cwl: float, receiver_window: int = RECEIVER_WINDOW) -> int:
    """The core's segments in flight under a CWL: floor(min(CWL, rwnd)), at least 1."""
    return max(1, math.floor(min(cwl, receiver_window)))


def parse_rate(rate: float | str) -> float | str:
    """2, "2", "5.5", "auto" -> 2.0, 2.0, 5.5, "auto"; ValueError names what is allowed."""
    if isinstance(rate, str) and rate.strip().lower() == "auto":
        return "auto"
    try:
        value = float(rate)
    except (TypeError, ValueError):
        value = math.nan
    if value not in RATES:
        raise ValueError(
            f"{rate!r}: not allowed; allowed: 1, 2, 5.5, 11 (Mbit/s) or auto (the rules and the "
            "search are for 802.11b chains; 802.11a/g/n/ac rates and MCSs are not advised on)"
        )
    return value


def _rate_key(rate: float | str) -> str:
    return rate if isinstance(rate, str) else f"{rate:g}"


def chen_table1(round_trip_hops: int) -> float | None:
    """Chen et al.'s Table 1 optimal CWL for N round-trip hops; None beyond N = 30."""
    for top, cwl in CHEN_TABLE1:
        if round_trip_hops <= top:
            return cwl
    return None  # "results for longer chains can be obtained through similar simulations"


def testbed_table3(hops: int, rate: float | str, rts: bool) -> tuple[float | None, str]:
    """Koutsonikolas et al.'s recommended max window for (hops, rate, RTS/CTS) and a note."""
    key = _rate_key(rate)
    if not 1 <= hops <= 4:
        return None, "measured only for 1-4 hops"
    if (hops, key) not in TESTBED_TABLE3:
        return None, f"not measured at {key} Mbit/s (only 2, 5.5 and auto rate; S003:99)"
    setting, cwnd = TESTBED_TABLE3[(hops, key)]
    cell = f"Table 3: RTS/CTS {setting}, {cwnd.replace('/', ' / ')} MSS"
    mine = "on" if rts else "off"
    if setting == "on/off":  # first window with RTS/CTS on, second with it off
        w = float(cwnd.split("/")[0 if rts else 1])
        return w, f"{cell}; {w:g} MSS with RTS/CTS {mine}"
    if setting == mine:
        return float(cwnd), cell
    other = f"Table 3 recommends RTS/CTS {setting} with {cwnd} MSS"
    if (hops, key, rts) in TESTBED_PROSE:
        w, line = TESTBED_PROSE[(hops, key, rts)]
        return w, f"{other}; best with RTS/CTS {mine}: {w:g} MSS ({line})"
    # 1 hop: the window made < 5% difference, "no clear winner" (S003:129).
    return float(cwnd), f"{other}; the window changes < 5% at 1 hop (S003:129)"


def rules(
    hops: int, rate_mbps: float | str = 2.0, rts: bool = True, flows: int = 1
) -> list[Recommendation]:
    """Every published CWL rule of the research note (R1-R15) for an ``hops``-hop path.

    ``rate_mbps`` is 1, 2, 5.5, 11 or "auto" (it matters only for the testbed table);
    ``rts`` is RTS/CTS on; ``flows`` is the number of flows sharing the path.
    Raises ValueError for a bad argument.
    """
    if isinstance(hops, bool) or not isinstance(hops, int) or hops < 1:
        raise ValueError(f"hops {hops!r}: not allowed, an integer >= 1")
    if isinstance(flows, bool) or not isinstance(flows, int) or flows < 1:
        raise ValueError(f"flows {flows!r}: not allowed, an integer >= 1")
    rate = parse_rate(rate_mbps)
    h, n = hops, 2 * hops  # N = round-trip hops, twice the chain length (S001:166)
    table = chen_table1(n)
    table_note = "N = 2h" + (
        "; 2 is the authors' choice for 1-2 hops, only slightly better (S001:164)" if n <= 4 else ""
    )
    if table is None:
        table_note = (
            f"Table 1 stops at N = 30 (S001:166); the core's hop_based uses floor(N/5) = "
            f"{n // 5} beyond it"
        )
    w1 = 3.0 if h == 7 else None  # W_1* ~ 3 measured for one Vegas flow on 7 hops (S004:81)
    tb_value, tb_note = testbed_table3(h, rate, rts)
    return [
        Recommendation("R1", "Fu et al. 2003", "h/4", h / 4, "S001:50, S003:64, S002:271",
                       note="chain spatial reuse 1/4"),
        Recommendation("R2", "Chen Theorem 1", "<= N = 2h", 2.0 * h, "S001:79", kind="bound",
                       note="loose upper bound, not a target"),
        Recommendation("R3", "Chen Corollary 1", "<= kN, k in (1/8, 1/4)", h / 4, "S001:123",
                       kind="bound", high=h / 2, note="upper bound between h/4 and h/2"),
        Recommendation("R4", "Chen k = 1/5", "N/5 = 2h/5", 2 * h / 5, "S001:166"),
        Recommendation("R5", "Chen Table 1", "table of N", table, "S001:156-162",
                       note=table_note),
        Recommendation("R6", "Chen Corollary 2", "(sum d + sum d')/(4 d_max)",
                       None, "S001:191, S001:203",
                       note="computed at run time from per-hop MAC delays (window_limit = "
                       '"delay_based"); h/2 if every hop had the same delay'),
        Recommendation("R7", "Kawadia & Kumar 2005", "3h/2", KAWADIA * h, "S003:68, S003:56",
                       note="indoor testbed, RTS/CTS off"),
        Recommendation("R8", "Anastasi et al. 2007", "3", 3.0 if h <= 4 else None,
                       "S003:68, S003:55",
                       note="testbed chains" if h <= 4 else "measured only for <= 4 hops"),
        Recommendation("R9", "Oliveira & Braun 2005", "4", 4.0, "S003:64, S003:50",
                       note="simulation; independent of the hop count"),
        Recommendation("R10", "Xu & Saadawi 2001", "4", 4.0, "S003:66, S003:51",
                       note="802.11 LAN simulation; for non-Vegas TCPs"),
        Recommendation("R11", "Gerla et al. 1999", "1 or 2", 1.0,
                       "S001:46, S001:48", high=2.0, note="historical: small CWL best"),
        Recommendation("R12", "Holland; Dyer", "8", 8.0, "S001:46",
                       kind="baseline", note='a "common" MANET value, not an optimum'),
        Recommendation("R13", "Chen baseline", "256", 256.0, "S001:247", kind="baseline",
                       note=f"stand-in for no limit; receiver window {RECEIVER_WINDOW} binds"),
        Recommendation("R14", "Ding et al. (Vegas-W)", "W_1*/n, W_1* ~ 3", w1, "S004:81",
                       per_flow=w1 / flows if w1 is not None else None,
                       note=(f"per flow {w1 / flows:g} for n = {flows}; one Vegas flow, 7 hops"
                             if w1 is not None else "W_1* measured only for 7 hops")),
        Recommendation("R15", "Koutsonikolas Table 3",
                       "by hops, rate, RTS/CTS", tb_value, "S003:216-225", note=tb_note),
    ]  # fmt: skip


def summary_line(recs: list[Recommendation], hops: int) -> str:
    """One line: the range of the published recommendations (bounds and baselines left out)."""
    vals = [(w, r.rule) for r in recs if r.kind == "recommendation" for w in r.windows()]
    if not vals:
        return f"No published rule gives a CWL for a {hops}-hop path."
    lo, hi = min(vals), max(vals)
    flight = sorted({in_flight(w) for w, _ in vals})
    return (
        f"Published recommendations for h = {hops} (N = {2 * hops} round-trip hops): "
        f"{lo[0]:g} ({lo[1]}) to {hi[0]:g} ({hi[1]}) segments per flow; the core would allow "
        f"{flight[0]} to {flight[-1]} segments in flight."
    )


def window_key(cwl: float) -> float:
    """The window a CWL amounts to in the core: its segments in flight, 0 when no CWL or when
    the receiver window binds."""
    k = in_flight(cwl) if cwl > 0 else RECEIVER_WINDOW
    return 0.0 if k >= RECEIVER_WINDOW else float(k)


def candidate_windows(recs: list[Recommendation]) -> dict[float, list[str]]:
    """Distinct windows to try (what the core would use, floor and at least 1; 0 = no limit,
    also for CWLs at or above the receiver window) -> the rules that give them."""
    out: dict[float, list[str]] = {}
    for r in recs:
        if r.kind != "recommendation":
            continue
        for w in r.windows():
            key = window_key(w)
            out.setdefault(key, [])
            if r.rule not in out[key]:
                out[key].append(r.rule)
    out.setdefault(0.0, [])
    return dict(sorted(out.items(), key=lambda kv: kv[0] or math.inf))


def build_sweep(
    hops: int,
    rate_mbps: float = 2.0,
    rts: bool = True,
    flows: int = 1,
    variants: tuple[str, ...] | list[str] = SEARCH_VARIANTS,
    windows: list[float] | None = None,
    duration_s: float = DEFAULT_DURATION_S,
    replications: int = DEFAULT_REPLICATIONS,
    seed: int = 1,
) -> dict[str, Any]:
    """The search's sweep (format of :mod:`hopsim.sweeps.spec`): an h-hop chain, 200 m apart,
    K bulk TCP flows 0 -> h, variants x windows (0 = none). Vegas uses alpha = beta = 2, the
    best alpha of the DSN study (S000:31-33; beta = alpha as in docs/models.md)."""
    if windows is None:
        windows = list(candidate_windows(rules(hops, rate_mbps, rts, flows)))
    name = f"advise-h{hops}-{rate_mbps:g}mbps-rts{'on' if rts else 'off'}-k{flows}-r{replications}"
    return {
        "name": name,
        "scenario": {
            "duration_s": float(duration_s),
            "warmup_s": float(duration_s) / 10.0,
            "seed": seed,
            "topology": {"kind": "chain", "hops": hops, "spacing_m": 200.0},
            "mac": {
                "data_rate_mbps": float(rate_mbps),
                "rts_threshold_bytes": 0 if rts else RTS_NEVER_BYTES,
            },
            "routing": {"protocol": "static"},
            "tcp": {"variant": "newreno", "max_window": 0.0, "alpha": 2.0, "beta": 2.0},
            "flows": [
                {"src": 0, "dst": hops, "transport": "tcp", "payload_bytes": 1460}
                for _ in range(flows)
            ],
        },
        "replications": replications,
        "seed": seed,
        "metrics": ["goodput_kbps", "retransmissions"],
        "sweep": {
            "tcp.variant": list(dict.fromkeys(variants)),
            "tcp.max_window": list(dict.fromkeys(float(w) for w in windows)),
        },
    }


@dataclass(frozen=True)
class SearchRow:
    """One (variant, window) of the search: goodput (kbit/s, summed over flows) and
    transport retransmissions (summed over flows), each over the replications."""

    variant: str
    window: float  # 0 = no CWL (the receiver window binds)
    goodput: Summary | None
    retransmissions: Summary | None
    rules: tuple[str, ...] = ()

    @property
    def size(self) -> float:
        """The window for ordering: no limit counts as the receiver window."""
        return self.window if self.window > 0 else float(RECEIVER_WINDOW)


@dataclass
class SearchResult:
    hops: int
    rate_mbps: float
    rts: bool
    flows: int
    sweep: dict[str, Any]
    out_dir: Path
    rows: list[SearchRow]
    best: SearchRow | None
    tied: list[SearchRow]  # others whose 95% CI overlaps the best's
    recommended: SearchRow | None
    rule: str  # how ``recommended`` was chosen
    wall_s: float = 0.0
    runs_done: int = 0
    runs_skipped: int = 0
    failures: list[str] = field(default_factory=list)


TIE_RULE = (
    "highest mean goodput; among the combinations whose 95% CI overlaps the best's "
    "(statistically indistinguishable), the smallest window, then the fewest retransmissions"
)


def choose(
    rows: list[SearchRow],
) -> tuple[SearchRow | None, list[SearchRow], SearchRow | None, str]:
    """(best by mean goodput, the others whose CI overlaps it, the recommendation, the rule)."""
    ok = [r for r in rows if r.goodput is not None]
    if not ok:
        return None, [], None, "no run finished"
    best = max(ok, key=lambda r: r.goodput.mean)  # type: ignore[union-attr]
    if math.isnan(best.goodput.half_width):  # type: ignore[union-attr]
        return best, [], best, "highest mean goodput (one replication: no confidence intervals)"
    low = best.goodput.ci_low  # type: ignore[union-attr]
    tied = [r for r in ok if r is not best and r.goodput.ci_high >= low]  # type: ignore[union-attr]

    def order(r: SearchRow) -> tuple[float, float, float]:
        retx = r.retransmissions.mean if r.retransmissions is not None else math.inf
        return (r.size, retx, -r.goodput.mean)  # type: ignore[union-attr]

    return best, tied, min([best, *tied], key=order), TIE_RULE


def search(
    hops: int,
    rate_mbps: float | str = 2.0,
    rts: bool = True,
    flows: int = 1,
    *,
    variants: tuple[str, ...] | list[str] = SEARCH_VARIANTS,
    windows: list[float] | None = None,
    duration_s: float = DEFAULT_DURATION_S,
    replications: int = DEFAULT_REPLICATIONS,
    jobs: int | None = None,
    scheduler: str | None = None,
    out_dir: str | Path | None = None,
    seed: int = 1,
    progress: str | None = "off",
) -> SearchResult:
    """Run the quick sweep of :func:`build_sweep` and pick the best (variant, window).

    Results go to ``out_dir`` (default ``<tmp>/hopsim-advise``); a rerun reuses finished runs.
    Raises ValueError for a bad argument, ScenarioError if the core rejects the scenario.
    """
    rate = parse_rate(rate_mbps)
    if rate == "auto":
        raise ValueError("auto rate is not available in the simulator yet; give 1, 2, 5.5 or 11")
    assert isinstance(rate, float)
    for v in variants:
        if v not in TCP_VARIANTS:
            raise ValueError(f"variant {v!r}: not allowed; allowed: {', '.join(TCP_VARIANTS)}")
    if windows is not None and any(not (w == 0 or w >= 1) for w in windows):
        raise ValueError(f"windows {windows}: each must be 0 (no limit) or >= 1 segment")
    recs = rules(hops, rate, rts, flows)
    cands = candidate_windows(recs)
    doc = build_sweep(hops, rate, rts, flows, variants, windows, duration_s, replications, seed)
    out = Path(out_dir) if out_dir is not None else Path(tempfile.gettempdir()) / "hopsim-advise"
    t0 = time.monotonic()
    spec = load_sweep(doc)
    report = run_sweep(spec, out, jobs=jobs, scheduler=scheduler, progress=progress)
    rows = [
        SearchRow(
            p.params["tcp.variant"],
            float(p.params["tcp.max_window"]),
            p.stats.get("goodput_kbps"),
            p.stats.get("retransmissions"),
            tuple(cands.get(window_key(float(p.params["tcp.max_window"])), ())),
        )
        for p in summarize(out, spec.name, ["goodput_kbps", "retransmissions"])
    ]
    best, tied, rec, rule = choose(rows)
    return SearchResult(
        hops, rate, rts, flows, doc, out, rows, best, tied, rec, rule,
        time.monotonic() - t0, report.done, report.skipped, report.failures,
    )  # fmt: skip
