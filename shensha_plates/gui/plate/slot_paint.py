"""A slot of names on a disc: what it holds (:class:`SlotEntry`), how its names are laid out in the
annulus sector (fitted by :mod:`shensha_plates.gui.plate.fit`) and painted, with the quality marks
(○ ● ◐) that let a black-and-white print tell auspicious from inauspicious names. Pure drawing: the
disc that turns these slots is :class:`shensha_plates.gui.plate.ring_item.RingItem`; the lens, the
spotlight and the exports paint names with the same functions.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from collections.abc import Sequence
from typing import Final

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFontMetricsF, QPainter, QPen

from shensha_plates.gui.fonts import plate_font
from shensha_plates.gui.plate.fit import Metrics, NameBox, SlotFit, fit_slot, reading_boxes
from shensha_plates.gui.style import Palette

__all__ = ["SlotEntry", "quality_color", "draw_mark", "layout_slot", "name_rects", "paint_slot", "slot_flipped",
           "box_rect", "entry_specs", "metrics_for", "METRICS", "UPRIGHT_METRICS", "reading_layout", "reading_sizes",
           "READING_MIN_PX", "READING_SHARES"]


@dataclass(frozen=True, slots=True)
class SlotEntry:
    """One name on a ring slot, with the cues it is drawn with."""

    spirit_id: str
    text: str
    quality: str          # good | bad | mixed
    suffix: str = ""      # a stem or trigram label the rule names (drawn in the accent colour)
    conditional: bool = False
    has_variants: bool = False
    dimmed: bool = False  # a conditional name whose condition does not hold on this plate
    reading: str = ""     # the name's pinyin, drawn under it where the slot has room (empty: none asked)


def quality_color(palette: Palette, quality: str) -> QColor:
    return {"good": palette.good, "bad": palette.bad}.get(quality, palette.mixed)


def draw_mark(p: QPainter, palette: Palette, quality: str, cx: float, cy: float, r: float) -> None:
    """The second cue beside colour: ○ auspicious, ● inauspicious, ◐ mixed."""
    color = quality_color(palette, quality)
    p.setPen(QPen(color, max(0.8, r * 0.35)))
    rect = QRectF(cx - r, cy - r, 2 * r, 2 * r)
    if quality == "good":
        p.setBrush(Qt.BrushStyle.NoBrush)
        p.drawEllipse(rect)
    elif quality == "bad":
        p.setBrush(QBrush(color))
        p.drawEllipse(rect)
    else:
        p.setBrush(Qt.BrushStyle.NoBrush)
        p.drawEllipse(rect)
        p.setBrush(QBrush(color))
        p.drawPie(rect, 90 * 16, 180 * 16)


METRICS: Final = Metrics()
# Upright text turns each character to stand straight on screen: at rest a slot is turned a multiple
# of 30°, and an em square turned 30° or 60° spans 1.366 em, so the cells are made that large.
# Upright characters of a name run along the radius, which is slanted on screen in most slots: the
# characters of two neighbouring names would read across as well as along (天耳 beside 天喜 as 天天 /
# 耳喜), so each name is laid on a light band of its colour that joins its characters, and the bands
# are kept apart by a wider gap.
UPRIGHT_METRICS: Final = Metrics(adv=1.38, step=1.38, suffix=1.0, gap=0.3, grouped=True)
SPARSE_CAP = 1.3  # a slot with room to spare sets its names up to this much above the ring's size


def metrics_for(text_mode: str) -> Metrics:
    return UPRIGHT_METRICS if text_mode == "upright" else METRICS


def entry_specs(entries: Sequence[SlotEntry], metrics: Metrics) -> list[tuple[int, float]]:
    return [metrics.spec(e.text, e.suffix) for e in entries]


def layout_slot(r_in: float, r_out: float, entries: Sequence[SlotEntry], char_px: float,
                metrics: Metrics = METRICS) -> SlotFit:
    """Where a slot's names go and how large (a pure function of the ring's radii, the names and
    the type's metrics): see :func:`shensha_plates.gui.plate.fit.fit_slot`."""
    return fit_slot(r_in, r_out, entry_specs(entries, metrics), metrics, char_px * SPARSE_CAP)


def name_rects(fit: SlotFit, entries: Sequence[SlotEntry], metrics: Metrics, flipped: bool) -> list[NameBox]:
    """The part of each name's box that its text covers (the name centred along its box)."""
    out = []
    boxes = fit.flipped_boxes if flipped else fit.boxes
    for i, (e, b) in enumerate(zip(entries, boxes, strict=True)):
        length = metrics.length(e.text, e.suffix) * fit.char_px
        if fit.wrapped and fit.wrapped[i]:  # two columns, each half the name
            chars = math.ceil(len(e.text) / 2)
            length = metrics.length(e.text[:chars], e.suffix) * fit.char_px
        if fit.horizontal:
            mid = (b.x0 + b.x1) / 2
            out.append(NameBox(mid - length / 2, mid + length / 2, b.rho0, b.rho1))
        else:
            mid = (b.rho0 + b.rho1) / 2
            out.append(NameBox(b.x0, b.x1, mid - length / 2, mid + length / 2))
    return out


