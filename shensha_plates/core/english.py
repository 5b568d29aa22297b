"""English for learners: pinyin for every name, and English glosses and meanings as data.

The glosses and meanings are ``resources/i18n/en.toml`` (every text there is our translation; ``usual``
marks a gloss that follows an established English rendering); the readings pypinyin gets wrong for a
name are ``resources/i18n/pinyin.toml``. Both are validated completely when first used: every spirit of
the catalog, every general, method, lesson name and step sentence of the Liu Ren tables must have its
English, nothing unknown may be there, and a step sentence must use exactly the fields of its Chinese
one. A fault raises one :class:`~shensha_plates.core.errors.CatalogError` naming file, entry, field
and value.

Pinyin comes from pypinyin (a maintained library with a phrase dictionary, so that 长生 is cháng but
长绳 would need the override; hand-written tables would be worse at both).

>>> pinyin("天马")
'Tiānmǎ'
>>> pinyin("螣蛇")
'Téngshé'
>>> english().spirit("tian_ma").gloss
'Heavenly Horse'
>>> label("天马", "Heavenly Horse")
'天马 Tiānmǎ · Heavenly Horse'
"""

from __future__ import annotations

import re
import string
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from types import MappingProxyType
from typing import Any, Final
from collections.abc import Mapping

from shensha_plates.core.errors import CatalogError
from shensha_plates.core.schema import Field, Kind, Table, Where, boolean, read_toml, template_fields
from shensha_plates.core.schema import text as nonempty_text

__all__ = ["Gloss", "English", "SettingEnglish", "ChoiceEnglish", "english", "load_english", "pinyin", "syllables",
           "label", "readings", "translate_term", "english_of", "condition_english"]

SCHEMA_VERSION: Final = 1
_EN_FILE: Final = "resources/i18n/en.toml"
_PINYIN_FILE: Final = "resources/i18n/pinyin.toml"
_VOWEL_START: Final = re.compile(r"^[aeoāáǎàēéěèōóǒò]")
_HAN: Final = re.compile(r"[\u3400-\u9fff]")


@dataclass(frozen=True, slots=True)
class Gloss:
    """A short English name and (optionally) a meaning; ``usual``: the gloss is the established
    English rendering rather than our literal one."""

    gloss: str
    meaning: str = ""
    usual: bool = False


@dataclass(frozen=True, slots=True)
class ChoiceEnglish:
    """A choice of a school setting in English: its name and (where the Chinese has one) its note."""

    name: str
    note: str = ""


@dataclass(frozen=True, slots=True)
class SettingEnglish:
    """A school setting of the Liu Ren method in English: its name and its choices by id."""

    name: str
    choices: Mapping[str, ChoiceEnglish]


@dataclass(frozen=True, slots=True)
class English:
    """The English tables, keyed as the Chinese data is (ids, or the Chinese text for terms)."""

    credit: str
    spirits: Mapping[str, Gloss]
    rings: Mapping[str, str]
    conditions: Mapping[str, str]
    generals: Mapping[str, Gloss]
    month_generals: Mapping[str, str]
    kin: Mapping[str, str]
    methods: Mapping[str, Gloss]
    ke: Mapping[str, str]
    rules: Mapping[str, str]
    terms: Mapping[str, str]
    names: Mapping[str, Gloss]
    branches: Mapping[str, str]
    stems: Mapping[str, str]
    selection: Mapping[str, Gloss]
    bazi: Mapping[str, Gloss]
    relations: Mapping[str, Gloss]
    settings: Mapping[str, SettingEnglish]
    variants: Mapping[str, Mapping[str, str]]   # spirit id → variant id → its note in English
    spirit_notes: Mapping[str, str]             # spirit id → the catalog's note on it, in English
    nayin: Mapping[str, str]                    # the Na Yin of the sixty pillars
    system_texts: Mapping[str, str]             # the other systems' remedies and notes, by their Chinese
    pattern_whys: Mapping[str, str]             # pattern id → why it is formed (a template, the Chinese one's fields)
    bifa_whys: Mapping[int, str]                # 毕法赋 line number → why the lesson shows it (likewise)
    pattern_forms: Mapping[str, str]            # a pattern's named form (灾厄's 丧车 …) → English

    def system_text(self, chinese: str) -> str:
        """A remedy or note of the other systems in English ("" where there is none)."""
        return self.system_texts.get(chinese, "")

    def variant_note(self, spirit_id: str, variant_id: str) -> str:
        """A catalog variant's note in English ("" for a spirit of a catalog of one's own)."""
        return self.variants.get(spirit_id, {}).get(variant_id, "")

    def spirit(self, spirit_id: str) -> Gloss:
        """The gloss of a catalog spirit (an empty one for a spirit of a catalog of one's own)."""
        return self.spirits.get(spirit_id, Gloss(""))

    def named(self, name: str, section: Mapping[str, Gloss], key: str) -> Gloss:
        """The gloss of a spirit of another system (date selection, Bazi): its own entry in ``section``,
        else the gloss of the catalog's spirit of that name (the same spirit on Zhuang's plates)."""
        if key in section:
            return section[key]
        from shensha_plates.core.catalog import default_catalog
        for s in default_catalog().spirits:
            if s.name == name:
                return self.spirit(s.id)
        return Gloss("")

    def term(self, text: str) -> str:
        return translate_term(text, self)


