"""The plate engine: a state of the plates → what lies under each of the twelve branches.

A :class:`State` is a year (branch, optionally its stem), a month (1–12, 正月 = 寅 month), a xun and
optionally a day pillar and an hour branch. :func:`compute_plate` returns a frozen :class:`Plate`:
for each branch the spirits there (ring spirits first, ring by ring, then the square tables, then
the day spirits), and the rotation (anchor branch) of every ring.

The catalog is compiled once per set of options (variant choices and trigram palaces) into tables
indexed by key value, so a plate is a handful of tuple look-ups.

>>> p = compute_plate(State.parse(year="子", month="1", xun="甲子"))
>>> [BRANCHES[r.anchor] for r in p.rings]
['子', '寅', '子', '丑', '戌', '寅', '亥', '申', '巳', '午', '亥']
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Final
from collections.abc import Iterable, Mapping

from shensha_plates.core.catalog import KEYS, Catalog, Ring, Rule, Spirit, default_catalog
from shensha_plates.core.cycle import (
    BRANCHES, STEMS, TRIGRAM_PALACES, XUN_HEADS, group_of_month, month_branch, mzj_of_month,
    parse_branch, parse_month, parse_pillar, parse_xun, pillar_index, pillar_name,
    season_of_month, xun_of,
)
from shensha_plates.core.errors import InputError
from shensha_plates.core.rules import (
    AlternatePlacing, FixedPlacing, OppositePlacing, RingPlacing, StepPlacing, TablePlacing, label_branch,
)

__all__ = ["State", "Options", "Placement", "RingPosition", "Plate", "compute_plate", "spirit_row",
           "step_state", "turn_to_anchor", "split_choice", "DIALS", "SEASONS", "MONTH_NAMES"]

SEASONS: Final = ("春", "夏", "秋", "冬")
MONTH_NAMES: Final = ("正月", "二月", "三月", "四月", "五月", "六月", "七月", "八月", "九月", "十月",
                      "冬月", "腊月")
_ONLY_TEXT: Final = {"yang_year": "阳年", "yin_year": "阴年", "yang_day": "阳日", "yin_day": "阴日"}


@dataclass(frozen=True, slots=True)
class State:
    """What the dials are set to. Indices: branches 子=0, stems 甲=0, pillars 甲子=0, xun 甲子旬=0."""

    year_branch: int
    month: int
    xun: int
    year_stem: int | None = None
    day: int | None = None
    hour: int | None = None

    def __post_init__(self) -> None:
        for name, value, lo, hi in (("year_branch", self.year_branch, 0, 11), ("month", self.month, 1, 12),
                                    ("xun", self.xun, 0, 5)):
            if not isinstance(value, int) or not lo <= value <= hi:
                raise InputError(f"invalid {name}: {value!r} (expected {lo}–{hi})")
        if self.year_stem is not None:
            if not isinstance(self.year_stem, int) or not 0 <= self.year_stem <= 9:
                raise InputError(f"invalid year_stem: {self.year_stem!r} (expected 0–9)")
            if (self.year_stem - self.year_branch) % 2:
                raise InputError(f"invalid year: {STEMS[self.year_stem]}{BRANCHES[self.year_branch]} "
                                 "is not a 甲子 pillar (stem and branch must both be yang or both yin)")
        if self.day is not None:
            if not isinstance(self.day, int) or not 0 <= self.day <= 59:
                raise InputError(f"invalid day: {self.day!r} (expected a pillar index 0–59)")
            if xun_of(self.day) != self.xun:
                raise InputError(
                    f"day {pillar_name(self.day)} belongs to {XUN_HEADS[xun_of(self.day)]}旬, "
                    f"not {XUN_HEADS[self.xun]}旬 (leave out --xun, or give the day's own xun)")
        if self.hour is not None and (not isinstance(self.hour, int) or not 0 <= self.hour <= 11):
            raise InputError(f"invalid hour: {self.hour!r} (expected a branch index 0–11)")

    @classmethod
    def parse(cls, year: str, month: str | int, xun: str | None = None, day: str | None = None,
              hour: str | None = None) -> State:
        """Build a state from text: year as a 甲子 (丙午) or a bare branch (午); month as 1–12, a
        month word or its branch; xun as its head (甲辰); day as a 甲子; hour as a branch.
        If ``xun`` is left out it is taken from the day. Raises :class:`InputError`.

        >>> State.parse("丙午", "11", "甲辰", "庚戌").label()
        '丙午年 冬月 甲辰旬 庚戌日'
        """
        y = str(year).strip()
        if y.endswith("年"):
            y = y[:-1]
        if len(y) == 2:
            p = parse_pillar(y)
            ystem, ybranch = p % 10, p % 12
        elif len(y) == 1 and y in BRANCHES:
            ystem, ybranch = None, parse_branch(y)
        else:
            raise InputError(f"invalid year: {year!r} (expected a 甲子 such as 丙午, or a branch such as 午)")
        m = parse_month(month)
        d = parse_pillar(day[:-1] if day and day.strip().endswith("日") else day) if day else None
        if xun is None or not str(xun).strip():
            if d is None:
                raise InputError("no xun: give --xun (甲子 … 甲寅) or a --day to take it from")
            x = xun_of(d)
        else:
            x = parse_xun(xun)
        h = None
        if hour is not None and str(hour).strip():
            ht = str(hour).strip()
            h = parse_branch(ht[:-1] if ht.endswith("时") else ht)
        return cls(year_branch=ybranch, month=m, xun=x, year_stem=ystem, day=d, hour=h)

    @property
    def season(self) -> int:
        return season_of_month(self.month)

    @property
    def month_branch(self) -> int:
        return month_branch(self.month)

    @property
    def year_name(self) -> str:
        if self.year_stem is None:
            return BRANCHES[self.year_branch]
        return STEMS[self.year_stem] + BRANCHES[self.year_branch]

    def label(self) -> str:
        """The state in words, e.g. 丙午年 冬月 甲辰旬 庚戌日."""
        parts = [f"{self.year_name}年", MONTH_NAMES[self.month - 1], f"{XUN_HEADS[self.xun]}旬"]
        if self.day is not None:
            parts.append(f"{pillar_name(self.day)}日")
        if self.hour is not None:
            parts.append(f"{BRANCHES[self.hour]}时")
        return " ".join(parts)

    def key_values(self) -> dict[str, int | None]:
        """The value of every rule key in this state (None where the state does not say)."""
        m = self.month
        return {
            "year_branch": self.year_branch, "year_stem": self.year_stem, "month": m - 1,
            "season": season_of_month(m), "mzj": mzj_of_month(m), "mgroup": group_of_month(m),
            "xun": self.xun,
            "day_stem": None if self.day is None else self.day % 10,
            "day_branch": None if self.day is None else self.day % 12,
        }


@dataclass(frozen=True, slots=True)
class Options:
    """Variant choices (spirit id → variant id) and the trigram palace reading."""

    variants: tuple[tuple[str, str], ...] = ()
    palaces: str = "liuren"

    @classmethod
    def from_choices(cls, choices: Mapping[str, str] | Iterable[str] = (), palaces: str = "liuren",
                     catalog: Catalog | None = None) -> Options:
        """Validate variant choices, given as a mapping or as ``ID=CHOICE`` strings.

        ``CHOICE`` ``default`` keeps the catalog's main reading. Raises :class:`InputError`.
        """
        cat = catalog or default_catalog()
        pairs: dict[str, str] = {}
        items = choices.items() if isinstance(choices, Mapping) else (split_choice(c) for c in choices)
        for sid, vid in items:
            if sid == "palaces":
                palaces = vid
                continue
            try:
                spirit = cat.spirit(sid)
            except KeyError:
                raise InputError(f"unknown variant target: {sid!r} (expected a spirit id such as "
                                 "tian_xi, or palaces)") from None
            valid = ["default"] + [v.id for v in spirit.variants]
            if vid not in valid:
                raise InputError(f"unknown variant for {sid} ({spirit.name}): {vid!r} "
                                 f"(expected one of {', '.join(valid)})")
            if vid != "default":
                pairs[sid] = vid
        if palaces not in TRIGRAM_PALACES:
            raise InputError(f"invalid palaces reading: {palaces!r} (expected one of "
                             f"{', '.join(TRIGRAM_PALACES)})")
        return cls(variants=tuple(sorted(pairs.items())), palaces=palaces)

    def to_choices(self) -> tuple[str, ...]:
        """The choices as ``ID=CHOICE`` strings (what :meth:`from_choices` reads back)."""
        extra = () if self.palaces == "liuren" else (f"palaces={self.palaces}",)
        return tuple(f"{sid}={vid}" for sid, vid in self.variants) + extra

    def choice(self, spirit_id: str) -> str | None:
        for sid, vid in self.variants:
            if sid == spirit_id:
                return vid
        return None


def split_choice(text: str) -> tuple[str, str]:
    """``ID=CHOICE`` as ``(ID, CHOICE)``; anything else raises :class:`InputError`."""
    sid, sep, vid = str(text).partition("=")
    if not sep or not sid.strip() or not vid.strip():
        raise InputError(f"invalid variant choice: {text!r} (expected ID=CHOICE, e.g. tian_xi=shun_twelve)")
    return sid.strip(), vid.strip()


@dataclass(frozen=True, slots=True)
class Placement:
    """One spirit at one position: ``at`` is the label the rule names (a branch, or a stem,
    trigram or pillar shown as such), ``branch`` the branch it lies on."""

    spirit: Spirit
    at: str
    branch: int
    ring: str | None
    table: str | None
    conditional: str | None
    variant: str | None

    @property
    def id(self) -> str:
        return self.spirit.id

    @property
    def name(self) -> str:
        return self.spirit.name

    @property
    def name_trad(self) -> str:
        return self.spirit.name_trad

    @property
    def group(self) -> str:
        return self.spirit.group


@dataclass(frozen=True, slots=True)
class RingPosition:
    """A ring turned to its place: ``anchor`` is the branch under slot 0; slot ``k`` lies on
    branch ``(anchor + k) % 12`` and holds ``slots[k]``."""

    ring: Ring
    anchor: int
    slots: tuple[tuple[Spirit, ...], ...]

    def branch_of_slot(self, k: int) -> int:
        return (self.anchor + k) % 12


@dataclass(frozen=True, slots=True)
class Plate:
    """A state's plates: each disc's position and every spirit placed under the twelve branches."""

    state: State
    options: Options
    rings: tuple[RingPosition, ...]
    positions: tuple[tuple[Placement, ...], ...]
    omitted: tuple[str, ...]

    def at(self, branch: int | str) -> tuple[Placement, ...]:
        b = parse_branch(branch) if isinstance(branch, str) else branch
        return self.positions[b]

    def find(self, spirit_id: str) -> tuple[Placement, ...]:
        return tuple(p for row in self.positions for p in row if p.spirit.id == spirit_id)

    def ring(self, ring_id: str) -> RingPosition:
        for r in self.rings:
            if r.ring.id == ring_id:
                return r
        raise KeyError(ring_id)


# ---------------------------------------------------------------------------------------------
# compilation

Rows = tuple[tuple[Placement, ...], ...]  # twelve rows, one per branch


@dataclass(frozen=True, slots=True)
class _Entry:
    """One spirit's placements for one value of its key, in catalog order (``only``: its month condition)."""

    order: int
    only: str | None
    placements: tuple[Placement, ...]


