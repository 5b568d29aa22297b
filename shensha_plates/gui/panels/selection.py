"""The date-selection plate (seed 004): a 24-mountain disc of its own that turns with the year.

Rings from the outside in: the 24 mountains; the year spirits (they turn when the year changes);
the month spirits; in the centre the nine palaces with the month-flying spirits (飞宫). Beside it,
every spirit with where it lies, the book's 制法 (or 例无制法), the 还宫 months, variants and sources,
and the spirits the book calls spurious. It draws what :mod:`shensha_plates.core.selection` computes."""

from __future__ import annotations

import html
import math

from PySide6.QtCore import QEasingCurve, QPointF, QRectF, Qt, QVariantAnimation
from PySide6.QtGui import QColor, QPainter, QPen
from PySide6.QtWidgets import QHBoxLayout, QTextBrowser, QWidget

from shensha_plates.core.cycle import BRANCHES, MOUNTAINS
from shensha_plates.core.engine import MONTH_NAMES
from shensha_plates.core.lang import is_trad, name_in
from shensha_plates.core.selection import (
    LUOSHU, PALACE_TRAD, SelectionPlate, general_return_months, return_months, selection_plate,
)
from shensha_plates.gui.describe import source_line, to_lang
from shensha_plates.gui.fonts import plate_font
from shensha_plates.gui.i18n import tr
from shensha_plates.gui.lifetime import follow_model
from shensha_plates.gui.model import PlateModel
from shensha_plates.gui.style import PALETTE

__all__ = ["SelectionDisc", "SelectionPage", "selection_html"]

_QUALITY_COLOR = {"good": QColor("#b3261e"), "bad": QColor("#1c2b4a"), "mixed": QColor("#1f6f6b")}
# grid cell (row, column) of each palace, south (离) at the top as on a 罗盘
_GRID = {"巽": (0, 0), "离": (0, 1), "坤": (0, 2), "震": (1, 0), "中": (1, 1), "兑": (1, 2), "艮": (2, 0),
         "坎": (2, 1), "乾": (2, 2)}
_NUM = {v: k for k, v in LUOSHU.items()}


def mountain_angle(index: int) -> float:
    """Screen angle (degrees, clockwise from east) of mountain ``index`` (壬=0 … 亥=23), 午 at the top."""
    return (-90.0 + 15.0 * (index - MOUNTAINS.index("午"))) % 360.0


