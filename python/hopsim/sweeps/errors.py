"""Errors of the result store and its output folder (kept free of heavy imports: the
command line catches them without loading sqlite3 or the executors)."""

from __future__ import annotations

__all__ = ["FolderBusy", "FolderUnusable", "StoreError", "StoreUnreadable"]


class StoreError(RuntimeError):
    """The store cannot be written or read (full disk, unreadable file...)."""


class StoreUnreadable(StoreError):
    """An existing results.sqlite is not a readable hopsim store (empty, corrupt, foreign):
    bad input, never overwritten nor silently rerun."""


class FolderBusy(StoreError):
    """Another process is writing this output folder."""


class FolderUnusable(StoreError):
    """The output folder cannot be created or written (bad input: another folder is needed)."""