def _fail(file: str, entry: str, field: str, value: object, problem: str) -> CatalogError:
    return CatalogError(file, entry, field, value, problem)


def _read(name: str) -> dict[str, Any]:
    """The TOML of a packaged file (read by :func:`shensha_plates.core.schema.read_toml`)."""
    return read_toml(name, resources.files("shensha_plates").joinpath(name), SCHEMA_VERSION)


def _table(data: Mapping[str, Any], name: str, section: str) -> Mapping[str, Any]:
    value = data.get(section)
    if not isinstance(value, dict) or not value:
        raise _fail(name, f"[{section}]", section, value, "expected a non-empty table")
    return value


class _Section(Where):
    """Where a text of a section is: its entry is named by the key, which is also its field (one object
    for the whole section, not one for each of its many keys)."""

    __slots__ = ()

    def fail(self, fieldname: str, value: object, problem: str) -> CatalogError:
        return CatalogError(self.file, f"[{self.entry}] {fieldname}", fieldname, value, problem)


def _english(problem: str = "must be a non-empty English text", chinese: bool = False) -> Kind:
    """An English text (with ``chinese``, Chinese characters may be in it: a step sentence quotes them)."""
    nonempty = nonempty_text(problem)

    def read(where: Where, f: str, value: Any) -> str:
        value = nonempty(where, f, value)
        if not chinese and _HAN.search(value):
            raise where.fail(f, value, "must be English (no Chinese characters)")
        return str(value)
    return read


def _gloss(where: Where, f: str, value: Any) -> str:
    if type(value) is str and value.strip() and not _HAN.search(value):
        return value
    raise where.fail(f, value, "must be a non-empty English text")


def _gloss_table(meaning_required: bool) -> Table:
    meaning = nonempty_text("must be a non-empty English text", empty=not meaning_required)
    return Table({"gloss": Field(_gloss),
                  "meaning": Field(meaning, required=False, default=""),
                  "usual": Field(boolean("must be true or false"), required=False, default=False)},
                 build=lambda gloss, meaning, usual: Gloss(gloss.strip(), meaning.strip(), usual),
                 unknown="is not a field (gloss, meaning, usual)", not_table="must be { gloss = …, meaning = … }")


_GLOSS: Final = _gloss_table(meaning_required=True)
_GENERAL_GLOSS: Final = _gloss_table(meaning_required=False)  # a general's meaning is in the Chinese tables


def _texts(data: Mapping[str, Any], name: str, section: str, keys: frozenset[str] | None) -> Mapping[str, str]:
    """A table of key = "English"; with ``keys``, exactly those keys."""
    table = _table(data, name, section)
    kind = _english(chinese=section == "rule")
    where = _Section(name, section)
    out = {key: kind(where, key, value) for key, value in table.items()}
    _same_keys(name, section, set(out), keys)
    return MappingProxyType(out)


