"""The interactive page (``snapshot -o plates.html``) in a real browser: headless Chromium (Debian's
``chromium``) driven by Playwright, skipped with the reason where either is missing. Every state the
page can reach lists, under each branch, the spirits ``show`` gives; a real pointer drag and the keys
turn the discs as the program does; the page asks for nothing on the network; it stays under 2 MB."""

from __future__ import annotations

import io
import math
import shutil
from collections import Counter
from pathlib import Path

import pytest

from shensha_plates.commands import main
from shensha_plates.core.cycle import BRANCHES, XUN_HEADS
from shensha_plates.core.engine import State, compute_plate

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser") or "/usr/bin/chromium"
try:
    from playwright.sync_api import sync_playwright
except ImportError:  # pragma: no cover - the test extras install it
    sync_playwright = None  # type: ignore[assignment]

pytestmark = [
    pytest.mark.skipif(sync_playwright is None, reason="playwright is not installed (pip install -e '.[test]')"),
    pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="no chromium here (apt-get install chromium)"),
]


def expected(year: int, month: int, xun: int) -> list[list[str]]:
    return rows_of(State(year_branch=year, month=month, xun=xun))


def rows_of(state: State) -> list[list[str]]:
    plate = compute_plate(state)
    return [sorted(p.id for p in plate.positions[b]) for b in range(12)]


def js_state(state: State) -> dict[str, int | None]:
    return {"year": state.year_branch, "ystem": state.year_stem, "month": state.month, "xun": state.xun,
            "day": state.day}


def page_state(pg) -> State:  # type: ignore[no-untyped-def]
    st = pg.evaluate("window.shensha.state()")
    return State(year_branch=st["year"], year_stem=st["ystem"], month=st["month"], xun=st["xun"], day=st["day"])


@pytest.fixture(scope="module")
def page(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    path = tmp_path_factory.mktemp("page") / "plates.html"
    out = io.StringIO()
    assert main(["snapshot", "--year", "子", "--month", "1", "--xun", "甲子", "-o", str(path)], out=out,
                err=io.StringIO()) == 0
    assert path.stat().st_size < 2_000_000
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=[
            "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
            "--disable-component-update", "--disable-sync", "--no-first-run"])
        pg = browser.new_page(viewport={"width": 1400, "height": 900})
        requests: list[str] = []
        errors: list[str] = []
        pg.on("request", lambda r: requests.append(r.url))
        pg.on("pageerror", lambda e: errors.append(str(e)))
        pg.goto(path.as_uri())
        pg.wait_for_function("window.shensha !== undefined")
        yield pg, requests, errors
        browser.close()


def test_every_state_lists_what_show_gives(page) -> None:  # type: ignore[no-untyped-def]
    pg, _, errors = page
    got = pg.evaluate("""() => { const out = [];
        for (let y = 0; y < 12; y++) for (let m = 1; m <= 12; m++) for (let x = 0; x < 6; x++)
          out.push(window.shensha.listingFor({ year: y, month: m, xun: x }).map((row) => row.slice().sort()));
        return out; }""")
    states = [(y, m, x) for y in range(12) for m in range(1, 13) for x in range(6)]
    assert len(got) == len(states) == 864
    for (y, m, x), rows in zip(states, got, strict=True):
        assert rows == expected(y, m, x), (BRANCHES[y], m, XUN_HEADS[x])
    assert errors == []