class _Compiled:
    """The catalog turned into look-up tables, one set per options.

    A plate is the concatenation, branch by branch, of four rows: the year's (by year pillar, or
    branch when the stem is unknown), the xun's, the month's (with the season, 孟仲季 and 正五九
    spirits; by month, year polarity and day polarity) and the day's (by day pillar). The catalog's
    group order (year, xun, season, month, stem, branch) makes concatenation the catalog order, so
    nothing is sorted per plate.

    Rows are made the first time a plate needs them and kept: the first plate of a session costs a
    few rows, not the whole table (start-up), and every later plate is look-ups, as before.
    """

    __slots__ = ("_specs", "_fixed", "_palaces", "_catalog", "_options", "_entries", "_year", "_xun",
                 "_month", "_day", "no_day", "rings", "omitted", "key_of")

    def __init__(self, catalog: Catalog, options: Options) -> None:
        specs: dict[str, list[tuple[int, Spirit, Rule, str | None, str | None]]] = {k: [] for k in KEYS}
        fixed: set[int] = set()
        key_of: dict[str, str | None] = {}
        ring_slots: dict[str, list[list[Spirit]]] = {r.id: [[] for _ in range(12)] for r in catalog.rings}
        for order, spirit in enumerate(catalog.spirits):
            rule, vid = effective_rule(spirit, options)
            key = rule_key(rule, catalog, options)
            ring_id = None
            if isinstance(rule, RingPlacing):
                ring_id = rule.ring
                for o in rule.offsets:
                    ring_slots[ring_id][o].append(spirit)
            if key is None:
                # Day spirits (the catalog allows a fixed rule for no other) need a day even when
                # their positions do not move with it.
                key = "day_stem"
                fixed.add(order)
            specs[key].append((order, spirit, rule, vid, ring_id))
            key_of[spirit.id] = key
        self._specs = specs
        self._fixed = frozenset(fixed)
        self._catalog = catalog
        self._options = options
        self._entries: dict[tuple[str, int], list[_Entry]] = {}
        self._year: dict[tuple[int, int | None], Rows] = {}
        self._xun: dict[int, Rows] = {}
        self._month: dict[tuple[int, int, int | None], Rows] = {}
        self._day: dict[int, Rows] = {}
        self.no_day: Rows = tuple(() for _ in range(12))
        rings = []
        for r in catalog.rings:
            slots = tuple(tuple(s) for s in ring_slots[r.id])
            rings.append((r, r.key, tuple(RingPosition(ring=r, anchor=r.anchor.branch(v), slots=slots)
                                          for v in range(KEYS[r.key]))))
        self.rings: tuple[tuple[Ring, str, tuple[RingPosition, ...]], ...] = tuple(rings)
        omitted: dict[tuple[bool, bool], tuple[str, ...]] = {}
        for has_stem in (True, False):
            for has_day in (True, False):
                missing = ({"year_stem"} if not has_stem else set()) | (set(_DAY_KEYS) if not has_day else set())
                omitted[(has_stem, has_day)] = tuple(sid for sid, k in key_of.items() if k in missing)
        self.omitted: Mapping[tuple[bool, bool], tuple[str, ...]] = omitted
        self.key_of: Mapping[str, str | None] = key_of

    def entries(self, key: str, value: int) -> list[_Entry]:
        """The placements of every spirit keyed by ``key`` when it takes ``value``."""
        hit = self._entries.get((key, value))
        if hit is None:
            cat, opts = self._catalog, self._options
            hit = []
            for order, spirit, rule, vid, ring_id in self._specs[key]:
                fixed = order in self._fixed  # the same places whatever the value, and no table key
                labels = rule_labels(rule, 0 if fixed else value, cat, opts)
                hit.append(_Entry(order, spirit.only, _placements(
                    spirit, labels, ring=ring_id, table=None if ring_id or fixed else key, variant=vid,
                    palaces=opts.palaces)))
            self._entries[(key, value)] = hit
        return hit

    def year(self, branch: int, stem: int | None) -> Rows:
        hit = self._year.get((branch, stem))
        if hit is None:
            entries = self.entries("year_branch", branch)
            hit = _rows(entries if stem is None else entries + self.entries("year_stem", stem))
            self._year[(branch, stem)] = hit
        return hit

    def xun(self, xun: int) -> Rows:
        hit = self._xun.get(xun)
        if hit is None:
            hit = self._xun[xun] = _rows(self.entries("xun", xun))
        return hit

    def month(self, month: int, year_parity: int, day_parity: int | None) -> Rows:
        hit = self._month.get((month, year_parity, day_parity))
        if hit is None:
            entries = (self.entries("season", season_of_month(month)) + self.entries("month", month - 1)
                       + self.entries("mzj", mzj_of_month(month)) + self.entries("mgroup", group_of_month(month)))
            hit = self._month[(month, year_parity, day_parity)] = _rows(entries, year_parity, day_parity)
        return hit

    def day(self, pillar: int) -> Rows:
        hit = self._day.get(pillar)
        if hit is None:
            hit = self._day[pillar] = _rows(self.entries("day_stem", pillar % 10)
                                            + self.entries("day_branch", pillar % 12))
        return hit


