"""The plate canvas: Zhuang's discs as ring items in a pyqtgraph view (zoom and pan come with it).

The view follows a :class:`gui.model.PlateModel`: on every state change it gives each ring its
names (from the core's plate — nothing is computed here) and turns it to the anchor the core gives,
with the same short animation for all. Dragging, wheeling or clicking a disc goes back to the model
as a dial turn (linked mode) or a hand-turned disc (paper mode).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Mapping, Sequence

import pyqtgraph as pg
from PySide6.QtCore import QRectF, Qt, Signal
from PySide6.QtGui import QColor, QFont
from PySide6.QtWidgets import QGraphicsSimpleTextItem, QWidget

from core.catalog import Catalog
from core.cycle import BRANCHES
from core.engine import Plate
from gui.base_ring_item import BaseRingItem
from gui.fonts import plate_font
from gui.model import RING_DIAL, PlateModel
from gui.ring_item import RingItem, SlotEntry
from gui.style import PALETTE, Palette
from gui.wedge_item import WedgeItem

__all__ = ["PlateView", "ViewConfig", "slot_entries", "ring_layout", "UPPER", "LOWER", "STACKED"]

UPPER: Final = ("U4", "U3", "U2", "U1")
LOWER: Final = ("L7", "L6", "L5", "L1", "L3", "L4", "L2")
STACKED: Final = UPPER + LOWER


@dataclass(frozen=True)
class ViewConfig:
    layout: str = "side"          # side | stacked
    orientation: str = "south"    # south (午 up) | north (子 up)
    text_mode: str = "radial"     # radial | upright
    mountains: bool = False
    char_px: float = 13.0
    high_contrast: bool = False

    @property
    def palette(self) -> Palette:
        from gui.style import HIGH_CONTRAST
        return HIGH_CONTRAST if self.high_contrast else PALETTE


def slot_entries(plate: Plate, ring_id: str, lang: str) -> list[tuple[SlotEntry, ...]]:
    """The names on each slot of a ring, as the core's plate gives them (linked mode: slot k lies
    on branch anchor + k). Spirits that the state leaves out (e.g. 阳缠 in a yin year) are skipped."""
    rp = plate.ring(ring_id)
    present = {p.spirit.id: p for row in plate.positions for p in row if p.ring == ring_id}
    out: list[tuple[SlotEntry, ...]] = []
    for k in range(12):
        entries = []
        branch = rp.branch_of_slot(k)
        for spirit in rp.slots[k]:
            if spirit.id not in present:
                continue
            at = next((p.at for p in plate.positions[branch] if p.spirit is spirit), "")
            suffix = at if at and at not in BRANCHES else ""
            entries.append(SlotEntry(
                spirit_id=spirit.id, text=spirit.name_trad if lang == "zh-Hant" else spirit.name,
                quality=spirit.quality, suffix=suffix, conditional=spirit.condition is not None,
                has_variants=bool(spirit.variants)))
        out.append(tuple(entries))
    return out


def ring_layout(catalog: Catalog, order: Sequence[str], char_px: float,
                start: float) -> dict[str, tuple[float, float, float]]:
    """Radii (inner, outer) and text size for rings from the centre outwards, so that the busiest
    slot of each ring fits its names side by side and its longest name fits across the ring.
    Rings with one name a slot get larger type: they have the room."""
    radii: dict[str, tuple[float, float, float]] = {}
    r = start
    for rid in order:
        ring_spirits = [s for s in catalog.spirits if s.rule.kind == "ring" and s.rule.get("ring") == rid]
        per_slot = [0] * 12
        longest = 1.0
        for s in ring_spirits:
            offs = s.rule.get("offset")
            for o in (offs if isinstance(offs, tuple) else (offs,)):
                per_slot[o] += 1
            longest = max(longest, len(s.name) + (0.8 if s.rule.get("at") else 0.0))
        cols = max(per_slot) or 1
        c = char_px * (1.35 if cols == 1 else 1.0)
        col_w = c * 1.12
        need_in = cols * col_w * 1.08 * 12 / (2 * 3.141592653589793) + c * 0.2
        r_in = max(r, need_in)
        thickness = longest * c * 1.02 + c * 0.55 + c * 0.45
        radii[rid] = (r_in, r_in + thickness, c)
        r = r_in + thickness
    return radii


class _PlateGroup(pg.GraphicsObject):
    """An empty container whose origin is a plate's centre."""

    def boundingRect(self) -> QRectF:
        return self.childrenBoundingRect()

    def paint(self, *args: object) -> None:
        pass


