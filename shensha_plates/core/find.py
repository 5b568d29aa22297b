"""``shensha-plates find``: the dates and hours whose plates and lessons meet conditions (择日/择时).

A condition names what must hold at a moment; all must hold (or, with ``--any``, at least one), and
``not COND`` negates one:

- ``NAME@BRANCH``: the spirit (any name the window's find box takes: simplified, traditional, another
  name, the pinyin id such as ``tian_ma`` or ``tianma``) stands under that branch on the plates;
- ``NAME@year`` / ``@month`` / ``@day`` / ``@hour``: under the branch of that pillar;
- ``year=丙午`` (or ``year=午``), ``month=寅`` (a month's branch, number or word), ``day=甲子`` (or a day's
  branch ``day=子`` or stem ``day=甲``), ``hour=午``: the pillars;
- ``ke=NAME`` (by hour): the lesson's method (``zeike`` or its name 贼克), its 课 name (元首 …), or any
  pattern the chart names; ``chu=BRANCH`` (also ``zhong``, ``mo``, ``gan`` for 干上, ``zhi`` for 支上);
- ``NAME@chu`` (``zhong``, ``mo``, ``gan``, ``zhi``): the spirit stands under that branch of the lesson.

The moments come from the calendar bridge's term table (:func:`shensha_plates.core.calendar.sweep_moments`),
read once, not from lunar-python per moment; each day is read at 12:00 local time (``--at``), each hour
at its whole even hour (00:00 子, 02:00 丑 … 22:00 亥). The month general of a lesson is the last 中气's
(or 节's, with ``general_basis=jie``), from the same table.

>>> import datetime as dt
>>> hits = list(search(dt.date(2027, 2, 1), dt.date(2027, 2, 28), [parse_condition("day=甲子")]))
>>> [(h.moment.date().isoformat(), h.matched) for h in hits]
[('2027-02-14', ('day=甲子',))]
"""

from __future__ import annotations

import bisect
import datetime as _dt
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Final

from shensha_plates.core.catalog import Catalog, Spirit, default_catalog
from shensha_plates.core.cycle import (BRANCHES, PILLARS, STEMS, parse_branch, parse_month, parse_pillar,
                                       pillar_name)
from shensha_plates.core.engine import MONTH_NAMES, Options, Plate, State, compute_plate
from shensha_plates.core.errors import InputError

if TYPE_CHECKING:
    from shensha_plates.core.calendar import CalendarOptions
    from shensha_plates.core.liuren.plate import KeOptions

__all__ = ["Condition", "Match", "parse_condition", "search", "LESSON_PLACES", "PILLAR_WORDS", "CONDITION_FORMS"]

PILLAR_WORDS: Final = ("year", "month", "day", "hour")
LESSON_PLACES: Final = {"chu": "初传", "zhong": "中传", "mo": "末传", "gan": "干上", "zhi": "支上"}
CONDITION_FORMS: Final = ("NAME@BRANCH", "NAME@year|month|day|hour", "NAME@chu|zhong|mo|gan|zhi",
                          "year=丙午", "month=寅", "day=甲子", "hour=午", "ke=NAME", "chu|zhong|mo|gan|zhi=BRANCH",
                          "not COND")


@dataclass(frozen=True, slots=True)
class Condition:
    """One parsed condition. ``kind`` is ``spirit`` (``spirits`` under ``where``: a branch index, a
    pillar word or a lesson place), ``pillar`` (``where`` a pillar word, ``value`` what it must be),
    ``lesson`` (``where`` a lesson place, ``value`` the branch) or ``ke`` (``value`` a name)."""

    text: str
    kind: str
    where: int | str | None = None
    value: str | int | None = None
    spirits: tuple[str, ...] = ()
    negate: bool = False

    @property
    def needs_lesson(self) -> bool:
        return self.kind in ("ke", "lesson") or (self.kind == "spirit" and self.where in LESSON_PLACES)

    @property
    def needs_day(self) -> bool:
        """A 课体 that reads the date's day (天祸 天寇 二烦: its solar term, the moon's lodging)."""
        return self.kind == "ke" and _pattern_needs(str(self.value)) == "day"

    @property
    def needs_plate(self) -> bool:
        if self.kind == "ke":  # a 卦 of seed 002 names a spirit of the plates
            from shensha_plates.core.liuren.patterns import patterns
            return any(p.needs == "plate" and str(self.value) in (p.id, p.name, p.name_trad) for p in patterns())
        return self.kind == "spirit"


