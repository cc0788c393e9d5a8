"""hopsim.links: the link-trace format (round trip, refusals by file, line and column), the
Roofnet converter on a folder written here in Roofnet's layout (hopsim ships no Roofnet
data), and the Gilbert-Elliott fit against sequences drawn from known chains."""

from __future__ import annotations

import contextlib
import math
import random
import re
from pathlib import Path

import pytest

import hopsim
from hopsim.links import LinkSeries, fit_link, read_trace, write_trace
from hopsim.links.fit import autocorrelation, burst_lengths
from hopsim.links.roofnet import read_roofnet


def _chain(good_s: float, bad_s: float, n: int, h: float, seed: int) -> LinkSeries:
    """n probes h apart through a continuous-time good/bad chain (exact transitions)."""
    rng = random.Random(seed)
    lam, pi = 1 / good_s + 1 / bad_s, bad_s / (good_s + bad_s)
    decay = math.exp(-lam * h)
    bad = rng.random() < pi
    link = LinkSeries(0, 1)
    for k in range(n):
        link.times_s.append(k * h)
        link.delivered.append(not bad)
        link.snr_db.append(None)
        bad = rng.random() < pi + ((1.0 if bad else 0.0) - pi) * decay
    return link


def test_the_fit_recovers_the_chain() -> None:
    """200,000 probes 10 ms apart from good 0.3 s / bad 0.05 s: the estimates are within a
    few percent (each mean comes from thousands of sojourns)."""
    fit = fit_link(_chain(0.3, 0.05, 200_000, 0.01, 3))
    assert not fit.memoryless
    assert fit.good_mean_s == pytest.approx(0.3, rel=0.05)
    assert fit.bad_mean_s == pytest.approx(0.05, rel=0.05)
    assert (fit.loss_good, fit.loss_bad) == (0.0, 1.0)
    assert fit.delivery == pytest.approx(0.3 / 0.35, abs=0.01)


def test_independent_losses_fit_as_memoryless() -> None:
    rng = random.Random(1)
    link = LinkSeries(2, 5, [k * 0.01 for k in range(20_000)])
    link.delivered = [rng.random() < 0.6 for _ in link.times_s]
    link.snr_db = [None] * len(link.times_s)
    fit = fit_link(link)
    # p + q = 1 for independent losses, up to sampling: either branch may be taken, but the
    # loss and the mean burst (1 / 0.6) must come out.
    assert 1 - fit.delivery == pytest.approx(0.4, abs=0.01)
    lengths = burst_lengths(link.delivered)
    assert sum(lengths) / len(lengths) == pytest.approx(1 / 0.6, rel=0.03)
    if fit.memoryless:
        assert fit.loss_good == fit.loss_bad == pytest.approx(0.4, abs=0.01)


def test_burst_lengths_and_autocorrelation() -> None:
    assert burst_lengths([True, False, False, True, False]) == [2, 1]
    alternating = [k % 2 == 0 for k in range(1000)]
    assert autocorrelation(alternating, [1, 2]) == pytest.approx([-1.0, 1.0], abs=0.01)
    assert all(math.isnan(v) for v in autocorrelation([True] * 10, [1]))


def test_fitted_table_runs_and_reproduces_the_link(tmp_path: Path) -> None:
    """The fitted table through the simulator gives the link's delivery and bursts back."""
    from hopsim.links.sim import simulate_link

    link = _chain(0.2, 0.04, 6000, 0.0125, 9)
    fit = fit_link(link)
    fates = simulate_link(fit, 6000, 0.0125, 4)
    assert len(fates) == 6000
    assert sum(fates) / 6000 == pytest.approx(link.delivery, abs=0.03)
    sim, real = burst_lengths(fates), burst_lengths(link.delivered)
    assert sum(sim) / len(sim) == pytest.approx(sum(real) / len(real), rel=0.15)