def box_rect(b: NameBox, mid: float) -> QRectF:
    """A box in the slot's painting frame: origin at the slot's centre (radius ``mid``), −y outward."""
    return QRectF(b.x0, mid - b.rho1, b.x1 - b.x0, b.rho1 - b.rho0)


def slot_flipped(screen_angle: float, text_mode: str, horizontal: bool) -> bool:
    """Whether a slot at ``screen_angle`` is read turned about: radial text in the lower half;
    upright text so that names run left to right or downwards."""
    if text_mode != "upright":
        return 0 < screen_angle % 360 < 180
    a = math.radians(screen_angle)
    if horizontal:  # unturned, a row reads clockwise
        return -math.sin(a) + math.cos(a) < 0
    return -math.cos(a) - math.sin(a) < 0  # unturned, a column reads inwards


# A reading (pinyin) under a name is set no smaller than this on screen (logical pixels: Latin letters
# with tone marks below it cannot be read), and at one of these shares of the name's own type: the
# largest at which the most of a slot's readings fit (a ruby is about half its base; where the plate
# is drawn large, a quarter is still legible and finds room in many more slots).
READING_MIN_PX: Final = 9.0
READING_SHARES: Final = (0.45, 0.35, 0.25)
_LINE: Final = 1.15  # a reading's line height, in its type size


def reading_sizes(char_px: float, screen_scale: float) -> tuple[float, ...]:
    """The type sizes (ring units, largest first) a slot's readings may take, for names of ``char_px``
    on a plate drawn at ``screen_scale`` logical pixels per ring unit."""
    floor = READING_MIN_PX / screen_scale if screen_scale > 0 else 0.0
    return tuple(sorted({max(floor, share * char_px) for share in READING_SHARES}, reverse=True))


def _advance(text: str, size: float) -> float:
    return QFontMetricsF(plate_font(size)).horizontalAdvance(text)


def reading_layout(entries: Sequence[SlotEntry], fit: SlotFit, metrics: Metrics, flipped: bool, r_in: float,
                   r_out: float, size: float) -> tuple[NameBox | None, ...]:
    """Each name's reading box in slot coordinates, or None where it does not fit (see
    :func:`shensha_plates.gui.plate.fit.reading_boxes`); readings of ``size`` (ring units)."""
    if not fit.boxes or size <= 0 or not any(e.reading for e in entries):
        return (None,) * len(entries)
    widths = [_advance(e.reading, size) if e.reading else 0.0 for e in entries]
    boxes = fit.flipped_boxes if flipped else fit.boxes
    return reading_boxes(boxes, name_rects(fit, entries, metrics, flipped), widths, size * _LINE, r_in, r_out,
                         flipped, metrics.pad * fit.char_px)


def _paint_readings(p: QPainter, entries: Sequence[SlotEntry], readings: Sequence[NameBox | None], size: float,
                    mid: float, palette: Palette, flipped: bool) -> None:
    p.setFont(plate_font(size))
    for e, b in zip(entries, readings, strict=True):
        if b is None:
            continue
        p.setOpacity(0.3 if e.dimmed else 1.0)
        p.setPen(QPen(quality_color(palette, e.quality)))
        rect = box_rect(b, mid)
        if flipped:  # read turned about, like the name above it
            p.save()
            p.translate(rect.center())
            p.rotate(180)
            p.drawText(QRectF(-rect.width() / 2, -rect.height() / 2, rect.width(), rect.height()),
                       Qt.AlignmentFlag.AlignCenter, e.reading)
            p.restore()
        else:
            p.drawText(rect, Qt.AlignmentFlag.AlignCenter, e.reading)
    p.setOpacity(1.0)


