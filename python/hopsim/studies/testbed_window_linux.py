"""Koutsonikolas et al. (seed 003) re-run with the hosts' own TCP: the mesh routers ran
Mandrake Linux 10.1, kernel 2.6.8 (S003:79), with TCP-SACK "since this is the default option in
Linux OS" (S003:102). The `testbed-window` study runs ns-2-style SACK agents; this one runs the
same sweeps, pairs and analysis with the linux host profile (docs/models.md 8.13) and the
values a 2.6.8 kernel had where they differ from today's:

- congestion control BIC, the default from 2.6.8 to 2.6.18 (docs/models.md 8.10b);
- initial window 3 segments for a 1460-byte MSS (RFC 3390, `tcp_init_cwnd`; IW10 came in
  2.6.39);
- initial RTO 3 s (`TCP_TIMEOUT_INIT` was 3 HZ until 3.1);
- slow start by one segment per ACK (`tcp_slow_start` before appropriate byte counting);
- the rest as the profile: minimum RTO 200 ms, delayed ACK with quick ACK, timestamps,
  receive-window autotuning (`tcp_moderate_rcvbuf`, 2.6.7), SACK recovery.

The max CWND the paper sweeps is Linux's cwnd clamp (`max_window`).
"""

from __future__ import annotations

from typing import Any

from . import testbed_window as tw
from .common import Claim, Study, StudyContext

#: The testbed hosts' TCP (kernel 2.6.8): the keys written over the linux host's defaults.
LINUX_2_6_8: dict[str, Any] = {
    "host": "linux",
    "variant": "bic",
    "initial_window": 3.0,
    "initial_rto_s": 3.0,
    "count_acked": False,
}
WINDOW, SURVEY = "testbed-window-linux", "testbed-survey-linux"


def linux(doc: dict[str, Any], name: str) -> dict[str, Any]:
    """``doc`` with the hosts' TCP, called ``name``."""
    doc["name"] = name
    doc["scenario"]["tcp"] = {**LINUX_2_6_8, "max_window": 0.0}
    return doc


def window_sweep(quick: bool) -> dict[str, Any]:
    """The testbed-window sweep (the same pairs) with the hosts' TCP."""
    return linux(tw.window_sweep(quick), WINDOW)


def survey_sweep(quick: bool) -> dict[str, Any]:
    """The survey of random ETX pairs with the hosts' TCP."""
    return linux(tw.survey_sweep(quick), SURVEY)


def analyse(ctx: StudyContext) -> list[Claim]:
    return tw.analyse(ctx, WINDOW, SURVEY)


STUDY = Study(
    name="testbed-window-linux",
    title="Koutsonikolas et al. re-run with the hosts' Linux 2.6.8 TCP (BIC, SACK, timestamps)",
    source=tw.STUDY.source,
    sweeps=[window_sweep, survey_sweep],
    analyse=analyse,
    notes=tw.NOTES.replace(
        "immediate ACKs (Linux's\ndelayed ACKs and BIC congestion control are not modelled)",
        "the hosts' TCP below",
    ).replace(
        'a 64-segment receiver window, so\nthat "unclamped" is limited by the network, not by '
        "ns-2's 20 segments",
        "Linux's receive-window autotuning",
    )
    + """
This run: the linux host profile with kernel 2.6.8's values (BIC, initial window 3, initial
RTO 3 s, one segment per ACK in slow start, delayed ACK with quick ACK, timestamps,
receive-window autotuning); the max window is Linux's cwnd clamp (snd_cwnd_clamp), so a
clamp of 1 MSS waits for the receiver's delayed ACK (ATO 40 ms) on every segment; see
hopsim.studies.testbed_window_linux.""",
)
