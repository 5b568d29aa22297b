"""Seed 002's two worked Liu Ren cases, read from the seed text itself and reproduced exactly:
lessons (generals over uppers over lowers, printed right to left), transmissions and their generals.
The first case is also reproduced from its date alone (1998-11-30 12:00, Asia/Shanghai)."""

from __future__ import annotations

import datetime as dt
import re
from zoneinfo import ZoneInfo

import pytest

from shensha_plates.core.cycle import BRANCHES, STEMS, parse_pillar
from shensha_plates.core.liuren import compute_ke, compute_ke_at, liuren_tables
from tests.conftest import needs_seeds, seed_text

pytestmark = needs_seeds
SEP = "[　 ]+"


def printed_case(head: str) -> dict[str, object]:
    """The case after ``head`` (e.g. "寅午时，辛巳日。"): three transmissions, then the lessons as
    three rows (generals, uppers, lowers) printed from 四课 on the left to 一课 on the right."""
    seed = seed_text("002_b172610dbc9e798d.txt")
    start = seed.index(head) + len(head)
    text = seed[start:start + 120]
    rows = [r for r in text.split("。")][:6]
    trans = [tuple(re.split(SEP, r.strip())) for r in rows[:3]]
    gens, uppers, lowers = (re.split(SEP, r.strip()) for r in rows[3:6])
    return {"transmissions": trans, "generals": gens[::-1], "uppers": uppers[::-1], "lowers": lowers[::-1]}


def shown(ke: object) -> dict[str, object]:
    gen = liuren_tables().generals
    return {
        "transmissions": [(BRANCHES[t.branch], gen[t.general].short) for t in ke.transmissions],  # type: ignore[attr-defined]
        "generals": [gen[g].short for g in ke.lesson_generals],  # type: ignore[attr-defined]
        "uppers": [BRANCHES[lesson.upper] for lesson in ke.lessons],  # type: ignore[attr-defined]
        "lowers": [lesson.lower_name for lesson in ke.lessons],  # type: ignore[attr-defined]
    }


CASES = [("寅午时，辛巳日。", "辛巳", "午", "寅"), ("丑将，戌时，丁未日。", "丁未", "戌", "丑")]


@pytest.mark.parametrize(("head", "day", "hour", "general"), CASES)
def test_seed_case_by_pillars(head: str, day: str, hour: str, general: str) -> None:
    # the header names the general, hour and day the seed prints: check we read them right
    assert general in head and hour in head and day in head
    expected = printed_case(head)
    ke = compute_ke(parse_pillar(day), BRANCHES.index(hour), BRANCHES.index(general))
    got = shown(ke)
    got["transmissions"] = [tuple(x) for x in got["transmissions"]]  # type: ignore[attr-defined]
    assert got == expected


def test_first_case_from_its_date_alone() -> None:
    ke, term, info = compute_ke_at(dt.datetime(1998, 11, 30, 12, 0, tzinfo=ZoneInfo("Asia/Shanghai")))
    assert STEMS[ke.day % 10] + BRANCHES[ke.day % 12] == "辛巳"
    assert BRANCHES[ke.plate.hour] == "午" and BRANCHES[ke.general] == "寅" and term.term == "小雪"
    got = shown(ke)
    got["transmissions"] = [tuple(x) for x in got["transmissions"]]  # type: ignore[attr-defined]
    assert got == printed_case(CASES[0][0])


def test_seed_cases_methods() -> None:
    first = compute_ke(parse_pillar("辛巳"), BRANCHES.index("午"), BRANCHES.index("寅"))
    second = compute_ke(parse_pillar("丁未"), BRANCHES.index("戌"), BRANCHES.index("丑"))
    assert (first.method, first.ke) == ("zeike", "元首")
    assert (second.method, second.ke) == ("bazhuan", "八专")
    # the second case's lessons repeat: 一课 = 三课, 二课 = 四课, counted once
    assert [lesson.repeat_of for lesson in second.lessons] == [None, None, 1, 2]
