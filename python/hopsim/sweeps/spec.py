"""Sweep files: a base scenario, parameter lists, replications, metrics.

A sweep file is TOML::

    name = "chain-cwl"                 # optional; names the figures and the summary
    base = "../scenarios/chain-tcp.toml"  # a scenario file (relative to this file), or
    # [scenario] ...                   # the base scenario inline, as in a scenario file
    replications = 3                   # runs per point, seeds derived from `seed`
    seed = 1                           # base seed of the replications (default 1)
    metrics = ["goodput_kbps", "retransmissions", "mean:avg_cwnd"]
    set = { "tcp.variant" = "vegas" }  # fixed overrides of the base (not swept)

    [sweep]                            # cartesian product of these lists
    "topology.hops" = [1, 2, 4, 8]
    "tcp.max_window" = [0, 2, 4]

    [[sweep.zip]]                      # a group of lists that vary together (equal lengths)
    "mac.data_rate_mbps" = [2.0, 5.5, 11.0]
    "flows.0.interval_s" = [0.05, 0.02, 0.01]

    [quick]                            # what --quick changes (all optional)
    replications = 1
    set = { duration_s = 30.0 }        # overrides of the base scenario
    sweep = { "topology.hops" = [1, 4] }   # replaces lists of [sweep] / [[sweep.zip]]

Keys are dotted scenario paths, list elements by index (``flows.0.interval_s``). A point is
one combination of values; its runs are its replications. Replication ``r`` of every point
gets the same seed (common random numbers: two points differ only in what was swept).
"""

from __future__ import annotations

import copy
import hashlib
import itertools
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from os import PathLike
from pathlib import Path
from typing import Any

from .._core import ScenarioError
from ..limits import check_depth
from ..scenario import SWEEP_ONLY_KEYS, apply_overrides, read_toml, scenario_from_doc
from . import shared
from .checks import (
    check_flow_metrics,
    check_key,
    check_key_path,
    check_repeats,
    check_same_runs,
    flow_count,
)
from .metrics import check_metric_name

__all__ = [
    "Point",
    "RunTask",
    "SweepSpec",
    "check_name",
    "derive_seed",
    "load_sweep",
    "name_from_file",
]

TOP_KEYS = {"name", "base", "scenario", "set", "replications", "seed", "metrics", "sweep"}
TOP_KEYS |= {"quick", shared.KEY}
QUICK_KEYS = {"replications", "set", "sweep"}
DEFAULT_METRICS = ("goodput_kbps",)
#: The run options a sweep passes to every run (hopsim.run_options).
BUDGET_KEYS = {"max_events", "max_memory_mb"}
MAX_REPLICATIONS = 100_000


