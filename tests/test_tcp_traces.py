"""The traces of a real simulation, read by the real tools (issue 3, "How it must be shown").

``hopsim run scenarios/chain-tcp.toml --pcap DIR --pcap-ip DIR`` on a lossy 7-hop chain
(injected frame error rate 0.05 on top of the hidden-terminal collisions, 30 s), then:

* tshark (Wireshark's dissectors, with the FCS, IP and TCP checksums validated) decodes every
  record of every file: no malformed packet, no expert error, good checksums;
* the per-node radiotap files agree with the MAC counters of the result: the RTS and DATA
  frames whose transmitter address is the node are exactly its ``rts_sent`` and ``data_sent``;
* tcptrace (``tcptrace -l``) on the IP-level file of the sender endpoint counts exactly our
  ``segments_sent`` data packets, of which ``retransmissions`` retransmitted, and the new data
  bytes we sent; with the receiver's file, the ACKs sent and the packets delivered match too.

The encoder itself (exact bytes, flags, SACK edges) is tested on scripted traces in
test_pcap_tools.py. Skipped, saying why, only when tshark or tcptrace is not installed
(``make test`` installs both from Debian's packages).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from simhelpers import assert_no_traceback, check_result, run_cli

REPO = Path(__file__).resolve().parents[1]
SCENARIO = REPO / "scenarios" / "chain-tcp.toml"
HOPS = 7
MSS = 1460
LOSSY = (
    "--set",
    "duration_s=30.0",
    "--set",
    "warmup_s=1.0",
    "--set",
    "radio.frame_error_rate=0.05",
)
TSHARK_CHECKS = (
    "-o",
    "wlan.check_checksum:TRUE",
    "-o",
    "ip.check_checksum:TRUE",
    "-o",
    "tcp.check_checksum:TRUE",
)
EXPERT_ERROR = str(0x00800000)  # _ws.expert.severity of an error
RTS, DATA = "0x001b", "0x0020"  # wlan.fc.type_subtype


def mac_of(node: int) -> str:
    """The simulator's MAC address of a node (02:00:00:00:00:01 is node 0)."""
    n = node + 1
    return "02:00:00:00:" + f"{n >> 8 & 0xFF:02x}:{n & 0xFF:02x}"


@pytest.fixture(scope="module")
def tools():
    missing = [t for t in ("tshark", "tcptrace") if shutil.which(t) is None]
    if missing:
        pytest.skip(
            f"{' and '.join(missing)} not installed (Debian packages tshark and tcptrace; "
            "`make test` installs them)"
        )


@pytest.fixture(scope="module", params=["newreno", "sack"])
def traced(request, tools, tmp_path_factory):
    """(result document, directory with nodes/ and ip/) of the lossy chain run."""
    variant = request.param
    out = tmp_path_factory.mktemp(f"traces-{variant}")
    args = ("run", str(SCENARIO), *LOSSY, "--set", f'tcp.variant="{variant}"', "--json")
    proc = run_cli(*args, "--pcap", str(out / "nodes"), "--pcap-ip", str(out / "ip"))
    assert proc.returncode == 0, proc.stderr
    assert_no_traceback(proc)
    doc = json.loads(proc.stdout)
    check_result(doc)
    # Tracing records, it does not change what happens.
    plain = run_cli(*args)
    assert plain.returncode == 0, plain.stderr
    ref = json.loads(plain.stdout)
    for key in ("flows", "nodes", "totals", "invariants"):
        assert doc[key] == ref[key], f"--pcap changed the result's {key}"
    f = doc["flows"][0]
    assert f["variant"] == variant
    # The scenario must be lossy enough for the comparison to mean something.
    assert f["retransmissions"] > 0 and doc["totals"]["frame_errors"] > 0, f
    return doc, out


