"""The TCP variants have one list, the core's (``TcpVariant::ALL``, read through
``_core.tcp_variants()``); the Python places that need all of them read it, those that need a
subset keep the subset and are checked against it here."""

from __future__ import annotations

import pytest

from hopsim import ScenarioError, _core, validate
from hopsim import advise as adv
from hopsim.crosscheck.expressible import TCP_AGENTS


def _chain(variant: str) -> dict:
    return {
        "topology": {"kind": "chain", "hops": 1, "spacing_m": 200.0},
        "flows": [{"src": 0, "dst": 1, "transport": "tcp", "tcp": {"variant": variant}}],
    }


def test_the_core_lists_each_variant_once_and_accepts_each() -> None:
    names = _core.tcp_variants()
    assert len(names) == len(set(names)) >= 9, names
    for name in names:
        assert validate(_chain(name))["flows"][0]["tcp"]["variant"] == name
    with pytest.raises(ScenarioError, match="variant"):
        validate(_chain("westwood"))


def test_the_advisor_offers_every_variant_and_searches_known_ones() -> None:
    assert tuple(_core.tcp_variants()) == adv.TCP_VARIANTS
    assert set(adv.SEARCH_VARIANTS) <= set(adv.TCP_VARIANTS)


def test_crosschecks_variants_are_core_variants() -> None:
    """ns-2.35 expresses a subset (its agents); each must be a variant the core has."""
    missing = set(TCP_AGENTS) - set(_core.tcp_variants())
    assert not missing, f"crosscheck maps variants the core does not have: {sorted(missing)}"


def test_the_result_schema_names_every_variant() -> None:
    """The result key ``flows[].variant`` documents its values (observe/schema/mod.rs)."""
    (field,) = [f for f in _core.result_schema() if f["name"] == "variant"]
    absent = [v for v in _core.tcp_variants() if f'"{v}"' not in field["description"]]
    assert not absent, f"the result schema's variant description misses {absent}"
