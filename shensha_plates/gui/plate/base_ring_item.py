"""The fixed ring of the twelve branches (地盘) around a plate, with the 24 mountains optionally outside."""

from __future__ import annotations

import math

import pyqtgraph as pg
from PySide6.QtCore import QPointF, QRectF, Qt, Signal
from PySide6.QtGui import QBrush, QPainter, QPainterPath, QPen, QPicture

from shensha_plates.core.cycle import BRANCHES, MOUNTAINS
from shensha_plates.gui.fonts import plate_font
from shensha_plates.gui.plate import bitmap_cache
from shensha_plates.gui.style import PALETTE, Palette, annulus_path, branch_angle

__all__ = ["BaseRingItem"]


class BaseRingItem(pg.GraphicsObject):
    sigClicked = Signal(int)
    sigHovered = Signal(int)

    def __init__(self, parent: pg.GraphicsObject | None = None) -> None:
        super().__init__(parent)
        self.r_in = 100.0
        self.r_out = 120.0
        self.mountains = False
        self.orientation = "south"
        self.palette: Palette = PALETTE
        self.char_px = 16.0
        self._pic: QPicture | None = None
        self._configured = False
        self._cached = True
        self._kept = bitmap_cache.Kept()
        self.direct_paint = False  # exports: no QPicture (its fonts rescale on other devices)
        # pyqtgraph delivers hoverEvent itself; Qt hover events are not needed

    @property
    def outer_radius(self) -> float:
        return self.r_out + (self.char_px * 1.9 if self.mountains else 0.0)

    def configure(self, r_in: float, char_px: float, orientation: str, mountains: bool,
                  palette: Palette = PALETTE, cached: bool = True) -> None:
        self.prepareGeometryChange()
        # on screen the ring of branches never changes between state changes: keep it as a bitmap
        # (between starts too: bitmap_cache); exports draw it directly
        self._cached = cached
        self._kept.forget()
        self.r_in = r_in
        self.char_px = char_px
        self.r_out = r_in + char_px * 1.9
        self.orientation = orientation
        self.mountains = mountains
        self.palette = palette
        self._pic = None  # recorded when first wanted (a turned view: see paint)
        self._configured = True
        self.update()

    def _draw(self, p: QPainter) -> None:
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        ring = QPainterPath()
        ring.addEllipse(QPointF(0, 0), self.r_out, self.r_out)
        hole = QPainterPath()
        hole.addEllipse(QPointF(0, 0), self.r_in, self.r_in)
        p.fillPath(ring.subtracted(hole), QBrush(self.palette.base))
        p.setPen(QPen(self.palette.base_text, max(0.5, self.char_px * 0.03)))
        for k in range(12):
            a = math.radians(branch_angle(k, self.orientation) - 15)
            p.drawLine(QPointF(self.r_in * math.cos(a), self.r_in * math.sin(a)),
                       QPointF(self.r_out * math.cos(a), self.r_out * math.sin(a)))
        font = plate_font(self.char_px * 1.15, bold=True)
        p.setFont(font)
        mid = (self.r_in + self.r_out) / 2
        for k, ch in enumerate(BRANCHES):
            a = math.radians(branch_angle(k, self.orientation))
            x, y = mid * math.cos(a), mid * math.sin(a)
            s = self.char_px * 1.4
            p.drawText(QRectF(x - s / 2, y - s / 2, s, s), Qt.AlignmentFlag.AlignCenter, ch)
        if self.mountains:
            r0, r1 = self.r_out, self.r_out + self.char_px * 1.9
            p.setPen(QPen(self.palette.rule, max(0.5, self.char_px * 0.04)))
            p.setBrush(Qt.BrushStyle.NoBrush)
            p.drawEllipse(QPointF(0, 0), r1, r1)
            small = plate_font(self.char_px * 0.9)
            p.setFont(small)
            midm = (r0 + r1) / 2
            for i, ch in enumerate(MOUNTAINS):
                # 壬 sits 15° before 子, 子 on 子, 癸 15° after, …
                branch_pos = (i - 1) / 2.0
                a = math.radians(branch_angle(branch_pos, self.orientation))
                x, y = midm * math.cos(a), midm * math.sin(a)
                s = self.char_px * 1.1
                is_branch = ch in BRANCHES
                p.setPen(QPen(self.palette.ink if is_branch else self.palette.good))
                p.drawText(QRectF(x - s / 2, y - s / 2, s, s), Qt.AlignmentFlag.AlignCenter, ch)
                edge = math.radians(branch_angle(branch_pos - 0.25, self.orientation))
                p.setPen(QPen(self.palette.rule, max(0.4, self.char_px * 0.03)))
                p.drawLine(QPointF(r0 * math.cos(edge), r0 * math.sin(edge)),
                           QPointF(r1 * math.cos(edge), r1 * math.sin(edge)))

    def boundingRect(self) -> QRectF:
        r = self.outer_radius + 2
        return QRectF(-r, -r, 2 * r, 2 * r)

    def shape(self) -> QPainterPath:
        return annulus_path(self.r_in, self.outer_radius)

    def paint(self, p: QPainter, *args: object) -> None:
        if self.direct_paint:  # exports: a QPicture would rescale on a device of another resolution
            p.save()
            self._draw(p)
            p.restore()
        elif self._configured:
            if not (self._cached and bitmap_cache.paint_kept(
                    p, self._kept, ("base", self.r_in, self.char_px, self.orientation, self.mountains), (self.palette,),
                    self.boundingRect(), self._draw)):
                if self._pic is None:
                    pic = QPicture()
                    recorder = QPainter(pic)
                    self._draw(recorder)
                    recorder.end()
                    self._pic = pic
                p.drawPicture(0, 0, self._pic)

    def branch_at(self, scene_pos: QPointF) -> int:
        parent = self.parentItem()
        pt = parent.mapFromScene(scene_pos) if parent is not None else scene_pos
        a = math.degrees(math.atan2(pt.y(), pt.x()))
        top = 6 if self.orientation == "south" else 0
        return round((a + 90.0) / 30.0 + top) % 12

    def mouseClickEvent(self, ev: object) -> None:
        if ev.button() == Qt.MouseButton.LeftButton:  # type: ignore[attr-defined]
            ev.accept()  # type: ignore[attr-defined]
            self.sigClicked.emit(self.branch_at(ev.scenePos()))  # type: ignore[attr-defined]

    def hoverEvent(self, ev: object) -> None:
        if not ev.isExit():  # type: ignore[attr-defined]
            self.sigHovered.emit(self.branch_at(ev.scenePos()))  # type: ignore[attr-defined]