class PlateView(pg.GraphicsLayoutWidget):
    sigBranchClicked = Signal(int)
    sigBranchHovered = Signal(int)

    def __init__(self, model: PlateModel, parent: QWidget | None = None) -> None:
        super().__init__(parent=parent)
        self.model = model
        self.config = ViewConfig()
        self.setBackground(self.config.palette.paper)
        self.viewbox: pg.ViewBox = self.addViewBox(lockAspect=True, invertY=True, enableMenu=False)
        self.viewbox.setDefaultPadding(0.02)
        self.groups: dict[str, _PlateGroup] = {}
        self.bases: dict[str, BaseRingItem] = {}
        self.wedges: dict[str, WedgeItem] = {}
        self.titles: dict[str, QGraphicsSimpleTextItem] = {}
        self.rings: dict[str, RingItem] = {}
        self.reduce_motion = False
        self._selected: int | None = None
        self._hidden: set[str] = set()
        self._dimmed: set[str] = set()
        for rid in STACKED:
            ring = RingItem(rid, upper=rid.startswith("U"))
            ring.sigDragStarted.connect(lambda rid=rid: self._drag_started(rid))
            ring.sigRotationChanged.connect(lambda _deg, rid=rid: self._drag_moved(rid))
            ring.sigRotationFinished.connect(lambda anchor, rid=rid: self._drag_finished(rid, anchor))
            ring.sigWheel.connect(lambda steps, rid=rid: self._wheel(rid, steps))
            ring.sigClicked.connect(self.sigBranchClicked.emit)
            ring.sigHovered.connect(self.sigBranchHovered.emit)
            self.rings[rid] = ring
        self.model.subscribe(self._on_model)
        self.apply_config(self.config)

    # -- configuration -------------------------------------------------------------------------
    def apply_config(self, config: ViewConfig) -> None:
        self.config = config
        palette = config.palette
        self.setBackground(palette.paper)
        for item in list(self.groups.values()):
            for child in list(item.childItems()):
                child.setParentItem(None)
            self.viewbox.removeItem(item)
        self.groups.clear()
        self.bases.clear()
        self.wedges.clear()
        self.titles.clear()
        cat = self.model.catalog
        c = config.char_px
        plates: list[tuple[str, Sequence[str]]] = (
            [("stacked", STACKED)] if config.layout == "stacked" else [("upper", UPPER), ("lower", LOWER)])
        extents: dict[str, float] = {}
        for name, order in plates:
            group = _PlateGroup()
            self.viewbox.addItem(group)
            self.groups[name] = group
            radii = ring_layout(cat, order, c, start=c * 2.6)
            for rid in order:
                ring = self.rings[rid]
                ring.setParentItem(group)
                ring.set_geometry(radii[rid][0], radii[rid][1])
                ring.char_px = radii[rid][2]
                ring.set_orientation(config.orientation)
                ring.set_text_mode(config.text_mode)
                ring.reduce_motion = self.reduce_motion
            r_base = max(r for _, r, _ in radii.values())
            base = BaseRingItem(group)
            base.configure(r_base, c * 1.25, config.orientation, config.mountains, palette)
            base.sigClicked.connect(self.sigBranchClicked.emit)
            base.sigHovered.connect(self.sigBranchHovered.emit)
            self.bases[name] = base
            wedge = WedgeItem(group)
            wedge.configure(base.outer_radius, config.orientation, palette)
            wedge.setZValue(10)
            wedge.set_branch(self._selected)
            self.wedges[name] = wedge
            title = QGraphicsSimpleTextItem(group)
            title.setFont(plate_font(c * 1.6))
            title.setBrush(palette.ink)
            self.titles[name] = title
            extents[name] = base.outer_radius
        gap = c * 3.0
        if config.layout == "stacked":
            self.groups["stacked"].setPos(0, 0)
        else:
            ru, rl = extents["upper"], extents["lower"]
            self.groups["upper"].setPos(-(ru + gap / 2), 0)
            self.groups["lower"].setPos(rl + gap / 2, 0)
        self.refresh()
        self.reset_view()

    def reset_view(self) -> None:
        self.viewbox.setRange(rect=self.scene_rect(), padding=0.02)

    def scene_rect(self) -> QRectF:
        """The fixed rectangle every export renders: all plates and their titles."""
        rect = QRectF()
        for name, group in self.groups.items():
            r = self.bases[name].outer_radius
            centre = group.pos()
            rect = rect.united(QRectF(centre.x() - r, centre.y() - r - self.config.char_px * 3.2, 2 * r,
                                      2 * r + self.config.char_px * 3.2))
        return rect.adjusted(-self.config.char_px, -self.config.char_px, self.config.char_px, self.config.char_px)

    # -- following the model -------------------------------------------------------------------
    def _on_model(self, event: str) -> None:
        if event in ("state", "lang"):
            self.refresh(animate=event == "state")
        elif event == "paper":
            self.sync_rotations(animate=True)

    def refresh(self, animate: bool = False) -> None:
        """Give every ring its names for the current state and turn it into place."""
        plate = self.model.plate
        lang = self.model.lang
        palette = self.config.palette
        for rid, ring in self.rings.items():
            ring.set_content(slot_entries(plate, rid, lang), ring.char_px, palette)
        from gui.i18n import tr
        for name, title in self.titles.items():
            key = {"upper": "upper_plate", "lower": "lower_plate", "stacked": "app_title"}[name]
            title.setText(tr(key, lang))
            br = title.boundingRect()
            r = self.bases[name].outer_radius
            title.setPos(-br.width() / 2, -r - self.config.char_px * 2.9)
        self.sync_rotations(animate)

    def sync_rotations(self, animate: bool = True) -> None:
        anchors = self.model.anchors()
        for rid, ring in self.rings.items():
            ring.draggable = True
            ring.allowed = self.model.reachable_anchors(rid)
            if not ring.dragging:
                ring.set_anchor(anchors[rid], animate=animate and not self.reduce_motion)

    def finish_animations(self) -> None:
        for ring in self.rings.values():
            ring.finish_animation()

    def set_reduce_motion(self, on: bool) -> None:
        self.reduce_motion = on
        for ring in self.rings.values():
            ring.reduce_motion = on

    # -- selection and teaching aids -----------------------------------------------------------
    def select_branch(self, branch: int | None) -> None:
        self._selected = branch
        for w in self.wedges.values():
            w.set_branch(branch)

    def highlight(self, spirit_ids: frozenset[str]) -> None:
        for ring in self.rings.values():
            ring.set_highlight(spirit_ids)

    def dim_rings(self, ring_ids: set[str]) -> None:
        self._dimmed = set(ring_ids)
        for rid, ring in self.rings.items():
            ring.set_dimmed(rid in self._dimmed)

    def hide_names(self, ring_ids: set[str]) -> None:
        self._hidden = set(ring_ids)
        for rid, ring in self.rings.items():
            ring.set_names_hidden(rid in self._hidden)

    # -- gestures --------------------------------------------------------------------------------
    def _drag_started(self, rid: str) -> None:
        self.model.begin_gesture()

    def _drag_moved(self, rid: str) -> None:
        ring = self.rings[rid]
        if not ring.dragging or self.model.paper:
            return
        # live: when the dragged disc passes a reachable branch, the other discs follow at once
        anchor = ring.anchor
        if anchor in ring.allowed and anchor != self.model.anchors()[rid]:
            self.model.set_state(self.model.dial_to_anchor(rid, anchor), record=False)

    def _drag_finished(self, rid: str, anchor: int) -> None:
        if self.model.paper:
            self.model.turn_paper_ring(rid, anchor)
        elif anchor != self.model.anchors()[rid]:
            self.model.set_state(self.model.dial_to_anchor(rid, anchor), record=False)
        self.model.end_gesture()
        self.sync_rotations(animate=True)

    def _wheel(self, rid: str, steps: int) -> None:
        if self.model.paper:
            self.model.turn_paper_ring(rid, (self.model.anchors()[rid] + steps) % 12)
        else:
            self.model.step(RING_DIAL[rid], steps)

    def ring_colors(self) -> Mapping[str, QColor]:  # pragma: no cover - used by the legend
        p = self.config.palette
        return {"good": p.good, "bad": p.bad, "mixed": p.mixed}

    def title_font(self) -> QFont:
        return plate_font(self.config.char_px * 1.6)

    def keyPressEvent(self, ev: object) -> None:  # let the window's shortcuts through
        ev.ignore()  # type: ignore[attr-defined]
