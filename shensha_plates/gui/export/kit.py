"""Zhuang's plates to cut out (``snapshot --kit -o kit.pdf``): every disc of both plates, true to scale
so that they nest on one pin, with cutting lines, the centre hole, a pointer on each disc and the scale
of branches on each plate's base, a title for each disc, and a page of instructions with Zhuang's own
example (子年 正月 甲子旬) to check the assembly.

The discs' sizes come from the same layout as the web page (:func:`shensha_plates.core.page.page_data`):
each disc as wide as its longest name, far enough out for its fullest slot; one character is as large as
the paper allows for the lower plate's base, never under 8 pt.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from PySide6.QtCore import QMarginsF, QPointF, QRectF, QSizeF, Qt
from PySide6.QtGui import QBrush, QColor, QPageLayout, QPageSize, QPainter, QPdfWriter, QPen, QPolygonF

from shensha_plates.core.cycle import BRANCHES
from shensha_plates.core.engine import Options, State
from shensha_plates.core.lang import is_trad
from shensha_plates.core.page import key_values, page_data, _layout
from shensha_plates.gui.fonts import plate_font

__all__ = ["KitDisc", "KitGeometry", "kit_geometry", "write_kit", "kit_word", "PAPERS", "MIN_PT", "WORDS"]

PAPERS: Final = {"A4": (210.0, 297.0), "A3": (297.0, 420.0)}

# The kit's words: the Chinese (shown for both scripts, as the kit has always printed them) and beside it
# the English, OUR translation, for --lang en. Branches, stems and the discs' names stay as they are.
WORDS: Final[dict[str, tuple[str, str]]] = {
    "doc": ("神煞旋盘 · 纸盘", "Shensha Plates · paper kit"),
    "title": ("神煞旋盘 · 纸盘（庄广之上下位圆图）",
              "Shensha Plates · paper kit (Zhuang Guangzhi's round plates, upper and lower)"),
    "step1": ("一、沿虚线剪下每一圆盘（两张底盘，上位四盘，下位七盘），在圆心小圈处刺一小孔。",
              "1. Cut out each disc along its dashed line (two bases, four discs of the upper plate, seven of the "
              "lower) and prick a small hole at the little circle in its centre."),
    "step2": ("二、每位各以一钉（或图钉、揿钮）穿过圆心：底盘在下，其上按由大到小依次叠放各盘，每盘的名字都露在上一盘之外。",
              "2. Put one pin (or drawing pin, or press stud) through the centres of each plate: the base at the "
              "bottom, the discs on it from the largest to the smallest, each disc's names showing outside the "
              "one above it."),
    "step3": ("三、转盘：各盘边上的▲为指针。转动一盘，使其▲指向底盘外圈的某一支，即是此盘在该年、月、旬的位置；"
              "其下所对之支，就是盘上诸神煞所临之支。各盘以何转动、▲对何支，见下表。",
              "3. Turning: the ▲ on each disc's rim is its pointer. Turn a disc until its ▲ points at a branch on "
              "the base's outer ring: that is the disc's place for the year, month or xun, and the branch under "
              "each name is the branch that spirit stands on. What turns each disc, and where its ▲ points, "
              "is in the table below."),
    "step4": ("四、核对：按庄氏之例「子年、正月、甲子旬」转好各盘，▲所指应如下表末列；此时上位太岁在子、下位月建在寅。",
              "4. Check: turn every disc for Zhuang's example (a 子 year, month 1, the 甲子 xun); each ▲ should "
              "point as the table's last column says, and then the upper plate's 太岁 is on 子 and the lower "
              "plate's 月建 on 寅."),
    "head_disc": ("盘", "Disc"),
    "head_dial": ("以何转", "Turns with"),
    "head_seq": ("▲之所指（依次）", "Where ▲ points (in order)"),
    "head_example": ("子年正月甲子旬", "子 year, month 1, 甲子 xun"),
    "dial_year": ("年（太岁之支）", "year (its branch)"),
    "dial_month": ("月", "month"),
    "dial_xun": ("旬", "xun"),
    "key_year_branch": ("子丑…亥年", "子 丑 … 亥 years"),
    "key_month": ("正月…腊月", "months 1 … 12"),
    "key_season": ("春夏秋冬", "spring summer autumn winter"),
    "key_xun": ("甲子…甲寅旬", "xun 甲子 … 甲寅"),
    "key_mzj": ("孟仲季", "first, middle, last month of a season"),
    "key_mgroup": ("正五九…", "months 1 5 9 …"),
    "upper": ("上位", "Upper"),
    "lower": ("下位", "Lower"),
    "base_upper": ("上位底盘", "upper plate's base"),
    "base_lower": ("下位底盘", "lower plate's base"),
    "turns_year": ("随年转", "turns with the year"),
    "turns_month": ("随月转", "turns with the month"),
    "turns_xun": ("随旬转", "turns with the xun"),
    "disc_note": ("{dial}；沿虚线剪下，留住▲，叠于较大之盘上",
                  "{dial}; cut along the dashed line keeping the ▲, and lay it on the larger disc"),
    "base_note": ("最底一张，沿虚线剪下；外圈为十二支刻度", "the bottom sheet; cut along the dashed line; the outer ring is the "
                  "scale of the twelve branches"),
    "paper": ("纸张 {paper}；一字 {mm:.1f} 毫米（{pt:.1f} 磅），各盘按实际尺寸印出，剪下即可相套。",
              "Paper {paper}; one character is {mm:.1f} mm ({pt:.1f} pt); print the discs at their actual size and "
              "they nest once cut out."),
    "months": ("月份依节气：正月自立春起。旬由日定：甲子日至癸酉日为甲子旬，余类推。",
               "The months go by the solar terms: month 1 begins at 立春. The xun goes by the day: the days 甲子 to "
               "癸酉 are the 甲子 xun, and so on."),
    "credit": ("据《大六壬指南》卷四神煞（庄广之笺注），神煞旋盘 Shensha Plates 制。",
               "After 《大六壬指南》 chapter four, the spirits (with Zhuang Guangzhi's notes); made by Shensha Plates."),
}


def kit_word(key: str, lang: str, **fields: object) -> str:
    """A word of the kit in ``lang`` (English for ``en``, else the Chinese)."""
    zh, en = WORDS[key]
    return (en if lang == "en" else zh).format(**fields) if fields else (en if lang == "en" else zh)
MIN_PT: Final = 8.0
MM_PER_PT: Final = 25.4 / 72
MARGIN: Final = 12.0  # mm round the largest disc
BASE_BAND: Final = 2.0  # the base's ring of branches, in characters


@dataclass(frozen=True, slots=True)
class KitDisc:
    """One disc to cut: ``r_in``–``r_out`` (mm) is its printed band; a ring disc is cut at ``r_out``,
    the base at its outer edge too (its band is the ring of branches)."""

    id: str            # a ring id, or "base-upper" / "base-lower"
    plate: str
    title: str
    r_in: float
    r_out: float


@dataclass(frozen=True, slots=True)
class KitGeometry:
    paper: str
    unit_mm: float          # one character
    discs: tuple[KitDisc, ...]  # per plate: the base, then the discs from the largest to the smallest

    @property
    def font_pt(self) -> float:
        return self.unit_mm / MM_PER_PT


def kit_geometry(paper: str = "A4", lang: str = "zh-Hans") -> KitGeometry:
    """The discs in millimetres for ``paper`` (its width holds the lower plate's base)."""
    if paper not in PAPERS:
        raise ValueError(f"unknown paper {paper!r} (expected {' or '.join(PAPERS)})")
    data = page_data(lang=lang)
    lay = _layout(data)
    width = PAPERS[paper][0]
    unit = (width / 2 - MARGIN) / (lay["lower"] + BASE_BAND)
    discs = []
    for plate in ("lower", "upper"):
        r = lay[plate]
        base_title = kit_word("base_" + plate, lang) if not is_trad(lang) else (
            "下位底盤" if plate == "lower" else "上位底盤")
        discs.append(KitDisc(f"base-{plate}", plate, base_title, r * unit, (r + BASE_BAND) * unit))
        for ring in data["rings"]:  # the catalog lists each plate's discs from the outside in
            if ring["plate"] == plate:
                r0, r1 = lay[ring["id"]]
                discs.append(KitDisc(ring["id"], plate, ring["name"], r0 * unit, r1 * unit))
    return KitGeometry(paper, unit, tuple(discs))


def write_kit(path: str | Path, paper: str = "A4", lang: str = "zh-Hans", options: Options = Options()) -> None:
    """Write the kit's PDF atomically (instructions first, then a disc a page: each plate's base, then
    its discs from the largest to the smallest)."""
    from shensha_plates.core.datafile import write_atomic
    write_atomic(path, kit_pdf(paper, lang, options))


def kit_pdf(paper: str = "A4", lang: str = "zh-Hans", options: Options = Options()) -> bytes:
    """The kit's PDF as bytes."""
    from PySide6.QtCore import QBuffer, QByteArray, QIODevice
    geo = kit_geometry(paper, lang)
    data = page_data(options, lang=lang)
    rings = {r["id"]: r for r in data["rings"]}
    store = QByteArray()
    buffer = QBuffer(store)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    writer = QPdfWriter(buffer)
    writer.setResolution(600)
    writer.setTitle(kit_word("doc", lang))
    w_mm, h_mm = PAPERS[paper]
    writer.setPageLayout(QPageLayout(QPageSize(QSizeF(w_mm, h_mm), QPageSize.Unit.Millimeter),
                                     QPageLayout.Orientation.Portrait, QMarginsF(0, 0, 0, 0)))
    p = QPainter(writer)
    try:
        dpm = writer.resolution() / 25.4
        p.scale(dpm, dpm)  # millimetres from here on
        _instructions(p, geo, data, w_mm, lang)
        for disc in geo.discs:
            writer.newPage()
            _disc_page(p, disc, geo, rings.get(disc.id), data, w_mm, h_mm, lang)
    finally:
        p.end()
    buffer.close()
    return bytes(store.data())


def _font(p: QPainter, pt: float, bold: bool = False) -> None:
    # plate_font sizes in pixels; the painter's unit is the millimetre
    p.setFont(plate_font(pt * MM_PER_PT * 10, bold=bold))


def _text(p: QPainter, x: float, y: float, text: str, pt: float, bold: bool = False,
          align: Qt.AlignmentFlag = Qt.AlignmentFlag.AlignLeft, width: float = 180.0) -> float:
    """Text at (x, y) mm, ``pt`` points; wraps within ``width`` mm; returns the height used."""
    _font(p, pt, bold)
    p.save()
    p.scale(0.1, 0.1)  # the font was made ten times larger: draw it at a tenth
    rect = QRectF(x * 10, y * 10, width * 10, 2000)
    used = p.boundingRect(rect, int(align | Qt.TextFlag.TextWordWrap), text)
    p.drawText(rect, int(align | Qt.TextFlag.TextWordWrap), text)
    p.restore()
    return used.height() / 10


def _instructions(p: QPainter, geo: KitGeometry, data: dict[str, Any], w: float, lang: str) -> None:
    x, y, width = 15.0, 15.0, w - 30.0
    y += _text(p, x, y, kit_word("title", lang), 16, bold=True, width=width) + 4
    steps = [kit_word(f"step{n}", lang) for n in range(1, 5)]
    for s in steps:
        y += _text(p, x, y, s, 10, width=width) + 2
    y += 3
    kv0 = key_values(State.parse("子", 1, "甲子"))
    header = [kit_word(k, lang) for k in ("head_disc", "head_dial", "head_seq", "head_example")]
    rows = []
    for ring in data["rings"]:
        key = ring["key"]
        seq = ("" if lang != "en" else " ").join(BRANCHES[a] for a in ring["anchors"])
        label = kit_word("key_" + key, lang) if "key_" + key in WORDS else key
        rows.append([kit_word(ring["plate"], lang) + " " + ring["name"],
                     kit_word("dial_" + ring["dial"], lang), label + (": " if lang == "en" else "：") + seq,
                     BRANCHES[ring["anchors"][kv0[key]]]])
    cols = [0.0, 30.0, 52.0, width - 28.0]
    _font(p, 9)
    used = 0.0
    for i, cell in enumerate(header):
        used = max(used, _text(p, x + cols[i], y, cell, 9, bold=True,
                               width=(cols[i + 1] if i + 1 < len(cols) else width) - cols[i]))
    y += max(6.0, used + 2)  # a heading that wraps (the English example's) pushes the rows down
    p.setPen(QPen(QColor("#8a7a5a"), 0.2))
    for row in rows:
        p.drawLine(QPointF(x, y - 1), QPointF(x + width, y - 1))
        used = 0.0
        for i, cell in enumerate(row):
            used = max(used, _text(p, x + cols[i], y, cell, 9,
                                   width=(cols[i + 1] if i + 1 < len(cols) else width) - cols[i] - 1))
        y += used + 2
    y += 3
    notes = [kit_word("paper", lang, paper=geo.paper, mm=geo.unit_mm, pt=geo.font_pt), kit_word("months", lang),
             kit_word("credit", lang)]
    for s in notes:
        y += _text(p, x, y, s, 8.5, width=width) + 1.5


def _disc_page(p: QPainter, disc: KitDisc, geo: KitGeometry, ring: dict[str, Any] | None, data: dict[str, Any],
               w: float, h: float, lang: str) -> None:
    cx, cy = w / 2, h / 2 + 6
    unit = geo.unit_mm
    title = f"{kit_word(disc.plate, lang)} · {disc.title}"
    note = (kit_word("disc_note", lang, dial=kit_word("turns_" + ring["dial"], lang)) if ring is not None
            else kit_word("base_note", lang))
    title += f" ({note})" if lang == "en" else f"（{note}）"
    _text(p, 12, 10, title, 12, bold=True, width=w - 24)
    # the cutting line and the centre hole
    p.setRenderHint(QPainter.RenderHint.Antialiasing)
    pen = QPen(QColor("#555555"), 0.3, Qt.PenStyle.DashLine)
    p.setPen(pen)
    p.setBrush(Qt.BrushStyle.NoBrush)
    p.drawEllipse(QPointF(cx, cy), disc.r_out, disc.r_out)
    p.setPen(QPen(QColor("#1f2430"), 0.25))
    p.drawEllipse(QPointF(cx, cy), 1.2, 1.2)
    p.drawLine(QPointF(cx - 3, cy), QPointF(cx + 3, cy))
    p.drawLine(QPointF(cx, cy - 3), QPointF(cx, cy + 3))
    # the band's edges and the twelve slots
    p.setPen(QPen(QColor("#8a7a5a"), 0.25))
    p.drawEllipse(QPointF(cx, cy), disc.r_in, disc.r_in)
    for k in range(12):
        a = math.radians(-90 + 30 * k - 15)
        p.drawLine(QPointF(cx + disc.r_in * math.cos(a), cy + disc.r_in * math.sin(a)),
                   QPointF(cx + disc.r_out * math.cos(a), cy + disc.r_out * math.sin(a)))
    if ring is None:  # the base: the ring of branches, 午 at the top
        for b in range(12):
            a = -90 + 30 * (b - 6)
            _glyph(p, cx, cy, (disc.r_in + disc.r_out) / 2, a, BRANCHES[b], unit * 1.3, QColor("#1f2430"), bold=True)
        return
    # the pointer: slot 0's middle, standing out of the rim (cut round it), pointing out
    tip = QPointF(cx, cy - disc.r_out - unit * 1.2)
    p.setPen(QPen(QColor("#555555"), 0.3, Qt.PenStyle.DashLine))
    p.setBrush(QBrush(QColor("#b3261e")))
    p.drawPolygon(QPolygonF([tip, QPointF(cx - unit * 0.75, cy - disc.r_out + 0.2),
                             QPointF(cx + unit * 0.75, cy - disc.r_out + 0.2)]))
    colours = {"good": QColor("#b3261e"), "bad": QColor("#1c2b4a"), "mixed": QColor("#1f6f6b")}
    mid = (disc.r_in + disc.r_out) / 2
    for k, slot in enumerate(ring["slots"]):
        ang = -90 + 30 * k  # slot 0 under the pointer, then clockwise
        for c, i in enumerate(slot):
            sp = data["spirits"][i]
            off = (c - (len(slot) - 1) / 2) * 1.12 * unit
            name = sp["name"]
            start = mid - (len(name) - 1) * unit / 2
            for j, ch in enumerate(name):
                r = start + (len(name) - 1 - j) * unit  # read from the rim inwards, its top towards the rim
                _glyph(p, cx, cy, r, ang, ch, unit * 0.92, colours.get(sp["q"], colours["mixed"]), off=off)


def _glyph(p: QPainter, cx: float, cy: float, r: float, angle_deg: float, ch: str, size_mm: float, colour: QColor,
           bold: bool = False, off: float = 0.0) -> None:
    """One character at radius ``r`` on the ray at ``angle_deg`` (screen degrees, y down), shifted
    ``off`` mm across the ray, its top towards the rim."""
    a = math.radians(angle_deg)
    x = cx + r * math.cos(a) - off * math.sin(a)
    y = cy + r * math.sin(a) + off * math.cos(a)
    p.save()
    p.translate(x, y)
    p.rotate(angle_deg + 90)
    p.scale(0.1, 0.1)
    p.setFont(plate_font(size_mm * 10, bold=bold))
    p.setPen(QPen(colour))
    s = size_mm * 10
    p.drawText(QRectF(-s, -s, 2 * s, 2 * s), int(Qt.AlignmentFlag.AlignCenter), ch)
    p.restore()
