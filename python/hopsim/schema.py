"""The result schema, as the core defines it (crates/hopsim-core/src/observe/schema/mod.rs):
every key of the result document with its level, kind, unit, role as a sweep metric and
meaning.

The sweep metrics (:mod:`hopsim.sweeps.metrics`), the time series columns
(:data:`hopsim.result.SERIES_COLUMNS`), the export's column types and the key table of
docs/interfaces.md all come from here. ``python -m hopsim.schema [FILE]`` rewrites the table
between the markers of FILE (default docs/interfaces.md).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from . import _core

if TYPE_CHECKING:  # pragma: no cover
    import pyarrow

__all__ = [
    "DOC_BEGIN",
    "DOC_END",
    "doc_table",
    "LEVELS",
    "RESULT_SCHEMA",
    "SchemaField",
    "arrow_type",
    "fields",
    "markdown_table",
    "names",
    "update_doc",
]


class SchemaField(NamedTuple):
    """One key of the result document (see the core's ``schema::Field``). A named tuple, not a
    dataclass: ``hopsim --help`` reads the schema, and must start fast."""

    level: str  # "run", "flow", "totals", "series" ... (LEVELS)
    name: str  # "rtt_ms.p50" names a key of a nested object
    kind: str  # "int", "float", "text", "object", "list[int]" ...
    nullable: bool
    unit: str  # "" for names, ids and objects
    metric: str  # "sum"/"mean" over flows, "total" (totals.NAME), "" (not a sweep metric)
    present: str  # "" always, else when
    description: str


#: Every key, level by level, in the core's order.
RESULT_SCHEMA: tuple[SchemaField, ...] = tuple(SchemaField(**d) for d in _core.result_schema())
#: (level, where it sits in the document), in order.
LEVELS: tuple[tuple[str, str], ...] = tuple(_core.result_levels())


def fields(level: str) -> tuple[SchemaField, ...]:
    """The keys of one level, in the core's order."""
    if level not in dict(LEVELS):
        raise ValueError(f"unknown level {level!r}; levels: {', '.join(dict(LEVELS))}")
    return tuple(f for f in RESULT_SCHEMA if f.level == level)


def names(level: str, metric: str | None = None) -> tuple[str, ...]:
    """The key names of one level, optionally only those with sweep-metric role ``metric``."""
    return tuple(f.name for f in fields(level) if metric is None or f.metric == metric)


def arrow_type(kind: str) -> pyarrow.DataType | None:
    """The Arrow type of a schema kind (``None`` for objects: let Arrow infer them). Every
    Arrow column is nullable, so ``nullable`` needs no type of its own."""
    import pyarrow as pa

    scalars = {"int": pa.int64(), "float": pa.float64(), "text": pa.string()}
    if kind.startswith("list[") and kind.endswith("]"):
        inner = scalars.get(kind[5:-1])
        return None if inner is None else pa.list_(inner)
    return scalars.get(kind)


# ---------------------------------------------------------------------------- docs table

DOC_BEGIN = "<!-- result-schema:begin (generated: python -m hopsim.schema) -->"
DOC_END = "<!-- result-schema:end -->"


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def markdown_table() -> str:
    """The key table of docs/interfaces.md: one table per level."""
    out: list[str] = []
    for level, where in LEVELS:
        out += [f"**{level}**: {where}", ""]
        out += [
            "| key | type | unit | sweep metric | present | meaning |",
            "|---|---|---|---|---|---|",
        ]
        for f in fields(level):
            kind = f"{f.kind} or null" if f.nullable else f.kind
            metric = {"total": f"`totals.{f.name}`", "": ""}.get(f.metric, f.metric)
            cells = [f"`{f.name}`", kind, f.unit, metric, f.present or "always", f.description]
            out.append("| " + " | ".join(_cell(c) for c in cells) + " |")
        out.append("")
    return "\n".join(out).rstrip("\n") + "\n"


def _replace_between_markers(text: str, body: str) -> str:
    start, end = text.find(DOC_BEGIN), text.find(DOC_END)
    if start < 0 or end < start:
        raise ValueError(f"markers {DOC_BEGIN!r} ... {DOC_END!r} not found")
    return text[: start + len(DOC_BEGIN)] + "\n" + body + text[end:]


def update_doc(path: str | Path) -> bool:
    """Rewrite the table between the markers of ``path``; whether the file changed."""
    p = Path(path)
    old = p.read_text(encoding="utf-8")
    new = _replace_between_markers(old, markdown_table())
    if new != old:
        p.write_text(new, encoding="utf-8")
    return new != old


def doc_table(path: str | Path) -> str:
    """The table between the markers of ``path``, as written there."""
    text = Path(path).read_text(encoding="utf-8")
    start, end = text.find(DOC_BEGIN), text.find(DOC_END)
    if start < 0 or end < start:
        raise ValueError(f"{path}: markers {DOC_BEGIN!r} ... {DOC_END!r} not found")
    return text[start + len(DOC_BEGIN) : end].lstrip("\n")


if __name__ == "__main__":  # pragma: no cover
    target = sys.argv[1] if len(sys.argv) > 1 else "docs/interfaces.md"
    print(f"{target}: {'updated' if update_doc(target) else 'up to date'}")
