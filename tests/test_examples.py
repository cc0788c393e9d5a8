"""The worked examples and the tutorial run as documented.

Every ```sh block of examples/*/README.md, examples/README.md and docs/tutorial.md is run
command by command, and every ```python block as a script, in document order, with the
venv's ``hopsim`` and ``python`` first on the PATH, in a temporary folder holding a copy of
examples/ without its figures (the commands must draw them again) and links to the
repository's python/, scenarios/ and sweeps/ (read only). Nothing is written into the
repository. A block whose fence is preceded by ``<!-- test: skip (reason) -->`` is not run
(the full sweep of newreno-vs-vegas, whose --quick commands are). The tutorial's ```toml
blocks are written to the files their first comment line names (``# chain.toml: ...``)
before its commands run. Commands that need ns-2.35 are skipped when ``ns`` is not on the
PATH. Each document's outputs are then checked: exit codes, expected lines, and the figures
written and not blank. The committed figures are checked too: embedded in their README,
present, small and not blank.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
EXAMPLES = REPO / "examples"
TUTORIAL = REPO / "docs" / "tutorial.md"
FOLDERS = [
    "grid-aodv",
    "manet-dsr",
    "newreno-vs-vegas",
    "testbed",
    "window-80211n",
    "crosscheck-ns2",
    "gym-window",
    "mesh-routing",
]
SKIP_MARK = "<!-- test: skip"
FENCE = re.compile(r"^```(\w*)\s*$")
#: A committed figure stays below this (the brief: about 150 KB).
MAX_FIGURE_BYTES = 160_000
#: Per command; the longest (the crosscheck of chains.toml) takes about 30 s on 2 cores.
COMMAND_TIMEOUT_S = 300


@dataclass
class Block:
    lang: str
    body: str
    line: int  # 1-based line of the opening fence


@dataclass
class Ran:
    what: str  # the command, or "python block at line N"
    stdout: str
    stderr: str
    seconds: float


def fenced_blocks(path: Path) -> list[Block]:
    """The fenced code blocks of a Markdown file, with those after a skip marker left out."""
    lines = path.read_text(encoding="utf-8").splitlines()
    blocks: list[Block] = []
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        start = i
        end = next(j for j in range(i + 1, len(lines)) if lines[j].startswith("```"))
        before = next((lines[j] for j in range(start - 1, -1, -1) if lines[j].strip()), "")
        if not before.startswith(SKIP_MARK):
            blocks.append(Block(m.group(1), "\n".join(lines[start + 1 : end]) + "\n", start + 1))
        i = end + 1
    return blocks


def shell_commands(body: str) -> list[str]:
    """The commands of a sh block: backslash continuations joined, blanks and comments out."""
    commands, pending = [], ""
    for raw in body.splitlines():
        line = pending + raw
        if line.endswith("\\"):
            pending = line[:-1] + " "
            continue
        pending = ""
        if line.strip() and not line.lstrip().startswith("#"):
            commands.append(line.strip())
    return commands


def needs_ns(command: str) -> bool:
    return command.startswith("hopsim crosscheck") or re.search(r"(^|&&|;|\|)\s*ns\s", command)


def has_ns() -> bool:
    return shutil.which("ns") is not None


def workdir(tmp_path: Path) -> Path:
    """A copy of examples/ without figures, beside links to the repository's inputs."""
    shutil.copytree(EXAMPLES, tmp_path / "examples", ignore=shutil.ignore_patterns("*.png"))
    for name in ("python", "scenarios", "sweeps"):
        (tmp_path / name).symlink_to(REPO / name, target_is_directory=True)
    return tmp_path


def environment() -> dict[str, str]:
    env = dict(os.environ)
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    env["COLUMNS"] = "200"  # tables unwrapped, so expected lines stay on one line
    env["HOPSIM_PROGRESS_INTERVAL"] = "60"
    env.pop("PYTHONPATH", None)
    return env


