"""The simulation API: prepare, validate and run a scenario in hopsim's core.

:mod:`hopsim` re-exports these names; modules inside the package import them from here, so
that no subpackage depends on the package's front door (tests/test_architecture.py).
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Mapping
from os import PathLike
from pathlib import Path
from typing import Any

from . import _core
from ._core import ScenarioError
from .result import Result
from .scenario import Overrides, apply_overrides, load, to_json

__all__ = ["RunOptionsUnsupported", "ScenarioLike", "prepare", "run", "run_options", "validate"]

#: What :func:`run` and :func:`validate` accept as a scenario: a dict, or a path to a TOML file.
ScenarioLike = Mapping[str, Any] | str | PathLike[str]


def prepare(
    scenario: ScenarioLike, overrides: Overrides | None = None, seed: int | None = None
) -> dict[str, Any]:
    """The scenario dict that would be sent to the core: loaded, overridden, seeded.

    ``scenario`` is a dict or a path to a TOML file; ``seed`` (if given) replaces the
    scenario's ``seed`` key after the overrides.
    """
    if isinstance(scenario, (str, PathLike)):
        doc = load(scenario)
    elif isinstance(scenario, Mapping):
        doc = dict(scenario)
    else:
        raise TypeError(
            f"scenario must be a dict or a path to a TOML file, not {type(scenario).__name__}"
        )
    doc = apply_overrides(doc, overrides)
    if seed is not None:
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**64:
            raise ScenarioError(
                f"seed = {seed!r}: not allowed, the seed is an unsigned 64-bit integer "
                f"(0..{2**64 - 1})"
            )
        doc["seed"] = seed
    return doc


class RunOptionsUnsupported(RuntimeError):
    """The compiled core is too old for a run option (traces, time series): rebuild it."""


def run_options(
    series_interval_s: float | None = None,
    pcap_dir: str | PathLike[str] | None = None,
    pcap_ip_dir: str | PathLike[str] | None = None,
    max_events: int | None = None,
    max_memory_mb: float | None = None,
) -> dict[str, Any]:
    """The run options document sent to the core, with only the options that were given.

    Directories are made absolute (the core creates them when missing). ``series_interval_s``
    must be a positive, finite number of seconds; ``max_events`` (a positive integer) and
    ``max_memory_mb`` (1..1e9) set the run's budget (docs/interfaces.md, "Run options").

    Raises:
        ScenarioError: an option has an impossible value (the message names the option).
    """
    options: dict[str, Any] = {}
    if series_interval_s is not None:
        if (
            isinstance(series_interval_s, bool)
            or not isinstance(series_interval_s, (int, float))
            or not math.isfinite(series_interval_s)
            or series_interval_s <= 0
        ):
            raise ScenarioError(
                f"series_interval_s = {series_interval_s!r}: not allowed, it must be a "
                "positive number of seconds (e.g. 1.0)"
            )
        options["series_interval_s"] = float(series_interval_s)
    if max_events is not None:
        if (
            isinstance(max_events, bool)
            or not isinstance(max_events, int)
            or not (1 <= max_events < 2**64)
        ):
            raise ScenarioError(
                f"max_events = {max_events!r}: not allowed, it must be a whole number of events "
                "of at least 1"
            )
        options["max_events"] = max_events
    if max_memory_mb is not None:
        if (
            isinstance(max_memory_mb, bool)
            or not isinstance(max_memory_mb, (int, float))
            or not 1 <= max_memory_mb <= 1e9
        ):
            raise ScenarioError(
                f"max_memory_mb = {max_memory_mb!r}: not allowed, it must be a number of "
                "megabytes between 1 and 1e9"
            )
        options["max_memory_mb"] = float(max_memory_mb)
    for key, value in (("pcap_dir", pcap_dir), ("pcap_ip_dir", pcap_ip_dir)):
        if value is None:
            continue
        if not isinstance(value, (str, PathLike)) or not str(value):
            raise ScenarioError(f"{key} = {value!r}: not allowed, it must be a directory path")
        path = Path(value).expanduser().absolute()
        if path.exists() and not path.is_dir():
            raise ScenarioError(
                f"{key} = {str(value)!r}: not allowed, it exists and is not a directory"
            )
        options[key] = str(path)
    return options


def _call_core(scenario_json: str, options: Mapping[str, Any]) -> str:
    if not options:
        return _core.run_json(scenario_json)
    try:
        return _core.run_json(scenario_json, json.dumps(dict(options)))
    except TypeError as exc:
        # A core built before the run options existed takes one argument only.
        if "argument" not in str(exc):
            raise
        raise RunOptionsUnsupported(
            f"this build of hopsim's core does not support run options "
            f"({', '.join(sorted(options))}); rebuild it with `make demo`"
        ) from exc


def run(
    scenario: ScenarioLike,
    overrides: Overrides | None = None,
    seed: int | None = None,
    *,
    series_interval_s: float | None = None,
    pcap_dir: str | PathLike[str] | None = None,
    pcap_ip_dir: str | PathLike[str] | None = None,
    max_events: int | None = None,
    max_memory_mb: float | None = None,
    trace: str | PathLike[str] | None = None,
    trace_ns2: str | PathLike[str] | None = None,
) -> Result:
    """Run one simulation and return its :class:`Result`.

    Args:
        scenario: a scenario dict, or a path to a scenario TOML file.
        overrides: ``{"topology.hops": 7}`` or ``["topology.hops=7", ...]``
            (see :func:`apply_overrides`).
        seed: replaces the scenario's ``seed``.
        series_interval_s: sample every flow's congestion window (TCP), goodput over the
            interval and delivered bytes every this many simulated seconds; the result then
            has :attr:`Result.series` (see :meth:`Result.write_series`).
        pcap_dir: write one radiotap/802.11 pcap per node, ``node-<id>.pcap``, into this
            directory (created when missing).
        pcap_ip_dir: write one raw-IP pcap per flow endpoint, ``flow-<f>-node-<id>.pcap``,
            into this directory (created when missing).

        max_events: the run's budget of events (default 5e9, about eight minutes): a
            scenario known to need more is refused before it starts, a run that reaches it
            stops with a ScenarioError naming the cause.
        max_memory_mb: the run's memory budget for what it builds and what grows while it
            runs (default 4096).
        trace: write the event trace, one row per event at every layer (frames on the air,
            receptions and their losses, backoffs, NAV, queue, routing, TCP and application
            events, every drop with its reason), to this file: ``.parquet`` or ``.csv``
            (columns in docs/interfaces.md, "Event trace"). Streamed: memory stays bounded.
        trace_ns2: write the same events in ns-2's classic wireless trace format
            (``s``/``r``/``f``/``D`` lines with AGT, RTR, MAC and IFQ; docs/interfaces.md,
            "ns-2 trace"), for the awk scripts written for ns-2.

    None of the options changes the results: the same scenario and seed give the same
    numbers with or without them.

    Raises:
        ScenarioError: the scenario (or an override, or an option) was rejected, or the run
            passed its budget; the message names the key, the value and what is allowed.
        InternalError: a bug in hopsim's core (never caused by input).
        FileNotFoundError: ``scenario`` is a path that does not exist.
        RunOptionsUnsupported: an option was given to a core built without run options.
    """
    text = to_json(prepare(scenario, overrides, seed))
    options = run_options(series_interval_s, pcap_dir, pcap_ip_dir, max_events, max_memory_mb)
    trace_file = partial = ns2_file = None
    if trace is not None or trace_ns2 is not None:
        from .events import check_trace_path, partial_path

        if trace is not None:
            trace_file = check_trace_path(trace)
        if trace_ns2 is not None:
            ns2_file = check_trace_path(trace_ns2, "trace_ns2", suffixes=(".tr",))
        partial = partial_path(trace_file or ns2_file)
        options["event_trace"] = str(partial)
    t0 = time.perf_counter()
    try:
        out = _call_core(text, options)
    except BaseException:
        if partial is not None:
            partial.unlink(missing_ok=True)
        raise
    wall = time.perf_counter() - t0
    if partial is not None:
        _finish_trace(partial, trace_file, ns2_file)
    return Result.from_json(out, wall_time_s=wall)


def _finish_trace(partial: Path, trace_file: Path | None, ns2_file: Path | None) -> None:
    """Write the traces asked for from the core's CSV stream, then remove it."""
    from .events import csv_to_parquet
    from .events_ns2 import write_ns2

    try:
        if ns2_file is not None:
            with open(ns2_file, "w", encoding="ascii", newline="\n") as out:
                write_ns2(partial, out)
        if trace_file is not None and trace_file.suffix.lower() == ".csv":
            partial.replace(trace_file)
        elif trace_file is not None:
            csv_to_parquet(partial, trace_file)
    finally:
        partial.unlink(missing_ok=True)


def validate(
    scenario: ScenarioLike,
    overrides: Overrides | None = None,
    seed: int | None = None,
    max_events: int | None = None,
    max_memory_mb: float | None = None,
) -> dict[str, Any]:
    """Validate a scenario without running it; return the fully resolved scenario.

    ``max_events``/``max_memory_mb``: the budget it is checked against, as in :func:`run`
    (a scenario whose known work passes it is rejected here, before any run).

    Raises:
        ScenarioError: the scenario (or an override) was rejected.
    """
    text = to_json(prepare(scenario, overrides, seed))
    options = run_options(max_events=max_events, max_memory_mb=max_memory_mb)
    raw = _core.validate_json(text, json.dumps(options)) if options else _core.validate_json(text)
    resolved: dict[str, Any] = json.loads(raw)
    return resolved
