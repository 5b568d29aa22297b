"""Nothing of a lesson is lost: a damaged file changes nothing and says which step and field, a
failed save is shown in a message box (never only on the terminal), and unsaved changes are
offered for saving before another lesson, a new lesson or the end of the session replaces them."""

from __future__ import annotations

import json
from pathlib import Path
from collections.abc import Iterator

import pytest
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QMessageBox

import shensha_plates.gui.panels.classroom as classroom_module
from shensha_plates.core.engine import State
from shensha_plates.core.teaching import LessonPlan, LessonStep, load_lesson, save_lesson
from shensha_plates.gui.shell.main_window import MainWindow

Button = QMessageBox.StandardButton
OTHER = LessonPlan("另一课", (LessonStep(State.parse("丁未", 3, "甲子"), (), "另一课第一步"),))


class Prompts:
    """Answers the unsaved-lesson question as the user would, and counts how often it was asked."""

    def __init__(self) -> None:
        self.answer, self.asked, self.active = Button.Cancel, 0, True
        self.texts: list[str] = []
        self.timer = QTimer()
        self.timer.setInterval(5)
        self.timer.timeout.connect(self._poll)
        self.timer.start()

    def _poll(self) -> None:
        box = QApplication.activeModalWidget()
        if isinstance(box, QMessageBox) and box.objectName() == "unsaved_lesson":
            self.asked += 1
            self.texts.append(box.text())
            box.button(self.answer).click()


@pytest.fixture
def prompts() -> Iterator[Prompts]:
    p = Prompts()
    yield p
    p.timer.stop()


def five_steps(window: MainWindow) -> None:
    c = window.classroom
    c.lesson_name.setText("五步")
    for month in range(1, 6):
        window.model.set_state(State.parse("丙午", month, "甲辰"))
        c.note.setText(f"第{month}步")
        c.add_current()


def pick_file(monkeypatch: pytest.MonkeyPatch, path: Path | None) -> list[str]:
    """The file dialogs answer with ``path`` (or are cancelled); returns which ones were shown."""
    shown: list[str] = []

    def get_open(*_: object, **__: object) -> tuple[str, str]:
        shown.append("open")
        return (str(path) if path else "", "")

    def get_save(*_: object, **__: object) -> tuple[str, str]:
        shown.append("save")
        return (str(path) if path else "", "")
    monkeypatch.setattr(classroom_module.QFileDialog, "getOpenFileName", get_open)
    monkeypatch.setattr(classroom_module.QFileDialog, "getSaveFileName", get_save)
    return shown


# -- item 2: ask before throwing changes away ------------------------------------------------------

