"""The run explorer in a real browser (issue 15, "How it must be shown"): ``hopsim view``
writes one self-contained page, and headless Chromium (Debian's ``chromium``, driven by
selenium through ``chromedriver``) opens it from disk and shows what a user sees: one node
per node of the scenario, the air timeline drawn with every frame of the window, one chart per
flow, no console error; a click on a drop opens its packet's journey, hop by hop, ending
where the trace says; zooming narrows the timeline; each flow's route lane (issue 36) holds
valid routes and routing control frames are named by message. The page needs no network: it
is loaded with every request other than the file itself blocked. Skipped, saying why, when
Chromium, chromedriver or selenium is missing (``make test`` installs them).
"""

from __future__ import annotations

import re
import shutil
import time
from pathlib import Path

import pytest

from simhelpers import assert_no_traceback, run_cli

REPO = Path(__file__).resolve().parents[1]
GOLDEN = REPO / "crates" / "hopsim-core" / "tests" / "golden"

webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed")
if shutil.which("chromium") is None or shutil.which("chromedriver") is None:
    pytest.skip("chromium or chromedriver is not installed", allow_module_level=True)

from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402
from selenium.webdriver.common.actions.wheel_input import ScrollOrigin  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402


@pytest.fixture(scope="module")
def browser():
    options = webdriver.ChromeOptions()
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1200,1300"):
        options.add_argument(arg)
    options.binary_location = shutil.which("chromium")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    service = webdriver.ChromeService(executable_path=shutil.which("chromedriver"))
    driver = webdriver.Chrome(service=service, options=options)
    # Offline: any request other than the page's own file fails.
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Network.setBlockedURLs", {"urls": ["http://*", "https://*"]})
    yield driver
    driver.quit()


def _open(browser, page: Path, fragment: str = ""):
    browser.get(page.as_uri() + fragment)
    status = browser.find_element(By.ID, "status")
    assert status.get_attribute("data-ready") == "1", "the script did not finish"
    errors = [e for e in browser.get_log("browser") if e["level"] in ("SEVERE", "ERROR")]
    assert not errors, errors
    return status


@pytest.fixture(scope="module")
def page(tmp_path_factory) -> tuple[Path, dict]:
    out = tmp_path_factory.mktemp("view") / "run.html"
    from hopsim.view import write_view

    data = write_view(GOLDEN / "routing-aodv-chain.toml", out)
    return out, data


def test_the_page_shows_the_network_the_air_and_the_flows(browser, page) -> None:
    path, data = page
    html = path.read_text()
    assert not re.search(r"""(src|href)=["']https?:""", html), "nothing is fetched"
    status = _open(browser, path)
    assert int(status.get_attribute("data-nodes")) == len(data["nodes"]) == 5
    frames = len(data["frames"][0])
    assert int(status.get_attribute("data-frames")) == frames > 1000
    assert int(status.get_attribute("data-flows")) == len(data["flows"]) == 1
    assert int(status.get_attribute("data-drops")) == len(data["drops"][0])
    # The timeline is drawn: the canvas holds coloured pixels.
    coloured = browser.execute_script(
        "const c=document.getElementById('air'), d=c.getContext('2d')"
        ".getImageData(0,0,c.width,c.height).data; let n=0;"
        "for (let i=0;i<d.length;i+=4) if (d[i+3] && (d[i]!==d[i+1] || d[i+1]!==d[i+2])) n++;"
        "return n;"
    )
    assert coloured > 5000


