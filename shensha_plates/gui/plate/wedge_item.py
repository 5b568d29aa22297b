"""A translucent wedge that marks the selected branch across every ring of a plate."""

from __future__ import annotations

import pyqtgraph as pg
from PySide6.QtCore import QPointF, QRectF
from PySide6.QtGui import QBrush, QPainter, QPainterPath
from PySide6.QtWidgets import QGraphicsItem

from shensha_plates.gui.style import PALETTE, Palette, branch_angle

__all__ = ["WedgeItem"]


class WedgeItem(pg.GraphicsObject):
    def __init__(self, parent: pg.GraphicsObject | None = None) -> None:
        super().__init__(parent)
        self.radius = 100.0
        self.branch: int | None = None
        self.orientation = "south"
        self.palette: Palette = PALETTE
        self.setAcceptedMouseButtons(self.acceptedMouseButtons().__class__(0))
        self.setAcceptHoverEvents(False)
        self._path = QPainterPath()
        # a translucent antialiased fill is costly to redo on every frame: keep it as a bitmap
        self.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)

    def configure(self, radius: float, orientation: str, palette: Palette = PALETTE, cached: bool = True) -> None:
        self.radius, self.orientation, self.palette = radius, orientation, palette
        self.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache if cached
                          else QGraphicsItem.CacheMode.NoCache)
        self._rebuild()

    def set_branch(self, branch: int | None) -> None:
        if branch != self.branch:
            self.branch = branch
            self._rebuild()

    def _rebuild(self) -> None:
        self.prepareGeometryChange()
        path = QPainterPath()
        if self.branch is not None:
            centre = branch_angle(self.branch, self.orientation)
            r = self.radius
            path.moveTo(QPointF(0, 0))
            path.arcTo(QRectF(-r, -r, 2 * r, 2 * r), -(centre - 15), -30)
            path.closeSubpath()
        self._path = path
        self.update()

    def boundingRect(self) -> QRectF:
        return self._path.boundingRect().adjusted(-1, -1, 1, 1)

    def shape(self) -> QPainterPath:
        return QPainterPath()  # never takes the mouse

    def paint(self, p: QPainter, *args: object) -> None:
        if self.branch is None:
            return
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        p.fillPath(self._path, QBrush(self.palette.select))
