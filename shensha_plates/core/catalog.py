"""The spirit catalog: loading, complete validation, and the rule kinds that place a spirit.

The catalog is data (TOML files under ``resources/catalog``). Every file is validated in full when
loaded; the first fault raises :class:`shensha_plates.core.errors.CatalogError` naming the file, the entry, the
field and the value. Nothing is skipped: a catalog either loads whole or not at all.

A rule says where a spirit lies as a function of one *key* of the plate state (the year branch, the
month, the season, the day stem …). Rule kinds form a closed set (ring, table, step, alternate,
opposite, fixed), each validated by one function in :data:`_RULE_CHECKERS` and then parsed, once, into
its typed frozen value (:mod:`shensha_plates.core.rules`), which is what a :class:`Spirit` holds and
what the engine dispatches on.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from importlib import resources as importlib_resources
from importlib.resources.abc import Traversable
from pathlib import Path
from types import MappingProxyType
from typing import Any, Final, TypeVar
from collections.abc import Callable, Iterator, Mapping, Sequence

from shensha_plates.core.rules import (
    FixedPlacing, KeyedPlacing, OppositePlacing, Placing, RingPlacing, TablePlacing, label_branch, parse_rule,
    table_entries,
)
from shensha_plates.core.cycle import BRANCHES, STEMS
from shensha_plates.core import tomlcache
from shensha_plates.core.errors import CatalogError
from shensha_plates.core.schema import Field, Table, Where, read_toml, text

__all__ = [
    "SCHEMA_VERSION", "KEYS", "GROUPS", "SEED_FILES", "SEED_BOOKS", "Rule", "Variant", "Source", "parse_source", "Ring",
    "Spirit", "Catalog", "load_catalog", "default_catalog", "label_branch",
]

SCHEMA_VERSION: Final = 1

# Key name → number of values it takes.
KEYS: Final[Mapping[str, int]] = {
    "year_branch": 12, "year_stem": 10, "month": 12, "season": 4, "mzj": 3, "mgroup": 4,
    "xun": 6, "day_stem": 10, "day_branch": 12,
}
# Group → (Chinese label simplified, traditional, English gloss); order is display order.
GROUPS: Final[Mapping[str, tuple[str, str, str]]] = {
    "year": ("岁煞", "歲煞", "year spirits"),
    "xun": ("旬煞", "旬煞", "xun spirits"),
    "season": ("季煞", "季煞", "season spirits"),
    "month": ("月煞", "月煞", "month spirits"),
    "stem": ("干煞", "幹煞", "day-stem spirits"),
    "branch": ("支煞", "支煞", "day-branch spirits"),
}
QUALITIES: Final = ("good", "bad", "mixed")
ONLY: Final = ("yang_year", "yin_year", "yang_day", "yin_day")
VERDICTS: Final = ("rejected", "accepted")


_REQ_TEXT: Final = text("expected str", "must not be empty")
_SEED: Final = Table({"file": Field(_REQ_TEXT), "book": Field(_REQ_TEXT), "book_trad": Field(_REQ_TEXT),
                      "english": Field(_REQ_TEXT)})


def _load_seed_books() -> Mapping[str, tuple[str, str, str, str]]:
    """Seed code → (file name, book, book in traditional script, English) from resources/sources.toml."""
    name = "resources/sources.toml"
    data = read_toml(name, importlib_resources.files("shensha_plates.resources").joinpath("sources.toml"))
    seeds = data.get("seed")
    if not isinstance(seeds, dict) or not seeds:
        raise Where(name).fail("seed", seeds, "expected [seed.\"000\"] tables")
    out: dict[str, tuple[str, str, str, str]] = {}
    for code, entry in seeds.items():
        seed = _SEED.read(Where(name, f"seed {code}"), entry, name="seed")
        out[code] = (seed["file"], seed["book"], seed["book_trad"], seed["english"])
    return MappingProxyType(out)


_ID_RE: Final = re.compile(r"^[a-z][a-z0-9_]*$")
_RING_ID_RE: Final = re.compile(r"^[A-Z][A-Z0-9]*$")


@dataclass(frozen=True, slots=True)
class Source:
    """Where a rule comes from: a seed file code and a phrase quoted from it, or (``file`` empty) a
    book outside the seeds, named in ``outside``, with the passage when we have it."""

    file: str
    quote: str
    outside: str | None = None

    @property
    def file_name(self) -> str | None:
        """The seed's file name (None for a book outside the seeds)."""
        return SEED_FILES[self.file] if self.file else None

    def book(self, trad: bool = False) -> str:
        """The book the passage is in, as the user reads it (never a file name)."""
        if not self.file:
            return self.outside or ""
        entry = SEED_BOOKS[self.file]
        return entry[2] if trad else entry[1]

    def line(self, trad: bool = False) -> str:
        """The book and the quoted passage, e.g. 《选择求真》卷八至十「…」."""
        return self.book(trad) + (f"「{self.quote}」" if self.quote else "")

    def to_json(self) -> dict[str, str | None]:
        return {"file": self.file or None, "file_name": self.file_name, "book": self.book(),
                "quote": self.quote or None}


