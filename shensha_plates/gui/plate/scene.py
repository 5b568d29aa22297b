"""The plates as graphics items, built the same way for the window and for exports.

:class:`PlateScene` makes one group per plate (its origin the plate's centre) holding the rings,
the fixed branch ring, the selection wedge and the title, laid out from the catalog. The window
puts the groups in its pyqtgraph view; a snapshot puts fresh ones in a plain scene and renders a
fixed rectangle, so the same state gives the same picture whatever the window.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Final
from collections.abc import Mapping, Sequence

import pyqtgraph as pg
from PySide6.QtCore import QRectF
from PySide6.QtWidgets import QGraphicsSimpleTextItem

from shensha_plates.core.catalog import Catalog
from shensha_plates.core.cycle import BRANCHES
from shensha_plates.core.engine import Plate
from shensha_plates.core.lang import name_in
from shensha_plates.core.rules import RingPlacing
from shensha_plates.gui.plate.bands_item import BandsItem
from shensha_plates.gui.plate.base_ring_item import BaseRingItem
from shensha_plates.gui.plate.heaven_item import HeavenRingItem
from shensha_plates.gui.fonts import plate_font
from shensha_plates.gui.i18n import tr
from shensha_plates.gui.plate.fit import Metrics, ring_radii
from shensha_plates.gui.plate.ring_item import RingItem
from shensha_plates.gui.plate.slot_paint import METRICS, SlotEntry, metrics_for
from shensha_plates.gui.style import PALETTE, Palette
from shensha_plates.gui.plate.wedge_item import WedgeItem

__all__ = ["PlateScene", "ViewConfig", "PrintView", "slot_entries", "ring_layout", "UPPER", "LOWER", "STACKED"]

UPPER: Final = ("U4", "U3", "U2", "U1")
LOWER: Final = ("L7", "L6", "L5", "L1", "L3", "L4", "L2")
STACKED: Final = UPPER + LOWER
UPPER_BESIDE_SPARSE = 1.1


@dataclass(frozen=True)
class ViewConfig:
    """How the plates are laid out and written: side by side or stacked, which branch is up, text mode."""

    layout: str = "side"          # side | stacked
    orientation: str = "south"    # south (午 up) | north (子 up)
    text_mode: str = "radial"     # radial | upright
    mountains: bool = False
    char_px: float = 13.0
    high_contrast: bool = False
    plate: str = "both"           # both | upper | lower: one plate alone, as large as the canvas allows
    heaven: bool = False          # the Liu Ren rings (heaven plate, generals) around the lower plate
    general_names: bool = False   # the heaven ring also names each month general (登明 …)

    @property
    def palette(self) -> Palette:
        from shensha_plates.gui.style import HIGH_CONTRAST
        return HIGH_CONTRAST if self.high_contrast else PALETTE


@dataclass(frozen=True)
class PrintView(ViewConfig):
    """The plates' view on white paper, for print (snapshots and the booklet)."""

    @property
    def palette(self) -> Palette:
        from shensha_plates.gui.style import PRINT_PALETTE
        return PRINT_PALETTE


def _ring_index(plate: Plate) -> dict[tuple[str, str, int], str]:
    """(ring, spirit id, branch) → the label the rule gives there, for every ring placement."""
    return {(p.ring, p.spirit.id, b): p.at for b, row in enumerate(plate.positions) for p in row if p.ring}


def slot_entries(plate: Plate, ring_id: str, lang: str,
                 index: dict[tuple[str, str, int], str] | None = None,
                 in_force: Mapping[str, bool] | None = None, readings: bool = False) -> list[tuple[SlotEntry, ...]]:
    """The names on each slot of a ring, as the core's plate gives them (linked mode: slot k lies
    on branch anchor + k). Spirits that the state leaves out (e.g. 阳缠 in a yin year) are skipped.
    ``index`` (from one pass over the plate) saves rescanning it for every ring. ``readings``: each
    name carries its pinyin (from :func:`shensha_plates.core.english.pinyin`), drawn under it where
    the slot has room."""
    if readings:
        from shensha_plates.core.english import pinyin
    rp = plate.ring(ring_id)
    where = index if index is not None else _ring_index(plate)
    out: list[tuple[SlotEntry, ...]] = []
    for k in range(12):
        entries = []
        branch = rp.branch_of_slot(k)
        for spirit in rp.slots[k]:
            at = where.get((ring_id, spirit.id, branch))
            if at is None:
                continue
            suffix = at if at not in BRANCHES else ""
            # a conditional name the Liu Ren plate decides: normal ink in force, dimmed when not
            decided = None if in_force is None else in_force.get(spirit.id)
            entries.append(SlotEntry(
                spirit_id=spirit.id, text=name_in(spirit, lang),
                quality=spirit.quality, suffix=suffix,
                conditional=spirit.condition is not None and decided is not True,
                has_variants=bool(spirit.variants), dimmed=decided is False,
                reading=pinyin(spirit.name) if readings else ""))
        out.append(tuple(entries))
    return out


