"""The testbed study on links drawn from MIT Roofnet's measured links (issue 33): the same
grid as testbed-window, each link's losses one of Roofnet's fitted chains instead of
per-frame Rayleigh fading, pairs picked on those links; with the ns-2-style agent and with
the hosts' Linux TCP."""

from __future__ import annotations

import copy

import hopsim
from hopsim.studies import get_study
from hopsim.studies import testbed_window as tw
from hopsim.studies import testbed_window_roofnet as tr


def test_the_roofnet_sweeps_are_the_testbed_grid_on_roofnet_links() -> None:
    base, roof = tw.window_sweep(True), tr.window_sweep(True)
    assert roof["name"] == "testbed-window-roofnet"
    radio = roof["scenario"]["radio"]
    assert radio["fading"] == "none"
    assert radio["gilbert_elliott"] == {"drawn_from": "roofnet_1mbps"}
    assert base["scenario"]["radio"]["fading"] == "rayleigh", "the base study is unchanged"
    grid = {k: v for k, v in roof["sweep"].items() if k != "zip"}
    assert grid == {k: v for k, v in base["sweep"].items() if k != "zip"}
    assert set(roof["sweep"]["zip"]) == set(tw.ZIP_KEYS)
    linux = tr.linux_window_sweep(True)
    assert linux["name"] == "testbed-window-linux-roofnet"
    assert linux["scenario"]["tcp"]["host"] == "linux"
    assert linux["scenario"]["radio"] == radio and linux["sweep"] == roof["sweep"]
    assert tr.survey_sweep(True)["scenario"]["radio"] == radio
    assert get_study("testbed-window-roofnet").analyse is tr.analyse
    assert get_study("testbed-window-linux-roofnet").analyse is tr.analyse_linux


def test_a_point_loses_frames_to_its_drawn_chains() -> None:
    doc = tr.window_sweep(True)
    s = copy.deepcopy(doc["scenario"])
    zipped = doc["sweep"]["zip"]
    s["topology"]["seed"] = zipped["topology.seed"][0]
    s["flows"][0].update(src=zipped["flows.0.src"][0], dst=zipped["flows.0.dst"][0])
    s["duration_s"] = 30.0
    res = hopsim.run(s, seed=1).raw
    assert res["totals"]["channel_losses"] > 0
    assert res["flows"][0]["goodput_kbps"] > 0
    again = hopsim.run(s, seed=2).raw
    assert again["totals"]["channel_losses"] != res["totals"]["channel_losses"]
