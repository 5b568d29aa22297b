"""The 课体 of the 课经 (《六壬大全》 课经集) added for issue 25: each book example lesson forms its 课体, a
near-miss does not, and those that read the season, the year or the querent are not tried without them."""

from __future__ import annotations

from pathlib import Path

import pytest

from shensha_plates.core.cycle import BRANCHES, PILLARS, parse_pillar, stem_palace
from shensha_plates.core.engine import State, compute_plate
from shensha_plates.core.errors import CatalogError
from shensha_plates.core.liuren import KeOptions, compute_ke
from shensha_plates.core.liuren.ke import Ke
from shensha_plates.core.liuren.nianming import Querent, querent_on
from shensha_plates.core.liuren.patterns import detect_patterns, load_patterns, patterns, read_lesson

B = BRANCHES.index


def ke_at(day: str, hour: str, general: str, *variants: str) -> Ke:
    return compute_ke(parse_pillar(day), B(hour), B(general), KeOptions.from_choices(list(variants)))


def ke_turn(day: str, turn: int) -> Ke:
    return compute_ke(parse_pillar(day), 0, turn)


def gan_shang(day: str, branch: str) -> int:
    """The turn that puts ``branch`` over the day stem's lodging (干上)."""
    return (B(branch) - stem_palace(day[0])) % 12


def month_of(branch: str) -> int:
    return B(branch)


def names(ke: Ke, **kw: object) -> set[str]:
    return {p.name for p in detect_patterns(ke, **kw)}  # type: ignore[arg-type]


def plate_of(year: str, month: str, ke: Ke) -> object:
    """The plates of a year (by its branch) and a month (by its branch) on the lesson's day and hour."""
    return compute_plate(State(year_branch=B(year), month=(B(month) - 1) % 12 or 12, xun=ke.day // 10,
                               day=ke.day, hour=ke.plate.hour))


def test_plate_of_gives_the_month_asked() -> None:
    ke = ke_at("戊寅", "戌", "卯")
    for m in BRANCHES:
        assert plate_of("子", m, ke).state.month_branch == B(m)  # type: ignore[attr-defined]


# -- 三阳 -------------------------------------------------------------------------------------------

def test_sanyang_book_example() -> None:
    # 「如乙丑日酉时戌将，天乙子临亥顺行……寅为旺气加丑发用」: the book takes 酉时's 贵人 as the day one (子);
    # our default reads 酉时 as night (申), so the same heaven plate (戌 over 酉) is read at 申时 with 酉将
    ke = ke_at("乙丑", "申", "酉")
    assert ke.plate.noble == B("子") and ke.plate.under(ke.plate.noble) == B("亥") and ke.plate.forward
    assert "三阳" in names(ke, month=month_of("卯"))  # 戌将: the second month, 寅 旺
    assert "三阳" not in names(ke, month=month_of("酉"))  # the eighth: 寅 死
    assert "三阳" not in names(ke)  # no date: the season is not guessed
    assert "三阳" not in names(ke_at("乙丑", "酉", "戌"), month=month_of("卯"))  # 贵人 申, backward


# -- 三阴 -------------------------------------------------------------------------------------------

def test_sanyin_book_example() -> None:
    # 「如正月癸丑日卯时子将，占人申命，行年在丑……戌为死乘白虎凶将加癸为用，卯时属木，克人年丑土」
    ke = ke_at("癸丑", "卯", "子")
    nm = querent_on(Querent.parse("壬申", "m", 12), ke.plate.heaven, ke.plate.generals, None, None)
    assert nm is not None and nm.xing_nian.branch == B("丑") and nm.ben_ming.branch == B("申")
    assert "三阴" in names(ke, month=month_of("寅"), nian_ming=nm)
    assert "三阴" not in names(ke, month=month_of("寅"))  # 时克行年 needs the querent
    assert "三阴" not in names(ke, month=month_of("申"), nian_ming=nm)  # autumn: 戌 土 休
    other = querent_on(Querent.parse("壬申", "m", 13), ke.plate.heaven, ke.plate.generals, None, None)
    assert other is not None and other.xing_nian.branch == B("寅")  # 卯 does not overcome 寅
    assert "三阴" not in names(ke, month=month_of("寅"), nian_ming=other)


