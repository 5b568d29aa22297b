"""The ``ke`` command: the Liu Ren plate as text (traditional layout) or JSON.

    shensha-plates ke --date 1998-11-30T12:00 [--tz …] [--general 寅]
    shensha-plates ke --day 辛巳 --hour 午 --general 寅
    shensha-plates ke --all
    … [--format text|json] [--variant ID=CHOICE …] [--lang zh-Hans|zh-Hant]

Every bad input raises a :class:`shensha_plates.core.errors.ShenshaError` (one line, exit status 2 by
:func:`shensha_plates.core.cli.run`).
"""

from __future__ import annotations

import argparse
import datetime as _dt
import json
from typing import Any, TextIO

from shensha_plates.core.cycle import BRANCHES, STEMS, parse_branch, parse_pillar, pillar_name
from shensha_plates.core.engine import Options, State
from shensha_plates.core.errors import InputError
from shensha_plates.core.lang import LANGS, is_trad, name_in
from shensha_plates.core.liuren.ke import Ke, compute_ke, month_general_at
from shensha_plates.core.liuren.method import LESSON_NAMES, TRANSMISSION_NAMES, course
from shensha_plates.core.liuren.plate import DEFAULT_OPTIONS, KeOptions, describe
from shensha_plates.core.liuren.nianming import MAX_AGE, NianMing, age_between, nian_ming, parse_birth, parse_sex
from shensha_plates.core.liuren.patterns import PatternHit
from shensha_plates.core.liuren.spirits import KeSpirits, spirits_at_branches, spirits_on
from shensha_plates.core.liuren.tables import liuren_tables

__all__ = ["pattern_json", "add_querent_arguments", "nian_ming_from_args", "strength_of", "split_choices", "add_arguments", "split_variants", "parse_general", "run_ke", "ke_to_json", "ke_to_text", "all_to_json"]

# The square layout of the plate: the earth branches in their printed places (as seed 002 prints them).
_SQUARE = (("巳", "午", "未", "申"), ("辰", None, None, "酉"), ("卯", None, None, "戌"), ("寅", "丑", "子", "亥"))


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The options of ``ke`` (registered in :mod:`shensha_plates.commands`)."""
    p.add_argument("--date", help="date and time, e.g. 1998-11-30T12:00 (gives the day, hour and month general)")
    p.add_argument("--tz", default=None, help="time zone of --date (default Asia/Shanghai)")
    p.add_argument("--day", help="the day as a 甲子, e.g. 辛巳 (with --hour and --general)")
    p.add_argument("--hour", help="the hour branch, e.g. 午")
    p.add_argument("--general", help="the month general's branch (月将), e.g. 寅; with --date it must agree")
    p.add_argument("--all", action="store_true", help="the 720 lessons: 60 days × the twelve heaven branches over 子")
    p.add_argument("--variant", action="append", default=[], metavar="ID=CHOICE",
                   help="a disputed point, e.g. shehai=depth, noble=seed000, jialin=heaven; repeatable")
    add_querent_arguments(p)
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.add_argument("--lang", choices=LANGS, default="zh-Hans")


def add_querent_arguments(p: argparse.ArgumentParser) -> None:
    """The querent's 年命 (``ke`` and ``snapshot``)."""
    p.add_argument("--birth", help="the querent's year of birth (本命): a year, e.g. 1975, or its pillar, e.g. 乙卯")
    p.add_argument("--sex", help="the querent's sex for the 行年: m or f (男 / 女)")
    p.add_argument("--age", type=str, default=None,
                   help="the age in 虚岁 (the year of birth is 1); from --date and a birth year when not given")


def split_variants(choices: list[str]) -> tuple[KeOptions, Options]:
    """``--variant`` choices as (Liu Ren settings, catalog variants); an unknown one raises."""
    return split_choices(choices)


def parse_general(text: str) -> int:
    """A month general given on the command line: a branch (寅, 寅将) or its name (功曹)."""
    return _branch(text, "general", suffix="将")


