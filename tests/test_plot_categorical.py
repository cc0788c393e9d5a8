"""``hopsim plot`` with a categorical swept key (``tcp.variant``): points per category with
confidence intervals, groups side by side; and never an empty figure with exit 0."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import matplotlib.image as mpimg
import numpy as np
import pytest

from hopsim.plot import plot_points
from hopsim.sweeps import load_sweep, run_sweep, summarize

SCENARIO = {
    "duration_s": 8.0,
    "warmup_s": 1.0,
    "topology": {"kind": "chain", "hops": 2, "spacing_m": 200.0},
    "routing": {"protocol": "static"},
    "flows": [{"src": 0, "dst": 2, "transport": "tcp"}],
}
# matplotlib's first two colours: the groups' points and error bars are drawn in them.
C0, C1 = (0x1F, 0x77, 0xB4), (0xFF, 0x7F, 0x0E)


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("cat")
    doc = {
        "name": "cat",
        "scenario": SCENARIO,
        "replications": 2,
        "metrics": ["goodput_kbps", "avg_cwnd", "transfer_completed_s"],
        "sweep": {"tcp.variant": ["newreno", "vegas", "sack"], "topology.hops": [2, 3]},
        "set": {"flows.0.dst": 2},
    }
    run_sweep(load_sweep(doc), out, jobs=1, progress="off")
    return out


def _pixels_of(png: Path, rgb: tuple[int, int, int]) -> int:
    img = (mpimg.imread(png)[..., :3] * 255).round().astype(int)
    return int((np.abs(img - np.array(rgb)).sum(axis=2) < 30).sum())


def _hopsim(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "hopsim", *args], capture_output=True, text=True, timeout=120
    )


def test_a_categorical_key_gives_points_per_category(folder: Path, tmp_path: Path):
    points = summarize(folder, "cat", ["goodput_kbps"])
    png, pdf = plot_points(points, "tcp.variant", "goodput_kbps", tmp_path / "g", series=None)
    assert pdf.stat().st_size > 0
    # Two groups (hops 2 and 3): both colours are on the figure.
    assert _pixels_of(png, C0) > 50 and _pixels_of(png, C1) > 50
    # With --series naming the other key, the same; one group without other keys.
    png2, _ = plot_points(
        [p for p in points if p.params["topology.hops"] == 2],
        "tcp.variant",
        "goodput_kbps",
        tmp_path / "one",
    )
    assert _pixels_of(png2, C0) > 50 and _pixels_of(png2, C1) == 0


def test_the_cli_draws_categories_and_groups(folder: Path, tmp_path: Path):
    stem = tmp_path / "fig"
    proc = _hopsim(
        "plot", str(folder), "--x", "tcp.variant", "--y", "goodput_kbps",
        "--series", "topology.hops", "--out", str(stem),
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    png = Path(f"{stem}.png")
    assert _pixels_of(png, C0) > 50 and _pixels_of(png, C1) > 50
    # A numeric key still draws lines, one per variant (three colours).
    proc = _hopsim(
        "plot", str(folder), "--x", "topology.hops", "--y", "goodput_kbps",
        "--series", "tcp.variant", "--out", str(tmp_path / "lines"),
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert _pixels_of(tmp_path / "lines.png", (0x2C, 0xA0, 0x2C)) > 50  # C2, the third


def test_a_metric_without_values_is_refused_not_drawn_empty(folder: Path, tmp_path: Path):
    # Bulk transfers never complete: transfer_completed_s has no value at any point.
    stem = tmp_path / "empty"
    proc = _hopsim(
        "plot", str(folder), "--x", "tcp.variant", "--y", "transfer_completed_s",
        "--out", str(stem),
    )  # fmt: skip
    assert proc.returncode == 2, proc.stderr
    assert "no point of this sweep has a value" in proc.stderr
    assert "Traceback" not in proc.stderr
    assert not Path(f"{stem}.png").exists()
