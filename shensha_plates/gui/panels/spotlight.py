"""The spotlight of presentation mode: every name under the selected branch, in type large enough
for a classroom's back row, beside the plate (which stays in view, the branch marked on it).

It reads what the discs show (so it agrees with the plate in paper mode too) and sizes its type
from the screen: 28 px or more on a 1920×1080 projector.
"""

from __future__ import annotations

import html
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QScrollArea, QWidget

from shensha_plates.core.cycle import BRANCHES
from shensha_plates.core.lang import name_in
from shensha_plates.gui.fonts import plate_font
from shensha_plates.gui.plate.slot_paint import quality_color

if TYPE_CHECKING:
    from shensha_plates.gui.plate.view import PlateView

__all__ = ["Spotlight", "spotlight_px"]

_MARK = {"good": "○", "bad": "●", "mixed": "◐"}


def spotlight_px(screen_height: int) -> int:
    """The names' size for a screen of this height: 30 px at 1080, never under 28."""
    return max(28, round(screen_height / 36))


class Spotlight(QScrollArea):
    def __init__(self, view: PlateView, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("spotlight")
        self.view = view
        self.branch: int | None = None
        self.px = 30
        self.label = QLabel()
        self.label.setObjectName("spotlight_text")
        self.label.setTextFormat(Qt.TextFormat.RichText)
        self.label.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self.label.setContentsMargins(16, 12, 16, 12)
        self.setWidget(self.label)
        self.setWidgetResizable(True)
        self.setFrameShape(QScrollArea.Shape.NoFrame)
        self.setStyleSheet("QScrollArea#spotlight, QLabel#spotlight_text { background: white; }")
        self.hide()

    def names_shown(self) -> list[str]:
        """The names in the spotlight now (what the tests check against the discs)."""
        return [e.text for rid, entries in self._rings() for e in entries if not self._hidden(rid)]

    def _hidden(self, ring_id: str) -> bool:
        """A disc whose names the quiz hides on the plate is hidden here too."""
        ring = self.view.rings.get(ring_id)
        return ring is not None and ring.names_hidden

    def _rings(self) -> list[tuple[str, tuple]]:
        if self.branch is None:
            return []
        out = []
        for group in self.view.plates.groups.values():
            # outermost ring first: the busiest rings, read from the rim inwards as on the plate
            rings = [(rid, r) for rid, r in self.view.rings.items() if r.parentItem() is group]
            for rid, ring in sorted(rings, key=lambda item: -item[1].r_out):
                anchor = self.view.model.anchors()[rid]  # where the disc is going, not where it is mid-turn
                entries = ring.entries((self.branch - anchor) % 12)
                if entries:
                    out.append((rid, entries))
        return out

    def _raw(self, ring_id: str) -> tuple:
        return next((entries for rid, entries in self._rings() if rid == ring_id), ())

    def show_branch(self, branch: int | None, screen_height: int) -> None:
        self.branch = branch
        self.px = spotlight_px(screen_height)
        self.label.setFont(plate_font(self.px))
        self.refresh()

    def refresh(self) -> None:
        if self.branch is None:
            self.label.setText("")
            return
        px = self.px
        pal = self.view.config.palette
        lang = self.view.model.lang
        catalog = self.view.model.catalog
        width = max(200, self.viewport().width() - 32)
        english = lang == "en"  # issue 28: each name with its pinyin under it, each disc with its English name
        per_row = max(1, int(width // (px * (4.6 if english else 3.6))))
        if english:
            from shensha_plates.core.english import english as english_tables, pinyin
        rows = [f"<div style='font-size:{px * 2}px;font-weight:bold'>{BRANCHES[self.branch]}</div>"]
        table = []
        for rid, entries in self._rings():
            ring = catalog.ring(rid)
            ring_name = name_in(ring, lang)
            words = english_tables().rings.get(ring.id, "") if english else ""
            table.append(f"<tr><td colspan='{per_row}' style='font-size:{px}px;"
                         f"color:{pal.rule.name()};padding-top:6px'>{html.escape(ring_name)}"
                         + (f" <span style='font-size:{round(px * 0.6)}px'>{html.escape(words)}</span>" if words else "")
                         + "</td></tr>")
            cells = []
            if self._hidden(rid):  # the quiz asks where this disc's spirits are
                entries = ()
                cells = [f"<td style='font-size:{px}px;color:{pal.rule.name()}'>？</td>"] * len(self._raw(rid))
            for e in entries:
                color = quality_color(pal, e.quality).name()
                weight = "bold" if e.quality == "bad" else "normal"
                suffix = (f"<span style='color:{pal.rule.name()};font-size:{round(px * 0.75)}px'>"
                          f"{html.escape(e.suffix)}</span>") if e.suffix else ""
                cells.append(f"<td style='padding-right:{px // 2}px'><span style='color:{color};font-weight:{weight};"
                             f"font-size:{px}px'>{html.escape(e.text)}</span>{suffix}"
                             f"<span style='color:{color};font-size:{round(px * 0.55)}px'>"
                             f"{_MARK.get(e.quality, '◐')}</span>"
                             + (f"<br><span style='color:{pal.rule.name()};font-size:{round(px * 0.5)}px'>"
                                f"{html.escape(pinyin(e.text))}</span>" if english else "") + "</td>")
            for i in range(0, len(cells), per_row):
                table.append("<tr>" + "".join(cells[i:i + per_row]) + "</tr>")
        rows.append("<table cellspacing='0' cellpadding='0'>" + "".join(table) + "</table>")
        self.label.setText("".join(rows))