def split_choices(choices: list[str]) -> tuple[KeOptions, Options]:
    """Split ``ID=CHOICE`` strings into Liu Ren settings and catalog variants (for the spirits)."""
    settings = liuren_tables().settings
    mine: list[str] = []
    theirs: list[str] = []
    for c in choices:
        sid = str(c).partition("=")[0].strip()
        (mine if sid in settings or "=" not in str(c) else theirs).append(c)
    try:
        catalog = Options.from_choices(theirs)
    except InputError:
        bad = theirs[0].partition("=")[0].strip()
        raise InputError(f"unknown variant: {bad!r} (expected a Liu Ren setting — "
                         f"{', '.join(settings)} — or a spirit id of the catalog such as tian_xi)") from None
    return KeOptions.from_choices(mine), catalog


def run_ke(args: argparse.Namespace, out: TextIO) -> int:
    options, catalog = split_choices(args.variant)
    from shensha_plates.core.variants import rejected_choices
    args.warnings = [f"{s.id}={vid} ({s.name}) is a reading Zhuang rejects (verdict: rejected)"
                     for s, vid in rejected_choices(catalog)]  # printed by core.cli.run, as show's are
    lang = args.lang
    if args.all:
        if any(getattr(args, k) for k in ("date", "day", "hour", "general", "tz")):
            raise InputError("--all lists the 720 lessons: give it without --date, --day, --hour or --general")
        if args.format == "json":
            json.dump(all_to_json(options), out, ensure_ascii=False, indent=1)
            out.write("\n")
        else:
            out.write(all_to_text(options, lang) + "\n")
        return 0
    calendar: dict[str, Any] | None = None
    state: State | None = None
    if args.date:
        if args.day or args.hour:
            raise InputError("give either --date or --day/--hour, not both")
        from shensha_plates.core.calendar import CalendarOptions, clock_note, from_datetime, parse_datetime
        copts = CalendarOptions.from_cli(tz=args.tz)
        moment = parse_datetime(args.date, copts)
        note = clock_note(moment)  # a time the clocks show twice: say which was taken, as show does
        if note and note not in getattr(args, "notes", ()):
            args.notes = [*getattr(args, "notes", []), note]
        info = from_datetime(moment, copts)
        g = month_general_at(info.moment, options)
        general = g.general
        if args.general:
            given = _branch(args.general, "general")
            if given != general:
                raise InputError(f"--general {args.general.strip()!r} disagrees with the date: at "
                                 f"{info.moment.isoformat(timespec='minutes')} the month general is "
                                 f"{BRANCHES[general]} (since {g.term} {g.moment.isoformat(timespec='minutes')}); "
                                 "leave out --general or give the date's")
        day, hour, state = info.day, info.hour, info.state
        calendar = dict(info.to_json())
        calendar["general_term"] = {"name": g.term, "moment": g.moment.isoformat(timespec="minutes"),
                                    "basis": g.basis}
    else:
        if args.tz:
            raise InputError("--tz only applies with --date")
        if not args.day or not args.hour:
            raise InputError("give --date, or --day and --hour (with --general), or --all")
        if not args.general:
            raise InputError("without --date the month general must be given: --general 寅 (a branch)")
        day = _pillar(args.day)
        hour = _branch(args.hour, "hour", suffix="时")
        general = _branch(args.general, "general", suffix="将")
    ke = compute_ke(day, hour, general, options)
    nm = nian_ming_from_args(args, ke, options, state, None if calendar is None else info.moment)
    from shensha_plates.core.engine import compute_plate
    from shensha_plates.core.liuren.patterns import not_tried, read_lesson
    zplate = None if state is None else compute_plate(state, catalog)
    hits, bifa = read_lesson(ke, zplate, nm)
    untried = not_tried(zplate, nm)  # the rules that need the date or the querent, when they are missing
    spirits = spirits_on(state, ke, options) if catalog == Options() else _spirits_with(state, ke, options, catalog)
    # the month for 旺衰: the date's; without one, the month whose branch the month general is the 合 of
    month_branch, month_basis = (state.month_branch, "date") if state is not None else ((1 - general) % 12, "general")
    growth = strength_of(ke, month_branch, options.get("changsheng"), lang)
    if args.format == "json":
        data = ke_to_json(ke, spirits, lang)
        for row, t in zip(growth, data["transmissions"], strict=True):
            t["changsheng"], t["wangshuai"] = row[1], row[2]
        data["growth"] = {"reading": options.get("changsheng"), "month_branch": BRANCHES[month_branch],
                          "month_basis": month_basis}
        data["variants"].update(dict(catalog.variants))
        if catalog.palaces != Options().palaces:
            data["variants"]["palaces"] = catalog.palaces
        data["calendar"] = calendar
        data["nian_ming"] = None if nm is None else nian_ming_json(nm, state, ke, catalog, lang)
        data["patterns"] = [pattern_json(h, lang) for h in hits]
        data["bifa"] = [{"number": h.number, "verse": _tr(h.verse, lang), "why": _tr(h.why, lang)} for h in bifa]
        data["not_tried"] = {"patterns": [_tr(n, lang) for n in untried[0]], "bifa": list(untried[1])}
        json.dump(data, out, ensure_ascii=False, indent=2)
        out.write("\n")
    elif lang == "en":  # issue 28: the plate in English, the names with pinyin and our glosses
        from shensha_plates.core.liuren.english_text import growth_to_english, ke_to_english
        out.write(ke_to_english(ke, spirits, calendar) + "\n")
        out.write(growth_to_english(ke, growth, month_branch, month_basis, hits, bifa) + "\n")
        if nm is not None:
            out.write(nian_ming_english(nm, state, ke, catalog) + "\n")
    else:
        out.write(ke_to_text(ke, spirits, calendar, lang) + "\n")
        basis = _tr("月建" if month_basis == "date" else "月将之合", lang)
        out.write(_tr(f"长生旺衰（日干{STEMS[ke.day % 10]}，{BRANCHES[month_branch]}月 由{basis}）：", lang)
                  + "　".join(f"{_tr(TRANSMISSION_NAMES[i], lang)} {BRANCHES[ke.transmissions[i].branch]} "
                             f"{stage}·{power}" for i, (_, stage, power) in enumerate(growth)) + "\n")
        if hits:
            out.write(_tr("课体·格·卦：", lang) + "；".join(
                f"{name_in(h, lang)}（{_tr(h.why, lang)}）" for h in hits) + "\n")
        if bifa:
            out.write(_tr("毕法赋：", lang) + "；".join(f"{h.number}. {_tr(h.verse, lang)}（{_tr(h.why, lang)}）"
                                                     for h in bifa) + "\n")
        if untried[0] or untried[1]:
            missing = "、".join(w for w, lack in (("日期（年、月）", zplate is None), ("年命", nm is None)) if lack)
            out.write(_tr(f"须{missing}而未判：", lang) + "、".join(_tr(n, lang) for n in untried[0])
                      + (_tr("；毕法赋 ", lang) + "、".join(str(n) for n in untried[1]) if untried[1] else "") + "\n")
        if nm is not None:
            out.write(nian_ming_text(nm, state, ke, catalog, lang) + "\n")
    return 0


