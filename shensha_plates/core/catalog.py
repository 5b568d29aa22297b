"""The spirit catalog: loading, complete validation, and the rule kinds that place a spirit.

The catalog is data (TOML files under ``resources/catalog``). Every file is validated in full when
loaded; the first fault raises :class:`shensha_plates.core.errors.CatalogError` naming the file, the entry, the
field and the value. Nothing is skipped: a catalog either loads whole or not at all.

A rule says where a spirit lies as a function of one *key* of the plate state (the year branch, the
month, the season, the day stem …). Rule kinds form a closed set (ring, table, step, alternate,
opposite, fixed), each described by one :class:`~shensha_plates.core.schema.Table` (``_TABLE_RULE`` …,
chosen by the rule's ``kind``) and read, once, straight into its typed frozen value
(:mod:`shensha_plates.core.rules`), which is what a :class:`Spirit` holds and what the engine
dispatches on. The rings, spirits, variants and sources are Tables too (:mod:`shensha_plates.core.
schema` reads them all); what one field says of another, or of the other files, is checked after.
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
    AlternatePlacing, FixedPlacing, KeyedPlacing, OppositePlacing, Placing, RingPlacing, StepPlacing, TablePlacing,
    is_label, label_branch, table_entries,
)
from shensha_plates.core.cycle import BRANCHES
from shensha_plates.core import tomlcache
from shensha_plates.core.errors import CatalogError
from shensha_plates.core.schema import (
    Field, Kind, Table, Where, as_is, boolean, branch, checked, entries, matching, one_of, read_toml, skip, text,
    text_list,
)

__all__ = [
    "SCHEMA_VERSION", "KEYS", "GROUPS", "SEED_FILES", "SEED_BOOKS", "Rule", "Variant", "Source", "seed_source", "Ring",
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
_VARIANT_ID_RE: Final = re.compile(r"^(?!default$)[a-z][a-z0-9_]*$")


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


def seed_source(where: Where, f: str, raw: Any) -> Source:
    """A ``{ file = "000", quote = "…" }`` table: a seed code and a non-empty quotation (a kind of
    :mod:`shensha_plates.core.schema`, for the other systems' rule files)."""
    if not isinstance(raw, dict) or set(raw) != {"file", "quote"}:
        raise where.fail(f, raw, "must be { file = …, quote = … }")
    if raw["file"] not in SEED_FILES:
        raise where.fail(f"{f}.file", raw["file"], "is not a seed file code")
    if not isinstance(raw["quote"], str) or not raw["quote"].strip():
        raise where.fail(f"{f}.quote", raw["quote"], "must be a non-empty quotation")
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
# the schema of a catalog file, read by core/schema.py straight into typed values

def _integer(where: Where, f: str, value: Any) -> int:
    if isinstance(value, bool):
        raise where.fail(f, value, "expected an integer")
    if not isinstance(value, int):
        raise where.fail(f, value, "expected int")
    return value


def _labels(where: Where, f: str, values: Any) -> tuple[tuple[str, ...], ...]:
    """A table's values: a string (one label a character) or a list of space-separated labels."""
    if not (isinstance(values, str) or (isinstance(values, list) and all(isinstance(v, str) for v in values))):
        raise where.fail(f, values, "expected a string or a list of strings")
    return table_entries(values)


_KEY_PROBLEM: Final = f"unknown key (expected one of {', '.join(KEYS)})"


def _key(where: Where, f: str, value: Any) -> str:
    if type(value) is str and value in KEYS:
        return value
    _REQ_TEXT(where, f, value)
    raise where.fail(f, value, _KEY_PROBLEM)
_START: Final = Field(branch(), missing=f"expected a branch ({BRANCHES})")
_VALUES: Final = Field(_labels, missing="expected a string or a list of strings")


def _check_table(where: Where, p: str, v: dict[str, Any], raw: Mapping[str, Any]) -> None:
    key, entries = v["key"], v["values"]
    if len(entries) != KEYS[key]:
        raise where.fail(p + "values", raw["values"], f"has {len(entries)} entries; key {key} needs {KEYS[key]}")
    for entry in entries:
        for label in entry:
            if not is_label(label):
                raise where.fail(p + "values", label, "not a branch, stem, trigram (乾坤艮巽) or 甲子 pillar")


def _check_fixed(where: Where, p: str, v: dict[str, Any], raw: Mapping[str, Any]) -> None:
    if not v["values"]:
        raise where.fail(p + "values", raw["values"], "must name at least one position")
    for entry in v["values"]:
        for label in entry:
            if not is_label(label):
                raise where.fail(p + "values", label, "not a position label")


def _check_step(where: Where, p: str, v: dict[str, Any], raw: Mapping[str, Any]) -> None:
    if not -11 <= v["step"] <= 11:
        raise where.fail(p + "step", v["step"], "expected −11 … 11")


def _check_alternate(where: Where, p: str, v: dict[str, Any], raw: Mapping[str, Any]) -> None:
    if v["key"] != "month":
        raise where.fail(p + "key", v["key"], "the alternate rule runs over months only")


_TABLE_RULE: Final = Table({"kind": Field(skip), "key": Field(_key), "values": _VALUES}, check=_check_table,
                           build=lambda key, values: TablePlacing(key, values))
_STEP_RULE: Final = Table({"kind": Field(skip), "key": Field(_key), "start": _START, "step": Field(_integer)},
                          check=_check_step, build=StepPlacing)
_ALTERNATE_RULE: Final = Table({"kind": Field(skip), "key": Field(_key), "start": _START}, check=_check_alternate,
                               build=AlternatePlacing)
_OPPOSITE_RULE: Final = Table(
    {"kind": Field(skip), "of": Field(matching(_ID_RE, "expected a spirit id", _REQ_TEXT))},
    build=OppositePlacing)
_FIXED_RULE: Final = Table({"kind": Field(skip), "values": _VALUES}, check=_check_fixed,
                           build=lambda values: FixedPlacing(tuple(lb for entry in values for lb in entry)))
_ANCHOR_RULES: Final = {"table": _TABLE_RULE, "step": _STEP_RULE, "alternate": _ALTERNATE_RULE}


def _offsets(where: Where, f: str, offset: Any) -> tuple[int, ...]:
    given: list[object] = offset if isinstance(offset, list) else [offset]
    offsets = tuple(o for o in given if isinstance(o, int) and not isinstance(o, bool) and 0 <= o <= 11)
    if not offsets or len(offsets) != len(given):
        raise where.fail(f, offset, "expected an offset 0–11 or a list of them")
    return offsets


def _ring_rule(rings: Mapping[str, Ring]) -> Table:
    """The ``ring`` rule: on a ring of this catalog (its key and anchor carried by the value)."""
    def ring_id(where: Where, f: str, value: Any) -> str:
        rid = _REQ_TEXT(where, f, value)
        if rid not in rings:
            raise where.fail(f, rid, f"unknown ring (known: {', '.join(rings)})")
        return str(rid)

    def check(where: Where, p: str, v: dict[str, Any], raw: Mapping[str, Any]) -> None:
        at = v["at"]
        if at is None:
            return
        ring = rings[v["ring"]]
        n = KEYS[ring.key]
        if not (isinstance(at, str) and len(at) == n):
            raise where.fail(p + "at", at, f"expected {n} labels, one per value of key {ring.key}")
        for i, label in enumerate(at):
            if not is_label(label):
                raise where.fail(p + "at", label, "not a position label")
            expected = (ring.anchor.branch(i) + v["offset"][0]) % 12
            if label_branch(label) != expected:
                raise where.fail(p + "at", label, f"lies on {BRANCHES[label_branch(label)]}, but the ring slot for "
                                 f"value {i + 1} of {ring.key} is {BRANCHES[expected]}")

    def build(ring: str, offset: tuple[int, ...], at: str | None) -> RingPlacing:
        return RingPlacing(ring, offset, None if at is None else tuple(at), rings[ring].key, rings[ring].anchor)

    return Table({"kind": Field(skip), "ring": Field(ring_id),
                  "offset": Field(_offsets, missing="expected an offset 0–11 or a list of them"),
                  "at": Field(as_is, required=False)}, check=check, build=build)


def _rule(tables: Mapping[str, Table]) -> Kind:
    """A rule table of one of the kinds ``tables`` (by its ``kind`` field), as its typed value."""
    kinds = ", ".join(tables)

    def read(where: Where, f: str, raw: Any) -> Rule:
        if not isinstance(raw, dict):
            raise where.fail(f, raw, "expected a table")
        kind = raw.get("kind")
        if not isinstance(kind, str) or kind not in tables:
            raise where.fail(f + ".kind", kind, f"unknown rule kind (expected one of {kinds})")
        placing: Rule = tables[kind].read(where, raw, f + ".")
        return placing
    return read


def _seed_file(where: Where, f: str, value: Any) -> str:
    file = _REQ_TEXT(where, f, value)
    if file not in SEED_FILES:
        raise where.fail(f, file, f"unknown seed (expected one of {', '.join(SEED_FILES)})")
    return str(file)


_SEED_SOURCE: Final = Table({"file": Field(_seed_file), "quote": Field(_REQ_TEXT)}, build=Source)
# A source outside the seeds: the book by name; the passage if we have it.
_BOOK_SOURCE: Final = Table(
    {"book": Field(checked(_REQ_TEXT, lambda b: b.startswith("《"), "expected a book title in 《》")),
     "quote": Field(_REQ_TEXT, required=False, default="")},
    build=lambda book, quote: Source(file="", quote=quote, outside=book))
_NO_SOURCE: Final = "expected a table {file, quote} or {book, quote}"


def _source(where: Where, f: str, raw: Any) -> Source:
    if type(raw) is dict and len(raw) == 2:  # the common case, a good seed source, read at once
        file, quote = raw.get("file"), raw.get("quote")
        if type(file) is str and type(quote) is str and quote.strip() and file in SEED_FILES:
            return Source(file, quote)
    if not isinstance(raw, dict):
        raise where.fail(f, raw, _NO_SOURCE)
    source: Source = (_BOOK_SOURCE if "book" in raw else _SEED_SOURCE).read(where, raw, f + ".")
    return source


def _one_of(allowed: Sequence[str]) -> Kind:
    """One of the words ``allowed`` (a value that is no string, or is blank, said as such)."""
    words = frozenset(allowed)
    problem = f"expected one of {', '.join(allowed)}"

    def read(where: Where, f: str, value: Any) -> str:
        if type(value) is str and value in words:
            return value
        _REQ_TEXT(where, f, value)
        raise where.fail(f, value, problem)
    return read


_RULE_KINDS: Final = ("ring", "table", "step", "alternate", "opposite", "fixed")
_ALIASES: Final = Field(text_list(), required=False, default=())
_OPTIONAL_TEXT: Final = Field(_REQ_TEXT, required=False)


def _spirit_table(rings: Mapping[str, Ring]) -> Table:
    """The spirit table of a catalog file (a rule may name any ring of ``rings``)."""
    rule = _rule({"ring": _ring_rule(rings), "table": _TABLE_RULE, "step": _STEP_RULE,
                  "alternate": _ALTERNATE_RULE, "opposite": _OPPOSITE_RULE, "fixed": _FIXED_RULE})
    variant = Table({
        "id": Field(matching(_VARIANT_ID_RE, "expected a lower-case ASCII id other than 'default'", _REQ_TEXT)),
        "rule": Field(rule, missing="expected a table"),
        "source": Field(_source, missing=_NO_SOURCE),
        "verdict": Field(one_of(VERDICTS), required=False),
        "note": Field(_REQ_TEXT),
    }, build=Variant)

    def variants(where: Where, f: str, raw: Any) -> tuple[Variant, ...]:
        if not isinstance(raw, list):
            raise where.fail(f, raw, "expected an array of tables [[spirit.variant]]")
        out: list[Variant] = []
        for j, rv in enumerate(raw):
            v: Variant = variant.read(where, rv, f"variant[{j}].")
            if any(x.id == v.id for x in out):
                raise where.fail(f"variant[{j}].id", v.id, "duplicate variant id")
            out.append(v)
        return tuple(out)

    spirit = Table({
        "id": Field(matching(_ID_RE, "expected a lower-case ASCII id (a-z, 0-9, _)", _REQ_TEXT)),
        "name": Field(_REQ_TEXT), "name_trad": Field(_REQ_TEXT), "aliases": _ALIASES, "aliases_trad": _ALIASES,
        "group": Field(_one_of(tuple(GROUPS))), "quality": Field(_one_of(QUALITIES)),
        "rule": Field(rule, missing="expected a table"), "condition": _OPTIONAL_TEXT,
        "only": Field(one_of(ONLY), required=False), "note": _OPTIONAL_TEXT, "meaning": Field(_REQ_TEXT),
        "source": Field(_source, missing=_NO_SOURCE), "variant": Field(variants, required=False, default=()),
        "day_pillar": Field(boolean(), required=False, default=False),
    })
    return spirit


_RING: Final = Table({
    "id": Field(matching(_RING_ID_RE, "expected an upper-case ASCII id such as U1", _REQ_TEXT)),
    "plate": Field(_one_of(("upper", "lower"))), "name": Field(_REQ_TEXT), "name_trad": Field(_REQ_TEXT),
    "group": Field(_one_of(tuple(GROUPS))),
    "anchor": Field(_rule(_ANCHOR_RULES), missing="expected a table"),
    "source": Field(_source, missing=_NO_SOURCE),
}, build=Ring)


def _parse_toml(name: str, source: Path | Traversable) -> dict[str, Any]:
    data = read_toml(name, source)
    _FILE.check_fields(Where(name), data)
    return data


_FILE: Final = Table({"schema_version": Field(as_is), "ring": Field(as_is), "spirit": Field(as_is)})


def _entry_name(kind: str) -> Callable[[int, Any], str]:
    """``spirit tian_ma`` once the entry has an id, ``spirit #3`` before."""
    def name(i: int, raw: Any) -> str:
        eid = raw.get("id") if isinstance(raw, dict) else None
        return f"{kind} {eid}" if isinstance(eid, str) and eid.strip() else f"{kind} #{i + 1}"
    return name


def _parse_rings(name: str, data: Mapping[str, Any], rings: dict[str, Ring]) -> None:
    for where, raw in entries(Where(name), data.get("ring", []), "ring", _entry_name("ring"),
                              not_array="expected an array of tables [[ring]]"):
        ring: Ring = _RING.read(where, raw)
        if ring.id in rings:
            raise where.fail("id", ring.id, "duplicate ring id")
        rings[ring.id] = ring


def _parse_spirits(name: str, data: Mapping[str, Any], rings: Mapping[str, Ring],
                   spirits: list[Spirit], seen: dict[str, str]) -> None:
    spirit = _spirit_table(rings)
    for where, raw in entries(Where(name), data.get("spirit", []), "spirit", _entry_name("spirit"),
                              not_array="expected an array of tables [[spirit]]"):
        s = spirit.read(where, raw)
        sid = s["id"]
        if sid in seen:
            raise where.fail("id", sid, f"duplicate spirit id (first in {seen[sid]})")
        seen[sid] = name
        if len(s["aliases"]) != len(s["aliases_trad"]):
            raise where.fail("aliases_trad", list(s["aliases_trad"]),
                             f"needs one traditional form for each of the {len(s['aliases'])} aliases")
        if s["day_pillar"]:
            # The labels name days: the spirit is in force only on that day pillar.
            rule = s["rule"]
            if not isinstance(rule, TablePlacing) or s["group"] not in ("season", "month"):
                raise where.fail("day_pillar", True, "needs a table rule of a season or month spirit")
            for entry in rule.entries:
                for label in entry:
                    if len(label) != 2:
                        raise where.fail("rule.values", label, "day_pillar = true needs 甲子 pillars")
        spirits.append(Spirit(variants=s.pop("variant"), seq=len(spirits), file=name, **s))


_DAY_GROUPS: Final = ("stem", "branch")
_MONTH_KEYS: Final = ("season", "month", "mzj", "mgroup")


def _rule_keys(rule: Rule, ids: Mapping[str, Spirit], rings: Mapping[str, Ring],
               seen: frozenset[str] = frozenset()) -> frozenset[str | None]:
    """Every state key the rule may depend on, whatever variants are chosen (None: a fixed rule)."""
    match rule:
        case RingPlacing(key=key):
            return frozenset((key,))
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
