"""The ``hopsim`` command line.

Exit codes: 0 success; 2 bad input (missing file, TOML syntax error, bad ``--set``, a
scenario rejected by the core), with one message on stderr and no traceback; 1 an internal
error of the simulator (set ``HOPSIM_DEBUG=1`` to see the traceback).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer
from rich import box
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from . import Result, ScenarioError, dumps_toml, prepare, run, validate

app = typer.Typer(
    name="hopsim",
    help=(
        "hopsim: a fast, deterministic packet-level simulator of TCP over multihop "
        "IEEE 802.11 networks. Scenarios are TOML files; docs/interfaces.md lists every key "
        "and its default.\n\n"
        "Exit codes: 0 success; 2 bad input (missing file, TOML syntax error, bad --set, a "
        "rejected key or value), reported in one message on stderr; 1 internal error."
    ),
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)

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


def _num(value: Any, fmt: str = "{:,}") -> str:
    if value is None:
        return "-"
    try:
        return fmt.format(value)
    except (TypeError, ValueError):
        return str(value)


def _topology_summary(scenario: dict[str, Any], n_nodes: int) -> str:
    topo = scenario.get("topology", {}) or {}
    kind = topo.get("kind", "?")
    if kind == "chain":
        hops = topo.get("hops")
        return (
            f"chain of {hops} hop{'' if hops == 1 else 's'}, "
            f"{_num(topo.get('spacing_m'), '{:g}')} m apart"
        )
    if kind == "grid":
        return (
            f"grid {topo.get('rows')}x{topo.get('cols')}, "
            f"{_num(topo.get('spacing_m'), '{:g}')} m apart"
        )
    if kind == "random":
        area = topo.get("area_m") or ["?", "?"]
        return f"random, {n_nodes} nodes in {area[0]:g}x{area[1]:g} m"
    return f"{kind}, {n_nodes} nodes"


def _mac_summary(mac: dict[str, Any]) -> str:
    rts = mac.get("rts_threshold_bytes")
    if rts == 0:
        rts_text = "RTS/CTS always"
    elif isinstance(rts, int) and rts >= 2347:
        rts_text = "no RTS/CTS"
    elif rts is None:
        rts_text = "RTS/CTS ?"
    else:
        rts_text = f"RTS/CTS above {rts} B"
    return (
        f"802.11 DCF {_num(mac.get('data_rate_mbps'), '{:g}')} Mbit/s "
        f"(basic {_num(mac.get('basic_rate_mbps'), '{:g}')}), {rts_text}, "
        f"queue {_num(mac.get('queue_packets'))} packets"
    )


def _print_result(res: Result, file: Path) -> None:
    scn = res.scenario
    mac = scn.get("mac", {}) or {}
    radio = scn.get("radio", {}) or {}
    n_flows = len(res.flows)
    out.print(
        f"[bold]{escape(file.name)}[/]: {_topology_summary(scn, len(res.nodes))}, "
        f"{len(res.nodes)} nodes, {n_flows} flow{'s' if n_flows != 1 else ''}; "
        f"{_num(res.duration_s, '{:g}')} s simulated, measured after "
        f"{_num(res.warmup_s, '{:g}')} s; seed {res.raw.get('seed')}"
    )
    details = []
    if mac:
        details.append(_mac_summary(mac))
    if radio.get("propagation"):
        details.append(f"{radio.get('propagation')}, {radio.get('reception')} reception")
    details.append(f"hopsim {escape(res.hopsim_version)}")
    out.print("[dim]" + "; ".join(details) + "[/]")

    table = Table(box=box.SIMPLE_HEAD, header_style="bold", show_edge=False, padding=(0, 1, 0, 0))
    for name, justify in [
        ("src", "right"),
        ("dst", "right"),
        ("proto", "left"),
        ("hops", "right"),
        ("goodput\nkbit/s", "right"),
        ("sent", "right"),
        ("delivered", "right"),
        ("dropped", "right"),
        ("in\nflight", "right"),
        ("delay\nms", "right"),
    ]:
        table.add_column(name, justify=justify, no_wrap=True)  # type: ignore[arg-type]
    for f in res.flows:
        table.add_row(
            _num(f.get("src")),
            _num(f.get("dst")),
            escape(str(f.get("transport", "-"))),
            _num(f.get("hops")),
            _num(f.get("goodput_kbps"), "{:,.1f}"),
            _num(f.get("packets_sent"), "{}"),
            _num(f.get("packets_delivered"), "{}"),
            _num(f.get("packets_dropped"), "{}"),
            _num(f.get("packets_in_flight"), "{}"),
            _num(f.get("mean_delay_ms"), "{:,.2f}"),
        )
    out.print(table)

    t = res.totals
    out.print(
        "[bold]totals[/]: "
        f"MAC attempts {_num(t.get('mac_attempts'))} · "
        f"retries {_num(t.get('mac_retries'))} · "
        f"retry-limit drops {_num(t.get('retry_limit_drops'))} · "
        f"collisions {_num(t.get('collisions'))} · "
        f"queue drops {_num(t.get('queue_drops'))} · "
        f"link drop probability {_num(t.get('link_drop_probability'), '{:.4f}')}"
    )
    wall = res.wall_time_s or 0.0
    eps = res.events_per_s
    speed = res.speedup
    out.print(
        f"[bold]engine[/]: {_num(res.events)} events in {wall:.3f} s wall · "
        f"{_num(eps, '{:,.0f}')} events/s · "
        f"{_num(speed, '{:,.1f}')} simulated s per wall s"
    )
    if res.violations:
        err.print(
            f"[bold yellow]warning:[/] {len(res.violations)} invariant violation(s) "
            "(a bug in the simulator, please report it):"
        )
        for v in res.violations:
            err.print(f"  - {escape(str(v))}", soft_wrap=True)


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
        "the source, destination, hops, goodput (kbit/s over the window after warmup_s), "
        "packets sent, delivered, dropped and in flight, and the mean end-to-end delay; the "
        "MAC totals (attempts, retries, retry-limit drops, collisions, queue drops, link drop "
        "probability); and the wall time, events/s and simulated seconds per wall second "
        "measured around the run. With --json, only the JSON result document."
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
) -> None:
    res: Result = _guarded(run, file, overrides=set_ or [], seed=_parse_seed(seed))
    if json_out:
        sys.stdout.write(res.to_json() + "\n")
        sys.stdout.flush()
        return
    _print_result(res, file)


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


def main() -> None:
    """Entry point of the ``hopsim`` console script."""
    app(prog_name="hopsim")


if __name__ == "__main__":
    main()