class SelectionDisc(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("selection_disc")
        self.setMinimumSize(520, 520)
        self.plate: SelectionPlate | None = None
        self.lang = "zh-Hans"
        self.turn = 0.0  # degrees the year ring is still to turn (animated to 0)
        self._anim = QVariantAnimation(self)
        self._anim.setEasingCurve(QEasingCurve.Type.OutCubic)
        self._anim.valueChanged.connect(self._on_turn)
        self.reduce_motion = False

    def _on_turn(self, value: object) -> None:
        self.turn = float(value)  # type: ignore[arg-type]
        self.update()

    def set_plate(self, plate: SelectionPlate, lang: str) -> None:
        old = self.plate
        self.plate, self.lang = plate, lang
        if old is not None and old.year_branch != plate.year_branch and not self.reduce_motion:
            steps = (plate.year_branch - old.year_branch + 6) % 12 - 6  # the short way round
            self._anim.stop()
            self._anim.setStartValue(-30.0 * steps)
            self._anim.setEndValue(0.0)
            self._anim.setDuration(int(min(900, 250 + 60 * abs(steps))))
            self._anim.start()
        self.update()

    def finish(self) -> None:
        self._anim.stop()
        self.turn = 0.0
        self.update()

    def _name(self, p: object) -> str:
        sp = p.spirit  # type: ignore[attr-defined]
        return name_in(sp, self.lang)

    def paintEvent(self, _: object) -> None:  # noqa: N802 - Qt's name
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        p.setRenderHint(QPainter.RenderHint.TextAntialiasing)
        p.fillRect(self.rect(), PALETTE.paper)
        if self.plate is None:
            p.end()
            return
        side = min(self.width(), self.height())
        R = side / 2 - 8
        cx, cy = self.width() / 2, self.height() / 2
        p.translate(cx, cy)
        r_m0, r_y0, r_mo0, r_c = 0.90 * R, 0.58 * R, 0.40 * R, 0.37 * R
        ink, rule = PALETTE.ink, PALETTE.rule
        # rings
        for r, fill in ((R, QColor("#f4ecd8")), (r_m0, QColor("#fbf7ee")), (r_y0, QColor("#f7f1e3")),
                        (r_mo0, QColor("#fbf7ee"))):
            p.setPen(QPen(rule, 1.2))
            p.setBrush(fill)
            p.drawEllipse(QPointF(0, 0), r, r)
        # sector lines and mountains
        big = plate_font(max(9.0, R * 0.055))
        small = max(7.0, R * 0.030)
        for i, m in enumerate(MOUNTAINS):
            a = mountain_angle(i)
            edge = math.radians(a - 7.5)
            p.setPen(QPen(rule, 0.8))
            p.drawLine(QPointF(r_mo0 * math.cos(edge), r_mo0 * math.sin(edge)),
                       QPointF(R * math.cos(edge), R * math.sin(edge)))
            rad = math.radians(a)
            mid = (R + r_m0) / 2
            p.setFont(big)
            p.setPen(QPen(ink if m in BRANCHES else PALETTE.good))
            s = R * 0.09
            p.drawText(QRectF(mid * math.cos(rad) - s / 2, mid * math.sin(rad) - s / 2, s, s),
                       Qt.AlignmentFlag.AlignCenter, m)
            year = [x for x in self.plate.at(m) if x.palace is None and x.spirit.period == "year"]
            month = [x for x in self.plate.at(m) if x.palace is None and x.spirit.period == "month"]
            self._radial_names(p, year, a + self.turn, r_y0, r_m0, small)
            self._radial_names(p, month, a, r_mo0, r_y0, small)
        # centre: the nine palaces
        half = r_c / math.sqrt(2)
        cell = 2 * half / 3
        for palace, (row, col) in _GRID.items():
            rect = QRectF(-half + col * cell, -half + row * cell, cell, cell)
            p.setPen(QPen(rule, 0.8))
            p.setBrush(QColor("#fffdf7") if palace != "中" else QColor("#f4ecd8"))
            p.drawRect(rect)
            label = PALACE_TRAD[palace] if is_trad(self.lang) else palace
            p.setFont(plate_font(max(7.0, cell * 0.16)))
            p.setPen(QPen(QColor("#8a7a5a")))
            p.drawText(rect.adjusted(3, 1, -3, -1), Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft,
                       f"{label}{_NUM[palace]}")
            names = [self._name(x) for x in self.plate.in_palace(palace)]
            if names:
                p.setFont(plate_font(max(6.5, min(cell * 0.14, small))))
                p.setPen(QPen(_QUALITY_COLOR["bad"]))
                p.drawText(rect.adjusted(2, cell * 0.22, -2, -2),
                           Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop | Qt.TextFlag.TextWordWrap,
                           "\n".join(names))
        p.end()

    def _radial_names(self, p: QPainter, items: list, angle: float, r0: float, r1: float, px: float) -> None:
        """Names along the radius, side by side across the 15° sector."""
        if not items:
            return
        width = (r0 + r1) / 2 * math.radians(15) * 0.92
        n = len(items)
        size = min(px, width / max(n, 1) * 0.95)
        font = plate_font(max(5.5, size))
        p.setFont(font)
        p.save()
        p.rotate(angle)
        for k, x in enumerate(items):
            offset = (k - (n - 1) / 2) * width / n
            # the text runs outwards along the radius
            p.save()
            p.translate((r0 + r1) / 2, offset)
            if 90.0 < angle % 360.0 < 270.0:
                p.rotate(180.0)  # the left half reads the right way up, not upside down
            p.setPen(QPen(_QUALITY_COLOR[x.spirit.quality]))
            length = r1 - r0 - 6
            p.drawText(QRectF(-length / 2, -size * 0.7, length, size * 1.4), Qt.AlignmentFlag.AlignCenter,
                       self._name(x))
            p.restore()
        p.restore()


def selection_html(plate: SelectionPlate, lang: str = "zh-Hans") -> str:
    if lang == "en":
        return _selection_english(plate)
    e = html.escape
    rules = plate.rules
    out = [f"<h2 style='margin:0'>{e(to_lang(plate.year_name, lang))} "
           f"{e(to_lang(MONTH_NAMES[plate.month - 1], lang))}</h2>"]
    for period, title in (("year", tr("sel_year", lang)), ("month", tr("sel_month", lang))):
        out.append(f"<h3 style='margin:8px 0 2px 0'>{e(title)}</h3>")
        for sp in rules.spirits:
            if sp.period != period:
                continue
            places = [x for x in plate.placements if x.spirit.id == sp.id]
            where = "、".join("".join(x.labels) for x in places) or tr("sel_needs_stem", lang)
            name = name_in(sp, lang)
            color = _QUALITY_COLOR[sp.quality].name()
            line = f"<div style='margin:3px 0'><b style='color:{color}'>{e(name)}</b> <b>{e(to_lang(where, lang))}</b>"
            if sp.remedy == "none":
                line += f" <b style='color:#b3261e'>{e(tr('sel_no_remedy', lang))}</b>"
            line += f"<br/>{e(to_lang(sp.meaning, lang))}"
            if sp.remedy != "none":
                line += f"<br/><span style='color:#1f6f6b'>{e(tr('sel_remedy', lang))}：{e(to_lang(sp.remedy, lang))}</span>"
            if sp.flight is not None and sp.flight.method != "stem":
                months = return_months(sp, plate.year_branch, plate.year_stem, rules)
                line += (f"<br/><span style='color:#555'>{e(tr('sel_returns', lang))}："
                         f"{e('、'.join(str(m) for m in months) or '—')}</span>")
            if sp.id == "da_jiang_jun" and plate.year_stem is not None:
                months = general_return_months(plate.year_branch, plate.year_stem, rules)
                line += (f"<br/><span style='color:#555'>{e(tr('sel_returns', lang))}："
                         f"{e('、'.join(str(m) for m in months))}</span>")
            if sp.note:
                line += f"<br/><span style='color:#555;font-size:small'>{e(to_lang(sp.note, lang))}</span>"
            for v in sp.variants:
                verdict = tr("rejected_by_source", lang) if v.verdict == "rejected" else ""
                line += (f"<br/><span style='color:#555;font-size:small'>{e(tr('variants', lang))} <code>{e(v.id)}</code>："
                         f"<b>{e(verdict)}</b> {e(to_lang(v.note, lang))}（{e(source_line(v.source, lang))}）</span>")
            line += (f"<br/><span style='color:#777;font-size:small'>{e(tr('source', lang))}："
                     f"{e(source_line(sp.source, lang))}</span></div>")
            out.append(line)
    out.append(f"<h3 style='margin:8px 0 2px 0'>{e(tr('sel_spurious', lang))}</h3>")
    for x in rules.spurious:
        out.append(f"<div style='margin:3px 0'><b>{e(name_in(x, lang))}</b>"
                   f"<br/><span style='color:#777;font-size:small'>「{e(x.source.quote)}」</span></div>")
    return "".join(out)


def _selection_english(plate: SelectionPlate) -> str:
    """The date selection in English: each spirit's name with its pinyin and gloss, its meaning, the
    book's remedy, notes and variants (our translation, core/english.py), the returns and the source."""
    from shensha_plates.core.english import english, label
    e = html.escape
    en = english()
    rules = plate.rules
    out = [f"<h2 style='margin:0'>{e(plate.year_name.removesuffix('年'))} year, month {plate.month}</h2>"]
    for period, title in (("year", tr("sel_year", "en")), ("month", tr("sel_month", "en"))):
        out.append(f"<h3 style='margin:8px 0 2px 0'>{e(title)}</h3>")
        for sp in rules.spirits:
            if sp.period != period:
                continue
            g = en.named(sp.name, en.selection, sp.id)
            places = [x for x in plate.placements if x.spirit.id == sp.id]
            where = (", ".join("".join(x.labels) for x in places).replace("中宫", "the central palace")
                     .replace("宫", " palace")  # 震宫: Zhen palace
                     or tr("sel_needs_stem", "en"))
            color = _QUALITY_COLOR[sp.quality].name()
            line = (f"<div style='margin:3px 0'><b style='color:{color}'>{e(label(sp.name, g.gloss))}</b> "
                    f"<b>{e(where)}</b>")
            if sp.remedy == "none":
                line += f" <b style='color:#b3261e'>{e(tr('sel_no_remedy', 'en'))}</b>"
            if g.meaning:
                line += f"<br/>{e(g.meaning)}"
            if sp.remedy != "none" and en.system_text(sp.remedy):
                line += f"<br/><span style='color:#1f6f6b'>{e(tr('sel_remedy', 'en'))}: {e(en.system_text(sp.remedy))}</span>"
            if sp.flight is not None and sp.flight.method != "stem":
                months = return_months(sp, plate.year_branch, plate.year_stem, rules)
                line += f"<br/><span style='color:#555'>{e(tr('sel_returns', 'en'))}: {e(', '.join(map(str, months)) or '—')}</span>"
            if sp.id == "da_jiang_jun" and plate.year_stem is not None:
                months = general_return_months(plate.year_branch, plate.year_stem, rules)
                line += f"<br/><span style='color:#555'>{e(tr('sel_returns', 'en'))}: {e(', '.join(map(str, months)))}</span>"
            if sp.note and en.system_text(sp.note):
                line += f"<br/><span style='color:#555;font-size:small'>{e(en.system_text(sp.note))}</span>"
            for v in sp.variants:
                verdict = tr("rejected_by_source", "en") if v.verdict == "rejected" else ""
                line += (f"<br/><span style='color:#555;font-size:small'>Variant <code>{e(v.id)}</code>: "
                         f"<b>{e(verdict)}</b> {e(en.system_text(v.note))} ({e(source_line(v.source, 'en'))})</span>")
            line += (f"<br/><span style='color:#777;font-size:small'>{e(tr('source', 'en'))}: "
                     f"{e(source_line(sp.source, 'en'))}</span></div>")
            out.append(line)
    out.append(f"<h3 style='margin:8px 0 2px 0'>{e(tr('sel_spurious', 'en'))}</h3>")
    for x in rules.spurious:
        out.append(f"<div style='margin:3px 0'><b>{e(label(x.name, ''))}</b>"
                   f"<br/><span style='color:#777;font-size:small'>「{e(x.source.quote)}」</span></div>")
    return "".join(out)


class SelectionPage(QWidget):
    """The disc and the list side by side, following the model's year, month and language."""

    def __init__(self, model: PlateModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = model
        self.disc = SelectionDisc()
        self.listing = QTextBrowser()
        self.listing.setObjectName("selection_list")
        layout = QHBoxLayout(self)
        layout.addWidget(self.disc, 3)
        layout.addWidget(self.listing, 2)
        follow_model(self, model, self._on_model)
        self._stale = True
        self.refresh()

    def _on_model(self, event: str) -> None:
        # a hidden page only notes that it is out of date: no work on every turn of the dials
        if event in ("state", "lang"):
            self._stale = True
            if self.isVisible():
                self.refresh()

    def showEvent(self, ev: object) -> None:  # noqa: N802 - Qt's name
        if self._stale:
            self.refresh()
        super().showEvent(ev)  # type: ignore[arg-type]

    def refresh(self) -> None:
        self._stale = False
        st = self.model.state
        self.plate = selection_plate(st.year_branch, st.year_stem, st.month)
        self.disc.set_plate(self.plate, self.model.lang)
        self.listing.setHtml(selection_html(self.plate, self.model.lang))
