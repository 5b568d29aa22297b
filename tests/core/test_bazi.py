"""Bazi chart spirits (seed 000), table by table and entry by entry, the pillars against
lunar-python's EightChar, the rules file's validation and the ``bazi`` command."""

from __future__ import annotations

import datetime as dt
import io
import json
import random
import re
from pathlib import Path

import pytest
from lunar_python import Solar

from shensha_plates.core.bazi import BaziOptions, chart, chart_for, default_bazi, load_bazi
from shensha_plates.core.calendar import CalendarOptions, parse_datetime
from shensha_plates.core.catalog import SEED_FILES
from shensha_plates.core.cli import main
from shensha_plates.core.cycle import BRANCHES, PILLARS, STEMS
from shensha_plates.core.errors import CatalogError
from tests.conftest import REPO, SEEDS

TRINES = {"申子辰": "水", "寅午戌": "火", "巳酉丑": "金", "亥卯未": "木"}


def pillar(stem: str | None = None, branch: str | None = None) -> int:
    for i, p in enumerate(PILLARS):
        if (stem is None or p[0] == stem) and (branch is None or p[1] == branch):
            return i
    raise AssertionError((stem, branch))


def fires(sid: str, year: int, month: int, day: int, hour: int, where: str, **opts: str) -> bool:
    c = chart(year, month, day, hour, BaziOptions(tuple(opts.items())))
    return any(h.spirit.id == sid and where in h.pillar.split("-") for h in c.hits)


# The seed's tables, written out again from its verses (not from the rules file).
BY_DAY_STEM = {
    "tian_yi_day": dict(zip(STEMS, "未申酉亥未子丑寅卯巳", strict=True)),  # 曹震圭：甲得未，乙得申… 戊同甲
    "tian_yi_night": dict(zip(STEMS, "丑子亥酉丑申未午巳卯", strict=True)),
    "wen_chang": {"甲": "巳", "乙": "午", "丙": "申", "戊": "申", "丁": "酉", "己": "酉", "庚": "亥", "辛": "子",
                  "壬": "寅", "癸": "卯"},
    "jin_yu": {"甲": "辰", "乙": "巳", "丙": "未", "戊": "未", "丁": "申", "己": "申", "庚": "戌", "辛": "亥",
               "壬": "丑", "癸": "寅"},
    "yang_ren": {"甲": "卯", "乙": "辰", "丙": "午", "戊": "午", "丁": "未", "己": "未", "庚": "酉", "辛": "戌",
                 "壬": "子", "癸": "丑"},
}
BY_DAY_TRINE = {
    "hua_gai": {"寅午戌": "戌", "巳酉丑": "丑", "申子辰": "辰", "亥卯未": "未"},
    "jiang_xing": {"寅午戌": "午", "巳酉丑": "酉", "申子辰": "子", "亥卯未": "卯"},
    "yi_ma": {"申子辰": "寅", "寅午戌": "申", "巳酉丑": "亥", "亥卯未": "巳"},
    "jie_sha": {"申子辰": "巳", "寅午戌": "亥", "巳酉丑": "寅", "亥卯未": "申"},
    "wang_shen": {"申子辰": "亥", "寅午戌": "巳", "巳酉丑": "申", "亥卯未": "寅"},
    "xian_chi": {"寅午戌": "卯", "巳酉丑": "午", "申子辰": "酉", "亥卯未": "子"},
}
SEASONS = {"春": "寅卯辰", "夏": "巳午未", "秋": "申酉戌", "冬": "亥子丑"}
BY_SEASON_DAY = {
    "tian_she": {"春": ["戊寅"], "夏": ["甲午"], "秋": ["戊申"], "冬": ["甲子"]},
    "si_fei": {"春": ["庚申", "辛酉"], "夏": ["壬子", "癸亥"], "秋": ["甲寅", "乙卯"], "冬": ["丙午", "丁巳"]},
    "tian_zhuan": {"春": ["乙卯"], "夏": ["丙午"], "秋": ["辛酉"], "冬": ["壬子"]},
    "di_zhuan": {"春": ["辛卯"], "夏": ["戊午"], "秋": ["癸酉"], "冬": ["丙子"]},
}


