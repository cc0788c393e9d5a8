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


#: Exit code of a failed write to standard output (as coreutils' ls: "serious trouble").
EXIT_WRITE_ERROR = 2


def _write_error(exc: OSError) -> NoReturn:
    """Standard output could not be written (a full disk, a closed pipe): one line on
    stderr, as coreutils say it, instead of a traceback. Other errors reach here only
    through a bug: re-raised."""
    import errno
    import os

    if exc.errno == errno.EPIPE:  # the reader left (`hopsim ... | head`): nothing to say
        code = 1
    elif exc.errno in (errno.ENOSPC, errno.EDQUOT, errno.EIO, errno.EFBIG, errno.EROFS):
        code = EXIT_WRITE_ERROR
        try:
            sys.stderr.write(f"hopsim: write error: {os.strerror(exc.errno)}\n")
            sys.stderr.flush()
        except OSError:
            pass
    else:
        raise exc
    try:  # what is still buffered would fail again at exit: send it nowhere
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass
    raise SystemExit(code)
