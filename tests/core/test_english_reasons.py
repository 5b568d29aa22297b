"""The patterns' and the 毕法赋 lines' reasons in English (issue 28): an English template for every
pattern's and every detected line's `why` ([pattern_why], [bifa_why] of resources/i18n/en.toml, our
translation), with exactly the Chinese template's fields, checked at load; and, over the 720 lessons with
the plates of twelve months and a querent, every reason said in English with no Chinese but the branches
and stems it names."""

from __future__ import annotations

import copy
import re
from functools import lru_cache

import pytest

from shensha_plates.core import english as en_mod
from shensha_plates.core.cycle import BRANCHES, STEMS
from shensha_plates.core.engine import State, compute_plate
from shensha_plates.core.english import english, load_english
from shensha_plates.core.errors import CatalogError
from shensha_plates.core.liuren import compute_ke
from shensha_plates.core.liuren.nianming import Querent, querent_on
from shensha_plates.core.liuren.english_text import check_reasons, why_en
from shensha_plates.core.liuren.lodging import DayFacts, moon_lodging
from shensha_plates.core.liuren.patterns import BifaHit, PatternHit, bifa_lines, patterns, read_lesson
from shensha_plates.core.schema import template_fields
from tests.core.test_english import _damaged as english_damaged

HAN = re.compile(r"[\u3400-\u9fff]")
NAMES = set(BRANCHES) | set(STEMS)


def _damaged(monkeypatch: pytest.MonkeyPatch, change: object) -> CatalogError:
    # the texts are read by the English tables, matched to the Chinese here
    return english_damaged(monkeypatch, change, lambda: check_reasons(load_english()))


def test_every_pattern_and_detected_line_has_its_english_template_with_the_same_fields() -> None:
    en = english()
    check_reasons(en)
    assert set(en.pattern_whys) == {p.id for p in patterns()} and len(en.pattern_whys) == 131
    detected = [b for b in bifa_lines() if b.tests]
    assert set(en.bifa_whys) == {b.number for b in detected} and len(en.bifa_whys) == 91
    for p in patterns():
        assert template_fields(en.pattern_whys[p.id]) == template_fields(p.why), p.id
    for b in detected:
        assert template_fields(en.bifa_whys[b.number]) == template_fields(b.why), b.number


def test_a_missing_pattern_reason_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    err = _damaged(monkeypatch, lambda d: d["pattern_why"].pop("zhuyin"))
    assert "[pattern_why] zhuyin" in str(err) and "has no English" in str(err)


def test_a_missing_line_reason_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    err = _damaged(monkeypatch, lambda d: d["bifa_why"].pop("92"))
    assert "[bifa_why] 92" in str(err) and "has no English" in str(err)


def test_a_reason_for_no_pattern_or_an_undetected_line_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    err = _damaged(monkeypatch, lambda d: d["pattern_why"].update(no_such="The transmissions {trans}"))
    assert "[pattern_why] no_such" in str(err) and "not a pattern or detected line" in str(err)
    monkeypatch.undo()
    err = _damaged(monkeypatch, lambda d: d["bifa_why"].update({"96": "The Noble"}))  # line 96 is not detected
    assert "[bifa_why] 96" in str(err) and "not a pattern or detected line" in str(err)
    monkeypatch.undo()
    err = _damaged(monkeypatch, lambda d: d["bifa_why"].update({"line 5": "The upper spirits {trans}"}))
    assert "[bifa_why] line 5" in str(err) and "must be a line's number" in str(err)


def test_a_reason_must_keep_the_chinese_fields(monkeypatch: pytest.MonkeyPatch) -> None:
    err = _damaged(monkeypatch, lambda d: d["pattern_why"].update(sanjiao="The transmissions {trans} are middle"))
    assert "[pattern_why] sanjiao" in str(err) and "exactly the fields" in str(err) and "branch, trans" in str(err)
    monkeypatch.undo()
    err = _damaged(monkeypatch, lambda d: d["bifa_why"].update({"13": "{trans} ghosts of {stem} in {hour}"}))
    assert "[bifa_why] 13" in str(err) and "month, stem, trans" in str(err)
    monkeypatch.undo()
    err = _damaged(monkeypatch, lambda d: d["bifa_why"].update({"74": "The transmissions {trans are void"}))
    assert "[bifa_why] 74" in str(err) and "not a valid sentence template" in str(err)


def test_chinese_in_a_reason_is_refused_but_names_are_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    err = _damaged(monkeypatch, lambda d: d["pattern_why"].update(lianru="三传{trans}相连"))
    assert "[pattern_why] lianru" in str(err) and "must be English" in str(err)
    monkeypatch.undo()
    err = _damaged(monkeypatch, lambda d: d["bifa_why"].update({"16": "The first {initial} is void, 乘天空"}))
    assert "[bifa_why] 16" in str(err) and "乘" in str(err)
    monkeypatch.undo()
    # a name (a general's, a pattern's) may stay Chinese, as branches and stems do
    data = copy.deepcopy(en_mod._read(en_mod._EN_FILE))
    data["bifa_why"]["16"] = "The first transmission {initial} is void and carries 天空 (the Heavenly Void)"
    real = en_mod._read
    monkeypatch.setattr(en_mod, "_read", lambda name: data if name == en_mod._EN_FILE else real(name))
    assert "天空" in check_reasons(load_english())[1][16]


