"""The method's structure over all 720 lessons (60 days × 12 turns of the heaven plate) and over every
combination of settings: transmissions depend only on the day and the turn; 伏吟 and 返吟 exactly when
heaven = earth / opposite; every step names a rule and reads as a sentence; the generals, hidden stems
and voids follow their rules. Property tests draw days, hours, generals and settings at random."""

from __future__ import annotations

import itertools

from hypothesis import given
from hypothesis import strategies as st

from shensha_plates.core.cycle import (BRANCHES, STEMS, branch_phase_index, overcomes, stem_palace, stem_phase_index,
                                      xun_of, xun_void)
from shensha_plates.core.liuren import KeOptions, compute_ke, course, liuren_tables
from shensha_plates.core.liuren.method import METHOD_SETTINGS
from shensha_plates.core.liuren.plate import kin

TABLES = liuren_tables()
ALL_METHOD_OPTIONS = [KeOptions.from_choices(dict(zip(METHOD_SETTINGS, combo, strict=True)))
                      for combo in itertools.product(*(tuple(c.id for c in TABLES.settings[s].choices)
                                                       for s in METHOD_SETTINGS))]


def test_transmissions_depend_only_on_day_and_turn() -> None:
    for day in range(60):
        for hour in range(12):
            for general in range(12):
                ke = compute_ke(day, hour, general)
                c = course(day, (general - hour) % 12)
                assert ke.course.transmissions == c.transmissions and ke.course.lessons == c.lessons, (day, hour)
                assert ke.course.steps == c.steps


def test_fuyin_and_fanyin_exactly_when_they_occur() -> None:
    for options in ALL_METHOD_OPTIONS:
        for day in range(60):
            for turn in range(12):
                c = course(day, turn, options)
                assert (c.method == "fuyin") == (turn == 0)
                assert (c.method == "fanyin") == (turn == 6)
                assert (c.steps[0].rule == "plate.fuyin") == (turn == 0) or c.steps[0].rule == "lessons.repeat"


def test_every_step_names_a_rule_and_reads() -> None:
    seen: set[str] = set()
    for options in ALL_METHOD_OPTIONS:
        for day in range(60):
            for turn in range(12):
                c = course(day, turn, options)
                assert c.method in TABLES.methods and c.steps
                for step in c.steps:
                    assert step.rule in TABLES.rules
                    text = step.text()
                    assert text and "{" not in text
                    seen.add(step.rule)
                    assert step.text("zh-Hant")
    # every rule of the data is reachable by some lesson under some setting
    assert set(TABLES.rules) - seen == set()


def test_chain_of_the_ordinary_methods() -> None:
    for day in range(60):
        for turn in range(12):
            c = course(day, turn)
            up = [lesson.upper for lesson in c.lessons]
            init, mid, last = c.transmissions
            if c.method in ("zeike", "biyong", "shehai", "yaoke", "fanyin") and c.ke != "井栏射":
                assert mid == (init + turn) % 12 and last == (mid + turn) % 12
                assert init in up
            if c.method in ("zeike", "biyong", "shehai"):
                assert any(lesson.relation for lesson in c.lessons)
            if c.method in ("maoxing", "biezhe", "bazhuan", "yaoke"):
                assert not any(lesson.relation for lesson in c.lessons)


def test_counts_printed_by_the_books() -> None:
    biezhe, jinglan, bazhuan_days = [], set(), set()
    for day in range(60):
        for turn in range(12):
            c = course(day, turn)
            name = STEMS[day % 10] + BRANCHES[day % 12]
            if c.method == "biezhe":
                biezhe.append((name, BRANCHES[c.lessons[0].upper]))
            if c.ke == "井栏射":
                jinglan.add(name)
            if c.method == "bazhuan":
                bazhuan_days.add(name)
    # the nine 别责 (《六壬粹言》: 刚日三课, 柔日六课) — 戊午 戊辰 丙辰 干上午, 辛丑 辛未 干上丑/未, 丁酉 干上巳, 辛酉 干上酉
    assert sorted(biezhe) == sorted([("戊午", "午"), ("戊辰", "午"), ("丙辰", "午"), ("辛丑", "丑"), ("辛丑", "未"),
                                     ("辛未", "丑"), ("辛未", "未"), ("丁酉", "巳"), ("辛酉", "酉")])
    # 《指南》: 丁未 己未 辛未 丁丑 己丑 辛丑 六课无克 (返吟)
    assert jinglan == {"丁未", "己未", "辛未", "丁丑", "己丑", "辛丑"}
    # 八专 only where the stem lodges on the day branch (甲寅 庚申 丁未 己未 癸丑)
    assert bazhuan_days <= {"甲寅", "庚申", "丁未", "己未", "癸丑"}


