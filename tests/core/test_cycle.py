"""The sexagenary foundations."""

from __future__ import annotations

import pytest

from shensha_plates.core.cycle import (
    BRANCHES, PILLARS, STEMS, XUN_HEADS, nayin, parse_branch, parse_month, parse_pillar, parse_stem,
    parse_xun, pillar_index, stem_palace, trigram_palace, xun_head_branch, xun_of, xun_void,
)
from shensha_plates.core.errors import InputError


def test_sixty_pillars_are_distinct_and_start_with_jiazi() -> None:
    assert len(set(PILLARS)) == 60
    assert PILLARS[0] == "甲子" and PILLARS[59] == "癸亥" and PILLARS[42] == "丙午"


@pytest.mark.parametrize("i", range(60))
def test_pillar_index_round_trip(i: int) -> None:
    assert parse_pillar(PILLARS[i]) == i
    assert pillar_index(i % 10, i % 12) == i


def test_mixed_polarity_pillar_is_refused() -> None:
    with pytest.raises(InputError, match="甲丑"):
        parse_pillar("甲丑")


@pytest.mark.parametrize("bad", ["", "甲", "子甲", "甲子丑", "AB", "１"])
def test_bad_pillars(bad: str) -> None:
    with pytest.raises(InputError):
        parse_pillar(bad)


def test_xun_and_void() -> None:
    # 六甲空亡 (seed 000): 甲子旬中无戌亥, 甲戌旬中无申酉, … 甲寅旬中无子丑.
    expected = ["戌亥", "申酉", "午未", "辰巳", "寅卯", "子丑"]
    for x, head in enumerate(XUN_HEADS):
        assert xun_of(parse_pillar(head)) == x
        assert BRANCHES[xun_head_branch(x)] == head[1]
        a, b = xun_void(x)
        assert BRANCHES[a] + BRANCHES[b] == expected[x]
    assert xun_of(parse_pillar("庚戌")) == parse_xun("甲辰")


def test_parse_helpers() -> None:
    assert parse_stem("丙") == 2 and parse_branch("亥") == 11
    assert [parse_month(x) for x in ("1", "正月", "寅", "冬", "十一", "腊", "丑", 12)] == [1, 1, 1, 11, 11, 12, 12, 12]
    assert parse_xun("甲辰旬") == 4
    for bad in ("0", "13", "卯月x", "甲"):
        with pytest.raises(InputError):
            parse_month(bad)
    with pytest.raises(InputError, match="xun"):
        parse_xun("乙丑")


def test_palaces() -> None:
    # 寄宫: 甲寅 乙辰 丙戊巳 丁己未 庚申 辛戌 壬亥 癸丑
    assert "".join(BRANCHES[stem_palace(s)] for s in STEMS) == "寅辰巳未巳未申戌亥丑"
    assert "".join(BRANCHES[trigram_palace(t)] for t in "乾艮巽坤") == "亥寅巳申"
    assert "".join(BRANCHES[trigram_palace(t, "kaoyuan")] for t in "乾艮巽坤") == "戌丑辰未"


def test_nayin_samples() -> None:
    assert nayin(parse_pillar("甲子")) == "海中金"
    assert nayin(parse_pillar("丙午")) == "天河水"
    assert nayin(parse_pillar("壬戌")) == "大海水"


UNICODE_DIGITS = ("²", "¹", "⑪", "⁵", "١١", "１１", "𝟏𝟏", "߁", "٣", "1١", "¹²", "๑")


@pytest.mark.parametrize("text", UNICODE_DIGITS)
def test_only_ascii_digits_make_a_month(text: str) -> None:
    """``int()`` reads ``'١١'`` as 11 and fails with a bare ValueError on ``'²'``: neither reaches the user."""
    with pytest.raises(InputError, match="invalid month"):
        parse_month(text)
    with pytest.raises(InputError, match="invalid month"):
        parse_month(text + "月")


def test_ascii_int() -> None:
    from shensha_plates.core.cycle import ascii_int
    assert [ascii_int(t) for t in ("0", "07", "123456789")] == [0, 7, 123456789]
    for bad in (*UNICODE_DIGITS, "", " 1", "+1", "-1", "1_0", "1e3", "0x1", "1234567890", "1" * 5000):
        assert ascii_int(bad) is None, bad
