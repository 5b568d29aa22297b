"""The plate engine against Zhuang's worked setting and the tables typed from the sources."""

from __future__ import annotations

import tomllib
from dataclasses import replace
from typing import Any

import pytest

from shensha_plates.core.catalog import KEYS, default_catalog, label_branch
from shensha_plates.core.cycle import BRANCHES, pillar_index
from shensha_plates.core.engine import Options, State, compute_plate, step_state
from shensha_plates.core.errors import InputError
from tests.conftest import DATA

EXPECTED: dict[str, dict[str, Any]] = tomllib.loads((DATA / "expected_positions.toml").read_text("utf-8"))


def _entries(values: str | list[str]) -> list[tuple[str, ...]]:
    if isinstance(values, str):
        return [(c,) for c in values]
    return [tuple(v.split()) for v in values]


def _state_for(key: str, value: int) -> State:
    """A state in which ``key`` takes ``value`` (and a day, so that day spirits show)."""
    base = dict(year_branch=0, year_stem=0, month=1, xun=0, day=0)
    if key == "year_branch":
        base.update(year_branch=value, year_stem=value % 2)
    elif key == "year_stem":
        base.update(year_stem=value, year_branch=value % 12)
    elif key == "month":
        base.update(month=value + 1)
    elif key == "season":
        base.update(month=value * 3 + 1)
    elif key == "mzj":
        base.update(month=value + 1)
    elif key == "mgroup":
        base.update(month=value + 1)
    elif key == "xun":
        base.update(xun=value, day=value * 10)
    elif key == "day_stem":
        day = value  # 甲子 … 癸酉
        base.update(day=day, xun=day // 10)
    elif key == "day_branch":
        day = pillar_index(value % 2, value)
        base.update(day=day, xun=day // 10)
    return State(**base)


CASES = [(key, sid, spec) for key, section in EXPECTED.items() for sid, spec in section.items()]


@pytest.mark.parametrize("key,sid,spec", CASES, ids=[f"{k}-{s}" for k, s, _ in CASES])
def test_positions_match_the_sources(key: str, sid: str, spec: dict[str, Any]) -> None:
    cat = default_catalog()
    cat.spirit(sid)  # the spirit exists
    entries = _entries(spec["values"])
    assert len(entries) == KEYS[key], f"{sid}: the expected row has {len(entries)} entries"
    for value, labels in enumerate(entries):
        state = _state_for(key, value)
        if labels and all(len(lb) == 2 for lb in labels):
            state = replace(state, day=None)  # a day pillar: shown (conditional) when no day is set
        plate = compute_plate(state)
        got = sorted(p.at for p in plate.find(sid))
        assert got == sorted(labels), f"{sid} for {key}={value}: got {got}, expected {labels} ({spec['source']})"
        for p in plate.find(sid):
            assert p.branch == label_branch(p.at)


def test_zhuang_worked_setting() -> None:
    """子年 正月 甲子旬: 太岁 子, 岁驿 寅, 仪神 子, 奇神 丑; 天喜 戌, 月建 寅, 月合 亥, 月驿 申,
    成神 巳, 天马 午, 圣心 亥 (seed 002, the closing note on turning the plates)."""
    plate = compute_plate(State.parse(year="甲子", month="正月", xun="甲子", day="甲子"))
    anchors = {r.ring.id: BRANCHES[r.anchor] for r in plate.rings}
    assert anchors == {"U1": "子", "U2": "寅", "U3": "子", "U4": "丑", "L1": "戌", "L2": "寅",
                       "L3": "亥", "L4": "申", "L5": "巳", "L6": "午", "L7": "亥"}
    first = {r.ring.id: r.slots[0][0].name for r in plate.rings}
    assert first == {"U1": "太岁", "U2": "驿马", "U3": "仪神", "U4": "奇神", "L1": "天喜", "L2": "月建",
                     "L3": "神煞", "L4": "驿马", "L5": "驿合", "L6": "天马", "L7": "圣心"}
    names_at = lambda b: {p.name for p in plate.at(b)}  # noqa: E731
    assert {"太岁", "仪神"} <= names_at("子")
    assert "岁驿" not in names_at("寅") and "驿马" in names_at("寅")
    assert {"天喜", "月建", "月合", "成神", "天马", "圣心"} <= (names_at("戌") | names_at("寅") | names_at("亥")
                                                   | names_at("巳") | names_at("午"))


def test_every_ring_slot_is_placed_exactly_once() -> None:
    for month in range(1, 13):
        for yb in range(12):
            plate = compute_plate(State(year_branch=yb, month=month, xun=yb % 6))
            for ring in plate.rings:
                branches = [ring.branch_of_slot(k) for k in range(12)]
                assert sorted(branches) == list(range(12))
                for k, spirits in enumerate(ring.slots):
                    for s in spirits:
                        if s.only == "yang_year" and yb % 2 or s.only == "yin_year" and yb % 2 == 0:
                            continue
                        assert any(p.spirit is s and p.ring == ring.ring.id
                                   for p in plate.at(ring.branch_of_slot(k))), (s.id, month, yb)


def test_rings_turn_by_their_rules() -> None:
    prev = compute_plate(State(year_branch=0, month=1, xun=0))
    steps = {"L2": 1, "L3": -1, "L4": -3, "L5": 3, "L6": 2}
    for month in range(2, 13):
        plate = compute_plate(State(year_branch=0, month=month, xun=0))
        for rid, step in steps.items():
            assert plate.ring(rid).anchor == (prev.ring(rid).anchor + step) % 12
        # 圣心: 单月顺行，双月冲行
        sx = plate.ring("L7").anchor
        assert sx == ((prev.ring("L7").anchor + 6) % 12 if month % 2 == 0 else (prev.ring("L7").anchor - 6 + 1) % 12)
        prev = plate
    for yb in range(12):
        plate = compute_plate(State(year_branch=yb, month=1, xun=0))
        assert plate.ring("U1").anchor == yb and plate.ring("U2").anchor == (2 - 3 * yb) % 12


def test_turning_twelve_steps_returns() -> None:
    a = compute_plate(State(year_branch=3, month=5, xun=2, year_stem=1))
    b = compute_plate(State(year_branch=(3 + 12) % 12, month=(5 + 12 - 1) % 12 + 1, xun=2, year_stem=1))
    assert a.positions == b.positions


def test_conditional_and_polarity_spirits() -> None:
    yang = compute_plate(State.parse("甲子", 1, "甲子"))
    yin = compute_plate(State.parse("乙丑", 1, "甲子"))
    assert yang.find("yang_chan") and not yang.find("yin_chan")
    assert yin.find("yin_chan") and not yin.find("yang_chan")
    qls = yang.find("qing_long_sha")
    assert qls and qls[0].conditional == "青龙加临"
    # 瓦煞: without a day both readings show, marked; with a day only one.
    assert {p.conditional for p in yang.find("wa_sha_yang") + yang.find("wa_sha_yin")} == {"阳日", "阴日"}
    day = compute_plate(State.parse("甲子", 1, None, "乙丑"))
    assert not day.find("wa_sha_yang") and day.find("wa_sha_yin")[0].conditional is None


def test_stems_and_trigrams_keep_their_labels() -> None:
    plate = compute_plate(State.parse("甲子", 2, "甲子"))  # 二月: 天德 坤
    (td,) = plate.find("tian_de")
    assert td.at == "坤" and BRANCHES[td.branch] == "申"
    ky = compute_plate(State.parse("甲子", 2, "甲子"), Options.from_choices(["palaces=kaoyuan"]))
    assert BRANCHES[ky.find("tian_de")[0].branch] == "未"
    (md,) = plate.find("yue_de")
    assert md.at == "甲" and md.ring == "L4" and BRANCHES[md.branch] == "寅"


def test_variants_switch_and_leave_the_ring() -> None:
    s = State.parse("甲子", 2, "甲子")
    default = compute_plate(s)
    assert default.find("tian_xi")[0].at == "戌" and default.find("tian_xi")[0].ring == "L1"
    xieji = compute_plate(s, Options.from_choices(["tian_xi=shun_twelve"]))
    (p,) = xieji.find("tian_xi")
    assert p.at == "亥" and p.ring is None and p.variant == "shun_twelve"
    assert all(sp.id != "tian_xi" for sp in xieji.ring("L1").slots[0])
    # A variant of an opposite's target carries over (枉屈 is the 冲 of 相负).
    assert default.find("xiang_fu")[0].at == "亥" and default.find("wang_qu")[0].at == "巳"


@pytest.mark.parametrize("choice,message", [
    ("tian_xi=bogus", "unknown variant for tian_xi"),
    ("nobody=x", "unknown variant target"),
    ("tian_xi", "expected ID=CHOICE"),
    ("palaces=moon", "invalid palaces"),
])
def test_bad_variant_choices(choice: str, message: str) -> None:
    with pytest.raises(InputError, match=message):
        Options.from_choices([choice])


@pytest.mark.parametrize("args,message", [
    (("甲丑", 1, "甲子"), "pillar"),
    (("x", 1, "甲子"), "invalid year"),
    (("甲子", 13, "甲子"), "invalid month"),
    (("甲子", 1, "乙丑"), "xun"),
    (("甲子", 1, "甲子", "庚戌"), "belongs to 甲辰旬"),
    (("甲子", 1, None), "no xun"),
    (("甲子", 1, "甲子", None, "甲"), "branch"),
])
def test_bad_states(args: tuple[Any, ...], message: str) -> None:
    with pytest.raises(InputError, match=message):
        State.parse(*args)


def test_day_spirits_need_a_day_and_stems_need_a_stem() -> None:
    plate = compute_plate(State.parse("午", 11, "甲辰"))
    assert "gan_de" in plate.omitted and "tian_ting" in plate.omitted and "jin_shen_day" in plate.omitted
    assert not plate.find("gan_de") and not plate.find("tian_ting")
    full = compute_plate(State.parse("丙午", 11, None, "庚戌"))
    assert full.omitted == ()
    assert full.find("gan_de") and full.find("tian_ting") and full.find("jin_shen_day")


def test_order_is_deterministic_and_grouped() -> None:
    from shensha_plates.core.catalog import GROUPS
    order = list(GROUPS)
    plate = compute_plate(State.parse("丙午", 11, None, "庚戌"))
    for row in plate.positions:
        ring_part = [p for p in row if p.ring]
        assert row == compute_plate(State.parse("丙午", 11, None, "庚戌")).positions[row[0].branch] if row else True
        groups = [order.index(p.group) for p in row if p.group in ("stem", "branch")]
        assert groups == sorted(groups)
        assert ring_part  # every branch carries ring spirits


def test_all_month_and_year_combinations_are_total() -> None:
    for y in range(60):
        for m in range(1, 13):
            plate = compute_plate(State(year_branch=y % 12, year_stem=y % 10, month=m, xun=y // 10, day=y))
            assert plate.omitted == ()
            assert sum(len(r) for r in plate.positions) > 250


def test_a_fixed_rule_names_no_table_key() -> None:
    """Day spirits placed by a fixed rule (进神 in 子午卯酉) lie where they lie whatever the day:
    their placements carry no table key, like before the tables were built lazily."""
    plate = compute_plate(State.parse("丙午", 11, None, "庚戌"))
    fixed = [p for row in plate.positions for p in row if p.spirit.rule.kind == "fixed"]
    assert fixed and all(p.table is None and p.ring is None for p in fixed)
    keyed = [p for row in plate.positions for p in row if p.spirit.rule.kind == "table"]
    assert keyed and all(p.table is not None for p in keyed)


def test_plates_do_not_depend_on_the_order_they_are_asked_for() -> None:
    """The compiled tables fill in as plates need them: a plate asked for first, or after every
    other, is the same plate."""
    from shensha_plates.core.engine import _compile, _plate
    states = [State(year_branch=y % 12, year_stem=y % 10, month=1 + y % 12, xun=y // 10, day=y) for y in (0, 17, 59)]
    _compile.cache_clear()
    _plate.cache_clear()
    first = [compute_plate(s) for s in states]
    _compile.cache_clear()
    _plate.cache_clear()
    for y in range(60):
        for m in range(1, 13):
            compute_plate(State(year_branch=y % 12, month=m, xun=(y // 10 + m) % 6))
    _plate.cache_clear()
    assert [compute_plate(s) for s in reversed(states)][::-1] == first


def test_turn_to_anchor_is_the_fewest_turns_that_put_the_ring_there() -> None:
    """A drag asks for the state whose plate puts a ring's slot 0 on a branch: checked against whole
    plates (the answer itself reads only the ring's rule)."""
    from shensha_plates.core.engine import turn_to_anchor

    catalog = default_catalog()
    dial_of = {"year_branch": "year", "xun": "xun", "season": "month", "month": "month"}
    for state in (State.parse("丙午", 11, "甲辰"), State.parse("子", 1, "甲子"), State.parse("癸亥", 6, "甲寅", "丁巳")):
        for ring in catalog.rings:
            dial = dial_of[ring.key]
            anchors = {d: compute_plate(step_state(state, dial, d)).ring(ring.id).anchor for d in range(-6, 7)}
            for target in range(12):
                got = turn_to_anchor(state, ring, target)
                exact = [d for d, a in anchors.items() if a == target]
                if exact:
                    assert compute_plate(got).ring(ring.id).anchor == target
                    assert got == step_state(state, dial, min(exact, key=lambda d: (abs(d), d)))
                else:  # not reachable exactly: no turn comes nearer
                    near = min(min((a - target) % 12, (target - a) % 12) for a in anchors.values())
                    a = compute_plate(got).ring(ring.id).anchor
                    assert min((a - target) % 12, (target - a) % 12) == near
