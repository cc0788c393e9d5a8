"""Errors of sweeps, the result store and its output folder (kept free of heavy imports: the
command line catches them without loading sqlite3 or the executors)."""

from __future__ import annotations

from pathlib import Path

__all__ = ["FolderBusy", "FolderUnusable", "StoreError", "StoreUnreadable", "SweepInterrupted"]


class StoreError(RuntimeError):
    """The store cannot be written or read (full disk, unreadable file...)."""


class StoreUnreadable(StoreError):
    """An existing results.sqlite is not a readable hopsim store (empty, corrupt, foreign):
    bad input, never overwritten nor silently rerun."""


class FolderBusy(StoreError):
    """Another process is writing this output folder."""


class FolderUnusable(StoreError):
    """The output folder cannot be created or written (bad input: another folder is needed)."""


class SweepInterrupted(KeyboardInterrupt):
    """Ctrl-C during a sweep; every run finished before it is in the store."""

    def __init__(self, stored: int, store_path: Path) -> None:
        super().__init__(stored, store_path)
        self.stored = stored
        self.store_path = store_path
