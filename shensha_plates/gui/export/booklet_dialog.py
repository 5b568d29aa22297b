"""The window's 文件 → 全年年历 entry: choose the year and the paper, then the booklet is written with a
progress bar whose cancel button stops it and leaves no file behind (the work is
:func:`shensha_plates.gui.export.booklet.write_booklet`'s)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QApplication, QCheckBox, QComboBox, QDialog, QDialogButtonBox, QFileDialog, QFormLayout, QProgressDialog,
    QWidget,
)

from shensha_plates.core.cycle import PILLARS, XUN_HEADS
from shensha_plates.core.engine import State
from shensha_plates.core.errors import ShenshaError
from shensha_plates.gui.describe import to_lang
from shensha_plates.gui.export.booklet import BookletCancelled, BookletOptions, booklet_pages, write_booklet
from shensha_plates.gui.i18n import tr

__all__ = ["BookletDialog", "make_booklet", "booklet_from_window"]

_LABELS = {
    "zh-Hans": {"year": "年", "xun": "旬（全年不动）", "paper": "纸张", "landscape": "横向",
                "paper_look": "仿旧纸色（不用白纸）", "cancel": "取消"},
    "zh-Hant": {"year": "年", "xun": "旬（全年不動）", "paper": "紙張", "landscape": "橫向",
                "paper_look": "仿舊紙色（不用白紙）", "cancel": "取消"},
    # our translation
    "en": {"year": "Year", "xun": "Xun (kept all year)", "paper": "Paper", "landscape": "landscape",
           "paper_look": "cream paper colour (not white)", "cancel": "Cancel"},
}


class BookletDialog(QDialog):
    """Year, xun, paper and look of the booklet."""

    def __init__(self, base: BookletOptions, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("booklet_options")
        lang = base.lang
        L = _LABELS[lang]
        self.setWindowTitle(tr("booklet", lang))
        form = QFormLayout(self)
        self.year = QComboBox()
        self.year.addItems([to_lang(p, lang) + (" year" if lang == "en" else "") for p in PILLARS])
        self.year.setCurrentIndex(PILLARS.index(base.year_name) if base.year_name in PILLARS else 0)
        form.addRow(L["year"], self.year)
        self.xun = QComboBox()
        self.xun.addItems(list(XUN_HEADS))
        self.xun.setCurrentText(XUN_HEADS[base.first.xun])
        form.addRow(L["xun"], self.xun)
        self.paper = QComboBox()
        self.paper.addItems(["A4", "A3"])
        self.paper.setCurrentText(base.paper)
        form.addRow(L["paper"], self.paper)
        self.landscape = QCheckBox(L["landscape"])
        self.landscape.setChecked(base.landscape)
        form.addRow(self.landscape)
        self.paper_look = QCheckBox(L["paper_look"])
        self.paper_look.setChecked(base.paper_look)
        form.addRow(self.paper_look)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)
        self._base = base

    def options(self) -> BookletOptions:
        from dataclasses import replace
        first = State.parse(PILLARS[self.year.currentIndex()], 1, self.xun.currentText())
        return replace(self._base, first=first, paper=self.paper.currentText(), landscape=self.landscape.isChecked(),
                       paper_look=self.paper_look.isChecked())


def make_booklet(parent: QWidget | None, path: str | Path, opts: BookletOptions,
                 replace_read_only: bool = False) -> Path | None:
    """Write the booklet with a progress dialog. Returns the path, or None when the user cancelled
    (no file is written then). Bad options or an unwritable folder raise ShenshaError."""
    lang = opts.lang
    total = len(booklet_pages())
    dlg = QProgressDialog(tr("booklet_progress", lang, what=""), _LABELS[lang]["cancel"], 0, total, parent)
    dlg.setObjectName("booklet_progress")
    dlg.setWindowTitle(tr("booklet", lang))
    dlg.setWindowModality(Qt.WindowModality.WindowModal)
    dlg.setMinimumDuration(0)
    dlg.setAutoClose(True)
    dlg.setValue(0)

    def progress(done: int, n: int, what: str) -> bool:
        dlg.setMaximum(n)
        dlg.setLabelText(tr("booklet_progress", lang, what=what))
        dlg.setValue(done)
        QApplication.processEvents()
        return not dlg.wasCanceled()
    try:
        return write_booklet(path, opts, progress=progress, replace_read_only=replace_read_only)
    except BookletCancelled:
        return None
    finally:
        dlg.reset()
        dlg.deleteLater()


def booklet_from_window(window: object) -> Path | None:
    """The menu action: the options dialog, a file name, then the booklet. Errors go to the
    window's message line (``window.show_message``)."""
    model = window.model  # type: ignore[attr-defined]
    lang = model.lang
    view = window.view.config  # type: ignore[attr-defined]
    year = model.state.year_name if len(model.state.year_name) == 2 else "甲子"
    base = BookletOptions(first=State.parse(year, 1, XUN_HEADS[model.state.xun]), lang=lang, view=view,
                          options=model.options)
    dlg = BookletDialog(base, window)  # type: ignore[arg-type]
    try:
        if dlg.exec() != QDialog.DialogCode.Accepted:
            return None
        opts = dlg.options()
    finally:
        dlg.deleteLater()  # a closed dialog is deleted, never kept by its parent window
    path, _ = QFileDialog.getSaveFileName(window, tr("booklet", lang),  # type: ignore[arg-type]
                                          f"{opts.year_name}.pdf", "PDF (*.pdf)")
    if not path:
        return None
    if not path.lower().endswith(".pdf"):
        path += ".pdf"
    from shensha_plates.gui.export.options import ReadOnlyError
    try:
        try:
            done = make_booklet(window, path, opts)  # type: ignore[arg-type]
        except ReadOnlyError:
            if not window.confirm_replace(path):  # type: ignore[attr-defined]
                raise
            done = make_booklet(window, path, opts, replace_read_only=True)  # type: ignore[arg-type]
    except ShenshaError as e:
        window.show_message(str(e))  # type: ignore[attr-defined]
        return None
    except (OSError, MemoryError) as e:  # never out of the slot: one message
        window.show_message(f"cannot write {path!r}: {getattr(e, 'strerror', None) or e or 'out of memory'}")  # type: ignore[attr-defined]
        return None
    if done is not None:
        window.statusBar().showMessage(str(done), 6000)  # type: ignore[attr-defined]
    return done
