"""hopsim: a fast, deterministic packet-level simulator of TCP over multihop IEEE 802.11 networks.

Quick start::

    import hopsim
    res = hopsim.run(hopsim.load("scenarios/chain7_udp.toml"), overrides={"topology.hops": 4})
    res.flows[0].goodput_kbps

The scenario keys and the result document are described in docs/interfaces.md.

This file is the package's front door: it only re-exports. Modules inside the package import
from the modules themselves (``hopsim.api``, ``hopsim.scenario``...), never from here, so the
folders keep one direction of dependency (tests/test_architecture.py).
"""

from __future__ import annotations

try:
    from . import _core
except ImportError as exc:  # pragma: no cover - only without a built extension
    raise ImportError(
        "hopsim's compiled core (hopsim._core) is missing: build it with `make demo` "
        "or `maturin develop --release` in the project's virtual environment"
    ) from exc

from ._core import InternalError, ScenarioError
from .api import RunOptionsUnsupported, ScenarioLike, prepare, run, run_options, validate
from .result import FlowResult, NodeResult, Record, Result, RttStats, Totals
from .scenario import Overrides, apply_overrides, dumps_toml, load, to_json
from .simulation import Simulation
from .sweeps.analysis import results, results_dataset

__version__: str = _core.__version__

__all__ = [
    "FlowResult",
    "InternalError",
    "NodeResult",
    "Overrides",
    "Record",
    "Result",
    "RttStats",
    "RunOptionsUnsupported",
    "ScenarioError",
    "ScenarioLike",
    "Simulation",
    "Totals",
    "__version__",
    "apply_overrides",
    "dumps_toml",
    "load",
    "prepare",
    "results",
    "results_dataset",
    "run",
    "run_options",
    "to_json",
    "validate",
]
