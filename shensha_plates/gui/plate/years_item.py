"""The querent's years on the plate: a small tag 命 (本命) and 年 (行年) beside the earth branch each
stands on, inside the ring of earth branches (whose cells have room either side of the branch), so
that no name of a disc is covered. A child of the plate that carries the heaven rings. Never takes
the mouse."""

from __future__ import annotations

import math
from collections.abc import Sequence

import pyqtgraph as pg
from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QPainter, QPainterPath, QPen

from shensha_plates.gui.fonts import plate_font
from shensha_plates.gui.style import branch_angle

__all__ = ["YearsItem", "YEAR_COLOR"]

YEAR_COLOR = QColor("#1b4f8a")


class YearsItem(pg.GraphicsObject):
    def __init__(self, parent: pg.GraphicsObject | None = None) -> None:
        super().__init__(parent)
        self.r_mid = 100.0
        self.char_px = 16.0
        self.orientation = "south"
        self.marks: tuple[tuple[int, str], ...] = ()  # (earth branch, tag)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.setAcceptHoverEvents(False)
        self.setZValue(19)

    def configure(self, r_mid: float, char_px: float, orientation: str) -> None:
        self.prepareGeometryChange()
        self.r_mid, self.char_px, self.orientation = r_mid, char_px, orientation
        self.update()

    def set_marks(self, marks: Sequence[tuple[int, str]]) -> None:
        """Tags on these earth branches; two on one branch are joined (命年)."""
        joined: dict[int, str] = {}
        for branch, tag in marks:
            joined[branch] = joined.get(branch, "") + tag
        if tuple(joined.items()) != self.marks:
            self.marks = tuple(joined.items())
            self.update()

    def tag_centre(self, branch: int) -> tuple[float, float]:
        """Where a branch's tag stands: past the branch's character, clockwise along the ring."""
        offset = math.degrees(self.char_px * 1.6 / max(1.0, self.r_mid))
        a = math.radians(branch_angle(branch, self.orientation) + offset)
        return self.r_mid * math.cos(a), self.r_mid * math.sin(a)

    def boundingRect(self) -> QRectF:
        r = self.r_mid + self.char_px * 2
        return QRectF(-r, -r, 2 * r, 2 * r)

    def shape(self) -> QPainterPath:
        return QPainterPath()

    def paint(self, p: QPainter, *args: object) -> None:
        if not self.marks:
            return
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        size = self.char_px * 0.95
        p.setFont(plate_font(size, bold=True))
        for branch, tag in self.marks:
            x, y = self.tag_centre(branch)
            w, h = size * (len(tag) + 0.5), size * 1.35
            box = QRectF(x - w / 2, y - h / 2, w, h)
            p.setPen(QPen(QColor("white"), max(1.0, size * 0.08)))
            p.setBrush(QBrush(YEAR_COLOR))
            p.drawRoundedRect(box, h / 3, h / 3)
            p.setPen(QPen(QColor("white")))
            p.drawText(box, Qt.AlignmentFlag.AlignCenter, tag)
