"""The calendar bridge: a time-zone-aware date and time → year, month, xun, day and hour of the plates.

This is the only module that imports lunar-python. It validates dates itself, turns the library's
exceptions into :class:`shensha_plates.core.errors.CalendarError`, and makes each boundary convention explicit:

* ``year_start``: ``lichun`` (the exact moment of 立春, default), ``lichun-day`` (from the day of 立春),
  or ``new-year`` (the lunar new year);
* ``month_basis``: ``jie`` (months change at the exact moment of each 节, default) or ``lunar``
  (the lunar month: 正月 … 腊月, a leap month counted as the month it repeats);
* ``zi_hour``: the late 子 hour (23:00–24:00) belongs to the ``next-day`` (default) or the ``same-day``.

Solar-term moments are absolute instants; lunar-python gives them in China standard time (UTC+8,
with no daylight saving), so year and month boundaries are compared in UTC+8. The day and the
hour follow the wall clock of the chosen zone (default Asia/Shanghai).

Supported range: 1901-01-01 to 2099-12-31 (local date).
"""

from __future__ import annotations

import datetime as _dt
from dataclasses import dataclass
from collections.abc import Iterator, Sequence
from typing import Any, Final
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from lunar_python import LunarMonth, Solar  # type: ignore[import-untyped]

from shensha_plates.core.cycle import BRANCHES, STEMS, XUN_HEADS, parse_pillar, pillar_index, xun_of, xun_void
from shensha_plates.core.engine import SEASONS, State
from shensha_plates.core.errors import CalendarError

__all__ = ["CalendarOptions", "CalendarInfo", "from_datetime", "parse_datetime", "clock_note", "now", "sweep",
           "day_pillar", "governing_term", "Term", "MIN_DATE", "MAX_DATE", "CST", "sweep_moments", "term_table"]

MIN_DATE: Final = _dt.date(1901, 1, 1)
MAX_DATE: Final = _dt.date(2099, 12, 31)
CST: Final = _dt.timezone(_dt.timedelta(hours=8), "CST")  # the clock of lunar-python's solar terms
YEAR_STARTS: Final = ("lichun", "lichun-day", "new-year")
MONTH_BASES: Final = ("jie", "lunar")
ZI_HOURS: Final = ("next-day", "same-day")


@dataclass(frozen=True, slots=True)
class CalendarOptions:
    zone: str = "Asia/Shanghai"
    year_start: str = "lichun"
    month_basis: str = "jie"
    zi_hour: str = "next-day"

    def __post_init__(self) -> None:
        for name, value, valid in (("year_start", self.year_start, YEAR_STARTS),
                                   ("month_basis", self.month_basis, MONTH_BASES),
                                   ("zi_hour", self.zi_hour, ZI_HOURS)):
            if value not in valid:
                raise CalendarError(f"invalid {name}: {value!r} (expected one of {', '.join(valid)})")
        self.tzinfo()  # validates the zone

    @classmethod
    def from_cli(cls, tz: str | None = None, year_start: str | None = None,
                 month_basis: str | None = None, zi_hour: str | None = None) -> CalendarOptions:
        d = cls()
        return cls(zone=tz or d.zone, year_start=year_start or d.year_start,
                   month_basis=month_basis or d.month_basis, zi_hour=zi_hour or d.zi_hour)

    def tzinfo(self) -> _dt.tzinfo:
        return _zone(self.zone)

    def to_json(self) -> dict[str, str]:
        return {"year_start": self.year_start, "month_basis": self.month_basis, "zi_hour": self.zi_hour}


def _zone(name: str) -> _dt.tzinfo:
    if not isinstance(name, str) or not name.strip():
        raise CalendarError(f"invalid time zone: {name!r} (expected an IANA name such as Asia/Shanghai)")
    try:
        return ZoneInfo(name.strip())
    except (ZoneInfoNotFoundError, ValueError, OSError):
        raise CalendarError(
            f"unknown time zone: {name!r} (expected an IANA name such as Asia/Shanghai, "
            "Asia/Taipei, Europe/London, UTC)") from None


