"""The lesson (课传) in a snapshot: the heaven rings turned on the page, and rows for the spirits table.

Used by :mod:`shensha_plates.gui.export.page_layout` when a snapshot includes the lesson: the heaven plate and the
generals are drawn around the lower plate as in the window, the conditional names in force or
dimmed as the core resolves them, and the spirits page lists the four lessons, the three
transmissions with the method, and the spirits on each branch of the lesson.
"""

from __future__ import annotations

from shensha_plates.core.cycle import BRANCHES, STEMS, pillar_name
from shensha_plates.core.engine import Plate
from shensha_plates.core.lang import name_in
from shensha_plates.core.liuren import Ke
from shensha_plates.core.liuren.lodging import DayFacts
from shensha_plates.core.liuren.nianming import NianMing
from shensha_plates.core.liuren.spirits import resolve_names
from shensha_plates.gui.describe import spirit_name, to_lang
from shensha_plates.gui.i18n import tr
from shensha_plates.gui.liuren import general_name, labels_for
from shensha_plates.gui.plate.scene import PlateScene

__all__ = ["place_heaven", "lesson_rows", "in_force"]


def in_force(ke: Ke, plate: Plate) -> dict[str, bool]:
    """The catalog's conditional spirits → whether the core finds their condition on this plate."""
    return {n.spirit: bool(n.in_force) for n in resolve_names(plate.state, ke, ke.options, plate)
            if n.spirit is not None and n.spirit == n.id and n.in_force is not None}


def place_heaven(plates: PlateScene, ke: Ke, lang: str, general_names: bool = False) -> None:
    """Give the heaven rings of a built scene their labels and turn them for the lesson's hour."""
    th_labels, tg_labels = labels_for(ke.plate, lang, general_names)
    for rid, labels in (("TH", th_labels), ("TG", tg_labels)):
        ring = plates.heaven[rid]
        ring.direct_paint = True
        ring.set_labels(labels, ring.char_px, plates.config.palette)
        ring.set_anchor(ke.plate.under(0), animate=False)


def _english_rows(ke: Ke, plate: Plate, nian_ming: NianMing | None, day: DayFacts | None = None) -> list[tuple[str, str]]:
    """The lesson's rows in English (issue 28): the heading inside the row (the head column is one
    character wide), each name with its pinyin and gloss where it is named as a term."""
    from shensha_plates.core.english import english, label, pinyin
    from shensha_plates.core.liuren.english_text import why_en
    from shensha_plates.core.liuren.patterns import detect_bifa, detect_patterns
    en = english()
    hp = ke.plate
    rtl = list(reversed(ke.lessons))
    gens = "".join(general_name(g, "en", short=True) for g in reversed(ke.lesson_generals))
    rows = [("", f"Four lessons (general {BRANCHES[hp.general]} over the hour {BRANCHES[hp.hour]}): {gens} / "
                 f"{''.join(BRANCHES[x.upper] for x in rtl)} / {''.join(x.lower_name for x in rtl)}")]
    trans = "; ".join(
        f"{('First', 'Middle', 'Last')[t.position]} {BRANCHES[t.branch]} ({en.kin[t.kin]}"
        f"{', ' + STEMS[t.stem] if t.stem is not None else ''}, {general_name(t.general, 'en')}{', void' if t.void else ''})"
        for t in ke.transmissions)
    method = label(ke.method_name("en"), en.methods[ke.course.method].gloss)
    if ke.ke != ke.method_name("en"):
        method += "; " + label(ke.ke, en.ke.get(ke.ke, ""))
    rows.append(("", f"Three transmissions: {trans}. Method: {method}"))
    if nian_ming is not None:
        roles = {"ben_ming": "birth year", "xing_nian": "moving year"}
        rows.append(("", f"Querent ({'man' if nian_ming.sex == 'm' else 'woman'}, age {nian_ming.age}): " + "; ".join(
            f"{tr(y.role, 'zh-Hans')} {pinyin(tr(y.role, 'zh-Hans'))} ({roles.get(y.role, y.role)}) {pillar_name(y.pillar)}: "
            f"{BRANCHES[y.heaven]} over {BRANCHES[y.branch]}, {general_name(y.general, 'en')}" for y in nian_ming.years)))
        p = nian_ming.partner
        if p is not None:
            rows.append(("", f"Partner ({'man' if p.sex == 'm' else 'woman'}, age {p.age}): " + "; ".join(
                f"{tr(y.role, 'zh-Hans')} {pinyin(tr(y.role, 'zh-Hans'))} ({roles.get(y.role, y.role)}) "
                f"{pillar_name(y.pillar)}: {BRANCHES[y.heaven]} over {BRANCHES[y.branch]}, {general_name(y.general, 'en')}"
                for y in p.years)))
    lines = detect_bifa(ke, plate, nian_ming, day=day)
    if lines:
        rows.append(("", "Bifa Fu lines (the book's words): " + "; ".join(f"{h.number}. {h.verse}" for h in lines)))
    hits = detect_patterns(ke, plate, nian_ming, day=day)
    if hits:
        rows.append(("", "Patterns: " + "; ".join(f"{label(h.name, h.pattern.name_en)} ({why_en(h)})" for h in hits)))
    heads: dict[int, list[str]] = {}
    for lesson in ke.lessons:
        if lesson.repeat_of is None:
            heads.setdefault(lesson.upper, []).append(f"Lesson {lesson.index}")
    for t in ke.transmissions:
        heads.setdefault(t.branch, []).append(("First", "Middle", "Last")[t.position] + " transmission")
    for y in nian_ming.years if nian_ming is not None else ():
        heads.setdefault(y.heaven, []).append({"ben_ming": "Birth year", "xing_nian": "Moving year"}.get(y.role, y.role))
    for y in nian_ming.partner.years if nian_ming is not None and nian_ming.partner is not None else ():
        heads.setdefault(y.heaven, []).append("Partner's " + {"ben_ming": "birth year", "xing_nian": "moving year"}[y.role])
    for b, head in heads.items():
        names = "、".join(dict.fromkeys(spirit_name(p.spirit, "en") for p in plate.at(b)))
        rows.append((BRANCHES[b], f"【{', '.join(dict.fromkeys(head))}】{names}"))
    return rows


