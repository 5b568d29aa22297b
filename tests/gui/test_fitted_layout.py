"""The fitted ring layout, checked geometrically: in every state of every ring (all twelve positions),
both plate layouts, both scripts and both text modes, no two names overlap and none crosses its
slot's edges. The rectangles come from the same pure functions the ring items paint with."""

from __future__ import annotations

import itertools
import math

import pytest
from hypothesis import given, settings, strategies
from pytestqt.qtbot import QtBot
from PySide6.QtGui import QFontMetricsF

from shensha_plates.core.catalog import load_catalog
from shensha_plates.core.cycle import pillar_name
from shensha_plates.core.engine import State, compute_plate
from shensha_plates.gui.fonts import plate_font
from shensha_plates.gui.plate.fit import NameBox, slot_fits_in_sector
from shensha_plates.gui.plate.slot_paint import METRICS, UPRIGHT_METRICS, layout_slot, metrics_for, name_rects, slot_flipped
from shensha_plates.gui.plate.scene import PlateScene, ViewConfig, _ring_index, slot_entries
from shensha_plates.gui.style import branch_angle

CATALOG = load_catalog()


def _all_slot_contents(lang: str) -> dict[str, set[tuple]]:
    """Every distinct content of every slot of every ring over the years, months, xun and days."""
    seen: dict[str, set[tuple]] = {}
    states = [State.parse(pillar_name(y), m, pillar_name(x * 10)) for y, m, x in
              itertools.product(range(60), range(1, 13), range(6))]
    states += [State.parse(pillar_name(y), m, None, pillar_name(d)) for y, m, d in
               itertools.product(range(0, 60, 7), range(1, 13), range(60))]
    for st in states:
        plate = compute_plate(st)
        index = _ring_index(plate)
        for rp in plate.rings:
            slots = slot_entries(plate, rp.ring.id, lang, index)
            seen.setdefault(rp.ring.id, set()).update(slots)
    return seen


CONTENTS = {lang: _all_slot_contents(lang) for lang in ("zh-Hans", "zh-Hant")}


def _disjoint(a: NameBox, b: NameBox) -> bool:
    return a.x1 <= b.x0 + 1e-9 or b.x1 <= a.x0 + 1e-9 or a.rho1 <= b.rho0 + 1e-9 or b.rho1 <= a.rho0 + 1e-9


@pytest.mark.parametrize("layout", ["side", "stacked"])
@pytest.mark.parametrize("lang", ["zh-Hans", "zh-Hant"])
@pytest.mark.parametrize("text_mode", ["radial", "upright"])
def test_no_name_overlaps_or_leaves_its_slot(qtbot: QtBot, layout: str, lang: str, text_mode: str) -> None:
    scene = PlateScene()
    scene.build(ViewConfig(layout=layout, text_mode=text_mode), CATALOG, cached=False)
    metrics = metrics_for(text_mode)
    checked = 0
    for rid, ring in scene.rings.items():
        assert ring.r_out > ring.r_in
        for entries in CONTENTS[lang][rid]:
            if not entries:
                continue
            fit = layout_slot(ring.r_in, ring.r_out, entries, ring.char_px, metrics)
            assert fit.char_px > 0
            for anchor, k in itertools.product(range(12), range(12)):
                screen = branch_angle(k, "south") + 30 * anchor
                flipped = slot_flipped(screen, text_mode, fit.horizontal)
                rects = name_rects(fit, entries, metrics, flipped)
                assert len(rects) == len(entries)
                boxes = fit.flipped_boxes if flipped else fit.boxes
                # every name inside its own box, every box inside the slot, boxes apart
                for r, b in zip(rects, boxes, strict=True):
                    assert b.x0 - 1e-9 <= r.x0 and r.x1 <= b.x1 + 1e-9 and b.rho0 - 1e-9 <= r.rho0
                    assert r.rho1 <= b.rho1 + 1e-9
                assert slot_fits_in_sector(rects, ring.r_in, ring.r_out), (rid, [e.text for e in entries], anchor)
                assert slot_fits_in_sector(boxes, ring.r_in, ring.r_out)
                for a, b in itertools.combinations(boxes, 2):
                    assert _disjoint(a, b), (rid, [e.text for e in entries], a, b)
                checked += 1
    assert checked > 1000


