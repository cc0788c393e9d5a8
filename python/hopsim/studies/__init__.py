"""The catalogue: the published studies of the seeds, as runnable, checked experiments.

``hopsim reproduce NAME`` runs a study's sweeps (resumably) and writes its figures, the CSV
of its points and the table of the paper's values and claims beside ours.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from .._core import ScenarioError

if TYPE_CHECKING:
    from .common import Claim, Study, StudyReport, Verdict, reproduce_study

__all__ = [
    "CATALOGUE",
    "Claim",
    "Study",
    "StudyReport",
    "Verdict",
    "get_study",
    "reproduce_study",
]

#: Study name -> module defining ``STUDY`` (or ``module:NAME``, a study of another name).
CATALOGUE = {
    "chen-cwl": "hopsim.studies.chen_cwl",
    "chen-manet": "hopsim.studies.chen_manet",
    "dsn-variants": "hopsim.studies.dsn_variants",
    "vegas-w": "hopsim.studies.vegas_w",
    "testbed-window": "hopsim.studies.testbed_window",
    "testbed-window-linux": "hopsim.studies.testbed_window_linux",
    "testbed-window-linux-rcvbuf": "hopsim.studies.testbed_window_linux_rcvbuf",
    "testbed-window-roofnet": "hopsim.studies.testbed_window_roofnet",
    "testbed-window-linux-roofnet": "hopsim.studies.testbed_window_roofnet:LINUX_STUDY",
}


def get_study(name: str) -> Study:
    """The study called ``name`` (see :data:`CATALOGUE`)."""
    if name not in CATALOGUE:
        raise ScenarioError(
            f"study {name!r} is not in the catalogue; available: {', '.join(CATALOGUE)}"
        )
    module, _, attribute = CATALOGUE[name].partition(":")
    study: Study = getattr(importlib.import_module(module), attribute or "STUDY")
    return study


def __getattr__(name: str) -> Any:
    # The study machinery (plots, sweeps) loads on first use: the catalogue's names are
    # needed by the command line's help, which must stay fast.
    if name in ("Claim", "Study", "StudyReport", "Verdict", "reproduce_study"):
        value = getattr(importlib.import_module(".common", __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
