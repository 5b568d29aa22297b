"""Painting a snapshot's page with a QPainter on any device (image, SVG, PDF, printer): the plates, the
caption, the table of the spirits under each branch, the legend, the source line and the folio;
where each goes is :mod:`shensha_plates.gui.export.page_layout`'s.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QFontMetricsF, QPainter, QPen

from shensha_plates.core.calendar import CalendarInfo
from shensha_plates.core.catalog import Catalog, default_catalog
from shensha_plates.core.engine import Plate
from shensha_plates.core.lang import is_trad
from shensha_plates.gui.fonts import plate_font
from shensha_plates.gui.i18n import tr
from shensha_plates.gui.export.pages import PagePlan
from shensha_plates.gui.export.options import SnapshotOptions
from shensha_plates.gui.export.page_layout import (caption_lines, fit_rect, footer_height, label_font,
                                                   paper_unit, plate_radius, plates_page_plan, plates_scene, table_height, table_rows)
from shensha_plates.gui.plate.slot_paint import draw_mark
from shensha_plates.gui.style import Palette

__all__ = ["paint_pages", "paint_plates_page", "paint_table_page", "paint_caption", "paint_table", "paint_footer",
           "source_line"]

def paint_pages(painter: QPainter, page: QRectF, plate: Plate, calendar: CalendarInfo | None,
                opts: SnapshotOptions, catalog: Catalog | None = None,
                new_page: Callable[[], object] | None = None) -> None:
    """Paint the snapshot into ``page`` (device coordinates). With ``new_page`` (PDF, print) the
    spirit table goes on a page of its own; without it, below the plates on the same canvas."""
    cat = catalog or default_catalog()
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setRenderHint(QPainter.RenderHint.TextAntialiasing)
    if new_page is not None:
        paint_plates_page(painter, page, plate, calendar, opts, cat)
        if opts.table:
            new_page()
            paint_table_page(painter, page, plate, calendar, opts, cat)
        return
    palette = opts.palette
    if not opts.transparent:
        painter.fillRect(page, palette.paper)
    unit = page.width() / 100.0
    margin = unit * 3
    y = page.top() + margin
    inner_w = page.width() - 2 * margin
    if opts.caption:
        lines = caption_lines(plate, calendar, opts.lang)
        painter.setPen(QPen(palette.ink))
        painter.setFont(plate_font(unit * 2.6))
        painter.drawText(QRectF(page.left() + margin, y, inner_w, unit * 3.6), Qt.AlignmentFlag.AlignCenter, lines[0])
        y += unit * 3.8
        painter.setFont(plate_font(unit * 1.35))
        for line in lines[1:]:
            painter.drawText(QRectF(page.left() + margin, y, inner_w, unit * 2.0), Qt.AlignmentFlag.AlignCenter, line)
            y += unit * 2.0
        y += unit * 0.6
    footer = (unit * 3.2 if opts.legend else 0) + (unit * 2.0 if opts.source else 0)
    rows = table_rows(plate, opts.lang, cat, opts.lesson, opts.nian_ming, opts.day) if opts.table else []
    table_h = table_height(painter, rows, inner_w, unit) if rows else 0.0
    plates_h = page.bottom() - margin - footer - table_h - y
    scene, rect, _keep = plates_scene(plate, opts, cat)
    target = fit_rect(rect, QRectF(page.left() + margin, y, inner_w, max(unit * 10, plates_h)))
    scene.render(painter, target, rect, Qt.AspectRatioMode.KeepAspectRatio)
    y = target.bottom() + unit * 0.8
    if rows:
        y = paint_table(painter, rows, QRectF(page.left() + margin, y, inner_w, table_h), unit, palette)
    paint_footer(painter, page, margin, unit, opts, palette)


def paint_plates_page(painter: QPainter, page: QRectF, plate: Plate, calendar: CalendarInfo | None,
                      opts: SnapshotOptions, catalog: Catalog, folio: str = "") -> PagePlan:
    """Page 1 on paper: the caption, both plates filling the page, the legend and source line."""
    palette = opts.palette
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setRenderHint(QPainter.RenderHint.TextAntialiasing)
    if not opts.transparent:
        painter.fillRect(page, palette.paper)
    unit, margin = paper_unit(page)
    lines = caption_lines(plate, calendar, opts.lang)
    if opts.caption:
        paint_caption(painter, page, lines, unit, margin, palette)
    scene, _rect, plates = plates_scene(plate, opts, catalog)
    for title in plates.titles.values():
        title.setVisible(False)   # the page sets the titles beside the plates itself
    plan = plates_page_plan(page, plates, opts, len(lines), bool(folio), caption_text=lines[0])
    for disc in plan.discs:
        # one plate at a time, the other hidden, however close the scene sets them
        for name, group in plates.groups.items():
            group.setVisible(name == disc.name)
        centre = plates.groups[disc.name].pos()
        r = plate_radius(plates, disc.name) * 1.01
        source = QRectF(centre.x() - r, centre.y() - r, 2 * r, 2 * r)
        R = disc.radius * 1.01
        scene.render(painter, QRectF(disc.cx - R, disc.cy - R, 2 * R, 2 * R), source,
                     Qt.AspectRatioMode.IgnoreAspectRatio)
    painter.setFont(label_font(unit))
    painter.setPen(QPen(palette.ink))
    for label in plan.labels:
        painter.drawText(QRectF(label.x, label.y, label.width, label.height), Qt.AlignmentFlag.AlignCenter,
                         plates.titles[label.name].text())
    paint_footer(painter, page, margin, unit * 1.15, opts, palette, folio)
    return plan


def paint_table_page(painter: QPainter, page: QRectF, plate: Plate, calendar: CalendarInfo | None,
                     opts: SnapshotOptions, catalog: Catalog, folio: str = "",
                     reserve: float = 0.0) -> float:
    """The spirits under each branch on a page of their own, in the largest type that fits (at
    least 8 pt on A4 when it can be); ``reserve`` leaves that much room at the bottom. Returns
    where the table ends."""
    palette = opts.palette
    if not opts.transparent:
        painter.fillRect(page, palette.paper)
    unit, margin = paper_unit(page)
    inner_w = page.width() - 2 * margin
    top = page.top() + margin
    if opts.caption:
        painter.setPen(QPen(palette.ink))
        painter.setFont(plate_font(unit * 2.4))
        painter.drawText(QRectF(page.left() + margin, top, inner_w, unit * 3.4), Qt.AlignmentFlag.AlignCenter,
                         caption_lines(plate, calendar, opts.lang)[0])
        top += unit * 3.8
    rows = table_rows(plate, opts.lang, catalog, opts.lesson, opts.nian_ming, opts.day)
    avail = page.bottom() - margin - footer_height(opts, unit * 1.15, bool(folio)) - top - reserve
    scale = 1.2
    for candidate in (2.2, 2.0, 1.9, 1.8, 1.7, 1.6, 1.5, 1.45, 1.4, 1.35, 1.3, 1.25):
        if table_height(painter, rows, inner_w, unit, candidate) <= avail:
            scale = candidate
            break
    end = paint_table(painter, rows, QRectF(page.left() + margin, top, inner_w, avail), unit, palette, scale)
    paint_footer(painter, page, margin, unit * 1.15, opts, palette, folio)
    return end


def paint_caption(painter: QPainter, page: QRectF, lines: list[str], unit: float, margin: float,
                   palette: Palette) -> float:
    y = page.top() + margin
    inner = QRectF(page.left() + margin, y, page.width() - 2 * margin, unit * 4.0)
    painter.setPen(QPen(palette.ink))
    painter.setFont(plate_font(unit * 2.8))
    painter.drawText(inner, Qt.AlignmentFlag.AlignCenter, lines[0])
    y += unit * 4.0
    painter.setFont(plate_font(unit * 1.4))
    for line in lines[1:]:
        painter.drawText(QRectF(inner.left(), y, inner.width(), unit * 2.2), Qt.AlignmentFlag.AlignCenter, line)
        y += unit * 2.2
    return y + unit * 0.8


def paint_table(painter: QPainter, rows: list[tuple[str, str]], box: QRectF, unit: float, palette: object,
                 scale: float = 1.15) -> float:
    font = plate_font(unit * scale)
    big = plate_font(unit * 1.7, bold=True)
    fm = QFontMetricsF(font)
    y = box.top()
    pen = QPen(palette.rule, max(0.5, unit * 0.05))  # type: ignore[attr-defined]
    for i, (branch, text) in enumerate(rows):
        r = fm.boundingRect(QRectF(0, 0, box.width() - unit * 4, 1e6), int(Qt.TextFlag.TextWordWrap), text)
        h = max(unit * 2.2, r.height() + unit * 0.6)
        if i % 2 == 0:
            painter.fillRect(QRectF(box.left(), y, box.width(), h), palette.ring_a)  # type: ignore[attr-defined]
        painter.setPen(QPen(palette.ink))  # type: ignore[attr-defined]
        painter.setFont(big)
        painter.drawText(QRectF(box.left(), y, unit * 3.5, h), Qt.AlignmentFlag.AlignCenter, branch)
        painter.setFont(font)
        painter.drawText(QRectF(box.left() + unit * 4, y + unit * 0.3, box.width() - unit * 4, h),
                         int(Qt.TextFlag.TextWordWrap) | int(Qt.AlignmentFlag.AlignLeft), text)
        painter.setPen(pen)
        painter.drawLine(QPointF(box.left(), y + h), QPointF(box.right(), y + h))
        y += h
    return y


def paint_footer(painter: QPainter, page: QRectF, margin: float, unit: float, opts: SnapshotOptions,
                  palette: object, folio: str = "") -> None:
    y = page.bottom() - margin
    if folio:
        y -= unit * 2.2
        painter.setPen(QPen(palette.ink))  # type: ignore[attr-defined]
        painter.setFont(plate_font(unit * 1.3))
        painter.drawText(QRectF(page.left() + margin, y, page.width() - 2 * margin, unit * 2.2),
                         Qt.AlignmentFlag.AlignCenter, folio)
    if opts.source:
        y -= unit * 2.0
        painter.setPen(QPen(palette.rule))  # type: ignore[attr-defined]
        painter.setFont(plate_font(unit * 1.2))
        painter.drawText(QRectF(page.left() + margin, y, page.width() - 2 * margin, unit * 2.0),
                         Qt.AlignmentFlag.AlignCenter, source_line(opts.lang))
    if opts.legend:
        y -= unit * 3.2
        items = [("good", tr("legend_good", opts.lang)), ("bad", tr("legend_bad", opts.lang)),
                 ("mixed", tr("legend_mixed", opts.lang)), (None, tr("legend_cond", opts.lang)),
                 (None, tr("legend_variant", opts.lang))]
        font = plate_font(unit * 1.2)
        fm = QFontMetricsF(font)
        widths = [fm.horizontalAdvance(t) + unit * (2.2 if q else 0.8) for q, t in items]
        x = page.left() + (page.width() - sum(widths)) / 2
        painter.setFont(font)
        for (q, text), w in zip(items, widths, strict=True):
            if q:
                draw_mark(painter, palette, q, x + unit * 0.7, y + unit * 1.4, unit * 0.4)  # type: ignore[arg-type]
                x += unit * 1.5
            painter.setPen(QPen(palette.ink))  # type: ignore[attr-defined]
            painter.drawText(QRectF(x, y, w, unit * 2.8), Qt.AlignmentFlag.AlignVCenter, text)
            x += w - (unit * 1.5 if q else 0)


def source_line(lang: str) -> str:
    """The page's source line: the book of the plates (seed 002), as resources/sources.toml names it."""
    from shensha_plates.core.catalog import SEED_BOOKS
    _, book, book_trad, _ = SEED_BOOKS["002"]
    return tr("source_line", lang, book=book_trad if is_trad(lang) else book)