# -- 时泰 -------------------------------------------------------------------------------------------

def test_shitai_book_example() -> None:
    # 「如子年戌月戊寅日戌时卯将，子为太岁，又为日财德合加未为用，初传青龙，末传六合」
    ke = ke_at("戊寅", "戌", "卯")
    assert [BRANCHES[t.branch] for t in ke.transmissions] == ["子", "巳", "戌"]
    assert "时泰" in names(ke, plate=plate_of("子", "戌", ke))
    assert "时泰" in names(ke, month=month_of("子"))  # 月建 子 发用 is the other form
    assert "时泰" not in names(ke, plate=plate_of("丑", "戌", ke))
    assert "时泰" not in names(ke)


# -- 官爵 -------------------------------------------------------------------------------------------

def test_guanjue_book_example() -> None:
    # 「如未年二月丁亥日巳时戌将……岁月日命俱马在巳发用，传见魁常，为官爵课也」: the day's 马 suffices
    ke = ke_at("丁亥", "巳", "戌")
    assert "官爵" in names(ke)
    assert "官爵" in names(ke, plate=plate_of("未", "卯", ke))


def test_guanjue_needs_a_horse() -> None:
    """Lessons with 戌 and 太常 in the transmissions whose 初传 is no day's 马 form it only when the year's
    or the month's 马 is the 初传."""
    seen = 0
    for day in range(60):
        for turn in range(12):
            ke = compute_ke(day, 0, turn)
            trans = [t.branch for t in ke.transmissions]
            if 10 not in trans or not any(liu == 8 for liu in (t.general for t in ke.transmissions)):
                continue
            horse = {0: 2, 1: 11, 2: 8, 3: 5}[day % 12 % 4]
            assert ("官爵" in names(ke)) == (trans[0] == horse)
            if trans[0] != horse and trans[0] in (2, 5, 8, 11):
                month = next(m for m in range(12) if {0: 2, 1: 11, 2: 8, 3: 5}[m % 4] == trans[0])
                assert "官爵" in names(ke, month=month)
                seen += 1
    assert seen


# -- 富贵 -------------------------------------------------------------------------------------------

def test_fugui_book_example() -> None:
    # 「如二月辛巳日丑时戌将，寅命行年巳占，寅为天乙旺气临行年，日支巳相气，上下木火相生发用」
    ke = ke_at("辛巳", "丑", "戌")
    assert "富贵" in names(ke, month=month_of("卯"))
    assert "富贵" not in names(ke, month=month_of("酉"))  # 寅 死 in autumn
    assert "富贵" not in names(ke)


def test_fugui_variant_not_taken() -> None:
    """《观月经》's 四月壬子日申将卯时 (巳 乘贵人 加子) is 富贵 there; 巳 and 子 overcome, not 相生: not here."""
    ke = ke_at("壬子", "卯", "申")
    first = ke.transmissions[0]
    assert first.branch == B("巳") and first.general == 0 and ke.plate.under(first.branch) == B("子")
    assert "富贵" not in names(ke, month=month_of("巳"))


# -- 德庆 闭口 冲破 殃咎 亨通 龙战 死奇 -------------------------------------------------------------------

def test_deqing_book_example() -> None:
    # 「如戊子日戊时卯将占，巳为德神加子发用」 (戊时: 戌时)
    assert "德庆" in names(ke_at("戊子", "戌", "卯"))


def test_deqing_needs_a_kind_general() -> None:
    both = {True: 0, False: 0}
    for day in range(60):
        for turn in range(12):
            for hour in (0, 6):
                ke = compute_ke(day, hour, (turn + hour) % 12)
                first = ke.transmissions[0]
                de = first.branch in ((2, 8, 5, 11, 5, 2, 8, 5, 11, 5)[day % 10], (day % 12 + 5) % 12)
                if de:
                    kind = first.general in (0, 3, 5, 8, 10, 11)
                    assert ("德庆" in names(ke)) == kind
                    both[kind] += 1
    assert both[True] and both[False]


@pytest.mark.parametrize("day, hour, general", [("甲申", "卯", "子"), ("丙辰", "卯", "子"), ("丁酉", "酉", "午"),
                                                ("甲子", "子", "辰")])