def parse_source(file: str, entry: str, field: str, raw: Any) -> Source:
    """A ``{ file = "000", quote = "…" }`` table: a seed code and a non-empty quotation."""
    if not isinstance(raw, dict) or set(raw) != {"file", "quote"}:
        raise CatalogError(file, entry, field, raw, "must be { file = …, quote = … }")
    if raw["file"] not in SEED_FILES:
        raise CatalogError(file, entry, f"{field}.file", raw["file"], "is not a seed file code")
    if not isinstance(raw["quote"], str) or not raw["quote"].strip():
        raise CatalogError(file, entry, f"{field}.quote", raw["quote"], "must be a non-empty quotation")
    return Source(raw["file"], raw["quote"])


# A placement rule: one of the typed values of :mod:`shensha_plates.core.rules`.
Rule = Placing


@dataclass(frozen=True, slots=True)
class Variant:
    """A reading of a spirit other than the one the plates follow: its rule, the passage that gives it and
    Zhuang's verdict on it, if any."""

    id: str
    rule: Rule
    source: Source
    verdict: str | None
    note: str


@dataclass(frozen=True, slots=True)
class Ring:
    """One disc of a plate: its plate (upper or lower), names, group, the rule its slot 0 is turned by, source."""

    id: str
    plate: str
    name: str
    name_trad: str
    group: str
    anchor: KeyedPlacing
    source: Source

    @property
    def key(self) -> str:
        return self.anchor.key


@dataclass(frozen=True, slots=True)
class Spirit:
    """One spirit of the catalog: its names and aliases, group, quality, rule, meaning and source."""

    id: str
    name: str
    name_trad: str
    aliases: tuple[str, ...]
    aliases_trad: tuple[str, ...]
    group: str
    quality: str
    rule: Rule
    meaning: str
    source: Source
    condition: str | None = None
    only: str | None = None
    note: str | None = None
    variants: tuple[Variant, ...] = ()
    seq: int = 0
    file: str = field(default="", compare=False)
    day_pillar: bool = False

    @property
    def verdict(self) -> str | None:
        """Zhuang's verdict on the main reading: accepted where he rejects a variant, rejected where
        he accepts one, None where he gives none."""
        verdicts = {v.verdict for v in self.variants}
        if "rejected" in verdicts:
            return "accepted"
        if "accepted" in verdicts:
            return "rejected"
        return None

    def verdict_of(self, variant_id: str | None) -> str | None:
        """Zhuang's verdict on a reading (None or "default": the main one)."""
        if variant_id in (None, "default"):
            return self.verdict
        return self.variant(str(variant_id)).verdict

    def variant(self, variant_id: str) -> Variant:
        for v in self.variants:
            if v.id == variant_id:
                return v
        raise KeyError(variant_id)


@dataclass(frozen=True, slots=True, eq=False)
class Catalog:
    """A validated catalog: rings in order and spirits in catalog order."""

    rings: tuple[Ring, ...]
    spirits: tuple[Spirit, ...]
    files: tuple[str, ...]
    by_id: Mapping[str, Spirit] = field(compare=False, repr=False, default_factory=dict)

    def ring(self, ring_id: str) -> Ring:
        for r in self.rings:
            if r.id == ring_id:
                return r
        raise KeyError(ring_id)

    def spirit(self, spirit_id: str) -> Spirit:
        return self.by_id[spirit_id]

    def find(self, text: str) -> tuple[Spirit, ...]:
        """Spirits whose name, traditional name or an alias equals ``text``."""
        t = text.strip()
        return tuple(s for s in self.spirits
                     if t in (s.name, s.name_trad) or t in s.aliases or t in s.aliases_trad)


