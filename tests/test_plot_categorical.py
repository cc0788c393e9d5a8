"""``hopsim plot`` with a categorical swept key (``tcp.variant``): points per category with
confidence intervals, groups side by side; and never an empty figure with exit 0."""

from __future__ import annotations

import math
import subprocess
import sys
from pathlib import Path

import matplotlib.image as mpimg
import numpy as np
import pytest

from hopsim._core import ScenarioError
from hopsim.sweeps import PointSummary, Summary, load_sweep, run_sweep, summarize
from hopsim.sweeps.plot import plot_points

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


@pytest.fixture
def figures(monkeypatch: pytest.MonkeyPatch) -> list:
    """The figures plot_points saves, kept open for inspection (it closes its own)."""
    from matplotlib.figure import Figure

    saved: list = []
    original = Figure.savefig

    def savefig(self, *args, **kwargs):
        if self not in saved:
            saved.append(self)
        return original(self, *args, **kwargs)

    monkeypatch.setattr(Figure, "savefig", savefig)
    return saved


def _groups(ax) -> list[tuple[str, list[float], list[float], list[float]]]:
    """Per error-bar group: its label, xs, ys and the half-lengths of its error bars."""
    out = []
    for c in ax.containers:
        line, _caps, (bars, *_) = c.lines
        halves = [abs(seg[1][1] - seg[0][1]) / 2 for seg in bars.get_segments()]
        out.append((c.get_label(), list(line.get_xdata()), list(line.get_ydata()), halves))
    return out


def test_categories_in_sweep_order_groups_dodged_with_ci_bars(folder: Path, tmp_path, figures):
    # The 95th percentile RTT varies between replications: its CIs have a length.
    points = summarize(folder, "cat", ["rtt_ms.p95"])
    plot_points(points, "tcp.variant", "rtt_ms.p95", tmp_path / "g", series="topology.hops")
    (fig,) = figures
    ax = fig.axes[0]
    # Sweep order (newreno, vegas, sack), not alphabetical; the axis says what it is.
    assert [t.get_text() for t in ax.get_xticklabels()] == ["newreno", "vegas", "sack"]
    assert ax.get_xlabel() == "TCP variant"
    groups = _groups(ax)
    assert [g[0] for g in groups] == ["hops=2", "hops=3"]
    for (label, xs, ys, halves), shift in zip(groups, (-0.2, 0.2), strict=True):
        hops = int(label.split("=")[1])
        mine = [p for p in points if p.params["topology.hops"] == hops]
        # Side by side within each category's slot: index + the group's own shift.
        assert xs == pytest.approx([i + shift for i in range(3)])
        assert ys == pytest.approx([p.stats["rtt_ms.p95"].mean for p in mine])
        bars = [p.stats["rtt_ms.p95"].half_width for p in mine]
        assert halves == pytest.approx(bars, abs=1e-6)
    assert any(h > 0 for g in groups for h in g[3])  # the CIs are drawn, not all zero


def _point(i: int, params: dict, value: float) -> PointSummary:
    return PointSummary(i, params, 2, {"goodput_kbps": Summary(2, value, 1.0, 0.5, 0.95)})


def test_boolean_keys_are_categories_and_legend_names_stay_distinct(tmp_path, figures):
    points = [
        _point(0, {"tcp.sack": True, "flows.0.interval_s": 0.1, "flows.1.interval_s": 0.2}, 5),
        _point(1, {"tcp.sack": False, "flows.0.interval_s": 0.1, "flows.1.interval_s": 0.2}, 6),
    ]
    plot_points(points, "tcp.sack", "goodput_kbps", tmp_path / "b")
    ax = figures[0].axes[0]
    assert [t.get_text() for t in ax.get_xticklabels()] == ["True", "False"]
    (label, xs, ys, halves), *_ = _groups(ax)
    assert label == "0.interval_s=0.1, 1.interval_s=0.2"
    assert xs == [0, 1] and ys == [5, 6] and halves == pytest.approx([0.5, 0.5])


def test_nothing_to_draw_raises(tmp_path: Path):
    with pytest.raises(ScenarioError, match="no finished runs"):
        plot_points([], "tcp.variant", "goodput_kbps", tmp_path / "a")
    nan = [_point(0, {"tcp.variant": "vegas"}, math.nan)]
    with pytest.raises(ScenarioError, match="--y goodput_kbps: no point"):
        plot_points(nan, "tcp.variant", "goodput_kbps", tmp_path / "b")
    assert not list(tmp_path.iterdir())


@pytest.mark.parametrize("option", ["--x", "--series"])
def test_an_unswept_key_exits_2(folder: Path, tmp_path: Path, option: str):
    args = ["--x", "tcp.variant", "--y", "goodput_kbps", option, "routing.protocol"]
    proc = _hopsim("plot", str(folder), *args, "--out", str(tmp_path / "f"))
    assert proc.returncode == 2, proc.stderr
    assert f"{option} routing.protocol: not a swept key" in proc.stderr
    assert "tcp.variant" in proc.stderr and "Traceback" not in proc.stderr
    assert not list(tmp_path.iterdir())


def test_hopsim_view_draws_what_hopsim_plot_draws(folder: Path, tmp_path, figures):
    """One drawing path: the view's SVG has plot_points' groups (legend), positions, means
    and CI bars, mapped to pixels."""
    import xml.etree.ElementTree as ET

    from hopsim.view.results import _plot

    points = summarize(folder, "cat", ["rtt_ms.p95"])
    plot_points(points, "tcp.variant", "rtt_ms.p95", tmp_path / "g")
    groups = _groups(figures[0].axes[0])
    svg = ET.fromstring(_plot("rtt_ms.p95", "tcp.variant", points, {}, {}))
    legend = [t.text for t in svg.iter("text") if t.get("class") == "legend"]
    assert legend == [g[0] for g in groups]
    circles = [float(c.get("cx")) for c in svg.iter("circle")]
    means = [float(c.find("title").text.rsplit(": ", 1)[1]) for c in svg.iter("circle")]
    bars = [abs(float(b.get("y2")) - float(b.get("y1"))) for b in svg.iter("line")]
    xs = [x for g in groups for x in g[1]]
    ys = [y for g in groups for y in g[2]]
    halves = [h for g in groups for h in g[3]]
    assert means == pytest.approx(ys, rel=1e-3)
    # The same x positions up to the pixel scale: one linear map from matplotlib's x to cx.
    scale = (circles[1] - circles[0]) / (xs[1] - xs[0])
    assert circles == pytest.approx([circles[0] + (x - xs[0]) * scale for x in xs], abs=0.2)
    # CI bars: proportional to the half-widths (zero where matplotlib's are zero).
    ratio = max(bars) / (2 * max(halves))
    assert bars == pytest.approx([2 * h * ratio for h in halves], abs=0.2)
