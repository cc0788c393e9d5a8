"""What the commands of the ``hopsim`` command line share: the typer app they go on
(:func:`make_app`), the consoles, the exit codes, turning errors into one message, the common
options.

Exit codes: 0 success; 2 bad input (missing file, TOML syntax error, bad ``--set``, a
scenario rejected by the core, an unusable or busy output folder), with one message on
stderr and no traceback; 1 failed runs, standard output that cannot be written or an
internal error of the simulator (set ``HOPSIM_DEBUG=1`` to see the traceback); 130
interrupted.
"""

from __future__ import annotations

import math
import os
from collections.abc import Collection
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn

import typer

from .._core import InternalError, ScenarioError
from ..api import RunOptionsUnsupported
from ..output import OutputUnwritable, reason
from ..sweeps.errors import FolderBusy, FolderUnusable, StoreError, StoreUnreadable
from .coercion import install as _install_lazy_coercion

if TYPE_CHECKING:
    from rich.console import Console

APP_HELP = (
    "hopsim: a fast, deterministic packet-level simulator of TCP over multihop "
    "IEEE 802.11 networks. Scenarios are TOML files; docs/interfaces.md lists every key "
    "and its default.\n\n"
    "Exit codes: 0 success; 2 bad input (missing file, TOML syntax error, bad --set, a "
    "rejected key or value, an unusable output folder or one another hopsim is writing), "
    "reported in one message on stderr; 1 failed runs, an internal error or standard "
    "output that cannot be written; 130 interrupted (finished runs are kept)."
)


def make_app() -> typer.Typer:
    """The ``hopsim`` typer app with its global options and no command yet (``hopsim.cli``
    puts the commands on it)."""
    new = typer.Typer(
        name="hopsim",
        help=APP_HELP,
        no_args_is_help=True,
        add_completion=False,
        pretty_exceptions_enable=False,
        context_settings={"help_option_names": ["-h", "--help"]},
    )
    new.callback()(_root)
    return new


def _flags_without_type() -> None:
    """Show flags as flags: typer's rich help prints a `<bool>` type beside each one (its
    TyperOption.display_type_rich); a flag takes no value, so it gets no type column."""
    option = getattr(typer.core, "TyperOption", None)
    shown = getattr(option, "display_type_rich", None)
    if option is None or shown is None:
        return

    def display_type_rich(self: Any, ctx: Any) -> str | None:
        return None if getattr(self, "is_flag", False) else shown(self, ctx)

    option.display_type_rich = display_type_rich


_flags_without_type()
_install_lazy_coercion()  # no pydantic for a run's FILE, --set, --seed (see coercion.py)


class Commands:
    """A module's commands, put on the app by ``hopsim.cli`` explicitly and in order (no
    registration as a side effect of an import)."""

    def __init__(self) -> None:
        self._commands: list[tuple[str, dict[str, Any], Any]] = []

    def command(self, name: str, **kwargs: Any) -> Any:
        def add(fn: Any) -> Any:
            self._commands.append((name, kwargs, fn))
            return fn

        return add

    def names(self) -> list[str]:
        return [name for name, _, _ in self._commands]

    def register(self, on: typer.Typer, only: Collection[str] | None = None) -> None:
        """Put the commands on ``on`` in their order (those in ``only``, when given)."""
        for name, kwargs, fn in self._commands:
            if only is None or name in only:
                on.command(name, **kwargs)(fn)


#: The consoles ``out`` (stdout) and ``err`` (stderr), made on first use: importing rich is
#: about 15 ms that `run --json` and `validate` do not need (they print plain text).
_CONSOLES: dict[str, dict[str, Any]] = {"out": {}, "err": {"stderr": True}}


def console(name: str) -> Console:
    """The console ``out`` or ``err`` (also this module's attributes of those names)."""
    made = globals().get(name)
    if made is None:
        from rich.console import Console

        made = globals()[name] = Console(highlight=False, **_CONSOLES[name])
    return made


def __getattr__(name: str) -> Any:
    if name in _CONSOLES:
        return console(name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


EXIT_BAD_INPUT = 2
EXIT_INTERNAL = 1

FileArg = Annotated[
    Path,
    typer.Argument(
        metavar="FILE",
        help="Scenario file (TOML), e.g. scenarios/chain7_udp.toml.",
        show_default=False,
    ),
]
SetOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--set",
        "-s",
        metavar="KEY.PATH=VALUE",
        help=(
            "Override one scenario key; repeat for several. The key is a dotted path, list "
            "elements by index: --set topology.hops=4 --set flows.0.interval_s=0.02 "
            "--set mac.rts_threshold_bytes=3000. VALUE is read as a TOML literal "
            '(7, 0.05, true, "text", arrays) and otherwise taken as a plain string '
            "(--set topology.kind=grid). Missing tables are created."
        ),
        show_default=False,
    ),
]
SeedOpt = Annotated[
    str | None,
    typer.Option(
        "--seed",
        metavar="N",
        help="Random seed (unsigned 64-bit); replaces the scenario's seed, after --set.",
        show_default=False,
    ),
]


