"""The years on the plate: small tags beside the earth branch each stands on, inside the ring of earth
branches (whose cells have room either side of the branch), so that no name of a disc is covered. The
querent's 命 (本命) and 年 (行年) are filled tags past the branch clockwise; the partner's 配命 and 配年 are
hollow tags (white, ringed and lettered in another colour) on the branch's other side, so the two
people's tags never meet and stay apart in black and white. A child of the plate that carries the heaven
rings. Never takes the mouse."""

from __future__ import annotations

import math
from collections.abc import Sequence

import pyqtgraph as pg
from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFontMetricsF, QPainter, QPainterPath, QPen

from shensha_plates.gui.fonts import plate_font
from shensha_plates.gui.style import branch_angle

__all__ = ["YearsItem", "YEAR_COLOR", "PARTNER_COLOR"]

YEAR_COLOR = QColor("#1b4f8a")
PARTNER_COLOR = QColor("#7a2e5a")


class YearsItem(pg.GraphicsObject):
    def __init__(self, parent: pg.GraphicsObject | None = None) -> None:
        super().__init__(parent)
        self.r_mid = 100.0
        self.char_px = 16.0
        self.ring_width = 0.0  # the ring's width (0: no limit): a tag is made smaller to stay inside it
        self.orientation = "south"
        self.marks: tuple[tuple[int, str, int], ...] = ()  # (earth branch, tag, whose: 0 querent, 1 partner)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.setAcceptHoverEvents(False)
        self.setZValue(19)

    def configure(self, r_mid: float, char_px: float, orientation: str, ring_width: float = 0.0) -> None:
        self.prepareGeometryChange()
        self.r_mid, self.char_px, self.orientation, self.ring_width = r_mid, char_px, orientation, ring_width
        self.update()

    def set_marks(self, marks: Sequence[tuple[int, str, int]]) -> None:
        """These tags (earth branch, tag, whose), one per person and branch (the caller joins 命年)."""
        marks = tuple(marks)
        if marks != self.marks:
            self.marks = marks
            self.update()

    def tag_layout(self, branch: int, tag: str, whose: int = 0) -> tuple[QRectF, float, str]:
        """The tag's box, its letters' size and its text as drawn. The box is centred past the branch's
        character along the ring — clockwise for the querent, the other way for the partner — its near
        edge a little clear of the character whatever its width. Its words (a Chinese tag's characters)
        are set on one line or broken into lines, whichever break stays inside the branch's cell along
        the ring and is narrowest across it (beside 卯 and 酉, where the ring runs up and down, 配命 is set
        a character a line); one still wider than the ring is set a little smaller (not below 0.8 of the
        plate's characters: its edges may then reach a neighbouring ring's margin)."""
        size = self.char_px * 0.95
        metrics = QFontMetricsF(plate_font(size, bold=True))
        base = math.radians(branch_angle(branch, self.orientation))
        c, s = abs(math.cos(base)), abs(math.sin(base))
        words = tag.split(" ") if tag.isascii() else list(tag)
        room = (self.r_mid * math.pi / 12 - self.char_px * 0.89) / size  # for the box along the ring, / size
        best: tuple[float, float, float, float, str] | None = None  # past the cell, across, width, height, text
        for breaks in range(1 << max(0, len(words) - 1)):
            lines, line = [], words[0] if words else ""
            for i, word in enumerate(words[1:]):
                if breaks >> i & 1:
                    lines.append(line)
                    line = word
                else:
                    line += ("" if not tag.isascii() else " ") + word
            lines.append(line)
            per_w = max(metrics.horizontalAdvance(t) for t in lines) / size + 0.5  # width / size
            per_h = 1.2 * len(lines) + 0.15
            across, along = per_w * c + per_h * s, per_w * s + per_h * c
            key = (max(0.0, along - room), across, per_w, per_h, "\n".join(lines))
            if best is None or key[:2] < best[:2]:
                best = key
        assert best is not None
        _, across, per_w, per_h, text = best
        if self.ring_width > 0:
            size = max(self.char_px * 0.8, min(size, self.ring_width * 0.95 / across))
        width, height = size * per_w, size * per_h
        along = self.char_px * 0.89 + (width * s + height * c) / 2  # to the box's centre along the ring
        sign = -1.0 if whose else 1.0
        a = base + sign * along / max(1.0, self.r_mid)
        x, y = self.r_mid * math.cos(a), self.r_mid * math.sin(a)
        return QRectF(x - width / 2, y - height / 2, width, height), size, text

    def boundingRect(self) -> QRectF:
        r = self.r_mid + self.char_px * 6
        return QRectF(-r, -r, 2 * r, 2 * r)

    def shape(self) -> QPainterPath:
        return QPainterPath()

    def paint(self, p: QPainter, *args: object) -> None:
        if not self.marks:
            return
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        for branch, tag, whose in self.marks:
            box, size, text = self.tag_layout(branch, tag, whose)
            p.setFont(plate_font(size, bold=True))
            h = min(box.height(), box.width())
            if whose:  # the partner's: hollow, ringed in its colour
                p.setPen(QPen(PARTNER_COLOR, max(1.0, size * 0.12)))
                p.setBrush(QBrush(QColor("white")))
            else:
                p.setPen(QPen(QColor("white"), max(1.0, size * 0.08)))
                p.setBrush(QBrush(YEAR_COLOR))
            p.drawRoundedRect(box, h / 3, h / 3)
            p.setPen(QPen(PARTNER_COLOR if whose else QColor("white")))
            p.drawText(box, Qt.AlignmentFlag.AlignCenter, text)
