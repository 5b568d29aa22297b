"""Where things go on a snapshot's page, and what it says: the plates built as items in a scene of their
own (:func:`plates_scene`), the caption's lines and the table's rows, the page of a paper and its
unit, the heights of caption, table and footer, where the plates and their titles go on a page of
paper (:func:`plates_page_plan`, through the pure geometry of
:mod:`shensha_plates.gui.export.pages`), a PNG page's size, and the smallest name printed.
"""

from __future__ import annotations

from dataclasses import replace

from PySide6.QtCore import QMarginsF, QRectF, Qt
from PySide6.QtGui import QFont, QFontMetricsF, QImage, QPageLayout, QPageSize, QPainter
from PySide6.QtWidgets import QGraphicsScene

from shensha_plates.core.calendar import CalendarInfo
from shensha_plates.core.catalog import Catalog, default_catalog
from shensha_plates.core.cycle import BRANCHES
from shensha_plates.core.engine import Plate
from shensha_plates.core.lang import is_trad
from shensha_plates.core.liuren import Ke
from shensha_plates.core.liuren.lodging import DayFacts
from shensha_plates.core.liuren.nianming import NianMing
from shensha_plates.core.text import branch_sections
from shensha_plates.gui.describe import section_name, state_label
from shensha_plates.gui.fonts import plate_font
from shensha_plates.gui.i18n import tr
from shensha_plates.gui.export.lesson_page import in_force, lesson_rows, place_heaven
from shensha_plates.gui.export.pages import PagePlan, place_labels, plan_plates
from shensha_plates.gui.export.options import MAX_SIDE, PAPERS, ExportError, SnapshotOptions
from shensha_plates.gui.plate.scene import PlateScene

__all__ = ["plates_scene", "caption_lines", "table_rows", "page_rect", "pdf_dpi", "paper_unit", "caption_height",
           "footer_height", "plate_radius", "label_font", "plates_page_plan", "min_name_px", "min_name_pt", "fit_rect",
           "table_height", "png_size"]

def plates_scene(plate: Plate, opts: SnapshotOptions, catalog: Catalog) -> tuple[QGraphicsScene, QRectF, PlateScene]:
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
        if opts.nian_ming is not None:  # the years tagged as on screen: the querent's 命 年, the partner's 配命 配年
            from shensha_plates.gui.lesson_text import year_marks
            from shensha_plates.gui.plate.years_item import YearsItem
            base = plates.bases[plates.heaven_group]
            years = YearsItem(plates.groups[plates.heaven_group])
            years.configure((base.r_in + base.r_out) / 2, base.char_px, view.orientation, base.r_out - base.r_in)
            years.set_marks(year_marks(opts.nian_ming, opts.lang))
            plates.extras.append(years)  # (Qt drops an item whose Python side is collected)
    return scene, plates.scene_rect(), plates


def caption_lines(plate: Plate, calendar: CalendarInfo | None, lang: str) -> list[str]:
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


def table_rows(plate: Plate, lang: str, catalog: Catalog, lesson: Ke | None = None,
                nian_ming: NianMing | None = None, day: DayFacts | None = None) -> list[tuple[str, str]]:
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
        rows += lesson_rows(lesson, plate, lang, nian_ming, day)
    return rows


def page_rect(opts: SnapshotOptions) -> QRectF:
    """The page of ``opts.paper`` (landscape or not) in device units at ``opts.dpi`` (as the PDF
    writer sets it up)."""
    layout = QPageLayout(QPageSize(PAPERS[opts.paper]),
                         QPageLayout.Orientation.Landscape if opts.landscape else QPageLayout.Orientation.Portrait,
                         QMarginsF(0, 0, 0, 0))
    r = layout.fullRectPixels(pdf_dpi(opts))
    return QRectF(0, 0, r.width(), r.height())


def pdf_dpi(opts: SnapshotOptions) -> int:
    return opts.dpi if opts.dpi >= 72 else 72


def paper_unit(page: QRectF) -> tuple[float, float]:
    """(unit, margin): a hundredth of the page's short side, so that type has one size whatever
    the orientation (and grows on larger paper); the margin is four units."""
    unit = min(page.width(), page.height()) / 100.0
    return unit, unit * 4.0


