"""The classroom, driven as a teacher would: presentation keys, play, trace, highlight, compare,
quiz and lessons."""

from __future__ import annotations

from pathlib import Path

from pytestqt.qtbot import QtBot
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from shensha_plates.core.cycle import BRANCHES
from shensha_plates.core.engine import State
from shensha_plates.gui.shell.main_window import MainWindow


def press(window: MainWindow, qtbot: QtBot, key: Qt.Key) -> None:
    qtbot.keyClick(window.view, key)
    QApplication.processEvents()


def test_presentation_mode_is_driven_by_the_keyboard(window: MainWindow, qtbot: QtBot) -> None:
    window.actions_by_name["present"].trigger()
    p = window.presenter
    assert p.active and window.isFullScreen()
    assert not window.panel_container.isVisible() and not window.menuBar().isVisible()
    assert window.view.config.high_contrast
    assert p.caption.isVisible() and "甲子年 正月" in p.caption.text()
    window.view.setFocus()
    press(window, qtbot, Qt.Key.Key_PageDown)
    assert window.model.state.month == 2 and "二月" in p.caption.text()
    press(window, qtbot, Qt.Key.Key_Space)
    press(window, qtbot, Qt.Key.Key_Left)
    assert window.model.state.month == 2
    press(window, qtbot, Qt.Key.Key_1)  # the year dial
    press(window, qtbot, Qt.Key.Key_Right)
    assert window.model.state.year_name == "乙丑"
    press(window, qtbot, Qt.Key.Key_B)  # black-out (not the other-systems window while presenting)
    assert p.blackout.isVisible() and window.systems is None
    press(window, qtbot, Qt.Key.Key_Period)
    assert not p.blackout.isVisible()
    press(window, qtbot, Qt.Key.Key_Escape)
    assert not p.active and window.panel_container.isVisible() and window.menuBar().isVisible()
    assert not window.view.config.high_contrast


def test_play_a_year_then_pause_and_resume(window: MainWindow, qtbot: QtBot) -> None:
    c = window.classroom
    c.interval.setValue(0.2)
    c.duration.setValue(150)
    assert all(r.duration_ms == 150 for r in window.view.rings.values())
    c.play("month", 12)
    qtbot.waitUntil(lambda: window.model.state.month == 3, timeout=3000)
    c.toggle_play()
    paused_at = window.model.state.month
    qtbot.wait(500)
    assert window.model.state.month == paused_at and c.pause.text() == "继续"
    c.toggle_play()
    qtbot.waitUntil(lambda: not c.timer.isActive(), timeout=5000)
    assert window.model.state.month == 1 and c.play_left == 0  # twelve steps: round to 正月 again


def test_trace_draws_twelve_numbered_marks_with_the_rule(window: MainWindow) -> None:
    c = window.classroom
    assert c.trace("tianma")
    item = window.view.trace_item
    assert item is not None and [n for n, _, _ in item.marks] == list(range(1, 13))
    assert [BRANCHES[b] for _, b, _ in item.marks][:4] == ["午", "申", "戌", "子"]
    assert "顺行，每步进二辰" in c.trace_words.text() and "正月午" in c.trace_words.text()
    c.trace_dial.setCurrentIndex(c.trace_dial.findData("year"))
    assert c.trace("驿马") and "驿马" in c.trace_words.text()
    assert not c.trace("no such spirit") and "未找到" in (window.last_error or "")
    c.clear_trace()
    assert window.view.trace_item is None


def test_highlight_a_ring_or_a_group(window: MainWindow) -> None:
    c = window.classroom
    c.apply_highlight("ring:L6")
    assert not window.view.rings["L6"].dimmed and window.view.rings["L2"].dimmed
    c.apply_highlight("group:year")
    assert not window.view.rings["U1"].dimmed and window.view.rings["L1"].dimmed
    c.apply_highlight(None)
    assert not any(r.dimmed for r in window.view.rings.values())


def test_compare_next_month_and_a_variant(window: MainWindow) -> None:
    c = window.classroom
    dlg = c.compare("next:month")
    # the month discs turned (said once, not marked name by name); what is marked moved otherwise
    assert "yue_jian" not in dlg.differences and "tai_sui" not in dlg.differences
    assert {"L2", "L6"} <= set(dlg.turned) and "U1" not in dlg.turned
    assert "月建盘" in dlg.listing.toPlainText() and 0 < len(dlg.differences) < 100
    print("compare next month:", len(dlg.differences), "marked,", len(dlg.turned), "discs turned")
    dlg.close()
    window.model.set_state(State.parse("甲子", 2, "甲子"))
    dlg = c.compare("variant:tian_xi=shun_twelve")
    assert dlg.differences == ["tian_xi"] or "tian_xi" in dlg.differences
    dlg.close()


