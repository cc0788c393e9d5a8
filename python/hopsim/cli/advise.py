"""``hopsim advise``: the published CWL rules for a path, and with --search a quick sweep
that recommends a window and TCP variant (logic in :mod:`hopsim.advise`)."""

from __future__ import annotations

import math
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich import box
from rich.markup import escape
from rich.table import Table

from ..sweeps.errors import StoreError
from .common import Commands, _fail, _guarded, err, out
from .sweep import out_folder

if TYPE_CHECKING:
    from .. import advise as adv

commands = Commands()

HELP = (
    "Print the congestion window limit (CWL, in segments) that each published rule gives "
    "for an h-hop path: Fu et al. h/4, Chen et al. (Theorem 1, Corollary 1, k = 1/5, "
    "Table 1, delay-based), Kawadia & Kumar 3h/2, the fixed values 3 and 4, Ding et al. "
    "W_1*/n, the testbed Table 3 of Koutsonikolas et al. (by hops, rate and RTS/CTS) and "
    "others, with the segments the simulator would allow in flight and the source (seed "
    "file:line). With --search, run a quick sweep on an h-hop chain (200 m spacing, K bulk "
    "TCP flows 0 -> h) over TCP variants (newreno, sack, vegas with alpha = beta = 2) and the "
    "candidate windows (plus none), and recommend the best with its 95% confidence interval. "
    "Results are kept in --out (default <tmp>/hopsim-advise); rerunning reuses finished runs."
)


def _int(opt: str, text: str | None, low: int, what: str, example: str) -> int | None:
    if text is None:
        return None
    try:
        value = int(text.strip())
    except ValueError:
        value = low - 1
    if value < low:
        _fail(f"{opt} {text!r}: not allowed, {what} is an integer >= {low} (e.g. {opt} {example})")
    return value


def _search_only(given: dict[str, object]) -> None:
    for opt, value in given.items():
        if value is not None:
            _fail(f"{opt} is used only with --search (it sets the sweep); add --search")


def _cwl_cell(r: adv.Recommendation, flows: int) -> str:

    if not r.applies:
        return "n/a"
    text = f"{r.value:g}" + (f"-{r.high:g}" if r.high is not None else "")
    if r.kind == "bound":
        text = "<= " + text
    if r.per_flow is not None and flows > 1:
        text += f" -> {r.per_flow:g} per flow"
    return text


def _flight_cell(r: adv.Recommendation) -> str:
    from .. import advise as adv  # late: keeps `hopsim --help` fast

    if not r.applies or r.kind == "bound":
        return "-"
    ks = r.in_flight()
    text = "-".join(str(k) for k in dict.fromkeys(ks))
    return text + (" (rwnd)" if max(ks) >= adv.RECEIVER_WINDOW else "")


def _print_rules(hops: int, rate: float | str, rts: bool, flows: int) -> list[adv.Recommendation]:
    from .. import advise as adv  # late: keeps `hopsim --help` fast

    recs = adv.rules(hops, rate, rts, flows)
    rate_text = "auto rate" if rate == "auto" else f"{rate:g} Mbit/s"
    table = Table(
        title=(
            f"CWL rules for a path of {hops} hop{'s' if hops != 1 else ''} (N = {2 * hops} "
            f"round-trip hops), {rate_text}, RTS/CTS {'on' if rts else 'off'}, {flows} "
            f"flow{'s' if flows != 1 else ''}; CWL in segments per flow"
        ),
        title_justify="left",
        box=box.SIMPLE_HEAD,
        pad_edge=False,
    )
    table.add_column("rule")
    table.add_column("published by", overflow="fold")
    table.add_column("formula", overflow="fold")
    table.add_column("CWL", justify="right", overflow="fold")
    table.add_column("in flight", justify="right")
    table.add_column("source (seed:line)", overflow="fold")
    for r in recs:
        who = escape(r.name) + ("" if r.kind == "recommendation" else f" [dim]({r.kind})[/]")
        table.add_row(
            r.rule, who, escape(r.formula), escape(_cwl_cell(r, flows)), _flight_cell(r), r.source
        )
    out.print(table)
    notes = Table.grid(padding=(0, 1), pad_edge=True)
    notes.add_column(style="dim", no_wrap=True)
    notes.add_column(overflow="fold")
    for r in recs:
        if r.note:
            notes.add_row(f"{r.rule}:", escape(r.note))
    out.print(notes)
    out.print(adv.summary_line(recs, hops))
    out.print(
        "[dim]Rounding: CWLs may be fractional; the core caps cwnd at the CWL and allows "
        f"floor(min(CWL, receiver window {adv.RECEIVER_WINDOW})) segments in flight, at least "
        "1 (docs/models.md 8.1). R1-R6 are ns-2 simulations of regular chains (closest to "
        "hopsim's chain); R7, R8 and R15 come from testbeds; sources: "
        "docs/research/paper-values.md section 6.[/]"
    )
    if flows > 1:
        out.print(
            f"With {flows} flows: only R14 defines a per-flow share (W_1*/n); every other "
            "value is a per-flow limit as published (for one flow)."
        )
    return recs


