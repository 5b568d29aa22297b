"""The spirits of a Bazi chart (seed 000): four pillars in, every spirit each pillar carries out.

The rules are data (``resources/systems/bazi.toml``), validated when loaded; :func:`chart` applies
them to four pillars and says, for each hit, which pillar carries it, the rule that fired and the
passage it rests on. The pillars come from the calendar bridge (:func:`chart_for`), so a chart
follows the same year start (立春), months by 节 and 子 hour convention as the plates.

>>> c = chart(PILLARS.index("庚午"), PILLARS.index("辛巳"), PILLARS.index("甲子"), PILLARS.index("乙丑"))
>>> [(h.spirit.name, h.pillar) for h in c.hits if h.spirit.id == "tian_yi_night"]
[('天乙贵人（夜）', 'hour')]
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Final
from collections.abc import Callable, Mapping, Sequence

from shensha_plates.core.catalog import SEED_FILES, Source, seed_source
from shensha_plates.core.cycle import BRANCHES, PHASES, PILLARS, STEMS, nayin, xun_of
from shensha_plates.core import tomlcache
from shensha_plates.core.errors import CatalogError, InputError
from shensha_plates.core.schema import Field, Table, Where, entries, one_of, read_toml, variants_of
from shensha_plates.core.schema import text as nonempty_text

__all__ = ["BaziSpirit", "Hit", "Chart", "chart", "chart_for", "load_bazi", "default_bazi", "PILLAR_NAMES",
           "BaziOptions"]

RESOURCE: Final = Path(__file__).resolve().parents[1] / "resources" / "systems" / "bazi.toml"
PILLAR_KEYS: Final = ("year", "month", "day", "hour")
PILLAR_NAMES: Final = {"year": ("年柱", "年柱"), "month": ("月柱", "月柱"), "day": ("日柱", "日柱"),
                       "hour": ("时柱", "時柱")}
REF_SIZES: Final = {"month_branch": 12, "day_stem": 10, "day_branch": 12, "season": 4, "day_xun": 6,
                    "year_nayin": 5, "none": 1}
REF_WORDS: Final = {"month_branch": "月支", "day_stem": "日干", "day_branch": "日支", "season": "季",
                    "day_xun": "日旬", "year_nayin": "年纳音", "none": ""}
MATCHES: Final = ("branch", "stem", "stem_or_trigram", "pillar", "nayin", "sequence")
SEASON_NAMES: Final = "春夏秋冬"
TRIGRAMS: Final = "乾坤艮巽"


@dataclass(frozen=True, slots=True)
class BaziVariant:
    id: str
    values: tuple[tuple[str, ...], ...]
    source: Source
    verdict: str | None
    note: str
    trigram_palaces: Mapping[str, str] | None = None


@dataclass(frozen=True, slots=True)
class BaziSpirit:
    id: str
    name: str
    name_trad: str
    quality: str
    ref: str
    look: tuple[str, ...]
    match: str
    values: tuple[tuple[str, ...], ...]
    meaning: str
    source: Source
    note: str = ""
    variants: tuple[BaziVariant, ...] = ()


@dataclass(frozen=True, slots=True)
class BaziRules:
    spirits: tuple[BaziSpirit, ...]
    trigram_palaces: Mapping[str, str]
    file: str = field(default="", compare=False)

    def spirit(self, spirit_id: str) -> BaziSpirit:
        for s in self.spirits:
            if s.id == spirit_id:
                return s
        raise KeyError(spirit_id)


@dataclass(frozen=True, slots=True)
class BaziOptions:
    """Variant readings by spirit id, e.g. ``{"jiang_xing": "shenfeng"}``."""

    choices: tuple[tuple[str, str], ...] = ()

    @classmethod
    def from_choices(cls, texts: Sequence[str], rules: BaziRules | None = None) -> BaziOptions:
        rules = rules or default_bazi()
        out = []
        for text in texts:
            sid, _, vid = text.partition("=")
            sid, vid = sid.strip(), vid.strip()
            try:
                spirit = rules.spirit(sid)
            except KeyError:
                raise InputError(f"unknown chart spirit in variant {text!r}") from None
            if vid not in {v.id for v in spirit.variants}:
                known = ", ".join(v.id for v in spirit.variants) or "none"
                raise InputError(f"unknown variant {vid!r} of {sid} (known: {known})")
            out.append((sid, vid))
        return cls(tuple(sorted(dict(out).items())))

    def choice(self, spirit_id: str) -> str | None:
        return dict(self.choices).get(spirit_id)


@dataclass(frozen=True, slots=True)
class Hit:
    """A spirit found in a pillar: ``at`` is what matched (a branch, stem, 甲子 or 纳音),
    ``rule`` says in words how it fired."""

    spirit: BaziSpirit
    pillar: str  # year | month | day | hour, or "year-month-day" for a sequence
    at: str
    rule: str
    variant: str | None = None

    def to_json(self) -> dict[str, object]:
        return {"name": self.spirit.name, "name_trad": self.spirit.name_trad, "id": self.spirit.id,
                "pillar": self.pillar, "at": self.at, "quality": self.spirit.quality, "rule": self.rule,
                "meaning": self.spirit.meaning, "variant": self.variant,
                "source": {"file": self.spirit.source.file, "file_name": SEED_FILES[self.spirit.source.file],
                           "quote": self.spirit.source.quote}}


@dataclass(frozen=True, slots=True)
class Chart:
    pillars: Mapping[str, int]  # year/month/day/hour → pillar index 0–59
    hits: tuple[Hit, ...]

    def pillar_names(self) -> dict[str, str]:
        return {k: PILLARS[v] for k, v in self.pillars.items()}

    def on(self, pillar: str) -> tuple[Hit, ...]:
        return tuple(h for h in self.hits if pillar in h.pillar.split("-"))


# -- loading ---------------------------------------------------------------------------------------

def _labels(ctx: tuple[str, str], raw: Any, fieldname: str, size: int, match: str) -> tuple[tuple[str, ...], ...]:
    file, entry = ctx
    if isinstance(raw, str):
        if match in ("pillar", "sequence"):
            raise CatalogError(file, entry, fieldname, raw, "needs a list of entries for this match")
        entries: list[tuple[str, ...]] = [(ch,) for ch in raw]
    elif isinstance(raw, list):
        entries = []
        for item in raw:
            if isinstance(item, list) and match == "sequence":
                entries.append(tuple(str(x) for x in item))
            elif isinstance(item, str):
                entries.append(tuple(item.split()))
            else:
                raise CatalogError(file, entry, fieldname, item, "each entry must be a string")
    else:
        raise CatalogError(file, entry, fieldname, raw, "must be a string or a list")
    if len(entries) != size:
        raise CatalogError(file, entry, fieldname, raw, f"has {len(entries)} entries, expected {size}")
    checks: dict[str, Callable[[str], bool]] = {
        "branch": lambda t: len(t) == 1 and t in BRANCHES,
        "stem": lambda t: len(t) == 1 and t in STEMS,
        "stem_or_trigram": lambda t: len(t) == 1 and (t in STEMS or t in TRIGRAMS),
        "pillar": lambda t: t in PILLARS,
        "nayin": lambda t: len(t) == 1 and t in PHASES,
        "sequence": lambda t: len(t) == 3 and all(c in STEMS for c in t),
    }
    valid = checks[match]
    for e in entries:
        for label in e:
            if not valid(label):
                raise CatalogError(file, entry, fieldname, label, f"is not a valid label for match {match!r}")
    return tuple(entries)


def _palaces(where: Where, f: str, raw: Any) -> dict[str, str]:
    if not isinstance(raw, dict) or set(raw) != set(TRIGRAMS) or any(v not in BRANCHES for v in raw.values()):
        raise where.fail(f, raw, "must map 乾坤艮巽 each to a branch")
    return dict(raw)


def _look(where: Where, f: str, look: Any) -> tuple[str, ...]:
    if not isinstance(look, list) or not look or any(x not in PILLAR_KEYS for x in look):
        raise where.fail(f, look, "must list pillars among year, month, day, hour")
    return tuple(look)


def _as_is(where: Where, f: str, value: Any) -> Any:
    return value  # read by _check_spirit, which knows the spirit's ref and match


def _note(where: Where, f: str, value: Any) -> str:
    return str(value)


_TEXT: Final = Field(nonempty_text("must be a non-empty string"))
_NOTE: Final = Field(_note, required=False, default="")
_VARIANT: Final = Table({
    "id": Field(nonempty_text()), "values": Field(_as_is), "source": Field(seed_source),
    "verdict": Field(one_of(("rejected", "accepted"), "must be rejected or accepted"), required=False),
    "note": _NOTE, "trigram_palaces": Field(_palaces, required=False),
}, unknown="is not a known field", missing=None)


def _check_spirit(where: Where, p: str, v: dict[str, Any], raw: Mapping[str, Any]) -> None:
    """The values, and each variant's, as the spirit's ``ref`` and ``match`` say."""
    size, match = REF_SIZES[v["ref"]], v["match"]
    v["values"] = _labels((where.file, where.entry), raw.get("values"), "values", size, match)
    variants = []
    for vf, var, rv in variants_of(where, raw, _VARIANT):
        var["values"] = _labels((where.file, where.entry), rv.get("values"), f"{vf}.values", size, match)
        variants.append(BaziVariant(**var))
    v["variant"] = tuple(variants)


_SPIRIT: Final = Table({
    "id": _TEXT, "name": _TEXT, "name_trad": _TEXT, "meaning": _TEXT,
    "quality": Field(one_of(("good", "bad", "mixed"), "must be good, bad or mixed")),
    "ref": Field(one_of(REF_SIZES, f"must be one of {', '.join(REF_SIZES)}")),
    "look": Field(_look), "match": Field(one_of(MATCHES, f"must be one of {', '.join(MATCHES)}")),
    "values": Field(_as_is), "variant": Field(_as_is, required=False), "source": Field(seed_source),
    "note": _NOTE,
}, unknown="is not a known field", missing=None, check=_check_spirit)


def _spirit_entry(i: int, raw: Any) -> str:
    sid = raw.get("id") if isinstance(raw, dict) else None
    return f"spirit {sid}" if isinstance(sid, str) else f"spirit #{i + 1}"


def load_bazi(path: Path | str | None = None) -> BaziRules:
    """See :func:`_load_bazi`; a cached tree that fails validation is parsed afresh first
    (:func:`shensha_plates.core.tomlcache.fresh_on_failure`), so only the file's own faults are reported."""
    return tomlcache.fresh_on_failure(lambda: _load_bazi(path))


