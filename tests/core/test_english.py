"""English for learners (issue 28's data): a gloss and a meaning for every spirit, general and method
of the data, validated at load with one clear error, and pinyin from pypinyin with the readings of the
names' polyphonic characters chosen and checked."""

from __future__ import annotations

import copy
import re

import pytest

from shensha_plates.core import english as en_mod
from shensha_plates.core.catalog import default_catalog
from shensha_plates.core.english import english, label, load_english, pinyin, readings
from shensha_plates.core.errors import CatalogError
from shensha_plates.core.liuren import liuren_tables

HAN = re.compile(r"[\u3400-\u9fff]")


def test_every_spirit_general_and_method_has_its_english() -> None:
    en = english()
    for s in default_catalog().spirits:
        g = en.spirit(s.id)
        assert g.gloss and g.meaning and not HAN.search(g.gloss), s.id
    lr = liuren_tables()
    assert {g.id for g in lr.generals} == set(en.generals)
    assert all(en.generals[g].gloss for g in en.generals)
    assert set(lr.methods) == set(en.methods)
    assert "translation" in en.credit  # every text is marked as ours
    # established renderings where the literature has them
    assert en.spirit("tao_hua").gloss == "Peach Blossom" and en.spirit("tao_hua").usual
    assert en.spirit("yi_ma").gloss == "Travelling Horse"


# each polyphonic character of the names, in a name that has it, with the reading chosen
POLYPHONIC = {
    "螣蛇": "Téngshé", "长生": "Chángshēng", "长绳": "Chángshéng", "将星": "Jiàngxīng", "大将军": "Dàjiàngjūn",
    "喝散": "Hèsàn", "丧门": "Sāngmén", "丧魄": "Sàngpò", "支冲": "Zhīchōng", "重审": "Chóngshěn",
    "行年": "Xíngnián", "冠带": "Guāndài", "煞神": "Shàshén", "天马": "Tiānmǎ", "月将": "Yuèjiàng",
    "子午相冲": "Zǐwǔxiāngchōng", "上下相刑发用": "Shàngxiàxiāngxíngfāyòng", "酉破子": "Yǒupòzǐ",
}


@pytest.mark.parametrize("name, reading", sorted(POLYPHONIC.items()))
def test_the_reading_of_each_polyphonic_name(name: str, reading: str) -> None:
    assert pinyin(name) == reading


def test_the_override_table_is_checked_and_used() -> None:
    table = readings()
    assert table["煞"] == ("shà",) and table["螣"] == ("téng",)
    assert label("天马", "Heavenly Horse") == "天马 Tiānmǎ · Heavenly Horse"


def _damaged(monkeypatch: pytest.MonkeyPatch, change: object, load: object = None) -> CatalogError:
    """The error that reading en.toml changed by ``change`` raises (``load``: what reads it, by
    default the English tables)."""
    real = en_mod._read
    data = copy.deepcopy(real(en_mod._EN_FILE))
    change(data)  # type: ignore[operator]
    monkeypatch.setattr(en_mod, "_read", lambda name: data if name == en_mod._EN_FILE else real(name))
    with pytest.raises(CatalogError) as e:
        (load or load_english)()  # type: ignore[operator]
    return e.value


def test_a_missing_spirit_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    err = _damaged(monkeypatch, lambda d: d["spirit"].pop("tian_ma"))
    assert err.file.endswith("en.toml") and "tian_ma" in str(err)


def test_chinese_in_a_gloss_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    err = _damaged(monkeypatch, lambda d: d["spirit"]["tian_ma"].update(gloss="天马"))
    assert err.entry == "[spirit] tian_ma" and err.field == "gloss" and err.value == "天马"


def test_an_unknown_field_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    err = _damaged(monkeypatch, lambda d: d["spirit"]["tian_ma"].update(colour="red"))
    assert err.entry == "[spirit] tian_ma" and err.field == "colour"


def test_usual_is_true_or_false_and_a_spirit_needs_its_meaning(monkeypatch: pytest.MonkeyPatch) -> None:
    err = _damaged(monkeypatch, lambda d: d["spirit"]["tian_ma"].update(usual="yes"))
    assert (err.entry, err.field, err.value, err.problem) == ("[spirit] tian_ma", "usual", "yes", "must be true or false")
    monkeypatch.undo()
    err = _damaged(monkeypatch, lambda d: d["spirit"]["tian_ma"].update(meaning=" "))
    assert (err.entry, err.field, err.value) == ("[spirit] tian_ma", "meaning", " ")


