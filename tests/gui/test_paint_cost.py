"""What keeps a turn within a frame: the plate is repainted once, inside one rectangle, and the text panes' scroll bars are flat (Fusion's gradients are filled on worker
threads, milliseconds a bar on a small machine). The times themselves are in bench/run.py."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QApplication, QGraphicsView, QTextBrowser

from core.engine import State
from gui.shell.main_window import MainWindow


def test_a_state_change_repaints_the_plate_once_inside_one_rectangle(window: MainWindow) -> None:
    # pyqtgraph's default (the minimal region) repaints the union of every changed item's turned
    # box; a state change turns every disc, and the paint then took four times as long (profiled:
    # the ring bitmaps' blits 3.9 ms a change instead of 1.0)
    assert window.view.viewportUpdateMode() == QGraphicsView.ViewportUpdateMode.BoundingRectViewportUpdate
    regions: list[int] = []

    class PaintRegions(QObject):
        def eventFilter(self, obj: QObject, ev: QEvent) -> bool:  # noqa: N802 - Qt's name
            if ev.type() == QEvent.Type.Paint:
                regions.append(ev.region().rectCount())  # type: ignore[attr-defined]
            return False

    spy = PaintRegions()
    window.view.viewport().installEventFilter(spy)
    window.view.set_reduce_motion(True)
    for st in (State.parse("丁未", 3, "甲子"), State.parse("戊申", 7, "甲戌")):
        regions.clear()
        window.model.set_state(st)
        QApplication.processEvents()
        assert regions == [1], regions  # painted, once, one rectangle
    window.view.viewport().removeEventFilter(spy)


def _colours_in(widget: object) -> set[int]:
    img = widget.grab().toImage()  # type: ignore[attr-defined]
    return {QColor(img.pixel(x, y)).rgb() for x in range(img.width()) for y in range(img.height())}


def test_the_text_panes_scroll_bars_are_flat(qapp: object) -> None:
    from gui.shell.app import prepare_application
    from gui.shell.flat_style import FlatScrollBarStyle

    app = prepare_application()
    style = app.style()
    assert isinstance(style, FlatScrollBarStyle)
    prepare_application()
    assert app.style() is style  # installed once however often it is asked
    pane = QTextBrowser()
    pane.setPlainText("\n".join(f"第{i}行" for i in range(300)))
    pane.resize(300, 500)
    pane.show()
    QApplication.processEvents()
    bar = pane.verticalScrollBar()
    assert bar.isVisible() and bar.maximum() > 0
    # the groove and the handle in a colour each, the arrows' ink and the handle's antialiased
    # corners a few more; Fusion's shaded bar has about sixty
    colours = _colours_in(bar)
    assert len(colours) <= 16, len(colours)
    handle = QColor(app.palette().mid().color()).rgb()
    assert handle in colours  # the handle is drawn, in the palette's colour
    pane.close()
    pane.deleteLater()