def test_quiz_asks_takes_a_click_or_a_name_and_scores(window: MainWindow) -> None:
    quiz = window.start_quiz(seed=11)
    for _ in range(6):
        q = quiz.question
        assert q is not None
        if q.kind == "where":
            assert window.view.rings[q.ring].names_hidden  # type: ignore[index]
            right = min(q.answer_branches)
            window._branch_clicked(right)
        else:
            quiz.answer(q.answer_id or "")
        assert quiz.feedback.text().startswith("对")
        quiz.ask()
    q = quiz.question
    wrong = next(b for b in range(12) if b not in q.answer_branches) if q.kind == "where" else \
        next(o for o in q.options if o != q.answer_id)
    assert not quiz.answer(wrong)
    assert quiz.score == 6 and quiz.asked == 7 and "6 / 7" in quiz.score_label.text()
    before = quiz.saved_state
    quiz.close()
    assert window.model.state == before and not any(r.names_hidden for r in window.view.rings.values())


def test_lessons_save_open_step_and_survive_damage(window: MainWindow, tmp_path: Path) -> None:
    c = window.classroom
    c.lesson_name.setText("天马一年")
    for month in (1, 2, 3):
        window.model.set_state(State.parse("丙午", month, "甲辰"))
        c.note.setText(f"第{month}步")
        c.add_current()
    path = tmp_path / "lesson.json"
    assert c.save_to(path)
    c._lesson = []
    assert c.open_from(path) and len(c.lesson_steps()) == 3 and c.lesson_name.text() == "天马一年"
    assert window.model.state.month == 1
    window.actions_by_name["present"].trigger()
    window.presenter.next()
    assert window.model.state.month == 2 and "第2步" in window.presenter.caption.text()
    window.presenter.exit()
    bad = tmp_path / "bad.json"
    bad.write_bytes(b'{"format": "shensha-plates-lesson", "version": 1, "name": "x", "steps": [{"year": 5}]}')
    assert not c.open_from(bad)
    assert "step 1" in (window.last_error or "") and bad.exists() and len(c.lesson_steps()) == 3
    assert not c.save_to(tmp_path / "missing" / "l.json") and "does not exist" in (window.last_error or "")


def test_the_classroom_works_from_the_model_the_view_and_named_actions(qtbot: QtBot, tmp_path: Path) -> None:
    """No window: the panel needs only the model, the plate view and the window's actions by name."""
    from PySide6.QtGui import QAction

    from shensha_plates.gui.model import PlateModel
    from shensha_plates.gui.panels.classroom import WINDOW_ACTIONS, ClassroomPanel, QuizDialog
    from shensha_plates.gui.plate.view import PlateView

    model = PlateModel()
    view = PlateView(model)
    triggered: list[str] = []
    actions = {}
    for name in WINDOW_ACTIONS:
        act = QAction(name)
        act.triggered.connect(lambda _=False, n=name: triggered.append(n))
        actions[name] = act
    panel = ClassroomPanel(model, view, actions)
    qtbot.addWidget(panel)
    qtbot.addWidget(view)
    messages: list[tuple[str, bool]] = []
    model.subscribe(lambda e: e == "message" and model.message is not None
                    and messages.append((model.message.text, model.message.error)))
    panel.present_button.click()
    panel.quiz_button.click()
    assert triggered == ["present", "quiz"]
    assert panel.trace("tianma") and view.trace_item is not None
    assert not panel.trace("no such spirit") and messages[-1][1] and "未找到" in messages[-1][0]
    panel.add_current()
    path = tmp_path / "l.json"
    assert panel.save_to(path) and not messages[-1][1] and str(path) in messages[-1][0]  # a notice, not an error
    quiz = QuizDialog(model, view, None, seed=3)
    qtbot.addWidget(quiz)
    q = quiz.question
    assert q is not None and model.state == q.state
    quiz.answer(min(q.answer_branches) if q.kind == "where" else q.answer_id or "")
    assert "1 / 1" in quiz.score_label.text()
