"""``hopsim run`` and ``hopsim validate``: one scenario."""

from __future__ import annotations

import math
import sys
from pathlib import Path
from typing import Annotated

import typer

from .._core import ScenarioError
from ..api import prepare, run, validate
from ..result import SERIES_FORMATS, Result, series_format
from ..scenario import dumps_toml
from .common import (
    Commands,
    FileArg,
    MaxEventsOpt,
    MaxMemoryOpt,
    SeedOpt,
    SetOpt,
    _fail,
    _guarded,
    _parse_seed,
    console,
    parse_budget,
)

commands = Commands()

#: Default sampling interval of --series (simulated seconds).
DEFAULT_SERIES_INTERVAL_S = 1.0

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
TraceOpt = Annotated[
    Path | None,
    typer.Option(
        "--trace",
        metavar="FILE",
        help=(
            "Write the event trace to FILE (.parquet or .csv): one row per event at every "
            "layer (frames on the air and receptions, backoffs, NAV, queue, routing, TCP and "
            "application events; every drop with its reason), streamed while the run goes. "
            "Columns and event names: docs/interfaces.md, 'Event trace'."
        ),
        show_default=False,
    ),
]
TraceNs2Opt = Annotated[
    Path | None,
    typer.Option(
        "--trace-ns2",
        metavar="FILE",
        help=(
            "Write the run's events to FILE (.tr) in ns-2's classic wireless trace format "
            "(s/r/f/D lines with AGT, RTR, MAC and IFQ), so awk scripts written for ns-2 "
            "traces (throughput, delivery ratio, delay) work unchanged; the mapping is in "
            "docs/interfaces.md, 'ns-2 trace'."
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


@commands.command(
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
        "JSON result document. --pcap, --pcap-ip, --trace, --trace-ns2 and --series record "
        "traces and time series; they do not change the results."
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
    trace: TraceOpt = None,
    trace_ns2: TraceNs2Opt = None,
    series: SeriesOpt = None,
    series_interval: SeriesIntervalOpt = None,
    max_events: MaxEventsOpt = None,
    max_memory_mb: MaxMemoryOpt = None,
) -> None:
    # Check the output options before the run, which may take long.
    budget = parse_budget(max_events, max_memory_mb)
    if trace is not None:
        from ..events import check_trace_path

        try:
            check_trace_path(trace, "--trace")
        except ScenarioError as exc:
            _fail(str(exc))
    if trace_ns2 is not None:
        from ..events import check_trace_path

        try:
            check_trace_path(trace_ns2, "--trace-ns2", suffixes=(".tr",))
        except ScenarioError as exc:
            _fail(str(exc))
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
        trace=trace,
        trace_ns2=trace_ns2,
        **budget,
    )
    written = None
    if series is not None:
        try:
            written = res.write_series(series)
        except (OSError, ValueError) as exc:
            _fail(f"cannot write the time series to {str(series)!r}: {exc}")
    for warning in res.raw.get("warnings", []):
        from rich.markup import escape  # late, as rich: not needed for --json without warnings

        console("err").print(f"[bold yellow]warning:[/] {escape(warning)}", soft_wrap=True)
    if json_out:
        sys.stdout.write(res.to_json() + "\n")
        sys.stdout.flush()
        return
    from rich.markup import escape

    from ..report import _print_result  # late: rich tables only when a result is printed

    out = console("out")
    _print_result(res, file)
    _print_outputs(res, written, interval, pcap, pcap_ip)
    for label, path in (("trace", trace), ("trace-ns2", trace_ns2)):
        if path is not None:
            size_mb = path.stat().st_size / 1e6 if path.exists() else 0.0
            out.print(f"[bold]{label}[/]: {escape(str(path))} ({size_mb:.1f} MB)", soft_wrap=True)


def _print_outputs(
    res: Result,
    series_file: Path | None,
    interval: float | None,
    pcap: Path | None,
    pcap_ip: Path | None,
) -> None:
    """One line per file set written (time series, traces)."""
    from rich.markup import escape

    out = console("out")
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


@commands.command(
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