def test_bikou_book_examples(day: str, hour: str, general: str) -> None:
    # 甲申日巳加申 and 丙辰日亥加寅 (旬尾加旬首); 丁酉日午加酉夜将 (旬首乘元武); 甲子日辰加子 (旬首上神乘元武)
    assert "闭口" in names(ke_at(day, hour, general))


def test_bikou_near_miss() -> None:
    ke = ke_at("甲申", "辰", "子")  # 辰 over 申 … : no xun's tail over its head, no 玄武 on the head
    assert "闭口" not in names(ke)


def test_chongpo_book_example() -> None:
    # 「如子年庚子日，午加卯占，子日以午为冲……卯为午破」
    ke = ke_at("庚子", "卯", "午")
    assert "冲破" in names(ke)
    assert "冲破" not in names(ke_at("庚子", "辰", "午"))  # 午 over 辰: no 破


@pytest.mark.parametrize("day, trans", [("己巳", "巳申寅"), ("丙子", "子未寅"), ("辛酉", "未子巳")])
def test_yangjiu_book_examples(day: str, trans: str) -> None:
    for turn in range(12):
        ke = ke_turn(day, turn)
        if "".join(BRANCHES[t.branch] for t in ke.transmissions) == trans:
            assert "殃咎" in names(ke)
            return
    raise AssertionError(f"no plate of {day} gives {trans}")


@pytest.mark.parametrize("day, shang", [("辛卯", "亥"), ("丙寅", "寅"), ("甲申", "酉"), ("壬寅", "子")])
def test_hengtong_book_examples(day: str, shang: str) -> None:
    # 互生 辛卯日干上亥支上辰, 俱生 丙寅日干上寅支上亥, 互旺 甲申日干上酉支上卯, 俱旺 壬寅日干上子支上卯
    assert "亨通" in names(ke_turn(day, gan_shang(day, shang)))


def test_hengtong_chain_example() -> None:
    # 「如丙戌日申时亥将，申加丙为用，初传申生中亥，亥生末传寅，寅生日干丙火」
    assert "亨通" in names(ke_at("丙戌", "申", "亥"))
    assert "亨通" not in names(ke_at("丙戌", "酉", "亥"))


@pytest.mark.parametrize("day, hour, general", [("丁卯", "辰", "戌"), ("乙卯", "辰", "巳")])
def test_longzhan_book_examples(day: str, hour: str, general: str) -> None:
    # 丁卯日辰时戌将卯加酉发用; 《观月经》乙卯日巳将辰时天罡临卯上发用
    assert "龙战" in names(ke_at(day, hour, general))


def test_longzhan_needs_a_mao_you_day() -> None:
    for day in range(60):
        for turn in range(12):
            ke = compute_ke(day, 0, turn)
            if "龙战" in names(ke):
                assert day % 12 in (3, 9) and ke.plate.under(ke.transmissions[0].branch) in (3, 9)


def test_siqi_book_example() -> None:
    # 「如甲子日丑时巳将占，辰为天罡，加子为用」
    assert "死奇" in names(ke_at("甲子", "丑", "巳"))
    assert "死奇" not in names(ke_at("甲子", "寅", "巳"))


# -- 天狱 魄化 盘珠 ---------------------------------------------------------------------------------------

def test_tianyu_book_examples() -> None:
    # 「如乙酉日春占，未土死气发用，斗罡系亥」; 《袖中金》「七月乙丑日巳加子」: 寅 秋死, 天罡临亥
    ke = ke_turn("乙酉", gan_shang("乙酉", "酉"))
    assert ke.transmissions[0].branch == B("未")
    assert "天狱" in names(ke, month=month_of("寅"))
    assert "天狱" not in names(ke, month=month_of("辰"))  # 辰 month: earth 旺
    ke = ke_turn("乙丑", (B("巳") - B("子")) % 12)
    assert ke.transmissions[0].branch == B("寅")
    assert "天狱" in names(ke, month=month_of("申"))


