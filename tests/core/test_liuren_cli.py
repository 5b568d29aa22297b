"""The ``ke`` command: the three forms, the JSON keys of the scripting interface, the traditional
text layout, and bad input (one line, exit status 2, nothing on stdout)."""

from __future__ import annotations

import io
import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shensha_plates.core.cli import main
from shensha_plates.core.liuren import liuren_tables


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), out, err)
    return code, out.getvalue(), err.getvalue()


def test_json_from_the_date_alone_matches_seed_case() -> None:
    code, out, err = run("ke", "--date", "1998-11-30T12:00", "--format", "json")
    assert code == 0 and err == ""
    data = json.loads(out)
    for key in ("general", "heaven", "generals", "lessons", "transmissions", "method", "steps", "spirits"):
        assert key in data
    assert data["general"] == "寅" and data["day"] == "辛巳" and data["hour"] == "午"
    assert data["heaven"]["戌"] == "午" and len(data["heaven"]) == 12
    assert set(data["generals"].values()) == {g.name for g in liuren_tables().generals}
    assert [(x["upper"], x["lower"], x["general"]) for x in data["lessons"]] == [
        ("午", "辛", "贵人"), ("寅", "午", "勾陈"), ("丑", "巳", "青龙"), ("酉", "丑", "玄武")]
    assert [(t["branch"], t["general"]) for t in data["transmissions"]] == [("午", "贵人"), ("寅", "勾陈"), ("戌", "太常")]
    assert set(data["transmissions"][0]) >= {"branch", "general", "kin", "stem", "void"}
    assert data["method"]["ke"] == "元首" and all(s["rule"] and s["text"] for s in data["steps"])
    names = {n["id"]: n for n in data["spirits"]["names"]}
    assert names["gui_hu"]["in_force"] is True and names["qing_long_sha"]["in_force"] is False
    assert [s["branch"] for s in data["spirits"]["lessons"]] == ["午", "寅", "丑", "酉"]
    assert "天目" in [x["name"] for x in data["spirits"]["lessons"][2]["spirits"]]  # 支上为天目


def test_day_hour_general_form_and_text_layout() -> None:
    code, out, _ = run("ke", "--day", "丁未", "--hour", "戌", "--general", "丑")
    assert code == 0
    lines = out.splitlines()
    i = lines.index(next(x for x in lines if x.startswith("四课")))
    # lessons right to left: generals, uppers, lowers as seed 002 prints them
    assert lines[i + 1].split() == ["常", "后", "常", "后"]
    assert lines[i + 2].split() == ["丑", "戌", "丑", "戌"]
    assert lines[i + 3].split() == ["戌", "未", "戌", "丁"]
    trans = [x.split() for x in lines if x.strip().startswith(("初传", "中传", "末传")) and "：" not in x]
    assert [t[3] for t in trans] == ["亥", "戌", "戌"] and [t[4] for t in trans] == ["太阴", "天后", "天后"]
    assert "未给年月" in out


def test_traditional_switch() -> None:
    code, out, _ = run("ke", "--day", "丁未", "--hour", "戌", "--general", "丑", "--lang", "zh-Hant")
    assert code == 0 and "三傳" in out and "八專" in out and "三传" not in out


def test_all_lists_720() -> None:
    code, out, _ = run("ke", "--all", "--format", "json")
    data = json.loads(out)
    assert code == 0 and len(data) == 720
    assert {(d["day"], d["general"]) for d in data} == {(d["day"], d["general"]) for d in data}
    assert len({(d["day"], d["general"]) for d in data}) == 720
    assert set(data[0]) == {"day", "general", "lessons", "transmissions", "method"}
    code, text, _ = run("ke", "--all", "--variant", "shehai=depth")
    assert code == 0 and len(text.splitlines()) == 721


def test_variant_changes_the_answer() -> None:
    _, a, _ = run("ke", "--day", "丁卯", "--hour", "丑", "--general", "亥", "--format", "json")
    _, b, _ = run("ke", "--day", "丁卯", "--hour", "丑", "--general", "亥", "--format", "json",
                  "--variant", "shehai=depth")
    assert [t["branch"] for t in json.loads(a)["transmissions"]] == ["丑", "亥", "酉"]
    assert [t["branch"] for t in json.loads(b)["transmissions"]] == ["亥", "酉", "未"]


@pytest.mark.parametrize(("argv", "words"), [
    (("ke", "--day", "辛巳", "--hour", "甲", "--general", "寅"), "invalid hour: '甲'"),
    (("ke", "--day", "辛巳", "--hour", "午时午", "--general", "寅"), "invalid hour"),
    (("ke", "--day", "甲丑", "--hour", "午", "--general", "寅"), "'甲丑'"),
    (("ke", "--day", "辛巳日x", "--hour", "午", "--general", "寅"), "辛巳日x"),
    (("ke", "--day", "辛巳", "--hour", "午"), "--general"),
    (("ke", "--day", "辛巳", "--hour", "午", "--general", "虎"), "invalid general: '虎'"),
    (("ke", "--date", "1998-11-30T12:00", "--general", "卯"), "disagrees with the date"),
    (("ke", "--date", "1998-13-30T12:00"), "invalid date"),
    (("ke", "--date", "1998-11-30T12:00", "--tz", "Mars/Base"), "unknown time zone"),
    (("ke", "--day", "辛巳", "--hour", "午", "--general", "寅", "--variant", "shehai=deep"), "'deep'"),
    (("ke", "--day", "辛巳", "--hour", "午", "--general", "寅", "--variant", "nosuch=1"), "unknown variant: 'nosuch'"),
    (("ke", "--day", "辛巳", "--hour", "午", "--general", "寅", "--variant", "shehai"), "ID=CHOICE"),
    (("ke", "--all", "--day", "辛巳"), "--all"),
    (("ke",), "give --date"),
    (("ke", "--date", "1998-11-30T12:00", "--day", "辛巳"), "not both"),
    (("ke", "--day", "辛巳", "--hour", "午", "--general", "寅", "--tz", "UTC"), "--tz only"),
    (("ke", "--format", "xml", "--all"), "invalid choice"),
])
def test_bad_input_is_one_line_and_status_2(argv: tuple[str, ...], words: str) -> None:
    code, out, err = run(*argv)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("shensha-plates: error:")
    assert words in err, err


def test_general_that_agrees_with_the_date_is_accepted() -> None:
    code, out, _ = run("ke", "--date", "1998-11-30T12:00", "--general", "寅")
    assert code == 0 and "寅将加午" in out


def test_general_by_name() -> None:
    _, by_branch, _ = run("ke", "--day", "辛巳", "--hour", "午", "--general", "寅", "--format", "json")
    _, by_name, _ = run("ke", "--day", "辛巳", "--hour", "午", "--general", "功曹", "--format", "json")
    assert json.loads(by_branch) == json.loads(by_name)


@given(st.lists(st.sampled_from(["--day", "--hour", "--general", "--date", "--tz", "--all", "--variant", "--format",
                                 "--lang", "辛巳", "午", "寅", "功曹", "1998-11-30T12:00", "UTC", "json", "text",
                                 "shehai=depth", "noble=x", "zh-Hant", "甲", "", "\n", "=", "--"]), max_size=8))
def test_fuzzed_arguments_never_raise(argv: list[str]) -> None:
    code, out, err = run("ke", *argv)
    assert code in (0, 2)
    if code == 2:
        assert out == "" and err.count("\n") == 1
