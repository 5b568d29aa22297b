"""The export and print dialogs of the window: the user picks the parts of the page and the format;
the choices are remembered. The work itself is :mod:`shensha_plates.gui.export.snapshot`'s."""

from __future__ import annotations

from dataclasses import replace

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import (
    QCheckBox, QComboBox, QDialog, QDialogButtonBox, QFormLayout, QSpinBox, QWidget,
)

from shensha_plates.core.cycle import ascii_int
from shensha_plates.gui.i18n import tr
from shensha_plates.gui.export.options import PAPERS, SnapshotOptions

__all__ = ["ExportOptionsDialog", "load_snapshot_options", "save_snapshot_options"]

_LABELS = {
    "zh-Hans": {"table": "附各支神煞表", "legend": "图例", "caption": "标题（年月旬日）", "source": "出处行",
                "transparent": "透明背景（PNG/SVG）", "paper_look": "仿旧纸色（不用白纸）", "landscape": "横向", "paper": "纸张", "width": "PNG 宽度（像素）",
                "dpi": "分辨率（DPI）", "lesson": "附课传（天盘、天将、四课三传及所乘神煞）"},
    "zh-Hant": {"table": "附各支神煞表", "legend": "圖例", "caption": "標題（年月旬日）", "source": "出處行",
                "transparent": "透明背景（PNG/SVG）", "paper_look": "仿舊紙色（不用白紙）", "landscape": "橫向", "paper": "紙張", "width": "PNG 寬度（像素）",
                "dpi": "解析度（DPI）", "lesson": "附課傳（天盤、天將、四課三傳及所乘神煞）"},
    # our translation
    "en": {"table": "the spirits under each branch (table)", "legend": "legend", "caption": "caption (year, month, xun, day)",
           "source": "source line", "transparent": "transparent background (PNG/SVG)",
           "paper_look": "cream paper colour (not white)", "landscape": "landscape", "paper": "Paper",
           "width": "PNG width (pixels)", "dpi": "Resolution (DPI)",
           "lesson": "the lesson (heaven plate, generals, four lessons, three transmissions and their spirits)"},
}


def load_snapshot_options(q: QSettings, base: SnapshotOptions) -> SnapshotOptions:
    """The export choices remembered in ``q`` (the window's settings) over ``base``; a damaged value
    falls back to ``base``'s."""

    def flag(key: str, default: bool) -> bool:
        v = q.value(f"export/{key}", default)
        return v if isinstance(v, bool) else str(v).lower() in ("true", "1")

    def number(key: str, default: int, lo: int, hi: int) -> int:
        raw = q.value(f"export/{key}", default)
        v = raw if type(raw) is int else ascii_int(str(raw).strip())  # never ١٢ or ²
        return v if v is not None and lo <= v <= hi else default

    paper = str(q.value("export/paper", base.paper))
    return replace(base, table=flag("table", base.table), legend=flag("legend", base.legend),
                   caption=flag("caption", base.caption), source=flag("source", base.source),
                   transparent=flag("transparent", base.transparent), landscape=flag("landscape", base.landscape),
                   paper_look=flag("paper_look", base.paper_look),
                   paper=paper if paper in PAPERS else base.paper, width=number("width", base.width, 64, 20000),
                   dpi=number("dpi", base.dpi, 36, 2400))


def save_snapshot_options(q: QSettings, opts: SnapshotOptions) -> None:
    for key in ("table", "legend", "caption", "source", "transparent", "paper_look", "landscape", "paper", "width",
                "dpi"):
        q.setValue(f"export/{key}", getattr(opts, key))


class ExportOptionsDialog(QDialog):
    def __init__(self, opts: SnapshotOptions, lang: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("export_options")
        self.setWindowTitle(tr("export", lang))
        L = _LABELS[lang]
        form = QFormLayout(self)
        self.checks: dict[str, QCheckBox] = {}
        for key in ("caption", "table", "legend", "source", "transparent", "paper_look", "landscape"):
            cb = QCheckBox(L[key])
            cb.setChecked(bool(getattr(opts, key)))
            self.checks[key] = cb
            form.addRow(cb)
        self.lesson_check: QCheckBox | None = None
        if opts.lesson is not None:  # the state has a lesson: it may go on the page
            self.lesson_check = QCheckBox(L["lesson"])
            self.lesson_check.setObjectName("export_lesson")
            self.lesson_check.setChecked(True)
            form.addRow(self.lesson_check)
        self.paper = QComboBox()
        self.paper.addItems(list(PAPERS))
        self.paper.setCurrentText(opts.paper)
        form.addRow(L["paper"], self.paper)
        self.width_box = QSpinBox()
        self.width_box.setRange(64, 20000)
        self.width_box.setValue(opts.width)
        form.addRow(L["width"], self.width_box)
        self.dpi = QSpinBox()
        self.dpi.setRange(36, 2400)
        self.dpi.setValue(opts.dpi)
        form.addRow(L["dpi"], self.dpi)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)
        self._base = opts

    def options(self) -> SnapshotOptions:
        checked = {k: cb.isChecked() for k, cb in self.checks.items()}
        return replace(self._base, paper=self.paper.currentText(), width=self.width_box.value(), dpi=self.dpi.value(),
                       caption=checked["caption"], table=checked["table"], legend=checked["legend"],
                       source=checked["source"], transparent=checked["transparent"], landscape=checked["landscape"],
                       paper_look=checked["paper_look"],
                       lesson=self._base.lesson if self.lesson_check is not None and self.lesson_check.isChecked()
                       else None)
