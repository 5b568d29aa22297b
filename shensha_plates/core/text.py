"""Texts about a plate that the command line, the window and the exports all show, in one Qt-free place:
the name of the section (ring or square table) a placement belongs to, and the spirits under a branch
grouped into those sections.

>>> from shensha_plates.core.engine import State, compute_plate
>>> plate = compute_plate(State.parse("子", 1, "甲子"))
>>> sections = dict(branch_sections(plate, 2, lambda p: section_name(p, "方图"), trad=False))
>>> sections["月建盘"][:2], sections["太岁盘"]
(['月建', '小时'], ['丧门'])
"""

from __future__ import annotations

from collections.abc import Callable

from shensha_plates.core.catalog import GROUPS, default_catalog
from shensha_plates.core.cycle import BRANCHES
from shensha_plates.core.engine import Placement, Plate

__all__ = ["section_name", "branch_sections", "SQUARE_TABLE"]

# "square table" (方图) after a group's name, in each script
SQUARE_TABLE = {"zh-Hans": "方图", "zh-Hant": "方圖"}


def section_name(p: Placement, square_table: str, trad: bool = False) -> str:
    """The ring's name (天喜盘) for a ring spirit; else its group (岁煞 …), followed by ``square_table``
    for the groups read from square tables (not the day-stem and day-branch spirits)."""
    if p.ring is not None:
        ring = default_catalog().ring(p.ring)
        return ring.name_trad if trad else ring.name
    label = GROUPS[p.group][1 if trad else 0]
    return label if p.group in ("stem", "branch") else label + square_table


def branch_sections(plate: Plate, branch: int, label_of: Callable[[Placement], str], trad: bool,
                    condition_format: str = "[{}]",
                    condition_words: Callable[[str], str] | None = None) -> list[tuple[str, list[str]]]:
    """The spirits under ``branch`` grouped into consecutive sections (ring or table), each name with
    its stem/trigram label and condition (in ``condition_words``' words when given), in catalog order."""
    sections: list[tuple[str, list[str]]] = []
    for p in plate.positions[branch]:
        label = label_of(p)
        name = p.name_trad if trad else p.name
        if p.at != BRANCHES[branch]:
            name += f"({p.at})"
        if p.conditional:
            name += condition_format.format(condition_words(p.conditional) if condition_words else p.conditional)
        if not sections or sections[-1][0] != label:
            sections.append((label, []))
        sections[-1][1].append(name)
    return sections
