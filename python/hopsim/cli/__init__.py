"""The ``hopsim`` command line (typer): one app, its commands put on it here, in the order
``hopsim --help`` lists them.

- ``common``: the typer app (:func:`~hopsim.cli.common.make_app`), consoles, exit codes,
  error handling and the shared options; ``coercion``: typer's values without pydantic;
- ``run``: ``run`` and ``validate`` (one scenario); ``show``: a picture of its network;
  ``view``: the run explorer page;
- ``sweep``: ``sweep``, ``results``, ``plot``; ``reproduce``; ``crosscheck``; ``advise``.

``hopsim.cli.app`` is the app with every command. The console script builds only what the
command line names: ``hopsim run FILE`` imports and builds ``run``'s module and parser, not
the others' (typer builds every registered command's parser before parsing, and the
experiment commands import more), which keeps a short run's start quick.
"""

from __future__ import annotations

import errno
import io
import os
import sys
from collections.abc import Collection
from importlib import import_module
from typing import TYPE_CHECKING, Any, NoReturn

if TYPE_CHECKING:
    import typer

__all__ = ["COMMANDS", "app", "build_app", "main"]

#: Every command and the module of this package that defines it, in ``hopsim --help`` order
#: (a module's commands are consecutive; tests/test_cli_startup.py checks this against the
#: modules' own lists).
COMMANDS: dict[str, str] = {
    "run": "run",
    "validate": "run",
    "sweep": "sweep",
    "results": "sweep",
    "plot": "sweep",
    "reproduce": "reproduce",
    "advise": "advise",
    "crosscheck": "crosscheck",
    "fit-links": "links",
    "show": "show",
    "view": "view",
}


def build_app(only: Collection[str] | None = None) -> typer.Typer:
    """A new app with the commands named in ``only`` (default: all), importing only the
    modules that define them."""
    from .common import make_app

    new = make_app()
    names = [name for name in COMMANDS if only is None or name in only]
    for module in dict.fromkeys(COMMANDS[name] for name in names):
        import_module(f"{__name__}.{module}").commands.register(new, only=names)
    return new


def __getattr__(name: str) -> Any:
    # `app` (every command) is built on first use, not when the console script starts.
    if name == "app":
        full = build_app()
        globals()["app"] = full
        return full
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def main() -> None:
    """Entry point of the ``hopsim`` console script."""
    _closed_streams_fail()
    args = sys.argv[1:]
    # A command named first: the group parses no option of its own before it, so an app
    # with that command alone parses and reports exactly as the full one does.
    only = [args[0]] if args and args[0] in COMMANDS else None
    try:
        try:
            build_app(only)(prog_name="hopsim")
        finally:
            sys.stdout.flush()  # here, not at exit, where a failure is only a warning
    except OSError as exc:
        _write_error(exc)


#: Exit code of a failed write to standard output or error (as coreutils' cat, echo, printf:
#: 1, not 2, which is bad input).
EXIT_WRITE_ERROR = 1

#: Errors of a write that no other path can fix: reported as coreutils do, exit 1.
_WRITE_ERRNOS = ("ENOSPC", "EDQUOT", "EIO", "EFBIG", "EROFS", "EBADF")


class _ClosedStream(io.TextIOBase):
    """Standard output or error started closed (``hopsim validate s.toml >&-``): Python
    sets ``sys.stdout`` to None, and the first print would end in an AttributeError
    traceback. A write fails as on a closed descriptor instead (EBADF)."""

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        raise OSError(errno.EBADF, os.strerror(errno.EBADF))

    def isatty(self) -> bool:
        return False


def _closed_streams_fail() -> None:
    if sys.stdout is None:
        sys.stdout = _ClosedStream()
    if sys.stderr is None:
        sys.stderr = _Discard()


class _Discard(io.TextIOBase):
    """A closed standard error: nothing can be said, so messages go nowhere."""

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        return len(text)

    def isatty(self) -> bool:
        return False


def _write_error(exc: OSError) -> NoReturn:
    """Standard output (or error) could not be written (a full disk, a closed descriptor,
    a closed pipe): one line on stderr, as coreutils say it, and exit 1, instead of a
    traceback. Other errors reach here only through a bug: re-raised."""
    if exc.errno == errno.EPIPE:  # the reader left (`hopsim ... | head`): nothing to say
        code = 1
    elif exc.errno in {getattr(errno, name, -1) for name in _WRITE_ERRNOS}:
        code = EXIT_WRITE_ERROR
        try:
            sys.stderr.write(f"hopsim: write error: {os.strerror(exc.errno or 0)}\n")
            sys.stderr.flush()
        except (OSError, ValueError):
            pass
    else:
        raise exc
    try:  # what is still buffered would fail again at exit: send it nowhere
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass
    raise SystemExit(code)
