"""The other systems in the window: Bazi chart, the eight relations (also by Shift+click on the
plate), each labelled with its source and following the language."""

from __future__ import annotations

from PySide6.QtCore import QEvent, Qt
from PySide6.QtWidgets import QApplication

from shensha_plates.gui.shell.main_window import MainWindow
from shensha_plates.gui.style import branch_angle
from tests.gui.conftest import ring_point, send_mouse


def test_systems_dialog_casts_a_chart_and_relates(window: MainWindow) -> None:
    window.actions_by_name["systems"].trigger()
    d = window.systems
    assert d is not None and d.isVisible()
    assert d.show_chart("1990-05-17T08:30")
    assert d.chart.pillar_names() == {"year": "庚午", "month": "辛巳", "day": "壬午", "hour": "甲辰"}
    text = d.chart_view.toPlainText()
    assert "天乙贵人（夜）" in text and "出处：《神煞》" in text and "000_" not in text and ".txt" not in text
    d.show_relation("寅", "亥")
    assert [r.name for r in d.relations] == ["六合", "破"]
    assert "破合" in d.rel_view.toPlainText()
    d.swap.click()
    assert d.first.currentText() == "亥" and d.second.currentText() == "寅"
    window.model.set_lang("zh-Hant")
    assert "八煞關係" == d.tabs.tabText(1) and "時柱" in d.chart_view.toPlainText()


def test_bad_zone_keeps_the_last_chart(window: MainWindow) -> None:
    d = window.show_systems()
    before = d.chart
    d.zone.setEditText("Mars/Base")
    assert not d.show_chart("2000-01-01T12:00")
    assert d.chart is before and "unknown time zone" in (window.last_error or "")


def test_chart_from_the_plates_date(window: MainWindow) -> None:
    window.panel.set_date("2026-12-02T18:00", "Asia/Shanghai")
    window.panel.apply_date.click()
    d = window.show_systems()
    d.from_plate.click()
    assert d.chart.pillar_names()["day"] == "庚戌"


def test_shift_click_on_the_plate_shows_relations(window: MainWindow, monkeypatch: object) -> None:
    window.select_branch(2)  # 寅
    ring = window.view.rings["L2"]
    pos = ring_point(window, ring, branch_angle(11, "south"))  # 亥
    monkeypatch.setattr(QApplication, "keyboardModifiers",  # type: ignore[attr-defined]
                        staticmethod(lambda: Qt.KeyboardModifier.ShiftModifier))
    vp = window.view.viewport()
    send_mouse(vp, QEvent.Type.MouseButtonPress, pos, Qt.MouseButton.LeftButton, Qt.MouseButton.LeftButton)
    send_mouse(vp, QEvent.Type.MouseButtonRelease, pos, Qt.MouseButton.LeftButton, Qt.MouseButton.NoButton)
    QApplication.processEvents()
    assert window.systems is not None and window.systems.isVisible()
    assert (window.systems.first.currentText(), window.systems.second.currentText()) == ("寅", "亥")
    assert window.selected_branch == 2  # the selection stays


def test_selection_disc_follows_the_dials_and_turns_with_the_year(window: MainWindow) -> None:
    from shensha_plates.core.engine import State
    d = window.show_systems()
    d.show_selection()
    page = d.selection
    window.model.set_state(State.parse("丙午", 11, "甲辰"))
    assert page.plate.year_name == "丙午年" and page.plate.month == 11
    text = page.listing.toPlainText()
    assert "岁破 子 例无制法" in text and "还宫之月" in text and "辨伪" in text
    page.disc.finish()
    window.actions_by_name["year_fwd"].trigger()  # 丁未: the year ring turns one step
    assert page.plate.year_name == "丁未年"
    assert page.disc.turn != 0.0 or page.disc.reduce_motion
    page.disc.finish()
    assert page.disc.turn == 0.0
    img = page.disc.grab().toImage()
    assert img.width() >= 520 and len({img.pixel(x, img.height() // 2) for x in range(0, img.width(), 7)}) > 3
    window.model.set_lang("zh-Hant")
    assert "歲破 丑 例無制法" in page.listing.toPlainText()
    window.model.set_state(State.parse("午", 3, "甲子"))  # no year stem: the stem spirits are left out
    assert "需年干" in page.listing.toPlainText()
