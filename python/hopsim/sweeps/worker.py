"""What a worker process (local pool or Dask worker) does with one run.

Kept tiny and importable on its own: a Dask worker only needs ``hopsim`` installed. The
payload and outcome are plain dicts of strings and numbers (and, for a simulator other than
hopsim's engine, the simulator object, which pickle sends by reference to its class), so
they travel through pickle and Dask's serialisation unchanged.
"""

from __future__ import annotations

import signal
import socket
import time
from typing import Any

__all__ = ["execute", "ignore_sigint"]


def ignore_sigint() -> None:
    """Pool initialiser: Ctrl-C is the parent's to handle (it stops the pool cleanly)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def execute(payload: dict[str, Any]) -> dict[str, Any]:
    """Run one scenario; return its result JSON, metrics, wall time and host.

    ``payload``: ``{"scenario_json": str, "metrics": [names]}``, optionally ``"options"``
    (the run options: the budget) and ``"simulator"``: a
    :class:`~hopsim.sweeps.simulators.Simulator` to run it in instead of hopsim's engine
    (ns-2.35: :mod:`hopsim.crosscheck.ns2run`). Errors propagate (the executor records them
    as failures, or Dask retries the task).
    """
    import json

    from .metrics import run_metrics
    from .simulators import HOPSIM

    t0 = time.perf_counter()
    simulator = payload.get("simulator") or HOPSIM
    text = simulator.run(payload["scenario_json"], payload.get("options"))
    result = json.loads(text)
    wall_s = time.perf_counter() - t0
    return {
        "result_json": text,
        "metrics": run_metrics(result, payload["metrics"]),
        "wall_s": wall_s,
        "host": socket.gethostname(),
        "violations": list(result.get("invariants", {}).get("violations", [])),
    }
