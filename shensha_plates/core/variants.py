"""Spirits read more than one way: every reading's rule in words, its source and Zhuang's verdict.

The main reading of a spirit is ``default``; its variants are the catalog's ``[[spirit.variant]]``
entries. Zhuang's verdict is ``accepted``, ``rejected`` or None (none given): on a variant as the
catalog records it, on the main reading as :attr:`shensha_plates.core.catalog.Spirit.verdict` derives it.

>>> [r.id for r in readings_of("tian_xi").readings]
['default', 'shun_twelve']
>>> readings_of("tian_xi").readings[1].verdict
'rejected'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from shensha_plates.core.catalog import Catalog, Source, Spirit, default_catalog, label_branch
from shensha_plates.core.engine import Options, spirit_row
from shensha_plates.core.errors import InputError
from shensha_plates.core.teaching import path_words

__all__ = ["Reading", "SpiritReadings", "readings_of", "find_readings", "rejected_choices",
           "rule_words", "readings_to_json", "readings_to_text", "VERDICT_WORDS"]

KEY_WORDS: Final = {
    "year_branch": "按岁支（子至亥）", "year_stem": "按岁干（甲至癸）", "month": "按月（正至腊）",
    "season": "按季（春夏秋冬）", "mzj": "按孟仲季", "mgroup": "按正五九例（正五九、二六十、三七冬、四八腊）",
    "xun": "按旬（甲子至甲寅）", "day_stem": "按日干（甲至癸）", "day_branch": "按日支（子至亥）",
}
VERDICT_WORDS: Final = {"accepted": "庄氏取", "rejected": "庄氏不取", None: "未评"}


@dataclass(frozen=True, slots=True)
class Reading:
    """One way of placing a spirit: ``id`` is ``default`` or the variant's id."""

    id: str
    rule: str
    source: Source
    verdict: str | None
    note: str | None

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "rule": self.rule, "source": self.source.to_json(), "verdict": self.verdict,
                "note": self.note}


@dataclass(frozen=True, slots=True)
class SpiritReadings:
    spirit: Spirit
    readings: tuple[Reading, ...]

    def to_json(self) -> dict[str, Any]:
        s = self.spirit
        return {"id": s.id, "name": s.name, "name_trad": s.name_trad, "aliases": list(s.aliases),
                "aliases_trad": list(s.aliases_trad), "group": s.group,
                "readings": [r.to_json() for r in self.readings]}


def rule_words(spirit_id: str, variant_id: str = "default", catalog: Catalog | None = None) -> str:
    """A reading's rule in words: the key it runs on, its positions in order, and its path.

    >>> rule_words("fei_lian")
    '按月（正至腊）：戌巳午未寅卯辰亥子丑申酉（不依一定步数；遍历十二辰）'
    """
    cat = catalog or default_catalog()
    options = Options.from_choices({spirit_id: variant_id}, catalog=cat)
    key, row = spirit_row(spirit_id, options, cat)
    if key is None:
        return "不随盘转，常在" + "、".join(row[0])
    cells = ["/".join(labels) if labels else "—" for labels in row]
    joined = "".join(cells) if all(len(c) == 1 for c in cells) else "、".join(cells)
    words = f"{KEY_WORDS[key]}：{joined}"
    if len(row) >= 4 and all(len(labels) == 1 for labels in row):
        words += f"（{path_words([label_branch(labels[0]) for labels in row])}）"
    elif any(not labels for labels in row):
        words += "（—：未详，不排）"
    return words


def readings_of(spirit_id: str, catalog: Catalog | None = None) -> SpiritReadings:
    """Every reading of one spirit, the main one first. Raises :class:`InputError` for an unknown id."""
    cat = catalog or default_catalog()
    try:
        s = cat.spirit(spirit_id)
    except KeyError:
        raise InputError(f"unknown spirit: {spirit_id!r}") from None
    main = Reading("default", rule_words(s.id, "default", cat), s.source, s.verdict, s.note)
    return SpiritReadings(s, (main,) + tuple(
        Reading(v.id, rule_words(s.id, v.id, cat), v.source, v.verdict, v.note) for v in s.variants))


def find_readings(name: str | None = None, catalog: Catalog | None = None) -> tuple[SpiritReadings, ...]:
    """With no name, every spirit that has variants; with a name (id, name, traditional name or
    alias), the spirits so called, whether or not they have variants. Raises :class:`InputError`
    when no spirit has that name."""
    cat = catalog or default_catalog()
    if name is None or not name.strip():
        return tuple(readings_of(s.id, cat) for s in cat.spirits if s.variants)
    text = name.strip()
    found = [s for s in cat.spirits if s.id == text] or list(cat.find(text))
    if not found:
        raise InputError(f"unknown spirit: {name!r} (give an id such as tian_xi, or a name such as 天喜)")
    return tuple(readings_of(s.id, cat) for s in found)


def rejected_choices(options: Options, catalog: Catalog | None = None) -> tuple[tuple[Spirit, str], ...]:
    """The chosen variants that Zhuang rejects, as (spirit, variant id)."""
    cat = catalog or default_catalog()
    out = []
    for sid, vid in options.variants:
        s = cat.spirit(sid)
        if s.verdict_of(vid) == "rejected":
            out.append((s, vid))
    return tuple(out)


def readings_to_json(found: tuple[SpiritReadings, ...]) -> dict[str, Any]:
    return {"spirits": [f.to_json() for f in found]}


def readings_to_text(found: tuple[SpiritReadings, ...], trad: bool = False) -> str:
    """One block per spirit: a line per reading with its verdict and rule, then its source."""
    from shensha_plates.core.lang import name_in
    from shensha_plates.core.script import in_script
    lang = "zh-Hant" if trad else "zh-Hans"
    lines: list[str] = []
    for f in found:
        s = f.spirit
        aliases = s.aliases_trad if trad else s.aliases
        head = f"{name_in(s, lang)} {s.id}"
        if aliases:
            head += in_script("（又名 ", lang) + "、".join(aliases) + "）"
        lines.append(head)
        for r in f.readings:
            lines.append(f"  {r.id}  [{in_script(VERDICT_WORDS[r.verdict], lang)}]  {in_script(r.rule, lang)}")
            line = r.source.line(trad) if r.source.file else in_script(r.source.line(), lang)
            lines.append(f"      {in_script('出处：', lang)}{line}")
            if r.note and r.id != "default":
                lines.append(f"      {in_script('注：', lang)}{in_script(r.note, lang)}")
    return "\n".join(lines)
