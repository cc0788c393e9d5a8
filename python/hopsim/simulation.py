"""A run you can pause, continue and fork (issue 35; docs/interfaces.md, "Pause and fork").

    sim = hopsim.Simulation("chain.toml", seed=3)
    sim.run_until(100.0)          # the warm-up, once
    other = sim.fork()            # an independent copy of the whole run
    a, b = sim.run(), other.run() # each to its end: identical, nothing having changed

A fork copies every node, queue, timer, packet and random stream, so a fork continued
unchanged gives, bit for bit, the result the original gives, and the two share their
randomness until something changes one of them (common random numbers). Pausing and resuming
never changes a result. Traces (pcap, event trace) are not offered here: a run writing them
could not be forked.
"""

from __future__ import annotations

import json
import math
import time
from typing import Any

from . import _core
from ._core import ScenarioError
from .api import ScenarioLike, prepare, run_options
from .result import Result
from .scenario import Overrides, to_json

__all__ = ["CHANGES", "Simulation"]


class Simulation:
    """A built run of ``scenario`` (a dict or a TOML path; ``overrides`` and ``seed`` as in
    :func:`hopsim.run`), paused at time 0.

    Raises:
        ScenarioError: the scenario, an override or an option was rejected.
    """

    __slots__ = ("_core", "_wall_s")

    def __init__(
        self,
        scenario: ScenarioLike,
        overrides: Overrides | None = None,
        seed: int | None = None,
        *,
        series_interval_s: float | None = None,
        max_events: int | None = None,
        max_memory_mb: float | None = None,
    ) -> None:
        text = to_json(prepare(scenario, overrides, seed))
        options = run_options(series_interval_s, None, None, max_events, max_memory_mb)
        t0 = time.perf_counter()
        self._core = _core.Simulation(text, json.dumps(options) if options else None)
        self._wall_s = time.perf_counter() - t0

    @classmethod
    def _wrap(cls, core: _core.Simulation, wall_s: float) -> Simulation:
        sim = cls.__new__(cls)
        sim._core, sim._wall_s = core, wall_s
        return sim

    @property
    def now_s(self) -> float:
        """Simulated time in seconds: where the run is paused (the time last given to
        :meth:`run_until`, events at that time not yet run), or its end."""
        return self._core.now_s

    @property
    def end_s(self) -> float:
        """When the run ends: the scenario's ``duration_s``."""
        return self._core.end_s

    @property
    def done(self) -> bool:
        """Has the run reached its end?"""
        return self._core.now_s >= self._core.end_s

    def run_until(self, time_s: float) -> bool:
        """Run the events before ``time_s`` (to the end when it is at or past it); returns
        whether the run has reached its end. A time before :attr:`now_s` runs nothing.

        Raises:
            ScenarioError: ``time_s`` is not a finite number of seconds >= 0, or the run
                passed its budget.
        """
        if isinstance(time_s, bool) or not isinstance(time_s, (int, float)):
            raise ScenarioError(f"time_s = {time_s!r}: a number of simulated seconds")
        if not math.isfinite(time_s) or time_s < 0:
            raise ScenarioError(f"time_s = {time_s!r}: a simulated time in seconds, 0 or more")
        t0 = time.perf_counter()
        try:
            return self._core.run_until(float(time_s))
        finally:
            self._wall_s += time.perf_counter() - t0

    def run_for(self, duration_s: float) -> bool:
        """Run ``duration_s`` simulated seconds from :attr:`now_s` (:meth:`run_until` of
        their sum); returns whether the run has reached its end.

        Raises:
            ScenarioError: ``duration_s`` is not a finite number of seconds >= 0.
        """
        if isinstance(duration_s, bool) or not isinstance(duration_s, (int, float)):
            raise ScenarioError(f"duration_s = {duration_s!r}: a number of simulated seconds")
        if not math.isfinite(duration_s) or duration_s < 0:
            raise ScenarioError(f"duration_s = {duration_s!r}: simulated seconds, 0 or more")
        return self.run_until(self.now_s + float(duration_s))

    def state(self) -> dict[str, Any]:
        """The run as it stands: ``now_s``; per flow ``delivered_bytes`` and, for TCP,
        ``cwnd_segments``, ``ssthresh_segments`` (None while unbounded), ``srtt_ms``,
        ``rto_ms``, ``segments_acked``, ``segments_sent``, ``retransmissions``, ``timeouts``,
        ``fast_retransmits``; per node ``queue_packets``, ``mac_retries``,
        ``retry_limit_drops``, ``queue_drops``. Reading it changes nothing."""
        doc: dict[str, Any] = json.loads(self._core.state_json())
        return doc

    def set_window_limit(self, flow: int, segments: float | None) -> None:
        """Flow ``flow``'s window limit from now on: a fixed CWL of ``segments`` (as the key
        ``tcp.max_window``, fractional allowed), or none (``None`` or 0). The window in use is
        capped at once; a raised limit is used from the next ACK.

        Raises:
            ScenarioError: no such flow, a UDP flow, or a value ``tcp.max_window`` refuses.
        """
        if isinstance(flow, bool) or not isinstance(flow, int) or flow < 0:
            raise ScenarioError(f"flow = {flow!r}: a flow index, 0 or more")
        if segments is not None and (
            isinstance(segments, bool) or not isinstance(segments, (int, float))
        ):
            raise ScenarioError(f"segments = {segments!r}: a number of segments, or None")
        self._core.set_window_limit(flow, None if segments is None else float(segments))

    def set_cwnd(self, flow: int, segments: float) -> None:
        """Flow ``flow``'s congestion window = ``segments`` now (under its window limit);
        congestion control goes on from there. What the window allows goes out at once."""
        _index("flow", flow)
        _number("segments", segments)
        self._core.set_cwnd(flow, float(segments))

    def set_pacing_rate(self, flow: int, rate_kbps: float | None) -> None:
        """Flow ``flow``'s pacing rate from now on. TCP: a maximum, as Linux's
        SO_MAX_PACING_RATE (segments with their TCP/IP headers leave no faster; None lifts
        it). Paced UDP: the source's rate (datagram and UDP/IP headers per interval)."""
        _index("flow", flow)
        if rate_kbps is not None:
            _number("rate_kbps", rate_kbps)
        self._core.set_pacing_rate(flow, None if rate_kbps is None else float(rate_kbps))

    def start_flow(self, flow: int) -> None:
        """Flow ``flow`` sends from now on: one not started yet starts now, a stopped one
        starts again (until the run's end). Refused for a flow sending now."""
        _index("flow", flow)
        self._core.start_flow(flow)

    def stop_flow(self, flow: int) -> None:
        """Flow ``flow`` has no new data from now on (TCP still retransmits what is
        outstanding)."""
        _index("flow", flow)
        self._core.stop_flow(flow)

    def set_queue_limit(self, packets: int, node: int | None = None) -> None:
        """The interface queue limit (``mac.queue_packets``) of ``node``, or of every node,
        from now on: packets already queued stay, arrivals find room once it drains below."""
        if node is not None:
            _index("node", node)
        _number("packets", packets)
        self._core.set_queue_limit(node, float(packets))

    def route(self, src: int, dst: int) -> list[int]:
        """The route from ``src`` to ``dst`` that a packet sent now would find in the routing
        tables (node ids, ``src`` first; empty when there is none, ``[src]`` to itself).
        Reading it changes nothing in the run."""
        _index("src", src)
        _index("dst", dst)
        return list(self._core.route(src, dst))

    def change(self, key: str, value: Any) -> None:
        """One of the changes a paused run accepts, by name (``CHANGES``); any other key is
        refused by name: the rest of the scenario is fixed once the run is built."""
        if not isinstance(key, str) or key not in CHANGES:
            raise ScenarioError(
                f"{key!r} cannot change mid-run; what can: {', '.join(CHANGES)} "
                "(as flows[i].<name> or nodes[i].queue_packets through the methods)"
            )
        CHANGES[key](self, value)

    def fork(self) -> Simulation:
        """An independent copy of the run as it stands (see the module's notes)."""
        t0 = time.perf_counter()
        core = self._core.fork()
        return Simulation._wrap(core, self._wall_s + time.perf_counter() - t0)

    def run(self) -> Result:
        """Run to the end and return the :class:`~hopsim.Result`; afterwards the run can
        neither go on nor be forked (fork first to keep a copy)."""
        self.run_until(self.end_s)
        t0 = time.perf_counter()
        out = self._core.result_json()
        return Result.from_json(out, wall_time_s=self._wall_s + time.perf_counter() - t0)


def _index(key: str, value: Any) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ScenarioError(f"{key} = {value!r}: an index, 0 or more")


def _number(key: str, value: Any) -> None:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise ScenarioError(f"{key} = {value!r}: a finite number")


def _flow_value(method: str) -> Any:
    def apply(sim: Simulation, value: Any) -> None:
        if not (isinstance(value, tuple) and len(value) == 2):
            raise ScenarioError(f"{method}: give (flow, value)")
        getattr(sim, method)(*value)

    return apply


#: What :meth:`Simulation.change` accepts: ``sim.change(name, (flow, value))``, or for the
#: queue limit ``(packets, node or None)``, and for start/stop the flow index alone.
CHANGES: dict[str, Any] = {
    "window_limit": _flow_value("set_window_limit"),
    "cwnd": _flow_value("set_cwnd"),
    "pacing_rate_kbps": _flow_value("set_pacing_rate"),
    "start": lambda sim, flow: sim.start_flow(flow),
    "stop": lambda sim, flow: sim.stop_flow(flow),
    "queue_packets": lambda sim, value: sim.set_queue_limit(*value),
}
