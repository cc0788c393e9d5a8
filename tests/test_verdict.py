"""Verdict words have one home (hopsim.studies.Verdict): every claim's verdict names its
kind, and a study cannot make up another."""

from __future__ import annotations

import pytest

from hopsim.studies import Claim, Verdict
from hopsim.studies.common import check, compare_value


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("holds", Verdict.HOLDS),
        ("holds for h <= 7 (threshold lost)", Verdict.HOLDS),
        ("differs by +23%", Verdict.DIFFERS),
        ("does not hold (no gain)", Verdict.DOES_NOT_HOLD),
        ("not comparable: Table 1 stops at N = 30", Verdict.NOT_COMPARABLE),
        ("partly: peak at 8 hops", Verdict.PARTLY),
    ],
)
def test_a_verdict_text_names_its_kind(text: str, kind: Verdict):
    assert Verdict.of(text) is kind
    assert Claim("c", "p", "o", text).kind is kind


def test_an_unknown_verdict_is_refused():
    with pytest.raises(ValueError, match="starts with none of"):
        Claim("c", "p", "o", "looks fine")


def test_the_helpers_speak_in_verdicts():
    assert Verdict.of(check(True)) is Verdict.HOLDS
    assert Verdict.of(check(False, "why")) is Verdict.DOES_NOT_HOLD
    assert Verdict.of(compare_value(1.5, 1.0)) is Verdict.DIFFERS
    assert Verdict.of(compare_value(None, 1.0)) is Verdict.NOT_COMPARABLE
    assert Claim("c", "p", "o", compare_value(1.05, 1.0)).holds


def test_a_bare_kind_is_its_word_and_says_adds_the_detail():
    assert Claim("c", "p", "o", Verdict.HOLDS).verdict == "holds"
    assert type(Claim("c", "p", "o", Verdict.HOLDS).verdict) is str
    assert Verdict.DIFFERS.says(" by +23%") == "differs by +23%"


def test_the_point_helpers():
    from hopsim.studies.common import best_points, mean_at, pivot, remap
    from hopsim.sweeps import PointSummary
    from hopsim.sweeps.stats import Summary

    def point(i, h, w, mean):
        stats = {"g": Summary(2, mean, 1.0, 0.5, 0.95)} if mean is not None else {}
        return PointSummary(i, {"h": h, "w": w}, 2, stats)

    pts = [point(0, 1, 1, 5.0), point(1, 1, 2, 7.0), point(2, 2, 1, 3.0), point(3, 2, 2, None)]
    assert pivot(pts, "h", "g", columns="w") == {1: {1: 5.0, 2: 7.0}, 2: {1: 3.0}}
    assert pivot(pts, ("h", "w"), "g") == {(1, 1): 5.0, (1, 2): 7.0, (2, 1): 3.0}
    assert pivot(pts, "w", "g", stat=None)[2] is pts[1].stats["g"]
    assert mean_at(pts, "g", {"h": 1, "w": 2}) == 7.0
    assert mean_at(pts, "g", {"h": 2, "w": 2}) is None and mean_at(pts, "g", {"h": 9}) is None
    best = best_points(pts, lambda p: p.params["h"], "g")
    assert {h: p.point for h, p in best.items()} == {1: 1, 2: 2}
    only_w1 = best_points(pts, lambda p: p.params["h"], "g", where=lambda p: p.params["w"] == 1)
    assert {h: p.point for h, p in only_w1.items()} == {1: 0, 2: 2}
    named = remap(pts, lambda q: {"hops": q["h"]})
    assert [p.params for p in named][:1] == [{"hops": 1}] and named[0].stats is pts[0].stats
