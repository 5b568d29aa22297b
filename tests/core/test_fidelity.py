"""Fidelity to seed 002 (issue 15): positions read straight from the seed's words, each spirit's
own sentence (never a neighbour's), named conditions and day pillars, names, and sources that are
either a seed passage or a named book."""

from __future__ import annotations

import re
from collections import defaultdict

import pytest

from shensha_plates.core.catalog import SEED_FILES, default_catalog
from shensha_plates.core.cycle import BRANCHES, STEMS, month_branch, pillar_index
from shensha_plates.core.engine import Options, State, compute_plate
from shensha_plates.core.selection import default_selection
from tests.conftest import SEEDS

needs_seeds = pytest.mark.skipif(not SEEDS.is_dir(), reason="the seeds (../shared/seeds) are not beside this checkout")
# Branch words of the verses: 罡 is 天罡 (辰).
WORDS = {"罡": "辰"}


def seed(code: str = "002") -> str:
    return re.sub(r"\s+", "", (SEEDS / SEED_FILES[code]).read_text("utf-8"))


def branches_after(text: str, start: str, end: str) -> list[str]:
    """The branch words of the seed between ``start`` and the first ``end`` after it, in order."""
    i = text.index(start) + len(start)
    passage = text[i:text.index(end, i)]
    return [WORDS.get(ch, ch) for ch in passage if ch in BRANCHES or ch in WORDS]


def month_row(sid: str, options: Options | None = None) -> list[list[str]]:
    options = options or Options()
    return [sorted(p.at for p in compute_plate(State(year_branch=0, month=m, xun=0), options).find(sid))
            for m in range(1, 13)]


# -- misplaced ------------------------------------------------------------------------------------

@needs_seeds
def test_fei_lian_is_the_verse_month_by_month() -> None:
    verse = branches_after(seed(), "飞廉：", "。")
    assert len(verse) == 12  # 戌巳午未 寅卯辰 亥子丑 申酉
    assert month_row("fei_lian") == [[b] for b in verse]


def test_fei_lian_of_show_and_of_select_agree() -> None:
    """Seed 004's year 飛廉 by year branch and Zhuang's month 飞廉 by month branch are one mapping."""
    year_row = default_selection().spirit("fei_lian").values
    assert year_row is not None
    for m in range(1, 13):
        ours = [p.at for p in compute_plate(State(year_branch=0, month=m, xun=0)).find("fei_lian")]
        assert ours == list(year_row[month_branch(m)]), m


@needs_seeds
def test_seed_004_names_the_month_fei_lian_da_sha() -> None:
    assert "在歲名飛廉，在月名大煞" in seed("004")  # why lunar-python's month 大煞 is cross-checked as 飞廉


@needs_seeds
def test_huang_en_da_she_follows_the_verse_and_keeps_the_square_table_as_a_book_variant() -> None:
    verse = branches_after(seed(), "皇恩、大赦：", "就是这些方位")
    assert len(verse) == 12
    assert month_row("huang_en_da_she") == [[b] for b in verse]
    cat = default_catalog()
    table = cat.spirit("huang_en_da_she").variant("square_table")
    assert not table.source.file and table.source.book().startswith("《大六壬指南》")
    other = month_row("huang_en_da_she", Options.from_choices({"huang_en_da_she": "square_table"}))
    assert [m + 1 for m in range(12) if other[m] != [verse[m]]] == [10, 11]


# -- each spirit's own sentence -------------------------------------------------------------------

