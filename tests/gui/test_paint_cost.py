"""What keeps a turn within a frame: the plate is repainted once, inside one rectangle (an hour turn
the lower plate only), and the text panes' scroll bars are flat (Fusion's gradients are filled on
worker threads, milliseconds a bar on a small machine). The times themselves are in bench/run.py."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject
from PySide6.QtGui import QColor, QRegion
from PySide6.QtWidgets import QApplication, QGraphicsView, QTextBrowser

from shensha_plates.core.engine import State
from shensha_plates.gui.shell.main_window import MainWindow


class PaintSpy(QObject):
    """The region of every paint event a widget receives, while installed on it."""

    def __init__(self) -> None:
        super().__init__()
        self.regions: list[QRegion] = []

    def eventFilter(self, obj: QObject, ev: QEvent) -> bool:  # noqa: N802 - Qt's name
        if ev.type() == QEvent.Type.Paint:
            self.regions.append(QRegion(ev.region()))  # type: ignore[attr-defined]
        return False


def test_a_state_change_repaints_the_plate_once_inside_one_rectangle(window: MainWindow) -> None:
    # pyqtgraph's default (the minimal region) repaints the union of every changed item's turned
    # box; a state change turns every disc, and the paint then took four times as long (profiled:
    # the ring bitmaps' blits 3.9 ms a change instead of 1.0)
    assert window.view.viewportUpdateMode() == QGraphicsView.ViewportUpdateMode.BoundingRectViewportUpdate
    spy = PaintSpy()
    window.view.viewport().installEventFilter(spy)
    window.view.set_reduce_motion(True)
    for st in (State.parse("丁未", 3, "甲子"), State.parse("戊申", 7, "甲戌")):
        spy.regions.clear()
        window.model.set_state(st)
        QApplication.processEvents()
        regions = [r.rectCount() for r in spy.regions]
        assert regions == [1], regions  # painted, once, one rectangle
    window.view.viewport().removeEventFilter(spy)


def test_an_hour_turn_repaints_the_lower_plate_only(window: MainWindow) -> None:
    """Only the heaven rings (round the lower plate) turn with the hour: the upper plate is left as
    it was (a disc "turned" to where it already stood, or a title set again, repainted it all)."""
    window.resize(1920, 1080)  # the plates side by side, the upper one clear of the lower's square
    window.view.set_reduce_motion(True)
    window.set_date("1998-11-30T12:00", "Asia/Shanghai", "lichun", "jie", "next-day")
    QApplication.processEvents()
    view = window.view
    upper = view.bases["upper"]
    centre = view.mapFromScene(upper.mapToScene(upper.boundingRect().center()))
    lower = view.bases["lower"]
    lower_centre = view.mapFromScene(lower.mapToScene(lower.boundingRect().center()))
    window.model.step("hour", 1)  # the first turn leaves the date behind (the status and names change)
    QApplication.processEvents()
    spy = PaintSpy()
    view.viewport().installEventFilter(spy)
    for _ in range(3):
        spy.regions.clear()
        window.model.step("hour", 1)
        QApplication.processEvents()
        rects = [r.boundingRect() for r in spy.regions]
        assert len(rects) == 1
        assert rects[0].contains(lower_centre)
        assert not rects[0].contains(centre), (rects[0], centre)
    view.viewport().removeEventFilter(spy)


def _colours_in(widget: object) -> set[int]:
    img = widget.grab().toImage()  # type: ignore[attr-defined]
    return {QColor(img.pixel(x, y)).rgb() for x in range(img.width()) for y in range(img.height())}


def test_the_text_panes_scroll_bars_are_flat(qapp: object) -> None:
    from shensha_plates.gui.shell.app import prepare_application
    from shensha_plates.gui.shell.flat_style import FlatScrollBarStyle

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
