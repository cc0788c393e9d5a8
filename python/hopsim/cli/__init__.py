"""The ``hopsim`` command line (typer): one app, its commands registered here, in the order
``hopsim --help`` lists them.

- ``app``: the typer app, consoles, exit codes, error handling and the shared options;
- ``run``: ``run`` and ``validate`` (one scenario); ``show``: a picture of its network;
  ``view``: the run explorer page;
- ``sweep``: ``sweep``, ``results``, ``plot``, ``reproduce``; ``crosscheck``; ``advise``.
"""

from __future__ import annotations

from . import advise, crosscheck, run, show, sweep, view
from .app import app

__all__ = ["app", "main"]

for _module in (run, sweep, advise, crosscheck, show, view):
    _module.commands.register(app)


def main() -> None:
    """Entry point of the ``hopsim`` console script."""
    app(prog_name="hopsim")
