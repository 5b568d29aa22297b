"""The scripting interface of issue 15: every placement in ``show --format json`` carries its other
names, meaning, source and the reading in force with Zhuang's verdict; ``variants`` lists the readings;
a rejected reading is never chosen silently."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest

from shensha_plates.core.catalog import SEED_FILES, default_catalog
from shensha_plates.core.cli import main


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), out, err)
    return code, out.getvalue(), err.getvalue()


def show_json(*extra: str) -> dict[str, Any]:
    code, out, _ = run("show", "--year", "子", "--month", "1", "--xun", "甲子", "--day", "甲子", "--format", "json", *extra)
    assert code == 0
    return json.loads(out)


def placements(data: dict[str, Any]) -> list[dict[str, Any]]:
    return [p for row in data["positions"].values() for p in row]


def test_every_placement_carries_names_meaning_source_reading_and_verdict() -> None:
    cat = default_catalog()
    for p in placements(show_json()):
        s = cat.spirit(p["id"])
        assert p["aliases"] == list(s.aliases) and p["aliases_trad"] == list(s.aliases_trad)
        assert p["meaning"] == s.meaning
        src = p["source"]
        assert src["quote"] and src["book"].startswith("《") and ".txt" not in src["book"]
        assert src["file_name"] == SEED_FILES[src["file"]]
        assert p["variant"] == ("default" if s.variants else None)
        assert p["verdict"] in ("accepted", "rejected", None)


@pytest.mark.parametrize("other,sid", [("岁宅", "xiao_hao"), ("龙德", "sui_mu"), ("破碎", "jin_shen"), ("空亡", "gu")])
def test_a_script_finds_a_spirit_by_its_other_name(other: str, sid: str) -> None:
    found = {p["id"] for p in placements(show_json()) if other in p["aliases"]}
    assert sid in found


def test_the_reading_in_force_and_zhuangs_verdict() -> None:
    default = [p for p in placements(show_json()) if p["id"] == "tian_xi"]
    assert [(p["variant"], p["verdict"]) for p in default] == [("default", "accepted")]
    code, out, err = run("show", "--year", "子", "--month", "1", "--xun", "甲子", "--format", "json",
                         "--variant", "tian_xi=shun_twelve")
    data = json.loads(out)
    chosen = [p for p in placements(data) if p["id"] == "tian_xi"]
    assert [(p["variant"], p["verdict"]) for p in chosen] == [("shun_twelve", "rejected")]
    assert chosen[0]["source"]["quote"] == default_catalog().spirit("tian_xi").variant("shun_twelve").source.quote
    assert data["variant_verdicts"] == {"tian_xi": "rejected"}
    assert code == 0 and "tian_xi=shun_twelve" in err and "rejected" in err


def every_rejected() -> list[tuple[str, str]]:
    return [(s.id, v.id) for s in default_catalog().spirits for v in s.variants if v.verdict == "rejected"]


@pytest.mark.parametrize("sid,vid", every_rejected())
def test_a_rejected_reading_is_never_chosen_silently(sid: str, vid: str) -> None:
    code, out, err = run("show", "--year", "子", "--month", "1", "--xun", "甲子", "--day", "甲子", "--variant", f"{sid}={vid}")
    assert code == 0 and out
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("shensha-plates: warning:") and f"{sid}={vid}" in lines[0]


def test_no_warning_for_a_reading_zhuang_does_not_reject() -> None:
    code, _, err = run("show", "--year", "子", "--month", "1", "--xun", "甲子",
                       "--variant", "huang_en_da_she=square_table", "--variant", "tian_xi=default")
    assert code == 0 and err == ""


def test_variants_lists_every_spirit_with_variants() -> None:
    code, out, _ = run("variants", "--format", "json")
    assert code == 0
    data = json.loads(out)
    cat = default_catalog()
    assert [s["id"] for s in data["spirits"]] == [s.id for s in cat.spirits if s.variants]
    for s in data["spirits"]:
        spirit = cat.spirit(s["id"])
        assert [r["id"] for r in s["readings"]] == ["default"] + [v.id for v in spirit.variants]
        for r in s["readings"]:
            assert r["rule"] and r["source"]["book"].startswith("《")
            assert r["verdict"] == spirit.verdict_of(r["id"])


def test_variants_of_one_spirit_in_text() -> None:
    code, out, _ = run("variants", "天喜")
    assert code == 0
    lines = out.splitlines()
    assert lines[0].startswith("天喜 tian_xi")
    assert any(line.strip().startswith("default") and "庄氏取" in line and "戌丑辰未" in line for line in lines)
    assert any(line.strip().startswith("shun_twelve") and "庄氏不取" in line for line in lines)
    assert ".txt" not in out and "《大六壬指南》卷四" in out
    code, out, _ = run("variants", "歲宅", "--lang", "zh-Hant")  # another name, traditional
    assert code == 0 and out.startswith("小耗 xiao_hao")


def test_variants_of_an_unknown_name_is_one_line() -> None:
    code, out, err = run("variants", "无此神")
    assert code == 2 and out == "" and len(err.splitlines()) == 1 and "无此神" in err


def test_text_source_lines_name_the_book() -> None:
    code, out, _ = run("relate", "寅", "亥")
    assert code == 0 and "出处：《八煞》" in out and ".txt" not in out
    code, out, _ = run("bazi", "--date", "1990-05-17T08:30")
    assert code == 0 and "出处：《神煞》" in out and ".txt" not in out
