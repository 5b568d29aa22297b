"""What the window shows of the Liu Ren plate (式), read from :mod:`shensha_plates.core.liuren`; nothing is computed here.

The heaven ring's labels (the twelve branches, optionally with their month-general names) and the
generals ring's labels (the general riding each heaven branch, from the core's heaven plate).
Pure Python apart from the label type: the lesson panel, exports and tests share these.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from shensha_plates.core.cycle import BRANCHES
from shensha_plates.core.lang import is_trad, name_in
from shensha_plates.core.liuren import HeavenPlate
from shensha_plates.core.liuren.plate import GENERAL_QUALITY  # the web page (core) colours them too
from shensha_plates.core.liuren.tables import liuren_tables
from shensha_plates.gui.plate.heaven_item import HeavenLabel

if TYPE_CHECKING:
    from shensha_plates.gui.model import PlateModel

__all__ = ["heaven_labels", "labels_for", "general_name", "month_general_name", "GENERAL_QUALITY"]



def general_name(index: int, lang: str = "zh-Hans", short: bool = False) -> str:
    """A general's name (0 = 贵人 … 11 = 天后), in full or as the one character the books print."""
    g = liuren_tables().generals[index]
    if short:
        return g.short_trad if is_trad(lang) else g.short
    return name_in(g, lang)


def month_general_name(branch: int, lang: str = "zh-Hans") -> str:
    """The month general's name of a branch (亥 登明 …)."""
    for mg in liuren_tables().month_generals:
        if mg.branch == branch:
            return name_in(mg, lang)
    raise KeyError(branch)


def heaven_labels(model: PlateModel, general_names: bool) -> tuple[tuple[HeavenLabel, ...], tuple[HeavenLabel, ...]]:
    """The labels of the heaven ring and of the generals ring, slot k = heaven branch k. The
    generals ring is empty when the state has no day (贵人 is chosen by the day stem)."""
    return labels_for(model.heaven_plate, model.lang, general_names)


def labels_for(hp: HeavenPlate | None, lang: str, general_names: bool = False
               ) -> tuple[tuple[HeavenLabel, ...], tuple[HeavenLabel, ...]]:
    """The two rings' labels for a heaven plate of the core (None: no day, so no generals)."""
    heaven = tuple(HeavenLabel(BRANCHES[k], month_general_name(k, lang) if general_names else "")
                   for k in range(12))
    if hp is None:
        return heaven, tuple(HeavenLabel("") for _ in range(12))
    generals = tuple(HeavenLabel(general_name(hp.general_of[k], lang), quality=GENERAL_QUALITY[hp.general_of[k]])
                     for k in range(12))
    return heaven, generals
