"""The eight relations of seed 001, entry by entry, and the ``relate`` command."""

from __future__ import annotations

import io
import json
import re
from itertools import combinations

import pytest

from shensha_plates.core.catalog import SEED_FILES
from shensha_plates.core.cli import main
from shensha_plates.core.cycle import BRANCHES, STEMS
from shensha_plates.core.errors import InputError
from shensha_plates.core.relations import relate
from tests.conftest import SEEDS


def details(a: str, b: str, kind: str | None = None) -> set[str]:
    return {r.detail for r in relate(a, b) if kind is None or r.kind == kind}


def test_six_unions_with_the_two_flawed_ones() -> None:
    pairs = {"子丑": "good", "寅亥": "mixed", "卯戌": "good", "辰酉": "good", "巳申": "mixed", "午未": "good"}
    for pair, quality in pairs.items():
        for a, b in (pair, pair[::-1]):
            six = [r for r in relate(a, b) if r.name == "六合"]
            assert len(six) == 1 and six[0].quality == quality, pair
    assert details("寅", "亥", "he") == {"寅亥合（破合）"} and details("巳", "申", "he") == {"巳申合（刑合）"}
    six_count = sum(1 for a, b in combinations(BRANCHES, 2) for r in relate(a, b) if r.name == "六合")
    assert six_count == 6


@pytest.mark.parametrize("trine,label", [("亥卯未", "木合"), ("寅午戌", "火合"), ("巳酉丑", "金合"), ("申子辰", "水合")])
def test_three_unions(trine: str, label: str) -> None:
    for a, b in combinations(trine, 2):
        assert details(a, b, "he") >= {f"{trine}{label}"}
    assert sum(1 for a, b in combinations(BRANCHES, 2) for r in relate(a, b) if r.name == "三合") == 12


def test_five_stem_unions_by_kind() -> None:
    expect = {"甲己": "中正合", "乙庚": "仁义合", "丙辛": "威权合", "丁壬": "淫泆合", "戊癸": "无情合"}
    for pair, kind in expect.items():
        assert details(pair[0], pair[1], "he") == {pair + kind} == details(pair[1], pair[0], "he")
    assert sum(1 for a, b in combinations(STEMS, 2) for r in relate(a, b) if r.kind == "he") == 5


def test_virtue_of_each_stem() -> None:
    # 寅己、申乙、巳辛、亥丁 as seed 001 says, the rest by the 干德 table
    for stem, branch in zip(STEMS, "寅申巳亥巳寅申巳亥巳", strict=True):
        assert details(stem, branch, "de") == {f"{branch}为{stem}德"} == details(branch, stem, "de")
        assert sum(1 for b in BRANCHES if details(stem, b, "de")) == 1


def test_tombs_of_the_ten_stems_and_of_the_phases() -> None:
    for stem, branch in zip(STEMS, "未戌戌丑戌丑丑辰辰未", strict=True):
        assert details(stem, branch, "mu") == {f"{branch}为{stem}墓（十干墓）"}
    assert details("亥", "辰", "mu") == {"辰为亥之五行墓"}
    assert all(r.note for r in relate("亥", "辰") if r.kind == "mu")


def test_breaks() -> None:
    for pair in ("午卯", "辰丑", "酉子", "戌未", "亥寅", "申巳"):
        assert details(pair[0], pair[1], "po") == {f"{pair[0]}破{pair[1]}"} == details(pair[1], pair[0], "po")
    assert sum(1 for a, b in combinations(BRANCHES, 2) if details(a, b, "po")) == 6
    assert [r.quality for r in relate("申", "巳") if r.kind == "po"] == ["mixed"]


def test_harms_carry_both_directions() -> None:
    for pair in ("子未", "丑午", "寅巳", "卯辰", "申亥", "酉戌"):
        r = [x for x in relate(pair[0], pair[1]) if x.kind == "hai"]
        assert len(r) == 1 and f"{pair[0]}加{pair[1]}" in r[0].meaning and f"{pair[1]}加{pair[0]}" in r[0].meaning
    assert sum(1 for a, b in combinations(BRANCHES, 2) if details(a, b, "hai")) == 6


def test_punishments_and_the_two_seed_001_rejects() -> None:
    assert details("丑", "戌", "xing") == {"丑刑戌（朋刑）"}
    assert details("寅", "巳", "xing") == {"寅刑巳（朋刑）"}
    assert details("子", "卯", "xing") == {"子刑卯（互刑）", "卯刑子（互刑）"}
    for b in "辰午酉亥":
        assert details(b, b, "xing") == {f"{b}{b}自刑"}
    for b in "子丑寅卯巳未申戌":
        assert not details(b, b, "xing")
    for a, b in (("未", "丑"), ("申", "寅")):
        disputed = [r for r in relate(a, b) if r.kind == "xing"]
        assert len(disputed) == 1 and disputed[0].verdict == "rejected" and "庄氏" in (disputed[0].note or "")
    # every other punishment is accepted
    accepted = [r for a, b in combinations(BRANCHES, 2) for r in relate(a, b) if r.kind == "xing" and not r.verdict]
    assert len(accepted) == 6


def test_clashes_and_ghosts() -> None:
    for i in range(6):
        a, b = BRANCHES[i], BRANCHES[i + 6]
        assert details(a, b, "chong") == {f"{a}{b}相冲"}
    assert details("庚", "甲", "gui") == {"庚为甲之鬼（金克木）"}
    assert not details("辛", "甲", "gui")  # 阴 does not harm 阳 as a ghost
    assert details("申", "寅", "gui") == {"申为寅之鬼（金克木）"}
    assert not relate("子", "寅")


def test_bad_positions() -> None:
    for bad in ("x", "甲子", "", "月"):
        with pytest.raises(InputError, match="not a stem or branch"):
            relate(bad, "子")


@pytest.mark.skipif(not SEEDS.is_dir(), reason="the seeds (../shared/seeds) are not beside this checkout")
def test_every_quote_is_in_seed_001() -> None:
    text = re.sub(r"\s+", "", (SEEDS / SEED_FILES["001"]).read_text("utf-8"))
    quotes = {r.source.quote for a in STEMS + BRANCHES for b in STEMS + BRANCHES for r in relate(a, b)}
    assert len(quotes) > 30
    assert [q for q in quotes if re.sub(r"\s+", "", q) not in text] == []


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    return main(list(argv), out, err), out.getvalue(), err.getvalue()


def test_relate_command() -> None:
    code, out, _ = run("relate", "寅", "亥", "--format", "json")
    data = json.loads(out)
    assert code == 0 and [r["name"] for r in data["relations"]] == ["六合", "破"]
    assert set(data["relations"][0]) >= {"name", "name_trad", "kind", "quality", "meaning", "source"}
    code, out, _ = run("relate", "丑", "未", "--lang", "zh-Hant")
    assert code == 0 and "丑未相沖" in out and "辨：不取" in out
    code, out, err = run("relate", "寅", "乙丑")
    assert code == 2 and out == "" and "not a stem or branch" in err and err.count("\n") == 1
