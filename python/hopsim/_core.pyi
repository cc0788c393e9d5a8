"""Type stubs for the compiled extension module ``hopsim._core`` (PyO3, crates/hopsim-py)."""

from typing import Any

__version__: str
#: Which build this is: "profile-guided", "plain release", ... (crates/hopsim-py/build.rs).
BUILD: str
#: Kawadia & Kumar's window rule: segments per hop of the path (the core's `kawadia` limit).
KAWADIA_SEGMENTS_PER_HOP: float
LINUX_RCVWND_MAX_SEGMENTS: int

class ScenarioError(ValueError):
    """A rejected scenario: the message names the key, the value and what is allowed."""

class InternalError(RuntimeError):
    """A bug in hopsim's core (a Rust panic), raised as an ordinary exception."""

def run_json(scenario_json: str, options_json: str | None = None) -> str:
    """Run a scenario given as a JSON document; return the result document as JSON.

    ``options_json``: the run options as a JSON object, ``{"pcap_dir": str | None,
    "pcap_ip_dir": str | None, "series_interval_s": float | None, "max_events": int | None,
    "max_memory_mb": float | None}`` (docs/interfaces.md). The GIL is released while the
    simulation runs.

    Raises:
        ScenarioError: the scenario or an option was rejected, or the run passed its budget.
        InternalError: a bug in the core.
    """

class Simulation:
    """A built run that can be paused (``run_until``), forked and, at its end, read."""

    def __init__(self, scenario_json: str, options_json: str | None = None) -> None: ...
    @property
    def now_s(self) -> float: ...
    @property
    def end_s(self) -> float: ...
    def run_until(self, time_s: float) -> bool: ...
    def state_json(self) -> str: ...
    def set_window_limit(self, flow: int, segments: float | None) -> None: ...
    def set_cwnd(self, flow: int, segments: float) -> None: ...
    def set_pacing_rate(self, flow: int, rate_kbps: float | None) -> None: ...
    def start_flow(self, flow: int) -> None: ...
    def stop_flow(self, flow: int) -> None: ...
    def set_queue_limit(self, node: int | None, packets: float) -> None: ...
    def route(self, src: int, dst: int) -> list[int]: ...
    def fork(self) -> Simulation: ...
    def result_json(self) -> str: ...

class WindowEnvCore:
    """One run under a window controller of one flow or several (hopsim.gym); a step's rows
    are native f64: the observation, terminated, truncated, time (s), one row per flow."""

    def __init__(
        self,
        flows: list[int],
        action: str,
        step_s: float,
        step_rtt: bool,
        low: float,
        high: float,
        warmup_s: float,
    ) -> None: ...
    @staticmethod
    def fields() -> list[str]: ...
    def reset(self, scenario_json: str) -> bytes: ...
    def step(self, action: float) -> bytes: ...
    def step_flows(self, actions: list[float]) -> bytes: ...
    def state_json(self) -> str: ...
    def result_json(self) -> str: ...

class VecWindowEnvCore:
    """Runs under window controllers stepped by ``workers`` native threads (hopsim.gym)."""

    def __init__(
        self,
        scenarios: list[str],
        workers: int,
        flow: int,
        action: str,
        step_s: float,
        step_rtt: bool,
        low: float,
        high: float,
        warmup_s: float,
    ) -> None: ...
    @property
    def workers(self) -> int: ...
    def first_rows(self) -> bytes: ...
    def step(self, actions: list[float]) -> bytes: ...
    def reset_one(self, i: int, scenario_json: str) -> bytes: ...

def validate_json(scenario_json: str, options_json: str | None = None) -> str:
    """Validate a scenario given as JSON; return the fully resolved scenario as JSON.

    ``options_json``: run options whose budget (``max_events``, ``max_memory_mb``) the
    scenario is checked against, as a run would be (default: the default budget).

    Raises:
        ScenarioError: the scenario was rejected, or it would pass its budget.
    """

def layout_json(scenario_json: str) -> str:
    """Validate a scenario given as JSON; return its layout as JSON: ``{"positions": [[x, y]],
    "moves": [[[start_s, end_s, to_x, to_y]]] (per node), "flows": [flow tables]}`` with the
    random traffic drawn.

    Raises:
        ScenarioError: the scenario was rejected.
    """

def _panic_for_test(message: str) -> None:
    """Panic in the core on purpose (tests: a panic must arrive as InternalError)."""

def chen_table1() -> list[tuple[int, float]]:
    """Chen et al.'s Table 1: (largest round-trip hop count N of each row, optimal CWL)."""

def result_schema() -> list[dict[str, Any]]:
    """The result schema (crates/hopsim-core/src/schema.rs): one dict per key of the result
    document: ``level``, ``name``, ``kind``, ``nullable`` (bool), ``unit``, ``metric``
    (``"sum"``, ``"mean"``, ``"total"`` or ``""``), ``present`` and ``description``."""

def result_levels() -> list[tuple[str, str]]:
    """The levels of the result document, in order: (level, where it sits)."""

def tcp_variants() -> list[str]:
    """Every TCP variant's scenario name (``tcp.variant``), in the core's order
    (``TcpVariant::ALL`` in crates/hopsim-core/src/scenario/tcp.rs: their one list)."""