def _load_bazi(path: Path | str | None = None) -> BaziRules:
    """Read and validate the chart rules (by :mod:`shensha_plates.core.schema`); any fault raises
    :class:`CatalogError` naming the file, entry, field and value."""
    p = Path(path) if path is not None else RESOURCE
    name = str(p)
    data = read_toml(name, p)
    palaces = _palaces(Where(name), "trigram_palaces", data.get("trigram_palaces"))
    spirits: list[BaziSpirit] = []
    seen: set[str] = set()
    for where, raw in entries(Where(name), data.get("spirit"), "spirit", _spirit_entry, nonempty=True,
                              not_array="must be a non-empty list of [[spirit]]", table_field="(entry)",
                              not_table="must be a table"):
        sp = _SPIRIT.read(where, raw)
        if sp["id"] in seen:
            raise where.fail("id", sp["id"], "is used twice")
        seen.add(sp["id"])
        spirits.append(BaziSpirit(variants=sp.pop("variant"), **sp))
    return BaziRules(spirits=tuple(spirits), trigram_palaces=palaces, file=name)


@lru_cache(maxsize=1)
def default_bazi() -> BaziRules:
    return load_bazi(RESOURCE)


# -- applying the rules ----------------------------------------------------------------------------

def _season_of_branch(branch: int) -> int:
    """寅卯辰 spring … 亥子丑 winter."""
    return ((branch - 2) % 12) // 3


