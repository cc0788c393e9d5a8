"""Outside interference (docs/models.md 24, `[[interference]]`): transmitters outside the
network that keep the medium busy and corrupt frames, against closed forms.

* An interferer only the receiver hears (ns-2 capture, weaker than the frames by less than
  the 10 dB capture threshold): a DATA frame of airtime T is lost exactly when the
  interferer is on at some moment of its reception. Exponential periods (stationary from
  the start): P = occ + (1 - occ)(1 - exp(-T / off_mean)); periodic ones (uniform phase):
  P = (on + T) / (on + off).
* SINR reception: an interferer always on adds its power to the noise, so a link with it
  delivers what the same link delivers without it at a noise floor raised by its power.
* An interferer only the sender hears keeps the sender from starting frames while it is on
  (the run's carrier-sense invariant), which bounds the goodput by the time off the air.
"""

from __future__ import annotations

import math
from pathlib import Path

import pyarrow.parquet as pq
import pytest

import hopsim
from simhelpers import data_fates

SPACING_S = 0.05

# Node 0 at 0 m, node 1 at 200 m; ns-2's radio (two-ray, 250 m decode, 550 m carrier sense,
# 24.5 dBm). An interferer of 13 dBm (0.07 of the nodes' power) 150 m beyond node 1 reaches
# it at 0.07 (200/150)^4 = 0.22 of a frame's power (above carrier sense, 6.5 dB under the
# frame: no capture) and node 0, 350 m away, at 0.07 (550/350)^4 = 0.43 of the carrier-sense
# threshold: node 0 never senses it.
RADIO = """
[radio]
rx_range_m = 250.0
cs_range_m = 550.0
"""


def _write(tmp_path: Path, body: str, duration_s: float, flow: str, name: str = "s") -> Path:
    path = tmp_path / f"{name}.toml"
    path.write_text(f"""
duration_s = {duration_s}
seed = 5
[topology]
kind = "chain"
hops = 1
spacing_m = 200.0
{RADIO}
[mac]
rts_threshold_bytes = 1048576
{flow}
[routing]
protocol = "static"
[[flows]]
src = 0
dst = 1
transport = "udp"
{body}
""")
    return path


def _interferer(x_m: float, on_s: float, off_s: float, process: str = "exponential") -> str:
    return f"""
[[interference]]
x_m = {x_m}
y_m = 0.0
power_dbm = 13.0
on_mean_s = {on_s}
off_mean_s = {off_s}
process = "{process}"
"""


def _data_fates(tmp_path: Path, scenario: Path) -> tuple[float, float, hopsim.Result]:
    """Share of node 1's DATA receptions lost, the DATA airtime (s), and the result."""
    trace = tmp_path / f"{scenario.stem}.parquet"
    result = hopsim.run(scenario, trace=trace)
    fates = data_fates(trace)
    rows = pq.read_table(trace, columns=["node", "event", "frame_kind", "time_ns"]).to_pylist()
    data = [r for r in rows if r["frame_kind"] == "data"]
    starts = [r["time_ns"] for r in data if r["node"] == 0 and r["event"] == "frame_start"]
    ends = [r["time_ns"] for r in data if r["node"] == 0 and r["event"] == "frame_end"]
    airtime_s = (ends[0] - starts[0]) * 1e-9
    return 1 - sum(fates) / len(fates), airtime_s, result


ONE_ATTEMPT = "short_retry_limit = 1\nlong_retry_limit = 1"


@pytest.mark.parametrize("process", ["exponential", "periodic"])
def test_hidden_interferer_corrupts_frames_it_overlaps(tmp_path: Path, process: str) -> None:
    # Periodic: a 19.7 ms cycle, so frames every 50 ms fall at every phase of it.
    on_s, off_s = (0.005, 0.015) if process == "exponential" else (0.005, 0.0147)
    body = f"interval_s = {SPACING_S}\n" + _interferer(350.0, on_s, off_s, process)
    scenario = _write(tmp_path, body, 1500.0, ONE_ATTEMPT)
    lost, t_s, result = _data_fates(tmp_path, scenario)
    occ = on_s / (on_s + off_s)
    if process == "exponential":
        want = occ + (1 - occ) * (1 - math.exp(-t_s / off_s))
    else:
        want = (on_s + t_s) / (on_s + off_s)
    # 30,000 frames: the standard error is under 0.003.
    assert lost == pytest.approx(want, abs=0.012), (process, t_s)
    (src,) = result.raw["interference"]
    assert src["nodes_reached"] == 1, "node 0 is below carrier sense"
    assert src["occupancy"] == pytest.approx(occ, abs=0.01)
    assert result.raw["invariants"]["violation_count"] == 0


