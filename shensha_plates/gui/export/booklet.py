"""The year booklet: one PDF for a year, to print and bind.

Page 1 is the cover with the year plate (the upper plate, which the year and the xun turn), page 2
the contents, then each of the twelve months on two pages: the plates of the month, then the
spirits under each branch with the month's square tables (方图: every spirit not on a disc, at its
place this month). Every page after the cover carries its number. The xun dial stays where the
options put it (甲子旬 by default) and the caption says so.

The whole file is made in memory and written at the end through the one atomic writer, so a
cancelled or failed booklet leaves no file behind (and an older file of the same name whole).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Final

from PySide6.QtCore import QBuffer, QIODevice, QMarginsF, QPointF, QRectF, Qt, QUuid
from PySide6.QtGui import QFontMetricsF, QPageLayout, QPageSize, QPainter, QPdfWriter, QPen

from shensha_plates.core.catalog import Catalog, default_catalog
from shensha_plates.core.cycle import XUN_HEADS
from shensha_plates.core.engine import MONTH_NAMES, Options, Plate, State, compute_plate, spirit_row
from shensha_plates.gui.describe import spirit_name, state_label, to_lang
from shensha_plates.gui.export.encode import pin_pdf_dates
from shensha_plates.gui.export.pages import plan_plates
from shensha_plates.gui.export.options import PAPERS, ExportError, SnapshotOptions
from shensha_plates.gui.export.page_layout import footer_height, paper_unit, pdf_dpi, plate_radius, plates_scene
from shensha_plates.gui.export.page_paint import paint_footer, paint_plates_page, paint_table_page
from shensha_plates.gui.export.snapshot import checked_target, write_atomic
from shensha_plates.gui.fonts import plate_font
from shensha_plates.gui.i18n import tr
from shensha_plates.gui.plate.scene import ViewConfig

__all__ = ["BookletOptions", "BookletCancelled", "write_booklet", "booklet_pages", "MONTH_KEYS"]

# the square tables a month fixes (the year's own keys are fixed by the year)
MONTH_KEYS: Final = ("year_branch", "year_stem", "month", "season", "mzj", "mgroup")
Progress = Callable[[int, int, str], bool]


class BookletCancelled(Exception):
    """The user stopped the booklet; nothing was written."""


@dataclass(frozen=True)
class BookletOptions:
    """What a booklet is made of, parsed: the year and the xun as the 正月 state (the booklet turns the
    month dial through the year), the variant readings as the engine's Options. Words a user typed are
    parsed once, at the edge, by :meth:`parse`."""

    first: State
    paper: str = "A4"
    landscape: bool = False
    lang: str = "zh-Hans"
    paper_look: bool = False
    dpi: int = 150
    options: Options = field(default_factory=Options)
    view: ViewConfig = field(default_factory=ViewConfig)

    @classmethod
    def parse(cls, year: str, xun: str = "甲子", variants: Sequence[str] = (), **rest: Any) -> BookletOptions:
        """From the words of the command line or a settings file (``丙午``, ``甲辰``, ``tian_xi=…``);
        a bad year, xun or variant raises the core's InputError with one line."""
        return cls(first=State.parse(year, 1, xun), options=Options.from_choices(variants), **rest).validate()

    @property
    def year_name(self) -> str:
        return self.first.year_name

    def states(self) -> list[State]:
        """The twelve months of the year."""
        return [replace(self.first, month=m) for m in range(1, 13)]

    def snapshot(self) -> SnapshotOptions:
        # the month pages hold both plates whatever the window shows (its one-plate view included)
        view = replace(self.view, plate="both") if hasattr(self.view, "plate") else self.view
        return SnapshotOptions(fmt="pdf", paper=self.paper, landscape=self.landscape, lang=self.lang,
                               paper_look=self.paper_look, dpi=self.dpi, view=view).validate()

    def validate(self) -> BookletOptions:
        if self.paper not in ("A4", "A3"):
            raise ExportError(f"invalid paper: {self.paper!r} (expected A4 or A3)")
        self.snapshot()
        return self


