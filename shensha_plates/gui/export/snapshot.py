"""Plate snapshots: a page (not a screenshot) as PNG, SVG, PDF, print or clipboard image.

A snapshot renders fresh plate items in a plain scene at a fixed rectangle, with an explicit size,
so that the same state and options give the same file whatever the window or screen. The page holds
the plates, a caption with the state in words (and the date and conventions when it came from a
date), optionally the spirits under each branch as a table, a legend of colours and marks, and the
source line. Files are written to a temporary file beside the target and renamed into place, so a
failure never leaves a partial file behind.
"""

from __future__ import annotations

import os
import uuid
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Final
from collections.abc import Callable

from PySide6.QtCore import (QBuffer, QIODevice, QMarginsF, QMessageLogContext, QPointF, QRectF, Qt, QtMsgType,
                            QUuid, qInstallMessageHandler)
from PySide6.QtGui import (
    QColor, QFont, QFontMetricsF, QImage, QPageLayout, QPageSize, QPainter, QPdfWriter, QPen,
)
from PySide6.QtWidgets import QGraphicsScene

from shensha_plates.core.datafile import ReadOnlyTarget, output_path, refuse_read_only
from shensha_plates.core.datafile import write_atomic as core_write_atomic
from shensha_plates.core.calendar import CalendarInfo
from shensha_plates.core.catalog import Catalog, default_catalog
from shensha_plates.core.cycle import BRANCHES
from shensha_plates.core.engine import Plate
from shensha_plates.core.lang import is_lang, is_trad
from shensha_plates.core.liuren import Ke
from shensha_plates.core.liuren.nianming import NianMing
from shensha_plates.core.errors import ShenshaError
from shensha_plates.core.text import branch_sections
from shensha_plates.gui.describe import section_name, state_label
from shensha_plates.gui.fonts import plate_font
from shensha_plates.gui.i18n import tr
from shensha_plates.gui.export.encode import encode_png, pin_pdf_dates
from shensha_plates.gui.export.lesson_page import in_force, lesson_rows, place_heaven
from shensha_plates.gui.export.pages import PagePlan, place_labels, plan_plates
from shensha_plates.gui.plate.scene import PlateScene, ViewConfig
from shensha_plates.gui.plate.slot_paint import draw_mark
from shensha_plates.gui.style import PALETTE, Palette

__all__ = ["SnapshotOptions", "ExportError", "ReadOnlyError", "export", "checked_target", "render_image", "paint_pages", "PAPERS",
           "page_count", "PRINT_PALETTE", "paint_plates_page", "paint_table_page", "plates_page_plan",
           "min_name_pt", "page_rect", "min_name_px"]

PAPERS: Final = {"A4": QPageSize.PageSizeId.A4, "A3": QPageSize.PageSizeId.A3,
                 "Letter": QPageSize.PageSizeId.Letter}
FORMATS: Final = ("png", "svg", "pdf")
MAX_SIDE: Final = 20000  # pixels, either side of a PNG

# White paper for print: the cream of the screen greys a printed page and eats toner. The names keep
# their colours and their second cue (○ light / ● bold / ◐), so a black-and-white print still
# tells auspicious from inauspicious; the ring bands are pale neutral greys.
PRINT_PALETTE: Final = replace(
    PALETTE, paper=QColor("#ffffff"), ring_a=QColor("#f7f7f5"), ring_b=QColor("#ececea"),
    upper_a=QColor("#f6f7f4"), upper_b=QColor("#e9ebe6"), rule=QColor("#6f6a60"), base=QColor("#2f2f2f"),
    base_text=QColor("#ffffff"), dim=QColor(255, 255, 255, 170))


@dataclass(frozen=True)
class _PrintView(ViewConfig):
    """The plates' view with the white print palette."""

    @property
    def palette(self) -> Palette:
        return PRINT_PALETTE


class ExportError(ShenshaError, ValueError):
    """A snapshot cannot be written (bad options, unwritable or vanished folder, full disk…)."""