def _glosses(data: Mapping[str, Any], name: str, section: str, keys: frozenset[str] | None) -> Mapping[str, Gloss]:
    table = _table(data, name, section)
    gloss = _GENERAL_GLOSS if section == "general" else _GLOSS
    out = {key: gloss.read(Where(name, f"[{section}] {key}"), value, name=key) for key, value in table.items()}
    _same_keys(name, section, set(out), keys)
    return MappingProxyType(out)


def _same_keys(name: str, section: str, have: set[str], want: frozenset[str] | None) -> None:
    if want is None:
        return
    missing = sorted(want - have)
    if missing:
        raise _fail(name, f"[{section}] {missing[0]}", missing[0], None,
                    f"has no English ({len(missing)} missing in [{section}])")
    extra = sorted(have - want)
    if extra:
        raise _fail(name, f"[{section}] {extra[0]}", extra[0], None, "is not a name the Chinese data has")


def _fields(text: str) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(text) if f}


_SECTION: Final = Field(lambda where, f, value: value)
_FILE: Final = Table({k: _SECTION for k in (
    "schema_version", "credit", "spirit", "ring", "condition", "general", "month_general", "kin", "method", "ke",
    "rule", "term", "name", "branch", "stem", "selection", "bazi", "relation", "setting", "variant", "spirit_note", "nayin", "system_text",
    "pattern_why", "bifa_why", "pattern_form")},
    unknown="is not a section of the English file")


def load_english() -> English:
    """Read and validate ``resources/i18n/en.toml`` against the packaged catalog and Liu Ren tables."""
    from shensha_plates.core.catalog import default_catalog
    from shensha_plates.core.liuren.plate import KIN
    from shensha_plates.core.liuren.tables import liuren_tables
    name = _EN_FILE
    data = _read(name)
    _FILE.check_fields(Where(name), data)
    credit = nonempty_text("must say whose translation this is")(Where(name), "credit", data.get("credit"))
    cat = default_catalog()
    lr = liuren_tables()
    conditions = frozenset(s.condition for s in cat.spirits if s.condition)
    rules = _texts(data, name, "rule", frozenset(lr.rules))
    for rid, text in rules.items():
        want = _fields(lr.rules[rid].text)
        if _fields(text) != want:
            raise _fail(name, f"[rule] {rid}", rid, text,
                        f"must use exactly the fields of the Chinese sentence: {', '.join(sorted(want)) or 'none'}")
    from shensha_plates.core.cycle import BRANCHES, STEMS, nayin
    return English(
        credit=credit.strip(),
        spirits=_glosses(data, name, "spirit", frozenset(s.id for s in cat.spirits)),
        rings=_texts(data, name, "ring", frozenset(r.id for r in cat.rings)),
        conditions=_texts(data, name, "condition", conditions),
        generals=_glosses(data, name, "general", frozenset(g.id for g in lr.generals)),
        month_generals=_texts(data, name, "month_general", frozenset(m.name for m in lr.month_generals)),
        kin=_texts(data, name, "kin", frozenset(KIN)),
        methods=_glosses(data, name, "method", frozenset(lr.methods)),
        ke=_texts(data, name, "ke", None),
        rules=rules,
        terms=_texts(data, name, "term", None),
        names=_glosses(data, name, "name", frozenset(n.id for n in lr.names)),
        branches=_texts(data, name, "branch", frozenset(BRANCHES)),
        stems=_texts(data, name, "stem", frozenset(STEMS)),
        # the other systems' spirits: checked against their data by tests/core/test_english.py (reading
        # the systems' files here would load them whenever the window starts)
        selection=_glosses(data, name, "selection", None),
        bazi=_glosses(data, name, "bazi", None),
        relations=_glosses(data, name, "relation", frozenset({"de", "he", "gui", "mu", "po", "hai", "xing", "chong"})),
        settings=_settings(data, name, lr),
        variants=_variants(data, name, cat, lr),
        spirit_notes=_spirit_notes(data, name, cat, lr),
        nayin=_texts(data, name, "nayin", frozenset(nayin(p) for p in range(60))),
        # checked against the systems' data by tests/core/test_english.py (as selection and bazi above)
        system_texts=MappingProxyType({k: _school_text(name, f"[system_text] {k}", k, v, _school_words(lr))
                                       for k, v in _table(data, name, "system_text").items()}),
        # the patterns' and the 毕法赋 lines' reasons: checked against their Chinese templates by
        # core/liuren/english_text.py (the patterns' module speaks English through it, not the reverse)
        pattern_whys=_whys(data, name, "pattern_why", _reason_words(lr)),
        bifa_whys=MappingProxyType({int(k): v for k, v in _whys(data, name, "bifa_why", _reason_words(lr)).items()}),
        # checked against the patterns' named forms by core/liuren/english_text.py (as the reasons above)
        pattern_forms=_texts(data, name, "pattern_form", None),
    )


