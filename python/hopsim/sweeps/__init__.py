"""Parameter sweeps: sweep files, the result store, local and Dask execution, statistics.

from hopsim.sweeps import load_sweep, run_sweep, summarize
spec = load_sweep("studies/chain.toml", quick=True)
run_sweep(spec, "results/chain", jobs=2)
for point in summarize("results/chain"):
    print(point.params, point.stats["goodput_kbps"].mean)
"""

from .lock import FolderBusy, FolderUnusable, folder_lock
from .metrics import check_metric_name, metric_value, run_metrics
from .runner import PointSummary, SweepInterrupted, SweepReport, run_sweep, summarize
from .spec import Point, RunTask, SweepSpec, derive_seed, load_sweep
from .stats import Summary, student_t_cdf, student_t_quantile, summarize_values
from .store import STORE_FILE, ResultStore, StoredRun, StoreError, StoreUnreadable, run_key

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
