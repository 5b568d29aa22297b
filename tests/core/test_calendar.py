"""The calendar bridge: conventions, boundaries to the minute, validation, and the CLI's --date."""

from __future__ import annotations

import datetime as dt
import io
import json
from zoneinfo import ZoneInfo

import pytest
from lunar_python import Solar

from shensha_plates.core.calendar import CST, CalendarOptions, from_datetime, parse_datetime
from shensha_plates.core.cli import main
from shensha_plates.core.cycle import BRANCHES, pillar_name
from shensha_plates.core.errors import CalendarError

SH = ZoneInfo("Asia/Shanghai")
YEARS = [1902, 1949, 1984, 2000, 2023, 2024, 2026, 2050, 2098]
JIE = ["立春", "惊蛰", "清明", "立夏", "芒种", "小暑", "立秋", "白露", "寒露", "立冬", "大雪", "小寒"]


def term_moment(year: int, name: str) -> dt.datetime:
    """The moment of a solar term of (solar) year ``year``, from lunar-python's own table, in UTC+8."""
    table = Solar.fromYmd(year, 6, 1).getLunar().getJieQiTable()
    key = {"小寒": "XIAO_HAN", "立春": "LI_CHUN", "惊蛰": "JING_ZHE"}.get(name, name) \
        if name not in table else name
    s = table[key]
    return dt.datetime(s.getYear(), s.getMonth(), s.getDay(), s.getHour(), s.getMinute(), s.getSecond(), tzinfo=CST)


def info(moment: dt.datetime, **kw: str) -> object:
    return from_datetime(moment, CalendarOptions(**kw))


@pytest.mark.parametrize("year", YEARS)
def test_year_changes_at_the_exact_moment_of_lichun(year: int) -> None:
    t = term_moment(year, "立春")
    before, after = from_datetime(t - dt.timedelta(minutes=1)), from_datetime(t + dt.timedelta(minutes=1))
    assert (after.year - before.year) % 60 == 1
    assert after.year % 12 == (year - 4) % 12  # 子 years: 1984, 2020 …
    assert before.month == 12 and after.month == 1
    # lunar-python's own exact method agrees on both sides
    for m, ours in ((t - dt.timedelta(minutes=1), before), (t + dt.timedelta(minutes=1), after)):
        lun = Solar.fromYmdHms(m.year, m.month, m.day, m.hour, m.minute, m.second).getLunar()
        assert pillar_name(ours.year) == lun.getYearInGanZhiExact()
        assert pillar_name(ours.month_pillar) == lun.getMonthInGanZhiExact()


@pytest.mark.parametrize("year", YEARS)
def test_months_change_at_each_jie(year: int) -> None:
    table = Solar.fromYmd(year, 6, 1).getLunar().getJieQiTable()
    for k, name in enumerate(JIE[:-1]):
        s = table[name]
        t = dt.datetime(s.getYear(), s.getMonth(), s.getDay(), s.getHour(), s.getMinute(), s.getSecond(), tzinfo=CST)
        before = from_datetime(t - dt.timedelta(minutes=1))
        after = from_datetime(t + dt.timedelta(minutes=1))
        assert after.month == k + 1, (year, name)
        assert before.month == (k - 1) % 12 + 1, (year, name)
        assert after.prev_jie.name == name and before.next_jie.name == name
        assert abs((after.prev_jie.moment - t).total_seconds()) < 1


@pytest.mark.parametrize("year", [1950, 1999, 2024, 2026, 2077])
def test_late_zi_hour(year: int) -> None:
    late = dt.datetime(year, 3, 10, 23, 30, tzinfo=SH)
    nxt = info(late)
    same = info(late, zi_hour="same-day")
    noon = info(late.replace(hour=12))
    tomorrow = info(late.replace(hour=12) + dt.timedelta(days=1))
    assert nxt.day == tomorrow.day and same.day == noon.day
    assert BRANCHES[nxt.hour] == "子" and BRANCHES[info(late.replace(hour=22, minute=59)).hour] == "亥"
    before = info(late.replace(hour=22, minute=59))
    assert before.day == noon.day
    lun = Solar.fromYmdHms(year, 3, 10, 23, 30, 0).getLunar()
    assert pillar_name(nxt.day) == lun.getDayInGanZhiExact() and pillar_name(same.day) == lun.getDayInGanZhiExact2()


def test_year_start_options() -> None:
    t = term_moment(2024, "立春")  # 2024-02-04 16:27 CST
    early_same_day = t.replace(hour=0, minute=30)
    assert pillar_name(info(early_same_day).year) == "癸卯"
    assert pillar_name(info(early_same_day, year_start="lichun-day").year) == "甲辰"
    # 2024 lunar new year: 2024-02-10
    assert pillar_name(info(dt.datetime(2024, 2, 9, 12, tzinfo=SH), year_start="new-year").year) == "癸卯"
    assert pillar_name(info(dt.datetime(2024, 2, 10, 12, tzinfo=SH), year_start="new-year").year) == "甲辰"


def test_lunar_month_basis() -> None:
    # 2026-12-02 is in the 10th lunar month (十月) and in the 亥 month by 节 (立冬 … 大雪) alike;
    # 2026-12-10 is past 大雪 (子 month) but still in lunar 十月 (lunar 冬月 begins 2026-12-09? check both).
    d = dt.datetime(2026, 12, 10, 12, tzinfo=SH)
    jie = info(d)
    lunar = info(d, month_basis="lunar")
    lun = Solar.fromYmdHms(2026, 12, 10, 12, 0, 0).getLunar()
    assert jie.month == 11
    assert lunar.month == abs(lun.getMonth())
    # leap months count as the month they repeat: 2023 had a leap 2nd month (闰二月, from 2023-03-22)
    leap = info(dt.datetime(2023, 4, 1, 12, tzinfo=SH), month_basis="lunar")
    assert leap.lunar_date[1] == -2 and leap.month == 2


