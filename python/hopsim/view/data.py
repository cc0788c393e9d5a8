"""What the run explorer shows, gathered from one run: the network (shared with
``hopsim show``), the event trace reduced to what the page draws, and the time series.

The trace is read block by block; what is kept is bounded by the time window (``window_s``)
and by :data:`MAX_ITEMS`: a longer run is cut to the first part that fits, and the page says
so.
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import Mapping
from dataclasses import asdict
from pathlib import Path
from typing import Any

from .._core import ScenarioError
from .routes import CONTROL_ROLES, Controls, RouteLanes, gap_s

__all__ = ["MAX_ITEMS", "page_data"]

#: Things drawn that the page keeps at most: frames, lost receptions, queue changes, NAVs,
#: drops and journey steps (about 20 bytes each in the page; a 100 s 7-hop TCP run has
#: 340,000, a 7 MB page).
MAX_ITEMS = 380_000
#: Packet journeys kept (each: the rows of one packet id).
MAX_JOURNEYS = 60_000

_FRAME_KINDS = ("data", "rts", "cts", "ack", "bar", "ba", "action")
#: Journey steps: event -> index in JOURNEY_STEPS (the page words them).
JOURNEY_STEPS = [
    "send", "retransmission", "ack", "enqueue", "dequeue", "hold", "release", "receive",
    "drop", "link_failure",
]  # fmt: skip
_JOURNEY_EVENTS = {e: i for i, e in enumerate(JOURNEY_STEPS)}


def page_data(
    scenario: Any,
    overrides: Any = None,
    seed: int | None = None,
    window_s: tuple[float, float] | None = None,
    series_interval_s: float = 0.5,
) -> dict[str, Any]:
    """Run ``scenario`` with the event trace and a time series and reduce them for the page.

    Raises:
        ScenarioError: the scenario, an override or the window was rejected.
    """
    from ..api import prepare, run
    from ..show import network_picture

    doc = prepare(scenario, overrides, seed)
    with tempfile.TemporaryDirectory(prefix="hopsim-view-") as tmp:
        csv = Path(tmp) / "trace.csv"
        result = run(doc, series_interval_s=series_interval_s, trace=csv)
        pic = network_picture(doc, result=result, name=_name(scenario))
        duration_s = float(result.raw["scenario"]["duration_s"])
        lo, hi = _window(window_s, duration_s)
        gaps = [gap_s(f) for f in result.raw["scenario"]["flows"]]
        events = _reduce(csv, lo, hi, gaps)
    series = result.raw.get("series") or {}
    flows = result.raw["flows"]
    return {
        "title": pic.title,
        "duration_s": duration_s,
        "window": [lo, events["until_s"]],
        "cut": events["cut"],
        "nodes": [list(p) for p in pic.positions],
        "moves": pic.moves,
        "decode_links": [list(link) for link in pic.decode_links],
        "sense_links": [list(link) for link in pic.sense_links],
        "flows": [
            {
                **asdict(fr),
                "goodput_kbps": flows[fr.index]["goodput_kbps"],
                "retransmissions": flows[fr.index].get("retransmissions"),
            }
            for fr in pic.flows
        ],
        "series": {k: series.get(k, []) for k in ("time_s", "flow", "cwnd", "goodput_kbps")},
        **{k: v for k, v in events.items() if k not in ("cut", "until_s", "step_count")},
        # Not drawn: the result document, for checking a regenerated run (keys with "_" are
        # left out of the page).
        "_result": result.raw,
    }


def _name(scenario: Any) -> str:
    return Path(scenario).stem if isinstance(scenario, (str, Path)) else "scenario"


def _window(window_s: tuple[float, float] | None, duration_s: float) -> tuple[float, float]:
    if window_s is None:
        return 0.0, duration_s
    lo, hi = window_s
    if not (0.0 <= lo < hi):
        raise ScenarioError(
            f"window = {lo}:{hi}: not allowed, give FROM:TO seconds with 0 <= FROM < TO"
        )
    return lo, min(hi, duration_s)


def _reduce(csv: Path, lo_s: float, hi_s: float, gaps_s: list[float]) -> dict[str, Any]:
    """The trace reduced to columns of numbers (times in microseconds); ``gaps_s``: per
    flow, see :func:`.routes.gap_s`."""
    import pyarrow as pa
    import pyarrow.csv as pacsv

    from ..events import BLOCK_BYTES, schema

    types = {f.name: (pa.string() if pa.types.is_dictionary(f.type) else f.type) for f in schema()}
    reader = pacsv.open_csv(
        csv,
        read_options=pacsv.ReadOptions(block_size=BLOCK_BYTES),
        convert_options=pacsv.ConvertOptions(column_types=types, strings_can_be_null=True),
    )
    lo_ns, hi_ns = int(lo_s * 1e9), int(hi_s * 1e9)
    out: dict[str, Any] = {
        # Frames: transmitter, start, end (us), kind index, receiver (-1 broadcast), packet.
        "frames": [[], [], [], [], [], []],
        # Lost receptions at the frame's receiver: node, time, reason, frame transmitter.
        "losses": [[], [], [], []],
        # Drops: node, time, layer, reason, packet, flow (-1 none).
        "drops": [[], [], [], [], [], []],
        # Queue length after each change: node, time, length.
        "queue": [[], [], []],
        # NAV: node, from, until.
        "nav": [[], [], []],
        # TCP: flow, time, event (0 retransmission, 1 timeout).
        "tcp_marks": [[], [], []],
        # Backoffs drawn: node, time, slots.
        "backoff": [[], [], []],
        # RTT samples (Karn: segments sent once): flow, time of the ACK, RTT in ms.
        "rtt": [[], [], []],
        # Each flow's route as its data packets took it, when it changes: flow, time, nodes.
        "route_changes": [[], [], []],
        # Spans of each flow's route in use: flow, from, to, nodes ([]: no route). .routes
        "route_spans": [[], [], [], []],
        # Routing control frames: index in frames, index in control_kinds ([name, role]).
        "control_frames": [[], []],
        "control_kinds": [],
        # Journeys: packet id -> [[time, node, text], ...].
        "journeys": {},
        "step_count": 0,
    }
    open_frames: dict[int, int] = {}  # frame id -> index in frames
    receiver: dict[int, int] = {}
    track, lanes, controls = _Tracks(), RouteLanes(gaps_s, lo_ns), Controls()
    cut = False
    kept = ("frames", "losses", "queue", "nav", "drops", "backoff")
    until_ns = hi_ns
    for batch in reader:
        for r in batch.to_pylist():
            t = r["time_ns"]
            if t < lo_ns:
                continue
            if t >= hi_ns:
                break
            if r["event"] == "frame_start" and (
                sum(len(out[k][0]) for k in kept) + out["step_count"] >= MAX_ITEMS
            ):
                cut, until_ns = True, t
                break
            _take(r, out, open_frames, receiver, lo_ns)
            track.take(r, out, lo_ns)
            lanes.take(r, out)
            controls.take(r, out)
        else:
            continue
        break
    # Frames still on the air at the end of the window end there.
    for i in open_frames.values():
        out["frames"][2][i] = (until_ns - lo_ns) // 1000
    lanes.finish(out, until_ns)
    out["control_roles"] = CONTROL_ROLES
    out["cut"] = cut
    out["until_s"] = until_ns / 1e9
    out["layers"] = _LAYERS
    out["reasons"] = _REASONS
    out["steps"] = JOURNEY_STEPS
    return out


_LAYERS = ["phy", "mac", "ifq", "net", "transport", "app"]
_REASONS = [
    "collision", "frame_error", "not_decoded", "retry_limit", "queue_full", "queue_purge",
    "no_route", "bad_source_route", "ttl", "route_timeout", "salvage_limit", "duplicate",
    "red", "codel", "fq_codel", "channel_loss",
]  # fmt: skip


def _take(
    r: Mapping[str, Any],
    out: dict[str, Any],
    open_frames: dict[int, int],
    receiver: dict[int, int],
    lo_ns: int,
) -> None:
    ev, node = r["event"], r["node"]
    us = (r["time_ns"] - lo_ns) // 1000
    if ev == "frame_start":
        f = out["frames"]
        open_frames[r["frame"]] = len(f[0])
        receiver[r["frame"]] = -1 if r["peer"] is None else r["peer"]
        for col, v in zip(
            f,
            (node, us, us, _FRAME_KINDS.index(r["frame_kind"]), receiver[r["frame"]],
             r["packet"] or 0),
            strict=True,
        ):  # fmt: skip
            col.append(v)
    elif ev == "frame_end":
        i = open_frames.pop(r["frame"], None)
        receiver.pop(r["frame"], None)
        if i is not None:
            out["frames"][2][i] = us
    elif ev == "rx_error" and r["reason"] in ("collision", "frame_error", "channel_loss"):
        to = receiver.get(r["frame"], -2)
        if to in (-1, node):
            for col, v in zip(
                out["losses"], (node, us, _REASONS.index(r["reason"]), r["peer"]), strict=True
            ):
                col.append(v)
    elif ev == "enqueue" or ev == "dequeue":
        for col, v in zip(out["queue"], (node, us, int(r["value"])), strict=True):
            col.append(v)
    elif ev == "backoff":
        for col, v in zip(out["backoff"], (node, us, int(r["value"])), strict=True):
            col.append(v)
    elif ev == "nav":
        until_us = int(r["value"] * 1e6) - lo_ns // 1000
        for col, v in zip(out["nav"], (node, us, until_us), strict=True):
            col.append(v)
    elif ev in ("retransmission", "timeout") and r["layer"] == "transport":
        for col, v in zip(out["tcp_marks"], (r["flow"], us, int(ev == "timeout")), strict=True):
            col.append(v)
    if ev == "drop":
        flow = -1 if r["flow"] is None else r["flow"]
        values = (node, us, _LAYERS.index(r["layer"]), _REASONS.index(r["reason"]),
                  r["packet"] or 0, flow)  # fmt: skip
        for col, v in zip(out["drops"], values, strict=True):
            col.append(v)
    packet = r["packet"]
    if packet and ev in _JOURNEY_EVENTS and r["layer"] != "phy":
        journeys = out["journeys"]
        if packet in journeys or len(journeys) < MAX_JOURNEYS:
            # [time us, node, step, detail]: the next hop of a packet queued, a drop's reason.
            detail = -1
            if ev == "drop":
                detail = _REASONS.index(r["reason"])
            elif ev == "enqueue" and r["peer"] is not None:
                detail = r["peer"]
            journeys.setdefault(packet, []).append([us, node, _JOURNEY_EVENTS[ev], detail])
            out["step_count"] += 1


class _Tracks:
    """RTT samples (state across rows). Holds only the segments in flight, so it stays
    small."""

    def __init__(self) -> None:
        self.sent: dict[int, dict[int, tuple[int, bool]]] = {}  # flow -> seq -> (ns, resent)

    def take(self, r: Mapping[str, Any], out: dict[str, Any], lo_ns: int) -> None:
        ev, layer, kind = r["event"], r["layer"], r["packet_kind"]
        flow, t = r["flow"], r["time_ns"]
        if layer == "transport" and ev in ("send", "retransmission") and kind == "tcp":
            prev = self.sent.setdefault(flow, {}).get(r["seq"])
            self.sent[flow][r["seq"]] = (prev[0] if prev else t, prev is not None)
        elif layer == "transport" and ev == "receive" and kind == "ack":
            pending = self.sent.get(flow, {})
            for seq in [q for q in pending if q < r["seq"]]:
                at, resent = pending.pop(seq)
                if not resent and seq == r["seq"] - 1:  # the segment this ACK answers
                    for col, v in zip(
                        out["rtt"], (flow, (t - lo_ns) // 1000, (t - at) / 1e6), strict=True
                    ):
                        col.append(v)


def to_json(data: Mapping[str, Any]) -> str:
    """Compact JSON for embedding in the page (``</`` escaped)."""
    return json.dumps(data, separators=(",", ":")).replace("</", "<\\/")