def _window_text(w: float) -> str:
    return f"{w:g}" if w > 0 else "none"


def _print_search(res: adv.SearchResult) -> None:

    table = Table(
        title=(
            f"Search: {res.hops}-hop chain, {res.rate_mbps:g} Mbit/s, RTS/CTS "
            f"{'on' if res.rts else 'off'}, {res.flows} flow{'s' if res.flows != 1 else ''}; "
            "goodput summed over flows"
        ),
        title_justify="left",
        box=box.SIMPLE_HEAD,
        pad_edge=False,
    )
    table.add_column("variant")
    table.add_column("CWL", justify="right")
    table.add_column("rules", overflow="fold")
    table.add_column("goodput kbit/s ± 95% CI", justify="right", no_wrap=True)
    table.add_column("retx", justify="right")
    table.add_column("runs", justify="right")
    table.add_column("", no_wrap=True)
    tied = {id(r) for r in res.tied}
    for r in sorted(res.rows, key=lambda r: (r.variant, r.size)):
        g, x = r.goodput, r.retransmissions
        if g is None:
            gtext = "failed"
        elif math.isnan(g.half_width):
            gtext = f"{g.mean:.1f}"
        else:
            gtext = f"{g.mean:.1f} ± {g.half_width:.1f}"
        mark = "best" if r is res.best else ("~ best" if id(r) in tied else "")
        if r is res.recommended:
            mark = "recommended"
        table.add_row(
            r.variant,
            _window_text(r.window),
            ", ".join(r.rules),
            gtext,
            "-" if x is None else f"{x.mean:.1f}",
            str(g.n if g else 0),
            mark,
            style="bold" if r is res.recommended else None,
        )
    out.print(table)
    out.print(
        f"[dim]{res.runs_done} runs done, {res.runs_skipped} reused from "
        f"{escape(str(res.out_dir))}, {res.wall_s:.1f} s.[/]"
    )
    for f in res.failures[:5]:
        out.print(f"[yellow]failed run:[/] {escape(f)}")
    b, rec = res.best, res.recommended
    if b is None or rec is None or b.goodput is None or rec.goodput is None:
        _fail("no run of the search finished; see the failures above", code=1)
    out.print(
        f"Best: {b.variant} with CWL {_window_text(b.window)}: {b.goodput.mean:.1f} kbit/s"
        + ("" if math.isnan(b.goodput.half_width) else f" (95% CI {b.goodput.ci_low:.1f}-"
           f"{b.goodput.ci_high:.1f}, {b.goodput.n} runs)")
    )  # fmt: skip
    if res.tied:
        names = ", ".join(f"{r.variant}/{_window_text(r.window)}" for r in res.tied)
        out.print(f"Statistically indistinguishable from it (95% CIs overlap): {names}.")
    out.print(
        f"[bold]Recommendation:[/] {rec.variant} with CWL {_window_text(rec.window)} "
        f"({rec.goodput.mean:.1f} kbit/s). Rule: {res.rule}."
    )


def _search(*args: Any, **kwargs: Any) -> adv.SearchResult:
    """adv.search, with Ctrl-C and result-store errors ending the command with one message."""
    from .. import advise as adv  # late: keeps `hopsim --help` fast
    from ..sweeps import SweepInterrupted

    try:
        return adv.search(*args, **kwargs)
    except SweepInterrupted as exc:
        err.print(
            f"interrupted: {exc.stored} finished runs are in {exc.store_path}; rerun the same "
            "command to resume"
        )
        raise typer.Exit(130) from None
    except StoreError as exc:
        _fail(f"--out: {exc}")


def _opt(name: str, metavar: str, help: str, *short: str) -> typer.models.OptionInfo:
    return typer.Option(name, *short, metavar=metavar, help=help, show_default=False)