def test_an_unknown_section_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    err = _damaged(monkeypatch, lambda d: d.update(colours={"red": "red"}))
    assert (err.entry, err.field, err.problem) == ("(file)", "colours", "is not a section of the English file")


def test_a_step_sentence_must_keep_its_fields(monkeypatch: pytest.MonkeyPatch) -> None:
    rid = next(iter(liuren_tables().rules))
    err = _damaged(monkeypatch, lambda d: d["rule"].update({rid: "no fields at all {nonsense}"}))
    assert err.entry == f"[rule] {rid}" and "fields" in err.problem


def test_json_gives_every_spirit_general_and_pattern_its_pinyin_and_gloss() -> None:
    import io
    import json

    from shensha_plates.core.cli import main
    out = io.StringIO()
    assert main(["show", "--year", "子", "--month", "1", "--xun", "甲子", "--format", "json"], out=out,
                err=io.StringIO()) == 0
    spirits = [s for row in json.loads(out.getvalue())["positions"].values() for s in row]
    assert spirits and all(s["pinyin"] and s["gloss_en"] for s in spirits)
    assert {"id": "tai_sui", "pinyin": "Tàisuì", "gloss_en": "Grand Duke of the Year"}.items() <= \
        next(s for s in spirits if s["id"] == "tai_sui").items()
    out = io.StringIO()
    assert main(["ke", "--date", "1998-11-30T12:00", "--format", "json"], out=out, err=io.StringIO()) == 0
    data = json.loads(out.getvalue())
    assert data["transmissions"][0]["general_en"] == {"name": "贵人", "pinyin": "Guìrén", "gloss_en": "Noble"}
    assert all(g["pinyin"] and g["gloss_en"] for g in data["generals_en"].values())
    assert all(p["pinyin"] and p["gloss_en"] for p in data["patterns"])
    assert all(s["pinyin"] and s["gloss_en"] for row in data["spirits"]["lessons"] for s in row["spirits"])


def test_show_in_english() -> None:
    import io

    from shensha_plates.core.cli import main
    out = io.StringIO()
    assert main(["show", "--year", "子", "--month", "1", "--xun", "甲子", "--lang", "en"], out=out,
                err=io.StringIO()) == 0
    text = out.getvalue()
    assert text.startswith("子 year · month 1 (寅) · 甲子 xun")
    assert "Grand Duke disc: 太岁 Tàisuì (Grand Duke of the Year)" in text


def test_show_in_english_has_no_chinese_but_names() -> None:
    """A date with conditional names, day pillars and a yin day: every condition in English too."""
    import io

    from shensha_plates.core.cli import main
    out = io.StringIO()
    assert main(["show", "--date", "1998-11-30T12:00", "--lang", "en"], out=out, err=io.StringIO()) == 0
    text = out.getvalue()
    assert "[if the Soaring Snake over it]" in text and "[if 螣蛇加临]" not in text
    text = text.replace("(", " (")  # a name's label: 月德(丙)
    assert _foreign(text) == [], _foreign(text)


def _foreign(text: str, more: str = "") -> list[str]:
    """The runs of Chinese in ``text`` that are not a branch, stem, pillar or general's one-character
    name, nor a name followed by its pinyin ("天马 Tiānmǎ")."""
    from shensha_plates.core.cycle import BRANCHES, STEMS
    singles = set(BRANCHES) | set(STEMS) | {g.short for g in liuren_tables().generals} | set(more)
    bad = []
    for m in re.finditer(r"[\u3400-\u9fff]+", text):
        run = m.group()
        if all(ch in singles for ch in run) and len(run) <= 2:
            continue
        if text[m.end():].startswith(" " + pinyin(run)):
            continue
        bad.append(run)
    return bad


def test_every_step_of_the_720_lessons_in_english() -> None:
    from shensha_plates.core.liuren.method import course
    seen = set()
    for day in range(60):
        for turn in range(12):
            for s in course(day, turn).steps:
                seen.add(s.rule)
                text = s.text("en")
                assert not _foreign(text) and not text[:1].islower(), (s.rule, text)
    assert len(seen) > 30


