"""The classroom: stepping and playing, tracing a spirit, highlighting and comparing, quizzes and
lessons. Everything a spirit's place depends on comes from :mod:`core` (the plate,
:mod:`shensha_plates.core.teaching`); this module only shows it and takes the class's input.

The panel works through the model (:class:`~shensha_plates.gui.model.PlateModel`: the state, and
:meth:`~shensha_plates.gui.model.PlateModel.report` for messages), the plate view it annotates, and the window's
actions named in :data:`WINDOW_ACTIONS` — never through the window itself. Presentation mode, which
rearranges the window, is the shell's (:mod:`shensha_plates.gui.shell.presenter`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import Final

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QAction, QGuiApplication
from PySide6.QtWidgets import (
    QComboBox, QDoubleSpinBox, QFileDialog, QFormLayout, QGridLayout, QGroupBox, QHBoxLayout, QLabel,
    QLineEdit, QListWidget, QMessageBox, QPushButton, QSlider, QVBoxLayout, QWidget,
)

from shensha_plates.core.engine import Options, compute_plate, step_state
from shensha_plates.core.errors import ShenshaError
from shensha_plates.core.lang import name_in
from shensha_plates.core.teaching import (
    LessonPlan, LessonStep, Trace, load_lesson, save_lesson, trace,
)
from shensha_plates.gui.describe import search_spirits, spirit_name, state_label, to_lang
from shensha_plates.gui.i18n import gloss, tr
from shensha_plates.gui.lifetime import delete_on_close
from shensha_plates.gui.model import PlateModel, Snapshot
from shensha_plates.gui.plate.view import PlateView

__all__ = ["ClassroomPanel", "QuizDialog", "CompareDialog", "WINDOW_ACTIONS"]

from shensha_plates.gui.panels.compare import CompareDialog  # noqa: E402 - the panel opens it; old imports keep working
from shensha_plates.gui.panels.quiz import QuizDialog  # noqa: E402

# The window's actions (declared with its menu) that the classroom's buttons trigger, by name.
WINDOW_ACTIONS: Final = ("present", "quiz")


# -- the classroom tab ----------------------------------------------------------------------------

class ClassroomPanel(QWidget):
    """Stepping speed and play, trace, highlight, compare, quiz, lessons."""

    sigTraced = Signal()  # a trace was drawn or cleared (presentation shows its rule)

    def __init__(self, model: PlateModel, view: PlateView, actions: Mapping[str, QAction]) -> None:
        super().__init__()
        self.model = model
        self.view = view
        self.window_actions = actions
        self.compare_dialog: CompareDialog | None = None
        self.current_trace: Trace | None = None
        self.setObjectName("classroom_panel")
        outer = QVBoxLayout(self)
        outer.setContentsMargins(4, 4, 4, 4)

        # present and play
        self.play_box = QGroupBox()
        pf = QFormLayout(self.play_box)
        self.present_button = QPushButton()
        self.present_button.setObjectName("present")
        self.screen_combo = QComboBox()
        for i, sc in enumerate(QGuiApplication.screens()):
            self.screen_combo.addItem(f"{i + 1}: {sc.name()}", i)
        row = QVBoxLayout()
        row.addWidget(self.present_button)
        row.addWidget(self.screen_combo)
        self.duration = QSlider(Qt.Orientation.Horizontal)
        self.duration.setRange(100, 2000)
        self.duration.setValue(260)
        self.duration.setObjectName("duration")
        self.interval = QDoubleSpinBox()
        self.interval.setRange(0.2, 10.0)
        self.interval.setSingleStep(0.1)
        self.interval.setValue(1.5)
        self.interval.setObjectName("interval")
        prow = QGridLayout()
        self.play_year = QPushButton()
        self.play_days = QPushButton()
        self.pause = QPushButton()
        self.pause.setEnabled(False)
        prow.addWidget(self.play_year, 0, 0)
        prow.addWidget(self.play_days, 0, 1)
        self.play_hours = QPushButton()  # the twelve hours of the day: the heaven plate goes round
        self.play_hours.setObjectName("play_hours")
        prow.addWidget(self.play_hours, 1, 0)
        prow.addWidget(self.pause, 1, 1)
        self.present_label, self.duration_label, self.interval_label, self.play_label = (QLabel(), QLabel(),
                                                                                         QLabel(), QLabel())
        pf.addRow(self.present_label, row)
        pf.addRow(self.duration_label, self.duration)
        pf.addRow(self.interval_label, self.interval)
        pf.addRow(self.play_label, prow)
        outer.addWidget(self.play_box)
        self.timer = QTimer(self)
        self.timer.timeout.connect(self._tick)
        self.play_dial = "month"
        self.play_left = 0

        # trace, highlight, compare, quiz
        self.aid_box = QGroupBox()
        af = QFormLayout(self.aid_box)
        self.trace_text = QLineEdit()
        self.trace_text.setObjectName("trace_text")
        self.trace_dial = QComboBox()
        self.trace_button, self.trace_clear = QPushButton(), QPushButton()
        trow = QHBoxLayout()
        trow.addWidget(self.trace_text, 1)
        trow.addWidget(self.trace_dial)
        self.trace_dial.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        trow2 = QHBoxLayout()
        trow2.addWidget(self.trace_button)
        trow2.addWidget(self.trace_clear)
        self.trace_words = QLabel()
        self.trace_words.setWordWrap(True)
        self.trace_words.setObjectName("trace_words")
        self.highlight = QComboBox()
        self.highlight.setObjectName("highlight")
        self.compare_combo = QComboBox()
        self.compare_button = QPushButton()
        crow = QVBoxLayout()
        crow.addWidget(self.compare_combo)
        crow.addWidget(self.compare_button)
        self.quiz_button = QPushButton()
        self.trace_label, self.highlight_label, self.compare_label, self.quiz_label = (QLabel(), QLabel(), QLabel(),
                                                                                     QLabel())
        af.addRow(self.trace_label, trow)
        af.addRow("", trow2)
        af.addRow(self.trace_words)  # the rule on a row of its own, the panel's whole width, never cut
        af.addRow(self.highlight_label, self.highlight)
        af.addRow(self.compare_label, crow)
        af.addRow(self.quiz_label, self.quiz_button)
        outer.addWidget(self.aid_box)

        # lessons
        self.lesson_box = QGroupBox()
        lv = QVBoxLayout(self.lesson_box)
        self.lesson_name = QLineEdit()
        self.lesson_name.setObjectName("lesson_name")
        self.steps = QListWidget()
        self.steps.setObjectName("lesson_steps")
        self.note = QLineEdit()
        self.note.setObjectName("lesson_note")
        lrow = QGridLayout()
        self.add_step, self.remove_step, self.open_button, self.save_button = (QPushButton(), QPushButton(),
                                                                               QPushButton(), QPushButton())
        for i, b in enumerate((self.add_step, self.remove_step, self.open_button, self.save_button)):
            lrow.addWidget(b, i // 2, i % 2)
        self.new_button = QPushButton()
        self.new_button.setObjectName("new_lesson")
        lrow.addWidget(self.new_button, 2, 0, 1, 2)
        lv.addWidget(self.lesson_name)
        lv.addWidget(self.steps, 1)
        lv.addWidget(self.note)
        lv.addLayout(lrow)
        outer.addWidget(self.lesson_box, 1)
        self._lesson: list[LessonStep] = []
        self.lesson_path: Path | None = None
        self._modified = False  # changed since it was opened, saved or started

        self.present_button.clicked.connect(actions["present"].trigger)
        self.duration.valueChanged.connect(view.set_duration)
        self.play_year.clicked.connect(lambda: self.play("month", 12))
        self.play_days.clicked.connect(lambda: self.play("day", 60))
        self.play_hours.clicked.connect(lambda: self.play("hour", 12))
        self.pause.clicked.connect(self.toggle_play)
        self.trace_button.clicked.connect(lambda: self.trace(self.trace_text.text()))
        self.trace_text.returnPressed.connect(lambda: self.trace(self.trace_text.text()))
        self.trace_clear.clicked.connect(self.clear_trace)
        self.highlight.activated.connect(lambda _i: self.apply_highlight(self.highlight.currentData()))
        self.compare_button.clicked.connect(lambda: self.compare(self.compare_combo.currentData()))
        self.quiz_button.clicked.connect(actions["quiz"].trigger)
        self.add_step.clicked.connect(self.add_current)
        self.remove_step.clicked.connect(self.remove_current)
        self.open_button.clicked.connect(self._open_dialog)
        self.save_button.clicked.connect(self._save_dialog)
        self.new_button.clicked.connect(self.new_lesson)
        self.lesson_name.textEdited.connect(self._changed)
        self.steps.currentRowChanged.connect(self._step_chosen)
        self.note.editingFinished.connect(self._note_changed)
        self.retranslate()  # later, the window retranslates this panel with the rest (and the glosses)

    # -- language --------------------------------------------------------------------------------
    def retranslate(self, english: bool = False) -> None:
        """Texts in the model's language; with ``english``, English glosses beside the titles."""
        lang = self.model.lang
        T = lambda k: tr(k, lang)  # noqa: E731
        # with a gloss for learners: beside a title when it is short, else in the title's tooltip (a long
        # one made the panel wider than a 1280×800 screen leaves it)
        G = lambda k: tr(k, lang) + (f"  ({gloss(k)})" if english and len(gloss(k)) <= 18 else "")  # noqa: E731
        for box, key in ((self.play_box, "cls_present_play"), (self.aid_box, "cls_aids"),
                         (self.lesson_box, "cls_lesson")):
            box.setTitle(G(key))
            box.setToolTip(gloss(key) if english else "")
        for widget, key in ((self.present_button, "cls_present"), (self.trace_button, "cls_trace_go"),
                            (self.compare_button, "cls_compare_go"), (self.quiz_button, "cls_quiz_go")):
            widget.setToolTip(gloss(key))
        self.present_button.setText(T("cls_present"))
        self.present_label.setText(T("cls_screen"))
        self.duration_label.setText(T("cls_duration"))
        self.interval_label.setText(T("cls_interval"))
        self.play_label.setText(T("cls_play"))
        self.play_year.setText(T("cls_play_year"))
        self.play_days.setText(T("cls_play_days"))
        self.play_hours.setText(T("play_hours"))
        self.pause.setText(T("cls_resume") if not self.timer.isActive() and self.play_left else T("cls_pause"))
        self.trace_label.setText(T("cls_trace"))
        self.trace_text.setPlaceholderText(T("cls_trace_hint"))
        self.trace_button.setText(T("cls_trace_go"))
        self.trace_clear.setText(T("cls_clear"))
        self.highlight_label.setText(T("cls_highlight"))
        self.compare_label.setText(T("cls_compare"))
        self.compare_button.setText(T("cls_compare_go"))
        self.quiz_label.setText(T("cls_quiz"))
        self.quiz_button.setText(T("cls_quiz_go"))
        self.lesson_name.setPlaceholderText(T("cls_lesson_name"))
        self.note.setPlaceholderText(T("cls_note"))
        self.add_step.setText(T("cls_add"))
        self.remove_step.setText(T("cls_remove"))
        self.open_button.setText(T("cls_open"))
        self.save_button.setText(T("cls_save"))
        self.new_button.setText(T("cls_new"))
        current = self.trace_dial.currentData()
        self.trace_dial.clear()
        for d in ("month", "year", "xun"):
            self.trace_dial.addItem(T("dial_" + d), d)
        if current:
            self.trace_dial.setCurrentIndex(max(0, self.trace_dial.findData(current)))
        cat = self.model.catalog
        hl = self.highlight.currentData()
        self.highlight.clear()
        self.highlight.addItem(T("cls_none"), None)
        for g in ("year", "xun", "month"):
            self.highlight.addItem(T("cls_group_" + g), "group:" + g)
        for r in cat.rings:
            self.highlight.addItem(name_in(r, lang), "ring:" + r.id)
        self.highlight.setCurrentIndex(max(0, self.highlight.findData(hl)))
        cmp_ = self.compare_combo.currentData()
        self.compare_combo.clear()
        for d in ("month", "year", "xun"):
            self.compare_combo.addItem(T("cls_next_" + d), "next:" + d)
        for s in cat.spirits:
            for v in s.variants:
                self.compare_combo.addItem(f"{spirit_name(s, lang)}：{v.id}", f"variant:{s.id}={v.id}")
        self.compare_combo.setCurrentIndex(max(0, self.compare_combo.findData(cmp_)))
        self._fill_steps()

    # -- play ------------------------------------------------------------------------------------
    def play(self, dial: str, steps: int) -> None:
        self.play_dial, self.play_left = dial, steps
        self.timer.start(int(self.interval.value() * 1000))
        self.pause.setEnabled(True)
        self.retranslate_pause()

    def toggle_play(self) -> None:
        if self.timer.isActive():
            self.timer.stop()
        elif self.play_left > 0:
            self.timer.start(int(self.interval.value() * 1000))
        else:
            self.play("month", 12)
        self.retranslate_pause()

    def retranslate_pause(self) -> None:
        lang = self.model.lang
        self.pause.setText(tr("cls_pause", lang) if self.timer.isActive() else tr("cls_resume", lang))
        self.pause.setEnabled(self.play_left > 0)

    def _tick(self) -> None:
        if self.play_left <= 0:
            self.timer.stop()
            self.retranslate_pause()
            return
        self.model.step(self.play_dial, 1)
        self.play_left -= 1
        self.timer.setInterval(int(self.interval.value() * 1000))
        if self.play_left <= 0:
            self.timer.stop()
            self.retranslate_pause()

    # -- trace -----------------------------------------------------------------------------------
    def trace(self, text: str) -> bool:
        lang = self.model.lang
        found = search_spirits(self.model.catalog, text.strip()) if text.strip() else []
        if not found:
            self.model.report(tr("search_none", lang, text=text))
            return False
        spirit = found[0]
        dial = self.trace_dial.currentData() or "month"
        t = trace(spirit.id, self.model.state, dial, self.model.options, self.model.catalog)
        path = [s.branches[0] if s.branches else None for s in t.steps]
        placements = self.model.plate.find(spirit.id) or compute_plate(t.steps[0].state, self.model.options,
                                                                       self.model.catalog).find(spirit.id)
        ring = placements[0].ring if placements and placements[0].ring else (
            "upper" if spirit.group in ("year", "xun") else "lower")
        self.view.show_trace(ring, path)
        seq = " → ".join(f"{s.label}{''.join(s.at) or '—'}" for s in t.steps)
        self.trace_words.setText(f"{spirit_name(spirit, lang)}：{to_lang(t.words, lang)}\n{to_lang(seq, lang)}")
        self.current_trace = t
        self.sigTraced.emit()
        return True

    def trace_summary(self) -> str:
        """The traced spirit's rule and its path in short (the branches in order; the numbered marks
        on the plate say which step is which), for presentation's column."""
        t = self.current_trace
        if t is None:
            return ""
        lang = self.model.lang
        name = spirit_name(self.model.catalog.spirit(t.spirit_id), lang)
        path = "→".join("".join(s.at) or "—" for s in t.steps)
        return f"{name}：{to_lang(t.words, lang)}\n{to_lang(path, lang)}"

    def clear_trace(self) -> None:
        self.view.clear_trace()
        self.trace_words.clear()
        self.current_trace = None
        self.sigTraced.emit()

    # -- highlight and compare -------------------------------------------------------------------
    def apply_highlight(self, data: str | None) -> None:
        cat = self.model.catalog
        if not data:
            self.view.dim_rings(set())
            return
        kind, _, value = data.partition(":")
        keep = {r.id for r in cat.rings if (kind == "ring" and r.id == value) or (kind == "group" and r.group == value)}
        self.view.dim_rings({r.id for r in cat.rings} - keep)

    def compare(self, data: str | None) -> CompareDialog:
        state, options = self.model.state, self.model.options
        other_state, other_options = state, options
        kind, _, value = (data or "next:month").partition(":")
        if kind == "next":
            other_state = step_state(state, value, 1)
        else:
            other_options = Options.from_choices([value] + [c for c in options.to_choices()
                                                             if c.split("=")[0] != value.split("=")[0]])
        dlg = delete_on_close(CompareDialog(self.model, (state, options), (other_state, other_options), self.window()),
                              self, "compare_dialog")
        dlg.show()
        return dlg

    # -- lessons ---------------------------------------------------------------------------------
    def lesson_steps(self) -> list[LessonStep]:
        return self._lesson

    def current_note(self) -> str:
        row = self.steps.currentRow()
        return self._lesson[row].note if 0 <= row < len(self._lesson) else ""

    def is_modified(self) -> bool:
        """Whether the lesson has changes that no file holds yet."""
        return self._modified

    def _changed(self, *_: object) -> None:
        self._modified = True

    def mark_saved(self) -> None:
        self._modified = False

    def add_current(self) -> None:
        m = self.model
        # the step keeps its 式: the month general unless the month gives it again, the school's settings
        general = m.general if m.state.hour is not None and m.general_source != "month" else None
        self._lesson.append(LessonStep(m.state, m.options.to_choices(), self.note.text().strip(), general,
                                       m.ke_options.to_choices()))
        self._changed()
        self._fill_steps()
        self.steps.setCurrentRow(len(self._lesson) - 1)

    def remove_current(self) -> None:
        row = self.steps.currentRow()
        if 0 <= row < len(self._lesson):
            del self._lesson[row]
            self._changed()
            self._fill_steps()

    def _fill_steps(self) -> None:
        lang = self.model.lang
        row = self.steps.currentRow()
        self.steps.blockSignals(True)
        self.steps.clear()
        for i, st in enumerate(self._lesson):
            self.steps.addItem(f"{i + 1}. {state_label(st.state, lang)}" + (f" — {st.note}" if st.note else ""))
        self.steps.blockSignals(False)
        if 0 <= row < len(self._lesson):
            self.steps.setCurrentRow(row)

    def _step_chosen(self, row: int) -> None:
        if 0 <= row < len(self._lesson):
            st = self._lesson[row]
            self.note.setText(st.note)
            from shensha_plates.core.liuren import KeOptions
            try:
                options = Options.from_choices(list(st.variants))
                ke = KeOptions.from_choices(list(st.liuren))
            except ShenshaError as e:
                self.model.report(str(e))
                return
            # one undoable change: the state, the readings, the month general and the school, as saved
            self.model.restore(Snapshot(st.state, options, None, st.general, ke if ke.choices else None))

    def _note_changed(self) -> None:
        row = self.steps.currentRow()
        if 0 <= row < len(self._lesson) and self._lesson[row].note != self.note.text().strip():
            self._lesson[row] = replace(self._lesson[row], note=self.note.text().strip())
            self._changed()
            self._fill_steps()

    def go_lesson(self, delta: int) -> None:
        if not self._lesson:
            return
        row = self.steps.currentRow()
        row = 0 if row < 0 else max(0, min(len(self._lesson) - 1, row + delta))
        self.steps.setCurrentRow(row)
        self._step_chosen(row)

    def lesson(self) -> LessonPlan:
        name = self.lesson_name.text().strip() or tr("cls_untitled", self.model.lang)
        return LessonPlan(name, tuple(self._lesson), self.model.querent)

    def save_to(self, path: str | Path) -> bool:
        """Write the lesson; any failure is shown in a message box and the lesson stays as it is
        (still marked unsaved, so closing asks again)."""
        self._note_changed()  # a note still being typed belongs to the lesson
        try:
            self.lesson_path = save_lesson(path, self.lesson())
        except ShenshaError as e:
            self.model.report(str(e))
            return False
        except Exception as e:  # noqa: BLE001 - whatever it is, the user must hear of it, not the terminal
            self.model.report(f"lesson {path}: cannot save: {type(e).__name__}: {e}")
            return False
        self.mark_saved()
        self.model.report(tr("cls_saved", self.model.lang, path=str(path)), error=False)
        return True

    def open_from(self, path: str | Path) -> bool:
        """Replace the lesson with the file's; a damaged file is reported and changes nothing."""
        try:
            lesson = load_lesson(path)
        except ShenshaError as e:
            self.model.report(str(e))  # the file stays where it is, untouched
            return False
        self._set_lesson(list(lesson.steps), lesson.name, Path(path))
        if lesson.querent is not None:  # the person the lesson's 式 were cast for comes back with it
            self.model.set_querent(lesson.querent)
        return True

    def _set_lesson(self, steps: list[LessonStep], name: str, path: Path | None) -> None:
        self._lesson = steps
        self.lesson_name.setText(name)
        self.lesson_path = path
        self.steps.setCurrentRow(-1)
        self.note.clear()
        self._fill_steps()
        if self._lesson:
            self.steps.setCurrentRow(0)
        self.mark_saved()

    def new_lesson(self) -> bool:
        """Start an empty lesson, after asking to save unsaved changes; False if the user stayed."""
        if not self.maybe_save():
            return False
        self._set_lesson([], "", None)
        return True

    def maybe_save(self) -> bool:
        """Before the lesson is replaced or the window closes: if it has unsaved changes, ask to
        save them (Save / Discard / Cancel). True to go on; False to stay with everything as it was
        (Cancel, or a save that failed or was not given a file)."""
        if not self._modified:
            return True
        lang = self.model.lang
        name = self.lesson_name.text().strip() or tr("cls_untitled", lang)
        buttons = QMessageBox.StandardButton
        box = QMessageBox(QMessageBox.Icon.Question, tr("cls_lesson", lang), tr("cls_unsaved", lang, name=name),
                          buttons.Save | buttons.Discard | buttons.Cancel, self.window())
        box.setObjectName("unsaved_lesson")
        box.setDefaultButton(buttons.Save)
        box.setEscapeButton(buttons.Cancel)
        try:
            box.exec()
            answer = box.standardButton(box.clickedButton())
        finally:
            box.deleteLater()
        if answer == buttons.Save:
            return self.save_to(self.lesson_path) if self.lesson_path is not None else self._save_dialog()
        return answer == buttons.Discard

    def _open_dialog(self) -> bool:
        if not self.maybe_save():
            return False
        path, _ = QFileDialog.getOpenFileName(self, tr("cls_open", self.model.lang), "",
                                              "Lesson (*.json);;All files (*)")
        return bool(path) and self.open_from(path)

    def _save_dialog(self) -> bool:
        path, _ = QFileDialog.getSaveFileName(self, tr("cls_save", self.model.lang),
                                              str(self.lesson_path or "lesson.json"), "Lesson (*.json)")
        return bool(path) and self.save_to(path)