@dataclass(frozen=True, slots=True)
class Term:
    """A solar term (节) and its moment."""

    name: str
    moment: _dt.datetime


@dataclass(frozen=True, slots=True)
class CalendarInfo:
    """Everything the plates need from one moment, as frozen values."""

    moment: _dt.datetime
    options: CalendarOptions
    year: int          # pillar index 0–59
    month_pillar: int  # pillar index 0–59
    day: int           # pillar index 0–59
    hour_pillar: int   # pillar index 0–59
    month: int         # 1–12, 正月 = 寅 month
    prev_jie: Term
    next_jie: Term
    lunar_date: tuple[int, int, int]  # lunar year, month (negative: leap), day
    day_term: str | None = None  # the solar term (节 or 中气) whose moment falls on the chart's day, in its zone
    lunar_month_days: int = 30   # the days of the lunar month (29 or 30: its last is the 晦)

    @property
    def hour(self) -> int:
        return self.hour_pillar % 12

    @property
    def xun(self) -> int:
        return xun_of(self.day)

    @property
    def season(self) -> int:
        return (self.month - 1) // 3

    @property
    def state(self) -> State:
        return State(year_branch=self.year % 12, month=self.month, xun=self.xun,
                     year_stem=self.year % 10, day=self.day, hour=self.hour)

    def to_json(self) -> dict[str, Any]:
        void = xun_void(self.xun)
        return {
            "date": self.moment.isoformat(timespec="minutes"),
            "zone": self.options.zone,
            "conventions": self.options.to_json(),
            "pillars": {"year": _name(self.year), "month": _name(self.month_pillar),
                        "day": _name(self.day), "hour": _name(self.hour_pillar)},
            "hour": BRANCHES[self.hour],
            "xun": XUN_HEADS[self.xun],
            "xun_void": BRANCHES[void[0]] + BRANCHES[void[1]],
            "season": SEASONS[self.season],
            "month_terms": {
                "start": {"name": self.prev_jie.name,
                          "moment": self.prev_jie.moment.astimezone(self.moment.tzinfo).isoformat(timespec="minutes")},
                "end": {"name": self.next_jie.name,
                        "moment": self.next_jie.moment.astimezone(self.moment.tzinfo).isoformat(timespec="minutes")},
            },
            "lunar_date": list(self.lunar_date),
        }


def _name(p: int) -> str:
    return STEMS[p % 10] + BRANCHES[p % 12]


def _check_aware(moment: object) -> _dt.datetime:
    if not isinstance(moment, _dt.datetime):
        raise CalendarError(f"expected a datetime, got {moment!r}")
    if moment.tzinfo is None or moment.utcoffset() is None:
        raise CalendarError(
            f"naive datetime {moment.isoformat()!r}: give it a time zone, e.g. "
            "moment.replace(tzinfo=ZoneInfo('Asia/Shanghai')), or an offset such as +08:00")
    local = moment
    if not MIN_DATE <= local.date() <= MAX_DATE:
        raise CalendarError(f"date {local.date().isoformat()} is outside the supported range "
                            f"{MIN_DATE.isoformat()} … {MAX_DATE.isoformat()}")
    return moment


def parse_datetime(text: str, options: CalendarOptions = CalendarOptions()) -> _dt.datetime:
    """Parse ``YYYY-MM-DD[THH:MM[:SS]][±HH:MM]``; without an offset the time is in ``options.zone``.

    A time the zone's clocks skip (the spring-forward gap) raises :class:`CalendarError`; a time
    they show twice (the autumn fall-back) is the first of the two, and :func:`clock_note` says so.

    >>> parse_datetime("2026-12-02T18:00").isoformat()
    '2026-12-02T18:00:00+08:00'
    """
    t = str(text).strip().replace(" ", "T", 1)
    try:
        moment = _dt.datetime.fromisoformat(t)
    except ValueError:
        raise CalendarError(f"invalid date: {text!r} (expected YYYY-MM-DD or YYYY-MM-DDTHH:MM, "
                            "e.g. 2026-12-02T18:00, with an optional offset such as +08:00)") from None
    if moment.tzinfo is None:
        moment = _on_the_clock(moment, options, text)
    return _check_aware(moment)


