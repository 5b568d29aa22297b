"""The Liu Ren plate on screen: the heaven ring and the generals turn with the hour (drag, wheel, keys,
selector), the month general follows the date, and what is shown agrees with the core."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from core.cycle import BRANCHES
from core.engine import State
from core.liuren import compute_ke
from gui.liuren import general_name
from gui.shell.main_window import MainWindow
from gui.style import branch_angle
from tests.gui.conftest import drag_ring, ring_point, wheel_on

SEED_DATE = "1998-11-30T12:00"  # seed 002's first worked case: 辛巳日 午时, 寅将


def set_seed_date(window: MainWindow) -> None:
    window.set_date(SEED_DATE, "Asia/Shanghai", "lichun", "jie", "next-day")
    QApplication.processEvents()
    window.view.finish_animations()


def assert_heaven_matches_core(window: MainWindow) -> None:
    """The heaven ring and the generals ring as drawn against the core's plate for the model's state."""
    window.view.finish_animations()
    st = window.model.state
    assert st.day is not None and st.hour is not None
    ke = compute_ke(st.day, st.hour, window.model.general, window.model.ke_options)
    th, tg = window.view.heaven["TH"], window.view.heaven["TG"]
    assert window.view.config.heaven
    # heaven 子 (slot 0) stands over the earth branch the core puts it on; the generals turn with it
    assert th.anchor == ke.plate.under(0) == tg.anchor
    assert abs(th.rotation() - 30 * round(th.rotation() / 30)) < 1e-6
    for earth in range(12):
        heaven = ke.plate.over(earth)
        assert th.label(heaven).text == BRANCHES[heaven]
        assert tg.label(heaven).text == general_name(ke.plate.generals[earth], window.model.lang)
    assert window.model.ke == ke


def test_the_seed_case_from_its_date(window: MainWindow) -> None:
    set_seed_date(window)
    model = window.model
    assert BRANCHES[model.general] == "寅" and model.general_source == "date"
    assert_heaven_matches_core(window)
    # 寅将加午: heaven 寅 over earth 午, 贵人 on 午 (辛 by day), the generals backward
    th, tg = window.view.heaven["TH"], window.view.heaven["TG"]
    assert (BRANCHES.index("寅") + th.anchor) % 12 == BRANCHES.index("午")
    assert tg.label(BRANCHES.index("午")).text == "贵人"
    assert "寅将" in window.statusBar().currentMessage()


def test_no_hour_no_heaven_rings(window: MainWindow) -> None:
    assert window.model.state.hour is None
    assert not window.view.config.heaven
    assert window.view.heaven["TH"].scene() is None
    window.model.set_state(State.parse("戊寅", 10, None, "辛巳", "午"))
    QApplication.processEvents()
    assert window.view.config.heaven and window.view.heaven["TH"].scene() is not None
    # the lower plate grew by the two rings; the scene rectangle holds them
    rect = window.view.scene_rect()
    group = window.view.groups["lower"]
    r = window.view.heaven["TG"].r_out
    assert rect.contains(group.pos().x() + r, group.pos().y())  # type: ignore[attr-defined]


def test_drag_the_heaven_ring_turns_the_hour(window: MainWindow, qtbot: object) -> None:
    set_seed_date(window)
    th = window.view.heaven["TH"]
    start_anchor = th.anchor
    a = branch_angle(6, "south")  # at 午, the top
    with qtbot.waitSignal(th.sigRotationFinished, timeout=3000) as blocker:  # type: ignore[attr-defined]
        drag_ring(window, th, a, a + 60, steps=30)
    assert blocker.args == [(start_anchor + 2) % 12]
    QApplication.processEvents()
    model = window.model
    assert BRANCHES[model.state.hour] == "申"  # two hours on
    assert BRANCHES[model.general] == "寅"      # turning the hour keeps the date's month general
    assert model.calendar is None
    assert_heaven_matches_core(window)
    assert model.can_undo()
    model.undo()
    window.view.finish_animations()
    assert BRANCHES[model.state.hour] == "午"
    assert_heaven_matches_core(window)


def test_drag_the_generals_ring_turns_both(window: MainWindow, qtbot: object) -> None:
    set_seed_date(window)
    tg, th = window.view.heaven["TG"], window.view.heaven["TH"]
    a = branch_angle(3, "south")
    with qtbot.waitSignal(tg.sigRotationFinished, timeout=3000):  # type: ignore[attr-defined]
        drag_ring(window, tg, a, a - 30, steps=20)
    QApplication.processEvents()
    assert BRANCHES[window.model.state.hour] == "巳"
    assert th.anchor == tg.anchor
    assert_heaven_matches_core(window)


def test_wheel_and_keys_turn_the_hour(window: MainWindow, qtbot: object) -> None:
    set_seed_date(window)
    th = window.view.heaven["TH"]
    wheel_on(window, ring_point(window, th, branch_angle(6, "south")), -120)  # one step forward
    QApplication.processEvents()
    assert BRANCHES[window.model.state.hour] == "未"
    assert_heaven_matches_core(window)
    window.activateWindow()
    qtbot.keyClick(window, Qt.Key.Key_H)  # type: ignore[attr-defined]
    assert BRANCHES[window.model.state.hour] == "申"
    qtbot.keyClick(window, Qt.Key.Key_H, Qt.KeyboardModifier.ShiftModifier)  # type: ignore[attr-defined]
    qtbot.keyClick(window, Qt.Key.Key_H, Qt.KeyboardModifier.ShiftModifier)  # type: ignore[attr-defined]
    assert BRANCHES[window.model.state.hour] == "午"
    assert_heaven_matches_core(window)
    # every one of the twelve hours, by the key, agrees with the core
    for _ in range(12):
        qtbot.keyClick(window, Qt.Key.Key_H)  # type: ignore[attr-defined]
        assert_heaven_matches_core(window)
    assert BRANCHES[window.model.state.hour] == "午"


def test_hour_selector_and_hand_set_general(window: MainWindow) -> None:
    set_seed_date(window)
    combo = window.panel.hour
    combo.setCurrentIndex(combo.findData("子"))
    combo.activated.emit(combo.currentIndex())
    QApplication.processEvents()
    assert BRANCHES[window.model.state.hour] == "子"
    assert BRANCHES[window.model.general] == "寅"
    assert_heaven_matches_core(window)
    g = window.panel.general
    g.setCurrentIndex(g.findData(BRANCHES.index("丑")))
    g.activated.emit(g.currentIndex())
    assert BRANCHES[window.model.general] == "丑" and window.model.general_source == "hand"
    assert_heaven_matches_core(window)
    window.model.undo()
    assert BRANCHES[window.model.general] == "寅"


def test_month_general_without_a_date_follows_the_month(window: MainWindow) -> None:
    window.model.set_state(State.parse("甲子", 1, None, "甲子", "子"))  # 正月: after 雨水 the general is 亥
    assert BRANCHES[window.model.general] == "亥" and window.model.general_source == "month"
    window.model.step("month", 1)
    assert BRANCHES[window.model.general] == "戌"
    assert_heaven_matches_core(window)


def test_paper_mode_heaven_ring_turned_alone(window: MainWindow) -> None:
    set_seed_date(window)
    window.panel.paper.setChecked(True)
    QApplication.processEvents()
    th = window.view.heaven["TH"]
    anchor = th.anchor
    window.view._wheel("TH", 1)  # the wheel in paper mode turns the disc, not the dial
    window.view.finish_animations()
    assert window.model.state.hour == 6  # the hour dial did not move
    assert th.anchor == (anchor + 1) % 12 == window.view.heaven["TG"].anchor
    assert not window.model.heaven_agrees()
    status = window.statusBar().currentMessage()
    assert "天盘已离开寅将午时" in status and "寅将加未时" in status
    window.model.snap_to_consistent()
    window.view.finish_animations()
    assert BRANCHES[window.model.state.hour] == "未"
    assert window.model.heaven_agrees()


@pytest.mark.parametrize("lang", ["zh-Hans", "zh-Hant"])
def test_general_names_option(window: MainWindow, lang: str) -> None:
    set_seed_date(window)
    window.model.set_lang(lang)
    window.panel.general_names.setChecked(True)
    QApplication.processEvents()
    th = window.view.heaven["TH"]
    assert th.label(BRANCHES.index("亥")).sub == "登明"
    assert th.label(BRANCHES.index("酉")).sub == ("從魁" if lang == "zh-Hant" else "从魁")
    assert_heaven_matches_core(window)