@dataclass(frozen=True, slots=True)
class BookletPage:
    kind: str             # cover | contents | plates | table
    month: int = 0        # 1–12 for the month pages
    number: int = 0       # 1-based page number


def booklet_pages() -> list[BookletPage]:
    """Every page of the booklet in order, numbered (the contents page lists them)."""
    kinds = [("cover", 0), ("contents", 0)] + [(k, m) for m in range(1, 13) for k in ("plates", "table")]
    return [BookletPage(k, m, i + 1) for i, (k, m) in enumerate(kinds)]


def _folio(n: int) -> str:
    return f"— {n} —"


def write_booklet(path: str | Path, opts: BookletOptions, catalog: Catalog | None = None,
                  progress: Progress | None = None, replace_read_only: bool = False) -> Path:
    """Write the year booklet to ``path`` (PDF). ``progress(done, total, what)`` is called before
    each page; when it returns False the booklet stops with :class:`BookletCancelled` and no file
    is written. Bad options raise a :class:`shensha_plates.core.errors.ShenshaError` with one line."""
    opts.validate()
    cat = catalog or default_catalog()
    # a name ending in a slash is refused, as snapshot refuses it; a read-only file unless confirmed
    target = checked_target(path, replace_read_only)
    if target.suffix.lower() != ".pdf":
        raise ExportError(f"a booklet is a PDF: {str(target)!r} should end in .pdf")
    options = opts.options
    states = opts.states()
    plates = [compute_plate(st, options, cat) for st in states]
    snap = opts.snapshot()
    pages = booklet_pages()

    buf = QBuffer()
    buf.open(QIODevice.OpenModeFlag.WriteOnly)
    writer = QPdfWriter(buf)
    writer.setResolution(pdf_dpi(snap))
    writer.setCreator("Shensha Plates")
    writer.setTitle(tr("booklet_title", opts.lang, year=to_lang(states[0].year_name, opts.lang)))
    writer.setDocumentId(QUuid.fromString(f"{{{_uuid(opts)}}}"))
    writer.setPageLayout(QPageLayout(
        QPageSize(PAPERS[opts.paper]),
        QPageLayout.Orientation.Landscape if opts.landscape else QPageLayout.Orientation.Portrait,
        QMarginsF(0, 0, 0, 0)))
    painter = QPainter(writer)
    try:
        page = QRectF(0, 0, writer.width(), writer.height())
        for i, pg in enumerate(pages):
            what = tr("contents", opts.lang) if pg.kind == "contents" else (
                (f"month {pg.month}" if opts.lang == "en" else to_lang(MONTH_NAMES[pg.month - 1], opts.lang)) if pg.month else
                tr("upper_plate", opts.lang))
            if progress is not None and not progress(i, len(pages), what):
                raise BookletCancelled()
            if i:
                writer.newPage()
            if pg.kind == "cover":
                _paint_cover(painter, page, plates[0], snap, cat)
            elif pg.kind == "contents":
                _paint_contents(painter, page, states, pages, snap, _folio(pg.number))
            elif pg.kind == "plates":
                paint_plates_page(painter, page, plates[pg.month - 1], None, snap, cat, _folio(pg.number))
            else:
                _paint_month_tables(painter, page, plates[pg.month - 1], snap, cat, _folio(pg.number))
        if progress is not None and not progress(len(pages), len(pages), ""):
            raise BookletCancelled()
    finally:
        painter.end()
    write_atomic(target, pin_pdf_dates(bytes(buf.data().data())), replace_read_only)
    return target


def _uuid(opts: BookletOptions) -> str:
    import uuid
    return str(uuid.uuid5(uuid.NAMESPACE_URL, "booklet:" + repr(opts)))