def _reason_words(lr: Any) -> frozenset[str]:
    """The Chinese a pattern's or a 毕法赋 line's reason may keep: the names of :func:`_school_words`, and the
    generals' (with their short names) and the month generals' names."""
    return _school_words(lr) | frozenset(
        {n for g in lr.generals for n in (g.name, g.short)} | {m.name for m in lr.month_generals})


def _whys(data: Mapping[str, Any], name: str, section: str, words: frozenset[str]) -> Mapping[str, str]:
    """[section]: <key> = "template", each an English text (Chinese only for names, :func:`_school_text`)
    and a valid sentence template; a [bifa_why] key is a line's number."""
    table = _table(data, name, section)
    out: dict[str, str] = {}
    for key, text in table.items():
        entry = f"[{section}] {key}"
        if section == "bifa_why" and not (key.isdigit() and 1 <= int(key) <= 100):
            raise _fail(name, entry, key, text, "must be a line's number (1–100)")
        value = _school_text(name, entry, key, text, words)
        if template_fields(value) is None:
            raise _fail(name, entry, key, value, "is not a valid sentence template (a { or } without its pair)")
        out[key] = value
    return MappingProxyType(out)


def _school_words(lr: Any) -> frozenset[str]:
    """The Chinese an English text of the settings, variants and notes may keep: the names (the nine
    methods', the catalog's spirits' and their other names), branches and stems (and 《book titles》,
    taken out before the check)."""
    from shensha_plates.core.catalog import default_catalog
    from shensha_plates.core.cycle import BRANCHES, STEMS
    spirits = {n for s in default_catalog().spirits for n in (s.name, *s.aliases)}
    return frozenset({m.name for m in lr.methods.values()} | spirits | set(BRANCHES) | set(STEMS))


def _spirit_notes(data: Mapping[str, Any], name: str, cat: Any, lr: Any) -> Mapping[str, str]:
    """[spirit_note]: <spirit> = "note" for exactly the catalog's spirits that have a note."""
    table = _table(data, name, "spirit_note")
    words = _school_words(lr)
    out = {sid: _school_text(name, f"[spirit_note] {sid}", sid, text, words) for sid, text in table.items()}
    _same_keys(name, "spirit_note", set(out), frozenset(s.id for s in cat.spirits if s.note))
    return MappingProxyType(out)


def _school_text(name: str, entry: str, field: str, value: object, words: frozenset[str]) -> str:
    """An English text that names spirits, methods, branches, stems and 《books》 as the books do, and no other
    Chinese."""
    if not isinstance(value, str) or not value.strip():
        raise _fail(name, entry, field, value, "must be a non-empty English text")
    rest = re.sub(r"《[^》]*》", "", value)
    for w in sorted(words, key=len, reverse=True):
        rest = rest.replace(w, "")
    if _HAN.search(rest):
        raise _fail(name, entry, field, value, "must be English: Chinese only for the names of spirits and "
                    f"methods, branches, stems and 《book titles》 (left: {''.join(_HAN.findall(rest))})")
    return value.strip()