@dataclass(frozen=True, slots=True)
class Match:
    """A moment that met the conditions: when it was read, its state, the conditions it met."""

    moment: _dt.datetime
    state: State
    matched: tuple[str, ...]
    ke: str | None = None  # the lesson's name, when a condition read the lesson
    details: tuple[str, ...] = field(default=())


def find_spirits(name: str, catalog: Catalog) -> tuple[Spirit, ...]:
    """Spirits by name, traditional name, another name, id or its pinyin written together (tianma)."""
    exact = catalog.find(name)
    if exact:
        return exact
    t = name.strip().lower().replace(" ", "").replace("_", "")
    return tuple(s for s in catalog.spirits if s.id.replace("_", "") == t or s.id == name.strip())


def _branch(text: str, what: str) -> int:
    try:
        return parse_branch(text.strip())
    except InputError:
        raise InputError(f"invalid {what}: {text!r} (expected a branch: {BRANCHES})") from None


def parse_condition(text: str, catalog: Catalog | None = None) -> Condition:
    """One condition from its words (see the module's text); a bad one raises :class:`InputError`
    naming what is known."""
    raw = " ".join(text.split())
    negate = False
    body = raw
    if body.lower().startswith("not "):
        negate, body = True, body[4:].strip()
    elif body.startswith(("!", "非")):
        negate, body = True, body[1:].strip()
    if "@" in body:
        name, _, where = body.partition("@")
        name, where = name.strip(), where.strip()
        spirits = find_spirits(name, catalog or default_catalog())
        if not name or not spirits:
            raise InputError(f"unknown spirit in {raw!r}: {name!r} (a name, traditional name, other name "
                             "or pinyin, e.g. 天马, 天馬, tianma)")
        ids = tuple(s.id for s in spirits)
        w = where.lower()
        if w in PILLAR_WORDS or w in LESSON_PLACES:
            return Condition(raw, "spirit", w, None, ids, negate)
        try:
            return Condition(raw, "spirit", parse_branch(where), None, ids, negate)
        except InputError:
            raise InputError(f"invalid place in {raw!r}: {where!r} (expected a branch 子…亥, "
                             f"{'/'.join(PILLAR_WORDS)} or {'/'.join(LESSON_PLACES)})") from None
    key, sep, value = body.partition("=")
    key, value = key.strip().lower(), value.strip()
    if not sep or not value:
        raise InputError(f"invalid condition: {raw!r} (expected one of: {'; '.join(CONDITION_FORMS)})")
    if key == "year":
        if value in PILLARS or _is_pillar(value):
            return Condition(raw, "pillar", "year", parse_pillar(value), (), negate)
        return Condition(raw, "pillar", "year_branch", _branch(value, "year"), (), negate)
    if key == "month":
        try:
            return Condition(raw, "pillar", "month", parse_month(value), (), negate)
        except InputError:
            raise InputError(f"invalid month in {raw!r}: {value!r} (a month's branch 寅, number 1–12 or word 正)")\
                from None
    if key == "day":
        if len(value) == 1 and value in STEMS:
            return Condition(raw, "pillar", "day_stem", STEMS.index(value), (), negate)
        if len(value) == 1:
            return Condition(raw, "pillar", "day_branch", _branch(value, "day"), (), negate)
        return Condition(raw, "pillar", "day", parse_pillar(value), (), negate)
    if key == "hour":
        return Condition(raw, "pillar", "hour", _branch(value, "hour"), (), negate)
    if key == "ke":
        if _pattern_needs(value) == "nian_ming":  # a rule of the querent's years can never hold here
            raise InputError(f"{raw!r}: {value} reads the querent's years (年命), which find does not take "
                             "(give them to ke with --birth --sex, and --partner-birth --partner-sex)")
        return Condition(raw, "ke", None, value, (), negate)
    if key in LESSON_PLACES:
        return Condition(raw, "lesson", key, _branch(value, LESSON_PLACES[key]), (), negate)
    raise InputError(f"unknown condition {key!r} in {raw!r} (expected one of: {'; '.join(CONDITION_FORMS)})")


def _is_pillar(text: str) -> bool:
    try:
        parse_pillar(text)
    except InputError:
        return False
    return True


# -- reading one moment ------------------------------------------------------------------------------

def _pillar_branch(state: State, word: str) -> int | None:
    if word == "year":
        return state.year_branch
    if word == "month":
        return state.month_branch
    if word == "day":
        return None if state.day is None else state.day % 12
    return state.hour


def _lesson_branch(ke: object, place: str) -> int:
    if place in ("chu", "zhong", "mo"):
        return ke.transmissions[("chu", "zhong", "mo").index(place)].branch  # type: ignore[attr-defined, no-any-return]
    return ke.lessons[0 if place == "gan" else 2].upper  # type: ignore[attr-defined, no-any-return]


