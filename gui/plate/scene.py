"""The plates as graphics items, built the same way for the window and for exports.

:class:`PlateScene` makes one group per plate (its origin the plate's centre) holding the rings,
the fixed branch ring, the selection wedge and the title, laid out from the catalog. The window
puts the groups in its pyqtgraph view; a snapshot puts fresh ones in a plain scene and renders a
fixed rectangle, so the same state gives the same picture whatever the window.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final
from collections.abc import Sequence

import pyqtgraph as pg
from PySide6.QtCore import QRectF
from PySide6.QtWidgets import QGraphicsSimpleTextItem

from core.catalog import Catalog
from core.cycle import BRANCHES
from core.engine import Plate
from gui.plate.bands_item import BandsItem
from gui.plate.base_ring_item import BaseRingItem
from gui.fonts import plate_font
from gui.i18n import tr
from gui.plate.ring_item import RingItem, SlotEntry
from gui.style import PALETTE, Palette
from gui.plate.wedge_item import WedgeItem

__all__ = ["PlateScene", "ViewConfig", "slot_entries", "ring_layout", "UPPER", "LOWER", "STACKED"]

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


def _ring_index(plate: Plate) -> dict[tuple[str, str, int], str]:
    """(ring, spirit id, branch) → the label the rule gives there, for every ring placement."""
    return {(p.ring, p.spirit.id, b): p.at for b, row in enumerate(plate.positions) for p in row if p.ring}


def slot_entries(plate: Plate, ring_id: str, lang: str,
                 index: dict[tuple[str, str, int], str] | None = None) -> list[tuple[SlotEntry, ...]]:
    """The names on each slot of a ring, as the core's plate gives them (linked mode: slot k lies
    on branch anchor + k). Spirits that the state leaves out (e.g. 阳缠 in a yin year) are skipped.
    ``index`` (from one pass over the plate) saves rescanning it for every ring."""
    rp = plate.ring(ring_id)
    where = index if index is not None else _ring_index(plate)
    trad = lang == "zh-Hant"
    out: list[tuple[SlotEntry, ...]] = []
    for k in range(12):
        entries = []
        branch = rp.branch_of_slot(k)
        for spirit in rp.slots[k]:
            at = where.get((ring_id, spirit.id, branch))
            if at is None:
                continue
            suffix = at if at not in BRANCHES else ""
            entries.append(SlotEntry(
                spirit_id=spirit.id, text=spirit.name_trad if trad else spirit.name,
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


class PlateScene:
    """The graphics items of the plates for one configuration (not a QObject: it only holds them)."""

    def __init__(self, rings: dict[str, RingItem] | None = None) -> None:
        self.rings: dict[str, RingItem] = rings if rings is not None else {
            rid: RingItem(rid, upper=rid.startswith("U")) for rid in STACKED}
        self.config = ViewConfig()
        self.groups: dict[str, _PlateGroup] = {}
        self.bases: dict[str, BaseRingItem] = {}
        self.wedges: dict[str, WedgeItem] = {}
        self.titles: dict[str, QGraphicsSimpleTextItem] = {}
        self.bands: dict[str, BandsItem] = {}

    def build(self, config: ViewConfig, catalog: Catalog, selected: int | None = None,
              cached: bool = True) -> list[_PlateGroup]:
        """(Re)make the groups for ``config``; returns them for the caller to put in a scene."""
        self.config = config
        palette = config.palette
        for group in self.groups.values():
            for child in list(group.childItems()):
                if isinstance(child, RingItem):
                    child.setParentItem(None)
        self.groups, self.bases, self.wedges, self.titles = {}, {}, {}, {}
        self.bands = {}
        c = config.char_px
        plates: list[tuple[str, Sequence[str]]] = (
            [("stacked", STACKED)] if config.layout == "stacked" else [("upper", UPPER), ("lower", LOWER)])
        extents: dict[str, float] = {}
        for name, order in plates:
            group = _PlateGroup()
            self.groups[name] = group
            radii = ring_layout(catalog, order, c, start=c * 2.6)
            bands = BandsItem(group)
            bands.setZValue(-1)
            bands.configure([(radii[rid][0], radii[rid][1], rid.startswith("U"), radii[rid][2]) for rid in order],
                            config.orientation, palette, cached=cached)
            self.bands[name] = bands
            for rid in order:
                ring = self.rings[rid]
                ring.setParentItem(group)
                ring.set_geometry(radii[rid][0], radii[rid][1])
                ring.char_px = radii[rid][2]
                ring.set_orientation(config.orientation)
                ring.set_text_mode(config.text_mode)
            r_base = max(r for _, r, _ in radii.values())
            base = BaseRingItem(group)
            base.configure(r_base, c * 1.25, config.orientation, config.mountains, palette, cached=cached)
            self.bases[name] = base
            wedge = WedgeItem(group)
            wedge.configure(base.outer_radius, config.orientation, palette, cached=cached)
            wedge.setZValue(10)
            wedge.set_branch(selected)
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
        return list(self.groups.values())

    def set_names(self, plate: Plate, lang: str) -> None:
        """Give every ring its names for ``plate`` and title each plate."""
        index = _ring_index(plate)
        for rid, ring in self.rings.items():
            ring.set_content(slot_entries(plate, rid, lang, index), ring.char_px, self.config.palette)
        for name, title in self.titles.items():
            key = {"upper": "upper_plate", "lower": "lower_plate", "stacked": "app_title"}[name]
            title.setText(tr(key, lang))
            br = title.boundingRect()
            r = self.bases[name].outer_radius
            title.setPos(-br.width() / 2, -r - self.config.char_px * 2.9)

    def scene_rect(self) -> QRectF:
        """The fixed rectangle, in plate coordinates, that holds every plate and its title."""
        rect = QRectF()
        c = self.config.char_px
        for name, group in self.groups.items():
            r = self.bases[name].outer_radius
            centre = group.pos()
            rect = rect.united(QRectF(centre.x() - r, centre.y() - r - c * 3.2, 2 * r, 2 * r + c * 3.2))
        return rect.adjusted(-c, -c, c, c)
