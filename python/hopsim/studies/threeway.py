"""Every claim three ways: the paper, ns-2.35 and hopsim, side by side.

The study's ``analyse`` runs twice, once on hopsim's runs and once on ns-2.35's (the same
sweeps run in ns-2.35, or read from the reference results that ship with hopsim): both give
the same claims, each with its own value and its verdict against the paper. Here they are
paired, hopsim's agreement with ns-2.35 is judged, and every claim hopsim does not reproduce
gets its cause: ns-2.35 does not reproduce it either, hopsim differs from ns-2.35 (a defect
to find), or ns-2.35 cannot express the set-up.

Agreement: the same kind of verdict, and each number of hopsim's value text within
:data:`AGREE_TOLERANCE` of ns-2.35's (relative to ns-2.35's; the two texts are written by
the same ``analyse`` code, so their numbers are in the same places) or, where a value gives
a 95% interval (``[low, high]``), the two intervals overlapping.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from pathlib import Path

from .common import Claim, Verdict

__all__ = [
    "AGREE_TOLERANCE",
    "Cause",
    "ThreeWay",
    "Tally",
    "numbers_agree",
    "pair_claims",
    "tally",
    "write_three_way",
]

#: Two simulators' numbers agree within this relative difference (issue 29's criterion).
AGREE_TOLERANCE = 0.15

_NUMBER = re.compile(r"[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?")
_INTERVAL = re.compile(r"\[\s*([^,\]]+?)\s*,\s*([^\]]+?)\s*\]")


class Cause(str, Enum):
    """Why a claim hopsim does not reproduce fails, judged against ns-2.35."""

    NOT_IN_NS2_EITHER = "not reproduced by ns-2.35 either"
    DIFFERS_FROM_NS2 = "hopsim differs from ns-2.35"
    NS2_CANNOT_EXPRESS = "ns-2.35 cannot express it"
    NOT_COMPARABLE = "not comparable in either simulator"


@dataclass(frozen=True)
class ThreeWay:
    """One claim: the paper's value, hopsim's claim, ns-2.35's (None: no ns-2.35 column)."""

    hopsim: Claim
    ns2: Claim | None
    #: hopsim gives ns-2.35's verdict with numbers that agree (None: nothing to compare).
    agrees: bool | None
    #: Why hopsim's verdict is not "holds" (None when it holds, or without ns-2.35).
    cause: Cause | None
    #: What the cause rests on: ns-2.35's value, or what ns-2.35 lacks.
    detail: str = ""

    @property
    def ns2_expresses(self) -> bool:
        return self.ns2 is not None and self.ns2.kind is not Verdict.NOT_COMPARABLE


def _numbers(text: str) -> list[float]:
    return [float(x) for x in _NUMBER.findall(text.replace("%", ""))]


def _intervals(text: str) -> list[tuple[float, float]]:
    out = []
    for lo, hi in _INTERVAL.findall(text.replace("%", "")):
        a, b = _numbers(lo), _numbers(hi)
        if len(a) == 1 and len(b) == 1:
            out.append((min(a[0], b[0]), max(a[0], b[0])))
    return out


def numbers_agree(a: str, b: str, tolerance: float = AGREE_TOLERANCE) -> bool | None:
    """Do the numbers of value text ``a`` agree with those of the reference ``b`` (each
    within ``tolerance`` of the reference's, relative)? None when they cannot be paired (no
    numbers, or not as many in each: one simulator had no value somewhere)."""
    ia, ib = _intervals(a), _intervals(b)
    if ia and len(ia) == len(ib):
        return all(x[0] <= y[1] and y[0] <= x[1] for x, y in zip(ia, ib, strict=True))
    na, nb = _numbers(a), _numbers(b)
    if not na or len(na) != len(nb):
        return None
    return all(abs(x - y) <= tolerance * abs(y) for x, y in zip(na, nb, strict=True))


def _agrees(hopsim: Claim, ns2: Claim) -> bool | None:
    if Verdict.NOT_COMPARABLE in (hopsim.kind, ns2.kind):
        return None
    if hopsim.kind is not ns2.kind:
        return False
    return numbers_agree(hopsim.ours, ns2.ours) is not False


def _cause(hopsim: Claim, ns2: Claim | None, cannot: str) -> tuple[Cause | None, str]:
    if hopsim.holds or ns2 is None:
        return None, ""
    if ns2.kind is Verdict.NOT_COMPARABLE:
        if hopsim.kind is Verdict.NOT_COMPARABLE:
            return Cause.NOT_COMPARABLE, hopsim.verdict
        if cannot:
            return Cause.NS2_CANNOT_EXPRESS, cannot
        return Cause.NS2_CANNOT_EXPRESS, f"its results lack the value ({ns2.verdict})"
    if hopsim.kind is Verdict.NOT_COMPARABLE:
        return Cause.NOT_COMPARABLE, hopsim.verdict
    if ns2.holds:
        return Cause.DIFFERS_FROM_NS2, f"ns-2.35: {ns2.ours}"
    return Cause.NOT_IN_NS2_EITHER, f"ns-2.35: {ns2.ours} ({ns2.verdict})"


