"""What the Liu Ren chart looks like on the command line (``ke``): the plate in the traditional layout
(the square plate, the lessons right to left, the transmissions, the method and its steps, the
spirits on each) and as JSON, the 720 lessons, a pattern, and the querent's years (in Chinese,
simplified or traditional, and in English).
"""

from __future__ import annotations

from typing import Any

from shensha_plates.core.cycle import BRANCHES, STEMS, pillar_name
from shensha_plates.core.engine import Options, State
from shensha_plates.core.lang import is_trad, name_in
from shensha_plates.core.liuren.ke import Ke, compute_ke
from shensha_plates.core.liuren.method import LESSON_NAMES, TRANSMISSION_NAMES, course
from shensha_plates.core.liuren.plate import DEFAULT_OPTIONS, KeOptions, describe
from shensha_plates.core.liuren.nianming import NianMing
from shensha_plates.core.liuren.patterns import PatternHit
from shensha_plates.core.liuren.spirits import KeSpirits, spirits_at_branches
from shensha_plates.core.liuren.tables import liuren_tables
from shensha_plates.core.script import in_script


__all__ = ["ke_to_json", "ke_to_text", "all_to_json", "all_to_text", "pattern_json", "nian_ming_json", "nian_ming_text",
           "nian_ming_english", "general_name", "general_en", "method_json"]

# The square layout of the plate: the earth branches in their printed places (as seed 002 prints them).
_SQUARE = (("巳", "午", "未", "申"), ("辰", None, None, "酉"), ("卯", None, None, "戌"), ("寅", "丑", "子", "亥"))


def pattern_json(hit: PatternHit, lang: str = "zh-Hans") -> dict[str, Any]:
    """One pattern as ``ke --format json`` lists it (``why_en``: why, in our English)."""
    from shensha_plates.core.catalog import SEED_FILES
    src = hit.pattern.source
    book = liuren_tables().books[src.book].title if src.book else SEED_FILES[src.file or ""]
    from shensha_plates.core.english import english_of
    from shensha_plates.core.liuren.english_text import why_en
    return {"id": hit.id, "name": hit.name, "name_trad": hit.name_trad, "kind": hit.kind,
            "source": {"book": book, "quote": src.quote}, "why": in_script(hit.why, lang), "why_en": why_en(hit),
            **english_of(None, hit.name, hit.pattern.name_en)}


def general_en(index: int) -> dict[str, str]:
    """A general's pinyin and English gloss (our translation)."""
    from shensha_plates.core.english import english, pinyin
    g = liuren_tables().generals[index]
    return {"name": g.name, "pinyin": pinyin(g.name), "gloss_en": english().generals[g.id].gloss}


_ROLE_NAMES = {"ben_ming": "本命", "xing_nian": "行年"}


def nian_ming_json(nm: NianMing, state: State | None, ke: Ke, catalog: Options, lang: str,
                   partner: bool = False) -> dict[str, Any]:
    """The JSON of ``ke``'s ``nian_ming``: each year with its pillar, branch, the heaven branch over
    it, the general on that and the spirits on that heaven branch (also gathered by key)."""
    rows = spirits_at_branches(state, ke.day, tuple(y.heaven for y in nm.years),
                               None if catalog == Options() else catalog)
    years: dict[str, Any] = {}
    for y, placements in zip(nm.years, rows, strict=True):
        years[y.role] = {"name": in_script(_ROLE_NAMES[y.role], lang), "pillar": pillar_name(y.pillar),
                         "branch": BRANCHES[y.branch], "heaven": BRANCHES[y.heaven],
                         "general": general_name(y.general, lang),
                         "spirits": [{"id": p.id, "name": name_in(p, lang)}
                                     for p in placements]}
    data = {**years, "sex": nm.sex, "age": nm.age, "count": nm.count,
            "heaven": {k: v["heaven"] for k, v in years.items()},
            "general": {k: v["general"] for k, v in years.items()},
            "spirits": {k: v["spirits"] for k, v in years.items()}}
    if not partner:  # the querent's: with the partner's years (繁昌 旺孕 解离), or null
        data["partner"] = None if nm.partner is None else nian_ming_json(nm.partner, state, ke, catalog, lang, True)
    return data


def nian_ming_text(nm: NianMing, state: State | None, ke: Ke, catalog: Options, lang: str,
                   partner: bool = False) -> str:
    rows = spirits_at_branches(state, ke.day, tuple(y.heaven for y in nm.years),
                               None if catalog == Options() else catalog)
    sex = "男" if nm.sex == "m" else "女"
    count = {"xusui": "", "zhousui": "，按周岁起行年", "liujia": "，六甲起行年"}.get(nm.count, "")
    lines = [in_script(f"{'年命' if not partner else '配偶年命'}（{sex}，虚岁{nm.age}{count}）：", lang)]
    for y, placements in zip(nm.years, rows, strict=True):
        names = " ".join(name_in(p, lang) for p in placements) or "—"
        lines.append("  " + in_script(f"{_ROLE_NAMES[y.role]} {pillar_name(y.pillar)}：{BRANCHES[y.branch]}上"
                                f"{BRANCHES[y.heaven]} {general_name(y.general, 'zh-Hans')}；{names}", lang))
    if nm.partner is not None:
        lines.append(nian_ming_text(nm.partner, state, ke, catalog, lang, partner=True))
    return "\n".join(lines)