# ---------------------------------------------------------------------------------------------
# labels

def _valid_label(label: str) -> bool:
    try:
        label_branch(label)
    except ValueError:
        return False
    if len(label) == 2:
        return (STEMS.index(label[0]) - BRANCHES.index(label[1])) % 2 == 0
    return True




# ---------------------------------------------------------------------------------------------
# validation

class _Ctx:
    """Where in the catalog we are, for error messages."""

    def __init__(self, file: str) -> None:
        self.file = file
        self.entry = "(file)"

    def fail(self, fieldname: str, value: object, problem: str) -> CatalogError:
        return CatalogError(self.file, self.entry, fieldname, value, problem)


def _req(ctx: _Ctx, table: Mapping[str, Any], name: str, typ: type, prefix: str = "") -> Any:
    if name not in table:
        raise ctx.fail(prefix + name, None, "missing")
    value = table[name]
    if typ is int and isinstance(value, bool):
        raise ctx.fail(prefix + name, value, "expected an integer")
    if not isinstance(value, typ):
        raise ctx.fail(prefix + name, value, f"expected {typ.__name__}")
    if isinstance(value, str) and not value.strip():
        raise ctx.fail(prefix + name, value, "must not be empty")
    return value


def _no_extra(ctx: _Ctx, table: Mapping[str, Any], allowed: Sequence[str], prefix: str = "") -> None:
    for k in table:
        if k not in allowed:
            raise ctx.fail(prefix + str(k), table[k], f"unknown field (allowed: {', '.join(allowed)})")


def _check_key(ctx: _Ctx, rule: Mapping[str, Any], fieldname: str) -> str:
    key = _req(ctx, rule, "key", str, fieldname + ".")
    if key not in KEYS:
        raise ctx.fail(fieldname + ".key", key, f"unknown key (expected one of {', '.join(KEYS)})")
    return str(key)


def _check_branch(ctx: _Ctx, value: object, fieldname: str) -> None:
    if not (isinstance(value, str) and len(value) == 1 and value in BRANCHES):
        raise ctx.fail(fieldname, value, f"expected a branch ({BRANCHES})")


def _check_table(ctx: _Ctx, rule: Mapping[str, Any], f: str, rings: Mapping[str, Ring]) -> None:
    _no_extra(ctx, rule, ("kind", "key", "values"), f + ".")
    key = _check_key(ctx, rule, f)
    values = rule.get("values")
    if not (isinstance(values, str) or (isinstance(values, list)
                                        and all(isinstance(v, str) for v in values))):
        raise ctx.fail(f + ".values", values, "expected a string or a list of strings")
    entries = table_entries(values)
    if len(entries) != KEYS[key]:
        raise ctx.fail(f + ".values", values,
                       f"has {len(entries)} entries; key {key} needs {KEYS[key]}")
    for entry in entries:
        for label in entry:
            if not _valid_label(label):
                raise ctx.fail(f + ".values", label,
                               "not a branch, stem, trigram (乾坤艮巽) or 甲子 pillar")


def _check_fixed(ctx: _Ctx, rule: Mapping[str, Any], f: str, rings: Mapping[str, Ring]) -> None:
    _no_extra(ctx, rule, ("kind", "values"), f + ".")
    values = rule.get("values")
    if not (isinstance(values, str) or (isinstance(values, list)
                                        and all(isinstance(v, str) for v in values))):
        raise ctx.fail(f + ".values", values, "expected a string or a list of strings")
    entries = table_entries(values)
    if not entries:
        raise ctx.fail(f + ".values", values, "must name at least one position")
    for entry in entries:
        for label in entry:
            if not _valid_label(label):
                raise ctx.fail(f + ".values", label, "not a position label")


def _check_step(ctx: _Ctx, rule: Mapping[str, Any], f: str, rings: Mapping[str, Ring]) -> None:
    _no_extra(ctx, rule, ("kind", "key", "start", "step"), f + ".")
    _check_key(ctx, rule, f)
    _check_branch(ctx, rule.get("start"), f + ".start")
    step = _req(ctx, rule, "step", int, f + ".")
    if not -11 <= step <= 11:
        raise ctx.fail(f + ".step", step, "expected −11 … 11")