def _pattern_needs(name: str) -> str | None:
    """What the pattern called ``name`` (id, name or traditional name) needs beyond the lesson, or None when
    no pattern is called so."""
    from shensha_plates.core.liuren.patterns import patterns
    return next((p.needs for p in patterns() if name in (p.id, p.name, p.name_trad)), None)


def _ke_names(ke: object, plate: Plate | None = None, day: object | None = None) -> set[str]:
    from shensha_plates.core.liuren import liuren_tables
    names = {ke.method, ke.ke}  # type: ignore[attr-defined]
    info = liuren_tables().methods.get(ke.method)  # type: ignore[attr-defined]
    if info is not None:
        names |= {info.name, info.name_trad}
    from shensha_plates.core.liuren.patterns import detect_patterns
    for hit in detect_patterns(ke, plate, day=day):  # type: ignore[arg-type]  # the chart's 课体, 格 and 卦
        names |= {hit.id, hit.name, hit.name_trad}
    return names


def _holds(c: Condition, state: State, plate: Plate | None, ke: object | None, day: object | None = None) -> bool:
    if c.kind == "pillar":
        if c.where == "year":
            ok = state.year_stem is not None and (state.year_stem, state.year_branch) == (
                int(c.value) % 10, int(c.value) % 12)  # type: ignore[arg-type]
        elif c.where == "year_branch":
            ok = state.year_branch == c.value
        elif c.where == "month":
            ok = state.month == c.value
        elif c.where == "day":
            ok = state.day == c.value
        elif c.where == "day_stem":
            ok = state.day is not None and state.day % 10 == c.value
        elif c.where == "day_branch":
            ok = state.day is not None and state.day % 12 == c.value
        else:
            ok = state.hour == c.value
    elif c.kind == "spirit":
        assert plate is not None
        if isinstance(c.where, int):
            branch: int | None = c.where
        elif c.where in LESSON_PLACES:
            branch = _lesson_branch(ke, str(c.where))
        else:
            branch = _pillar_branch(state, str(c.where))
        ok = branch is not None and any(p.spirit.id in c.spirits for p in plate.positions[branch])
    elif c.kind == "lesson":
        ok = _lesson_branch(ke, str(c.where)) == c.value
    else:  # ke
        ok = str(c.value) in _ke_names(ke, plate, day)
    return ok != c.negate


# -- the search ---------------------------------------------------------------------------------------

class _Generals:
    """The month general at any moment, from the term table (the last 中气, or 节 by the setting)."""

    def __init__(self, first_year: int, last_year: int, basis: str) -> None:
        from shensha_plates.core.calendar import term_table
        from shensha_plates.core.liuren import liuren_tables
        tables = liuren_tables()
        names = {mg.qi if basis == "zhongqi" else mg.jie: mg.branch for mg in tables.month_generals}
        terms = [t for t in term_table(first_year, last_year) if t.name in names]
        self._moments = [t.moment for t in terms]
        self._branches = [names[t.name] for t in terms]

    def at(self, moment: _dt.datetime) -> int:
        k = bisect.bisect_right(self._moments, moment) - 1
        return self._branches[k]