def ring_slot_specs(catalog: Catalog, ring_id: str, metrics: Metrics) -> list[list[tuple[int, float]]]:
    """The names each slot of a ring can hold, for the fitter (:meth:`shensha_plates.gui.plate.fit.Metrics.spec`):
    the longer of the simplified and traditional forms, with a stem or trigram label where the rule
    gives one."""
    slots: list[list[tuple[int, float]]] = [[] for _ in range(12)]
    for s in catalog.spirits:
        p = s.rule
        if not isinstance(p, RingPlacing) or p.ring != ring_id:
            continue
        suffix = "甲" if p.at else ""
        spec = max(metrics.spec(s.name, suffix), metrics.spec(s.name_trad, suffix))
        for o in p.offsets:
            slots[o].append(spec)
    return slots


def ring_layout(catalog: Catalog, order: Sequence[str], char_px: float, start: float,
                metrics: Metrics = METRICS, sparse: float = 1.35) -> dict[str, tuple[float, float, float]]:
    """Radii (inner, outer) and type size of rings from the centre outwards: each ring as wide as
    its fullest slot needs for its names at the ring's size (:func:`shensha_plates.gui.plate.fit.ring_radii`), so
    crowded rings get the width they need and sparse ones little. Rings with one name a slot get
    larger type: they have the room."""
    specs = []
    for rid in order:
        slots = ring_slot_specs(catalog, rid, metrics)
        c = char_px * (sparse if max(len(s) for s in slots) <= 1 else 1.0)
        specs.append((rid, slots, c))
    radii = ring_radii(specs, start, metrics)
    return {rid: (*radii[rid], c) for rid, _, c in specs}


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
        self.heaven: dict[str, HeavenRingItem] = {"TH": HeavenRingItem("TH", "heaven"),
                                                  "TG": HeavenRingItem("TG", "generals")}
        self.heaven_group: str | None = None  # the plate the heaven rings sit on, when shown
        self.extras: list[object] = []  # items a caller adds to the plates (an export's years tags), kept alive here
        # anything drawn round a plate beyond its ring of branches (the heaven rings) adds its width
        # here, so that the arrangement, the titles and the scene rectangle make room for it
        self.beyond: dict[str, float] = {}

    def plate_radius(self, name: str) -> float:
        """The radius of everything a plate draws, from its centre (the heaven rings included)."""
        return self.bases[name].outer_radius + self.beyond.get(name, 0.0)

    def build(self, config: ViewConfig, catalog: Catalog, selected: int | None = None,
              cached: bool = True) -> list[_PlateGroup]:
        """(Re)make the groups for ``config``; returns them for the caller to put in a scene."""
        self.config = config
        palette = config.palette
        for group in self.groups.values():
            for child in list(group.childItems()):
                if isinstance(child, RingItem):  # the heaven rings too: they are RingItems
                    child.setParentItem(None)
        self.heaven_group = None
        self.beyond = {}
        self.extras = []  # they went with their groups
        self.groups, self.bases, self.wedges, self.titles = {}, {}, {}, {}
        self.bands = {}
        self.beyond = {}
        c = config.char_px
        plates: list[tuple[str, Sequence[str]]]
        if config.plate in ("upper", "lower"):
            plates = [(config.plate, UPPER if config.plate == "upper" else LOWER)]
        elif config.layout == "stacked":
            plates = [("stacked", STACKED)]
        else:
            plates = [("upper", UPPER), ("lower", LOWER)]
        for name, order in plates:
            group = _PlateGroup()
            self.groups[name] = group
            # beside the lower plate, the upper one (a name a slot) keeps its type near the lower's so
            # that the lower plate, the crowded one, gets the room
            sparse = UPPER_BESIDE_SPARSE if name == "upper" and config.plate == "both" else 1.35
            radii = ring_layout(catalog, order, c, start=c * 2.6, metrics=metrics_for(config.text_mode), sparse=sparse)
            bands = BandsItem(group)
            bands.setZValue(-1)
            bands.configure([(radii[rid][0], radii[rid][1], rid.startswith("U"), radii[rid][2]) for rid in order],
                            config.orientation, palette, cached=cached)
            self.bands[name] = bands
            for rid in order:
                ring = self.rings[rid]
                ring.setParentItem(group)
                ring.char_px = radii[rid][2]
                ring.set_text_mode(config.text_mode)
                ring.set_orientation(config.orientation)
                ring.set_geometry(radii[rid][0], radii[rid][1])
            r_base = max(r for _, r, _ in radii.values())
            base = BaseRingItem(group)
            base.configure(r_base, c * 1.0, config.orientation, config.mountains, palette, cached=cached)
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
            if config.heaven and name in ("lower", "stacked"):
                self._place_heaven(name, group, base, config, cached)
        if self.heaven_group is None:
            # not shown, but owned by a plate all the same: a ring with no parent outside any scene
            # would be kept alive for ever by its own signal connections (nothing in Qt deletes it)
            first = next(iter(self.groups.values()))
            for ring in self.heaven.values():
                ring.setParentItem(first)
                ring.setVisible(False)
        self.arrange()
        return list(self.groups.values())

    def arrange(self, aspect: float | None = None, extra: dict[str, float] | None = None) -> None:
        """Place the two plates of the side-by-side layout to fill a canvas of ``aspect`` (width /
        height) as fully as they can: side by side, the smaller plate raised towards a corner, or
        above the other on a tall canvas. Without an aspect, straight side by side. ``extra``: room
        to keep round a plate beyond its rim (a trace's marks)."""
        if set(self.groups) != {"upper", "lower"}:
            for group in self.groups.values():
                group.setPos(0, 0)
            return
        extra = extra or {}
        ru = self.plate_radius("upper") + extra.get("upper", 0.0)
        rl = self.plate_radius("lower") + extra.get("lower", 0.0)
        d = ru + rl + self.config.char_px * 1.5
        best = (180.0, 0.0)
        if aspect is not None and aspect > 0:
            best = (-1.0, 0.0)
            # the upper plate's centre seen from the lower's: left (180°) round to straight above (270°)
            for step in range(0, 91):
                phi = math.radians(180.0 + step)
                ux, uy = d * math.cos(phi), d * math.sin(phi)
                w = max(rl, ux + ru) - min(-rl, ux - ru)
                h = max(rl, uy + ru) - min(-rl, uy - ru)
                fill = min(aspect / w, 1.0 / h)
                if fill > best[1] * 1.0005:  # the first (most side by side) of equal fits
                    best = (180.0 + step, fill)
        phi = math.radians(best[0])
        ux, uy = d * math.cos(phi), d * math.sin(phi)
        # centre the pair's bounding box on the origin
        x0, x1 = min(-rl, ux - ru), max(rl, ux + ru)
        y0, y1 = min(-rl, uy - ru), max(rl, uy + ru)
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        self.groups["lower"].setPos(-cx, -cy)
        self.groups["upper"].setPos(ux - cx, uy - cy)

    def _place_heaven(self, name: str, group: _PlateGroup, base: BaseRingItem, config: ViewConfig,
                      cached: bool) -> None:
        """The heaven ring just outside the earth branches (or the 24 mountains), the generals
        outside it, on a fixed band of their own."""
        cb = base.char_px
        r0 = base.outer_radius
        r1 = r0 + HeavenRingItem.thickness("heaven", cb, config.general_names)
        r2 = r1 + HeavenRingItem.thickness("generals", cb, False)
        bands = BandsItem(group)
        bands.setZValue(-1)
        bands.configure([(r0, r1, True, cb), (r1, r2, True, cb)], config.orientation, config.palette, cached=cached)
        self.bands[name + ":heaven"] = bands
        for rid, (a, b) in (("TH", (r0, r1)), ("TG", (r1, r2))):
            ring = self.heaven[rid]
            ring.setParentItem(group)
            ring.setVisible(True)
            ring.set_geometry(a, b)
            ring.set_orientation(config.orientation)
            ring.char_px = cb
        self.heaven_group = name
        self.beyond[name] = r2 - r0

    def set_names(self, plate: Plate, lang: str, in_force: Mapping[str, bool] | None = None,
                  readings: bool = False) -> None:
        """Give every ring its names for ``plate`` and title each plate; ``in_force`` tells which
        conditional names the Liu Ren plate puts in force (and which not); ``readings``: each name's
        pinyin under it where there is room."""
        index = _ring_index(plate)
        for rid, ring in self.rings.items():
            ring.set_content(slot_entries(plate, rid, lang, index, in_force, readings), ring.char_px,
                             self.config.palette)
        for name, title in self.titles.items():
            key = {"upper": "upper_plate", "lower": "lower_plate", "stacked": "app_title"}[name]
            text = tr(key, lang)
            if title.text() != text or title.data(0) != self.plate_radius(name):
                # only when it changed: a title set again is repainted, and with it the whole plate
                title.setText(text)
                self._place_title(name, title)
                title.setData(0, self.plate_radius(name))

    def _place_title(self, name: str, title: QGraphicsSimpleTextItem) -> None:
        """A plate's title in a corner of its square, clear of the disc (the lower plate's top
        right, where the upper plate never is; the others' top left), shrunk until it clears."""
        r = self.plate_radius(name)
        size = self.config.char_px * 1.6
        while True:
            title.setFont(plate_font(size))
            br = title.boundingRect()
            w, h = br.width(), br.height()
            # the title's corner nearest the centre must stay outside the disc
            if math.hypot(r - w, r - h) >= r + size * 0.2 or size < 6:
                break
            size *= 0.9
        x = r - w if name == "lower" else -r
        title.setPos(x, -r)

    def scene_rect(self) -> QRectF:
        """The fixed rectangle, in plate coordinates, that holds every plate (titles sit in the
        corners of their plates' squares)."""
        rect = QRectF()
        c = self.config.char_px
        for name, group in self.groups.items():
            r = self.plate_radius(name)
            centre = group.pos()
            rect = rect.united(QRectF(centre.x() - r, centre.y() - r, 2 * r, 2 * r))
        return rect.adjusted(-c * 0.1, -c * 0.1, c * 0.1, c * 0.1)
