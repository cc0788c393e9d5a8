"""ns-2.35's answers, shipped: the reference results of every ns-2 study of the catalogue.

A study's file (``ns2ref/<study>.json.gz``) holds, per mode (quick, full) and per sweep, the
per-replication metrics of every point ns-2.35 ran and the parts of each result document the
study's analysis reads (flows, scalar node counters, totals), with what ns-2.35 could not
express. It names ns-2's version, the translator's, hopsim's and the date it was made.

Each sweep's entry carries a fingerprint of the runs it answers: every run's resolved scenario
(hopsim's ``profile`` left out: ns-2.35 does not depend on it) and the translator's version.
A sweep whose runs changed no longer matches its reference: it is not used (the claims
needing it get no ns-2.35 column, with a note), and ``tests/test_ns2_reference.py`` fails
until the reference is made again:

    hopsim reproduce NAME --ns2 --write-reference [--quick]
"""

from __future__ import annotations

import datetime as _dt
import gzip
import hashlib
import io
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .._core import ScenarioError
from ..limits import check_text_depth, read_limited
from ..output import OutputUnwritable, reason
from ..sweeps import ResultStore, SweepSpec
from .ns2side import Ns2Side, resolved_tasks

__all__ = [
    "FORMAT",
    "REF_DIR",
    "RefFailure",
    "RefSweep",
    "Reference",
    "failure_note",
    "fingerprint",
    "import_reference",
    "load_reference",
    "ns2_failures",
    "reference_path",
    "write_reference",
]

REF_DIR = Path(__file__).parent / "ns2ref"
#: The most a reference file may hold uncompressed (the four studies' full mode: a few MB).
MAX_REFERENCE_BYTES = 64 * 1024 * 1024
#: The file layout's version (a reader refuses others by name).
FORMAT = 1
MODES = ("quick", "full")


def reference_path(study: str) -> Path:
    return REF_DIR / f"{study}.json.gz"


def fingerprint(spec: SweepSpec) -> str:
    """What a sweep's reference must match: its runs' resolved scenarios, without hopsim's
    profile, and the translator's version."""
    from ..crosscheck.translate import TRANSLATOR_VERSION

    h = hashlib.sha256(f"translator {TRANSLATOR_VERSION}\n".encode())
    for point, replication, _, resolved in resolved_tasks(spec):
        doc = {k: v for k, v in resolved.items() if k != "profile"}
        h.update(json.dumps([point, replication, doc], sort_keys=True).encode())
    return h.hexdigest()[:24]


@dataclass(frozen=True)
class RefRun:
    point: int
    replication: int
    seed: int
    metrics: dict[str, Any]
    doc: dict[str, Any]


@dataclass(frozen=True)
class RefFailure:
    """A run ns-2.35 itself could not finish (it stopped with an error of its own)."""

    point: int
    replication: int
    seed: int
    error: str  # ns-2's last line


@dataclass(frozen=True)
class RefSweep:
    fingerprint: str
    skipped: list[tuple[dict[str, Any], str]]
    runs: list[RefRun]
    failed: list[RefFailure] = field(default_factory=list)


@dataclass
class Reference:
    study: str
    ns2_version: str
    translator: int
    hopsim_version: str
    generated: str  # ISO date
    modes: dict[str, dict[str, RefSweep]]  # mode -> sweep name -> its runs

    def source(self) -> str:
        return (
            f"reference results shipped with hopsim (ns-2 {self.ns2_version}, translator "
            f"{self.translator}, made {self.generated} with hopsim {self.hopsim_version})"
        )


def _trim(doc: dict[str, Any]) -> dict[str, Any]:
    """What a study's analysis reads of a result document: the flows, the nodes' scalar
    counters and the totals (not the script, traces or scenario)."""
    nodes = [
        {k: v for k, v in n.items() if isinstance(v, int | float | str | None)}
        for n in doc.get("nodes", [])
    ]
    return {"flows": doc.get("flows", []), "nodes": nodes, "totals": doc.get("totals", {})}


def _bad(path: Path, why: str) -> ScenarioError:
    return ScenarioError(
        f"ns-2.35 reference results {str(path)!r}: {why} (regenerate them with "
        "`hopsim reproduce NAME --ns2 --write-reference`)"
    )