def tshark_rows(path: Path, *names: str) -> list[list[str]]:
    args = ["-T", "fields", "-E", "separator=\t", "-E", "aggregator=|"]
    for n in names:
        args += ["-e", n]
    proc = subprocess.run(
        ["tshark", "-n", "-r", str(path), *TSHARK_CHECKS, *args],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    return [line.split("\t") for line in proc.stdout.splitlines()]


def tcptrace(path: Path) -> dict[str, tuple[str, str]]:
    """``tcptrace -l`` of a file with one connection: {statistic: (a->b, b->a)}."""
    proc = subprocess.run(
        ["tcptrace", "-l", "-n", str(path)], capture_output=True, text=True, timeout=300
    )
    assert proc.returncode == 0, proc.stderr
    assert "1 TCP connection traced" in proc.stdout, proc.stdout[:2000]
    pair = re.compile(r"^\s*(?P<k>[^:\t]+?):\s+(?P<a>\S+)(?: [a-zA-Z]+)?\s+(?P=k):\s+(?P<b>\S+)")
    stats = {}
    for line in proc.stdout.splitlines():
        m = pair.match(line)
        if m:
            stats[m["k"]] = (m["a"], m["b"])
    return stats


def test_one_file_per_node_and_per_flow_endpoint(traced):
    doc, out = traced
    nodes = sorted(p.name for p in (out / "nodes").iterdir())
    assert nodes == sorted(f"node-{i}.pcap" for i in range(HOPS + 1))
    ips = sorted(p.name for p in (out / "ip").iterdir())
    assert ips == ["flow-0-node-0.pcap", f"flow-0-node-{HOPS}.pcap"]


#: Fields read from every record (one tshark pass per file serves all the tests).
FIELDS = (
    "frame.protocols",
    "_ws.malformed",
    "_ws.expert.severity",
    "_ws.expert.message",
    "wlan.fcs.status",
    "ip.checksum.status",
    "tcp.checksum.status",
    "wlan.ta",
    "wlan.fc.type_subtype",
)


@pytest.fixture(scope="module")
def decoded(traced) -> dict[Path, list[list[str]]]:
    _, out = traced
    files = sorted((out / "nodes").glob("*.pcap")) + sorted((out / "ip").glob("*.pcap"))
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        rows = pool.map(lambda path: tshark_rows(path, *FIELDS), files)
        return dict(zip(files, rows, strict=True))


def test_every_record_decodes_cleanly_in_tshark(decoded):
    for path, rows in decoded.items():
        assert rows, f"{path.name}: no records"
        radiotap = path.parent.name == "nodes"
        n_ip = 0
        for protocols, malformed, severity, message, fcs, ip, tcp, _, _ in rows:
            where = f"{path.name}: {protocols} {message}"
            assert malformed == "", where
            assert EXPERT_ERROR not in severity.split("|"), where
            if radiotap:
                assert protocols.startswith("radiotap:wlan_radio:wlan"), where
                assert fcs == "1", where  # FCS present and good
            else:
                assert protocols.startswith("raw:ip:tcp"), where
            if ":ip:" in protocols + ":":
                n_ip += 1
                assert ip == "1" and tcp == "1", where  # checksums validated and good
        assert n_ip > 0, f"{path.name}: no IP packets"


def test_node_traces_match_the_mac_counters(traced, decoded):
    doc, out = traced
    for node in doc["nodes"]:
        i = node["id"]
        me = mac_of(i)
        rows = [r[-2:] for r in decoded[out / "nodes" / f"node-{i}.pcap"]]
        rts = sum(1 for ta, kind in rows if ta == me and kind == RTS)
        data = sum(1 for ta, kind in rows if ta == me and kind == DATA)
        assert (rts, data) == (node["rts_sent"], node["data_sent"]), (
            f"node {i}: trace has {rts} RTS and {data} DATA frames sent, the result "
            f"{node['rts_sent']} and {node['data_sent']}"
        )


def test_tcptrace_counts_match_our_tcp_metrics(traced):
    doc, out = traced
    f = doc["flows"][0]
    sender = tcptrace(out / "ip" / "flow-0-node-0.pcap")
    receiver = tcptrace(out / "ip" / f"flow-0-node-{HOPS}.pcap")

    def num(stats, key, direction):  # direction 0: a->b (data), 1: b->a (ACKs)
        return int(stats[key][direction])

    # At the sender: every transmission of a data segment, and which were retransmissions.
    assert num(sender, "actual data pkts", 0) == f["segments_sent"], sender
    assert num(sender, "rexmt data pkts", 0) == f["retransmissions"], sender
    assert num(sender, "unique bytes sent", 0) == (
        (f["segments_sent"] - f["retransmissions"]) * MSS
    ), sender
    assert num(sender, "actual data pkts", 1) == 0  # the receiver sends no data
    # At the receiver: it sent acks_sent pure ACKs.
    assert num(receiver, "total packets", 1) == f["acks_sent"], receiver
    assert num(receiver, "pure acks sent", 1) == f["acks_sent"], receiver
    # Delivered packets: data segments that reached the receiver + ACKs that reached the
    # sender; everything sent is in the traces: segments at the sender, ACKs at the receiver.
    arrived = num(receiver, "total packets", 0) + num(sender, "total packets", 1)
    assert arrived == f["packets_delivered"], (arrived, f)
    assert (
        num(sender, "total packets", 0) + num(receiver, "total packets", 1) == (f["packets_sent"])
    )
    # The receiver got at least what it delivered to the application.
    assert num(receiver, "unique bytes sent", 0) >= f["bytes_delivered"], receiver
    # SACK blocks on the wire exactly when the variant negotiates SACK.
    sack_acks = num(sender, "sack pkts sent", 1)
    if f["variant"] == "sack":
        assert sack_acks > 0, sender
    else:
        assert sack_acks == 0, sender