def test_pohua_book_examples() -> None:
    # 《订讹》「六月壬戌日……三传戌酉申，将得虎乘地下死神迫日辰」: 六月's 死神 is 戌
    ke = ke_at("壬戌", "未", "午")
    assert "魄化" in names(ke, month=month_of("未"))
    assert "魄化" in names(ke, month=month_of("卯"))  # spring: 戌 土 死 (《订讹》「及囚死」)
    assert "魄化" not in names(ke, month=month_of("申"))  # 七月: 死神 亥, 死气 子, 戌 土 休
    # 《观月经》「正月癸巳日寅时占，戌加癸为发用，上克下，白虎乘死气」: the book's 白虎 on 戌 is the day 贵人 巳
    # at 寅时, as the 寅至未 reading of day and night gives (our default has 贵人 卯 and 青龙 on 戌)
    assert "魄化" in names(ke_at("癸巳", "寅", "亥", "daynight=yin_wei"), month=month_of("寅"))
    assert "魄化" not in names(ke_at("癸巳", "寅", "亥"), month=month_of("寅"))


def test_panzhu_book_example() -> None:
    # 「如庚戌年十二丑月甲子日丑时子将占……年月日时、三传皆在四课之上」
    ke = ke_at("甲子", "丑", "子")
    assert "盘珠" in names(ke, plate=plate_of("戌", "丑", ke))
    assert "盘珠" not in names(ke, plate=plate_of("午", "丑", ke))
    assert "盘珠" not in names(ke)


# -- the month, the year and the querent: read when given, never guessed -------------------------------

def test_without_a_date_the_season_patterns_are_not_tried() -> None:
    dated = {p.name for p in patterns() if p.needs == "plate"}
    assert {"三阳", "三阴", "时泰", "富贵", "天狱", "魄化", "盘珠"} <= dated
    for day in range(0, 60, 7):
        for turn in range(12):
            assert not dated & names(compute_ke(day, 0, turn))


def test_the_plates_give_the_month() -> None:
    ke = ke_at("辛巳", "丑", "戌")
    plate = plate_of("午", "卯", ke)
    assert "富贵" in names(ke, plate=plate)
    hits, _ = read_lesson(ke, plate)  # type: ignore[arg-type]
    assert "富贵" in {h.name for h in hits}
    hits, _ = read_lesson(ke, month=month_of("卯"))
    assert "富贵" in {h.name for h in hits}


def test_the_why_names_the_month() -> None:
    hit = next(h for h in detect_patterns(ke_at("辛巳", "丑", "戌"), month=month_of("卯")) if h.name == "富贵")
    assert "卯月" in hit.why


# -- damaged data ---------------------------------------------------------------------------------------

GOOD = '''schema_version = 1
[[pattern]]
id = "x"
name = "x"
name_trad = "x"
name_en = "x"
kind = "课体"
source = { book = "daquan", quote = "q" }
why = "w"
[[pattern.test]]
'''


@pytest.mark.parametrize("test, field", [
    ('kind = "power"\nnames = ["initial"]\npowers = "旺盛"', "test.powers"),
    ('kind = "power"\nnames = ["moon"]\npowers = "旺相"', "test.names"),
    ('kind = "power"\nnames = ["initial"]', "test.powers"),
    ('kind = "initial_generals"\ngenerals = ["麒麟"]', "test.generals"),
    ('kind = "any"\nany = [[{ kind = "initial_de" }]]', "test.any"),
    ('kind = "any"\nany = [[{ kind = "initial_de" }], [{ kind = "nothing" }]]', "test.kind"),
    ('kind = "initial_month_spirit"\nnames = ["天喜"]', "test.names"),
    ('kind = "hour_relation"\nrelation = "overcome"', "test.places"),
    ('kind = "initial_horse"\nplaces = ["moon"]', "test.places"),
    ('kind = "any"\nforms = ["a"]\nany = [[{ kind = "initial_de" }], [{ kind = "initial_de" }]]', "test.forms"),
    ('kind = "initial_de"\nforms = ["a"]', "test.forms"),
    ('kind = "any"\nforms = ["a", "b"]\nlabel = 3\nany = [[{ kind = "initial_de" }], [{ kind = "initial_de" }]]', "test.label"),
    ('kind = "initial_he"\nnames = ["四合"]', "test.names"),
    ('kind = "uppers_he"\nnames = ["外"]', "test.names"),
    ('kind = "initial_xing"\nplaces = ["stem"]\nnames = ["冲"]', "test.names"),
    ('kind = "upper_generals"\nplaces = ["hour"]\ngenerals = ["贵人"]', "test.places"),
    ('kind = "place_upper_initial"\nplaces = ["ben_ming"]', "test.relation"),
    ('kind = "day_power"', "test.powers"),
])
def test_a_damaged_new_test_is_one_clear_error(tmp_path: Path, test: str, field: str) -> None:
    path = tmp_path / "patterns.toml"
    path.write_text(GOOD + test + "\n", encoding="utf-8")
    with pytest.raises(CatalogError) as err:
        load_patterns(path)
    assert err.value.field == field and "pattern x" in str(err.value)


