"""Seed 001's readings per pair when the 初传 (发用) stands over its earth branch in 冲, 害, 刑 or 破 (issue 25):
each relation worked out here from the seed's own rule (冲 opposite; 害 「自戌至卯横列于下，自酉至辰横加其上」; 刑
the seed's list; 破 「阳日破后四辰，阴日破前四辰」), and over the 720 lessons a lesson forms a pair's reading exactly
when its 初传 over the branch under it stands in that relation."""

from __future__ import annotations

import re
from functools import lru_cache

import pytest

from shensha_plates.core.cycle import BRANCHES, PILLARS
from shensha_plates.core.liuren import compute_ke
from shensha_plates.core.liuren.patterns import detect_patterns, patterns
from tests.conftest import SEEDS, needs_seeds

B = BRANCHES
# the seed's own order of the pairs in its 冲 and 破 passages (the pattern's name keeps it)
CHONG_ORDER = ["子午", "卯酉", "寅申", "巳亥", "丑未", "辰戌"]
PO_ORDER = ["午卯", "辰丑", "酉子", "戌未", "亥寅", "申巳"]
# 「丑刑戌，戌刑未……寅刑巳，巳刑申……子刑夘……夘刑子」 less 未刑辰 and 申刑亥, which it names only to reach the
# 自刑 (「辰冲戌为自刑」); 《世本》's 未刑丑 and 申刑寅 it rejects
XING = {("丑", "戌"), ("戌", "未"), ("寅", "巳"), ("巳", "申"), ("子", "卯"), ("卯", "子")}
ZIXING = "辰亥午酉"


def _po(p: int) -> int:
    """The branch ``p`` breaks: a yang branch the fourth behind it (counting itself), a yin one the fourth ahead."""
    return (p - 3) % 12 if p % 2 == 0 else (p + 3) % 12


def expected(x: int, y: int) -> set[str]:
    """The readings heaven branch ``x`` over earth branch ``y`` forms, from the relations' definitions."""
    a, b = B[x], B[y]
    out = set()
    if (x - y) % 12 == 6:
        out |= {p + "相冲" for p in CHONG_ORDER if set(p) == {a, b}}
    if (x + y) % 12 == 7:  # 戌…卯 below, 酉…辰 above: 卯辰, 寅巳, 丑午, 子未, 亥申, 戌酉
        out.add(f"{a}害{b}")
    if (a, b) in XING:
        out.add(f"{a}刑{b}")
    if x == y and a in ZIXING:
        out.add("自刑")
    if _po(x) == y:  # 「六反皆然」: either way round (the relation is mutual: _po(y) == x too)
        out |= {p[0] + "破" + p[1] for p in PO_ORDER if set(p) == {a, b}}
    return out


def _reading_ids() -> set[str]:
    return {p.id for p in patterns() if re.fullmatch(r"(chong|hai|xing|po)_[a-z_]+", p.id)
            and p.id not in ("chong_ri", "chong_chen", "xing_fayong")}


@lru_cache(maxsize=1)
def _lessons() -> list[tuple[int, int, int, int, set[str]]]:
    ids = _reading_ids()
    out = []
    for day in range(60):
        for turn in range(12):
            ke = compute_ke(day, 0, turn)
            first = ke.transmissions[0].branch
            found = {p.name for p in detect_patterns(ke) if p.id in ids}
            out.append((day, turn, first, ke.plate.under(first), found))
    return out


def test_the_relations_have_the_seeds_pairs() -> None:
    assert all(_po(_po(p)) == p for p in range(12))
    pairs = {(x, y): expected(x, y) for x in range(12) for y in range(12)}
    named = {n for v in pairs.values() for n in v}
    assert len(named) == 6 + 12 + 6 + 1 + 6 == len(_reading_ids())
    assert {p.name for p in patterns() if p.id in _reading_ids()} == named
    # 害 by the seed's rule is the six pairs it reads, both ways; 破 the six it lists
    assert {n for n in named if "害" in n} == {f"{p[0]}害{p[1]}" for p in
                                             "子未 未子 丑午 午丑 寅巳 巳寅 卯辰 辰卯 酉戌 戌酉 申亥 亥申".split()}
    assert {n for n in named if "破" in n} == {p[0] + "破" + p[1] for p in PO_ORDER}
    assert pairs[B.index("未"), B.index("丑")] == {"丑未相冲"} and pairs[B.index("申"), B.index("寅")] == {"寅申相冲"}
    assert pairs[B.index("巳"), B.index("申")] == {"巳刑申", "申破巳"}  # 「刑中有破」
    assert pairs[B.index("寅"), B.index("巳")] == {"寅刑巳", "寅害巳"}  # 「刑中有害」


def test_a_lesson_forms_a_pair_reading_exactly_when_its_initial_stands_in_the_relation() -> None:
    seen: set[str] = set()
    for day, turn, first, under, found in _lessons():
        assert found == expected(first, under), (PILLARS[day], turn, B[first], B[under])
        seen |= found
    # every reading forms somewhere but 丑害午: no lesson of the 720 takes 丑 over 午 as its 初传 (午 generates
    # 丑, no 克; nor does any other method pick it)
    assert {p.name for p in patterns() if p.id in _reading_ids()} - seen == {"丑害午"}
    assert not any((first, under) == (1, 6) for _, _, first, under, _ in _lessons())


@pytest.mark.parametrize("relation, name", [("冲", "子午相冲"), ("冲", "寅申相冲"), ("害", "子害未"), ("害", "卯害辰"),
                                            ("刑", "子刑卯"), ("刑", "丑刑戌"), ("刑", "自刑"), ("破", "午破卯"),
                                            ("破", "申破巳")])
def test_one_lesson_of_each_relation_forms_its_reading_and_its_neighbour_does_not(relation: str, name: str) -> None:
    """A lesson (found over the 720) whose 初传 stands in the relation shows the pair's reading with the seed's
    words; the same day at the next turn of the plate, where the 初传 stands elsewhere, does not."""
    hit = next((d, t, f, u) for d, t, f, u, found in _lessons() if name in found)
    day, turn, first, under = hit
    ke = compute_ke(day, 0, turn)
    p = next(p for p in detect_patterns(ke) if p.name == name)
    assert p.kind == "格" and p.pattern.source.file == "001" and p.why.startswith(f"初传{B[first]}临{B[under]}")
    assert relation in name
    nxt = compute_ke(day, 0, (turn + 1) % 12)
    f2 = nxt.transmissions[0].branch
    if name not in expected(f2, nxt.plate.under(f2)):
        assert name not in {q.name for q in detect_patterns(nxt)}


@needs_seeds
def test_each_reading_quotes_seed_001_and_says_its_words() -> None:
    text = re.sub(r"\s+", "", next(SEEDS.glob("001_*.txt")).read_text("utf-8"))
    for p in patterns():
        if p.id not in _reading_ids():
            continue
        assert p.source.file == "001"
        for part in p.source.quote.split("……"):
            assert part in text, (p.id, part)
        # the reading after the colon is the seed's own words (夘 written 卯)
        words = p.why.split("：", 1)[1]
        assert words.replace("卯", "夘") in text or words in text, p.id
