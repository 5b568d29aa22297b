"""The other systems of the sources, each beside Zhuang's plates and never merged into them:
the spirits of a Bazi chart (seed 000), the eight relations between two positions (seed 001) and
the date-selection year and month spirits (seed 004)."""

from __future__ import annotations

from PySide6.QtCore import QDateTime
from PySide6.QtWidgets import (
    QComboBox, QDateTimeEdit, QDialog, QHBoxLayout, QLabel, QPushButton, QTabWidget, QTextBrowser, QVBoxLayout,
    QWidget,
)

from shensha_plates.core.bazi import chart_for
from shensha_plates.core.calendar import CalendarOptions, parse_datetime
from shensha_plates.core.cycle import BRANCHES, STEMS
from shensha_plates.core.errors import ShenshaError
from shensha_plates.core.relations import relate
from shensha_plates.gui.describe import chart_html, relations_html, to_lang
from shensha_plates.gui.i18n import tr
from shensha_plates.gui.lifetime import follow_model
from shensha_plates.gui.model import PlateModel

__all__ = ["SystemsDialog"]

POSITIONS = tuple(STEMS) + tuple(BRANCHES)


class SystemsDialog(QDialog):
    """Non-modal; follows the model's language. ``show_relation(a, b)`` and ``show_chart(text)``
    let the window (and tests) drive it."""

    def __init__(self, model: PlateModel, parent: QWidget | None = None, zone: str = "Asia/Shanghai",
                 on_error: object = None) -> None:
        super().__init__(parent)
        self.model = model
        self.on_error = on_error
        self.setObjectName("systems_dialog")
        self.tabs = QTabWidget()
        layout = QVBoxLayout(self)
        layout.addWidget(self.tabs)

        # Bazi
        self.bazi_page = QWidget()
        bl = QVBoxLayout(self.bazi_page)
        row = QHBoxLayout()
        self.birth_label, self.zone_label = QLabel(), QLabel()
        self.birth = QDateTimeEdit()
        self.birth.setObjectName("birth")
        self.birth.setDisplayFormat("yyyy-MM-dd HH:mm")
        self.birth.setCalendarPopup(True)
        self.birth.setMinimumDateTime(QDateTime.fromString("1901-01-01 00:00", "yyyy-MM-dd HH:mm"))
        self.birth.setMaximumDateTime(QDateTime.fromString("2099-12-31 23:59", "yyyy-MM-dd HH:mm"))
        self.birth.setDateTime(QDateTime.fromString("1990-05-17 08:30", "yyyy-MM-dd HH:mm"))
        self.zone = QComboBox()
        self.zone.setEditable(True)
        self.zone.addItems(["Asia/Shanghai", "Asia/Hong_Kong", "Asia/Taipei", "Asia/Singapore", "UTC",
                            "Europe/London", "America/New_York"])
        self.zone.setEditText(zone)
        self.cast = QPushButton()
        self.cast.setObjectName("cast_chart")
        self.from_plate = QPushButton()
        self.from_plate.setObjectName("chart_from_plate")
        for w in (self.birth_label, self.birth, self.zone_label, self.zone, self.cast, self.from_plate):
            row.addWidget(w)
        row.addStretch(1)
        bl.addLayout(row)
        self.chart_view = QTextBrowser()
        self.chart_view.setObjectName("chart_view")
        bl.addWidget(self.chart_view, 1)
        self.cast.clicked.connect(self._cast)
        self.from_plate.clicked.connect(self._from_plate)

        # relations
        self.rel_page = QWidget()
        rl = QVBoxLayout(self.rel_page)
        row = QHBoxLayout()
        self.first_label, self.second_label = QLabel(), QLabel()
        self.first, self.second = QComboBox(), QComboBox()
        for combo, name in ((self.first, "rel_first"), (self.second, "rel_second")):
            combo.setObjectName(name)
            combo.addItems(list(POSITIONS))
        self.first.setCurrentText("寅")
        self.second.setCurrentText("亥")
        self.swap = QPushButton()
        self.swap.clicked.connect(self._swap)
        for w in (self.first_label, self.first, self.swap, self.second_label, self.second):
            row.addWidget(w)
        row.addStretch(1)
        rl.addLayout(row)
        self.rel_hint = QLabel()
        self.rel_hint.setStyleSheet("color:#777")
        rl.addWidget(self.rel_hint)
        self.rel_view = QTextBrowser()
        self.rel_view.setObjectName("relations_view")
        rl.addWidget(self.rel_view, 1)
        for combo in (self.first, self.second):
            combo.currentIndexChanged.connect(self._relate)

        from shensha_plates.gui.panels.selection import SelectionPage
        self.selection = SelectionPage(model)
        self.selection.setObjectName("selection_page")
        self.tabs.addTab(self.bazi_page, "")
        self.tabs.addTab(self.rel_page, "")
        self.tabs.addTab(self.selection, "")
        self.resize(1180, 760)
        follow_model(self, model, self._on_model)
        self.chart: object = None
        self.retranslate()
        self._cast()

    # -- following the model -----------------------------------------------------------------------
    def _on_model(self, event: str) -> None:
        if event == "lang":
            self.retranslate()

    def retranslate(self) -> None:
        lang = self.model.lang
        self.setWindowTitle(tr("systems_title", lang))
        self.tabs.setTabText(0, tr("bazi_tab", lang))
        self.tabs.setTabText(1, tr("relations_tab", lang))
        self.tabs.setTabText(2, tr("selection_tab", lang))
        self.birth_label.setText(tr("birth", lang))
        self.zone_label.setText(tr("zone", lang))
        self.cast.setText(tr("make_chart", lang))
        self.from_plate.setText(tr("from_plate", lang))
        self.first_label.setText(tr("first_pos", lang))
        self.second_label.setText(tr("second_pos", lang))
        self.swap.setText(tr("swap", lang))
        self.rel_hint.setText(tr("relation_hint", lang))
        self._render_chart()
        self._relate()

    # -- Bazi --------------------------------------------------------------------------------------
    def show_chart(self, text: str, zone: str | None = None) -> bool:
        qdt = QDateTime.fromString(text[:16].replace(" ", "T"), "yyyy-MM-ddTHH:mm")
        if qdt.isValid():
            self.birth.setDateTime(qdt)
        if zone:
            self.zone.setEditText(zone)
        self.tabs.setCurrentWidget(self.bazi_page)
        return self._cast(text if not qdt.isValid() else None)

    def _cast(self, text: str | None = None) -> bool:
        text = text or self.birth.dateTime().toString("yyyy-MM-ddTHH:mm")
        try:
            opts = CalendarOptions(zone=self.zone.currentText().strip() or "Asia/Shanghai")
            self.chart, self.chart_info = chart_for(parse_datetime(text, opts), opts)
        except ShenshaError as e:
            if callable(self.on_error):
                self.on_error(str(e))
            return False
        self._render_chart()
        return True

    def _from_plate(self) -> None:
        cal = self.model.calendar
        if cal is not None:
            self.show_chart(cal.moment.strftime("%Y-%m-%dT%H:%M"), cal.options.zone)

    def _render_chart(self) -> None:
        if self.chart is None:
            return
        lang = self.model.lang
        info = self.chart_info
        heading = f"{info.moment.strftime('%Y-%m-%d %H:%M')} {info.options.zone}"
        self.chart_view.setHtml(chart_html(self.chart, lang, english=False, heading=to_lang(heading, lang)))

    # -- relations ---------------------------------------------------------------------------------
    def show_relation(self, first: str, second: str) -> None:
        for combo, value in ((self.first, first), (self.second, second)):
            combo.blockSignals(True)
            combo.setCurrentText(value)
            combo.blockSignals(False)
        self.tabs.setCurrentWidget(self.rel_page)
        self._relate()

    def show_selection(self) -> None:
        self.tabs.setCurrentWidget(self.selection)

    def _swap(self) -> None:
        self.show_relation(self.second.currentText(), self.first.currentText())

    def _relate(self, *_: object) -> None:
        a, b = self.first.currentText(), self.second.currentText()
        self.relations = relate(a, b)
        self.rel_view.setHtml(relations_html(a, b, self.relations, self.model.lang))