class ReadOnlyError(ExportError):
    """The file to be replaced is read-only (the window asks whether to replace it anyway)."""


@dataclass(frozen=True)
class SnapshotOptions:
    fmt: str = "png"
    width: int = 2400             # PNG pixel width (height follows the page)
    height: int | None = None     # PNG pixel height; None: from the page's shape
    dpi: int = 150                # PNG resolution stored in the file; PDF resolution
    paper: str = "A4"
    landscape: bool = False
    table: bool = True
    legend: bool = True
    caption: bool = True
    source: bool = True
    transparent: bool = False
    lang: str = "zh-Hans"
    view: ViewConfig = field(default_factory=ViewConfig)
    lesson: Ke | None = None      # include this lesson (课传): heaven rings drawn, lesson rows in the table
    nian_ming: NianMing | None = None  # the querent's years on that lesson (a row of the table)
    paper_look: bool = False      # the cream "paper" of the screen instead of white

    @property
    def render_view(self) -> ViewConfig:
        """The view the plates are drawn with: white paper unless the paper look or high contrast
        (already white) is asked for."""
        if self.paper_look or self.view.high_contrast or isinstance(self.view, _PrintView):
            return self.view
        return _PrintView(**{f.name: getattr(self.view, f.name) for f in fields(self.view)})

    @property
    def palette(self) -> Palette:
        return self.render_view.palette

    def validate(self) -> SnapshotOptions:
        if self.fmt not in FORMATS:
            raise ExportError(f"invalid format: {self.fmt!r} (expected one of {', '.join(FORMATS)})")
        if not 64 <= self.width <= MAX_SIDE or (self.height is not None and not 64 <= self.height <= MAX_SIDE):
            raise ExportError(f"invalid size: {self.width}×{self.height or 'auto'} (expected 64–{MAX_SIDE} pixels a side)")
        if not 36 <= self.dpi <= 2400:
            raise ExportError(f"invalid dpi: {self.dpi} (expected 36–2400)")
        if self.paper not in PAPERS:
            raise ExportError(f"invalid paper: {self.paper!r} (expected one of {', '.join(PAPERS)})")
        if not is_lang(self.lang):
            raise ExportError(f"invalid language: {self.lang!r} (expected zh-Hans, zh-Hant or en)")
        return self


# -- the page ------------------------------------------------------------------------------------

def _plates_scene(plate: Plate, opts: SnapshotOptions, catalog: Catalog) -> tuple[QGraphicsScene, QRectF, PlateScene]:
    scene = QGraphicsScene()
    plates = PlateScene()
    for ring in plates.rings.values():
        ring.direct_paint = True
    # the heaven rings only with a lesson to turn them to
    view = opts.render_view if opts.lesson is not None else replace(opts.render_view, heaven=False)
    for group in plates.build(view, catalog, cached=False):
        scene.addItem(group)
    for base in plates.bases.values():
        base.direct_paint = True
    plates.set_names(plate, opts.lang, None if opts.lesson is None else in_force(opts.lesson, plate))
    for rp in plate.rings:
        plates.rings[rp.ring.id].set_anchor(rp.anchor, animate=False)
    if opts.lesson is not None and plates.heaven_group is not None:
        place_heaven(plates, opts.lesson, opts.lang, view.general_names)
    return scene, plates.scene_rect(), plates


def _caption(plate: Plate, calendar: CalendarInfo | None, lang: str) -> list[str]:
    lines = [state_label(plate.state, lang)]
    if calendar is not None:
        conv = calendar.options
        words = {
            "lichun": tr("ys_lichun", lang), "lichun-day": tr("ys_lichun_day", lang),
            "new-year": tr("ys_new_year", lang), "jie": tr("mb_jie", lang), "lunar": tr("mb_lunar", lang),
            "next-day": tr("zh_next", lang), "same-day": tr("zh_same", lang),
        }
        lines.append(f"{calendar.moment.strftime('%Y-%m-%d %H:%M')} {conv.zone}　"
                     f"{tr('year_start', lang)}：{words[conv.year_start]}　{tr('month_basis', lang)}："
                     f"{words[conv.month_basis]}　{tr('zi_hour', lang)}：{words[conv.zi_hour]}")
    if plate.options.variants:
        lines.append(tr("variants", lang) + "：" + "，".join(f"{a}={b}" for a, b in plate.options.variants))
    return lines


