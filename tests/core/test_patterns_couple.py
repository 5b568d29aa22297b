"""The 课体 that read the husband's and the wife's 行年 together (issue 25): 繁昌 (德孕), 旺孕 and 解离 of
《六壬大全》 课经集 (quoted at second hand from a transcription). Each book example forms its 课体, a near
miss does not, and without a partner (or with one of the same sex) they are not tried."""

from __future__ import annotations

import pytest

from shensha_plates.core.cycle import BRANCHES, PILLARS, parse_pillar
from shensha_plates.core.errors import InputError
from shensha_plates.core.liuren import compute_ke
from shensha_plates.core.liuren.ke import Ke
from shensha_plates.core.liuren.nianming import NianMing, Querent, querent_on, xing_nian_pillar
from shensha_plates.core.liuren.patterns import detect_patterns, not_tried, patterns

B = BRANCHES.index
COUPLE = {"繁昌", "旺孕", "解离"}


def ke_at(day: str, hour: str, general: str) -> Ke:
    return compute_ke(parse_pillar(day), B(hour), B(general))


def age_for(sex: str, xing_nian: str) -> int:
    """The age (虚岁) whose 行年 is ``xing_nian``: a pillar (甲寅) or a branch (寅, the youngest such age)."""
    return next(a for a in range(1, 100) if (PILLARS[xing_nian_pillar(sex, a)] == xing_nian  # type: ignore[arg-type]
                                            or PILLARS[xing_nian_pillar(sex, a)][1] == xing_nian))  # type: ignore[arg-type]


def couple(ke: Ke, husband: str, wife: str, querent: str = "m") -> NianMing:
    """The querent (the husband, or the wife when ``querent`` is f) with the partner, by their 行年."""
    man = Querent.parse("甲子", "m", age_for("m", husband))
    woman = Querent.parse("甲子", "f", age_for("f", wife))
    q = man.with_partner(woman) if querent == "m" else woman.with_partner(man)
    nm = querent_on(q, ke.plate.heaven, ke.plate.generals, None, None)
    assert nm is not None and nm.couple() is not None
    return nm


def names(ke: Ke, **kw: object) -> set[str]:
    return {p.name for p in detect_patterns(ke, **kw)}  # type: ignore[arg-type]


# -- 繁昌 (德孕) ---------------------------------------------------------------------------------------

def test_fanchang_book_example() -> None:
    # 「如壬申日未时巳将，夫行年甲寅，妻行年己亥，上下相生作合」: 夫年四十九 甲寅, 妻年三十四 己亥 (《观月经》)
    assert age_for("m", "甲寅") == 49 and age_for("f", "己亥") == 34
    ke = ke_at("壬申", "未", "巳")
    nm = couple(ke, "甲寅", "己亥")
    fu, qi = nm.couple()  # type: ignore[misc]
    assert (BRANCHES[fu.heaven], BRANCHES[qi.heaven]) == ("子", "酉")  # 「寅上见子……亥上见酉」
    assert "繁昌" in names(ke, nian_ming=nm)
    assert "繁昌" in names(ke, nian_ming=couple(ke, "甲寅", "己亥", querent="f"))  # the wife asking
    hit = next(h for h in detect_patterns(ke, nian_ming=nm) if h.name == "繁昌")
    assert "甲寅" in hit.why and "己亥" in hit.why


def test_fanchang_near_misses() -> None:
    ke = ke_at("壬申", "未", "巳")
    assert "繁昌" not in names(ke, nian_ming=couple(ke, "甲寅", "乙亥"))  # 寅亥 合 but 甲乙 do not
    assert "繁昌" not in names(ke, nian_ming=couple(ke, "甲寅", "己巳"))  # 甲己 合 but 寅巳 do not
    assert "繁昌" not in names(ke, nian_ming=couple(ke, "甲寅", "己亥").partner)  # one person alone


# -- 旺孕 ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("month", "husband", "wife", "source"), [
    ("辰", "寅", "午", "卷九 解离课下：三月，夫年立寅，妻年立午，逢春旺相气"),
    ("寅", "寅", "午", "《心镜》春占，妻午夫年立在寅"),
    ("申", "申", "子", "《心镜》受气于秋，妻在子兮夫立申"),
    ("卯", "午", "寅", "《曾门》春占，夫年立午，妻年立寅"),
])
def test_wangyun_book_examples(month: str, husband: str, wife: str, source: str) -> None:
    ke = ke_at("甲子", "未", "酉")  # 「三月甲子日未时酉将」 (旺孕 does not read the lesson)
    nm = couple(ke, husband, wife)
    assert "旺孕" in names(ke, nian_ming=nm, month=B(month)), source