def _on_the_clock(naive: _dt.datetime, options: CalendarOptions, text: str) -> _dt.datetime:
    """``naive`` read on the wall clock of ``options.zone``: refused when the clock skips it (the
    spring-forward gap); the first of the two readings when the clock shows it twice (see
    :func:`clock_note`)."""
    tz = options.tzinfo()
    first, second = naive.replace(tzinfo=tz, fold=0), naive.replace(tzinfo=tz, fold=1)
    before, after = first.utcoffset(), second.utcoffset()
    if before is None or after is None or before == after:
        return first
    if first.astimezone(_dt.UTC).astimezone(tz).replace(tzinfo=None, fold=0) == naive:
        return first  # shown twice: the earlier one, as the note says
    jump = _transition(naive - after, naive - before, tz)
    raise CalendarError(
        f"no such time: {text!r} does not exist in {options.zone}, whose clocks go from "
        f"{jump.astimezone(_dt.timezone(before)):%H:%M} straight to {jump.astimezone(tz):%H:%M} that day "
        "(give a time outside the gap, or an explicit offset such as +08:00)")


def _transition(lo: _dt.datetime, hi: _dt.datetime, tz: _dt.tzinfo) -> _dt.datetime:
    """The instant (to the second) between the naive UTC times ``lo`` and ``hi`` where ``tz``'s
    offset changes."""
    lo_u, hi_u = lo.replace(tzinfo=_dt.UTC), hi.replace(tzinfo=_dt.UTC)
    start = lo_u.astimezone(tz).utcoffset()
    while hi_u - lo_u > _dt.timedelta(seconds=1):
        mid = lo_u + (hi_u - lo_u) / 2
        if mid.astimezone(tz).utcoffset() == start:
            lo_u = mid
        else:
            hi_u = mid
    return hi_u.replace(microsecond=0)


def clock_note(moment: _dt.datetime) -> str | None:
    """A note when ``moment``'s wall-clock time occurs twice in its zone (the autumn fall-back):
    which of the two was taken and how to ask for the other; ``None`` otherwise.

    >>> from zoneinfo import ZoneInfo
    >>> clock_note(parse_datetime("2026-11-01T01:30", CalendarOptions(zone="America/New_York")))
    '2026-11-01T01:30 occurs twice in America/New_York; took the first, 2026-11-01T01:30-04:00 (for the second give the date with its offset, 2026-11-01T01:30-05:00)'
    >>> clock_note(parse_datetime("2026-12-02T18:00")) is None
    True
    """
    tz = moment.tzinfo
    if tz is None or moment.replace(fold=0).utcoffset() == moment.replace(fold=1).utcoffset():
        return None
    wall = moment.replace(tzinfo=None, fold=0)
    if moment.astimezone(_dt.UTC).astimezone(tz).replace(tzinfo=None, fold=0) != wall:
        return None  # a skipped time (only reachable by building the datetime by hand)
    taken, other = ("first", "second") if moment.fold == 0 else ("second", "first")
    alternative = moment.replace(fold=1 - moment.fold)
    offset = alternative.utcoffset() or _dt.timedelta()
    zone = str(getattr(tz, "key", tz))
    return (f"{wall.isoformat(timespec='minutes')} occurs twice in {zone}; took the {taken}, "
            f"{moment.isoformat(timespec='minutes')} (for the {other} give the date with its offset, "
            f"{alternative.astimezone(_dt.timezone(offset)).isoformat(timespec='minutes')})")


