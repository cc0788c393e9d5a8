"""The result store: one SQLite file per output folder, one row per finished run.

Each run is written in its own transaction the moment it finishes (WAL journal,
``synchronous=FULL``), so a sweep stopped in any way (Ctrl-C, kill -9, a crashed worker, a
full disk) keeps every run that had finished. A run's key is the hash of its fully resolved
scenario (as the core validated it, seed included) and the hopsim version: rerunning a sweep
skips every key already stored, and a changed scenario or version gives new keys.
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import json
import os
import socket
import sqlite3
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from os import PathLike
from pathlib import Path
from typing import Any

from .errors import StoreError, StoreUnreadable

__all__ = ["STORE_FILE", "ResultStore", "StoreError", "StoreUnreadable", "StoredRun", "run_key"]

STORE_FILE = "results.sqlite"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS runs (
    run_key        TEXT PRIMARY KEY,
    seed           INTEGER NOT NULL,
    scenario       TEXT NOT NULL,   -- JSON: the fully resolved scenario
    metrics        TEXT NOT NULL,   -- JSON: metric name -> value (the sweep's metrics)
    result         TEXT NOT NULL,   -- JSON: the whole result document
    wall_s         REAL NOT NULL,
    hopsim_version TEXT NOT NULL,
    host           TEXT NOT NULL,
    finished_at    TEXT NOT NULL
);
-- Which runs make up which sweep (a run can serve several sweeps: its key is its scenario).
CREATE TABLE IF NOT EXISTS members (
    sweep       TEXT NOT NULL,
    digest      TEXT NOT NULL,      -- the sweep's definition (see SweepSpec.digest)
    run_key     TEXT NOT NULL,
    point       INTEGER NOT NULL,
    replication INTEGER NOT NULL,
    params      TEXT NOT NULL,      -- JSON: swept key -> value
    PRIMARY KEY (sweep, digest, run_key)
);
CREATE TABLE IF NOT EXISTS failures (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    run_key     TEXT NOT NULL,
    sweep       TEXT NOT NULL,
    params      TEXT NOT NULL,
    replication INTEGER NOT NULL,
    seed        INTEGER NOT NULL,
    error       TEXT NOT NULL,
    at          TEXT NOT NULL
);
-- The latest definition of each sweep written to this folder.
CREATE TABLE IF NOT EXISTS sweeps (
    name       TEXT PRIMARY KEY,
    digest     TEXT NOT NULL,
    spec       TEXT NOT NULL,       -- JSON: axes, values, metrics, replications, seed, base
    updated_at TEXT NOT NULL
);
"""


def run_key(resolved_scenario: Mapping[str, Any], version: str) -> str:
    """The key of a run: SHA-256 of its resolved scenario (canonical JSON) and version."""
    text = json.dumps(
        {"scenario": resolved_scenario, "hopsim_version": version},
        sort_keys=True,
        separators=(",", ":"),
        allow_nan=False,
    )
    return hashlib.sha256(text.encode()).hexdigest()


@dataclass(frozen=True)
class StoredRun:
    """One finished run as a member of a sweep."""

    run_key: str
    sweep: str
    point: int
    replication: int
    seed: int
    params: dict[str, Any]
    metrics: dict[str, Any]
    wall_s: float
    hopsim_version: str
    host: str
    finished_at: str


def _now() -> str:
    return _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds")


