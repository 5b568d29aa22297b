"""The window, driven as a user would: drags along an arc, the wheel, keys, selectors, dates."""

from __future__ import annotations

from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from shensha_plates.core.cycle import BRANCHES
from shensha_plates.core.engine import State, compute_plate
from shensha_plates.gui.shell.main_window import MainWindow
from shensha_plates.gui.shell.settings import Settings
from shensha_plates.gui.style import branch_angle
from tests.gui.conftest import drag_ring, ring_point, wheel_on


def assert_rings_match_core(window: MainWindow) -> None:
    window.view.finish_animations()
    plate = compute_plate(window.model.state, window.model.options)
    for rp in plate.rings:
        ring = window.view.rings[rp.ring.id]
        assert ring.anchor == rp.anchor, (rp.ring.id, ring.anchor, rp.anchor)
        assert abs(ring.rotation() - 30 * round(ring.rotation() / 30)) < 1e-6


def test_opens_on_zhuangs_example(window: MainWindow) -> None:
    assert window.model.state == State.parse("甲子", 1, "甲子")
    assert window.statusBar().currentMessage().startswith("甲子年 正月 甲子旬")
    anchors = {rid: BRANCHES[r.anchor] for rid, r in window.view.rings.items()}
    assert anchors == {"U1": "子", "U2": "寅", "U3": "子", "U4": "丑", "L1": "戌", "L2": "寅",
                       "L3": "亥", "L4": "申", "L5": "巳", "L6": "午", "L7": "亥"}


def test_drag_month_disc_two_slots(window: MainWindow, qtbot: QtBot) -> None:
    ring = window.view.rings["L2"]
    start = branch_angle(2, "south")  # 寅, where 月建 sits in 正月
    with qtbot.waitSignal(ring.sigRotationFinished, timeout=3000) as blocker:
        drag_ring(window, ring, start, start + 60, steps=30)
    assert blocker.args == [4]  # 月建 on 辰
    QApplication.processEvents()
    assert window.model.state.month == 3
    assert_rings_match_core(window)
    names = [e.text for e in window.view.rings["L2"].entries(0)]
    assert "月建" in names
    assert window.model.can_undo()
    window.model.undo()
    assert window.model.state.month == 1


def test_drag_backwards_across_the_seam(window: MainWindow, qtbot: QtBot) -> None:
    ring = window.view.rings["U1"]
    start = branch_angle(0, "south")  # 子 at the bottom
    with qtbot.waitSignal(ring.sigRotationFinished, timeout=3000):
        drag_ring(window, ring, start, start - 90, steps=30)
    assert window.model.state.year_branch == 9  # 子 − 3 = 酉
    assert window.model.state.year_name == "辛酉"
    assert_rings_match_core(window)


def test_a_flick_carries_the_disc_on_and_reduce_motion_stops_it(window: MainWindow, qtbot: QtBot) -> None:
    ring = window.view.rings["U1"]
    start = branch_angle(0, "south")
    with qtbot.waitSignal(ring.sigRotationFinished, timeout=3000):
        drag_ring(window, ring, start, start - 60, steps=10, seconds_per_step=0.005)  # 1200°/s
    flung = (0 - window.model.state.year_branch) % 12
    assert flung > 2  # the pointer moved two slots; the disc went on turning
    assert_rings_match_core(window)
    window.model.undo()
    window.view.finish_animations()
    window.view.set_reduce_motion(True)
    with qtbot.waitSignal(ring.sigRotationFinished, timeout=3000):
        drag_ring(window, ring, start, start - 60, steps=10, seconds_per_step=0.005)
    assert window.model.state.year_branch == 10  # exactly where the hand left it
    assert_rings_match_core(window)


def test_drag_xun_disc_snaps_to_a_xun(window: MainWindow, qtbot: QtBot) -> None:
    ring = window.view.rings["U3"]
    start = branch_angle(0, "south")
    with qtbot.waitSignal(ring.sigRotationFinished, timeout=3000):
        drag_ring(window, ring, start, start - 65, steps=30)  # about two slots back: 甲戌旬 (戌)
    assert window.model.state.xun == 1
    assert_rings_match_core(window)