def test_every_new_pattern_cites_the_book() -> None:
    new = {"sanyang", "sanyin", "shitai", "guanjue", "fugui", "deqing", "bikou", "chongpo", "yangjiu", "hengtong",
           "tianyu", "longzhan", "siqi", "pohua", "panzhu"}
    found = {p.id: p for p in patterns() if p.id in new}
    assert set(found) == new
    assert all(p.source.book == "daquan" and p.note for p in found.values())
    assert PILLARS  # the cycle is loaded


@pytest.mark.parametrize("test, field", [
    ('kind = "trans_kin"\nnames = ["子"]', "test.names"),
    ('kind = "upper_stage"\nplaces = ["stem"]\nstage = "胎"\nnames = ["lunar"]', "test.names"),
    ('kind = "item_stem"\nnames = ["stem"]\nrelation = "generate"', "test.names"),
    ('kind = "upper_month_spirit"\nplaces = ["stem"]\nnames = ["天喜"]', "test.names"),
    ('kind = "trans_relation"\nnames = ["moon"]\nrelation = "generate"', "test.names"),
    ('kind = "items_relation"\nnames = ["final"]\nrelation = "generate"', "test.names"),
    ('kind = "uppers_harm"\nnames = ["外"]', "test.names"),
    ('kind = "uppers_pair"', "test.pairs"),
])
def test_a_damaged_bifa_test_kind_is_one_clear_error(tmp_path: Path, test: str, field: str) -> None:
    path = tmp_path / "patterns.toml"
    path.write_text(GOOD + test + "\n", encoding="utf-8")
    with pytest.raises(CatalogError) as err:
        load_patterns(path)
    assert err.value.field == field


def test_a_reading_without_the_date_says_what_it_left_out() -> None:
    from shensha_plates.core.liuren.patterns import not_tried
    names, lines = not_tried()
    assert {"三阳", "三阴", "时泰", "富贵", "天狱", "魄化", "盘珠", "游子", "龙德", "年命乘墓"} <= set(names)
    assert set(lines) == {13, 14, 19, 20, 65, 71, 72, 92}
    assert "官爵" not in names and "亨通" not in names  # read from the lesson alone
    names, lines = not_tried(month=B("卯"))
    assert "三阳" not in names and "时泰" not in names and "盘珠" in names  # the year needs the plates
    assert set(lines) == {71, 72}
    ke = ke_at("辛巳", "丑", "戌")
    names, lines = not_tried(plate_of("午", "卯", ke), querent_on(Querent.parse("甲子", "m", 30), ke.plate.heaven,
                                                                  ke.plate.generals, None, None))
    # the couple's read a partner's 行年 too, and 天祸 天寇 二烦 the date's day (a plate may have no date)
    assert set(names) == {"繁昌", "旺孕", "解离", "天祸", "天寇", "二烦"} and lines == ()
    couple = Querent.parse("甲子", "m", 30).with_partner(Querent.parse("丙寅", "f", 28))
    from shensha_plates.core.liuren.lodging import DayFacts
    names, lines = not_tried(plate_of("午", "卯", ke), querent_on(couple, ke.plate.heaven, ke.plate.generals, None, None),
                             day=DayFacts(None, 2, 1, 30, 14))
    assert names == () and lines == ()


