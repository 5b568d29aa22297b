"""Where the plates go on a sheet of paper: the largest scale at which they fit a box, and where
each plate's title goes.

Pure geometry in page units (no Qt), so that the layout can be tested and measured on its own.
Two plates are packed into opposite corners of the box, the first (the upper plate) towards the
top left: on a portrait page they end up one above the other, on a landscape page side by side,
and when the box is neither the two discs nest diagonally, which is what lets them grow. The box
is filled along its long side; along the short side the pair is centred.

>>> plan = plan_plates((0, 0, 100, 200), (("upper", 1.0), ("lower", 1.0)), gap=0)
>>> plan.scale, [(d.cx, d.cy) for d in plan.discs]
(50.0, [(50.0, 50.0), (50.0, 150.0)])
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from collections.abc import Sequence

__all__ = ["Disc", "Label", "PagePlan", "plan_plates", "place_labels"]

Box = tuple[float, float, float, float]   # left, top, width, height


@dataclass(frozen=True, slots=True)
class Disc:
    """A plate on the page: its name, centre and radius in page units."""

    name: str
    cx: float
    cy: float
    radius: float

    def contains_box(self, box: Box, slack: float = 1e-6) -> bool:
        x, y, w, h = box
        return (self.cx - self.radius >= x - slack and self.cx + self.radius <= x + w + slack
                and self.cy - self.radius >= y - slack and self.cy + self.radius <= y + h + slack)


@dataclass(frozen=True, slots=True)
class Label:
    """A plate's title, a rectangle in a corner of the plate's square that the discs leave free."""

    name: str
    x: float
    y: float
    width: float
    height: float


@dataclass(frozen=True, slots=True)
class PagePlan:
    """The plates' discs (scene radius × ``scale``) inside ``box``."""

    box: Box
    scale: float
    discs: tuple[Disc, ...]
    labels: tuple[Label, ...] = ()


def _fits_two(box: Box, r1: float, r2: float, gap: float, s: float) -> bool:
    _, _, w, h = box
    if 2 * s * max(r1, r2) > min(w, h) + 1e-9:
        return False
    dx, dy = w - s * (r1 + r2), h - s * (r1 + r2)
    return math.hypot(dx, dy) >= s * (r1 + r2) + gap - 1e-9


def plan_plates(box: Box, plates: Sequence[tuple[str, float]], gap: float) -> PagePlan:
    """The largest scale at which ``plates`` (name, radius in scene units; one or two) fit ``box``
    without touching each other (``gap`` page units apart at least), and where their centres go.

    Raises :class:`ValueError` for an empty box or a number of plates other than one or two.
    """
    x, y, w, h = box
    if w <= 0 or h <= 0:
        raise ValueError(f"no room for the plates: box {box!r}")
    if len(plates) == 1:
        (name, r), = plates
        s = min(w, h) / (2 * r)
        return PagePlan(box, s, (Disc(name, x + w / 2, y + h / 2, r * s),))
    if len(plates) != 2:
        raise ValueError(f"expected one or two plates, got {len(plates)}")
    (n1, r1), (n2, r2) = plates
    lo, hi = 0.0, min(w, h) / (2 * max(r1, r2))
    if _fits_two(box, r1, r2, gap, hi):
        lo = hi
    else:
        for _ in range(60):
            mid = (lo + hi) / 2
            lo, hi = (mid, hi) if _fits_two(box, r1, r2, gap, mid) else (lo, mid)
    s = lo
    a, b = r1 * s, r2 * s
    need = a + b + gap
    vertical = h >= w
    long_room = (h if vertical else w) - a - b          # centre-to-centre along the long side
    cross_room = (w if vertical else h) - a - b
    if long_room >= need:
        # the discs stand in line: share the spare length out evenly before, between and after
        spare = (long_room - need) / 3
        along = (spare + a, 2 * spare + a + need)
        cross = 0.0
    else:
        along = (a, a + long_room)
        cross = min(cross_room, math.sqrt(max(0.0, need * need - long_room * long_room)))
    # across the long side: first disc towards the start, the second `cross` further; pair centred
    lo_edge = min(-a, cross - b)
    hi_edge = max(a, cross + b)
    start = ((w if vertical else h) - (hi_edge - lo_edge)) / 2 - lo_edge
    c1, c2 = start, start + cross
    if vertical:
        d1, d2 = Disc(n1, x + c1, y + along[0], a), Disc(n2, x + c2, y + along[1], b)
    else:
        d1, d2 = Disc(n1, x + along[0], y + c1, a), Disc(n2, x + along[1], y + c2, b)
    return PagePlan(box, s, (d1, d2))


def _rect_hits_disc(rx: float, ry: float, rw: float, rh: float, d: Disc, pad: float) -> bool:
    nx = min(max(d.cx, rx), rx + rw)
    ny = min(max(d.cy, ry), ry + rh)
    return math.hypot(nx - d.cx, ny - d.cy) < d.radius + pad


def _overlaps(a: Box, b: Box) -> bool:
    return a[0] < b[0] + b[2] and b[0] < a[0] + a[2] and a[1] < b[1] + b[3] and b[1] < a[1] + a[3]


def place_labels(plan: PagePlan, sizes: dict[str, tuple[float, float]], pad: float,
                 area: Box | None = None, avoid: Sequence[Box] = ()) -> PagePlan:
    """Put each disc's title (``sizes[name]`` = width, height) in a corner of the disc's square
    that no disc covers, preferring the corner away from the other disc; failing that, just above
    the square's corners or its middle. A title must lie in ``area`` (the plan's box by default; a
    page may offer more, e.g. beside its caption) and clear every rectangle in ``avoid``. A title
    with no such place is left out."""
    bx, by, bw, bh = area if area is not None else plan.box
    labels: list[Label] = []
    for d in plan.discs:
        if d.name not in sizes:
            continue
        w, h = sizes[d.name]
        others = [o for o in plan.discs if o is not d]
        left, right = d.cx - d.radius, d.cx + d.radius - w
        top, bottom = d.cy - d.radius, d.cy + d.radius - h
        corners = [(left, top), (right, top), (left, bottom), (right, bottom)]
        if others:
            o = others[0]
            corners.sort(key=lambda c: -math.hypot(c[0] + w / 2 - o.cx, c[1] + h / 2 - o.cy))
        above = top - h - pad
        corners += [(left, above), (right, above), (d.cx - w / 2, above)]
        for cx, cy in corners:
            inside = bx - 1e-6 <= cx and cx + w <= bx + bw + 1e-6 and by - 1e-6 <= cy and cy + h <= by + bh + 1e-6
            if (inside and not any(_rect_hits_disc(cx, cy, w, h, disc, pad) for disc in plan.discs)
                    and not any(_overlaps((cx, cy, w, h), r) for r in avoid)):
                labels.append(Label(d.name, cx, cy, w, h))
                break
    return PagePlan(plan.box, plan.scale, plan.discs, tuple(labels))
