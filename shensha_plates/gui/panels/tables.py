"""The square tables (方图): every spirit that is not on a disc, by its key, current column marked."""

from __future__ import annotations

from typing import Final

from PySide6.QtGui import QBrush, QColor, QFont
from PySide6.QtWidgets import QDialog, QTableWidget, QTableWidgetItem, QTabWidget, QVBoxLayout, QWidget

from shensha_plates.core.cycle import BRANCHES, STEMS, XUN_HEADS
from shensha_plates.core.engine import MONTH_NAMES, SEASONS, spirit_row
from shensha_plates.gui.describe import spirit_name, to_lang
from shensha_plates.gui.i18n import tr
from shensha_plates.gui.lifetime import follow_model
from shensha_plates.gui.model import PlateModel

__all__ = ["TablesDialog", "TABS"]

# tab title → (keys shown in it, column headers)
TABS: Final = (
    ("岁 年支", "year_branch", tuple(BRANCHES)),
    ("岁 年干", "year_stem", tuple(STEMS)),
    ("月", "month", tuple(m.removesuffix("月") for m in MONTH_NAMES)),
    ("季", "season", tuple(SEASONS)),
    ("孟仲季", "mzj", ("孟", "仲", "季")),
    ("正五九", "mgroup", ("正五九", "二六十", "三七冬", "四八腊")),
    ("旬", "xun", tuple(XUN_HEADS)),
    ("干煞", "day_stem", tuple(STEMS)),
    ("支煞", "day_branch", tuple(BRANCHES)),
)
# the tabs' titles and the headers that are words, in English (our translation); branches, stems and the
# xun's heads stay as they are
TABS_EN: Final = {
    "year_branch": ("Year branch", None), "year_stem": ("Year stem", None),
    "month": ("Month", tuple(str(m) for m in range(1, 13))),
    "season": ("Season", ("spring", "summer", "autumn", "winter")),
    "mzj": ("Month of the season", ("first", "middle", "last")),
    "mgroup": ("Months 1 5 9 …", ("1 5 9", "2 6 10", "3 7 11", "4 8 12")),
    "xun": ("Xun", None), "day_stem": ("Day stem", None), "day_branch": ("Day branch", None),
}
CURRENT: Final = QColor(255, 205, 40, 120)


class TablesDialog(QDialog):
    def __init__(self, model: PlateModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = model
        self.setObjectName("tables_dialog")
        self.tabs = QTabWidget()
        layout = QVBoxLayout(self)
        layout.addWidget(self.tabs)
        self.tables: dict[str, QTableWidget] = {}
        for title, key, _headers in TABS:
            table = QTableWidget()
            table.setObjectName(f"table_{key}")
            table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
            self.tables[key] = table
            self.tabs.addTab(table, title)
        self.resize(980, 640)
        follow_model(self, model, self._on_model)
        self.refresh()

    def _on_model(self, event: str) -> None:
        if event in ("state", "lang"):
            self.refresh()

    def refresh(self) -> None:
        lang = self.model.lang
        self.setWindowTitle(tr("tables_title", lang))
        cat = self.model.catalog
        values = self.model.plate.state.key_values()
        for i, (title, key, headers) in enumerate(TABS):
            if lang == "en":
                title, words = TABS_EN[key]
                headers = words or headers
            self.tabs.setTabText(i, to_lang(title, lang))
            rows = []
            for s in cat.spirits:
                if s.rule.kind == "ring" and not self.model.options.choice(s.id):
                    continue
                k, row = spirit_row(s.id, self.model.options, cat)
                if k == key:
                    rows.append((s, row))
            table = self.tables[key]
            table.clear()
            table.setColumnCount(len(headers))
            table.setRowCount(len(rows))
            current = values.get(key)
            table.setHorizontalHeaderLabels([("▶" if j == current else "") + to_lang(h, lang) for j, h in enumerate(headers)])
            table.setVerticalHeaderLabels([spirit_name(s, lang) for s, _ in rows])
            bold = QFont()
            bold.setBold(True)
            for r, (s, row) in enumerate(rows):
                for c, labels in enumerate(row):
                    item = QTableWidgetItem(" ".join(labels) or "·")
                    item.setToolTip(s.meaning)
                    if c == current:
                        item.setBackground(QBrush(CURRENT))
                        item.setFont(bold)
                    table.setItem(r, c, item)
            table.resizeColumnsToContents()
            del title