def pattern_json(hit: PatternHit, lang: str = "zh-Hans") -> dict[str, Any]:
    """One pattern as ``ke --format json`` lists it."""
    from shensha_plates.core.catalog import SEED_FILES
    src = hit.pattern.source
    book = liuren_tables().books[src.book].title if src.book else SEED_FILES[src.file or ""]
    from shensha_plates.core.english import english_of
    return {"id": hit.id, "name": hit.name, "name_trad": hit.name_trad, "kind": hit.kind,
            "source": {"book": book, "quote": src.quote}, "why": _tr(hit.why, lang),
            **english_of(None, hit.name, hit.pattern.name_en)}


def _general_en(index: int) -> dict[str, str]:
    """A general's pinyin and English gloss (our translation)."""
    from shensha_plates.core.english import english, pinyin
    g = liuren_tables().generals[index]
    return {"name": g.name, "pinyin": pinyin(g.name), "gloss_en": english().generals[g.id].gloss}


def nian_ming_from_args(args: argparse.Namespace, ke: Ke, options: KeOptions, state: State | None,
                        moment: _dt.datetime | None) -> NianMing | None:
    """``--birth``, ``--sex`` and ``--age`` as the querent's 年命 on this plate (None without --birth);
    ``moment``: the chart's date, when it has one (the age comes from it)."""
    birth_text, sex_text, age_text = getattr(args, "birth", None), getattr(args, "sex", None), getattr(args, "age", None)
    if birth_text is None:
        if sex_text is not None or age_text is not None:
            raise InputError("--sex and --age go with --birth (the querent's year of birth, e.g. --birth 1975)")
        return None
    if sex_text is None:
        raise InputError("--birth needs --sex (m or f): the 行年 runs forward from 丙寅 for a man, back from "
                         "壬申 for a woman")
    sex = parse_sex(sex_text)
    birth, birth_year = parse_birth(birth_text)
    given: int | None = None
    if age_text is not None:
        t = str(age_text).strip()
        if not (t.isascii() and t.isdigit()) or not 1 <= int(t) <= MAX_AGE:
            raise InputError(f"invalid --age: {age_text!r} (expected 1–{MAX_AGE}, in 虚岁: the year of birth is 1)")
        given = int(t)
    if state is None or moment is None:  # no date: the chart's year is not known
        if given is None:
            raise InputError("without --date the age must be given: --age N (虚岁, the year of birth is 1)")
        age = given
    else:
        chart_year = moment.year if (moment.year - 4) % 60 == state_year_pillar(state) else moment.year - 1
        age = age_between(birth, birth_year, state_year_pillar(state), chart_year)
        if given is not None and birth_year is not None and given != age:
            raise InputError(f"--age {given} disagrees with --birth {birth_year} and the date: the age in "
                             f"{chart_year} is {age} (虚岁); leave out --age or correct it")
        if given is not None:
            age = given
        if (state_year_pillar(state) - birth - (age - 1)) % 60:
            raise InputError(f"--birth {pillar_name(birth)} and --age {age} do not meet in the chart's year "
                             f"{pillar_name(state_year_pillar(state))}")
    return nian_ming(ke.plate.heaven, ke.plate.generals, birth, sex, age, options.get("xingnian"))


