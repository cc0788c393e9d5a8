"""Every claim three ways (issue 29): hopsim's verdict beside ns-2.35's, agreement by the
issue's rule (same verdict; numbers within 15% or 95% intervals overlapping) and the cause of
each claim hopsim does not reproduce."""

from __future__ import annotations

from hopsim.studies.common import Claim, Verdict
from hopsim.studies.threeway import Cause, numbers_agree, pair_claims, tally


def test_numbers_agree_within_fifteen_percent_pairwise():
    assert numbers_agree("206.8 / 150.0", "190.0 / 140.0") is True  # -8%, -7%
    assert numbers_agree("206.8 / 150.0", "206.8 / 120.0") is False  # the second is -20%
    # Relative to the reference (the second: ns-2.35's).
    assert numbers_agree("116", "100") is False and numbers_agree("114", "100") is True
    assert numbers_agree("0", "0") is True and numbers_agree("0.1", "0") is False
    # Negative numbers and percentages are numbers too.
    assert numbers_agree("gain -10%", "gain -11%") is True
    assert numbers_agree("gain -10%", "gain +10%") is False


def test_numbers_that_cannot_be_paired_are_not_judged():
    assert numbers_agree("n/a", "12.0") is None
    assert numbers_agree("1 / 2", "1 / 2 / 3") is None
    assert numbers_agree("-", "-") is None


def test_intervals_agree_when_they_overlap():
    assert numbers_agree("+12% [+2%, +22%]", "+30% [+20%, +40%]") is True  # overlap at 20-22
    assert numbers_agree("+12% [+2%, +18%]", "+30% [+20%, +40%]") is False


def _c(text: str, ours: str, verdict: str) -> Claim:
    return Claim(text, "paper", ours, verdict)


def test_the_cause_of_a_failing_claim():
    hopsim = [
        _c("a", "10", "holds"),
        _c("b", "10", "differs by +40%"),
        _c("c", "10", "differs by +40%"),
        _c("d", "10", "does not hold"),
        _c("e", "10", "not comparable: hopsim has no such agent"),
    ]
    ns2 = [
        _c("a", "11", "holds"),
        _c("b", "10.5", "differs by +45%"),
        _c("c", "7", "holds"),
        _c("d", "-", "not comparable: no value of ours"),
        _c("e", "-", "not comparable: no value of ours"),
    ]
    rows = pair_claims(hopsim, ns2, cannot_express="ns-2.35 has no delay-based window limit")
    by = {r.hopsim.claim: r for r in rows}
    assert by["a"].cause is None and by["a"].agrees is True
    assert by["b"].cause is Cause.NOT_IN_NS2_EITHER and by["b"].agrees is True
    assert "10.5" in by["b"].detail
    assert by["c"].cause is Cause.DIFFERS_FROM_NS2 and by["c"].agrees is False
    assert by["d"].cause is Cause.NS2_CANNOT_EXPRESS and "delay-based" in by["d"].detail
    assert by["e"].cause is Cause.NOT_COMPARABLE, "hopsim cannot compare it either"
    t = tally(rows)
    assert (t.claims, t.paper_vs_ns2, t.paper_vs_hopsim) == (5, 2, 1)
    assert (t.ns2_expresses, t.same_verdict, t.agree) == (3, 2, 2)
    assert "2 of the 3 ns-2.35 can express (67%)" in t.line()


def test_the_same_verdict_with_numbers_apart_is_no_agreement():
    rows = pair_claims([_c("x", "100", "holds")], [_c("x", "70", "holds")])
    assert rows[0].agrees is False and rows[0].cause is None
    assert tally(rows).same_verdict == 1 and tally(rows).agree == 0


def test_without_ns2_there_is_no_column():
    rows = pair_claims([_c("x", "1", "holds")], None)
    assert rows[0].ns2 is None and rows[0].agrees is None and rows[0].cause is None
    assert Verdict.of(rows[0].hopsim.verdict) is Verdict.HOLDS


def test_a_claim_the_ns2_analysis_could_not_make_is_one_ns2_cannot_express():
    rows = pair_claims([_c("y", "5", "does not hold")], [], cannot_express="no such agent")
    assert rows[0].ns2 is not None and rows[0].ns2.kind is Verdict.NOT_COMPARABLE
    assert rows[0].cause is Cause.NS2_CANNOT_EXPRESS and rows[0].detail == "no such agent"
    assert tally(rows).ns2_expresses == 0
