"""Fitting the names to the space: ring widths and the place and size of every name in a slot.

Pure geometry (no Qt), so that tests can check every rectangle. A slot is the annular sector of
30° between two radii; its names are set in one or two *strips* across the slot's axis:

- ``columns``: names written along the radius (radial text), side by side, in one or two tiers;
- ``rows``: names written across the radius, one above the other, one or two to a row.

Strips are centred on the slot's axis and stacked outwards from the inner edge; a strip that is too
wide for its radius moves outwards until its inner corners clear the slot's sides. Every fit keeps a
margin (``Metrics.pad``) from all four edges. The size of a slot's type is the largest for which one
of the arrangements fits, capped per ring so that sparse slots stay in proportion.

Coordinates of a placed name are *slot coordinates*: ``x`` across the slot (positive clockwise on
screen), ``rho`` the distance from the plate's centre along the slot's axis. A rectangle in these
coordinates is an exact rectangle on the plate (a rotation of it), so containment is tested exactly.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from collections.abc import Iterable, Sequence

__all__ = ["Metrics", "NameBox", "SlotFit", "Spec", "fit_slot", "name_length", "ring_radii", "HALF_ANGLE", "WRAP_AT",
           "slot_fits_in_sector", "reading_boxes", "boxes_overlap"]

HALF_ANGLE = 15.0  # a slot spans 30°
_TAN = math.tan(math.radians(HALF_ANGLE))
_SIN = math.sin(math.radians(HALF_ANGLE))
_COS = math.cos(math.radians(HALF_ANGLE))


@dataclass(frozen=True, slots=True)
class Metrics:
    """Sizes in ems of the type (measured from the font by :func:`shensha_plates.gui.fonts.name_metrics`)."""

    adv: float = 1.0       # one character along a name (the font's CJK advance is one em)
    step: float = 1.08     # a name's thickness: column width or row height
    suffix: float = 0.8    # the small stem/trigram label after a name
    mark: float = 0.3      # the ○/●/◐ after a name
    gap: float = 0.1       # between strips, and between two names in a row
    pad: float = 0.03      # from every edge of the slot
    grouped: bool = False  # each name on a light band of its own colour (upright text: see slot_paint)

    def length(self, text: str, suffix: str = "") -> float:
        return len(text) * self.adv + (self.suffix if suffix else 0.0) + self.mark

    def spec(self, text: str, suffix: str = "") -> tuple[int, float]:
        """A name for the fitter: its characters and the ems after them (label and mark)."""
        return len(text), (self.suffix if suffix else 0.0) + self.mark


def name_length(text: str, suffix: str, metrics: Metrics) -> float:
    return metrics.length(text, suffix)


@dataclass(frozen=True, slots=True)
class NameBox:
    """One name's rectangle in slot coordinates; ``horizontal`` names run across the radius."""

    x0: float
    x1: float
    rho0: float
    rho1: float


@dataclass(frozen=True, slots=True)
class SlotFit:
    """A slot's names placed: type size, arrangement and one box per name in reading order.

    ``boxes`` are in entry order for the slot read the right way up at the top of the plate;
    ``flipped_boxes`` in entry order for the slot read turned about (the lower half of the plate,
    where each name is turned 180° inside its box)."""

    char_px: float
    horizontal: bool
    boxes: tuple[NameBox, ...]
    flipped_boxes: tuple[NameBox, ...]
    wrapped: tuple[bool, ...] = ()   # names set in two columns (first column read first)


Spec = tuple[int, float]  # a name: (characters, ems after them: a stem label and the mark)
WRAP_AT = 4  # a name this long is set in two columns of half its length (a 2×2 block)


def _units(spec: Spec) -> int:
    return 2 if spec[0] >= WRAP_AT else 1


def _depth(spec: Spec, m: Metrics) -> float:
    """The depth (ems) of a name set in columns: wrapped names in two columns, half as deep."""
    chars, extra = spec
    return math.ceil(chars / _units(spec)) * m.adv + extra


def _line(spec: Spec, m: Metrics) -> float:
    return spec[0] * m.adv + spec[1]