def _table_rows(plate: Plate, lang: str, catalog: Catalog, lesson: Ke | None = None,
                nian_ming: NianMing | None = None) -> list[tuple[str, str]]:
    rows = []
    for b in range(12):
        if lang == "en":  # the conditions in English: "〔if the Soaring Snake over it〕"
            from shensha_plates.core.english import condition_english
            sections = branch_sections(plate, b, lambda p: section_name(p, catalog, lang), False, "〔if {}〕",
                                       condition_english)
        else:
            sections = branch_sections(plate, b, lambda p: section_name(p, catalog, lang), is_trad(lang), "〔{}〕")
        rows.append((BRANCHES[b], "　".join(f"【{label}】{' '.join(names)}" for label, names in sections)))
    if lesson is not None:  # the lesson, and the spirits on each lesson and transmission
        rows += lesson_rows(lesson, plate, lang, nian_ming)
    return rows


@dataclass
class _Layout:
    caption: list[str]
    rows: list[tuple[str, str]]


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
        lines = _caption(plate, calendar, opts.lang)
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
    rows = _table_rows(plate, opts.lang, cat, opts.lesson, opts.nian_ming) if opts.table else []
    table_h = _table_height(painter, rows, inner_w, unit) if rows else 0.0
    plates_h = page.bottom() - margin - footer - table_h - y
    scene, rect, _keep = _plates_scene(plate, opts, cat)
    target = _fit(rect, QRectF(page.left() + margin, y, inner_w, max(unit * 10, plates_h)))
    scene.render(painter, target, rect, Qt.AspectRatioMode.KeepAspectRatio)
    y = target.bottom() + unit * 0.8
    if rows:
        y = _paint_table(painter, rows, QRectF(page.left() + margin, y, inner_w, table_h), unit, palette)
    _paint_footer(painter, page, margin, unit, opts, palette)


# -- pages of paper (PDF, print, the year booklet) ------------------------------------------------

def page_rect(opts: SnapshotOptions) -> QRectF:
    """The page of ``opts.paper`` (landscape or not) in device units at ``opts.dpi`` (as the PDF
    writer sets it up)."""
    layout = QPageLayout(QPageSize(PAPERS[opts.paper]),
                         QPageLayout.Orientation.Landscape if opts.landscape else QPageLayout.Orientation.Portrait,
                         QMarginsF(0, 0, 0, 0))
    r = layout.fullRectPixels(_pdf_dpi(opts))
    return QRectF(0, 0, r.width(), r.height())


def _pdf_dpi(opts: SnapshotOptions) -> int:
    return opts.dpi if opts.dpi >= 72 else 72


def _paper_unit(page: QRectF) -> tuple[float, float]:
    """(unit, margin): a hundredth of the page's short side, so that type has one size whatever
    the orientation (and grows on larger paper); the margin is four units."""
    unit = min(page.width(), page.height()) / 100.0
    return unit, unit * 4.0


def _caption_height(lines: int, unit: float) -> float:
    return unit * 4.0 + unit * 2.2 * max(0, lines - 1) + unit * 0.8


