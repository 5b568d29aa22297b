"""The classroom's quiz on Zhuang's plates: "where is 皇恩 in 二月?" (a click on the plate answers it) or
"which of these lies under 巳?"; right or wrong with the rule, a score, and the plates as they were after.
In presentation it is asked in the column beside the plate, in the room's type."""

from __future__ import annotations

import random

from PySide6.QtWidgets import QDialog, QGridLayout, QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from shensha_plates.core.teaching import Question, check_answer, make_question
from shensha_plates.core.lang import is_trad
from shensha_plates.gui.describe import spirit_name, to_lang
from shensha_plates.gui.fonts import plate_font
from shensha_plates.gui.i18n import tr
from shensha_plates.gui.model import PlateModel
from shensha_plates.gui.plate.view import PlateView

__all__ = ["QuizDialog"]


class QuizDialog(QDialog):
    """Asks, takes the answer (a click on the plate, or one of the offered names), says right or
    wrong with the rule, and keeps the score. The asked ring's names are hidden meanwhile."""

    def __init__(self, model: PlateModel, view: PlateView, parent: QWidget | None = None,
                 seed: int | None = None) -> None:
        super().__init__(parent)
        self.model = model
        self.view = view
        self.setObjectName("quiz_dialog")
        self.rng = random.Random(seed)
        self.score = 0
        self.asked = 0
        self.question: Question | None = None
        self.answered = False
        self.saved_state = model.state
        self.prompt = QLabel()
        self.prompt.setObjectName("quiz_prompt")
        self.prompt.setFont(plate_font(20))
        self.prompt.setWordWrap(True)
        self.options_row = QGridLayout()
        self.columns = 4  # two in the presentation's column
        self.option_buttons: list[QPushButton] = []
        self.feedback = QLabel()
        self.feedback.setObjectName("quiz_feedback")
        self.feedback.setWordWrap(True)
        self.score_label = QLabel()
        self.next_button = QPushButton()
        self.next_button.clicked.connect(self.ask)
        lay = QVBoxLayout(self)
        lay.addWidget(self.prompt)
        lay.addLayout(self.options_row)
        lay.addWidget(self.feedback)
        row = QHBoxLayout()
        row.addWidget(self.score_label, 1)
        row.addWidget(self.next_button)
        lay.addLayout(row)
        self.resize(560, 260)
        self._px = 0
        self.ask()

    def set_px(self, px: int) -> None:
        """Everything in the room's type (presentation puts the quiz in its column, beside the plate)."""
        self._px = px
        self.columns = 2
        self.setStyleSheet("QDialog#quiz_dialog { background: #f4efe2; border-radius: 8px; }")
        for widget in (self.prompt, self.feedback, self.score_label, self.next_button, *self.option_buttons):
            widget.setFont(plate_font(px))
        for i, b in enumerate(self.option_buttons):
            self.options_row.addWidget(b, i // self.columns, i % self.columns)

    def ask(self) -> None:
        model = self.model
        lang = model.lang
        self.question = q = make_question(self.rng, self.saved_state, options=model.options, catalog=model.catalog)
        self.answered = False
        model.set_state(q.state)
        self.view.hide_names({q.ring} if q.ring else set())
        trad = is_trad(lang)
        question = q.prompt_en(model.catalog) if lang == "en" else q.prompt(model.catalog, trad)
        self.prompt.setText(question + ("" if q.kind == "which" else
                                                             "\n" + tr("quiz_click", lang)))
        for b in self.option_buttons:
            b.deleteLater()
        self.option_buttons = []
        for sid in q.options:
            b = QPushButton(spirit_name(model.catalog.spirit(sid), lang))
            b.setObjectName(f"quiz_option_{sid}")
            b.clicked.connect(lambda _=False, sid=sid: self.answer(sid))
            n = len(self.option_buttons)
            self.options_row.addWidget(b, n // self.columns, n % self.columns)
            self.option_buttons.append(b)
            if self._px:
                b.setFont(plate_font(self._px))
        self.feedback.clear()
        self.next_button.setText(tr("quiz_next", lang))
        self._score()

    def waiting_for_click(self) -> bool:
        return self.isVisible() and self.question is not None and self.question.kind == "where" and not self.answered

    def answer(self, value: int | str) -> bool:
        """Answer with a branch (a click on the plate; the window routes it here) or a spirit id."""
        if self.question is None or self.answered:
            return False
        lang = self.model.lang
        right, why = check_answer(self.question, value, self.model.catalog, self.model.options)
        self.answered = True
        self.asked += 1
        self.score += int(right)
        self.view.hide_names(set())
        verdict = tr("quiz_right", lang) if right else tr("quiz_wrong", lang)
        self.feedback.setText(f"{verdict}　{to_lang(why, lang)}")
        self.feedback.setStyleSheet("color: #1f6f3b;" if right else "color: #b3261e;")
        self._score()
        return right

    def _score(self) -> None:
        self.score_label.setText(tr("quiz_score", self.model.lang, right=self.score, asked=self.asked))

    def done(self, r: int) -> None:  # noqa: D401 - Qt's name
        self.view.hide_names(set())
        self.model.set_state(self.saved_state)
        super().done(r)
