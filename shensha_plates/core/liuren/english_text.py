"""``ke --lang en``: the Liu Ren plate in English for a learner who does not read Chinese.

The names stay Chinese, as the books print them, each with its pinyin and our English gloss
("贵人 Guìrén · Noble"); branches and stems stay single characters (their animals and phases are
given once, in the plate's legend); every other word is English from ``resources/i18n/en.toml``
(our translation). The step sentences are the English ``[rule]`` sentences with the same fields.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from shensha_plates.core.cycle import BRANCHES, STEMS, pillar_name
from shensha_plates.core.english import English, english, label, pinyin
from shensha_plates.core.errors import CatalogError
from shensha_plates.core.liuren.method import TRANSMISSION_NAMES
from shensha_plates.core.liuren.patterns import BifaHit, PatternHit, bifa_lines, patterns
from shensha_plates.core.liuren.ke import Ke
from shensha_plates.core.liuren.spirits import KeSpirits
from shensha_plates.core.liuren.tables import liuren_tables
from shensha_plates.core.schema import template_fields

__all__ = ["ke_to_english", "growth_to_english", "why_en", "check_reasons", "reasons"]

_SQUARE = (("巳", "午", "未", "申"), ("辰", None, None, "酉"), ("卯", None, None, "戌"), ("寅", "丑", "子", "亥"))


def check_reasons(en: English) -> tuple[Mapping[str, str], Mapping[int, str]]:
    """The English reasons of ``en`` checked against the Chinese: a template in [pattern_why] for exactly the
    patterns (by id) and in [bifa_why] for exactly the detected 毕法赋 lines (by number), each with exactly
    the {fields} of its Chinese `why`. A fault raises one CatalogError naming file, entry, field and value."""
    from shensha_plates.core.english import _EN_FILE
    sections: tuple[tuple[str, Mapping[Any, str], Mapping[Any, str]], ...] = (
        ("pattern_why", en.pattern_whys, {p.id: p.why for p in patterns()}),
        ("bifa_why", en.bifa_whys, {b.number: b.why for b in bifa_lines() if b.tests}))
    for section, have, chinese in sections:
        for key, want in chinese.items():
            if key not in have:
                missing = [k for k in chinese if k not in have]
                raise CatalogError(_EN_FILE, f"[{section}] {key}", str(key), None,
                                   f"has no English ({len(missing)} missing in [{section}])")
            fields = template_fields(want) or set()
            if template_fields(have[key]) != fields:
                raise CatalogError(_EN_FILE, f"[{section}] {key}", str(key), have[key],
                                   "must use exactly the fields of the Chinese template: "
                                   + (", ".join(sorted(fields)) or "none"))
        extra = sorted(set(have) - set(chinese), key=str)
        if extra:
            raise CatalogError(_EN_FILE, f"[{section}] {extra[0]}", str(extra[0]), have[extra[0]],
                               "is not a pattern or detected line the Chinese data has")
    names = {n for p in patterns() for t in p.forms for n in (*t.names, t.label) if n}
    for n in sorted(names):
        if n not in en.pattern_forms:
            raise CatalogError(_EN_FILE, f"[pattern_form] {n}", n, None, "has no English (a pattern's named form)")
    extra_forms = sorted(set(en.pattern_forms) - names)
    if extra_forms:
        raise CatalogError(_EN_FILE, f"[pattern_form] {extra_forms[0]}", extra_forms[0], en.pattern_forms[extra_forms[0]],
                           "is not a named form of a pattern the Chinese data has")
    return en.pattern_whys, en.bifa_whys


@lru_cache(maxsize=1)
def reasons() -> tuple[Mapping[str, str], Mapping[int, str]]:
    """The packaged English reasons (pattern id → template, line number → template), checked once."""
    return check_reasons(english())


@lru_cache(maxsize=1)
def _packaged_whys() -> tuple[Mapping[str, str], Mapping[int, str]]:
    return {p.id: p.why for p in patterns()}, {b.number: b.why for b in bifa_lines() if b.tests}


def why_en(hit: PatternHit | BifaHit) -> str:
    """A hit's why in English: our translation of its pattern's or line's template ([pattern_why],
    [bifa_why] of ``resources/i18n/en.toml``) filled with the fields its Chinese why was filled with (the
    three transmissions spaced, "巳 戌 卯"); "" for a pattern of a table of one's own whose why is not the
    packaged one, or a hit made without its fields."""
    pattern_whys, bifa_whys = reasons()
    chinese_patterns, chinese_lines = _packaged_whys()
    if isinstance(hit, PatternHit):
        key: Any = hit.pattern.id
        template, packaged, chinese = pattern_whys.get(key), chinese_patterns.get(key), hit.pattern.why
    else:
        key = hit.line.number
        template, packaged, chinese = bifa_whys.get(key), chinese_lines.get(key), hit.line.why
    if template is None or packaged != chinese or (template_fields(template) and not hit.words):
        return ""
    words = dict(hit.words)
    if "trans" in words:
        words["trans"] = " ".join(words["trans"])
    if "forms" in words:  # the named forms that hold, each in English ([pattern_form])
        words["forms"] = _forms_en(words["forms"], english().pattern_forms)
    return template.format_map(words)


def _forms_en(chinese: str, names: Mapping[str, str]) -> str:
    """「八迍：死气发用、乘凶将；五福：始凶终吉」 → "the eight hardships: …, …; the five blessings: …"."""
    parts = []
    for part in chinese.split("；"):
        label, _, held = part.rpartition("：")
        text = ", ".join(names.get(n, n) for n in held.split("、"))
        parts.append(f"{names.get(label, label)}: {text}" if label else text)
    return "; ".join(parts)


def _general(index: int, en: English) -> str:
    g = liuren_tables().generals[index]
    return label(g.name, en.generals[g.id].gloss)


def _spirit(sid: str, name: str, en: English) -> str:
    gloss = en.spirit(sid).gloss
    return f"{name} {pinyin(name)}" + (f" ({gloss})" if gloss else "")


def ke_to_english(ke: Ke, spirits: KeSpirits | None = None, calendar: dict[str, Any] | None = None) -> str:
    """The plate, the four lessons, the three transmissions, the method and its steps and the spirits
    on each, in English (see the module's docstring)."""
    en = english()
    lr = liuren_tables()
    hp = ke.plate
    lines: list[str] = []
    if calendar:
        term = calendar["general_term"]["name"]
        lines.append(f"{calendar['date']} ({calendar['zone']})  after {term} {pinyin(term)}")
    mg = next(m for m in lr.month_generals if m.branch == hp.general)
    lines.append(f"Day {pillar_name(hp.day)}, hour {BRANCHES[hp.hour]}: month general {BRANCHES[hp.general]} "
                 f"({label(mg.name, en.month_generals[mg.name])}) over the hour {BRANCHES[hp.hour]}; "
                 f"{'day' if hp.daytime else 'night'} noble at {BRANCHES[hp.noble]}, the generals run "
                 f"{'forward' if hp.forward else 'backward'}; void in the decade: "
                 f"{BRANCHES[hp.void[0]]} {BRANCHES[hp.void[1]]}")
    lines.append("Heaven and earth plate (heaven branch and its general over each earth branch):")
    for row in _SQUARE:
        cells = []
        for e in row:
            if e is None:
                cells.append(" " * 14)  # a cell is 14 columns wide (a Chinese character takes two)
            else:
                b = BRANCHES.index(e)
                g = lr.generals[hp.generals[b]]
                cells.append(f"{BRANCHES[hp.heaven[b]]} {g.short} over {e}")
        lines.append("  " + "  ".join(cells).rstrip())
    lines.append("Four lessons (right to left, lesson 1 on the right):")
    order = list(reversed(range(4)))
    lines.append("  " + "  ".join(lr.generals[ke.lesson_generals[i]].short for i in order))
    lines.append("  " + "  ".join(BRANCHES[ke.lessons[i].upper] for i in order))
    lines.append("  " + "  ".join(ke.lessons[i].lower_name for i in order))
    lines.append("Three transmissions:")
    for t in ke.transmissions:
        stem = f"hidden stem {STEMS[t.stem]}, " if t.stem is not None else ""
        void = ", void" if t.void else ""
        lines.append(f"  {en.term(TRANSMISSION_NAMES[t.position]).capitalize()}: {BRANCHES[t.branch]} "
                     f"({en.kin[t.kin]}; {stem}{_general(t.general, en)}{void})")
    method = lr.methods[ke.course.method]
    ke_name = ke.course.ke
    lines.append(f"Method: {label(method.name, en.methods[ke.course.method].gloss)}; lesson "
                 f"{label(ke_name, en.ke.get(ke_name, ''))}")
    lines.append("How the transmissions were found:")
    lines.extend(f"  {s.text('en')}" for s in ke.steps)
    if spirits is not None:
        lines.append("Spirits of the plates on each lesson and transmission"
                     + (" (no year or month given: only the decade's and the day's)" if spirits.partial else "") + ":")
        for s in spirits.lessons + spirits.transmissions:
            names = []
            for p in s.placements:
                name = _spirit(p.id, p.name, en)
                if p.conditional:
                    st = spirits.status(p.id)
                    flag = "?" if st is None or st.in_force is None else ("✓" if st.in_force else "✗")
                    name += f" [if {en.conditions.get(p.conditional, p.conditional)} {flag}]"
                names.append(name)
            lines.append(f"  {en.term(s.position).capitalize()} {BRANCHES[s.branch]}: {', '.join(names) or '—'}")
        held = [n for n in spirits.names if n.in_force]
        if held:
            lines.append("Formed in the lesson: " + "; ".join(
                f"{label(n.name, en.names[n.id].gloss)} ({en.names[n.id].meaning})" if n.id in en.names
                else f"{n.name} {pinyin(n.name)}" for n in held))
    return "\n".join(lines)


def growth_to_english(ke: Ke, growth: Sequence[tuple[int, str, str]], month_branch: int, basis: str,
                      hits: Sequence[PatternHit], bifa: Sequence[BifaHit]) -> str:
    """The stages of growth and strength of the transmissions, the patterns and the 毕法赋 lines, each with
    why in English."""
    en = english()
    where = "the date's month" if basis == "date" else "the month whose branch is the month general's harmony"
    lines = [f"Growth and strength (day stem {STEMS[ke.day % 10]}, month {BRANCHES[month_branch]} from {where}): "
             + "; ".join(f"{en.term(TRANSMISSION_NAMES[i])} {BRANCHES[b]} {en.term(stage)}, {en.term(power)}"
                         for i, (b, stage, power) in enumerate(growth))]
    if hits:  # each with why (our translation of its reason, [pattern_why])
        lines.append("Patterns:")
        lines.extend(f"  {label(h.name, h.pattern.name_en)}: {why_en(h)}" for h in hits)
    if bifa:  # each line by its number (the verse is the book's words: ke's Chinese and JSON) and why
        lines.append("毕法赋 Bìfǎfù (the Rhapsody of Infallible Methods), lines:")
        lines.extend(f"  {h.number}. {why_en(h)}" for h in bifa)
    return "\n".join(lines)
