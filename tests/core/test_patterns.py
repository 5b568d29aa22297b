"""The patterns a lesson forms (课体, 格, 卦) as data: every book example lesson that names one forms it,
seed 001's own examples and day lists hold, and a damaged rule is one clear error."""

from __future__ import annotations

from pathlib import Path

import pytest

from shensha_plates.core.cycle import BRANCHES, PILLARS, parse_pillar, stem_palace
from shensha_plates.core.engine import State, compute_plate
from shensha_plates.core.errors import CatalogError
from shensha_plates.core.liuren import KeOptions, compute_ke, liuren_tables
from shensha_plates.core.liuren.nianming import Querent, querent_on
from shensha_plates.core.liuren.patterns import KINDS, TESTS, detect_patterns, load_patterns, patterns
from tests.core.test_liuren_cases import CASES, label, turn_of

BOOK_CASES = [c for c in CASES if "patterns" in c]


def names(day: str, turn: int, **kw: object) -> list[str]:
    ke = compute_ke(parse_pillar(day), 0, turn)
    return [p.name for p in detect_patterns(ke, **kw)]  # type: ignore[arg-type]


def gan_shang(day: str, branch: str) -> int:
    """The turn that puts ``branch`` over the day stem's lodging (干上)."""
    return (BRANCHES.index(branch) - stem_palace(day[0])) % 12


def over(heaven: str, earth: str) -> int:
    return (BRANCHES.index(heaven) - BRANCHES.index(earth)) % 12


@pytest.mark.parametrize("case", BOOK_CASES, ids=label)
def test_every_book_example_forms_its_pattern(case: dict[str, object]) -> None:
    options = KeOptions.from_choices(case.get("variants", []))  # type: ignore[arg-type]
    ke = compute_ke(parse_pillar(str(case["day"])), 0, turn_of(case), options)  # type: ignore[arg-type]
    found = {p.name for p in detect_patterns(ke)}
    assert set(case["patterns"]) <= found, found  # type: ignore[arg-type]


def test_the_book_examples_are_counted() -> None:
    assert len(BOOK_CASES) >= 11
    assert len({n for c in BOOK_CASES for n in c["patterns"]}) >= 9  # type: ignore[union-attr]


# seed 001's examples of the 交车格 (its ten kinds each give one day and plate)
JIAOCHE = [("甲申", "巳"), ("辛丑", "子"), ("戊辰", "酉"), ("辛亥", "寅"), ("癸卯", "戌"), ("庚子", "丑"),
           ("乙丑", "子")]


@pytest.mark.parametrize("day, shang", JIAOCHE)
def test_seed_001_jiaoche_examples(day: str, shang: str) -> None:
    assert "交车格" in names(day, gan_shang(day, shang))


# seed 001's ten kinds of 交车, each with its example (害合's 「丁丑日干上午」 read as 干上子: see the data)
JIAOCHE_KINDS = [("长生合", "甲申", "巳"), ("财合", "辛丑", "子"), ("脱合", "戊辰", "酉"), ("害合", "丁丑", "子"),
                 ("空合", "辛亥", "寅"), ("刑合", "癸卯", "戌"), ("冲合", "甲申", "巳"), ("克合", "庚子", "丑"),
                 ("三交合", "己酉", "辰"), ("三交合", "丁卯", "戌"), ("交会合", "乙丑", "子")]


@pytest.mark.parametrize("kind, day, shang", JIAOCHE_KINDS)
def test_seed_001_jiaoche_ten_kinds(kind: str, day: str, shang: str) -> None:
    assert "交车" + kind in names(day, gan_shang(day, shang))