def effective_rule(spirit: Spirit, options: Options) -> tuple[Rule, str | None]:
    vid = options.choice(spirit.id)
    if vid is None:
        return spirit.rule, None
    return spirit.variant(vid).rule, vid


def rule_key(rule: Rule, catalog: Catalog, options: Options) -> str | None:
    """The state key a rule depends on (None for fixed rules)."""
    match rule:
        case RingPlacing(key=key):
            return key
        case OppositePlacing(of=of):
            return rule_key(effective_rule(catalog.spirit(of), options)[0], catalog, options)
        case FixedPlacing():
            return None
        case StepPlacing(key=key) | AlternatePlacing(key=key) | TablePlacing(key=key):
            return key
    raise AssertionError(f"unhandled rule kind {rule.kind}")


def rule_labels(rule: Rule, value: int, catalog: Catalog, options: Options) -> tuple[str, ...]:
    """Position labels a rule gives for key value ``value`` (ignored by fixed rules), by the type of
    the rule's value (:mod:`shensha_plates.core.rules`)."""
    match rule:
        case TablePlacing(entries=entries):
            return entries[value]
        case FixedPlacing(labels=labels):
            return labels
        case StepPlacing() | AlternatePlacing() as p:
            return (BRANCHES[p.branch(value)],)
        case RingPlacing(offsets=offsets, at=at, anchor=anchor):
            if at is not None:
                return (at[value],)
            base = anchor.branch(value)
            return tuple(BRANCHES[(base + o) % 12] for o in offsets)
        case OppositePlacing(of=of):
            trule = effective_rule(catalog.spirit(of), options)[0]
            return tuple(BRANCHES[(label_branch(lb, options.palaces) + 6) % 12]
                         for lb in rule_labels(trule, value, catalog, options))
    raise AssertionError(f"unhandled rule kind {rule.kind}")


