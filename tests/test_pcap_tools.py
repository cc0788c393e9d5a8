"""The pcap encoder read back by the real tools: Debian's tshark (Wireshark 4.x) and tcptrace.

The traces are synthetic (the simulator does not write them yet): the Rust integration test
``crates/hopsim-core/tests/pcap_encode.rs`` scripts 802.11b exchanges through ``PcapTracer`` and,
with ``HOPSIM_PCAP_OUT`` set, leaves the files for these tests:

``bulk/`` (RTS/CTS on, flow 0: TCP bulk data node 0 -> node 1, no handshake, 12 segments of
1460 B). Segment 4's DATA frame is lost and the MAC then gives up after six unanswered RTS;
segments 5-7 draw three duplicate ACKs with SACK blocks and segment 4 is fast-retransmitted. The
receiver's ACK of segment 1 is lost once on the air and resent by the MAC (Retry bit). So:

* node 0 (sender) sends 13 TCP data packets (1 retransmission) and receives 12 TCP ACKs.
  Its radiotap file: 12 clean exchanges it started (RTS, CTS, DATA, ACK: 4 frames each), the failed
  one (RTS, CTS, DATA, 6 x RTS: 9), 11 clean exchanges node 1 started (4 each) and the retried one
  (RTS, CTS | RTS, CTS, DATA+retry, ACK: 6) = 107 frames: 32 RTS, 26 CTS, 25 DATA, 24 ACK.
* node 1 (receiver) receives 12 TCP data packets, sends 12 ACKs (13 DATA frames with the retry).
  Its radiotap file: 12 x 4 + 2 (RTS, CTS of the failed exchange) + 11 x 4 + 7 = 101 frames:
  26 RTS, 26 CTS, 25 DATA, 24 ACK.
* IP level: ``flow-0-node-0.pcap`` 25 packets, ``flow-0-node-1.pcap`` 24.

``extra/`` (no RTS/CTS): flow 1, a complete TCP connection 0 -> 1 (SYN and SYN-ACK with the
SACK-permitted option, two 1460 B segments, FIN both ways; 10 packets); flow 2, three UDP
datagrams 1 -> 0; one UDP broadcast from node 2 heard by nodes 0 and 1.

tcptrace and radiotap: tcptrace 6.6.7 (Debian) cannot read radiotap captures. For link type 127
it assumes a 64-byte radiotap header followed by a 24-byte 802.11 header and no LLC/SNAP, takes
the "ethertype" from bytes 12-13 of the radiotap header, and copies ``caplen - 88`` bytes, which
is negative for any frame shorter than 88 bytes (every RTS/CTS/ACK): it crashes (SIGSEGV) on our
per-node files. So tcptrace is run on the IP-level files; the per-node files are checked with
tshark's TCP analysis instead.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
TOOLS = ("tshark", "tcptrace")

# Validate every checksum tshark knows about (all off by default); absolute TCP numbers.
TSHARK_CHECKS = (
    "-o",
    "wlan.check_checksum:TRUE",  # the 802.11 FCS (wlan.check_fcs means "assume an FCS")
    "-o",
    "ip.check_checksum:TRUE",
    "-o",
    "tcp.check_checksum:TRUE",
    "-o",
    "udp.check_checksum:TRUE",
    "-o",
    "tcp.relative_sequence_numbers:FALSE",  # SACK edges as on the wire
)

N0, N1 = "02:00:00:00:00:01", "02:00:00:00:00:02"  # MAC addresses of nodes 0 and 1

# wlan.fc.type_subtype values.
RTS, CTS, ACK, DATA = "0x001b", "0x001c", "0x001d", "0x0020"

# _ws.expert.severity values.
EXPERT_ERROR, EXPERT_WARNING = str(0x00800000), str(0x00600000)

MSS = 1460
ISS = 1_000_000  # sender's initial sequence number in the bulk script

# (file, link type, records, IP packets, of which TCP, of which UDP)
FILES = [
    ("bulk/nodes/node-0.pcap", "radiotap", 107, 25, 25, 0),
    ("bulk/nodes/node-1.pcap", "radiotap", 101, 25, 25, 0),
    ("bulk/flows/flow-0-node-0.pcap", "raw", 25, 25, 25, 0),
    ("bulk/flows/flow-0-node-1.pcap", "raw", 24, 24, 24, 0),
    ("extra/nodes/node-0.pcap", "radiotap", 27, 14, 10, 4),
    ("extra/nodes/node-1.pcap", "radiotap", 27, 14, 10, 4),
    ("extra/nodes/node-2.pcap", "radiotap", 1, 1, 0, 1),
    ("extra/flows/flow-1-node-0.pcap", "raw", 10, 10, 10, 0),
    ("extra/flows/flow-1-node-1.pcap", "raw", 10, 10, 10, 0),
    ("extra/flows/flow-2-node-0.pcap", "raw", 3, 3, 0, 3),
    ("extra/flows/flow-2-node-1.pcap", "raw", 3, 3, 0, 3),
]


def _missing_tools() -> list[str]:
    return [t for t in TOOLS if shutil.which(t) is None]


@pytest.fixture(scope="session")
def pcap_tools():
    """tshark and tcptrace, installed from Debian's packages if missing (as ``make test`` does);
    the tests are skipped only when they are absent and cannot be installed here."""
    missing = _missing_tools()
    if not missing:
        return
    if shutil.which("apt-get") is None or os.geteuid() != 0:
        pytest.skip(
            f"{', '.join(missing)} not installed, and cannot be installed here "
            "(needs root and apt-get; `make test` installs them on Debian)"
        )
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    for cmd in (["apt-get", "update"], ["apt-get", "install", "-y", *TOOLS]):
        proc = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=1800)
        if proc.returncode != 0:
            pytest.skip(
                f"{', '.join(missing)} not installed and `{' '.join(cmd)}` failed: "
                f"{proc.stderr.strip()[-500:]}"
            )
    still = _missing_tools()
    if still:
        pytest.skip(f"{', '.join(still)} still missing after apt-get install")


@pytest.fixture(scope="module")
def traces(tmp_path_factory, pcap_tools) -> Path:
    """Directory of the synthetic traces written by the Rust integration test."""
    if shutil.which("cargo") is None:
        pytest.fail("cargo is needed to write the traces (see README)")
    out = tmp_path_factory.mktemp("pcap")
    env = dict(os.environ, HOPSIM_PCAP_OUT=str(out), CARGO_TERM_COLOR="never")
    proc = subprocess.run(
        ["cargo", "test", "--release", "-p", "hopsim-core", "--test", "pcap_encode"],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=1800,
    )
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    return out


def tshark(path: Path, *args: str) -> str:
    proc = subprocess.run(
        ["tshark", "-n", "-r", str(path), *TSHARK_CHECKS, *args],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def fields(path: Path, *names: str, where: str | None = None) -> list[list[str]]:
    """One row per (displayed) frame with the values of the given fields."""
    args = ["-T", "fields", "-E", "separator=\t", "-E", "aggregator=|"]
    for n in names:
        args += ["-e", n]
    if where:
        args += ["-Y", where]
    out = tshark(path, *args)
    return [line.split("\t") for line in out.splitlines()]


def count(path: Path, where: str) -> int:
    return len(fields(path, "frame.number", where=where))


def tcptrace(path: Path) -> tuple[str, dict[str, tuple[str, str]]]:
    """tcptrace -l output, and its two-column statistics as {name: (a->b, b->a)}."""
    proc = subprocess.run(
        ["tcptrace", "-l", "-n", str(path)], capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 0, proc.stderr
    stats = {}
    pair = re.compile(r"^\s*(?P<k>[^:\t]+?):\s+(?P<a>\S+)(?: [a-zA-Z]+)?\s+(?P=k):\s+(?P<b>\S+)")
    for line in proc.stdout.splitlines():
        m = pair.match(line)
        if m:
            stats[m["k"]] = (m["a"], m["b"])
    return proc.stdout, stats


# ------------------------------------------------------------------------------------ tshark


@pytest.mark.parametrize(("name", "link", "records", "n_ip", "n_tcp", "n_udp"), FILES)
def test_every_record_decodes_with_good_checksums(traces, name, link, records, n_ip, n_tcp, n_udp):
    path = traces / name
    assert count(path, "_ws.malformed") == 0
    rows = fields(
        path,
        "frame.protocols",
        "wlan.fcs.status",
        "ip.checksum.status",
        "tcp.checksum.status",
        "udp.checksum.status",
        "_ws.expert.severity",
        "_ws.expert.message",
    )
    assert len(rows) == records
    # Positive checks, so that a check that never ran cannot pass: "1" is Good.
    good = {"ip": 0, "tcp": 0, "udp": 0, "fcs": 0}
    warnings = []
    for protocols, fcs, ip, tcp, udp, severities, messages in rows:
        if link == "radiotap":
            assert protocols.startswith("radiotap:wlan_radio:wlan"), protocols
            good["fcs"] += fcs == "1"
        else:
            assert protocols.startswith("raw:ip"), protocols
        good["ip"] += ip == "1"
        good["tcp"] += tcp == "1"
        good["udp"] += udp == "1"
        # Expert infos: no error (bad checksums and bogus headers are errors), and as the only
        # warning the receiver's "previous segment not captured" (segment 4 arrives late).
        sevs = severities.split("|")
        assert EXPERT_ERROR not in sevs, messages
        if EXPERT_WARNING in sevs:
            warnings.append(messages)
    assert good == {
        "ip": n_ip,
        "tcp": n_tcp,
        "udp": n_udp,
        "fcs": records if link == "radiotap" else 0,
    }
    expected = 1 if name.startswith("bulk/") and "node-1" in name else 0
    assert len(warnings) == expected, warnings
    assert all("not captured" in w for w in warnings), warnings


def test_sender_radiotap_frames(traces):
    rows = fields(
        traces / "bulk/nodes/node-0.pcap",
        "wlan.fc.type_subtype",
        "wlan.fc.retry",
        "wlan.ra",
        "wlan.ta",
        "wlan.bssid",
        "wlan.duration",
        "radiotap.datarate",
        "radiotap.channel.freq",
        "radiotap.flags.fcs",
        "wlan.seq",
        "tcp.len",
    )
    kinds = [r[0] for r in rows]
    assert {k: kinds.count(k) for k in set(kinds)} == {RTS: 32, CTS: 26, DATA: 25, ACK: 24}
    # The one Retry bit: node 1's ACK of segment 1, resent by its MAC (node 0 missed the first).
    retried = [r for r in rows if r[1] == "1"]
    assert [(r[0], r[3]) for r in retried] == [(DATA, N1)]
    for kind, _retry, ra, ta, bssid, dur, rate, freq, fcs_flag, _seq, _tcp_len in rows:
        assert freq == "2412" and fcs_flag in ("1", "True"), (freq, fcs_flag)
        assert rate == ("2" if kind == DATA else "1"), (kind, rate)
        assert ra in (N0, N1)
        assert int(dur) < 32768
        if kind in (RTS, DATA):
            assert {ra, ta} == {N0, N1}
        if kind == DATA:
            assert bssid == "02:00:00:00:00:00"
            assert int(dur) == 10 + 304  # SIFS + ACK at 1 Mbit/s
    # Data frames node 0 sent: 13 TCP segments, MAC sequence numbers 0..12.
    sent = [r for r in rows if r[0] == DATA and r[3] == N0]
    assert [int(r[9]) for r in sent] == list(range(13))
    assert all(r[10] == str(MSS) for r in sent)


def test_tcp_analysis_on_sender_files(traces):
    for name in ("bulk/nodes/node-0.pcap", "bulk/flows/flow-0-node-0.pcap"):
        path = traces / name
        data = fields(path, "tcp.seq_raw", "ip.src", "ip.dst", "ip.ttl", where="tcp.len > 0")
        assert len(data) == 13
        assert all(r[1:] == ["10.0.0.1", "10.0.0.2", "64"] for r in data)
        seqs = [int(r[0]) - ISS - 1 for r in data]
        assert seqs == [k * MSS for k in (0, 1, 2, 3, 4, 5, 6, 7, 4, 8, 9, 10, 11)]
        assert count(path, "tcp.analysis.fast_retransmission") == 1
        assert count(path, "tcp.analysis.retransmission || tcp.analysis.fast_retransmission") == 1
        assert count(path, "tcp.analysis.duplicate_ack") == 3
        # The three duplicate ACKs carry one SACK block each, growing by one segment.
        sacks = fields(
            path,
            "tcp.options.sack_le",
            "tcp.options.sack_re",
            "tcp.ack_raw",
            "tcp.hdr_len",
            where="tcp.options.sack",
        )
        base = ISS + 1
        assert [[int(x) for x in r] for r in sacks] == [
            [base + 5 * MSS, base + (k + 1) * MSS, base + 4 * MSS, 32] for k in (5, 6, 7)
        ]
        acks = fields(path, "tcp.ack_raw", where="tcp.len == 0")
        assert len(acks) == 12
        assert int(acks[-1][0]) == base + 12 * MSS


def test_receiver_radiotap_frames(traces):
    path = traces / "bulk/nodes/node-1.pcap"
    kinds = [r[0] for r in fields(path, "wlan.fc.type_subtype")]
    assert {k: kinds.count(k) for k in set(kinds)} == {RTS: 26, CTS: 26, DATA: 25, ACK: 24}
    # The MAC retry of the ACK of segment 1: same 802.11 sequence number, Retry bit set.
    retried = fields(path, "wlan.seq", "wlan.fc.retry", "tcp.ack_raw", where="wlan.fc.retry == 1")
    assert len(retried) == 1
    seq, _, ack = retried[0]
    first = fields(
        path, "wlan.fc.retry", "tcp.ack_raw", where=f"wlan.seq == {seq} && wlan.ta == {N1}"
    )
    assert first == [["0", ack], ["1", ack]]
    assert int(ack) == ISS + 1 + 2 * MSS
    assert count(path, "tcp.len > 0") == 12


def test_handshake_udp_and_broadcast(traces):
    path = traces / "extra/nodes/node-0.pcap"
    kinds = [r[0] for r in fields(path, "wlan.fc.type_subtype")]
    assert {k: kinds.count(k) for k in set(kinds)} == {DATA: 14, ACK: 13}
    syns = fields(path, "tcp.flags.ack", "tcp.hdr_len", "ip.src", where="tcp.options.sack_perm")
    assert syns == [["0", "24", "10.0.0.1"], ["1", "24", "10.0.0.2"]]
    assert count(path, "tcp.flags.syn == 1") == 2
    assert count(path, "tcp.flags.fin == 1") == 2
    udp = fields(
        path, "udp.length", "ip.len", "ip.src", "ip.dst", where="udp && !ip.dst == 255.255.255.255"
    )
    assert udp == [[str(8 + n), str(28 + n), "10.0.0.2", "10.0.0.1"] for n in (1, 100, 1000)]
    bcast = fields(
        path,
        "wlan.ra",
        "wlan.ta",
        "ip.src",
        "ip.dst",
        "udp.dstport",
        where="wlan.ra == ff:ff:ff:ff:ff:ff",
    )
    assert bcast == [
        ["ff:ff:ff:ff:ff:ff", "02:00:00:00:00:03", "10.0.0.3", "255.255.255.255", "520"]
    ]


def test_corruption_is_detected(traces, tmp_path):
    """The checks above can fail: a flipped bit is reported as a bad FCS or a bad checksum."""
    src = (traces / "bulk/nodes/node-0.pcap").read_bytes()
    bad = bytearray(src)
    bad[24 + 16 + 14 + 4] ^= 0x01  # first RTS: a byte of the receiver address
    (tmp_path / "fcs.pcap").write_bytes(bad)
    assert count(tmp_path / "fcs.pcap", 'wlan.fcs.status == "Bad"') == 1

    src = (traces / "bulk/flows/flow-0-node-0.pcap").read_bytes()
    bad = bytearray(src)
    bad[24 + 16 + 20 + 4] ^= 0x01  # first packet: a byte of the TCP sequence number
    (tmp_path / "tcp.pcap").write_bytes(bad)
    assert count(tmp_path / "tcp.pcap", 'tcp.checksum.status == "Bad"') == 1
    assert count(tmp_path / "tcp.pcap", '_ws.expert.severity == "Error"') == 1


# ------------------------------------------------------------------------------------ tcptrace


def test_tcptrace_sender_ip_trace(traces):
    out, s = tcptrace(traces / "bulk/flows/flow-0-node-0.pcap")
    assert "1 TCP connection traced" in out
    assert "host a:        10.0.0.1:49152" in out and "host b:        10.0.0.2:5001" in out
    assert s["total packets"] == ("13", "12")
    assert s["actual data pkts"] == ("13", "0")
    assert s["unique bytes sent"] == (str(12 * MSS), "0")
    assert s["rexmt data pkts"] == ("1", "0")
    assert s["rexmt data bytes"] == (str(MSS), "0")
    assert s["pure acks sent"] == ("0", "12")
    assert s["sack pkts sent"] == ("0", "3")
    assert s["max segm size"][0] == str(MSS)
    assert s["max win adv"] == ("65535", "65535")


def test_tcptrace_receiver_ip_trace(traces):
    _, s = tcptrace(traces / "bulk/flows/flow-0-node-1.pcap")
    assert s["actual data pkts"] == ("12", "0")
    assert s["rexmt data pkts"] == ("0", "0")
    assert s["outoforder pkts"] == ("1", "0")
    assert s["unique bytes sent"] == (str(12 * MSS), "0")


def test_tcptrace_complete_connection(traces):
    for node in (0, 1):
        out, s = tcptrace(traces / f"extra/flows/flow-1-node-{node}.pcap")
        assert "complete conn: yes" in out
        assert s["SYN/FIN pkts sent"] == ("1/1", "1/1")
        assert s["req sack"] == ("Y", "Y")
        assert s["actual data pkts"] == ("2", "0")
        assert s["unique bytes sent"] == (str(2 * MSS), "0")
        assert s["rexmt data pkts"] == ("0", "0")
