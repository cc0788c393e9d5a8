"""``hopsim view``: the run explorer, one self-contained HTML page per run."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from .common import Commands, SeedOpt, SetOpt, _fail, _guarded, _parse_seed, out

commands = Commands()


#: Run pages ``hopsim view DIR`` writes at most (``--max-pages``).
DEFAULT_MAX_PAGES = 40


def _check_applies(is_dir: bool, file_only: dict[str, object], dir_only: dict[str, object]) -> None:
    """An option of the other form (``--window`` with DIR, ``--max-pages`` with FILE) is
    refused: it would be silently ignored."""
    given = dir_only if not is_dir else file_only
    for option, value in given.items():
        if value is not None:
            shown = " ".join(value) if isinstance(value, list) else value
            what = "a scenario FILE" if not is_dir else "a sweep's output folder DIR"
            other = "a sweep's output folder DIR" if not is_dir else "a scenario FILE"
            _fail(
                f"{option} {shown}: not allowed with {what}; it applies to {other} only "
                "(see hopsim view --help)"
            )


def _parse_window(text: str | None) -> tuple[float, float] | None:
    if text is None:
        return None
    try:
        lo, hi = (float(v) for v in text.split(":"))
    except ValueError:
        _fail(f"--window {text!r}: not allowed, give FROM:TO in seconds (e.g. 10:20)")
    if not (0.0 <= lo < hi):
        _fail(f"--window {text!r}: not allowed, it needs 0 <= FROM < TO (seconds)")
    return lo, hi


@commands.command(
    "view",
    help=(
        "Run a scenario with its event trace and write a run explorer: one HTML page that "
        "works offline in any browser (nothing to install, no server). It shows the network "
        "(links, flows' routes, nodes moving with a time scrubber), every node's air "
        "(frames by kind, lost receptions, NAV, queue length) and drops with their reasons "
        "on a timeline to zoom and pan, each flow's window and goodput with its "
        "retransmissions and timeouts; a click on a frame or a drop shows its packet's "
        "journey hop by hop. Given a sweep's output folder DIR instead: an index page with "
        "each sweep's metrics per point (95% CI), every run linking to its page, regenerated "
        "from the stored scenario and checked against the stored result."
    ),
)
def view_cmd(
    file: Annotated[
        Path,
        typer.Argument(
            metavar="FILE|DIR",
            help="Scenario file (TOML), or the output folder of hopsim sweep.",
            show_default=False,
        ),
    ],
    set_: SetOpt = None,
    seed: SeedOpt = None,
    out_file: Annotated[
        Path | None,
        typer.Option(
            "--out",
            "-o",
            metavar="FILE",
            help="FILE.html (default: <scenario name>.html; for DIR: DIR/view/index.html).",
            show_default=False,
        ),
    ] = None,
    window: Annotated[
        str | None,
        typer.Option(
            "--window",
            metavar="FROM:TO",
            help=(
                "Show only simulated seconds FROM to TO (a long run's page is cut where it "
                "reaches about 7 MB, and says so)."
            ),
            show_default=False,
        ),
    ] = None,
    sweep: Annotated[
        str | None, typer.Option("--sweep", metavar="NAME", help="DIR: only this sweep.")
    ] = None,
    max_pages: Annotated[
        int | None,
        typer.Option(
            "--max-pages",
            metavar="N",
            help=f"DIR: write at most N run pages ({DEFAULT_MAX_PAGES}).",
            show_default=False,
        ),
    ] = None,
) -> None:
    is_dir = file.is_dir()
    _check_applies(
        is_dir,
        {"--set": set_ or None, "--seed": seed, "--window": window},
        {"--sweep": sweep, "--max-pages": max_pages},
    )
    if is_dir:
        _view_store(file, out_file, sweep, DEFAULT_MAX_PAGES if max_pages is None else max_pages)
        return
    from ..view import write_view

    target = out_file if out_file is not None else Path(Path(file).stem + ".html")
    if target.suffix.lower() != ".html":
        _fail(f"--out {str(target)!r}: not allowed, the page's name must end in .html")
    _check_page_path(target)
    span = _parse_window(window)
    data = _guarded(write_view, file, target, set_ or [], _parse_seed(seed), span)
    frames = len(data["frames"][0])
    lo, hi = data["window"]
    out.print(
        f"wrote {target} ({target.stat().st_size / 1e6:.1f} MB): {len(data['nodes'])} nodes, "
        f"{frames:,} frames, {lo:g} s to {hi:g} s"
        + (" (cut to keep the page small; see --window)" if data["cut"] else ""),
        soft_wrap=True,
        markup=False,
        highlight=False,
    )


def _check_page_path(target: Path) -> None:
    """The page of one scenario goes in an existing folder (checked before the run)."""
    from ..output import file_in_the_way

    shown = f"--out {str(target)!r}"
    try:
        if target.is_dir():
            _fail(f"{shown}: not allowed, it is a folder; give the page's file name (FILE.html)")
        folder = target.absolute().parent
        if folder.is_dir():
            return
    except OSError as exc:
        _fail(f"{shown}: cannot be used ({exc.strerror or exc}); give another path")
    blocker = file_in_the_way(target.parent)
    why = (
        f"{str(blocker)!r} is a file, not a folder"
        if blocker is not None
        else f"its folder {str(target.parent)!r} does not exist"
    )
    _fail(f"{shown}: not allowed, {why}; the page goes in an existing folder")


def _view_store(folder: Path, out_file: Path | None, sweep: str | None, max_pages: int) -> None:
    from ..output import make_folder
    from ..view import write_index

    if not (folder / "results.sqlite").exists():
        _fail(f"{folder}: no result store here (results.sqlite); run `hopsim sweep` first")
    if max_pages < 0:
        _fail(f"--max-pages {max_pages}: not allowed, give 0 or more")
    target = out_file if out_file is not None else folder / "view" / "index.html"
    if target.suffix.lower() != ".html":
        _fail(f"--out {str(target)!r}: not allowed, the page's name must end in .html")
    shown = (
        f"--out {str(target)!r}"
        if out_file is not None
        else f"the page {str(target)!r} (the default of --out)"
    )
    _guarded(make_folder, target.parent, f"the folder of {shown}")
    done = _guarded(write_index, folder, target, sweep, max_pages)
    out.print(
        f"wrote {target}: {', '.join(done['sweeps'])}; {done['pages']} run pages in "
        f"{target.parent / 'runs'} ({done['identical']} regenerated bit for bit"
        + (f", {done['skipped']} not written: --max-pages" if done["skipped"] else "")
        + ")",
        soft_wrap=True,
        markup=False,
        highlight=False,
    )