def test_ke_says_what_it_did_not_read() -> None:
    import io
    import json

    from shensha_plates.core.cli import main
    out = io.StringIO()
    assert main(["ke", "--day", "辛巳", "--hour", "丑", "--general", "戌"], out=out) == 0
    last = out.getvalue().strip().splitlines()[-1]
    assert last.startswith("须日期（年、月）、年命、配偶年命而未判：") and "富贵" in last and "毕法赋 13" in last and "72" in last
    out = io.StringIO()
    assert main(["ke", "--day", "辛巳", "--hour", "丑", "--general", "戌", "--format", "json"], out=out) == 0
    data = json.loads(out.getvalue())
    assert "富贵" in data["not_tried"]["patterns"] and 92 in data["not_tried"]["bifa"]


@pytest.mark.parametrize("day, hour, general", [("乙卯", "午", "未"), ("乙亥", "巳", "子"), ("甲子", "卯", "亥")])
def test_wuyin_book_examples(day: str, hour: str, general: str) -> None:
    # 乙卯日午时未将 (二阴一阳不备), 乙亥日巳时子将 (阴不备), 甲子日卯时亥将 (四课备，日辰交克)
    assert "芜淫" in names(ke_at(day, hour, general))


def test_wuyin_needs_a_missing_lesson_with_overcoming_or_the_crossing() -> None:
    seen = {"bubei": 0, "cross": 0, "none": 0}
    for day in range(60):
        for turn in range(12):
            ke = compute_ke(day, 0, turn)
            distinct = sum(1 for le in ke.lessons if le.repeat_of is None)
            klesson = any(le.relation in ("shang", "xia") for le in ke.lessons if le.repeat_of is None)
            hit = "芜淫" in names(ke)
            if distinct == 3 and klesson:
                assert hit
                seen["bubei"] += 1
            elif hit:
                seen["cross"] += 1
            elif distinct == 3:
                seen["none"] += 1  # 不备 without 克 (and no crossing): not 芜淫
    assert all(seen.values())


# -- the 课体 that need a choice of reading: 侵害 刑伤 鬼墓 三光 灾厄 迍福 荣华 合欢 和美 --------------------------

def why_of(name: str, ke: Ke, **kw: object) -> str:
    return next(h.why for h in detect_patterns(ke, **kw) if h.name == name)  # type: ignore[arg-type]


def test_qinhai_book_example() -> None:
    # 「如丙子日申时卯将占，子日未害并用子」: 支上 未 harms 子, and 子 is the 初传 (over 巳)
    ke = ke_at("丙子", "申", "卯")
    assert ke.course.transmissions[0] == B("子") and ke.plate.heaven[B("子")] == B("未")
    assert "侵害" in names(ke)
    assert "侵害" not in names(ke_at("丙子", "申", "辰"))  # another turn: 支上 申, no harm
    # the 《订讹》's reading (the 害神 itself 发用) is not the rule: the example's 初传 子 is not the harm
    assert "初传子" in why_of("侵害", ke)


def test_xingshang_book_example() -> None:
    # 「如庚午日寅时子将占，午为支刑临日用」: 午 (自刑 with the branch 午) over 申, 庚's lodge
    ke = ke_at("庚午", "寅", "子")
    assert "刑伤" in names(ke) and "临申发用" in why_of("刑伤", ke)
    assert "刑伤" not in names(ke_at("庚午", "寅", "丑"))  # another turn


def test_xingshang_takes_the_daquans_punishments() -> None:
    # 申刑寅 is the 大全's (刑伤课: 「申刑寅，人鬼残贼」), not seed 001's: 甲申, 寅 over 申 as the 初传 …
    for day in ("庚寅", "壬寅", "甲申"):
        for turn in range(12):
            ke = ke_turn(day, turn)
            first = ke.course.transmissions[0]
            if {first, day_branch := B(day[1])} == {B("寅"), B("申")} and ke.plate.under(first) in (
                    day_branch, stem_palace(day[0])):
                assert "刑伤" in names(ke)
                return
    pytest.fail("no 寅–申 lesson found")


def test_guimu_book_example() -> None:
    # 「如壬申日丑时午将，壬日属水，以辰为墓，又为日鬼，加日发用为鬼墓」
    ke = ke_at("壬申", "丑", "午")
    assert "鬼墓" in names(ke)
    assert "鬼墓" not in names(ke_at("壬申", "丑", "未"))  # another turn: 初传 not the tomb


