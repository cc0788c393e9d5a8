"""Scenario files: loading TOML, applying ``key.path=value`` overrides, writing TOML back.

A scenario is a plain ``dict`` (the TOML document). The Rust core validates it strictly
(unknown keys and wrong types are errors); this module only does the generic work that
happens before: reading the file, applying overrides, and checking that the document can
be sent to the core as JSON.
"""

from __future__ import annotations

import copy
import datetime as _dt
import json
import math
import sys
from collections.abc import Iterable, Mapping
from os import PathLike
from pathlib import Path
from typing import Any

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib

from ._core import ScenarioError
from .limits import check_depth, check_text_depth, read_limited, too_deep

__all__ = [
    "Overrides",
    "ScenarioError",
    "apply_overrides",
    "dumps_toml",
    "load",
    "parse_override",
    "parse_value",
    "to_json",
]

#: Overrides: either a mapping ``{"topology.hops": 7}`` (values used as given) or a list of
#: ``"key.path=value"`` strings (values parsed as TOML literals, falling back to strings).
Overrides = Mapping[str, Any] | Iterable[str]


def read_toml(path: str | PathLike[str], what: str = "scenario file") -> dict[str, Any]:
    """Read a TOML file (a scenario or a sweep: ``what`` names it in the messages).

    Raises:
        IsADirectoryError: the path is a directory.
        FileNotFoundError: the file does not exist.
        ScenarioError: the file is not UTF-8 or not valid TOML (with file, line and column).
    """
    if not str(path):
        raise ScenarioError(f"{what}: the path is empty")
    p = Path(path)
    try:
        is_dir = p.is_dir()
    except OSError as exc:  # a name too long for the filesystem, a loop of links, ...
        raise ScenarioError(_unreadable(what, str(path), exc)) from None
    if is_dir:
        raise IsADirectoryError(f"{what} {str(p)!r} is a directory, not a TOML file")
    try:
        text = read_limited(p, what).decode()
        check_text_depth(text, str(p))  # before the parser, which recurses
        doc = tomllib.loads(text)
    except FileNotFoundError:
        raise FileNotFoundError(f"{what} {str(p)!r} not found" + _toml_hint(str(p))) from None
    except tomllib.TOMLDecodeError as exc:
        raise ScenarioError(f"{p}: TOML syntax error: {exc}") from None
    except RecursionError:  # the parser recursed out before the depth check could tell
        raise ScenarioError(too_deep(str(p))) from None
    except UnicodeDecodeError as exc:
        raise ScenarioError(f"{p}: not a UTF-8 text file ({exc.reason})") from None
    except OSError as exc:
        raise ScenarioError(_unreadable(what, str(path), exc)) from None
    check_depth(doc, str(p))  # dotted keys and [a.b.c] headers nest without brackets
    return doc


def _unreadable(what: str, path: str, exc: OSError) -> str:
    """The message for a path that cannot be read; TOML text given as a path is named."""
    shown = path if len(path) <= 80 else path[:77] + "..."
    return f"{what} {shown!r} cannot be read ({exc.strerror or exc})" + _toml_hint(path)


def _toml_hint(path: str) -> str:
    if "\n" not in path and "=" not in path:
        return ""
    return (
        "; it looks like TOML text, not a path: give the path of a file, or the scenario as "
        "a dict (tomllib.loads(text))"
    )


#: Top-level keys of a sweep file that no scenario has (the two formats told apart).
SWEEP_ONLY_KEYS = {"base", "sweep", "replications", "metrics", "quick"}


def load(path: str | PathLike[str]) -> dict[str, Any]:
    """Read a scenario TOML file and return it as a dict.

    Raises:
        FileNotFoundError: the file does not exist.
        ScenarioError: the file is not valid TOML (the message gives the file, line and column).
    """
    doc = read_toml(path)
    return scenario_from_doc(doc, Path(path))


def scenario_from_doc(doc: dict[str, Any], p: Path) -> dict[str, Any]:
    """The scenario of the TOML document ``doc`` read from ``p`` (see :func:`load`)."""
    if not doc:
        raise ScenarioError(
            f"{p}: the file is empty (no keys); a scenario needs at least [topology] and "
            "[[flows]] (examples: scenarios/*.toml, docs/interfaces.md)"
        )
    sweep_keys = sorted(SWEEP_ONLY_KEYS & set(doc))
    if sweep_keys:
        raise ScenarioError(
            f"{p}: a sweep file (it has {', '.join(repr(k) for k in sweep_keys)}), not a "
            f"scenario; run it with `hopsim sweep {p}`"
        )
    # A movement or link trace named relative to the scenario file is found beside it.
    radio = doc.get("radio")
    for table, key in ((doc.get("mobility"), "trace_file"), (_table(radio, "link_trace"), "file")):
        if isinstance(table, dict) and isinstance(table.get(key), str):
            trace = Path(table[key])
            if not trace.is_absolute():
                table[key] = str(p.parent / trace)
    return doc


