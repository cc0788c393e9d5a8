"""A fitted link through the simulator: one sender, one receiver, paced UDP at the probes'
spacing, no RTS and one attempt per frame (so the MAC neither retries nor hides a loss), the
link's `[radio.gilbert_elliott]` table on top of a link the PHY always decodes (100-byte
frames at 11 Mbit/s). The fates of the DATA frames at the receiver, from the event trace,
are the simulated probes."""

from __future__ import annotations

import tempfile
from pathlib import Path

from .._core import ScenarioError
from .fit import GilbertFit

__all__ = ["MIN_SPACING_S", "PAYLOAD_BYTES", "simulate_link"]

#: The simulated probes: small frames at 11 Mbit/s (an exchange takes under 1 ms with its
#: backoff), so probes as close as Roofnet's at 11 Mbit/s (1.6 ms) each get one frame.
PAYLOAD_BYTES = 100
MIN_SPACING_S = 0.0015


def simulate_link(fit: GilbertFit, probes: int, interval_s: float, seed: int) -> list[bool]:
    """``probes`` frames ``interval_s`` apart over a link with ``fit``'s losses."""
    if not interval_s >= MIN_SPACING_S:
        raise ScenarioError(
            f"link {fit.src}->{fit.dst}: probes {interval_s * 1e3:g} ms apart: the simulated "
            f"link needs {MIN_SPACING_S * 1e3:g} ms or more between them"
        )
    import pyarrow.parquet as pq

    from ..api import run

    scenario = {
        "duration_s": probes * interval_s,
        "seed": seed,
        "topology": {"kind": "chain", "hops": 1, "spacing_m": 100.0},
        "radio": {"rx_range_m": 250.0, "cs_range_m": 550.0, "gilbert_elliott": fit.table()},
        "mac": {"rts_threshold_bytes": 1048576, "short_retry_limit": 1, "long_retry_limit": 1,
                "data_rate_mbps": 11.0},
        "routing": {"protocol": "static"},
        "flows": [{"src": 0, "dst": 1, "transport": "udp", "interval_s": interval_s,
                   "payload_bytes": PAYLOAD_BYTES}],
    }  # fmt: skip
    with tempfile.TemporaryDirectory() as tmp:
        trace = Path(tmp) / "t.parquet"
        run(scenario, trace=trace)
        rows = pq.read_table(trace, columns=["node", "event", "frame_kind", "time_ns"])
    fates = [
        (r["time_ns"], r["event"] == "rx_ok")
        for r in rows.to_pylist()
        if r["node"] == 1 and r["frame_kind"] == "data" and r["event"] in ("rx_ok", "rx_error")
    ]
    out = [ok for _, ok in sorted(fates)][:probes]
    if len(out) < probes:
        raise ScenarioError(
            f"link {fit.src}->{fit.dst}: probes {interval_s * 1e3:g} ms apart do not each get "
            f"a frame through ({len(out)} of {probes})"
        )
    return out