def state_year_pillar(state: State) -> int:
    """The year's pillar of a state that has its stem (a date's state)."""
    stem = state.year_stem if state.year_stem is not None else 0
    return next(i for i in range(60) if i % 12 == state.year_branch and i % 10 == stem)


_ROLE_NAMES = {"ben_ming": "本命", "xing_nian": "行年"}


def nian_ming_json(nm: NianMing, state: State | None, ke: Ke, catalog: Options, lang: str) -> dict[str, Any]:
    """The JSON of ``ke``'s ``nian_ming``: each year with its pillar, branch, the heaven branch over
    it, the general on that and the spirits on that heaven branch (also gathered by key)."""
    rows = spirits_at_branches(state, ke.day, tuple(y.heaven for y in nm.years),
                               None if catalog == Options() else catalog)
    years: dict[str, Any] = {}
    for y, placements in zip(nm.years, rows, strict=True):
        years[y.role] = {"name": _tr(_ROLE_NAMES[y.role], lang), "pillar": pillar_name(y.pillar),
                         "branch": BRANCHES[y.branch], "heaven": BRANCHES[y.heaven],
                         "general": _general_name(y.general, lang),
                         "spirits": [{"id": p.id, "name": name_in(p, lang)}
                                     for p in placements]}
    return {**years, "sex": nm.sex, "age": nm.age, "count": nm.count,
            "heaven": {k: v["heaven"] for k, v in years.items()},
            "general": {k: v["general"] for k, v in years.items()},
            "spirits": {k: v["spirits"] for k, v in years.items()}}


def nian_ming_text(nm: NianMing, state: State | None, ke: Ke, catalog: Options, lang: str) -> str:
    rows = spirits_at_branches(state, ke.day, tuple(y.heaven for y in nm.years),
                               None if catalog == Options() else catalog)
    sex = "男" if nm.sex == "m" else "女"
    count = {"xusui": "", "zhousui": "，按周岁起行年", "liujia": "，六甲起行年"}.get(nm.count, "")
    lines = [_tr(f"年命（{sex}，虚岁{nm.age}{count}）：", lang)]
    for y, placements in zip(nm.years, rows, strict=True):
        names = " ".join(name_in(p, lang) for p in placements) or "—"
        lines.append("  " + _tr(f"{_ROLE_NAMES[y.role]} {pillar_name(y.pillar)}：{BRANCHES[y.branch]}上"
                                f"{BRANCHES[y.heaven]} {_general_name(y.general, 'zh-Hans')}；{names}", lang))
    return "\n".join(lines)