def test_wangyun_near_misses() -> None:
    ke = ke_at("甲子", "未", "酉")
    nm = couple(ke, "寅", "午")
    assert "旺孕" not in names(ke, nian_ming=nm, month=B("申"))  # autumn: 寅 wood is 死
    assert "旺孕" not in names(ke, nian_ming=nm, month=B("亥"))  # winter: 午 fire is 囚
    assert "旺孕" not in names(ke, nian_ming=couple(ke, "寅", "未"), month=B("辰"))  # 寅未 are no 三合
    assert "旺孕" not in names(ke, nian_ming=nm)  # no month: not tried
    # the 《观月经》's variant (七月，夫年寅上子、妻年亥上酉：the uppers 旺) is not taken
    ke7 = ke_at("甲子", "未", "巳")
    nm7 = couple(ke7, "寅", "亥")
    fu, qi = nm7.couple()  # type: ignore[misc]
    assert (BRANCHES[fu.heaven], BRANCHES[qi.heaven]) == ("子", "酉")
    assert "旺孕" not in names(ke7, nian_ming=nm7, month=B("申"))


# -- 解离 ---------------------------------------------------------------------------------------------

def test_jieli_book_examples() -> None:
    # 正文 (and 《心镜》 二月寅时)：「夫年立午上见寅，妻年立子上见申……上下互相克贼」
    ke = ke_at("甲子", "寅", "戌")
    nm = couple(ke, "午", "子")
    fu, qi = nm.couple()  # type: ignore[misc]
    assert (BRANCHES[fu.heaven], BRANCHES[qi.heaven]) == ("寅", "申")
    assert "解离" in names(ke, nian_ming=nm)
    # 《观月经》：「妻年行至午，夫年立于寅。六月申时占……夫运寅上见子，妻运午上见辰。辰逢克子水」
    ke6 = ke_at("甲子", "申", "午")
    nm6 = couple(ke6, "寅", "午")
    fu, qi = nm6.couple()  # type: ignore[misc]
    assert (BRANCHES[fu.heaven], BRANCHES[qi.heaven]) == ("子", "辰")
    assert "解离" in names(ke6, nian_ming=nm6)


def test_jieli_near_misses() -> None:
    ke = ke_at("甲子", "寅", "戌")
    assert "解离" not in names(ke, nian_ming=couple(ke, "午", "卯"))  # 寅 over 午, 亥 over 卯: 水生木
    assert "解离" not in names(ke, nian_ming=couple(ke, "午", "午"))  # the same upper
    ke6 = ke_at("甲子", "申", "巳")  # an hour later in the season: 亥 over 寅, 卯 over 午 — 水生木
    assert "解离" not in names(ke6, nian_ming=couple(ke6, "寅", "午"))


# -- without a partner they are not tried ------------------------------------------------------------

def test_not_tried_without_a_partner() -> None:
    ke = ke_at("壬申", "未", "巳")
    nm = couple(ke, "甲寅", "己亥")
    alone = querent_on(Querent.parse("甲子", "m", 49), ke.plate.heaven, ke.plate.generals, None, None)
    assert COUPLE <= set(not_tried(month=B("申"), nian_ming=alone)[0])
    assert COUPLE <= set(not_tried(month=B("申"))[0])
    assert not COUPLE & set(not_tried(month=B("申"), nian_ming=nm)[0])
    assert "旺孕" in not_tried(nian_ming=nm)[0]  # the month too
    assert {p.name for p in patterns() if p.id in ("fanchang", "wangyun", "jieli")} == COUPLE


def test_the_partner_is_of_the_other_sex() -> None:
    man = Querent.parse("1975", "m")
    with pytest.raises(InputError, match="partner"):
        man.with_partner(Querent.parse("1977", "m"))
    q = man.with_partner(Querent.parse("1977", "f").with_partner(Querent.parse("1980", "m")))
    assert q.partner is not None and q.partner.partner is None
