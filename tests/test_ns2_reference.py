"""ns-2.35's reference results ship with hopsim (issue 29): every ns-2 study of the catalogue
has them, they answer the study's sweeps as they are now (a sweep changed without making
them again fails here), and `hopsim reproduce` shows the ns-2.35 column from them on a
machine without `ns`."""

from __future__ import annotations

import csv
import dataclasses
import gzip
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from hopsim.studies import CATALOGUE, get_study
from hopsim.studies.common import SWEEP_DIR
from hopsim.studies.ns2ref import (
    FORMAT,
    fingerprint,
    import_reference,
    load_reference,
    reference_path,
    write_reference,
)
from hopsim.studies.ns2side import ns2_sides
from hopsim.sweeps import ResultStore, load_sweep

NS2_STUDIES = [name for name in CATALOGUE if get_study(name).ns2]
REGENERATE = "hopsim reproduce {name} --ns2 --write-reference{quick}"


def _specs(name: str, quick: bool) -> list:
    study = get_study(name)
    return [
        load_sweep(f(quick) if callable(f) else SWEEP_DIR / f, quick=quick) for f in study.sweeps
    ]


def test_the_four_ns2_studies_are_marked():
    assert sorted(NS2_STUDIES) == ["chen-cwl", "chen-manet", "dsn-variants", "vegas-w"]


@pytest.mark.parametrize("name", NS2_STUDIES)
def test_every_ns2_study_ships_quick_reference_results(name):
    ref = load_reference(name)
    assert ref is not None, f"no {reference_path(name)}: make it with " + REGENERATE.format(
        name=name, quick=" --quick"
    )
    assert "quick" in ref.modes
    assert ref.ns2_version.startswith("2.35"), ref.ns2_version


@pytest.mark.parametrize("name", NS2_STUDIES)
def test_the_reference_answers_the_sweeps_as_they_are(name):
    ref = load_reference(name)
    if ref is None:
        pytest.skip("no reference (the test above fails)")
    for mode, sweeps in ref.modes.items():
        quick = mode == "quick"
        for side in ns2_sides(_specs(name, quick)):
            if side.spec is None:
                continue
            entry = sweeps.get(side.spec.name)
            again = REGENERATE.format(name=name, quick=" --quick" if quick else "")
            assert entry is not None, f"{name} {mode}: no entry for {side.spec.name}: {again}"
            assert entry.fingerprint == fingerprint(side.spec), (
                f"{name} {mode}: sweep {side.spec.name} changed since its ns-2.35 reference "
                f"results were made: {again}"
            )
            want = len(side.spec.points) * side.spec.replications
            assert len(entry.runs) + len(entry.failed) == want


def test_a_changed_sweep_is_not_answered_by_the_old_reference(tmp_path):
    name = "vegas-w"
    if load_reference(name) is None:
        pytest.skip("no reference")
    spec = _specs(name, True)[0]
    changed = dataclasses.replace(spec, base={**spec.base, "duration_s": 151.0}, points=[])
    sides = ns2_sides([changed])
    assert fingerprint(sides[0].spec) != fingerprint(ns2_sides([spec])[0].spec)
    ref = load_reference(name)
    with ResultStore(tmp_path / "store") as store:
        notes = import_reference(ref, True, sides, store)
        assert store.count() == 0
    assert any("stale" in n for n in notes), notes


def test_a_run_ns2_itself_cannot_finish_is_kept_as_such(tmp_path):
    # ns-2.35's DSR stops one of Chen's MANET runs with "scheduler going backwards in time":
    # the reference keeps that run as failed in ns-2.35 itself, and the claims use the rest.
    name = "vegas-w"
    if load_reference(name) is None:
        pytest.skip("no reference")
    sides = [s for s in ns2_sides(_specs(name, True)) if s.spec is not None][:1]
    spec = sides[0].spec
    with ResultStore(tmp_path / "full") as full:
        import_reference(load_reference(name), True, sides, full)
        runs = full.runs(spec.name)
        docs = {r.run_key: json.dumps(full.result(r.run_key)) for r in runs}
    lost, kept = runs[0], runs[1:]
    err = "RuntimeError: ns-2 failed (exit 1):\nx\nns: scheduler going backwards in time."
    path = tmp_path / "ref.json.gz"
    with ResultStore(tmp_path / "live") as live:
        live.record_sweep(spec.name, spec.digest(), spec.to_doc())
        for r in kept:
            live.add_run(r.run_key, r.seed, {}, r.metrics, docs[r.run_key], 0.0, "ns-2")
        live.add_members(
            spec.name, spec.digest(), [(r.run_key, r.point, r.replication, r.params) for r in kept]
        )
        with pytest.raises(Exception, match=rf"{len(kept)} of its {len(runs)} ns-2.35 runs"):
            write_reference(name, True, sides, live, path)
        live.add_failure(lost.run_key, spec.name, lost.params, lost.replication, lost.seed, err)
        write_reference(name, True, sides, live, path)
    entry = load_reference(name, path).modes["quick"][spec.name]
    assert len(entry.runs) == len(kept)
    assert [(f.point, f.replication, f.error) for f in entry.failed] == [
        (lost.point, lost.replication, "ns: scheduler going backwards in time.")
    ]
    with ResultStore(tmp_path / "again") as again:
        notes = import_reference(load_reference(name, path), True, sides, again)
        assert again.count() == len(kept) and len(again.failures()) == 1
    assert any("ns-2.35 itself stopped with an error on 1 of its" in n for n in notes), notes


def test_a_reference_of_another_format_is_refused_by_name(tmp_path):
    path = tmp_path / "x.json.gz"
    path.write_bytes(gzip.compress(json.dumps({"format": FORMAT + 1}).encode()))
    with pytest.raises(Exception, match=r"format .* reads format"):
        load_reference("x", path)
    path.write_bytes(b"not gzip")
    with pytest.raises(Exception, match="unreadable"):
        load_reference("x", path)


@pytest.mark.slow
def test_reproduce_without_ns_shows_the_ns2_column(tmp_path):
    if load_reference("vegas-w") is None:
        pytest.skip("no reference")
    env = {**os.environ, "HOPSIM_NS": "no-such-ns-command", "COLUMNS": "250"}
    cmd = [sys.executable, "-m", "hopsim", "reproduce", "vegas-w", "--quick"]
    cmd += ["--out", str(tmp_path), "--progress", "off"]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=900, env=env)
    assert proc.returncode == 0, proc.stderr
    assert "ns-2.35: reference results shipped with hopsim (ns-2 2.35" in proc.stdout
    assert "claims hold in ns-2.35" in proc.stdout
    with (Path(tmp_path) / "claims.csv").open() as fh:
        rows = list(csv.DictReader(fh))
    assert rows and all(r["verdict_ns2"] for r in rows), "every claim has ns-2.35's verdict"
    assert any(r["ns2"] not in ("", "-") for r in rows), "and ns-2.35's values"


def test_a_reference_nested_too_deep_is_refused_by_name(tmp_path):
    path = tmp_path / "deep.json.gz"
    path.write_bytes(gzip.compress(("[" * 100 + "]" * 100).encode()))
    with pytest.raises(Exception, match="nested deeper than 64 levels"):
        load_reference("x", path)
