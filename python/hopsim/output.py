"""Writing what the user asked for: a failed write says which path could not be written and
why (a read-only file system, a full disk, a path under a file), never "cannot read the
scenario" nor a traceback."""

from __future__ import annotations

import errno
from collections.abc import Iterator
from contextlib import contextmanager
from os import PathLike
from pathlib import Path

__all__ = ["OutputUnwritable", "file_in_the_way", "make_folder", "reason", "writing"]


class OutputUnwritable(OSError):
    """An output file or folder cannot be written (bad input: another path is needed). An
    OSError keeping the errno; its text is the message alone."""

    def __str__(self) -> str:
        return str(self.strerror)


_REASONS = {
    errno.EROFS: "the file system is read-only",
    errno.ENOSPC: "no space left on the device",
    errno.EDQUOT: "the disk quota is used up",
    errno.EACCES: "permission denied",
    errno.EPERM: "permission denied",
    errno.ENOTDIR: "a part of the path is a file, not a folder",
    errno.EISDIR: "it is a folder",
}


def reason(exc: OSError) -> str:
    """What went wrong, in words (the errno's, else the exception's)."""
    return _REASONS.get(exc.errno or 0) or exc.strerror or str(exc)


@contextmanager
def writing(path: str | PathLike[str], what: str) -> Iterator[Path]:
    """Create ``path``'s folder and turn any OSError while writing into
    :class:`OutputUnwritable` naming ``what`` (e.g. ``"--out 'x.html'"``) and the reason."""
    out = Path(path)
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        yield out
    except OutputUnwritable:
        raise
    except OSError as exc:
        where = f" ({exc.filename})" if exc.filename and str(exc.filename) != str(out) else ""
        raise OutputUnwritable(
            exc.errno, f"cannot write {what}{where}: {reason(exc)}; give another path"
        ) from exc


def make_folder(path: str | PathLike[str], what: str) -> Path:
    """Create the folder ``path`` (and its parents), or raise :class:`OutputUnwritable`."""
    folder = Path(path)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        why = reason(exc)
        if exc.errno in (errno.ENOTDIR, errno.EEXIST):
            blocker = file_in_the_way(folder)
            if blocker is not None:
                why = f"{str(blocker)!r} is a file, not a folder"
        raise OutputUnwritable(
            exc.errno, f"cannot create {what}: {why}; give another path"
        ) from exc
    return folder


def file_in_the_way(path: str | PathLike[str]) -> Path | None:
    """The first of ``path`` and its parents that exists and is not a folder (a file where
    a folder is needed), or None."""
    p = Path(path)
    for part in reversed([p, *p.parents]):
        try:
            if part.exists() and not part.is_dir():
                return part
        except OSError:
            return None
    return None
