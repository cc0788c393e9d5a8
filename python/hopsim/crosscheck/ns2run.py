"""Running a hopsim scenario in ns-2.35 (Debian's ``ns2`` package, command ``ns``)."""

from __future__ import annotations

import functools
import json
import os
import shutil
import subprocess
import tempfile
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from .._core import ScenarioError
from ..sweeps.simulators import register_simulator
from .ns2trace import parse_run
from .translate import TRANSLATOR_VERSION, translate

__all__ = [
    "NS2",
    "NS2_PACKAGE",
    "Ns2Simulator",
    "Ns2Missing",
    "check_ns2_scenario",
    "find_ns",
    "layout_of",
    "ns2_script",
    "ns2_version",
    "run_ns2",
]

NS2_PACKAGE = "ns2"


class Ns2Missing(ScenarioError):
    """ns-2 is not installed (exit 2 on the CLI, with the package to install)."""


def find_ns() -> str:
    """The path of the ``ns`` command (``HOPSIM_NS`` may name another)."""
    name = os.environ.get("HOPSIM_NS", "ns")
    path = shutil.which(name)
    if path is None:
        raise Ns2Missing(
            f"ns-2 command {name!r} not found: install ns-2.35 with "
            f"`apt-get install {NS2_PACKAGE}` (Debian's package; the command is `ns`), or set "
            "HOPSIM_NS to its path"
        )
    return path


@functools.lru_cache(maxsize=1)
def ns2_version() -> str:
    """ns-2's own version (its Tcl ``ns-version``, e.g. ``2.35``; Debian's build prints
    nothing for ``ns -version``)."""
    with tempfile.TemporaryDirectory(prefix="hopsim-ns2-") as tmp:
        script = Path(tmp) / "version.tcl"
        script.write_text("puts [ns-version]\nexit 0\n")
        out = subprocess.run(
            [find_ns(), str(script)], capture_output=True, text=True, timeout=30, check=False
        )
    text = out.stdout.strip()
    return text.split()[-1] if text else "unknown"


def layout_of(resolved: dict[str, Any]) -> dict[str, Any]:
    """Node positions, moves and flows of a resolved scenario, drawn by the core."""
    from .. import _core

    return json.loads(_core.layout_json(json.dumps(resolved)))


def ns2_script(resolved: dict[str, Any], trace_path: str) -> str:
    """The Tcl script of a resolved scenario."""
    return translate(resolved, layout_of(resolved), trace_path)


def check_ns2_scenario(resolved: dict[str, Any]) -> None:
    """Raise before any run if the scenario cannot be run in ns-2 (or ns is missing)."""
    find_ns()
    translate(resolved, layout_of(resolved), "run.tr")


def run_ns2(scenario_json: str, timeout_s: float | None = None) -> dict[str, Any]:
    """Run the scenario in ns-2; the result document (hopsim's shape, the fields both have)
    with the Tcl script and ns-2's wall time under ``"ns2"``.

    Raises:
        ScenarioError: the scenario cannot be translated (Untranslatable) or ns is missing.
        RuntimeError: ns-2 failed (its last output lines quoted).
    """
    from .. import _core

    resolved = json.loads(_core.validate_json(scenario_json))
    ns = find_ns()
    with tempfile.TemporaryDirectory(prefix="hopsim-ns2-") as tmp:
        trace = Path(tmp) / "run.tr"
        layout = layout_of(resolved)
        script = translate(resolved, layout, str(trace))
        (Path(tmp) / "run.tcl").write_text(script)
        t0 = time.perf_counter()
        proc = subprocess.run(
            [ns, "run.tcl"],
            cwd=tmp,
            capture_output=True,
            text=True,
            timeout=timeout_s,
            check=False,
        )
        wall_s = time.perf_counter() - t0
        if proc.returncode != 0 or "HOPSIM end" not in proc.stdout:
            tail = "\n".join((proc.stdout + proc.stderr).strip().splitlines()[-8:])
            raise RuntimeError(f"ns-2 failed (exit {proc.returncode}):\n{tail}")
        with trace.open() as fh:
            doc = parse_run(
                fh,
                proc.stdout,
                layout["flows"],
                float(resolved["warmup_s"]),
                float(resolved["duration_s"]),
            )
    doc["seed"] = resolved["seed"]
    doc["scenario"] = resolved
    doc["simulator"] = "ns2"
    doc["ns2"]["wall_s"] = wall_s
    doc["ns2"]["script"] = script
    doc["invariants"] = {"violations": [], "violation_count": 0}
    return doc


class Ns2Simulator:
    """ns-2.35 as a sweep's simulator (:class:`hopsim.sweeps.simulators.Simulator`)."""

    name = "ns2"
    takes_budget = False  # the budget is hopsim's core's; ns-2 has none

    def key_document(self, resolved: dict[str, Any]) -> dict[str, Any]:
        # ns-2's runs do not depend on hopsim's profile; the key holds ns-2's version and
        # the translator's (hopsim's version is added by the store).
        check_ns2_scenario(resolved)
        return {
            "simulator": self.name,
            "ns2_version": ns2_version(),
            "translator": TRANSLATOR_VERSION,
            "scenario": {k: v for k, v in resolved.items() if k != "profile"},
        }

    def run(self, scenario_json: str, options: Mapping[str, Any] | None) -> str:
        return json.dumps(run_ns2(scenario_json))


NS2 = Ns2Simulator()
register_simulator(NS2)