def test_guimu_counts_the_ghost_yang_with_yang() -> None:
    # 癸's tomb 辰 overcomes 癸 but is yang: 「癸日用丑未」 — not 鬼墓 (the main text's 鬼, chosen over a ghost by
    # phase alone)
    ke = ke_turn("癸酉", 3)
    assert ke.course.transmissions[0] == B("辰")
    assert "鬼墓" not in names(ke)


def test_sanguang_book_examples() -> None:
    # 「如甲日未时酉将春占，日辰旺相，用神旺相，上乘吉将」: 甲寅 (八专, 干上辰), 酉将 after 谷雨: the third month
    ke = ke_at("甲寅", "未", "酉")
    assert [BRANCHES[b] for b in ke.course.transmissions] == ["辰", "午", "申"]
    assert "三光" in names(ke, month=month_of("辰"))  # 辰 earth in 辰月, 甲寅 wood in spring
    assert "三光" not in names(ke, month=month_of("卯"))  # the second month: 辰 死
    assert "三光" not in names(ke, month=month_of("申"))  # autumn
    assert "三光" not in names(ke)  # no date
    # 《袖中金》「六月戊寅日午时寅将」: 寅 over 戌 (昴星虎视, 初传 丑 on 贵人, 戊课在巳, 寅支传午); the day 贵人 丑, read at
    # 申时 with 子将 — the same heaven plate
    ke = ke_at("戊寅", "申", "子")
    assert ke.method == "maoxing" and ke.course.transmissions[0] == B("丑")
    assert "三光" in names(ke, month=month_of("未"))
    assert "三光" not in names(ke_at("戊寅", "戌", "寅"), month=month_of("未"))  # night 贵人 未: 丑 rides 天空


def test_zaie_book_example() -> None:
    # 「如亥年正月将，乙亥日卯时占，未为丧车……亥年未为岁虎」
    ke = ke_at("乙亥", "卯", "亥")
    why = why_of("灾厄", ke, plate=plate_of("亥", "寅", ke))
    assert "丧车" in why and "岁虎" in why and "丘墓" in why  # 未 is also 乙's tomb
    assert "岁虎" not in why_of("灾厄", ke, plate=plate_of("子", "寅", ke))  # 子年: 岁虎 申
    assert why_of("灾厄", ke) == "初传未发用，为丘墓"  # without the plates only 丘墓 is tried
    assert "灾厄" not in names(ke_at("乙亥", "卯", "戌"), plate=plate_of("亥", "寅", ke))  # 初传 午


def test_zaie_reuses_the_seeds_spirits() -> None:
    zaie = next(p for p in patterns() if p.id == "zaie")
    spirits = {sub.spirit for group in zaie.tests[0].alternatives for sub in group if sub.spirit}
    assert {"sang_po", "fei_hun", "tian_gui"} <= spirits  # 丧车 = 丧魄, 游魂 = 飞魂, 伏殃 = 天鬼 (seed 002's 卦)
    assert zaie.forms and zaie.forms[0].names == ("丧车", "游魂", "伏殃", "病符", "丧门", "吊客", "丘墓", "岁虎")


def test_zhunfu_book_example_counts_the_hardships_and_blessings() -> None:
    # 「如癸酉日午时亥将春占，未上死气，下为寅木所胜，俯仰丘仇，乘朱雀凶将，末传相气贵人」
    ke = ke_at("癸酉", "午", "亥")
    why = why_of("迍福", ke, month=month_of("寅"))
    eight, five = why.split("——")[1].split("；")
    assert eight.startswith("八迍：") and len(eight[3:].split("、")) == 8
    assert five == "五福：初死末旺、母带德解、始凶终吉"
    assert "迍福" not in names(ke, month=month_of("申"))  # autumn: 未 休, not 死
    assert "迍福" not in names(ke)  # no date


