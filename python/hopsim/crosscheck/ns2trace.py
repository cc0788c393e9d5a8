"""Reading an ns-2.35 run back: its wireless trace (old format) and the HOPSIM lines its
script printed, as a result document shaped like hopsim's (the fields both have).

Definitions follow hopsim's result document (docs/models.md section 4 and 8.6):
- ``goodput_kbps``: payload delivered in order to the receiving agent during
  ``[warmup_s, duration_s]`` (from the AGT receive lines: sequence numbers for TCP, first
  copies for UDP), times 8 over the window length;
- ``throughput_pps``: the same segments per second of the window (hopsim counts them when
  their cumulative ACK reaches the sender, a fraction of a round trip later);
- ``segments_sent``, ``retransmissions``, ``timeouts``: the TCP agent's ``ndatapack_``,
  ``nrexmitpack_``, ``nrexmit_`` at the end (whole run);
- ``avg_cwnd``: time average of min(``cwnd_``, ``window_``) over the window, sampled every
  :data:`~hopsim.crosscheck.translate.CWND_SAMPLE_S`; ``window_distribution``: the share of
  those samples at each whole number of segments (element i: floor(min(cwnd_, window_)) = i);
  ``slow_start_fraction``: the share of them with ``cwnd_`` < ``ssthresh_``;
- ``retry_limit_drops`` (= ``link_failures``): MAC ``D ... RET`` lines of unicast packets
  (not of the RTS frames that precede them);
- ``routing_packets``: routing-agent send and forward lines of AODV or DSR packets (each
  hop counted once, MAC retries not);
- ``queue_drops``: interface-queue overflows (``IFQ``/``IFQ``, ``ARP`` full);
  ``no_route_drops``: the routing agent's drops for want of a route, as hopsim counts them
  (no route at a forwarder, the route-wait buffer full or timed out, DSR's salvage limit):
  ``NRTE``, ``RTR``/``IFQ`` (aodv_rqueue.cc ``enque`` full: DROP_RTR_QFULL), ``TOUT``
  (DROP_RTR_QTIMEOUT: AODV's queue timeout, DSR's send buffer), ``SAL``; ``drops``: every
  drop line counted by layer and reason.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

__all__ = ["parse_run"]


def _distribution(cells: list[str]) -> list[float]:
    """``k:count`` cells (samples at k whole segments) as shares indexed by k."""
    counts: dict[int, int] = {}
    for cell in cells:
        k, n = cell.split(":")
        counts[int(k)] = counts.get(int(k), 0) + int(n)
    total = sum(counts.values())
    if not total:
        return []
    return [counts.get(k, 0) / total for k in range(max(counts) + 1)]


_MAC_CONTROL = {"RTS", "CTS", "ACK"}
_ROUTING_TYPES = {"AODV", "DSR"}


class _Flow:
    __slots__ = (
        "delay_n",
        "delay_sum",
        "delivered",
        "in_window",
        "next_seq",
        "seen",
        "sent_at",
    )

    def __init__(self) -> None:
        self.next_seq = -1  # the first sequence number to deliver is learnt from the trace
        self.seen: set[int] = set()
        self.delivered = 0  # payload packets delivered in order, whole run
        self.in_window = 0  # ... during the measurement window
        self.sent_at: dict[str, float] = {}
        self.delay_sum = 0.0
        self.delay_n = 0


def parse_run(
    trace_lines: Iterable[str],
    stdout: str,
    flows: list[Mapping[str, Any]],
    warmup_s: float,
    duration_s: float,
) -> dict[str, Any]:
    """The result document of an ns-2 run from its trace and printed lines."""
    ports: dict[tuple[str, str], int] = {}  # ("src:port", "dst:port") -> flow
    tcp_counters: dict[int, list[float]] = {}
    windows: dict[int, list[float]] = {}
    slow_start: dict[int, float | None] = {}
    end_s = None
    for line in stdout.splitlines():
        parts = line.split()
        if not parts or parts[0] != "HOPSIM":
            continue
        if parts[1] == "port":
            i = int(parts[2])
            ports[(f"{parts[3]}:{parts[4]}", f"{parts[5]}:{parts[6]}")] = i
        elif parts[1] == "tcp":
            tcp_counters[int(parts[2])] = [float(x) for x in parts[3:7]]
        elif parts[1] == "wdist":
            windows[int(parts[2])] = _distribution(parts[3:])
        elif parts[1] == "slowstart":
            n = int(parts[4])
            slow_start[int(parts[2])] = int(parts[3]) / n if n else None
        elif parts[1] == "end":
            end_s = float(parts[2])
    if end_s is None:
        raise RuntimeError("the ns-2 run did not reach its end (no HOPSIM end line)")

    state = [_Flow() for _ in flows]
    payload = [int(f["payload_bytes"]) for f in flows]
    is_tcp = [f.get("transport") == "tcp" for f in flows]
    drops: dict[str, int] = {}
    retry_drops = 0
    routing_packets = 0
    n_nodes = 0
    for line in trace_lines:
        kind = line[:1]
        if kind not in "srfD":
            continue
        t = line.split()
        if len(t) < 8:
            continue
        layer = t[3]
        node = t[2]
        if kind == "D":
            reason = t[4]
            key = f"{layer}:{reason}"
            drops[key] = drops.get(key, 0) + 1
            if layer == "MAC" and reason == "RET" and t[6] not in _MAC_CONTROL:
                retry_drops += 1
            continue
        if layer == "RTR":
            if kind in "sf" and t[6] in _ROUTING_TYPES:
                routing_packets += 1
            continue
        if layer != "AGT" or len(t) < 19:
            continue
        ptype = t[6]
        if ptype not in ("tcp", "cbr"):
            continue
        key2 = (t[13].lstrip("["), t[14])
        i = ports.get(key2)
        if i is None:
            continue
        fs = state[i]
        now = float(t[1])
        uid = t[5]
        if kind == "s":
            fs.sent_at[uid] = now
            continue
        if kind != "r" or node.strip("_") != str(flows[i]["dst"]):
            continue
        n_nodes = max(n_nodes, int(node.strip("_")) + 1)
        sent = fs.sent_at.pop(uid, None)
        in_window = warmup_s <= now <= duration_s
        if sent is not None and in_window:
            fs.delay_sum += now - sent
            fs.delay_n += 1
        size = int(t[7])
        if not is_tcp[i]:
            fs.delivered += 1
            fs.in_window += in_window
            continue
        seq = int(t[17].lstrip("["))
        if size < payload[i]:  # the SYN of ns-2's one-way agents: no payload
            if fs.next_seq < 0 or seq + 1 > fs.next_seq:
                fs.next_seq = seq + 1
            continue
        if fs.next_seq < 0:
            fs.next_seq = 1 if seq >= 1 else 0
        if seq < fs.next_seq or seq in fs.seen:
            continue
        fs.seen.add(seq)
        while fs.next_seq in fs.seen:
            fs.seen.discard(fs.next_seq)
            fs.next_seq += 1
            fs.delivered += 1
            fs.in_window += in_window

    window_s = duration_s - warmup_s
    out_flows = []
    for i, f in enumerate(flows):
        fs = state[i]
        doc: dict[str, Any] = {
            "id": i,
            "src": f["src"],
            "dst": f["dst"],
            "transport": f.get("transport", "udp"),
            "payload_bytes": payload[i],
            "goodput_kbps": fs.in_window * payload[i] * 8 / window_s / 1000
            if window_s > 0
            else 0.0,
            "packets_delivered": fs.delivered,
            "mean_delay_ms": fs.delay_sum / fs.delay_n * 1000 if fs.delay_n else None,
        }
        if is_tcp[i]:
            c = tcp_counters.get(i, [0, 0, 0, -1])
            doc.update(
                {
                    "variant": (f.get("tcp") or {}).get("variant"),
                    "segments_sent": int(c[0]),
                    "retransmissions": int(c[1]),
                    "timeouts": int(c[2]),
                    "throughput_pps": fs.in_window / window_s if window_s > 0 else 0.0,
                    "avg_cwnd": c[3] if c[3] >= 0 else None,
                    "window_distribution": windows.get(i, []),
                    "slow_start_fraction": slow_start.get(i),
                    "bytes_delivered": fs.delivered * payload[i],
                }
            )
        out_flows.append(doc)
    totals = {
        "retry_limit_drops": retry_drops,
        "link_failures": retry_drops,
        "routing_packets": routing_packets,
        "queue_drops": drops.get("IFQ:IFQ", 0) + drops.get("IFQ:ARP", 0),
        "no_route_drops": sum(drops.get(f"RTR:{r}", 0) for r in ("NRTE", "IFQ", "TOUT", "SAL")),
        "collisions": drops.get("MAC:COL", 0),
        "ttl_drops": drops.get("RTR:TTL", 0),
    }
    return {
        "duration_s": duration_s,
        "warmup_s": warmup_s,
        "flows": out_flows,
        "totals": totals,
        "ns2": {"drops": dict(sorted(drops.items())), "end_s": end_s},
    }