def test_year_stems_and_days_list_what_show_gives(page) -> None:  # type: ignore[no-untyped-def]
    """A full 甲子 year adds the year stem's spirits; a day adds the day's, keeps only the spirits of
    its own pillar and decides 阳日/阴日; without them the page leaves out what show leaves out."""
    pg, _, errors = page
    states = [State(year_branch=p % 12, year_stem=p % 10, month=m, xun=x) for p in range(60) for m, x in ((1, 0), (6, 3), (11, 4))]
    states += [State(year_branch=6, year_stem=ys, month=m, xun=d // 10, day=d)
               for ys in (2, None) for m in (1, 4, 8, 12) for d in range(60)]
    got = pg.evaluate("""(states) => states.map((s) => [window.shensha.listingFor(s).map((row) => row.slice().sort()),
                                                        window.shensha.omittedFor(s).slice().sort(), window.shensha.label(s)])""",
                      [js_state(s) for s in states])
    seen_stem = seen_day = 0
    for state, (rows, omitted, label) in zip(states, got, strict=True):
        plate = compute_plate(state)
        assert rows == [sorted(p.id for p in plate.positions[b]) for b in range(12)], state.label()
        assert omitted == sorted(plate.omitted), state.label()
        assert label == state.label()
        seen_stem += any(p.table == "year_stem" for row in plate.positions for p in row)
        seen_day += any(p.table in ("day_stem", "day_branch") for row in plate.positions for p in row)
    assert seen_stem >= 180 and seen_day == 480  # the stem's and the day's spirits were there to compare
    assert errors == []


def test_the_day_dial_by_keys_buttons_select_and_address(page) -> None:  # type: ignore[no-untyped-def]
    pg, _, errors = page
    pg.goto(pg.url.split("#")[0] + "#year=丙午&month=11&xun=甲辰")
    pg.wait_for_timeout(100)
    assert page_state(pg) == State.parse("丙午", 11, "甲辰")
    pg.keyboard.press("y")  # a full year turns through the sixty
    assert page_state(pg) == State.parse("丁未", 11, "甲辰")
    pg.keyboard.press("Shift+Y")
    pg.keyboard.press("d")  # from no day: the xun's first day, as the window's D
    assert page_state(pg) == State.parse("丙午", 11, None, "甲辰")
    pg.keyboard.press("Shift+D")
    pg.keyboard.press("Shift+D")  # back over the xun's head: the day takes its own xun
    assert page_state(pg) == State.parse("丙午", 11, None, "壬寅")
    pg.keyboard.press("x")  # the xun dial moves the day ten days on, keeping its place in the xun
    assert page_state(pg) == State.parse("丙午", 11, None, "壬子")
    assert "day=壬子" in pg.evaluate("decodeURIComponent(location.hash)")
    assert [sorted(r) for r in pg.evaluate("window.shensha.listing()")] == rows_of(State.parse("丙午", 11, None, "壬子"))
    pg.click("button[data-dial=day][data-step='1']")
    assert page_state(pg).day == 49
    pg.select_option("#v-day", "")  # no day: the day's spirits leave, listed as omitted
    st = page_state(pg)
    assert st.day is None and st.xun == 4
    assert sorted(pg.locator("#details .omitted").get_attribute("data-ids").split()) == sorted(compute_plate(st).omitted)
    pg.goto(pg.url.split("#")[0] + "#year=庚子&month=3&day=庚戌日")  # a link with a day: the day sets the xun
    pg.wait_for_timeout(100)
    assert page_state(pg) == State.parse("庚子", 3, None, "庚戌")
    assert [sorted(r) for r in pg.evaluate("window.shensha.listing()")] == rows_of(State.parse("庚子", 3, None, "庚戌"))
    assert pg.locator("#notice").is_hidden()
    pg.goto(pg.url.split("#")[0] + "#year=丙子&month=3&day=庚亥")  # a bad value: named, the rest taken
    pg.wait_for_timeout(100)
    assert "day=庚亥" in pg.locator("#notice").inner_text()
    assert page_state(pg) == State.parse("丙子", 3, "甲辰")  # the xun of the day before, no day
    assert errors == []


def test_keys_the_address_and_a_real_drag_turn_the_discs(page) -> None:  # type: ignore[no-untyped-def]
    pg, _, errors = page
    pg.goto(pg.url.split("#")[0] + "#year=子&month=1&xun=甲子")
    pg.wait_for_timeout(100)
    pg.keyboard.press("m")
    pg.keyboard.press("y")
    pg.keyboard.press("Shift+X")
    st = pg.evaluate("window.shensha.state()")
    assert (st["year"], st["month"], st["xun"]) == (1, 2, 5)
    assert "year=%E4%B8%91" in pg.url or "year=丑" in pg.url  # the state is in the address
    assert [sorted(r) for r in pg.evaluate("window.shensha.listing()")] == expected(1, 2, 5)
    pg.goto(pg.url.split("#")[0] + "#year=午&month=11&xun=甲辰")  # a link opens at its state
    pg.wait_for_timeout(100)
    st = pg.evaluate("window.shensha.state()")
    assert (st["year"], st["month"], st["xun"]) == (6, 11, 4)
    # drag the 月建 disc one branch clockwise with a real pointer: the month dial moves on
    c = pg.evaluate("window.shensha.ringCentre('L2')")
    points = []
    for deg in range(0, 34, 3):  # from 午 (top) a little past 30°, clockwise on screen
        a = math.radians(-90 + deg)
        points.append(pg.evaluate(f"window.shensha.toClient({c['cx'] + c['r'] * math.cos(a)}, "
                                  f"{c['cy'] + c['r'] * math.sin(a)})"))
    pg.mouse.move(points[0]["x"], points[0]["y"])
    pg.mouse.down()
    for pt in points[1:]:
        pg.mouse.move(pt["x"], pt["y"])
    pg.mouse.up()
    st = pg.evaluate("window.shensha.state()")
    assert st["month"] != 11  # the disc turned the month dial
    assert [sorted(r) for r in pg.evaluate("window.shensha.listing()")] == expected(st["year"], st["month"], st["xun"])
    # a tap on a branch lists its spirits with meaning and source
    pt = pg.evaluate("window.shensha.branchPoint('lower', 3)")  # 卯 on the ring of branches
    pg.mouse.click(pt["x"], pt["y"])
    assert pg.locator("#details h2").inner_text() == "卯"
    listed = pg.locator("#details .sp").evaluate_all("els => els.map((e) => e.dataset.id)")
    assert sorted(listed) == expected(st["year"], st["month"], st["xun"])[3]
    assert pg.locator("#details .src").count() == len(listed) > 0  # each with its source
    assert errors == []


def test_the_page_asks_for_nothing_on_the_network(page) -> None:  # type: ignore[no-untyped-def]
    _, requests, _ = page
    assert requests and all(u.startswith(("file:", "data:")) for u in requests), Counter(u[:30] for u in requests)


def test_the_window_exports_the_page(tmp_path: Path, qtbot: object) -> None:
    """文件 → 网页 writes the same page, at the window's state."""
    from shensha_plates.gui.shell.main_window import MainWindow
    from shensha_plates.gui.shell.settings import Settings
    w = MainWindow(settings=Settings(tmp_path / "s.ini"))
    qtbot.addWidget(w)  # type: ignore[attr-defined]
    assert w.actions_by_name["export_page"] in w.menu_file.actions()
    w.model.set_state(State.parse("午", 11, "甲辰"))
    path = tmp_path / "p.html"
    assert w.export_page_to(str(path))
    text = path.read_text("utf-8")
    assert '"start":{"year":6,"ystem":null,"month":11,"xun":4,"day":null}' in text
    assert not w.export_page_to(str(tmp_path / "no" / "p.html"))  # a folder that is not there: one message
    assert w.last_error is not None and "p.html" in w.last_error