def test_a_click_on_a_drop_shows_its_packets_journey(browser, page) -> None:
    path, data = page
    _open(browser, path)
    drops = data["drops"]
    assert drops[0], "the scenario has drops"
    i = next(k for k in range(len(drops[0])) if drops[4][k] in data["journeys"])
    packet, node = drops[4][i], drops[0][i]
    x, y, w, h = browser.execute_script(
        "const c=document.getElementById('air');"
        f"return [xOf(D.drops[1][{i}], c.width), D.drops[0][{i}]*ROW_PX + 4,"
        " c.getBoundingClientRect().width, c.getBoundingClientRect().height];"
    )
    air = browser.find_element(By.ID, "air")
    ActionChains(browser).move_to_element_with_offset(air, x - w / 2, y - h / 2).click().perform()
    details = browser.find_element(By.ID, "details").text
    assert f"drop at node {node}" in details and f"packet {packet}" in details
    table = browser.find_element(By.ID, "journey")
    assert table.get_attribute("data-packet") == str(packet)
    rows = table.find_elements(By.TAG_NAME, "tr")[1:]
    journey = data["journeys"][packet]
    assert len(rows) == len(journey) > 1
    assert rows[0].text.split()[2] in ("sent", "queued"), rows[0].text  # from its source ...
    dropped = [r.text for r in rows if "dropped" in r.text]  # ... to the drop clicked
    assert dropped and dropped[0].split()[1] == str(node), dropped


def test_play_moves_the_time_cursor(browser, page) -> None:
    path, _ = page
    _open(browser, path)
    browser.find_element(By.ID, "play").click()
    label = browser.find_element(By.ID, "tlabel")
    start = label.text
    time.sleep(0.5)
    assert label.text != start, "the scrubber did not move"
    browser.find_element(By.ID, "play").click()


def test_zoom_narrows_the_timeline(browser, page) -> None:
    path, _ = page
    status = _open(browser, path)
    before = int(status.get_attribute("data-frames"))
    air = browser.find_element(By.ID, "air")
    for _ in range(8):
        ActionChains(browser).scroll_from_origin(ScrollOrigin.from_element(air), 0, -200).perform()
    lo, hi = map(float, status.get_attribute("data-view").split(","))
    assert hi - lo < 0.5 * 30e6
    assert int(status.get_attribute("data-frames")) < before


def test_a_journey_opens_from_the_address(browser, page) -> None:
    path, data = page
    packet = next(iter(data["journeys"]))
    status = _open(browser, path, f"#packet={packet}")
    assert int(status.get_attribute("data-journey")) == len(data["journeys"][packet])


def test_cli_view_writes_a_small_page(tmp_path: Path) -> None:
    out = tmp_path / "chain.html"
    proc = run_cli("view", str(GOLDEN / "tcp-newreno.toml"), "-o", str(out))
    assert proc.returncode == 0, proc.stderr
    assert_no_traceback(proc)
    assert out.stat().st_size < 8e6 and "wrote" in proc.stdout
    bad = run_cli("view", str(GOLDEN / "tcp-newreno.toml"), "-o", str(tmp_path / "x.txt"))
    assert bad.returncode == 2 and ".html" in bad.stderr