def test_right_click_cancels_a_drag(window: MainWindow, qtbot: QtBot) -> None:
    from PySide6.QtCore import QEvent
    from tests.gui.conftest import send_mouse
    ring = window.view.rings["L2"]
    vp = window.view.viewport()
    start = branch_angle(2, "south")
    p0 = ring_point(window, ring, start)
    send_mouse(vp, QEvent.Type.MouseButtonPress, p0, Qt.MouseButton.LeftButton, Qt.MouseButton.LeftButton)
    for i in range(1, 20):
        send_mouse(vp, QEvent.Type.MouseMove, ring_point(window, ring, start + i * 3), Qt.MouseButton.NoButton,
                   Qt.MouseButton.LeftButton)
        QApplication.processEvents()
    ring.cancel_drag()
    send_mouse(vp, QEvent.Type.MouseButtonRelease, ring_point(window, ring, start + 57), Qt.MouseButton.LeftButton,
               Qt.MouseButton.NoButton)
    window.view.finish_animations()
    QApplication.processEvents()
    window.view.finish_animations()
    assert ring.anchor == 2


def test_wheel_steps_and_ctrl_wheel_zooms(window: MainWindow) -> None:
    ring = window.view.rings["L2"]
    pos = ring_point(window, ring, branch_angle(5, "south"))
    wheel_on(window, pos, -120)
    QApplication.processEvents()
    assert window.model.state.month == 2
    before = window.view.viewbox.viewRange()
    wheel_on(window, pos, 120, Qt.KeyboardModifier.ControlModifier)
    QApplication.processEvents()
    assert window.model.state.month == 2
    assert window.view.viewbox.viewRange() != before


def test_keyboard_dials_and_undo(window: MainWindow, qtbot: QtBot) -> None:
    window.activateWindow()
    window.view.setFocus()
    for key, mod, expect in ((Qt.Key.Key_M, Qt.KeyboardModifier.NoModifier, ("month", 2)),
                             (Qt.Key.Key_Y, Qt.KeyboardModifier.NoModifier, ("year_branch", 1)),
                             (Qt.Key.Key_X, Qt.KeyboardModifier.NoModifier, ("xun", 1)),
                             (Qt.Key.Key_M, Qt.KeyboardModifier.ShiftModifier, ("month", 1))):
        window.actions_by_name[{Qt.Key.Key_M: "month", Qt.Key.Key_Y: "year", Qt.Key.Key_X: "xun"}[key]
                               + ("_back" if mod else "_fwd")].trigger()
        assert getattr(window.model.state, expect[0]) == expect[1]
    assert window.actions_by_name["month_fwd"].shortcut().toString() == "M"
    qtbot.keyClick(window.view, Qt.Key.Key_M)
    assert window.model.state.month == 2
    window.actions_by_name["undo"].trigger()
    assert window.model.state.month == 1
    window.actions_by_name["redo"].trigger()
    assert window.model.state.month == 2
    assert_rings_match_core(window)


@pytest.mark.parametrize("month", range(1, 13))
def test_every_month_turns_every_ring_like_the_core(window: MainWindow, month: int) -> None:
    window.model.set_state(State.parse("丙午", month, "甲辰"))
    assert_rings_match_core(window)


@pytest.mark.parametrize("year", ["甲子", "乙丑", "丙寅", "丁卯", "戊辰", "己巳", "庚午", "辛未", "壬申", "癸酉", "甲戌", "乙亥"])
def test_every_year_turns_every_ring_like_the_core(window: MainWindow, year: str) -> None:
    window.model.set_state(State.parse(year, 5, "甲申"))
    assert_rings_match_core(window)


def test_selectors_and_date(window: MainWindow) -> None:
    p = window.panel
    p.month.setCurrentIndex(p.month.findData("11"))
    p.month.activated.emit(p.month.currentIndex())
    assert window.model.state.month == 11
    p.set_date("2026-12-02T18:00", "Asia/Shanghai")
    p.apply_date.click()
    st = window.model.state
    assert st.label() == "丙午年 十月 甲辰旬 庚戌日 酉时"
    assert window.model.calendar is not None
    assert "2026-12-02 18:00" in window.statusBar().currentMessage()
    p.now_button.click()
    assert window.model.calendar is not None and window.model.state.day is not None


def test_typed_garbage_keeps_the_last_good_state(window: MainWindow) -> None:
    before = window.model.state
    p = window.panel
    p.year.setEditText("hello")
    p.year.lineEdit().returnPressed.emit()
    assert window.model.state == before
    assert window.last_error and "invalid year" in window.last_error
    p.zone.setEditText("Mars/Base")
    p.apply_date.click()
    assert window.model.state == before and "unknown time zone" in (window.last_error or "")