def test_ronghua_book_examples() -> None:
    # 「如丙申日卯时子将，干上寅为驿马，支上巳为日禄，初传巳为相气……寅命上亥为贵人，行年巳为禄，上见寅马」
    ke = ke_at("丙申", "卯", "子")
    assert why_of("荣华", ke, month=month_of("寅")).startswith("干支禄马，")
    nm = querent_on(Querent.parse("甲寅", "m", 40), ke.plate.heaven, ke.plate.generals, None, None)
    assert nm is not None and (nm.ben_ming.branch, nm.xing_nian.branch) == (B("寅"), B("巳"))
    assert why_of("荣华", ke, month=month_of("寅"), nian_ming=nm).startswith("干支禄马、禄马贵人临年命，")
    assert "荣华" not in names(ke, month=month_of("申"))  # autumn: 巳 囚
    # 「如丙寅日干上申，支上巳，为干支禄马，申发用，中传贵人」
    ke = ke_at("丙寅", "卯", "午")
    assert [BRANCHES[b] for b in ke.course.transmissions] == ["申", "亥", "寅"]
    assert "荣华" in names(ke, month=month_of("申"))
    assert "荣华" not in names(ke, month=month_of("寅"))  # spring: 申 囚


def test_hehuan_book_example() -> None:
    # 「如戊申日子时申将，子与干上丑作六合，加辰发用。戊日天干上丑遁得癸作合，支辰与三传合作三合」
    ke = ke_at("戊申", "子", "申")
    assert why_of("合欢", ke) == "干上丑遁干与戊作合，初传子：六合发用、三合发用"
    assert "合欢" not in names(ke_at("戊申", "子", "酉"))


@pytest.mark.parametrize("day, upper, form", [
    ("乙酉", "辰", "干支上神相合"), ("丙申", "巳", "干支上神相合"),  # 伏吟
    ("辛卯", "卯", "干支相会"), ("壬寅", "寅", "干支相会"),  # 卯加辛; 亥加寅 (干上 寅)
    ("甲申", "亥", "干支各合"), ("丁丑", "午", "干支各合"), ("己丑", "午", "干支各合"),
    ("戊辰", "丑", "干支上神相合"), ("辛酉", "未", "干支上神相合"),
    ("乙丑", "子", "交互相合"), ("丙寅", "亥", "交互相合"),
])
def test_hemei_forms_of_the_book(day: str, upper: str, form: str) -> None:
    assert form in why_of("和美", ke_turn(day, gan_shang(day, upper)))


def test_hemei_book_example_and_a_near_miss() -> None:
    # 「如壬午日巳时丑将占，戌加寅为用，三传戌午寅，干上未与中传作六合，传逢三合」
    ke = ke_at("壬午", "巳", "丑")
    assert "三六相呼" in why_of("和美", ke)
    assert "和美" not in names(ke_at("壬午", "巳", "子"))


def test_the_forms_why_in_english() -> None:
    from shensha_plates.core.liuren.english_text import why_en
    ke = ke_at("癸酉", "午", "亥")
    hit = next(h for h in detect_patterns(ke, month=month_of("寅")) if h.name == "迍福")
    text = why_en(hit)
    assert "the eight hardships: dead in the month, " in text and "; the five blessings: " in text


def test_the_forms_field_goes_with_named_forms(tmp_path: Path) -> None:
    path = tmp_path / "patterns.toml"
    path.write_text(GOOD.replace('why = "w"', 'why = "{forms}"') + 'kind = "initial_de"\n', encoding="utf-8")
    with pytest.raises(CatalogError) as err:
        load_patterns(path)
    assert err.value.field == "why"
    path.write_text(GOOD + 'kind = "any"\nforms = ["a", "b"]\nany = [[{ kind = "initial_de" }], [{ kind = "bubei" }]]\n',
                    encoding="utf-8")
    with pytest.raises(CatalogError) as err:
        load_patterns(path)
    assert err.value.field == "why"


def test_every_pattern_of_the_choices_cites_the_book_with_its_variants() -> None:
    new = {"qinhai", "xingshang", "guimu", "sanguang", "zaie", "zhunfu", "ronghua", "hehuan", "hemei"}
    found = {p.id: p for p in patterns() if p.id in new}
    assert set(found) == new
    assert all(p.source.book == "daquan" and "转引" in p.note for p in found.values())
    assert all("异说" in p.note or "未加" in p.note for p in found.values())
