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
