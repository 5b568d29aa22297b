"""The side panel: dial selectors, the date picker and "now", view options, search and details.

Every control reports to the window through signals; the panel shows the model's state but never
computes a spirit. Typed or pasted text that is not a valid value is refused with a message, and the
last good state stays.
"""

from __future__ import annotations

import textwrap

from collections.abc import Callable, Sequence

from PySide6.QtCore import QEvent, QObject, Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QCheckBox, QComboBox, QCompleter, QFormLayout, QGroupBox, QHBoxLayout, QLabel, QLineEdit,
    QPushButton, QTabWidget, QTextBrowser, QVBoxLayout, QWidget,
)

from shensha_plates.core.cycle import BRANCHES, PILLARS, XUN_HEADS, xun_void
from shensha_plates.core.engine import MONTH_NAMES, State
from shensha_plates.core.lang import LANGS
from shensha_plates.gui.describe import to_lang
from shensha_plates.gui.i18n import gloss, tr

__all__ = ["SidePanel"]

ZONES = ("Asia/Shanghai", "Asia/Hong_Kong", "Asia/Taipei", "Asia/Singapore", "Asia/Kuala_Lumpur",
         "Asia/Tokyo", "Europe/London", "Europe/Berlin", "America/New_York", "America/Los_Angeles",
         "Australia/Sydney", "UTC")


class _GeneralCombo(QComboBox):
    """The month-general selector: its items are named just before its list opens."""

    def __init__(self, before_popup: Callable[[], None]) -> None:
        super().__init__()
        self._before_popup = before_popup

    def showPopup(self) -> None:  # noqa: N802 - Qt's name
        self._before_popup()
        super().showPopup()


