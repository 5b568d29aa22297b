"""A second reading of the method against the day lists printed in 《六壬大全》 (怀庆杨衙藏版): the books
name, for a given turn of the plate, every day that gives a lesson or a chain of transmissions. Each list
is checked over the program's own lessons, so a rule that drifts breaks the book's list, not one example."""

from __future__ import annotations

import pytest

from shensha_plates.core.cycle import BRANCHES, PILLARS, parse_pillar, stem_palace
from shensha_plates.core.liuren import course


def chain(day: str, over_zi: str) -> str:
    c = course(parse_pillar(day), BRANCHES.index(over_zi))
    return "".join(BRANCHES[b] for b in c.transmissions)


def test_biezhe_is_exactly_the_nine_of_the_verse() -> None:
    # 卷一 别责法:「戊午戊辰与丙辰，干上皆午是为亲。辛丑辛未各二日，下上皆是丑未真。
    # 丁酉当为巳丁是，辛酉原来是酉辛」「刚三柔六共九课」
    verse = {("戊午", "午"), ("戊辰", "午"), ("丙辰", "午"), ("辛丑", "丑"), ("辛丑", "未"), ("辛未", "丑"),
             ("辛未", "未"), ("丁酉", "巳"), ("辛酉", "酉")}
    found = set()
    for day in PILLARS:
        for turn in range(12):
            if course(parse_pillar(day), turn).method == "biezhe":
                found.add((day, BRANCHES[(stem_palace(day[0]) + turn) % 12]))
    assert found == verse


@pytest.mark.parametrize(("days", "over_zi", "chain_"), [
    # 卷七铸印课引《观月经》:「丁卯、己卯、己巳、丙子、丁丑、癸未、丁亥、戊子、己丑、己未、乙未、己亥、庚子、
    # 丁未、壬子、丁巳，以上系巳戌卯三传也」（戌加巳：巳加子）
    ("丁卯 己卯 己巳 丙子 丁丑 癸未 丁亥 戊子 己丑 己未 乙未 己亥 庚子 丁未 壬子 丁巳", "巳", "巳戌卯"),
    # 卷七斫轮课引《观月经》:「乙丑、癸酉、丁丑、癸未、己丑、癸巳、辛巳、癸丑、癸亥，以上九日……俱卯戌巳三传」
    # （卯加申）；其中辛巳日未加子之课无卯加申，当是误列，不取。
    ("乙丑 癸酉 丁丑 癸未 己丑 癸巳 癸丑 癸亥", "未", "卯戌巳"),
    # 卷七轩盖课引《观月经》:「午卯子三传便是甲子日首课也。癸酉、丙子……辛酉」（午加酉）；所列戊子日
    # 同书比用格亦作午卯子，两取涉害则为寅，见 docs/liuren.md。
    ("甲子 癸酉 丙子 丁酉 庚子 己酉 壬子 辛酉", "酉", "午卯子"),
    # 卷六伏吟课·杜传格所列各日
    ("壬辰", "子", "亥辰戌"), ("壬午", "子", "亥午子"), ("乙亥", "子", "辰亥巳"), ("乙酉", "子", "辰酉卯"),
    ("丁卯 己卯 辛卯", "子", "卯子午"), ("壬申", "子", "亥申寅"), ("壬戌", "子", "亥戌未"),
    ("壬子", "子", "亥子卯"), ("壬寅", "子", "亥寅巳"), ("乙丑", "子", "辰丑戌"), ("乙未", "子", "辰未丑"),
    ("乙巳", "子", "辰巳申"), ("乙卯", "子", "辰卯子"), ("丁酉 己酉", "子", "酉未丑"), ("辛酉", "子", "酉戌未"),
    ("丁亥 己亥", "子", "亥未丑"), ("辛亥", "子", "亥戌未"),
    # 同卷自任、自信格
    ("甲子 甲寅 甲辰 甲午 甲申 甲戌", "子", "寅巳申"), ("丙子 丙寅 丙辰 丙午 丙申 丙戌", "子", "巳申寅"),
    ("戊子 戊寅 戊辰 戊午 戊申 戊戌", "子", "巳申寅"), ("庚子 庚寅 庚辰 庚午 庚申 庚戌", "子", "申寅巳"),
    ("丁巳 辛巳 己巳", "子", "巳申寅"), ("丁丑 辛丑 己丑", "子", "丑戌未"), ("丁未 辛未 己未", "子", "未丑戌"),
    # 同卷伏吟:「此六癸日初传丑，中戌，末传未是也」
    ("癸丑 癸卯 癸巳 癸未 癸酉 癸亥", "子", "丑戌未"),
    # 卷六返吟课:「丑日以巳上亥神为用，未日以亥上巳神为用……中传取支，末传取干」
    ("丁丑 己丑", "午", "亥未丑"), ("辛丑", "午", "亥未辰"), ("丁未 己未", "午", "巳丑丑"), ("辛未", "午", "巳丑辰"),
])
def test_daquan_day_lists(days: str, over_zi: str, chain_: str) -> None:
    assert {d: chain(d, over_zi) for d in days.split()} == {d: chain_ for d in days.split()}


@pytest.mark.parametrize(("day", "gan_shang_or_jia", "initial"), [
    # 卷六元首课:「又于亥日未加亥，乙未日卯加未，丙申日卯加戌，壬寅日巳加申，辛酉日午加申发用之类，则为元首」
    ("乙未", "卯未", "卯"), ("丙申", "卯戌", "卯"), ("壬寅", "巳申", "巳"), ("辛酉", "午申", "午"),
    # 同卷:「如乙酉日，巳加酉为发，一上克下为元首课」
    ("乙酉", "巳酉", "巳"),
])
def test_daquan_yuanshou_list(day: str, gan_shang_or_jia: str, initial: str) -> None:
    upper, lower = (BRANCHES.index(b) for b in gan_shang_or_jia)
    c = course(parse_pillar(day), (upper - lower) % 12)
    assert (BRANCHES[c.transmissions[0]], c.method, c.ke) == (initial, "zeike", "元首")
