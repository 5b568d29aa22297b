"""Zhuang's spirits on the Liu Ren plate and the names that need it: in force exactly when their
condition holds (checked against an independent reading of names.toml over random states), absent
otherwise, with the reading of 加临 switchable; seed 002's first case is 鬼呼."""

from __future__ import annotations

import datetime as dt
import tomllib
from zoneinfo import ZoneInfo

from hypothesis import given
from hypothesis import strategies as st

from shensha_plates.core.cycle import BRANCHES, xun_of
from shensha_plates.core.engine import State, compute_plate
from shensha_plates.core.liuren import KeOptions, compute_ke, compute_ke_at, liuren_tables, resolve_names, spirits_on
from tests.conftest import REPO

NAMES = {n["id"]: n for n in tomllib.loads((REPO / "shensha_plates" / "resources" / "liuren" / "names.toml")
                                           .read_text(encoding="utf-8"))["name"]}
GENERALS = [g.name for g in liuren_tables().generals]
ELEMENT = dict(zip(BRANCHES, "水土木木土火火土金金土水", strict=True))
STEM_ELEMENT = "木木火火土土金金水水"
KE = {"木": "土", "土": "水", "水": "火", "火": "金", "金": "木"}


def test_seed_first_case_is_gui_hu_and_its_spirits() -> None:
    ke, _, info = compute_ke_at(dt.datetime(1998, 11, 30, 12, tzinfo=ZoneInfo("Asia/Shanghai")))
    s = spirits_on(info.state, ke)
    names = {n.id: n for n in s.names}
    assert names["gui_hu"].in_force and BRANCHES[names["gui_hu"].branch or 0] == "戌"
    assert "午" in names["gui_hu"].reason
    # "支上为天目": the spirits on 三课's upper 丑 include 天目
    assert "天目" in [p.name for p in s.lessons[2].placements]
    assert not s.partial and len(s.lessons) == 4 and len(s.transmissions) == 3


def test_without_year_and_month_only_day_spirits_and_day_names() -> None:
    ke = compute_ke(17, 6, 2)
    s = spirits_on(None, ke)
    assert s.partial
    assert all(p.group in ("xun", "stem", "branch") for a in s.lessons + s.transmissions for p in a.placements)
    decided = {n.id: n.in_force for n in s.names}
    assert decided["gui_hu"] is True and decided["gu_ke"] is False and decided["qing_long_sha"] is None


@given(year=st.integers(0, 11), month=st.integers(1, 12), day=st.integers(0, 59), hour=st.integers(0, 11),
       general=st.integers(0, 11), reading=st.sampled_from(["earth", "heaven"]))
def test_names_in_force_exactly_when_their_condition_holds(year: int, month: int, day: int, hour: int,
                                                          general: int, reading: str) -> None:
    state = State(year_branch=year, month=month, xun=xun_of(day), day=day, hour=hour)
    options = KeOptions.from_choices({"jialin": reading})
    ke = compute_ke(day, hour, general, options)
    plate = compute_plate(state)
    hp = ke.plate
    for n in resolve_names(state, ke, options):
        raw = NAMES[n.id]
        where = sorted({p.branch for p in plate.find(raw["spirit"])}) if "spirit" in raw else []
        if raw["kind"] == "general_over":
            g = GENERALS.index(raw["general"])
            expected = any((hp.generals[e] if reading == "earth" else hp.general_of[e]) == g for e in where)
        elif raw["kind"] == "heaven_over":
            expected = any(BRANCHES[hp.heaven[e]] == raw["heaven"] for e in where)
        elif raw["kind"] == "spirit_on":
            expected = any(BRANCHES[(k - hp.turn) % 12] in raw["on"] for k in where)
        elif raw["kind"] == "void_initial":
            expected = ke.transmissions[0].branch in hp.void
        else:  # ghost_on_tomb: a heaven branch overcoming the day stem over the tomb's earth branch
            day_el = STEM_ELEMENT[day % 10]
            expected = any(KE[ELEMENT[BRANCHES[hp.heaven[e]]]] == day_el for e in where)
        assert n.in_force is expected, (n, where)
        assert n.reason


def test_gu_gua_names() -> None:
    # find plates whose 初传 is the yang / the yin void and check the name given
    seen = set()
    for day in range(60):
        for turn in range(12):
            ke = compute_ke(day, 0, turn)
            n = next(x for x in resolve_names(None, ke) if x.id == "gu_ke")
            init = ke.transmissions[0].branch
            yang, yin = ke.plate.void
            if n.in_force:
                seen.add(n.name)
                if init == yang and yin not in ke.course.transmissions[1:]:
                    assert n.name == "孤课"
                if init == yin and yang not in ke.course.transmissions[1:]:
                    assert n.name == "寡课"
            else:
                assert init not in (yang, yin)
    assert {"孤课", "寡课"} <= seen
