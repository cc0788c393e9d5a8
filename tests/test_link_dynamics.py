"""Links over time (docs/models.md 23): Gauss-Markov shadowing and Gilbert-Elliott losses on
one link, against the processes' closed forms. One sender, paced UDP every 50 ms, no RTS and
one attempt per frame, so each DATA frame's fate at the receiver is the link's at that
instant; the event trace gives the sequence."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

import hopsim
from simhelpers import data_fates

SPACING_S = 0.05


def _scenario(tmp_path: Path, spacing_m: float, table: str, duration_s: float = 1500.0) -> Path:
    path = tmp_path / "link.toml"
    path.write_text(f"""
duration_s = {duration_s}
seed = 5
[topology]
kind = "chain"
hops = 1
spacing_m = {spacing_m}
[radio]
rx_range_m = 250.0
cs_range_m = 550.0
{table}
[mac]
rts_threshold_bytes = 1048576
short_retry_limit = 1
long_retry_limit = 1
[routing]
protocol = "static"
[[flows]]
src = 0
dst = 1
transport = "udp"
interval_s = {SPACING_S}
""")
    return path


def _fates(tmp_path: Path, scenario: Path) -> tuple[list[bool], hopsim.Result]:
    """Per DATA frame node 1 heard, in order: received or not."""
    trace = tmp_path / "t.parquet"
    result = hopsim.run(scenario, trace=trace)
    return data_fates(trace), result


def _loss_runs(fates: list[bool]) -> list[int]:
    runs, n = [], 0
    for ok in fates:
        if not ok:
            n += 1
        elif n:
            runs.append(n)
            n = 0
    return runs


def test_gilbert_elliott_delivery_and_burst_length(tmp_path: Path) -> None:
    """Good 0.4 s, bad 0.1 s, all lost when bad: P(bad) = 0.2, and frames 50 ms apart stay
    bad with P = 0.2 + 0.8 exp(-(1/0.4 + 1/0.1) 0.05) = 0.628, so loss runs are geometric
    with mean 1 / (1 - 0.628) = 2.69 frames."""
    table = "[radio.gilbert_elliott]\ngood_mean_s = 0.4\nbad_mean_s = 0.1"
    fates, result = _fates(tmp_path, _scenario(tmp_path, 100.0, table))
    assert len(fates) == pytest.approx(1500 / SPACING_S, abs=2)
    delivered = sum(fates) / len(fates)
    assert delivered == pytest.approx(0.8, abs=0.015)
    stay = 0.2 + 0.8 * math.exp(-(1 / 0.4 + 1 / 0.1) * SPACING_S)
    runs = _loss_runs(fates)
    assert sum(runs) / len(runs) == pytest.approx(1 / (1 - stay), rel=0.05)
    # Every loss is the channel's: one sender, nothing collides.
    assert result.totals.channel_losses == len(fates) - sum(fates) + _ack_losses(result)
    assert result.totals.collisions == 0


def _ack_losses(result: hopsim.Result) -> int:
    """ACKs lost on the way back (their own chain): the sender drops what they answered."""
    return result.totals.retry_limit_drops - (
        result.flows[0].packets_sent - result.flows[0].packets_delivered
    )


def test_gauss_markov_at_the_decode_threshold(tmp_path: Path) -> None:
    """The receiver sits exactly at the decode range, so a frame is decoded when the link's
    shadowing is positive: half of them. Two frames dt apart have correlation rho = exp(-dt /
    coherence), and both are lost with the bivariate normal's orthant probability 1/4 +
    asin(rho) / (2 pi) (Sheppard 1899): 0.354 for dt = 50 ms, coherence 100 ms."""
    table = "[radio.gauss_markov]\nsigma_db = 6.0\ncoherence_s = 0.1"
    fates, result = _fates(tmp_path, _scenario(tmp_path, 250.0, table, 1000.0))
    assert sum(fates) / len(fates) == pytest.approx(0.5, abs=0.02)
    pairs = list(zip(fates, fates[1:], strict=False))
    both = sum(1 for a, b in pairs if not a and not b) / len(pairs)
    rho = math.exp(-SPACING_S / 0.1)
    assert both == pytest.approx(0.25 + math.asin(rho) / (2 * math.pi), abs=0.015)
    assert "channel_losses" not in result.raw["totals"]


def test_same_seed_same_run_and_other_links_independent(tmp_path: Path) -> None:
    """A rerun is identical; the result document names the models' losses only with them."""
    table = "[radio.gilbert_elliott]\ngood_mean_s = 0.2\nbad_mean_s = 0.05\nloss_good = 0.05"
    scenario = _scenario(tmp_path, 100.0, table, 50.0)
    a, b = hopsim.run(scenario), hopsim.run(scenario)
    assert a.to_json() == b.to_json()
    assert a.totals.channel_losses > 0


