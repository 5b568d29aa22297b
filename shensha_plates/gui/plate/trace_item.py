"""A spirit's path drawn round the plate: numbered marks outside everything the plate draws (the heaven
ring and the generals too), step by step, joined by arrows that run along the rim — never across the
plate — so a class sees how it moves (the path comes from :func:`shensha_plates.core.teaching.trace`)."""

from __future__ import annotations

import math
from itertools import pairwise
from collections.abc import Sequence

import pyqtgraph as pg
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QPainter, QPainterPath, QPen, QPolygonF

from shensha_plates.gui.fonts import plate_font
from shensha_plates.gui.style import branch_angle

__all__ = ["TraceItem"]

TRACE_COLOR = QColor("#c0392b")


class TraceItem(pg.GraphicsObject):
    def __init__(self, parent: pg.GraphicsObject | None = None) -> None:
        super().__init__(parent)
        self.radius = 100.0
        self.char_px = 13.0
        self.orientation = "south"
        self.marks: list[tuple[int, int, int]] = []  # (step number, branch, stack level)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.setZValue(20)

    def configure(self, radius: float, char_px: float, orientation: str, path: Sequence[int | None]) -> None:
        """``path``: the branch of each step (None where the spirit is absent)."""
        self.prepareGeometryChange()
        self.radius, self.char_px, self.orientation = radius, char_px, orientation
        seen: dict[int, int] = {}
        self.marks = []
        for i, b in enumerate(path):
            if b is None:
                continue
            level = seen.get(b, 0)
            seen[b] = level + 1
            self.marks.append((i + 1, b, level))
        self.update()

    def _spacing(self) -> float:
        return self.char_px * 2.7

    def _centre(self, branch: int, level: int) -> QPointF:
        a = math.radians(branch_angle(branch, self.orientation))
        r = self.radius + self._spacing() * (level + 0.8)
        return QPointF(r * math.cos(a), r * math.sin(a))

    def boundingRect(self) -> QRectF:
        depth = max((lv for _, _, lv in self.marks), default=0) + 2
        r = self.radius + self._spacing() * depth
        return QRectF(-r, -r, 2 * r, 2 * r)

    def shape(self) -> QPainterPath:
        return QPainterPath()

    def paint(self, p: QPainter, *args: object) -> None:
        if not self.marks:
            return
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        pen = QPen(TRACE_COLOR, max(1.5, self.char_px * 0.16))
        rad = self.char_px * 1.1
        centres = [self._centre(b, lv) for _, b, lv in self.marks]
        # arrows from each mark to the next, along the rim (the shorter way round; half-way, clockwise)
        r_arc = self.radius + self._spacing() * 0.8
        gap = math.degrees(rad * 1.25 / r_arc)  # where an arc leaves and meets a mark
        p.setPen(pen)
        for (_, b0, _), (_, b1, _) in pairwise(self.marks):
            a0, a1 = branch_angle(b0, self.orientation), branch_angle(b1, self.orientation)
            sweep = (a1 - a0) % 360.0
            if sweep > 180.0 + 1e-6:
                sweep -= 360.0
            if abs(sweep) < 1e-6:
                continue  # the same branch again: the stacked mark says it
            sign = 1.0 if sweep > 0 else -1.0
            start, span = a0 + sign * gap, sweep - 2 * sign * gap
            if abs(span) < 2.0:
                continue
            path = QPainterPath()
            box = QRectF(-r_arc, -r_arc, 2 * r_arc, 2 * r_arc)
            # Qt's arcs count angles anticlockwise with y up; ours grow clockwise with y down
            path.arcMoveTo(box, -start)
            path.arcTo(box, -start, -span)
            p.setBrush(Qt.BrushStyle.NoBrush)
            p.drawPath(path)
            end_a = math.radians(start + span)
            end = QPointF(r_arc * math.cos(end_a), r_arc * math.sin(end_a))
            # the head along the circle's tangent, in the direction of travel
            ux, uy = -math.sin(end_a) * sign, math.cos(end_a) * sign
            head = rad * 0.8
            left = QPointF(end.x() - ux * head - uy * head * 0.55, end.y() - uy * head + ux * head * 0.55)
            right = QPointF(end.x() - ux * head + uy * head * 0.55, end.y() - uy * head - ux * head * 0.55)
            p.setBrush(QBrush(TRACE_COLOR))
            p.drawPolygon(QPolygonF([end, left, right]))
        # the numbered marks on top
        p.setFont(plate_font(self.char_px * 1.15))
        for (n, _, _), c in zip(self.marks, centres, strict=True):
            p.setPen(QPen(TRACE_COLOR, pen.widthF()))
            p.setBrush(QBrush(QColor(255, 255, 255, 235)))
            p.drawEllipse(c, rad, rad)
            p.setPen(QPen(TRACE_COLOR))
            p.drawText(QRectF(c.x() - rad, c.y() - rad, 2 * rad, 2 * rad), Qt.AlignmentFlag.AlignCenter, str(n))
