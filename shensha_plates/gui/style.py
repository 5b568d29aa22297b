"""Colours, marks and the geometry of the plates, shared by the window, exports and prints."""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Final

from PySide6.QtCore import QPointF
from PySide6.QtGui import QColor, QPainterPath

__all__ = ["PALETTE", "PRINT_PALETTE", "QUALITY_COLOR", "branch_angle", "Palette", "annulus_path"]


@dataclass(frozen=True)
class Palette:
    """The colours the plates and panels are drawn in (paper, ink, the three qualities, the discs' alternating fills, rules)."""

    paper: QColor
    ink: QColor
    good: QColor
    bad: QColor
    mixed: QColor
    ring_a: QColor
    ring_b: QColor
    upper_a: QColor
    upper_b: QColor
    rule: QColor
    base: QColor
    base_text: QColor
    highlight: QColor
    select: QColor
    dim: QColor


PALETTE: Final = Palette(
    paper=QColor("#fbf7ee"),
    ink=QColor("#1f2430"),
    good=QColor("#b3261e"),      # vermilion
    bad=QColor("#1c2b4a"),       # ink blue
    mixed=QColor("#1f6f6b"),     # teal
    ring_a=QColor("#f4ecd8"),
    ring_b=QColor("#ece1c6"),
    upper_a=QColor("#eef0e4"),
    upper_b=QColor("#e1e6d2"),
    rule=QColor("#8a7a5a"),
    base=QColor("#3b3a36"),
    base_text=QColor("#fbf7ee"),
    highlight=QColor(255, 205, 40, 170),
    select=QColor(200, 60, 40, 38),
    dim=QColor(251, 247, 238, 170),
)

HIGH_CONTRAST: Final = Palette(
    paper=QColor("#ffffff"), ink=QColor("#000000"), good=QColor("#c00000"), bad=QColor("#000000"),
    mixed=QColor("#005a50"), ring_a=QColor("#ffffff"), ring_b=QColor("#f0f0f0"), upper_a=QColor("#ffffff"),
    upper_b=QColor("#eeeeee"), rule=QColor("#000000"), base=QColor("#000000"), base_text=QColor("#ffffff"),
    highlight=QColor(255, 220, 0, 200), select=QColor(220, 0, 0, 45), dim=QColor(255, 255, 255, 190),
)

# White paper for print: the cream of the screen greys a printed page and eats toner. The names keep
# their colours and their second cue (○ light / ● bold / ◐), so a black-and-white print still
# tells auspicious from inauspicious; the ring bands are pale neutral greys.
PRINT_PALETTE: Final = replace(
    PALETTE, paper=QColor("#ffffff"), ring_a=QColor("#f7f7f5"), ring_b=QColor("#ececea"),
    upper_a=QColor("#f6f7f4"), upper_b=QColor("#e9ebe6"), rule=QColor("#6f6a60"), base=QColor("#2f2f2f"),
    base_text=QColor("#ffffff"), dim=QColor(255, 255, 255, 170))

QUALITY_COLOR: Final = {"good": "good", "bad": "bad", "mixed": "mixed"}


def branch_angle(branch: float, orientation: str = "south") -> float:
    """Screen angle in degrees (0 = right, growing clockwise, y down) of a branch's centre.

    ``south``: 午 at the top, 子 at the bottom, 卯 left, 酉 right (traditional plates);
    ``north``: 子 at the top, 午 at the bottom, 卯 right, 酉 left.
    Branches follow one another clockwise in both.
    """
    top = 6 if orientation == "south" else 0
    return (-90.0 + 30.0 * (branch - top)) % 360.0


def polar(radius: float, angle_deg: float) -> tuple[float, float]:
    a = math.radians(angle_deg)
    return radius * math.cos(a), radius * math.sin(a)


def annulus_path(r_in: float, r_out: float) -> QPainterPath:
    """The ring between two radii about the origin (a disc's hit area: its hole lets clicks through).

    Hit-testing asks for it on every pointer move, so the subtraction is done once per size; the
    copy handed out shares its data with the cached path (Qt's paths are copy-on-write)."""
    return QPainterPath(_annulus(r_in, r_out))


@lru_cache(maxsize=256)
def _annulus(r_in: float, r_out: float) -> QPainterPath:
    path = QPainterPath()
    path.addEllipse(QPointF(0, 0), r_out, r_out)
    hole = QPainterPath()
    hole.addEllipse(QPointF(0, 0), r_in, r_in)
    return path.subtracted(hole)
