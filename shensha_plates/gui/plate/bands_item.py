"""The fixed bands behind a plate's discs: the annuli, their alternating branch cells and rules.

The bands do not turn (each cell stays under its branch), so they are drawn once as a bitmap at
device resolution (kept between starts too: :mod:`shensha_plates.gui.plate.bitmap_cache`); only the
names on the discs move. This keeps an animation frame cheap.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import pyqtgraph as pg
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QPainter, QPainterPath, QPen

from shensha_plates.gui.plate import bitmap_cache
from shensha_plates.gui.style import PALETTE, Palette, branch_angle

__all__ = ["BandsItem", "sector_path"]


def sector_path(r_in: float, r_out: float, a0: float, a1: float) -> QPainterPath:
    """The annular sector between screen angles ``a0`` and ``a1`` (degrees, clockwise, y down)."""
    path = QPainterPath()
    path.arcMoveTo(QRectF(-r_out, -r_out, 2 * r_out, 2 * r_out), -a0)
    path.arcTo(QRectF(-r_out, -r_out, 2 * r_out, 2 * r_out), -a0, -(a1 - a0))
    path.arcTo(QRectF(-r_in, -r_in, 2 * r_in, 2 * r_in), -a1, (a1 - a0))
    path.closeSubpath()
    return path


class BandsItem(pg.GraphicsObject):
    def __init__(self, parent: pg.GraphicsObject | None = None) -> None:
        super().__init__(parent)
        self.bands: list[tuple[float, float, bool, float]] = []  # (r_in, r_out, upper, char_px)
        self.orientation = "south"
        self.palette: Palette = PALETTE
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self._cached = True
        self._kept = bitmap_cache.Kept()

    def configure(self, bands: Sequence[tuple[float, float, bool, float]], orientation: str,
                  palette: Palette = PALETTE, cached: bool = True) -> None:
        self.prepareGeometryChange()
        self.bands = list(bands)
        self.orientation = orientation
        self.palette = palette
        self._cached = cached  # exports draw directly
        self._kept.forget()
        self.update()

    def boundingRect(self) -> QRectF:
        r = max((b[1] for b in self.bands), default=1.0) + 2
        return QRectF(-r, -r, 2 * r, 2 * r)

    def shape(self) -> QPainterPath:
        return QPainterPath()

    def paint(self, p: QPainter, *args: object) -> None:
        if self._cached and bitmap_cache.paint_kept(p, self._kept, ("bands", tuple(self.bands), self.orientation),
                                                    (self.palette,), self.boundingRect(), self._draw):
            return
        self._draw(p)

    def _draw(self, p: QPainter) -> None:
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        for r_in, r_out, upper, c in self.bands:
            a_fill = self.palette.upper_a if upper else self.palette.ring_a
            b_fill = self.palette.upper_b if upper else self.palette.ring_b
            for k in range(12):
                centre = branch_angle(k, self.orientation)
                p.fillPath(sector_path(r_in, r_out, centre - 15, centre + 15), a_fill if k % 2 == 0 else b_fill)
            p.setPen(QPen(self.palette.rule, max(0.6, c * 0.05)))
            p.setBrush(Qt.BrushStyle.NoBrush)
            p.drawEllipse(QPointF(0, 0), r_in, r_in)
            p.drawEllipse(QPointF(0, 0), r_out, r_out)
            p.setPen(QPen(self.palette.rule, max(0.4, c * 0.03)))
            for k in range(12):
                a = math.radians(branch_angle(k, self.orientation) - 15)
                p.drawLine(QPointF(r_in * math.cos(a), r_in * math.sin(a)),
                           QPointF(r_out * math.cos(a), r_out * math.sin(a)))