MaxEventsOpt = Annotated[
    str | None,
    typer.Option(
        "--max-events",
        metavar="N",
        help=(
            "The run's budget of events (default 5e9, about eight minutes): a scenario known "
            "to need more is refused before it starts, a run that reaches it stops with an "
            "error naming the cause. Results never depend on it."
        ),
        show_default=False,
    ),
]

MaxMemoryOpt = Annotated[
    str | None,
    typer.Option(
        "--max-memory-mb",
        metavar="MB",
        help=(
            "The run's memory budget in megabytes (default 4096) for what it builds (node "
            "moves, links, route tables) and what grows while it runs (events, packets, time "
            "series)."
        ),
        show_default=False,
    ),
]


def parse_budget(max_events: str | None, max_memory_mb: str | None) -> dict[str, Any]:
    """The budget run options of --max-events / --max-memory-mb (exit 2 on a bad value)."""
    out: dict[str, Any] = {}
    if max_events is not None:
        try:
            value = float(max_events.strip())
        except ValueError:
            value = math.nan
        if not (math.isfinite(value) and value.is_integer() and 1 <= value < 2**64):
            _fail(
                f"--max-events {max_events!r}: not allowed, it must be a whole number of "
                "events of at least 1 (e.g. 5e9)"
            )
        out["max_events"] = int(value)
    if max_memory_mb is not None:
        try:
            mb = float(max_memory_mb.strip())
        except ValueError:
            mb = math.nan
        if not (math.isfinite(mb) and 1 <= mb <= 1e9):
            _fail(
                f"--max-memory-mb {max_memory_mb!r}: not allowed, it must be a number of "
                "megabytes between 1 and 1e9 (e.g. 8192)"
            )
        out["max_memory_mb"] = mb
    return out


def _fail(message: str, code: int = EXIT_BAD_INPUT) -> NoReturn:
    from rich.markup import escape

    console("err").print(f"[bold red]error:[/] {escape(message)}", soft_wrap=True)
    raise typer.Exit(code)


def _guarded(fn: Any, *args: Any, **kwargs: Any) -> Any:
    """Call ``fn``; turn bad-input errors into one stderr line and exit code 2."""
    try:
        return fn(*args, **kwargs)
    except (typer.Exit, typer.Abort, SystemExit, KeyboardInterrupt):
        raise
    except ScenarioError as exc:
        _fail(str(exc) or "the scenario was rejected")
    except RunOptionsUnsupported as exc:
        _fail(str(exc), code=EXIT_INTERNAL)
    except (StoreUnreadable, FolderBusy, FolderUnusable) as exc:
        _fail(str(exc))
    except StoreError as exc:
        _fail(str(exc), code=EXIT_INTERNAL)
    except InternalError as exc:
        if os.environ.get("HOPSIM_DEBUG"):
            raise
        _fail(
            f"internal error in hopsim ({exc}); this is a bug, please report it with the "
            "scenario (set HOPSIM_DEBUG=1 for the traceback)",
            code=EXIT_INTERNAL,
        )
    except OutputUnwritable as exc:
        _fail(str(exc))
    except IsADirectoryError as exc:
        _fail(f"{exc.filename}: is a directory, not a scenario file" if exc.filename else str(exc))
    except FileNotFoundError as exc:
        _fail(str(exc) if not exc.filename else f"scenario file {exc.filename!r} not found")
    except PermissionError as exc:
        _fail(f"cannot read {exc.filename or ''}: permission denied")
    except OSError as exc:
        # Not only reading: any file this command touched (outputs raise OutputUnwritable).
        shown = f"{str(exc.filename)!r}: " if exc.filename else ""
        _fail(f"input/output error: {shown}{reason(exc)}")
    except BaseException as exc:  # a panic in the core arrives as pyo3's PanicException
        if os.environ.get("HOPSIM_DEBUG"):
            raise
        name = type(exc).__name__
        _fail(
            f"internal error in hopsim ({name}: {exc}); this is a bug, please report it "
            "with the scenario (set HOPSIM_DEBUG=1 for the traceback)",
            code=EXIT_INTERNAL,
        )


def _parse_seed(text: str | None) -> int | None:
    if text is None:
        return None
    try:
        seed = int(text.strip(), 0)
    except ValueError:
        seed = -1
    if not 0 <= seed < 2**64:
        _fail(
            f"--seed {text!r}: not allowed, the seed is an unsigned 64-bit integer (0..{2**64 - 1})"
        )
    return seed


def _version_callback(value: bool) -> None:
    if value:
        from .._core import BUILD, __version__

        console("out").print(f"hopsim {__version__} ({BUILD} build)")
        raise typer.Exit()


def _root(
    version: Annotated[
        bool,
        typer.Option(
            "--version",
            callback=_version_callback,
            is_eager=True,
            help="Print the hopsim version and exit.",
        ),
    ] = False,
) -> None:
    """Global options."""
