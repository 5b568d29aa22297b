"""A lens where the pointer is: the names of the slot under the pointer, and of its branch, in
large type beside the pointer — no click, and never over the slot itself.

The lens is a label floating over the plate canvas. It follows the pointer, and it follows the
discs too: while a disc turns under a still pointer, the slot under it changes and so does the lens.
"""

from __future__ import annotations

import html
import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from PySide6.QtCore import QEvent, QObject, QPoint, QPointF, QRect, Qt
from PySide6.QtGui import QMouseEvent
from PySide6.QtWidgets import QLabel, QWidget

from shensha_plates.core.cycle import BRANCHES
from shensha_plates.core.lang import name_in
from shensha_plates.gui.describe import to_lang
from shensha_plates.gui.fonts import plate_font
from shensha_plates.gui.i18n import tr
from shensha_plates.gui.plate.ring_item import RingItem
from shensha_plates.gui.plate.slot_paint import box_rect, quality_color, slot_flipped

if TYPE_CHECKING:
    from collections.abc import Mapping

    from PySide6.QtCore import QPoint as _QPoint
    from shensha_plates.gui.model import PlateModel
    from shensha_plates.gui.plate.scene import PlateScene, ViewConfig


class LensView(Protocol):
    """What the lens reads of the view it watches (the plate view is one): a protocol, so that the view
    may own its lens without an import circle."""

    @property
    def plates(self) -> PlateScene: ...
    @property
    def rings(self) -> Mapping[str, RingItem]: ...
    @property
    def model(self) -> PlateModel: ...
    @property
    def config(self) -> ViewConfig: ...

    def viewport(self) -> QWidget: ...
    def mapToScene(self, point: _QPoint) -> QPointF: ...
    def mapFromScene(self, point: QPointF) -> _QPoint: ...

__all__ = ["Lens", "SlotHit", "slot_at", "LENS_PX", "BRANCH_PX"]

LENS_PX = 22    # the hovered slot's names
BRANCH_PX = 18  # the rest of its branch
_MARK = {"good": "○", "bad": "●", "mixed": "◐"}


@dataclass(frozen=True, slots=True)
class SlotHit:
    """The slot under the pointer: its disc, slot and the branch it stands on."""

    ring_id: str
    slot: int
    branch: int
    plate: str  # the plate group's name


def slot_at(view: LensView, scene_pos: QPointF) -> SlotHit | None:
    """The disc slot under a scene point, as the discs stand now (also while one turns)."""
    for name, group in view.plates.groups.items():
        pt = group.mapFromScene(scene_pos)
        r = math.hypot(pt.x(), pt.y())
        for rid, ring in view.rings.items():
            if ring.parentItem() is not group or not (ring.r_in <= r < ring.r_out):
                continue
            angle = math.degrees(math.atan2(pt.y(), pt.x()))
            branch = ring.branch_at(scene_pos)
            # the slot whose centre is nearest the pointer's angle, with the ring's rotation now
            slot = round((angle - ring.rotation() - _angle0(ring)) / 30.0) % 12
            return SlotHit(rid, slot, branch, name)
    return None


def _angle0(ring: RingItem) -> float:
    from shensha_plates.gui.style import branch_angle
    return branch_angle(0, ring.orientation)