def load_reference(study: str, path: Path | None = None) -> Reference | None:
    """The study's shipped reference, or None when it has none.

    Raises:
        ScenarioError: the file is unreadable or of another format.
    """
    path = path or reference_path(study)
    if not path.is_file():
        return None
    try:
        with gzip.open(io.BytesIO(read_limited(path, "reference file"))) as fh:
            text = fh.read(MAX_REFERENCE_BYTES + 1)
        if len(text) > MAX_REFERENCE_BYTES:
            raise _bad(path, f"more than {MAX_REFERENCE_BYTES >> 20} MiB uncompressed")
        check_text_depth(text.decode(), str(path))
        raw = json.loads(text)
    except (OSError, EOFError, ValueError) as exc:
        raise _bad(path, f"unreadable ({exc})") from exc
    if not isinstance(raw, dict) or raw.get("format") != FORMAT:
        got = raw.get("format") if isinstance(raw, dict) else type(raw).__name__
        raise _bad(path, f"format {got!r}, this hopsim reads format {FORMAT}")
    try:
        modes = {
            mode: {
                name: RefSweep(
                    s["fingerprint"],
                    [(dict(p), str(r)) for p, r in s["skipped"]],
                    [RefRun(*r) for r in s["runs"]],
                    [RefFailure(*f) for f in s.get("failed", [])],
                )
                for name, s in sweeps.items()
            }
            for mode, sweeps in raw["modes"].items()
        }
        return Reference(
            raw["study"],
            raw["ns2_version"],
            int(raw["translator"]),
            raw["hopsim_version"],
            raw["generated"],
            modes,
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise _bad(path, f"malformed ({exc!r})") from exc


def _save(ref: Reference, path: Path) -> None:
    doc = {
        "format": FORMAT,
        "study": ref.study,
        "ns2_version": ref.ns2_version,
        "translator": ref.translator,
        "hopsim_version": ref.hopsim_version,
        "generated": ref.generated,
        "modes": {
            mode: {
                name: {
                    "fingerprint": s.fingerprint,
                    "skipped": [[p, r] for p, r in s.skipped],
                    "runs": [[r.point, r.replication, r.seed, r.metrics, r.doc] for r in s.runs],
                    **(
                        {"failed": [[f.point, f.replication, f.seed, f.error] for f in s.failed]}
                        if s.failed
                        else {}
                    ),
                }
                for name, s in sorted(sweeps.items())
            }
            for mode, sweeps in sorted(ref.modes.items())
        },
    }
    text = json.dumps(doc, sort_keys=True, separators=(",", ":"), allow_nan=False)
    tmp = path.with_suffix(".tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        # mtime 0: the same runs give the same bytes.
        tmp.write_bytes(gzip.compress(text.encode(), compresslevel=9, mtime=0))
        tmp.replace(path)  # all or nothing: a reader never meets half a reference
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        raise OutputUnwritable(
            exc.errno,
            f"cannot write the ns-2.35 reference {str(path)!r}: {reason(exc)}; it is left as "
            "it was, and the live runs stay in their store: run the same command again once "
            "it can be written",
        ) from exc


#: How a run ends when ns-2.35 itself stops with an error (crosscheck/ns2run.py `run_ns2`).
NS2_FAILED = "RuntimeError: ns-2 failed"


def ns2_failures(store: ResultStore, spec: SweepSpec) -> list[RefFailure]:
    """The runs of ``spec`` that ns-2.35 itself could not finish (not timeouts or errors of
    hopsim's), with ns-2's last line; every rerun fails the same way (same script, seed)."""
    index = {json.dumps(p.params, sort_keys=True): p.index for p in spec.points}
    out = []
    for f in store.failures():
        point = index.get(json.dumps(f["params"], sort_keys=True))
        if f["sweep"] != spec.name or point is None or not f["error"].startswith(NS2_FAILED):
            continue
        last = f["error"].strip().splitlines()[-1].strip()
        out.append(RefFailure(point, int(f["replication"]), int(f["seed"]), last))
    return sorted(set(out), key=lambda x: (x.point, x.replication))


def failure_note(name: str, failed: Sequence[RefFailure], want: int) -> str:
    """What a study's notes say of the runs ns-2.35 could not finish."""
    first = failed[0]
    return (
        f"{name}: ns-2.35 itself stopped with an error on {len(failed)} of its {want} runs "
        f"(point {first.point}, replication {first.replication}: {first.error!r}); its "
        "claims use the other replications"
    )


def write_reference(
    study: str, quick: bool, sides: Sequence[Ns2Side], store: ResultStore, path: Path | None = None
) -> Path:
    """Make the study's reference for one mode from a complete live ns-2.35 store (the
    other mode's entries are kept).

    Raises:
        ScenarioError: a run of some sweep is missing from the store.
    """
    from ..crosscheck.ns2run import ns2_version
    from ..crosscheck.translate import TRANSLATOR_VERSION

    path = path or reference_path(study)
    old = load_reference(study, path)
    sweeps: dict[str, RefSweep] = {}
    for side in sides:
        if side.spec is None:
            continue
        spec = side.spec
        runs = store.runs(spec.name, spec.digest())
        failed = ns2_failures(store, spec)
        want = len(spec.points) * spec.replications
        if len(runs) + len(failed) != want:
            raise ScenarioError(
                f"sweep {spec.name!r}: {len(runs)} of its {want} ns-2.35 runs are stored"
                + (f" ({len(failed)} more failed in ns-2.35 itself)" if failed else "")
                + "; run `hopsim reproduce NAME --ns2` to the end first"
            )
        sweeps[spec.name] = RefSweep(
            fingerprint(spec),
            side.skipped,
            [
                RefRun(r.point, r.replication, r.seed, r.metrics, _trim(store.result(r.run_key)))
                for r in runs
            ],
            failed,
        )
    from .._core import __version__

    modes = dict(old.modes) if old else {}
    modes["quick" if quick else "full"] = sweeps
    ref = Reference(
        study,
        ns2_version(),
        TRANSLATOR_VERSION,
        __version__,
        _dt.date.today().isoformat(),
        modes,
    )
    _save(ref, path)
    return path


def import_reference(
    ref: Reference, quick: bool, sides: Sequence[Ns2Side], store: ResultStore
) -> list[str]:
    """Put the reference's runs of the sweeps in ``sides`` into ``store`` as a sweep's runs;
    the notes say which sweeps it could not answer (none for the mode, or stale)."""
    mode = "quick" if quick else "full"
    sweeps = ref.modes.get(mode, {})
    notes = []
    for side in sides:
        if side.spec is None:
            continue
        spec = side.spec
        entry = sweeps.get(spec.name)
        if entry is None:
            notes.append(f"{spec.name}: no ns-2.35 reference results for {mode} mode")
            continue
        if entry.fingerprint != fingerprint(spec):
            notes.append(
                f"{spec.name}: the ns-2.35 reference results are stale (the sweep changed "
                "since they were made); run it live with --ns2"
            )
            continue
        store.record_sweep(spec.name, spec.digest(), spec.to_doc())
        params = {p.index: p.params for p in spec.points}
        members = []
        for r in entry.runs:
            key = hashlib.sha256(f"{entry.fingerprint}/{r.point}/{r.replication}".encode())
            store.add_run(
                key.hexdigest(),
                r.seed,
                {"reference": entry.fingerprint},
                r.metrics,
                json.dumps(r.doc),
                0.0,
                f"ns-2 {ref.ns2_version} (reference)",
                "reference",
            )
            members.append((key.hexdigest(), r.point, r.replication, params[r.point]))
        store.add_members(spec.name, spec.digest(), members)
        if entry.failed:
            for f in entry.failed:
                key = hashlib.sha256(f"{entry.fingerprint}/{f.point}/{f.replication}".encode())
                err = f"{NS2_FAILED} (reference): {f.error}"
                store.add_failure(
                    key.hexdigest(), spec.name, params[f.point], f.replication, f.seed, err
                )
            want = len(spec.points) * spec.replications
            notes.append(failure_note(spec.name, entry.failed, want))
    return notes