def nian_ming_english(nm: NianMing, state: State | None, ke: Ke, catalog: Options, partner: bool = False) -> str:
    """The querent's years in English (``ke --lang en``)."""
    from shensha_plates.core.english import english, label, pinyin
    en = english()
    rows = spirits_at_branches(state, ke.day, tuple(y.heaven for y in nm.years),
                               None if catalog == Options() else catalog)
    count = {"xusui": "", "zhousui": ", moving year counted by full years", "liujia": ", moving year by the six 甲"}
    lines = [f"The {'partner' if partner else 'querent'} ({'man' if nm.sex == 'm' else 'woman'}, age {nm.age} by Chinese count"
             f"{count.get(nm.count, '')}):"]
    role = {"ben_ming": "birth year", "xing_nian": "moving year"}
    for y, placements in zip(nm.years, rows, strict=True):
        g = liuren_tables().generals[y.general]
        names = ", ".join(f"{p.name} {pinyin(p.name)} ({en.spirit(p.id).gloss})" for p in placements) or "—"
        lines.append(f"  {_ROLE_NAMES[y.role]} {pinyin(_ROLE_NAMES[y.role])} ({role[y.role]}) {pillar_name(y.pillar)}: "
                     f"{BRANCHES[y.heaven]} over {BRANCHES[y.branch]}, {label(g.name, en.generals[g.id].gloss)}; {names}")
    if nm.partner is not None:
        lines.append(nian_ming_english(nm.partner, state, ke, catalog, partner=True))
    return "\n".join(lines)


def general_name(index: int, lang: str, short: bool = False) -> str:
    g = liuren_tables().generals[index]
    if short:
        return g.short_trad if is_trad(lang) else g.short
    return name_in(g, lang)


def method_json(ke_course: Any, lang: str) -> dict[str, str]:
    info = liuren_tables().methods[ke_course.method]
    return {"id": ke_course.method, "name": name_in(info, lang),
            "ke": in_script(ke_course.ke, lang)}


def _lessons_json(ke: Ke | None, c: Any, lang: str) -> list[dict[str, Any]]:
    out = []
    for i, lesson in enumerate(c.lessons):
        item: dict[str, Any] = {"upper": BRANCHES[lesson.upper], "lower": lesson.lower_name}
        if ke is not None:
            item["general"] = general_name(ke.lesson_generals[i], lang)
        item["relation"] = {"xia": "下贼上", "shang": "上克下", None: None}[lesson.relation]
        item["repeat_of"] = lesson.repeat_of
        out.append(item)
    return out


def ke_to_json(ke: Ke, spirits: KeSpirits | None = None, lang: str = "zh-Hans") -> dict[str, Any]:
    """The scripting shape of one plate (keys as the issue lists them, plus a few more)."""
    hp = ke.plate
    data: dict[str, Any] = {
        "day": pillar_name(hp.day), "hour": BRANCHES[hp.hour], "general": BRANCHES[hp.general],
        "daytime": hp.daytime, "noble": BRANCHES[hp.noble], "direction": "顺" if hp.forward else "逆",
        "void": [BRANCHES[b] for b in hp.void],
        "heaven": {BRANCHES[e]: BRANCHES[hp.heaven[e]] for e in range(12)},
        "generals": {BRANCHES[e]: general_name(hp.generals[e], lang) for e in range(12)},
        "hidden_stems": {BRANCHES[b]: (None if s is None else STEMS[s]) for b, s in enumerate(hp.hidden)},
        "lessons": _lessons_json(ke, ke.course, lang),
        "transmissions": [{"branch": BRANCHES[t.branch], "general": general_name(t.general, lang),
                           "kin": in_script(t.kin, lang), "stem": None if t.stem is None else STEMS[t.stem],
                           "void": t.void, "general_en": general_en(t.general)} for t in ke.transmissions],
        "generals_en": {BRANCHES[e]: general_en(hp.generals[e]) for e in range(12)},
        "method": method_json(ke.course, lang),
        "steps": [{"rule": s.rule, "text": s.text(lang), "branch": None if s.branch is None else BRANCHES[s.branch]}
                  for s in ke.steps],
        "variants": dict(ke.options.choices),
    }
    if spirits is not None:
        def rows(items: Any) -> list[dict[str, Any]]:
            from shensha_plates.core.english import english_of
            return [{"position": in_script(s.position, lang), "branch": BRANCHES[s.branch],
                     "spirits": [{"id": p.id, "name": name_in(p, lang),
                                  "group": p.group, "conditional": p.conditional,
                                  "in_force": _in_force(spirits, p.id), **english_of(p.id, p.name)}
                                 for p in s.placements]}
                    for s in items]
        data["spirits"] = {"lessons": rows(spirits.lessons), "transmissions": rows(spirits.transmissions),
                           "names": [n.to_json() for n in spirits.names], "partial": spirits.partial}
    return data


