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

__all__ = ["Metrics", "NameBox", "SlotFit", "fit_slot", "name_length", "ring_radii", "HALF_ANGLE",
           "slot_fits_in_sector"]

HALF_ANGLE = 15.0  # a slot spans 30°
_TAN = math.tan(math.radians(HALF_ANGLE))
_SIN = math.sin(math.radians(HALF_ANGLE))
_COS = math.cos(math.radians(HALF_ANGLE))


@dataclass(frozen=True, slots=True)
class Metrics:
    """Sizes in ems of the type (measured from the font by :func:`gui.fonts.name_metrics`)."""

    adv: float = 1.0       # one character along a name (the font's CJK advance is one em)
    step: float = 1.08     # a name's thickness: column width or row height
    suffix: float = 0.8    # the small stem/trigram label after a name
    mark: float = 0.3      # the ○/●/◐ after a name
    gap: float = 0.1       # between strips, and between two names in a row
    pad: float = 0.03      # from every edge of the slot

    def length(self, text: str, suffix: str = "") -> float:
        return len(text) * self.adv + (self.suffix if suffix else 0.0) + self.mark


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


def _arrangements(n: int) -> list[tuple[bool, tuple[int, ...]]]:
    """(horizontal, names per strip from the inside out) for 1–2 tiers of columns or 1–2 per row."""
    if n <= 0:
        return []
    out: list[tuple[bool, tuple[int, ...]]] = [(False, (n,))]
    if n >= 2:
        out.append((False, (n // 2, n - n // 2)))          # two tiers, the fuller one outside
    out.append((True, (1,) * n))                          # one name a row
    if n >= 3:
        rows = [2] * (n // 2) + ([1] if n % 2 else [])
        out.append((True, tuple(sorted(rows))))            # two names a row, a lone one innermost
    return out


def _strip_sizes(horizontal: bool, counts: tuple[int, ...], length: float, m: Metrics) -> list[tuple[float, float]]:
    """(width across the axis, depth along it) of each strip, in ems."""
    if horizontal:
        return [(k * length + (k - 1) * m.gap, m.step) for k in counts]
    return [(k * m.step, length) for k in counts]


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
    if _stack(sizes, r_in, hi, m)[0] <= r_out:
        return hi
    lo = 0.0
    for _ in range(30):
        mid = (lo + hi) / 2
        if _stack(sizes, r_in, mid, m)[0] <= r_out:
            lo = mid
        else:
            hi = mid
    return lo


def min_outer_radius(n: int, length: float, r_in: float, c: float, m: Metrics) -> float:
    """The least outer radius at which ``n`` names of ``length`` ems fit at size ``c``, whichever
    arrangement needs least."""
    if n == 0:
        return r_in
    return min(_stack(_strip_sizes(h, counts, length, m), r_in, c, m)[0] for h, counts in _arrangements(n))


@lru_cache(maxsize=4096)
def _fit(r_in: float, r_out: float, n: int, length: float, cap: float, m: Metrics) -> tuple[float, bool, tuple[int, ...]]:
    best: tuple[float, bool, tuple[int, ...]] = (-1.0, False, (n,))
    for horizontal, counts in _arrangements(n):
        c = _max_size(_strip_sizes(horizontal, counts, length, m), r_in, r_out, m, cap)
        if c > best[0] + 1e-9:
            best = (c, horizontal, counts)
    return best


def fit_slot(r_in: float, r_out: float, lengths: Sequence[float], m: Metrics, cap: float) -> SlotFit:
    """Place names of the given lengths (ems, from :meth:`Metrics.length`) in a slot between
    ``r_in`` and ``r_out``, as large as fits but no larger than ``cap``."""
    return _fit_slot(r_in, r_out, tuple(lengths), m, cap)


@lru_cache(maxsize=8192)
def _fit_slot(r_in: float, r_out: float, lengths: tuple[float, ...], m: Metrics, cap: float) -> SlotFit:
    n = len(lengths)
    if n == 0:
        return SlotFit(0.0, False, (), ())
    length = max(lengths)
    c, horizontal, counts = _fit(r_in, r_out, n, round(length, 4), cap, m)
    c = max(c, 0.0)
    sizes = _strip_sizes(horizontal, counts, length, m)
    need, placed = _stack(sizes, r_in, c, m)
    shift = max(0.0, (r_out - need) / 2)  # centre the names in the ring; outwards only widens the room
    # cells: each strip's cells from −x to +x, the strips from the inside out
    strips: list[list[NameBox]] = []
    for (half, rho0, rho1), k in zip(placed, counts, strict=True):
        cells = []
        if horizontal:
            cell_w = length * c
            x = -half
            for _ in range(k):
                cells.append(NameBox(x, x + cell_w, rho0 + shift, rho1 + shift))
                x += cell_w + m.gap * c
        else:
            for i in range(k):
                x = -half + i * m.step * c
                cells.append(NameBox(x, x + m.step * c, rho0 + shift, rho1 + shift))
        strips.append(cells)
    # reading order: upright at the top of the plate, strips from the outside in; columns right to
    # left, rows left to right. Turned about, the screen's top is the slot's inside and its right −x.
    if horizontal:
        upright = [cell for strip in reversed(strips) for cell in strip]
        turned = [cell for strip in strips for cell in reversed(strip)]
    else:
        upright = [cell for strip in reversed(strips) for cell in reversed(strip)]
        turned = [cell for strip in strips for cell in strip]
    return SlotFit(c, horizontal, tuple(upright), tuple(turned))


def ring_radii(rings: Iterable[tuple[str, Sequence[Sequence[float]], float]], start: float,
               m: Metrics, spacing: float = 0.0) -> dict[str, tuple[float, float]]:
    """Ring widths shared out by what each ring must hold: from ``start`` outwards, each ring
    ``(id, name lengths of each of its 12 slots (ems), type size)`` gets the least width in which
    every slot fits at its type size. Returns (inner, outer) radius per ring."""
    out: dict[str, tuple[float, float]] = {}
    r = start
    for rid, slots, c in rings:
        need = r + c * 1.2
        for lengths in slots:
            if lengths:
                need = max(need, min_outer_radius(len(lengths), max(lengths), r, c, m))
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
