"""What a worker process (local pool or Dask worker) does with one run.

Kept tiny and importable on its own: a Dask worker only needs ``hopsim`` installed. The
payload and outcome are plain dicts of strings and numbers, so they travel through pickle
and Dask's serialisation unchanged.
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
    (the run options: the budget) and ``"simulator": "ns2"`` to run it in ns-2.35 instead
    (:mod:`hopsim.crosscheck`). Errors propagate (the executor records them as failures, or
    Dask retries the task).
    """
    import json

    from .. import _core
    from .metrics import run_metrics

    t0 = time.perf_counter()
    if payload.get("simulator", "hopsim") == "ns2":
        from ..crosscheck.ns2run import run_ns2

        result = run_ns2(payload["scenario_json"])
        text = json.dumps(result)
    else:
        options = payload.get("options")
        text = _core.run_json(payload["scenario_json"], json.dumps(options) if options else None)
        result = json.loads(text)
    wall_s = time.perf_counter() - t0
    return {
        "result_json": text,
        "metrics": run_metrics(result, payload["metrics"]),
        "wall_s": wall_s,
        "host": socket.gethostname(),
        "violations": list(result.get("invariants", {}).get("violations", [])),
    }