def test_jiaoche_kinds_only_with_jiaoche() -> None:
    """A kind is named only where 交车 holds; 三交合 on the seven lessons the data lists; 交会合's example forms
    巳丑酉 as the seed says."""
    sanjiao = set()
    for day in range(60):
        for turn in range(12):
            found = names(PILLARS[day], turn)
            kinds = [n for n in found if n.startswith("交车") and n != "交车格"]
            assert not kinds or "交车格" in found
            if "交车三交合" in found:
                sanjiao.add((PILLARS[day], BRANCHES[(stem_palace(PILLARS[day][0]) + turn) % 12]))
    assert sanjiao == {("丁卯", "戌"), ("己卯", "戌"), ("辛卯", "戌"), ("乙卯", "戌"), ("丁酉", "辰"), ("己酉", "辰"),
                       ("辛酉", "辰")}
    assert trans("乙丑", gan_shang("乙丑", "子")) == "巳丑酉"


@pytest.mark.parametrize("day", ["甲寅", "庚申", "丁未", "己未", "癸丑"])
def test_the_five_days_whose_stem_lodges_at_their_branch_never_cross(day: str) -> None:
    assert all("交车格" not in names(day, t) for t in range(12))


@pytest.mark.parametrize("day", ["乙酉", "丙申", "戊申", "辛卯", "壬寅"])
def test_seed_001_tongxin_days_in_fanyin(day: str) -> None:
    assert "同心格" in names(day, 6)  # 返吟: every branch under its opposite


def test_seed_001_ghost_patterns() -> None:
    assert "攅眉格" in names("庚辰", over("午", "巳"))  # 庚辰日午加巳发用
    assert "鬼脱生格" in names("丙子", gan_shang("丙子", "子"))  # 干上子发用为鬼，生末传寅
    ke = compute_ke(parse_pillar("己丑"), 0, over("寅", "丑"))  # 支上寅发用作鬼，三传寅卯辰
    assert [BRANCHES[t.branch] for t in ke.transmissions] == list("寅卯辰")
    assert "家鬼弄家神" in [p.name for p in detect_patterns(ke)]


def test_seed_001_guide_and_jieyi() -> None:
    """鬼德格: 丁酉日阳贵干上亥 (亥, 丁's 德, 发用 over 未 and overcoming 丁); 借益格: 壬子日未加卯发用, 三传木局
    脱干, 夜贵 (贵、勾、常 土 overcome 壬, 木 overcomes them)."""
    ke = compute_ke(parse_pillar("丁酉"), 6, (gan_shang("丁酉", "亥") + 6) % 12)  # 午时: 阳贵
    assert ke.transmissions[0].branch == BRANCHES.index("亥") and "鬼德格" in [p.name for p in detect_patterns(ke)]
    ke = compute_ke(parse_pillar("壬子"), 0, over("未", "卯"))  # 子时: 夜贵
    assert "".join(BRANCHES[t.branch] for t in ke.transmissions) == "未亥卯" and not ke.plate.daytime
    assert "借益格" in [p.name for p in detect_patterns(ke)]
    assert "鬼德格" not in names("甲子", gan_shang("甲子", "寅"))  # 寅 is 甲's 德 but no ghost of 甲


def test_seed_001_tomb_patterns() -> None:
    assert all("自生入墓" in names(d, over("寅", "戌")) for d in ("甲子", "乙丑", "癸亥"))
    assert "自生入墓" not in names("甲子", over("寅", "亥"))
    # the tomb over the place of growth: the same turn for every stem (the tomb is eight places on)
    assert "长生处乘墓" in names("甲子", over("未", "亥")) and "长生处乘墓" in names("丙寅", over("戌", "寅"))
    assert "长生处乘墓" not in names("甲子", over("未", "子"))
    assert "以魂入墓" in names("甲子", over("未", "寅"))  # 甲乙日未加寅
    assert "以日入墓" in names("乙丑", over("辰", "未"))  # 乙寄辰，辰临未
    assert "支戴墓" in names("甲子", over("辰", "子")) and "支坐墓" in names("甲子", over("子", "辰"))
    assert "以鬼入墓" in names("丙寅", over("亥", "辰"))  # 丙丁日亥子加辰


def trans(day: str, turn: int) -> str:
    return "".join(BRANCHES[t.branch] for t in compute_ke(parse_pillar(day), 0, turn).transmissions)


