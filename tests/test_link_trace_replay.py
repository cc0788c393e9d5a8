"""Trace-driven links (`[radio.link_trace]`, docs/models.md 23): a link replays the fates of
its measured probes. One sender, paced UDP every 50 ms, one attempt per frame, probes every
50 ms: DATA frame k is decoded a few ms after probe k, so the receiver's sequence of fates is
the trace's sequence of probe fates, and after the trace's end it starts again."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import hopsim
from simhelpers import data_fates

SPACING_S = 0.05
PROBES = 2000


def _bursty(seed: int, n: int) -> list[bool]:
    """A two-state pattern: bursts of losses of mean 4 probes, about one probe in five."""
    rng, good, out = random.Random(seed), True, []
    for _ in range(n):
        good = rng.random() < (0.95 if good else 0.25)
        out.append(good and rng.random() > 0.02)
    return out


def _trace(path: Path, fates: list[bool], *, reverse: bool = True) -> Path:
    rows = ["# synthetic: probes every 50 ms", "src,dst,time_s,delivered,snr_db"]
    rows += [
        f"0,1,{k * SPACING_S:.4f},{int(ok)},{'20' if ok else ''}" for k, ok in enumerate(fates)
    ]
    if reverse:
        rows += [f"1,0,{k * SPACING_S:.4f},1,20" for k in range(len(fates))]
    path.write_text("\n".join(rows) + "\n")
    return path


def _scenario(folder: Path, trace: str, duration_s: float, extra: str = "", hops: int = 1) -> Path:
    path = folder / "replay.toml"
    path.write_text(f"""
duration_s = {duration_s}
seed = 3
[topology]
kind = "chain"
hops = {hops}
spacing_m = 100.0
[radio]
rx_range_m = 250.0
cs_range_m = 550.0
[radio.link_trace]
file = "{trace}"
{extra}
[mac]
rts_threshold_bytes = 1048576
short_retry_limit = 1
long_retry_limit = 1
[routing]
protocol = "static"
[[flows]]
src = 0
dst = {hops}
transport = "udp"
interval_s = {SPACING_S}
""")
    return path


def _fates(tmp_path: Path, scenario: Path) -> tuple[list[bool], hopsim.Result]:
    trace = tmp_path / "events.parquet"
    result = hopsim.run(scenario, trace=trace)
    return data_fates(trace), result


def test_frames_replay_the_probes_and_the_trace_repeats(tmp_path: Path) -> None:
    pattern = _bursty(11, PROBES)
    _trace(tmp_path / "links.csv", pattern)
    # A relative path is found beside the scenario file, whatever the working directory.
    fates, result = _fates(tmp_path, _scenario(tmp_path, "links.csv", 150.0))
    assert len(fates) == pytest.approx(150.0 / SPACING_S, abs=2)
    # 2000 probes 50 ms apart repeat every 100 s: frames 2000.. replay probes 0..
    expected = (pattern * 2)[: len(fates)]
    assert fates == expected
    assert result.raw["totals"]["channel_losses"] == expected.count(False)


def test_unlisted_links_are_lost_or_left_to_the_phy(tmp_path: Path) -> None:
    """A 2-hop chain whose trace lists only the first hop: with unlisted = "lost" nothing
    crosses the second; with "model" it crosses as the PHY lets it."""
    _trace(tmp_path / "links.csv", [True] * 200)
    lost = hopsim.run(_scenario(tmp_path, "links.csv", 20.0, hops=2)).raw
    assert lost["flows"][0]["packets_delivered"] == 0
    model = hopsim.run(_scenario(tmp_path, "links.csv", 20.0, 'unlisted = "model"', hops=2)).raw
    assert model["flows"][0]["packets_delivered"] > 350


@pytest.mark.parametrize(
    "content, says",
    [
        (None, "must be a readable link trace"),
        ("src,dst,time_s,delivered\n0,1,0.0,1\n0,7,0.1,1\n", 'line 3: dst = "7"'),
        ("from,to,t,ok\n0,1,0.0,1\n", "must begin src,dst,time_s,delivered"),
        ("src,dst,time_s,delivered\n0,1,0.5,1\n0,1,0.1,1\n", "go back in time"),
    ],
    ids=["missing", "node", "header", "time"],
)
def test_bad_traces_are_refused_naming_the_key_and_the_line(
    tmp_path: Path, content: str | None, says: str
) -> None:
    if content is not None:
        (tmp_path / "bad.csv").write_text(content)
    with pytest.raises(hopsim.ScenarioError) as e:
        hopsim.run(_scenario(tmp_path, "bad.csv", 10.0))
    assert "radio.link_trace.file" in str(e.value) and says in str(e.value), str(e.value)


def test_a_device_is_no_trace(tmp_path: Path) -> None:
    with pytest.raises(hopsim.ScenarioError) as e:
        hopsim.run(_scenario(tmp_path, "/dev/zero", 10.0))
    assert "regular file" in str(e.value)


def test_offset_must_be_in_range(tmp_path: Path) -> None:
    _trace(tmp_path / "links.csv", [True] * 10)
    with pytest.raises(hopsim.ScenarioError) as e:
        hopsim.run(_scenario(tmp_path, "links.csv", 10.0, "offset_s = -1.0"))
    assert "radio.link_trace.offset_s" in str(e.value)