def run_document(doc: Path, cwd: Path) -> list[Ran]:
    """Run the sh and python blocks of ``doc`` in ``cwd``; fail on the first that fails."""
    env = environment()
    ran: list[Ran] = []
    blocks = fenced_blocks(doc)
    if doc == TUTORIAL:
        for b in blocks:
            if b.lang == "toml":
                name = re.match(r"# (\S+\.toml)", b.body)
                assert name, f"{doc.name}:{b.line}: a toml block must start with '# NAME.toml'"
                (cwd / name.group(1)).write_text(b.body, encoding="utf-8")
    for b in blocks:
        if b.lang == "sh":
            todo = [(c, ["bash", "-c", f"set -o pipefail; {c}"]) for c in shell_commands(b.body)]
        elif b.lang == "python":
            script = cwd / f"block-{b.line}.py"
            script.write_text(b.body, encoding="utf-8")
            todo = [(f"python block at line {b.line}", [sys.executable, str(script)])]
        else:
            continue
        for what, argv in todo:
            if needs_ns(what) and not has_ns():
                continue
            t0 = time.monotonic()
            proc = subprocess.run(
                argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=COMMAND_TIMEOUT_S
            )
            seconds = time.monotonic() - t0
            assert proc.returncode == 0, (
                f"{doc.relative_to(REPO)}:{b.line}: `{what}` exited {proc.returncode}\n"
                f"stdout:\n{proc.stdout[-3000:]}\nstderr:\n{proc.stderr[-3000:]}"
            )
            ran.append(Ran(what, proc.stdout, proc.stderr, seconds))
    assert ran, f"{doc.relative_to(REPO)}: no command found to run"
    return ran


def output_of(ran: list[Ran], prefix: str) -> str:
    """stdout + stderr of the first command starting with ``prefix``."""
    for r in ran:
        if r.what.startswith(prefix):
            return r.stdout + r.stderr
    raise AssertionError(f"no command starting with {prefix!r} ran: {[r.what for r in ran]}")


def assert_figure(path: Path, max_bytes: int | None = None) -> None:
    """``path`` is a PNG with a drawing on it (not one flat colour)."""
    from PIL import Image

    assert path.is_file(), f"{path} was not written"
    size = path.stat().st_size
    assert size > 5_000, f"{path}: {size} bytes, too small for a figure"
    if max_bytes is not None:
        assert size <= max_bytes, f"{path}: {size} bytes, over {max_bytes}"
    with Image.open(path) as im:
        assert im.format == "PNG", path
        gray = im.convert("L")
        lo, hi = gray.getextrema()
        assert hi - lo > 100, f"{path}: no contrast ({lo}..{hi})"
        hist = gray.histogram()
        inked = sum(hist[:200]) / (gray.width * gray.height)
        assert inked > 0.005, f"{path}: {inked:.2%} of the pixels are drawn"


# --------------------------------------------------------------------------- the examples


def check_grid_aodv(ran: list[Ran], cwd: Path) -> None:
    show = output_of(ran, "hopsim show")
    assert "flow 0: 10→14 (tcp)" in show and "flow 1: 2→22 (tcp)" in show, show
    # The straight routes through the centre node 12 are each flow's main route.
    assert re.search(r"^\s+\d+\.\d%\s+10-11-12-13-14$", show, re.M), show
    assert re.search(r"^\s+\d+\.\d%\s+2-7-12-17-22$", show, re.M), show
    run = output_of(ran, "hopsim run examples/grid-aodv/grid.toml")
    assert re.search(r"route failures (\d+) \(false \1\)", run), run
    assert_figure(cwd / "examples/grid-aodv/grid.png", MAX_FIGURE_BYTES)


