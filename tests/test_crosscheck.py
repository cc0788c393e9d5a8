"""hopsim crosscheck: the ns-2.35 translation, the trace reader, and ns-2 run side by side.

The translator and trace-reader tests need no ns-2. The side-by-side tests need Debian's
``ns2`` package (``make test`` installs it; they are skipped, saying why, where it cannot be
installed).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from simhelpers import import_hopsim

ROOT = Path(__file__).resolve().parents[1]
HOPSIM = [sys.executable, "-m", "hopsim"]


def _chain(hops: int = 4, **over) -> dict:
    hopsim = import_hopsim()
    base = {
        "duration_s": 60.0,
        "warmup_s": 10.0,
        "topology": {"kind": "chain", "hops": hops, "spacing_m": 200.0},
        "routing": {"protocol": "aodv"},
        "flows": [{"src": 0, "dst": hops, "transport": "tcp", "start_s": 1.0}],
    }
    return hopsim.scenario.apply_overrides(base, over)


def _resolved(s: dict) -> dict:
    hopsim = import_hopsim()
    return json.loads(hopsim._core.validate_json(hopsim.scenario.to_json(s)))


def _script(s: dict) -> str:
    from hopsim.crosscheck.ns2run import ns2_script

    return ns2_script(_resolved(s), "run.tr")


# ---------------------------------------------------------------- translation


def test_the_ranges_become_ns2s_own_thresholds_for_250_and_550_m():
    # ns-2.35's defaults RXThresh_ 3.652e-10 and CSThresh_ 1.559e-11 are the two-ray powers
    # at 250 m and 550 m (tcl/lib/ns-default.tcl; ns-2's `threshold` utility).
    from hopsim.crosscheck.translate import thresholds_w

    r = _resolved(_chain(radio={"rx_range_m": 250.0, "cs_range_m": 550.0}))["radio"]
    rx, cs = thresholds_w(r)
    assert rx == pytest.approx(3.652e-10, rel=1e-3)
    assert cs == pytest.approx(1.559e-11, rel=1e-3)


def test_a_chain_script_sets_what_the_scenario_says():
    text = _script(
        _chain(
            7,
            mac={"data_rate_mbps": 11.0, "rts_threshold_bytes": 3000, "long_retry_limit": 5},
            tcp={"variant": "vegas", "alpha": 2.0, "beta": 4.0, "max_window": 3.0},
        )
    )
    for line in (
        "Mac/802_11 set dataRate_ 11.0Mb",
        "Mac/802_11 set basicRate_ 1.0Mb",
        "Mac/802_11 set RTSThreshold_ 3023",
        "Mac/802_11 set LongRetryLimit_ 5",
        "-adhocRouting AODV",
        "-ifqType Queue/DropTail/PriQueue -ifqLen 50",
        "set src_(0) [new Agent/TCP/Vegas]",
        "$src_(0) set window_ 3",
        "$src_(0) set v_alpha_ 2.0",
        "$src_(0) set v_beta_ 4.0",
        "$src_(0) set packetSize_ 1460",
        "$node_(7) set X_ 1400.0",
        "$ns at 60.0 finish",
    ):
        assert line in text, line


def test_the_rts_threshold_selects_the_same_packets_in_both():
    # hopsim: RTS if IP + 36 > T; ns-2 (mac-802_11.cc): RTS if IP + 58 >= R.
    from hopsim.crosscheck.translate import ns2_rts_threshold

    for t in (0, 100, 500, 1500, 3000):
        r = ns2_rts_threshold(t)
        for ip in range(0, 3000, 7):
            assert (ip + 36 > t) == (ip + 58 >= r), (t, ip)


def test_dsr_takes_its_own_queue_and_delayed_ack_its_sink():
    text = _script(_chain(3, routing={"protocol": "dsr"}, tcp={"delayed_ack": True}))
    assert "-adhocRouting DSR" in text and "-ifqType CMUPriQueue" in text
    assert "[new Agent/TCPSink/DelAck]" in text and "set interval_ 0.1" in text


def test_moving_nodes_get_setdest_commands_from_the_same_trajectories():
    s = {
        "duration_s": 50.0,
        "topology": {"kind": "random", "nodes": 10, "area_m": [600.0, 300.0]},
        "mobility": {"model": "random_waypoint", "speed_max_mps": 5.0},
        "routing": {"protocol": "dsr"},
        "traffic": {"random_flows": 3, "transport": "udp", "interval_s": 0.1},
    }
    text = _script(s)
    moves = [line for line in text.splitlines() if line.startswith("$ns at") and "setdest" in line]
    assert moves, "random waypoint legs become setdest commands"
    for line in moves:
        x, y, speed = (float(v) for v in line.split('"')[1].split()[2:5])
        assert 0 <= x <= 600 and 0 <= y <= 300 and 0 < speed <= 5.0 + 1e-9
    assert text.count("[new Application/Traffic/CBR]") == 3


@pytest.mark.parametrize(
    ("over", "key"),
    [
        ({"radio": {"reception": "sinr"}}, "radio.reception"),
        ({"radio": {"fading": "rayleigh"}}, "radio.fading"),
        (
            {"radio": {"propagation": "log_distance", "path_loss_exponent": 2.0}},
            "radio.propagation",
        ),
        ({"radio": {"frame_error_rate": 0.1}}, "radio.frame_error_rate"),
        ({"mac": {"data_rate_mbps": "auto"}}, "mac.data_rate_mbps"),
        ({"routing": {"protocol": "etx"}}, "routing.protocol"),
        ({"routing": {"protocol": "static"}}, "routing.protocol"),
        ({"routing": {"protocol": "aodv", "hello": True}}, "routing.hello"),
        ({"routing": {"protocol": "aodv", "expanding_ring": False}}, "routing.expanding_ring"),
        ({"tcp": {"variant": "vegas_w"}}, "flows.0.tcp.variant"),
        ({"tcp": {"window_limit": "hop_based"}}, "flows.0.tcp.window_limit"),
        ({"tcp": {"max_window": 2.5}}, "flows.0.tcp.max_window"),
        ({"tcp": {"pacing": True}}, "flows.0.tcp.pacing"),
        ({"tcp": {"ack_thinning": True}}, "flows.0.tcp.ack_thinning"),
        ({"tcp": {"initial_window": 1.5}}, "flows.0.tcp.initial_window"),
        ({"flows": {"0": {"bytes": 100000}}}, "flows.0.bytes"),
    ],
)
def test_what_ns2_cannot_express_is_refused_naming_the_key(over, key):
    from hopsim.crosscheck.translate import Untranslatable

    flows_over = over.pop("flows", None)
    s = _chain(4, **over)
    if flows_over:
        s["flows"][0].update(flows_over["0"])
    with pytest.raises(Untranslatable) as exc:
        _script(s)
    assert exc.value.key == key
    assert key in str(exc.value) and "ns-2" in str(exc.value)


def test_dsr_routes_longer_than_ns2s_sixteen_addresses_are_refused():
    # dsr/hdr_sr.h MAX_SR_LEN 16: a 16-hop DSR chain finds no route in ns-2.35 (its 16-hop
    # runs of the Vegas-W study carry 0 kbit/s), so it is refused rather than run.
    from hopsim.crosscheck.translate import Untranslatable

    radio = {"rx_range_m": 250.0, "cs_range_m": 550.0}
    with pytest.raises(Untranslatable) as exc:
        _script(_chain(16, routing={"protocol": "dsr"}, radio=radio))
    assert exc.value.key == "flows.0.dst" and "MAX_SR_LEN" in str(exc.value)
    assert "needs 16" in str(exc.value)
    assert "DSR" in _script(_chain(15, routing={"protocol": "dsr"}, radio=radio))
    assert "AODV" in _script(_chain(16, routing={"protocol": "aodv"}, radio=radio))
    # A shorter flow on the long chain, and a chain whose range skips nodes, are fine.
    short = _chain(16, routing={"protocol": "dsr"}, radio=radio)
    short["flows"][0]["dst"] = 15
    assert "DSR" in _script(short)
    dense = _chain(16, routing={"protocol": "dsr"}, radio=radio)
    dense["topology"]["spacing_m"] = 100.0
    assert "DSR" in _script(dense)


def test_static_routing_translates_for_neighbours_only():
    text = _script(_chain(1, routing={"protocol": "static"}))
    assert "-adhocRouting DumbAgent" in text


def test_a_key_the_translator_does_not_know_is_refused():
    from hopsim.crosscheck.translate import Untranslatable, check_translatable

    s = _resolved(_chain())
    s["mac"]["some_future_key"] = 1
    with pytest.raises(Untranslatable, match="mac.some_future_key"):
        check_translatable(s)


# ---------------------------------------------------------------- reading ns-2 back

_TRACE = """\
s 1.000000000 _0_ AGT  --- 0 tcp 40 [0 0 0 0] ------- [0:0 2:0 32 0] [0 0] 0 0
r 1.010000000 _2_ AGT  --- 0 tcp 60 [13a 2 1 800] ------- [0:0 2:0 30 2] [0 0] 2 0
s 1.100000000 _0_ AGT  --- 1 tcp 1520 [0 0 0 0] ------- [0:0 2:0 32 0] [1 0] 0 0
s 1.200000000 _0_ AGT  --- 2 tcp 1520 [0 0 0 0] ------- [0:0 2:0 32 0] [2 0] 0 0
r 1.300000000 _2_ AGT  --- 2 tcp 1520 [13a 2 1 800] ------- [0:0 2:0 30 2] [2 0] 2 0
s 1.300000000 _0_ RTR  --- 9 AODV 48 [0 0 0 0] ------- [0:255 -1:255 30 0] [0x2 1 1 [2 0] [0 4]]
f 1.310000000 _1_ RTR  --- 9 AODV 48 [0 0 0 0] ------- [0:255 -1:255 29 0] [0x2 1 1 [2 0] [0 4]]
D 1.400000000 _1_ MAC  RET 5 RTS 44 [466 2 3 0]
D 1.400000000 _1_ MAC  RET 4 tcp 1578 [13a 2 1 800] ------- [0:0 2:0 30 2] [3 0] 1 0
D 1.400000000 _1_ RTR  CBK 6 tcp 1578 [13a 2 1 800] ------- [0:0 2:0 30 2] [4 0] 1 0
s 2.000000000 _0_ AGT  --- 7 tcp 1520 [0 0 0 0] ------- [0:0 2:0 32 0] [1 0] 0 0
r 2.500000000 _2_ AGT  --- 7 tcp 1520 [13a 2 1 800] ------- [0:0 2:0 30 2] [1 0] 2 0
r 2.600000000 _2_ AGT  --- 8 tcp 1520 [13a 2 1 800] ------- [0:0 2:0 30 2] [2 0] 2 0
"""


def test_the_trace_reader_counts_in_order_payload_and_each_failure_once():
    from hopsim.crosscheck.ns2trace import parse_run

    stdout = "HOPSIM port 0 0 0 2 0\nHOPSIM tcp 0 4 1 0 1.5\nHOPSIM end 10.0\n"
    flows = [{"src": 0, "dst": 2, "transport": "tcp", "payload_bytes": 1460}]
    doc = parse_run(_TRACE.splitlines(), stdout, flows, warmup_s=2.0, duration_s=10.0)
    f = doc["flows"][0]
    # Segment 2 arrived at 1.3 s but only in order with segment 1 at 2.5 s: both count then;
    # the SYN (seq 0, no payload) and the duplicate of 2 do not.
    assert f["packets_delivered"] == 2
    assert f["goodput_kbps"] == pytest.approx(2 * 1460 * 8 / 8.0 / 1000)
    assert f["mean_delay_ms"] == pytest.approx(500.0)  # segment 1's retransmission: 2.0 -> 2.5
    assert (f["segments_sent"], f["retransmissions"], f["timeouts"]) == (4, 1, 0)
    assert f["avg_cwnd"] == 1.5
    t = doc["totals"]
    assert t["retry_limit_drops"] == 1, "the RTS and its data packet are one failure"
    assert t["routing_packets"] == 2
    assert doc["ns2"]["drops"]["RTR:CBK"] == 1


def test_drops_for_want_of_a_route_are_counted_as_hopsim_counts_them():
    # aodv_rqueue.cc `enque` drops its oldest packet as RTR IFQ when full (DROP_RTR_QFULL),
    # TOUT when it expired; DSR's send buffer TOUT; a forwarder without a route NRTE; DSR's
    # salvage limit SAL: all are hopsim's no_route_drops. IFQ IFQ is the interface queue's.
    from hopsim.crosscheck.ns2trace import parse_run

    lines = [
        "D 1.0 _0_ RTR  IFQ 3 cbr 1500 [0 0 0 0] ------- [0:0 2:0 32 0] [3] 0 0",
        "D 1.1 _0_ RTR  TOUT 4 cbr 1500 [0 0 0 0] ------- [0:0 2:0 32 0] [4] 0 0",
        "D 1.2 _1_ RTR  NRTE 5 cbr 1500 [0 0 0 0] ------- [0:0 2:0 31 0] [5] 0 0",
        "D 1.3 _1_ RTR  SAL 6 cbr 1500 [0 0 0 0] ------- [0:0 2:0 31 0] [6] 0 0",
        "D 1.4 _0_ IFQ  IFQ 7 cbr 1500 [0 0 0 0] ------- [0:0 2:0 32 0] [7] 0 0",
        "D 1.5 _1_ RTR  CBK 8 cbr 1500 [0 0 0 0] ------- [0:0 2:0 31 0] [8] 0 0",
    ]
    flows = [{"src": 0, "dst": 2, "transport": "udp", "payload_bytes": 1460}]
    doc = parse_run(lines, "HOPSIM end 10.0\n", flows, warmup_s=2.0, duration_s=10.0)
    assert doc["totals"]["no_route_drops"] == 4
    assert doc["totals"]["queue_drops"] == 1


def test_the_window_distribution_and_throughput_are_read_back():
    # The script samples min(cwnd_, window_) every 10 ms and prints the count of samples at
    # each whole number of segments; the share of samples is hopsim's window_distribution.
    from hopsim.crosscheck.ns2trace import parse_run

    stdout = (
        "HOPSIM port 0 0 0 2 0\nHOPSIM tcp 0 4 1 0 1.5\nHOPSIM wdist 0 3:6 1:2 3:2\n"
        "HOPSIM slowstart 0 3 10\nHOPSIM end 10.0\n"
    )
    flows = [{"src": 0, "dst": 2, "transport": "tcp", "payload_bytes": 1460}]
    f = parse_run(_TRACE.splitlines(), stdout, flows, warmup_s=2.0, duration_s=10.0)["flows"][0]
    assert f["window_distribution"] == [0.0, 0.2, 0.0, 0.8]
    assert f["throughput_pps"] == pytest.approx(2 / 8.0)  # two segments in order, 8 s window
    assert f["slow_start_fraction"] == pytest.approx(0.3)


def test_the_script_prints_the_window_distribution_of_each_tcp_flow():
    from hopsim.crosscheck.ns2run import ns2_script

    script = ns2_script(_resolved(_chain()), "run.tr")
    assert "cwnd_hist_($i,$k)" in script and "HOPSIM wdist $i $hist" in script
    assert "HOPSIM slowstart $i $ss_n_($i) $cwnd_n_($i)" in script


def test_a_run_that_did_not_finish_is_an_error():
    from hopsim.crosscheck.ns2trace import parse_run

    with pytest.raises(RuntimeError, match="did not reach its end"):
        parse_run([], "HOPSIM port 0 0 0 1 0\n", [], 0.0, 1.0)


def test_missing_ns_is_a_clear_error_naming_the_package(tmp_path):
    scen = tmp_path / "s.toml"
    scen.write_text(
        'duration_s = 10.0\n[topology]\nkind = "chain"\nhops = 1\n'
        '[routing]\nprotocol = "aodv"\n[[flows]]\nsrc = 0\ndst = 1\n'
    )
    env = dict(os.environ, HOPSIM_NS="no-such-ns-command")
    proc = subprocess.run(
        [*HOPSIM, "crosscheck", str(scen), "-o", str(tmp_path / "out")],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert proc.returncode == 2, proc.stderr
    assert "apt-get install ns2" in proc.stderr
    assert not (tmp_path / "out" / "results.sqlite").exists()


def test_an_untranslatable_scenario_exits_2_before_any_run(tmp_path):
    scen = tmp_path / "s.toml"
    scen.write_text(
        'duration_s = 10.0\n[topology]\nkind = "chain"\nhops = 2\nspacing_m = 200.0\n[radio]\n'
        'reception = "sinr"\n[routing]\nprotocol = "aodv"\n[[flows]]\nsrc = 0\ndst = 2\n'
    )
    env = dict(os.environ, HOPSIM_NS=sys.executable)  # any command: never reached
    proc = subprocess.run(
        [*HOPSIM, "crosscheck", str(scen), "-o", str(tmp_path / "out")],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert proc.returncode == 2, proc.stderr
    assert "radio.reception" in proc.stderr
    assert not (tmp_path / "out").exists(), "nothing written"


# ---------------------------------------------------------------- side by side with ns-2


def _crosscheck(spec_path: Path, out: Path, profile: str = "both", jobs: int = 2):
    from hopsim.crosscheck.compare import crosscheck, load_crosscheck

    spec = load_crosscheck(spec_path)
    profiles = ("standard", "ns2") if profile == "both" else (profile,)
    return crosscheck(spec, out, profiles, jobs=jobs, progress="off")


def test_one_and_two_hops_agree_with_ns2_in_both_profiles(ns2, tmp_path):
    # Where no link fails, the PHY/MAC basics decide: paced UDP and NewReno on 1 and 2 hops.
    sweep = tmp_path / "short.toml"
    sweep.write_text(
        """name = "short"