def _split(units: Sequence[int], first_fuller: bool) -> int:
    """Where to cut names (in reading order) into two tiers: the first tier the fuller one, or not."""
    total = sum(units)
    best, best_i = None, 1
    for i in range(1, len(units)):
        a = sum(units[:i])
        b = total - a
        if (a >= b) != first_fuller and a != b:
            continue
        score = max(a, b)
        if best is None or score < best:
            best, best_i = score, i
    return best_i


@dataclass(frozen=True, slots=True)
class _Arrangement:
    """One way to set a slot's names: rows or columns, each strip's capacity and the names in each."""

    horizontal: bool
    capacities: tuple[int, ...]            # strips from the inside out: cells across (columns) / names (rows)
    upright: tuple[tuple[int, ...], ...]   # names in each strip (inside out), read upright
    turned: tuple[tuple[int, ...], ...]    # ... read turned about


def _arrangements(specs: Sequence[Spec]) -> list[_Arrangement]:
    """One or two tiers of columns, or one or two names a row."""
    n = len(specs)
    if n == 0:
        return []
    idx = tuple(range(n))
    units = [_units(s) for s in specs]
    out = [_Arrangement(False, (sum(units),), (idx,), (idx,))]
    if n >= 2:
        # read upright the outer tier comes first and is the fuller; turned about, the inner first
        s = _split(units, first_fuller=True)
        t = _split(units, first_fuller=False)
        up = (idx[s:], idx[:s])      # inside out
        turned = (idx[:t], idx[t:])
        caps = tuple(max(sum(units[i] for i in a), sum(units[i] for i in b)) for a, b in zip(up, turned, strict=True))
        out.append(_Arrangement(False, caps, up, turned))
    out.append(_Arrangement(True, (1,) * n, tuple((i,) for i in reversed(idx)), tuple((i,) for i in idx)))
    if n >= 3:
        # two names a row (a lone one innermost); upright the first row is the outermost
        rows_up = [idx[i:i + 2] for i in range(0, n, 2)]
        rows_turned = [idx[max(0, i - 2):i] for i in range(n, 0, -2)]
        caps = tuple(len(r) for r in reversed(rows_up))
        out.append(_Arrangement(True, caps, tuple(reversed(rows_up)), tuple(reversed(rows_turned))))
    return out


def _strip_sizes(arr: _Arrangement, specs: Sequence[Spec], m: Metrics) -> list[tuple[float, float]]:
    """(width across the axis, depth along it) of each strip, in ems."""
    if arr.horizontal:
        length = max(_line(s, m) for s in specs)
        return [(k * length + (k - 1) * m.gap, m.step) for k in arr.capacities]
    depth = max(_depth(s, m) for s in specs)
    return [(k * m.step, depth) for k in arr.capacities]


def _stack(sizes: Sequence[tuple[float, float]], r_in: float, c: float, m: Metrics) -> tuple[float, list[tuple[float, float, float]]]:
    """Stack strips at type size ``c`` from ``r_in`` outwards; returns the outer radius needed and
    each strip's (half width, inner radius, outer radius)."""
    pad = m.pad * c
    rho = r_in + pad
    need = 0.0
    placed = []
    for w, h in sizes:
        half = w * c / 2
        # the inner corners keep ``pad`` from the slot's sides: x ≤ ρ·tan15° − pad / cos15°
        rho = max(rho, (half + pad / _COS) / _TAN)
        top = rho + h * c
        need = max(need, math.hypot(half, top) + pad)
        placed.append((half, rho, top))
        rho = top + m.gap * c
    return need, placed