class Lens(QObject):
    """Watches the pointer over a plate view (:class:`LensView`) and shows what is under it."""

    def __init__(self, view: LensView) -> None:
        super().__init__(view.viewport())  # owned by the view's viewport, deleted with it
        self.view = view
        self.enabled = True
        self.label = QLabel(view.viewport())
        self.label.setObjectName("lens")
        self.label.setTextFormat(Qt.TextFormat.RichText)
        self.label.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        self.label.setFont(plate_font(BRANCH_PX))
        self.label.setStyleSheet("QLabel#lens { background: rgb(255, 253, 246); border: 1px solid #8a7a5a;"
                                 " border-radius: 6px; padding: 6px 10px; }")
        self.label.hide()
        self.hit: SlotHit | None = None
        self._pos: QPoint | None = None
        self._key: object = None
        view.viewport().setMouseTracking(True)
        view.viewport().installEventFilter(self)
        for ring in view.rings.values():
            ring.sigRotationChanged.connect(self._on_turn)

    def set_enabled(self, on: bool) -> None:
        self.enabled = on
        if not on:
            self.hide()

    def hide(self) -> None:
        self.label.hide()
        self.hit = None
        self._key = None

    def eventFilter(self, obj: QObject, ev: QEvent) -> bool:  # noqa: N802 - Qt's name
        t = ev.type()
        if t in (QEvent.Type.MouseMove, QEvent.Type.MouseButtonPress) and isinstance(ev, QMouseEvent):
            self._pos = ev.position().toPoint()
            self.update()
        elif t == QEvent.Type.Leave:
            self._pos = None
            self.hide()
        return False

    def _on_turn(self, *_args: object) -> None:
        if self._pos is not None and self.label.isVisible():
            self.update()

    def refresh(self) -> None:
        """The names changed (a new state or language): show the new ones."""
        self._key = None
        if self._pos is not None:
            self.update()

    def update(self) -> None:
        if not self.enabled or self._pos is None:
            self.hide()
            return
        scene_pos = self.view.mapToScene(self._pos)
        hit = slot_at(self.view, QPointF(scene_pos))
        if hit is None or not self.view.rings[hit.ring_id].entries(hit.slot):
            self.hide()
            return
        self.hit = hit
        ring = self.view.rings[hit.ring_id]
        key = (hit, ring.entries(hit.slot), self.view.model.lang, self.view.model.names)
        if key != self._key:
            self._key = key
            self.label.setText(self._html(hit))
            self.label.adjustSize()
        self._place(ring, hit)
        self.label.show()
        self.label.raise_()

    # -- content ------------------------------------------------------------------------------
    def _names_english(self, ring: RingItem, slot: int, px: int) -> str:
        """English mode (issue 28): each name of the hovered slot on its own line, with its pinyin and
        English gloss ("天马 Tiānmǎ · Heavenly Horse")."""
        from shensha_plates.core.english import english, pinyin
        pal = self.view.config.palette
        en = english()
        lines = []
        for e in ring.entries(slot):
            color = quality_color(pal, e.quality).name() if not e.dimmed else pal.rule.name()
            gloss = en.spirit(e.spirit_id).gloss
            lines.append(f"<span style='color:{color};font-size:{px}px'>{html.escape(e.text + e.suffix)}</span> "
                         f"<span style='color:{pal.rule.name()};font-size:{round(px * 0.62)}px'>"
                         f"{html.escape(pinyin(e.text))}{' · ' + html.escape(gloss) if gloss else ''}</span>")
        return "<br>".join(lines)

    def _names(self, ring: RingItem, slot: int, px: int) -> str:
        pal = self.view.config.palette
        parts = []
        for e in ring.entries(slot):
            color = quality_color(pal, e.quality).name() if not e.dimmed else pal.rule.name()
            weight = "bold" if e.quality == "bad" else "normal"
            suffix = f"<span style='color:{pal.rule.name()}'>{html.escape(e.suffix)}</span>" if e.suffix else ""
            parts.append(f"<span style='color:{color};font-weight:{weight};font-size:{px}px'>"
                         f"{html.escape(e.text)}{suffix}<span style='font-size:{round(px * 0.6)}px'>"
                         f"{_MARK.get(e.quality, '◐')}</span></span>")
        return "　".join(parts)

    def _html(self, hit: SlotHit) -> str:
        ring = self.view.rings[hit.ring_id]
        cat = self.view.model.catalog.ring(hit.ring_id)
        lang = self.view.model.lang
        ring_name = name_in(cat, lang)
        pal = self.view.config.palette
        english = lang == "en"
        if english:
            from shensha_plates.core.english import english as english_tables
            ring_name += " · " + english_tables().rings.get(cat.id, "")
        names = self._names_english(ring, hit.slot, LENS_PX) if english else self._names(ring, hit.slot, LENS_PX)
        rows = [f"<div style='font-size:{LENS_PX}px;white-space:nowrap'><b>{BRANCHES[hit.branch]}</b>　"
                f"<span style='color:{pal.rule.name()}'>{html.escape(ring_name)}</span><br>"
                f"{names}</div>"]
        # a conditional name the Liu Ren plate decides: in force or not, and why (the core's reason)
        decided = {n.spirit: n for n in self.view.model.names if n.spirit is not None and n.spirit == n.id
                   and n.in_force is not None}
        why = [f"{html.escape(e.text)}：{tr('in_force' if decided[e.spirit_id].in_force else 'not_in_force', lang)}"
               + ("" if english else f"，{html.escape(to_lang(decided[e.spirit_id].reason, lang))}")
               for e in ring.entries(hit.slot) if e.spirit_id in decided]
        if why:
            rows.append(f"<div style='font-size:{BRANCH_PX}px;color:{pal.rule.name()}'>" + "<br>".join(why) + "</div>")
        others = []
        group = self.view.plates.groups[hit.plate]
        for rid, other in self.view.rings.items():
            if rid == hit.ring_id or other.parentItem() is not group:
                continue
            slot = (hit.branch - other.anchor) % 12
            if other.entries(slot):
                others.append(self._names(other, slot, BRANCH_PX))
        if others:
            rows.append(f"<hr><div style='font-size:{BRANCH_PX}px'>" + "<br>".join(others) + "</div>")
        return "".join(rows)

    # -- where ------------------------------------------------------------------------------------
    def _slot_rect(self, ring: RingItem, slot: int) -> QRect:
        """The hovered slot's names on the viewport, so that the lens can keep off them."""
        fit = ring.slot_fit(slot)
        angle = _angle0(ring) + 30.0 * slot
        mid = (ring.r_in + ring.r_out) / 2
        screen = (angle + ring.rotation()) % 360
        flipped = slot_flipped(screen, ring.text_mode, fit.horizontal)
        poly = []
        a = math.radians(angle)
        turn = angle + 90.0
        for b in (fit.flipped_boxes if flipped else fit.boxes):
            r = box_rect(b, mid)
            for corner in (r.topLeft(), r.topRight(), r.bottomLeft(), r.bottomRight()):
                # slot frame → ring coordinates → scene → viewport
                t = math.radians(turn)
                x = mid * math.cos(a) + corner.x() * math.cos(t) - corner.y() * math.sin(t)
                y = mid * math.sin(a) + corner.x() * math.sin(t) + corner.y() * math.cos(t)
                poly.append(self.view.mapFromScene(ring.mapToScene(QPointF(x, y))))
        if not poly:
            return QRect()
        xs, ys = [p.x() for p in poly], [p.y() for p in poly]
        return QRect(QPoint(min(xs), min(ys)), QPoint(max(xs), max(ys)))

    def _place(self, ring: RingItem, hit: SlotHit) -> None:
        assert self._pos is not None
        vp = self.view.viewport().rect()
        # never wider or taller than the canvas (in presentation the canvas is narrower than the window)
        self.label.setMaximumSize(max(80, vp.width() - 8), max(60, vp.height() - 8))
        size = self.label.sizeHint().boundedTo(self.label.maximumSize())
        self.label.resize(size)
        avoid = self._slot_rect(ring, hit.slot).adjusted(-6, -6, 6, 6)
        p = self._pos
        candidates = [QPoint(p.x() + 24, p.y() + 24), QPoint(p.x() - 24 - size.width(), p.y() + 24),
                      QPoint(p.x() + 24, p.y() - 24 - size.height()),
                      QPoint(p.x() - 24 - size.width(), p.y() - 24 - size.height()),
                      QPoint(avoid.right() + 8, p.y() - size.height() // 2),
                      QPoint(avoid.left() - 8 - size.width(), p.y() - size.height() // 2),
                      QPoint(p.x() - size.width() // 2, avoid.bottom() + 8),
                      QPoint(p.x() - size.width() // 2, avoid.top() - 8 - size.height())]
        best = None
        for c in candidates:
            # keep it on the canvas
            x = min(max(0, c.x()), max(0, vp.width() - size.width()))
            y = min(max(0, c.y()), max(0, vp.height() - size.height()))
            rect = QRect(QPoint(x, y), size)
            overlap = rect.intersected(avoid)
            cost = overlap.width() * overlap.height()
            if best is None or cost < best[0]:
                best = (cost, rect)
            if cost == 0:
                break
        assert best is not None
        self.label.move(best[1].topLeft())
