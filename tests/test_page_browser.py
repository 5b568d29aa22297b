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
from shensha_plates.core.cycle import BRANCHES, STEMS, XUN_HEADS, month_default_general
from shensha_plates.core.engine import State, compute_plate
from shensha_plates.core.liuren import compute_ke, heaven_plate, liuren_tables
from shensha_plates.core.liuren.plate import describe

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


def tables_general(index: int) -> str:
    return liuren_tables().generals[index].name


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


def test_the_heaven_plate_and_generals_are_the_cores(page) -> None:  # type: ignore[no-untyped-def]
    """For every day stem, hour and month general the generals the page puts on the heaven branches
    (and day/night, direction, 贵人) are core's; the month general of each month dial is core's."""
    pg, _, errors = page
    combos = [(stem, hour, general) for stem in range(10) for hour in range(12) for general in range(12)]
    got = pg.evaluate("""(combos) => combos.map(([d, h, g]) =>
        window.shensha.heavenFor({ day: d, xun: 0, hour: h, general: g, gsrc: "hand" }))""", combos)
    for (stem, hour, general), hp in zip(combos, got, strict=True):
        want = heaven_plate(stem, hour, general)  # day 甲子 … 癸酉
        assert hp["anchor"] == (hour - general) % 12
        assert hp["plate"] == {"general": general, "hour": hour, "turn": want.turn, "generalOf": list(want.general_of),
                               "daytime": want.daytime, "forward": want.forward, "noble": want.noble}, (stem, hour, general)
    # another day of the same stem rides the same generals (core's heaven plate, checked for all sixty)
    for day in range(60):
        assert heaven_plate(day, 6, 2).general_of == heaven_plate(day % 10, 6, 2).general_of
    months = pg.evaluate("[...Array(12).keys()].map((m) => window.shensha.heavenFor({ month: m + 1, hour: 6 }))")
    for m, hp in enumerate(months, start=1):
        assert hp["general"] == month_default_general(m) and hp["anchor"] == (6 - month_default_general(m)) % 12
        assert hp["plate"] is None  # no day: no generals (贵人 is chosen by the day stem), as in the window
    assert errors == []


def test_the_lesson_is_the_cores(page) -> None:  # type: ignore[no-untyped-def]
    """Every day at every hour (all 720 lessons by day and turn) with the month's general, and every day
    under every general at 午 时: the lessons, transmissions, name and record are compute_ke's."""
    pg, _, errors = page
    states = [(d, h, None, 11) for d in range(60) for h in range(12)]
    states += [(d, 6, g, 3) for d in range(60) for g in range(12)]
    got = pg.evaluate("""(states) => states.map(([d, h, g, m]) => window.shensha.lessonFor(
        { day: d, xun: Math.floor(d / 10), hour: h, general: g, gsrc: g === null ? null : "hand", month: m }))""", states)
    tables = liuren_tables()
    for (day, hour, general, month), ke in zip(states, got, strict=True):
        want = compute_ke(day, hour, month_default_general(month) if general is None else general)
        hp = want.plate
        assert ke["header"] == describe(hp) + f"　{BRANCHES[hour]}时"
        assert ke["lessons"] == [{"upper": BRANCHES[lesson.upper], "lower": lesson.lower_name, "general": g}
                                 for lesson, g in zip(want.lessons, want.lesson_generals, strict=True)]
        assert ke["transmissions"] == [{"branch": BRANCHES[t.branch], "general": t.general, "kin": t.kin,
                                        "stem": None if t.stem is None else STEMS[t.stem], "void": t.void}
                                       for t in want.transmissions]
        assert ke["method"] == f"{tables.methods[want.method].name}（{want.ke}）"
        assert ke["steps"] == [step.text() for step in want.steps], (day, hour, general)
    assert pg.evaluate("window.shensha.lessonFor({ day: 17, xun: 1 })") is None  # no hour: no lesson
    assert errors == []