def _settings(data: Mapping[str, Any], name: str, lr: Any) -> Mapping[str, SettingEnglish]:
    """[setting.<id>]: name, and choice.<id> = { name, note } for exactly the Liu Ren tables' settings and
    choices, a note exactly where the Chinese choice has one."""
    table = _table(data, name, "setting")
    words = _school_words(lr)
    out: dict[str, SettingEnglish] = {}
    for sid, item in table.items():
        entry = f"[setting.{sid}]"
        if sid not in lr.settings:
            raise _fail(name, entry, sid, None, "is not a setting the Liu Ren tables have")
        if not isinstance(item, dict) or set(item) - {"name", "choice"}:
            raise _fail(name, entry, sid, item, "must be a table of name and choice.<id>")
        setting = lr.settings[sid]
        raw = item.get("choice")
        if not isinstance(raw, dict):
            raise _fail(name, entry, "choice", raw, "must give each choice as choice.<id> = { name = …, note = … }")
        choices: dict[str, ChoiceEnglish] = {}
        for c in setting.choices:
            centry = f"{entry} choice.{c.id}"
            ce = raw.get(c.id)
            if not isinstance(ce, dict):
                raise _fail(name, centry, c.id, ce, "has no English")
            extra = set(ce) - {"name", "note"}
            if extra:
                key = sorted(extra)[0]
                raise _fail(name, centry, key, ce[key], "is not a field (name, note)")
            if c.note and "note" not in ce:
                raise _fail(name, centry, "note", None, "is missing: the Chinese choice has a note")
            if not c.note and "note" in ce:
                raise _fail(name, centry, "note", ce["note"], "has no Chinese note to translate")
            choices[c.id] = ChoiceEnglish(_school_text(name, centry, "name", ce.get("name"), words),
                                          _school_text(name, centry, "note", ce["note"], words) if c.note else "")
        unknown = sorted(set(raw) - set(choices))
        if unknown:
            raise _fail(name, f"{entry} choice.{unknown[0]}", unknown[0], None, "is not a choice of this setting")
        out[sid] = SettingEnglish(_school_text(name, entry, "name", item.get("name"), words),
                                  MappingProxyType(choices))
    _same_keys(name, "setting", set(out), frozenset(lr.settings))
    return MappingProxyType(out)


def _variants(data: Mapping[str, Any], name: str, cat: Any, lr: Any) -> Mapping[str, Mapping[str, str]]:
    """[variant]: <spirit>.<variant> = "note" for exactly the catalog's variants that have a note."""
    table = _table(data, name, "variant")
    words = _school_words(lr)
    want = {s.id: {v.id: v for v in s.variants if v.note} for s in cat.spirits}
    out: dict[str, Mapping[str, str]] = {}
    for sid, notes in table.items():
        entry = f"[variant] {sid}"
        if not want.get(sid):
            raise _fail(name, entry, sid, notes, "is not a catalog spirit with noted variants")
        if not isinstance(notes, dict):
            raise _fail(name, entry, sid, notes, "must be <spirit>.<variant> = \"note\"")
        unknown = sorted(set(notes) - set(want[sid]))
        if unknown:
            raise _fail(name, f"{entry}.{unknown[0]}", unknown[0], None, "is not a variant of this spirit with a note")
        out[sid] = MappingProxyType({vid: _school_text(name, f"{entry}.{vid}", vid, text, words)
                                     for vid, text in notes.items()})
    for sid, vs in want.items():
        for vid in vs:
            if vid not in out.get(sid, {}):
                raise _fail(name, f"[variant] {sid}.{vid}", vid, None, "has no English")
    return MappingProxyType(out)


@lru_cache(maxsize=1)
def english() -> English:
    """The packaged English tables, read and checked once."""
    return load_english()


@lru_cache(maxsize=1)
def _readings() -> Mapping[str, tuple[str, ...]]:
    name = _PINYIN_FILE
    table = _table(_read(name), name, "reading")
    out: dict[str, tuple[str, ...]] = {}
    for word, reading in table.items():
        sylls = tuple(reading.split()) if isinstance(reading, str) else ()
        if len(sylls) != len(word) or not all(re.fullmatch(r"[a-zāáǎàēéěèīíǐìōóǒòūúǔùǖǘǚǜü]+", s) for s in sylls):
            raise _fail(name, f"[reading] {word}", word, reading,
                        "must give one lower-case syllable with its tone mark per character, separated by spaces")
        out[word] = sylls
    return MappingProxyType(out)


