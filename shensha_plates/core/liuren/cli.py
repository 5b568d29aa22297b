"""The ``ke`` command: its options and its run (the Liu Ren plate as text in the traditional layout, or
JSON; what each looks like is :mod:`shensha_plates.core.liuren.formats`).

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
from shensha_plates.core.liuren.method import TRANSMISSION_NAMES
from shensha_plates.core.liuren.plate import KeOptions
from shensha_plates.core.liuren.nianming import (MAX_AGE, NianMing, Sex, age_between, nian_ming, parse_birth,
                                                 parse_sex)
from shensha_plates.core.liuren.spirits import KeSpirits, spirits_on
from shensha_plates.core.liuren.tables import liuren_tables
from shensha_plates.core.script import in_script
from shensha_plates.core.liuren.formats import (all_to_json, all_to_text, ke_to_json, ke_to_text,
                                              nian_ming_english, nian_ming_json, nian_ming_text, pattern_json)


__all__ = ["add_arguments", "add_querent_arguments", "parse_general", "split_choices", "run_ke", "nian_ming_from_args",
           "state_year_pillar", "strength_of"]

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
    p.add_argument("--partner-birth", help="a second querent, the partner (husband or wife): year of birth, e.g. "
                   "1977 (繁昌 旺孕 解离 read the couple's 行年)")
    p.add_argument("--partner-sex", help="the partner's sex: m or f, not the querent's")
    p.add_argument("--partner-age", type=str, default=None, help="the partner's age in 虚岁, as --age")


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
    day_info = None
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
        from shensha_plates.core.liuren.lodging import LODGINGS, day_facts
        day_info = day_facts(info)  # what 天寇 二烦 天祸 read of the date
        calendar["day_term"] = day_info.term
        calendar["moon_lodging"] = {"lodging": LODGINGS[day_info.moon], "branch": BRANCHES[day_info.moon_branch],
                                    "count": "六壬大全"}
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
    hits, bifa = read_lesson(ke, zplate, nm, day=day_info)
    untried = not_tried(zplate, nm, day=day_info)  # the rules that need the date or the querent, when they are missing
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
        from shensha_plates.core.liuren.english_text import why_en
        data["bifa"] = [{"number": h.number, "verse": in_script(h.verse, lang), "why": in_script(h.why, lang),
                         "why_en": why_en(h)} for h in bifa]
        data["not_tried"] = {"patterns": [in_script(n, lang) for n in untried[0]], "bifa": list(untried[1])}
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
        basis = in_script("月建" if month_basis == "date" else "月将之合", lang)
        out.write(in_script(f"长生旺衰（日干{STEMS[ke.day % 10]}，{BRANCHES[month_branch]}月 由{basis}）：", lang)
                  + "　".join(f"{in_script(TRANSMISSION_NAMES[i], lang)} {BRANCHES[ke.transmissions[i].branch]} "
                             f"{stage}·{power}" for i, (_, stage, power) in enumerate(growth)) + "\n")
        if hits:
            out.write(in_script("课体·格·卦：", lang) + "；".join(
                f"{name_in(h, lang)}（{in_script(h.why, lang)}）" for h in hits) + "\n")
        if bifa:
            out.write(in_script("毕法赋：", lang) + "；".join(f"{h.number}. {in_script(h.verse, lang)}（{in_script(h.why, lang)}）"
                                                     for h in bifa) + "\n")
        if untried[0] or untried[1]:
            missing = "、".join(w for w, lack in (("日期（年、月）", zplate is None), ("年命", nm is None),
                                                  ("配偶年命", nm is None or nm.couple() is None)) if lack)
            out.write(in_script(f"须{missing}而未判：", lang) + "、".join(in_script(n, lang) for n in untried[0])
                      + (in_script("；毕法赋 ", lang) + "、".join(str(n) for n in untried[1]) if untried[1] else "") + "\n")
        if nm is not None:
            out.write(nian_ming_text(nm, state, ke, catalog, lang) + "\n")
    return 0


def nian_ming_from_args(args: argparse.Namespace, ke: Ke, options: KeOptions, state: State | None,
                        moment: _dt.datetime | None) -> NianMing | None:
    """``--birth``, ``--sex`` and ``--age`` as the querent's 年命 on this plate (None without --birth),
    with ``--partner-birth``, ``--partner-sex`` and ``--partner-age`` as the partner's (繁昌 旺孕 解离);
    ``moment``: the chart's date, when it has one (the ages come from it)."""
    me = _person(args, "", state, moment, "the querent's year of birth, e.g. --birth 1975")
    partner = _person(args, "partner-", state, moment, "the partner's year of birth, e.g. --partner-birth 1977")
    if me is None:
        if partner is not None:
            raise InputError("--partner-birth goes with --birth and --sex (the querent's, whose partner it is)")
        return None
    birth, sex, age = me
    nm = nian_ming(ke.plate.heaven, ke.plate.generals, birth, sex, age, options.get("xingnian"))
    if partner is None:
        return nm
    p_birth, p_sex, p_age = partner
    if p_sex == sex:
        raise InputError(f"invalid --partner-sex: {p_sex!r} (the partner's sex must differ from --sex {sex}: "
                         "繁昌 旺孕 解离 read a husband's and a wife's 行年)")
    from dataclasses import replace
    return replace(nm, partner=nian_ming(ke.plate.heaven, ke.plate.generals, p_birth, p_sex, p_age,
                                         options.get("xingnian")))