def _check_alternate(ctx: _Ctx, rule: Mapping[str, Any], f: str, rings: Mapping[str, Ring]) -> None:
    _no_extra(ctx, rule, ("kind", "key", "start"), f + ".")
    key = _check_key(ctx, rule, f)
    if key != "month":
        raise ctx.fail(f + ".key", key, "the alternate rule runs over months only")
    _check_branch(ctx, rule.get("start"), f + ".start")


def _check_opposite(ctx: _Ctx, rule: Mapping[str, Any], f: str, rings: Mapping[str, Ring]) -> None:
    _no_extra(ctx, rule, ("kind", "of"), f + ".")
    of = _req(ctx, rule, "of", str, f + ".")
    if not _ID_RE.match(of):
        raise ctx.fail(f + ".of", of, "expected a spirit id")


def _check_ring_rule(ctx: _Ctx, rule: Mapping[str, Any], f: str, rings: Mapping[str, Ring]) -> None:
    _no_extra(ctx, rule, ("kind", "ring", "offset", "at"), f + ".")
    ring_id = _req(ctx, rule, "ring", str, f + ".")
    if ring_id not in rings:
        raise ctx.fail(f + ".ring", ring_id, f"unknown ring (known: {', '.join(rings)})")
    offset = rule.get("offset")
    given: list[object] = offset if isinstance(offset, list) else [offset]
    offsets = [o for o in given if isinstance(o, int) and not isinstance(o, bool) and 0 <= o <= 11]
    if not offsets or len(offsets) != len(given):
        raise ctx.fail(f + ".offset", offset, "expected an offset 0–11 or a list of them")
    if "at" in rule:
        ring = rings[ring_id]
        at = rule["at"]
        n = KEYS[ring.key]
        if not (isinstance(at, str) and len(at) == n):
            raise ctx.fail(f + ".at", at, f"expected {n} labels, one per value of key {ring.key}")
        for i, label in enumerate(at):
            if not _valid_label(label):
                raise ctx.fail(f + ".at", label, "not a position label")
            expected = (ring.anchor.branch(i) + offsets[0]) % 12
            if label_branch(label) != expected:
                raise ctx.fail(f + ".at", label,
                               f"lies on {BRANCHES[label_branch(label)]}, but the ring slot for "
                               f"value {i + 1} of {ring.key} is {BRANCHES[expected]}")


_RULE_CHECKERS: Final = {
    "ring": _check_ring_rule, "table": _check_table, "step": _check_step,
    "alternate": _check_alternate, "opposite": _check_opposite, "fixed": _check_fixed,
}
_ANCHOR_KINDS: Final = ("table", "step", "alternate")


def _make_rule(ctx: _Ctx, raw: object, fieldname: str, rings: Mapping[str, Ring],
               kinds: Sequence[str] = tuple(_RULE_CHECKERS)) -> Rule:
    """The rule table validated (one :class:`CatalogError` naming the field at fault) and parsed into its
    typed value."""
    if not isinstance(raw, dict):
        raise ctx.fail(fieldname, raw, "expected a table")
    kind = raw.get("kind")
    if not isinstance(kind, str) or kind not in kinds:
        raise ctx.fail(fieldname + ".kind", kind, f"unknown rule kind (expected one of {', '.join(kinds)})")
    _RULE_CHECKERS[kind](ctx, raw, fieldname, rings)
    return parse_rule(raw)


def _make_source(ctx: _Ctx, raw: object, fieldname: str) -> Source:
    if not isinstance(raw, dict):
        raise ctx.fail(fieldname, raw, "expected a table {file, quote} or {book, quote}")
    if "book" in raw:
        # A source outside the seeds: the book by name; the passage if we have it.
        _no_extra(ctx, raw, ("book", "quote"), fieldname + ".")
        book = _req(ctx, raw, "book", str, fieldname + ".")
        if not book.startswith("《"):
            raise ctx.fail(fieldname + ".book", book, "expected a book title in 《》")
        quote = _req(ctx, raw, "quote", str, fieldname + ".") if "quote" in raw else ""
        return Source(file="", quote=quote, outside=book)
    _no_extra(ctx, raw, ("file", "quote"), fieldname + ".")
    file = _req(ctx, raw, "file", str, fieldname + ".")
    if file not in SEED_FILES:
        raise ctx.fail(fieldname + ".file", file, f"unknown seed (expected one of {', '.join(SEED_FILES)})")
    quote = _req(ctx, raw, "quote", str, fieldname + ".")
    return Source(file=file, quote=quote)