def test_a_100_s_7_hop_tcp_page_is_small_and_opens_fast(browser, tmp_path: Path) -> None:
    out = tmp_path / "chain100.html"
    proc = run_cli(
        "view", str(REPO / "scenarios" / "chain-tcp.toml"), "--set", "duration_s=100",
        "-o", str(out),
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert out.stat().st_size < 8e6, out.stat().st_size
    status = _open(browser, out)
    assert int(status.get_attribute("data-frames")) > 100_000  # the whole run, not cut
    load_ms = browser.execute_script(
        "return performance.getEntriesByType('navigation')[0].loadEventEnd"
    )
    assert load_ms < 2000, load_ms


SWEEP = """
name = "view-test"
base = "{base}"
replications = 2
seed = 3
metrics = ["goodput_kbps", "retransmissions"]
set = {{ duration_s = 8.0, warmup_s = 2.0 }}

[sweep]
"tcp.variant" = ["newreno", "vegas"]
"""


@pytest.fixture(scope="module")
def store(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("sweep")
    spec = folder / "sweep.toml"
    spec.write_text(SWEEP.format(base=GOLDEN / "tcp-newreno.toml"))
    proc = run_cli("sweep", str(spec), "--out", str(folder / "out"), "--jobs", "1")
    assert proc.returncode == 0, proc.stderr
    return folder / "out"


def test_view_of_a_sweep_links_every_point_to_its_regenerated_run(browser, store: Path) -> None:
    proc = run_cli("view", str(store))
    assert proc.returncode == 0, proc.stderr
    assert_no_traceback(proc)
    assert "4 run pages" in proc.stdout and "4 regenerated bit for bit" in proc.stdout
    index = store / "view" / "index.html"
    browser.get(index.as_uri())
    errors = [e for e in browser.get_log("browser") if e["level"] in ("SEVERE", "ERROR")]
    assert not errors, errors
    plots = browser.find_elements(By.CSS_SELECTOR, "svg.plot")
    assert [p.get_attribute("data-metric") for p in plots] == ["goodput_kbps", "retransmissions"]
    points = plots[0].find_elements(By.CSS_SELECTOR, "circle.point")
    assert len(points) == 2  # newreno, vegas
    assert len(browser.find_elements(By.CSS_SELECTOR, "a.run")) == 4  # 2 points x 2 runs
    points[1].click()
    status = browser.find_element(By.ID, "status")
    assert status.get_attribute("data-ready") == "1"
    body = browser.find_element(By.TAG_NAME, "body").text
    assert "point 1 (tcp.variant = vegas), replication 0" in body
    assert "the same result, bit for bit" in body
    assert int(status.get_attribute("data-nodes")) == 5


# ---------------------------------------------------------------- routes over time (issue 36)


def _assert_valid_routes(data: dict) -> None:
    """Every route of the lanes starts at its flow's source, ends at its destination, visits
    no node twice and hops only over links that decode (the nodes do not move); each flow's
    spans follow one another without overlapping. (A transient routing loop would show as a
    repeated node: the OLSR grid has one at 19.9 s, after the runs below end.)"""
    links = {frozenset(link) for link in data["decode_links"]}
    flows, starts, ends, routes = data["route_spans"]
    paths = list(data["route_changes"][2]) + [r for r in routes if r]
    owners = list(data["route_changes"][0]) + [f for f, r in zip(flows, routes, strict=True) if r]
    for fi, path in zip(owners, paths, strict=True):
        flow = data["flows"][fi]
        assert path[0] == flow["src"] and path[-1] == flow["dst"], (fi, path)
        assert len(set(path)) == len(path), f"a route visits a node twice: {path}"
        assert all(frozenset(hop) in links for hop in zip(path, path[1:], strict=False)), path
    for fi in set(flows):
        mine = [(a, b) for f, a, b in zip(flows, starts, ends, strict=True) if f == fi]
        assert all(a <= b for a, b in mine)
        assert all(b0 <= a1 for (_, b0), (a1, _) in zip(mine, mine[1:], strict=False)), (
            "spans overlap"
        )
    # A route change is where a span with a new route begins.
    begun = {(f, a) for f, a, r in zip(flows, starts, routes, strict=True) if r}
    assert set(zip(*data["route_changes"][:2], strict=True)) <= begun


@pytest.mark.parametrize(
    ("protocol", "messages"),
    [
        ("hwmp", {"HWMP PREQ", "HWMP PREP", "HWMP RANN"}),
        ("olsr", {"OLSR HELLO/TC"}),
    ],
)
def test_route_lanes_follow_proactive_routes_on_a_grid(protocol: str, messages: set) -> None:
    from hopsim.view import page_data

    data = page_data(GOLDEN / f"routing-{protocol}-grid.toml", ["duration_s=16"])
    _assert_valid_routes(data)
    changes = data["route_changes"][0]
    assert set(changes) == {0, 1}, "both flows found a route"
    assert max(changes.count(f) for f in (0, 1)) > 1, "a route changes on this grid"
    flows, starts, _, routes = data["route_spans"]
    # Before its first delivery each flow waited for a route (HWMP: held while its path is
    # discovered; OLSR: dropped for want of a route while the first HELLOs and TCs go out).
    for fi in (0, 1):
        first = next(i for i, f in enumerate(flows) if f == fi)
        assert routes[first] == [] and starts[first] < 1e6, (protocol, fi)
    names = {name for name, _ in data["control_kinds"]}
    assert messages <= names, names
    assert all(not n.endswith(" control") for n in names), "every message is named"
    # Control frames are DATA frames (the packets ride in them) and carry a packet.
    frames = data["frames"]
    for i in data["control_frames"][0]:
        assert frames[3][i] == 0 and frames[5][i] > 0


def test_aodv_and_dsr_control_frames_are_named(page) -> None:
    from hopsim.view import page_data

    _, aodv = page
    assert {"AODV RREQ", "AODV RREP"} <= {n for n, _ in aodv["control_kinds"]}
    dsr = page_data(GOLDEN / "routing-dsr-chain.toml", ["duration_s=3", "warmup_s=1"])
    assert {"DSR RREQ", "DSR RREP"} <= {n for n, _ in dsr["control_kinds"]}
    _assert_valid_routes(dsr)


def test_a_static_chain_has_one_route_per_flow() -> None:
    from hopsim.view import page_data

    data = page_data(GOLDEN / "tcp-newreno.toml")
    flows, _, _, routes = data["route_spans"]
    assert data["route_changes"][0] == [0] and data["route_changes"][2] == [[0, 1, 2, 3, 4]]
    assert set(flows) == {0} and all(r == [0, 1, 2, 3, 4] for r in routes), routes
    assert data["control_frames"] == [[], []] and data["control_kinds"] == []
    _assert_valid_routes(data)


def test_the_page_draws_route_lanes_and_control_frames(browser, tmp_path: Path) -> None:
    from hopsim.view import write_view

    out = tmp_path / "hwmp.html"
    data = write_view(GOLDEN / "routing-hwmp-grid.toml", out, ["duration_s=6", "warmup_s=1"])
    status = _open(browser, out)
    routes = data["route_spans"][3]
    assert int(status.get_attribute("data-routes")) == sum(1 for r in routes if r) > 0
    assert int(status.get_attribute("data-no-route")) == sum(1 for r in routes if not r) > 0
    assert int(status.get_attribute("data-changes")) == len(data["route_changes"][0])
    legend = browser.find_element(By.CLASS_NAME, "legend").text
    assert "HWMP PREQ" in legend and "no route" in legend
    # Control frames are not drawn in DATA's colour.
    colours = browser.execute_script(
        "return [frameColour(D.control_frames[0][0]), frameColour(D.frames[0].findIndex("
        "(_, i) => !CONTROL.has(i) && D.frames[3][i] === 0))];"
    )
    assert colours[0] != colours[1] == "#1f77b4"
    # Hovering over a route's span names its nodes and hops.
    i = next(k for k, r in enumerate(routes) if r)
    x, y, w, h = browser.execute_script(
        "const c=document.getElementById('air'), sp=D.route_spans;"
        f"return [xOf((sp[1][{i}] + sp[2][{i}]) / 2, c.width), (D.nodes.length + sp[0][{i}])"
        "*ROW_PX + 8, c.getBoundingClientRect().width, c.getBoundingClientRect().height];"
    )
    air = browser.find_element(By.ID, "air")
    browser.execute_script("arguments[0].scrollIntoView()", air)
    ActionChains(browser).move_to_element_with_offset(air, x - w / 2, y - h / 2).perform()
    title = air.get_attribute("title")
    assert "\u2192".join(map(str, routes[i])) in title, title
    assert re.search(rf"\b{len(routes[i]) - 1} hops?\b", title), title
