"""Koutsonikolas et al. (seed 003) on links as a real mesh has them (issue 33): the testbed
scenario with each link's losses drawn from MIT Roofnet's measured links instead of
independent per-frame Rayleigh fading. The mean path loss, the static shadowing and the walls
still decide which pairs are links and at what SNR (so which rates they carry); over time each
link (each direction) loses frames as one of Roofnet's 521 links did at 1 Mbit/s, its fitted
Gilbert-Elliott chain drawn uniformly from the set (docs/models.md 23; phy/dynamics/fitted.rs).

Why Roofnet stands in for the paper's testbed: the MAP testbed's traces are not public;
Roofnet is the public per-packet measurement of an 802.11b mesh of the same period (2004,
Prism 2.5 cards, 38 nodes), whose links, like the testbed's, were mostly of intermediate
delivery. What differs is said in docs/validation.md: Roofnet is outdoor and rooftop, the
fits are at 1 Mbit/s applied at every rate, and a link's chain does not depend on its SNR.
Nothing here is tuned to the paper: the set is fitted from the traces alone.
"""

from __future__ import annotations

from typing import Any

from . import testbed_window as tw
from . import testbed_window_linux as tl
from .common import Claim, Study, StudyContext

LINKS = "roofnet_1mbps"
WINDOW, SURVEY = "testbed-window-roofnet", "testbed-survey-roofnet"
LINUX_WINDOW, LINUX_SURVEY = "testbed-window-linux-roofnet", "testbed-survey-linux-roofnet"


def _named(doc: dict[str, Any], name: str) -> dict[str, Any]:
    doc["name"] = name
    return doc


def window_sweep(quick: bool) -> dict[str, Any]:
    """The testbed-window sweep on Roofnet's links (pairs picked on them)."""
    return _named(tw.window_sweep(quick, LINKS), WINDOW)


def survey_sweep(quick: bool) -> dict[str, Any]:
    """The survey of random ETX pairs on Roofnet's links."""
    return _named(tw.survey_sweep(quick, LINKS), SURVEY)


def linux_window_sweep(quick: bool) -> dict[str, Any]:
    """The same with the hosts' Linux 2.6.8 TCP."""
    return tl.linux(tw.window_sweep(quick, LINKS), LINUX_WINDOW)


def linux_survey_sweep(quick: bool) -> dict[str, Any]:
    return tl.linux(tw.survey_sweep(quick, LINKS), LINUX_SURVEY)


def analyse(ctx: StudyContext) -> list[Claim]:
    return tw.analyse(ctx, WINDOW, SURVEY)


def analyse_linux(ctx: StudyContext) -> list[Claim]:
    return tw.analyse(ctx, LINUX_WINDOW, LINUX_SURVEY)


_NOTE = """
This run: each link's losses over time are one of MIT Roofnet's measured links (1 Mbit/s,
Aguayo et al., SIGCOMM 2004), its fitted Gilbert-Elliott chain drawn uniformly from the 521
of the set (radio.gilbert_elliott.drawn_from = "roofnet_1mbps"), in place of per-frame
Rayleigh fading; pairs are picked and routes measured on those links. See
hopsim.studies.testbed_window_roofnet."""

STUDY = Study(
    name="testbed-window-roofnet",
    title="Koutsonikolas et al. on links drawn from MIT Roofnet's measured links",
    source=tw.STUDY.source,
    sweeps=[window_sweep, survey_sweep],
    analyse=analyse,
    notes=tw.NOTES + _NOTE,
)

LINUX_STUDY = Study(
    name="testbed-window-linux-roofnet",
    title="Koutsonikolas et al. with the hosts' Linux 2.6.8 TCP on Roofnet's links",
    source=tw.STUDY.source,
    sweeps=[linux_window_sweep, linux_survey_sweep],
    analyse=analyse_linux,
    notes=tl.STUDY.notes + _NOTE,
)