def test_trace_round_trip(tmp_path: Path) -> None:
    a = LinkSeries(0, 1, [0.0, 0.5, 1.0], [True, False, True], [20.0, None, 18.5])
    b = LinkSeries(1, 0, [0.0, 0.25], [False, True], [None, 3.0])
    path = tmp_path / "t.csv"
    assert write_trace(path, [a, b], {"source": "test"}) == 5
    back = read_trace(path)
    assert back[(0, 1)] == a and back[(1, 0)] == b


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("src,dst,time\n", "header"),
        ("src,dst,time_s,delivered\n0,1,0.0,2\n", r"t\.csv:2: delivered = '2'"),
        ("src,dst,time_s,delivered\n0,0,0.0,1\n", "src = dst = 0"),
        ("src,dst,time_s,delivered\n0,1,nan,1\n", "time_s = 'nan'"),
        ("src,dst,time_s,delivered\n0,1,1e8,1\n", "0 to 1e\\+07 s"),
        ("src,dst,time_s,delivered\n0,1,1.0,1\n0,1,0.5,1\n", "before the link's previous"),
        ("src,dst,time_s,delivered\n0,x,0.0,1\n", "dst = 'x': not a node id"),
        ("src,dst,time_s,delivered,snr_db\n0,1,0.0,0,12\n", "for a lost probe"),
        ("src,dst,time_s,delivered\n0,1,0.0\n", "3 columns"),
        ("src,dst,time_s,delivered\n", "no probes"),
        ("", "no header"),
    ],
)
def test_bad_traces_are_refused_by_place(tmp_path: Path, body: str, message: str) -> None:
    path = tmp_path / "t.csv"
    path.write_text(body)
    with pytest.raises(hopsim.ScenarioError, match=message):
        read_trace(path)


def test_roofnet_layout_converts(tmp_path: Path) -> None:
    """Sender 700 sent probes 0..5 every 12.5 ms; receiver 650 got 0, 1, 3 and 5 (numbers
    carry Roofnet's 0x1C000000 tag), 710 got 2 and 4; 710 never sent."""
    head = "exp_id,link_test,test_phase,src,dst,seq,time,signal,noise\n"
    tag = 0x1C << 24

    def rows(dst: int, got: list[int]) -> str:
        return "".join(f"1,1,0,700,{dst},{tag + k},{100 + 0.0125 * k},{20 + k},5\n" for k in got)

    (tmp_path / "700-650-1.csv").write_text(head + rows(650, [0, 1, 3, 5]))
    (tmp_path / "700-710-1.csv").write_text(head + rows(710, [2, 4]))
    (tmp_path / "send-700-1.txt").write_text("700 6\n")
    links, nodes = read_roofnet(tmp_path, "1")
    assert nodes == {0: "650", 1: "700", 2: "710"}
    by = {(link.src, link.dst): link for link in links}
    a, b = by[(1, 0)], by[(1, 2)]
    assert a.delivered == [True, True, False, True, False, True]
    assert b.delivered == [False, False, True, False, True, False]
    assert a.times_s == pytest.approx([0.0125 * k for k in range(6)])
    assert a.snr_db == [15.0, 16.0, None, 18.0, None, 20.0]
    (tmp_path / "send-700-1.txt").write_text("700 six\n")
    with pytest.raises(hopsim.ScenarioError, match="send-700-1.txt"):
        read_roofnet(tmp_path, "1")


# ------------------------------------------------------------------ hopsim fit-links


def test_fit_links_writes_the_report(tmp_path: Path) -> None:
    from simhelpers import assert_no_traceback, run_cli

    trace = tmp_path / "t.csv"
    write_trace(trace, [_chain(0.3, 0.05, 2000, 0.0125, 1)])
    proc = run_cli("fit-links", str(trace), "--out", str(tmp_path / "out"))
    assert proc.returncode == 0, proc.stderr
    assert_no_traceback(proc)
    assert "links: 1" in proc.stdout and "delivery within 0.05" in proc.stdout
    rows = (tmp_path / "out" / "fits.csv").read_text().splitlines()
    assert rows[0].startswith("src,dst,probes") and rows[1].startswith("0,1,1000,")
    assert (tmp_path / "out" / "held_out.png").stat().st_size > 10_000


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["missing.csv"], "no such file or folder"),
        (["{trace}", "--rate", "3"], "--rate '3'"),
        (["{trace}", "--seed", "0"], "--seed 0"),
        (["{bad}"], r"bad\.csv:2: delivered = 'x'"),
        (["{trace}", "--out", "{trace}/sub"], "--out"),
        (["{utf}"], "not UTF-8 text"),
        (["{fast}"], "0.5 ms apart"),
    ],
)
def test_fit_links_refuses_bad_input(tmp_path: Path, args: list[str], message: str) -> None:
    from simhelpers import assert_no_traceback, run_cli

    trace, bad = tmp_path / "t.csv", tmp_path / "bad.csv"
    write_trace(trace, [_chain(0.3, 0.05, 100, 0.0125, 1)])
    bad.write_text("src,dst,time_s,delivered\n0,1,0.0,x\n")
    utf, fast = tmp_path / "utf.csv", tmp_path / "fast.csv"
    utf.write_bytes(b"src,dst,time_s,delivered\n0,1,0.0,1\n\xff\xfe,1\n")
    write_trace(fast, [_chain(0.3, 0.05, 20, 0.0005, 1)])
    argv = [a.format(trace=trace, bad=bad, utf=utf, fast=fast) for a in args]
    proc = run_cli("fit-links", *argv)
    assert proc.returncode == 2, (proc.stdout, proc.stderr)
    assert_no_traceback(proc)
    assert re.search(message, proc.stderr), proc.stderr


