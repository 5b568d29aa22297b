"""What each system's result looks like on the command line, in Chinese (simplified or traditional) and
as JSON: the plate (``show``), the Bazi chart (``bazi``), the eight relations (``relate``) and the
date-selection plate (``select``). The same in English is :mod:`shensha_plates.core.english_text`; the
Liu Ren chart's is in :mod:`shensha_plates.core.liuren.formats`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from shensha_plates.core import english_text
from shensha_plates.core.catalog import default_catalog
from shensha_plates.core.cycle import BRANCHES, XUN_HEADS, pillar_name, xun_void
from shensha_plates.core.engine import MONTH_NAMES, SEASONS, Placement, Plate, State
from shensha_plates.core.lang import is_trad, name_in
from shensha_plates.core.text import SQUARE_TABLE, branch_sections, section_name

if TYPE_CHECKING:
    from shensha_plates.core.selection import SelectionPlate

__all__ = ["state_to_json", "plate_to_json", "placement_to_json", "plate_to_text", "QUALITY_WORDS",
           "relations_to_json", "relations_to_text", "chart_to_json", "chart_to_text", "selection_to_text"]


def state_to_json(state: State) -> dict[str, Any]:
    void = xun_void(state.xun)
    return {
        "year": state.year_name,
        "year_branch": BRANCHES[state.year_branch],
        "month": state.month,
        "month_name": MONTH_NAMES[state.month - 1],
        "month_branch": BRANCHES[state.month_branch],
        "season": SEASONS[state.season],
        "xun": XUN_HEADS[state.xun],
        "xun_void": BRANCHES[void[0]] + BRANCHES[void[1]],
        "day": None if state.day is None else pillar_name(state.day),
        "hour": None if state.hour is None else BRANCHES[state.hour],
    }


def plate_to_json(plate: Plate, calendar: dict[str, Any] | None = None) -> dict[str, Any]:
    """The stable scripting shape: ``{"state": …, "positions": {branch: [spirit, …]}}``."""
    state = state_to_json(plate.state)
    if calendar is not None:
        state.update(calendar)
    return {
        "state": state,
        "positions": {
            BRANCHES[b]: [placement_to_json(p) for p in plate.positions[b]] for b in range(12)
        },
        "rings": {r.ring.id: BRANCHES[r.anchor] for r in plate.rings},
        "variants": dict(plate.options.variants),
        "variant_verdicts": {sid: default_catalog().spirit(sid).verdict_of(vid)
                             for sid, vid in plate.options.variants},
        "omitted": list(plate.omitted),
    }


def placement_to_json(p: Placement) -> dict[str, Any]:
    """One spirit at one position, with its other names, meaning, the source of the reading in force,
    that reading (``default`` or a variant id; null for a spirit read only one way), Zhuang's verdict
    on it (accepted, rejected, or null where he gives none), and its pinyin and English gloss."""
    from shensha_plates.core.english import english_of
    s = p.spirit
    reading = None if not s.variants else (p.variant or "default")
    source = s.source if p.variant is None else s.variant(p.variant).source
    return {"id": p.id, "name": p.name, "name_trad": p.name_trad, "group": p.group, "ring": p.ring,
            "at": p.at, "conditional": p.conditional, "aliases": list(s.aliases),
            "aliases_trad": list(s.aliases_trad), "meaning": s.meaning, "source": source.to_json(),
            "variant": reading, "verdict": s.verdict_of(p.variant), **english_of(s.id, s.name)}


def plate_to_text(plate: Plate, calendar: dict[str, Any] | None = None, trad: bool = False,
                  lang: str = "zh-Hans") -> str:
    """One line per branch: the spirits there, grouped by ring or table (``lang="en"``: in English, each
    name with its pinyin and gloss)."""
    if lang == "en":
        return english_text.plate_to_english(plate, calendar)
    cat = default_catalog()
    ring_names = {r.id: (r.name_trad if trad else r.name) for r in cat.rings}
    square_table = SQUARE_TABLE["zh-Hant" if trad else "zh-Hans"]
    head = plate.state.label()
    if calendar is not None:
        head += f"  ({calendar['date']} {calendar['zone']})"
    lines = [head]
    rot = "  ".join(f"{ring_names[r.ring.id]}{BRANCHES[r.anchor]}" for r in plate.rings)
    lines.append(rot)
    for b in range(12):
        sections = branch_sections(plate, b, lambda p: section_name(p, square_table, trad), trad, "[{}]")
        body = " │ ".join(f"{label}: {' '.join(names)}" for label, names in sections)
        lines.append(f"{BRANCHES[b]} │ {body}")
    if plate.omitted:
        lines.append(f"(未列 {len(plate.omitted)} 位：需要年干或日干支)")
    return "\n".join(lines)


QUALITY_WORDS: dict[str, tuple[str, str]] = {"good": ("吉", "吉"), "bad": ("凶", "凶"), "mixed": ("吉凶参半", "吉凶參半")}


def relations_to_text(first: str, second: str, relations: Sequence[Any], lang: str = "zh-Hans") -> str:
    if lang == "en":
        return english_text.relations_to_english(first, second, relations)
    from shensha_plates.core.script import in_script
    trad = is_trad(lang)
    lines = [f"{first} · {second}"]
    if not relations:
        lines.append(in_script("（八煞之中无一相涉）", lang))
    for r in relations:
        quality = QUALITY_WORDS[r.quality][1 if trad else 0]
        lines.append(f"{name_in(r, lang)}  {in_script(r.detail, lang)}  [{quality}]")
        lines.append(f"    {in_script(r.meaning, lang)}")
        if r.verdict == "rejected":
            lines.append(f"    {in_script('辨：不取。', lang)}{in_script(r.note or '', lang)}")
        elif r.note:
            lines.append(f"    {in_script('注：', lang)}{in_script(r.note, lang)}")
        lines.append(f"    {in_script('出处：', lang)}{r.source.line(trad)}")
    return "\n".join(lines)


def chart_to_json(chart: Any, calendar: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"pillars": chart.pillar_names(), "spirits": [h.to_json() for h in chart.hits], "calendar": calendar}


def chart_to_text(chart: Any, calendar: dict[str, Any] | None = None, lang: str = "zh-Hans") -> str:
    if lang == "en":
        return english_text.chart_to_english(chart, calendar)
    from shensha_plates.core.bazi import PILLAR_KEYS, PILLAR_NAMES
    from shensha_plates.core.script import in_script
    trad = is_trad(lang)
    names = chart.pillar_names()
    lines = []
    if calendar:
        lines.append(f"{calendar['date']} ({calendar['zone']})")
    lines.append("  ".join(f"{PILLAR_NAMES[k][1 if trad else 0]} {names[k]}" for k in PILLAR_KEYS))
    for k in PILLAR_KEYS:
        hits = [h for h in chart.hits if h.pillar.split("-")[0] == k]
        for h in hits:
            name = name_in(h.spirit, lang)
            lines.append(f"{PILLAR_NAMES[k][1 if trad else 0]}  {name}  {in_script(h.rule, lang)}")
            lines.append(f"      {in_script('出处：', lang)}{h.spirit.source.line(trad)}")
    if not chart.hits:
        lines.append(in_script("（无所列神煞）", lang))
    return "\n".join(lines)


def relations_to_json(first: str, second: str, relations: Sequence[Any]) -> dict[str, Any]:
    return {"first": first, "second": second, "relations": [r.to_json() for r in relations]}


def selection_to_text(plate: SelectionPlate, lang: str = "zh-Hans") -> str:
    """The date-selection plate: the spirits on each of the 24 mountains, those that fly to a palace,
    and those for which the books give no remedy (``lang="en"``: in English)."""
    if lang == "en":
        return english_text.selection_to_english(plate)
    from shensha_plates.core.cycle import MOUNTAINS
    from shensha_plates.core.script import in_script
    lines = [in_script(f"{plate.year_name} {MONTH_NAMES[plate.month - 1]}（选择求真）", lang)]
    for m in MOUNTAINS:
        names = [name_in(p.spirit, lang) for p in plate.at(m) if p.palace is None]
        lines.append(f"{m} │ {' '.join(names)}")
    flying = [(p.spirit, p.palace) for p in plate.placements if p.palace is not None]
    if flying:
        lines.append(in_script("飞宫：", lang) + "；".join(
            f"{name_in(sp, lang)} {in_script(palace + '宫', lang)}" for sp, palace in flying))
    none = [name_in(p.spirit, lang) for p in plate.placements if p.spirit.remedy == "none"]
    if none:
        lines.append(in_script("例无制法：", lang) + "、".join(dict.fromkeys(none)))
    if plate.omitted:
        lines.append(in_script(f"（未列 {len(plate.omitted)} 位：需要年干）", lang))
    return "\n".join(lines)
