"""The 《毕法赋》: its hundred lines as data, each detected from the lesson where it can be or saying why
not; seed 002's first case reads two of them itself; independent second readings of a few lines over all
720 lessons; ``ke`` lists them; a damaged line is one clear error."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from shensha_plates.core.cli import main
from shensha_plates.core.cycle import BRANCHES, PILLARS, branch_phase_index, parse_pillar, stem_phase_index
from shensha_plates.core.errors import CatalogError
from shensha_plates.core.liuren import compute_ke
from shensha_plates.core.liuren.patterns import bifa_lines, detect_bifa, load_bifa
from tests.conftest import needs_seeds, seed_text

ALL = [compute_ke(d, h, (t + h) % 12) for d in range(60) for h in (0, 6) for t in range(12)]


def numbers(ke: object) -> set[int]:
    return {h.number for h in detect_bifa(ke)}  # type: ignore[arg-type]


def test_the_hundred_lines_each_detected_or_saying_why() -> None:
    lines = bifa_lines()
    assert [line.number for line in lines] == list(range(1, 101))
    assert all(line.detectable or line.reason for line in lines)
    detectable = [line for line in lines if line.detectable]
    assert len(detectable) >= 38
    seen = set().union(*(numbers(k) for k in ALL))
    # the lines that read the month (13 14 19 20 92) are read only with one: every month over the same lessons
    seen |= {h.number for k in ALL for m in range(12) for h in detect_bifa(k, month=m)}  # type: ignore[arg-type]
    rare = {54, 74, 39}  # 虎视逢虎 and 空空如也 need a rare plate (a repeated transmission for 74); 太阳照武 a day
    # hour whose general carries 玄武 (the 申 hour: tests/core/test_bifa_read.py), not 子 or 午
    yearly = {71, 72}  # 病符 and 丧吊 read the year: the plates (tests/core/test_bifa_month.py)
    assert {line.number for line in detectable} - seen <= rare | yearly


@needs_seeds
def test_seed_002s_first_case_reads_lines_47_and_48() -> None:
    """1998-11-30 午时, 辛巳日 寅将: "贵人乘天乙，乃是神祇；贵人履狱" — the 初传 午 is 辛's 鬼 riding 贵人
    (鬼乘天乙乃神祗), and the 贵人 stands on 戌 (贵虽在狱)."""
    text = seed_text("002_b172610dbc9e798d.txt")
    assert "贵人乘天乙，乃是神祇" in text and "贵人履狱" in text
    ke = compute_ke(PILLARS.index("辛巳"), BRANCHES.index("午"), BRANCHES.index("寅"))
    assert {47, 48} <= numbers(ke)


def test_independent_readings_over_every_lesson() -> None:
    """Lines 5, 6 (all yang, all yin), 31, 32 (the chain) and 74 (all void), each read again here."""
    for ke in ALL:
        got = numbers(ke)
        branches = [lesson.upper for lesson in ke.lessons] + [t.branch for t in ke.transmissions]
        assert (5 in got) == all(b % 2 == 0 for b in branches)
        assert (6 in got) == all(b % 2 == 1 for b in branches)
        ph = [branch_phase_index(t.branch) for t in ke.transmissions]
        stem = stem_phase_index(ke.day % 10)
        gen = lambda a, b: (b - a) % 5 == 1  # noqa: E731
        chain = (gen(ph[0], ph[1]) and gen(ph[1], ph[2]) and gen(ph[2], stem)) or (
            gen(ph[2], ph[1]) and gen(ph[1], ph[0]) and gen(ph[0], stem))
        assert (31 in got) == chain
        assert (74 in got) == all(t.void for t in ke.transmissions)


def test_seed_001s_examples_read_as_lines_21_and_22() -> None:
    from shensha_plates.core.cycle import stem_palace
    ke = compute_ke(parse_pillar("甲申"), 0, (BRANCHES.index("巳") - stem_palace("甲")) % 12)
    assert 21 in numbers(ke)  # 交车相合交关利
    assert 22 in numbers(compute_ke(parse_pillar("乙酉"), 0, 6))  # 上下皆合两心齐, 返吟


def test_ke_lists_the_lines() -> None:
    out = io.StringIO()
    assert main(["ke", "--date", "1998-11-30T12:00", "--format", "json"], out=out, err=io.StringIO()) == 0
    bifa = json.loads(out.getvalue())["bifa"]
    numbers_ = [b["number"] for b in bifa]
    assert numbers_ == sorted(numbers_) and {47, 48} <= set(numbers_)  # in the book's order (46 贵人差迭 before them)
    assert bifa[numbers_.index(48)] == {"number": 48, "verse": "鬼乘天乙乃神祗", "why": "三传中辛之鬼乘天乙贵人",
                                        "why_en": "In the transmissions a ghost of 辛 carries the Noble"}
    text = io.StringIO()
    assert main(["ke", "--date", "1998-11-30T12:00", "--lang", "zh-Hant"], out=text, err=io.StringIO()) == 0
    assert "畢法賦：" in text.getvalue() and "47. 貴雖在獄" in text.getvalue()


def test_a_damaged_line_is_one_clear_error(tmp_path: Path) -> None:
    src = (Path(__file__).resolve().parents[2] / "shensha_plates" / "resources" / "liuren" / "bifa.toml").read_text("utf-8")
    for old, new, field in (("number = 7\n", "number = 8\n", "number"),
                            ('number = 3\nverse = "帘幕贵人高甲第"', 'number = 3\nverse = ""', "verse"),
                            ('kind = "xun_ends"', 'kind = "xun"', "test.kind")):
        assert old in src, old
        path = tmp_path / "bifa.toml"
        path.write_text(src.replace(old, new, 1), "utf-8")
        with pytest.raises(CatalogError) as e:
            load_bifa(path)
        assert e.value.field == field, e.value


# 《御定六壬直指》 quotes the 毕法赋 lines a lesson shows: (day, 干上, lines it quotes, those we detect)
ZHIZHI_BIFA = [
    # 丙子日 干上子: 「毕法云：三传互克众人欺，支干全伤防两损，彼此猜忌害相随」 (76: 干上子 害 支上未)
    ("丙子", "子", (32, 63, 76), (32, 63, 76)),
    # 庚寅日第七局 (寅加申): 「毕法云：干支值绝凡谋决，权摄不正禄临支」
    ("庚寅", "寅", (79, 8), (79, 8)),
]


@pytest.mark.parametrize("day, shang, quoted, detected", ZHIZHI_BIFA)
def test_zhizhi_quotes_of_the_bifa(day: str, shang: str, quoted: tuple[int, ...], detected: tuple[int, ...]) -> None:
    from shensha_plates.core.cycle import stem_palace
    turn = (BRANCHES.index(shang) - stem_palace(day[0])) % 12
    found = {h.number for h in detect_bifa(compute_ke(parse_pillar(day), 0, turn))}
    assert set(detected) <= found
    undetectable = {line.number for line in bifa_lines() if not line.tests}
    assert set(quoted) - set(detected) <= undetectable  # a quoted line we miss is one the data says we cannot read
