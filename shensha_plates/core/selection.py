"""Date selection (seed 004, 选择求真): the year and month spirits on the 24 mountains.

The rules are data (``resources/systems/selection.toml``), validated when loaded. A spirit either
reads a table by the year branch, the year stem or the month, or flies through the nine palaces
month by month (飞宫): the month's 建 enters the centre and the branches (or stems, or months) go
on in the order of the Luoshu numbers, forwards (顺飞 5→6→7→8→9→1→2→3→4) or backwards.

>>> plate = selection_plate(BRANCHES.index("午"), STEMS.index("丙"), 11)
>>> [p.labels for p in plate.placements if p.spirit.id in ("tai_sui", "sui_po")]
[('午',), ('子',)]
>>> flight_palace(plate.rules.spirit("fei_tian_guan_fu"), year_branch=0, year_stem=0, month=3)
'震'
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Final
from collections.abc import Mapping

from shensha_plates.core.catalog import Source, seed_source
from shensha_plates.core.cycle import BRANCHES, MOUNTAINS, STEMS
from shensha_plates.core import tomlcache
from shensha_plates.core.errors import InputError
from shensha_plates.core.schema import Field, Table, Where, entries, one_of, read_toml, text_list, variants_of
from shensha_plates.core.schema import text as nonempty_text

__all__ = ["SelectionSpirit", "SelectionRules", "SelectionPlate", "MountainPlacement", "load_selection",
           "default_selection", "selection_plate", "flight_palace", "return_months", "general_return_months",
           "PALACES", "LUOSHU", "palace_of_branch", "month_pillar", "all_text"]

RESOURCE: Final = Path(__file__).resolve().parents[1] / "resources" / "systems" / "selection.toml"
# palace → its three mountains (the centre holds none)
PALACES: Final = {"坎": "壬子癸", "艮": "丑艮寅", "震": "甲卯乙", "巽": "辰巽巳", "离": "丙午丁", "坤": "未坤申",
                  "兑": "庚酉辛", "乾": "戌乾亥", "中": ""}
LUOSHU: Final = {1: "坎", 2: "坤", 3: "震", 4: "巽", 5: "中", 6: "乾", 7: "兑", 8: "艮", 9: "离"}
NUMBER: Final = {v: k for k, v in LUOSHU.items()}
KEY_SIZES: Final = {"year_branch": 12, "year_stem": 10, "month": 12}
PALACE_TRAD: Final = {"离": "離", "兑": "兌", "中": "中", "坎": "坎", "艮": "艮", "震": "震", "巽": "巽", "坤": "坤",
                      "乾": "乾"}


def palace_of_branch(branch: int) -> str:
    ch = BRANCHES[branch]
    return next(p for p, ms in PALACES.items() if ch in ms)


def _mountains_of(label: str) -> tuple[str, ...]:
    if label.endswith("宫"):
        return tuple(PALACES[label[0]])
    return (label,)


def _valid_label(label: str) -> bool:
    if len(label) == 2 and label.endswith("宫"):
        return label[0] in PALACES and label[0] != "中"
    return len(label) == 1 and label in MOUNTAINS


@dataclass(frozen=True, slots=True)
class Flight:
    method: str  # branch | stem | months
    target: str | None = None
    stems: str = ""
    start: tuple[str, ...] = ()          # months: by year polarity (yang, yin)
    start_by_branch: str = ""            # months: by year branch
    start_by_stem: str = ""              # months: by year stem
    direction: int = 1


@dataclass(frozen=True, slots=True)
class SelectionVariant:
    id: str
    values: tuple[tuple[str, ...], ...] | None
    flight: Flight | None
    source: Source
    verdict: str | None
    note: str


@dataclass(frozen=True, slots=True)
class SelectionSpirit:
    id: str
    name: str
    name_trad: str
    aliases: tuple[str, ...]
    key: str
    values: tuple[tuple[str, ...], ...] | None
    flight: Flight | None
    quality: str
    meaning: str
    remedy: str  # "none": the book says there is no 制法
    source: Source
    note: str = ""
    variants: tuple[SelectionVariant, ...] = ()

    @property
    def period(self) -> str:
        return "month" if self.key == "month" else "year"

    @property
    def has_remedy(self) -> bool:
        return self.remedy != "none"


@dataclass(frozen=True, slots=True)
class Spurious:
    name: str
    name_trad: str
    source: Source


@dataclass(frozen=True, slots=True)
class SelectionRules:
    spirits: tuple[SelectionSpirit, ...]
    spurious: tuple[Spurious, ...]
    file: str = field(default="", compare=False)

    def spirit(self, spirit_id: str) -> SelectionSpirit:
        for s in self.spirits:
            if s.id == spirit_id:
                return s
        raise KeyError(spirit_id)


@dataclass(frozen=True, slots=True)
class MountainPlacement:
    spirit: SelectionSpirit
    labels: tuple[str, ...]       # as the table gives them (mountains, or 离宫 …)
    mountains: tuple[str, ...]    # the mountains covered
    palace: str | None = None     # flying spirits: the palace (中 for the centre)
    variant: str | None = None


@dataclass(frozen=True, slots=True)
class SelectionPlate:
    year_branch: int
    year_stem: int | None
    month: int
    placements: tuple[MountainPlacement, ...]
    omitted: tuple[str, ...]
    rules: SelectionRules = field(compare=False, repr=False)

    def at(self, mountain: str) -> tuple[MountainPlacement, ...]:
        return tuple(p for p in self.placements if mountain in p.mountains)

    def in_palace(self, palace: str) -> tuple[MountainPlacement, ...]:
        return tuple(p for p in self.placements if p.palace == palace)

    @property
    def year_name(self) -> str:
        if self.year_stem is None:
            return BRANCHES[self.year_branch] + "年"
        return STEMS[self.year_stem] + BRANCHES[self.year_branch] + "年"


# -- loading (by core/schema.py) -------------------------------------------------------------------

def _values(where: Where, f: str, raw: Any, size: int) -> tuple[tuple[str, ...], ...]:
    if isinstance(raw, str):
        entries = [(ch,) for ch in raw]
    elif isinstance(raw, list) and all(isinstance(x, str) for x in raw):
        entries = [tuple(x.split()) for x in raw]
    else:
        raise where.fail(f, raw, "must be a string or a list of strings")
    if len(entries) != size:
        raise where.fail(f, raw, f"has {len(entries)} entries, expected {size}")
    for e in entries:
        for label in e:
            if not _valid_label(label):
                raise where.fail(f, label, "is not one of the 24 mountains or a palace (离宫 …)")
    return tuple(entries)


def _as_is(where: Where, f: str, value: Any) -> Any:
    return value  # read by the table's check, which knows the other fields


def _note(where: Where, f: str, value: Any) -> str:
    return str(value)


_PALACE_NUMBERS: Final = frozenset(NUMBER)
_FLIGHT: Final = Table({
    "method": Field(_as_is, required=False), "target": Field(_as_is, required=False),
    "stems": Field(_as_is, required=False), "start": Field(_as_is, required=False),
    "start_by_branch": Field(_as_is, required=False, default=""),
    "start_by_stem": Field(_as_is, required=False, default=""),
    "direction": Field(one_of((1, -1), "must be 1 or -1"), required=False, default=1),
}, unknown="is not a known field", not_table="must be a table")


def _flight(where: Where, f: str, raw: Any, ids: set[str]) -> Flight:
    """A flight through the nine palaces: by a year spirit's branch, by stems, or by the months from
    a starting palace (by the year's polarity, branch or stem)."""
    v = _FLIGHT.read(where, raw, f + ".")
    method, direction = v["method"], v["direction"]
    if method == "branch":
        if v["target"] not in ids:
            raise where.fail(f"{f}.target", v["target"], "must name a year spirit defined earlier")
        return Flight("branch", target=v["target"], direction=direction)
    if method == "stem":
        stems = v["stems"]
        if not isinstance(stems, str) or not stems or any(c not in STEMS for c in stems):
            raise where.fail(f"{f}.stems", stems, "must be stems, e.g. 丙丁")
        return Flight("stem", stems=stems, direction=direction)
    if method == "months":
        start, by_b, by_s = v["start"], v["start_by_branch"], v["start_by_stem"]
        if start is not None:
            if not (isinstance(start, list) and len(start) == 2 and all(p in _PALACE_NUMBERS for p in start)):
                raise where.fail(f"{f}.start", start, "must be [yang-year palace, yin-year palace]")
            return Flight("months", start=tuple(start), direction=direction)
        if by_b:
            if not isinstance(by_b, str) or len(by_b) != 12 or any(c not in _PALACE_NUMBERS for c in by_b):
                raise where.fail(f"{f}.start_by_branch", by_b, "must give 12 palaces")
            return Flight("months", start_by_branch=by_b, direction=direction)
        if not isinstance(by_s, str) or len(by_s) != 10 or any(c not in _PALACE_NUMBERS for c in by_s):
            raise where.fail(f"{f}.start_by_stem", by_s, "must give 10 palaces")
        return Flight("months", start_by_stem=by_s, direction=direction)
    raise where.fail(f"{f}.method", method, "must be branch, stem or months")


_TEXT: Final = Field(nonempty_text("must be a non-empty string"))
_NOTE: Final = Field(_note, required=False, default="")
_VARIANT: Final = Table({
    "id": Field(nonempty_text()), "values": Field(_as_is, required=False), "flight": Field(_as_is, required=False),
    "source": Field(seed_source), "verdict": Field(one_of(("rejected", "accepted"), "must be rejected or accepted"),
                                                   required=False),
    "note": _NOTE,
}, unknown="is not a known field", missing=None)


def _spirit_table(ids: set[str]) -> Table:
    """The spirit table; a flight by a year spirit's branch names one of ``ids`` (those read before)."""
    def check(where: Where, p: str, v: dict[str, Any], raw: Mapping[str, Any]) -> None:
        key = v["key"]
        if ("values" in raw) == ("flight" in raw):
            raise where.fail("values", raw.get("values"), "give either values or flight")
        if "values" in raw:
            v["values"] = _values(where, "values", raw["values"], KEY_SIZES[key])
        else:
            v["flight"] = _flight(where, "flight", raw["flight"], ids)
            if key != "month":
                raise where.fail("key", key, "a flying spirit moves by the month")
        variants = []
        for vf, var, _rv in variants_of(where, raw, _VARIANT):
            if var["values"] is not None:
                var["values"] = _values(where, f"{vf}.values", var["values"], KEY_SIZES[key])
            if var["flight"] is not None:
                var["flight"] = _flight(where, f"{vf}.flight", var["flight"], ids)
            variants.append(SelectionVariant(**var))
        v["variant"] = tuple(variants)

    return Table({
        "id": _TEXT, "name": _TEXT, "name_trad": _TEXT, "meaning": _TEXT, "remedy": _TEXT,
        "quality": Field(one_of(("good", "bad", "mixed"), "must be good, bad or mixed")),
        "key": Field(one_of(KEY_SIZES, f"must be one of {', '.join(KEY_SIZES)}")),
        "values": Field(_as_is, required=False), "flight": Field(_as_is, required=False),
        "aliases": Field(text_list("must be a list of strings", blank=True), required=False, default=()),
        "source": Field(seed_source), "note": _NOTE, "variant": Field(_as_is, required=False),
    }, unknown="is not a known field", missing=None, check=check)


def _spirit_entry(i: int, raw: Any) -> str:
    sid = raw.get("id") if isinstance(raw, dict) else None
    return f"spirit {sid}" if isinstance(sid, str) else f"spirit #{i + 1}"


def load_selection(path: Path | str | None = None) -> SelectionRules:
    """See :func:`_load_selection`; a cached tree that fails validation is parsed afresh first
    (:func:`shensha_plates.core.tomlcache.fresh_on_failure`), so only the file's own faults are reported."""
    return tomlcache.fresh_on_failure(lambda: _load_selection(path))


def _load_selection(path: Path | str | None = None) -> SelectionRules:
    """Read and validate the date-selection rules; a fault raises :class:`CatalogError` naming the
    file, entry, field and value."""
    p = Path(path) if path is not None else RESOURCE
    name = str(p)
    data = read_toml(name, p)
    spirits: list[SelectionSpirit] = []
    ids: set[str] = set()
    spirit = _spirit_table(ids)
    for where, raw in entries(Where(name), data.get("spirit"), "spirit", _spirit_entry, nonempty=True,
                              not_array="must be a non-empty list of [[spirit]]", table_field="(entry)",
                              not_table="must be a table"):
        sp = spirit.read(where, raw)
        if sp["id"] in ids:
            raise where.fail("id", sp["id"], "is used twice")
        spirits.append(SelectionSpirit(variants=sp.pop("variant"), **sp))
        ids.add(sp["id"])
    spurious = []
    for i, raw in enumerate(data.get("spurious", [])):
        where = Where(name, f"spurious #{i + 1}")
        if not isinstance(raw, dict) or not isinstance(raw.get("name"), str) or not isinstance(raw.get("name_trad"), str):
            raise where.fail("name", raw, "needs name and name_trad")
        spurious.append(Spurious(raw["name"], raw["name_trad"], seed_source(where, "source", raw.get("source"))))
    return SelectionRules(spirits=tuple(spirits), spurious=tuple(spurious), file=name)


@lru_cache(maxsize=1)
def default_selection() -> SelectionRules:
    return load_selection(RESOURCE)


# -- flying through the nine palaces -----------------------------------------------------------------

def month_pillar(year_stem: int, month: int) -> int:
    """The month's 干支 by 五虎遁 (甲己之年丙作首): pillar index 0–59."""
    first_stem = (year_stem % 5 * 2 + 2) % 10  # 甲己→丙, 乙庚→戊, 丙辛→庚, 丁壬→壬, 戊癸→甲
    stem = (first_stem + month - 1) % 10
    branch = (month + 1) % 12
    return next(i for i in range(60) if i % 10 == stem and i % 12 == branch)


def _forward(steps: int) -> str:
    """The palace ``steps`` places on from the centre, flying forwards (中→乾→兑→艮→离→坎→…)."""
    return LUOSHU[(5 - 1 + steps) % 9 + 1]


def _months_palace(flight: Flight, year_branch: int, year_stem: int | None, month: int) -> str | None:
    if flight.start:
        start = flight.start[year_branch % 2]
    elif flight.start_by_branch:
        start = flight.start_by_branch[year_branch]
    else:
        if year_stem is None:
            return None
        start = flight.start_by_stem[year_stem]
    number = (NUMBER[start] - 1 + flight.direction * (month - 1)) % 9 + 1
    return LUOSHU[number]


def _year_label(spirit: SelectionSpirit, year_branch: int, year_stem: int | None) -> tuple[str, ...] | None:
    assert spirit.values is not None
    if spirit.key == "year_branch":
        return spirit.values[year_branch]
    return None if year_stem is None else spirit.values[year_stem]


def flight_palace(spirit: SelectionSpirit, year_branch: int, year_stem: int | None, month: int,
                  flight: Flight | None = None, rules: SelectionRules | None = None) -> str | None:
    """The palace a flying spirit occupies in ``month`` (the first palace for a stem flight);
    None when the year stem it needs is unknown."""
    return (flight_palaces(spirit, year_branch, year_stem, month, flight, rules) or (None,))[0]


def flight_palaces(spirit: SelectionSpirit, year_branch: int, year_stem: int | None, month: int,
                   flight: Flight | None = None, rules: SelectionRules | None = None) -> tuple[str, ...]:
    fl = flight or spirit.flight
    assert fl is not None
    rules = rules or default_selection()
    month_branch = (month + 1) % 12
    if fl.method == "branch":
        target = rules.spirit(fl.target or "")
        labels = _year_label(target, year_branch, year_stem)
        if not labels:
            return ()
        return tuple(_forward((BRANCHES.index(lb) - month_branch) % 12) for lb in labels)
    if fl.method == "stem":
        if year_stem is None:
            return ()
        mstem = month_pillar(year_stem, month) % 10
        return tuple(_forward((STEMS.index(s) - mstem) % 10) for s in fl.stems)
    palace = _months_palace(fl, year_branch, year_stem, month)
    return () if palace is None else (palace,)


def return_months(spirit: SelectionSpirit, year_branch: int, year_stem: int | None = None,
                  rules: SelectionRules | None = None) -> tuple[int, ...]:
    """The months in which a flying spirit comes back to its own palace (还宫/还位): for a branch
    flight the palace of the year spirit it flies; for 大小月建 the palace of the month's 建.

    Twelve branches fly through nine palaces, so 乾 and 兑 take a second branch on a second round;
    the book's 还宫定局 lists only the first-round month, these functions give every month the
    flight puts the spirit home (the tests name the extra ones)."""
    rules = rules or default_selection()
    fl = spirit.flight
    assert fl is not None
    out = []
    for m in range(1, 13):
        palaces = flight_palaces(spirit, year_branch, year_stem, m, rules=rules)
        if fl.method == "branch":
            target = rules.spirit(fl.target or "")
            labels = _year_label(target, year_branch, year_stem) or ()
            home = {palace_of_branch(BRANCHES.index(lb)) for lb in labels}
        elif fl.method == "months":
            home = {palace_of_branch((m + 1) % 12)}
        else:
            continue
        if home & set(palaces):
            out.append(m)
    return tuple(out)


def general_return_months(year_branch: int, year_stem: int, rules: SelectionRules | None = None) -> tuple[int, ...]:
    """大将军还位: the months in which the general's own 干支 (by 五虎遁) flies back to his palace.
    The flight runs through the 干支 in order, so the count goes on past 丑 (it is not cut at 12)."""
    rules = rules or default_selection()
    general = rules.spirit("da_jiang_jun")
    assert general.values is not None
    branch = BRANCHES.index(general.values[year_branch][0])
    target_month = (branch - 2) % 12 + 1  # the month of that branch in the year's 五虎遁 run
    target = month_pillar(year_stem, target_month)
    home = palace_of_branch(branch)
    return tuple(m for m in range(1, 13) if _forward((target - month_pillar(year_stem, m)) % 60) == home)


# -- the plate -----------------------------------------------------------------------------------

def selection_plate(year_branch: int, year_stem: int | None, month: int, choices: Mapping[str, str] | None = None,
                    rules: SelectionRules | None = None) -> SelectionPlate:
    """Every year and month spirit for a year (its branch 0–11 and, when known, its stem 0–9) and a
    month (1–12, 正月 = 寅). Spirits read from the year stem are omitted when it is unknown."""
    if not isinstance(month, int) or not 1 <= month <= 12:
        raise InputError(f"invalid month: {month!r} (expected 1–12)")
    if not isinstance(year_branch, int) or not 0 <= year_branch < 12:
        raise InputError(f"invalid year branch: {year_branch!r} (expected 0–11)")
    if year_stem is not None and (not isinstance(year_stem, int) or not 0 <= year_stem < 10
                                  or year_stem % 2 != year_branch % 2):
        raise InputError(f"invalid year stem: {year_stem!r} for the branch {BRANCHES[year_branch]}")
    rules = rules or default_selection()
    choices = dict(choices or {})
    known = {sp.id: sp for sp in rules.spirits if sp.variants}
    for sid in choices:
        if sid not in known:
            raise InputError(f"unknown variant target: {sid!r} (expected one of {', '.join(sorted(known))})")
    placements: list[MountainPlacement] = []
    omitted: list[str] = []
    for sp in rules.spirits:
        vid = choices.get(sp.id)
        variant = next((v for v in sp.variants if v.id == vid), None) if vid else None
        if vid and variant is None:
            raise InputError(f"unknown variant {vid!r} of {sp.id}")
        values = variant.values if variant and variant.values else sp.values
        flight = variant.flight if variant and variant.flight else sp.flight
        if flight is not None:
            palaces = flight_palaces(sp, year_branch, year_stem, month, flight, rules)
            if not palaces:
                omitted.append(sp.id)
            for pal in dict.fromkeys(palaces):
                placements.append(MountainPlacement(sp, (pal + "宫",), tuple(PALACES[pal]), pal, vid))
            continue
        assert values is not None
        if sp.key == "month":
            labels = values[month - 1]
        elif sp.key == "year_branch":
            labels = values[year_branch]
        elif year_stem is None:
            omitted.append(sp.id)
            continue
        else:
            labels = values[year_stem]
        if labels:
            mountains = tuple(m for lb in labels for m in _mountains_of(lb))
            placements.append(MountainPlacement(sp, labels, mountains, None, vid))
    return SelectionPlate(year_branch=year_branch, year_stem=year_stem, month=month,
                          placements=tuple(placements), omitted=tuple(omitted), rules=rules)


def plate_to_json(plate: SelectionPlate) -> dict[str, Any]:
    rules = plate.rules
    spirits = []
    for p in plate.placements:
        sp = p.spirit
        spirits.append({"id": sp.id, "name": sp.name, "name_trad": sp.name_trad, "period": sp.period,
                        "labels": list(p.labels), "mountains": list(p.mountains), "palace": p.palace,
                        "quality": sp.quality, "remedy": None if sp.remedy == "none" else sp.remedy,
                        "no_remedy": sp.remedy == "none", "meaning": sp.meaning, "variant": p.variant,
                        "source": {"file": sp.source.file, "quote": sp.source.quote}})
    returns = {}
    for sp in rules.spirits:
        if sp.flight is not None and sp.flight.method != "stem":
            returns[sp.id] = list(return_months(sp, plate.year_branch, plate.year_stem, rules))
    if plate.year_stem is not None:
        returns["da_jiang_jun"] = list(general_return_months(plate.year_branch, plate.year_stem, rules))
    return {"year": plate.year_name.removesuffix("年"), "month": plate.month, "spirits": spirits,
            "omitted": list(plate.omitted), "returns": returns,
            "spurious": [{"name": x.name, "name_trad": x.name_trad,
                          "source": {"file": x.source.file, "quote": x.source.quote}} for x in rules.spurious]}


def all_text() -> str:
    """Every character the date-selection view can show (for the font subset)."""
    rules = default_selection()
    parts = ["".join(PALACES) + "宫宮中还宫還宮" + "".join(PALACE_TRAD.values()) + MOUNTAINS]
    for s in rules.spirits:
        parts += [s.name, s.name_trad, *s.aliases, s.meaning, s.remedy, s.note, s.source.quote]
        parts += [v.note + v.source.quote for v in s.variants]
    for sp in rules.spurious:
        parts += [sp.name, sp.name_trad, sp.source.quote]
    return "".join(parts)