def test_repeated_lessons_counted_once() -> None:
    for day in range(60):
        for turn in range(12):
            c = course(day, turn)
            for lesson in c.lessons:
                if lesson.repeat_of is not None:
                    first = c.lessons[lesson.repeat_of - 1]
                    assert (first.upper, first.lower) == (lesson.upper, lesson.lower)
            assert c.distinct == len({(lesson.upper, lesson.lower) for lesson in c.lessons})


@given(day=st.integers(0, 59), hour=st.integers(0, 11), general=st.integers(0, 11),
       noble=st.sampled_from([c.id for c in TABLES.settings["noble"].choices]),
       daynight=st.sampled_from([c.id for c in TABLES.settings["daynight"].choices]))
def test_plate_properties(day: int, hour: int, general: int, noble: str, daynight: str) -> None:
    options = KeOptions.from_choices({"noble": noble, "daynight": daynight})
    ke = compute_ke(day, hour, general, options)
    hp = ke.plate
    assert hp.heaven[hour] == general
    assert sorted(hp.generals) == list(range(12))
    assert hp.general_of[hp.noble] == 0
    assert hp.forward == (hp.under(hp.noble) in TABLES.forward)
    step = 1 if hp.forward else -1
    assert all(hp.general_of[(hp.noble + step * k) % 12] == k for k in range(12))
    void = xun_void(xun_of(day))
    assert hp.void == void
    for b in range(12):
        assert (hp.hidden[b] is None) == (b in void)
    l1, l2, l3, l4 = ke.lessons
    assert l1.lower == stem_palace(STEMS[day % 10]) and l2.lower == l1.upper
    assert l3.lower == day % 12 and l4.lower == l3.upper
    for lesson, g in zip(ke.lessons, ke.lesson_generals, strict=True):
        assert hp.general_of[lesson.upper] == g
        assert lesson.upper == hp.heaven[lesson.lower]
        low = stem_phase_index(day % 10) if lesson.stem is not None else branch_phase_index(lesson.lower)
        upper = branch_phase_index(lesson.upper)
        assert (lesson.relation == "xia") == overcomes(low, upper)
        assert (lesson.relation == "shang") == (overcomes(upper, low) and not overcomes(low, upper))
    for t in ke.transmissions:
        assert t.general == hp.general_of[t.branch] and t.void == (t.branch in void)
        assert t.kin == kin(day % 10, t.branch) and t.stem == hp.hidden[t.branch]


def test_every_step_is_given_exactly_its_rule_fields() -> None:
    from shensha_plates.core.liuren.tables import RULE_FIELDS
    for options in ALL_METHOD_OPTIONS:
        for day in range(60):
            for turn in range(12):
                for step in course(day, turn, options).steps:
                    assert {k for k, _ in step.fields} == RULE_FIELDS[step.rule], step


def test_lesson_counts_of_the_cuiyan() -> None:
    """《六壬粹言》卷二 counts the lessons of each kind among the 720: 蒿矢 40, 弹射 25, 昴星 4 + 12, 别责 3 + 6,
    八专 顺 6 + 逆 10, 无亲 6, 复等 3 (one, and 戊辰 戊戌 返吟), 见机 53 + 察微 26 = 79. (Its 重审 256,
    元首 120 and 比用 95 do not add up with the rest to the 660 lessons that are not 伏吟; not tested.)"""
    from collections import Counter
    kinds: Counter[str] = Counter()
    for day in range(60):
        for turn in range(12):
            c = course(day, turn)
            key = c.ke
            if c.method == "bazhuan":
                key += "阳" if day % 2 == 0 else "阴"
            if c.method == "biezhe":
                key += "阳" if day % 2 == 0 else "阴"
            kinds[key] += 1
    assert kinds["蒿矢"] == 40 and kinds["弹射"] == 25
    assert kinds["虎视"] == 4 and kinds["冬蛇掩目"] == 12
    assert kinds["别责阳"] == 3 and kinds["别责阴"] == 6
    assert kinds["八专阳"] == 6 and kinds["八专阴"] == 10
    assert kinds["井栏射"] == 6 and kinds["缀瑕"] == 3
    assert kinds["见机"] + kinds["察微"] == 53 + 26
