"""Property tests over the core: every state and date gives a whole, rule-true plate.

The rules are read here a second time, straight from the catalog's TOML files with ``tomllib``,
and evaluated by a deliberately plain interpreter, so that the engine's precompiled tables are
checked against the catalog rather than against themselves.
"""

from __future__ import annotations

import datetime as dt
import tomllib
from collections import Counter
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from shensha_plates.core.calendar import CalendarOptions, from_datetime
from shensha_plates.core.catalog import label_branch
from shensha_plates.core.cycle import BRANCHES, pillar_name, xun_of
from shensha_plates.core.engine import DIALS, State, compute_plate, step_state
from tests.conftest import REPO

CATALOG_FILES = sorted((REPO / "shensha_plates" / "resources" / "catalog").glob("*.toml"))
RAW = [tomllib.loads(p.read_text(encoding="utf-8")) for p in CATALOG_FILES]
RAW_RINGS = {r["id"]: r for data in RAW for r in data.get("ring", [])}
RAW_SPIRITS = {s["id"]: s for data in RAW for s in data.get("spirit", [])}


# -- an independent reading of the rules -------------------------------------------------------

def key_value(key: str, state: State) -> int | None:
    m = state.month
    day = state.day
    return {
        "year_branch": state.year_branch, "year_stem": state.year_stem, "month": m - 1,
        "season": (m - 1) // 3, "mzj": (m - 1) % 3, "mgroup": (m - 1) % 4, "xun": state.xun,
        "day_stem": None if day is None else day % 10, "day_branch": None if day is None else day % 12,
    }[key]


def entries(values: Any) -> list[list[str]]:
    if isinstance(values, str):
        return [[ch] for ch in values]
    return [v.split() for v in values]