def check_manet_dsr(ran: list[Ran], cwd: Path) -> None:
    show = output_of(ran, "hopsim show")
    assert len(re.findall(r"^flow \d+: \d+→\d+ \(tcp\)", show, re.M)) == 10, show
    assert "(no route)" in show and "100.0%" in show, show
    run = output_of(ran, "hopsim run examples/manet-dsr/manet.toml")
    goodputs = [
        float(g) for g in re.findall(r"^\s+\d+\s+\d+\s+\d+\s+tcp\s+\d+\s+([\d.]+)", run, re.M)
    ]
    assert len(goodputs) >= 10, run
    top4 = sorted(goodputs[:10], reverse=True)[:4]
    assert sum(top4) > 0.9 * sum(goodputs[:10]), goodputs  # "four flows take 97%"
    assert "KB ->" in output_of(ran, "python examples/shrink_png.py")
    assert_figure(cwd / "examples/manet-dsr/manet.png", MAX_FIGURE_BYTES)


def check_newreno_vs_vegas(ran: list[Ran], cwd: Path) -> None:
    sweep = output_of(ran, "hopsim sweep")
    assert "18 runs, 0 already stored, 18 run now, 0 failed" in sweep, sweep
    assert "wrote 18 rows (one per run)" in output_of(ran, "hopsim results")
    out = cwd / "results/newreno-vs-vegas-quick"
    assert (out / "runs.csv").is_file() and (out / "results.sqlite").is_file()
    assert_figure(out / "figures/newreno-vs-vegas-goodput_kbps-vs-topology.hops.png")
    frames = output_of(ran, "python block")
    gains = dict(re.findall(r"^\s*(\d+) hops: Vegas - NewReno =\s+(-?[\d.]+)", frames, re.M))
    assert set(gains) == {"2", "4", "8"}, frames
    assert abs(float(gains["2"])) < 5 and float(gains["8"]) > 20, gains


def check_testbed(ran: list[Ran], cwd: Path) -> None:
    show = output_of(ran, "hopsim show")
    assert re.search(r"^\s+99\.9%\s+3-11-29-13-0$", show, re.M), show
    route = output_of(ran, "python block")
    assert "ETX route: [3, 11, 29, 13, 0]" in route, route
    assert len(re.findall(r"ETX \d+\.\d\d\s+rates", route)) == 4, route
    pairs = [r for r in ran if r.what.startswith("python block")][-1].stdout
    assert [line.split()[0] for line in pairs.splitlines()] == ["1", "2", "3", "4"], pairs
    assert_figure(cwd / "examples/testbed/testbed.png", MAX_FIGURE_BYTES)


def check_crosscheck_ns2(ran: list[Ran], cwd: Path) -> None:
    one = output_of(ran, "hopsim crosscheck examples/crosscheck-ns2/chain.toml")
    assert "hopsim (standard)" in one and "hopsim (ns2)" in one and "goodput_kbps" in one, one
    scripts = sorted((cwd / "results/crosscheck-chain/ns2").glob("point0-rep*.tcl"))
    assert [p.name for p in scripts] == [f"point0-rep{r}.tcl" for r in range(4)], scripts
    chains = output_of(ran, "hopsim crosscheck examples/crosscheck-ns2/chains.toml")
    assert "(CIs overlap)" in chains, chains
    assert_figure(cwd / "results/crosscheck-chain/crosscheck.png")
    assert_figure(cwd / "examples/crosscheck-ns2/crosscheck.png", MAX_FIGURE_BYTES)
    assert re.search(r"^HOPSIM tcp 0 \d+", output_of(ran, "cd results/crosscheck-chain/ns2"), re.M)


def check_index(ran: list[Ran], cwd: Path) -> None:
    listing = output_of(ran, "hopsim reproduce --list")
    for name in ("chen-cwl", "chen-manet", "dsn-variants", "vegas-w", "testbed-window"):
        assert name in listing, listing
    assert "18 runs" in output_of(ran, "hopsim sweep my-sweep.toml")


