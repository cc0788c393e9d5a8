"""The event trace in ns-2's classic wireless trace format (the CMU "old" format of
ns-2.35's trace/cmu-trace.cc), so that the awk scripts researchers keep for ns-2 traces
(throughput, delivery ratio, delay, routing overhead, drops) read a hopsim run unchanged.

Each line is ``EV TIME _NODE_ LAYER REASON UID TYPE SIZE [MAC] ------- [IP] [TRANSPORT]``;
docs/interfaces.md ("ns-2 trace") has the mapping from event rows to lines. Written while the
core's CSV is read block by block: memory stays bounded.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any, TextIO

__all__ = ["NS2_DROP", "lines_from_rows", "write_ns2"]

#: ns-2's drop reasons (cmu-trace.h) for hopsim's: (layer, reason code).
NS2_DROP = {
    ("phy", "collision"): ("MAC", "COL"),
    ("phy", "frame_error"): ("MAC", "ERR"),
    ("phy", "channel_loss"): ("MAC", "ERR"),
    ("mac", "retry_limit"): ("MAC", "RET"),
    ("mac", "duplicate"): ("MAC", "DUP"),
    ("ifq", "queue_full"): ("IFQ", "IFQ"),
    ("ifq", "queue_purge"): ("RTR", "CBK"),
    # ns-2's RED drops at its queue too (trace "d ... IFQ"); CoDel has no ns-2.35 counterpart.
    ("ifq", "red"): ("IFQ", "IFQ"),
    ("ifq", "codel"): ("IFQ", "IFQ"),
    ("ifq", "fq_codel"): ("IFQ", "IFQ"),
    ("net", "no_route"): ("RTR", "NRTE"),
    ("net", "bad_source_route"): ("RTR", "NRTE"),
    ("net", "route_timeout"): ("RTR", "TOUT"),
    ("net", "salvage_limit"): ("RTR", "SAL"),
    ("net", "ttl"): ("RTR", "TTL"),
}

#: ns-2's packet type names.
_TYPE = {
    "tcp": "tcp", "ack": "ack", "udp": "cbr", "aodv": "AODV", "dsr": "DSR", "etx": "ETX",
    "olsr": "OLSR", "hwmp": "HWMP",
}  # fmt: skip
_CONTROL = {"rts": "RTS", "cts": "CTS", "ack": "ACK"}
_ROUTING_MSG = {
    "route_request": "(REQUEST)",
    "route_reply": "(REPLY)",
    "route_error": "(ERROR)",
    "route_beacon": "(HELLO)",
}
_KEPT_MESSAGES = 1 << 16
#: ns-2's routing agents listen on port 255 (RT_PORT), applications here on port 0.
_RT_PORT = 255


def _addr(node: int | None) -> str:
    return "-1" if node is None else str(node)


def _mac_addr(node: int | None) -> str:
    return "ffffffff" if node is None else f"{node:x}"


class _Writer:
    """Turns event rows into ns-2 lines, keeping what a line needs from earlier rows."""

    def __init__(self) -> None:
        # Frames on the air: id -> (receiver, kind); a listener's line needs the receiver.
        self.frames: dict[int, tuple[int | None, str]] = {}
        # Routing messages by packet id (each line of the packet names it); the oldest are
        # forgotten beyond _KEPT_MESSAGES, so memory stays bounded.
        self.messages: dict[int, str] = {}

    def line(self, r: Mapping[str, Any]) -> str | None:
        layer, event, node = r["layer"], r["event"], r["node"]
        t = f"{r['time_ns'] // 1_000_000_000}.{r['time_ns'] % 1_000_000_000:09d}"
        if layer == "phy":
            return self._phy(r, t)
        if layer in ("transport", "app") and event in ("send", "retransmission", "ack"):
            return self._ip("s", t, node, "AGT", "---", r, mac=None)
        if layer in ("transport", "app") and (
            event == "receive" or (event == "drop" and r["reason"] == "duplicate")
        ):
            return self._ip("r", t, node, "AGT", "---", r, mac=(node, r["peer"]))
        if layer == "net" and event in _ROUTING_MSG:
            self.messages[r["packet"]] = _ROUTING_MSG[event]
            if len(self.messages) > _KEPT_MESSAGES:
                del self.messages[next(iter(self.messages))]
            return self._ip("s", t, node, "RTR", "---", r, mac=None)
        if layer == "ifq" and event == "enqueue":
            routing = r["packet_kind"] in ("aodv", "dsr", "etx", "olsr", "hwmp")
            if routing and node == r["src"]:
                return None  # its routing layer's send line came first
            ev = "s" if node == r["src"] else "f"
            return self._ip(ev, t, node, "RTR", "---", r, mac=None, next_hop=r["peer"])
        if event == "drop" and (layer, r["reason"]) in NS2_DROP:
            ns_layer, code = NS2_DROP[(layer, r["reason"])]
            return self._ip("D", t, node, ns_layer, code, r, mac=None)
        return None

    def _phy(self, r: Mapping[str, Any], t: str) -> str | None:
        event, node, frame, kind = r["event"], r["node"], r["frame"], r["frame_kind"]
        if event == "frame_start":
            self.frames[frame] = (r["peer"], kind)
            return self._mac("s", t, node, "---", r, receiver=r["peer"], sender=node)
        if event == "frame_end":
            self.frames.pop(frame, None)
            return None
        receiver, _ = self.frames.get(frame, (r["peer"], kind))
        if receiver is not None and receiver != node:
            return None  # ns-2 traces a frame at its receiver (or every node, if broadcast)
        if event == "rx_ok":
            return self._mac("r", t, node, "---", r, receiver=receiver, sender=r["peer"])
        if event == "rx_error" and ("phy", r["reason"]) in NS2_DROP:
            code = NS2_DROP[("phy", r["reason"])][1]
            return self._mac("D", t, node, code, r, receiver=receiver, sender=r["peer"])
        return None

    def _mac(
        self,
        ev: str,
        t: str,
        node: int,
        code: str,
        r: Mapping[str, Any],
        receiver: int | None,
        sender: int,
    ) -> str:
        mac = f"[0 {_mac_addr(receiver)} {sender:x} {{etype}}]"
        if r["frame_kind"] in _CONTROL:
            head = f"{ev} {t} _{node}_ MAC {code:>4} 0 {_CONTROL[r['frame_kind']]} {r['bytes']}"
            return f"{head} {mac.format(etype=0)} "
        return self._ip(ev, t, node, "MAC", code, r, mac=(receiver, sender), size=r["bytes"])

    def _ip(
        self,
        ev: str,
        t: str,
        node: int,
        layer: str,
        code: str,
        r: Mapping[str, Any],
        mac: tuple[int | None, int | None] | None,
        next_hop: int | None = None,
        size: int | None = None,
    ) -> str:
        kind = r["packet_kind"] or "cbr"
        ptype = _TYPE.get(kind, kind)
        uid = r["packet"] or 0
        port = _RT_PORT if kind in ("aodv", "dsr", "etx", "olsr", "hwmp") else 0
        if mac is None:
            mac_field = "[0 0 0 0]"
        else:
            to, frm = mac
            mac_field = f"[0 {_mac_addr(to)} {'0' if frm is None else f'{frm:x}'} 800]"
        ttl = r["ttl"] if r["ttl"] is not None else 0
        hop = 0 if next_hop is None else next_hop
        ip = f"[{_addr(r['src'])}:{port} {_addr(r['dst'])}:{port} {ttl} {hop}]"
        forwards = 64 - ttl if r["ttl"] is not None else 0
        seq = r["seq"] if r["seq"] is not None else 0
        if kind == "tcp":
            tail = f"[{seq} 0] {forwards} 0"
        elif kind == "ack":
            # ns-2's ACK carries the last segment received in order.
            tail = f"[{max(seq - 1, 0)} 0] {forwards} 0"
        elif kind == "udp":
            tail = f"[{seq}] {forwards} 0"
        else:
            tail = self.messages.get(uid, "")
        bytes_ = r["bytes"] if size is None else size
        head = f"{ev} {t} _{node}_ {layer} {code:>4} {uid} {ptype} {bytes_}"
        return f"{head} {mac_field} ------- {ip} {tail}"


def lines_from_rows(rows: Iterable[Mapping[str, Any]]) -> Iterator[str]:
    """ns-2 trace lines for event rows (dicts of the trace's columns), in order."""
    w = _Writer()
    for r in rows:
        line = w.line(r)
        if line is not None:
            yield line


def write_ns2(csv_path: Path, out: TextIO) -> int:
    """Write the ns-2 form of the core's CSV event trace to ``out``; the number of lines."""
    import pyarrow as pa
    import pyarrow.csv as pacsv

    from .events import BLOCK_BYTES, schema

    types = {f.name: (pa.string() if pa.types.is_dictionary(f.type) else f.type) for f in schema()}
    reader = pacsv.open_csv(
        csv_path,
        read_options=pacsv.ReadOptions(block_size=BLOCK_BYTES),
        convert_options=pacsv.ConvertOptions(column_types=types, strings_can_be_null=True),
    )
    w = _Writer()
    n = 0
    for batch in reader:
        for r in batch.to_pylist():
            line = w.line(r)
            if line is not None:
                out.write(line)
                out.write("\n")
                n += 1
    return n
