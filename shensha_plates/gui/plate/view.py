"""The plate canvas: Zhuang's discs as ring items in a pyqtgraph view (zoom and pan come with it).

The view follows a :class:`shensha_plates.gui.model.PlateModel`: on every state change it gives each ring its
names (from the core's plate — nothing is computed here) and turns it to the anchor the core gives,
with the same short animation for all. Dragging, wheeling or clicking a disc goes back to the model
as a dial turn (linked mode) or a hand-turned disc (paper mode).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING

import pyqtgraph as pg
from PySide6.QtCore import QRectF, Signal
from PySide6.QtGui import QColor, QFont, QPixmapCache
from PySide6.QtWidgets import QGraphicsScene, QGraphicsView, QWidget

from shensha_plates.gui.plate.base_ring_item import BaseRingItem
from shensha_plates.gui.fonts import plate_font
from shensha_plates.gui.style import branch_angle, polar
from shensha_plates.gui.model import HEAVEN_RINGS, RING_DIAL, PlateModel
from shensha_plates.gui.plate.arrows_item import ArrowsItem
from shensha_plates.gui.plate.ring_item import RingItem
from shensha_plates.gui.plate.scene import PlateScene, ViewConfig
from shensha_plates.gui.plate.wedge_item import WedgeItem

if TYPE_CHECKING:
    from shensha_plates.gui.plate.years_item import YearsItem
    from shensha_plates.gui.plate.trace_item import TraceItem

__all__ = ["PlateView"]

class PlateView(pg.GraphicsLayoutWidget):
    sigBranchClicked = Signal(int)
    sigBranchHovered = Signal(int)
    sigTurned = Signal()  # a disc was turned by hand (dragged or wheeled)

    def __init__(self, model: PlateModel, parent: QWidget | None = None) -> None:
        super().__init__(parent=parent)
        # The fixed parts of the plates (bands, branch rings, wedge) are cached as device bitmaps in
        # Qt's pixmap cache. At full-canvas size with the heaven rings those bitmaps together exceed
        # its default 10 MB, and an evicted one is repainted on every frame (19 ms instead of 6).
        QPixmapCache.setCacheLimit(max(QPixmapCache.cacheLimit(), 96 * 1024))
        self.model = model
        self.config = ViewConfig()
        self.setBackground(self.config.palette.paper)
        # every disc turns on every change: keeping a BSP index of some forty items up to date
        # cost more than it saves (a frame of a turning dial about 1.5 ms less without it)
        self.scene().setItemIndexMethod(QGraphicsScene.ItemIndexMethod.NoIndex)
        # pyqtgraph repaints the minimal region: the union of every changed item's box as the screen
        # sees it. A turned disc's box is a turned square, and a state change turns every disc, so
        # that region came to about a thousand rectangles, each bitmap clipped against all of them
        # (a state change's paint 11 ms instead of 3). One rectangle round all that changed instead.
        self.setViewportUpdateMode(QGraphicsView.ViewportUpdateMode.BoundingRectViewportUpdate)
        self.ci.setContentsMargins(0, 0, 0, 0)  # the plates reach the canvas's edges
        self.viewbox: pg.ViewBox = self.addViewBox(lockAspect=True, invertY=True, enableMenu=False)
        self.viewbox.setDefaultPadding(0.0)
        # the plates follow the canvas's shape until the user zooms or pans
        self._user_range = False
        self.viewbox.sigRangeChangedManually.connect(self._range_changed_by_user)
        self.plates = PlateScene()
        self.rings = self.plates.rings
        self.reduce_motion = False
        self._selected: int | None = None
        self._hidden: set[str] = set()
        self._dimmed: set[str] = set()
        self._trace: tuple[str, list[int | None]] | None = None
        self._arrows: tuple[int, ...] = ()
        self.arrows: ArrowsItem | None = None
        self.years: YearsItem | None = None
        self._years: tuple[tuple[int, str, int], ...] = ()
        self.trace_item: TraceItem | None = None
        self.heaven = self.plates.heaven  # the heaven plate and the generals (shown with an hour)
        self.show_heaven = True          # the view option; the rings appear when the state has an hour
        self.general_names = False
        self.readings = False  # each name's pinyin under it on the discs, where there is room
        for rid, ring in {**self.rings, **self.heaven}.items():
            ring.sigDragStarted.connect(lambda rid=rid: self._drag_started(rid))
            ring.sigRotationChanged.connect(lambda _deg, rid=rid: self._drag_moved(rid))
            ring.sigRotationFinished.connect(lambda anchor, rid=rid: self._drag_finished(rid, anchor))
            ring.sigWheel.connect(lambda steps, rid=rid: self._wheel(rid, steps))
            ring.sigClicked.connect(self.sigBranchClicked.emit)
            ring.sigHovered.connect(self.sigBranchHovered.emit)
        self.model.subscribe(self._on_model)
        self.apply_config(self.config)
        from shensha_plates.gui.plate.lens import Lens
        self.lens = Lens(self)

    # -- configuration -------------------------------------------------------------------------
    def all_rings(self) -> dict[str, RingItem]:
        """Every disc that turns: the catalog's rings, and the heaven rings when they are shown."""
        if self.config.heaven:
            return {**self.rings, **self.heaven}
        return dict(self.rings)

    def _wanted_config(self, config: ViewConfig) -> ViewConfig:
        heaven = self.show_heaven and self.model.state.hour is not None
        return replace(config, heaven=heaven, general_names=self.general_names)

    def set_heaven_options(self, show: bool, general_names: bool) -> None:
        self.show_heaven, self.general_names = show, general_names
        wanted = self._wanted_config(self.config)
        if wanted != self.config:
            self.apply_config(wanted)

    def apply_config(self, config: ViewConfig) -> None:
        config = self._wanted_config(config)
        self.config = config
        self.setBackground(config.palette.paper)
        for group in self.plates.groups.values():
            self.viewbox.removeItem(group)
        for group in self.plates.build(config, self.model.catalog, self._selected):
            self.viewbox.addItem(group)
        for base in self.plates.bases.values():
            base.sigClicked.connect(self.sigBranchClicked.emit)
            base.sigHovered.connect(self.sigBranchHovered.emit)
        for ring in self.all_rings().values():
            ring.reduce_motion = self.reduce_motion
        self.trace_item = None  # the old one went with its group
        self.arrows = None
        self.years = None
        name = self.plates.heaven_group
        if name is not None:  # the transmissions' arrows go on the plate that carries the heaven rings
            self.arrows = ArrowsItem(self.plates.groups[name])
            self.arrows.configure(self.bases[name].r_in, config.char_px * 1.25, config.orientation)
            self.arrows.set_transmissions(self._arrows)
            from shensha_plates.gui.plate.years_item import YearsItem
            base = self.bases[name]
            self.years = YearsItem(self.plates.groups[name])
            self.years.configure((base.r_in + base.r_out) / 2, base.char_px, config.orientation,
                                 base.r_out - base.r_in)
            self.years.set_marks(self._years)
        if self._trace is not None:
            self.show_trace(*self._trace)
        self.refresh()
        self.reset_view()

    @property
    def groups(self) -> dict[str, object]:
        return self.plates.groups  # type: ignore[return-value]

    @property
    def bases(self) -> dict[str, BaseRingItem]:
        return self.plates.bases

    @property
    def wedges(self) -> dict[str, WedgeItem]:
        return self.plates.wedges

    def reset_view(self) -> None:
        self._user_range = False
        extra: dict[str, float] = {}
        item = self.trace_item
        if item is not None and item.parentItem() is not None:
            for name, group in self.plates.groups.items():
                if group is item.parentItem():
                    br = item.boundingRect()
                    extra[name] = max(0.0, max(br.width(), br.height()) / 2 - self.plates.plate_radius(name))
        self.plates.arrange(self._aspect(), extra)
        if self.trace_item is not None:
            self.reset_view_to_fit()
        else:
            self.viewbox.setRange(rect=self.scene_rect(), padding=0.0)

    def zoom_quadrant(self, plate: str, branch: int) -> None:
        """Fill the canvas with one quadrant of ``plate``: the quarter of the disc centred on
        ``branch`` (its neighbours either side included), from near the centre out to the rim, for the
        back of a room. :meth:`reset_view` shows everything again."""
        group = self.plates.groups.get(plate)
        if group is None:
            return
        r = self.plates.plate_radius(plate)
        a = branch_angle(branch, self.config.orientation)
        pts = [polar(rr, a + d) for rr in (r * 0.3, r) for d in range(-40, 41, 4)]
        pos = group.pos()
        xs = [pos.x() + x for x, _ in pts]
        ys = [pos.y() + y for _, y in pts]
        self.viewbox.setRange(rect=QRectF(min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys)), padding=0.02)
        self._user_range = True  # kept through a resize, as a zoom of the user's

    def _aspect(self) -> float | None:
        size = self.viewbox.size() if self.viewbox.width() > 10 else self.viewport().size()
        w, h = float(size.width()), float(size.height())
        return w / h if w > 10 and h > 10 else None

    def _range_changed_by_user(self, *args: object) -> None:
        self._user_range = True

    def resizeEvent(self, ev: object) -> None:  # noqa: N802 - Qt's name
        super().resizeEvent(ev)
        if hasattr(self, "plates") and not getattr(self, "_user_range", True):  # pyqtgraph calls this in __init__
            self.reset_view()

    def set_one_plate(self, plate: str) -> None:
        """Show ``both`` plates, or just the ``upper`` or the ``lower`` one as large as the canvas allows."""
        if plate != self.config.plate:
            self.apply_config(replace(self.config, plate=plate))

    def scene_rect(self) -> QRectF:
        return self.plates.scene_rect()

    # -- following the model -------------------------------------------------------------------
    def _on_model(self, event: str) -> None:
        if event in ("state", "lang"):
            if self._wanted_config(self.config) != self.config:
                self.apply_config(self.config)  # an hour was given or taken away: the rings come or go
                return
            self.refresh(animate=event == "state")
            self.lens.refresh()
        elif event == "paper":
            self.sync_rotations(animate=True)

    def refresh(self, animate: bool = False) -> None:
        """Give every ring its names for the current state and turn it into place."""
        self.plates.set_names(self.model.plate, self.model.lang, self.model.in_force() or None, self.readings)
        if self.config.heaven:
            from shensha_plates.gui.liuren import heaven_labels
            th, tg = heaven_labels(self.model, self.config.general_names)
            self.heaven["TH"].set_labels(th, self.heaven["TH"].char_px, self.config.palette)
            self.heaven["TG"].set_labels(tg, self.heaven["TG"].char_px, self.config.palette)
        self.sync_rotations(animate)

    def set_readings(self, on: bool) -> None:
        """Show (or not) each name's pinyin under it on the discs, wherever its slot has room."""
        if on != self.readings:
            self.readings = on
            self.refresh()

    def readings_shown(self) -> tuple[int, int]:
        """(names whose pinyin is drawn under them, names on the discs) as the discs lie now; the
        readings laid out for the canvas's present scale."""
        scale = self.screen_scale()
        shown = total = 0
        for ring in self.rings.values():
            if ring.parentItem() is None or not ring.isVisible():
                continue
            if ring.has_readings:
                ring.lay_out_readings_for(scale)
            for k in range(12):
                entries = ring.entries(k)
                total += len(entries)
                if ring.has_readings:
                    shown += sum(b is not None for b in ring.readings(k, ring.slot_flipped_now(k)))
        return shown, total

    def screen_scale(self) -> float:
        """Logical pixels on screen per unit of the plates."""
        rect = self.viewbox.viewRect()
        size = self.viewbox.size()
        return min(size.width() / rect.width(), size.height() / rect.height()) if rect.width() > 0 else 0.0

    def sync_rotations(self, animate: bool = True) -> None:
        anchors = self.model.anchors()
        for rid, ring in self.all_rings().items():
            if rid not in anchors:
                continue
            ring.draggable = True
            ring.allowed = self.model.reachable_anchors(rid)
            if not ring.dragging:
                ring.set_anchor(anchors[rid], animate=animate and not self.reduce_motion)

    def finish_animations(self) -> None:
        for ring in self.all_rings().values():
            ring.finish_animation()

    def set_reduce_motion(self, on: bool) -> None:
        self.reduce_motion = on
        for ring in {**self.rings, **self.heaven}.values():
            ring.reduce_motion = on

    # -- selection and teaching aids -----------------------------------------------------------
    def select_branch(self, branch: int | None) -> None:
        self._selected = branch
        for w in self.wedges.values():
            w.set_branch(branch)

    def show_transmissions(self, earth: tuple[int, ...]) -> None:
        """Draw the transmissions standing over these earth branches as arrows (初 → 中 → 末)."""
        self._arrows = tuple(earth)
        if self.arrows is not None:
            self.arrows.set_transmissions(self._arrows)

    def show_years(self, marks: tuple[tuple[int, str, int], ...]) -> None:
        """Tag the earth branches of the years: (branch, tag, whose) — the querent's 命 and 年 (whose 0), the
        partner's 配命 and 配年 (whose 1; see lesson_text.year_marks); empty removes them."""
        self._years = tuple(marks)
        if self.years is not None:
            self.years.set_marks(self._years)

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

    def set_duration(self, ms: int) -> None:
        """How long a one-step turn takes (all rings together)."""
        for ring in {**self.rings, **self.heaven}.values():
            ring.duration_ms = max(60, int(ms))

    def show_trace(self, ring_or_group: str, path: list[int | None]) -> None:
        """Draw a path (the branch of each step) outside the plate that holds ``ring_or_group`` (a
        ring id, or ``upper``/``lower`` for a spirit in a square table)."""
        self.clear_trace()
        self._trace = (ring_or_group, list(path))
        group = self.rings[ring_or_group].parentItem() if ring_or_group in self.rings else None
        shown = [n for n, g in self.groups.items() if g is group]
        if shown:
            name = shown[0]
        else:  # a ring of the plate not shown (one-plate view), or a square table's group
            name = ring_or_group if ring_or_group in self.groups else next(iter(self.groups))
        from shensha_plates.gui.plate.trace_item import TraceItem  # drawn only when a trace is shown
        self.trace_item = TraceItem(self.groups[name])
        # outside everything the plate draws (the heaven ring and the generals too)
        self.trace_item.configure(self.plates.plate_radius(name), self.config.char_px, self.config.orientation, path)
        self.reset_view()

    def clear_trace(self) -> None:
        self._trace = None
        if self.trace_item is not None:
            scene = self.trace_item.scene()
            if scene is not None:
                scene.removeItem(self.trace_item)
            self.trace_item = None
            if not self._user_range:
                self.reset_view()  # the plates close up again

    def reset_view_to_fit(self) -> None:
        rect = self.scene_rect()
        item = self.trace_item
        if item is not None and item.parentItem() is not None:
            # into the view box's own coordinates (those of scene_rect), through the plate group
            in_group = item.mapRectToParent(item.boundingRect())
            rect = rect.united(item.parentItem().mapRectToParent(in_group))
        self.viewbox.setRange(rect=rect, padding=0.0)

    # -- gestures --------------------------------------------------------------------------------
    def _drag_started(self, rid: str) -> None:
        self.model.begin_gesture()

    def _drag_moved(self, rid: str) -> None:
        ring = self.all_rings().get(rid)
        if ring is None:
            return
        if rid in HEAVEN_RINGS and ring.dragging:
            # the generals ride the heaven plate: whichever of the two is dragged, both turn
            other = self.heaven["TG" if rid == "TH" else "TH"]
            other.setRotation(ring.rotation())
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
        self.sigTurned.emit()

    def _wheel(self, rid: str, steps: int) -> None:
        if self.model.paper:
            self.model.turn_paper_ring(rid, (self.model.anchors()[rid] + steps) % 12)
        else:
            self.model.step(RING_DIAL[rid], steps)
        self.sigTurned.emit()

    def ring_colors(self) -> Mapping[str, QColor]:  # pragma: no cover - used by the legend
        p = self.config.palette
        return {"good": p.good, "bad": p.bad, "mixed": p.mixed}

    def title_font(self) -> QFont:
        return plate_font(self.config.char_px * 1.6)

    def keyPressEvent(self, ev: object) -> None:  # let the window's shortcuts through
        ev.ignore()  # type: ignore[attr-defined]