def check_tutorial(ran: list[Ran], cwd: Path) -> None:
    assert "[topology]" in output_of(ran, "hopsim validate chain.toml")
    assert "12 runs" in output_of(ran, "hopsim sweep sweep.toml")
    assert (cwd / "flows.parquet").is_file()
    assert (cwd / "out/pcap/node-0.pcap").is_file()
    assert (cwd / "out/ip/flow-0-node-0.pcap").is_file()
    assert (cwd / "out/cwnd.parquet").is_file()
    assert_figure(cwd / "chain.png")
    assert "newreno" in output_of(ran, "python block")


def check_window_80211n(ran: list[Ran], cwd: Path) -> None:
    assert "56 runs, 0 already stored, 56 run now, 0 failed" in output_of(ran, "hopsim sweep")
    table = output_of(ran, "python examples/window-80211n/best_window.py")
    best = {
        (int(h), agg): int(cwl)
        for h, agg, cwl in re.findall(r"^\s*(\d+)\s+(no|yes)\s+(\d+)\s", table, re.M)
    }
    # Without aggregation a second segment in flight meets the first at a hidden relay; with
    # A-MPDUs the best window is what one PPDU carries at MCS 4 within aPPDUMaxTime (5.484
    # ms): 17 MPDUs of 1,538 octets take 5.424 ms, 18 would take 5.740 (dot11ht_timing).
    assert best == {(2, "no"): 1, (2, "yes"): 17, (8, "no"): 1, (8, "yes"): 17}, table
    assert_figure(cwd / "results/window-80211n-quick/best_window.png")


def check_gym_window(ran: list[Ran], cwd: Path) -> None:
    table = output_of(ran, "python examples/gym-window/cem.py")
    rows = {
        name.strip(): [float(v) for v in re.findall(r"(-?[\d.]+) ± ([\d.]+)", rest)[0]]
        for name, rest in re.findall(r"^\| ([^|]+?)\s*\|([^\n]+)$", table, re.M)
        if "±" in rest.split("|")[0]
    }
    learned, bad = rows["learned (CEM)"], rows["fixed window 32 (bad)"]
    # The check: the learned policy beats a fixed bad window, beyond both CIs.
    assert learned[0] - learned[1] > bad[0] + bad[1], table
    assert_figure(cwd / "results/gym-window/cem-quick.png")


def check_mesh_routing(ran: list[Ran], cwd: Path) -> None:
    for net in ("grid", "manet"):
        sweep = output_of(ran, f"hopsim sweep examples/mesh-routing/{net}-sweep.toml")
        assert f"mesh-routing-{net}: 32 runs, 0 already stored, 32 run now, 0 failed" in sweep
    table = output_of(ran, "python examples/mesh-routing/study.py")
    rows = re.findall(
        r"^\| (grid|manet) \| (AODV|DSR|OLSR|HWMP) \| (newreno|vegas) \| (none|hop_based) "
        r"\| [^|]+ \| ([\d,.]+) [^|]*\| ([\d,.]+) [^|]*\|",
        table,
        re.M,
    )
    assert len(rows) == 32, table  # 2 networks x 4 protocols x 2 variants x 2 limits
    delay = {r[:4]: float(r[4].replace(",", "")) for r in rows}
    control = {r[:4]: float(r[5].replace(",", "")) for r in rows}
    for net in ("grid", "manet"):
        for variant in ("newreno", "vegas"):
            for limit in ("none", "hop_based"):
                # DSR answers from its route caches: the fewest control packets everywhere.
                dsr = control[(net, "DSR", variant, limit)]
                others = [control[(net, p, variant, limit)] for p in ("AODV", "OLSR", "HWMP")]
                assert dsr < min(others), (net, variant, limit, table)
        # OLSR's HELLOs and TCs are periodic: the same overhead whatever TCP does.
        olsr = [v for k, v in control.items() if k[:2] == (net, "OLSR")]
        assert max(olsr) < 1.1 * min(olsr), (net, olsr)
        # NewReno fills its 20-segment window into the relays' queues; the hop-based limit
        # (1-2 segments on these routes) takes that delay off under every protocol.
        for p in ("AODV", "DSR", "OLSR", "HWMP"):
            none, hop = delay[(net, p, "newreno", "none")], delay[(net, p, "newreno", "hop_based")]
            assert hop < none, (net, p, none, hop)
    assert_figure(cwd / "results/mesh-routing-quick/mesh-routing.png")