def now(options: CalendarOptions = CalendarOptions()) -> _dt.datetime:
    """The current moment in ``options.zone``, to the minute."""
    return _dt.datetime.now(options.tzinfo()).replace(second=0, microsecond=0)


def _solar(moment: _dt.datetime) -> Any:
    try:
        return Solar.fromYmdHms(moment.year, moment.month, moment.day, moment.hour, moment.minute,
                                moment.second)
    except Exception as e:  # lunar-python raises bare Exception
        raise CalendarError(f"lunar-python refused {moment.isoformat()}: {e}") from e


def _term(jieqi: Any) -> Term:
    s = jieqi.getSolar()
    return Term(name=jieqi.getName(),
                moment=_dt.datetime(s.getYear(), s.getMonth(), s.getDay(), s.getHour(), s.getMinute(),
                                    s.getSecond(), tzinfo=CST))


def from_datetime(moment: _dt.datetime, options: CalendarOptions = CalendarOptions()) -> CalendarInfo:
    """The calendar facts of an aware moment, under the given conventions.

    The moment is first expressed in ``options.zone`` (its wall clock gives the day and hour);
    year and month boundaries are compared as instants in UTC+8.

    Raises :class:`CalendarError` for a naive or out-of-range moment.
    """
    _check_aware(moment)
    local = moment.astimezone(options.tzinfo())
    _check_aware(local)
    cst = local.astimezone(CST)
    try:
        lunar_cst = _solar(cst).getLunar()
        lunar_local = lunar_cst if cst.replace(tzinfo=None) == local.replace(tzinfo=None) \
            else _solar(local).getLunar()
        if options.year_start == "lichun":
            year = pillar_index(lunar_cst.getYearGanIndexExact(), lunar_cst.getYearZhiIndexExact())
        elif options.year_start == "lichun-day":
            year = pillar_index(lunar_cst.getYearGanIndexByLiChun(), lunar_cst.getYearZhiIndexByLiChun())
        else:
            year = pillar_index(lunar_cst.getYearGanIndex(), lunar_cst.getYearZhiIndex())
        if options.month_basis == "jie":
            zhi = lunar_cst.getMonthZhiIndexExact()
            month = (zhi - 2) % 12 + 1
            month_pillar = pillar_index(lunar_cst.getMonthGanIndexExact(), zhi)
        else:
            month = abs(lunar_cst.getMonth())
            zhi = (month + 1) % 12
            # 五虎遁: the 寅 month of a 甲/己 year is 丙寅, and so on.
            stem = ((year % 10) % 5 * 2 + 2 + (month - 1)) % 10
            month_pillar = pillar_index(stem, zhi)
        if options.zi_hour == "next-day":
            day = parse_pillar(lunar_local.getDayInGanZhiExact())
        else:
            day = parse_pillar(lunar_local.getDayInGanZhiExact2())
        hour_pillar = parse_pillar(lunar_local.getTimeInGanZhi())
        prev_jie = _term(lunar_cst.getPrevJie(False))
        next_jie = _term(lunar_cst.getNextJie(False))
        lunar_date = (lunar_cst.getYear(), lunar_cst.getMonth(), lunar_cst.getDay())
        month_days = LunarMonth.fromYm(lunar_cst.getYear(), lunar_cst.getMonth()).getDayCount()
        # the term of the day: the day of the day pillar (after 23:00 the next, with zi_hour next-day)
        the_day = local.date() + _dt.timedelta(days=1 if options.zi_hour == "next-day" and local.hour == 23 else 0)
        day_term = None
        for jq in (lunar_cst.getPrevJieQi(False), lunar_cst.getNextJieQi(False)):
            t = _term(jq)
            if t.moment.astimezone(local.tzinfo).date() == the_day:
                day_term = _JIE_ALIASES.get(t.name, _TERM_ALIASES.get(t.name, t.name))
    except CalendarError:
        raise
    except Exception as e:  # anything lunar-python throws becomes ours
        raise CalendarError(f"calendar conversion failed for {local.isoformat()}: {e}") from e
    return CalendarInfo(moment=local, options=options, year=year, month_pillar=month_pillar, day=day,
                        hour_pillar=hour_pillar, month=month, prev_jie=prev_jie, next_jie=next_jie,
                        lunar_date=lunar_date, day_term=day_term, lunar_month_days=month_days)


