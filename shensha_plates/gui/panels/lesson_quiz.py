"""A quiz on the Liu Ren plate: "which is the 初传?", "which method applies?" and "which 课体 does the
lesson form?" (of the 课体 the data defines: a lesson that forms none is not asked).

Each question sets a random day, hour and month general (the year and month stay), hides the
lesson panel's answer, and offers the twelve branches or the nine methods as buttons. After the
answer it says right or wrong and gives the core's reasons (the record of the method in words);
the score is kept. Closing the quiz puts the plate back as it was.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from PySide6.QtWidgets import QDialog, QGridLayout, QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from shensha_plates.core.cycle import BRANCHES, pillar_name
from shensha_plates.core.engine import State
from shensha_plates.core.lang import name_in
from shensha_plates.core.liuren import Ke, liuren_tables
from shensha_plates.gui.describe import to_lang
from shensha_plates.gui.fonts import plate_font
from shensha_plates.gui.i18n import tr

if TYPE_CHECKING:
    from shensha_plates.gui.model import PlateModel

__all__ = ["LessonQuizDialog", "KINDS"]

KINDS = ("first", "method", "pattern")
# the nine methods in the order of the books (九宗门)
METHOD_ORDER = ("zeike", "biyong", "shehai", "yaoke", "maoxing", "biezhe", "bazhuan", "fuyin", "fanyin")


class LessonQuizDialog(QDialog):
    def __init__(self, model: PlateModel, kind: str = "first", seed: int | None = None,
                 on_hide: object = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        if kind not in KINDS:
            raise ValueError(f"unknown quiz: {kind!r} (expected one of {', '.join(KINDS)})")
        self.setObjectName("lesson_quiz")
        self.model = model
        self.kind = kind
        self.rng = random.Random(seed)
        self.on_hide = on_hide  # callable(bool): hide the lesson panel's answer while asking
        self.saved = model.snapshot()
        self.score = 0
        self.asked = 0
        self.answered = False
        self.ke: Ke | None = None
        self.prompt = QLabel()
        self.prompt.setObjectName("lesson_quiz_prompt")
        self.prompt.setFont(plate_font(20))
        self.prompt.setWordWrap(True)
        self.grid = QGridLayout()
        self.buttons: dict[str, QPushButton] = {}
        lang = model.lang
        from shensha_plates.core.liuren.patterns import patterns
        if kind == "first":
            choices = [(b, b) for b in BRANCHES]
        elif kind == "method":
            choices = [(m, to_lang(liuren_tables().methods[m].name, lang)) for m in METHOD_ORDER]
        else:
            choices = [(p.id, name_in(p, lang)) for p in patterns() if p.kind == "课体" and not p.needs]  # read from the lesson alone
        columns = {"first": 6, "method": 5, "pattern": 4}[kind]
        for i, (value, text) in enumerate(choices):
            b = QPushButton(text)
            b.setObjectName(f"lesson_quiz_{value}")
            b.setFont(plate_font(18))
            b.clicked.connect(lambda _=False, v=value: self.answer(v))
            self.grid.addWidget(b, i // columns, i % columns)
            self.buttons[value] = b
        self.feedback = QLabel()
        self.feedback.setObjectName("lesson_quiz_feedback")
        self.feedback.setWordWrap(True)
        self.score_label = QLabel()
        self.next_button = QPushButton()
        self.next_button.clicked.connect(self.ask)
        lay = QVBoxLayout(self)
        lay.addWidget(self.prompt)
        lay.addLayout(self.grid)
        lay.addWidget(self.feedback, 1)
        row = QHBoxLayout()
        row.addWidget(self.score_label, 1)
        row.addWidget(self.next_button)
        lay.addLayout(row)
        self.setWindowTitle(tr("quiz_liuren", lang))
        self.resize(620, 420)
        self.ask()

    def _forms(self, day: int, hour: int, general: int) -> tuple[str, ...]:
        """The ids of the 课体 a lesson forms."""
        from shensha_plates.core.liuren import compute_ke
        from shensha_plates.core.liuren.patterns import detect_patterns
        return tuple(h.id for h in detect_patterns(compute_ke(day, hour, general, self.model.ke_options))
                     if h.kind == "课体")

    def ask(self) -> None:
        m = self.model
        day, hour, general = self.rng.randrange(60), self.rng.randrange(12), self.rng.randrange(12)
        while self.kind == "pattern" and not self._forms(day, hour, general):  # a lesson that forms one
            day, hour, general = self.rng.randrange(60), self.rng.randrange(12), self.rng.randrange(12)
        m.set_general(general)
        m.set_state(State.parse(m.state.year_name, m.state.month, None, pillar_name(day), BRANCHES[hour]))
        self.ke = m.ke
        self.answered = False
        if callable(self.on_hide):
            self.on_hide(True)
        lang = m.lang
        head = (f"{pillar_name(day)} day · the {BRANCHES[general]} general over the {BRANCHES[hour]} hour"
                if lang == "en" else f"{pillar_name(day)}日　{BRANCHES[general]}将加{BRANCHES[hour]}")
        self.prompt.setText(head + "\n" + tr({"first": "quiz_first", "method": "quiz_method",
                                               "pattern": "quiz_pattern"}[self.kind], lang))
        self.feedback.clear()
        self.feedback.setStyleSheet("")
        self.next_button.setText(tr("quiz_next", lang))
        for b in self.buttons.values():
            b.setEnabled(True)
        self._score()

    def answer(self, value: str) -> bool:
        ke = self.ke
        if ke is None or self.answered:
            return False
        lang = self.model.lang
        if self.kind == "pattern":
            from shensha_plates.core.liuren.patterns import detect_patterns
            formed = [h for h in detect_patterns(ke) if h.kind == "课体"]
            right = value in {h.id for h in formed}
        else:
            right_value = BRANCHES[ke.transmissions[0].branch] if self.kind == "first" else ke.method
            right = value == right_value
        self.answered = True
        self.asked += 1
        self.score += int(right)
        for b in self.buttons.values():
            b.setEnabled(False)
        if callable(self.on_hide):
            self.on_hide(False)
        verdict = tr("quiz_right", lang) if right else tr("quiz_wrong", lang)
        trans = " ".join(BRANCHES[t.branch] for t in ke.transmissions)
        method = ke.method_name(lang) + ("" if ke.ke == ke.method_name() else f"（{to_lang(ke.ke, lang)}）")
        reasons = "\n".join(f"{i + 1}. {s.text(lang)}" for i, s in enumerate(ke.steps))
        if self.kind == "pattern":  # the 课体 formed, each with why
            from shensha_plates.core.liuren.english_text import why_en
            reasons = "\n".join(f"{name_in(h, lang)}：{why_en(h) if lang == 'en' else to_lang(h.why, lang)}"
                                 for h in formed)
        self.feedback.setText(f"{verdict}　{tr('method', lang)}：{method}　{tr('three_transmissions', lang)}：{trans}\n"
                              f"{reasons}")
        self.feedback.setStyleSheet("color: #1f6f3b;" if right else "color: #b3261e;")
        self._score()
        return right

    def _score(self) -> None:
        self.score_label.setText(tr("quiz_score", self.model.lang, right=self.score, asked=self.asked))

    def done(self, r: int) -> None:  # noqa: D401 - Qt's name
        if callable(self.on_hide):
            self.on_hide(False)
        self.model.restore(self.saved)
        super().done(r)