def _max_size(sizes: Sequence[tuple[float, float]], r_in: float, r_out: float, m: Metrics, hi: float) -> float:
    """The largest type size, at most ``hi``, at which :func:`_stack` needs no more than ``r_out``
    (0 when none does), solved exactly instead of by bisection (which cost thirty stackings a slot).

    At size ``c`` every length :func:`_stack` adds is ``c`` times a constant, so each strip's top is
    ``max(r_in + A·c, B·c)`` (the stack pushed out from the inner edge, or by a strip too wide for
    its radius) and its outer corner ``hypot(w·c/2, top) + pad·c``. The stack fits when every
    corner does, each corner grows with ``c``, so the size is the least of the sizes at which each
    corner meets ``r_out``: ``(hypot(w/2, B) + pad)·c = r_out``, and the root of the quadratic
    ``(w/2)²c² + (r_in + A·c)² = (r_out − pad·c)²``."""
    if r_in > r_out:
        return 0.0  # the inner edge is already past the outer one
    p = m.pad
    best = hi
    a, b = p, -math.inf  # the stack's inner radius before this strip: max(r_in + a·c, b·c)
    for w, h in sizes:
        alpha = w / 2
        b = max(b, (alpha + p / _COS) / _TAN)  # a strip too wide for its radius moves outwards
        top_a, top_b = a + h, b + h
        slope = math.hypot(alpha, top_b) + p
        if slope > 0:  # (an empty strip with no margin grows with nothing)
            best = min(best, r_out / slope)
        qa = alpha * alpha + top_a * top_a - p * p
        qb = 2 * (r_in * top_a + r_out * p)
        qc = r_in * r_in - r_out * r_out
        denom = qb + math.sqrt(max(0.0, qb * qb - 4 * qa * qc))
        if denom > 0:
            best = min(best, -2 * qc / denom)
        elif qa > 0:
            return 0.0  # the corner is on the outer edge already at size 0 and grows with any size
        a, b = top_a + m.gap, top_b + m.gap
    return max(0.0, best * (1 - 1e-12))  # never a hair past the edge by rounding


def min_outer_radius(specs: Sequence[Spec], r_in: float, c: float, m: Metrics) -> float:
    """The least outer radius at which these names fit at size ``c``, whichever arrangement needs least."""
    if not specs:
        return r_in
    return min(_stack(_strip_sizes(a, specs, m), r_in, c, m)[0] for a in _arrangements(specs))


def fit_slot(r_in: float, r_out: float, specs: Sequence[Spec], m: Metrics, cap: float) -> SlotFit:
    """Place names (``(characters, ems after them)``, from :meth:`Metrics.spec`) in a slot between
    ``r_in`` and ``r_out``, as large as fits but no larger than ``cap``."""
    return _fit_slot(r_in, r_out, tuple(specs), m, cap)


@lru_cache(maxsize=8192)
def _fit_slot(r_in: float, r_out: float, specs: tuple[Spec, ...], m: Metrics, cap: float) -> SlotFit:
    if not specs:
        return SlotFit(0.0, False, (), (), ())
    best: tuple[float, _Arrangement] | None = None
    for arr in _arrangements(specs):
        c = _max_size(_strip_sizes(arr, specs, m), r_in, r_out, m, cap)
        if best is None or c > best[0] + 1e-9:
            best = (c, arr)
    assert best is not None
    c, arr = max(best[0], 0.0), best[1]
    need, placed = _stack(_strip_sizes(arr, specs, m), r_in, c, m)
    shift = max(0.0, (r_out - need) / 2)  # centre the names in the ring; outwards only widens the room
    units = [1 if arr.horizontal else _units(s) for s in specs]
    length = max(_line(s, m) for s in specs) * c

    def layout(strips: tuple[tuple[int, ...], ...], turned: bool) -> tuple[NameBox, ...]:
        boxes: dict[int, NameBox] = {}
        for (_half, rho0, rho1), names in zip(placed, strips, strict=True):
            r0, r1 = rho0 + shift, rho1 + shift
            if arr.horizontal:
                # rows read left to right: −x first upright, +x first turned about
                used = len(names) * length + (len(names) - 1) * m.gap * c
                x = -used / 2
                order = list(reversed(names)) if turned else list(names)
                for i in order:
                    boxes[i] = NameBox(x, x + length, r0, r1)
                    x += length + m.gap * c
            else:
                # columns read right to left: +x first upright, −x first turned about
                used = sum(units[i] for i in names) * m.step * c
                x = -used / 2
                order = list(names) if turned else list(reversed(names))
                for i in order:
                    w = units[i] * m.step * c
                    boxes[i] = NameBox(x, x + w, r0, r1)
                    x += w
        return tuple(boxes[i] for i in range(len(specs)))

    wraps = tuple(u == 2 for u in units)
    return SlotFit(c, arr.horizontal, layout(arr.upright, False), layout(arr.turned, True), wraps)