@pytest.mark.parametrize("sid", sorted(BY_DAY_STEM))
def test_day_stem_tables_entry_by_entry(sid: str) -> None:
    table = BY_DAY_STEM[sid]
    year, month = pillar("甲", "子"), pillar("丙", "寅")
    for stem in STEMS:
        day = pillar(stem)
        for b in BRANCHES:
            hour = pillar(None, b)
            expect = table[stem] == b
            assert fires(sid, year, month, day, hour, "hour") == expect, (sid, stem, b)
    # 飞刃 is the clash of 羊刃
    for stem in STEMS:
        opposite = BRANCHES[(BRANCHES.index(BY_DAY_STEM["yang_ren"][stem]) + 6) % 12]
        assert fires("fei_ren", year, month, pillar(stem), pillar(None, opposite), "hour")


@pytest.mark.parametrize("sid", sorted(BY_DAY_TRINE))
def test_trine_tables_entry_by_entry(sid: str) -> None:
    table = BY_DAY_TRINE[sid]
    for trine, target in table.items():
        for day_branch in trine:
            day = pillar(None, day_branch)
            for b in BRANCHES:
                assert fires(sid, pillar(None, "子"), pillar(None, "寅"), day, pillar(None, b), "hour") == (b == target), \
                    (sid, day_branch, b)


def test_the_month_virtues() -> None:
    tian_de = dict(zip("寅卯辰巳午未申酉戌亥子丑", "丁坤壬辛乾甲癸艮丙乙巽庚", strict=True))
    yuanhai = {"坤": "申", "乾": "亥", "巽": "巳", "艮": "寅"}
    kaoyuan = {"乾": "戌", "艮": "丑", "巽": "辰", "坤": "未"}
    for mb, label in tian_de.items():
        month = pillar(None, mb)
        for day in range(60):
            p = PILLARS[day]
            hit = p[0] == label if label in STEMS else p[1] == yuanhai[label]
            assert fires("tian_de", 0, month, day, 0, "day") == hit, (mb, p)
            hit_k = p[0] == label if label in STEMS else p[1] == kaoyuan[label]
            assert fires("tian_de", 0, month, day, 0, "day", tian_de="kaoyuan") == hit_k, (mb, p)
    yue_de = {"寅午戌": "丙", "申子辰": "壬", "亥卯未": "甲", "巳酉丑": "庚"}
    for trine, stem in yue_de.items():
        for mb in trine:
            for day in range(60):
                assert fires("yue_de", 0, pillar(None, mb), day, 0, "day") == (PILLARS[day][0] == stem)


@pytest.mark.parametrize("sid", sorted(BY_SEASON_DAY))
def test_season_day_tables(sid: str) -> None:
    for season, days in BY_SEASON_DAY[sid].items():
        for mb in SEASONS[season]:
            for day in range(60):
                assert fires(sid, 0, pillar(None, mb), day, 0, "day") == (PILLARS[day] in days), (sid, mb, day)


def test_void_and_lonely_by_the_day_xun() -> None:
    void = {"甲子": "戌亥", "甲戌": "申酉", "甲申": "午未", "甲午": "辰巳", "甲辰": "寅卯", "甲寅": "子丑"}
    for head, pair in void.items():
        day = PILLARS.index(head) + 3
        lonely = "".join(BRANCHES[(BRANCHES.index(b) + 6) % 12] for b in pair)
        for b in BRANCHES:
            assert fires("kong_wang", pillar(None, b), 0, day, pillar(None, "午"), "year") == (b in pair)
            assert fires("gu_xu", 0, 0, day, pillar(None, b), "hour") == (b in lonely)
        assert not fires("kong_wang", 0, pillar(None, pair[0]), day, 0, "month")  # 年支时支 only


