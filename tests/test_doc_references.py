"""Every ``docs/<page>.md`` file named in the Python package, the tests, the scenarios and the
docs themselves exists (a renamed page leaves no stale reference behind), and no page is
named after the issue that produced it."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WHERE = ["python", "tests", "scenarios", "docs", "benches", "README.md", "mkdocs.yml"]
PATH = re.compile(r"\bdocs/[\w./-]+\.md\b")
ISSUE_NAMED = re.compile(r"\bissue\d+-[\w-]+\.md\b")  # retired names: issue<N>-<topic>.md
SUFFIXES = {".py", ".md", ".toml", ".yml"}


def _files() -> list[Path]:
    out = []
    for name in WHERE:
        p = ROOT / name
        out += [p] if p.is_file() else [f for f in p.rglob("*") if f.suffix in SUFFIXES]
    return out


def test_every_named_docs_page_exists() -> None:
    missing = []
    for f in _files():
        text = f.read_text(encoding="utf-8", errors="replace")
        for m in PATH.finditer(text):
            if not (ROOT / m.group(0)).is_file():
                missing.append(f"{f.relative_to(ROOT)}: {m.group(0)}")
        missing += [f"{f.relative_to(ROOT)}: {m.group(0)}" for m in ISSUE_NAMED.finditer(text)]
    assert not missing, "references to docs pages that do not exist:\n" + "\n".join(missing)


def test_research_notes_are_named_by_topic() -> None:
    named = [
        p.name for p in (ROOT / "docs" / "research").glob("*.md") if p.name.startswith("issue")
    ]
    assert not named, f"pages named after the issue that produced them: {named}"
