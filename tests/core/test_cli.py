"""The command line: readable text, the stable JSON shape, one-line errors with status 2."""

from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest

from shensha_plates.core.cli import main
from shensha_plates.core.cycle import BRANCHES


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), out=out, err=err)
    return code, out.getvalue(), err.getvalue()


def test_show_text() -> None:
    code, out, err = run("show", "--year", "丙午", "--month", "11", "--xun", "甲辰", "--day", "庚戌")
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0] == "丙午年 冬月 甲辰旬 庚戌日"
    rows = [ln for ln in lines if ln[:1] in BRANCHES and ln[1:3] == " │"]
    assert [r[0] for r in rows] == list(BRANCHES)
    assert "太岁盘: 太岁" in rows[6]  # 午
    assert "月建盘: 月建" in rows[0]  # 冬月 = 子


def test_show_traditional() -> None:
    code, out, _ = run("show", "--year", "丙午", "--month", "冬", "--xun", "甲辰", "--lang", "zh-Hant")
    assert code == 0 and "太歲盤: 太歲" in out


def test_show_json_shape() -> None:
    code, out, _ = run("show", "--year", "丙午", "--month", "11", "--xun", "甲辰", "--day", "庚戌",
                       "--format", "json")
    assert code == 0
    data = json.loads(out)
    assert list(data["positions"]) == list(BRANCHES)
    st = data["state"]
    assert (st["year"], st["year_branch"], st["month"], st["month_branch"], st["season"], st["xun"], st["day"]) == \
        ("丙午", "午", 11, "子", "冬", "甲辰", "庚戌")
    item = data["positions"]["午"][0]
    basic = ("id", "name", "name_trad", "group", "ring", "at", "conditional")
    assert set(item) == {*basic, "aliases", "aliases_trad", "meaning", "source", "variant", "verdict", "pinyin", "gloss_en"}
    assert {k: item[k] for k in basic} == {"id": "tai_sui", "name": "太岁", "name_trad": "太歲", "group": "year",
                                          "ring": "U1", "at": "午", "conditional": None}
    assert item["source"] == {"file": "002", "file_name": "002_b172610dbc9e798d.txt",
                              "book": "《大六壬指南》卷四 神煞（庄广之，今译）", "quote": "以太岁加在子位"}
    assert (item["aliases"], item["aliases_trad"], item["variant"], item["verdict"]) == (["岁君"], ["歲君"], None, None)
    tables = [{k: p[k] for k in basic} for p in data["positions"]["巳"] if p["id"] == "tian_de"]
    assert tables == [{"id": "tian_de", "name": "天德", "name_trad": "天德", "group": "month", "ring": None,
                       "at": "巽", "conditional": None}]


def test_bare_branch_year_and_traditional_input() -> None:
    code, out, _ = run("show", "--year", "午", "--month", "子", "--xun", "甲辰", "--format", "json")
    assert code == 0 and json.loads(out)["state"]["year"] == "午"
    code, out, _ = run("show", "--year", "丙午", "--month", "臘", "--xun", "甲辰旬", "--format", "json")
    assert code == 0 and json.loads(out)["state"]["month"] == 12


def test_variant_option() -> None:
    code, out, _ = run("show", "--year", "丙午", "--month", "2", "--xun", "甲辰", "--format", "json",
                       "--variant", "tian_xi=shun_twelve")
    data = json.loads(out)
    assert code == 0 and data["variants"] == {"tian_xi": "shun_twelve"}
    assert any(p["id"] == "tian_xi" and p["ring"] is None for p in data["positions"]["亥"])


@pytest.mark.parametrize("argv,needle", [
    (["show", "--year", "丙丑", "--month", "1", "--xun", "甲子"], "pillar"),
    (["show", "--year", "丙午", "--month", "13", "--xun", "甲子"], "invalid month"),
    (["show", "--year", "丙午", "--month", "1", "--xun", "乙丑"], "invalid xun"),
    (["show", "--year", "丙午", "--month", "1", "--xun", "甲子", "--variant", "zz=1"], "unknown variant"),
    (["show", "--year", "丙午", "--month", "1", "--xun", "甲子", "--format", "xml"], "invalid choice"),
    (["show", "--month", "1"], "--year and --month are required"),
    (["show", "--date", "2023-02-30"], "invalid date"),
    (["show", "--date", "1850-01-01"], "outside the supported range"),
    (["show", "--date", "2026-01-01", "--tz", "Mars/Olympus"], "unknown time zone"),
    (["show", "--date", "2026-01-01", "--year", "丙午"], "either --date"),
    (["bogus"], "invalid choice"),
])
def test_errors_are_one_line_status_2(argv: list[str], needle: str) -> None:
    code, out, err = run(*argv)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and needle in err and "Traceback" not in err


def test_console_script_runs_without_traceback() -> None:
    proc = subprocess.run([sys.executable, "-m", "shensha_plates.gui.shell.launcher", "show", "--year", "丙午", "--month", "13",
                           "--xun", "甲辰"], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr and "invalid month" in proc.stderr