def _dumps(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


class ResultStore:
    """The SQLite store of an output folder (created when missing)."""

    def __init__(self, folder: str | PathLike[str], create: bool = True) -> None:
        self.folder = Path(folder)
        self.path = self.folder / STORE_FILE
        if not create and not self.path.exists():
            raise FileNotFoundError(f"no result store in {str(self.folder)!r} ({STORE_FILE})")
        if self.path.is_file() and self.path.stat().st_size == 0:
            raise StoreUnreadable(
                f"{str(self.path)!r} is empty (0 bytes), not a hopsim result store; move it "
                "away (its runs, if it had any, are lost) or choose another output folder"
            )
        #: Opened read-only: the store is on a read-only file system or folder (readers only).
        self.read_only = False
        try:
            if create:
                self.folder.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(self.path, timeout=60.0, isolation_level=None)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.executescript(_SCHEMA)
        except sqlite3.DatabaseError as exc:
            if hasattr(self, "_db"):
                self._db.close()  # half open: let go of the file
            if create or not _cannot_write(self.folder, self.path):
                raise StoreUnreadable(
                    f"{str(self.path)!r} is not a readable hopsim result store ({exc}); move it "
                    "away or choose another output folder"
                ) from exc
            self._db = self._open_read_only(exc)
        except (sqlite3.Error, OSError) as exc:
            raise StoreError(f"cannot open the result store {str(self.path)!r}: {exc}") from exc

    def _open_read_only(self, first: sqlite3.Error) -> sqlite3.Connection:
        """The intact store of a folder this process cannot write, opened for reading. SQLite
        needs the WAL index file beside it; where none can be made (a read-only file system)
        the file is opened as immutable, which is safe there: nobody can write it."""
        uri = self.path.absolute().as_uri()
        flags = ["?mode=ro"] + (["?mode=ro&immutable=1"] if _read_only_fs(self.folder) else [])
        last: sqlite3.Error = first
        for flag in flags:
            db = None
            try:
                db = sqlite3.connect(uri + flag, uri=True, isolation_level=None)
                db.execute("SELECT count(*) FROM runs JOIN sweeps ON 0").fetchall()
            except sqlite3.Error as exc:
                last = exc
                if db is not None:
                    db.close()
                continue
            self.read_only = True
            return db
        raise StoreUnreadable(
            f"{str(self.path)!r}: the store's folder cannot be written (read-only), and opening "
            f"it read-only failed too ({last}); copy the folder to a writable place and open "
            "the copy"
        ) from last

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> ResultStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------------ writing

    def _writable(self) -> None:
        if self.read_only:
            raise StoreError(
                f"cannot write to the result store {str(self.path)!r}: it is read-only (its "
                "folder cannot be written); copy the folder to a writable place to add runs"
            )

    def _write(self, sql: str, args: tuple[Any, ...]) -> None:
        self._writable()
        try:
            self._db.execute(sql, args)
        except sqlite3.Error as exc:
            raise StoreError(
                f"cannot write to the result store {str(self.path)!r}: {exc} (every run "
                "stored before this one is kept; free space and rerun the same command)"
            ) from exc

    def record_sweep(self, name: str, digest: str, spec: Mapping[str, Any]) -> None:
        """Make ``digest`` the current definition of sweep ``name``."""
        self._write(
            "INSERT OR REPLACE INTO sweeps (name, digest, spec, updated_at) VALUES (?, ?, ?, ?)",
            (name, digest, _dumps(spec), _now()),
        )

    def add_members(
        self, sweep: str, digest: str, members: list[tuple[str, int, int, Mapping[str, Any]]]
    ) -> None:
        """Record which runs (key, point, replication, params) make up a sweep."""
        self._writable()
        try:
            with self._db:
                self._db.execute("BEGIN")
                self._db.executemany(
                    "INSERT OR IGNORE INTO members (sweep, digest, run_key, point, replication, "
                    "params) VALUES (?, ?, ?, ?, ?, ?)",
                    [(sweep, digest, k, p, r, json.dumps(params)) for k, p, r, params in members],
                )
        except sqlite3.Error as exc:
            raise StoreError(f"cannot write to the result store {str(self.path)!r}: {exc}") from exc

    def add_run(
        self,
        key: str,
        seed: int,
        scenario: Mapping[str, Any],
        metrics: Mapping[str, Any],
        result_json: str,
        wall_s: float,
        hopsim_version: str,
        host: str | None = None,
    ) -> bool:
        """Store one finished run (its own transaction); False if the key was already there."""
        before = self._db.total_changes
        self._write(
            "INSERT OR IGNORE INTO runs (run_key, seed, scenario, metrics, result, wall_s, "
            "hopsim_version, host, finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                key,
                seed,
                _dumps(scenario),
                _dumps(metrics),
                result_json,
                wall_s,
                hopsim_version,
                host or socket.gethostname(),
                _now(),
            ),
        )
        return self._db.total_changes > before

    def add_failure(
        self, key: str, sweep: str, params: Mapping[str, Any], replication: int, seed: int, err: str
    ) -> None:
        self._write(
            "INSERT INTO failures (run_key, sweep, params, replication, seed, error, at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            (key, sweep, _dumps(params), replication, seed, err, _now()),
        )

    # ------------------------------------------------------------------ reading

    def _decode(self, text: Any, what: str) -> dict[str, Any]:
        """A JSON table of the store (a definition, parameters, metrics, a result), or
        StoreUnreadable naming the store and the row: a store changed by something other
        than hopsim (malformed, not a table, nested too deep for the parser) is refused, not
        a traceback."""
        try:
            value = json.loads(text)
        except (TypeError, ValueError) as exc:
            why = str(exc)
        except RecursionError:
            why = "nested too deep"
        else:
            if isinstance(value, dict):
                return value
            why = f"a JSON {type(value).__name__}, not a table"
        raise StoreUnreadable(
            f"{str(self.path)!r}: {what} cannot be read ({why}): the store was changed by "
            "something other than hopsim; move it away or choose another output folder"
        )

    def finished_keys(self) -> set[str]:
        return {row[0] for row in self._db.execute("SELECT run_key FROM runs")}

    def count(self) -> int:
        """The number of finished runs in the store."""
        return int(self._db.execute("SELECT COUNT(*) FROM runs").fetchone()[0])

    def sweeps(self) -> dict[str, dict[str, Any]]:
        """Each sweep's current definition: ``{name: {"digest": ..., "spec": {...}}}``."""
        rows = self._db.execute("SELECT name, digest, spec FROM sweeps ORDER BY name")
        return {
            name: {"digest": digest, "spec": self._decode(spec, f"sweep {name!r}: its definition")}
            for name, digest, spec in rows
        }

    def runs(self, sweep: str | None = None, digest: str | None = None) -> list[StoredRun]:
        """The finished runs of a sweep's current definition (of every sweep if None),
        ordered by sweep, point and replication: one per replication, the latest finished
        (a run's key also holds the simulator's version, which the definition does not: after
        an upgrade the rerun's runs replace the older ones)."""
        sql = (
            "SELECT r.run_key, m.sweep, m.point, m.replication, r.seed, m.params, r.metrics, "
            "r.wall_s, r.hopsim_version, r.host, r.finished_at FROM members m "
            "JOIN runs r ON r.run_key = m.run_key "
            "JOIN sweeps s ON s.name = m.sweep AND s.digest = m.digest"
        )
        args: tuple[Any, ...] = ()
        if sweep is not None:
            sql += " WHERE m.sweep = ?"
            args = (sweep,)
        sql += " ORDER BY m.sweep, m.point, m.replication, r.finished_at, r.run_key"
        if digest is not None:
            sql = sql.replace("s.digest = m.digest", "m.digest = ?")
            args = (digest, *args)
        latest: dict[tuple[str, int, int], StoredRun] = {}
        for r in self._db.execute(sql, args):
            params = self._decode(r[5], f"run {r[0]!r}: its parameters")
            metrics = self._decode(r[6], f"run {r[0]!r}: its metrics")
            run = StoredRun(r[0], r[1], r[2], r[3], r[4], params, metrics, *r[7:])
            latest[(run.sweep, run.point, run.replication)] = run
        return list(latest.values())

    def result(self, key: str) -> dict[str, Any]:
        """The whole result document of a finished run."""
        row = self._db.execute("SELECT result FROM runs WHERE run_key = ?", (key,)).fetchone()
        if row is None:
            raise KeyError(key)
        return self._decode(row[0], f"run {key!r}: its result")

    def iter_results(self, sweep: str | None = None) -> Iterator[tuple[StoredRun, dict[str, Any]]]:
        for run in self.runs(sweep):
            yield run, self.result(run.run_key)

    def failures(self) -> list[dict[str, Any]]:
        """Runs that failed and have not finished since (a rerun tries them again)."""
        rows = self._db.execute(
            "SELECT run_key, sweep, params, replication, seed, error, at FROM failures "
            "WHERE run_key NOT IN (SELECT run_key FROM runs) ORDER BY id"
        )
        cols = ("run_key", "sweep", "params", "replication", "seed", "error", "at")
        out = []
        for row in rows:
            item = dict(zip(cols, row, strict=False))
            item["params"] = self._decode(item["params"], f"failed run {item['run_key']!r}")
            out.append(item)
        return out


def _read_only_fs(folder: Path) -> bool:
    """``folder`` is on a file system mounted read-only."""
    try:
        return bool(os.statvfs(folder).f_flag & os.ST_RDONLY)
    except OSError:
        return False


def _cannot_write(folder: Path, path: Path) -> bool:
    """This process cannot write the store (a read-only file system, folder or file): the
    error opening it says nothing about its contents."""
    return (
        _read_only_fs(folder)
        or not os.access(folder, os.W_OK)
        or (path.exists() and not os.access(path, os.W_OK))
    )