def lesson_rows(ke: Ke, plate: Plate, lang: str, nian_ming: NianMing | None = None,
                day: DayFacts | None = None) -> list[tuple[str, str]]:
    """Rows for the spirits table: the lesson in the books' order, then the spirits on each branch."""
    if lang == "en":
        return _english_rows(ke, plate, nian_ming, day)
    hp = ke.plate
    rtl = list(reversed(ke.lessons))
    gens = "".join(general_name(g, lang, short=True) for g in reversed(ke.lesson_generals))
    lessons = f"{gens}／{''.join(BRANCHES[x.upper] for x in rtl)}／{''.join(x.lower_name for x in rtl)}"
    trans = "　".join(f"{to_lang(t.kin, lang)}{STEMS[t.stem] if t.stem is not None else ''}{BRANCHES[t.branch]}"
                     f"{general_name(t.general, lang)}{'（空）' if t.void else ''}" for t in ke.transmissions)
    method = ke.method_name(lang) + ("" if to_lang(ke.ke, lang) == ke.method_name(lang) else "·" + to_lang(ke.ke, lang))
    rows = [(tr("four_lessons", lang), f"{BRANCHES[hp.general]}将加{BRANCHES[hp.hour]}　{lessons}"),
            (tr("three_transmissions", lang), f"{trans}　【{tr('method', lang)}】{method}")]
    # the querent's years (and the partner's): each with the heaven branch over it and its general
    people = [] if nian_ming is None else [("nian_ming", nian_ming)] + (
        [] if nian_ming.partner is None else [("partner", nian_ming.partner)])
    for title, person in people:
        sex = tr("male" if person.sex == "m" else "female", lang)
        count = "" if person.count == "xusui" else "·" + tr("xingnian_" + person.count, lang)
        rows.append((tr(title, lang), f"{sex}·{tr('age_xusui', lang, age=person.age)}{count}　" + "　".join(
            f"{tr(y.role, lang)}{pillar_name(y.pillar)} {BRANCHES[y.branch]}{to_lang('上', lang)}"
            f"{BRANCHES[y.heaven]}{general_name(y.general, lang)}" for y in person.years)))
    from shensha_plates.core.liuren.patterns import detect_patterns
    hits = detect_patterns(ke, plate, nian_ming, day=day)
    from shensha_plates.core.liuren.patterns import detect_bifa
    lines = detect_bifa(ke, plate, nian_ming, day=day)
    if lines:
        rows.append((tr("bifa", lang), "；".join(f"{h.number}. {to_lang(h.verse, lang)}" for h in lines)))
    if hits:
        rows.append((tr("patterns", lang), "；".join(
            f"{name_in(h, lang)}（{to_lang(h.why, lang)}）" for h in hits)))
    heads: dict[int, list[str]] = {}
    for lesson in ke.lessons:
        if lesson.repeat_of is None:
            heads.setdefault(lesson.upper, []).append(to_lang(lesson.name, lang))
    for t in ke.transmissions:
        which = tr(("trans_first", "trans_middle", "trans_last")[t.position], lang)
        if which not in heads.setdefault(t.branch, []):
            heads[t.branch].append(which)
    for y in nian_ming.years if nian_ming is not None else ():
        if tr(y.role, lang) not in heads.setdefault(y.heaven, []):
            heads[y.heaven].append(tr(y.role, lang))
    for y in nian_ming.partner.years if nian_ming is not None and nian_ming.partner is not None else ():
        words = tr("partner_year", lang, role=tr(y.role, lang))  # 配偶本命, 配偶行年
        if words not in heads.setdefault(y.heaven, []):
            heads[y.heaven].append(words)
    for b, head in heads.items():
        names = "、".join(dict.fromkeys(spirit_name(p.spirit, lang) for p in plate.at(b)))
        rows.append((BRANCHES[b], f"【{'、'.join(head)}】{names}"))
    return rows