def test_four_great_voids_ten_evils_and_the_nets() -> None:
    water = [i for i in range(60) if PILLARS[i] in ("丙子", "丁丑", "甲寅", "乙卯", "壬辰", "癸巳", "丙午", "丁未",
                                                  "甲申", "乙酉", "壬戌", "癸亥")]
    for head, phase in (("甲子", "水"), ("甲午", "水"), ("甲寅", "金"), ("甲申", "金"), ("甲戌", None), ("甲辰", None)):
        day = PILLARS.index(head) + 1
        if phase == "水":
            assert fires("si_da_kong_wang", water[0], 0, day, 0, "year")
        if phase is None:
            assert not any(fires("si_da_kong_wang", y, 0, day, 0, "year") for y in range(60))
    evil = "甲辰 乙巳 壬申 丙申 丁亥 庚辰 戊戌 癸亥 辛巳 己丑".split()
    for day in range(60):
        assert fires("shi_e_da_bai", 0, 0, day, 0, "day") == (PILLARS[day] in evil)
    fire_year = PILLARS.index("丙寅")  # 炉中火
    water_year, earth_year, metal_year = PILLARS.index("丙子"), PILLARS.index("庚午"), PILLARS.index("甲子")
    for day in range(60):
        b = PILLARS[day][1]
        assert fires("tian_luo", fire_year, 0, day, 0, "day") == (b in "戌亥")
        assert fires("di_wang", water_year, 0, day, 0, "day") == (b in "辰巳")
        assert fires("di_wang", earth_year, 0, day, 0, "day") == (b in "辰巳")
        assert not fires("tian_luo", metal_year, 0, day, 0, "day") and not fires("di_wang", metal_year, 0, day, 0, "day")


def test_three_wonders_run_in_order_only() -> None:
    for run in ("甲戊庚", "乙丙丁", "壬癸辛"):
        y, m, d = (pillar(s) for s in run)
        assert fires("san_qi", y, m, d, 0, "year")
        assert not fires("san_qi", d, m, y, 0, "year")  # 逆乱者非
        assert fires("san_qi", 0, y, m, d, "hour")


def test_variants_and_verdicts() -> None:
    rules = default_bazi()
    assert rules.spirit("yang_ren").variants[0].verdict == "rejected"
    day = pillar("乙")
    assert fires("yang_ren", 0, 0, day, pillar(None, "辰"), "hour")
    assert fires("yang_ren", 0, 0, day, pillar(None, "寅"), "hour", yang_ren="qianyuan")
    assert fires("jiang_xing", 0, 0, pillar(None, "酉"), pillar(None, "丑"), "hour", jiang_xing="shenfeng")
    with pytest.raises(ValueError, match="unknown variant"):
        BaziOptions.from_choices(["yang_ren=zz"])


def test_pillars_agree_with_lunar_pythons_eight_char() -> None:
    rng = random.Random(1990)
    opts = CalendarOptions(zone="Etc/GMT-8")  # UTC+8 all year, as lunar-python reckons
    for _ in range(400):
        d = dt.datetime(1901, 3, 1) + dt.timedelta(minutes=rng.randrange(198 * 365 * 24 * 60))
        c, _ = chart_for(d.replace(tzinfo=opts.tzinfo()), opts)
        ec = Solar.fromYmdHms(d.year, d.month, d.day, d.hour, d.minute, 0).getLunar().getEightChar()
        ec.setSect(1)  # the late 子 hour belongs to the next day, as our default
        assert c.pillar_names() == {"year": ec.getYear(), "month": ec.getMonth(), "day": ec.getDay(),
                                    "hour": ec.getTime()}, d


