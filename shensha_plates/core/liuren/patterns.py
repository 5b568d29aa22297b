"""The patterns a lesson forms (课体, 格, 卦), as data: ``resources/liuren/patterns.toml``.

Each pattern is a list of tests over the lesson, all of which must hold; the tests are a small typed
vocabulary (:data:`TESTS`) read and checked once at load, so that a rule is written in the data with its
book and quotation, not as a function of its own. What a test reads: the three transmissions (and the
earth branch under each), the day stem's lodging (寄宫) and the day branch with the heaven branches over
them (干上, 支上), the heaven plate, the generals, and — when given — the plates' spirits (for the 卦 of
seed 002, which name a spirit) and the querent's 年命.

>>> from shensha_plates.core.liuren import compute_ke
>>> from shensha_plates.core.cycle import BRANCHES, PILLARS
>>> ke = compute_ke(PILLARS.index("丙子"), BRANCHES.index("未"), BRANCHES.index("子"))
>>> [p.name for p in detect_patterns(ke)][0]
'铸印'
"""

from __future__ import annotations

import string
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from shensha_plates.core import tomlcache
from shensha_plates.core.cycle import BRANCHES, STEMS, branch_phase_index, overcomes, stem_palace, stem_phase_index
from shensha_plates.core.datafile import read_rules
from shensha_plates.core.errors import CatalogError
from shensha_plates.core.liuren.tables import TableSource, liuren_tables

if TYPE_CHECKING:
    from shensha_plates.core.engine import Plate
    from shensha_plates.core.liuren.ke import Ke
    from shensha_plates.core.liuren.nianming import NianMing

__all__ = ["Pattern", "Test", "PatternHit", "patterns", "load_patterns", "detect_patterns", "KINDS", "TESTS"]

KINDS: Final = ("课体", "格", "卦")
_PHASES: Final = {"木": 0, "火": 1, "土": 2, "金": 3, "水": 4}
# 三合: the frame of each phase (water 申子辰, wood 亥卯未, fire 寅午戌, metal 巳酉丑)
_FRAME: Final = {4: {8, 0, 4}, 0: {11, 3, 7}, 1: {2, 6, 10}, 3: {5, 9, 1}}
# the places a test may name: the day stem's lodging, the day branch, and the querent's two years
_PLACES: Final = ("stem", "branch", "ben_ming", "xing_nian")


@dataclass(frozen=True, slots=True)
class Test:
    """One test of a pattern: its kind (a key of :data:`TESTS`) and its typed arguments."""

    kind: str
    branches: tuple[int, ...] = ()         # a set of branches (transmissions_in, initial_in, …)
    sequences: tuple[tuple[int, ...], ...] = ()  # whole transmissions (transmissions)
    pairs: tuple[tuple[int, int], ...] = ()      # (heaven, earth) pairs, or by stem (tomb tests)
    by_stem: tuple[tuple[tuple[int, ...], tuple[tuple[int, int], ...]], ...] = ()
    places: tuple[str, ...] = ()
    phase: int | None = None
    step: int = 1
    direction: int = 0                     # run: 1 forward, −1 backward, 0 either; place_pair: 1 over the
                                           # place, −1 the place over, 0 either
    spirit: str | None = None
    value: bool = True
    per_stem: tuple[tuple[tuple[int, int], ...], ...] = ()  # pairs + by_stem, for each of the ten stems

    def pairs_of(self, stem: int) -> tuple[tuple[int, int], ...]:
        return self.per_stem[stem] if self.per_stem else self.pairs


@dataclass(frozen=True, slots=True)
class Pattern:
    id: str
    name: str
    name_trad: str
    kind: str
    source: TableSource
    tests: tuple[Test, ...]
    why: str
    note: str = ""
    needs: str = ""  # "plate" (the spirits of the plates) or "nian_ming" (the querent), when a test does


