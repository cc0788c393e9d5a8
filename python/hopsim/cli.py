"""The ``hopsim`` command line.

Exit codes: 0 success; 2 bad input (missing file, TOML syntax error, bad ``--set``, a
scenario rejected by the core), with one message on stderr and no traceback; 1 an internal
error of the simulator (set ``HOPSIM_DEBUG=1`` to see the traceback).
"""

from __future__ import annotations

import math
import os
import sys
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer
from rich.console import Console
from rich.markup import escape

from . import (
    InternalError,
    Result,
    RunOptionsUnsupported,
    ScenarioError,
    dumps_toml,
    prepare,
    run,
    validate,
)
from .result import SERIES_FORMATS, series_format
from .sweeps.errors import FolderBusy, FolderUnusable, StoreError, StoreUnreadable

app = typer.Typer(
    name="hopsim",
    help=(
        "hopsim: a fast, deterministic packet-level simulator of TCP over multihop "
        "IEEE 802.11 networks. Scenarios are TOML files; docs/interfaces.md lists every key "
        "and its default.\n\n"
        "Exit codes: 0 success; 2 bad input (missing file, TOML syntax error, bad --set, a "
        "rejected key or value, an unusable output folder or one another hopsim is writing), "
        "reported in one message on stderr; 1 failed runs or an internal error; 130 "
        "interrupted (finished runs are kept)."
    ),
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)


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

out = Console(highlight=False)
err = Console(stderr=True, highlight=False)

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