def test_click_branch_lists_everything_under_it(window: MainWindow) -> None:
    window.model.set_state(State.parse("丙午", 11, None, "庚戌"))
    window.select_branch(BRANCHES.index("午"))
    html = window.panel.details.toHtml()
    for text in ("太岁", "岁刑", "将星", "出处", "方图", "干煞", "支煞"):
        assert text in html, text
    # through the canvas: a click on the base ring
    base = window.view.bases["upper"]
    from tests.gui.conftest import send_mouse
    from PySide6.QtCore import QEvent, QPointF
    import math
    r = (base.r_in + base.r_out) / 2
    a = math.radians(branch_angle(BRANCHES.index("酉"), "south"))
    pt = window.view.mapFromScene(base.parentItem().mapToScene(QPointF(r * math.cos(a), r * math.sin(a))))
    vp = window.view.viewport()
    send_mouse(vp, QEvent.Type.MouseButtonPress, pt, Qt.MouseButton.LeftButton, Qt.MouseButton.LeftButton)
    send_mouse(vp, QEvent.Type.MouseButtonRelease, pt, Qt.MouseButton.LeftButton, Qt.MouseButton.NoButton)
    QApplication.processEvents()
    assert window.selected_branch == BRANCHES.index("酉")
    assert "六合" in window.panel.details.toHtml()


def test_search_by_name_traditional_and_pinyin(window: MainWindow) -> None:
    for text in ("天马", "天馬", "tianma", "tm"):
        window.search(text)
        assert "天马：午" in window.statusBar().currentMessage(), text
    assert any("tian_ma" in r._highlight for r in window.view.rings.values())
    window.search("不存在的神")
    assert window.statusBar().currentMessage().startswith("未找到")


def test_language_switch(window: MainWindow) -> None:
    p = window.panel
    p.lang_combo.setCurrentIndex(p.lang_combo.findData("zh-Hant"))
    p.lang_combo.activated.emit(p.lang_combo.currentIndex())
    assert window.model.lang == "zh-Hant"
    assert [e.text for e in window.view.rings["U1"].entries(0)] == ["太歲"]
    assert window.statusBar().currentMessage().startswith("甲子年 正月")
    assert p.tabs.tabText(0) == "轉盤"


def test_paper_mode_reports_inconsistency(window: MainWindow) -> None:
    window.panel.paper.setChecked(True)
    assert window.model.paper
    window.model.turn_paper_ring("L4", BRANCHES.index("亥"))  # 月驿 on 亥: 四月, while 月建 says 正月
    c = window.model.consistency()
    assert not c.consistent and c.off_rings
    assert "不一致" in window.panel.paper_status.text()
    assert not window.panel.snap.isHidden()
    window.panel.snap.click()
    assert window.model.consistency().consistent
    window.panel.paper.setChecked(False)


def test_layout_orientation_and_text_modes_render(window: MainWindow) -> None:
    p = window.panel
    for combo, value in ((p.layout_combo, "stacked"), (p.orientation, "north"), (p.text_mode, "upright")):
        combo.setCurrentIndex(combo.findData(value))
        combo.activated.emit(combo.currentIndex())
    assert window.view.config.layout == "stacked" and list(window.view.groups) == ["stacked"]
    p.mountains.setChecked(True)
    assert window.view.config.mountains
    img = window.view.grab().toImage()
    assert img.width() > 100
    assert_rings_match_core(window)


def test_tables_dialog_marks_the_current_column(window: MainWindow) -> None:
    window.model.set_state(State.parse("丙午", 11, "甲辰"))
    window.show_tables()
    table = window.tables.tables["month"]  # type: ignore[union-attr]
    assert table.horizontalHeaderItem(10).text().startswith("▶")
    names = [table.verticalHeaderItem(r).text() for r in range(table.rowCount())]
    assert "天德" in names and "往亡" in names
    row = names.index("天德")
    assert table.item(row, 10).text() == "巽"


def test_settings_survive_a_restart(tmp_path: Path, qtbot: QtBot) -> None:
    path = tmp_path / "s.ini"
    w = MainWindow(settings=Settings(path))
    qtbot.addWidget(w)
    w.model.set_state(State.parse("丙午", 11, "甲辰"))
    p = w.panel
    p.lang_combo.setCurrentIndex(p.lang_combo.findData("zh-Hant"))
    p.lang_combo.activated.emit(p.lang_combo.currentIndex())
    w.close()
    w2 = MainWindow(settings=Settings(path))
    qtbot.addWidget(w2)
    assert w2.model.state == State.parse("丙午", 11, "甲辰")
    assert w2.model.lang == "zh-Hant"


def test_damaged_settings_are_moved_aside(tmp_path: Path, qtbot: QtBot) -> None:
    path = tmp_path / "s.ini"
    path.write_bytes(b"\xff\xfe\x00garbage[[[\n")
    s = Settings(path)
    assert s.notice and Path(s.notice).exists()
    w = MainWindow(settings=s)
    qtbot.addWidget(w)
    assert w.model.state == State.parse("甲子", 1, "甲子")