_DAY_KEYS: Final = ("day_stem", "day_branch")


def _day_condition(spirit: Spirit, label: str) -> str | None:
    """The condition shown when no day is set: a day-pillar spirit holds only on its day."""
    if spirit.day_pillar:
        return f"{label}日" + (f"；{spirit.condition}" if spirit.condition else "")
    return spirit.condition


def _on_day(rows: Rows, day: int) -> Rows:
    """Rows with the day known: a day-pillar spirit stays only on its own day, then unconditional."""
    def on_day(row: tuple[Placement, ...]) -> tuple[Placement, ...]:
        if not any(p.spirit.day_pillar for p in row):
            return row
        return tuple(p if not p.spirit.day_pillar else replace(p, conditional=p.spirit.condition)
                     for p in row if not p.spirit.day_pillar or parse_pillar(p.at) == day)
    return tuple(on_day(row) for row in rows)


def _only_decides(only: str | None, year_parity: int, day_parity: int | None) -> bool | None:
    """True/False when the context decides an ``only`` condition, None when it cannot (no day)."""
    if only is None:
        return True
    if only in ("yang_year", "yin_year"):
        return (year_parity == 0) == (only == "yang_year")
    if day_parity is None:
        return None
    return (day_parity == 0) == (only == "yang_day")