PcapOpt = Annotated[
    Path | None,
    typer.Option(
        "--pcap",
        metavar="DIR",
        help=(
            "Write one pcap file per node, DIR/node-<id>.pcap, in the radiotap + 802.11 link "
            "type: every frame the node sent or received correctly, RTS/CTS/ACK included (open "
            "them in Wireshark or tshark). DIR is created when missing; files of the same "
            "name are replaced."
        ),
        show_default=False,
    ),
]
PcapIpOpt = Annotated[
    Path | None,
    typer.Option(
        "--pcap-ip",
        metavar="DIR",
        help=(
            "Write one raw-IP pcap file per flow endpoint, DIR/flow-<f>-node-<id>.pcap: the "
            "packets that endpoint sent and received, as its transport saw them (what tcptrace "
            "analyses: tcptrace -l DIR/flow-0-node-0.pcap). DIR is created when missing."
        ),
        show_default=False,
    ),
]
SeriesOpt = Annotated[
    Path | None,
    typer.Option(
        "--series",
        metavar="FILE",
        help=(
            "Record a time series and write it to FILE: per flow and sample, the time, the "
            "congestion window (TCP; empty for UDP), the goodput over the sample interval "
            "(kbit/s) and the bytes delivered so far (long format, one row per flow per "
            "sample). The format follows the suffix: .parquet (Apache Parquet), .arrow or "
            ".feather (Arrow IPC), .csv."
        ),
        show_default=False,
    ),
]
SeriesIntervalOpt = Annotated[
    float | None,
    typer.Option(
        "--series-interval",
        metavar="S",
        help=(
            "Sampling interval of the time series in simulated seconds (default 1.0 with "
            "--series). Without --series it needs --json, and the series is then part of the "
            'JSON document (key "series").'
        ),
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


#: Default sampling interval of --series (simulated seconds).
DEFAULT_SERIES_INTERVAL_S = 1.0


def _fail(message: str, code: int = EXIT_BAD_INPUT) -> NoReturn:
    err.print(f"[bold red]error:[/] {escape(message)}", soft_wrap=True)
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
    except IsADirectoryError as exc:
        _fail(f"{exc.filename}: is a directory, not a scenario file" if exc.filename else str(exc))
    except FileNotFoundError as exc:
        _fail(str(exc) if not exc.filename else f"scenario file {exc.filename!r} not found")
    except PermissionError as exc:
        _fail(f"cannot read {exc.filename or ''}: permission denied")
    except OSError as exc:
        _fail(f"cannot read the scenario: {exc}")
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
        from . import __version__

        out.print(f"hopsim {__version__}")
        raise typer.Exit()


@app.callback()
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


@app.command(
    "run",
    help=(
        "Run one simulation and print a summary: a line describing the scenario; per flow "
        "the source, destination, protocol (the TCP variant for TCP flows), hops, goodput "
        "(kbit/s over the window after warmup_s), packets sent, delivered, dropped and in "
        "flight, and the mean end-to-end delay; for TCP flows a second table with data "
        "segments sent, retransmissions, timeouts, fast retransmits, ACKs sent, the "
        "time-averaged congestion window (and, for flows with a window limit policy, the "
        "time-averaged limit in force), the share of time in slow start and the RTT "
        "median and 95th percentile; the MAC totals (attempts, retries, retry-limit drops, "
        "collisions, queue drops, link drop probability); and the wall time, events/s and "
        "simulated seconds per wall second measured around the run. With --json, only the "
        "JSON result document. --pcap, --pcap-ip and --series record traces and time "
        "series; they do not change the results."
    ),
)
def run_cmd(
    file: FileArg,
    set_: SetOpt = None,
    seed: SeedOpt = None,
    json_out: Annotated[
        bool,
        typer.Option(
            "--json",
            help=(
                "Print exactly the JSON result document on stdout (no table, no timing), "
                "for scripts: hopsim run FILE --json | jq .flows."
            ),
        ),
    ] = False,
    pcap: PcapOpt = None,
    pcap_ip: PcapIpOpt = None,
    series: SeriesOpt = None,
    series_interval: SeriesIntervalOpt = None,
    max_events: MaxEventsOpt = None,
    max_memory_mb: MaxMemoryOpt = None,
) -> None:
    # Check the output options before the run, which may take long.
    budget = parse_budget(max_events, max_memory_mb)
    if series is not None:
        try:
            series_format(series)
        except ValueError as exc:
            _fail(f"--series: {exc}")
        if series.is_dir():
            _fail(f"--series {str(series)!r}: is a directory; give a file name, e.g. series.csv")
    if series_interval is not None:
        if not (math.isfinite(series_interval) and series_interval > 0):
            _fail(
                f"--series-interval {series_interval!r}: not allowed, it must be a positive "
                "number of simulated seconds (e.g. 0.5)"
            )
        if series is None and not json_out:
            _fail(
                "--series-interval needs --series FILE (or --json, to get the series in the "
                "JSON document)"
            )
    interval = series_interval
    if series is not None and interval is None:
        interval = DEFAULT_SERIES_INTERVAL_S
    for opt, path in (("--pcap", pcap), ("--pcap-ip", pcap_ip)):
        if path is not None and path.exists() and not path.is_dir():
            _fail(f"{opt} {str(path)!r}: exists and is not a directory")
        if path is not None:
            try:
                path.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                _fail(f"{opt} {str(path)!r}: cannot create the folder ({exc.strerror or exc})")

    res: Result = _guarded(
        run,
        file,
        overrides=set_ or [],
        seed=_parse_seed(seed),
        series_interval_s=interval,
        pcap_dir=pcap,
        pcap_ip_dir=pcap_ip,
        **budget,
    )
    written = None
    if series is not None:
        try:
            written = res.write_series(series)
        except (OSError, ValueError) as exc:
            _fail(f"cannot write the time series to {str(series)!r}: {exc}")
    for warning in res.raw.get("warnings", []):
        err.print(f"[bold yellow]warning:[/] {escape(warning)}", soft_wrap=True)
    if json_out:
        sys.stdout.write(res.to_json() + "\n")
        sys.stdout.flush()
        return
    from .report import _print_result  # late: rich tables only when a result is printed

    _print_result(res, file)
    _print_outputs(res, written, interval, pcap, pcap_ip)


def _print_outputs(
    res: Result,
    series_file: Path | None,
    interval: float | None,
    pcap: Path | None,
    pcap_ip: Path | None,
) -> None:
    """One line per file set written (time series, traces)."""
    if series_file is not None:
        cols = res.series or {}
        rows = len(cols.get("time_s", []))
        kind = SERIES_FORMATS.get(series_file.suffix.lower(), "?")
        out.print(
            f"[bold]series[/]: {rows:,} rows ({len(res.flows)} flow"
            f"{'s' if len(res.flows) != 1 else ''}, every {interval:g} s) -> "
            f"{escape(str(series_file))} ({kind})",
            soft_wrap=True,  # a path is never broken across lines
        )
    for label, directory, pattern in (
        ("pcap", pcap, "node-*.pcap"),
        ("pcap-ip", pcap_ip, "flow-*-node-*.pcap"),
    ):
        if directory is not None:
            n = len(list(directory.glob(pattern))) if directory.is_dir() else 0
            out.print(
                f"[bold]{label}[/]: {n} file{'s' if n != 1 else ''} ({pattern}) in "
                f"{escape(str(directory))}",
                soft_wrap=True,
            )


@app.command(
    "validate",
    help=(
        "Check a scenario without running it, and print it fully resolved (every default "
        "filled in) as TOML that hopsim run accepts, or as JSON with --json."
    ),
)
def validate_cmd(
    file: FileArg,
    set_: SetOpt = None,
    seed: SeedOpt = None,
    json_out: Annotated[
        bool,
        typer.Option("--json", help="Print the resolved scenario as JSON instead of TOML."),
    ] = False,
    raw: Annotated[
        bool,
        typer.Option(
            "--raw",
            help=(
                "Skip the core: print the scenario after --set/--seed only, without the "
                "defaults and without validation."
            ),
        ),
    ] = False,
) -> None:
    if raw:
        doc = _guarded(prepare, file, overrides=set_ or [], seed=_parse_seed(seed))
    else:
        doc = _guarded(validate, file, overrides=set_ or [], seed=_parse_seed(seed))
    if json_out:
        import json

        sys.stdout.write(json.dumps(doc, indent=2) + "\n")
    else:
        sys.stdout.write(dumps_toml(doc))
    sys.stdout.flush()


# Further commands live in their own modules; importing them registers them on `app`.
from . import cli_sweep  # noqa: E402, F401  (registers sweep, results, plot, reproduce)
from .cli_advise import advise_cmd  # noqa: E402, F401  (registers hopsim advise)
from .cli_crosscheck import crosscheck_cmd  # noqa: E402, F401  (registers hopsim crosscheck)
from .cli_show import show_cmd  # noqa: E402, F401  (registers hopsim show)


def main() -> None:
    """Entry point of the ``hopsim`` console script."""
    app(prog_name="hopsim")


if __name__ == "__main__":
    main()