@lru_cache(maxsize=1)
def _sample() -> tuple[tuple[PatternHit, ...], tuple[BifaHit, ...]]:
    """The hits of the 720 lessons (each day, each turn of the plate), each day on the plates of a month
    (twelve months, the hour the month's) and with a querent and a partner: every pattern, and every line but the two
    rare ones (54, 74), is formed."""
    hits: list[PatternHit] = []
    lines: list[BifaHit] = []
    for month in range(1, 13):
        year = (month * 2) % 12
        for day in range(60):
            plate = compute_plate(State(year_branch=year, month=month, xun=day // 10, year_stem=year % 10, day=day,
                                        hour=month % 12))
            for general in range(12):
                ke = compute_ke(day, month % 12, general)
                q = Querent.parse("甲子" if general % 2 else "乙丑", "m", 30 + day % 12).with_partner(
                    Querent.parse("丙寅", "f", (day + general * 7) % 60 + 1))  # (繁昌 旺孕 解离 read the couple)
                nm = querent_on(q, ke.plate.heaven, ke.plate.generals, None, None)
                terms = ("立春", "春分", "立夏", "夏至", "立秋", "秋分", "立冬", "冬至")  # (天祸 天寇 二烦 read the day)
                d = DayFacts(terms[(day + general) % 8], month, day % 30 + 1, 30, moon_lodging(month, day % 30 + 1))
                ps, bs = read_lesson(ke, plate, nm, day=d)
                hits.extend(ps)
                lines.extend(bs)
    return tuple(hits), tuple(lines)


def _english_reason(chinese: str, text: str) -> None:
    assert text and "{" not in text and "}" not in text, (chinese, text)
    left = set(HAN.findall(text)) - NAMES
    assert not left, (chinese, text, left)
    assert text[:1].isupper() or text[:1] in NAMES, text


def _named(text: str) -> list[str]:
    """The branches and stems a reason names (as many times): the English must name those the Chinese does
    (日辰, "the day's stem and branch", 一辰, "one branch", the Noble's other name 天乙, 子息, "children", and
    未遂, "not achieved", are words)."""
    for word in ("日辰", "一辰", "天乙", "子息", "未遂"):
        text = text.replace(word, "")
    return sorted(c for c in text if c in NAMES)


def test_every_reason_over_the_720_lessons_is_english_but_for_branches_and_stems() -> None:
    hits, lines = _sample()
    # 丑害午 (丑 over 午 as the 初传) is in no lesson of the 720 (tests/core/test_patterns_pair_readings.py)
    assert {h.id for h in hits} == {p.id for p in patterns()} - {"hai_chou_wu"}
    assert {h.number for h in lines} == {b.number for b in bifa_lines() if b.tests} - {54, 74}
    for h in hits:
        _english_reason(h.why, why_en(h))
        assert _named(why_en(h)) == _named(h.why), (h.id, h.why, why_en(h))
    for b in lines:
        _english_reason(b.why, why_en(b))
        assert _named(why_en(b)) == _named(b.why), (b.number, b.why, why_en(b))
    # the two rare lines and 丑害午: their templates filled with the fields of a lesson's reason
    words = hits[0].words
    rare = next(p for p in patterns() if p.id == "hai_chou_wu")
    fields = {**words, "initial": "丑", "under": "午"}
    hit = PatternHit(rare, rare.why.format_map(fields), fields)
    _english_reason(hit.why, why_en(hit))
    assert _named(why_en(hit)) == _named(hit.why) == sorted("丑午丑午")
    for line in bifa_lines():
        if line.number in (54, 74):
            _english_reason(line.why, why_en(BifaHit(line, line.why.format_map(words), words)))


def test_a_hit_without_its_fields_or_of_another_table_has_no_english_reason() -> None:
    p = patterns()[0]
    assert why_en(PatternHit(p, "三传巳戌卯：…")) == ""  # made without the fields its reason was filled with
    other = type(p)(p.id, p.name, p.name_trad, p.kind, p.source, p.tests, "另一说{trans}", name_en=p.name_en)
    assert why_en(PatternHit(other, "另一说巳戌卯", {"trans": "巳戌卯"})) == ""  # not the packaged Chinese
    assert why_en(PatternHit(p, "…", {"trans": "巳戌卯"})).startswith("Transmissions 巳 戌 卯:")


def test_ke_in_english_and_its_json_give_each_reason() -> None:
    """``ke --lang en`` lists each pattern and line with why in English; the JSON keeps ``why`` and gives
    ``why_en`` beside it (in every language)."""
    import io
    import json

    from shensha_plates.core.cli import main
    argv = ["ke", "--date", "1998-11-30T12:00", "--birth", "1990", "--sex", "m"]
    out = io.StringIO()
    assert main([*argv, "--lang", "en"], out=out, err=io.StringIO()) == 0
    text = out.getvalue()
    assert "\n  炎上 Yánshàng · Flaming Upward (Fire Frame): The transmissions 午 寅 戌 form the fire frame (寅 午 戌)\n" in text
    assert "\n  48. In the transmissions a ghost of 辛 carries the Noble\n" in text
    assert "三传" not in text and "贵人临" not in text
    for lang in ("en", "zh-Hans"):
        out = io.StringIO()
        assert main([*argv, "--lang", lang, "--format", "json"], out=out, err=io.StringIO()) == 0
        data = json.loads(out.getvalue())
        assert data["patterns"] and data["bifa"]
        for item in data["patterns"] + data["bifa"]:
            assert HAN.search(item["why"]) and item["why_en"] and not set(HAN.findall(item["why_en"])) - NAMES, item
        first = data["patterns"][0]
        assert (first["why"], first["why_en"]) == ("三传午寅戌成火局（寅午戌）",
                                                   "The transmissions 午 寅 戌 form the fire frame (寅 午 戌)")