def test_cancel_keeps_an_unsaved_lesson_when_another_is_opened(prompts: Prompts, window: MainWindow, tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    other = save_lesson(tmp_path / "other.json", OTHER)
    five_steps(window)
    c = window.classroom
    assert c.is_modified()
    shown = pick_file(monkeypatch, other)
    prompts.answer = Button.Cancel
    assert not c._open_dialog()
    assert prompts.asked == 1 and "五步" in prompts.texts[0]
    assert shown == [] and len(c.lesson_steps()) == 5 and c.lesson_name.text() == "五步" and c.is_modified()
    assert not c.new_lesson() and prompts.asked == 2 and len(c.lesson_steps()) == 5


def test_discard_opens_the_other_lesson(prompts: Prompts, window: MainWindow, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    other = save_lesson(tmp_path / "other.json", OTHER)
    five_steps(window)
    c = window.classroom
    pick_file(monkeypatch, other)
    prompts.answer = Button.Discard
    assert c._open_dialog()
    assert prompts.asked == 1 and c.lesson_name.text() == "另一课" and len(c.lesson_steps()) == 1
    assert not c.is_modified()
    assert c._open_dialog() and prompts.asked == 1  # nothing changed since: no question


def test_save_writes_the_lesson_before_the_other_opens(prompts: Prompts, window: MainWindow, tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    mine, other = tmp_path / "mine.json", save_lesson(tmp_path / "other.json", OTHER)
    five_steps(window)
    c = window.classroom
    assert c.save_to(mine) and not c.is_modified()
    window.model.set_state(State.parse("丙午", 6, "甲辰"))
    c.add_current()  # the sixth step, not yet saved
    pick_file(monkeypatch, other)
    prompts.answer = Button.Save
    assert c._open_dialog()
    assert prompts.asked == 1 and len(load_lesson(mine).steps) == 6  # saved to its own file, then replaced
    assert c.lesson_name.text() == "另一课"


def test_new_lesson_asks_and_discard_empties(prompts: Prompts, window: MainWindow, monkeypatch: pytest.MonkeyPatch) -> None:
    five_steps(window)
    c = window.classroom
    prompts.answer = Button.Discard
    window.classroom.new_button.click()
    assert prompts.asked == 1 and c.lesson_steps() == [] and c.lesson_name.text() == "" and not c.is_modified()


def test_closing_the_window_asks_and_cancel_keeps_everything(prompts: Prompts, window: MainWindow, tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    five_steps(window)
    c = window.classroom
    c.note.setText("第五步，改过")  # an edit still in the field counts too
    prompts.answer = Button.Cancel
    assert not window.close()
    assert prompts.asked == 1 and window.isVisible() and len(c.lesson_steps()) == 5 and c.is_modified()
    # Save, but the chosen folder does not exist: the failure is shown, and the window stays
    shown = pick_file(monkeypatch, tmp_path / "no such folder" / "l.json")
    prompts.answer = Button.Save
    assert not window.close()
    assert shown == ["save"] and window.isVisible() and len(c.lesson_steps()) == 5
    box = window._error_box
    assert box is not None and box.isVisible() and "does not exist" in box.text()
    # Save to a good file: written, then the window closes
    good = tmp_path / "kept.json"
    pick_file(monkeypatch, good)
    assert window.close()
    assert [s.note for s in load_lesson(good).steps] == ["第1步", "第2步", "第3步", "第4步", "第五步，改过"]


def test_an_unchanged_lesson_closes_without_a_question(prompts: Prompts, window: MainWindow, tmp_path: Path) -> None:
    five_steps(window)
    assert window.classroom.save_to(tmp_path / "l.json")
    prompts.answer = Button.Cancel
    assert window.close() and prompts.asked == 0


# -- item 1: a lone surrogate, and every save failure as a message ---------------------------------

def test_a_lone_surrogate_is_refused_on_opening(prompts: Prompts, window: MainWindow, tmp_path: Path) -> None:
    five_steps(window)
    c = window.classroom
    bad = tmp_path / "browser.json"
    data = json.loads(json.dumps({"format": "shensha-plates-lesson", "version": 1, "name": "x", "steps": [
        {"year": "丙午", "month": 1, "xun": "甲辰", "note": "ok"}]}))
    bad.write_text(json.dumps(data).replace('"ok"', '"see \\ud83d here"'), "utf-8")
    assert not c.open_from(bad)
    assert "step 1, field note: holds a lone surrogate" in (window.last_error or "")
    assert len(c.lesson_steps()) == 5 and c.lesson_name.text() == "五步"


def test_every_save_failure_is_a_message_box_and_the_lesson_is_kept(prompts: Prompts, window: MainWindow, tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    five_steps(window)
    c = window.classroom
    c._lesson[1] = LessonStep(c._lesson[1].state, (), "see \ud83d here")  # text UTF-8 cannot hold
    target = tmp_path / "l.json"
    assert not c.save_to(target)
    box = window._error_box
    assert box is not None and box.isVisible() and "step 2, field note: holds a lone surrogate" in box.text()
    assert not target.exists() and len(c.lesson_steps()) == 5 and c.is_modified()

    def broken(*_: object) -> None:
        raise RuntimeError("the disk controller caught fire")
    monkeypatch.setattr(classroom_module, "save_lesson", broken)
    box.close()
    QApplication.processEvents()
    c._lesson[1] = LessonStep(c._lesson[1].state, (), "fixed")
    assert not c.save_to(target)
    box = window._error_box
    assert box is not None and box.isVisible() and "the disk controller caught fire" in box.text()
    assert len(c.lesson_steps()) == 5 and c.is_modified()


# -- item 7: damaged files leave the open lesson as it was ------------------------------------------

STEP = '{"year": "丙午", "month": 1, "xun": "甲辰"'


@pytest.mark.parametrize("content,needle", [
    (('{"format": "shensha-plates-lesson", "version": 1, "name": "x", "steps": [' + STEP + ', "day": 5}]}').encode(),
     "step 1, field day: "),
    (('{"format": "shensha-plates-lesson", "version": 1, "name": "x", "steps": [' + STEP + ', "day": true}]}').encode(),
     "step 1, field day: "),
    (b"[" * 100_000, "(file), field (syntax): "),
    (('{"format": "shensha-plates-lesson", "version": 1, "name": "x", "steps": [{"year": "丙午", "month": '
      + "9" * 5000 + ', "xun": "甲辰"}]}').encode(), "step 1, field month: "),
])
def test_damaged_lesson_files_change_nothing(prompts: Prompts, window: MainWindow, tmp_path: Path, content: bytes, needle: str) -> None:
    five_steps(window)
    c = window.classroom
    path = tmp_path / "damaged.json"
    path.write_bytes(content)
    before = (list(c.lesson_steps()), c.lesson_name.text(), c.lesson_path, c.is_modified())
    assert not c.open_from(path)
    assert (list(c.lesson_steps()), c.lesson_name.text(), c.lesson_path, c.is_modified()) == before
    assert f"lesson {path}: {needle}" in (window.last_error or "")
    assert path.read_bytes() == content


def test_a_lesson_with_a_byte_order_mark_opens(prompts: Prompts, window: MainWindow, tmp_path: Path) -> None:
    path = save_lesson(tmp_path / "bom.json", OTHER)
    path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes())
    assert window.classroom.open_from(path) and window.classroom.lesson_name.text() == "另一课"
