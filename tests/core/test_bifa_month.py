"""Ten more lines of the 毕法赋 (issue 25), each with the examples its commentary (《六壬大全》 卷十一–十二)
gives: those that read the month (13 14 19 20 92) hold only with the month and only in the right one."""

from __future__ import annotations

import pytest

from shensha_plates.core.cycle import BRANCHES, parse_pillar, stem_palace
from shensha_plates.core.liuren import compute_ke
from shensha_plates.core.liuren.ke import Ke
from shensha_plates.core.liuren.patterns import bifa_lines, detect_bifa, read_lesson

B = BRANCHES.index


def at(day: str, shang: str) -> Ke:
    """The lesson with ``shang`` over the day stem's lodging (干上)."""
    return compute_ke(parse_pillar(day), 0, (B(shang) - stem_palace(day[0])) % 12)


def lines(ke: Ke, month: str | None = None) -> set[int]:
    return {h.number for h in detect_bifa(ke, month=None if month is None else B(month))}


@pytest.mark.parametrize("day, shang", [("乙卯", "卯"), ("乙酉", "卯"), ("癸巳", "子"), ("辛卯", "酉"), ("己亥", "午")])
def test_7_wang_lu_on_the_stem(day: str, shang: str) -> None:
    assert 7 in lines(at(day, shang))


def test_7_needs_lu_and_wang() -> None:
    assert 7 not in lines(at("甲子", "寅"))  # 甲's 禄 寅 is not its 旺 (卯)
    assert 7 not in lines(at("乙卯", "寅"))


def test_13_ghosts_in_their_season() -> None:
    ke = at("戊子", "午")  # 「三传寅卯辰皆是日鬼，如春占木旺」
    assert [BRANCHES[t.branch] for t in ke.transmissions] == ["寅", "卯", "辰"]
    assert 13 in lines(ke, "寅") and 13 in lines(ke, "卯")
    assert 13 not in lines(ke, "申") and 13 not in lines(ke)


def test_14_wealth_too_strong() -> None:
    ke = at("戊申", "丑")  # 「三传子申辰皆作日之财……于秋冬水生旺之月」
    assert {t.branch for t in ke.transmissions} == {B("子"), B("申"), B("辰")}
    assert 14 in lines(ke, "子") and 14 in lines(ke, "酉")
    assert 14 not in lines(ke, "午") and 14 not in lines(ke)


def test_19_and_20_the_womb_and_the_month() -> None:
    ke = at("壬寅", "午")  # 「壬寅日干上午，七月占……壬水胎在午，又是日之妻财，及七月生气在午」
    assert 19 in lines(ke, "申")
    assert 19 not in lines(ke, "酉") and 19 not in lines(ke)
    assert 20 in lines(ke, "寅")  # 「壬癸日午为胎财，正月死气在午」
    assert 20 in lines(at("戊子", "子"), "申")  # 「戊己日子为胎财，七月死气在子」
    assert 20 in lines(at("庚午", "卯"), "亥")  # 「庚辛日卯为胎财，十月死气在卯」
    assert 19 not in lines(at("甲子", "酉"), "卯")  # 甲's 胎 酉 is its 鬼, not its 财


@pytest.mark.parametrize("day, shang", [("甲申", "子"), ("庚寅", "午"), ("丙申", "卯"), ("丙寅", "卯")])
def test_36_stem_and_branch_at_their_bath(day: str, shang: str) -> None:
    assert 36 in lines(at(day, shang))


def test_38_closed_mouth_on_the_plate() -> None:
    # 「甲子日辰戌加子，昼夜皆乘元武」: 地盘旬首上神乘元武, day and night; 旬尾加旬首 anywhere
    for hour in (0, 6):
        ke = compute_ke(parse_pillar("甲子"), hour, (B("辰") + hour) % 12)
        assert 38 in lines(ke)
    assert 38 in lines(compute_ke(parse_pillar("甲申"), 0, 9))
    assert 38 not in lines(compute_ke(parse_pillar("甲申"), 0, 1))