def paint_slot(p: QPainter, entries: Sequence[SlotEntry], fit: SlotFit, mid: float, palette: Palette,
               metrics: Metrics = METRICS, flipped: bool = False, glyph_turn: float = 0.0,
               readings: Sequence[NameBox | None] = (), reading_px: float = 0.0) -> None:
    """Paint a slot's names with painter ``p`` in the slot's frame (see :func:`box_rect`).

    Each character is turned by ``glyph_turn`` degrees about its own cell (180° for a slot read
    turned about, so that it reads the right way up; any angle for upright text). ``readings``:
    where each name's pinyin goes (:func:`reading_layout`, None where there is no room), in type
    of ``reading_px``."""
    c = fit.char_px
    if c <= 0:
        return
    if readings and reading_px > 0:
        _paint_readings(p, entries, readings, reading_px, mid, palette, flipped)
    regular = plate_font(c)
    bold = plate_font(c, bold=True)
    small = plate_font(c * 0.72)
    adv, step = metrics.adv * c, metrics.step * c
    for idx, (e, b, ink) in enumerate(zip(entries, fit.flipped_boxes if flipped else fit.boxes,
                                          name_rects(fit, entries, metrics, flipped), strict=True)):
        p.setOpacity(0.3 if e.dimmed else 1.0)  # a conditional name the plate does not put in force
        rect = box_rect(ink, mid)
        color = quality_color(palette, e.quality)
        # cells along the name from its first character: down a column / rightwards along a row,
        # or from the other end when the slot is read turned about
        cells: list[tuple[QRectF, str, bool]] = []
        pos = 0.0
        wrapped = bool(fit.wrapped) and fit.wrapped[idx]
        half = math.ceil(len(e.text) / 2)
        pieces = [(ch, adv, False) for ch in e.text] + ([(e.suffix, metrics.suffix * c, True)] if e.suffix else [])
        col_w = rect.width() / 2 if wrapped else rect.width()
        for n_piece, (ch, size, is_suffix) in enumerate(pieces):
            column = 0
            if wrapped and n_piece == half:
                pos = 0.0  # the second column starts again at the top
            if wrapped and n_piece >= half:
                column = 1
            if fit.horizontal:
                x = rect.right() - pos - size if flipped else rect.left() + pos
                cell = QRectF(x, rect.top(), size, rect.height())
            else:
                y = rect.bottom() - pos - size if flipped else rect.top() + pos
                # the first column on the right (upright), on the left turned about
                x = rect.left() if not wrapped else (
                    rect.left() + (column if flipped else 1 - column) * col_w)
                cell = QRectF(x, y, col_w, size)
            cells.append((cell, ch, is_suffix))
            pos += size
        mark = metrics.mark * c
        if fit.horizontal:
            mx = rect.right() - pos - mark * 0.5 if flipped else rect.left() + pos + mark * 0.5
            mark_at = QPointF(mx, rect.center().y())
        else:
            my = rect.bottom() - pos - mark * 0.5 if flipped else rect.top() + pos + mark * 0.5
            mark_at = QPointF(cells[-1][0].center().x(), my)
        if metrics.grouped and cells:
            band = cells[0][0].united(cells[-1][0])
            inset = band.width() * 0.1 if not fit.horizontal else band.height() * 0.1
            band = band.adjusted(inset, 0, -inset, 0) if not fit.horizontal else band.adjusted(0, inset, 0, -inset)
            tint = QColor(color)
            tint.setAlpha(34)
            p.setPen(Qt.PenStyle.NoPen)
            p.setBrush(QBrush(tint))
            radius = min(band.width(), band.height()) / 2
            p.drawRoundedRect(band, radius, radius)
        for cell, ch, is_suffix in cells:
            if is_suffix:
                p.setFont(small)
                p.setPen(QPen(palette.rule))
            else:
                p.setFont(bold if e.quality == "bad" else regular)
                p.setPen(QPen(color))
            if glyph_turn:
                centre = cell.center()
                p.save()
                p.translate(centre)
                p.rotate(glyph_turn)
                p.drawText(QRectF(-step, -step, 2 * step, 2 * step), Qt.AlignmentFlag.AlignCenter, ch)
                p.restore()
            else:
                p.drawText(cell, Qt.AlignmentFlag.AlignCenter, ch)
        draw_mark(p, palette, e.quality, mark_at.x(), mark_at.y(), c * 0.11)
        box = box_rect(b, mid)
        if e.conditional:
            pen = QPen(palette.rule, max(0.8, c * 0.06), Qt.PenStyle.DashLine)
            p.setPen(pen)
            p.setBrush(Qt.BrushStyle.NoBrush)
            p.drawRoundedRect(box.adjusted(1, 1, -1, -1), 3, 3)
        if e.has_variants:
            p.setPen(QPen(palette.rule, max(0.8, c * 0.07)))
            corner = box.bottomLeft() if flipped else box.topRight()
            sx = 1 if flipped else -1
            cx, cy, r = corner.x() + sx * c * 0.14, corner.y() - sx * c * 0.14, c * 0.11
            for a in (0, 60, 120):
                dx, dy = r * math.cos(math.radians(a)), r * math.sin(math.radians(a))
                p.drawLine(QPointF(cx - dx, cy - dy), QPointF(cx + dx, cy + dy))
    p.setOpacity(1.0)