def caption_height(lines: int, unit: float) -> float:
    return unit * 4.0 + unit * 2.2 * max(0, lines - 1) + unit * 0.8


def footer_height(opts: SnapshotOptions, unit: float, folio: bool = False) -> float:
    return (unit * 3.4 if opts.legend else 0) + (unit * 2.2 if opts.source else 0) + (unit * 2.2 if folio else 0)


def plate_radius(plates: PlateScene, name: str) -> float:
    """How far a plate draws from its centre (its branch ring, and anything drawn beyond it)."""
    radius = getattr(plates, "plate_radius", None)
    return float(radius(name)) if radius is not None else plates.bases[name].outer_radius


def label_font(unit: float) -> QFont:
    return plate_font(unit * 2.1)


def plates_page_plan(page: QRectF, plates: PlateScene, opts: SnapshotOptions, caption_lines: int,
                     folio: bool = False, caption_text: str = "") -> PagePlan:
    """Where the plates go on a page of paper: below the caption, above the legend, as large as
    the page allows (one plate above the other on a portrait page, side by side on a landscape
    one), each plate's title in a free corner beside it."""
    unit, margin = paper_unit(page)
    top = page.top() + margin + (caption_height(caption_lines, unit) if opts.caption else 0.0)
    bottom = page.bottom() - margin - footer_height(opts, unit, folio)
    box = (page.left() + margin, top, page.width() - 2 * margin, bottom - top)
    plan = plan_plates(box, [(name, plate_radius(plates, name)) for name in plates.groups], gap=unit * 1.2)
    fm = QFontMetricsF(label_font(unit))
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


def min_name_pt(plate: Plate, opts: SnapshotOptions, catalog: Catalog | None = None) -> float:
    """The smallest name on the plates of page 1 of the PDF for ``opts`` (paper, orientation,
    layout), in points, computed from the page layout: the font's pixel size times the page scale."""
    cat = catalog or default_catalog()
    _scene, _rect, plates = plates_scene(plate, opts, cat)
    lines = caption_lines(plate, None, opts.lang)
    plan = plates_page_plan(page_rect(opts), plates, opts, len(lines), caption_text=lines[0])
    return min_name_px(plates) * plan.scale * 72.0 / pdf_dpi(opts)


def fit_rect(source: QRectF, box: QRectF) -> QRectF:
    scale = min(box.width() / source.width(), box.height() / source.height())
    w, h = source.width() * scale, source.height() * scale
    return QRectF(box.left() + (box.width() - w) / 2, box.top(), w, h)


def table_height(painter: QPainter, rows: list[tuple[str, str]], width: float, unit: float,
                  scale: float = 1.15) -> float:
    fm = QFontMetricsF(plate_font(unit * scale))
    h = 0.0
    for _, text in rows:
        r = fm.boundingRect(QRectF(0, 0, width - unit * 4, 1e6), int(Qt.TextFlag.TextWordWrap), text)
        h += max(unit * 2.2, r.height() + unit * 0.6)
    return h + unit


def png_size(plate: Plate, opts: SnapshotOptions, catalog: Catalog) -> tuple[int, int]:
    if opts.height is not None:
        return opts.width, opts.height
    scene, rect, _ = plates_scene(plate, opts, catalog)
    del scene
    unit = opts.width / 100.0
    h = unit * 6 + rect.height() * (opts.width - unit * 6) / rect.width()
    h += (unit * 6 if opts.caption else 0) + (unit * 5.2 if opts.legend or opts.source else 0)
    if opts.table:
        img = QImage(8, 8, QImage.Format.Format_ARGB32)
        p = QPainter(img)
        h += table_height(p, table_rows(plate, opts.lang, catalog, opts.lesson, opts.nian_ming, opts.day), opts.width - unit * 6, unit) + unit
        p.end()
    if h > MAX_SIDE:
        # the page's height grows with its width: say which width would fit
        fits = int(opts.width * MAX_SIDE / h) // 10 * 10
        raise ExportError(f"invalid size: {opts.width} wide makes the page {int(h):,} px high, over the "
                          f"limit of {MAX_SIDE:,} px a side (give a width of about {fits} or less, or both sides, "
                          f"e.g. {fits}x{MAX_SIDE})")
    return opts.width, int(h)