def _str_list(ctx: _Ctx, raw: Mapping[str, Any], name: str) -> tuple[str, ...]:
    value = raw.get(name, [])
    if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
        raise ctx.fail(name, value, "expected a list of non-empty strings")
    return tuple(value)


_SPIRIT_FIELDS: Final = ("id", "name", "name_trad", "aliases", "aliases_trad", "group", "quality",
                         "rule", "condition", "only", "note", "meaning", "source", "variant", "day_pillar")


def _parse_toml(name: str, source: Path | Traversable) -> dict[str, Any]:
    data = read_toml(name, source)
    _no_extra(_Ctx(name), data, ("schema_version", "ring", "spirit"))
    return data


def _parse_rings(name: str, data: Mapping[str, Any], rings: dict[str, Ring]) -> None:
    ctx = _Ctx(name)
    raw_rings = data.get("ring", [])
    if not isinstance(raw_rings, list):
        raise ctx.fail("ring", raw_rings, "expected an array of tables [[ring]]")
    for i, raw in enumerate(raw_rings):
        ctx.entry = f"ring #{i + 1}"
        if not isinstance(raw, dict):
            raise ctx.fail("ring", raw, "expected a table")
        _no_extra(ctx, raw, ("id", "plate", "name", "name_trad", "group", "anchor", "source"))
        rid = _req(ctx, raw, "id", str)
        ctx.entry = f"ring {rid}"
        if not _RING_ID_RE.match(rid):
            raise ctx.fail("id", rid, "expected an upper-case ASCII id such as U1")
        if rid in rings:
            raise ctx.fail("id", rid, "duplicate ring id")
        plate = _req(ctx, raw, "plate", str)
        if plate not in ("upper", "lower"):
            raise ctx.fail("plate", plate, "expected upper or lower")
        group = _req(ctx, raw, "group", str)
        if group not in GROUPS:
            raise ctx.fail("group", group, f"expected one of {', '.join(GROUPS)}")
        anchor = _make_rule(ctx, raw.get("anchor"), "anchor", rings, _ANCHOR_KINDS)
        assert not isinstance(anchor, FixedPlacing | RingPlacing | OppositePlacing)  # _ANCHOR_KINDS only
        rings[rid] = Ring(id=rid, plate=plate, name=_req(ctx, raw, "name", str),
                          name_trad=_req(ctx, raw, "name_trad", str), group=group, anchor=anchor,
                          source=_make_source(ctx, raw.get("source"), "source"))


