"""An existing results.sqlite that is empty or not a hopsim store is refused with one clear
message and exit 2, and left as it was: never a traceback, never a silent rerun (issue 12)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from hopsim.sweeps import ResultStore, StoreUnreadable


def _hopsim(*args: str) -> subprocess.CompletedProcess[str]:
    cmd = [sys.executable, "-m", "hopsim", *args]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize(
    ("content", "says"),
    [(b"", "empty (0 bytes)"), (b"not a database at all " * 50, "not a readable hopsim")],
    ids=["zero-bytes", "garbage"],
)
def test_an_unreadable_store_is_refused_and_kept(tmp_path: Path, content: bytes, says: str):
    store = tmp_path / "results.sqlite"
    store.write_bytes(content)
    with pytest.raises(StoreUnreadable, match=re.escape(says)):
        ResultStore(tmp_path)
    proc = _hopsim("results", str(tmp_path))
    assert proc.returncode == 2, proc.stderr
    assert "Traceback" not in proc.stderr + proc.stdout
    assert says in proc.stderr and "results.sqlite" in proc.stderr
    assert store.read_bytes() == content, "the file is left as it was"


def test_a_new_folder_still_gets_a_store(tmp_path: Path):
    with ResultStore(tmp_path / "new") as store:
        assert list(store.sweeps()) == []


@pytest.fixture(scope="module")
def small_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from hopsim.sweeps import load_sweep, run_sweep

    scenario = {
        "duration_s": 1.0,
        "topology": {"kind": "chain", "hops": 1, "spacing_m": 200.0},
        "flows": [{"src": 0, "dst": 1, "transport": "udp", "interval_s": 0.1}],
    }
    folder = tmp_path_factory.mktemp("store")
    run_sweep(load_sweep({"name": "s", "scenario": scenario}), folder, jobs=1, progress="off")
    return folder


@pytest.mark.parametrize(
    ("column", "value", "says"),
    [
        ("sweeps.spec", "{bad", "its definition cannot be read (Expecting property name"),
        ("sweeps.spec", "7", "its definition cannot be read (a JSON int, not a table)"),
        ("runs.metrics", "[" * 100_000 + "]" * 100_000, "its metrics cannot be read (nested"),
        ("runs.result", "[]", "its result cannot be read (a JSON list, not a table)"),
    ],
)
@pytest.mark.parametrize("command", [["results"], ["view"], ["plot", "--x", "a", "--y", "hops"]])
def test_a_store_changed_by_something_else_is_refused(
    tmp_path: Path, small_store: Path, column: str, value: str, says: str, command: list[str]
) -> None:
    """JSON in the store that hopsim did not write (malformed, not a table, nested past the
    parser) is refused naming the store and the row, exit 2: it was a JSONDecodeError, an
    AttributeError or a RecursionError traceback."""
    import shutil
    import sqlite3

    folder = tmp_path / "store"
    shutil.copytree(small_store, folder)
    table, field = column.split(".")
    with sqlite3.connect(folder / "results.sqlite") as db:
        db.execute(f"UPDATE {table} SET {field} = ?", (value,))
    db.close()
    proc = _hopsim(command[0], str(folder), *command[1:])
    if column == "runs.result" and command[0] == "results":
        assert proc.returncode == 0, proc.stderr  # the summary reads no whole result
        return
    assert proc.returncode == 2, proc.stderr
    assert "Traceback" not in proc.stderr
    assert says in proc.stderr and "results.sqlite" in proc.stderr, proc.stderr
    assert "changed by something other than hopsim" in proc.stderr
