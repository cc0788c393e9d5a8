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

__all__ = ["execute", "execute_shared", "ignore_sigint"]


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

    if "shared" in payload:
        return execute_shared(payload)
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


def execute_shared(payload: dict[str, Any]) -> dict[str, Any]:
    """A replication of a sweep sharing its warm-up (``shared.py``): the warm-up run once to
    ``at_s``, then each member a fork of it with its changes, run to the end.

    ``payload["shared"]``: ``{"scenario_json", "at_s", "members": [[key, [[kind, target,
    value], ...]], ...]}``. Returns ``{"runs": {key: outcome}}``, each outcome as
    :func:`execute`'s; a member's wall time is its own part plus an equal share of the
    warm-up.
    """
    import json

    from .._core import Simulation
    from .metrics import run_metrics

    job = payload["shared"]
    options = payload.get("options")
    t0 = time.perf_counter()
    base = Simulation(job["scenario_json"], json.dumps(options) if options else None)
    base.run_until(float(job["at_s"]))
    warmup_share = (time.perf_counter() - t0) / max(1, len(job["members"]))
    runs = {}
    for key, changes in job["members"]:
        t1 = time.perf_counter()
        sim = base.fork()
        for kind, target, value in changes:
            if kind == "window_limit":
                sim.set_window_limit(target, value)
            else:
                sim.set_queue_limit(target, value)
        sim.run_until(sim.end_s)
        text = sim.result_json()
        result = json.loads(text)
        runs[key] = {
            "result_json": text,
            "metrics": run_metrics(result, payload["metrics"]),
            "wall_s": time.perf_counter() - t1 + warmup_share,
            "host": socket.gethostname(),
            "violations": list(result.get("invariants", {}).get("violations", [])),
        }
    return {"runs": runs}
