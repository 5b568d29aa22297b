"""年命: the 行年 count (a man from 丙寅 forward, a woman from 壬申 backward, by 虚岁), the two years on
the plate with what rides them, and ``ke --birth --sex [--age]``."""

from __future__ import annotations

import io
import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shensha_plates.core.cli import main
from shensha_plates.core.cycle import BRANCHES, PILLARS, pillar_name
from shensha_plates.core.engine import State, compute_plate
from shensha_plates.core.errors import InputError
from shensha_plates.core.liuren import liuren_tables
from shensha_plates.core.liuren.nianming import age_between, parse_birth, parse_sex, xing_nian_pillar


def ke(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(["ke", *argv], out=out, err=err)
    return code, out.getvalue(), err.getvalue()


def test_the_count_runs_from_bingyin_and_renshen() -> None:
    men = [pillar_name(xing_nian_pillar("m", a)) for a in range(1, 5)]
    women = [pillar_name(xing_nian_pillar("f", a)) for a in range(1, 5)]
    assert men == ["丙寅", "丁卯", "戊辰", "己巳"]  # 男一岁丙寅，顺行
    assert women == ["壬申", "辛未", "庚午", "己巳"]  # 女一岁壬申，逆行
    # full years: one place behind (the first full year is 丙寅)
    assert pillar_name(xing_nian_pillar("m", 2, "zhousui")) == "丙寅"
    assert pillar_name(xing_nian_pillar("f", 3, "zhousui")) == "辛未"


@given(st.integers(1, 90), st.sampled_from(["m", "f"]))
def test_the_count_goes_round_the_sixty_pillars(age: int, sex: str) -> None:
    step = 1 if sex == "m" else -1
    a = xing_nian_pillar(sex, age)  # type: ignore[arg-type]
    assert xing_nian_pillar(sex, age + 1) == (a + step) % 60  # type: ignore[arg-type]
    assert xing_nian_pillar(sex, age + 60) == a if age + 60 <= 150 else True  # type: ignore[arg-type]


def test_the_setting_is_data_with_its_passage() -> None:
    t = liuren_tables()
    s = t.settings["xingnian"]
    assert [c.id for c in s.choices] == ["xusui", "zhousui", "liujia"]
    assert "丙寅" in s.choices[0].source.quote and "壬申" in s.choices[0].source.quote
    assert t.books[s.choices[0].source.book or ""].title == "六壬粹言"  # 行年第九: 此正法也
    assert s.choices[1].source.file == "002"  # seed 002's first case reads the 行年
    assert t.books[s.choices[2].source.book or ""].title == "大六壬类集"
    for c in s.choices:  # quoted at second hand: the data says so
        assert c.source.file or "未能在此对照原书" in c.note


# 《大六壬类集·六甲起行年法》: the first year of each 旬's births (man, woman)
_LIUJIA = {"甲子": ("丙寅", "壬申"), "甲戌": ("丙子", "壬午"), "甲申": ("丙戌", "壬辰"),
           "甲午": ("丙申", "壬寅"), "甲辰": ("丙午", "壬子"), "甲寅": ("丙辰", "壬戌")}


@pytest.mark.parametrize("head", list(_LIUJIA))
def test_the_liujia_count_starts_from_the_births_xun(head: str) -> None:
    for offset in range(10):  # every birth year of the 旬 starts at the same place
        birth = (PILLARS.index(head) + offset) % 60
        man, woman = _LIUJIA[head]
        assert pillar_name(xing_nian_pillar("m", 1, "liujia", birth)) == man
        assert pillar_name(xing_nian_pillar("f", 1, "liujia", birth)) == woman
        assert xing_nian_pillar("m", 5, "liujia", birth) == (PILLARS.index(man) + 4) % 60
        assert xing_nian_pillar("f", 5, "liujia", birth) == (PILLARS.index(woman) - 4) % 60
    # a birth in the 甲子旬 counts as the default; the others do not
    first = PILLARS.index(head)
    same = all(xing_nian_pillar(x, a, "liujia", first) == xing_nian_pillar(x, a)  # type: ignore[arg-type]
               for x in ("m", "f") for a in range(1, 61))
    assert same == (head == "甲子")
    with pytest.raises(InputError, match="year of birth"):
        xing_nian_pillar("m", 3, "liujia")


def test_ke_counts_the_liujia_way_when_asked() -> None:
    # 1994 is 甲戌 (the 甲戌旬): a man of 虚岁 3 is at 丙子 + 2 = 戊寅, by the default at 戊辰
    code, out, err = ke("--day", "甲子", "--hour", "子", "--general", "子", "--birth", "1994", "--sex", "m",
                        "--age", "3", "--variant", "xingnian=liujia", "--format", "json")
    assert code == 0, err
    nm = json.loads(out)["nian_ming"]
    assert (nm["xing_nian"]["pillar"], nm["count"]) == ("戊寅", "liujia")
    code, out, err = ke("--day", "甲子", "--hour", "子", "--general", "子", "--birth", "1994", "--sex", "m",
                        "--age", "3", "--variant", "xingnian=liujia")
    assert code == 0, err
    assert "六甲起行年" in out and "行年 戊寅" in out
    code, out, _ = ke("--day", "甲子", "--hour", "子", "--general", "子", "--birth", "1994", "--sex", "m",
                      "--age", "3", "--format", "json")
    assert json.loads(out)["nian_ming"]["xing_nian"]["pillar"] == "戊辰"


def test_birth_and_sex_parse() -> None:
    assert parse_birth("1975") == (PILLARS.index("乙卯"), 1975)
    assert parse_birth("乙卯年") == (PILLARS.index("乙卯"), None)
    assert parse_sex("女") == "f" and parse_sex("M") == "m"
    for bad in ("0", "19x5", "乙子", ""):
        with pytest.raises(InputError):
            parse_birth(bad)
    with pytest.raises(InputError):
        parse_sex("x")
    assert age_between(PILLARS.index("乙卯"), 1975, PILLARS.index("戊寅"), 1998) == 24
    assert age_between(PILLARS.index("乙卯"), None, PILLARS.index("戊寅"), None) == 24  # the youngest


def test_ke_places_both_years_with_what_rides_them() -> None:
    code, out, _ = ke("--date", "1998-11-30T12:00", "--birth", "1975", "--sex", "m", "--format", "json")
    assert code == 0
    data = json.loads(out)
    nm = data["nian_ming"]
    assert (nm["sex"], nm["age"], nm["count"]) == ("m", 24, "xusui")
    assert nm["ben_ming"]["pillar"] == "乙卯" and nm["xing_nian"]["pillar"] == "己丑"  # 丙寅 + 23
    state = State.parse("戊寅", 10, "甲戌", "辛巳")
    plate = compute_plate(state)
    for role in ("ben_ming", "xing_nian"):
        y = nm[role]
        assert y["heaven"] == data["heaven"][y["branch"]]  # the heaven branch standing over it
        assert y["general"] == data["generals"][y["branch"]]  # and the general there
        assert [s["id"] for s in y["spirits"]] == [p.id for p in plate.positions[BRANCHES.index(y["heaven"])]]
        assert nm["heaven"][role] == y["heaven"] and nm["general"][role] == y["general"]
    # the text says it too
    code, text, _ = ke("--date", "1998-11-30T12:00", "--birth", "1975", "--sex", "f")
    assert code == 0 and "年命（女，虚岁24）" in text and "行年 己酉" in text and "本命 乙卯" in text
    # without a birth, nothing
    assert json.loads(ke("--date", "1998-11-30T12:00", "--format", "json")[1])["nian_ming"] is None


def test_ke_without_a_date_takes_the_age_and_the_setting() -> None:
    code, out, _ = ke("--day", "辛巳", "--hour", "午", "--general", "寅", "--birth", "乙卯", "--sex", "m",
                      "--age", "24", "--format", "json")
    assert code == 0
    nm = json.loads(out)["nian_ming"]
    assert nm["xing_nian"]["pillar"] == "己丑"
    assert nm["spirits"]["xing_nian"]  # the xun's and the day's spirits, at least
    code, out, _ = ke("--day", "辛巳", "--hour", "午", "--general", "寅", "--birth", "乙卯", "--sex", "m",
                      "--age", "24", "--variant", "xingnian=zhousui", "--format", "json")
    assert json.loads(out)["nian_ming"]["xing_nian"]["pillar"] == "戊子"


@pytest.mark.parametrize("argv, words", [
    (["--birth", "1975"], "--sex"),
    (["--sex", "m"], "--birth"),
    (["--age", "3"], "--birth"),
    (["--birth", "1975", "--sex", "x"], "sex"),
    (["--birth", "1975", "--sex", "m", "--age", "0"], "--age"),
    (["--birth", "1975", "--sex", "m", "--age", "30"], "disagrees"),
    (["--birth", "2001", "--sex", "m"], "after"),
    (["--birth", "甲子", "--sex", "m", "--age", "24"], "do not meet"),
])
def test_bad_year_of_life_input_gets_one_line(argv: list[str], words: str) -> None:
    code, out, err = ke("--date", "1998-11-30T12:00", *argv)
    assert code == 2 and out == "" and words in err and err.count("\n") == 1, err


def test_without_a_date_the_age_is_needed() -> None:
    code, _, err = ke("--day", "辛巳", "--hour", "午", "--general", "寅", "--birth", "1975", "--sex", "m")
    assert code == 2 and "--age" in err


def test_a_lesson_keeps_its_querent_and_a_damaged_one_is_named(tmp_path: object) -> None:
    from pathlib import Path

    from shensha_plates.core.liuren.nianming import Querent
    from shensha_plates.core.teaching import LessonError, LessonPlan, LessonStep, load_lesson, save_lesson
    path = Path(str(tmp_path)) / "l.json"
    plan = LessonPlan("x", (LessonStep(State.parse("甲子", 1, "甲子")),), Querent.parse("乙卯", "女", 24))
    save_lesson(path, plan)
    assert load_lesson(path) == plan
    data = json.loads(path.read_text("utf-8"))
    for querent, field in (({"birth": 1975, "sex": "m"}, "querent.birth"), ({"birth": "1975", "sex": "x"}, "querent.sex"),
                           ({"birth": "1975", "sex": "m", "age": "3"}, "querent.age"),
                           ({"birth": "1975", "sex": "m", "age": 0}, "querent.age"),
                           ({"birth": "甲丑", "sex": "m"}, "querent.birth"), ([], "querent"),
                           ({"birth": "1975", "sex": "m", "extra": 1}, "querent")):
        path.write_text(json.dumps({**data, "querent": querent}), "utf-8")
        with pytest.raises(LessonError) as e:
            load_lesson(path)
        assert e.value.field == field, (querent, e.value)
    del data["querent"]  # a lesson of before: no querent
    path.write_text(json.dumps(data), "utf-8")
    assert load_lesson(path).querent is None


# -- the partner (a second querent: 繁昌 旺孕 解离 read the husband's and the wife's 行年) ------------------

def test_ke_places_the_partners_years_too() -> None:
    code, out, _ = ke("--date", "1998-11-30T12:00", "--birth", "1975", "--sex", "m", "--partner-birth", "1977",
                      "--partner-sex", "f", "--format", "json")
    assert code == 0
    data = json.loads(out)
    p = data["nian_ming"]["partner"]
    assert (p["sex"], p["age"]) == ("f", 22) and p["ben_ming"]["pillar"] == "丁巳"
    assert p["xing_nian"]["pillar"] == pillar_name(xing_nian_pillar("f", 22)) == "辛亥"  # 壬申 − 21
    assert p["xing_nian"]["heaven"] == data["heaven"][p["xing_nian"]["branch"]] and "partner" not in p
    assert "繁昌" not in data["not_tried"]["patterns"] and "解离" not in data["not_tried"]["patterns"]
    code, text, _ = ke("--date", "1998-11-30T12:00", "--birth", "1975", "--sex", "m", "--partner-birth", "1977",
                       "--partner-sex", "女")
    assert code == 0 and "配偶年命（女，虚岁22）" in text and "行年 辛亥" in text
    code, text, _ = ke("--date", "1998-11-30T12:00", "--birth", "1975", "--sex", "m", "--partner-birth", "1977",
                       "--partner-sex", "f", "--lang", "en")
    assert code == 0 and "The partner (woman, age 22" in text
    # without a partner the three are not tried, and the last line says so
    data = json.loads(ke("--date", "1998-11-30T12:00", "--birth", "1975", "--sex", "m", "--format", "json")[1])
    assert data["nian_ming"]["partner"] is None and {"繁昌", "旺孕", "解离"} <= set(data["not_tried"]["patterns"])
    code, text, _ = ke("--date", "1998-11-30T12:00", "--birth", "1975", "--sex", "m")
    assert "须配偶年命而未判：繁昌、旺孕、解离\n" in text
    # without a date the partner's age is given like the querent's
    code, out, _ = ke("--day", "辛巳", "--hour", "午", "--general", "寅", "--birth", "1975", "--sex", "m", "--age", "24",
                      "--partner-birth", "1977", "--partner-sex", "f", "--partner-age", "22", "--format", "json")
    assert code == 0 and json.loads(out)["nian_ming"]["partner"]["xing_nian"]["pillar"] == "辛亥"


@pytest.mark.parametrize("argv, words", [
    (["--partner-birth", "1977", "--partner-sex", "f"], "--partner-birth goes with --birth"),
    (["--birth", "1975", "--sex", "m", "--partner-birth", "1977"], "--partner-birth needs --partner-sex"),
    (["--birth", "1975", "--sex", "m", "--partner-sex", "f"], "--partner-sex and --partner-age go with --partner-birth"),
    (["--birth", "1975", "--sex", "m", "--partner-birth", "1977", "--partner-sex", "x"], "invalid partner sex"),
    (["--birth", "1975", "--sex", "m", "--partner-birth", "1977", "--partner-sex", "m"], "must differ"),
    (["--birth", "1975", "--sex", "m", "--partner-birth", "2001", "--partner-sex", "f"], "--partner-birth: the birth year 2001"),
    (["--birth", "1975", "--sex", "m", "--partner-birth", "0", "--partner-sex", "f"], "invalid partner birth year"),
    (["--birth", "1975", "--sex", "m", "--partner-birth", "1977", "--partner-sex", "f", "--partner-age", "200"],
     "invalid --partner-age"),
    (["--birth", "1975", "--sex", "m", "--partner-birth", "1977", "--partner-sex", "f", "--partner-age", "30"],
     "--partner-age 30 disagrees"),
])
def test_bad_partner_input_gets_one_line(argv: list[str], words: str) -> None:
    code, out, err = ke("--date", "1998-11-30T12:00", *argv)
    assert code == 2 and out == "" and words in err and err.count("\n") == 1, err


def test_a_lesson_keeps_the_partner_and_a_damaged_one_is_named(tmp_path: object) -> None:
    from pathlib import Path

    from shensha_plates.core.liuren.nianming import Querent
    from shensha_plates.core.teaching import LessonError, LessonPlan, LessonStep, load_lesson, save_lesson
    path = Path(str(tmp_path)) / "l.json"
    q = Querent.parse("1975", "m").with_partner(Querent.parse("丁巳", "f", 22))
    plan = LessonPlan("x", (LessonStep(State.parse("甲子", 1, "甲子")),), q)
    save_lesson(path, plan)
    assert load_lesson(path) == plan and load_lesson(path).querent.partner.birth_text == "丁巳"  # type: ignore[union-attr]
    data = json.loads(path.read_text("utf-8"))
    assert data["querent"]["partner"] == {"birth": "丁巳", "sex": "f", "age": 22}
    for partner, field in (({"birth": 1977, "sex": "f"}, "querent.partner.birth"),
                           ({"birth": "1977", "sex": "x"}, "querent.partner.sex"),
                           ({"birth": "1977", "sex": "m"}, "querent.partner.sex"),  # the querent's own sex
                           ({"birth": "1977", "sex": "f", "partner": {}}, "querent.partner"), ([], "querent.partner")):
        path.write_text(json.dumps({**data, "querent": {**data["querent"], "partner": partner}}), "utf-8")
        with pytest.raises(LessonError) as e:
            load_lesson(path)
        assert e.value.field == field, (partner, e.value)