_TERM_ALIASES: Final = {"DONG_ZHI": "冬至", "XIAO_HAN": "小寒", "DA_HAN": "大寒", "LI_CHUN": "立春",
                        "YU_SHUI": "雨水", "JING_ZHE": "惊蛰", "DA_XUE": "大雪"}


def governing_term(moment: _dt.datetime, kind: str = "qi") -> Term:
    """The last 中气 (``kind="qi"``) or 节 (``kind="jie"``) at or before an aware moment, compared to
    the minute as instants (the Liu Ren month general changes at the 中气).

    >>> import zoneinfo
    >>> t = governing_term(_dt.datetime(1998, 11, 30, 12, tzinfo=zoneinfo.ZoneInfo("Asia/Shanghai")))
    >>> t.name, t.moment.isoformat()
    ('小雪', '1998-11-22T20:34:12+08:00')
    """
    if kind not in ("qi", "jie"):
        raise CalendarError(f"invalid term kind: {kind!r} (expected qi or jie)")
    _check_aware(moment)
    cst = moment.astimezone(CST)
    try:
        lunar = _solar(cst).getLunar()
        term = _term(lunar.getPrevQi(False) if kind == "qi" else lunar.getPrevJie(False))
    except CalendarError:
        raise
    except Exception as e:  # anything lunar-python throws becomes ours
        raise CalendarError(f"solar term lookup failed for {moment.isoformat()}: {e}") from e
    return Term(_TERM_ALIASES.get(term.name, term.name), term.moment)


# -- sweeping many days ---------------------------------------------------------------------------

_JIE_MONTH: Final = {"立春": 1, "惊蛰": 2, "清明": 3, "立夏": 4, "芒种": 5, "小暑": 6, "立秋": 7, "白露": 8,
                     "寒露": 9, "立冬": 10, "大雪": 11, "小寒": 12}
# lunar-python names the terms of the neighbouring years in pinyin
_JIE_ALIASES: Final = {"LI_CHUN": "立春", "JING_ZHE": "惊蛰", "XIAO_HAN": "小寒", "DA_XUE": "大雪"}
_ORDINAL_TO_DAY: Final = 1721414  # date.toordinal() + this ≡ the day's pillar (mod 60)


def day_pillar(day: _dt.date) -> int:
    """The 甲子 pillar index of a civil day (the day as a whole, i.e. before the late 子 hour).

    >>> pillar_name = lambda p: STEMS[p % 10] + BRANCHES[p % 12]
    >>> pillar_name(day_pillar(_dt.date(2026, 12, 2)))
    '庚戌'
    """
    return (day.toordinal() + _ORDINAL_TO_DAY) % 60


def term_table(first_year: int, last_year: int) -> tuple[Term, ...]:
    """Every solar term (节 and 中气) of the years, in order, at its moment in UTC+8: read once from
    lunar-python, so that a search over many moments looks its terms up instead of asking it again."""
    seen: dict[tuple[str, _dt.datetime], None] = {}
    for year in range(first_year, last_year + 1):
        try:
            table = Solar.fromYmd(year, 6, 1).getLunar().getJieQiTable()
        except Exception as e:  # lunar-python raises bare Exception
            raise CalendarError(f"calendar conversion failed for {year}: {e}") from e
        for name, solar in table.items():
            name = _JIE_ALIASES.get(name, _TERM_ALIASES.get(name, name))
            moment = _dt.datetime(solar.getYear(), solar.getMonth(), solar.getDay(), solar.getHour(),
                                  solar.getMinute(), solar.getSecond(), tzinfo=CST)
            seen[(name, moment)] = None
    return tuple(Term(name, moment) for moment, name in sorted((m, n) for n, m in seen))


