"""``hopsim show``: the layout's links against the radio ranges, routes against shortest paths
and the routing protocols' own choices, and pictures that hold what they claim to show."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from hopsim import _core
from hopsim.scenario import to_json
from hopsim.show import draw_network, network_picture, output_paths

# ns-2 defaults (docs/models.md): 2 Mbit/s two-ray ground, decode up to 250 m, carrier sense
# up to 550 m.
DECODE_M, SENSE_M = 250.0, 550.0


def _chain(hops: int, spacing_m: float, protocol: str = "static") -> dict:
    return {
        "duration_s": 10.0,
        "topology": {"kind": "chain", "hops": hops, "spacing_m": spacing_m},
        "routing": {"protocol": protocol},
        "flows": [{"src": 0, "dst": hops, "transport": "udp", "interval_s": 0.05}],
    }


def _layout(doc: dict) -> dict:
    return json.loads(_core.layout_json(to_json(doc)))


@pytest.mark.parametrize("spacing_m", [200.0, 240.0, 130.0])
def test_links_follow_the_decode_and_carrier_sense_ranges(spacing_m: float):
    hops = 8
    lay = _layout(_chain(hops, spacing_m))
    decode = {tuple(p) for p in lay["decode_links"]}
    sense = {tuple(p) for p in lay["sense_links"]}
    for a in range(hops + 1):
        for b in range(a + 1, hops + 1):
            d = (b - a) * spacing_m
            assert ((a, b) in decode) == (d <= DECODE_M), (a, b, d)
            assert ((a, b) in sense) == (DECODE_M < d <= SENSE_M), (a, b, d)


def test_shortest_paths_on_a_grid_take_the_fewest_hops():
    # 4 x 4 grid at 200 m: only horizontal and vertical neighbours decode (diagonal 283 m);
    # node numbers go row by row (node = row * cols + col).
    doc = {
        "duration_s": 5.0,
        "topology": {"kind": "grid", "rows": 4, "cols": 4, "spacing_m": 200.0},
        "flows": [
            {"src": 0, "dst": 15, "transport": "udp", "interval_s": 0.1},
            {"src": 3, "dst": 12, "transport": "udp", "interval_s": 0.1},
        ],
    }
    lay = _layout(doc)
    assert lay["positions"][5] == [200.0, 200.0] and lay["positions"][3] == [600.0, 0.0]
    for flow, path in zip(lay["flows"], lay["shortest_paths"], strict=True):
        assert path[0] == flow["src"] and path[-1] == flow["dst"]
        assert len(path) - 1 == 6, path  # Manhattan distance 3 + 3
        for a, b in zip(path, path[1:], strict=False):
            assert (min(a, b), max(a, b)) in {tuple(p) for p in lay["decode_links"]}


@pytest.mark.parametrize("protocol", ["aodv", "dsr", "hwmp"])
def test_on_demand_routes_come_from_the_run(protocol: str):
    pic = network_picture(_chain(4, 200.0, protocol))
    assert pic.ran
    (flow,) = pic.flows
    assert flow.goodput_kbps is not None and flow.goodput_kbps > 0
    assert flow.routes[0][0] == [0, 1, 2, 3, 4] and flow.routes[0][1] > 0.95
    assert abs(sum(share for _, share in flow.routes) - 1.0) < 1e-9
    not_run = network_picture(_chain(4, 200.0, protocol), run=False)
    assert not not_run.ran and not_run.flows[0].routes == [([0, 1, 2, 3, 4], 1.0)]
    assert "shortest paths at time 0" in " ".join(not_run.notes)


def test_proactive_routes_come_from_the_run_with_their_outages():
    # OLSR on the ns-2 radio loses the 4-hop chain's route part of the time (HELLOs lost to
    # the hidden relay's data, docs/models.md 15.1): the picture shows the route and the
    # time without one, shares summing to 1.
    pic = network_picture(_chain(4, 200.0, "olsr"))
    (flow,) = pic.flows
    assert pic.ran and [0, 1, 2, 3, 4] in [nodes for nodes, _ in flow.routes]
    assert abs(sum(share for _, share in flow.routes) - 1.0) < 1e-9


def _ink(png: Path) -> int:
    """Pixels that are not (near) white."""
    import matplotlib.image as mpimg

    img = mpimg.imread(png)
    return int((img[..., :3].min(axis=2) < 0.9).sum())


def test_the_picture_holds_nodes_links_and_routes(tmp_path: Path):
    pic = network_picture(_chain(4, 200.0))
    full = draw_network(pic, [tmp_path / "full.png", tmp_path / "full.svg"])
    bare = draw_network(pic, [tmp_path / "bare.png"], links="none")
    svg = full[1].read_text()
    assert svg.startswith("<?xml") and "<svg" in svg
    # One arrow per hop of the route, plus one dotted arc per carrier-sense-only pair.
    assert _ink(full[0]) > _ink(bare[0]) > 0
    labels = re.findall(r"flow 0: 0\u21924", svg) or re.findall(r"flow 0", svg)
    assert labels, "the legend names the flow"


def test_the_cli_writes_png_and_svg_and_lists_the_routes(tmp_path: Path):
    scenario = tmp_path / "net.toml"
    scenario.write_text(
        'duration_s = 10.0\n[topology]\nkind = "chain"\nhops = 3\nspacing_m = 200.0\n'
        '[routing]\nprotocol = "aodv"\n[[flows]]\nsrc = 0\ndst = 3\ntransport = "tcp"\n'
    )
    proc = subprocess.run(
        [sys.executable, "-m", "hopsim", "show", str(scenario), "-o", str(tmp_path / "pic")],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "pic.png").stat().st_size > 0 and (tmp_path / "pic.svg").exists()
    assert re.search(r"\d+\.\d%  0-1-2-3", proc.stdout), proc.stdout
    assert "aodv routing" in proc.stdout


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["-o", "x.jpg"], "suffix .jpg is not allowed"),
        (["--links", "some"], "--links 'some'"),
        (["--set", "topology.hops=0"], "topology.hops"),
    ],
)
def test_bad_options_are_refused(tmp_path: Path, args: list[str], says: str):
    root = Path(__file__).resolve().parents[1]
    proc = subprocess.run(
        [sys.executable, "-m", "hopsim", "show", str(root / "scenarios/chain-tcp.toml"), *args],
        capture_output=True, text=True, timeout=120, cwd=tmp_path,
    )  # fmt: skip
    assert proc.returncode == 2, proc.stderr
    assert says in proc.stderr and "Traceback" not in proc.stderr
    assert not list(tmp_path.iterdir()), "nothing written"


def test_output_names():
    assert [p.name for p in output_paths("a/net")] == ["net.png", "net.svg"]
    assert [p.name for p in output_paths("net.SVG")] == ["net.SVG"]