@pytest.mark.parametrize("day, shang", [("甲申", "酉"), ("庚寅", "卯"), ("甲申", "卯"), ("庚寅", "酉"), ("壬申", "子"),
                                        ("壬寅", "子"), ("丙申", "午"), ("丙寅", "午")])
def test_78_both_prosper(day: str, shang: str) -> None:
    assert 78 in lines(at(day, shang))


@pytest.mark.parametrize("day, shang", [("戊申", "子"), ("庚申", "子"), ("庚寅", "午"), ("甲寅", "午"), ("庚寅", "子"),
                                        ("辛丑", "子"), ("乙丑", "午"), ("甲申", "午"), ("己未", "卯"), ("壬申", "卯"),
                                        ("壬寅", "卯"), ("丙寅", "酉"), ("丙申", "酉"), ("丁丑", "酉")])
def test_80_stem_and_branch_at_death(day: str, shang: str) -> None:
    assert 80 in lines(at(day, shang))


def test_80_near_miss() -> None:
    assert 80 not in lines(at("戊申", "丑"))


def test_92_dragon_on_the_breath_of_life() -> None:
    # 「六丙日，寅加巳夜将乘青龙，三月占」; 「六戊日干上申昼将乘青龙，九月占」
    night = compute_ke(parse_pillar("丙子"), B("子"), B("酉"))
    assert 92 in lines(night, "辰")
    assert 92 not in lines(night, "巳") and 92 not in lines(night)
    day = compute_ke(parse_pillar("丙子"), B("午"), B("卯"))  # the same plate by day: 寅 rides 六合
    assert 92 not in lines(day, "辰")
    assert 92 in lines(compute_ke(parse_pillar("戊子"), B("午"), B("酉")), "戌")


def test_the_lines_now_read() -> None:
    read = {b.number for b in bifa_lines() if b.detectable}
    assert {7, 13, 14, 19, 20, 36, 38, 78, 80, 92, 15, 27, 29, 30, 35, 37, 75, 76, 53, 60, 65, 66, 71, 72} <= read
    assert {69, 83, 84, 45, 46, 49, 50} <= read and len(read) >= 75
    _, hits = read_lesson(at("戊子", "午"), month=B("寅"))
    assert 13 in {h.number for h in hits}


# -- the lines read from the lesson alone, with the commentary's examples ---------------------------------

def test_15_drained_upon_drained() -> None:
    """「六庚日干上子，夜将上乘青龙……六甲日干上巳，昼占上乘太常」: the stem feeds 干上, 干上 feeds its general."""
    found, missed = 0, 0
    for day, shang, general in (("庚子", "子", 5), ("甲子", "巳", 8), ("乙丑", "午", 6), ("丁卯", "丑", 10)):
        turn = (B(shang) - stem_palace(day[0])) % 12
        for hour in range(12):
            ke = compute_ke(parse_pillar(day), hour, (turn + hour) % 12)
            if ke.lesson_generals[0] == general:
                assert 15 in lines(ke)
                found += 1
            elif day == "庚子" and ke.lesson_generals[0] in (1, 2):  # 子 does not feed 螣蛇 or 朱雀 (fire)
                assert 15 not in lines(ke)
                missed += 1
    assert found >= 4 and missed


def test_27_wealth_turns_ghost() -> None:
    assert 27 in lines(at("辛亥", "午"))  # 「三传未卯亥……生起干上之午火」
    assert 27 not in lines(at("辛亥", "未"))


@pytest.mark.parametrize("day, shang", [("甲申", "午"), ("乙酉", "申"), ("乙酉", "巳")])
def test_29_crowded_house(day: str, shang: str) -> None:
    assert 29 in lines(at(day, shang))


