"""Outputs that cannot be written (issue 30): a page, an export or standard output on a
read-only file system, under a file, under /proc or on a full disk. One message naming the
path and what went wrong, never a traceback nor "cannot read the scenario"; an intact store
on a read-only file system is read, not called unreadable."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from hopsim.scenario import dumps_toml
from hopsim.sweeps import ResultStore, StoreError, load_sweep, run_sweep

SCENARIO: dict[str, Any] = {
    "duration_s": 2.0,
    "topology": {"kind": "chain", "hops": 2, "spacing_m": 200.0},
    "routing": {"protocol": "static"},
    "flows": [{"src": 0, "dst": 2, "transport": "udp", "interval_s": 0.1}],
}


def _hopsim(*args: str, stdout: Any = subprocess.PIPE) -> subprocess.CompletedProcess[str]:
    cmd = [sys.executable, "-m", "hopsim", *args]
    return subprocess.run(cmd, stdout=stdout, stderr=subprocess.PIPE, text=True, timeout=300)


def _refused(proc: subprocess.CompletedProcess[str], *needles: str, code: int = 2) -> None:
    assert proc.returncode == code, proc.stderr
    assert "Traceback" not in proc.stderr
    assert "cannot read the scenario" not in proc.stderr
    for needle in needles:
        assert needle in proc.stderr, proc.stderr


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A sweep's output folder with two runs."""
    folder = tmp_path_factory.mktemp("store")
    spec = load_sweep({"name": "ro", "scenario": SCENARIO, "sweep": {"duration_s": [1.0, 2.0]}})
    run_sweep(spec, folder, jobs=1, progress="off")
    return folder


@pytest.fixture()
def scenario_file(tmp_path: Path) -> Path:
    path = tmp_path / "s.toml"
    path.write_text(dumps_toml(SCENARIO))
    return path


@pytest.fixture()
def read_only(tmp_path: Path, store: Path) -> Iterator[Path]:
    """A copy of ``store`` on a read-only file system (a tmpfs remounted read-only); as a
    user other than root, a folder without write permission does the same."""
    mnt = tmp_path / "ro"
    mnt.mkdir()
    mounted = os.geteuid() == 0 and (
        subprocess.run(["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", str(mnt)]).returncode == 0
    )
    if not mounted and os.geteuid() == 0:
        pytest.skip("root cannot mount a tmpfs here, and file modes do not stop root")
    shutil.copytree(store, mnt / "store")
    try:
        if mounted:
            subprocess.run(["mount", "-o", "remount,ro", str(mnt)], check=True)
        else:
            for path in (mnt / "store" / "results.sqlite",):
                path.chmod(0o444)
            (mnt / "store").chmod(0o555)
            mnt.chmod(0o555)
        yield mnt
    finally:
        if mounted:
            subprocess.run(["umount", str(mnt)], check=True)  # busy: a file left open
        else:
            mnt.chmod(0o755)
            (mnt / "store").chmod(0o755)


# ------------------------------------------------------------------ view --out (case 8)


@pytest.mark.parametrize("where", ["under-a-file", "under-proc"])
def test_view_store_out_folder_cannot_be_made(
    tmp_path: Path, store: Path, scenario_file: Path, where: str
) -> None:
    out = (
        scenario_file / "x" / "index.html"
        if where == "under-a-file"
        else Path("/proc/hopsim-nowhere/index.html")
    )
    proc = _hopsim("view", str(store), "--out", str(out))
    _refused(proc, str(out), "cannot create the folder")
    if where == "under-a-file":
        assert f"{str(scenario_file)!r} is a file, not a folder" in proc.stderr


@pytest.mark.parametrize("under", ["", "x"])
def test_view_out_under_a_file_names_the_file(store: Path, scenario_file: Path, under: str) -> None:
    """The file in the way is named (it was "File exists", or "not a file in an existing
    folder" naming -o, which the user did not type)."""
    out = scenario_file / under / "index.html"
    for target in (store, scenario_file):
        proc = _hopsim("view", str(target), "--out", str(out))
        _refused(proc, f"--out '{out}'", f"'{scenario_file}' is a file, not a folder")


def test_view_store_on_a_read_only_file_system(read_only: Path) -> None:
    proc = _hopsim("view", str(read_only / "store"))  # the default page is inside the store
    _refused(proc, str(read_only / "store" / "view" / "index.html"), "default of --out")
    proc = _hopsim("view", str(read_only / "store"), "--out", str(read_only / "v" / "i.html"))
    _refused(proc, str(read_only / "v" / "i.html"))


# --------------------------------------------------------- messages pointing the right way


def test_view_file_out_to_unwritable_paths(scenario_file: Path, read_only: Path) -> None:
    for out in (Path("/proc/hopsim-x.html"), read_only / "x.html"):
        proc = _hopsim("view", str(scenario_file), "--out", str(out))
        _refused(proc, f"cannot write the page '{out}'")
    assert "read-only" in proc.stderr or "ermission" in proc.stderr


def test_results_export_to_unwritable_paths(store: Path, read_only: Path) -> None:
    for option in ("--parquet", "--runs"):
        for out in (Path("/proc/hopsim-x.parquet"), read_only / "x.csv"):
            proc = _hopsim("results", str(store), option, str(out))
            _refused(proc, f"cannot write {option} '{out}'")


def test_intact_store_on_a_read_only_file_system_is_read(store: Path, read_only: Path) -> None:
    folder = read_only / "store"
    proc = _hopsim("results", str(folder))
    assert proc.returncode == 0, proc.stderr
    assert "move it away" not in proc.stderr
    assert proc.stdout == _hopsim("results", str(store)).stdout
    proc = _hopsim("plot", str(folder), "--x", "duration_s", "--y", "goodput_kbps")
    _refused(proc, "cannot write", "figure")  # the figures' folder is in the store
    with ResultStore(folder, create=False) as ro:
        assert ro.read_only
        assert len(ro.runs("ro")) == 2
        with pytest.raises(StoreError, match="read-only.*copy the folder"):
            ro.record_sweep("ro", "x", {})


# ----------------------------------------------------------- standard output on a full disk


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full here")
@pytest.mark.parametrize(
    "args",
    [
        ["validate", "{s}"],
        ["run", "{s}"],
        ["--help"],
        ["validate", "--help"],
        ["--version"],
        ["results", "{store}"],
    ],
)
def test_standard_output_on_a_full_disk(args: list[str], scenario_file: Path, store: Path) -> None:
    args = [a.format(s=scenario_file, store=store) for a in args]
    with open("/dev/full", "w") as full:
        proc = _hopsim(*args, stdout=full)
    assert proc.returncode == 1, proc.stderr  # as coreutils: 2 is bad input
    assert proc.stderr == "hopsim: write error: No space left on device\n"


@pytest.mark.parametrize("args", [["validate", "{s}"], ["--help"], ["results", "{store}"]])
def test_standard_output_closed(args: list[str], scenario_file: Path, store: Path) -> None:
    """``hopsim validate s.toml >&-``: Python starts with sys.stdout None, and the first
    print was an AttributeError traceback."""
    args = [a.format(s=scenario_file, store=store) for a in args]
    cmd = [sys.executable, "-m", "hopsim", *args]
    proc = subprocess.run(
        cmd,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        timeout=300,
        preexec_fn=lambda: os.close(1),  # the child alone: no threads to upset
    )
    assert proc.returncode == 1, proc.stderr
    assert proc.stderr == "hopsim: write error: Bad file descriptor\n"