def ring_radii(rings: Iterable[tuple[str, Sequence[Sequence[Spec]], float]], start: float,
               m: Metrics, spacing: float = 0.0) -> dict[str, tuple[float, float]]:
    """Ring widths shared out by what each ring must hold: from ``start`` outwards, each ring
    ``(id, the names each of its 12 slots can hold, type size)`` gets the least width in which
    every slot fits at its type size. Returns (inner, outer) radius per ring."""
    out: dict[str, tuple[float, float]] = {}
    r = start
    for rid, slots, c in rings:
        need = r + c * 1.2
        for specs in slots:
            if specs:
                need = max(need, min_outer_radius(specs, r, c, m))
        out[rid] = (r, need * 1.0005 + 1e-6)  # a hair over, so that the worst slot fits at exactly c
        r = out[rid][1] + spacing
    return out


def slot_fits_in_sector(boxes: Sequence[NameBox], r_in: float, r_out: float, margin: float = 0.0) -> bool:
    """True if every box lies in the slot (an independent check, used by the tests): corners
    within the sides and the outer circle, nearest point outside the inner circle."""
    for b in boxes:
        for x in (b.x0, b.x1):
            for rho in (b.rho0, b.rho1):
                # signed distance from each side line of the sector
                if rho * _SIN - abs(x) * _COS < margin - 1e-9:
                    return False
                if math.hypot(x, rho) > r_out - margin + 1e-9:
                    return False
        nearest_x = 0.0 if b.x0 <= 0.0 <= b.x1 else min(abs(b.x0), abs(b.x1))
        if math.hypot(nearest_x, b.rho0) < r_in + margin - 1e-9:
            return False
    return True


def boxes_overlap(a: NameBox, b: NameBox) -> bool:
    """True if two boxes of one slot share some area (touching edges do not count)."""
    return a.x0 < b.x1 - 1e-9 and b.x0 < a.x1 - 1e-9 and a.rho0 < b.rho1 - 1e-9 and b.rho0 < a.rho1 - 1e-9


def reading_boxes(names: Sequence[NameBox], ink: Sequence[NameBox], widths: Sequence[float], height: float,
                  r_in: float, r_out: float, turned: bool, margin: float = 0.0) -> tuple[NameBox | None, ...]:
    """Where each name's reading (its pinyin, one line ``widths[i]`` long and ``height`` deep, across
    the slot's axis) goes, or None where the slot has no room for it.

    The line sits under the name as it is read: just inside the name's text for a slot read upright
    (below a row; past the foot of a column), just outside it for a slot read turned about, centred
    on the text. It is kept only if it lies wholly inside the slot (``margin`` from its edges, so it
    never reaches a neighbouring slot) and covers no other name's box, no name's text and no reading
    placed before it. ``names`` are the names' boxes, ``ink`` the part of each that its text covers
    (:func:`shensha_plates.gui.plate.slot_paint.name_rects`); a width of 0 asks for no reading."""
    gap = height * 0.08
    placed: list[NameBox] = []
    out: list[NameBox | None] = []
    for i, (text, w) in enumerate(zip(ink, widths, strict=True)):
        if w <= 0:
            out.append(None)
            continue
        mid = (text.x0 + text.x1) / 2
        if turned:
            box = NameBox(mid - w / 2, mid + w / 2, text.rho1 + gap, text.rho1 + gap + height)
        else:
            box = NameBox(mid - w / 2, mid + w / 2, text.rho0 - gap - height, text.rho0 - gap)
        clear = (slot_fits_in_sector([box], r_in, r_out, margin)
                 and not any(boxes_overlap(box, b) for j, b in enumerate(names) if j != i)
                 and not any(boxes_overlap(box, t) for t in ink)
                 and not any(boxes_overlap(box, r) for r in placed))
        if clear:
            placed.append(box)
        out.append(box if clear else None)
    return tuple(out)