def _check_range(start: _dt.date, end: _dt.date) -> None:
    if end < start:
        raise CalendarError(f"empty range: {start.isoformat()} … {end.isoformat()} (the end is before the start)")
    for d in (start, end):
        if not MIN_DATE <= d <= MAX_DATE:
            raise CalendarError(f"date {d.isoformat()} is outside the supported range "
                                f"{MIN_DATE.isoformat()} … {MAX_DATE.isoformat()}")


def sweep_moments(start: _dt.date, end: _dt.date, times: Sequence[tuple[int, int]] = ((12, 0),),
                  options: CalendarOptions = CalendarOptions()) -> Iterator[tuple[_dt.datetime, State]]:
    """The plate state at each local clock time of ``times`` (hour, minute) on every day from
    ``start`` to ``end`` (inclusive), in order, as (the moment, its state).

    With the default conventions (year at the moment of 立春, months at each 节) the solar terms are
    read once (:func:`term_table`) and each moment costs a few arithmetic steps; other conventions
    take the moment-by-moment path of :func:`from_datetime`. Agrees with :func:`from_datetime` for
    every moment. A clock time the zone skips that day (spring forward) is read as the zone reads it.
    """
    _check_range(start, end)
    for hour, minute in times:
        if not (0 <= hour <= 23 and 0 <= minute <= 59):
            raise CalendarError(f"invalid time: {hour:02d}:{minute:02d} (expected 00:00–23:59)")
    tz = options.tzinfo()
    days = (end - start).days + 1
    if (options.year_start, options.month_basis) != ("lichun", "jie"):
        for i in range(days):
            d = start + _dt.timedelta(days=i)
            for hour, minute in times:
                local = _dt.datetime(d.year, d.month, d.day, hour, minute, tzinfo=tz)
                yield local, from_datetime(local, options).state
        return
    terms = [t for t in term_table(start.year - 1, end.year + 1) if t.name in _JIE_MONTH]
    moments = [t.moment for t in terms]
    import bisect
    k = 0
    for i in range(days):
        d = start + _dt.timedelta(days=i)
        p_day = day_pillar(d)
        for hour, minute in times:
            local = _dt.datetime(d.year, d.month, d.day, hour, minute, tzinfo=tz)
            cst = local.astimezone(CST)
            if not (k < len(moments) and moments[k] <= cst and (k + 1 == len(moments) or cst < moments[k + 1])):
                k = bisect.bisect_right(moments, cst) - 1
            month = _JIE_MONTH[terms[k].name]
            # the year changes at 立春: the 立春 at or before this moment names the year
            j = k - (month - 1)
            lichun_year = moments[j].year if j >= 0 else moments[0].year - 1
            year = (lichun_year - 4) % 60
            p = (p_day + (1 if hour == 23 and options.zi_hour == "next-day" else 0)) % 60
            yield local, State(year_branch=year % 12, month=month, xun=p // 10, year_stem=year % 10, day=p,
                               hour=((hour + 1) // 2) % 12)


def sweep(start: _dt.date, end: _dt.date, options: CalendarOptions = CalendarOptions(),
          hour: int = 12) -> tuple[tuple[_dt.date, State], ...]:
    """The plate state of every day from ``start`` to ``end`` (inclusive) at ``hour``:00 local time
    (:func:`sweep_moments` at one time a day). Agrees with :func:`from_datetime` for every day."""
    _check_range(start, end)
    if not 0 <= hour <= 23:
        raise CalendarError(f"invalid hour: {hour!r} (expected 0–23)")
    return tuple((moment.date(), state) for moment, state in sweep_moments(start, end, ((hour, 0),), options))
