"""``find``: every moment it reports (and every one it leaves out) is what ``show`` and ``ke`` give for
that moment, computed the slow way (lunar-python per moment); around solar-term boundaries too."""

from __future__ import annotations

import datetime as dt
import json
import subprocess
import sys
from zoneinfo import ZoneInfo

import pytest

from shensha_plates.core.calendar import CalendarOptions, from_datetime, sweep_moments, term_table
from shensha_plates.core.catalog import default_catalog
from shensha_plates.core.cycle import BRANCHES
from shensha_plates.core.engine import compute_plate
from shensha_plates.core.errors import InputError
from shensha_plates.core.find import parse_condition, search, to_ics
from shensha_plates.core.liuren import compute_ke_at
from tests.conftest import REPO

SHANGHAI = ZoneInfo("Asia/Shanghai")


def _slow_state(moment: dt.datetime, options: CalendarOptions = CalendarOptions()) -> object:
    return from_datetime(moment, options).state


def test_moments_agree_with_the_calendar_bridge_around_every_jie_of_a_year() -> None:
    # every hour of the three days around each 节 of 2027 (several fall in the afternoon)
    jie = [t for t in term_table(2027, 2027) if t.name in ("立春", "惊蛰", "清明", "立夏", "芒种", "小暑", "立秋",
                                                          "白露", "寒露", "立冬", "大雪", "小寒")]
    assert any(t.moment.hour >= 12 for t in jie)  # a 节 in the afternoon is among them
    times = tuple((h, m) for h in range(24) for m in (0, 59))
    for term in jie:
        day = term.moment.date()
        for moment, state in sweep_moments(day - dt.timedelta(days=1), day + dt.timedelta(days=1), times):
            assert state == _slow_state(moment), moment


@pytest.mark.parametrize("zone", ["Asia/Shanghai", "America/New_York", "Europe/London"])
def test_moments_agree_in_other_zones_and_conventions(zone: str) -> None:
    for options in (CalendarOptions(zone=zone), CalendarOptions(zone=zone, zi_hour="same-day"),
                    CalendarOptions(zone=zone, year_start="new-year")):
        for moment, state in sweep_moments(dt.date(2027, 1, 30), dt.date(2027, 2, 8), ((0, 0), (10, 30), (23, 0)),
                                           options):
            assert state == _slow_state(moment, options), (zone, options, moment)


def test_spirit_conditions_agree_with_show_day_by_day() -> None:
    catalog = default_catalog()
    conditions = [parse_condition("天马@午"), parse_condition("天德@day"), parse_condition("not 月建@month")]
    for cond in conditions:
        hits = {h.moment for h in search(dt.date(2027, 1, 1), dt.date(2027, 12, 31), [cond])}
        for day in range(0, 365, 3):
            d = dt.date(2027, 1, 1) + dt.timedelta(days=day)
            moment = dt.datetime(d.year, d.month, d.day, 12, tzinfo=SHANGHAI)
            state = _slow_state(moment)
            plate = compute_plate(state)  # type: ignore[arg-type]
            name, _, where = cond.text.removeprefix("not ").partition("@")
            branch = {"day": state.day % 12, "month": state.month_branch}.get(where)  # type: ignore[attr-defined]
            branch = BRANCHES.index(where) if branch is None else branch
            ids = {s.id for s in catalog.find(name)}
            there = any(p.spirit.id in ids for p in plate.positions[branch])
            assert (moment in hits) == (there != cond.negate), (cond.text, moment)


def test_lesson_conditions_agree_with_ke_hour_by_hour() -> None:
    # March 2027 holds the 中气 春分 (the month general changes): every even hour against compute_ke_at
    start, end = dt.date(2027, 3, 14), dt.date(2027, 3, 28)
    for text in ("ke=伏吟", "ke=元首", "chu=子", "ke=zeike"):
        cond = parse_condition(text)
        hits = {h.moment for h in search(start, end, [cond], every="hour")}
        d = start
        while d <= end:
            for hour in range(0, 24, 2):
                moment = dt.datetime(d.year, d.month, d.day, hour, tzinfo=SHANGHAI)
                ke, _, _ = compute_ke_at(moment)
                if text.startswith("chu="):
                    there = BRANCHES[ke.transmissions[0].branch] == "子"
                elif text == "ke=zeike":
                    there = ke.method == "zeike"
                else:
                    from shensha_plates.core.liuren import liuren_tables
                    info = liuren_tables().methods[ke.method]
                    there = text[3:] in (ke.ke, info.name, info.name_trad)
                assert (moment in hits) == there, (text, moment)
            d += dt.timedelta(days=1)


