"""pytest configuration for hopsim.

The helpers live in ``simhelpers.py`` (beside this file); this conftest makes them importable
in any pytest import mode, registers the ``slow`` marker and exposes the fixtures every
simulator test uses:

* ``run_scenario(scenario, overrides=None, seed=None)`` -> result, after asserting the
  invariants on it (see ``simhelpers.check_result``);
* ``hopsim_mod``: the imported ``hopsim`` package.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

TESTS_DIR = Path(__file__).resolve().parent
if str(TESTS_DIR) not in sys.path:
    sys.path.insert(0, str(TESTS_DIR))

import simhelpers  # noqa: E402


def pytest_configure(config):
    config.addinivalue_line(
        "markers",
        "slow: longer simulation runs (still part of the default suite and of CI; "
        "deselect with -m 'not slow' for a quick loop)",
    )


@pytest.fixture(scope="session")
def hopsim_mod():
    """The ``hopsim`` package (imported on first use, so theory-only tests need no build)."""
    return simhelpers.import_hopsim()


@pytest.fixture
def run_scenario():
    """Run a scenario through ``hopsim.run`` and assert every invariant on its result."""
    return simhelpers.run_checked