def _in_force(spirits: KeSpirits, spirit_id: str) -> bool | None:
    st = spirits.status(spirit_id)
    return None if st is None else st.in_force


def ke_to_text(ke: Ke, spirits: KeSpirits | None = None, calendar: dict[str, Any] | None = None,
               lang: str = "zh-Hans") -> str:
    """The plate in the traditional layout: the square plate, the lessons right to left, the
    transmissions top to bottom, the method and its steps, the spirits on each."""
    hp = ke.plate
    lines = []
    if calendar:
        lines.append(f"{calendar['date']} ({calendar['zone']})  {calendar['general_term']['name']}后")
    lines.append(in_script(describe(hp) + f"　{BRANCHES[hp.hour]}时", lang))
    lines.append(in_script("天地盘（天盘支·天将，地盘支在其下）：", lang))
    for row in _SQUARE:
        cells = []
        for e in row:
            if e is None:
                cells.append("　　　")
            else:
                b = BRANCHES.index(e)
                cells.append(f"{BRANCHES[hp.heaven[b]]}{general_name(hp.generals[b], lang, short=True)}{e}")
        lines.append("  " + "  ".join(cells))
    lines.append(in_script("四课（自右而左：一课在右）：", lang))
    order = list(reversed(range(4)))
    lines.append("  " + "  ".join(general_name(ke.lesson_generals[i], lang, short=True) for i in order))
    lines.append("  " + "  ".join(BRANCHES[ke.lessons[i].upper] for i in order))
    lines.append("  " + "  ".join(ke.lessons[i].lower_name for i in order))
    lines.append(in_script("三传：", lang))
    for t in ke.transmissions:
        stem = "　" if t.stem is None else STEMS[t.stem]
        void = in_script("空", lang) if t.void else "　"
        lines.append(f"  {in_script(TRANSMISSION_NAMES[t.position], lang)}  {in_script(t.kin, lang)} {stem} "
                     f"{BRANCHES[t.branch]} {general_name(t.general, lang)} {void}")
    m = method_json(ke.course, lang)
    lines.append(in_script("课体：", lang) + f"{m['name']}（{m['ke']}）")
    lines.append(in_script("取传：", lang))
    lines.extend(f"  {s.text(lang)}" for s in ke.steps)
    if spirits is not None:
        lines.append(in_script("神煞：", lang) + (in_script("（未给年月，只列旬煞与日煞）", lang) if spirits.partial else ""))
        for s in spirits.lessons + spirits.transmissions:
            names = []
            for p in s.placements:
                name = name_in(p, lang)
                if p.conditional:
                    st = spirits.status(p.id)
                    flag = "?" if st is None or st.in_force is None else ("✓" if st.in_force else "✗")
                    name += f"[{in_script(p.conditional, lang)}{flag}]"
                names.append(name)
            lines.append(f"  {in_script(s.position, lang)} {BRANCHES[s.branch]}：{' '.join(names) or '—'}")
        held = [n for n in spirits.names if n.in_force]
        if held:
            lines.append(in_script("课中所成：", lang) + "；".join(
                f"{name_in(n, lang)}（{in_script(n.reason, lang)}）" for n in held))
    return "\n".join(lines)


def all_to_json(options: KeOptions = DEFAULT_OPTIONS) -> list[dict[str, Any]]:
    """The 720 lessons: for each day, the twelve heaven branches over 子 (the hour 子, so the
    generals are those of the night)."""
    out = []
    for day in range(60):
        for turn in range(12):
            ke = compute_ke(day, 0, turn, options)
            out.append({"day": pillar_name(day), "general": BRANCHES[turn],
                        "lessons": _lessons_json(ke, ke.course, "zh-Hans"),
                        "transmissions": [BRANCHES[b] for b in ke.course.transmissions],
                        "method": method_json(ke.course, "zh-Hans")})
    return out


def all_to_text(options: KeOptions = DEFAULT_OPTIONS, lang: str = "zh-Hans") -> str:
    lines = []
    for day in range(60):
        for turn in range(12):
            c = course(day, turn, options)
            lessons = " ".join(f"{BRANCHES[lesson.upper]}{lesson.lower_name}" for lesson in reversed(c.lessons))
            m = method_json(c, lang)
            lines.append(f"{pillar_name(day)} {BRANCHES[turn]}{in_script('加子', lang)}  {lessons}  "
                         f"{''.join(BRANCHES[b] for b in c.transmissions)}  {m['name']}（{m['ke']}）")
    lines.append(in_script(f"（{LESSON_NAMES[3]}至{LESSON_NAMES[0]}自左而右；六十日×十二局，共七百二十课）", lang))
    return "\n".join(lines)
