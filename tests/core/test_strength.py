"""十二长生 and 旺相休囚死 of the transmissions: the tables, Zhuang's correction and the readings he
rejects, and what ``ke`` prints."""

from __future__ import annotations

import json
import re

import pytest

from shensha_plates.core.cli import main
from shensha_plates.core.cycle import BRANCHES, STEMS
from shensha_plates.core.liuren import liuren_tables
from shensha_plates.core.liuren.strength import STAGES, growth_stage, strength
from tests.conftest import needs_seeds, seed_text

# the 长生 of each stem, read from the passage (庄氏按语) and the usual 十干长生
BORN = {"zhuang": "亥午寅酉寅酉巳子申卯", "common": "亥午寅酉申卯巳子申卯"}


@pytest.mark.parametrize("reading", ["zhuang", "common"])
def test_every_stem_counts_its_twelve_stages_from_its_birth(reading: str) -> None:
    for s, stem in enumerate(STEMS):
        born = BRANCHES.index(BORN[reading][s])
        step = 1 if s % 2 == 0 else -1  # 阳干顺、阴干逆
        for k in range(12):
            assert STAGES[growth_stage(s, (born + step * k) % 12, reading)] == STAGES[k], (reading, stem, k)


def test_zhuang_and_the_common_reading_differ_only_for_the_earth_stems() -> None:
    for s in range(10):
        same = all(growth_stage(s, b) == growth_stage(s, b, "common") for b in range(12))
        assert same == (STEMS[s] not in "戊己"), STEMS[s]
    # the five-phase reading: forward only, earth with water
    assert STAGES[growth_stage(STEMS.index("乙"), BRANCHES.index("亥"), "wuxing")] == "长生"
    assert STAGES[growth_stage(STEMS.index("己"), BRANCHES.index("申"), "wuxing")] == "长生"


def test_strength_in_each_season() -> None:
    expected = {"寅": "木旺 火相 水休 金囚 土死", "午": "火旺 土相 木休 水囚 金死", "酉": "金旺 水相 土休 火囚 木死",
                "子": "水旺 木相 金休 土囚 火死", "辰": "土旺 金相 火休 木囚 水死"}
    phase_branch = {"木": "寅", "火": "午", "土": "戌", "金": "申", "水": "亥"}
    for month, words in expected.items():
        for word in words.split():
            assert strength(BRANCHES.index(phase_branch[word[0]]), BRANCHES.index(month)) == word[1], (month, word)


@needs_seeds
def test_the_readings_cite_zhuangs_passage() -> None:
    text = re.sub(r"\s+", "", seed_text("002_b172610dbc9e798d.txt"))
    setting = liuren_tables().settings["changsheng"]
    assert [c.id for c in setting.choices] == ["zhuang", "common", "wuxing"]
    for choice in setting.choices:
        assert choice.source.quote in text, choice.id


def test_ke_prints_stage_and_strength() -> None:
    import io
    out = io.StringIO()
    assert main(["ke", "--date", "1998-11-30T12:00", "--format", "json"], out=out, err=io.StringIO()) == 0
    data = json.loads(out.getvalue())
    assert [(t["branch"], t["changsheng"], t["wangshuai"]) for t in data["transmissions"]] == \
        [("午", "病", "死"), ("寅", "胎", "相"), ("戌", "冠带", "囚")]  # 辛日, 亥月
    assert data["growth"] == {"reading": "zhuang", "month_branch": "亥", "month_basis": "date"}
    text = io.StringIO()
    assert main(["ke", "--day", "戊子", "--hour", "子", "--general", "寅", "--variant", "changsheng=common"],
                out=text, err=io.StringIO()) == 0
    assert "长生旺衰（日干戊" in text.getvalue()
