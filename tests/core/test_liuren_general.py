"""The month general from a date: it changes at the 中气, to the minute, through the calendar bridge
(lunar-python's term moments); at the 节 under the setting ``general_basis=jie``."""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shensha_plates.core.calendar import governing_term
from shensha_plates.core.cycle import BRANCHES
from shensha_plates.core.errors import CalendarError
from shensha_plates.core.liuren import KeOptions, liuren_tables, month_general_at

SH = ZoneInfo("Asia/Shanghai")
TABLES = liuren_tables()


def test_changes_at_the_zhongqi_to_the_second() -> None:
    xiaoxue = governing_term(dt.datetime(1998, 11, 30, 12, tzinfo=SH))
    assert xiaoxue.name == "小雪"
    moment = xiaoxue.moment
    before = month_general_at(moment - dt.timedelta(minutes=1))
    after = month_general_at(moment + dt.timedelta(minutes=1))
    assert (BRANCHES[before.general], before.term) == ("卯", "霜降")
    assert (BRANCHES[after.general], after.term) == ("寅", "小雪")
    assert BRANCHES[month_general_at(moment).general] == "寅"


def test_jie_basis_changes_at_the_jie() -> None:
    jie = KeOptions.from_choices(["general_basis=jie"])
    g = month_general_at(dt.datetime(1998, 11, 15, 12, tzinfo=SH), jie)
    assert (BRANCHES[g.general], g.term, g.basis) == ("寅", "立冬", "jie")
    assert BRANCHES[month_general_at(dt.datetime(1998, 11, 15, 12, tzinfo=SH)).general] == "卯"


def test_other_zones_compare_instants() -> None:
    moment = governing_term(dt.datetime(1998, 11, 30, 12, tzinfo=SH)).moment
    london = (moment + dt.timedelta(minutes=1)).astimezone(ZoneInfo("Europe/London"))
    assert BRANCHES[month_general_at(london).general] == "寅"


@given(st.datetimes(min_value=dt.datetime(1901, 3, 1), max_value=dt.datetime(2099, 12, 1)))
def test_general_is_the_table_entry_of_the_last_zhongqi(naive: dt.datetime) -> None:
    moment = naive.replace(tzinfo=SH)
    g = month_general_at(moment)
    term = governing_term(moment)
    assert term.moment <= moment and g.term == term.name
    assert g.general == TABLES.general_of_term(term.name, "zhongqi")
    # the general and the sun move together: each 中气 moves it one branch back (亥 戌 酉 …)
    later = month_general_at(term.moment + dt.timedelta(days=32))
    assert later.general == (g.general - 1) % 12


def test_naive_or_out_of_range_refused() -> None:
    with pytest.raises(CalendarError, match="naive"):
        month_general_at(dt.datetime(1998, 11, 30, 12))
    with pytest.raises(CalendarError, match="outside the supported range"):
        month_general_at(dt.datetime(2150, 1, 1, tzinfo=SH))