class SidePanel(QWidget):
    sigDials = Signal(object)          # a State chosen with the selectors
    sigStep = Signal(str, int)         # dial, delta
    sigDate = Signal(str, str, str, str, str)   # wall-clock text, zone, year_start, month_basis, zi_hour
    sigNow = Signal()
    sigView = Signal()                 # any view option changed
    sigSearch = Signal(str)
    sigSnap = Signal()
    sigInvalid = Signal(str)
    sigGeneral = Signal(object)        # a month general chosen by hand (branch index), or None: automatic
    sigHeaven = Signal()               # the heaven-ring view options changed

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.lang = "zh-Hans"
        self._updating = False
        outer = QVBoxLayout(self)
        outer.setContentsMargins(6, 6, 6, 6)

        # dials
        self.dial_box = QGroupBox()
        form = QFormLayout(self.dial_box)
        self.year = self._combo(editable=True)
        self.month = self._combo()
        self.xun = self._combo()
        self.day = self._combo(editable=True)
        self.hour = self._combo()
        self.year_label, self.month_label, self.xun_label = QLabel(), QLabel(), QLabel()
        self.day_label, self.hour_label = QLabel(), QLabel()
        for label, combo, dial in ((self.year_label, self.year, "year"), (self.month_label, self.month, "month"),
                                   (self.xun_label, self.xun, "xun"), (self.day_label, self.day, "day")):
            row = QHBoxLayout()
            back, fwd = QPushButton("◀"), QPushButton("▶")
            for b in (back, fwd):
                b.setFixedWidth(30)
                b.setFocusPolicy(Qt.FocusPolicy.NoFocus)
            back.clicked.connect(lambda _=False, d=dial: self.sigStep.emit(d, -1))
            fwd.clicked.connect(lambda _=False, d=dial: self.sigStep.emit(d, 1))
            back.setObjectName(f"step_{dial}_back")
            fwd.setObjectName(f"step_{dial}_fwd")
            row.addWidget(back)
            row.addWidget(combo, 1)
            row.addWidget(fwd)
            form.addRow(label, row)
        hrow = QHBoxLayout()
        hour_back, hour_fwd = QPushButton("◀"), QPushButton("▶")
        for b, delta, name in ((hour_back, -1, "back"), (hour_fwd, 1, "fwd")):
            b.setFixedWidth(30)
            b.setFocusPolicy(Qt.FocusPolicy.NoFocus)
            b.setObjectName(f"step_hour_{name}")
            b.clicked.connect(lambda _=False, d=delta: self.sigStep.emit("hour", d))
        hrow.addWidget(hour_back)
        hrow.addWidget(self.hour, 1)
        hrow.addWidget(hour_fwd)
        form.addRow(self.hour_label, hrow)
        self.general = self._combo(combo=_GeneralCombo(self._general_names))
        self._general_names_lang: str | None = None  # the language the generals' names are in, once put in
        self.general.setObjectName("month_general")
        self.general_label = QLabel()
        form.addRow(self.general_label, self.general)
        self.general.activated.connect(lambda _i: None if self._updating else
                                       self.sigGeneral.emit(self.general.currentData()))
        for combo in (self.year, self.month, self.xun, self.day, self.hour):
            combo.activated.connect(self._dials_changed)
        for combo in (self.year, self.day):
            line = combo.lineEdit()
            assert line is not None
            line.returnPressed.connect(self._dials_changed)
        self.tabs = QTabWidget()
        self.tabs.setObjectName("panel_tabs")
        outer.addWidget(self.tabs)
        self.tabs.addTab(self.dial_box, "")

        # date
        self.date_box = QGroupBox()
        dform = QFormLayout(self.date_box)
        # a plain line: what is typed stays as typed (a date-time editor replaced only the section under
        # the cursor, so "1998-11-30 12:00" typed over a selection became 2026-11-30 12:00), and Enter
        # applies it; the calendar reads it (a bad date is one message, the plates stay as they were)
        self.datetime = QLineEdit()
        self.datetime.setObjectName("date_text")
        self.datetime.setPlaceholderText("1998-11-30 12:00")
        self.datetime.setClearButtonEnabled(True)
        self.datetime.returnPressed.connect(self._date_chosen)
        import datetime as _dt
        self.datetime.setText(_dt.datetime.now().strftime("%Y-%m-%d %H:%M"))
        self.zone = self._combo(editable=True)
        self.zone.addItems(ZONES)
        self.year_start = self._combo()
        self.month_basis = self._combo()
        self.zi_hour = self._combo()
        self.apply_date = QPushButton()
        self.now_button = QPushButton()
        self.now_button.setObjectName("now_button")
        self.apply_date.setObjectName("apply_date")
        self.date_label, self.zone_label = QLabel(), QLabel()
        self.ys_label, self.mb_label, self.zh_label = QLabel(), QLabel(), QLabel()
        dform.addRow(self.date_label, self.datetime)
        dform.addRow(self.zone_label, self.zone)
        dform.addRow(self.ys_label, self.year_start)
        dform.addRow(self.mb_label, self.month_basis)
        dform.addRow(self.zh_label, self.zi_hour)
        buttons = QHBoxLayout()
        buttons.addWidget(self.apply_date)
        buttons.addWidget(self.now_button)
        dform.addRow(buttons)
        self.apply_date.clicked.connect(self._date_chosen)
        self.now_button.clicked.connect(self.sigNow.emit)
        self.tabs.addTab(self.date_box, "")

        # view
        self.view_box = QGroupBox()
        vform = QFormLayout(self.view_box)
        self.layout_combo = self._combo()
        self.orientation = self._combo()
        self.text_mode = self._combo()
        self.lang_combo = self._combo()
        self.mountains = QCheckBox()
        self.english = QCheckBox()
        self.reduce_motion = QCheckBox()
        self.paper = QCheckBox()
        self.heaven_rings = QCheckBox()
        self.heaven_rings.setObjectName("show_heaven")
        self.heaven_rings.setChecked(True)
        self.general_names = QCheckBox()
        self.general_names.setObjectName("general_names")
        for cb in (self.heaven_rings, self.general_names):
            cb.toggled.connect(lambda _=False: None if self._updating else self.sigHeaven.emit())
        self.paper_status = QLabel()
        self.paper_status.setWordWrap(True)
        self.snap = QPushButton()
        self.snap.clicked.connect(self.sigSnap.emit)
        self.layout_label, self.orient_label, self.text_label, self.lang_label = QLabel(), QLabel(), QLabel(), QLabel()
        vform.addRow(self.layout_label, self.layout_combo)
        vform.addRow(self.orient_label, self.orientation)
        vform.addRow(self.text_label, self.text_mode)
        vform.addRow(self.lang_label, self.lang_combo)
        vform.addRow(self.mountains)
        vform.addRow(self.english)
        vform.addRow(self.reduce_motion)
        vform.addRow(self.heaven_rings)
        vform.addRow(self.general_names)
        vform.addRow(self.paper)
        vform.addRow(self.paper_status)
        vform.addRow(self.snap)
        for w in (self.layout_combo, self.orientation, self.text_mode, self.lang_combo):
            w.activated.connect(lambda _=0: self._view_changed())
        for cb in (self.mountains, self.english, self.reduce_motion, self.paper):
            cb.toggled.connect(lambda _=False: self._view_changed())
        self.tabs.addTab(self.view_box, "")

        # search and details
        self.search = QLineEdit()
        self.search.setObjectName("search")
        self.search.setClearButtonEnabled(True)
        # find as you type (a short pause after the last key), Enter at once, Esc clears it and the
        # highlight; the names that contain what is typed drop down below the box
        self._search_timer = QTimer(self)
        self._search_timer.setSingleShot(True)
        self._search_timer.setInterval(180)
        self._search_timer.timeout.connect(lambda: self.sigSearch.emit(self.search.text()))
        self.search.returnPressed.connect(self._search_now)
        self.search.textChanged.connect(lambda t: self._search_timer.start() if t else self._search_now())
        self.search.installEventFilter(self)
        outer.addWidget(self.search)
        self.details = QTextBrowser()
        self.details.setObjectName("details")
        self.details.setOpenLinks(False)
        # a scroll bar that comes and goes makes Qt lay the text out twice (with and without it);
        # kept, a state change's new details cost about a millisecond less
        self.details.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOn)
        outer.addWidget(self.details, 1)
        self.retranslate("zh-Hans", english=False)

    @staticmethod
    def _combo(editable: bool = False, combo: QComboBox | None = None) -> QComboBox:
        c = combo if combo is not None else QComboBox()
        c.setEditable(editable)
        if editable:
            c.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        c.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        c.setMinimumContentsLength(8)
        return c

    # -- texts ---------------------------------------------------------------------------------
    def retranslate(self, lang: str, english: bool) -> None:
        self.lang = lang
        self._updating = True
        L = lambda key: tr(key, lang) + (f"  ({gloss(key)})" if english else "")  # noqa: E731
        # a check box's English goes on a line of its own: on one line it made the panel wider than a
        # 1280×800 screen leaves it (the combos' arrows and the find box's clear button were pushed off)
        C = lambda key: ("\n".join(textwrap.wrap(tr(key, lang), 30)) if lang == "en" else  # noqa: E731
                         tr(key, lang) + ("\n" + "\n".join(textwrap.wrap(gloss(key), 30)) if english else ""))
        self.dial_box.setTitle(L("dials"))
        self.date_box.setTitle(L("from_date"))
        self.view_box.setTitle(L("view"))
        for i, key in enumerate(("dials", "from_date", "view")):
            self.tabs.setTabText(i, tr(key, lang))
            self.tabs.setTabToolTip(i, gloss(key))
        for label, key in ((self.year_label, "year"), (self.month_label, "month"), (self.xun_label, "xun"),
                           (self.day_label, "day"), (self.hour_label, "hour"), (self.zone_label, "zone"),
                           (self.ys_label, "year_start"), (self.mb_label, "month_basis"),
                           (self.zh_label, "zi_hour"), (self.layout_label, "layout"),
                           (self.orient_label, "orientation"), (self.text_label, "text_mode"),
                           (self.lang_label, "language")):
            label.setText(tr(key, lang))
            label.setToolTip(gloss(key))
        self.date_label.setText(tr("from_date", lang))
        self.apply_date.setText(tr("apply_date", lang))
        self.now_button.setText(tr("now", lang))
        self.mountains.setText(C("mountains"))
        self.english.setText(tr("english", lang))
        self.reduce_motion.setText(C("reduce_motion"))
        self.paper.setText(C("paper_mode"))
        self.heaven_rings.setText(C("show_heaven"))
        self.general_names.setText(C("general_names"))
        self.general_label.setText(tr("month_general", lang))
        self.general_label.setToolTip(gloss("month_general"))
        # the branches now, the generals' names (from the Liu Ren tables) when they are first shown
        self._fill(self.general, [tr("general_auto", lang)] + list(BRANCHES), [None] + list(range(12)))
        self._general_names_lang = None
        self.snap.setText(tr("snap_consistent", lang))
        self.search.setPlaceholderText(f"{tr('search', lang)}（{tr('search_hint', lang)}）")
        # texts of another height (a gloss on a line of its own): the tabs must ask their pages again,
        # or a page keeps the height it had and its rows are cut
        for cb in (self.mountains, self.english, self.reduce_motion, self.paper, self.heaven_rings, self.general_names):
            cb.updateGeometry()
        for page in (self.dial_box, self.date_box, self.view_box):
            layout = page.layout()
            if layout is not None:
                layout.invalidate()
            page.updateGeometry()
        self.tabs.updateGeometry()
        en = lang == "en"  # English: the pillars and branches as they are, the words around them in English
        self._fill(self.year, [f"{p} year" if en else to_lang(p + "年", lang) for p in PILLARS], PILLARS)
        self._fill(self.month, [f"Month {i + 1} ({BRANCHES[(i + 2) % 12]})" if en else
                                to_lang(f"{MONTH_NAMES[i]}（{BRANCHES[(i + 2) % 12]}）", lang) for i in range(12)],
                   [str(i + 1) for i in range(12)])
        void = [BRANCHES[xun_void(i)[0]] + BRANCHES[xun_void(i)[1]] for i in range(6)]
        self._fill(self.xun, [f"{h} xun (void {void[i]})" if en else f"{h}旬（空{void[i]}）"
                              for i, h in enumerate(XUN_HEADS)], list(XUN_HEADS))
        self._fill(self.day, [tr("no_day", lang)] + [f"{p} day" if en else p + "日" for p in PILLARS],
                   [""] + list(PILLARS))
        self._fill(self.hour, [tr("no_hour", lang)] + [f"{b} hour" if en else to_lang(b + "时", lang) for b in BRANCHES],
                   [""] + list(BRANCHES))
        self._fill(self.year_start, [tr(k, lang) for k in ("ys_lichun", "ys_lichun_day", "ys_new_year")],
                   ["lichun", "lichun-day", "new-year"])
        self._fill(self.month_basis, [tr("mb_jie", lang), tr("mb_lunar", lang)], ["jie", "lunar"])
        self._fill(self.zi_hour, [tr("zh_next", lang), tr("zh_same", lang)], ["next-day", "same-day"])
        self._fill(self.layout_combo, [tr("layout_side", lang), tr("layout_stacked", lang)], ["side", "stacked"])
        self._fill(self.orientation, [tr("orient_south", lang), tr("orient_north", lang)], ["south", "north"])
        self._fill(self.text_mode, [tr("text_radial", lang), tr("text_upright", lang)], ["radial", "upright"])
        self._fill(self.lang_combo, [tr("lang_hans", "zh-Hans"), tr("lang_hant", "zh-Hant"), "English"],
                   list(LANGS))
        self._updating = False

    def show_general(self, general: int | None, text: str) -> None:
        """The month-general selector: the hand-set general, or 'automatic' with what it gives."""
        self._updating = True
        try:
            if general is not None:
                self._general_names()
            i = 0 if general is None else general + 1
            self.general.setCurrentIndex(i)
            self.general.setItemText(0, f"{tr('general_auto', self.lang)}：{text}")
            self.general.setToolTip(text)
        finally:
            self._updating = False

    def _general_names(self) -> None:
        """Name the month generals in their selector (登明, 河魁 …), once per language."""
        if self._general_names_lang == self.lang:
            return
        from shensha_plates.gui.liuren import month_general_name
        for i, b in enumerate(BRANCHES):
            self.general.setItemText(i + 1, f"{b} {month_general_name(i, self.lang)}")
        self._general_names_lang = self.lang

    @staticmethod
    def _fill(combo: QComboBox, texts: Sequence[str], data: Sequence[object]) -> None:
        filled = (tuple(texts), tuple(data))
        if combo.property("filled_with") == filled:
            return  # the same items already (a second retranslation at start-up refilled 300 of them)
        combo.setProperty("filled_with", filled)
        current = combo.currentData()
        combo.blockSignals(True)
        combo.clear()
        for t, d in zip(texts, data, strict=True):
            combo.addItem(t, d)
        if current is not None:
            i = combo.findData(current)
            if i >= 0:
                combo.setCurrentIndex(i)
        combo.blockSignals(False)

    # -- showing the model -----------------------------------------------------------------------
    def show_state(self, state: State) -> None:
        self._updating = True
        try:
            self._select(self.year, state.year_name if state.year_stem is not None else "")
            if state.year_stem is None:
                self.year.setEditText(BRANCHES[state.year_branch] + "年")
            self._select(self.month, str(state.month))
            self._select(self.xun, XUN_HEADS[state.xun])
            self._select(self.day, "" if state.day is None else PILLARS[state.day])
            self._select(self.hour, "" if state.hour is None else BRANCHES[state.hour])
        finally:
            self._updating = False

    @staticmethod
    def _select(combo: QComboBox, data: str) -> None:
        i = combo.findData(data)
        if i >= 0:
            combo.blockSignals(True)
            combo.setCurrentIndex(i)
            combo.blockSignals(False)

    def view_options(self) -> dict[str, object]:
        return {
            "layout": self.layout_combo.currentData(), "orientation": self.orientation.currentData(),
            "text_mode": self.text_mode.currentData(), "lang": self.lang_combo.currentData(),
            "mountains": self.mountains.isChecked(), "english": self.english.isChecked(),
            "reduce_motion": self.reduce_motion.isChecked(), "paper": self.paper.isChecked(),
        }

    def set_view_options(self, opts: dict[str, object]) -> None:
        self._updating = True
        for combo, key in ((self.layout_combo, "layout"), (self.orientation, "orientation"),
                           (self.text_mode, "text_mode"), (self.lang_combo, "lang")):
            self._select(combo, str(opts[key]))
        for cb, key in ((self.mountains, "mountains"), (self.english, "english"),
                        (self.reduce_motion, "reduce_motion"), (self.paper, "paper")):
            cb.blockSignals(True)
            cb.setChecked(bool(opts.get(key, False)))
            cb.blockSignals(False)
        self._updating = False

    # -- user input ------------------------------------------------------------------------------
    def _text_of(self, combo: QComboBox) -> str:
        """The value of an editable combo: the chosen item's data, or the typed text."""
        text = combo.currentText().strip()
        i = combo.findText(text)
        if i >= 0:
            return str(combo.itemData(i))
        return text.removesuffix("年").removesuffix("日").strip()

    def _dials_changed(self, *_: object) -> None:
        if self._updating:
            return
        year = self._text_of(self.year)
        day = self._text_of(self.day)
        try:
            state = State.parse(year, self.month.currentData(), None if day else self.xun.currentData(),
                                day or None, self.hour.currentData() or None)
        except ValueError as e:
            self.sigInvalid.emit(str(e))
            return
        self.sigDials.emit(state)

    def _search_now(self) -> None:
        self._search_timer.stop()
        self.sigSearch.emit(self.search.text())

    def set_search_names(self, names: list[str]) -> None:
        """The names the find box offers as it is typed in (any that contain the text)."""
        completer = QCompleter(sorted(set(names)), self.search)
        completer.setFilterMode(Qt.MatchFlag.MatchContains)
        completer.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        completer.activated.connect(lambda _t: self._search_now())
        self.search.setCompleter(completer)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.search and event.type() == QEvent.Type.KeyPress \
                and event.key() == Qt.Key.Key_Escape and self.search.text():  # type: ignore[attr-defined]
            self.search.clear()  # and with it the highlight
            return True
        return super().eventFilter(watched, event)

    def _date_chosen(self) -> None:
        self.sigDate.emit(self.datetime.text().strip(), self.zone.currentText().strip(),
                          self.year_start.currentData(), self.month_basis.currentData(), self.zi_hour.currentData())

    def _view_changed(self) -> None:
        if not self._updating:
            self.sigView.emit()

    def set_date(self, dt_text: str, zone: str) -> None:
        self.datetime.setText(dt_text[:16].replace("T", " "))
        self.zone.setEditText(zone)