@commands.command("advise", help=HELP)
def advise_cmd(
    hops: Annotated[str, _opt("--hops", "H", "Hops of the path, an integer >= 1.")],
    rate: Annotated[
        str, _opt("--rate", "MBPS", "Data rate: 1, 2 (default), 5.5, 11 or auto.")
    ] = "2",
    rts: Annotated[str, _opt("--rts", "on|off", "RTS/CTS on (default) or off.")] = "on",
    flows: Annotated[str, _opt("--flows", "K", "TCP flows sharing the path (default 1).")] = "1",
    search: Annotated[
        bool, typer.Option("--search", help="Also run a quick sweep and recommend.")
    ] = False,
    duration: Annotated[
        float | None, _opt("--duration", "S", "--search: simulated s per run (100); warmup 1/10.")
    ] = None,
    replications: Annotated[
        str | None, _opt("--replications", "R", "--search: runs per point (5).")
    ] = None,
    jobs: Annotated[
        str | None, _opt("--jobs", "N", "--search: local processes (all cores).", "-j")
    ] = None,
    scheduler: Annotated[
        str | None, _opt("--scheduler", "ADDR", "--search: a Dask scheduler.")
    ] = None,
    out_dir: Annotated[
        str | None,
        _opt("--out", "DIR", "--search: result store (default <tmp>/hopsim-advise).", "-o"),
    ] = None,
    variants: Annotated[
        str | None, _opt("--variants", "LIST", "--search: e.g. newreno,vegas (newreno,sack,vegas).")
    ] = None,
    windows: Annotated[
        str | None,
        _opt("--windows", "LIST", "--search: CWLs, e.g. 1,3,0 (0 = none; default: the rules')."),
    ] = None,
) -> None:
    from .. import advise as adv  # late: keeps `hopsim --help` fast

    h = _int("--hops", hops, 1, "the number of hops", "7")
    k = _int("--flows", flows, 1, "the number of flows", "2")
    assert h is not None and k is not None
    try:
        rate_v = adv.parse_rate(rate)
    except ValueError as exc:
        _fail(f"--rate {exc}")
    if rts.strip().lower() not in ("on", "off"):
        _fail(f"--rts {rts!r}: not allowed; use on or off")
    rts_on = rts.strip().lower() == "on"
    given = {"--duration": duration, "--replications": replications, "--jobs": jobs,
             "--scheduler": scheduler, "--out": out_dir, "--variants": variants,
             "--windows": windows}  # fmt: skip
    if not search:
        _search_only(given)
    reps = _int("--replications", replications, 1, "the number of runs per point", "5")
    n_jobs = _int("--jobs", jobs, 1, "the number of processes", "2")
    if search:
        if rate_v == "auto":
            _fail("--rate 'auto': not available with --search (the simulator has no rate "
                  "adaptation yet); give 1, 2, 5.5 or 11")  # fmt: skip
        if duration is not None and not (math.isfinite(duration) and duration > 0):
            _fail(f"--duration {duration!r}: not allowed, a positive number of seconds (e.g. 100)")
        var_list = [v.strip() for v in (variants or ",".join(adv.SEARCH_VARIANTS)).split(",")]
        for v in var_list:
            if v not in adv.TCP_VARIANTS:
                _fail(f"--variants {variants!r}: {v!r} not allowed; allowed: "
                      f"{', '.join(adv.TCP_VARIANTS)}")  # fmt: skip
        win_list = None
        if windows is not None:
            try:
                win_list = [float(w) for w in windows.split(",")]
            except ValueError:
                win_list = [-1.0]
            if any(not (w == 0 or (math.isfinite(w) and w >= 1)) for w in win_list):
                _fail(f"--windows {windows!r}: not allowed; give CWLs >= 1 or 0 (no limit), "
                      "comma-separated (e.g. 1,3,0)")  # fmt: skip
    folder = out_folder(out_dir, Path()) if out_dir is not None else None
    _print_rules(h, rate_v, rts_on, k)
    if not search:
        return
    out.print()
    res = _guarded(
        _search, h, rate_v, rts_on, k, variants=var_list, windows=win_list,
        duration_s=duration or adv.DEFAULT_DURATION_S,
        replications=reps or adv.DEFAULT_REPLICATIONS, jobs=n_jobs,
        scheduler=scheduler, out_dir=folder, progress=None,
    )  # fmt: skip
    _print_search(res)
