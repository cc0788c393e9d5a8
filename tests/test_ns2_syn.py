"""ns-2's one-way start in the ns2 profile (docs/models.md 17.4, `tcp/sender/syn.rs`).

ns-2.35's Reno, NewReno and Sack1 agents open with a SYN: sequence number 0, 40 bytes
(`tcpip_base_hdr_size_`), no data (tcp.cc `output`, ns-default.tcl `syn_` true); their data
start at sequence number 1 once it is acknowledged, with the window set to `windowInit_`.
The Vegas agent has its own `output`, without the SYN: its segment 0 carries data, but it
starts at a window of one as well (`delay_growth_`). Read here from the sender's raw-IP pcap
(parsed by hand: a pcap record header, then the IPv4 and TCP headers); a fixed-size transfer
still delivers exactly its bytes.
"""

from __future__ import annotations

import struct
from pathlib import Path

import pytest

from simhelpers import chain_scenario, run_checked, tcp_flow

PAYLOAD = 1000
SEGMENTS = 30
TCP_SYN, TCP_ACK = 0x02, 0x10


def ip_packets(path: Path) -> list[tuple[int, int, int, int]]:
    """(IP total length, TCP payload bytes, TCP sequence number, TCP flags) of each TCP
    packet of a raw-IP pcap, in file order."""
    data = path.read_bytes()
    (magic,) = struct.unpack_from("<I", data, 0)
    endian = "<" if magic in (0xA1B2C3D4, 0xA1B23C4D) else ">"
    off, out = 24, []
    while off + 16 <= len(data):
        incl = struct.unpack_from(endian + "I", data, off + 8)[0]
        ip = data[off + 16 : off + 16 + incl]
        off += 16 + incl
        if ip[9] != 6:
            continue
        total = struct.unpack_from(">H", ip, 2)[0]
        tcp = ip[(ip[0] & 0x0F) * 4 :]
        seq = struct.unpack_from(">I", tcp, 4)[0]
        tcp_len = (tcp[12] >> 4) * 4
        payload = total - (ip[0] & 0x0F) * 4 - tcp_len
        out.append((total, payload, seq, tcp[13]))
    return out


@pytest.mark.parametrize(
    "variant, syn", [("newreno", True), ("reno", True), ("sack", True), ("vegas", False)]
)
def test_the_reno_agents_open_with_a_40_byte_syn_and_vegas_with_data(tmp_path, variant, syn):
    scn = chain_scenario(
        2,
        [tcp_flow(0, 2, payload_bytes=PAYLOAD, bytes=SEGMENTS * PAYLOAD, tcp={"variant": variant})],
        duration_s=10.0,
    )
    scn["profile"] = "ns2"
    res = run_checked(scn, pcap_ip_dir=tmp_path)
    flow = res.flows[0]
    assert flow.bytes_delivered == SEGMENTS * PAYLOAD
    assert flow.transfer_completed_s is not None
    sent = [p for p in ip_packets(tmp_path / "flow-0-node-0.pcap") if p[3] & TCP_SYN or p[1] > 0]
    first = sent[0]
    if syn:
        assert first == (40, 0, 0, TCP_SYN), "a 40-byte SYN, sequence number 0, no data"
        assert [p[1] for p in sent[1:]] == [PAYLOAD] * SEGMENTS
        assert sent[1][2] == 1, "data start at byte 1, after the SYN"
        assert flow.segments_sent == SEGMENTS + 1 + flow.retransmissions
    else:
        assert first[1] == PAYLOAD and not first[3] & TCP_SYN, "Vegas' segment 0 is data"
        assert sum(1 for p in sent if p[3] & TCP_SYN) == 0
        assert flow.segments_sent == SEGMENTS + flow.retransmissions


def test_the_standard_profile_has_no_syn(tmp_path):
    scn = chain_scenario(
        2, [tcp_flow(0, 2, payload_bytes=PAYLOAD, bytes=SEGMENTS * PAYLOAD)], duration_s=10.0
    )
    res = run_checked(scn, pcap_ip_dir=tmp_path)
    sent = ip_packets(tmp_path / "flow-0-node-0.pcap")
    assert not any(p[3] & TCP_SYN for p in sent)
    assert sent[0][1] == PAYLOAD
    assert res.flows[0].segments_sent == SEGMENTS + res.flows[0].retransmissions
