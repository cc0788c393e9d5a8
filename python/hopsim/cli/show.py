"""``hopsim show``: a picture of a scenario's network, its links and the flows' routes."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Annotated

import typer

from .common import Commands, FileArg, SeedOpt, SetOpt, _fail, _guarded, _parse_seed, out

commands = Commands()


@commands.command(
    "show",
    help=(
        "Draw the network of a scenario: nodes with their numbers, the links that decode "
        "(solid) and those that only sense the carrier (dotted) at time 0, every flow's "
        "routes as arrows and mobility tracks; writes PNG and SVG and prints the routes. "
        "Static routes are known beforehand; for AODV, DSR and ETX the scenario is run and "
        "each route is drawn with its share of the measurement window (the result's "
        "`paths`)."
    ),
)
def show_cmd(
    file: FileArg,
    set_: SetOpt = None,
    seed: SeedOpt = None,
    out_file: Annotated[
        str | None,
        typer.Option(
            "--out",
            "-o",
            metavar="FILE",
            help="FILE.png or FILE.svg; without a suffix both (default: <scenario name>).",
            show_default=False,
        ),
    ] = None,
    links: Annotated[
        str,
        typer.Option("--links", metavar="WHICH", help="all | decode | none."),
    ] = "all",
    dpi: Annotated[
        float, typer.Option("--dpi", metavar="DPI", help="Resolution of the PNG (dots per inch).")
    ] = 130.0,
    no_run: Annotated[
        bool,
        typer.Option(
            "--no-run",
            help="Do not run AODV/DSR/ETX scenarios: draw shortest paths at time 0.",
        ),
    ] = False,
) -> None:
    from ..show import draw_network, network_picture, output_paths, summary_lines

    if links not in ("all", "decode", "none"):
        _fail(f"--links {links!r}: not allowed; allowed: all, decode, none")
    if not (math.isfinite(dpi) and 10 <= dpi <= 1200):
        _fail(f"--dpi {dpi!r}: not allowed, give 10..1200 dots per inch (e.g. 200)")
    targets = _guarded(output_paths, out_file if out_file is not None else Path(file).stem)
    pic = _guarded(network_picture, file, set_ or [], _parse_seed(seed), False if no_run else None)
    try:
        written = draw_network(pic, targets, links, dpi)
    except OSError as exc:
        _fail(f"cannot write {', '.join(map(str, targets))}: {exc.strerror or exc}")
    for line in summary_lines(pic):
        out.print(line, soft_wrap=True, markup=False, highlight=False)
    for path in written:
        out.print(f"wrote {path}", soft_wrap=True, markup=False, highlight=False)
