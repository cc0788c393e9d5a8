"""Routes and routing control frames for the run explorer, from the event trace.

- Each flow's route is the path its data packets took (the nodes that queued a packet, then
  the node that received it), timed at the delivery; a packet sent before the one the route
  was learnt from that arrives along another path (it was queued before the change) does not
  change it back. The route is recorded in ``route_changes`` when it changes and as spans of
  time (``route_spans``) for the timeline's route lanes: a span is a stretch of deliveries
  along one path with no gap longer than :func:`gap_s` between them; a "no route" span runs
  from a data packet of the flow held for a route (``hold``) or dropped for want of one
  (``no_route``, ``route_timeout``, ``bad_source_route``) to the flow's next delivery.
- Routing control packets travel in DATA frames; the trace says which protocol a packet
  belongs to (``packet_kind``: ``aodv``, ``dsr``, ``olsr``, ``hwmp``, ``etx``) and, on the
  ``net`` row where a node sends it, which message it is (``route_request``,
  ``route_reply``, ``route_error``, ``route_beacon``). Each forwarded copy is a new packet
  with its own ``net`` row, so every control frame's message is known (unless it was sent
  before the window).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

__all__ = ["CONTROL_ROLES", "GAP_S", "NO_ROUTE_REASONS", "Controls", "RouteLanes", "gap_s"]

#: A flow's route is taken as unused after this long without a delivery (a UDP flow sending
#: more rarely than every GAP_S / 4: four of its intervals).
GAP_S = 1.0
#: Drop reasons that say a data packet found no route.
NO_ROUTE_REASONS = ("no_route", "route_timeout", "bad_source_route")
_DATA_KINDS = ("tcp", "udp")
#: Colour groups of control frames (the page colours by role, names by message).
CONTROL_ROLES = ["request", "reply", "error", "beacon", "other"]
_ROLE_OF_EVENT = {
    "route_request": 0, "route_reply": 1, "route_error": 2, "route_beacon": 3,
}  # fmt: skip
#: (packet_kind, net event) -> the message's name. OLSR reports HELLO and TC messages alike
#: as ``route_beacon``: the trace does not tell them apart.
_MESSAGES = {
    ("aodv", "route_request"): "AODV RREQ",
    ("aodv", "route_reply"): "AODV RREP",
    ("aodv", "route_error"): "AODV RERR",
    ("aodv", "route_beacon"): "AODV HELLO",
    ("dsr", "route_request"): "DSR RREQ",
    ("dsr", "route_reply"): "DSR RREP",
    ("dsr", "route_error"): "DSR RERR",
    ("olsr", "route_beacon"): "OLSR HELLO/TC",
    ("hwmp", "route_request"): "HWMP PREQ",
    ("hwmp", "route_reply"): "HWMP PREP",
    ("hwmp", "route_error"): "HWMP PERR",
    ("hwmp", "route_beacon"): "HWMP RANN",
    ("etx", "route_beacon"): "ETX probe",
}


def gap_s(flow: Mapping[str, Any]) -> float:
    """The longest time between two deliveries of ``flow`` (a resolved scenario's flow)
    that still counts as one use of its route: :data:`GAP_S`, or four intervals of a UDP
    flow that sends more rarely."""
    interval = float(flow.get("interval_s") or 0.0)
    return max(GAP_S, 4 * interval) if flow.get("transport") == "udp" else GAP_S


class Controls:
    """Routing control frames by message: ``control_frames`` ([frame index], [kind index])
    and ``control_kinds`` ([name, role index]) in ``out``."""

    def __init__(self) -> None:
        self.message: dict[int, int] = {}  # control packet id -> kind index
        self.index: dict[str, int] = {}

    def _kind(self, name: str, role: int, out: dict[str, Any]) -> int:
        if name not in self.index:
            self.index[name] = len(out["control_kinds"])
            out["control_kinds"].append([name, role])
        return self.index[name]

    def take(self, r: Mapping[str, Any], out: dict[str, Any]) -> None:
        """Note a control packet's message (its ``net`` row) or mark a control frame (its
        ``frame_start`` row, taken after the frame is appended to ``out["frames"]``)."""
        kind, ev, packet = r["packet_kind"], r["event"], r["packet"]
        if kind is None or kind in _DATA_KINDS or kind == "ack" or not packet:
            return
        if r["layer"] == "net" and ev in _ROLE_OF_EVENT:
            name = _MESSAGES.get((kind, ev), f"{kind.upper()} {ev}")
            self.message[packet] = self._kind(name, _ROLE_OF_EVENT[ev], out)
        elif ev == "frame_start":
            k = self.message.get(packet)
            if k is None:  # sent before the window: the protocol is known, not the message
                k = self._kind(f"{kind.upper()} control", len(CONTROL_ROLES) - 1, out)
            out["control_frames"][0].append(len(out["frames"][0]) - 1)
            out["control_frames"][1].append(k)


class RouteLanes:
    """Each flow's route from its data packets: ``route_changes`` (flow, time, nodes) and
    ``route_spans`` (flow, from, to, nodes; no nodes: no route) in ``out``, times in
    microseconds from the window's start. Holds only the packets in flight and one open
    span per flow."""

    def __init__(self, gaps_s: Sequence[float], lo_ns: int) -> None:
        self.gap_ns = [int(g * 1e9) for g in gaps_s]
        self.lo_ns = lo_ns
        self.paths: dict[int, tuple[int, list[int]]] = {}  # data packet -> (sent, nodes)
        self.newest: dict[int, int] = {}  # flow -> when the packet its route is from was sent
        self.route: dict[int, list[int]] = {}  # flow -> its latest route
        self.span: dict[int, list[Any]] = {}  # flow -> [first ns, last ns, nodes]
        self.outage: dict[int, int] = {}  # flow -> since when (ns) it has had no route

    def _emit(self, out: dict[str, Any], flow: int, a_ns: int, b_ns: int, nodes: list[int]) -> None:
        values = (flow, (a_ns - self.lo_ns) // 1000, (b_ns - self.lo_ns) // 1000, nodes)
        for col, v in zip(out["route_spans"], values, strict=True):
            col.append(v)

    def _close(self, out: dict[str, Any], flow: int) -> None:
        span = self.span.pop(flow, None)
        if span is not None:
            self._emit(out, flow, *span)

    def take(self, r: Mapping[str, Any], out: dict[str, Any]) -> None:
        if r["packet_kind"] not in _DATA_KINDS or not r["packet"]:
            return
        ev, packet, flow, t = r["event"], r["packet"], r["flow"], r["time_ns"]
        if ev == "enqueue":
            path = self.paths.setdefault(packet, (t, []))[1]
            if not path or path[-1] != r["node"]:  # re-queued at the same node: one hop
                path.append(r["node"])
        elif ev == "receive" and packet in self.paths:
            sent, path = self.paths.pop(packet)
            self._delivered(out, flow, t, sent, path + [r["node"]])
        elif ev == "hold" or (ev == "drop" and r["reason"] in NO_ROUTE_REASONS):
            if flow not in self.outage:
                self._close(out, flow)
                self.outage[flow] = t
            if ev == "drop":
                self.paths.pop(packet, None)
        elif ev == "drop" and r["layer"] != "mac":
            self.paths.pop(packet, None)

    def _delivered(
        self, out: dict[str, Any], flow: int, t: int, sent: int, path: list[int]
    ) -> None:
        if sent < self.newest.get(flow, -1):
            if path != self.route.get(flow):
                return  # sent before the route's packet, along an older path: not a change
        else:
            self.newest[flow] = sent
        if self.route.get(flow) != path:
            self.route[flow] = path
            for col, v in zip(
                out["route_changes"], (flow, (t - self.lo_ns) // 1000, path), strict=True
            ):
                col.append(v)
        since = self.outage.pop(flow, None)
        if since is not None:
            self._emit(out, flow, since, t, [])
        span = self.span.get(flow)
        gap = self.gap_ns[flow] if flow < len(self.gap_ns) else int(GAP_S * 1e9)
        if span is not None and (span[2] != path or t - span[1] > gap):
            self._close(out, flow)
            span = None
        if span is None:
            self.span[flow] = [t, t, path]
        else:
            span[1] = t

    def finish(self, out: dict[str, Any], until_ns: int) -> None:
        """Close what is open at the window's end (a flow still without a route: there)."""
        for flow in list(self.span):
            self._close(out, flow)
        for flow, since in self.outage.items():
            self._emit(out, flow, since, until_ns, [])
        self.outage.clear()
        spans = out["route_spans"]
        order = sorted(range(len(spans[0])), key=lambda i: (spans[1][i], spans[0][i]))
        out["route_spans"] = [[col[i] for i in order] for col in spans]
