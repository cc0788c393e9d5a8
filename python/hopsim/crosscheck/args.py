"""Argument types the ns-3 side-by-side programs share (``ns3run``, ``ns3mesh``): a bad value
is refused by argparse with its option named (exit 2) before anything runs, and an output
file that cannot be written is refused before minutes of runs, not after them."""

from __future__ import annotations

import argparse
import math
import os
from pathlib import Path

from ..output import file_in_the_way


def _from_one(text: str, what: str) -> int:
    try:
        n = int(text)
    except ValueError:
        n = 0
    if n < 1:
        raise argparse.ArgumentTypeError(f"{text!r}: a whole number of {what}, 1 or more")
    return n


def seed_count(text: str) -> int:
    """--seeds: a whole number from 1 up."""
    return _from_one(text, "replications")


def hop_count(text: str) -> int:
    """A chain's hops: a whole number from 1 up (the scenario's checks do the rest)."""
    return _from_one(text, "hops")


def seconds(text: str) -> float:
    """Simulated seconds: a finite number above 0."""
    try:
        s = float(text)
    except ValueError:
        s = math.nan
    if not (math.isfinite(s) and s > 0):
        raise argparse.ArgumentTypeError(f"{text!r}: seconds, a number above 0")
    return s


def output_file(text: str) -> Path:
    """A file to write at the end: its folder exists and is writable, and it is no folder."""
    path = Path(text)
    folder = path.parent
    why = None
    if path.is_dir():
        why = "it is a folder"
    elif not folder.is_dir():
        blocker = file_in_the_way(folder)
        why = f"{str(blocker)!r} is a file, not a folder" if blocker else "no such folder"
    elif not os.access(folder, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        why = "not writable here (permissions or a read-only file system)"
    if why:
        raise argparse.ArgumentTypeError(f"{text!r}: cannot be written: {why}")
    return path
