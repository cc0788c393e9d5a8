"""Dynamic routing and mobility from the Python side: AODV and DSR runs, a setdest trace named
relative to the scenario file, and the route failure and overhead keys of the result."""

from __future__ import annotations

import json

from simhelpers import assert_no_traceback, run_cli


def chain_text(protocol: str, hops: int = 5) -> str:
    return (
        f'duration_s = 20.0\nwarmup_s = 2.0\n[routing]\nprotocol = "{protocol}"\n'
        f'[topology]\nkind = "chain"\nhops = {hops}\nspacing_m = 200.0\n'
        f'[[flows]]\nsrc = 0\ndst = {hops}\ntransport = "tcp"\n'
    )


def test_aodv_and_dsr_runs_report_routing_keys(tmp_path):
    for protocol in ("aodv", "dsr"):
        path = tmp_path / f"{protocol}.toml"
        path.write_text(chain_text(protocol))
        proc = run_cli("run", str(path), "--json")
        assert proc.returncode == 0, proc.stderr
        doc = json.loads(proc.stdout)
        assert doc["invariants"]["violations"] == []
        assert doc["routing_packets"] > 0
        assert doc["route_failures"] == doc["totals"]["route_failures"]
        assert doc["false_route_failures"] <= doc["route_failures"]
        assert doc["flows"][0]["goodput_kbps"] > 0
        proc = run_cli("run", str(path))
        assert proc.returncode == 0 and "routing:" in proc.stdout, proc.stdout


def test_setdest_trace_relative_to_the_scenario_file(tmp_path):
    (tmp_path / "moves").mkdir()
    (tmp_path / "moves" / "scen.tcl").write_text(
        "$node_(0) set X_ 0.0\n$node_(0) set Y_ 0.0\n$node_(1) set X_ 200.0\n"
        '$node_(1) set Y_ 0.0\n$ns_ at 5.0 "$node_(1) setdest 1000.0 0.0 20.0"\n'
    )
    path = tmp_path / "walk.toml"
    path.write_text(
        'duration_s = 20.0\n[topology]\nkind = "positions"\npositions = [[0.0, 0.0], [1.0, 0.0]]\n'
        '[mobility]\nmodel = "setdest"\ntrace_file = "moves/scen.tcl"\n'
        "[[flows]]\nsrc = 0\ndst = 1\ninterval_s = 0.1\n"
    )
    proc = run_cli("run", str(path), "--json")
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    # In range for 7.5 s of the 20 s (250 m reached 2.5 s after leaving at 5 s).
    assert 70 <= doc["flows"][0]["packets_delivered"] <= 80
    assert doc["route_failures"] > 0 and doc["false_route_failures"] == 0


def test_missing_trace_file_is_bad_input(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text(
        'duration_s = 5.0\n[topology]\nkind = "chain"\nhops = 1\nspacing_m = 100.0\n'
        '[mobility]\nmodel = "bonnmotion"\ntrace_file = "nowhere.movements"\n'
        "[[flows]]\nsrc = 0\ndst = 1\ninterval_s = 0.1\n"
    )
    proc = run_cli("run", str(path))
    assert proc.returncode == 2
    assert "mobility.trace_file" in proc.stderr
    assert_no_traceback(proc)


def tshark_rows(tmp_path, protocol: str, check: str, where: str, fields: list[str]):
    """Node 1's pcap of a 3-hop chain under ``protocol``, read by tshark with the ``check``
    checksum on: the ``fields`` of the records ``where`` selects, one list per record; none
    of the records malformed. Skips without tshark."""
    import shutil
    import subprocess

    import pytest

    if shutil.which("tshark") is None:
        pytest.skip("tshark is not installed (make test installs it)")
    path = tmp_path / f"{protocol}.toml"
    path.write_text(chain_text(protocol, hops=3))
    proc = run_cli("run", str(path), "--pcap", str(tmp_path / "pcap"))
    assert proc.returncode == 0, proc.stderr
    trace = str(tmp_path / "pcap" / "node-1.pcap")
    cmd = ["tshark", "-r", trace, "-o", f"{check}:TRUE", "-Y", where, "-T", "fields"]
    cmd += [x for f in fields for x in ("-e", f)]
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    bad = subprocess.run(
        ["tshark", "-r", trace, "-Y", "_ws.malformed"], capture_output=True, text=True, check=True
    ).stdout
    assert bad == ""
    return [line.split("\t") for line in out.split("\n") if line]


def test_aodv_messages_decode_in_tshark(tmp_path):
    fields = ["aodv.type", "udp.checksum.status"]
    rows = tshark_rows(tmp_path, "aodv", "udp.check_checksum", "aodv", fields)
    types = {r[0] for r in rows}
    assert {"1", "2"} <= types, rows  # Route Request and Route Reply
    assert all(r[1] == "1" for r in rows), rows  # checksum status 1 = verified good


def test_hwmp_elements_decode_in_tshark(tmp_path):
    # HWMP's elements travel in 802.11s Mesh action frames (IEEE 802.11-2012 8.5.17.3,
    # 8.4.2.115-116): tshark reads the PREQ from node 0 for node 3 and the PREP back, the
    # frames well-formed and their FCS good.
    fields = ["wlan.tag.number", "wlan.hwmp.orig_sta", "wlan.hwmp.targ_sta", "wlan.fcs.status"]
    rows = tshark_rows(tmp_path, "hwmp", "wlan.check_checksum", "wlan.hwmp.orig_sta", fields)
    node0, node3 = "02:00:00:00:00:01", "02:00:00:00:00:04"
    preqs = [r for r in rows if r[0] == "130"]
    preps = [r for r in rows if r[0] == "131"]
    assert any(r[1] == node0 and r[2] == node3 for r in preqs), rows
    assert any(r[1] == node0 and r[2] == node3 for r in preps), rows
    assert all(r[3] == "1" for r in rows), rows  # FCS status 1 = good


def test_olsr_packets_decode_in_tshark(tmp_path):
    # OLSR's packets travel on UDP port 698 with their messages (RFC 3626 3.3, 6.1, 9.1):
    # tshark reads HELLOs and TCs from the chain's nodes, each HELLO with Vtime 6 s and
    # Htime 2 s and each TC with Vtime 15 s (the RFC's defaults), lengths and checksums right.
    fields = ["olsr.message_type", "olsr.vtime", "olsr.htime", "udp.checksum.status"]
    fields += ["olsr.packet_len", "udp.length", "olsr.origin_addr"]
    rows = tshark_rows(tmp_path, "olsr", "udp.check_checksum", "olsr", fields)
    hellos = [r for r in rows if r[0] == "1"]
    tcs = [r for r in rows if r[0] == "2"]
    assert hellos and tcs, rows
    assert all(r[1] == "6" and r[2] == "2" for r in hellos), hellos
    assert all(r[1] == "15" for r in tcs), tcs
    assert all(r[3] == "1" and int(r[4]) + 8 == int(r[5]) for r in rows), rows
    senders = {a for r in rows for a in r[6].split(",")}
    assert {"10.0.0.1", "10.0.0.2", "10.0.0.3"} <= senders, senders  # nodes 0-2 heard