def _table(parent: Any, key: str) -> Any:
    return parent.get(key) if isinstance(parent, dict) else None


def parse_value(text: str) -> Any:
    """Parse a command-line value as a TOML literal; fall back to the bare string.

    ``"7"`` -> 7, ``"0.05"`` -> 0.05, ``"true"`` -> True, ``"[1, 2]"`` -> [1, 2],
    ``'"grid"'`` -> "grid", ``"grid"`` -> "grid" (not valid TOML, so kept as a string).
    """
    check_text_depth(text, f"value {text[:40]!r}")
    try:
        doc = tomllib.loads(f"v = {text}")
    except tomllib.TOMLDecodeError:
        return text
    except RecursionError:
        raise ScenarioError(too_deep(f"value {text[:40]!r}")) from None
    if set(doc) != {"v"}:  # e.g. "1\nw = 2": not a single literal
        return text
    return doc["v"]


def parse_override(item: str) -> tuple[str, Any]:
    """Split ``"key.path=value"`` into the key and the parsed value (see :func:`parse_value`).

    Raises:
        ScenarioError: the item has no ``=``, an empty key or an empty value.
    """
    key, sep, value = item.partition("=")
    key = key.strip()
    if not sep or not key:
        raise ScenarioError(
            f"override {item!r} is not of the form key.path=value "
            "(for example topology.hops=7 or flows.0.interval_s=0.05)"
        )
    value = value.strip()
    if not value:
        raise ScenarioError(
            f"override {item!r} has no value after '='; give one, e.g. {key}=7 "
            f'(an empty string is {key}="")'
        )
    check_text_depth(value, f"override {key}")
    return key, parse_value(value)


def _normalise(overrides: Overrides | None) -> list[tuple[str, Any]]:
    if overrides is None:
        return []
    if isinstance(overrides, Mapping):
        return [(str(k), v) for k, v in overrides.items()]
    if isinstance(overrides, (str, bytes)):
        raise TypeError("overrides must be a dict or a list of 'key.path=value' strings, not a str")
    return [parse_override(item) for item in overrides]


def _describe(value: Any) -> str:
    if isinstance(value, dict):
        return "a table"
    if isinstance(value, list):
        return f"a list of {len(value)} element(s)"
    return f"the value {value!r}"


def _set_path(doc: dict[str, Any], key: str, value: Any) -> None:
    parts = key.split(".")
    if any(not p.strip() for p in parts):
        raise ScenarioError(f"override key {key!r} has an empty component; use e.g. topology.hops")
    parts = [p.strip() for p in parts]
    node: Any = doc
    for depth, part in enumerate(parts):
        last = depth == len(parts) - 1
        here = ".".join(parts[:depth]) or "<scenario>"
        if isinstance(node, list):
            if not part.isdigit():
                raise ScenarioError(
                    f"override {key}: {here} is a list, so {part!r} must be an index "
                    f"(allowed: 0..{len(node) - 1})"
                    if node
                    else f"override {key}: {here} is an empty list, so {part!r} cannot be set"
                )
            idx = int(part)
            if idx >= len(node):
                allowed = f"allowed: 0..{len(node) - 1}" if node else "the list is empty"
                raise ScenarioError(
                    f"override {key}: index {idx} does not exist, {here} has "
                    f"{len(node)} element(s) ({allowed})"
                )
            if last:
                node[idx] = value
                return
            node = node[idx]
        elif isinstance(node, dict):
            if last:
                node[part] = value
                return
            if part not in node:
                if parts[depth + 1].isdigit():
                    path = ".".join(parts[: depth + 1])
                    raise ScenarioError(
                        f"override {key}: {path} does not exist, so index "
                        f"{parts[depth + 1]} cannot be set (define {path} in the scenario first)"
                    )
                node[part] = {}
            node = node[part]
        else:
            raise ScenarioError(
                f"override {key}: {here} is {_describe(node)}, not a table or list, "
                f"so {part!r} cannot be set inside it"
            )