def _person(args: argparse.Namespace, prefix: str, state: State | None, moment: _dt.datetime | None,
            what: str) -> tuple[int, Sex, int] | None:
    """One person's ``--{prefix}birth``, ``--{prefix}sex`` and ``--{prefix}age``: the birth pillar, the sex
    and the age in 虚岁 (from the date when not given); None without the birth."""
    attr = prefix.replace("-", "_")
    opt = f"--{prefix}"
    birth_text, sex_text, age_text = (getattr(args, attr + k, None) for k in ("birth", "sex", "age"))
    if birth_text is None:
        if sex_text is not None or age_text is not None:
            raise InputError(f"{opt}sex and {opt}age go with {opt}birth ({what})")
        return None
    if sex_text is None:
        raise InputError(f"{opt}birth needs {opt}sex (m or f): the 行年 runs forward from 丙寅 for a man, back from "
                         "壬申 for a woman")
    try:
        sex = parse_sex(sex_text)
        birth, birth_year = parse_birth(birth_text)
    except InputError as e:
        if not prefix:
            raise
        raise InputError("invalid partner " + str(e).removeprefix("invalid ")) from None
    given: int | None = None
    if age_text is not None:
        t = str(age_text).strip()
        if not (t.isascii() and t.isdigit()) or not 1 <= int(t) <= MAX_AGE:
            raise InputError(f"invalid {opt}age: {age_text!r} (expected 1–{MAX_AGE}, in 虚岁: the year of birth is 1)")
        given = int(t)
    if state is None or moment is None:  # no date: the chart's year is not known
        if given is None:
            raise InputError(f"without --date the age must be given: {opt}age N (虚岁, the year of birth is 1)")
        return birth, sex, given
    chart_year = moment.year if (moment.year - 4) % 60 == state_year_pillar(state) else moment.year - 1
    try:
        age = age_between(birth, birth_year, state_year_pillar(state), chart_year)
    except InputError as e:
        if not prefix:
            raise
        raise InputError(f"{opt}birth: {e}") from None
    if given is not None and birth_year is not None and given != age:
        raise InputError(f"{opt}age {given} disagrees with {opt}birth {birth_year} and the date: the age in "
                         f"{chart_year} is {age} (虚岁); leave out {opt}age or correct it")
    if given is not None:
        age = given
    if (state_year_pillar(state) - birth - (age - 1)) % 60:
        raise InputError(f"{opt}birth {pillar_name(birth)} and {opt}age {age} do not meet in the chart's year "
                         f"{pillar_name(state_year_pillar(state))}")
    return birth, sex, age


def state_year_pillar(state: State) -> int:
    """The year's pillar of a state that has its stem (a date's state)."""
    stem = state.year_stem if state.year_stem is not None else 0
    return next(i for i in range(60) if i % 12 == state.year_branch and i % 10 == stem)


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