def derive_seed(base_seed: int, replication: int) -> int:
    """The seed of replication ``replication``: a 63-bit hash of (base seed, index).

    Hashing (not ``base + r``) keeps the replications of two sweeps with neighbouring base
    seeds from sharing runs.
    """
    digest = hashlib.sha256(f"hopsim-replication:{base_seed}:{replication}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


@dataclass(frozen=True)
class Point:
    """One combination of swept values (``params``: dotted key -> value, in sweep order)."""

    index: int
    params: dict[str, Any]

    @property
    def label(self) -> str:
        return ", ".join(f"{k}={v}" for k, v in self.params.items()) or "(base)"


@dataclass(frozen=True)
class RunTask:
    """Everything a worker needs for one run: a complete scenario with its seed."""

    point: int
    replication: int
    seed: int
    params: dict[str, Any]
    scenario: dict[str, Any]
    metrics: tuple[str, ...]
    simulator: str = "hopsim"


@dataclass
class SweepSpec:
    """A parsed, validated sweep (see the module docs for the file format)."""

    name: str
    base: dict[str, Any]
    axes: list[list[str]]  # each axis: the keys that vary together (1 for a plain list)
    values: dict[str, list[Any]]
    replications: int
    seed: int
    metrics: tuple[str, ...]
    source: str = "<dict>"
    quick: bool = False
    points: list[Point] = field(default_factory=list)
    #: "hopsim", or "ns2" for the same runs in ns-2.35 (``hopsim crosscheck``).
    simulator: str = "hopsim"
    #: The budget of each run (``max_events``, ``max_memory_mb``): how to run, not what,
    #: so neither the digest nor the run keys include it (it never changes a result).
    budget: dict[str, Any] = field(default_factory=dict)
    #: The number of flows of each point's runs (filled in by validation), for flowN metrics.
    flow_counts: list[int] = field(default_factory=list)
    #: Each replication's points fork from one warm-up run paused here (``shared.py``).
    shared_warmup_s: float | None = None

    def __post_init__(self) -> None:
        if not self.points:
            self.points = list(_expand(self.axes, self.values))

    @property
    def swept_keys(self) -> list[str]:
        return [k for axis in self.axes for k in axis]

    def task(self, point: Point, replication: int) -> RunTask:
        seed = derive_seed(self.seed, replication)
        scenario = apply_overrides(self.base, point.params)
        scenario["seed"] = seed
        return RunTask(
            point.index,
            replication,
            seed,
            dict(point.params),
            scenario,
            self.metrics,
            self.simulator,
        )

    def tasks(self, replications: range | None = None) -> list[RunTask]:
        reps = replications if replications is not None else range(self.replications)
        return [self.task(p, r) for p in self.points for r in reps]

    def digest(self) -> str:
        """A short hash of what defines the sweep's runs: base scenario, lists, seed.

        Replications and metrics are left out: adding replications (``--until-ci``) or
        another metric does not make it a different sweep.
        """
        doc = {"base": self.base, "axes": self.axes, "values": self.values, "seed": self.seed}
        if self.simulator != "hopsim":
            doc["simulator"] = self.simulator
        if self.shared_warmup_s is not None:
            doc[shared.KEY] = self.shared_warmup_s
        return hashlib.sha256(json.dumps(doc, sort_keys=True).encode()).hexdigest()[:16]

    def to_doc(self) -> dict[str, Any]:
        """The sweep as plain data, as the store keeps it."""
        return {
            "name": self.name,
            "source": self.source,
            "quick": self.quick,
            "axes": self.axes,
            "values": self.values,
            "replications": self.replications,
            "seed": self.seed,
            "metrics": list(self.metrics),
            "base": self.base,
            "simulator": self.simulator,
            shared.KEY: self.shared_warmup_s,
        }


def _expand(axes: list[list[str]], values: dict[str, list[Any]]) -> list[Point]:
    ranges = [range(len(values[axis[0]])) for axis in axes]
    points = []
    for index, combo in enumerate(itertools.product(*ranges)):
        params: dict[str, Any] = {}
        for axis, i in zip(axes, combo, strict=False):
            for key in axis:
                params[key] = copy.deepcopy(values[key][i])
        points.append(Point(index, params))
    return points


def _flatten(table: Mapping[str, Any], prefix: str, where: str) -> dict[str, Any]:
    """``{"topology": {"hops": [1, 2]}}`` -> ``{"topology.hops": [1, 2]}``."""
    flat: dict[str, Any] = {}
    for key, value in table.items():
        path = f"{prefix}.{key}" if prefix else key
        if isinstance(value, Mapping):
            if not value:
                raise ScenarioError(f"{where}.{path}: an empty table; give lists of values")
            flat.update(_flatten(value, path, where))
        else:
            check_key(where, path)
            flat[path] = value
    return flat


def _check_list(where: str, key: str, value: Any) -> list[Any]:
    if not isinstance(value, list):
        raise ScenarioError(
            f'{where} "{key}" = {value!r}: not allowed, a swept key takes a list of values '
            f'(e.g. "{key}" = [{value!r}])'
        )
    if not value:
        raise ScenarioError(f'{where} "{key}" = []: the list is empty; give at least one value')
    return value


def _parse_sweep_table(table: Any, where: str) -> tuple[list[list[str]], dict[str, list[Any]]]:
    if not isinstance(table, Mapping):
        raise ScenarioError(f"{where} = {table!r}: not allowed, it must be a table")
    axes: list[list[str]] = []
    values: dict[str, list[Any]] = {}
    groups = table.get("zip", [])
    plain = {k: v for k, v in table.items() if k != "zip"}
    for key, value in _flatten(plain, "", where).items():
        values[key] = _check_list(where, key, value)
        axes.append([key])
    if isinstance(groups, Mapping):
        groups = [groups]
    if not isinstance(groups, list):
        raise ScenarioError(f"{where}.zip = {groups!r}: not allowed, use [[sweep.zip]] tables")
    for n, group in enumerate(groups):
        gwhere = f"{where}.zip[{n}]"
        if not isinstance(group, Mapping) or not group:
            raise ScenarioError(f"{gwhere}: must be a non-empty table of equal-length lists")
        keys = []
        for key, value in _flatten(group, "", gwhere).items():
            if key in values:
                raise ScenarioError(f'{gwhere} "{key}": the key is swept twice')
            values[key] = _check_list(gwhere, key, value)
            keys.append(key)
        lengths = {k: len(values[k]) for k in keys}
        if len(set(lengths.values())) > 1:
            shown = ", ".join(f"{k}: {n}" for k, n in lengths.items())
            raise ScenarioError(
                f"{gwhere}: the lists of a zip group must be equally long ({shown})"
            )
        axes.append(keys)
    return axes, values


def check_count_option(option: str, value: Any, what: str) -> None:
    """A command-line count of runs (``--max-replications``, crosscheck's ``--replications``):
    an integer 1..MAX_REPLICATIONS (a huge one built its task list for minutes)."""
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_REPLICATIONS:
        raise ScenarioError(
            f"{option} {value!r}: not allowed, give a number of {what} 1..{MAX_REPLICATIONS}"
        )


def _positive_int(where: str, value: Any, upper: int = MAX_REPLICATIONS) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= upper:
        raise ScenarioError(f"{where} = {value!r}: not allowed, it must be an integer 1..{upper}")
    return value


def load_sweep(
    source: str | PathLike[str] | Mapping[str, Any],
    quick: bool = False,
    budget: Mapping[str, Any] | None = None,
) -> SweepSpec:
    """Read and validate a sweep file (or dict); ``quick`` applies its ``[quick]`` table.

    Every point's scenario is validated by the core here, against ``budget`` (run options
    ``max_events``, ``max_memory_mb``; default: the default budget), so a bad key or value,
    or a point too big to run, fails before any run, with a message naming the key.

    Raises:
        ScenarioError: the sweep or one of its points was rejected.
        FileNotFoundError: the sweep file or its base scenario does not exist.
    """
    base_dir = Path.cwd()
    where = "<sweep>"
    if isinstance(source, Mapping):
        check_depth(source, "sweep")  # before deepcopy, which recurses
        doc = copy.deepcopy(dict(source))
    else:
        path = Path(source)
        where = str(path)
        if path.is_dir():
            raise ScenarioError(f"{path}: is a directory, not a sweep file")
        doc = read_toml(path, "sweep file")
        base_dir = path.parent
    unknown = sorted(set(doc) - TOP_KEYS)
    if unknown:
        raise ScenarioError(
            f"{where}: unknown key {unknown[0]!r} at the top of the sweep file; allowed: "
            f"{', '.join(sorted(TOP_KEYS))} (scenario keys go under [scenario] or in `base`)"
        )
    base = _load_base(doc, base_dir, where)
    fixed = doc.get("set", {})
    if not isinstance(fixed, Mapping):
        raise ScenarioError(f"set = {fixed!r}: must be a table of key = value (fixed overrides)")
    base = apply_overrides(base, _flatten(fixed, "", "set"))
    if "sweep" not in doc:
        axes: list[list[str]] = []
        values: dict[str, list[Any]] = {}
    else:
        axes, values = _parse_sweep_table(doc["sweep"], "sweep")
    replications = _positive_int("replications", doc.get("replications", 1))
    seed = doc.get("seed", 1)
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**64:
        raise ScenarioError(f"seed = {seed!r}: not allowed, it must be an integer 0..2^64-1")
    metrics = doc.get("metrics", list(DEFAULT_METRICS))
    if isinstance(metrics, str):
        raise ScenarioError(
            f"metrics = {metrics!r}: not allowed, it must be a list of metric names "
            f"(e.g. metrics = [{json.dumps(metrics)}])"
        )
    if not isinstance(metrics, list) or not metrics:
        raise ScenarioError(f"metrics = {metrics!r}: give a non-empty list of metric names")
    for m in metrics:
        if not isinstance(m, str):
            raise ScenarioError(f"metrics: {m!r} is not allowed, a metric name is a string")
        check_metric_name(m)
    for key in _flatten(fixed, "", "set"):
        if key in values:
            raise ScenarioError(
                f'set "{key}": the key is also swept; keep it in one place ([sweep] or set)'
            )
    if "quick" in doc:
        # Checked in full mode too, so a typo in [quick] does not wait for the CI run.
        quick_parts = _apply_quick(doc["quick"], base, values, replications)
        if quick:
            base, values, replications = quick_parts
    if "name" in doc:
        name = check_name(doc["name"])
    else:
        name = name_from_file(where) if where != "<sweep>" else "sweep"
    budget = dict(budget or {})
    unknown_budget = sorted(set(budget) - BUDGET_KEYS)
    if unknown_budget:
        raise ScenarioError(
            f"budget: unknown option {unknown_budget[0]!r}; allowed: "
            f"{', '.join(sorted(BUDGET_KEYS))}"
        )
    spec = SweepSpec(
        name=name,
        base=base,
        axes=axes,
        values=values,
        replications=replications,
        seed=seed,
        metrics=tuple(dict.fromkeys(metrics)),
        source=where,
        quick=quick,
        budget=budget,
        shared_warmup_s=shared.check_setting(doc.get(shared.KEY)),
    )
    _validate_points(spec)
    return spec


#: A sweep name becomes part of file names (results/<name>, figures/<name>-...): letters,
#: digits and ``._+=,-``, not starting with a dot or dash (crosscheck's own sweeps append
#: ``@ns2`` and ``@hopsim-PROFILE``).
_NAME_RE = re.compile(r"[A-Za-z0-9_+=,][A-Za-z0-9._+=,-]*")
MAX_NAME_CHARS = 100


def name_from_file(path: str | PathLike[str]) -> str:
    """The default sweep name: the file's stem, if it is an allowed name."""
    name = Path(path).stem
    try:
        return check_name(name)
    except ScenarioError:
        raise ScenarioError(
            f"{str(path)}: the sweep's name would be the file's name {name!r}, which is not "
            "allowed (a name is letters, digits and ._+=,-); rename the file, or in a sweep "
            'file give name = "..."'
        ) from None


def check_name(name: Any) -> str:
    """A sweep name that is safe as a file name (no ``/``, ``..``, spaces, control chars)."""
    if not isinstance(name, str) or len(name) > MAX_NAME_CHARS or not _NAME_RE.fullmatch(name):
        raise ScenarioError(
            f"name = {name!r}: not allowed, a sweep name is 1..{MAX_NAME_CHARS} letters, "
            "digits and ._+=,- (not starting with . or -), since it names files and folders "
            '(e.g. name = "chain-cwl")'
        )
    return name


def _load_base(doc: Mapping[str, Any], base_dir: Path, where: str) -> dict[str, Any]:
    if ("base" in doc) == ("scenario" in doc):
        raise ScenarioError(
            f'{where}: give the base scenario either as `base = "file.toml"` or as an '
            "inline [scenario] table (exactly one of them)"
        )
    if "scenario" in doc:
        if not isinstance(doc["scenario"], Mapping):
            raise ScenarioError("scenario: must be a table (the base scenario)")
        return copy.deepcopy(dict(doc["scenario"]))
    base = doc["base"]
    if not isinstance(base, str) or not base:
        raise ScenarioError(f"base = {base!r}: not allowed, it must be a scenario file path")
    path = Path(base)
    if not path.is_absolute():
        path = base_dir / path
    if not path.exists():
        raise FileNotFoundError(f"base = {base!r}: scenario file {str(path)!r} not found")
    if path.is_dir():
        raise ScenarioError(f"base = {base!r}: {str(path)!r} is a directory, not a scenario file")
    doc = read_toml(path)
    sweep_keys = sorted(SWEEP_ONLY_KEYS & set(doc))
    if sweep_keys:
        raise ScenarioError(
            f"base = {base!r}: {str(path)!r} is a sweep file (it has "
            f"{', '.join(repr(k) for k in sweep_keys)}), not a scenario; a sweep's base must "
            "be a scenario file (or the scenario inline as a [scenario] table)"
        )
    return scenario_from_doc(doc, path)


def _apply_quick(
    quick: Any, base: dict[str, Any], values: dict[str, list[Any]], replications: int
) -> tuple[dict[str, Any], dict[str, list[Any]], int]:
    if not isinstance(quick, Mapping):
        raise ScenarioError(f"quick = {quick!r}: not allowed, it must be a table")
    unknown = sorted(set(quick) - QUICK_KEYS)
    if unknown:
        raise ScenarioError(
            f"quick: unknown key {unknown[0]!r}; allowed: {', '.join(sorted(QUICK_KEYS))}"
        )
    replications = _positive_int("quick.replications", quick.get("replications", replications))
    overrides = quick.get("set", {})
    if not isinstance(overrides, Mapping):
        raise ScenarioError(f"quick.set = {overrides!r}: must be a table of key = value")
    base = apply_overrides(base, _flatten(overrides, "", "quick.set"))
    lists = quick.get("sweep", {})
    if not isinstance(lists, Mapping):
        raise ScenarioError(f"quick.sweep = {lists!r}: must be a table of key = [values]")
    values = dict(values)
    for key, value in _flatten(lists, "", "quick.sweep").items():
        if key not in values:
            raise ScenarioError(
                f'quick.sweep "{key}": not a swept key; swept: {", ".join(values) or "none"}'
            )
        values[key] = _check_list("quick.sweep", key, value)
    return base, values, replications


def _validate_points(spec: SweepSpec) -> None:
    from ..api import validate

    for key in spec.swept_keys:
        check_key_path(spec.base, key)
    for axis in spec.axes:
        lengths = {len(spec.values[k]) for k in axis}
        if len(lengths) > 1:
            raise ScenarioError(f"zip group {axis}: the lists must be equally long")
    check_repeats(spec.axes, spec.values)
    resolved = []
    for point in spec.points:
        task = spec.task(point, 0)
        try:
            resolved.append(validate(task.scenario, **spec.budget))
        except ScenarioError as exc:
            raise ScenarioError(f"sweep point {point.label}: {exc}") from None
        spec.flow_counts.append(flow_count(resolved[-1]))
        check_flow_metrics(spec.metrics, point.label, spec.flow_counts[-1])
    check_same_runs([p.label for p in spec.points], resolved)
    if spec.shared_warmup_s is not None:
        base = validate(dict(spec.base, seed=derive_seed(spec.seed, 0)), **spec.budget)
        points = [(p.label, r) for p, r in zip(spec.points, resolved, strict=True)]
        shared.check_spec(base, points, spec.shared_warmup_s, spec.simulator)