def nian_ming_english(nm: NianMing, state: State | None, ke: Ke, catalog: Options) -> str:
    """The querent's years in English (``ke --lang en``)."""
    from shensha_plates.core.english import english, label, pinyin
    en = english()
    rows = spirits_at_branches(state, ke.day, tuple(y.heaven for y in nm.years),
                               None if catalog == Options() else catalog)
    count = {"xusui": "", "zhousui": ", moving year counted by full years", "liujia": ", moving year by the six 甲"}
    lines = [f"The querent ({'man' if nm.sex == 'm' else 'woman'}, age {nm.age} by Chinese count"
             f"{count.get(nm.count, '')}):"]
    role = {"ben_ming": "birth year", "xing_nian": "moving year"}
    for y, placements in zip(nm.years, rows, strict=True):
        g = liuren_tables().generals[y.general]
        names = ", ".join(f"{p.name} {pinyin(p.name)} ({en.spirit(p.id).gloss})" for p in placements) or "—"
        lines.append(f"  {_ROLE_NAMES[y.role]} {pinyin(_ROLE_NAMES[y.role])} ({role[y.role]}) {pillar_name(y.pillar)}: "
                     f"{BRANCHES[y.heaven]} over {BRANCHES[y.branch]}, {label(g.name, en.generals[g.id].gloss)}; {names}")
    return "\n".join(lines)


def strength_of(ke: Ke, month_branch: int, reading: str, lang: str = "zh-Hans") -> list[tuple[int, str, str]]:
    """Each transmission's stage of growth from the day stem (by the reading) and its 旺衰 in the month:
    (branch, stage, strength)."""
    from shensha_plates.core.liuren.strength import STAGES, STAGES_TRAD, growth_stage, strength
    names = STAGES_TRAD if is_trad(lang) else STAGES
    return [(t.branch, names[growth_stage(ke.day % 10, t.branch, reading)], strength(t.branch, month_branch))
            for t in ke.transmissions]


def _spirits_with(state: State | None, ke: Ke, options: KeOptions, catalog: Options) -> KeSpirits:
    from shensha_plates.core.engine import compute_plate
    from shensha_plates.core.liuren.spirits import KeSpirits, SpiritsAt, resolve_names
    if state is None:
        return spirits_on(None, ke, options)
    plate = compute_plate(state, catalog)
    base = spirits_on(state, ke, options)
    return KeSpirits(tuple(SpiritsAt(s.position, s.branch, plate.positions[s.branch]) for s in base.lessons),
                     tuple(SpiritsAt(s.position, s.branch, plate.positions[s.branch]) for s in base.transmissions),
                     resolve_names(state, ke, options, plate), False)


def _pillar(text: str) -> int:
    t = str(text).strip()
    return parse_pillar(t[:-1] if t.endswith("日") else t)


def _branch(text: str, what: str, suffix: str = "") -> int:
    t = str(text).strip()
    if suffix and t.endswith(suffix):
        t = t[:-1]
    if what == "general":  # a month general may also be called by its name: 功曹, 登明 …
        for mg in liuren_tables().month_generals:
            if t in (mg.name, mg.name_trad):
                return mg.branch
    try:
        return parse_branch(t)
    except InputError:
        names = ", or a month general's name such as 功曹" if what == "general" else ""
        raise InputError(f"invalid {what}: {text!r} (expected a branch, one of {BRANCHES}{names})") from None


# -- output ------------------------------------------------------------------------------------

def _tr(text: str, lang: str) -> str:
    if is_trad(lang):
        from shensha_plates.core.script import to_traditional
        return to_traditional(text)
    return text


def _general_name(index: int, lang: str, short: bool = False) -> str:
    g = liuren_tables().generals[index]
    if short:
        return g.short_trad if is_trad(lang) else g.short
    return name_in(g, lang)


def _method(ke_course: Any, lang: str) -> dict[str, str]:
    info = liuren_tables().methods[ke_course.method]
    return {"id": ke_course.method, "name": name_in(info, lang),
            "ke": _tr(ke_course.ke, lang)}