def _paint_cover(painter: QPainter, page: QRectF, plate: Plate, snap: SnapshotOptions, cat: Catalog) -> None:
    """The year plate as large as the page allows, under the booklet's title."""
    palette = snap.palette
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setRenderHint(QPainter.RenderHint.TextAntialiasing)
    painter.fillRect(page, palette.paper)
    unit, margin = paper_unit(page)
    lang = snap.lang
    inner = QRectF(page.left() + margin, page.top() + margin, page.width() - 2 * margin, unit * 6)
    painter.setPen(QPen(palette.ink))
    painter.setFont(plate_font(unit * 4.2))
    year = to_lang(plate.state.year_name, lang)
    painter.drawText(inner, Qt.AlignmentFlag.AlignCenter, tr("booklet_title", lang, year=year))
    y = inner.bottom() + unit
    painter.setFont(plate_font(unit * 1.8))
    if lang == "en":
        sub = f"{tr('upper_plate', lang)} · {XUN_HEADS[plate.state.xun]} xun"
    else:
        sub = f"{tr('upper_plate', lang)}　{to_lang(XUN_HEADS[plate.state.xun], lang)}{tr('xun', lang)}"
    painter.drawText(QRectF(inner.left(), y, inner.width(), unit * 3), Qt.AlignmentFlag.AlignCenter, sub)
    y += unit * 4
    # the year's own square-table spirits, one line under the plate
    year_line = "　".join(f"{name} {pos}" for name, pos in _table_entries(plate, cat, lang, ("year_branch", "year_stem")))
    bottom = page.bottom() - margin - footer_height(snap, unit * 1.15) - (unit * 3 if year_line else 0)
    scene, _rect, plates = plates_scene(plate, snap, cat)
    for title in plates.titles.values():
        title.setVisible(False)
    name = "upper" if "upper" in plates.groups else next(iter(plates.groups))
    r = plate_radius(plates, name)
    plan = plan_plates((inner.left(), y, inner.width(), bottom - y), [(name, r)], gap=0)
    disc = plan.discs[0]
    for other, group in plates.groups.items():
        group.setVisible(other == name)
    centre = plates.groups[name].pos()
    src = QRectF(centre.x() - r * 1.01, centre.y() - r * 1.01, r * 2.02, r * 2.02)
    R = disc.radius * 1.01
    scene.render(painter, QRectF(disc.cx - R, disc.cy - R, 2 * R, 2 * R), src, Qt.AspectRatioMode.IgnoreAspectRatio)
    if year_line:
        painter.setPen(QPen(palette.ink))
        painter.setFont(plate_font(unit * 1.6))
        painter.drawText(QRectF(inner.left(), bottom, inner.width(), unit * 3), Qt.AlignmentFlag.AlignCenter, year_line)
    paint_footer(painter, page, margin, unit * 1.15, snap, palette)


def _paint_contents(painter: QPainter, page: QRectF, states: list[State], pages: list[BookletPage],
                    snap: SnapshotOptions, folio: str) -> None:
    palette = snap.palette
    lang = snap.lang
    painter.fillRect(page, palette.paper)
    unit, margin = paper_unit(page)
    left, width = page.left() + margin * 2.5, page.width() - margin * 5
    y = page.top() + margin * 2
    painter.setPen(QPen(palette.ink))
    painter.setFont(plate_font(unit * 3.6))
    painter.drawText(QRectF(left, y, width, unit * 6), Qt.AlignmentFlag.AlignCenter, tr("contents", lang))
    y += unit * 9
    rows: list[tuple[str, str, int]] = [(tr("upper_plate", lang), "", 1)]
    for pg in pages:
        if pg.kind == "plates":
            st = states[pg.month - 1]
            rows.append((state_label(st, lang), tr("lower_plate", lang), pg.number))
        elif pg.kind == "table":
            rows.append(("", tr("month_tables", lang), pg.number))
    bottom = page.bottom() - margin - unit * 6
    step = min(unit * 3.4, (bottom - y) / len(rows))
    font = plate_font(min(unit * 1.9, step * 0.62))
    painter.setFont(font)
    fm = QFontMetricsF(font)
    dot_pen = QPen(palette.rule, max(0.5, unit * 0.08), Qt.PenStyle.DotLine)
    for title, part, number in rows:
        painter.setPen(QPen(palette.ink))
        painter.drawText(QRectF(left, y, width * 0.55, step), Qt.AlignmentFlag.AlignVCenter, title)
        painter.drawText(QRectF(left + width * 0.55, y, width * 0.35, step), Qt.AlignmentFlag.AlignVCenter, part)
        num = str(number)
        painter.drawText(QRectF(left, y, width, step),
                         Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignRight, num)
        painter.setPen(dot_pen)
        x0 = left + width * 0.55 + fm.horizontalAdvance(part) + unit
        x1 = left + width - fm.horizontalAdvance(num) - unit
        if x1 > x0:
            painter.drawLine(QPointF(x0, y + step * 0.62), QPointF(x1, y + step * 0.62))
        y += step
    paint_footer(painter, page, margin, unit * 1.15, replace(snap, legend=False), palette, folio)