# spirit id → (a sentence of the seed that its meaning must carry, sentences it must not carry)
OWN = {
    "tai_yang": ("太阳是至尊之神，士人得到它，便能掌权、显贵", ("青龙煞",)),
    "ri_gui": ("昼鬼主公讼、是非，夜鬼主神祇、妖祟", ("鬼呼",)),
    "si_shen_day": ("死神主疾病凶险", ("白虎躅尸",)),
    "si_fu": ("死符占病多凶", ("申、亥、寅、巳、辰",)),
    "sui_xing": ("岁刑主官司、刑罚和责罚", ("所刑之支",)),
    "you_shen_season": ("游戏二神加临孟位，行人尚未到", ("游神忌出行",)),
    "tian_she": ("天赦能使灾祸消散，百事吉利", ("戊寅",)),
    "bing_fu_day": ("病符主疾病", ("去年",)),
    "xun_yi": ("旬乙为盗神，主盗贼", ("旬庚",)),
    "wang_shen_l4": ("亡神主防备亡失", ("诉讼",)),
    "ri_da_sha": ("日下逢大煞，凡事都忌讳", ("临家长",)),
    "zhi_he": ("凡合临日或入传，主和合、成就", ("凡事能够成功而不会破败",)),
    "yi_shen": ("未述其义", ("解除凶象",)),
    "qi_shen": ("未述其义", ("消除灾祸",)),
    "tai_sui": ("太岁、岁破不敢犯", ("一岁之君",)),
}


@needs_seeds
@pytest.mark.parametrize("sid", sorted(OWN))
def test_each_spirit_carries_its_own_sentence(sid: str) -> None:
    must, must_not = OWN[sid]
    text = seed()
    meaning = default_catalog().spirit(sid).meaning
    assert must in meaning
    assert must in text or must == "未述其义" or must == "太岁、岁破不敢犯"
    assert not any(w in meaning for w in must_not)


@needs_seeds
def test_tai_sui_cites_seed_004_for_its_meaning() -> None:
    note = default_catalog().spirit("tai_sui").note or ""
    quote = re.search(r"「(.+?)」", note)
    assert quote and quote.group(1) in seed("004")


# Spirits that may share one sentence: the seed speaks of them together, or says they are the same.
SHARED = [
    {"gu", "gua"}, {"you_shen_season", "xi_shen"}, {"you_shen", "tai_shen"}, {"sheng_xin", "yu_yu"},
    {"ri_mu", "zhi_mu"}, {"wang_shen", "zhi_wang"},
]


def test_no_spirit_borrows_another_spirits_sentence() -> None:
    by_meaning: dict[str, set[str]] = defaultdict(set)
    cat = default_catalog()
    for s in cat.spirits:
        by_meaning[s.meaning].add(s.id)
    shared = [ids for ids in by_meaning.values()
              if len({cat.spirit(i).name for i in ids}) > 1 and ids not in SHARED]
    assert not shared


def test_no_meaning_is_only_the_rule() -> None:
    cat = default_catalog()
    assert [s.id for s in cat.spirits if s.meaning.rstrip("。") == s.source.quote and "主" not in s.meaning] == []


# -- values the seed does not give ---------------------------------------------------------------