CHECKS = {
    "grid-aodv": check_grid_aodv,
    "manet-dsr": check_manet_dsr,
    "newreno-vs-vegas": check_newreno_vs_vegas,
    "testbed": check_testbed,
    "window-80211n": check_window_80211n,
    "crosscheck-ns2": check_crosscheck_ns2,
    "gym-window": check_gym_window,
    "mesh-routing": check_mesh_routing,
}


@pytest.mark.parametrize("folder", FOLDERS)
def test_example_commands_run_as_documented(folder: str, tmp_path: Path):
    if folder == "crosscheck-ns2" and not has_ns():
        pytest.skip("ns (ns-2.35, Debian package ns2) is not on the PATH")
    cwd = workdir(tmp_path)
    ran = run_document(EXAMPLES / folder / "README.md", cwd)
    CHECKS[folder](ran, cwd)


def test_index_commands_run_as_documented(tmp_path: Path):
    cwd = workdir(tmp_path)
    check_index(run_document(EXAMPLES / "README.md", cwd), cwd)


def test_tutorial_runs_as_documented(tmp_path: Path):
    cwd = workdir(tmp_path)
    check_tutorial(run_document(TUTORIAL, cwd), cwd)


# ------------------------------------------------------------------- the committed files


@pytest.mark.parametrize("folder", FOLDERS)
def test_committed_figures_are_embedded_small_and_drawn(folder: str):
    readme = (EXAMPLES / folder / "README.md").read_text(encoding="utf-8")
    images = re.findall(r"!\[[^\]]*\]\(([^)]+\.png)\)", readme)
    assert images, f"examples/{folder}/README.md embeds no figure"
    for name in images:
        assert_figure(EXAMPLES / folder / name, MAX_FIGURE_BYTES)


@pytest.mark.parametrize("readme", [*(f"{f}/README.md" for f in FOLDERS), "README.md"])
def test_readme_links_point_to_files(readme: str):
    path = EXAMPLES / readme
    for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", path.read_text(encoding="utf-8")):
        if "://" not in target:
            assert (path.parent / target).exists(), f"examples/{readme}: broken link {target}"


def test_docs_examples_page_covers_every_folder():
    page = (REPO / "docs" / "examples.md").read_text(encoding="utf-8")
    index = (EXAMPLES / "README.md").read_text(encoding="utf-8")
    for folder in FOLDERS:
        assert f"\n## {folder}\n" in page, f"docs/examples.md has no section {folder}"
        assert f"]({folder}/README.md)" in index, f"examples/README.md does not link {folder}"


def test_tutorial_names_only_real_scenario_keys():
    """Every dotted scenario key the tutorial names (`radio.rx_threshold_w`, `flows.N.bytes`)
    is a key of the scenario reference in docs/interfaces.md."""
    reference = (REPO / "docs" / "interfaces.md").read_text(encoding="utf-8")
    block = reference.split("## Scenario keys", 1)[1].split("```toml", 1)[1].split("```", 1)[0]
    known = set(re.findall(r"^#?\s*([a-z_]+)\s*=", block, re.M))
    text = TUTORIAL.read_text(encoding="utf-8")
    named = re.findall(
        r"`(?:(?:radio|mac|routing|tcp|topology|mobility|traffic)|flows\.(?:N|\d+))\.([a-z_]+)",
        text,
    )
    assert len(named) >= 15, named
    unknown = sorted(set(named) - known)
    assert not unknown, f"docs/tutorial.md names keys that do not exist: {unknown}"
