"""Tables on the terminal that never cut a number.

Each table is drawn with every column unwrapped when it fits the console; when it does not
(an 80-column terminal, a log file), the same rows are printed stacked, one block per row
with ``header value`` pairs, so a number is never truncated (``21,052.…``) nor split over
lines. Column headers of dotted keys are shortened to their last part (``tcp.max_window`` ->
``max_window``), keeping more of the path only where two keys would look the same.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from rich import box
from rich.console import Console
from rich.markup import escape
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text

__all__ = [
    "fmt_stat",
    "fmt_value",
    "print_fitted",
    "print_pairs",
    "print_points",
    "short_names",
]

#: A column: its header (a newline splits it over two header lines) and its alignment.
Column = tuple[str, str]


def short_names(keys: Sequence[str]) -> dict[str, str]:
    """Each dotted key by its last part, with as many leading parts as keep them distinct."""
    parts = {k: k.split(".") for k in keys}
    depth = dict.fromkeys(keys, 1)
    while True:
        names = {k: ".".join(parts[k][-depth[k] :]) for k in keys}
        clashes = {n for n in names.values() if list(names.values()).count(n) > 1}
        grow = [k for k in keys if names[k] in clashes and depth[k] < len(parts[k])]
        if not grow:
            return names
        for k in grow:
            depth[k] += 1


def _fmt(value: float) -> str:
    if math.isnan(value):
        return "nan"
    mag = abs(value)
    if mag >= 100:
        return f"{value:,.0f}"
    if mag >= 1:
        return f"{value:.2f}"
    return f"{value:.3g}"


def fmt_stat(stat: Any) -> str:
    """A replication summary as ``mean ± half-width`` (the mean alone for one replication)."""
    if stat is None:
        return "-"
    if math.isnan(stat.half_width):
        return _fmt(stat.mean)
    return f"{_fmt(stat.mean)} ± {_fmt(stat.half_width)}"


def fmt_value(v: Any) -> str:
    """A swept value as written in a sweep file (``0.05``, ``vegas``)."""
    return f"{v:g}" if isinstance(v, float) else str(v)


def _table(columns: Sequence[Column], title: str | None) -> Table:
    table = Table(
        title=title,
        title_justify="left",
        box=box.SIMPLE_HEAD,
        header_style="bold",
        show_edge=False,
        padding=(0, 1, 0, 0),
    )
    for name, justify in columns:
        table.add_column(name, justify=justify, no_wrap=True)  # type: ignore[arg-type]
    return table


def print_fitted(
    console: Console,
    columns: Sequence[Column],
    rows: Sequence[Sequence[str]],
    title: str | None = None,
) -> bool:
    """Print ``rows`` as a table if it fits ``console``'s width, else stacked (one block per
    row: its first cell, then ``header value`` pairs, wrapped between pairs only). Cells may
    hold rich markup. Returns whether the table form was used."""
    table = _table(columns, title)
    for row in rows:
        table.add_row(*row)
    # Measured as if the console were unbounded (a measurement is clamped to the width).
    width = Measurement.get(console, console.options.update_width(1 << 20), table).maximum
    if width <= console.width:
        console.print(table)
        return True
    if title:
        console.print(title, highlight=False)
    heads = [" ".join(name.replace("-\n", "").split()) for name, _ in columns]
    for row in rows:
        pairs = [f"{h} [bold]{cell}[/]" for h, cell in zip(heads[1:], row[1:], strict=True)]
        print_pairs(console, f"{heads[0]} {row[0]}:", pairs)
    return False


def print_pairs(
    console: Console, head: str, pairs: Sequence[str], sep: str = " · ", style: str = ""
) -> None:
    """``head`` then the pairs (``label value``, rich markup) separated by ``sep``; a line
    breaks only between pairs, so a number never leaves its label nor splits."""
    line, lines = head, []
    for pair in pairs:
        if not line:
            line = pair
        elif len(_plain(line)) + len(sep) + len(_plain(pair)) > console.width and line != head:
            lines.append(line)
            line = "    " + pair
        else:
            line = f"{line}{sep}{pair}" if line != head else f"{line} {pair}"
    lines.append(line)
    for text in lines:
        console.print(text, highlight=False, soft_wrap=True, style=style)


def _plain(markup: str) -> str:
    """The text of ``markup`` as it shows (its width on the terminal)."""
    return Text.from_markup(markup).plain


def print_points(console: Console, points: Sequence[Any], title: str) -> None:
    """The per-point table of a sweep: the swept values (short headers), runs, and each
    metric's mean ± 95% CI half-width; stacked when it does not fit."""
    if not points:
        console.print(f"{escape(title)}: no finished runs")
        return
    keys = list(points[0].params)
    metrics = list(points[0].stats)
    names = short_names(keys + metrics)
    columns: list[Column] = [(names[k], "left") for k in keys] + [("runs", "right")]
    columns += [(names[m], "right") for m in metrics]
    rows = [
        [escape(fmt_value(p.params.get(k))) for k in keys]
        + [str(p.runs)]
        + [fmt_stat(p.stats.get(m)) for m in metrics]
        for p in points
    ]
    if not keys:  # one point: no swept key to lead the row
        columns.insert(0, ("point", "left"))
        rows = [[str(i)] + r for i, r in enumerate(rows)]
    print_fitted(console, columns, rows, title=escape(title))
    shortened = [escape(f"{names[k]} = {k}") for k in keys + metrics if names[k] != k]
    if shortened:
        print_pairs(console, "", shortened, sep="; ", style="dim")
    console.print(
        "[dim]mean ± half-width of the 95% confidence interval (Student t) over replications[/]"
    )