@dataclass(frozen=True, slots=True)
class PatternHit:
    """A pattern the lesson forms, and why, in words from the lesson."""

    pattern: Pattern
    why: str

    @property
    def id(self) -> str:
        return self.pattern.id

    @property
    def name(self) -> str:
        return self.pattern.name

    @property
    def name_trad(self) -> str:
        return self.pattern.name_trad

    @property
    def kind(self) -> str:
        return self.pattern.kind


# -- what a test reads ------------------------------------------------------------------------------

class _Lesson:
    """What the tests read of one lesson, computed once (every pattern's tests read the same)."""

    __slots__ = ("ke", "plate", "nian_ming", "trans", "stem", "lodge", "branch", "_heaven", "_under")

    def __init__(self, ke: Ke, plate: Plate | None, nian_ming: NianMing | None) -> None:
        self.ke, self.plate, self.nian_ming = ke, plate, nian_ming
        self.trans = tuple(t.branch for t in ke.transmissions)
        self.stem = ke.day % 10
        self.lodge = _LODGE[self.stem]
        self.branch = ke.day % 12
        self._heaven = ke.plate.heaven
        turn = ke.plate.heaven[0]  # the heaven branch over 子
        self._under = tuple((h - turn) % 12 for h in range(12))

    def over(self, earth: int) -> int:
        return self._heaven[earth]

    def under(self, heaven_branch: int) -> int:
        return self._under[heaven_branch]

    def place(self, name: str) -> int | None:
        if name == "stem":
            return self.lodge
        if name == "branch":
            return self.branch
        if self.nian_ming is None:
            return None
        return (self.nian_ming.ben_ming if name == "ben_ming" else self.nian_ming.xing_nian).branch


_LODGE: Final = tuple(stem_palace(s) for s in STEMS)


def _ghost(lesson: _Lesson, branch: int) -> bool:
    """A branch that overcomes the day stem (the day's 鬼)."""
    return overcomes(branch_phase_index(branch), stem_phase_index(lesson.stem))


def _he(a: int, b: int) -> bool:
    """六合."""
    return (a + b) % 12 == 1


def _t_transmissions(t: Test, x: _Lesson) -> bool:
    return x.trans in t.sequences


def _t_transmissions_in(t: Test, x: _Lesson) -> bool:
    return all(b in t.branches for b in x.trans)


def _t_frame(t: Test, x: _Lesson) -> bool:
    """The three transmissions are a 三合 frame of the phase (earth: all three earth branches)."""
    if t.phase == 2:
        return len(set(x.trans)) == 3 and all(branch_phase_index(b) == 2 for b in x.trans)
    return set(x.trans) == _FRAME[t.phase or 0]


def _t_run(t: Test, x: _Lesson) -> bool:
    a, b, c = x.trans
    for d in ((1, -1) if t.direction == 0 else (t.direction,)):
        if (b - a) % 12 == (d * t.step) % 12 and (c - b) % 12 == (d * t.step) % 12:
            return True
    return False


def _t_initial_in(t: Test, x: _Lesson) -> bool:
    return x.trans[0] in t.branches


def _t_initial_over(t: Test, x: _Lesson) -> bool:
    """The 初传 stands over one of the places (the stem's lodging, the day branch, the querent's years)."""
    under = x.under(x.trans[0])
    return any(x.place(p) == under for p in t.places)


def _t_initial_pair(t: Test, x: _Lesson) -> bool:
    return (x.trans[0], x.under(x.trans[0])) in t.pairs


def _t_initial_ghost(t: Test, x: _Lesson) -> bool:
    return _ghost(x, x.trans[0]) == t.value


def _t_under_initial_ghost(t: Test, x: _Lesson) -> bool:
    """The earth branch under the 初传 overcomes the day stem too (临克日之乡)."""
    return _ghost(x, x.under(x.trans[0])) == t.value


