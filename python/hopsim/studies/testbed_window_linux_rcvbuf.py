"""Koutsonikolas et al. re-run with the hosts' TCP, reading the paper's max window as the
receive window. The paper changed the "TCP window" between runs (S003:110, footnote) and
found no effect of it on one hop (S003:129); with iperf that is the socket buffer (`-w`):
the receiver advertises at most that window, SO_RCVBUF turns autotuning off, cwnd is not
clamped, and Linux's receiver acknowledges at once each read that opens the window
(`tcp_cleanup_rbuf`, docs/models.md 8.13), so a window of one segment does not wait for the
delayed ACK as a cwnd clamp of one does (study `testbed-window-linux`).
"""

from __future__ import annotations

from typing import Any

from .. import _core
from . import testbed_window as tw
from . import testbed_window_linux as tl
from .common import Claim, Study, StudyContext

WINDOW = "testbed-window-linux-rcvbuf"


def window_sweep(quick: bool) -> dict[str, Any]:
    """The linux sweep with the receive window swept instead of the cwnd clamp."""
    doc = tl.window_sweep(quick)
    doc["name"] = WINDOW
    windows = doc["sweep"].pop("tcp.max_window")
    doc["sweep"]["tcp.receiver_window"] = [w or _core.LINUX_RCVWND_MAX_SEGMENTS for w in windows]
    doc["scenario"]["tcp"]["rwnd_autotuning"] = False
    return doc


def analyse(ctx: StudyContext) -> list[Claim]:
    return tw.analyse(ctx, WINDOW, tl.SURVEY)


STUDY = Study(
    name=WINDOW,
    title="Koutsonikolas et al. re-run with the hosts' TCP, the max window as the receive window",
    source=tw.STUDY.source,
    sweeps=[window_sweep, tl.survey_sweep],
    analyse=analyse,
    notes=tl.STUDY.notes
    + """
Here the max window is the receive window (SO_RCVBUF: autotuning off, cwnd unclamped;
"unclamped" is the linux host's bound of 2154 segments).""",
)
