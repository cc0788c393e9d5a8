"""pytest configuration for hopsim.

The helpers live in ``simhelpers.py`` (beside this file); this conftest makes them importable
in any pytest import mode, registers the ``slow`` marker and exposes the fixtures every
simulator test uses:

* ``run_scenario(scenario, overrides=None, seed=None)`` -> result, after asserting the
  invariants on it (see ``simhelpers.check_result``);
* ``hopsim_mod``: the imported ``hopsim`` package;
* ``ns2``: the path of ns-2.35's ``ns`` (installed from Debian's package if missing; the test
  is skipped, saying why, where it cannot be);
* ``wifi_udp_binary``, ``chain_tcp_binary``: ns-3.44's ``wifi_udp.cc`` and ``chain_tcp.cc``
  built against the ``ns3`` wheel (skipped, saying why, without it).
"""

from __future__ import annotations

import os
import shutil
import subprocess
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


@pytest.fixture(scope="session")
def ns2():
    """ns-2.35, installed from Debian's package if missing (as `make test` does)."""
    if shutil.which("ns") is None:
        if shutil.which("apt-get") is None or os.geteuid() != 0:
            pytest.skip("ns (Debian package ns2) not installed and cannot be installed here")
        env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
        for cmd in (["apt-get", "update"], ["apt-get", "install", "-y", "ns2"]):
            proc = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=1800)
            if proc.returncode != 0:
                pytest.skip(f"`{' '.join(cmd)}` failed: {proc.stderr.strip()[-300:]}")
    return shutil.which("ns")


@pytest.fixture(scope="session")
def wifi_udp_binary():
    """The ns-3 program of the Wi-Fi side-by-side checks (hopsim.crosscheck.ns3build)."""
    from hopsim.crosscheck.ns3build import Ns3Missing, build_wifi_udp

    try:
        return build_wifi_udp()
    except Ns3Missing as e:
        pytest.skip(str(e))


@pytest.fixture(scope="session")
def chain_tcp_binary():
    """The ns-3 program of the TCP chain side-by-side checks (hopsim.crosscheck.ns3build)."""
    from hopsim.crosscheck.ns3build import Ns3Missing, build_chain_tcp

    try:
        return build_chain_tcp()
    except Ns3Missing as e:
        pytest.skip(str(e))
