"""One writer per output folder: an advisory lock on ``DIR/.hopsim.lock``.

A second ``hopsim sweep`` (or ``crosscheck``, ``reproduce``, ``advise``) on a folder that
another process is writing would run every point again beside it: it is refused at once,
naming the process that holds the folder. The lock is ``flock(2)`` on an open file, so the
kernel drops it when its holder ends in any way (kill -9 included): there is never a stale
lock to clean up, and the file left behind only records who held it last.

Within one process the lock is re-entrant: ``reproduce`` holds it around all of its sweeps,
and each sweep's own acquisition nests inside. On network file systems flock may not be
enforced between hosts; there, give every host its own output folder.
"""

from __future__ import annotations

import datetime as _dt
import errno
import fcntl
import os
import socket
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from os import PathLike
from pathlib import Path

from .errors import FolderBusy, FolderUnusable, StoreError

__all__ = ["LOCK_FILE", "FolderBusy", "FolderUnusable", "folder_lock"]

LOCK_FILE = ".hopsim.lock"

# Folders this process holds: resolved path -> (open file, nesting depth).
_held: dict[Path, tuple[int, int]] = {}


def _describe_holder(fd: int) -> str:
    try:
        text = os.pread(fd, 4096, 0).decode("utf-8", "replace").strip()
    except OSError:
        text = ""
    return text.replace("\n", ", ") if text else "an unknown process"


@contextmanager
def folder_lock(folder: str | PathLike[str]) -> Iterator[Path]:
    """Hold ``folder`` (created when missing) for writing while the block runs.

    Raises:
        FolderBusy: another process holds it (the message names its pid, host, command and
            start time).
        FolderUnusable: the folder or its lock file cannot be created.
    """
    path = Path(folder)
    try:
        path.mkdir(parents=True, exist_ok=True)
        key = path.resolve()
    except OSError as exc:
        raise FolderUnusable(
            f"cannot create the output folder {str(path)!r} ({exc.strerror or exc}); "
            "give another with --out"
        ) from exc
    if key in _held:
        fd, depth = _held[key]
        _held[key] = (fd, depth + 1)
        try:
            yield path
        finally:
            fd, depth = _held[key]
            if depth > 1:
                _held[key] = (fd, depth - 1)
            else:
                _release(key)
        return
    try:
        fd = os.open(key / LOCK_FILE, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as exc:
        raise FolderUnusable(
            f"cannot write in the output folder {str(path)!r} ({exc.strerror or exc}); "
            "give another with --out"
        ) from exc
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as exc:
        holder = _describe_holder(fd)
        os.close(fd)
        if exc.errno in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
            raise FolderBusy(
                f"{str(path)!r} is in use by another hopsim ({holder}); wait for it to "
                "finish, or give another output folder with --out"
            ) from None
        raise StoreError(f"cannot lock the output folder {str(path)!r}: {exc}") from exc
    _held[key] = (fd, 1)
    _record_holder(fd)
    try:
        yield path
    finally:
        if key in _held:
            _release(key)


def _record_holder(fd: int) -> None:
    now = _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds")
    command = " ".join(os.path.basename(a) if i == 0 else a for i, a in enumerate(sys.argv))
    text = f"pid {os.getpid()} on {socket.gethostname()}\nsince {now}\ncommand: {command}\n"
    try:
        os.ftruncate(fd, 0)
        os.pwrite(fd, text[:4000].encode(), 0)
    except OSError:
        pass  # who holds it is a courtesy; the lock itself is held


def _release(key: Path) -> None:
    fd, _ = _held.pop(key)
    try:
        fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)
