"""The lesson panel (课传): the four lessons and three transmissions of the state, as the books print them.

The four lessons read right to left (一课 on the right), each with the general over its upper
branch, the upper over the lower; the three transmissions top to bottom (初 中 末), each with its kin,
hidden stem (遁干), branch, general and void mark. Then the method's name and the record of its
steps in words, the spirits of Zhuang's plates under each lesson and transmission (a click shows one
on the plate), the names that need the plate (in force or not, and why), and the school's choices,
with what the other choices would give when they disagree. Everything comes from the core's
:class:`~shensha_plates.core.liuren.Ke`, laid out in words by :mod:`shensha_plates.gui.lesson_text`.
"""

from __future__ import annotations

import html

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QTimer, QUrl, Qt, Signal
from PySide6.QtWidgets import (
    QComboBox, QFormLayout, QGroupBox, QHBoxLayout, QLabel, QLineEdit, QPushButton, QSplitter, QTextBrowser, QVBoxLayout,
    QWidget,
)

from shensha_plates.core.cycle import BRANCHES
from shensha_plates.core.errors import ShenshaError
from shensha_plates.core.liuren import KeOptions, liuren_tables
from shensha_plates.core.liuren.patterns import BifaHit, PatternHit
from shensha_plates.core.liuren.spirits import NameStatus
from shensha_plates.gui.i18n import tr
from shensha_plates.gui.lifetime import delete_on_close
from shensha_plates.gui.liuren import general_name
from shensha_plates.gui.lesson_text import (Lit, WalkStep, choice_words, lesson_parts, school_differences, setting_words,
                                            spirits_html, walk_steps)
from shensha_plates.gui.panels.lesson_quiz import LessonQuizDialog

if TYPE_CHECKING:
    from shensha_plates.gui.model import PlateModel

__all__ = ["LessonPanel"]