def _rows(entries: list[_Entry], year_parity: int = 0, day_parity: int | None = None) -> Rows:
    rows: list[list[Placement]] = [[] for _ in range(12)]
    for e in sorted(entries, key=lambda e: e.order):
        applies = _only_decides(e.only, year_parity, day_parity)
        if applies is False:
            continue
        for p in e.placements:
            if applies is None:
                p = replace(p, conditional=_ONLY_TEXT[e.only or ""])
            rows[p.branch].append(p)
    return tuple(tuple(r) for r in rows)


def _placements(spirit: Spirit, labels: tuple[str, ...], *, ring: str | None, table: str | None,
                variant: str | None, palaces: str) -> tuple[Placement, ...]:
    return tuple(Placement(spirit=spirit, at=lb, branch=label_branch(lb, palaces), ring=ring, table=table,
                           conditional=_day_condition(spirit, lb), variant=variant)
                 for lb in labels)


@lru_cache(maxsize=64)
def _compile(catalog: Catalog, options: Options) -> _Compiled:
    return _Compiled(catalog, options)


def compute_plate(state: State, options: Options = Options(), catalog: Catalog | None = None) -> Plate:
    """The full plate for ``state``: every ring's rotation and every spirit under each branch."""
    return _plate(state, options, catalog or default_catalog())


