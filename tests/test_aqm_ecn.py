"""ECN over an AQM through the Python API and on the wire: a TCP flow with ``tcp.ecn`` over a
4-hop chain under CoDel. The result's typed records carry the queue and ECN keys, and
tshark reads the endpoint pcap traces: the receiver got exactly ``ce_received`` CE-marked
segments, the sender exactly ``ece_acks`` ACKs with ECE, new data went ECT(0), and
retransmissions and pure ACKs Not-ECT (RFC 3168 sections 5, 6.1.3-6.1.5)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from simhelpers import chain_scenario, run_checked, tcp_flow

HOPS = 4


def scenario(ecn: bool) -> dict:
    scn = chain_scenario(
        HOPS, [tcp_flow(0, HOPS, tcp={"ecn": ecn, "receiver_window": 64})], duration_s=30.0
    )
    scn["queue"] = {"discipline": "codel"}
    return scn


def test_the_typed_records_carry_the_queue_and_ecn_keys():
    res = run_checked(scenario(True))
    f = res.flows[0]
    assert f.ecn_reactions > 0 and f.ece_acks >= f.ecn_reactions and f.ce_received > 0
    assert res.totals.ecn_marks >= f.ce_received
    assert res.totals.queue_delay_samples == sum(n.queue_delay_samples for n in res.nodes)
    assert 0 < res.totals.queue_delay_mean_ms <= res.totals.queue_delay_p99_ms
    assert res.raw["scenario"]["queue"]["codel_target_s"] == 0.005
    off = run_checked(scenario(False))
    assert "ecn_reactions" not in off.raw["flows"][0] and off.totals.ecn_marks == 0


def tshark(path: Path, *fields: str) -> list[list[str]]:
    args = ["-T", "fields", "-E", "separator=\t"]
    for name in fields:
        args += ["-e", name]
    proc = subprocess.run(
        ["tshark", "-n", "-r", str(path), *args], capture_output=True, text=True, timeout=300
    )
    assert proc.returncode == 0, proc.stderr
    return [line.split("\t") for line in proc.stdout.splitlines()]


@pytest.mark.skipif(shutil.which("tshark") is None, reason="tshark not installed (Debian tshark)")
def test_the_ecn_field_and_flags_on_the_wire(tmp_path):
    res = run_checked(scenario(True), pcap_ip_dir=tmp_path)
    f = res.raw["flows"][0]
    fields = ("ip.dsfield.ecn", "tcp.len", "tcp.flags.ece", "tcp.flags.cwr")
    fields += ("tcp.analysis.retransmission", "ip.src")
    at_receiver = tshark(tmp_path / f"flow-0-node-{HOPS}.pcap", *fields)
    at_sender = tshark(tmp_path / "flow-0-node-0.pcap", *fields)
    data = [r for r in at_receiver if int(r[1]) > 0]
    acks_sent = [r for r in at_receiver if int(r[1]) == 0]
    assert sum(r[0] == "3" for r in data) == f["ce_received"], "CE segments arrived"
    assert all(r[0] == "0" for r in acks_sent), "pure ACKs are Not-ECT (6.1.4)"
    assert any(r[2] in ("1", "True") for r in acks_sent), "ECE on ACKs"
    sent = [r for r in at_sender if int(r[1]) > 0]
    acks_in = [r for r in at_sender if int(r[1]) == 0]
    assert sum(r[2] in ("1", "True") for r in acks_in) == f["ece_acks"]
    retransmitted = [r for r in sent if r[4]]
    new = [r for r in sent if not r[4]]
    assert new and all(r[0] == "2" for r in new), "new data leaves ECT(0)"
    assert all(r[0] == "0" for r in retransmitted), "retransmissions are Not-ECT (6.1.5)"
    cwr = sum(r[3] in ("1", "True") for r in sent)
    assert f["ecn_reactions"] <= cwr, "CWR after every reduction"
