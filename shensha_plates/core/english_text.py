"""``--lang en`` for ``bazi``, ``relate``, ``select`` and ``variants``: the same facts as the Chinese
text, in English for a learner. Every name stays Chinese with its pinyin and our gloss
("驿马 Yìmǎ · Travelling Horse"); branches, stems and pillars stay as characters; a source's quotation
stays in the book's words, in 「」 after the book's title. (``show`` is :func:`core.formats.plate_to_text`,
``ke`` :mod:`core.liuren.english_text`.)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from shensha_plates.core.cycle import BRANCHES, STEMS
from shensha_plates.core.english import Gloss, condition_english, english, label, pinyin

if TYPE_CHECKING:
    from shensha_plates.core.engine import Plate

__all__ = ["plate_to_english", "chart_to_english", "relations_to_english", "selection_to_english", "readings_to_english", "rule_english",
           "hit_line_english"]

QUALITY = {"good": "auspicious", "bad": "inauspicious", "mixed": "mixed"}
PILLARS = {"year": "Year pillar", "month": "Month pillar", "day": "Day pillar", "hour": "Hour pillar"}
KEYS = {"year_branch": "by the year's branch (子 to 亥)", "year_stem": "by the year's stem (甲 to 癸)",
        "month": "by the month (1st to 12th)", "season": "by the season (spring, summer, autumn, winter)",
        "mzj": "by first, middle and last month of the season",
        "mgroup": "by the months 1-5-9, 2-6-10, 3-7-11, 4-8-12", "xun": "by the decade (甲子 to 甲寅)",
        "day_stem": "by the day's stem (甲 to 癸)", "day_branch": "by the day's branch (子 to 亥)"}
VERDICTS = {"accepted": "Zhuang takes it", "rejected": "Zhuang rejects it", None: "no verdict"}


def _name(name: str, g: Gloss) -> str:
    """The name with the pinyin of its Chinese words (天乙贵人（夜） → Tiānyǐguìrén) and its gloss."""
    return label(name, g.gloss, pinyin(name.split("（")[0]))


def _source(src: Any) -> str:
    return "source: " + str(src.line())


def chart_to_english(chart: Any, calendar: dict[str, Any] | None = None) -> str:
    """``bazi --lang en``: the four pillars and, under each, the spirits it carries."""
    from shensha_plates.core.bazi import PILLAR_KEYS
    en = english()
    names = chart.pillar_names()
    lines = []
    if calendar:
        lines.append(f"{calendar['date']} ({calendar['zone']})")
    lines.append("  ".join(f"{PILLARS[k].split()[0]} {names[k]}" for k in PILLAR_KEYS))
    for k in PILLAR_KEYS:
        for h in (h for h in chart.hits if h.pillar.split("-")[0] == k):
            g = en.named(h.spirit.name, en.bazi, h.spirit.id)
            lines.append(f"{PILLARS[k]} {names[k]}: {_name(h.spirit.name, g)} (at {h.at}; {QUALITY.get(h.spirit.quality, h.spirit.quality)})")
            if g.meaning:
                lines.append(f"      {g.meaning}")
            lines.append(f"      {_source(h.spirit.source)}")
    if not chart.hits:
        lines.append("(none of the listed spirits)")
    return "\n".join(lines)


def relations_to_english(first: str, second: str, relations: Sequence[Any]) -> str:
    """``relate --lang en``: each of the eight relations between the two positions."""
    en = english()
    lines = [f"{first} · {second}"]
    if not relations:
        lines.append("(none of the eight relations joins them)")
    for r in relations:
        g = en.relations[r.kind]
        between = " ".join(ch for ch in r.detail if ch in BRANCHES or ch in STEMS)
        lines.append(f"{_name(r.name, g)}  {between}  [{QUALITY[r.quality]}]")
        lines.append(f"    {g.meaning}")
        if r.verdict == "rejected":
            lines.append("    Rejected by the seed's discussion (see the JSON's note).")
        lines.append(f"    {_source(r.source)}")
    return "\n".join(lines)


def selection_to_english(plate: Any) -> str:
    """``select --lang en``: the year's and month's spirits on the 24 mountains."""
    from shensha_plates.core.cycle import MOUNTAINS
    en = english()

    def name(sp: Any) -> str:
        g = en.named(sp.name, en.selection, sp.id)
        return f"{sp.name} {pinyin(sp.name)}" + (f" ({g.gloss})" if g.gloss else "")

    lines = [f"{plate.year_name.removesuffix('年')} year, month {plate.month} (date selection after 《选择求真》)"]
    for m in MOUNTAINS:
        lines.append(f"{m} │ " + ", ".join(name(p.spirit) for p in plate.at(m) if p.palace is None))
    flying = [(p.spirit, p.palace) for p in plate.placements if p.palace is not None]
    if flying:
        lines.append("Flying through the palaces: " + "; ".join(f"{name(sp)} in the {palace} {pinyin(palace)} palace"
                                                              for sp, palace in flying))
    none = [name(p.spirit) for p in plate.placements if p.spirit.remedy == "none"]
    if none:
        lines.append("No remedy in the books: " + ", ".join(dict.fromkeys(none)))
    if plate.omitted:
        lines.append(f"({len(plate.omitted)} not placed: they need the year's stem)")
    return "\n".join(lines)


def rule_english(spirit_id: str, variant_id: str = "default") -> str:
    """A reading's rule in English: the key it runs on and its positions in order."""
    from shensha_plates.core.catalog import default_catalog
    from shensha_plates.core.engine import Options, spirit_row
    cat = default_catalog()
    key, row = spirit_row(spirit_id, Options.from_choices({spirit_id: variant_id}, catalog=cat), cat)
    if key is None:
        return "does not turn with the plate: always at " + ", ".join(row[0])
    return f"{KEYS[key]}: " + " ".join("/".join(labels) if labels else "— (not known, not placed)" for labels in row)