def pair_claims(
    hopsim: Sequence[Claim], ns2: Sequence[Claim] | None, cannot_express: str = ""
) -> list[ThreeWay]:
    """hopsim's claims beside ns-2.35's (matched by the claim's text). ``cannot_express``:
    what ns-2.35 lacks for the points it skipped, given as the cause of a claim it then
    has no value for."""
    if ns2 is None:
        return [ThreeWay(c, None, None, None) for c in hopsim]
    by_text = {c.claim: c for c in ns2}
    out = []
    for c in hopsim:
        other = by_text.get(c.claim)
        if other is None:
            # The analysis made no such claim of ns-2.35's runs: it lacks their points.
            missing = Verdict.NOT_COMPARABLE.says(": no such claim of ns-2.35's runs")
            other = Claim(c.claim, c.paper, "-", missing, c.source)
        cause, detail = _cause(c, other, cannot_express)
        out.append(ThreeWay(c, other, _agrees(c, other), cause, detail))
    return out


@dataclass(frozen=True)
class Tally:
    """A study's claims counted three ways."""

    claims: int
    paper_vs_ns2: int  # claims that hold in ns-2.35
    paper_vs_hopsim: int  # claims that hold in hopsim
    ns2_expresses: int  # claims ns-2.35 has a verdict on
    same_verdict: int  # of those, where hopsim's verdict is ns-2.35's kind
    agree: int  # of those, where the numbers agree too
    causes: dict[Cause, int]

    def line(self) -> str:
        share = self.same_verdict / self.ns2_expresses if self.ns2_expresses else float("nan")
        return (
            f"{self.paper_vs_ns2} of {self.claims} claims hold in ns-2.35, "
            f"{self.paper_vs_hopsim} in hopsim; hopsim gives ns-2.35's verdict on "
            f"{self.same_verdict} of the {self.ns2_expresses} ns-2.35 can express "
            f"({share:.0%}), numbers agreeing on {self.agree}"
        )


def tally(rows: Sequence[ThreeWay]) -> Tally:
    paired = [r for r in rows if r.ns2 is not None]
    expressed = [r for r in paired if r.ns2_expresses]
    same = [r for r in expressed if r.ns2 is not None and r.ns2.kind is r.hopsim.kind]
    causes: dict[Cause, int] = {}
    for r in rows:
        if r.cause is not None:
            causes[r.cause] = causes.get(r.cause, 0) + 1
    return Tally(
        claims=len(rows),
        paper_vs_ns2=sum(1 for r in paired if r.ns2 is not None and r.ns2.holds),
        paper_vs_hopsim=sum(1 for r in rows if r.hopsim.holds),
        ns2_expresses=len(expressed),
        same_verdict=len(same),
        agree=sum(1 for r in same if r.agrees),
        causes=causes,
    )


def _cell(text: str) -> str:
    return text.replace("|", "/").replace("\n", " ")


def write_three_way(
    out_dir: Path, title: str, header: Sequence[str], rows: Sequence[ThreeWay], ns2_source: str
) -> Path:
    """``claims.csv`` and ``claims.md`` with the ns-2.35 columns; returns the .md path."""
    with (out_dir / "claims.csv").open("w", newline="") as fh:
        writer = csv.writer(fh)
        writer.writerow(
            [
                "claim",
                "paper",
                "ns2",
                "hopsim",
                "verdict_ns2",
                "verdict_hopsim",
                "agrees_with_ns2",
                "cause",
                "cause_detail",
                "source",
            ]
        )
        for r in rows:
            writer.writerow(
                [
                    r.hopsim.claim,
                    r.hopsim.paper,
                    r.ns2.ours if r.ns2 else "",
                    r.hopsim.ours,
                    r.ns2.verdict if r.ns2 else "",
                    r.hopsim.verdict,
                    "" if r.agrees is None else ("yes" if r.agrees else "no"),
                    r.cause.value if r.cause else "",
                    r.detail,
                    r.hopsim.source,
                ]
            )
    path = out_dir / "claims.md"
    lines = [f"# {title}", "", *header, f"ns-2.35: {ns2_source}", ""]
    lines += [f"Three ways: {tally(rows).line()}.", ""]
    lines += [
        "| claim | paper | ns-2.35 | hopsim | verdict ns-2.35 | verdict hopsim | agrees | cause |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        cause = f"{r.cause.value}: {r.detail}" if r.cause else ""
        agree = "" if r.agrees is None else ("yes" if r.agrees else "no")
        cells = [
            r.hopsim.claim,
            r.hopsim.paper,
            r.ns2.ours if r.ns2 else "-",
            r.hopsim.ours,
            r.ns2.verdict if r.ns2 else "-",
            r.hopsim.verdict,
            agree,
            cause,
        ]
        lines.append("| " + " | ".join(_cell(x) for x in cells) + " |")
    path.write_text("\n".join(lines) + "\n")
    return path