def apply_overrides(scenario: Mapping[str, Any], overrides: Overrides | None) -> dict[str, Any]:
    """Return a copy of ``scenario`` with the overrides applied; the input is not changed.

    Keys are dotted paths; list elements are addressed by index (``flows.0.interval_s``).
    Missing tables are created; a list index that does not exist is an error naming the key.
    Given as a list of ``"key.path=value"`` strings (as on the command line), values are
    parsed as TOML literals, falling back to bare strings; given as a dict, values are used
    as they are.

    Raises:
        ScenarioError: bad override syntax, a missing list index, or a path through a scalar.
    """
    check_depth(scenario, "scenario")  # before deepcopy, which recurses
    items = _normalise(overrides)
    for key, value in items:
        check_depth(value, f"override {key}")
    doc = copy.deepcopy(dict(scenario))
    for key, value in items:
        _set_path(doc, key, copy.deepcopy(value))
    check_depth(doc, "scenario (with its overrides)")
    return doc


def _check_jsonable(value: Any, path: str) -> None:
    where = path or "<scenario>"
    if isinstance(value, bool) or value is None or isinstance(value, (str, int)):
        return
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ScenarioError(f"{where} = {value!r}: not allowed, numbers must be finite")
        return
    if isinstance(value, Mapping):
        for k, v in value.items():
            if not isinstance(k, str):
                raise ScenarioError(f"{where}: key {k!r} is not a string")
            _check_jsonable(v, f"{path}.{k}" if path else k)
        return
    if isinstance(value, (list, tuple)):
        for i, v in enumerate(value):
            _check_jsonable(v, f"{path}.{i}" if path else str(i))
        return
    if isinstance(value, (_dt.date, _dt.time)):
        raise ScenarioError(f"{where} = {value}: dates and times are not allowed in a scenario")
    if isinstance(value, PathLike):
        return
    raise ScenarioError(f"{where} = {value!r}: a {type(value).__name__} is not allowed")


def to_json(scenario: Mapping[str, Any]) -> str:
    """Serialise a scenario to the JSON the core expects (after checking it is plain data)."""
    check_depth(scenario, "scenario")
    _check_jsonable(scenario, "")
    return json.dumps(scenario, allow_nan=False, default=_json_default)


def _json_default(obj: Any) -> Any:
    if isinstance(obj, PathLike):
        return str(Path(obj))
    raise TypeError(f"{type(obj).__name__} is not JSON serialisable")


# --------------------------------------------------------------------------- TOML writer


def _toml_key(key: str) -> str:
    bare = key and all(c.isascii() and (c.isalnum() or c in "-_") for c in key)
    return key if bare else json.dumps(key)


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, Mapping):
        items = ", ".join(
            f"{_toml_key(k)} = {_toml_value(v)}" for k, v in value.items() if v is not None
        )
        return "{ " + items + " }" if items else "{}"
    if isinstance(value, (list, tuple)):
        if any(v is None for v in value):
            raise TypeError(f"{value!r}: TOML arrays cannot hold None")
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    if isinstance(value, PathLike):
        return json.dumps(str(Path(value)), ensure_ascii=False)
    raise TypeError(f"cannot write {type(value).__name__} {value!r} as TOML")


def _is_table_array(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(v, Mapping) for v in value)


def _dump_table(table: Mapping[str, Any], prefix: str, out: list[str]) -> None:
    scalars = [
        (k, v)
        for k, v in table.items()
        if v is not None and not isinstance(v, Mapping) and not _is_table_array(v)
    ]
    for k, v in scalars:
        out.append(f"{_toml_key(k)} = {_toml_value(v)}")
    for k, v in table.items():
        name = f"{prefix}.{_toml_key(k)}" if prefix else _toml_key(k)
        if isinstance(v, Mapping):
            has_scalars = any(
                x is not None and not isinstance(x, Mapping) and not _is_table_array(x)
                for x in v.values()
            )
            if has_scalars or not v:
                out.append("")
                out.append(f"[{name}]")
            _dump_table(v, name, out)
        elif _is_table_array(v):
            for item in v:
                out.append("")
                out.append(f"[[{name}]]")
                _dump_table(item, name, out)


def dumps_toml(doc: Mapping[str, Any]) -> str:
    """Write a scenario dict as TOML (``None`` values, which TOML cannot hold, are left out).

    The package's one TOML writer (tests and the CLI use it too): tables as ``[name]``,
    arrays of tables as ``[[flows]]``, other arrays on one line, as the scenario files are
    written by hand. (tomli_w writes arrays of tables inline and one array item a line.)

    Raises:
        TypeError: a value TOML cannot hold (None inside an array, an unknown type).
    """
    out: list[str] = []
    _dump_table(doc, "", out)
    while out and out[0] == "":
        out.pop(0)
    return "\n".join(out) + "\n"


#: `mac.rts_threshold_bytes` that turns RTS/CTS off: longer than any MPDU (2346 bytes), so
#: no frame is preceded by RTS (0 = before every frame). ns-2's scripts use the same value.
RTS_NEVER_BYTES = 3000
