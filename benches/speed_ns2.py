"""ns-2.35's wall time on a hopsim scenario, traced as `hopsim crosscheck` runs it and with
tracing off (benches/speed.py).

The script is the one :func:`hopsim.crosscheck.ns2run.ns2_script` writes (the scenario
translated by python/hopsim/crosscheck/translate.py). "traced" runs it as the crosscheck
does: the full wireless trace (agent, router and MAC lines) into a file, and the Tcl sampler
of each TCP agent's window every 10 ms. "off" is the engine alone, the fair figure beside
hopsim's in-process run: ``trace-all`` into /dev/null with the agent, router and MAC traces
off (a wireless simulation needs a trace channel even when it writes nothing,
/work/shared/reference/ns2.md), and the window sampler not scheduled (an interpreted Tcl
callback every 10 ms per flow, which hopsim's in-engine averages do not cost). Both must
exit 0 and print ``HOPSIM end``.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

from speed_proc import Measured, run_measured

#: What the translator writes, and what the "off" script has instead (each must occur once).
TRACE_FLAGS = "-agentTrace ON -routerTrace ON -macTrace ON"
TRACE_FLAGS_OFF = "-agentTrace OFF -routerTrace OFF -macTrace OFF"
SAMPLER = "if {[llength $tcp_flows] > 0} { $ns at $warmup sample_cwnd }"
SAMPLER_OFF = "# the window sampler is off (benches/speed_ns2.py)"

#: Debian's package of ns-2.35 (command ns).
NS2_PACKAGE = "ns2"

#: Best of 3 when one run takes less than this, else the one run.
REPEAT_BELOW_S = 10.0


def ns_command() -> str | None:
    """The ns-2 command, or None when it is not installed (the rows then say so)."""
    from hopsim.crosscheck.ns2run import Ns2Missing, find_ns

    try:
        return find_ns()
    except Ns2Missing:
        return None


def _replace_once(script: str, old: str, new: str) -> str:
    if script.count(old) != 1:
        raise RuntimeError(
            f"benches/speed_ns2.py: the translated script has {script.count(old)} "
            f"occurrences of {old!r}, expected 1: python/hopsim/crosscheck/translate.py "
            "changed how it writes the trace; update TRACE_FLAGS / SAMPLER here"
        )
    return script.replace(old, new)


def scripts(scenario: dict[str, Any], trace_path: str) -> dict[str, str]:
    """The "traced" and the "off" Tcl scripts of ``scenario``."""
    from hopsim import _core
    from hopsim.crosscheck.ns2run import ns2_script

    resolved = json.loads(_core.validate_json(json.dumps(scenario)))
    traced = ns2_script(resolved, trace_path)
    off = ns2_script(resolved, "/dev/null")
    off = _replace_once(off, TRACE_FLAGS, TRACE_FLAGS_OFF)
    off = _replace_once(off, SAMPLER, SAMPLER_OFF)
    return {"traced": traced, "off": off}


def _run_once(ns: str, folder: Path, name: str) -> Measured:
    m = run_measured([ns, f"{name}.tcl"], cwd=folder)
    if m.returncode != 0 or "HOPSIM end" not in m.stdout:
        tail = "\n".join((m.stdout + m.stderr).strip().splitlines()[-8:])
        raise RuntimeError(f"ns-2 failed on the {name} script (exit {m.returncode}):\n{tail}")
    return m


def measure(scenario: dict[str, Any]) -> dict[str, Any]:
    """ns-2's wall time (best of 3 under 10 s, else one run) and peak RSS, traced and off;
    ``{"ns2": "ns-2 not installed"}`` when there is no ``ns``."""
    ns = ns_command()
    if ns is None:
        return {"ns2": "ns-2 not installed"}
    out: dict[str, Any] = {"ns2": ns}
    with tempfile.TemporaryDirectory(prefix="hopsim-bench-ns2-") as tmp:
        folder = Path(tmp)
        trace = folder / "run.tr"
        for name, text in scripts(scenario, str(trace)).items():
            (folder / f"{name}.tcl").write_text(text)
            runs = [_run_once(ns, folder, name)]
            if runs[0].wall_s < REPEAT_BELOW_S:
                runs += [_run_once(ns, folder, name) for _ in range(2)]
            out[f"{name}_wall_s"] = min(m.wall_s for m in runs)
            out[f"{name}_walls_s"] = [round(m.wall_s, 4) for m in runs]
            out[f"{name}_peak_rss_kb"] = max(m.peak_rss_kb for m in runs)
            if name == "traced":
                out["trace_bytes"] = trace.stat().st_size
                trace.unlink()  # up to GBs for the MANET: gone before the next run
    return out


if __name__ == "__main__":  # a quick look: ns-2 on the 100 s chain
    import speed_scenarios

    print(json.dumps(measure(speed_scenarios.chain7_vegas_aodv(100.0)), indent=1))