def search(start: _dt.date, end: _dt.date, conditions: Sequence[Condition], *, every: str = "day",
           at: tuple[int, int] = (12, 0), any_of: bool = False, limit: int | None = None,
           options: Options = Options(), ke_options: KeOptions | None = None,
           calendar: CalendarOptions | None = None) -> Iterator[Match]:
    """The moments from ``start`` to ``end`` (inclusive) that meet the conditions, in order: each day
    at ``at`` (``every="day"``) or each hour at its whole even hour (``every="hour"``)."""
    from shensha_plates.core.calendar import CalendarOptions, sweep_moments
    if not conditions:
        raise InputError("no condition: give at least one --where (e.g. --where 天马@午)")
    if every not in ("day", "hour"):
        raise InputError(f"invalid --every: {every!r} (expected day or hour)")
    if limit is not None and limit < 1:
        raise InputError(f"invalid --limit: {limit} (expected a whole number from 1)")
    cal = calendar if calendar is not None else CalendarOptions()
    need_lesson = any(c.needs_lesson for c in conditions)
    if need_lesson and every != "hour":
        raise InputError("a lesson condition (ke=, chu= …, NAME@chu …) needs --every hour: a lesson is read by hour")
    need_plate = any(c.needs_plate for c in conditions)
    need_day = any(c.needs_day for c in conditions)  # 天祸 天寇 二烦: the date's day, read at each moment
    days: dict[tuple[_dt.date, bool], object] = {}
    times = tuple((h, 0) for h in range(0, 24, 2)) if every == "hour" else (at,)
    generals = None
    compute = None
    kopts: KeOptions | None = None
    if need_lesson:
        from shensha_plates.core.liuren import compute_ke
        from shensha_plates.core.liuren.plate import DEFAULT_OPTIONS
        kopts = ke_options if ke_options is not None else DEFAULT_OPTIONS
        generals = _Generals(start.year - 1, end.year + 1, str(kopts.get("general_basis")))
        compute = compute_ke
    found = 0
    for moment, state in sweep_moments(start, end, times, cal):
        plate = compute_plate(state, options) if need_plate else None
        ke = None
        if need_lesson:
            assert generals is not None and compute is not None and kopts is not None
            assert state.day is not None and state.hour is not None
            ke = compute(state.day, state.hour, generals.at(moment), kopts)
        day = None
        if need_day:  # the same for every hour of a day (but the late 子 hour, which may be the next day's)
            key = (moment.date(), moment.hour == 23)
            if key not in days:
                from shensha_plates.core.calendar import from_datetime
                from shensha_plates.core.liuren.lodging import day_facts
                days.clear()
                days[key] = day_facts(from_datetime(moment, cal))
            day = days[key]
        met = tuple(c.text for c in conditions if _holds(c, state, plate, ke, day))
        if (met and any_of) or len(met) == len(conditions):
            yield Match(moment, state, met, None if ke is None else ke.ke)
            found += 1
            if limit is not None and found >= limit:
                return


# -- output -------------------------------------------------------------------------------------------

def hit_line(hit: Match) -> str:
    """One row of the text table: the moment read, the pillars, what matched."""
    s = hit.state
    pillars = f"{s.year_name}年 {MONTH_NAMES[s.month - 1]} {pillar_name(s.day) if s.day is not None else '—'}日"
    if s.hour is not None:
        pillars += f" {BRANCHES[s.hour]}时"
    lesson = f"  {hit.ke}" if hit.ke else ""
    return f"{hit.moment.isoformat(timespec='minutes')}  {pillars}{lesson}  {'; '.join(hit.matched)}"


_ICS_ESCAPE = re.compile(r"([\\;,])")


def _ics_text(text: str) -> str:
    return _ICS_ESCAPE.sub(r"\\\1", text).replace("\n", "\\n")


def _fold(line: str) -> list[str]:
    """RFC 5545 folding: lines of at most 75 octets, continued with a leading space."""
    out: list[str] = []
    cur = ""
    for ch in line:
        if len((cur + ch).encode("utf-8")) > (75 if not out else 74):
            out.append(cur)
            cur = ""
        cur += ch
    out.append(cur)
    return [out[0]] + [" " + x for x in out[1:]]


def to_ics(hits: Sequence[Match], every: str, stamp: _dt.datetime) -> str:
    """An iCalendar file: one event a hit (an all-day event by day; by hour, the two hours of the 时,
    in UTC); ``stamp`` is the DTSTAMP (when the file was made)."""
    import hashlib

    def utc(t: _dt.datetime) -> str:
        return t.astimezone(_dt.UTC).strftime("%Y%m%dT%H%M%SZ")
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Shensha Plates//find//ZH", "CALSCALE:GREGORIAN"]
    for hit in hits:
        uid = hashlib.sha256(f"{hit.moment.isoformat()}|{'|'.join(hit.matched)}".encode()).hexdigest()[:24]
        lines += ["BEGIN:VEVENT", f"UID:{uid}@shensha-plates", f"DTSTAMP:{utc(stamp)}"]
        if every == "day":
            day = hit.moment.date()
            lines += [f"DTSTART;VALUE=DATE:{day.strftime('%Y%m%d')}",
                      f"DTEND;VALUE=DATE:{(day + _dt.timedelta(days=1)).strftime('%Y%m%d')}"]
        else:
            lines += [f"DTSTART:{utc(hit.moment - _dt.timedelta(hours=1))}",
                      f"DTEND:{utc(hit.moment + _dt.timedelta(hours=1))}"]
        s = hit.state
        title = f"{s.year_name}年 {MONTH_NAMES[s.month - 1]} {pillar_name(s.day) if s.day is not None else ''}日"
        if every == "hour" and s.hour is not None:
            title += f" {BRANCHES[s.hour]}时"
        lines += [f"SUMMARY:{_ics_text(title + '：' + '；'.join(hit.matched))}",
                  f"DESCRIPTION:{_ics_text(hit_line(hit))}", "END:VEVENT"]
    lines.append("END:VCALENDAR")
    return "".join(part + "\r\n" for line in lines for part in _fold(line))
