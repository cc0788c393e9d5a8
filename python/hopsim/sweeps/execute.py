"""Where runs execute: a local process pool, or an existing Dask cluster.

Both executors take ``(key, payload)`` submissions and yield ``(key, outcome, error)`` as
runs finish, in completion order; the caller (the one writer of the store) records each
outcome at once. Results never depend on where or in which order runs executed: a run is a
pure function of its scenario and seed.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import socket
from collections.abc import Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from .._core import ScenarioError
from .worker import execute, ignore_sigint

__all__ = ["DaskExecutor", "LocalExecutor", "connect", "default_jobs"]

#: How often a run is tried when its worker dies under it (a crashed process, a lost node).
MAX_ATTEMPTS = 3

Outcome = tuple[str, dict[str, Any] | None, str | None]


def default_jobs() -> int:
    """The cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


class LocalExecutor:
    """A process pool over the local cores (spawned processes, Ctrl-C left to the parent)."""

    def __init__(self, jobs: int) -> None:
        self.jobs = jobs
        self._pool = self._new_pool()
        self._futures: dict[Future[dict[str, Any]], str] = {}
        self._payloads: dict[str, dict[str, Any]] = {}
        self._attempts: dict[str, int] = {}
        self._orphans: list[str] = []
        self._closed = False

    def _new_pool(self) -> ProcessPoolExecutor:
        ctx = multiprocessing.get_context("spawn")
        return ProcessPoolExecutor(self.jobs, mp_context=ctx, initializer=ignore_sigint)

    @property
    def description(self) -> str:
        return f"{self.jobs} local process{'es' if self.jobs != 1 else ''}"

    def submit(self, key: str, payload: dict[str, Any]) -> None:
        self._payloads[key] = payload
        self._attempts[key] = self._attempts.get(key, 0) + 1
        self._futures[self._pool.submit(execute, payload)] = key

    def pending(self) -> int:
        return len(self._futures)

    def results(self) -> Iterator[Outcome]:
        while self._futures:
            done, _ = wait(list(self._futures), return_when=FIRST_COMPLETED)
            broken = False
            for fut in done:
                key = self._futures.pop(fut)
                try:
                    outcome = fut.result()
                except BrokenProcessPool:
                    broken = True
                    yield from self._retry(key, "its worker process died")
                    continue
                except Exception as exc:  # the run itself failed: record it, go on
                    yield key, None, f"{type(exc).__name__}: {exc}"
                    continue
                self._payloads.pop(key, None)
                yield key, outcome, None
            if broken:
                self._restart()

    def _retry(self, key: str, why: str) -> Iterator[Outcome]:
        if self._attempts[key] >= MAX_ATTEMPTS:
            yield key, None, f"{why} ({self._attempts[key]} attempts)"
            return
        self._orphans.append(key)

    def _restart(self) -> None:
        # Every future of a broken pool fails; resubmit them all to a fresh pool.
        orphans = list(self._orphans) + list(self._futures.values())
        self._orphans = []
        self._futures.clear()
        self._pool.shutdown(wait=False, cancel_futures=True)
        self._pool = self._new_pool()
        for key in dict.fromkeys(orphans):
            self.submit(key, self._payloads[key])

    def close(self, cancel: bool = False) -> None:
        if self._closed:
            return
        self._closed = True
        if cancel:
            # Stop the running workers now; their runs are simply not stored.
            processes = list(getattr(self._pool, "_processes", {}).values())
            results = getattr(self._pool, "_result_queue", None)  # shutdown forgets it
            self._pool.shutdown(wait=False, cancel_futures=True)
            for proc in processes:
                proc.terminate()
            for proc in processes:
                proc.join(timeout=5)
            _release_results(results, processes)
        else:
            self._pool.shutdown(wait=True)


def _release_results(results: Any, processes: list[Any]) -> None:
    """A worker terminated while sending its result leaves half a message in the results
    pipe; the pool's manager thread then waits for the rest, and the interpreter, which
    joins that thread at exit, hangs (seen under load after a full disk stopped a sweep).
    Once every worker is gone, closing this process's own write end of the pipe gives the
    thread end-of-file: it sees a broken pool and ends."""
    if any(proc.is_alive() for proc in processes):
        return  # a writer remains: closing could cut a message it is still sending
    writer = getattr(results, "_writer", None)
    if writer is not None:
        with contextlib.suppress(OSError):
            writer.close()


class DaskExecutor:
    """Runs on an existing dask.distributed cluster; failed tasks are retried by Dask."""

    def __init__(self, address: str, retries: int = 2, timeout_s: float = 10.0) -> None:
        self.address = address
        self.client = connect(address, timeout_s)
        self.retries = retries
        self._futures: dict[Any, str] = {}
        self._closed = False
        from distributed import as_completed

        # The client is not the default one (set_as_default=False): give its loop.
        self._ac = as_completed(loop=self.client.loop)

    @property
    def description(self) -> str:
        n = len(self.client.scheduler_info().get("workers", {}))
        return f"Dask cluster {self.address} ({n} worker{'s' if n != 1 else ''})"

    def submit(self, key: str, payload: dict[str, Any]) -> None:
        fut = self.client.submit(
            execute, payload, key=f"hopsim-run-{key}", retries=self.retries, pure=False
        )
        self._futures[fut] = key
        self._ac.add(fut)

    def pending(self) -> int:
        return len(self._futures)

    def results(self) -> Iterator[Outcome]:
        for fut in self._ac:
            key = self._futures.pop(fut)
            try:
                outcome = fut.result()
            except Exception as exc:  # the run failed on every try, or its workers died
                yield key, None, f"{type(exc).__name__}: {exc}"
            else:
                yield key, outcome, None
            fut.release()

    def close(self, cancel: bool = False) -> None:
        if self._closed:
            return
        self._closed = True
        if cancel and self._futures:
            self.client.cancel(list(self._futures))
        self.client.close()


def connect(address: str, timeout_s: float = 10.0) -> Any:
    """A dask.distributed client of the scheduler at ``address``; a clear error if none."""
    try:
        from distributed import Client
    except ImportError as exc:  # pragma: no cover - dask is a dependency
        raise ScenarioError(
            f"--scheduler {address}: dask.distributed is not installed ({exc})"
        ) from None
    if "://" not in address:
        raise ScenarioError(
            f"--scheduler {address!r}: not a scheduler address; give e.g. tcp://host:8786"
        )
    try:
        _probe(address, timeout_s)
        return Client(address, timeout=f"{timeout_s}s", set_as_default=False)
    except (OSError, TimeoutError) as exc:
        raise ScenarioError(
            f"--scheduler {address}: cannot reach a Dask scheduler there within "
            f"{timeout_s:g} s ({type(exc).__name__}: {exc}); start one with "
            "`dask scheduler` and workers with `dask worker ADDRESS`"
        ) from None


def _probe(address: str, timeout_s: float) -> None:
    """Fail at once on a refused tcp:// address (Dask's Client retries until its timeout)."""
    scheme, _, rest = address.partition("://")
    host, _, port = rest.rstrip("/").rpartition(":")
    if scheme != "tcp" or not port.isdigit():
        return
    with socket.create_connection((host.strip("[]"), int(port)), timeout=timeout_s):
        pass