def test_daquan_wulu_and_juesi_examples() -> None:
    """《六壬大全》 卷七's two examples, with the transmissions the book prints: 三月己巳日寅时酉将 (四上俱克下,
    无禄) and 正月庚辰日辰时亥将 (四下俱贼上, 绝嗣)."""
    assert trans("己巳", over("酉", "寅")) == "酉辰亥"
    assert "无禄" in names("己巳", over("酉", "寅")) and "绝嗣" not in names("己巳", over("酉", "寅"))
    assert trans("庚辰", over("亥", "辰")) == "午丑申"
    assert "绝嗣" in names("庚辰", over("亥", "辰")) and "无禄" not in names("庚辰", over("亥", "辰"))


def test_a_repeated_lesson_counts_once() -> None:
    """《御定六壬直指》 丙子 干上子: 未 over 子 twice, 「袖中金云：三上克下，为长幼」, and 乱首 (支子临干克干)."""
    found = names("丙子", gan_shang("丙子", "子"))
    assert "长幼" in found and "无禄" not in found and "乱首" in found


def test_zhizhi_zhuixu_example() -> None:
    """《御定六壬直指》 庚寅日第七局 (返吟, 元胎, 赘婿): 寅 over 申, the stem 庚 overcomes its visitor."""
    found = names("庚寅", 6)
    assert {"元胎", "赘婿"} <= set(found) and "乱首" not in found
    # 乱首's other form: the stem's lodge over the branch, overcome by it (日往加辰而辰克日): 庚 lodges at 申,
    # 申 over 午 on a 庚午 day
    assert "乱首" in names("庚午", over("申", "午")) and "赘婿" not in names("庚午", over("申", "午"))


def test_lessons_overcome_partition() -> None:
    """Over all 720 lessons, at most one of 无禄 长幼 (and of 绝嗣 度厄) holds, and each holds exactly when
    the distinct lessons' relations say so."""
    seen = set()
    for day in range(60):
        for turn in range(12):
            ke = compute_ke(day, 0, turn)
            found = {p.name for p in detect_patterns(ke)}
            distinct = [le.relation for le in ke.lessons if le.repeat_of is None]
            assert ("无禄" in found) == (distinct.count("shang") == 4)
            assert ("长幼" in found) == (distinct.count("shang") == 3)
            assert ("绝嗣" in found) == (distinct.count("xia") == 4)
            assert ("度厄" in found) == (distinct.count("xia") == 3)
            seen |= found & {"无禄", "长幼", "绝嗣", "度厄", "乱首", "赘婿"}
    assert seen == {"无禄", "长幼", "绝嗣", "度厄", "乱首", "赘婿"}


def test_seed_001_posui_punishment_and_clash() -> None:
    """破碎 (孟见酉, 仲见巳, 季见丑, by the day branch, as 初传); 上下相刑发用 by the seed's punishments only
    (申 over 寅 is not one: 「申不能刑巳」 and 《世本》's 申刑寅 rejected); 发用冲日 / 冲辰."""
    for day in range(60):
        for turn in range(12):
            ke = compute_ke(day, 0, turn)
            found = {p.name for p in detect_patterns(ke)}
            first = ke.transmissions[0].branch
            under = ke.plate.under(first)
            want = {0: 9, 1: 5, 2: 1}[(day % 12 - 2) % 12 % 3]  # 寅 孟 → 酉, 卯 仲 → 巳, 辰 季 → 丑
            assert ("破碎" in found) == (first == want)
            assert ("发用冲辰" in found) == ((first - day) % 12 == 6)
            pair = BRANCHES[first] + BRANCHES[under]
            if pair in ("申寅", "寅申", "未丑", "丑未"):
                assert "上下相刑发用" not in found
            if pair in ("卯子", "子卯", "巳申", "辰辰"):
                assert "上下相刑发用" in found


@pytest.mark.parametrize("day", "甲子 癸酉 丙子 丁酉 庚子 己酉 壬子 辛酉".split())
def test_daquan_xuangai_day_list(day: str) -> None:
    """卷七轩盖课引《观月经》：「午卯子三传便是甲子日首课也。癸酉、丙子……辛酉」 (午加酉)."""
    assert trans(day, over("酉", "子")) == "午卯子" and "轩盖" in names(day, over("酉", "子"))


