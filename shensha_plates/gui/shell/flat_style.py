"""Flat scroll bars over the desktop's own style.

Fusion (Qt's style where the desktop names none) shades its scroll bars with gradients, and Qt fills
a gradient taller than about a hundred pixels in slices on its worker threads. On a two-core
machine a tall bar then took about 3 ms to paint, mostly waiting for those threads, and a turn of
a dial repaints the bars of every text pane whose length changed (three with the lesson shown).
These bars are painted in the palette's flat colours instead: a groove, a rounded handle and the
style's own arrows, in well under a tenth of a millisecond. Everything else is the desktop's style.

A style sheet would do the same but costs every widget a style-sheet pass when it is polished (about
40 ms of start-up for this window); a proxy style costs nothing until a bar is painted.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QPainter
from PySide6.QtWidgets import (QApplication, QProxyStyle, QStyle, QStyleFactory, QStyleOption, QStyleOptionComplex,
                               QStyleOptionSlider, QWidget)

__all__ = ["FlatScrollBarStyle", "install_flat_scroll_bars"]

_ARROWS = {
    (Qt.Orientation.Vertical, QStyle.SubControl.SC_ScrollBarSubLine): QStyle.PrimitiveElement.PE_IndicatorArrowUp,
    (Qt.Orientation.Vertical, QStyle.SubControl.SC_ScrollBarAddLine): QStyle.PrimitiveElement.PE_IndicatorArrowDown,
    (Qt.Orientation.Horizontal, QStyle.SubControl.SC_ScrollBarSubLine): QStyle.PrimitiveElement.PE_IndicatorArrowLeft,
    (Qt.Orientation.Horizontal, QStyle.SubControl.SC_ScrollBarAddLine): QStyle.PrimitiveElement.PE_IndicatorArrowRight,
}


class FlatScrollBarStyle(QProxyStyle):
    """The base style with its scroll bars painted flat (see the module's text)."""

    def drawComplexControl(self, control: QStyle.ComplexControl, option: QStyleOptionComplex,  # noqa: N802 - Qt's name
                           painter: QPainter, widget: QWidget | None = None) -> None:
        if control != QStyle.ComplexControl.CC_ScrollBar or not isinstance(option, QStyleOptionSlider):
            super().drawComplexControl(control, option, painter, widget)
            return
        palette = option.palette
        painter.save()
        painter.fillRect(option.rect, palette.window())
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(Qt.PenStyle.NoPen)
        slider = QStyle.SubControl.SC_ScrollBarSlider
        handle = self.subControlRect(control, option, slider, widget)  # type: ignore[arg-type]
        if option.maximum > option.minimum and handle.isValid():
            active = bool(option.activeSubControls & slider) and bool(
                option.state & (QStyle.StateFlag.State_MouseOver | QStyle.StateFlag.State_Sunken))
            painter.setBrush(palette.dark() if active else palette.mid())
            inset = max(1, min(handle.width(), handle.height()) // 6)
            box = handle.adjusted(inset, inset, -inset, -inset)
            radius = min(box.width(), box.height()) / 2
            painter.drawRoundedRect(box, radius, radius)
        painter.restore()
        for (orientation, part), arrow in _ARROWS.items():
            if orientation != option.orientation:
                continue
            rect = self.subControlRect(control, option, part, widget)  # type: ignore[arg-type]
            if rect.isValid() and not rect.isEmpty():
                sub = QStyleOption(option)
                sub.rect = rect.adjusted(2, 2, -2, -2)
                self.drawPrimitive(arrow, sub, painter, widget)


def install_flat_scroll_bars(app: QApplication) -> None:
    """Give ``app`` flat scroll bars over its current style (once: a second call changes nothing)."""
    if isinstance(app.style(), FlatScrollBarStyle):
        return
    base = QStyleFactory.create(app.style().name()) or QStyleFactory.create("Fusion")
    style = FlatScrollBarStyle(base)
    app.setStyle(style)
    _KEEP.append(style)  # Qt owns the style now; its Python half must live as long as Qt calls into it


_KEEP: list[FlatScrollBarStyle] = []