@pytest.mark.skipif(not SEEDS.is_dir(), reason="the seeds (../shared/seeds) are not beside this checkout")
def test_every_quote_is_in_seed_000() -> None:
    text = re.sub(r"\s+", "", (SEEDS / SEED_FILES["000"]).read_text("utf-8"))
    rules = default_bazi()
    quotes = [s.source.quote for s in rules.spirits] + [v.source.quote for s in rules.spirits for v in s.variants]
    assert [q for q in quotes if re.sub(r"\s+", "", q) not in text] == []
    assert {s.name.split("（")[0] for s in rules.spirits} >= {
        "天德", "月德", "天赦", "天乙贵人", "文昌", "华盖", "将星", "驿马", "三奇", "金舆", "空亡", "孤虚", "四大空亡",
        "十恶大败", "四废", "天转", "地转", "劫煞", "亡神", "天罗", "地网", "咸池", "羊刃", "飞刃"}


@pytest.mark.parametrize("old,new,field", [
    ('ref = "day_stem"', 'ref = "moon"', "ref"),
    ('values = "卯辰午未午未酉戌子丑"', 'values = "卯辰午未午未酉戌子"', "values"),
    ('look = ["year", "month", "hour"]\nmatch = "branch"\nvalues = "酉戌', 'look = ["noon"]\nmatch = "branch"\nvalues = "酉戌', "look"),
    ('quality = "good"', 'quality = "great"', "quality"),
    ('verdict = "rejected"', 'verdict = "maybe"', "verdict"),
    ('source = { file = "000", quote = "空亡对冲者为孤虚" }', 'source = { file = "009", quote = "x" }', "source.file"),
    ('verdict = "rejected"', 'verdict = "rejected"\ncolour = "red"', "variant[0].colour = 'red': is not a known field"),
    ('id = "tian_de"', 'id = "yue_de"', "id = 'yue_de': is used twice"),
])
def test_damaged_rules_name_file_entry_and_field(tmp_path: Path, old: str, new: str, field: str) -> None:
    text = (REPO / "shensha_plates" / "resources" / "systems" / "bazi.toml").read_text("utf-8")
    assert old in text
    bad = tmp_path / "bazi.toml"
    bad.write_text(text.replace(old, new, 1), "utf-8")
    with pytest.raises(CatalogError) as info:
        load_bazi(bad)
    msg = str(info.value)
    assert msg.startswith(f"catalog {bad}") and "entry spirit " in msg and field in msg
    bad.write_bytes(text.encode("utf-8")[:500])
    with pytest.raises(CatalogError, match="bazi.toml"):
        load_bazi(bad)


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    return main(list(argv), out, err), out.getvalue(), err.getvalue()


def test_bazi_command() -> None:
    code, out, _ = run("bazi", "--date", "1990-05-17T08:30", "--format", "json")
    data = json.loads(out)
    assert code == 0 and data["pillars"] == {"year": "庚午", "month": "辛巳", "day": "壬午", "hour": "甲辰"}
    for s in data["spirits"]:
        assert set(s) >= {"name", "name_trad", "pillar", "rule", "source"}
    assert {(s["name"], s["pillar"]) for s in data["spirits"]} >= {("天乙贵人（夜）", "month"), ("亡神", "month")}
    code, out, _ = run("bazi", "--date", "1990-05-17T08:30", "--lang", "zh-Hant")
    assert code == 0 and "時柱 甲辰" in out and "亡神" in out
    for argv, needle in ((["bazi"], "--date"), (["bazi", "--date", "1990-13-01"], "invalid date"),
                         (["bazi", "--date", "1990-05-17", "--variant", "tian_de=zz"], "unknown variant")):
        code, out, err = run(*argv)
        assert code == 2 and out == "" and needle in err and err.count("\n") == 1


def test_a_parsed_date_gives_the_same_chart_as_the_command() -> None:
    opts = CalendarOptions()
    c, info = chart_for(parse_datetime("2026-12-02T18:00", opts), opts)
    assert c.pillar_names() == {"year": "丙午", "month": "己亥", "day": "庚戌", "hour": "乙酉"}
    assert info.state.label().startswith("丙午年")