def test_pillar_conditions_and_any() -> None:
    hits = list(search(dt.date(2027, 1, 1), dt.date(2027, 3, 1), [parse_condition("day=甲子")]))
    assert [h.moment.date() for h in hits] == [dt.date(2027, 2, 14)]  # 60 days apart: one in range
    both = list(search(dt.date(2027, 1, 1), dt.date(2027, 1, 31), [parse_condition("day=子"), parse_condition("day=午")],
                       any_of=True))
    assert len(both) in (5, 6) and all(h.state.day is not None and h.state.day % 6 == 0 for h in both)
    none = list(search(dt.date(2027, 1, 1), dt.date(2027, 1, 31), [parse_condition("day=子"), parse_condition("day=午")]))
    assert none == []
    hours = list(search(dt.date(2027, 1, 1), dt.date(2027, 1, 1), [parse_condition("hour=午")], every="hour"))
    assert [h.moment.hour for h in hours] == [12]


@pytest.mark.parametrize(("text", "says"), [
    ("天马", "invalid condition"), ("无此神@午", "unknown spirit"), ("天马@东", "invalid place"),
    ("day=甲丑", "invalid"), ("hour=甲", "invalid hour"), ("foo=1", "unknown condition"), ("month=十三", "invalid month"),
])
def test_a_bad_condition_is_one_clear_error(text: str, says: str) -> None:
    with pytest.raises(InputError, match=says):
        parse_condition(text)


def test_a_lesson_condition_needs_hours() -> None:
    with pytest.raises(InputError, match="--every hour"):
        list(search(dt.date(2027, 1, 1), dt.date(2027, 1, 2), [parse_condition("ke=伏吟")]))


def test_the_ics_output_is_a_valid_calendar() -> None:
    icalendar = pytest.importorskip("icalendar")
    hits = list(search(dt.date(2027, 1, 1), dt.date(2027, 2, 28), [parse_condition("天德@day")]))
    text = to_ics(hits, "day", dt.datetime(2026, 12, 5, tzinfo=dt.UTC))
    cal = icalendar.Calendar.from_ical(text)
    events = [c for c in cal.walk() if c.name == "VEVENT"]
    assert len(events) == len(hits) > 0
    assert events[0].decoded("dtstart") == hits[0].moment.date()
    assert "天德@day" in str(events[0].get("summary"))
    hour_hits = list(search(dt.date(2027, 1, 1), dt.date(2027, 1, 1), [parse_condition("hour=午")], every="hour"))
    ev = [c for c in icalendar.Calendar.from_ical(to_ics(hour_hits, "hour", dt.datetime(2026, 1, 1, tzinfo=dt.UTC))).walk()
          if c.name == "VEVENT"][0]
    assert ev.decoded("dtstart") == dt.datetime(2027, 1, 1, 3, tzinfo=dt.UTC)  # 11:00 in Shanghai
    assert all(len(line.encode()) <= 75 for line in text.split("\r\n"))


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "shensha_plates", "find", *args], cwd=REPO, capture_output=True,
                          text=True, timeout=120)


def test_the_command_line() -> None:
    proc = _cli("--from", "2027-01-01", "--to", "2027-01-31", "--where", "天德@day", "--format", "json")
    assert proc.returncode == 0, proc.stderr
    rows = json.loads(proc.stdout)
    assert rows and {"date", "state", "matched"} <= set(rows[0])
    assert dt.datetime.fromisoformat(rows[0]["date"]).utcoffset() == dt.timedelta(hours=8)
    bad = _cli("--from", "2027-01-01", "--to", "2027-01-31", "--where", "天马@东")
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and "invalid place" in bad.stderr
    back = _cli("--from", "2027-02-01", "--to", "2027-01-01", "--where", "day=子")
    assert back.returncode == 2 and "end is before the start" in back.stderr
    assert "find" in subprocess.run([sys.executable, "-m", "shensha_plates", "--help"], cwd=REPO, capture_output=True,
                                    text=True, timeout=120).stdout
