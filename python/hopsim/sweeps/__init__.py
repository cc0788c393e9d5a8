"""Parameter sweeps: sweep files, the result store, local and Dask execution, statistics.

from hopsim.sweeps import load_sweep, run_sweep, summarize
spec = load_sweep("studies/chain.toml", quick=True)
run_sweep(spec, "results/chain", jobs=2)
for point in summarize("results/chain"):
    print(point.params, point.stats["goodput_kbps"].mean)
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

# Names are loaded on first use (PEP 562): the command line imports the error classes without
# paying for sqlite3, multiprocessing and the executors (`hopsim --help` stays fast).
_HOME = {
    "errors": ["FolderBusy", "FolderUnusable", "StoreError", "StoreUnreadable", "SweepInterrupted"],
    "lock": ["folder_lock"],
    "metrics": ["check_metric_name", "metric_value", "run_metrics"],
    "runner": ["PointSummary", "SweepReport", "run_sweep", "summarize"],
    "spec": ["Point", "RunTask", "SweepSpec", "derive_seed", "load_sweep"],
    "stats": ["Summary", "student_t_cdf", "student_t_quantile", "summarize_values"],
    "store": ["STORE_FILE", "ResultStore", "StoredRun", "run_key"],
}
_MODULE_OF = {name: module for module, names in _HOME.items() for name in names}

if TYPE_CHECKING:
    from .errors import FolderBusy, FolderUnusable, StoreError, StoreUnreadable, SweepInterrupted
    from .lock import folder_lock
    from .metrics import check_metric_name, metric_value, run_metrics
    from .runner import PointSummary, SweepReport, run_sweep, summarize
    from .spec import Point, RunTask, SweepSpec, derive_seed, load_sweep
    from .stats import Summary, student_t_cdf, student_t_quantile, summarize_values
    from .store import STORE_FILE, ResultStore, StoredRun, run_key


def __getattr__(name: str) -> Any:
    module = _MODULE_OF.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


__all__ = [
    "STORE_FILE",
    "FolderBusy",
    "FolderUnusable",
    "Point",
    "PointSummary",
    "ResultStore",
    "RunTask",
    "StoreError",
    "StoreUnreadable",
    "StoredRun",
    "Summary",
    "SweepInterrupted",
    "SweepReport",
    "SweepSpec",
    "check_metric_name",
    "derive_seed",
    "folder_lock",
    "load_sweep",
    "metric_value",
    "run_key",
    "run_metrics",
    "run_sweep",
    "student_t_cdf",
    "student_t_quantile",
    "summarize",
    "summarize_values",
]
