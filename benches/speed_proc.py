"""A child process measured on its own: wall time and peak resident set (benches/speed.py)."""

from __future__ import annotations

import os
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path


@dataclass
class Measured:
    """What one child process did."""

    returncode: int
    wall_s: float
    peak_rss_kb: int  # ru_maxrss of this child alone (Linux: kB)
    stdout: str
    stderr: str


def run_measured(
    argv: list[str],
    cwd: str | Path | None = None,
    keep_stdout: bool = True,
) -> Measured:
    """Run ``argv`` and reap it with ``os.wait4``, whose resource usage is this child's alone
    (RUSAGE_CHILDREN would be the largest of every child reaped so far). The wall time runs
    from just before the fork to the reaping. ``keep_stdout=False`` sends stdout to /dev/null.
    """
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        sink = out if keep_stdout else subprocess.DEVNULL
        t0 = time.perf_counter()
        proc = subprocess.Popen(argv, cwd=cwd, stdout=sink, stderr=err, text=True)
        _, status, usage = os.wait4(proc.pid, 0)  # blocking: no polling delay in wall_s
        wall_s = time.perf_counter() - t0
        proc.returncode = os.waitstatus_to_exitcode(status)  # reaped here, not by Popen
        out.seek(0)
        err.seek(0)
        return Measured(
            returncode=proc.returncode,
            wall_s=wall_s,
            peak_rss_kb=int(usage.ru_maxrss),
            stdout=out.read() if keep_stdout else "",
            stderr=err.read(),
        )