@pytest.mark.parametrize(
    ("table", "key"),
    [
        ("[radio.gauss_markov]\nsigma_db = -1.0", "radio.gauss_markov.sigma_db"),
        ("[radio.gauss_markov]\ncoherence_s = 0.0", "radio.gauss_markov.coherence_s"),
        ("[radio.gilbert_elliott]\nloss_bad = 1.5", "radio.gilbert_elliott.loss_bad"),
        ("[radio.gilbert_elliott]\nbad_mean_s = -2", "radio.gilbert_elliott.bad_mean_s"),
        ("[radio.gilbert_elliott]\nburst_s = 2", "burst_s"),
        ("gauss_markov = 3", "radio.gauss_markov"),
    ],
)
def test_bad_values_are_refused_by_key(tmp_path: Path, table: str, key: str) -> None:
    with pytest.raises(hopsim.ScenarioError, match=key.replace(".", r"\.")):
        hopsim.run(_scenario(tmp_path, 100.0, table, 1.0))


def test_links_drawn_from_roofnet_have_its_spread_of_delivery(tmp_path: Path) -> None:
    """`drawn_from = "roofnet_1mbps"`: 200 one-hop links far apart (no link hears another),
    each sending paced UDP every 50 ms for 100 s, one attempt per frame. Each draws one of the
    set's 521 fitted chains, so the quartiles of their delivery ratios are those of the set's
    chains' long-run delivery (a sample of 200; the per-link estimates over 2,000 frames)."""
    from hopsim._core import fitted_links_rows  # the compiled-in set

    rows = fitted_links_rows("roofnet_1mbps")
    want = sorted(1 - (g * lg + b * lb) / (g + b) for g, b, lg, lb in rows)
    pairs = 200
    positions = [[k * 1000.0 + dx, 0.0] for k in range(pairs) for dx in (0.0, 100.0)]
    flows = "".join(
        f'[[flows]]\nsrc = {2 * k}\ndst = {2 * k + 1}\ntransport = "udp"\n'
        f"interval_s = {SPACING_S}\n"
        for k in range(pairs)
    )
    path = tmp_path / "many.toml"
    path.write_text(f"""
duration_s = 100.0
seed = 8
[topology]
kind = "positions"
positions = {positions}
[radio]
rx_range_m = 250.0
cs_range_m = 550.0
[radio.gilbert_elliott]
drawn_from = "roofnet_1mbps"
[mac]
rts_threshold_bytes = 1048576
short_retry_limit = 1
long_retry_limit = 1
[routing]
protocol = "static"
{flows}""")
    result = hopsim.run(path).raw
    got = sorted(f["packets_delivered"] / f["packets_sent"] for f in result["flows"])

    def quartiles(xs: list[float]) -> list[float]:
        return [xs[int(q * (len(xs) - 1))] for q in (0.25, 0.5, 0.75)]

    for a, b in zip(quartiles(got), quartiles(want), strict=True):
        assert a == pytest.approx(b, abs=0.08), (quartiles(got), quartiles(want))
