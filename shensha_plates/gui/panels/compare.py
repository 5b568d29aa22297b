"""Two states side by side (the classroom's compare): the plates at the screen's size, marking only the
spirits whose place changed (a disc that merely turned is named once), and counting them."""

from __future__ import annotations

from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QDialog, QHBoxLayout, QLabel, QTextBrowser, QVBoxLayout, QWidget

from shensha_plates.core.cycle import BRANCHES
from shensha_plates.core.engine import Options, Plate, State
from shensha_plates.core.lang import name_in
from shensha_plates.gui.describe import spirit_name, state_label
from shensha_plates.gui.fonts import plate_font
from shensha_plates.gui.i18n import tr
from shensha_plates.gui.model import PlateModel
from shensha_plates.gui.plate.scene import ViewConfig
from shensha_plates.gui.plate.view import PlateView

__all__ = ["CompareDialog"]


class CompareDialog(QDialog):
    """Two states side by side; the spirits whose place differs are highlighted on both plates and
    listed with where they lie in each."""

    def __init__(self, model: PlateModel, a: tuple[State, Options], b: tuple[State, Options],
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("compare_dialog")
        lang = model.lang
        self.models = [PlateModel(st, op, model.catalog, lang) for st, op in (a, b)]
        self.views = [PlateView(m) for m in self.models]
        row = QHBoxLayout()
        for v, m in zip(self.views, self.models, strict=True):
            v.apply_config(ViewConfig(layout="stacked"))
            v.set_reduce_motion(True)
            col = QVBoxLayout()
            label = QLabel(state_label(m.state, lang) + "  " + " ".join(m.options.to_choices()))
            label.setFont(plate_font(16))
            col.addWidget(label)
            col.addWidget(v, 1)
            row.addLayout(col, 1)
        pa, pb = (m.plate for m in self.models)
        where = lambda plate, sid: tuple(sorted(p.branch for p in plate.find(sid)))  # noqa: E731
        ids = {p.spirit.id for row_ in pa.positions for p in row_} | {p.spirit.id for row_ in pb.positions for p in row_}
        # what changed: a spirit on a disc that merely turned is where its disc puts it (the turn shows
        # that); marked are the spirits whose place on their disc, or whose branch off the discs, differs
        # (with a month turned, marking every month spirit marked 174 names and said nothing)
        anchors = [{r.ring.id: r.anchor for r in plate.rings} for plate in (pa, pb)]

        def place(k: int, plate: Plate, sid: str) -> tuple[tuple[str, int], ...]:
            return tuple(sorted((p.ring, (p.branch - anchors[k][p.ring]) % 12) if p.ring else ("", p.branch)
                                for p in plate.find(sid)))
        self.differences = sorted(sid for sid in ids if place(0, pa, sid) != place(1, pb, sid))
        self.turned = sorted(rid for rid in anchors[0] if anchors[0][rid] != anchors[1].get(rid))
        for v in self.views:
            v.highlight(frozenset(self.differences))
        self.listing = QTextBrowser()
        self.listing.setObjectName("compare_list")
        lines = []
        for sid in self.differences:
            sp = model.catalog.spirit(sid)
            wa = "、".join(BRANCHES[b] for b in where(pa, sid)) or "—"
            wb = "、".join(BRANCHES[b] for b in where(pb, sid)) or "—"
            lines.append(f"<b>{spirit_name(sp, lang)}</b>：{wa} → {wb}")
        turned = "、".join(name_in(model.catalog.ring(rid), lang)
                          for rid in self.turned)
        self.listing.setHtml(f"<p><b>{tr('cls_differences', lang, n=len(self.differences))}</b>"
                             + (f"　{tr('cls_turned', lang, n=len(self.turned), rings=turned)}" if self.turned else "")
                             + "</p>" + "<br/>".join(lines))
        outer = QVBoxLayout(self)
        outer.addLayout(row, 3)
        outer.addWidget(self.listing, 1)
        self.setWindowTitle(tr("cls_compare", lang))
        # as large as the screen allows (a fixed 1300×860 ran off a 1280×800 screen), the plates scaling with it
        screen = (parent.screen() if parent is not None else None) or QGuiApplication.primaryScreen()
        area = screen.availableGeometry() if screen is not None else None
        if area is not None:
            self.resize(max(640, round(area.width() * 0.94)), max(480, round(area.height() * 0.92)))
        else:
            self.resize(1200, 760)
