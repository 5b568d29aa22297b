"""Date selection (seed 004): every printed table, entry by entry, read from the seed itself;
the derived tables against the rules the book states; the flying palaces against its 还宫 tables."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from shensha_plates.core.catalog import SEED_FILES
from shensha_plates.core.cycle import BRANCHES, PILLARS, STEMS, nayin
from shensha_plates.core.errors import CatalogError, InputError
from shensha_plates.core.selection import (
    PALACES, default_selection, flight_palace, general_return_months, load_selection, month_pillar,
    return_months, selection_plate,
)
from tests.conftest import REPO, SEEDS

needs_seeds = pytest.mark.skipif(not SEEDS.is_dir(), reason="the seeds (../shared/seeds) are not beside this checkout")
SIMPLE = str.maketrans({"離": "离", "兌": "兑"})

# seed row title (spaces removed) → spirit ids that must carry that row
ROWS = {
    "太歲": ["tai_sui"], "歲破（大耗）": ["sui_po"], "大耗（與歲破同）": ["sui_po"], "歲刑": ["sui_xing"],
    "六害": ["liu_hai"], "劫煞": ["jie_sha"], "災煞": ["zai_sha"], "歲煞": ["sui_sha"], "伏兵": ["fu_bing"],
    "炙退": ["zhi_tui"], "地官符": ["di_guan_fu"], "羅喉": ["luo_hou"], "大煞": ["da_sha"],
    "獨火": ["nian_du_huo"], "破敗五鬼": ["po_bai_wu_gui"], "大將軍": ["da_jiang_jun"],
    "太陰吊客": ["tai_yin", "diao_ke"], "喪門": ["sang_men"], "白虎": ["bai_hu"], "黃幡": ["huang_fan"],
    "豹尾": ["bao_wei"], "病符": ["bing_fu"], "死符小耗": ["si_fu", "xiao_hao"], "飛廉": ["fei_lian"],
    "奏書": ["zou_shu"], "博士": ["bo_shi"], "力士": ["li_shi"], "蠶室": ["can_shi"], "月建": ["yue_jian"],
    "月破": ["yue_po"], "月刑": ["yue_xing"], "月害": ["yue_hai"], "月厭地火": ["yue_yan"], "五鬼": ["wu_gui"],
    "厭對六儀": ["yan_dui"],
}
PALACE_ROWS = {"獨火", "破敗五鬼", "奏書", "博士", "力士", "蠶室"}


def seed_rows() -> dict[str, list[str]]:
    text = (SEEDS / SEED_FILES["004"]).read_text("utf-8").splitlines()
    rows: dict[str, list[str]] = {}
    for line in text:
        m = re.match(r"^\s*([^：:]{1,12})[：:]\s*((?:\S\s*){10,12})$", line)
        if not m:
            continue
        title = re.sub(r"\s+", "", m.group(1))
        chars = list(re.sub(r"\s+", "", m.group(2)))
        if len(chars) in (10, 12) and title not in ("年支", "歲支", "年干", "月份", "月分", "年"):
            rows[title] = chars
    return rows


def labels_of(sid: str, key_value: int) -> tuple[str, ...]:
    sp = default_selection().spirit(sid)
    assert sp.values is not None
    return sp.values[key_value]


@needs_seeds
@pytest.mark.parametrize("title", sorted(ROWS))
def test_every_printed_table_entry_by_entry(title: str) -> None:
    rows = seed_rows()
    assert title in rows, f"row {title} not found in seed 004"
    tokens = [t.translate(SIMPLE) for t in rows[title]]
    for sid in ROWS[title]:
        for i, token in enumerate(tokens):
            want = (token + "宫",) if title in PALACE_ROWS else (token,)
            assert labels_of(sid, i) == want, (title, sid, i)


@needs_seeds
def test_the_rows_split_over_lines_and_the_misprinted_one() -> None:
    text = re.sub(r"\s+", "", (SEEDS / SEED_FILES["004"]).read_text("utf-8"))
    # 天官符: printed over two lines
    assert "天官符：亥申巳寅亥申巳寅亥申巳寅" in text
    assert "".join(labels_of("tian_guan_fu", i)[0] for i in range(12)) == "亥申巳寅" * 3
    # 浮天空亡: two rows (palace and stem)
    assert "浮天空亡：離坎巽震坤乾兌艮乾坤壬癸辛庚乙甲丁丙甲乙" in text
    for i, (pal, stem) in enumerate(zip("离坎巽震坤乾兑艮乾坤", "壬癸辛庚乙甲丁丙甲乙", strict=True)):
        assert labels_of("fu_tian_kong_wang", i) == (pal + "宫", stem)
    # 大祸: the printed row is a variant; the chosen row follows the stated rule
    assert "大禍：丁乙癸辛丁乙辛癸丁乙辛癸" in text
    sp = default_selection().spirit("da_huo")
    assert "".join(e[0] for e in sp.variants[0].values or ()) == "丁乙癸辛丁乙辛癸丁乙辛癸"
    # 午未中間之丁 …: the stem between the second and third of the 三煞, year by year
    between = {"巳午": "丙", "午未": "丁", "寅卯": "甲", "卯辰": "乙", "亥子": "壬", "子丑": "癸", "申酉": "庚", "酉戌": "辛"}
    for y in range(12):
        jie, zai, sui = (labels_of(k, y)[0] for k in ("jie_sha", "zai_sha", "sui_sha"))
        assert labels_of("fu_bing", y)[0] == between[jie + zai] and labels_of("da_huo", y)[0] == between[zai + sui]


def wuhu_run(year_stem: int) -> list[str]:
    """The twelve month pillars from 寅, by 五虎遁."""
    return [PILLARS[month_pillar(year_stem, m)] for m in range(1, 13)]


def test_five_tigers_give_the_wu_ji_and_metal_spirits() -> None:
    kanyu = {"甲": "午未申酉", "乙": "辰巳", "丙": "子丑寅卯午未", "丁": "寅卯戌亥", "戊": "申酉子丑"}
    assert wuhu_run(0)[:4] == ["丙寅", "丁卯", "戊辰", "己巳"]  # 甲年五虎遁起丙寅
    for ys in range(10):
        run = wuhu_run(ys)
        wu_ji = tuple(p[1] for p in run if p[0] in "戊己")
        assert labels_of("wu_ji_du_tian", ys) == wu_ji
        mountains = "壬子癸丑艮寅甲卯乙辰巽巳丙午丁未坤申庚酉辛戌乾亥"
        between = tuple(mountains[mountains.index(wu_ji[i]) + 1] for i in range(0, len(wu_ji), 2))
        assert labels_of("jia_sha_du_tian", ys) == between  # 其辰巳中间之巽，为夹煞都天
        assert labels_of("tian_jin_shen", ys) == tuple(p[1] for p in run if p[0] in "庚辛")
        metal = tuple(p[1] for p in run if nayin(PILLARS.index(p)).endswith("金"))
        assert labels_of("di_jin_shen", ys) == metal
        union = set(labels_of("tian_jin_shen", ys)) | set(labels_of("di_jin_shen", ys))
        assert union == set(kanyu[STEMS[ys % 5]])  # 《堪舆经》


def test_yin_fu_readings() -> None:
    sp = default_selection().spirit("yin_fu_tai_sui")
    verse = {"甲": "艮丙巽辛", "乙": "乾甲酉丁巳丑", "丙": "子癸申辰坤乙", "丁": "午壬寅戌", "戊": "卯庚亥未"}
    old = sp.variants[0]
    assert old.verdict == "rejected"
    for ys in range(10):
        assert "".join(old.values[ys]) == verse[STEMS[ys % 5]]  # type: ignore[index]
    # 《义例》: 乙庚年兑乾为正、丁壬为旁; 丁壬年补乾, 戊癸年补坤
    assert set(labels_of("yin_fu_tai_sui", 1)) >= {"乾", "酉", "丁", "壬"}
    assert "乾" in labels_of("yin_fu_tai_sui", 3) and "坤" in labels_of("yin_fu_tai_sui", 4)


def test_silkworm_office_and_life_by_the_years_quarter() -> None:
    quarter = {b: q for q, bs in (("east", "寅卯辰"), ("south", "巳午未"), ("west", "申酉戌"), ("north", "亥子丑"))
               for b in bs}
    office = {"east": "戌", "south": "辰", "west": "辰", "north": "未"}  # 所生之库
    life = {"east": "亥", "south": "寅", "west": "巳", "north": "申"}    # 长生
    for y, b in enumerate(BRANCHES):
        assert labels_of("can_guan", y) == (office[quarter[b]],)
        assert labels_of("can_ming", y) == (life[quarter[b]],)


def test_flights_follow_the_books_examples() -> None:
    rules = default_selection()
    fly = lambda sid, yb, ys, m: flight_palace(rules.spirit(sid), yb, ys, m)  # noqa: E731
    assert fly("fei_tian_guan_fu", 0, 0, 1) == "中"   # 子年正月 … 遇亥字，则正月天官符在中宫
    assert fly("fei_tian_guan_fu", 0, 0, 3) == "震"   # 子年三月 … 顺数至震三，遇亥字
    assert fly("fei_di_guan_fu", 0, 0, 1) == "兑"     # 子年地官符在辰 … 正月 … 兑七遇辰字
    plate = selection_plate(0, 0, 1)                  # 甲年正月: 丙寅入中宫，丙在中五，丁在乾六
    assert {p.palace for p in plate.placements if p.spirit.id == "bing_ding_du_huo"} == {"中", "乾"}
    assert [fly("xiao_yue_jian", 0, 0, m) for m in (1, 2, 3)] == ["中", "乾", "兑"]  # 阳年正月中宫，二月乾，三月兑
    assert fly("xiao_yue_jian", 1, 1, 1) == "离"      # 阴年正月起离九
    assert fly("da_yue_jian", 0, 0, 1) == "艮"        # 子午卯酉年正月起八白
    assert fly("da_yue_jian", 4, 0, 1) == "中" and fly("da_yue_jian", 2, 0, 1) == "坤"


# Twelve branches fly through nine palaces, so 乾 and 兑 receive a second branch on the second
# round (9–11 steps on). The book's tables list only the first-round return; the second-round
# ones the flight also gives are these, and no others.
EXTRA_TIAN = {b: {12} for b in "申子辰"}
EXTRA_DI = {"巳": {9}, "午": {11}, "未": {12}}
# the general flies by his 干支 through the sixty (his seat's pillar comes round again after the
# month's): the book names one month each, the flight gives a second for these seats
EXTRA_GENERAL = {"酉": {12}, "子": {12}, "午": {7}}


def test_return_tables() -> None:
    rules = default_selection()
    tian = {"申子辰": (9, "乾"), "巳酉丑": (1, "坤"), "寅午戌": (8, "巽"), "亥卯未": (10, "艮")}
    for trine, (month, palace) in tian.items():
        for b in trine:
            yb = BRANCHES.index(b)
            got = return_months(rules.spirit("fei_tian_guan_fu"), yb, yb % 10)
            assert month in got and set(got) - {month} == EXTRA_TIAN.get(b, set()), b
            assert flight_palace(rules.spirit("fei_tian_guan_fu"), yb, yb % 10, month) == palace
    di = {"子": (7, "巽"), "丑": (8, "巽"), "寅": (1, "离"), "卯": (12, "坤"), "辰": (1, "坤"), "巳": (6, "兑"),
          "午": (8, "乾"), "未": (9, "乾"), "申": (6, "坎"), "酉": (9, "艮"), "戌": (10, "艮"), "亥": (7, "震")}
    for b, (month, palace) in di.items():
        yb = BRANCHES.index(b)
        got = return_months(rules.spirit("fei_di_guan_fu"), yb, yb % 10)
        assert month in got and set(got) - {month} == EXTRA_DI.get(b, set()), b
        assert flight_palace(rules.spirit("fei_di_guan_fu"), yb, yb % 10, month) == palace
    # 大将军还位定局: 占卯惟十月还震宫，占午惟正月还离宫，占酉惟六月还兑宫，占子惟六月还坎宫
    general = {"卯": 10, "午": 1, "酉": 6, "子": 6}
    for y in range(60):
        yb, ys = y % 12, y % 10
        seat = labels_of("da_jiang_jun", yb)[0]
        got = general_return_months(yb, ys)
        assert general[seat] in got and set(got) - {general[seat]} == EXTRA_GENERAL.get(seat, set()), PILLARS[y]
    # 大月建还位 (《利用》): 子午卯酉年正七月，辰戌丑未年八九月，寅申巳亥年十一月
    big = {"子午卯酉": (1, 7), "辰戌丑未": (8, 9), "寅申巳亥": (11,)}
    for group, months in big.items():
        for b in group:
            assert return_months(rules.spirit("da_yue_jian"), BRANCHES.index(b)) == months, b


def test_plate_places_every_spirit_and_marks_what_it_cannot() -> None:
    rules = default_selection()
    full = selection_plate(6, 2, 11)
    placed = {p.spirit.id for p in full.placements}
    assert placed == {s.id for s in rules.spirits} and not full.omitted
    no_stem = selection_plate(6, None, 11)
    assert set(no_stem.omitted) == {s.id for s in rules.spirits if s.key == "year_stem"} | {"bing_ding_du_huo"}
    for p in full.placements:
        assert all(m in "壬子癸丑艮寅甲卯乙辰巽巳丙午丁未坤申庚酉辛戌乾亥" for m in p.mountains)
        if p.palace:
            assert p.mountains == tuple(PALACES[p.palace])
    assert rules.spirit("sui_po").remedy == "none" and not rules.spirit("sui_po").has_remedy
    assert all(s.has_remedy for s in rules.spirits if s.id != "sui_po")
    assert len(rules.spurious) >= 25
    with pytest.raises(InputError):
        selection_plate(6, 3, 11)  # 丁 is yin, 午 yang: no such year
    with pytest.raises(InputError):
        selection_plate(6, 2, 13)
    # 《宗镜》's stem rule and the branch rule part in a 甲戌 year (甲 → 艮, 戌 → 中)
    chosen = {p.palace for p in selection_plate(10, 0, 1).placements if p.spirit.id == "da_yue_jian"}
    zongjing = {p.palace for p in selection_plate(10, 0, 1, {"da_yue_jian": "zongjing"}).placements
                if p.spirit.id == "da_yue_jian"}
    assert chosen == {"中"} and zongjing == {"艮"}


@needs_seeds
def test_every_quote_is_in_seed_004() -> None:
    text = re.sub(r"\s+", "", (SEEDS / SEED_FILES["004"]).read_text("utf-8"))
    rules = default_selection()
    quotes = ([s.source.quote for s in rules.spirits] + [v.source.quote for s in rules.spirits for v in s.variants]
              + [s.source.quote for s in rules.spurious])
    assert [q for q in quotes if re.sub(r"\s+", "", q) not in text] == []


@pytest.mark.parametrize("old,new,field", [
    ('key = "year_branch"\nvalues = "卯戌', 'key = "year"\nvalues = "卯戌', "key"),
    ('values = "卯戌巳子辰申午丑寅酉未亥"', 'values = "卯戌巳子辰申午丑寅酉未"', "values"),
    ('values = "卯戌巳子辰申午丑寅酉未亥"', 'values = "卯戌巳子辰申午丑寅酉未X"', "values"),
    ('flight = { method = "branch", target = "da_sha" }', 'flight = { method = "branch", target = "nobody" }', "flight.target"),
    ('remedy = "none"', 'remedy = ""', "remedy"),
    ('flight = { method = "stem", stems = "丙丁" }', 'flight = { method = "stem", stems = "丙丁", speed = 2 }',
     "flight.speed = 2: is not a known field"),
    ('start = ["中", "离"], direction = 1 }', 'start = ["中", "离"], direction = 2 }', "flight.direction = 2: must be 1 or -1"),
    ('id = "printed_table"', 'name = "printed_table"', "variant[0].id = {"),
])
def test_damaged_rules_are_named(tmp_path: Path, old: str, new: str, field: str) -> None:
    text = (REPO / "shensha_plates" / "resources" / "systems" / "selection.toml").read_text("utf-8")
    assert old in text
    bad = tmp_path / "selection.toml"
    bad.write_text(text.replace(old, new, 1), "utf-8")
    with pytest.raises(CatalogError) as info:
        load_selection(bad)
    assert str(info.value).startswith(f"catalog {bad}") and "entry spirit " in str(info.value) and field in str(info.value)