def _ref_value(ref: str, pillars: Mapping[str, int]) -> tuple[int, str]:
    """The value a rule reads, and how to name it (e.g. ``日干甲``)."""
    y, m, d = pillars["year"], pillars["month"], pillars["day"]
    if ref == "month_branch":
        return m % 12, f"月支{BRANCHES[m % 12]}"
    if ref == "day_stem":
        return d % 10, f"日干{STEMS[d % 10]}"
    if ref == "day_branch":
        return d % 12, f"日支{BRANCHES[d % 12]}"
    if ref == "season":
        s = _season_of_branch(m % 12)
        return s, f"{SEASON_NAMES[s]}月"
    if ref == "day_xun":
        x = xun_of(d)
        return x, f"日在{PILLARS[x * 10]}旬"
    if ref == "year_nayin":
        phase = nayin(y)[-1]
        return PHASES.index(phase), f"年纳音{nayin(y)}"
    return 0, ""


def _part(match: str, pillar: int) -> str:
    if match in ("branch", "stem_or_trigram"):
        return BRANCHES[pillar % 12]
    if match == "stem":
        return STEMS[pillar % 10]
    if match == "pillar":
        return PILLARS[pillar]
    if match == "nayin":
        return nayin(pillar)[-1]
    raise AssertionError(match)


