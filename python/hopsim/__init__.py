"""hopsim: a fast, deterministic packet-level simulator of TCP over multihop IEEE 802.11 networks.

Quick start::

    import hopsim
    res = hopsim.run(hopsim.load("scenarios/chain7_udp.toml"), overrides={"topology.hops": 4})
    res.flows[0].goodput_kbps

The scenario keys and the result document are described in docs/interfaces.md.
"""

from __future__ import annotations

import json
import time
from collections.abc import Mapping
from os import PathLike
from pathlib import Path
from typing import Any

try:
    from . import _core
except ImportError as exc:  # pragma: no cover - only without a built extension
    raise ImportError(
        "hopsim's compiled core (hopsim._core) is missing: build it with `make demo` "
        "or `maturin develop --release` in the project's virtual environment"
    ) from exc

from ._core import ScenarioError
from .result import FlowResult, NodeResult, Record, Result, Totals
from .scenario import Overrides, apply_overrides, dumps_toml, load, to_json

__version__: str = _core.__version__

#: What :func:`run` and :func:`validate` accept as a scenario: a dict, or a path to a TOML file.
ScenarioLike = Mapping[str, Any] | str | PathLike[str]

__all__ = [
    "FlowResult",
    "NodeResult",
    "Overrides",
    "Record",
    "Result",
    "ScenarioError",
    "ScenarioLike",
    "Totals",
    "__version__",
    "apply_overrides",
    "dumps_toml",
    "load",
    "prepare",
    "run",
    "validate",
]


def prepare(
    scenario: ScenarioLike, overrides: Overrides | None = None, seed: int | None = None
) -> dict[str, Any]:
    """The scenario dict that would be sent to the core: loaded, overridden, seeded.

    ``scenario`` is a dict or a path to a TOML file; ``seed`` (if given) replaces the
    scenario's ``seed`` key after the overrides.
    """
    if isinstance(scenario, (str, PathLike)):
        doc = load(Path(scenario))
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


def run(
    scenario: ScenarioLike, overrides: Overrides | None = None, seed: int | None = None
) -> Result:
    """Run one simulation and return its :class:`Result`.

    Args:
        scenario: a scenario dict, or a path to a scenario TOML file.
        overrides: ``{"topology.hops": 7}`` or ``["topology.hops=7", ...]``
            (see :func:`apply_overrides`).
        seed: replaces the scenario's ``seed``.

    Raises:
        ScenarioError: the scenario (or an override) was rejected; the message names the key,
            the value and what is allowed.
        FileNotFoundError: ``scenario`` is a path that does not exist.
    """
    text = to_json(prepare(scenario, overrides, seed))
    t0 = time.perf_counter()
    out = _core.run_json(text)
    wall = time.perf_counter() - t0
    return Result.from_json(out, wall_time_s=wall)


def validate(
    scenario: ScenarioLike, overrides: Overrides | None = None, seed: int | None = None
) -> dict[str, Any]:
    """Validate a scenario without running it; return the fully resolved scenario.

    Raises:
        ScenarioError: the scenario (or an override) was rejected.
    """
    text = to_json(prepare(scenario, overrides, seed))
    resolved: dict[str, Any] = json.loads(_core.validate_json(text))
    return resolved