def test_zhinan_jiuchou_days() -> None:
    """「乙戊己辛壬日更得四仲相并而又大吉加仲上」: ten days, each at the one turn with 丑 over its branch."""
    formed = {(PILLARS[d], t) for d in range(60) for t in range(12)
              if "九丑" in [p.name for p in detect_patterns(compute_ke(d, 0, t))]}
    days = "乙卯 乙酉 戊子 戊午 己卯 己酉 辛卯 辛酉 壬子 壬午".split()
    assert formed == {(d, over("丑", d[1])) for d in days}


def test_generals_hour_and_xun_patterns() -> None:
    """狡童/泆女 (卯酉 发用, 六合→天后 / 天后→六合), 天网 (the hour and the 初传 overcome the stem: the same
    day and turn differ by the hour), 六仪 (旬首发用), 三奇 (子戌旬丑, 申午旬子, 辰寅旬亥), 励德, 回环."""
    qi = {0: 1, 10: 1, 8: 0, 6: 0, 4: 11, 2: 11}
    g = {n: i for i, n in enumerate(x.name for x in liuren_tables().generals)}
    seen: set[str] = set()
    hour_differs = False
    for day in range(60):
        head = (12 - 2 * (day // 10)) % 12
        for turn in range(12):
            by_hour = []
            for hour in (0, 5):
                ke = compute_ke(day, hour, (turn + hour) % 12)
                found = {p.name for p in detect_patterns(ke)}
                tr = ke.transmissions
                first = tr[0].branch
                assert ("狡童" in found) == (first in (3, 9) and tr[0].general == g["六合"] and tr[2].general == g["天后"])
                assert ("泆女" in found) == (first in (3, 9) and tr[0].general == g["天后"] and tr[2].general == g["六合"])
                assert ("六仪" in found) == (first == head)
                assert ("三奇" in found) == (first == qi[head])
                assert ("励德" in found) == (ke.plate.under(ke.plate.noble) in (3, 9))
                assert ("回环" in found) == all(t.branch in {le.upper for le in ke.lessons} for t in tr)
                by_hour.append("天网" in found)
                seen |= found
            hour_differs |= by_hour[0] != by_hour[1]
    assert hour_differs and {"狡童", "泆女", "六仪", "三奇", "励德", "回环", "天网"} <= seen


def test_the_querents_tomb_needs_the_querent() -> None:
    day, turn = "甲午", over("辰", "子")  # 辰 over 子: a querent born in a 子 year rides its tomb
    ke = compute_ke(parse_pillar(day), 0, turn)
    assert "年命乘墓" not in [p.name for p in detect_patterns(ke)]
    nm = querent_on(Querent.parse("甲子", "m", 30), ke.plate.heaven, ke.plate.generals, None, None)
    hits = detect_patterns(ke, nian_ming=nm)
    assert "年命乘墓" in [p.name for p in hits]


def test_the_gua_of_seed_002_need_the_spirit_on_the_initial() -> None:
    """飞魂卦, 伏殃卦, 丧魄卦: the branch carrying the spirit is the 初传, over the day or the querent's
    years. Found on some plate of a year, and checked against the plate's own spirits."""

    found = []
    for day in range(60):
        for turn in range(12):
            ke = compute_ke(day, 0, turn)
            st = State(year_branch=0, month=1, xun=day // 10, year_stem=0, day=day, hour=0)
            plate = compute_plate(st)
            for hit in detect_patterns(ke, plate):
                if hit.kind == "卦":
                    spirit = {"飞魂卦": "fei_hun", "伏殃卦": "tian_gui", "丧魄卦": "sang_po"}[hit.name]
                    first = ke.transmissions[0].branch
                    assert first in {p.branch for p in plate.find(spirit)}
                    assert ke.plate.under(first) in (stem_palace(PILLARS[day][0]), day % 12)
                    found.append(hit.name)
            assert not any(h.kind == "卦" for h in detect_patterns(ke))  # without the plate, never
        if len(set(found)) == 3:
            break
    assert set(found) == {"飞魂卦", "伏殃卦", "丧魄卦"}


def test_youzi_and_longde_need_the_plates() -> None:
    """游子 (三传皆土, the month's 天马 发用) and 龙德 (太岁 乘贵人 发用, the month general in the transmissions):
    found on the plates of some months, each hit checked against the plate's own spirits; never without."""
    found: set[str] = set()
    noble = [g.name for g in liuren_tables().generals].index("贵人")
    for year_branch in (0, 2):
        for month in range(1, 13):
            for day in range(60):
                plate = compute_plate(State(year_branch=year_branch, month=month, xun=day // 10, year_stem=0, day=day,
                                            hour=0))
                for general in range(12):
                    ke = compute_ke(day, 0, general)
                    hits = {h.name for h in detect_patterns(ke, plate)}
                    first = ke.transmissions[0].branch
                    if "游子" in hits:
                        assert all(t.branch in (1, 4, 7, 10) for t in ke.transmissions)
                        assert first in {p.branch for p in plate.find("tian_ma")}
                    if "龙德" in hits:
                        assert first in {p.branch for p in plate.find("tai_sui")}
                        assert ke.transmissions[0].general == noble and general in {t.branch for t in ke.transmissions}
                    assert not {"游子", "龙德"} & {h.name for h in detect_patterns(ke)}
                    found |= hits
    assert {"游子", "龙德"} <= found


def test_every_pattern_is_sourced_and_typed() -> None:
    books = liuren_tables().books
    for p in patterns():
        assert p.kind in KINDS and p.tests and all(t.kind in TESTS for t in p.tests)
        assert p.source.quote and (p.source.book in books or p.source.file in ("001", "002"))


def test_a_damaged_rule_is_one_clear_error(tmp_path: Path) -> None:
    src = (Path(__file__).resolve().parents[2] / "shensha_plates" / "resources" / "liuren" / "patterns.toml").read_text("utf-8")
    for old, new, field in (('kind = "transmissions"\nsequences = ["巳戌卯"]', 'kind = "transmissions"\nsequences = ["巳戌"]',
                             "test.sequences"),
                            ('kind = "frame"\nphase = "木"', 'kind = "frame"\nphase = "wood"', "test.phase"),
                            ('kind = "run"\nstep = 2', 'kind = "jump"\nstep = 2', "test.kind"),
                            ('spirit = "fei_hun"', 'spirit = "fei"', "test.spirit"),
                            ('why = "三传{trans}相连"', 'why = "三传{tran}相连"', "why")):
        assert old in src, old
        path = tmp_path / "patterns.toml"
        path.write_text(src.replace(old, new, 1), "utf-8")
        with pytest.raises(CatalogError) as e:
            load_patterns(path)
        assert e.value.field == field and e.value.file == str(path), (field, e.value)


def test_find_searches_by_pattern() -> None:
    """``find ke=铸印`` (and a 格, and a 卦 that needs the plates' spirits): each hit forms it, each
    other hour of the days searched does not."""
    import datetime as dt
    from zoneinfo import ZoneInfo

    from shensha_plates.core.find import parse_condition, search
    from shensha_plates.core.liuren import compute_ke_at
    start, end = dt.date(2027, 5, 1), dt.date(2027, 5, 20)
    for name in ("铸印", "交车格", "伏殃卦"):
        hits = {h.moment for h in search(start, end, [parse_condition(f"ke={name}")], every="hour")}
        assert hits, name
        d = start
        while d <= end:
            for hour in range(0, 24, 2):
                moment = dt.datetime(d.year, d.month, d.day, hour, tzinfo=ZoneInfo("Asia/Shanghai"))
                ke, _, info = compute_ke_at(moment)
                there = name in {h.name for h in detect_patterns(ke, compute_plate(info.state))}
                assert (moment in hits) == there, (name, moment)
            d += dt.timedelta(days=1)