def test_interferer_off_the_link_changes_nothing(tmp_path: Path) -> None:
    """Too far from both nodes to be a signal at either: the run is the run without it."""
    clean = _write(tmp_path, f"interval_s = {SPACING_S}", 60.0, ONE_ATTEMPT, "clean")
    far = _write(
        tmp_path,
        f"interval_s = {SPACING_S}" + _interferer(5000.0, 0.005, 0.015),
        60.0,
        ONE_ATTEMPT,
        "far",
    )
    a, b = hopsim.run(clean).raw, hopsim.run(far).raw
    assert b["interference"][0]["nodes_reached"] == 0
    assert a["flows"] == b["flows"] and a["totals"] == b["totals"]


def test_sender_defers_while_it_senses_the_interferer(tmp_path: Path) -> None:
    """The interferer 150 m behind node 0, on half the time in 50 ms periods: node 0 may not
    start a frame while it senses it (the invariant checker would say so), so saturated UDP
    carries at most half of what it carries alone; ACKs that arrive while it is on are lost
    (and retried), which takes a little more."""
    flow = "interval_s = 0.0"
    clean = hopsim.run(_write(tmp_path, flow, 100.0, "", "clean")).raw
    noisy = _write(tmp_path, flow + _interferer(-150.0, 0.05, 0.05, "periodic"), 100.0, "", "n")
    result = hopsim.run(noisy).raw
    assert result["invariants"]["violation_count"] == 0
    assert result["interference"][0]["nodes_reached"] == 1
    share = result["flows"][0]["goodput_kbps"] / clean["flows"][0]["goodput_kbps"]
    assert 0.38 < share <= 0.5, share


def _sinr_link(tmp_path: Path, name: str, noise_figure_db: float, interferer: bool) -> float:
    """One link of 140 m at 11 Mbit/s, log-distance (40 dB at 1 m, n = 3), 20 dBm: the frames
    arrive at -84.3 dBm over a -93.55 dBm noise floor. The interferer, 100 m from the
    receiver at 6.45 dBm, arrives at -93.55 dBm: the noise's own power (below carrier sense
    at both nodes). Returns the share of DATA frames node 1 decodes."""
    inter = (
        """
[[interference]]
x_m = 140.0
y_m = 100.0
power_dbm = 6.45
on_mean_s = 1e7
off_mean_s = 1e-6
"""
        if interferer
        else ""
    )
    path = tmp_path / f"{name}.toml"
    path.write_text(f"""
duration_s = 300
seed = 5
[topology]
kind = "positions"
positions = [[0.0, 0.0], [140.0, 0.0]]
[radio]
reception = "sinr"
propagation = "log_distance"
reference_loss_db = 40.0
tx_power_dbm = 20.0
rx_threshold_w = 1e-12
cs_threshold_w = 5e-13
noise_figure_db = {noise_figure_db}
[mac]
data_rate_mbps = 11
rts_threshold_bytes = 1048576
{ONE_ATTEMPT}
[routing]
protocol = "static"
[[flows]]
src = 0
dst = 1
transport = "udp"
interval_s = {SPACING_S}
{inter}""")
    trace = tmp_path / f"{name}.parquet"
    hopsim.run(path, trace=trace)
    heard = data_fates(trace)
    return sum(heard) / len(heard)


def test_sinr_interference_adds_to_the_noise(tmp_path: Path) -> None:
    alone = _sinr_link(tmp_path, "alone", 7.0, False)
    with_it = _sinr_link(tmp_path, "with", 7.0, True)
    # The noise floor doubled: +3.0103 dB of noise figure.
    louder = _sinr_link(tmp_path, "louder", 7.0 + 10 * math.log10(2), False)
    assert alone > 0.99
    assert with_it < alone - 0.3, "an interferer at the noise's power costs ~3 dB of SINR"
    assert with_it == pytest.approx(louder, abs=0.02)


def test_runs_are_reproducible_and_seeded(tmp_path: Path) -> None:
    body = f"interval_s = {SPACING_S}" + _interferer(350.0, 0.005, 0.015)
    s = _write(tmp_path, body, 30.0, ONE_ATTEMPT)
    a, b = hopsim.run(s).raw, hopsim.run(s).raw
    assert a["flows"] == b["flows"] and a["interference"] == b["interference"]
    c = hopsim.run(s, overrides={"seed": 6}).raw
    assert c["interference"] != a["interference"]


