"""The testbed study re-run with the hosts' TCP (Linux 2.6.8, S003:79): the same sweeps and
pairs as testbed-window, with the linux host profile and 2.6.8's values."""

from __future__ import annotations

import copy

import hopsim
from hopsim.studies import get_study
from hopsim.studies import testbed_window as tw
from hopsim.studies import testbed_window_linux as tl


def test_the_linux_sweeps_are_the_testbed_sweeps_with_the_hosts_tcp() -> None:
    ns2, linux = tw.window_sweep(True), tl.window_sweep(True)
    assert linux["name"] == "testbed-window-linux"
    assert linux["sweep"] == ns2["sweep"], "the same pairs, windows, rates and RTS settings"
    tcp = linux["scenario"]["tcp"]
    # S003:79 (kernel 2.6.8): BIC by default, RFC 3390's 3 segments, TCP_TIMEOUT_INIT 3 s.
    assert (tcp["host"], tcp["variant"], tcp["initial_window"]) == ("linux", "bic", 3.0)
    assert tcp["initial_rto_s"] == 3.0 and tcp["count_acked"] is False
    assert tl.survey_sweep(True)["name"] == "testbed-survey-linux"
    assert get_study("testbed-window-linux").analyse is tl.analyse


def test_a_point_of_the_linux_sweep_runs_with_the_linux_host_filled_in() -> None:
    doc = tl.window_sweep(True)
    s = copy.deepcopy(doc["scenario"])
    s["duration_s"], s["tcp"]["max_window"] = 25.0, 2.0
    res = hopsim.run(s, seed=1)
    tcp = res.raw["scenario"]["flows"][0]["tcp"]
    # Written keys kept; the rest from the linux host (docs/models.md 8.13).
    assert (tcp["variant"], tcp["initial_window"], tcp["initial_rto_s"]) == ("bic", 3.0, 3.0)
    assert tcp["timestamps"] and tcp["quick_ack"] and tcp["rwnd_autotuning"]
    assert tcp["min_rto_s"] == 0.2 and tcp["delayed_ack"]
    assert res.flows[0].goodput_kbps > 0


def test_the_receive_window_reading_sweeps_the_advertised_window_with_autotuning_off() -> None:
    from hopsim import _core
    from hopsim.studies import testbed_window_linux_rcvbuf as tr

    doc = tr.window_sweep(True)
    assert "tcp.max_window" not in doc["sweep"]
    assert doc["sweep"]["tcp.receiver_window"] == [
        1,
        2,
        3,
        4,
        5,
        6,
        _core.LINUX_RCVWND_MAX_SEGMENTS,
    ]
    assert doc["scenario"]["tcp"]["rwnd_autotuning"] is False
    assert doc["sweep"]["zip"] == tl.window_sweep(True)["sweep"]["zip"], "the same pairs"
    # Each receive window is the window of the grid; the bound stands for "unclamped".
    assert tw.window_of({"tcp.receiver_window": 3}) == 3
    assert tw.window_of({"tcp.receiver_window": _core.LINUX_RCVWND_MAX_SEGMENTS}) == 0
    assert tw.window_of({"tcp.max_window": 4.0}) == 4