def _day_row(sid: str, options: Options | None = None) -> list[list[str]]:
    options = options or Options()
    return [sorted(p.at for p in compute_plate(State(year_branch=0, month=1, xun=d // 10, day=d), options).find(sid))
            for d in range(10)]


@needs_seeds
def test_fu_xing_only_where_the_seed_says() -> None:
    assert "甲、乙日的福星取子、丑" in seed()
    assert _day_row("fu_xing") == [["子"], ["丑"]] + [[]] * 8
    pairs = _day_row("fu_xing", Options.from_choices({"fu_xing": "verse_pairs"}))
    assert pairs[:2] == [["子"], ["丑"]] and all(pairs)


def test_en_she_is_the_day_stem_itself() -> None:
    assert _day_row("en_she") == [[s] for s in STEMS]


@needs_seeds
def test_ri_dao_and_men_sha_use_only_the_branches_the_seed_lists() -> None:
    listed = set(branches_after(seed(), "亥、酉、辰、申、巳主奸诈言语；", "主盗贼同党"))
    assert listed == set("子亥卯巳")
    assert {b for row in _day_row("ri_dao") for b in row} == listed
    door = set(branches_after(seed(), "正、五、九月按三合轮转；", "煞称为门"))
    assert door == set("酉辰卯")  # the first word is 「三」, not a branch
    rows = [sorted(p.at for p in compute_plate(State(year_branch=0, month=m, xun=0)).find("men_sha")) for m in (1, 2, 3, 4)]
    assert rows == [[], ["酉"], ["辰"], ["卯"]]


def test_readings_from_outside_the_seeds_name_their_book() -> None:
    cat = default_catalog()
    for sid, vid in (("you_shen", "table_row"), ("men_sha", "square_table"), ("ri_dao", "square_table"),
                     ("huang_en_da_she", "square_table")):
        src = cat.spirit(sid).variant(vid).source
        assert src.file == "" and src.file_name is None and src.book().startswith("《")


def test_feng_sha_carries_no_reading_of_feng_bo() -> None:
    cat = default_catalog()
    feng_bo = month_row("feng_bo")
    for v in cat.spirit("feng_sha").variants:
        assert month_row("feng_sha", Options.from_choices({"feng_sha": v.id})) != feng_bo
    assert month_row("feng_sha") != feng_bo


# -- names ----------------------------------------------------------------------------------------

@needs_seeds
@pytest.mark.parametrize("name,sid", [("小往亡", "wang_wang"), ("和合", "sheng_xin"), ("富神", "yu_yu")])
def test_other_names_from_the_seed_are_found(name: str, sid: str) -> None:
    assert name in seed()
    assert [s.id for s in default_catalog().find(name)] == [sid]


# -- named conditions and day pillars -------------------------------------------------------------

@needs_seeds
@pytest.mark.parametrize("sid,host,words", [
    ("ku_shen_xia_lei", "ku_shen", "在亥、子上见到，称为哭神下泪"),
    ("bai_hu_zhu_shi", "si_shen", "若与白虎相并，称为白虎躅尸"),
])
def test_named_conditions_are_marked_where_their_host_lies(sid: str, host: str, words: str) -> None:
    assert words in seed()
    for m in range(1, 13):
        plate = compute_plate(State(year_branch=0, month=m, xun=0))
        named = plate.find(sid)
        assert [p.branch for p in named] == [p.branch for p in plate.find(host)]
        assert all(p.conditional for p in named)


@pytest.mark.parametrize("sid,pillars", [
    ("tian_zhuan", ("乙卯", "丙午", "辛酉", "壬子")), ("di_zhuan", ("辛卯", "戊午", "癸酉", "丙子")),
    ("tian_she", ("戊寅", "甲午", "戊申", "甲子")),
])
def test_day_pillar_spirits_hold_only_on_their_day(sid: str, pillars: tuple[str, ...]) -> None:
    for season, pillar in enumerate(pillars):
        month = season * 3 + 1
        no_day = compute_plate(State(year_branch=0, month=month, xun=0)).find(sid)
        assert [(p.at, p.conditional) for p in no_day] == [(pillar, f"{pillar}日")]
        day = pillar_index(STEMS.index(pillar[0]), BRANCHES.index(pillar[1]))
        on = compute_plate(State(year_branch=0, month=month, xun=day // 10, day=day)).find(sid)
        assert [(p.at, p.conditional) for p in on] == [(pillar, None)]
        other = (day + 12) % 60  # same branch, another stem: not this spirit's day
        assert compute_plate(State(year_branch=0, month=month, xun=other // 10, day=other)).find(sid) == ()


# -- source lines ---------------------------------------------------------------------------------

def test_source_lines_name_the_book_and_json_keeps_the_file() -> None:
    for s in default_catalog().spirits:
        for src in [s.source] + [v.source for v in s.variants]:
            line = src.line()
            assert line.startswith("《") and ".txt" not in line
            data = src.to_json()
            assert data["book"] == src.book()
            if src.file:
                assert data["file"] == src.file and data["file_name"] == SEED_FILES[src.file]
    assert default_catalog().spirit("tai_yang").source.line(trad=True).startswith("《大六壬指南》")
