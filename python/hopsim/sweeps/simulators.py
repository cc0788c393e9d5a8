"""The simulators a sweep can run its scenarios in: an interface and a registry.

hopsim's own engine (:data:`HOPSIM`) is the default and always registered. Another simulator
(ns-2.35 in :mod:`hopsim.crosscheck.ns2run`) implements :class:`Simulator` and registers
itself with :func:`register_simulator`; this package never imports it. A run's payload
carries the simulator object itself: pickle (and Dask) send it by reference to its class, so
a spawned worker imports the module that defines it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, Protocol, runtime_checkable

from .._core import ScenarioError

__all__ = [
    "HOPSIM",
    "HopsimEngine",
    "Simulator",
    "get_simulator",
    "register_simulator",
    "simulator_names",
]


@runtime_checkable
class Simulator(Protocol):
    """What a sweep needs of a simulator."""

    #: The name sweep specs and the store use (``SweepSpec.simulator``).
    name: str
    #: Whether the run budget (``max_events``, ``max_memory_mb``) applies to its runs.
    takes_budget: bool

    def key_document(self, resolved: dict[str, Any]) -> dict[str, Any]:
        """What identifies a run of ``resolved`` (hopsim's resolved scenario) besides
        hopsim's version: hashed into the run's key. Raises ScenarioError, before any run,
        if the scenario cannot be run in this simulator."""
        ...

    def run(self, scenario_json: str, options: Mapping[str, Any] | None) -> str:
        """Run one scenario; its result document as JSON text (hopsim's shape)."""
        ...


class HopsimEngine:
    """hopsim's own engine (the compiled core)."""

    name = "hopsim"
    takes_budget = True

    def key_document(self, resolved: dict[str, Any]) -> dict[str, Any]:
        return resolved

    def run(self, scenario_json: str, options: Mapping[str, Any] | None) -> str:
        from .. import _core

        return _core.run_json(scenario_json, json.dumps(dict(options)) if options else None)


HOPSIM = HopsimEngine()

_REGISTRY: dict[str, Simulator] = {HOPSIM.name: HOPSIM}


def register_simulator(simulator: Simulator) -> None:
    """Make ``simulator`` available to sweeps under its name (registering again replaces)."""
    if not isinstance(simulator, Simulator):
        raise TypeError(f"{simulator!r} does not implement hopsim.sweeps.simulators.Simulator")
    if simulator.name == HOPSIM.name and simulator is not HOPSIM:
        raise ValueError(f"the simulator name {HOPSIM.name!r} is hopsim's own engine")
    _REGISTRY[simulator.name] = simulator


def simulator_names() -> list[str]:
    return sorted(_REGISTRY)


def get_simulator(name: str) -> Simulator:
    """The registered simulator called ``name``.

    Raises:
        ScenarioError: no simulator of that name is registered (the message lists those that
            are).
    """
    try:
        return _REGISTRY[name]
    except KeyError:
        raise ScenarioError(
            f"simulator {name!r}: not known here; registered: {', '.join(simulator_names())} "
            "(ns-2 registers itself when hopsim.crosscheck.ns2run is imported)"
        ) from None