class LessonPanel(QWidget):
    """The 课传 tab. Emits ``sigShow`` (spirit id or '', branch, heaven slots to light) for the window."""

    sigShow = Signal(str, int, object)
    sigWalk = Signal(object)  # the WalkStep shown, or None when the walk-through ends

    def __init__(self, model: PlateModel, english: Callable[[], bool] = lambda: False,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("lesson_panel")
        self.model = model
        self.english = english
        self.lit = Lit()
        outer = QVBoxLayout(self)
        outer.setContentsMargins(4, 4, 4, 4)
        # the querent (年命): year of birth, sex, age (empty: from the date)
        qrow = QHBoxLayout()
        self.querent_label = QLabel()
        self.birth_edit = QLineEdit()
        self.birth_edit.setObjectName("querent_birth")
        self.sex_combo = QComboBox()
        self.sex_combo.setObjectName("querent_sex")
        self.age_edit = QLineEdit()
        self.age_edit.setObjectName("querent_age")
        self.age_edit.setMaximumWidth(round(self.fontMetrics().horizontalAdvance("0") * 12))
        for part, stretch in ((self.querent_label, 0), (self.birth_edit, 2), (self.sex_combo, 0), (self.age_edit, 1)):
            qrow.addWidget(part, stretch)
        outer.addLayout(qrow)
        # the partner (a second querent: 繁昌 旺孕 解离 read the husband's and the wife's 行年), the same fields
        prow = QHBoxLayout()
        self.partner_label = QLabel()
        self.partner_birth_edit = QLineEdit()
        self.partner_birth_edit.setObjectName("partner_birth")
        self.partner_sex_combo = QComboBox()
        self.partner_sex_combo.setObjectName("partner_sex")
        self.partner_age_edit = QLineEdit()
        self.partner_age_edit.setObjectName("partner_age")
        self.partner_age_edit.setMaximumWidth(self.age_edit.maximumWidth())
        for part, stretch in ((self.partner_label, 0), (self.partner_birth_edit, 2), (self.partner_sex_combo, 0),
                              (self.partner_age_edit, 1)):
            prow.addWidget(part, stretch)
        outer.addLayout(prow)
        for edit in (self.birth_edit, self.age_edit, self.partner_birth_edit, self.partner_age_edit):
            edit.editingFinished.connect(self._querent_changed)
        for combo in (self.sex_combo, self.partner_sex_combo):
            combo.activated.connect(lambda _i: self._querent_changed())
        self.text = QTextBrowser()
        self.text.setObjectName("lesson_text")
        self.text.setOpenLinks(False)
        self.text.anchorClicked.connect(self._clicked)
        # The names that need the plate, the schools and the spirits under each branch: long texts
        # whose layout costs more than the rest of a turn of the hour together, so they follow a
        # moment after the turn (once, when turning fast).
        self.spirits = QTextBrowser()
        self.spirits.setObjectName("lesson_spirits")
        self.spirits.setOpenLinks(False)
        self.spirits.anchorClicked.connect(self._clicked)
        # scroll bars that come and go make Qt lay a new text out twice (with and without them)
        for browser in (self.text, self.spirits):
            browser.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOn)
        self._spirits_timer = QTimer(self)
        self._spirits_timer.setSingleShot(True)
        self._spirits_timer.setInterval(120)
        self._spirits_timer.timeout.connect(self._refresh_spirits)
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(self.text)
        split.addWidget(self.spirits)
        split.setStretchFactor(0, 5)
        split.setStretchFactor(1, 2)
        split.setChildrenCollapsible(False)
        # the four lessons and the three transmissions stay whole in view (at 1280×800 the 末传 row was
        # cut under a pane shared half and half); the spirits pane takes what is left and scrolls
        self.text.setMinimumHeight(round(self.fontMetrics().height() * 20.5))
        self.spirits.setMinimumHeight(round(self.fontMetrics().height() * 4.5))
        outer.addWidget(split, 1)
        self.walk_row = QHBoxLayout()
        self.walk_button = QPushButton()
        self.walk_button.setObjectName("walk")
        self.walk_back, self.walk_fwd = QPushButton("◀"), QPushButton("▶")
        self.walk_back.setObjectName("walk_back")
        self.walk_fwd.setObjectName("walk_fwd")
        self.walk_label = QLabel()
        for w in (self.walk_button, self.walk_back, self.walk_label, self.walk_fwd):
            self.walk_row.addWidget(w)
        for b in (self.walk_back, self.walk_fwd):
            b.setFixedWidth(34)
        self.walk_row.addStretch(1)
        outer.addLayout(self.walk_row)
        quiz_row = QHBoxLayout()
        self.quiz_first, self.quiz_method, self.quiz_pattern = QPushButton(), QPushButton(), QPushButton()
        self.quiz_first.setObjectName("quiz_first")
        self.quiz_method.setObjectName("quiz_method")
        self.quiz_pattern.setObjectName("quiz_pattern")
        self.quiz_first.clicked.connect(lambda: self.start_quiz("first"))
        self.quiz_method.clicked.connect(lambda: self.start_quiz("method"))
        self.quiz_pattern.clicked.connect(lambda: self.start_quiz("pattern"))
        quiz_row.addWidget(self.quiz_first)
        quiz_row.addWidget(self.quiz_method)
        quiz_row.addWidget(self.quiz_pattern)
        quiz_row.addStretch(1)
        outer.addLayout(quiz_row)
        self.quiz: LessonQuizDialog | None = None
        self.answer_hidden = False
        self.school_toggle = QPushButton()
        self.school_toggle.setObjectName("school_toggle")
        self.school_toggle.setCheckable(True)
        self.school_toggle.setFlat(True)
        self.school_toggle.setStyleSheet("text-align: left; padding: 2px 4px;")
        outer.addWidget(self.school_toggle)
        self.school_box = QGroupBox()
        self.school_box.setVisible(False)  # folded: the lesson keeps the room
        form = QFormLayout(self.school_box)
        self.setting_combos: dict[str, QComboBox] = {}
        self.setting_labels: dict[str, QLabel] = {}
        for setting in liuren_tables().settings.values():
            combo = QComboBox()
            combo.setObjectName("ke_" + setting.id)
            combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
            combo.setMinimumContentsLength(10)
            label = QLabel()
            label.setWordWrap(True)
            form.addRow(label, combo)
            combo.activated.connect(lambda _i: self._settings_changed())
            self.setting_combos[setting.id] = combo
            self.setting_labels[setting.id] = label
        outer.addWidget(self.school_box)
        self.school_toggle.toggled.connect(self._fold_school)
        self.walk: list[WalkStep] = []
        self.hits: tuple[PatternHit, ...] = ()
        self.bifa: tuple[BifaHit, ...] = ()
        self.walk_index = -1
        self._rows: list[tuple[int, str, str]] = []
        self._tail = ""
        self.walk_button.clicked.connect(self.toggle_walk)
        self.walk_back.clicked.connect(lambda: self.go_walk(-1))
        self.walk_fwd.clicked.connect(lambda: self.go_walk(1))
        self.model.subscribe(self._on_model)
        self.retranslate()
        self.show_querent()

    # -- the quiz -----------------------------------------------------------------------------------
    def start_quiz(self, kind: str, seed: int | None = None) -> LessonQuizDialog:
        if self.walk:
            self.stop_walk()
        if self.quiz is not None:
            self.quiz.close()
        quiz = delete_on_close(LessonQuizDialog(self.model, kind, seed, on_hide=self.set_answer_hidden, parent=self),
                               self, "quiz")
        quiz.show()
        return quiz

    def set_answer_hidden(self, hidden: bool) -> None:
        """While a quiz question waits, the panel does not give the answer away."""
        if hidden != self.answer_hidden:
            self.answer_hidden = hidden
            self.refresh()

    # -- the walk-through ------------------------------------------------------------------------
    def walk_active(self) -> bool:
        return bool(self.walk)

    def toggle_walk(self) -> None:
        if self.walk:
            self.stop_walk()
        else:
            self.start_walk()

    def start_walk(self) -> bool:
        ke = self.model.ke
        if ke is None:
            self.model.report(tr("lesson_none", self.model.lang))
            return False
        nm = self.model.nian_ming()
        from shensha_plates.core.liuren.patterns import detect_patterns
        self.walk = walk_steps(ke, self.model.lang, nm, detect_patterns(ke, self.model.plate, nm,
                                                                         day=self.model.day_facts()))
        self.walk_index = -1
        self.go_walk(1)
        return True

    def stop_walk(self) -> None:
        self.walk, self.walk_index = [], -1
        self.lit = Lit()
        self._walk_controls()
        self.refresh()
        self.sigWalk.emit(None)

    def go_walk(self, delta: int) -> None:
        if not self.walk:
            return
        self.walk_index = max(0, min(len(self.walk) - 1, self.walk_index + delta))
        step = self.walk[self.walk_index]
        self.lit = step.lit
        self._walk_controls()
        self.refresh()
        self.sigWalk.emit(step)

    def current_walk_step(self) -> WalkStep | None:
        return self.walk[self.walk_index] if self.walk and self.walk_index >= 0 else None

    def walk_summary(self) -> str:
        """The walk-through for a large caption: the four lessons (right to left), the
        transmissions revealed so far, and the current step in words."""
        ke, step = self.model.ke, self.current_walk_step()
        if ke is None or step is None:
            return ""
        lang = self.model.lang
        rtl = list(reversed(ke.lessons))
        gens = " ".join(general_name(g, lang, short=True) for g in reversed(ke.lesson_generals))
        lines = [f"{tr('four_lessons', lang)}　{gens}",
                 "　　　" + " ".join(BRANCHES[lesson.upper] for lesson in rtl),
                 "　　　" + " ".join(lesson.lower_name for lesson in rtl)]
        shown = [t for t in ke.transmissions if t.position in step.lit.transmissions]
        if shown:
            lines.append(f"{tr('three_transmissions', lang)}　" + "　".join(
                BRANCHES[t.branch] + general_name(t.general, lang, short=True) for t in shown))
        lines.append(tr("walk_step", lang, i=self.walk_index + 1, n=len(self.walk)) + "：" + step.words)
        return "\n".join(lines)

    def _walk_controls(self) -> None:
        lang = self.model.lang
        on = bool(self.walk)
        self.walk_button.setText(tr("walk_stop" if on else "walk", lang))
        self.walk_back.setEnabled(on and self.walk_index > 0)
        self.walk_fwd.setEnabled(on and self.walk_index < len(self.walk) - 1)
        self.walk_label.setText(tr("walk_step", lang, i=self.walk_index + 1, n=len(self.walk)) if on else "")

    def _on_model(self, event: str) -> None:
        if event == "state" and self.walk:
            self.stop_walk()  # another plate: the walk-through was about the old one
        if event == "querent":
            self.show_querent()
            self.refresh()

    # -- the querent --------------------------------------------------------------------------------
    def show_querent(self) -> None:
        q = self.model.querent
        p = None if q is None else q.partner
        for person, birth, sex, age in ((q, self.birth_edit, self.sex_combo, self.age_edit),
                                        (p, self.partner_birth_edit, self.partner_sex_combo, self.partner_age_edit)):
            if person is None and birth is self.partner_birth_edit and q is None:
                continue  # a partner typed before the querent stays in its fields
            birth.setText("" if person is None else person.birth_text)
            sex.setCurrentIndex(0 if person is None else (1 if person.sex == "m" else 2))
            age.setText("" if person is None or person.age is None else str(person.age))

    def _querent_changed(self) -> None:
        from shensha_plates.core.liuren.nianming import Querent
        birth = self.birth_edit.text().strip()
        sex = self.sex_combo.currentData()
        if not birth and not self.age_edit.text().strip():
            self.model.set_querent(None)
            return
        if not birth or not sex:
            return  # not all given yet
        p_birth = self.partner_birth_edit.text().strip()
        p_sex = self.partner_sex_combo.currentData()
        if p_birth and not p_sex:
            return  # the partner not all given yet
        try:
            q = Querent.parse(birth, str(sex), self.age_edit.text())
            if p_birth:
                try:
                    partner = Querent.parse(p_birth, str(p_sex), self.partner_age_edit.text())
                except ShenshaError as e:
                    raise ShenshaError(f"{tr('partner', self.model.lang)}: {e}") from None
                q = q.with_partner(partner)
        except ShenshaError as e:
            self.model.report(str(e))
            return
        self.model.set_querent(q)

    def _fold_school(self, on: bool) -> None:
        self.school_box.setVisible(on)
        self._school_title()

    # -- language -----------------------------------------------------------------------------------
    def retranslate(self) -> None:
        lang = self.model.lang
        self._school_title()
        for setting in liuren_tables().settings.values():
            combo = self.setting_combos[setting.id]
            combo.blockSignals(True)
            combo.clear()
            for choice in setting.choices:
                name, note = choice_words(setting.id, choice.id, lang)
                combo.addItem(name, choice.id)
                combo.setItemData(combo.count() - 1, note, 3)  # tooltip role
            combo.blockSignals(False)
            self.setting_labels[setting.id].setText(setting_words(setting.id, lang))
        self._walk_controls()
        self.querent_label.setText(tr("nian_ming", lang))
        self.birth_edit.setPlaceholderText(tr("querent_birth", lang))
        self.age_edit.setPlaceholderText(tr("querent_age", lang))
        self.age_edit.setToolTip(tr("querent_age_tip", lang))
        self.partner_label.setText(tr("partner", lang))
        self.partner_birth_edit.setPlaceholderText(tr("partner_birth", lang))
        self.partner_age_edit.setPlaceholderText(tr("querent_age", lang))
        self.partner_age_edit.setToolTip(tr("querent_age_tip", lang))
        for combo in (self.sex_combo, self.partner_sex_combo):
            combo.blockSignals(True)
            index = max(0, combo.currentIndex())
            combo.clear()
            combo.addItem(tr("querent_sex", lang), None)
            combo.addItem(tr("male", lang), "m")
            combo.addItem(tr("female", lang), "f")
            combo.setCurrentIndex(index)
            combo.blockSignals(False)
        self.quiz_first.setText(tr("quiz_first_go", lang))
        self.quiz_method.setText(tr("quiz_method_go", lang))
        self.quiz_pattern.setText(tr("quiz_pattern_go", lang))
        self.show_options()
        self.refresh()

    def _school_title(self) -> None:
        lang = self.model.lang
        chosen = [choice_words(sid, cid, lang)[0] for sid, cid in self.model.ke_options.choices]
        arrow = "▾" if self.school_toggle.isChecked() else "▸"
        sep = ("; ", ": ") if lang == "en" else ("；", "：")
        self.school_toggle.setText(f"{arrow} {tr('school', lang)}{sep[1]}" + (sep[0].join(chosen) if chosen else "《大六壬指南》"))

    def show_options(self) -> None:
        ke = self.model.ke_options
        for sid, combo in self.setting_combos.items():
            combo.blockSignals(True)
            combo.setCurrentIndex(max(0, combo.findData(ke.get(sid))))
            combo.blockSignals(False)
        self._school_title()

    def _settings_changed(self) -> None:
        chosen = {sid: str(c.currentData()) for sid, c in self.setting_combos.items()}
        try:
            ke = KeOptions.from_choices(chosen)
        except ShenshaError:  # the combos only offer valid choices; keep the last good ones
            self.show_options()
            return
        self.model.set_ke_options(ke)

    # -- content ----------------------------------------------------------------------------------
    def refresh(self) -> None:
        ke = self.model.ke
        lang = self.model.lang
        message = ""
        if ke is None:
            message = f"<p style='color:#777'>{html.escape(tr('lesson_none', lang))}</p>"
        elif self.answer_hidden:
            message = f"<p style='color:#777;font-size:16pt'>{html.escape(tr('quiz_liuren', lang))}……</p>"
        if ke is None or message:
            self._spirits_timer.stop()
            self._rows, self._tail = [], ""
            self.text.setHtml(message)
            self.spirits.setHtml("")
            return
        nm = self.model.nian_ming()
        from shensha_plates.core.liuren.patterns import read_lesson
        self.hits, self.bifa = read_lesson(ke, self.model.plate, nm, day=self.model.day_facts())
        top, rows, tail = lesson_parts(ke, self.model.plate, lang, self.lit, self.names(),
                                       school_differences(ke, lang), self.english(), nm, self.hits, self.bifa)
        if nm is None and self.model.querent is not None:
            top += f"<p style='color:#8a3b12'>{html.escape(tr('querent_needs_age', lang))}</p>"
        bar = self.text.verticalScrollBar()
        pos = bar.value()
        self.text.setHtml(top)
        bar.setValue(pos)
        if (rows, tail) != (self._rows, self._tail):
            self._rows, self._tail = rows, tail
            self._spirits_timer.start()

    def _refresh_spirits(self) -> None:
        """The second pane: the spirits on each branch, the names that need the plate, the schools."""
        self.spirits.setHtml(spirits_html(self._rows, self.model.lang, self.english()) + self._tail
                             if self._rows else "")

    def flush(self) -> None:
        """Lay out the spirits' lists now if they are waiting (tests, exports)."""
        if self._spirits_timer.isActive():
            self._spirits_timer.stop()
            self._refresh_spirits()

    def plain_text(self) -> str:
        """What the panel shows, as plain text (cells and paragraphs a line each)."""
        self.flush()
        return self.text.toPlainText() + "\n" + self.spirits.toPlainText()

    def click(self, link: str) -> None:
        """As if the link were clicked (spirit:ID:BRANCH, lesson:N, trans:N)."""
        self._clicked(QUrl(link))

    def names(self) -> tuple[NameStatus, ...]:
        """The names that need the plate, as the core resolves them in this state."""
        return self.model.names

    def set_lit(self, lit: Lit) -> None:
        self.lit = lit
        self.refresh()

    def _clicked(self, url: QUrl) -> None:
        ke = self.model.ke
        kind, _, rest = url.toString().partition(":")
        if ke is None:
            return
        if kind == "spirit":
            sid, _, branch = rest.rpartition(":")
            self.sigShow.emit(sid, int(branch), frozenset())
        elif kind == "lesson":
            lesson = ke.lessons[int(rest) - 1]
            self.sigShow.emit("", lesson.lower, frozenset({lesson.upper}))
        elif kind == "trans":
            t = ke.transmissions[int(rest)]
            self.sigShow.emit("", ke.plate.under(t.branch), frozenset({t.branch}))
        elif kind == "pattern":  # a pattern: its 初传 lit over the branch it stands on
            t = ke.transmissions[0]
            self.sigShow.emit("", ke.plate.under(t.branch), frozenset(tr_.branch for tr_ in ke.transmissions))
        elif kind == "year":  # a 本命 or 行年 (year:ben_ming, or the partner's year:partner.xing_nian): its
            nm = self.model.nian_ming()  # earth branch selected, the heaven branch over it lit
            whose, _, role = rest.rpartition(".")
            person = nm if nm is None or whose != "partner" else nm.partner
            if person is not None:
                y = person.ben_ming if role == "ben_ming" else person.xing_nian
                self.sigShow.emit("", y.branch, frozenset({y.heaven}))