def _lessons_json(ke: Ke | None, c: Any, lang: str) -> list[dict[str, Any]]:
    out = []
    for i, lesson in enumerate(c.lessons):
        item: dict[str, Any] = {"upper": BRANCHES[lesson.upper], "lower": lesson.lower_name}
        if ke is not None:
            item["general"] = _general_name(ke.lesson_generals[i], lang)
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
        "generals": {BRANCHES[e]: _general_name(hp.generals[e], lang) for e in range(12)},
        "hidden_stems": {BRANCHES[b]: (None if s is None else STEMS[s]) for b, s in enumerate(hp.hidden)},
        "lessons": _lessons_json(ke, ke.course, lang),
        "transmissions": [{"branch": BRANCHES[t.branch], "general": _general_name(t.general, lang),
                           "kin": _tr(t.kin, lang), "stem": None if t.stem is None else STEMS[t.stem],
                           "void": t.void, "general_en": _general_en(t.general)} for t in ke.transmissions],
        "generals_en": {BRANCHES[e]: _general_en(hp.generals[e]) for e in range(12)},
        "method": _method(ke.course, lang),
        "steps": [{"rule": s.rule, "text": s.text(lang), "branch": None if s.branch is None else BRANCHES[s.branch]}
                  for s in ke.steps],
        "variants": dict(ke.options.choices),
    }
    if spirits is not None:
        def rows(items: Any) -> list[dict[str, Any]]:
            from shensha_plates.core.english import english_of
            return [{"position": _tr(s.position, lang), "branch": BRANCHES[s.branch],
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
    lines.append(_tr(describe(hp) + f"　{BRANCHES[hp.hour]}时", lang))
    lines.append(_tr("天地盘（天盘支·天将，地盘支在其下）：", lang))
    for row in _SQUARE:
        cells = []
        for e in row:
            if e is None:
                cells.append("　　　")
            else:
                b = BRANCHES.index(e)
                cells.append(f"{BRANCHES[hp.heaven[b]]}{_general_name(hp.generals[b], lang, short=True)}{e}")
        lines.append("  " + "  ".join(cells))
    lines.append(_tr("四课（自右而左：一课在右）：", lang))
    order = list(reversed(range(4)))
    lines.append("  " + "  ".join(_general_name(ke.lesson_generals[i], lang, short=True) for i in order))
    lines.append("  " + "  ".join(BRANCHES[ke.lessons[i].upper] for i in order))
    lines.append("  " + "  ".join(ke.lessons[i].lower_name for i in order))
    lines.append(_tr("三传：", lang))
    for t in ke.transmissions:
        stem = "　" if t.stem is None else STEMS[t.stem]
        void = _tr("空", lang) if t.void else "　"
        lines.append(f"  {_tr(TRANSMISSION_NAMES[t.position], lang)}  {_tr(t.kin, lang)} {stem} "
                     f"{BRANCHES[t.branch]} {_general_name(t.general, lang)} {void}")
    m = _method(ke.course, lang)
    lines.append(_tr("课体：", lang) + f"{m['name']}（{m['ke']}）")
    lines.append(_tr("取传：", lang))
    lines.extend(f"  {s.text(lang)}" for s in ke.steps)
    if spirits is not None:
        lines.append(_tr("神煞：", lang) + (_tr("（未给年月，只列旬煞与日煞）", lang) if spirits.partial else ""))
        for s in spirits.lessons + spirits.transmissions:
            names = []
            for p in s.placements:
                name = name_in(p, lang)
                if p.conditional:
                    st = spirits.status(p.id)
                    flag = "?" if st is None or st.in_force is None else ("✓" if st.in_force else "✗")
                    name += f"[{_tr(p.conditional, lang)}{flag}]"
                names.append(name)
            lines.append(f"  {_tr(s.position, lang)} {BRANCHES[s.branch]}：{' '.join(names) or '—'}")
        held = [n for n in spirits.names if n.in_force]
        if held:
            lines.append(_tr("课中所成：", lang) + "；".join(
                f"{name_in(n, lang)}（{_tr(n.reason, lang)}）" for n in held))
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
                        "method": _method(ke.course, "zh-Hans")})
    return out


def all_to_text(options: KeOptions = DEFAULT_OPTIONS, lang: str = "zh-Hans") -> str:
    lines = []
    for day in range(60):
        for turn in range(12):
            c = course(day, turn, options)
            lessons = " ".join(f"{BRANCHES[lesson.upper]}{lesson.lower_name}" for lesson in reversed(c.lessons))
            m = _method(c, lang)
            lines.append(f"{pillar_name(day)} {BRANCHES[turn]}{_tr('加子', lang)}  {lessons}  "
                         f"{''.join(BRANCHES[b] for b in c.transmissions)}  {m['name']}（{m['ke']}）")
    lines.append(_tr(f"（{LESSON_NAMES[3]}至{LESSON_NAMES[0]}自左而右；六十日×十二局，共七百二十课）", lang))
    return "\n".join(lines)
