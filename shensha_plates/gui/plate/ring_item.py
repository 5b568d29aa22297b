"""One rotating disc (ring) of a plate: twelve slots of spirit names in an annulus.

The ring is centred at its parent's origin, so ``setRotation`` turns it about the plate's centre;
rotation 30° × k puts slot 0 on branch k. Text is laid out once per content change into one cached
picture per slot and replayed in :meth:`paint`; each frame only chooses how to turn each slot
(radially, flipped in the lower half so that it reads the right way up, or upright).
:meth:`shape` is the annulus, so a click in the hole reaches the rings inside.

The drag, the flick and the settling on a branch are :class:`shensha_plates.gui.plate.turning.TurningItem`'s,
which a ring is; a click, the hover and the wheel only report the branch under the pointer
(``sigClicked``, ``sigHovered``, ``sigWheel``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import pyqtgraph as pg
from PySide6.QtCore import QPointF, QRectF, Qt, Signal
from PySide6.QtGui import QBrush, QImage, QPainter, QPainterPath, QPen, QPixmap, QTransform

from shensha_plates.gui.fonts import plate_font
from shensha_plates.gui.plate import bitmap_cache
from shensha_plates.gui.plate.fit import Metrics, NameBox, SlotFit
from shensha_plates.gui.plate.slot_paint import (SlotEntry, box_rect, layout_slot, metrics_for,
                                                 paint_slot, reading_layout, reading_sizes, slot_flipped)
from shensha_plates.gui.plate.turning import TurningItem
from shensha_plates.gui.style import PALETTE, Palette, annulus_path, branch_angle

__all__ = ["RingItem"]


class RingItem(TurningItem):
    sigClicked = Signal(int)
    sigHovered = Signal(int)
    sigWheel = Signal(int)

    def __init__(self, ring_id: str, upper: bool, parent: pg.GraphicsObject | None = None) -> None:
        super().__init__(parent)
        self.ring_id = ring_id
        self.upper = upper
        self.palette: Palette = PALETTE
        self.r_in = 10.0
        self.r_out = 20.0
        self.char_px = 12.0
        self.orientation = "south"
        self.text_mode = "radial"
        # Exports paint text directly: a QPicture replayed on a device of another resolution
        # rescales its fonts, which would break fixed-size pages.
        self.direct_paint = False
        self._entries: list[tuple[SlotEntry, ...]] = [() for _ in range(12)]
        # each slot's content as a small number (the same content, the same number), for the bitmap
        # caches' keys: hashing the names of every slot on every frame cost about half a millisecond
        self._content_ids: dict[tuple[SlotEntry, ...], int] = {(): 0}
        self._content_keys: list[int] = [0] * 12
        self._laid_out_px = 0.0
        self._fits: list[SlotFit] = []
        self._fit_key: tuple[float, float, float, str] | None = None
        # each slot's readings (pinyin under the names, where they fit): the type size and the boxes
        # read upright and turned about, laid out for the plate's size on screen (logical pixels per
        # ring unit), as the names' readings must stay legible however small the plate is drawn
        self._reading_scale = 0.0
        self._reading_px: list[float] = [0.0] * 12
        self._readings: list[tuple[tuple[NameBox | None, ...], tuple[NameBox | None, ...]]] = [((), ())] * 12
        # Rotated text cannot use the glyph cache, so on screen each slot is drawn from a pixmap
        # rendered at the current device scale; exports draw vectors (direct_paint).
        # bitmaps are keyed by what a slot holds, so a state change redraws only the slots it changes
        self._pixmaps: dict[tuple[int, bool, int], tuple[QPixmap, QRectF]] = {}
        self._pixmap_scale = 0.0
        self._rest_pixmaps: dict[tuple[int, bool, int, int], tuple[QPixmap, QPointF]] = {}
        self._rest_scale = 0.0
        self._geometry: list[tuple[float, float, float]] = []
        self._geometry_key: tuple[float, float, str] | None = None
        self._laid_out = False
        self._highlight: frozenset[str] = frozenset()
        self._dimmed = False
        self._hidden_names = False
        # pyqtgraph delivers hoverEvent itself; Qt hover events are not needed

    # -- content and geometry ---------------------------------------------------------------
    def set_content(self, slots: Sequence[Sequence[SlotEntry]], char_px: float, palette: Palette = PALETTE) -> None:
        entries = [tuple(s) for s in slots]
        if entries == self._entries and char_px == self._laid_out_px and palette is self.palette:
            return  # nothing new to lay out
        if char_px != self._laid_out_px or palette is not self.palette:
            self._pixmaps.clear()
            self._rest_pixmaps.clear()
        self._laid_out_px = char_px
        self._entries = entries
        ids = self._content_ids
        self._content_keys = [ids.setdefault(e, len(ids)) for e in entries]
        self.char_px = char_px
        self.palette = palette
        self._rebuild()

    def set_geometry(self, r_in: float, r_out: float) -> None:
        if (r_in, r_out) != (self.r_in, self.r_out):
            self.prepareGeometryChange()
            self.r_in, self.r_out = r_in, r_out
            self._rebuild()

    def set_orientation(self, orientation: str) -> None:
        if orientation != self.orientation:
            self.orientation = orientation
            self._rebuild()

    def set_text_mode(self, mode: str) -> None:
        if mode != self.text_mode:
            self.text_mode = mode
            self._rebuild()

    @property
    def metrics(self) -> Metrics:
        return metrics_for(self.text_mode)

    def slot_fit(self, slot: int) -> SlotFit:
        """The fitted layout of a slot (its names' boxes and type size) for the current content."""
        return self._fits[slot]

    def set_highlight(self, spirit_ids: frozenset[str]) -> None:
        if spirit_ids != self._highlight:
            self._highlight = spirit_ids
            self.update()

    def set_dimmed(self, dimmed: bool) -> None:
        if dimmed != self._dimmed:
            self._dimmed = dimmed
            self.update()

    @property
    def dimmed(self) -> bool:
        return self._dimmed

    @property
    def names_hidden(self) -> bool:
        return self._hidden_names

    def set_names_hidden(self, hidden: bool) -> None:
        if hidden != self._hidden_names:
            self._hidden_names = hidden
            self.update()

    def entries(self, slot: int) -> tuple[SlotEntry, ...]:
        return self._entries[slot]

    def _rebuild(self) -> None:
        key = (self.r_in, self.r_out, self.char_px, self.text_mode)
        if key != self._fit_key:
            self._pixmaps.clear()  # keyed by content only: a new geometry redraws them all
            self._rest_pixmaps.clear()
            self._fit_key = key
        self._fits = [layout_slot(self.r_in, self.r_out, slot, self.char_px, self.metrics) for slot in self._entries]
        self._layout_readings(self._reading_scale)
        self._laid_out = True
        self.update()

    @property
    def has_readings(self) -> bool:
        return any(e.reading for slot in self._entries for e in slot)

    def _layout_readings(self, screen_scale: float) -> None:
        """Place the readings for a plate drawn at ``screen_scale`` logical pixels per ring unit."""
        self._reading_scale = screen_scale
        if not self.has_readings:
            self._reading_px = [0.0] * 12
            self._readings = [((), ())] * 12
            return
        for k, (entries, fit) in enumerate(zip(self._entries, self._fits, strict=True)):
            # the size at which the most of the slot's readings fit (read either way), the larger of equals
            best: tuple[int, float, tuple[tuple[NameBox | None, ...], tuple[NameBox | None, ...]]] | None = None
            for size in reading_sizes(fit.char_px, screen_scale):
                both = (reading_layout(entries, fit, self.metrics, False, self.r_in, self.r_out, size),
                        reading_layout(entries, fit, self.metrics, True, self.r_in, self.r_out, size))
                count = sum(b is not None for side in both for b in side)
                if best is None or count > best[0]:
                    best = (count, size, both)
            self._reading_px[k] = best[1] if best is not None else 0.0
            self._readings[k] = best[2] if best is not None else ((), ())

    def readings(self, slot: int, flipped: bool) -> tuple[NameBox | None, ...]:
        """Where each name of ``slot`` has its reading (read upright or turned about), None where the
        slot has no room for it; empty when no readings are shown."""
        return self._readings[slot][1 if flipped else 0]

    def slot_flipped_now(self, slot: int) -> bool:
        """Whether ``slot`` is read turned about at the ring's present rotation."""
        _x, _y, angle = self._slot_geometry()[slot]
        return slot_flipped((angle + self.rotation()) % 360, self.text_mode, self._fits[slot].horizontal)

    def lay_out_readings_for(self, screen_scale: float) -> None:
        """Lay the readings out for a plate drawn at ``screen_scale`` logical pixels per ring unit
        (painting does this itself; for measuring without painting)."""
        if abs(screen_scale - self._reading_scale) > 1e-9:
            self._layout_readings(screen_scale)
            self._pixmaps.clear()
            self._rest_pixmaps.clear()

    def _paint_background(self, p: QPainter) -> None:
        """What turns with the disc besides its names: the notch on the outer edge where slot 0 begins
        (on the rule between slots, not over slot 0's names, which it crossed out in presentation), the
        cells and rules behind the disc being a fixed :class:`shensha_plates.gui.plate.bands_item.BandsItem`."""
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        a0, a1 = branch_angle(0, self.orientation), branch_angle(1, self.orientation)
        a = a0 - math.copysign(15.0, ((a1 - a0 + 180) % 360) - 180)  # half a slot back from slot 0's centre
        tip = QPointF(self.r_out * math.cos(math.radians(a)), self.r_out * math.sin(math.radians(a)))
        p.setBrush(QBrush(self.palette.rule))
        p.setPen(Qt.PenStyle.NoPen)
        w = self.char_px * 0.35
        left = QPointF((self.r_out - w) * math.cos(math.radians(a - 2.2)), (self.r_out - w) * math.sin(math.radians(a - 2.2)))
        right = QPointF((self.r_out - w) * math.cos(math.radians(a + 2.2)), (self.r_out - w) * math.sin(math.radians(a + 2.2)))
        p.drawPolygon([tip, left, right])

    # -- QGraphicsItem -----------------------------------------------------------------------
    def boundingRect(self) -> QRectF:
        r = self.r_out + 2
        return QRectF(-r, -r, 2 * r, 2 * r)

    def shape(self) -> QPainterPath:
        return annulus_path(self.r_in, self.r_out)

    def paint(self, p: QPainter, *args: object) -> None:
        if not self._laid_out:
            return
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        p.setRenderHint(QPainter.RenderHint.TextAntialiasing)
        # in motion, plain sampling keeps a frame cheap; at rest the slots are resampled smoothly
        p.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, not (self.animating or self.dragging))
        p.save()
        self._paint_background(p)
        p.restore()
        rot = self.rotation()
        base = p.transform()
        upright = self.text_mode == "upright"
        scale = 0.0
        if not self.direct_paint:
            dpr = p.device().devicePixelRatioF() if p.device() is not None else 1.0
            scale = math.hypot(base.m11(), base.m12()) * dpr
            if scale > 0 and abs(scale - self._pixmap_scale) > 0.08 * scale:
                self._pixmaps.clear()
                self._pixmap_scale = scale
            # (compared loosely: the same scale read through another rotation differs in its last bits)
            if scale > 0 and abs(scale - self._rest_scale) > 1e-6 * scale:
                self._rest_pixmaps.clear()  # blitted unscaled, so they must match the device exactly
                self._rest_scale = scale
        if self.has_readings and scale > 0:
            logical = scale / (p.device().devicePixelRatioF() if p.device() is not None else 1.0)
            if abs(logical - self._reading_scale) > 0.08 * logical:  # a new size on screen: fit them again
                self.lay_out_readings_for(logical)
        moving = self.animating or self.dragging
        # bitmaps have transparent margins: edge antialiasing only costs time
        p.setRenderHint(QPainter.RenderHint.Antialiasing, self.direct_paint)
        # at rest on a branch, and the plate itself not turned on screen: the painter's transform
        # less the ring's own rotation (the plate's transform) must be a plain scale and shift
        plate_t = QTransform().rotate(-rot) * base
        at_rest = (not moving and not self.direct_paint and scale > 0
                   and abs(plate_t.m12()) < 1e-9 * scale and abs(plate_t.m21()) < 1e-9 * scale
                   and plate_t.m11() > 0 and plate_t.m22() > 0 and abs(rot / 30.0 - round(rot / 30.0)) < 1e-6)
        dpr = p.device().devicePixelRatioF() if p.device() is not None else 1.0
        if at_rest:
            # the rest bitmaps are blitted pixel for pixel: with smooth resampling asked for, Qt's
            # raster engine takes its filtering path even at a whole-pixel offset, ten times slower
            p.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, False)
        for k, (x, y, angle) in enumerate(self._slot_geometry()):
            fit = self._fits[k]
            if not fit.boxes:
                continue
            screen = (angle + rot) % 360
            flipped = slot_flipped(screen, self.text_mode, fit.horizontal)
            if upright:  # each character stands straight on screen (in steps while turning)
                glyph = round(-(screen + 90.0) / 15.0) * 15 % 360
            else:
                glyph = 180 if flipped else 0
            turn = angle + 90.0  # the slot's frame: −y outward
            if at_rest and not self._highlight and not self._hidden_names:
                # at rest: a bitmap already turned to its place on screen, blitted without resampling
                pix, offset = self._rest_pixmap(k, flipped, glyph, round(turn + rot) % 360, dpr)
                centre = base.map(QPointF(x, y))
                p.setTransform(QTransform())
                p.drawPixmap(QPointF(round(centre.x() - offset.x()), round(centre.y() - offset.y())), pix)
                continue
            t = QTransform(base)
            t.translate(x, y)
            t.rotate(turn)
            p.setTransform(t)
            mid = (self.r_in + self.r_out) / 2
            if self._highlight:
                p.setRenderHint(QPainter.RenderHint.Antialiasing)
                for e, b in zip(self._entries[k], fit.flipped_boxes if flipped else fit.boxes, strict=True):
                    if e.spirit_id in self._highlight:
                        p.fillRect(box_rect(b, mid).adjusted(-1, -1, 1, 1), self.palette.highlight)
            if self._hidden_names:
                continue
            if self.direct_paint:
                paint_slot(p, self._entries[k], fit, mid, self.palette, self.metrics, flipped, glyph,
                           self.readings(k, flipped), self._reading_px[k])
            elif scale > 0:
                pix, bounds = self._slot_pixmap(k, flipped, glyph)
                t.translate(bounds.left(), bounds.top())
                t.scale(1.0 / self._pixmap_scale, 1.0 / self._pixmap_scale)
                p.setTransform(t)
                p.drawPixmap(0, 0, pix)
        p.setTransform(base)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        if self._hidden_names:
            p.setPen(QPen(self.palette.rule))
            p.setFont(plate_font(self.char_px))
            for x, y, _ in self._slot_geometry():
                p.drawText(QRectF(x - self.char_px, y - self.char_px, 2 * self.char_px, 2 * self.char_px),
                           Qt.AlignmentFlag.AlignCenter, "？")
        if self._dimmed:
            p.fillPath(self.shape(), self.palette.dim)

    def _slot_geometry(self) -> list[tuple[float, float, float]]:
        """Centre (x, y) and angle of each slot in ring coordinates (cached per geometry)."""
        key = (self.r_in, self.r_out, self.orientation)
        if self._geometry_key != key:
            mid = (self.r_in + self.r_out) / 2
            self._geometry = []
            for k in range(12):
                angle = branch_angle(k, self.orientation)
                self._geometry.append((mid * math.cos(math.radians(angle)), mid * math.sin(math.radians(angle)), angle))
            self._geometry_key = key
        return self._geometry

    def _slot_bounds(self, k: int) -> QRectF:
        mid = (self.r_in + self.r_out) / 2
        fit = self._fits[k]
        if not fit.boxes:
            return QRectF()
        # the union of the boxes' rectangles (see box_rect), in plain numbers: the first paint asks
        # for some two hundred of these
        boxes = list(fit.boxes) + [b for turned in self._readings[k] for b in turned if b is not None]
        x0 = min(b.x0 for b in boxes)
        x1 = max(b.x1 for b in boxes)
        y0 = mid - max(b.rho1 for b in boxes)
        y1 = mid - min(b.rho0 for b in boxes)
        # a turned character (upright text) may reach a little past its cell
        m = 2 + (fit.char_px * 0.25 if self.text_mode == "upright" else 0.0)
        return QRectF(x0 - m, y0 - m, x1 - x0 + 2 * m, y1 - y0 + 2 * m)

    def _paint_into(self, ip: QPainter, k: int, flipped: bool, glyph: int) -> None:
        ip.setRenderHint(QPainter.RenderHint.Antialiasing)
        ip.setRenderHint(QPainter.RenderHint.TextAntialiasing)
        paint_slot(ip, self._entries[k], self._fits[k], (self.r_in + self.r_out) / 2, self.palette, self.metrics,
                   flipped, glyph, self.readings(k, flipped), self._reading_px[k])

    def _rest_pixmap(self, k: int, flipped: bool, glyph: int, screen_turn: int,
                     dpr: float) -> tuple[QPixmap, QPointF]:
        """A slot's names rendered already turned by ``screen_turn`` degrees on screen, at device
        resolution; returns it and the slot centre's position inside it (logical pixels)."""
        key = (self._content_keys[k], flipped, glyph, screen_turn)
        hit = self._rest_pixmaps.get(key)
        if hit is None:
            # drawn at an earlier start from exactly this (see bitmap_cache: everything the drawing reads;
            # the slot's fit and readings are pure functions of the entries, the radii, the type size,
            # the metrics and the readings' scale, and fit.py is in the program's stamp)
            stored = bitmap_cache.digest(self._entries[k], self.r_in, self.r_out, self.char_px, self.text_mode,
                                         self._reading_scale, flipped, glyph, screen_turn, self._rest_scale,
                                         self._pixmap_scale, dpr, lasting=(self.palette, self.metrics))
            hit = bitmap_cache.lookup(stored)
            if hit is not None:
                self._rest_pixmaps[key] = hit
                return hit
            bounds = self._slot_bounds(k)
            s = self._rest_scale  # device pixels per ring unit
            turn = QTransform()
            turn.rotate(screen_turn)
            turn.scale(s, s)
            box = turn.mapRect(bounds)
            img = QImage(max(1, math.ceil(box.width()) + 2), max(1, math.ceil(box.height()) + 2),
                         QImage.Format.Format_ARGB32_Premultiplied)
            img.fill(Qt.GlobalColor.transparent)
            ip = QPainter(img)
            ip.translate(1 - box.left(), 1 - box.top())
            ip.setTransform(turn, True)
            if screen_turn % 90 == 0 or self._pixmap_scale <= 0:
                self._paint_into(ip, k, flipped, glyph)  # square to the screen: text drawn directly
            else:
                # turned text cannot use the glyph cache and costs about ten times as much to draw:
                # turn the slot's bitmap once instead (smoothly), and keep the result
                slot_pix, slot_bounds = self._slot_pixmap(k, flipped, glyph)
                ip.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
                ip.translate(slot_bounds.left(), slot_bounds.top())
                ip.scale(1.0 / self._pixmap_scale, 1.0 / self._pixmap_scale)
                ip.drawPixmap(0, 0, slot_pix)
            ip.end()
            pix = QPixmap.fromImage(img)
            pix.setDevicePixelRatio(dpr)
            hit = (pix, QPointF((1 - box.left()) / dpr, (1 - box.top()) / dpr))
            self._rest_pixmaps[key] = hit
            bitmap_cache.record(stored, img, dpr, hit[1])
        return hit

    def _slot_pixmap(self, k: int, flipped: bool, glyph: int) -> tuple[QPixmap, QRectF]:
        key = (self._content_keys[k], flipped, glyph)
        hit = self._pixmaps.get(key)
        if hit is None:
            bounds = self._slot_bounds(k)
            s = self._pixmap_scale
            img = QImage(max(1, math.ceil(bounds.width() * s)), max(1, math.ceil(bounds.height() * s)),
                         QImage.Format.Format_ARGB32_Premultiplied)
            img.fill(Qt.GlobalColor.transparent)
            ip = QPainter(img)
            ip.scale(s, s)
            ip.translate(-bounds.left(), -bounds.top())
            self._paint_into(ip, k, flipped, glyph)
            ip.end()
            hit = (QPixmap.fromImage(img), bounds)
            self._pixmaps[key] = hit
        return hit

    # -- pointer ------------------------------------------------------------------------------
    def branch_at(self, scene_pos: QPointF) -> int:
        """The fixed branch under a scene point (whatever the ring's rotation)."""
        a = self._pointer_angle(scene_pos)
        top = 6 if self.orientation == "south" else 0
        return round((a + 90.0) / 30.0 + top) % 12

    def mouseClickEvent(self, ev: object) -> None:
        if ev.button() == Qt.MouseButton.LeftButton:  # type: ignore[attr-defined]
            ev.accept()  # type: ignore[attr-defined]
            self.sigClicked.emit(self.branch_at(ev.scenePos()))  # type: ignore[attr-defined]

    def hoverEvent(self, ev: object) -> None:
        if not ev.isExit():  # type: ignore[attr-defined]
            self.sigHovered.emit(self.branch_at(ev.scenePos()))  # type: ignore[attr-defined]

    def wheelEvent(self, ev: object) -> None:
        if ev.modifiers() & Qt.KeyboardModifier.ControlModifier:  # type: ignore[attr-defined]
            ev.ignore()  # type: ignore[attr-defined]
            return
        ev.accept()  # type: ignore[attr-defined]
        self.sigWheel.emit(1 if ev.delta() < 0 else -1)  # type: ignore[attr-defined]
