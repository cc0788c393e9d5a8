"""A sweep's results for analysis: data frames (pandas or polars) and xarray Datasets.

    import hopsim
    flows = hopsim.results("results/chain")                  # one row per flow per run
    runs = hopsim.results("results/chain", per="run", backend="polars")
    ds = hopsim.results_dataset("results/chain")             # metric[swept keys..., replication]
    ds["goodput_kbps"].mean("replication").sel({"topology.hops": 4})

The tables are those of ``hopsim results DIR --parquet`` (hopsim.sweeps.export); pandas,
polars and xarray come with ``pip install 'hopsim[analysis]'``.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from os import PathLike
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:  # pragma: no cover
    import xarray

    from .store import ResultStore

__all__ = ["results", "results_dataset"]

PER = ("flow", "run")
BACKENDS = ("pandas", "polars")


def _require(module: str, what: str) -> Any:
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise ImportError(
            f"{what} needs {module}, which is not installed: pip install 'hopsim[analysis]'"
        ) from exc


def _check_sweep(store: ResultStore, sweep: str | None) -> None:
    from .._core import ScenarioError

    names = list(store.sweeps())
    if sweep is not None and sweep not in names:
        raise ScenarioError(
            f"sweep {sweep!r}: not in {str(store.path)!r}; sweeps: {', '.join(names) or 'none'}"
        )


def results(
    folder: str | PathLike[str],
    sweep: str | None = None,
    per: Literal["flow", "run"] = "flow",
    backend: Literal["pandas", "polars"] = "pandas",
) -> Any:
    """The result store in ``folder`` as a DataFrame (pandas by default, or polars).

    ``per="flow"``: one row per flow per run (run_id, sweep, point, replication, seed, wall_s,
    hopsim_version, the swept keys, the flow's fields, ``totals.*``); ``per="run"``: one row
    per run (the same run columns, the sweep's metrics and ``totals.*``). Only sweep
    ``sweep`` if given, else every sweep in the store. Column types as in
    :func:`hopsim.sweeps.export.flow_table`; with pandas, integer columns with nulls (the TCP
    fields of UDP flows) become float64 with NaN and list columns hold arrays, as with
    ``pandas.read_parquet``.

    Raises:
        ValueError: ``per`` or ``backend`` is not one of the choices.
        ScenarioError: ``sweep`` is not in the store.
        FileNotFoundError: ``folder`` holds no result store.
        ImportError: pandas / polars is not installed.
    """
    if per not in PER:
        raise ValueError(f"per={per!r}: choose one of {', '.join(map(repr, PER))}")
    if backend not in BACKENDS:
        raise ValueError(f"backend={backend!r}: choose one of {', '.join(map(repr, BACKENDS))}")
    # Imported before the store is read: a missing library fails at once.
    lib = _require(backend, f"hopsim.results(backend={backend!r})")
    from .export import flow_table, run_table
    from .store import ResultStore

    with ResultStore(folder, create=False) as store:
        _check_sweep(store, sweep)
        table = flow_table(store, sweep) if per == "flow" else run_table(store, sweep)
    if backend == "polars":
        return lib.from_arrow(table)
    return table.to_pandas()


def results_dataset(
    folder: str | PathLike[str],
    sweep: str | None = None,
    metrics: Sequence[str] | None = None,
) -> xarray.Dataset:
    """A sweep's per-run metrics as an ``xarray.Dataset``: one variable per metric (float64,
    NaN where a run is missing or has no value), one dimension per swept key and a
    ``replication`` dimension.

    The keys of a zip group share one dimension, named after the group's first key (whose
    values index it); the group's other keys are coordinates along it. ``seed`` is a
    coordinate along ``replication``. ``sweep`` may be left out when the store holds one
    sweep; ``metrics`` defaults to the sweep's (others are computed from the stored result
    documents, as :func:`hopsim.sweeps.summarize` does).

    Raises:
        ScenarioError: no such sweep, several sweeps and none named, or an unknown metric.
        FileNotFoundError: ``folder`` holds no result store.
        StoreError: a run's parameters do not match its place in the sweep.
        ImportError: xarray is not installed.
    """
    xr = _require("xarray", "hopsim.results_dataset")
    import numpy as np

    from .._core import ScenarioError
    from .export import metric_values, swept_array
    from .metrics import check_metric_name
    from .spec import derive_seed
    from .store import ResultStore, StoreError

    with ResultStore(folder, create=False) as store:
        _check_sweep(store, sweep)
        sweeps = store.sweeps()
        if sweep is None:
            if len(sweeps) != 1:
                raise ScenarioError(
                    f"the store holds {len(sweeps)} sweeps ({', '.join(sweeps) or 'none'}); "
                    "name one (sweep=...)"
                )
            sweep = next(iter(sweeps))
        spec = sweeps[sweep]["spec"]
        names = list(dict.fromkeys(spec["metrics"] if metrics is None else metrics))
        for name in names:
            check_metric_name(name)
        axes: list[list[str]] = spec["axes"]
        values: dict[str, list[Any]] = spec["values"]
        runs = store.runs(sweep)
        shape = tuple(len(values[axis[0]]) for axis in axes)
        # --until-ci adds replications beyond the sweep's own.
        reps = max([spec["replications"], *(r.replication + 1 for r in runs)])
        data = {name: np.full((*shape, reps), np.nan) for name in names}
        for run in runs:
            # Points are numbered in the order of the product of the axes (SweepSpec).
            where = tuple(int(i) for i in np.unravel_index(run.point, shape)) if shape else ()
            for axis, i in zip(axes, where, strict=True):
                if any(run.params.get(key) != values[key][i] for key in axis):
                    raise StoreError(
                        f"run {run.run_key[:12]} of sweep {sweep!r}: its parameters "
                        f"{run.params} do not match point {run.point} of the sweep's definition"
                    )
            for name, value in metric_values(store, run, names).items():
                if value is not None:
                    data[name][(*where, run.replication)] = value
    dims = [axis[0] for axis in axes] + ["replication"]
    coords: dict[str, Any] = {
        key: (axis[0], swept_array(values[key])) for axis in axes for key in axis
    }
    coords["replication"] = np.arange(reps)
    coords["seed"] = ("replication", np.array([derive_seed(spec["seed"], r) for r in range(reps)]))
    return xr.Dataset(
        {name: (dims, array) for name, array in data.items()},
        coords=coords,
        attrs={"sweep": sweep, "digest": sweeps[sweep]["digest"]},
    )
