"""The three transmissions drawn over the plate: 初 → 中 → 末 as arrows between heaven-plate branches.

A child of the plate group that carries the heaven rings, so that its origin is the plate's centre.
Each transmission is marked where its heaven branch stands (over the earth branch the core gives),
numbered 初 中 末, and joined to the next by an arrow bowed towards the centre. Only the transmissions
shown so far are drawn (a walk-through reveals them one by one). Never takes the mouse.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import pyqtgraph as pg
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QPainter, QPainterPath, QPen

from shensha_plates.gui.fonts import plate_font
from shensha_plates.gui.style import branch_angle

__all__ = ["ArrowsItem"]

_LABELS = ("初", "中", "末")


class ArrowsItem(pg.GraphicsObject):
    def __init__(self, parent: pg.GraphicsObject | None = None) -> None:
        super().__init__(parent)
        self.radius = 100.0
        self.char_px = 16.0
        self.orientation = "south"
        self.earth: tuple[int, ...] = ()  # the earth branch under each transmission shown, in order
        self.color = QColor("#b3261e")
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.setAcceptHoverEvents(False)
        self.setZValue(20)

    def configure(self, radius: float, char_px: float, orientation: str) -> None:
        self.prepareGeometryChange()
        self.radius, self.char_px, self.orientation = radius, char_px, orientation
        self.update()

    def set_transmissions(self, earth: Sequence[int]) -> None:
        """Show transmissions standing over these earth branches (初 first); empty hides all."""
        if tuple(earth) != self.earth:
            self.earth = tuple(earth)
            self.update()

    def _point(self, earth: int, r: float) -> QPointF:
        a = math.radians(branch_angle(earth, self.orientation))
        return QPointF(r * math.cos(a), r * math.sin(a))

    def boundingRect(self) -> QRectF:
        r = self.radius + self.char_px * 2
        return QRectF(-r, -r, 2 * r, 2 * r)

    def shape(self) -> QPainterPath:
        return QPainterPath()

    def paint(self, p: QPainter, *args: object) -> None:
        if not self.earth:
            return
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        c = self.char_px
        pen = QPen(self.color, max(1.5, c * 0.22))
        pen.setCapStyle(Qt.PenCapStyle.RoundCap)
        r_mark = self.radius
        for i in range(len(self.earth) - 1):
            a, b = self.earth[i], self.earth[i + 1]
            if a == b:
                continue  # a transmission repeated (八专, 伏吟): the mark's number says it
            start, target = self._point(a, r_mark * 0.93), self._point(b, r_mark * 0.93)
            mid = QPointF((start.x() + target.x()) / 2 * 0.55, (start.y() + target.y()) / 2 * 0.55)

            def at(t: float, s0: QPointF = start, m: QPointF = mid, e0: QPointF = target) -> QPointF:
                return QPointF((1 - t) ** 2 * s0.x() + 2 * (1 - t) * t * m.x() + t * t * e0.x(),
                               (1 - t) ** 2 * s0.y() + 2 * (1 - t) * t * m.y() + t * t * e0.y())
            # stop the curve at the edge of the target's mark, so that the head shows
            t_end = 1.0
            while t_end > 0.5 and math.hypot(at(t_end).x() - target.x(), at(t_end).y() - target.y()) < c * 1.2:
                t_end -= 0.01
            path = QPainterPath(start)
            steps = 24
            for k in range(1, steps + 1):
                path.lineTo(at(t_end * k / steps))
            end = at(t_end)
            p.setPen(pen)
            p.setBrush(Qt.BrushStyle.NoBrush)
            p.drawPath(path)
            # the arrow head, along the curve's last tangent
            q = at(t_end - 0.03)
            ang = math.atan2(end.y() - q.y(), end.x() - q.x())
            size = c * 1.1
            head = QPainterPath(end)
            head.lineTo(end.x() - size * math.cos(ang - 0.45), end.y() - size * math.sin(ang - 0.45))
            head.lineTo(end.x() - size * math.cos(ang + 0.45), end.y() - size * math.sin(ang + 0.45))
            head.closeSubpath()
            p.setPen(Qt.PenStyle.NoPen)
            p.setBrush(QBrush(self.color))
            p.drawPath(head)
        font = plate_font(c * 1.3, bold=True)
        p.setFont(font)
        seen: dict[int, int] = {}
        for i, e in enumerate(self.earth):
            k = seen.get(e, 0)
            seen[e] = k + 1
            centre = self._point(e, r_mark * 0.93 - k * c * 2.2)
            d = c * 1.9
            p.setPen(QPen(QColor("white"), max(1.0, c * 0.12)))
            p.setBrush(QBrush(self.color))
            p.drawEllipse(centre, d / 2, d / 2)
            p.setPen(QPen(QColor("white")))
            p.drawText(QRectF(centre.x() - d / 2, centre.y() - d / 2, d, d), Qt.AlignmentFlag.AlignCenter, _LABELS[i])