def _paint_caption(painter: QPainter, page: QRectF, lines: list[str], unit: float, margin: float,
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


def _footer_height(opts: SnapshotOptions, unit: float, folio: bool = False) -> float:
    return (unit * 3.4 if opts.legend else 0) + (unit * 2.2 if opts.source else 0) + (unit * 2.2 if folio else 0)


def min_name_px(plates: PlateScene) -> float:
    """The smallest name drawn on the plates, in scene units: for every slot that holds a name,
    the pixel size of the font its fitted layout gives it (as :func:`shensha_plates.gui.fonts.plate_font` rounds
    it; the ring's one size where the ring has no per-slot fit)."""
    sizes = []
    for ring in plates.rings.values():
        if ring.parentItem() is None:
            continue
        fit = getattr(ring, "slot_fit", None)
        for k in range(12):
            if ring.entries(k):
                sizes.append(max(1, round(fit(k).char_px if fit is not None else ring.char_px)))
    return float(min(sizes)) if sizes else 0.0


def _plate_radius(plates: PlateScene, name: str) -> float:
    """How far a plate draws from its centre (its branch ring, and anything drawn beyond it)."""
    radius = getattr(plates, "plate_radius", None)
    return float(radius(name)) if radius is not None else plates.bases[name].outer_radius


def _label_font(unit: float) -> QFont:
    return plate_font(unit * 2.1)


def plates_page_plan(page: QRectF, plates: PlateScene, opts: SnapshotOptions, caption_lines: int,
                     folio: bool = False, caption_text: str = "") -> PagePlan:
    """Where the plates go on a page of paper: below the caption, above the legend, as large as
    the page allows (one plate above the other on a portrait page, side by side on a landscape
    one), each plate's title in a free corner beside it."""
    unit, margin = _paper_unit(page)
    top = page.top() + margin + (_caption_height(caption_lines, unit) if opts.caption else 0.0)
    bottom = page.bottom() - margin - _footer_height(opts, unit, folio)
    box = (page.left() + margin, top, page.width() - 2 * margin, bottom - top)
    plan = plan_plates(box, [(name, _plate_radius(plates, name)) for name in plates.groups], gap=unit * 1.2)
    fm = QFontMetricsF(_label_font(unit))
    sizes = {name: (fm.horizontalAdvance(title.text()) + unit * 0.6, fm.height() + unit * 0.3)
             for name, title in plates.titles.items() if title.text()}
    # a title may also stand beside the caption, clear of its text
    area = (box[0], page.top() + margin, box[2], bottom - page.top() - margin)
    avoid = []
    if opts.caption:
        cw = QFontMetricsF(plate_font(unit * 2.8)).horizontalAdvance(caption_text) if caption_text else box[2]
        ch = top - page.top() - margin
        avoid.append((page.center().x() - cw / 2 - unit, page.top() + margin, cw + 2 * unit, ch))
    return place_labels(plan, sizes, pad=unit * 0.4, area=area, avoid=avoid)


def min_name_pt(plate: Plate, opts: SnapshotOptions, catalog: Catalog | None = None) -> float:
    """The smallest name on the plates of page 1 of the PDF for ``opts`` (paper, orientation,
    layout), in points, computed from the page layout: the font's pixel size times the page scale."""
    cat = catalog or default_catalog()
    _scene, _rect, plates = _plates_scene(plate, opts, cat)
    lines = _caption(plate, None, opts.lang)
    plan = plates_page_plan(page_rect(opts), plates, opts, len(lines), caption_text=lines[0])
    return min_name_px(plates) * plan.scale * 72.0 / _pdf_dpi(opts)


def paint_plates_page(painter: QPainter, page: QRectF, plate: Plate, calendar: CalendarInfo | None,
                      opts: SnapshotOptions, catalog: Catalog, folio: str = "") -> PagePlan:
    """Page 1 on paper: the caption, both plates filling the page, the legend and source line."""
    palette = opts.palette
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setRenderHint(QPainter.RenderHint.TextAntialiasing)
    if not opts.transparent:
        painter.fillRect(page, palette.paper)
    unit, margin = _paper_unit(page)
    lines = _caption(plate, calendar, opts.lang)
    if opts.caption:
        _paint_caption(painter, page, lines, unit, margin, palette)
    scene, _rect, plates = _plates_scene(plate, opts, catalog)
    for title in plates.titles.values():
        title.setVisible(False)   # the page sets the titles beside the plates itself
    plan = plates_page_plan(page, plates, opts, len(lines), bool(folio), caption_text=lines[0])
    for disc in plan.discs:
        # one plate at a time, the other hidden, however close the scene sets them
        for name, group in plates.groups.items():
            group.setVisible(name == disc.name)
        centre = plates.groups[disc.name].pos()
        r = _plate_radius(plates, disc.name) * 1.01
        source = QRectF(centre.x() - r, centre.y() - r, 2 * r, 2 * r)
        R = disc.radius * 1.01
        scene.render(painter, QRectF(disc.cx - R, disc.cy - R, 2 * R, 2 * R), source,
                     Qt.AspectRatioMode.IgnoreAspectRatio)
    painter.setFont(_label_font(unit))
    painter.setPen(QPen(palette.ink))
    for label in plan.labels:
        painter.drawText(QRectF(label.x, label.y, label.width, label.height), Qt.AlignmentFlag.AlignCenter,
                         plates.titles[label.name].text())
    _paint_footer(painter, page, margin, unit * 1.15, opts, palette, folio)
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
    unit, margin = _paper_unit(page)
    inner_w = page.width() - 2 * margin
    top = page.top() + margin
    if opts.caption:
        painter.setPen(QPen(palette.ink))
        painter.setFont(plate_font(unit * 2.4))
        painter.drawText(QRectF(page.left() + margin, top, inner_w, unit * 3.4), Qt.AlignmentFlag.AlignCenter,
                         _caption(plate, calendar, opts.lang)[0])
        top += unit * 3.8
    rows = _table_rows(plate, opts.lang, catalog, opts.lesson, opts.nian_ming)
    avail = page.bottom() - margin - _footer_height(opts, unit * 1.15, bool(folio)) - top - reserve
    scale = 1.2
    for candidate in (2.2, 2.0, 1.9, 1.8, 1.7, 1.6, 1.5, 1.45, 1.4, 1.35, 1.3, 1.25):
        if _table_height(painter, rows, inner_w, unit, candidate) <= avail:
            scale = candidate
            break
    end = _paint_table(painter, rows, QRectF(page.left() + margin, top, inner_w, avail), unit, palette, scale)
    _paint_footer(painter, page, margin, unit * 1.15, opts, palette, folio)
    return end


def _fit(source: QRectF, box: QRectF) -> QRectF:
    scale = min(box.width() / source.width(), box.height() / source.height())
    w, h = source.width() * scale, source.height() * scale
    return QRectF(box.left() + (box.width() - w) / 2, box.top(), w, h)


def _table_height(painter: QPainter, rows: list[tuple[str, str]], width: float, unit: float,
                  scale: float = 1.15) -> float:
    fm = QFontMetricsF(plate_font(unit * scale))
    h = 0.0
    for _, text in rows:
        r = fm.boundingRect(QRectF(0, 0, width - unit * 4, 1e6), int(Qt.TextFlag.TextWordWrap), text)
        h += max(unit * 2.2, r.height() + unit * 0.6)
    return h + unit


def _paint_table(painter: QPainter, rows: list[tuple[str, str]], box: QRectF, unit: float, palette: object,
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


def _source_line(lang: str) -> str:
    """The page's source line: the book of the plates (seed 002), as resources/sources.toml names it."""
    from shensha_plates.core.catalog import SEED_BOOKS
    _, book, book_trad, _ = SEED_BOOKS["002"]
    return tr("source_line", lang, book=book_trad if is_trad(lang) else book)


def _paint_footer(painter: QPainter, page: QRectF, margin: float, unit: float, opts: SnapshotOptions,
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
                         Qt.AlignmentFlag.AlignCenter, _source_line(opts.lang))
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


# -- formats ------------------------------------------------------------------------------------

def _png_size(plate: Plate, opts: SnapshotOptions, catalog: Catalog) -> tuple[int, int]:
    if opts.height is not None:
        return opts.width, opts.height
    scene, rect, _ = _plates_scene(plate, opts, catalog)
    del scene
    unit = opts.width / 100.0
    h = unit * 6 + rect.height() * (opts.width - unit * 6) / rect.width()
    h += (unit * 6 if opts.caption else 0) + (unit * 5.2 if opts.legend or opts.source else 0)
    if opts.table:
        img = QImage(8, 8, QImage.Format.Format_ARGB32)
        p = QPainter(img)
        h += _table_height(p, _table_rows(plate, opts.lang, catalog, opts.lesson, opts.nian_ming), opts.width - unit * 6, unit) + unit
        p.end()
    if h > MAX_SIDE:
        # the page's height grows with its width: say which width would fit
        fits = int(opts.width * MAX_SIDE / h) // 10 * 10
        raise ExportError(f"invalid size: {opts.width} wide makes the page {int(h):,} px high, over the "
                          f"limit of {MAX_SIDE:,} px a side (give a width of about {fits} or less, or both sides, "
                          f"e.g. {fits}x{MAX_SIDE})")
    return opts.width, int(h)


def _blank_image(w: int, h: int, opaque: bool = False) -> QImage:
    """A ``w``×``h`` image, or :class:`ExportError` when there is not the memory for it (Qt then
    returns a null image; its warning is kept off the terminal for this one attempt)."""
    previous = qInstallMessageHandler(_quiet)
    try:
        img = QImage(w, h, QImage.Format.Format_RGB32 if opaque else QImage.Format.Format_ARGB32_Premultiplied)
    finally:
        qInstallMessageHandler(previous)
    if img.isNull():
        raise ExportError(f"not enough memory for a {w}×{h} px image ({w * h * 4 / 2**20:,.0f} MB); "
                          "choose a smaller size")
    return img


def _quiet(mode: QtMsgType, context: QMessageLogContext, message: str) -> None:
    del mode, context, message


def render_image(plate: Plate, calendar: CalendarInfo | None, opts: SnapshotOptions,
                 catalog: Catalog | None = None) -> QImage:
    cat = catalog or default_catalog()
    w, h = _png_size(plate, opts, cat)
    # an opaque page needs no alpha channel: a third less to encode, and a smaller file
    img = _blank_image(w, h, opaque=not opts.transparent)
    img.fill(QColor(0, 0, 0, 0) if opts.transparent else opts.palette.paper)
    dots_per_m = round(opts.dpi / 0.0254)
    img.setDotsPerMeterX(dots_per_m)
    img.setDotsPerMeterY(dots_per_m)
    p = QPainter(img)
    try:
        paint_pages(p, QRectF(0, 0, w, h), plate, calendar, opts, cat)
    finally:
        p.end()
    return img


def _png_bytes(plate: Plate, calendar: CalendarInfo | None, opts: SnapshotOptions, catalog: Catalog) -> bytes:
    return encode_png(render_image(plate, calendar, opts, catalog), opts.dpi)


def _svg_bytes(plate: Plate, calendar: CalendarInfo | None, opts: SnapshotOptions, catalog: Catalog) -> bytes:
    from PySide6.QtSvg import QSvgGenerator

    w, h = _png_size(plate, replace(opts, width=min(opts.width, 1600)), catalog)
    buf = QBuffer()
    buf.open(QIODevice.OpenModeFlag.WriteOnly)
    gen = QSvgGenerator()
    gen.setOutputDevice(buf)
    gen.setSize(QRectF(0, 0, w, h).size().toSize())
    gen.setViewBox(QRectF(0, 0, w, h))
    gen.setResolution(96)
    gen.setTitle(state_label(plate.state, opts.lang))
    gen.setDescription(_source_line(opts.lang))
    p = QPainter(gen)
    try:
        paint_pages(p, QRectF(0, 0, w, h), plate, calendar, replace(opts, width=w), catalog)
    finally:
        p.end()
    return bytes(buf.data().data())


def _pdf_bytes(plate: Plate, calendar: CalendarInfo | None, opts: SnapshotOptions, catalog: Catalog) -> bytes:
    buf = QBuffer()
    buf.open(QIODevice.OpenModeFlag.WriteOnly)
    writer = QPdfWriter(buf)
    writer.setResolution(_pdf_dpi(opts))
    writer.setCreator("Shensha Plates")
    writer.setTitle(state_label(plate.state, opts.lang))
    writer.setDocumentId(QUuid.fromString(str(uuid.uuid5(uuid.NAMESPACE_URL, repr((plate.state, plate.options, opts))))))
    layout = QPageLayout(QPageSize(PAPERS[opts.paper]),
                         QPageLayout.Orientation.Landscape if opts.landscape else QPageLayout.Orientation.Portrait,
                         QMarginsF(0, 0, 0, 0))
    writer.setPageLayout(layout)
    p = QPainter(writer)
    try:
        page = QRectF(0, 0, writer.width(), writer.height())
        paint_pages(p, page, plate, calendar, opts, catalog, new_page=writer.newPage)
    finally:
        p.end()
    return pin_pdf_dates(bytes(buf.data().data()))


def page_count(opts: SnapshotOptions) -> int:
    return 2 if opts.fmt == "pdf" and opts.table else 1


def export(path: str | os.PathLike[str], plate: Plate, calendar: CalendarInfo | None = None,
           opts: SnapshotOptions = SnapshotOptions(), catalog: Catalog | None = None,
           replace_read_only: bool = False) -> Path:
    """Write a snapshot to ``path`` atomically (temporary file, flush, fsync, rename).

    Raises :class:`ExportError` with a clear message for bad options or a folder that cannot be
    written; on any failure no file (partial or temporary) is left behind and an existing file at
    ``path`` is untouched. A read-only file is refused (:class:`ReadOnlyError`) unless
    ``replace_read_only``.
    """
    opts.validate()
    cat = catalog or default_catalog()
    target = checked_target(path, replace_read_only)
    makers = {"png": _png_bytes, "svg": _svg_bytes, "pdf": _pdf_bytes}
    try:
        data = makers[opts.fmt](plate, calendar, opts, cat)
    except MemoryError:
        w, h = (opts.width, opts.height or opts.width) if opts.fmt == "png" else (0, 0)
        need = f" (a {w}×{h} px image needs about {w * h * 4 * 1.1 / 2**20:,.0f} MB)" if w else ""
        raise ExportError(f"not enough memory to make {str(target)!r}{need}; choose a smaller size") from None
    write_atomic(target, data, replace_read_only)
    return target


def checked_target(path: str | os.PathLike[str], replace_read_only: bool = False) -> Path:
    """The file ``path`` names for writing, checked before any work is done: not a folder's name
    (a trailing slash), in a folder that exists and can be searched, not too long a name, not a
    read-only file unless ``replace_read_only`` (:class:`ReadOnlyError`). Every failure is an
    :class:`ExportError` naming the file."""
    shown = os.fsdecode(os.fspath(path))
    try:
        target = output_path(path)
        folder = target.parent if str(target.parent) else Path(".")
        if not folder.is_dir():
            raise ExportError(f"cannot write {str(target)!r}: the folder {str(folder)!r} does not exist")
        try:
            os.lstat(target)  # a name too long (ENAMETOOLONG), a folder that cannot be searched (EACCES)
        except FileNotFoundError:
            pass
        refuse_read_only(target, replace_read_only)
    except ReadOnlyTarget as e:
        raise ReadOnlyError(f"cannot write {shown!r}: {e.strerror}") from None
    except OSError as e:
        raise ExportError(f"cannot write {shown!r}: {e.strerror or e}") from None
    return target


def write_atomic(target: Path, data: bytes, replace_read_only: bool = False) -> None:
    try:
        core_write_atomic(target, data, replace_read_only)
    except ReadOnlyTarget as e:
        raise ReadOnlyError(f"cannot write {str(target)!r}: {e.strerror}") from None
    except OSError as e:
        raise ExportError(f"cannot write {str(target)!r}: {e.strerror or e}") from e


def format_from_path(path: str) -> str:
    try:
        ext = output_path(path).suffix.lower().lstrip(".")
    except OSError as e:
        raise ExportError(f"cannot write {path!r}: {e.strerror or e}") from None
    if ext not in FORMATS:
        raise ExportError(f"cannot tell the format of {path!r} (expected a name ending in .png, .svg or .pdf)")
    return ext
