"""``hopsim fit-links``: fit `[radio.gilbert_elliott]` to measured links and check the fit on
the half of each link it did not see (docs/models.md 23)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Annotated

import typer

from .common import Commands, _fail, _guarded, out

commands = Commands()

_RATES = ("1", "2", "5.5", "11")


@commands.command(
    "fit-links",
    help=(
        "Fit each measured link's Gilbert-Elliott table (\\[radio.gilbert_elliott]) on the "
        "first half of its probes and compare the second half with the fitted link run "
        "through hopsim: delivery ratio, loss-burst lengths, autocorrelation. TRACE is a "
        "link trace (src,dst,time_s,delivered[,snr_db]; docs/interfaces.md) or a folder of "
        "MIT Roofnet's probe traces (with --rate). Writes DIR/fits.csv, DIR/held_out.png "
        "and, from Roofnet, DIR/trace.csv."
    ),
)
def fit_links_cmd(
    trace: Annotated[str, typer.Argument(metavar="TRACE", help="Link trace or Roofnet folder.")],
    out_dir: Annotated[
        str, typer.Option("--out", "-o", metavar="DIR", help="Output folder (made if needed).")
    ] = "links-fit",
    rate: Annotated[
        str, typer.Option("--rate", metavar="MBPS", help="Roofnet: the bit rate's folder.")
    ] = "1",
    seed: Annotated[
        int, typer.Option("--seed", metavar="N", help="Seed of the simulated links (1..2^32).")
    ] = 1,
) -> None:
    from ..links import read_trace, write_trace
    from ..links.fit import fit_snr, held_out_report
    from ..links.report import figure, summarise, write_csv
    from ..links.roofnet import read_roofnet
    from ..links.sim import simulate_link

    if rate not in _RATES:
        _fail(f"--rate {rate!r}: not allowed; Roofnet's rates are {', '.join(_RATES)}")
    if not 1 <= seed <= 2**32:
        _fail(f"--seed {seed}: not allowed, give 1..4294967296")
    src = Path(trace)
    if not src.exists():
        _fail(f"{trace}: no such file or folder (a link trace, or a Roofnet folder)")
    dest = Path(out_dir)
    try:
        dest.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        _fail(f"--out {out_dir!r}: cannot make the folder ({exc.strerror or exc})")
    if src.is_dir():
        links, nodes = _guarded(read_roofnet, src, rate)
        comments = {"source": f"MIT Roofnet probes, {rate} Mbit/s, {src}"}
        comments |= {f"node {i}": a for i, a in nodes.items()}
        _write(dest / "trace.csv", lambda p: write_trace(p, links, comments))
    else:
        links = list(_guarded(read_trace, src).values())
    usable = [link for link in links if len(link.delivered) >= 4 and link.interval_s > 0]
    if not usable:
        _fail(f"{trace}: no link with 4 probes or more over time to fit")
    rows = [_guarded(held_out_report, link, simulate_link, seed) for link in usable]
    snr = [fit_snr(link) for link in usable]
    _write(dest / "fits.csv", lambda p: write_csv(p, rows, snr))
    _write(dest / "held_out.png", lambda p: figure(p, rows))
    for line in summarise(rows).lines():
        out.print(line, soft_wrap=True, markup=False, highlight=False)
    out.print(f"wrote {dest}", soft_wrap=True, markup=False, highlight=False)


def _write(path: Path, write: Callable[[Path], object]) -> None:
    try:
        write(path)
    except OSError as exc:
        _fail(f"cannot write {path}: {exc.strerror or exc}", code=1)
