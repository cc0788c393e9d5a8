"""The result schema (the core's table of result keys) against its readers: the typed records
of hopsim.result, the sweep metrics, the export's column types and the docs' key table."""

from __future__ import annotations

import typing
from pathlib import Path
from typing import Any

import pytest

from hopsim import schema
from hopsim.result import FlowResult, NodeResult, Record, RttStats, Totals
from hopsim.sweeps import metrics

DOCS = Path(__file__).resolve().parents[1] / "docs"


def _kind(hint: Any) -> tuple[str, bool]:
    """(schema kind, nullable) of an annotation."""
    args = typing.get_args(hint)
    if type(None) in args:
        (inner,) = [a for a in args if a is not type(None)]
        return _kind(inner)[0], True
    if typing.get_origin(hint) is list:
        (item,) = args
        return f"list[{_kind(item)[0]}]", False
    if isinstance(hint, type) and issubclass(hint, Record):
        return "object", False
    return {int: "int", float: "float", str: "text", dict: "object"}.get(
        typing.get_origin(hint) or hint, repr(hint)
    ), False


def _annotated(cls: type, skip: set[str] = frozenset()) -> dict[str, tuple[str, bool]]:
    hints = typing.get_type_hints(cls)
    return {k: _kind(v) for k, v in hints.items() if not k.startswith("_") and k not in skip}


def _schema(level: str, prefix: str = "") -> dict[str, tuple[str, bool]]:
    out = {}
    for f in schema.fields(level):
        if f.name.startswith(prefix) and "." not in f.name[len(prefix) :]:
            out[f.name[len(prefix) :]] = (f.kind, f.nullable)
    return out


def test_the_typed_records_mirror_the_schema() -> None:
    assert _annotated(FlowResult) == _schema("flow")
    assert _annotated(RttStats) == _schema("flow", "rtt_ms.")
    assert _annotated(Totals) == _schema("totals")
    assert _annotated(NodeResult, skip=set(_schema("totals"))) == _schema("node")


def test_levels_and_names_come_from_the_core() -> None:
    from hopsim import _core

    assert [f._asdict() for f in schema.RESULT_SCHEMA] == _core.result_schema()
    assert [level for level, _ in schema.LEVELS][:2] == ["run", "flow"]
    assert schema.names("series")[:2] == ("time_s", "flow")
    with pytest.raises(ValueError, match="unknown level 'flows'"):
        schema.fields("flows")


def test_sweep_metrics_are_the_schema_metrics() -> None:
    by_role = {
        role: {f.name for f in schema.RESULT_SCHEMA if f.metric == role}
        for role in ("sum", "mean", "total")
    }
    assert by_role["sum"] == metrics.SUM_FIELDS
    assert by_role["mean"] == metrics.MEAN_FIELDS
    assert by_role["total"] == metrics.TOTAL_FIELDS
    assert "goodput_kbps" in metrics.SUM_FIELDS and "rtt_ms.p50" in metrics.MEAN_FIELDS


def test_the_docs_table_is_the_schema() -> None:
    written = schema.doc_table(DOCS / "interfaces.md")
    assert written == schema.markdown_table(), (
        "docs/interfaces.md's key table differs from the schema: run python -m hopsim.schema"
    )


def test_every_key_is_in_the_documents_sketch() -> None:
    """The JSON sketch at the top of docs/interfaces.md's result section names every key."""
    text = (DOCS / "interfaces.md").read_text(encoding="utf-8")
    sketch = text[text.index("## Result document (JSON)") : text.index("### Result keys")]
    sketch = sketch[: sketch.index("\n```\n", sketch.index("```") + 4)]
    missing = [
        f"{f.level}.{f.name}"
        for f in schema.RESULT_SCHEMA
        if f'"{f.name.split(".")[-1]}"' not in sketch
    ]
    assert not missing, missing