def readings() -> Mapping[str, tuple[str, ...]]:
    """The readings chosen over pypinyin's (word or character → syllables)."""
    return _readings()


@lru_cache(maxsize=4096)
def syllables(text: str) -> tuple[str, ...]:
    """One syllable with tone marks per Chinese character of ``text`` (other characters dropped):
    the longest override of ``pinyin.toml`` at each place, pypinyin's phrase reading elsewhere."""
    from pypinyin import Style, lazy_pinyin
    overrides = _readings()
    longest = max(map(len, overrides), default=1)
    out: list[str] = []
    run = ""

    def flush() -> None:
        nonlocal run
        if run:
            out.extend(lazy_pinyin(run, style=Style.TONE, errors="ignore"))
            run = ""

    i = 0
    while i < len(text):
        for n in range(min(longest, len(text) - i), 0, -1):
            word = text[i:i + n]
            if word in overrides:
                flush()
                out.extend(overrides[word])
                i += n
                break
        else:
            if _HAN.match(text[i]):
                run += text[i]
            else:
                flush()
            i += 1
    flush()
    return tuple(out)


def pinyin(text: str) -> str:
    """A name in pinyin as one capitalised word with tone marks, an apostrophe before a syllable that
    begins with a, e or o (天恩 → Tiān'ēn)."""
    parts = syllables(text)
    word = "".join((("'" if i and _VOWEL_START.match(s) else "") + s) for i, s in enumerate(parts))
    return word[:1].upper() + word[1:]


def label(name: str, gloss: str, reading: str | None = None) -> str:
    """"天马 Tiānmǎ · Heavenly Horse": the Chinese name, its pinyin and its gloss."""
    py = pinyin(name) if reading is None else reading
    return f"{name} {py} · {gloss}" if gloss else f"{name} {py}"


_CANDS: Final = re.compile(r"^[\u3400-\u9fff]+(、[\u3400-\u9fff]+)+$")
_XING_BACK: Final = re.compile(r"^所刑(.)回到初传$")


def translate_term(text: str, tables: English | None = None) -> str:
    """A Chinese term of the plate in English (a branch or stem list, a name, or the text unchanged)."""
    t = tables or english()
    if text in t.terms:
        return t.terms[text]
    if text in t.kin:
        return t.kin[text]
    if text in t.ke:
        return t.ke[text]
    m = _XING_BACK.match(text)
    if m:
        return f"punishes {m.group(1)}, which returns to the first transmission"
    if "、" in text:
        return ", ".join(text.split("、"))
    return text


_PARITY: Final = {"阳日": "a yang day", "阴日": "a yin day", "阳年": "a yang year", "阴年": "a yin year"}


def condition_english(text: str) -> str:
    """A placement's condition in English: a spirit's condition (our translation, [condition]), a day's
    or year's parity, or a day pillar ("戊寅日" → "a 戊寅 day"); anything else as it is.

    >>> condition_english("螣蛇加临"), condition_english("戊寅日"), condition_english("阴日")
    ('the Soaring Snake over it', 'a 戊寅 day', 'a yin day')
    """
    from shensha_plates.core.cycle import PILLARS
    if text in english().conditions:
        return english().conditions[text]
    if text in _PARITY:
        return _PARITY[text]
    if text.endswith("日") and text[:-1] in PILLARS:
        return f"a {text[:-1]} day"
    return text


def english_of(spirit_id: str | None, name: str, gloss: str | None = None) -> dict[str, str]:
    """``pinyin`` and ``gloss_en`` for a name (every spirit, general and pattern has them in the JSON): the
    gloss from the English data (our translation) unless given."""
    if gloss is None:
        gloss = english().spirit(spirit_id).gloss if spirit_id else ""
    return {"pinyin": pinyin(name), "gloss_en": gloss}