def _t_final_growth(t: Test, x: _Lesson) -> bool:
    """The 末传 is the day stem's 长生 (Zhuang's table) and the 初传 generates it."""
    from shensha_plates.core.liuren.strength import growth_stage
    first, last = x.trans[0], x.trans[2]
    return growth_stage(x.stem, last) == 0 and (branch_phase_index(last) - branch_phase_index(first)) % 5 == 1


def _t_flank_stem(t: Test, x: _Lesson) -> bool:
    """The earth branches under the 初传 and the 末传 flank the stem's lodging (拱)."""
    return {x.under(x.trans[0]), x.under(x.trans[2])} == {(x.lodge - 1) % 12, (x.lodge + 1) % 12}


def _t_cross(t: Test, x: _Lesson) -> bool:
    """交车: the stem's lodging 合 the heaven branch over the day branch, and the day branch 合 the heaven
    branch over the lodging (the five days whose stem lodges at their own branch cannot)."""
    return x.lodge != x.branch and _he(x.lodge, x.over(x.branch)) and _he(x.branch, x.over(x.lodge))


def _t_heart(t: Test, x: _Lesson) -> bool:
    """同心: the lodging 合 the day branch, and the heaven branches over them 合 each other."""
    return _he(x.lodge, x.branch) and _he(x.over(x.lodge), x.over(x.branch))


def _t_heaven_pair(t: Test, x: _Lesson) -> bool:
    """Any of the (heaven over earth) pairs stands on the plate; ``by_stem``: the pairs of the day stem."""
    pairs = t.pairs_of(x.stem)
    return any(x.over(e) == h for h, e in pairs)


def _t_place_pair(t: Test, x: _Lesson) -> bool:
    """One of the pairs (heaven over earth; those of the day stem too) stands at a place: a branch over
    the place (戴, 覆) or the place's own branch in heaven over a branch (坐, 临)."""
    pairs = t.pairs_of(x.stem)
    for name in t.places:
        p = x.place(name)
        if p is None:
            continue
        for h, e in pairs:
            if t.direction >= 0 and e == p and x.over(p) == h:  # a branch over the place
                return True
            if t.direction <= 0 and h == p and x.over(e) == h:  # the place's branch in heaven over one
                return True
    return False


def _t_spirit_initial(t: Test, x: _Lesson) -> bool:
    """The branch that carries the spirit on Zhuang's plates is the 初传, standing over one of the places."""
    if x.plate is None or t.spirit is None:
        return False
    branches = x.plate.find(t.spirit)
    on = {p.branch for p in branches}
    return x.trans[0] in on and _t_initial_over(t, x)


def _t_over_place(t: Test, x: _Lesson) -> bool:
    """One of the branches stands (in heaven) over one of the places."""
    for name in t.places:
        p = x.place(name)
        if p is not None and x.over(p) in t.branches:
            return True
    return False


