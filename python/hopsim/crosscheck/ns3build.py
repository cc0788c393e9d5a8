"""Building the ns-3 scenarios (``ns3/chain_tcp.cc``, ``ns3/mesh_tcp.cc``, ``ns3/wifi_udp.cc``)
against the ``ns3`` wheel.

The PyPI wheel ``ns3`` (3.44.post0) ships ns-3's headers (``ns3/include/ns3/*.h``) and shared
libraries (``ns3/lib64/libns3.44-*.so``, with their own RPATH): enough to compile a small C++
program with the system's g++. Its Python bindings need ``cppyy``, which we do not use, so the
wheel is installed with ``--no-deps`` (``make test-tools``) and never imported: it is found by
its location alone.

The binary is built once per source, compiler and ns-3 install, and cached under a name that
carries the hash of all three (``HOPSIM_NS3_CACHE``, else ``~/.cache/hopsim/ns3``).
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

from .._core import ScenarioError

__all__ = [
    "NS3_REQUIREMENT",
    "NS3_VERSION",
    "SOURCE",
    "MESH_TCP_SOURCE",
    "WIFI_UDP_SOURCE",
    "Ns3Missing",
    "build",
    "build_chain_tcp",
    "build_mesh_tcp",
    "build_wifi_udp",
    "cache_dir",
    "find_compiler",
    "find_ns3",
    "run_program",
]

#: What ``make test-tools`` installs (``pip install --no-deps``).
NS3_REQUIREMENT = "ns3==3.44.post0"
NS3_VERSION = "3.44"
#: Its libraries are lib<this>-<module>.so.
NS3_LIB = "ns3.44"
#: The scenarios' sources, shipped inside the package: TCP over a chain, TCP flows over nodes
#: anywhere (static paths or AODV), and saturated UDP over a chain of any PHY standard; the
#: headers beside them (hopsim_common.h) are part of every build's cache key.
SOURCE = Path(__file__).with_name("ns3") / "chain_tcp.cc"
MESH_TCP_SOURCE = Path(__file__).with_name("ns3") / "mesh_tcp.cc"
WIFI_UDP_SOURCE = Path(__file__).with_name("ns3") / "wifi_udp.cc"
#: The ns-3 modules the scenario links against.
NS3_MODULES = (
    "wifi",
    "aodv",
    "olsr",
    "mesh",
    "internet",
    "applications",
    "traffic-control",
    "mobility",
    "propagation",
    "network",
    "core",
)


class Ns3Missing(ScenarioError):
    """The ns3 wheel or a C++ compiler is missing (the message says what to install)."""


def find_ns3() -> Path:
    """The ns-3 install: a folder with ``include/ns3/core-module.h`` and ``lib64/``.

    ``HOPSIM_NS3_PREFIX`` may name one; otherwise the ``ns3`` wheel's package folder.
    """
    env = os.environ.get("HOPSIM_NS3_PREFIX")
    if env:
        candidates = [Path(env)]
    else:
        spec = importlib.util.find_spec("ns3")
        locations = list(spec.submodule_search_locations or []) if spec else []
        candidates = [Path(p) for p in locations]
    for prefix in candidates:
        if (prefix / "include" / "ns3" / "core-module.h").is_file() and _lib_dir(prefix).is_dir():
            return prefix
    where = f"HOPSIM_NS3_PREFIX = {env!r}" if env else "the Python environment"
    raise Ns3Missing(
        f"ns-3 not found in {where}: install the ns-3 wheel with "
        f'`pip install --no-deps "{NS3_REQUIREMENT}"` (`make test-tools` does), or set '
        "HOPSIM_NS3_PREFIX to a folder holding include/ns3/ and lib64/"
    )


def _lib_dir(prefix: Path) -> Path:
    return prefix / "lib64"


def find_compiler() -> str:
    """The C++ compiler (``CXX``, else ``g++``)."""
    name = os.environ.get("CXX", "g++")
    path = shutil.which(name)
    if path is None:
        raise Ns3Missing(
            f"C++ compiler {name!r} not found: install g++ (`apt-get install g++`) or set CXX"
        )
    return path


def cache_dir() -> Path:
    """Where built binaries are kept."""
    env = os.environ.get("HOPSIM_NS3_CACHE")
    if env:
        return Path(env)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "hopsim" / "ns3"


def _command(cxx: str, prefix: Path, out: Path, source: Path = SOURCE) -> list[str]:
    lib = _lib_dir(prefix)
    return [
        cxx,
        "-std=c++20",
        "-O2",
        "-w",  # ns-3's headers are not ours to warn about
        f"-I{prefix / 'include'}",
        str(source),
        "-o",
        str(out),
        f"-L{lib}",
        *(f"-l{NS3_LIB}-{m}" for m in NS3_MODULES),
        f"-Wl,-rpath,{lib}",
    ]


def build_chain_tcp(prefix: Path | None = None, cache: Path | None = None) -> Path:
    """The compiled TCP chain scenario (see :func:`build`)."""
    return build(SOURCE, prefix, cache)


def build_mesh_tcp(prefix: Path | None = None, cache: Path | None = None) -> Path:
    """The compiled scenario of TCP flows over nodes anywhere (see :func:`build`)."""
    return build(MESH_TCP_SOURCE, prefix, cache)


def build_wifi_udp(prefix: Path | None = None, cache: Path | None = None) -> Path:
    """The compiled saturated-UDP scenario (see :func:`build`)."""
    return build(WIFI_UDP_SOURCE, prefix, cache)


def build(source: Path, prefix: Path | None = None, cache: Path | None = None) -> Path:
    """The path of the compiled ``source``, building it if this source, compiler and ns-3
    install have not been built before.

    Raises:
        Ns3Missing: no ns-3 or no compiler.
        RuntimeError: the compiler failed (its last lines quoted).
    """
    prefix = prefix or find_ns3()
    cxx = find_compiler()
    cache = cache or cache_dir()
    probe = _command(cxx, prefix, Path("OUT"), source)
    key = hashlib.sha256()
    key.update(source.read_bytes())
    for header in sorted(source.parent.glob("*.h")):  # what the sources include
        key.update(header.name.encode() + b"\0" + header.read_bytes())
    key.update("\0".join(probe).encode())
    key.update(subprocess.run([cxx, "--version"], capture_output=True, text=True).stdout.encode())
    core = _lib_dir(prefix) / f"lib{NS3_LIB}-core.so"
    if core.exists():
        st = core.stat()
        key.update(f"{st.st_size}:{st.st_mtime_ns}".encode())
    binary = cache / f"{source.stem}-{key.hexdigest()[:16]}"
    if binary.is_file():
        return binary
    cache.mkdir(parents=True, exist_ok=True)
    # Built under a temporary name and renamed: concurrent builders never see half a file.
    fd, tmp_name = tempfile.mkstemp(prefix=f".{source.stem}-", dir=cache)
    os.close(fd)
    tmp = Path(tmp_name)
    try:
        proc = subprocess.run(
            _command(cxx, prefix, tmp, source), capture_output=True, text=True, check=False
        )
        if proc.returncode != 0:
            tail = "\n".join((proc.stdout + proc.stderr).strip().splitlines()[-15:])
            raise RuntimeError(f"building {source.name} failed (exit {proc.returncode}):\n{tail}")
        tmp.chmod(0o755)
        os.replace(tmp, binary)
    finally:
        tmp.unlink(missing_ok=True)
    return binary


def run_program(binary: Path, args: list[str], timeout_s: float = 3600.0) -> dict[str, Any]:
    """Run a built scenario with its command line: its last JSON line, parsed, with
    ``process_wall_s`` (ns-3's start-up included) and the ``arguments``.

    Raises:
        RuntimeError: it failed or printed no JSON line (its last lines quoted).
    """
    t0 = time.perf_counter()
    proc = subprocess.run(
        [str(binary), *args], capture_output=True, text=True, timeout=timeout_s, check=False
    )
    elapsed_s = time.perf_counter() - t0
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("{")]
    if proc.returncode != 0 or not lines:
        tail = "\n".join((proc.stdout + proc.stderr).strip().splitlines()[-8:])
        raise RuntimeError(f"ns-3 failed (exit {proc.returncode}):\n{tail}")
    doc: dict[str, Any] = json.loads(lines[-1])
    doc["process_wall_s"] = elapsed_s
    doc["arguments"] = args
    return doc