def test_mangled_traces_are_read_or_refused(tmp_path: Path) -> None:
    """A valid trace cut at any byte or with bytes overwritten (seeded, 400 cases): read, or
    refused with a ScenarioError; never another exception."""
    good = tmp_path / "good.csv"
    write_trace(good, [_chain(0.3, 0.05, 40, 0.0125, 1)], {"source": "test"})
    data = good.read_bytes()
    rng = random.Random(7)
    path = tmp_path / "t.csv"
    outcomes = {"read": 0, "refused": 0}
    for case in range(400):
        if case % 2:
            mangled = data[: rng.randrange(len(data))]
        else:
            b = bytearray(data)
            for _ in range(rng.randint(1, 4)):
                b[rng.randrange(len(b))] = rng.choice(b",.-0123456789x\n\xff\x00 e")
            mangled = bytes(b)
        path.write_bytes(mangled)
        try:
            read_trace(path)
            outcomes["read"] += 1
        except hopsim.ScenarioError:
            outcomes["refused"] += 1
    assert outcomes["read"] > 0 and outcomes["refused"] > 0, outcomes


def test_mangled_roofnet_files_are_read_or_refused(tmp_path: Path) -> None:
    """A Roofnet link file or send file cut or overwritten (seeded, 200 cases)."""
    head = "exp_id,link_test,test_phase,src,dst,seq,time,signal,noise\n"
    link = head + "".join(f"1,1,0,700,650,{k},{100 + 0.0125 * k},20,5\n" for k in range(30))
    rng = random.Random(3)
    for case in range(200):
        name, data = ("700-650-1.csv", link) if case % 2 else ("send-700-1.txt", "700 30\n")
        b = bytearray(data.encode())
        if case % 3:
            b = b[: rng.randrange(len(b) + 1)]
        else:
            for _ in range(rng.randint(1, 4)):
                b[rng.randrange(len(b))] = rng.choice(b",.-0123456789x\n\xff e")
        (tmp_path / "700-650-1.csv").write_text(link)
        (tmp_path / "send-700-1.txt").write_text("700 30\n")
        (tmp_path / name).write_bytes(bytes(b))
        with contextlib.suppress(hopsim.ScenarioError):
            read_roofnet(tmp_path, "1")


def test_the_snr_fit_recovers_an_ou_process() -> None:
    """SNR 15 dB + an OU process (3 dB, 0.2 s) every 10 ms, a quarter of the probes lost at
    random: mean, deviation and coherence come back (consecutive survivors are 13 ms apart on
    average, so the coherence is read at that gap)."""
    from hopsim.links.fit import fit_snr

    rng = random.Random(5)
    rho = math.exp(-0.01 / 0.2)
    x = rng.gauss(0, 1)
    link = LinkSeries(0, 1)
    for k in range(50_000):
        x = rho * x + math.sqrt(1 - rho * rho) * rng.gauss(0, 1)
        ok = rng.random() < 0.75
        link.times_s.append(k * 0.01)
        link.delivered.append(ok)
        link.snr_db.append(15 + 3 * x if ok else None)
    g = fit_snr(link)
    assert g is not None and g.samples == pytest.approx(37_500, rel=0.02)
    assert g.mean_db == pytest.approx(15, abs=0.15)
    assert g.sigma_db == pytest.approx(3, rel=0.05)
    assert g.coherence_s == pytest.approx(0.2, rel=0.1)
    assert fit_snr(LinkSeries(0, 1, [0.0, 1.0], [True, True], [1.0, 2.0])) is None