def _t_region(t: Test, x: _Lesson) -> bool:
    """The three transmissions are of one region (方: 寅卯辰 east, 巳午未 south, 申酉戌 west, 亥子丑 north)."""
    return len({(b - 2) % 12 // 3 for b in x.trans}) == 1 and len(set(x.trans)) == 3


_TOMB: Final = (7, 10, 4, 1, 4)  # the tomb of each phase: 木未 火戌 土辰 金丑 水辰 (土 with 水)


def _t_final_tomb(t: Test, x: _Lesson) -> bool:
    """The 末传 is the tomb of the day stem's phase."""
    return x.trans[2] == _TOMB[stem_phase_index(x.stem)]


def _t_day_branch_in(t: Test, x: _Lesson) -> bool:
    return x.branch in t.branches


TESTS: Final[Mapping[str, Callable[[Test, _Lesson], bool]]] = {
    "transmissions": _t_transmissions, "transmissions_in": _t_transmissions_in, "frame": _t_frame,
    "run": _t_run, "initial_in": _t_initial_in, "initial_over": _t_initial_over, "initial_pair": _t_initial_pair,
    "initial_ghost": _t_initial_ghost, "under_initial_ghost": _t_under_initial_ghost,
    "final_growth": _t_final_growth, "flank_stem": _t_flank_stem, "cross": _t_cross, "heart": _t_heart,
    "heaven_pair": _t_heaven_pair, "place_pair": _t_place_pair, "spirit_initial": _t_spirit_initial,
    "day_branch_in": _t_day_branch_in, "region": _t_region, "final_tomb": _t_final_tomb, "over_place": _t_over_place,
}
_FIELDS: Final = {"id", "name", "name_trad", "kind", "source", "test", "why", "note"}
_TEST_FIELDS: Final = {"kind", "branches", "sequences", "pairs", "by_stem", "places", "phase", "step", "direction",
                       "spirit", "value"}
_WHY_FIELDS: Final = {"trans", "initial", "under", "day", "stem", "lodge", "branch", "gan_shang", "zhi_shang"}


# -- reading the data -------------------------------------------------------------------------------

def _branches(name: str, entry: str, field: str, raw: object) -> tuple[int, ...]:
    if not isinstance(raw, str) or not raw or any(ch not in BRANCHES for ch in raw):
        raise CatalogError(name, entry, field, raw, "must be branches written together, e.g. 寅申巳亥")
    return tuple(BRANCHES.index(ch) for ch in raw)


def _pairs(name: str, entry: str, field: str, raw: object) -> tuple[tuple[int, int], ...]:
    """Pairs written 寅戌 (寅 over 戌)."""
    if not isinstance(raw, list) or not raw:
        raise CatalogError(name, entry, field, raw, "must be a list of pairs such as \"寅戌\" (寅 over 戌)")
    out = []
    for item in raw:
        if not isinstance(item, str) or len(item) != 2 or any(ch not in BRANCHES for ch in item):
            raise CatalogError(name, entry, field, item, "must be two branches, e.g. \"寅戌\" (寅 over 戌)")
        out.append((BRANCHES.index(item[0]), BRANCHES.index(item[1])))
    return tuple(out)


def _read_test(name: str, entry: str, raw: object) -> Test:
    if not isinstance(raw, dict):
        raise CatalogError(name, entry, "test", raw, "must be a table with a kind")
    kind = raw.get("kind")
    if kind not in TESTS:
        raise CatalogError(name, entry, "test.kind", kind, f"must be one of {', '.join(TESTS)}")
    extra = set(raw) - _TEST_FIELDS
    if extra:
        key = sorted(extra)[0]
        raise CatalogError(name, entry, f"test.{key}", raw[key], "is not a field of a test")
    args: dict[str, Any] = {"kind": kind}
    if "branches" in raw:
        args["branches"] = _branches(name, entry, "test.branches", raw["branches"])
    if "sequences" in raw:
        seqs = raw["sequences"]
        if not isinstance(seqs, list) or not seqs:
            raise CatalogError(name, entry, "test.sequences", seqs, "must be a list such as [\"巳戌卯\"]")
        args["sequences"] = tuple(_branches(name, entry, "test.sequences", s) for s in seqs)
        if any(len(s) != 3 for s in args["sequences"]):
            raise CatalogError(name, entry, "test.sequences", seqs, "must give three transmissions each")
    if "pairs" in raw:
        args["pairs"] = _pairs(name, entry, "test.pairs", raw["pairs"])
    if "by_stem" in raw:
        table = raw["by_stem"]
        if not isinstance(table, dict) or not table:
            raise CatalogError(name, entry, "test.by_stem", table, "must map stems (甲乙) to pairs")
        rows = []
        for stems, pairs in table.items():
            if not stems or any(ch not in STEMS for ch in stems):
                raise CatalogError(name, entry, "test.by_stem", stems, "must name stems, e.g. 甲乙")
            rows.append((tuple(STEMS.index(ch) for ch in stems), _pairs(name, entry, f"test.by_stem.{stems}", pairs)))
        args["by_stem"] = tuple(rows)
    if "places" in raw:
        places = raw["places"]
        if not isinstance(places, list) or not places or any(p not in _PLACES for p in places):
            raise CatalogError(name, entry, "test.places", places, f"must list places among {', '.join(_PLACES)}")
        args["places"] = tuple(places)
    if "phase" in raw:
        if raw["phase"] not in _PHASES:
            raise CatalogError(name, entry, "test.phase", raw["phase"], "must be one of 木火土金水")
        args["phase"] = _PHASES[raw["phase"]]
    for key, allowed in (("step", (1, 2)), ("direction", (1, -1, 0))):
        if key in raw:
            if raw[key] not in allowed or isinstance(raw[key], bool):
                raise CatalogError(name, entry, f"test.{key}", raw[key], f"must be one of {allowed}")
            args[key] = raw[key]
    if "spirit" in raw:
        from shensha_plates.core.catalog import default_catalog
        try:
            default_catalog().spirit(str(raw["spirit"]))
        except KeyError:
            raise CatalogError(name, entry, "test.spirit", raw["spirit"], "is not a spirit id of the catalog") from None
        args["spirit"] = str(raw["spirit"])
    if "value" in raw:
        if not isinstance(raw["value"], bool):
            raise CatalogError(name, entry, "test.value", raw["value"], "must be true or false")
        args["value"] = raw["value"]
    needs = {"transmissions": "sequences", "transmissions_in": "branches", "initial_in": "branches",
             "frame": "phase", "initial_over": "places", "initial_pair": "pairs", "place_pair": "places",
             "spirit_initial": "spirit", "day_branch_in": "branches", "over_place": "places"}
    if kind in needs and needs[kind] not in args:
        raise CatalogError(name, entry, f"test.{needs[kind]}", None, f"is needed by a test of kind {kind}")
    if kind == "heaven_pair" and "pairs" not in args and "by_stem" not in args:
        raise CatalogError(name, entry, "test.pairs", None, "is needed (or by_stem) by a test of kind heaven_pair")
    if "by_stem" in args:
        args["per_stem"] = tuple(args.get("pairs", ()) + tuple(p for stems, ps in args["by_stem"] if s in stems for p in ps)
                                 for s in range(10))
    return Test(**args)


def _source(name: str, entry: str, raw: object) -> TableSource:
    books = liuren_tables().books
    if not isinstance(raw, dict) or set(raw) not in ({"book", "quote"}, {"file", "quote"}):
        raise CatalogError(name, entry, "source", raw, "must be { book = …, quote = … } or { file = …, quote = … }")
    quote = raw["quote"]
    if not isinstance(quote, str) or not quote.strip():
        raise CatalogError(name, entry, "source.quote", quote, "must be a non-empty quotation")
    if "book" in raw:
        if raw["book"] not in books:
            raise CatalogError(name, entry, "source.book", raw["book"], "is not a book listed in plate.toml")
        return TableSource(quote=quote, book=raw["book"])
    from shensha_plates.core.catalog import SEED_FILES
    if raw["file"] not in SEED_FILES:
        raise CatalogError(name, entry, "source.file", raw["file"], "is not a seed file code")
    return TableSource(quote=quote, file=raw["file"])


def load_patterns(path: Path | str | None = None) -> tuple[Pattern, ...]:
    """Read and validate the patterns file; a fault raises one :class:`CatalogError` naming file,
    entry, field and value."""
    return tomlcache.fresh_on_failure(lambda: _load(path))


def _load(path: Path | str | None) -> tuple[Pattern, ...]:
    p = path if path is not None else Path(str(resources.files("shensha_plates.resources.liuren"))) / "patterns.toml"
    name, data = read_rules(p)
    raw = data.get("pattern")
    if not isinstance(raw, list) or not raw:
        raise CatalogError(name, "(file)", "pattern", raw, "must be a list of [[pattern]] entries")
    out: list[Pattern] = []
    seen: set[str] = set()
    for i, item in enumerate(raw):
        entry = f"pattern {item.get('id', i + 1) if isinstance(item, dict) else i + 1}"
        if not isinstance(item, dict):
            raise CatalogError(name, entry, "(entry)", item, "must be a table")
        extra = set(item) - _FIELDS
        if extra:
            key = sorted(extra)[0]
            raise CatalogError(name, entry, key, item[key], "is not a field of a pattern")
        pid = item.get("id")
        if not isinstance(pid, str) or not pid.isidentifier() or pid in seen:
            raise CatalogError(name, entry, "id", pid, "must be a new identifier")
        seen.add(pid)
        texts = {}
        for key in ("name", "name_trad", "why"):
            value = item.get(key)
            if not isinstance(value, str) or not value.strip():
                raise CatalogError(name, entry, key, value, "must be a non-empty text")
            texts[key] = value
        fields = {f for _, f, _, _ in string.Formatter().parse(texts["why"]) if f}
        if not fields <= _WHY_FIELDS:
            bad = sorted(fields - _WHY_FIELDS)[0]
            raise CatalogError(name, entry, "why", texts["why"], f"names {{{bad}}}; the fields are {', '.join(sorted(_WHY_FIELDS))}")
        kind = item.get("kind")
        if kind not in KINDS:
            raise CatalogError(name, entry, "kind", kind, f"must be one of {' '.join(KINDS)}")
        tests_raw = item.get("test")
        if not isinstance(tests_raw, list) or not tests_raw:
            raise CatalogError(name, entry, "test", tests_raw, "must be a list of [[pattern.test]] tables")
        tests = tuple(_read_test(name, entry, t) for t in tests_raw)
        needs = ""
        if any(t.kind == "spirit_initial" for t in tests):
            needs = "plate"
        if any(set(t.places) & {"ben_ming", "xing_nian"} for t in tests):
            needs = "nian_ming" if not needs else needs
        note = item.get("note", "")
        if not isinstance(note, str):
            raise CatalogError(name, entry, "note", note, "must be a text")
        out.append(Pattern(pid, texts["name"], texts["name_trad"], kind, _source(name, entry, item.get("source")),
                           tests, texts["why"], note, needs))
    return tuple(out)


@lru_cache(maxsize=1)
def patterns() -> tuple[Pattern, ...]:
    """The packaged patterns, loaded once."""
    return load_patterns()


# -- detecting ---------------------------------------------------------------------------------------

def _why(p: Pattern, x: _Lesson) -> str:
    first = x.trans[0]
    return p.why.format(trans="".join(BRANCHES[b] for b in x.trans), initial=BRANCHES[first],
                        under=BRANCHES[x.under(first)], day=STEMS[x.stem] + BRANCHES[x.branch], stem=STEMS[x.stem],
                        lodge=BRANCHES[x.lodge], branch=BRANCHES[x.branch], gan_shang=BRANCHES[x.over(x.lodge)],
                        zhi_shang=BRANCHES[x.over(x.branch)])


@lru_cache(maxsize=4)
def _compiled(table: tuple[Pattern, ...]) -> tuple[tuple[Pattern, tuple[tuple[Callable[[Test, _Lesson], bool], Test], ...]], ...]:
    """Each pattern with its tests' functions looked up once."""
    return tuple((p, tuple((TESTS[t.kind], t) for t in p.tests)) for p in table)


def detect_patterns(ke: Ke, plate: Plate | None = None, nian_ming: NianMing | None = None,
                    table: Sequence[Pattern] | None = None) -> tuple[PatternHit, ...]:
    """The patterns the lesson forms, in the data's order. ``plate``: the plates' spirits (the 卦 that
    name a spirit need it); ``nian_ming``: the querent's years (the tests that name them need it)."""
    x = _Lesson(ke, plate, nian_ming)
    out = []
    for p, checks in _compiled(patterns() if table is None else tuple(table)):
        for test_fn, t in checks:
            if not test_fn(t, x):
                break
        else:
            out.append(PatternHit(p, _why(p, x)))
    return tuple(out)