def _table_entries(plate: Plate, cat: Catalog, lang: str, keys: tuple[str, ...]) -> list[tuple[str, str]]:
    """(name, where it is this month) for every table spirit keyed by one of ``keys``."""
    values = plate.state.key_values()
    out = []
    for s in cat.spirits:
        if s.rule.kind == "ring":
            continue
        key, row = spirit_row(s.id, plate.options, cat)
        if key not in keys or values.get(key) is None:
            continue
        labels = row[values[key]]  # type: ignore[index]
        out.append((spirit_name(s, lang), to_lang("".join(labels), lang) if labels else "·"))
    return out


def _paint_month_tables(painter: QPainter, page: QRectF, plate: Plate, snap: SnapshotOptions, cat: Catalog,
                        folio: str) -> None:
    """The spirits under each branch, then this month's square tables in a grid below."""
    lang = snap.lang
    entries = _table_entries(plate, cat, lang, MONTH_KEYS)
    unit, margin = paper_unit(page)
    inner_w = page.width() - 2 * margin
    cell_font = plate_font(unit * 1.45)
    fm = QFontMetricsF(cell_font)
    cell_w = max(fm.horizontalAdvance(f"{n}　　{p}") for n, p in entries) + unit * 2.5
    cols = max(1, int(inner_w // cell_w))
    cell_w = inner_w / cols
    cell_h = unit * 2.4
    rows = math.ceil(len(entries) / cols)
    grid_h = unit * 4 + rows * cell_h
    end = paint_table_page(painter, page, plate, None, replace(snap, legend=False), cat, folio, reserve=grid_h)
    palette = snap.palette
    y = end + unit * 1.2
    painter.setPen(QPen(palette.ink))
    painter.setFont(plate_font(unit * 1.9))
    painter.drawText(QRectF(page.left() + margin, y, inner_w, unit * 2.8), Qt.AlignmentFlag.AlignVCenter,
                     f"{tr('month_tables', lang)}　{state_label(plate.state, lang)}")
    y += unit * 2.8
    painter.setFont(cell_font)
    rule = QPen(palette.rule, max(0.5, unit * 0.05))
    top = y
    for i, (name, pos) in enumerate(entries):
        c, r = divmod(i, rows)   # down the columns, as the book's tables read
        cell = QRectF(page.left() + margin + c * cell_w, top + r * cell_h, cell_w, cell_h)
        if r % 2 == 0:
            painter.fillRect(cell, palette.ring_a)
        painter.setPen(QPen(palette.ink))
        painter.drawText(cell.adjusted(unit * 0.6, 0, 0, 0), Qt.AlignmentFlag.AlignVCenter, name)
        painter.drawText(cell.adjusted(0, 0, -unit * 0.8, 0),
                         Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignRight, pos)
        painter.setPen(rule)
        painter.drawLine(cell.bottomLeft(), cell.bottomRight())
    painter.setPen(rule)
    for c in range(1, cols):
        x = page.left() + margin + c * cell_w
        painter.drawLine(QPointF(x, top), QPointF(x, top + rows * cell_h))