def _parse_spirits(name: str, data: Mapping[str, Any], rings: Mapping[str, Ring],
                   spirits: list[Spirit], seen: dict[str, str]) -> None:
    ctx = _Ctx(name)
    raw_spirits = data.get("spirit", [])
    if not isinstance(raw_spirits, list):
        raise ctx.fail("spirit", raw_spirits, "expected an array of tables [[spirit]]")
    for i, raw in enumerate(raw_spirits):
        ctx.entry = f"spirit #{i + 1}"
        if not isinstance(raw, dict):
            raise ctx.fail("spirit", raw, "expected a table")
        sid = _req(ctx, raw, "id", str)
        ctx.entry = f"spirit {sid}"
        _no_extra(ctx, raw, _SPIRIT_FIELDS)
        if not _ID_RE.match(sid):
            raise ctx.fail("id", sid, "expected a lower-case ASCII id (a-z, 0-9, _)")
        if sid in seen:
            raise ctx.fail("id", sid, f"duplicate spirit id (first in {seen[sid]})")
        seen[sid] = name
        group = _req(ctx, raw, "group", str)
        if group not in GROUPS:
            raise ctx.fail("group", group, f"expected one of {', '.join(GROUPS)}")
        quality = _req(ctx, raw, "quality", str)
        if quality not in QUALITIES:
            raise ctx.fail("quality", quality, f"expected one of {', '.join(QUALITIES)}")
        aliases = _str_list(ctx, raw, "aliases")
        aliases_trad = _str_list(ctx, raw, "aliases_trad")
        if len(aliases) != len(aliases_trad):
            raise ctx.fail("aliases_trad", list(aliases_trad),
                           f"needs one traditional form for each of the {len(aliases)} aliases")
        only = raw.get("only")
        if only is not None and only not in ONLY:
            raise ctx.fail("only", only, f"expected one of {', '.join(ONLY)}")
        for opt in ("condition", "note"):
            if opt in raw:
                _req(ctx, raw, opt, str)
        rule = _make_rule(ctx, raw.get("rule"), "rule", rings)
        day_pillar = raw.get("day_pillar", False)
        if not isinstance(day_pillar, bool):
            raise ctx.fail("day_pillar", day_pillar, "expected true or false")
        if day_pillar:
            # The labels name days: the spirit is in force only on that day pillar.
            if not isinstance(rule, TablePlacing) or group not in ("season", "month"):
                raise ctx.fail("day_pillar", day_pillar, "needs a table rule of a season or month spirit")
            for entry in rule.entries:
                for label in entry:
                    if len(label) != 2:
                        raise ctx.fail("rule.values", label, "day_pillar = true needs 甲子 pillars")
        raw_variants = raw.get("variant", [])
        if not isinstance(raw_variants, list):
            raise ctx.fail("variant", raw_variants, "expected an array of tables [[spirit.variant]]")
        variants: list[Variant] = []
        for j, rv in enumerate(raw_variants):
            f = f"variant[{j}]"
            if not isinstance(rv, dict):
                raise ctx.fail(f, rv, "expected a table")
            _no_extra(ctx, rv, ("id", "rule", "source", "verdict", "note"), f + ".")
            vid = _req(ctx, rv, "id", str, f + ".")
            if not _ID_RE.match(vid) or vid == "default":
                raise ctx.fail(f + ".id", vid, "expected a lower-case ASCII id other than 'default'")
            if any(v.id == vid for v in variants):
                raise ctx.fail(f + ".id", vid, "duplicate variant id")
            verdict = rv.get("verdict")
            if verdict is not None and verdict not in VERDICTS:
                raise ctx.fail(f + ".verdict", verdict, f"expected one of {', '.join(VERDICTS)}")
            variants.append(Variant(id=vid, rule=_make_rule(ctx, rv.get("rule"), f + ".rule", rings),
                                    source=_make_source(ctx, rv.get("source"), f + ".source"),
                                    verdict=verdict, note=_req(ctx, rv, "note", str, f + ".")))
        spirits.append(Spirit(
            id=sid, name=_req(ctx, raw, "name", str), name_trad=_req(ctx, raw, "name_trad", str),
            aliases=aliases, aliases_trad=aliases_trad, group=group, quality=quality, rule=rule,
            meaning=_req(ctx, raw, "meaning", str), source=_make_source(ctx, raw.get("source"), "source"),
            condition=raw.get("condition"), only=only, note=raw.get("note"),
            variants=tuple(variants), seq=len(spirits), file=name, day_pillar=day_pillar))


_DAY_GROUPS: Final = ("stem", "branch")
_MONTH_KEYS: Final = ("season", "month", "mzj", "mgroup")


def _rule_keys(rule: Rule, ids: Mapping[str, Spirit], rings: Mapping[str, Ring],
               seen: frozenset[str] = frozenset()) -> frozenset[str | None]:
    """Every state key the rule may depend on, whatever variants are chosen (None: a fixed rule)."""
    match rule:
        case RingPlacing(ring=ring):
            return frozenset((rings[ring].key,))
        case OppositePlacing(of=of):
            if of in seen:
                return frozenset()
            target = ids[of]
            return frozenset().union(*(_rule_keys(r, ids, rings, seen | {of})
                                       for r in (target.rule, *(v.rule for v in target.variants))))
        case FixedPlacing():
            return frozenset((None,))
        case _:
            return frozenset((rule.key,))


def _check_references(spirits: Sequence[Spirit], rings: Mapping[str, Ring]) -> None:
    ids = {s.id: s for s in spirits}
    for s in spirits:
        for fieldname, rule in [("rule", s.rule)] + [(f"variant {v.id}.rule", v.rule) for v in s.variants]:
            if not isinstance(rule, OppositePlacing):
                continue
            of = rule.of
            target = ids.get(of)
            if target is None:
                raise CatalogError(s.file, f"spirit {s.id}", fieldname + ".of", of, "no spirit has this id")
            if isinstance(target.rule, OppositePlacing | FixedPlacing):
                raise CatalogError(s.file, f"spirit {s.id}", fieldname + ".of", of,
                                   "must name a spirit placed by a keyed rule")
    # What the engine can place: a fixed rule only for day spirits (they need a day all the same),
    # an ``only`` condition only on a spirit keyed by the month or the season.
    for s in spirits:
        for fieldname, rule in [("rule", s.rule)] + [(f"variant {v.id}.rule", v.rule) for v in s.variants]:
            keys = _rule_keys(rule, ids, rings)
            if None in keys and s.group not in _DAY_GROUPS:
                raise CatalogError(s.file, f"spirit {s.id}", fieldname + ".kind", rule.kind,
                                   f"a fixed rule places only day spirits (group {' or '.join(_DAY_GROUPS)})")
            if s.only is not None and not keys <= set(_MONTH_KEYS):
                raise CatalogError(s.file, f"spirit {s.id}", "only", s.only,
                                   f"applies only to a rule keyed by {', '.join(_MONTH_KEYS)} "
                                   f"({fieldname} is keyed by {', '.join(sorted(str(k) for k in keys))})")