def test_upright_characters_stay_in_their_cells() -> None:
    """Upright text turns each character by a multiple of 30° at rest: its em square, turned,
    must stay inside the character's cell."""
    for turn in range(0, 360, 30):
        a = math.radians(turn)
        span = abs(math.cos(a)) + abs(math.sin(a))
        assert span <= min(UPRIGHT_METRICS.adv, UPRIGHT_METRICS.step) + 1e-9


def test_metrics_cover_the_font(qtbot: QtBot) -> None:
    """The font's characters are no wider than the layout allows for them (in both scripts)."""
    fm = QFontMetricsF(plate_font(100, bold=True))
    chars = {ch for s in CATALOG.spirits for ch in s.name + s.name_trad}
    widest = max(fm.horizontalAdvance(ch) for ch in chars) / 100
    assert widest <= METRICS.adv + 1e-6
    tallest = max(fm.tightBoundingRect(ch).height() for ch in chars) / 100
    assert tallest <= METRICS.adv


def test_sparse_slots_larger_crowded_slots_fitted(qtbot: QtBot) -> None:
    """A size per slot: a slot with fewer names than the ring's fullest sets them larger."""
    scene = PlateScene()
    scene.build(ViewConfig(), CATALOG, cached=False)
    scene.set_names(compute_plate(State.parse("甲子", 1, "甲子")), "zh-Hans")
    ring = scene.rings["L2"]
    sizes = {len(ring.entries(k)): ring.slot_fit(k).char_px for k in range(12)}
    assert min(sizes.values()) >= ring.char_px * 0.999
    assert sizes[min(sizes)] > sizes[max(sizes)]


def test_window_rings_use_the_pure_layout(window: object) -> None:
    for ring in window.view.rings.values():  # type: ignore[attr-defined]
        for k in range(12):
            assert ring.slot_fit(k) == layout_slot(ring.r_in, ring.r_out, ring.entries(k), ring.char_px, ring.metrics)


def _bisected_size(sizes: list[tuple[float, float]], r_in: float, r_out: float, m: object, hi: float) -> float:
    """The size by bisection over :func:`_stack` (how it was found before the exact solution)."""
    from shensha_plates.gui.plate.fit import _stack
    if _stack(sizes, r_in, hi, m)[0] <= r_out:  # type: ignore[arg-type]
        return hi
    lo = 0.0
    for _ in range(60):
        mid = (lo + hi) / 2
        if _stack(sizes, r_in, mid, m)[0] <= r_out:  # type: ignore[arg-type]
            lo = mid
        else:
            hi = mid
    return lo



# lengths as a drawing has them (to a millionth): no subnormal widths, whose squares vanish in floating point
_MEASURE = strategies.integers(0, 10**6).map(lambda n: n / 10**6)


@settings(max_examples=400, deadline=None)
@given(sizes=strategies.lists(strategies.tuples(_MEASURE.map(lambda v: 12 * v), _MEASURE.map(lambda v: 8 * v)), min_size=1, max_size=4),
       r_in=_MEASURE.map(lambda v: 400 * v), width=_MEASURE.map(lambda v: 220 * v - 20), cap=strategies.floats(0.5, 40.0),
       pad=strategies.sampled_from([0.0, 0.03, 0.2]), gap=strategies.sampled_from([0.0, 0.1, 0.5]))
def test_exact_size_is_the_bisected_size(sizes: list[tuple[float, float]], r_in: float, width: float, cap: float,
                                         pad: float, gap: float) -> None:
    """The type size solved exactly agrees with bisection over the stacking itself, and fits."""
    from dataclasses import replace

    from shensha_plates.gui.plate.fit import _max_size, _stack
    m = replace(METRICS, pad=pad, gap=gap)
    r_out = r_in + width
    exact = _max_size(sizes, r_in, r_out, m, cap)
    assert 0.0 <= exact <= cap
    # (bisection in floating point takes a size of 1e-8 as fitting where its square vanishes beside r²)
    assert exact == pytest.approx(_bisected_size(sizes, r_in, r_out, m, cap), rel=1e-9, abs=1e-7 * max(1.0, r_out))
    if exact > 0:
        assert _stack(sizes, r_in, exact, m)[0] <= r_out + 1e-9 * max(1.0, r_out)
