"""查找吉日吉时 in the window: the conditions typed or put together, the range searched a slice at a time
(stoppable), the results listed, and a click turning the dials to the moment."""

from __future__ import annotations

from pytestqt.qtbot import QtBot
from PySide6.QtCore import QDate

from shensha_plates.core.cycle import parse_pillar
from shensha_plates.gui.shell.main_window import MainWindow


def test_find_lists_the_moments_and_a_click_sets_the_dials(window: MainWindow, qtbot: QtBot) -> None:
    dialog = window.show_find_moment()
    dialog.spirit.setCurrentText("天马")
    dialog.place.setCurrentIndex(dialog.place.findData("午"))
    dialog._add_condition()
    dialog.conditions.appendPlainText("day=午")
    assert dialog.condition_lines() == ["天马@午", "day=午"]
    dialog.start.setDate(QDate(2027, 1, 1))
    dialog.end.setDate(QDate(2027, 12, 31))
    dialog.start_search()
    assert dialog.running() and not dialog.run_button.isEnabled()
    qtbot.waitUntil(lambda: not dialog.running(), timeout=20000)
    assert dialog.progress.value() == 1000 and dialog.results.count() == len(dialog.hits) > 0
    assert all(h.state.day is not None and h.state.day % 12 == 6 for h in dialog.hits)
    dialog._picked(dialog.results.item(0))
    assert window.model.state.day == dialog.hits[0].state.day == parse_pillar("戊午")
    assert window.model.state.month == dialog.hits[0].state.month


def test_a_bad_condition_is_said_and_nothing_runs(window: MainWindow) -> None:
    dialog = window.show_find_moment()
    dialog.conditions.setPlainText("天马@东")
    dialog.start_search()
    assert not dialog.running() and "invalid place" in dialog.status.text()


def test_a_long_search_can_be_stopped(window: MainWindow, qtbot: QtBot) -> None:
    dialog = window.show_find_moment()
    dialog.conditions.setPlainText("ke=伏吟")
    dialog.by_hour.setChecked(True)
    dialog.start.setDate(QDate(1950, 1, 1))
    dialog.end.setDate(QDate(2049, 12, 31))
    dialog.start_search()
    qtbot.waitUntil(lambda: dialog.results.count() > 0, timeout=20000)
    dialog.stop()
    assert not dialog.running() and dialog.run_button.isEnabled() and dialog.progress.value() < 1000
    dialog.close()