@pytest.mark.parametrize("day, heaven, earth", [("甲辰", "戌", "寅"), ("甲戌", "寅", "戌"), ("壬午", "未", "卯")])
def test_30_wide_house(day: str, heaven: str, earth: str) -> None:
    assert 30 in lines(compute_ke(parse_pillar(day), 0, (B(heaven) - B(earth)) % 12))


def test_35_both_drained() -> None:
    # the line gives no lesson: 甲子 干上巳 (甲 feeds 巳) and 支上卯 (子 feeds 卯), and the crossed form
    assert 35 in lines(at("甲子", "巳"))
    ke = at("甲子", "巳")
    assert BRANCHES[ke.lessons[2].upper] == "卯"
    assert 35 not in lines(at("甲子", "子"))


@pytest.mark.parametrize("day, turn", [("庚午", None), ("辛酉", 5), ("甲辰", None)])
def test_37_the_last_helps_the_first(day: str, turn: int | None) -> None:
    # 庚午日干上午 三传午辰寅 (寅 feeds 午, 午 overcomes 庚); 辛酉日巳加子 三传未子巳 (巳 feeds 未, 未 feeds 辛);
    # 甲辰日干上子 三传戌申午 (午 feeds 戌, 甲's 财)
    ke = (at(day, {"庚午": "午", "甲辰": "子"}[day]) if turn is None else compute_ke(parse_pillar(day), 0, turn))
    assert 37 in lines(ke)


def test_75_punishment_above() -> None:
    assert 75 in lines(compute_ke(parse_pillar("甲辰"), 0, (B("酉") - B("寅")) % 12))  # 一字刑: 酉辰亥午
    assert 75 in lines(at("癸亥", "午"))
    assert 75 in lines(at("乙未", "子")) and 75 in lines(at("乙丑", "卯"))  # 二字刑
    hits = 0
    for day in range(60):
        for turn in range(12):
            ke = compute_ke(day, 0, turn)
            if {t.branch for t in ke.transmissions} in ({2, 5, 8}, {1, 10, 7}) and len({t.branch for t in ke.transmissions}) == 3:
                seq = "".join(BRANCHES[t.branch] for t in ke.transmissions)
                if seq in ("寅巳申", "巳申寅", "申寅巳", "丑戌未", "戌未丑", "未丑戌"):
                    assert 75 in lines(ke)
                    hits += 1
    assert hits


@pytest.mark.parametrize("day, shang", [("甲申", "巳"), ("乙亥", "子"), ("乙未", "子"), ("丙子", "子")])
def test_76_mutual_harm(day: str, shang: str) -> None:
    # 各: 甲申日干上巳 (巳害寅, 亥害申); 上: 乙亥日干上子 (子害未); 交: 乙未日干上子 (子害未, 卯害辰); 《直指》 丙子日干上子
    assert 76 in lines(at(day, shang))