@lru_cache(maxsize=4096)
def _plate(state: State, options: Options, catalog: Catalog) -> Plate:
    comp = _compile(catalog, options)
    day = state.day
    y = comp.year(state.year_branch, state.year_stem)
    x = comp.xun(state.xun)
    m = comp.month(state.month, state.year_branch % 2, None if day is None else day % 2)
    if day is not None:
        m = _on_day(m, day)
    d = comp.no_day if day is None else comp.day(day)
    positions = tuple(y[b] + x[b] + m[b] + d[b] for b in range(12))
    values = {"year_branch": state.year_branch, "month": state.month - 1, "season": (state.month - 1) // 3,
              "xun": state.xun}
    rings = tuple(per_value[values[key]] for _, key, per_value in comp.rings)
    return Plate(state=state, options=options, rings=rings, positions=positions,
                 omitted=comp.omitted[(state.year_stem is not None, day is not None)])


def spirit_row(spirit_id: str, options: Options = Options(),
               catalog: Catalog | None = None) -> tuple[str | None, tuple[tuple[str, ...], ...]]:
    """A spirit's square-table row: its key and the position labels for every key value.

    >>> spirit_row("tian_de")[1][:3]
    (('丁',), ('坤',), ('壬',))
    """
    cat = catalog or default_catalog()
    rule = effective_rule(cat.spirit(spirit_id), options)[0]
    key = rule_key(rule, cat, options)
    if key is None:
        return None, (rule_labels(rule, 0, cat, options),)
    return key, tuple(rule_labels(rule, v, cat, options) for v in range(KEYS[key]))


# ---------------------------------------------------------------------------------------------
# dials

DIALS: Final = ("year", "month", "xun", "day")


def step_state(state: State, dial: str, delta: int) -> State:
    """The state after turning ``dial`` by ``delta`` steps (forward positive).

    >>> step_state(State.parse("丙午", 11, "甲辰"), "year", 1).label()
    '丁未年 冬月 甲辰旬'
    """
    if dial == "year":
        if state.year_stem is None:
            return replace(state, year_branch=(state.year_branch + delta) % 12)
        p = (pillar_index(state.year_stem, state.year_branch) + delta) % 60
        return replace(state, year_branch=p % 12, year_stem=p % 10)
    if dial == "month":
        return replace(state, month=(state.month - 1 + delta) % 12 + 1)
    if dial == "xun":
        x = (state.xun + delta) % 6
        day = None if state.day is None else (state.day + 10 * delta) % 60
        return replace(state, xun=x, day=day)
    if dial == "day":
        day = (state.xun * 10 if state.day is None else state.day + delta) % 60
        if state.day is None and delta < 0:
            day = (state.xun * 10 + 9) % 60
        return replace(state, day=day, xun=xun_of(day))
    raise InputError(f"unknown dial: {dial!r} (expected one of {', '.join(DIALS)})")


# The dial that turns a ring keyed by each rule key.
_KEY_DIAL: Final[Mapping[str, str]] = {
    "year_branch": "year", "year_stem": "year", "month": "month", "season": "month", "mzj": "month",
    "mgroup": "month", "xun": "xun", "day_stem": "day", "day_branch": "day",
}


def turn_to_anchor(state: State, ring: Ring, anchor: int) -> State:
    """The state, by the fewest turns of the ring's own dial, in which ``ring`` has slot 0 on branch
    ``anchor`` (what a drag of that disc asks). Where no turn puts it exactly there (the xun ring
    moves two branches a step), the turn that brings it nearest. Ties go to the backward turn.
    Only the ring's own rule is read: no plate is computed.

    >>> from shensha_plates.core.catalog import default_catalog
    >>> ring = default_catalog().ring("L2")  # 月建盘: slot 0 on the month's branch
    >>> turn_to_anchor(State.parse("丙午", 11, "甲辰"), ring, BRANCHES.index("寅")).label()
    '丙午年 正月 甲辰旬'
    """
    dial = _KEY_DIAL[ring.key]

    def score(delta: int) -> tuple[int, int, int]:
        value = step_state(state, dial, delta).key_values()[ring.key]
        got = ring.anchor.branch(value if value is not None else 0)
        d = (got - anchor) % 12
        return min(d, 12 - d), abs(delta), delta

    return step_state(state, dial, min(score(d) for d in range(-6, 7))[2])
