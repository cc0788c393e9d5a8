"""Progress of a sweep: a rich progress bar on a terminal, plain periodic lines otherwise."""

from __future__ import annotations

import os
import sys
import time
from typing import Any, TextIO

__all__ = ["SweepProgress"]


def _fmt_duration(seconds: float) -> str:
    if seconds != seconds or seconds == float("inf"):
        return "?"
    seconds = int(round(seconds))
    h, rest = divmod(seconds, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


class SweepProgress:
    """Counts runs done and failed; shows rate and time left.

    ``mode``: ``"bar"`` (rich), ``"lines"`` (one line every ``interval_s``, default 10 s or
    ``$HOPSIM_PROGRESS_INTERVAL``) or ``"off"``; ``None`` chooses the bar on a terminal.
    """

    def __init__(
        self,
        total: int,
        label: str,
        mode: str | None = None,
        stream: TextIO | None = None,
        interval_s: float | None = None,
    ) -> None:
        self.stream = stream or sys.stderr
        if mode is None:
            mode = "bar" if self.stream.isatty() else "lines"
        self.mode = mode
        self.total = total
        self.done = 0
        self.failed = 0
        self.label = label
        self.interval_s = (
            interval_s
            if interval_s is not None
            else float(os.environ.get("HOPSIM_PROGRESS_INTERVAL", "10"))
        )
        self._t0 = time.monotonic()
        self._last_line = self._t0
        self._bar: Any = None
        self._task: Any = None
        if mode == "bar":
            from rich.console import Console
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                Progress,
                TextColumn,
                TimeElapsedColumn,
                TimeRemainingColumn,
            )

            self._bar = Progress(
                TextColumn("[bold]{task.description}"),
                BarColumn(),
                MofNCompleteColumn(),
                TextColumn("{task.fields[failed]} failed"),
                TextColumn("{task.fields[rate]}"),
                TimeElapsedColumn(),
                TextColumn("left"),
                TimeRemainingColumn(),
                console=Console(file=self.stream),
                transient=False,
            )
            self._bar.start()
            self._task = self._bar.add_task(label, total=total, failed=0, rate="")

    def rate_per_min(self) -> float:
        elapsed = time.monotonic() - self._t0
        return 60.0 * (self.done + self.failed) / elapsed if elapsed > 0 else 0.0

    def eta_s(self) -> float:
        finished = self.done + self.failed
        if finished == 0:
            return float("inf")
        elapsed = time.monotonic() - self._t0
        return elapsed / finished * (self.total - finished)

    def add_total(self, n: int) -> None:
        self.total += n
        if self._bar is not None:
            self._bar.update(self._task, total=self.total)

    def advance(self, ok: bool) -> None:
        if ok:
            self.done += 1
        else:
            self.failed += 1
        if self._bar is not None:
            self._bar.update(
                self._task,
                completed=self.done + self.failed,
                failed=self.failed,
                rate=f"{self.rate_per_min():.1f} runs/min",
            )
        elif self.mode == "lines":
            now = time.monotonic()
            if now - self._last_line >= self.interval_s:
                self._last_line = now
                self._line()

    def _line(self) -> None:
        print(
            f"{self.label}: {self.done + self.failed}/{self.total} runs "
            f"({self.done} done, {self.failed} failed), {self.rate_per_min():.1f} runs/min, "
            f"elapsed {_fmt_duration(time.monotonic() - self._t0)}, "
            f"left {_fmt_duration(self.eta_s())}",
            file=self.stream,
            flush=True,
        )

    def close(self) -> None:
        if self._bar is not None:
            self._bar.stop()
            self._bar = None
        elif self.mode == "lines" and self.total:
            self._line()