def load_catalog(paths: Sequence[Path | str] | None = None) -> Catalog:
    """See :func:`_load_catalog`; a cached tree that fails validation is parsed afresh first
    (:func:`shensha_plates.core.tomlcache.fresh_on_failure`), so only the file's own faults are reported."""
    return tomlcache.fresh_on_failure(lambda: _load_catalog(paths))


def _load_catalog(paths: Sequence[Path | str] | None = None) -> Catalog:
    """Load and validate catalog files (default: the bundled ``resources/catalog/*.toml``).

    Raises :class:`CatalogError` on the first fault, naming file, entry, field and value.
    """
    sources: list[tuple[str, Path | Traversable]] = []
    if paths is None:
        root = importlib_resources.files("shensha_plates.resources").joinpath("catalog")
        names = sorted(p.name for p in root.iterdir() if p.name.endswith(".toml"))
        sources = [(f"resources/catalog/{n}", root.joinpath(n)) for n in names]
    else:
        sources = [(str(Path(p)), Path(p)) for p in paths]
    if not sources:
        raise CatalogError("resources/catalog", "(file)", "(file)", None, "no catalog files found")
    parsed = [(name, _parse_toml(name, source)) for name, source in sources]
    rings: dict[str, Ring] = {}
    # Every file's rings first, so that any file may place spirits on any ring.
    for name, table in parsed:
        _parse_rings(name, table, rings)
    spirits: list[Spirit] = []
    seen: dict[str, str] = {}
    for name, table in parsed:
        _parse_spirits(name, table, rings, spirits, seen)
    _check_references(spirits, rings)
    ordered = tuple(sorted(spirits, key=lambda s: (_GROUP_ORDER[s.group], s.seq)))
    return Catalog(rings=tuple(sorted(rings.values(), key=_ring_order)), spirits=ordered,
                   files=tuple(name for name, _ in parsed),
                   by_id=MappingProxyType({s.id: s for s in ordered}))


def _ring_order(r: Ring) -> tuple[int, str]:
    return (0 if r.plate == "upper" else 1, r.id)


_GROUP_ORDER: Final = {g: i for i, g in enumerate(GROUPS)}
# Seed code → (file name, book, book traditional, English), and seed code → file name.

V = TypeVar("V")


class _LoadedOnUse(Mapping[str, V]):
    """A table read from a resource file when first used, not at import: a damaged file is then a
    :class:`CatalogError` where the program reports errors (one line, a message in the window), not
    a traceback while a module is imported. A load that fails is tried again at the next use."""

    def __init__(self, load: Callable[[], Mapping[str, V]]) -> None:
        self._load = load
        self._data: Mapping[str, V] | None = None

    def _table(self) -> Mapping[str, V]:
        if self._data is None:
            self._data = tomlcache.fresh_on_failure(self._load)
        return self._data

    def __getitem__(self, key: str) -> V:
        return self._table()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._table())

    def __len__(self) -> int:
        return len(self._table())

    def __contains__(self, key: object) -> bool:
        return key in self._table()


SEED_BOOKS: Final[Mapping[str, tuple[str, str, str, str]]] = _LoadedOnUse(_load_seed_books)
SEED_FILES: Final[Mapping[str, str]] = _LoadedOnUse(lambda: MappingProxyType({k: v[0] for k, v in SEED_BOOKS.items()}))
_DEFAULT: list[Catalog] = []


def default_catalog() -> Catalog:
    """The bundled catalog, loaded and validated once per process."""
    if not _DEFAULT:
        _DEFAULT.append(load_catalog())
    return _DEFAULT[0]
