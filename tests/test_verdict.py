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