def readings_to_english(found: Sequence[Any]) -> str:
    """``variants --lang en``: each spirit read more than one way, each reading with Zhuang's verdict
    and its rule and source."""
    en = english()
    lines: list[str] = []
    for f in found:
        s = f.spirit
        g = en.spirit(s.id)
        lines.append(f"{_name(s.name, g)} ({s.id})" + (f", also called {', '.join(f'{a} {pinyin(a)}' for a in s.aliases)}" if s.aliases else ""))
        for r in f.readings:
            lines.append(f"  {r.id}  [{VERDICTS.get(r.verdict, r.verdict)}]  {rule_english(s.id, r.id)}")
            lines.append(f"      {_source(r.source)}")
            note = en.variant_note(s.id, r.id) if r.id != "default" else ""
            if note:  # as the Chinese prints the variant's note (our translation)
                lines.append(f"      note: {note}")
    return "\n".join(lines)


def hit_line_english(hit: Any) -> str:
    """``find --lang en``: one row, the moment, its pillars and the lesson's name in English, and the
    conditions met (as they were given)."""
    from shensha_plates.core.cycle import pillar_name
    en = english()
    s = hit.state
    row = f"{s.year_name.removesuffix('年')} year, month {s.month}"
    if s.day is not None:
        row += f", day {pillar_name(s.day)}"
    if s.hour is not None:
        row += f", hour {BRANCHES[s.hour]}"
    lesson = f"  {label(hit.ke, en.ke.get(hit.ke, ''))}" if hit.ke else ""
    return f"{hit.moment.isoformat(timespec='minutes')}  {row}{lesson}  {'; '.join(hit.matched)}"


def plate_to_english(plate: Plate, calendar: dict[str, Any] | None) -> str:
    """The plate for a learner: the discs as turned and, under each branch, every spirit as
    "天马 Tiānmǎ (Heavenly Horse)", grouped by disc or table (the English is our translation)."""
    from shensha_plates.core.catalog import GROUPS
    from shensha_plates.core.cycle import XUN_HEADS, pillar_name
    en = english()
    st = plate.state
    head = f"{st.year_name} year · month {st.month} ({BRANCHES[st.month_branch]}) · {XUN_HEADS[st.xun]} xun"
    if st.day is not None:
        head += f" · {pillar_name(st.day)} day"
    if st.hour is not None:
        head += f" · {BRANCHES[st.hour]} hour"
    if calendar is not None:
        head += f"  ({calendar['date']} {calendar['zone']})"
    lines = [head, "Discs (the branch under each disc's first slot): " + "  ".join(
        f"{label(r.ring.name, en.rings.get(r.ring.id, ''))}: {BRANCHES[r.anchor]}" for r in plate.rings)]
    for b in range(12):
        groups: list[tuple[str, list[str]]] = []
        for p in plate.positions[b]:
            section = en.rings.get(p.ring, p.ring) if p.ring else f"{GROUPS[p.group][2]} (table)"
            if not groups or groups[-1][0] != section:
                groups.append((section, []))
            name = f"{p.name} {pinyin(p.name)} ({en.spirit(p.id).gloss})"
            if p.conditional:
                name += f" [if {condition_english(p.conditional)}]"
            groups[-1][1].append(name)
        lines.append(f"{BRANCHES[b]} │ " + " │ ".join(f"{section}: {', '.join(names)}" for section, names in groups))
    if plate.omitted:
        lines.append(f"({len(plate.omitted)} spirits not listed: they need the year's stem or the day)")
    return "\n".join(lines)