def test_ke_in_english() -> None:
    import io

    from shensha_plates.core.cli import main
    out = io.StringIO()
    assert main(["ke", "--date", "1998-11-30T12:00", "--birth", "1990", "--sex", "m", "--lang", "en"],
                out=out, err=io.StringIO()) == 0
    text = out.getvalue()
    assert _foreign(text) == [], _foreign(text)
    assert "First transmission: 午 (officer-ghost; hidden stem 壬, 贵人 Guìrén · Noble)" in text
    assert "Method: 贼克 Zéikè · Rebellion and Control; lesson 元首 Yuánshǒu · Prime Leader" in text
    assert "行年 Xíngnián (moving year)" in text


@pytest.mark.parametrize("argv", [
    ["variants", "--lang", "en"],
    ["relate", "子", "午", "--lang", "en"],
    ["relate", "甲", "己", "--lang", "en"],
    ["bazi", "--date", "1990-05-17T08:30", "--lang", "en"],
    ["select", "--year", "丙午", "--month", "1", "--lang", "en"],
    ["select", "--date", "2026-08-01", "--lang", "en"],
])
def test_the_other_commands_in_english(argv: list[str]) -> None:
    """variants, relate, bazi and select in English: no Chinese but the names (each followed by its
    pinyin), branches, stems, the 24 mountains, and the sources (cited as the books have them)."""
    import io

    from shensha_plates.core.cli import main
    from shensha_plates.core.cycle import MOUNTAINS
    out = io.StringIO()
    assert main(argv, out=out, err=io.StringIO()) == 0
    text = "\n".join(line for line in out.getvalue().splitlines()  # a source is cited in the book's words
                     if not line.strip().startswith("source: "))
    text = re.sub(r"《[^》]*》|（[^）]*）", "", text)  # a title, a name's （夜）
    assert _foreign(text, "".join(MOUNTAINS)) == [], _foreign(text, "".join(MOUNTAINS))
    assert len(text.splitlines()) > 2


def test_every_system_spirit_has_english() -> None:
    from shensha_plates.core.bazi import default_bazi
    from shensha_plates.core.selection import default_selection
    en = english()
    sel, bazi = default_selection().spirits, default_bazi().spirits
    assert all(en.named(s.name, en.selection, s.id).gloss for s in sel)
    assert all(en.named(s.name, en.bazi, s.id).gloss for s in bazi)
    assert set(en.selection) <= {s.id for s in sel} and set(en.bazi) <= {s.id for s in bazi}


def test_find_in_english() -> None:
    import io

    from shensha_plates.commands import main
    out = io.StringIO()
    assert main(["find", "--from", "2027-01-01", "--to", "2027-01-03", "--every", "hour", "--where", "ke=伏吟",
                 "--lang", "en"], out=out, err=io.StringIO()) == 0
    rows = out.getvalue().splitlines()
    assert rows[0] == "2027-01-01T02:00+08:00  丙午 year, month 11, day 庚辰, hour 丑  自任 Zìrèn · Self-reliance  ke=伏吟"
    assert all(_foreign(r.rsplit("  ", 1)[0]) == [] for r in rows[:-1])  # all but the conditions as given


def test_the_school_settings_and_the_variants_have_their_english() -> None:
    """Every school setting and choice, every noted variant and every spirit's note has its English
    (our translation), a note exactly where the Chinese has one."""
    en = english()
    for setting in liuren_tables().settings.values():
        assert en.settings[setting.id].name
        for c in setting.choices:
            assert en.settings[setting.id].choices[c.id].name
            assert bool(en.settings[setting.id].choices[c.id].note) == bool(c.note), (setting.id, c.id)
    for s in default_catalog().spirits:
        for v in s.variants:
            assert bool(en.variant_note(s.id, v.id)) == bool(v.note), (s.id, v.id)
        assert bool(en.spirit_notes.get(s.id)) == bool(s.note), s.id


def test_a_missing_setting_choice_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    err = _damaged(monkeypatch, lambda d: d["setting"]["noble"]["choice"].pop("zengmen"))
    assert err.entry == "[setting.noble] choice.zengmen" and "no English" in err.problem


def test_a_setting_note_must_match_the_chinese(monkeypatch: pytest.MonkeyPatch) -> None:
    err = _damaged(monkeypatch, lambda d: d["setting"]["general_basis"]["choice"]["zhongqi"].update(note="extra"))
    assert err.entry == "[setting.general_basis] choice.zhongqi" and err.field == "note"