replications = 2
[scenario]
duration_s = 60.0
warmup_s = 10.0
[scenario.topology]
kind = "chain"
hops = 1
spacing_m = 200.0
[scenario.routing]
protocol = "aodv"
[[scenario.flows]]
src = 0
dst = 1
transport = "tcp"
start_s = 1.0
[[sweep.zip]]
"topology.hops" = [1, 2]
"flows.0.dst" = [1, 2]
"""
    )
    report = _crosscheck(sweep, tmp_path / "out")
    assert not report.failures
    rows = report.metric_rows("goodput_kbps")
    assert len(rows) == 2
    for r in rows:
        for p in ("standard", "ns2"):
            assert abs(r.difference(p)) < 0.02, (r.params, p, r.ns2, r.hopsim[p])
    assert len(report.scripts) == 4 and all(p.exists() for p in report.scripts)
    # The scripts are the user's to rerun: ns runs one as written.
    proc = subprocess.run(
        [ns2, report.scripts[0].name],
        cwd=report.scripts[0].parent,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0 and "HOPSIM end" in proc.stdout


def test_a_crosscheck_resumes_from_its_store(ns2, tmp_path):
    scen = tmp_path / "one.toml"
    scen.write_text(
        'duration_s = 20.0\nwarmup_s = 2.0\n[topology]\nkind = "chain"\nhops = 1\n'
        "spacing_m = 200.0\n[routing]\n"
        'protocol = "aodv"\n[[flows]]\nsrc = 0\ndst = 1\ninterval_s = 0.05\nstart_s = 1.0\n'
    )
    first = _crosscheck(scen, tmp_path / "out", profile="ns2", jobs=1)
    assert sum(first.runs.values()) == 2
    again = _crosscheck(scen, tmp_path / "out", profile="ns2", jobs=1)
    assert sum(again.runs.values()) == 0, "every run was stored: nothing reruns"
    (row,) = again.metric_rows("goodput_kbps")
    # Paced UDP, 1460 B every 50 ms, delivered in full by both: 233.6 kbit/s.
    assert row.ns2.mean == pytest.approx(233.6, rel=0.01)
    assert row.hopsim["ns2"].mean == pytest.approx(233.6, rel=0.01)