def chart(year: int, month: int, day: int, hour: int, options: BaziOptions = BaziOptions(),
          rules: BaziRules | None = None) -> Chart:
    """Every spirit of the rules found in the four pillars (indices 0–59)."""
    for label, p in (("year", year), ("month", month), ("day", day), ("hour", hour)):
        if not isinstance(p, int) or not 0 <= p < 60:
            raise InputError(f"invalid {label} pillar: {p!r} (expected 0–59)")
    rules = rules or default_bazi()
    pillars = {"year": year, "month": month, "day": day, "hour": hour}
    hits: list[Hit] = []
    for sp in rules.spirits:
        vid = options.choice(sp.id)
        variant = next((v for v in sp.variants if v.id == vid), None)
        values = variant.values if variant else sp.values
        palaces = (variant.trigram_palaces if variant and variant.trigram_palaces else rules.trigram_palaces)
        value, ref_text = _ref_value(sp.ref, pillars)
        wanted = values[value]
        if not wanted:
            continue
        if sp.match == "sequence":
            for run in (("year", "month", "day"), ("month", "day", "hour")):
                stems = "".join(STEMS[pillars[k] % 10] for k in run)
                if stems in wanted:
                    hits.append(Hit(sp, "-".join(run), stems, f"{''.join(PILLAR_NAMES[k][0][0] for k in run)}干"
                                    f"{stems}顺连，为{sp.name}", vid))
            continue
        for key in sp.look:
            p = pillars[key]
            if sp.match == "stem_or_trigram":
                found = [lb for lb in wanted
                         if (lb in STEMS and STEMS[p % 10] == lb) or (lb in TRIGRAMS and palaces[lb] == BRANCHES[p % 12])]
                at = found[0] if found else ""
                if found and found[0] in TRIGRAMS:
                    at = f"{found[0]}（{palaces[found[0]]}）"
            else:
                part = _part(sp.match, p)
                found = [lb for lb in wanted if lb == part]
                at = part
            if found:
                shown = "".join(f"{lb}（{palaces[lb]}）" if lb in TRIGRAMS else lb for lb in wanted)
                lead = f"{ref_text}：" if ref_text else ""
                hits.append(Hit(sp, key, at, f"{lead}{sp.name}在{shown}；{PILLAR_NAMES[key][0]}{PILLARS[p]}见{at}", vid))
    order = {k: i for i, k in enumerate(PILLAR_KEYS)}
    hits.sort(key=lambda h: order[h.pillar.split("-")[0]])
    return Chart(pillars=pillars, hits=tuple(hits))


def chart_for(moment: Any, calendar_options: Any = None, options: BaziOptions = BaziOptions()) -> tuple[Chart, Any]:
    """The chart for a birth moment (an aware datetime), through the calendar bridge."""
    from shensha_plates.core.calendar import CalendarOptions, from_datetime
    info = from_datetime(moment, calendar_options or CalendarOptions())
    return chart(info.year, info.month_pillar, info.day, info.hour_pillar, options), info