@pytest.mark.parametrize(
    "table, key, says",
    [
        ({"on_mean_s": 0.0}, "interference.0.on_mean_s", "at least"),
        ({"off_mean_s": -1.0}, "interference.0.off_mean_s", "at least"),
        ({"power_dbm": 90.0}, "interference.0.power_dbm", "dBm"),
        ({"stop_s": 1.0, "start_s": 2.0}, "interference.0.stop_s", "above"),
        ({"start_s": 500.0}, "interference.0.start_s", "duration_s"),
        ({"process": "poisson"}, "interference.0.process", "exponential"),
        ({"colour": 1}, "interference.0", "colour"),
    ],
)
def test_bad_interferers_are_refused_by_key(table: dict, key: str, says: str) -> None:
    one = {"x_m": 0.0, "y_m": 0.0, "power_dbm": 10.0, "on_mean_s": 0.01, "off_mean_s": 0.01}
    one.update(table)
    doc = {
        "duration_s": 100.0,
        "topology": {"kind": "chain", "hops": 1, "spacing_m": 200.0},
        "flows": [{"src": 0, "dst": 1}],
        "interference": [one],
    }
    with pytest.raises(hopsim.ScenarioError) as e:
        hopsim.run(doc)
    assert key in str(e.value) and says in str(e.value), str(e.value)


def test_interference_written_as_one_table_is_refused() -> None:
    doc = {
        "topology": {"kind": "chain", "hops": 1, "spacing_m": 200.0},
        "flows": [{"src": 0, "dst": 1}],
        "interference": {
            "x_m": 0.0,
            "y_m": 0.0,
            "power_dbm": 10.0,
            "on_mean_s": 0.01,
            "off_mean_s": 0.01,
        },
    }
    with pytest.raises(hopsim.ScenarioError) as e:
        hopsim.run(doc)
    assert "[[interference]]" in str(e.value), str(e.value)


@pytest.mark.parametrize("weak_frames", ["receive", "sense"])
def test_a_weak_signal_ruins_a_frame_by_the_capture_rule(tmp_path: Path, weak_frames) -> None:
    """radio.weak_frames (docs/models.md section 2, rule 2). An interferer as strong as the
    nodes 400 m beyond node 1 (12 dB under the frames; 600 m from node 0, which never senses
    it), on 5 ms in every 19.7 ms. ns-2's receiver ("receive") locks on it when it is on at a
    frame's start and loses the frame (the frame is not 10 dB stronger than what is being
    received), and captures it away when it starts during a frame: P = on / (on + off).
    Sensed only, it never holds the receiver and is 12 dB too weak to ruin a frame: P = 0.
    Within the margin (6.5 dB under the frames) both rules lose a frame it overlaps at all."""
    on_s, off_s = 0.005, 0.0147
    strong = _interferer(600.0, on_s, off_s, "periodic").replace("13.0", "24.5")
    body = f"interval_s = {SPACING_S}\n" + strong
    radio = f'weak_frames = "{weak_frames}"\n'
    scenario = _write(tmp_path, body, 600.0, ONE_ATTEMPT)
    text = scenario.read_text().replace("[radio]\n", "[radio]\n" + radio)
    scenario.write_text(text)
    lost, t_s, result = _data_fates(tmp_path, scenario)
    # 12,000 frames: the standard error is under 0.004.
    want = on_s / (on_s + off_s) if weak_frames == "receive" else 0.0
    assert lost == pytest.approx(want, abs=0.015), (weak_frames, t_s)
    assert result.raw["interference"][0]["nodes_reached"] == 1
    near = _write(
        tmp_path,
        f"interval_s = {SPACING_S}\n" + _interferer(350.0, on_s, off_s, "periodic"),
        600.0,
        ONE_ATTEMPT,
        "near",
    )
    near.write_text(near.read_text().replace("[radio]\n", "[radio]\n" + radio))
    lost, t_s, _ = _data_fates(tmp_path, near)
    assert lost == pytest.approx((on_s + t_s) / (on_s + off_s), abs=0.015), weak_frames


def test_weak_frames_receive_is_refused_with_sinr_reception() -> None:
    base = {
        "topology": {"kind": "chain", "hops": 1, "spacing_m": 200.0},
        "flows": [{"src": 0, "dst": 1, "transport": "udp"}],
    }
    s = {**base, "radio": {"reception": "sinr", "weak_frames": "receive"}}
    with pytest.raises(hopsim.ScenarioError, match=r"radio\.weak_frames.*capture-mode"):
        hopsim.validate(s)
    ok = hopsim.validate({**base, "radio": {"reception": "sinr", "weak_frames": "sense"}})
    assert ok["radio"]["weak_frames"] == "sense"
    with pytest.raises(hopsim.ScenarioError, match=r"radio\.weak_frames.*"):
        hopsim.validate({**base, "radio": {"weak_frames": "lock"}})
