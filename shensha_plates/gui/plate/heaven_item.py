"""The two rings of the Liu Ren plate (式盘): the heaven plate (天盘) and the twelve generals (天将).

They sit outside the lower plate's ring of earth branches and turn together with the hour (月将加时):
slot k of the heaven ring holds heaven branch k, and turning the ring by 30° × a puts heaven 子 over
earth branch a. The generals ride the heaven plate, so their ring turns with it; its slot k holds
the general standing on heaven branch k. Both are dials like the others (drag, wheel, click, hover
and the same settling animation come from :class:`~shensha_plates.gui.plate.ring_item.RingItem`); only what a slot
shows differs: one short label read upright (a branch, optionally with its month-general name, or a
general's name), drawn from a bitmap rendered at the device's scale so that a frame stays cheap.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QImage, QPainter, QPen, QPixmap, QTransform

from shensha_plates.gui.fonts import plate_font
from shensha_plates.gui.plate.bands_item import sector_path
from shensha_plates.gui.plate.ring_item import RingItem
from shensha_plates.gui.style import PALETTE, Palette, branch_angle

__all__ = ["HeavenLabel", "HeavenRingItem"]


@dataclass(frozen=True, slots=True)
class HeavenLabel:
    """What one slot of a heaven-plate ring shows."""

    text: str                # 子 … or 贵人 …
    sub: str = ""            # the month-general name under a heaven branch (登明 …), if shown
    quality: str = "mixed"   # good | bad | mixed (a general's colour); the heaven ring uses ink


class HeavenRingItem(RingItem):
    """One of the two rings (``kind`` = ``heaven`` or ``generals``)."""

    def __init__(self, ring_id: str, kind: str) -> None:
        super().__init__(ring_id, upper=False)
        self.kind = kind
        self._labels: tuple[HeavenLabel, ...] = tuple(HeavenLabel("") for _ in range(12))
        self._bitmaps: dict[tuple[HeavenLabel, float, float, bool], tuple[QPixmap, QPointF]] = {}
        self._bitmap_scale = 0.0
        self._lit: frozenset[int] = frozenset()

    # -- content ----------------------------------------------------------------------------------
    def set_labels(self, labels: Sequence[HeavenLabel], char_px: float, palette: Palette = PALETTE) -> None:
        labels = tuple(labels)
        if labels == self._labels and char_px == self.char_px and palette is self.palette:
            return
        if char_px != self.char_px or palette is not self.palette:
            self._bitmaps.clear()
        self._labels, self.char_px, self.palette = labels, char_px, palette
        self._laid_out = True
        self.update()

    def labels(self) -> tuple[HeavenLabel, ...]:
        return self._labels

    def label(self, slot: int) -> HeavenLabel:
        return self._labels[slot % 12]

    def set_lit(self, slots: frozenset[int]) -> None:
        """Mark slots (heaven branches) in the highlight colour: a lesson or transmission shown."""
        if slots != self._lit:
            self._lit = slots
            self.update()

    @property
    def lit(self) -> frozenset[int]:
        return self._lit

    def _rebuild(self) -> None:  # the base class lays out spirit names; these rings have none
        self._laid_out = True
        self.update()

    # -- drawing ------------------------------------------------------------------------------------
    def _font_px(self) -> tuple[float, float]:
        if self.kind == "heaven":
            return self.char_px * 1.4, self.char_px * 0.7
        return self.char_px * 1.3, 0.0

    def _box(self, label: HeavenLabel, vertical: bool) -> tuple[float, float]:
        main_px, sub_px = self._font_px()
        if vertical:  # where the ring runs up and down the screen, a two-character name stands in a column
            return main_px * 1.25, max(len(label.text), 1) * main_px * 1.08
        width = max(len(label.text), 1) * main_px * 1.08
        height = main_px * 1.25 + (sub_px * 1.25 if label.sub else 0.0)
        if label.sub:
            width = max(width, len(label.sub) * sub_px * 1.1)
        return width, height

    def _bitmap(self, label: HeavenLabel, scale: float, dpr: float, vertical: bool = False) -> tuple[QPixmap, QPointF]:
        """The label rendered upright at device resolution; returns it and its centre inside it."""
        key = (label, scale, dpr, vertical)
        hit = self._bitmaps.get(key)
        if hit is not None:
            return hit
        width, height = self._box(label, vertical)
        img = QImage(max(1, math.ceil(width * scale) + 4), max(1, math.ceil(height * scale) + 4),
                     QImage.Format.Format_ARGB32_Premultiplied)
        img.fill(Qt.GlobalColor.transparent)
        p = QPainter(img)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        p.setRenderHint(QPainter.RenderHint.TextAntialiasing)
        p.translate(2, 2)
        p.scale(scale, scale)
        self._paint_label(p, label, QRectF(0, 0, width, height), vertical)
        p.end()
        pix = QPixmap.fromImage(img)
        pix.setDevicePixelRatio(dpr)
        hit = (pix, QPointF((2 + width * scale / 2) / dpr, (2 + height * scale / 2) / dpr))
        self._bitmaps[key] = hit
        return hit

    def _vertical(self, k: int) -> bool:
        """Whether slot k's label is set in a column: a name of two or more characters where the
        ring runs up and down the screen (it would cross the ring's edges set in a row)."""
        if self.kind != "generals" or len(self._labels[k].text) < 2:
            return False
        return abs(math.cos(math.radians(branch_angle(k, self.orientation) + self.rotation()))) > 0.8

    def _paint_label(self, p: QPainter, label: HeavenLabel, box: QRectF, vertical: bool = False) -> None:
        main_px, sub_px = self._font_px()
        if self.kind == "heaven":
            color = self.palette.ink
            p.setFont(plate_font(main_px, bold=True))
        else:
            color = {"good": self.palette.good, "bad": self.palette.bad}.get(label.quality, self.palette.mixed)
            p.setFont(plate_font(main_px, bold=label.quality == "bad"))
        p.setPen(QPen(color))
        if vertical:
            step = main_px * 1.08
            for i, ch in enumerate(label.text):
                p.drawText(QRectF(box.left(), box.top() + i * step, box.width(), step), Qt.AlignmentFlag.AlignCenter, ch)
            return
        main_h = main_px * 1.25
        p.drawText(QRectF(box.left(), box.top(), box.width(), main_h), Qt.AlignmentFlag.AlignCenter, label.text)
        if label.sub:
            p.setFont(plate_font(sub_px))
            p.setPen(QPen(self.palette.rule))
            p.drawText(QRectF(box.left(), box.top() + main_h, box.width(), box.height() - main_h),
                       Qt.AlignmentFlag.AlignCenter, label.sub)

    def paint(self, p: QPainter, *args: object) -> None:
        if not self._laid_out:
            return
        base = p.transform()
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        mid = (self.r_in + self.r_out) / 2
        for k in self._lit:
            angle = branch_angle(k, self.orientation)
            p.fillPath(sector_path(self.r_in, self.r_out, angle - 15, angle + 15), self.palette.highlight)
        # the rules between slots turn with the ring, so that a turn can be seen
        p.setPen(QPen(self.palette.rule, max(0.5, self.char_px * 0.04)))
        for k in range(12):
            a = math.radians(branch_angle(k, self.orientation) - 15)
            p.drawLine(QPointF(self.r_in * math.cos(a), self.r_in * math.sin(a)),
                       QPointF(self.r_out * math.cos(a), self.r_out * math.sin(a)))
        self._paint_background(p)
        if not self._hidden_names:
            if self.direct_paint:
                self._paint_vector(p, base, mid)
            else:
                dpr = p.device().devicePixelRatioF() if p.device() is not None else 1.0
                scale = math.hypot(base.m11(), base.m12()) * dpr
                if scale > 0:
                    if abs(scale - self._bitmap_scale) > 1e-6:
                        self._bitmaps.clear()
                        self._bitmap_scale = scale
                    p.setTransform(QTransform())
                    # blitted pixel for pixel: without this hint Qt takes its fast copying path
                    p.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, False)
                    for k, label in enumerate(self._labels):
                        if not label.text:
                            continue
                        a = math.radians(branch_angle(k, self.orientation))
                        centre = base.map(QPointF(mid * math.cos(a), mid * math.sin(a)))
                        pix, offset = self._bitmap(label, scale, dpr, self._vertical(k))
                        p.drawPixmap(QPointF(round(centre.x() - offset.x()), round(centre.y() - offset.y())), pix)
                    p.setTransform(base)
        if self._dimmed:
            p.fillPath(self.shape(), self.palette.dim)

    def _paint_vector(self, p: QPainter, base: QTransform, mid: float) -> None:
        """Exports: real text, upright on the page whatever the ring's turn."""
        rot = self.rotation()
        for k, label in enumerate(self._labels):
            if not label.text:
                continue
            a = math.radians(branch_angle(k, self.orientation))
            t = QTransform(base)
            t.translate(mid * math.cos(a), mid * math.sin(a))
            t.rotate(-rot)
            p.setTransform(t)
            vertical = self._vertical(k)
            w, h = self._box(label, vertical)
            self._paint_label(p, label, QRectF(-w / 2, -h / 2, w, h), vertical)
        p.setTransform(base)

    @staticmethod
    def thickness(kind: str, char_px: float, sub: bool) -> float:
        """How deep a ring of this kind must be for its labels at ``char_px``."""
        if kind == "heaven":
            return char_px * (1.4 * 1.25 + (0.7 * 1.25 if sub else 0.0) + 0.3)
        return char_px * (1.3 * 1.25 + 0.3)

