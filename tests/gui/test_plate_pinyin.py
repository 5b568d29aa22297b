"""Pinyin under the names on the discs (issue 28): a 显示 menu toggle kept in the settings (until chosen
it follows the language: on in English, off in Chinese); each name's reading is the core's pinyin,
drawn under it only where its slot has room, never over another name, another reading or the slot's
edges, and never smaller than legible on screen."""

from __future__ import annotations

from pathlib import Path

from pytestqt.qtbot import QtBot
from PySide6.QtWidgets import QApplication

from shensha_plates.core.english import pinyin
from shensha_plates.gui.plate.fit import NameBox, reading_boxes, slot_fits_in_sector
from shensha_plates.gui.plate.slot_paint import READING_MIN_PX, name_rects
from shensha_plates.gui.shell.main_window import MainWindow
from shensha_plates.gui.shell.settings import Settings


def _window(qtbot: QtBot, path: Path, lang: str) -> MainWindow:
    settings = Settings(path)
    settings.set("lang", lang)
    settings.set("first_run_hint_done", True)
    w = MainWindow(settings=settings)
    qtbot.addWidget(w)
    w.resize(1280, 800)
    w.show()
    w.set_date("1998-11-30T12:00", "Asia/Shanghai", "lichun", "jie", "next-day")
    QApplication.processEvents()
    w.view.finish_animations()
    return w


def _apart(a: NameBox, b: NameBox) -> bool:
    return a.x1 <= b.x0 + 1e-9 or b.x1 <= a.x0 + 1e-9 or a.rho1 <= b.rho0 + 1e-9 or b.rho1 <= a.rho0 + 1e-9


def test_the_setting_follows_the_language_until_chosen_and_is_kept(qtbot: QtBot, tmp_path: Path) -> None:
    w = _window(qtbot, tmp_path / "en.ini", "en")
    act = w.actions_by_name["pinyin"]
    assert act in w.menu_view.actions() and act.isCheckable()
    assert act.isChecked() and w.view.readings  # English: on until chosen
    entries = [e for ring in w.view.rings.values() for k in range(12) for e in ring.entries(k)]
    assert entries and all(e.reading == pinyin(e.text) for e in entries)
    act.trigger()  # off, and kept
    assert not act.isChecked() and not w.view.readings
    assert all(not e.reading for ring in w.view.rings.values() for k in range(12) for e in ring.entries(k))
    assert w.settings.get("plate_pinyin") == "off"
    w.settings.sync()
    again = _window(qtbot, tmp_path / "en.ini", "en")
    assert not again.actions_by_name["pinyin"].isChecked() and not again.view.readings
    zh = _window(qtbot, tmp_path / "zh.ini", "zh-Hans")
    assert not zh.actions_by_name["pinyin"].isChecked() and not zh.view.readings  # Chinese: off until chosen
    zh.actions_by_name["pinyin"].trigger()
    assert zh.view.readings and zh.settings.get("plate_pinyin") == "on"


def test_readings_appear_only_where_they_fit(qtbot: QtBot, tmp_path: Path) -> None:
    w = _window(qtbot, tmp_path / "s.ini", "en")
    counts = {}
    for scale in (0.93, 1.37, 3.1):  # the plates' logical pixels per unit at 1280x800, 1920x1080 and a Z zoom
        shown = 0
        for rid, ring in w.view.rings.items():
            if ring.parentItem() is None:
                continue
            ring.lay_out_readings_for(scale)
            for k in range(12):
                entries = ring.entries(k)
                fit = ring.slot_fit(k)
                for flipped in (False, True):
                    readings = ring.readings(k, flipped)
                    assert len(readings) == len(entries)
                    names = fit.flipped_boxes if flipped else fit.boxes
                    ink = name_rects(fit, entries, ring.metrics, flipped)
                    placed = [b for b in readings if b is not None]
                    for i, b in enumerate(readings):
                        if b is None:
                            continue
                        where = (rid, k, entries[i].text, flipped, scale)
                        assert slot_fits_in_sector([b], ring.r_in, ring.r_out), where  # not into a neighbour
                        assert all(_apart(b, n) for j, n in enumerate(names) if j != i), where
                        assert all(_apart(b, t) for t in ink), where
                        assert all(_apart(b, o) for o in placed if o is not b), where
                        assert (b.rho1 - b.rho0) * scale >= READING_MIN_PX, where  # legible on screen
                    if not flipped:
                        shown += len(placed) if not ring.slot_flipped_now(k) else 0
                    else:
                        shown += len(placed) if ring.slot_flipped_now(k) else 0
        counts[scale] = shown
    assert counts[0.93] <= counts[1.37] < counts[3.1], counts  # more room the larger the plate is drawn
    assert counts[3.1] >= 10, counts
    w.view.resize(1900, 1000)
    QApplication.processEvents()
    shown, total = w.view.readings_shown()
    assert total == sum(len(r.entries(k)) for r in w.view.rings.values() if r.parentItem() is not None
                        for k in range(12))
    assert 0 <= shown < total
    w.view.grab()  # painted with the readings (and laid out for the canvas's scale)


def test_a_reading_without_room_is_left_out() -> None:
    # one row of two names near the inner edge of a narrow slot: no room inside it for a line under them
    names = (NameBox(-20, -2, 100, 110), NameBox(2, 20, 100, 110))
    kept = reading_boxes(names, names, (10.0, 10.0), 4.0, 98.0, 130.0, turned=False)
    assert kept == (None, None)
    # turned about, the line goes outwards, where there is room; a too-wide one is dropped
    kept = reading_boxes(names, names, (10.0, 40.0), 4.0, 98.0, 130.0, turned=True)
    assert kept[0] is not None and kept[1] is None
    assert kept[0].rho0 > 110 and slot_fits_in_sector([kept[0]], 98.0, 130.0)
    # no reading asked for: none given
    assert reading_boxes(names, names, (0.0, 0.0), 4.0, 50.0, 300.0, turned=False) == (None, None)