def _plate(year: str, ke: Ke) -> object:
    from shensha_plates.core.engine import State, compute_plate
    return compute_plate(State(year_branch=B(year), month=1, xun=ke.day // 10, day=ke.day, hour=ke.plate.hour))


def lines_with(ke: Ke, plate: object) -> set[int]:
    return {h.number for h in detect_bifa(ke, plate)}  # type: ignore[arg-type]


def test_53_two_snakes_round_the_tomb() -> None:
    # 「丙戌日戌加巳……昼夜天将皆乘蛇」
    for hour in range(12):
        ke = compute_ke(parse_pillar("丙戌"), hour, (5 + hour) % 12)  # 戌 over 巳
        assert (53 in lines(ke)) == (ke.plate.general_of[B("戌")] == 1)
    assert any(53 in lines(compute_ke(parse_pillar("丙戌"), h, (5 + h) % 12)) for h in range(12))


@pytest.mark.parametrize("day, hour, general", [("丙午", "午", "戌"), ("乙卯", "卯", "子")])
def test_60_the_sun_on_the_house(day: str, hour: str, general: str) -> None:
    assert 60 in lines(compute_ke(parse_pillar(day), B(hour), B(general)))
    assert 60 not in lines(compute_ke(parse_pillar(day), (B(hour) + 1) % 12, B(general)))


def test_65_tomb_and_pass() -> None:
    ke = at("乙丑", "未")  # 「乙丑……四日于秋季占之，未乃干之墓作关神为发用」
    assert ke.transmissions[0].branch == B("未")
    assert 65 in lines(ke, "申") and 65 not in lines(ke, "寅") and 65 not in lines(ke)
    ke = compute_ke(parse_pillar("丁卯"), 0, (B("戌") - B("卯")) % 12)  # 「丁卯日戌加卯为发用，冬占」
    assert 65 in lines(ke, "子")


@pytest.mark.parametrize("day, heaven, earth", [("甲子", "辰", "子"), ("甲午", "戌", "寅"), ("甲午", "戌", "子"),
                                                ("乙酉", "丑", "辰")])
def test_66_branch_tomb_as_wealth(day: str, heaven: str, earth: str) -> None:
    # 「甲子日辰加子，乃支之墓神而作干之财为发用；甲午日戌加寅用，甲午日戌加子用，乙酉日丑加辰用」
    ke = compute_ke(parse_pillar(day), 0, (B(heaven) - B(earth)) % 12)
    assert ke.transmissions[0].branch == B(heaven)
    assert 66 in lines(ke)


def test_66_near_miss() -> None:
    ke = compute_ke(parse_pillar("甲子"), 0, (B("巳") - B("子")) % 12)
    assert 66 not in lines(ke)


def test_71_sickness_talisman_on_the_house() -> None:
    ke = compute_ke(parse_pillar("甲午"), 0, (B("亥") - B("午")) % 12)  # 子年: 病符 亥, over 午, water on fire
    assert 71 in lines_with(ke, _plate("子", ke))
    assert 71 not in lines_with(ke, _plate("丑", ke)) and 71 not in lines(ke)


@pytest.mark.parametrize("day", ["甲午", "丁亥", "己亥", "庚子", "癸巳", "甲戌", "丁卯", "己卯", "庚辰", "癸酉"])
def test_72_mourning_on_stem_and_branch(day: str) -> None:
    ke = compute_ke(parse_pillar(day), 0, 3)
    gs, zs = ke.lessons[0].upper, ke.lessons[2].upper
    year = (gs + 2) % 12 if (zs - gs) % 12 == 4 else (gs - 2) % 12  # 干上 吊客 (支上 丧门), or the other way
    assert 72 in lines_with(ke, _plate(BRANCHES[year], ke))
    assert 72 not in lines_with(ke, _plate(BRANCHES[(year + 1) % 12], ke)) and 72 not in lines(ke)


def test_69_tiger_on_a_hidden_ghost() -> None:
    # 「甲子日昼占，乃虎加庚午临戌」: 午 carries 庚 in the 甲子 xun, 庚 the 鬼 of 甲 (here the 中传); by night 白虎
    # rides 寅, whose hidden stem 丙 is no 鬼
    for hour in range(12):
        ke = compute_ke(parse_pillar("甲子"), hour, (B("午") - B("戌") + hour) % 12)
        on_wu = ke.plate.general_of[B("午")] == 7
        assert (69 in lines(ke)) == on_wu
    assert any(compute_ke(parse_pillar("甲子"), h, (8 + h) % 12).plate.general_of[B("午")] == 7 for h in range(12))


@pytest.mark.parametrize("day, shang", [("丙申", "丑"), ("丙子", "丑"), ("丙辰", "丑")])
def test_83_three_and_six_call_each_other(day: str, shang: str) -> None:
    ke = at(day, shang)  # 「丙申、丙子、丙辰三日干上丑，三传皆水局」
    assert {t.branch for t in ke.transmissions} == {B("申"), B("子"), B("辰")}
    assert 83 in lines(ke)


def test_83_and_84_example() -> None:
    ke = compute_ke(parse_pillar("乙酉"), 0, (B("申") - B("辰")) % 12)  # 「乙酉日申加辰用……支上见丑」
    assert 83 in lines(ke) and 84 not in lines(ke)
    for day in range(60):
        for turn in range(12):
            ke = compute_ke(day, 0, turn)
            trans = {t.branch for t in ke.transmissions}
            ups = {ke.lessons[0].upper, ke.lessons[2].upper}
            if trans == {2, 6, 10}:  # 寅午戌: 84 when 午, 丑 or 子 is on 干上 or 支上
                assert (84 in lines(ke)) == bool(ups & {6, 1, 0})


# -- the two 贵人 (昼 and 夜) ------------------------------------------------------------------------------

@pytest.mark.parametrize("day, heaven, earth, hour", [("丁卯", "亥", "酉", "午"), ("丁巳", "酉", "亥", "子"),
                                                      ("丙子", "酉", "亥", "子"), ("癸亥", "巳", "卯", "午"),
                                                      ("辛酉", "午", "寅", "午"), ("辛巳", "寅", "午", "子"),
                                                      ("乙酉", "子", "申", "午"), ("乙酉", "申", "子", "子")])
def test_45_one_noble_on_the_other(day: str, heaven: str, earth: str, hour: str) -> None:
    # 「六丁日亥加酉昼，丁巳……日酉加亥夜，六丙日酉加亥夜，六癸日巳加卯昼……辛酉日午加寅昼，辛巳日寅加午夜，
    # 乙酉日子加申昼，申加子夜」 — those of them whose pair stands in the lessons or the transmissions
    turn = (B(heaven) - B(earth)) % 12
    ke = compute_ke(parse_pillar(day), B(hour), (turn + B(hour)) % 12)
    assert ke.plate.noble == B(heaven)
    in_lesson = B(heaven) in {le.upper for le in ke.lessons} | {t.branch for t in ke.transmissions}
    assert (45 in lines(ke)) == in_lesson


def test_45_seen_on_the_books_days() -> None:
    found = [day for day, heaven, earth, hour in (("丁卯", "亥", "酉", "午"), ("辛酉", "午", "寅", "午"), ("乙酉", "子", "申", "午"))
             if 45 in lines(compute_ke(parse_pillar(day), B(hour), ((B(heaven) - B(earth)) + B(hour)) % 12))]
    assert found


def test_46_nobles_crossed() -> None:
    ke = compute_ke(parse_pillar("甲子"), 0, (B("丑") - B("酉")) % 12)  # 丑 over 酉, 未 over 卯
    assert 46 in lines(ke)
    assert 46 not in lines(compute_ke(parse_pillar("甲子"), 0, (B("丑") - B("卯")) % 12))  # 丑 over 卯, a day branch


@pytest.mark.parametrize("day, heaven, earth", [("乙丑", "申", "午"), ("丙寅", "亥", "未"), ("辛卯", "午", "子"),
                                                ("壬辰", "巳", "亥")])
def test_49_both_nobles_overcome(day: str, heaven: str, earth: str) -> None:
    assert 49 in lines(compute_ke(parse_pillar(day), 0, (B(heaven) - B(earth)) % 12))


def test_49_never_on_jia_wu_geng() -> None:
    """「惟甲戊庚三干无此例」: 丑 and 未 stand six apart, and earth is overcome only by wood."""
    for day in range(60):
        if day % 10 in (0, 4, 6):
            for turn in range(12):
                assert 49 not in lines(compute_ke(day, 0, turn))


def test_50_both_nobles_void() -> None:
    ke = compute_ke(parse_pillar("丁丑"), 0, (B("酉") - B("未")) % 12)  # 「丁丑日酉加未作空，亥加酉又落空」
    assert 50 in lines(ke)
    assert 50 not in lines(compute_ke(parse_pillar("丁丑"), 0, 0))
