"""The run explorer in a real browser (issue 15, "How it must be shown"): ``hopsim view``
writes one self-contained page, and headless Chromium (Debian's ``chromium``, driven by
selenium through ``chromedriver``) opens it from disk and shows what a user sees: one node
per node of the scenario, the air timeline drawn with every frame of the window, one chart per
flow, no console error; a click on a drop opens its packet's journey, hop by hop, ending
where the trace says; zooming narrows the timeline. The page needs no network: it is loaded
with every request other than the file itself blocked. Skipped, saying why, when Chromium,
chromedriver or selenium is missing (``make test`` installs them).
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
