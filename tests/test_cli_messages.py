"""The messages a newcomer meets (issue 13): they name the option or file the user typed, say
what to do, and flags in the help are shown as flags."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from simhelpers import assert_no_traceback, chain_scenario, run_cli, udp_flow, write_scenario

ROOT = Path(__file__).resolve().parents[1]


def test_an_empty_file_is_named(tmp_path: Path):
    empty = tmp_path / "empty.toml"
    empty.write_text("")
    for command in ("run", "validate", "show"):
        proc = run_cli(command, str(empty))
        assert proc.returncode == 2, proc.stderr
        assert_no_traceback(proc)
        assert f"{empty}: the file is empty" in proc.stderr, proc.stderr


def test_running_a_sweep_file_points_to_hopsim_sweep():
    sweep = ROOT / "sweeps" / "chain-cwl.toml"
    proc = run_cli("run", str(sweep))
    assert proc.returncode == 2
    assert "a sweep file" in proc.stderr and f"hopsim sweep {sweep}" in proc.stderr


def test_pcap_errors_name_the_option(tmp_path: Path):
    path = write_scenario(tmp_path / "c.toml", chain_scenario(1, [udp_flow(0, 1)], duration_s=2))
    for opt in ("--pcap", "--pcap-ip"):
        proc = run_cli("run", str(path), opt, "/proc/hopsim-none/x")
        assert proc.returncode == 2, proc.stderr
        assert proc.stderr.startswith(f"error: {opt} '/proc/hopsim-none/x'"), proc.stderr
        assert "pcap_dir" not in proc.stderr and "pcap_ip_dir" not in proc.stderr


def test_a_flow_that_sends_almost_nothing_is_warned_about(tmp_path: Path):
    flow = udp_flow(0, 2, interval_s=50.0)  # meant as 50 ms
    path = write_scenario(
        tmp_path / "c.toml", chain_scenario(2, [flow], duration_s=100.0, warmup_s=10.0)
    )
    proc = run_cli("run", str(path), "--json")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["warnings"], "the warning is in the document too"
    assert "warning: flow 0 sends about 1 datagram(s)" in proc.stderr
    assert "50 ms is 0.05" in proc.stderr


def test_flags_have_no_type_column():
    proc = run_cli("run", "--help")
    assert proc.returncode == 0
    assert "<bool>" not in proc.stdout
    assert re.search(r"--json\s+Print exactly", proc.stdout), proc.stdout


@pytest.mark.parametrize("command", ["sweep", "reproduce", "crosscheck", "advise", "plot"])
def test_out_and_jobs_have_the_same_short_forms_everywhere(command: str):
    text = run_cli(command, "--help").stdout
    if "--out" in text:
        assert re.search(r"--out\s+-o", text), f"{command}: --out without -o"
    if "--jobs" in text:
        assert re.search(r"--jobs\s+-j", text), f"{command}: --jobs without -j"


def test_help_loads_no_heavy_library():
    # What keeps `hopsim --help` quick: the libraries of the sweeps, plots, the result store
    # and the explorer load on first use, never for the help. Its time is a benchmark
    # (benches/speed.py, the cli-run row's notes), not a timed test.
    code = (
        "import contextlib, io, runpy, sys\n"
        "sys.argv = ['hopsim', '--help']\n"
        "with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(SystemExit):\n"
        "    runpy.run_module('hopsim', run_name='__main__')\n"
        "print(' '.join(sorted(sys.modules)))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    loaded = set(done.stdout.split())
    assert "hopsim.cli" in loaded, "the help did not run"
    heavy = ["numpy", "matplotlib", "pyarrow", "polars", "pandas", "dask", "distributed"]
    heavy += ["sqlite3", "hopsim.sweeps.runner", "hopsim.sweeps.plot", "hopsim.view"]
    heavy += ["hopsim.report"]
    found = sorted(m for m in heavy if m in loaded)
    assert not found, found


def test_plot_help_lists_the_metrics():
    from hopsim.sweeps.metrics import AGGREGATES, FLOW_FIELDS, TOTAL_FIELDS

    flat = "".join(run_cli("plot", "--help").stdout.split())
    for name in [*FLOW_FIELDS, *AGGREGATES, *TOTAL_FIELDS]:
        assert name in flat, name


def test_bracketed_names_in_the_help_survive_rich_markup():
    # Rich reads "[name]" as a markup tag and drops it unless escaped ("\\[name]"): a table
    # name in a help text vanished that way ("Gilbert-Elliott table ()").
    from typer.main import get_command

    from hopsim.cli import app

    for name, command in get_command(app).commands.items():  # type: ignore[attr-defined]
        texts = [command.help or ""] + [getattr(p, "help", None) or "" for p in command.params]
        wanted = {m for t in texts for m in re.findall(r"\[[a-z_.\[\]]+\]", t.replace("\\", ""))}
        proc = subprocess.run(
            [sys.executable, "-m", "hopsim", name, "--help"],
            capture_output=True,
            text=True,
            env={**os.environ, "COLUMNS": "400"},
            check=False,
        )
        shown = proc.stdout
        for w in wanted:
            assert w in shown, f"hopsim {name} --help lost {w!r}"