def anchor_of(anchor: dict[str, Any], value: int) -> int:
    if anchor["kind"] == "step":
        return (BRANCHES.index(anchor["start"]) + anchor["step"] * value) % 12
    if anchor["kind"] == "alternate":
        return (BRANCHES.index(anchor["start"]) + value // 2 + 6 * (value % 2)) % 12
    assert anchor["kind"] == "table"
    return BRANCHES.index(entries(anchor["values"])[value][0])


def rule_key(rule: dict[str, Any]) -> str | None:
    if rule["kind"] == "ring":
        return RAW_RINGS[rule["ring"]]["anchor"]["key"]
    if rule["kind"] == "opposite":
        return rule_key(RAW_SPIRITS[rule["of"]]["rule"])
    if rule["kind"] == "fixed":
        return None
    return rule["key"]


def labels(rule: dict[str, Any], state: State) -> list[str] | None:
    """The position labels of a rule in a state, or None when the state cannot tell."""
    kind = rule["kind"]
    if kind == "fixed":
        return [lb for e in entries(rule["values"]) for lb in e]
    if kind == "opposite":
        inner = labels(RAW_SPIRITS[rule["of"]]["rule"], state)
        return None if inner is None else [BRANCHES[(label_branch(lb) + 6) % 12] for lb in inner]
    value = key_value(rule_key(rule) or "", state)
    if value is None:
        return None
    if kind == "ring":
        if "at" in rule:
            return [rule["at"][value]]
        base = anchor_of(RAW_RINGS[rule["ring"]]["anchor"], value)
        offsets = rule["offset"] if isinstance(rule["offset"], list) else [rule["offset"]]
        return [BRANCHES[(base + o) % 12] for o in offsets]
    if kind == "table":
        return entries(rule["values"])[value]
    return [BRANCHES[anchor_of(rule, value)]]


def applies(spirit: dict[str, Any], state: State) -> bool:
    only = spirit.get("only")
    if only in ("yang_year", "yin_year"):
        return (state.year_branch % 2 == 0) == (only == "yang_year")
    if only in ("yang_day", "yin_day") and state.day is not None:
        return (state.day % 2 == 0) == (only == "yang_day")
    return True  # undecided without a day: shown, marked conditional


def reference(state: State) -> Counter[tuple[str, str]]:
    out: Counter[tuple[str, str]] = Counter()
    for sid, spirit in RAW_SPIRITS.items():
        if spirit["group"] in ("stem", "branch") and state.day is None:
            continue  # day spirits need a day, even the fixed ones
        lbs = labels(spirit["rule"], state)
        if lbs is None or not applies(spirit, state):
            continue
        if spirit.get("day_pillar") and state.day is not None:
            # the labels are days: in force on its own day only (without a day, shown conditional)
            lbs = [lb for lb in lbs if lb == pillar_name(state.day)]
        out.update((sid, lb) for lb in lbs)
    return out


# -- strategies ----------------------------------------------------------------------------------

@st.composite
def states(draw: st.DrawFn) -> State:
    year = draw(st.integers(0, 59))
    with_stem = draw(st.booleans())
    day = draw(st.one_of(st.none(), st.integers(0, 59)))
    xun = xun_of(day) if day is not None else draw(st.integers(0, 5))
    hour = draw(st.one_of(st.none(), st.integers(0, 11)))
    return State(year_branch=year % 12, month=draw(st.integers(1, 12)), xun=xun,
                 year_stem=year % 10 if with_stem else None, day=day, hour=hour)


moments = st.datetimes(min_value=dt.datetime(1901, 2, 20), max_value=dt.datetime(2099, 12, 31, 23, 59))


def assert_whole_and_true(state: State) -> None:
    plate = compute_plate(state)
    for rp in plate.rings:
        branches = [rp.branch_of_slot(k) for k in range(12)]
        assert sorted(branches) == list(range(12)), rp.ring.id  # twelve slots, each placed once
        for k, spirits in enumerate(rp.slots):
            for s in spirits:
                if (s.group in ("stem", "branch") and state.day is None) or not applies(RAW_SPIRITS[s.id], state):
                    continue
                assert any(p.spirit.id == s.id for p in plate.at(rp.branch_of_slot(k))), (rp.ring.id, s.id)
    got = Counter((p.spirit.id, p.at) for row in plate.positions for p in row)
    assert got == reference(state)
    for b, row in enumerate(plate.positions):
        for p in row:
            assert p.branch == b == label_branch(p.at)
            raw = RAW_SPIRITS[p.spirit.id]
            if raw.get("day_pillar"):  # a day's spirit: conditional on that day until a day is set
                assert p.conditional == (f"{p.at}日" if state.day is None else raw.get("condition"))


@given(states())
def test_every_state_gives_a_whole_plate_true_to_the_catalog(state: State) -> None:
    assert_whole_and_true(state)


@given(moments)
def test_every_date_in_range_gives_a_whole_plate(moment: dt.datetime) -> None:
    info = from_datetime(moment.replace(tzinfo=CalendarOptions().tzinfo()))
    assert_whole_and_true(info.state)


CYCLE = {"month": 12, "xun": 6, "day": 60}


@given(states(), st.sampled_from(DIALS), st.sampled_from((1, -1)))
def test_turning_a_dial_round_returns_to_the_same_plate(state: State, dial: str, direction: int) -> None:
    if dial == "day" and state.day is None:
        state = step_state(state, "day", 1)  # the first turn of the day dial sets a day; count from there
    n = CYCLE.get(dial, 12 if state.year_stem is None else 60)
    s = state
    seen = set()
    for _ in range(n):
        s = step_state(s, dial, direction)
        seen.add(s)
    assert s == state and len(seen) == n  # back home, and every step on the way was a new setting
    assert compute_plate(s).positions == compute_plate(state).positions
    if dial == "year":  # the 太岁 disc itself comes home after twelve branches
        twelve = state
        for _ in range(12):
            twelve = step_state(twelve, "year", direction)
        assert compute_plate(twelve).ring("U1").anchor == compute_plate(state).ring("U1").anchor


def test_the_reference_reading_is_not_empty() -> None:
    # a guard against a vacuous comparison: the reference must place the whole catalog
    full = reference(State(year_branch=0, month=1, xun=0, year_stem=0, day=0))
    assert len({sid for sid, _ in full}) >= 280