def test_a_setting_note_the_chinese_has_must_be_there(monkeypatch: pytest.MonkeyPatch) -> None:
    err = _damaged(monkeypatch, lambda d: d["setting"]["general_basis"]["choice"]["jie"].pop("note"))
    assert err.field == "note" and "missing" in err.problem


def test_chinese_in_a_setting_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    err = _damaged(monkeypatch, lambda d: d["setting"]["noble"].update(name="贵人表"))
    assert err.entry == "[setting.noble]" and err.field == "name" and "left: 贵人表" in err.problem


def test_chinese_in_a_variant_is_refused_but_branches_and_books_are_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    assert "《协纪辨方》" in english().variant_note("tian_xi", "shun_twelve")  # a book and branches may stay
    err = _damaged(monkeypatch, lambda d: d["variant"]["tian_xi"].update(shun_twelve="按十二支顺行"))
    assert err.entry == "[variant] tian_xi.shun_twelve" and "left: 按十二支顺行" in err.problem


def test_a_missing_variant_note_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    err = _damaged(monkeypatch, lambda d: d["variant"]["tian_xi"].pop("shun_twelve"))
    assert err.entry == "[variant] tian_xi.shun_twelve" and "no English" in err.problem


def test_a_missing_spirit_note_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    err = _damaged(monkeypatch, lambda d: d["spirit_note"].pop("tai_sui"))
    assert "tai_sui" in err.entry and "no English" in err.problem


def test_variants_in_english_give_each_note() -> None:
    import io

    from shensha_plates.core.cli import main
    out = io.StringIO()
    assert main(["variants", "tian_ma", "--lang", "en"], out=out, err=io.StringIO()) == 0
    assert "note: The translation reads" in out.getvalue()


def test_the_other_systems_texts_have_their_english() -> None:
    """Every date-selection remedy, note and variant note, every Bazi note and every relation's note
    has its English in [system_text] (our translation), and nothing else is there; every Na Yin too."""
    from shensha_plates.core.bazi import default_bazi
    from shensha_plates.core.cycle import BRANCHES, STEMS, nayin
    from shensha_plates.core.relations import relate
    from shensha_plates.core.selection import default_selection
    sel = default_selection()
    want = {s.remedy for s in sel.spirits if s.remedy != "none"} | {s.note for s in sel.spirits if s.note}
    want |= {v.note for s in sel.spirits for v in s.variants if v.note}
    want |= {s.note for s in default_bazi().spirits if s.note}
    for group in (BRANCHES, STEMS):
        want |= {r.note for a in group for b in group for r in relate(a, b) if r.note}
    have = set(english().system_texts)
    assert want - have == set() and have - want == set(), (want - have, have - want)
    assert all(english().nayin[nayin(p)] for p in range(60))


def test_the_page_in_english() -> None:
    """snapshot -o x.html --lang en: the page's words, months, lesson words, kin, transmissions, lesson
    names, steps and the spirits' meanings are English (each spirit also has its pinyin and gloss); the
    template has no Chinese; the Chinese pages keep their words."""
    import json

    from shensha_plates.core.engine import State
    from shensha_plates.core.page import page_html
    st = State.parse("戊寅", 10, None, "辛巳", "午")
    text = page_html(st, lang="en")
    data = json.loads(re.search(r'<script id="data" type="application/json">(.*?)</script>', text, re.S)
                      .group(1).replace("<\\/", "</"))
    template = re.sub(r"<script.*?</script>", "", text, flags=re.S)
    assert 'lang="en"' in template and "Shensha Plates" in template and not re.search(r"[\u4e00-\u9fff]", template)
    lr = data["liuren"]
    words = [*data["ui"].values(), *data["months"], *lr["words"].values(), *lr["kin"], *lr["transmissions"],
             *lr["names"], *lr["steps"]]
    words = [re.sub(r"[（(].*?[）)]", "", w) for w in words]  # an example in brackets: 丙午, 午
    assert _foreign(" ".join(words).replace("{", " ")) == [], _foreign(" ".join(words))
    assert all(sp.get("en") for sp in data["spirits"]) and data["spirits"][0]["m"].isascii()
    zh = page_html(st, lang="zh-Hans")
    assert "拖动或滚动圆盘即转盘" in zh and "点圆盘上的一支" in zh and 'lang="zh-Hans"' in zh