def test_the_hour_dial_turns_the_heaven_plate(page) -> None:  # type: ignore[no-untyped-def]
    pg, _, errors = page
    base = pg.url.split("#")[0]
    pg.goto(base + "#year=丙午&month=11&day=辛巳")
    pg.wait_for_timeout(100)
    assert pg.locator("[data-ring=TH]").count() == 0 and pg.locator("#lesson").count() == 0  # no hour, no 式
    pg.keyboard.press("h")  # from no hour: 子, as the window's H
    assert pg.evaluate("window.shensha.state()")["hour"] == 0
    pg.keyboard.press("Shift+H")
    pg.keyboard.press("Shift+H")
    st = pg.evaluate("window.shensha.state()")
    assert st["hour"] == 10 and st["general"] is None
    assert "hour=戌" in pg.evaluate("decodeURIComponent(location.hash)")
    shown = pg.evaluate("window.shensha.heavenShown()")
    hp = heaven_plate(17, 10, month_default_general(11))
    assert [r["rot"] for r in shown] == [(10 - hp.general) % 12] * 2  # heaven 子 over the earth branch 月将加时 gives
    assert shown[0]["labels"] == list(BRANCHES)
    assert shown[1]["labels"] == [tables_general(hp.general_of[k]) for k in range(12)]
    assert pg.locator("#lesson .hdr").inner_text() == describe(hp) + "　戌时"
    pg.keyboard.press("g")  # the month general by hand: kept in the address
    st = pg.evaluate("window.shensha.state()")
    assert st["general"] == (month_default_general(11) + 1) % 12
    assert f"general={BRANCHES[st['general']]}" in pg.evaluate("decodeURIComponent(location.hash)")
    pg.keyboard.press("m")  # a general set by hand stays through a month's turn, as in the window
    assert pg.evaluate("window.shensha.state()")["general"] == st["general"]
    pg.goto(base + "#year=丙午&month=11&day=辛巳&hour=午&general=寅")  # a link opens at its hour and general
    pg.wait_for_timeout(100)
    ke = compute_ke(17, 6, 2)
    assert pg.locator("#lesson .hdr").inner_text() == describe(ke.plate) + "　午时"
    assert pg.locator("#lesson .chuan tr").count() == 3
    assert [t.inner_text() for t in pg.locator("#lesson .chuan b").all()] == ["午", "寅", "戌"]
    # drag the heaven ring one branch clockwise with a real pointer: the hour moves on, the general stays
    c = pg.evaluate("window.shensha.ringCentre('TH')")
    start = -90 + 30 * (((6 - 2) % 12) + 6 - 12)  # heaven 午 sits over earth 戌 (寅将加午): drag from there
    points = []
    for deg in range(0, 34, 3):
        a = math.radians(start + deg)
        points.append(pg.evaluate(f"window.shensha.toClient({c['cx'] + c['r'] * math.cos(a)}, {c['cy'] + c['r'] * math.sin(a)})"))
    pg.mouse.move(points[0]["x"], points[0]["y"])
    pg.mouse.down()
    for pt in points[1:]:
        pg.mouse.move(pt["x"], pt["y"])
    pg.mouse.up()
    st = pg.evaluate("window.shensha.state()")
    assert (st["hour"], st["general"]) == (7, 2)  # heaven 子 one branch on: 未时
    assert pg.locator("#lesson .hdr").inner_text() == describe(compute_ke(17, 7, 2).plate) + "　未时"
    pg.select_option("#v-hour", "")  # no hour: the heaven rings and the lesson go
    assert pg.locator("[data-ring=TH]").count() == 0 and pg.locator("#lesson").count() == 0
    assert pg.locator("#d-general").is_hidden()
    pg.goto(base + "#year=丙午&month=11&day=辛巳&hour=午时&general=卯将")
    pg.wait_for_timeout(100)
    assert pg.evaluate("window.shensha.state()")["general"] == 3
    pg.goto(base + "#year=丙午&month=11&day=辛巳&hour=九&general=寅")
    pg.wait_for_timeout(100)
    assert "hour=九" in pg.locator("#notice").inner_text()
    assert errors == []


def test_a_dates_general_gives_way_to_the_months(page, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """A page from a date keeps the date's month general through the hour and the day, and takes the
    new month's when the month turns (the window's rule); one written with --general keeps it."""
    pg, _, errors = page
    back = pg.url
    path = tmp_path / "date.html"
    err = io.StringIO()
    assert main(["snapshot", "--date", "2026-12-10T12:00", "--tz", "Asia/Shanghai", "-o", str(path)], out=io.StringIO(), err=err) == 0, err.getvalue()
    text = path.read_text("utf-8")
    assert '"gsrc":"date"' in text and path.stat().st_size < 2_000_000
    pg.goto(path.as_uri())
    pg.wait_for_function("window.shensha !== undefined")
    st = pg.evaluate("window.shensha.state()")
    assert st["hour"] == 6 and st["general"] == 2 and st["month"] == 11  # 大雪 to 冬至: still 寅将 (the month says 丑)
    pg.keyboard.press("h")
    pg.keyboard.press("d")
    assert pg.evaluate("window.shensha.state()")["general"] == 2
    pg.keyboard.press("m")
    st = pg.evaluate("window.shensha.state()")
    assert st["general"] is None and pg.evaluate("window.shensha.heavenFor(window.shensha.state()).general") == 0
    assert main(["snapshot", "--year", "子", "--month", "1", "--xun", "甲子", "--general", "寅", "-o", str(path)],
                out=io.StringIO(), err=(err := io.StringIO())) == 2
    assert "--general needs an hour" in err.getvalue() and path.read_text("utf-8") == text  # nothing written
    pg.goto(back)
    pg.wait_for_function("window.shensha !== undefined")
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
    assert '"start":{"year":6,"ystem":null,"month":11,"xun":4,"day":null,"hour":null,"general":null,"gsrc":null}' in text
    w.model.set_state(State.parse("丙午", 11, None, "辛巳", "午"))
    w.model.set_general(2)  # set by hand: the page opens with it
    assert w.export_page_to(str(path))
    assert '"start":{"year":6,"ystem":2,"month":11,"xun":1,"day":17,"hour":6,"general":2,"gsrc":"hand"}' in path.read_text("utf-8")
    assert not w.export_page_to(str(tmp_path / "no" / "p.html"))  # a folder that is not there: one message
    assert w.last_error is not None and "p.html" in w.last_error
