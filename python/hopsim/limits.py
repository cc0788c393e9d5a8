"""Limits on what hopsim reads: how deep a document may nest and how big a file may be.

The TOML parser, ``copy.deepcopy``, the JSON writer and the core's parser all recurse, so a
document nested a few hundred levels deep would end in a RecursionError (or the core's
"recursion limit exceeded", naming no key). Every input is checked here first, iteratively,
and refused by name: a real scenario nests 4 levels (``flows.0.tcp.ack_thinning_thresholds``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ._core import ScenarioError

__all__ = [
    "MAX_DEPTH",
    "MAX_FILE_BYTES",
    "check_depth",
    "check_text_depth",
    "read_limited",
    "too_deep",
]

#: Tables and arrays inside one another, below the document itself.
MAX_DEPTH = 64
#: A scenario or sweep file (a testbed of 10,000 placed nodes is about 300 kB).
MAX_FILE_BYTES = 16 * 1024 * 1024


def read_limited(path: Path, what: str, limit: int = MAX_FILE_BYTES) -> bytes:
    """The bytes of ``path``, refused (ScenarioError) when larger than ``limit``."""
    with path.open("rb") as fh:
        data = fh.read(limit + 1)
    if len(data) > limit:
        raise ScenarioError(
            f"{path}: not allowed, the {what} is larger than {limit // (1024 * 1024)} MiB, "
            f"the most hopsim reads in one (is it the right file?)"
        )
    return data


def too_deep(where: str, limit: int = MAX_DEPTH) -> str:
    """The refusal of a document a parser recursed out of (RecursionError) although the
    depth checks let it through: the same words, without the key (the parser gave none)."""
    return (
        f"{where}: not allowed, it is nested deeper than the parser can read (tables and "
        f"arrays inside one another: at most {limit} levels, a scenario needs 4)"
    )


def _shown(path: list[str]) -> str:
    head = ".".join(path[:8])
    return head + (f"... ({len(path)} keys deep)" if len(path) > 8 else "")


def check_depth(value: Any, where: str, limit: int = MAX_DEPTH) -> None:
    """Refuse ``value`` (a dict/list document) if it nests more than ``limit`` tables and
    arrays; the message names the key where it does (checked without recursion)."""
    stack: list[tuple[Any, int, list[str]]] = [(value, 0, [])]
    while stack:
        node, depth, path = stack.pop()
        if isinstance(node, Mapping):
            items: Any = ((str(k), v) for k, v in node.items())
        elif isinstance(node, (list, tuple)):
            items = ((str(i), v) for i, v in enumerate(node))
        else:
            continue
        for key, child in items:
            if isinstance(child, (Mapping, list, tuple)):
                if depth + 1 > limit:
                    raise ScenarioError(
                        f"{where}: not allowed, {_shown([*path, key])} is nested deeper than "
                        f"{limit} levels of tables and arrays, the most hopsim reads "
                        "(a scenario needs 4)"
                    )
                stack.append((child, depth + 1, [*path, key]))


def check_text_depth(text: str, where: str, limit: int = MAX_DEPTH) -> None:
    """Refuse TOML ``text`` whose arrays and inline tables nest deeper than ``limit`` (the
    TOML parser recurses on them), before it is parsed. Brackets in strings and comments do
    not count; a table header's brackets do, which costs at most 2 levels."""
    depth = 0
    i, n = 0, len(text)
    while True:
        m = _MARKS.search(text, i)  # jump to the next character that matters
        if m is None:
            return
        i, c = m.start(), m.group()
        if c == "#":
            end = text.find("\n", i)
            i = n if end < 0 else end
            continue
        if c in "\"'":
            i = _skip_string(text, i)
            continue
        if c in "[{":
            depth += 1
            if depth > limit:
                line = text.count("\n", 0, i) + 1
                raise ScenarioError(
                    f"{where}: line {line}: not allowed, arrays and inline tables are "
                    f"nested deeper than {limit} levels, the most hopsim reads "
                    "(a scenario needs 4)"
                )
        else:
            depth = max(depth - 1, 0)
        i += 1


_MARKS = re.compile(r"[#\"'\[\]{}]")


def _skip_string(text: str, i: int) -> int:
    """The index after the TOML string starting at ``i`` (basic or literal, one line or
    multi-line); an unterminated string runs to the end (the parser reports it)."""
    quote = text[i]
    triple = text.startswith(quote * 3, i)
    j = i + (3 if triple else 1)
    n = len(text)
    while j < n:
        c = text[j]
        if c == "\\" and quote == '"':
            j += 2
            continue
        if triple:
            if text.startswith(quote * 3, j):
                # A closing delimiter may be followed by up to two more quotes of content.
                k = j + 3
                while k < n and text[k] == quote and k < j + 5:
                    k += 1
                return k
        elif c == quote or c == "\n":
            return j + 1
        j += 1
    return n