def test_state_from_date() -> None:
    i = from_datetime(parse_datetime("2026-12-02T18:00"))
    s = i.state
    assert s.label() == "丙午年 十月 甲辰旬 庚戌日 酉时"
    assert pillar_name(i.month_pillar) == "己亥" and pillar_name(i.hour_pillar) == "乙酉"
    assert i.prev_jie.name == "立冬" and i.next_jie.name == "大雪"


def test_zones() -> None:
    # The same instant seen from New York: terms compare as instants, the day follows New York's clock.
    t = term_moment(2026, "立春")
    ny = (t + dt.timedelta(minutes=1)).astimezone(ZoneInfo("America/New_York"))
    a = from_datetime(ny, CalendarOptions(zone="America/New_York"))
    assert pillar_name(a.year) == "丙午"
    local_noon = from_datetime(ny.replace(hour=12, minute=0), CalendarOptions(zone="America/New_York"))
    assert a.day == local_noon.day or a.hour == 0
    # Asia/Shanghai kept daylight saving in 1986–1991; terms are still compared in UTC+8.
    summer = from_datetime(dt.datetime(1988, 7, 7, 12, tzinfo=SH))
    assert summer.month in (5, 6)


@pytest.mark.parametrize("text,needle", [
    ("2023-02-30", "invalid date"),
    ("2023-13-01", "invalid date"),
    ("yesterday", "invalid date"),
    ("1900-12-31T12:00", "outside the supported range"),
    ("2100-01-01", "outside the supported range"),
])
def test_bad_dates(text: str, needle: str) -> None:
    with pytest.raises(CalendarError, match=needle):
        parse_datetime(text)


def test_range_ends_work() -> None:
    assert from_datetime(parse_datetime("1901-01-01T00:30")).month == 11
    assert from_datetime(parse_datetime("2099-12-31T23:30")).month == 11


def test_naive_and_bad_zone_refused() -> None:
    with pytest.raises(CalendarError, match="naive datetime .*ZoneInfo"):
        from_datetime(dt.datetime(2026, 1, 1, 12))
    with pytest.raises(CalendarError, match="unknown time zone"):
        CalendarOptions(zone="Nowhere/Land")
    with pytest.raises(CalendarError, match="invalid month_basis"):
        CalendarOptions(month_basis="moon")


def test_offset_in_text_wins_over_zone() -> None:
    m = parse_datetime("2026-12-02T10:00+00:00")
    assert from_datetime(m).state.hour == BRANCHES.index("酉")  # 18:00 in Shanghai


def test_cli_date_json_carries_the_calendar() -> None:
    out, err = io.StringIO(), io.StringIO()
    code = main(["show", "--date", "2026-12-02T18:00", "--format", "json"], out=out, err=err)
    assert code == 0, err.getvalue()
    st = json.loads(out.getvalue())["state"]
    assert st["date"] == "2026-12-02T18:00+08:00" and st["zone"] == "Asia/Shanghai"
    assert st["conventions"] == {"year_start": "lichun", "month_basis": "jie", "zi_hour": "next-day"}
    assert (st["year"], st["month"], st["xun"], st["day"], st["hour"]) == ("丙午", 10, "甲辰", "庚戌", "酉")
    assert st["month_terms"]["start"]["name"] == "立冬"
    day_spirits = [p for row in json.loads(out.getvalue())["positions"].values() for p in row
                   if p["group"] in ("stem", "branch")]
    assert day_spirits, "with a date, the day spirits are listed"


def test_cli_now_runs() -> None:
    out, err = io.StringIO(), io.StringIO()
    assert main(["show", "--now", "--tz", "UTC"], out=out, err=err) == 0
    assert "日" in out.getvalue().splitlines()[0]


@pytest.mark.parametrize("hour", [0, 12, 23])
def test_sweep_agrees_with_day_by_day(hour: int) -> None:
    from shensha_plates.core.calendar import sweep
    start, end = dt.date(2023, 12, 25), dt.date(2025, 2, 10)  # two 立春 and every 节 between
    got = sweep(start, end, hour=hour)
    assert len(got) == (end - start).days + 1
    for d, state in got:
        ref = from_datetime(dt.datetime(d.year, d.month, d.day, hour, tzinfo=SH)).state
        assert state == ref, d


def test_sweep_other_conventions_and_errors() -> None:
    from shensha_plates.core.calendar import sweep
    opts = CalendarOptions(month_basis="lunar", year_start="new-year")
    got = sweep(dt.date(2024, 2, 8), dt.date(2024, 2, 12), opts)
    assert got[-1][1].year_name == "甲辰" and got[0][1].year_name == "癸卯"
    with pytest.raises(CalendarError, match="empty range"):
        sweep(dt.date(2024, 1, 2), dt.date(2024, 1, 1))
    with pytest.raises(CalendarError, match="outside"):
        sweep(dt.date(1899, 1, 1), dt.date(1901, 1, 1))


def test_day_pillar_matches_lunar_python() -> None:
    from shensha_plates.core.calendar import day_pillar
    d = dt.date(1901, 1, 1)
    while d < dt.date(2099, 12, 31):
        lun = Solar.fromYmdHms(d.year, d.month, d.day, 12, 0, 0).getLunar()
        assert pillar_name(day_pillar(d)) == lun.getDayInGanZhi(), d
        d += dt.timedelta(days=997)
