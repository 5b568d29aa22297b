"""The patterns a lesson forms (课体, 格, 卦), as data: ``resources/liuren/patterns.toml``.

Each pattern is a list of tests over the lesson, all of which must hold; the tests are a small typed
vocabulary (:data:`TESTS`) read and checked once at load, so that a rule is written in the data with its
book and quotation, not as a function of its own. What a test reads: the three transmissions (and the
earth branch under each), the day stem's lodging (寄宫) and the day branch with the heaven branches over
them (干上, 支上), the heaven plate, the generals, and — when given — the plates' spirits (for the 卦 of
seed 002, which name a spirit), the year and the month of the lesson's date (from the plates, or a month
given: the 课体 that read the season's 旺相 or 太岁 and 月建) and the querent's 年命. A rule that needs what a
reading lacks is not tried (without a date the season is not guessed from the month general). Nor is a
rule whose tests, tabled once over the few facts of the lesson each reads, cannot hold for this lesson: see
"detecting" below (issue 25's index).

>>> from shensha_plates.core.liuren import compute_ke
>>> from shensha_plates.core.cycle import BRANCHES, PILLARS
>>> ke = compute_ke(PILLARS.index("丙子"), BRANCHES.index("未"), BRANCHES.index("子"))
>>> [p.name for p in detect_patterns(ke)][0]
'铸印'
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from itertools import permutations
from dataclasses import dataclass
from dataclasses import field as dc_field
from dataclasses import fields as dc_fields
from types import MappingProxyType
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from shensha_plates.core import tomlcache
from shensha_plates.core.cycle import (BRANCH_PHASE_INDEX, BRANCHES, STEM_PHASE_INDEX, STEMS, overcomes,
                                       stem_palace)
from shensha_plates.core.errors import CatalogError
from shensha_plates.core.liuren.plate import _HIDDEN, _VOID, _general_rows, _plate_rules, _plate_settings
from shensha_plates.core.liuren.strength import STRENGTHS, growth_stage, season_phase
from shensha_plates.core.liuren.tables import TableSource, liuren_tables, table_source
from shensha_plates.core.schema import Field, Kind, Table, Where, entries, one_of, read_toml, string_, template_fields, text

if TYPE_CHECKING:
    from shensha_plates.core.engine import Plate
    from shensha_plates.core.liuren.ke import Ke
    from shensha_plates.core.liuren.lodging import DayFacts
    from shensha_plates.core.liuren.nianming import NianMing

__all__ = ["Pattern", "Test", "PatternHit", "patterns", "load_patterns", "detect_patterns", "read_lesson", "KINDS", "TESTS",
           "BifaLine", "BifaHit", "bifa_lines", "load_bifa", "detect_bifa", "not_tried"]

KINDS: Final = ("课体", "格", "卦")
_PHASES: Final = {"木": 0, "火": 1, "土": 2, "金": 3, "水": 4}
# 三合: the frame of each phase (water 申子辰, wood 亥卯未, fire 寅午戌, metal 巳酉丑)
_FRAME: Final = {4: {8, 0, 4}, 0: {11, 3, 7}, 1: {2, 6, 10}, 3: {5, 9, 1}}
# the places a test may name: the day stem's lodging, the day branch, the querent's two years, the hour
# branch, and — read from the lesson's date — the year's and the month's branch
_PLACES: Final = ("stem", "branch", "ben_ming", "xing_nian", "hour", "year", "month")


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
    general: int | None = None             # a general (index in the tables' order)
    relation: str = ""                     # "generate" | "overcome"
    cross: bool = False                    # uppers: the stem's upper to the branch and the other way
    either: bool = False                   # uppers, uppers_prosper, upper_stage: the direct or the crossed form
    items: tuple[int, ...] = ()            # the names as indices into _Lesson.ph() (item_stem, trans_relation …)
    branch_set: frozenset[int] = frozenset()  # the branches, as a set
    stage: int | None = None               # a stage of growth (十二长生, Zhuang's table)
    stems: tuple[int, ...] = ()
    stem_sets: tuple[frozenset[int], ...] = ()
    lessons: tuple[int, ...] = ()          # lesson numbers 1–4
    names: tuple[str, ...] = ()            # methods' ids or 课 names
    count: int = 0                         # lessons_overcome: how many of the four lessons
    generals: tuple[int, ...] = ()         # a set of generals (initial_generals)
    powers: frozenset[int] = frozenset()   # strengths in the month (power): indices into STRENGTHS
    alternatives: tuple[tuple[Test, ...], ...] = ()  # any: groups of tests, one of which must all hold
    label: str = ""                        # any with named forms (``forms``, kept in ``names``): how the why
                                           # introduces the forms that hold (迍福's 八迍, 五福)
    alt_checks: tuple[tuple[tuple[Callable[[Test, _Lesson], bool], Test], ...], ...] = ()  # the groups' functions

    pair_sets: tuple[frozenset[tuple[int, int]], ...] = ()  # the pairs of each stem, as sets
    turn_sets: tuple[frozenset[int], ...] = ()  # the turns (heaven over 子) at which a pair stands, by stem

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
    needs: str = ""  # "plate" (the spirits of the plates, the month), "nian_ming" (the querent) or "day" (the
                     # date's day: its solar term, the moon's lodging), when a test does
    name_en: str = ""  # our English rendering (issue 28)
    forms: tuple[Test, ...] = ()  # its tests of kind any with named forms: the why's {forms} names those that hold


@dataclass(frozen=True, slots=True)
class PatternHit:
    """A pattern the lesson forms, and why, in words from the lesson."""

    pattern: Pattern
    why: str
    words: Mapping[str, str] = dc_field(default_factory=dict, repr=False, compare=False)  # the why's fields

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

    __slots__ = ("ke", "plate", "nian_ming", "month", "year", "trans", "day", "dayf", "stem", "lodge", "branch", "turn", "_overcome",
                 "_words", "_parity", "_frame", "_cross", "_season", "_ph", "_uppers", "_tph", "_nobles")

    def __init__(self, ke: Ke, plate: Plate | None, nian_ming: NianMing | None, month: int | None = None,
                 dayf: DayFacts | None = None) -> None:
        self.ke, self.plate, self.nian_ming, self.dayf = ke, plate, nian_ming, dayf  # (dayf: the date's day)
        # the month (its branch) and the year of the lesson's date: from the plates' state, or given
        if plate is None:
            self.month, self.year = month, None
        else:
            self.month = plate.state.month_branch if month is None else month
            self.year = plate.state.year_branch
        self._season = -1 if self.month is None else season_phase(self.month)
        a, b, c = ke.course.transmissions
        self.trans = (a, b, c)
        self.day = day = ke.plate.day
        self.stem = stem = day % 10
        self.lodge = _LODGE[stem]
        self.branch = day % 12
        self.turn = ke.plate.heaven[0]  # the heaven branch over 子: the heaven plate is a turn of the earth's
        self._ph: tuple[int, int, int, int, int, int, int] | None = None
        self._overcome: tuple[int, int, int] | None = None
        self._uppers: frozenset[int] | None = None
        self._tph: tuple[int, ...] | None = None
        self._nobles: tuple[int, int, frozenset[int]] | None = None
        self._words: Mapping[str, str] | None = None
        self._parity: int | None = -1
        self._frame: int | None = -1
        self._cross: bool | None = None

    def ph(self) -> tuple[int, int, int, int, int, int, int]:
        """The phases of the stem, the day branch, the three transmissions, 干上 and 支上 (once)."""
        if self._ph is None:
            a, b, c = self.trans
            bp, turn = BRANCH_PHASE_INDEX, self.turn
            self._ph = (STEM_PHASE_INDEX[self.stem], bp[self.branch], bp[a], bp[b], bp[c], bp[(self.lodge + turn) % 12],
                        bp[(self.branch + turn) % 12])
        return self._ph

    def frame(self) -> int | None:
        """The phase of the 三合 frame the three transmissions make, or None (once)."""
        if self._frame == -1:
            self._frame = _FRAME_OF.get(self.trans)
        return self._frame

    def crossed(self) -> bool:
        """交车 (see :func:`_t_cross`), worked out once: ten kinds of it test it again."""
        if self._cross is None:
            lodge, branch = self.lodge, self.branch
            self._cross = lodge != branch and _he(lodge, self.over(branch)) and _he(branch, self.over(lodge))
        return self._cross

    def parity(self) -> int | None:
        """0 when the lessons' uppers and the transmissions are all yang, 1 all yin, None mixed (once)."""
        if self._parity == -1:
            a, b, c = self.trans
            l1, l2, l3, l4 = self.ke.lessons
            odd = a % 2 + b % 2 + c % 2 + l1.upper % 2 + l2.upper % 2 + l3.upper % 2 + l4.upper % 2
            self._parity = 0 if odd == 0 else 1 if odd == 7 else None
        return self._parity

    def words(self) -> Mapping[str, str]:
        """The fields a ``why`` may name, in words (worked out once, on the first hit)."""
        if self._words is None:
            first, b2, b3 = self.trans
            self._words = MappingProxyType({"trans": BRANCHES[first] + BRANCHES[b2] + BRANCHES[b3], "initial": BRANCHES[first],
                           "under": BRANCHES[self.under(first)], "day": STEMS[self.stem] + BRANCHES[self.branch],
                           "stem": STEMS[self.stem], "lodge": BRANCHES[self.lodge], "branch": BRANCHES[self.branch],
                           "gan_shang": BRANCHES[self.over(self.lodge)], "zhi_shang": BRANCHES[self.over(self.branch)],
                           "hour": BRANCHES[self.ke.plate.hour], "month": "" if self.month is None else BRANCHES[self.month],
                           **_couple_words(self), **_day_words(self)})
        return self._words

    def overcome(self) -> tuple[int, int, int]:
        """How many distinct lessons are 上克下, how many 下贼上, and how many distinct lessons there are
        (counted once, on first use)."""
        if self._overcome is None:
            rels = [lesson.relation for lesson in self.ke.lessons if lesson.repeat_of is None]
            self._overcome = (rels.count("shang"), rels.count("xia"), len(rels))
        return self._overcome

    def uppers(self) -> frozenset[int]:
        """The four lessons' upper branches (once)."""
        if self._uppers is None:
            self._uppers = frozenset(lesson.upper for lesson in self.ke.lessons)
        return self._uppers

    def trans_phases(self) -> tuple[int, ...]:
        """The transmissions' phases, a 三合 局 or a 方 counted as its phase (once; see :func:`_trans_phases`)."""
        if self._tph is None:
            self._tph = _trans_phases(self)
        return self._tph

    def over(self, earth: int) -> int:
        return (earth + self.turn) % 12

    def power(self, phase: int) -> int:
        """The strength (index into STRENGTHS: 旺 相 死 囚 休) of a phase in the lesson's month."""
        return (phase - self._season) % 5

    def under(self, heaven_branch: int) -> int:
        return (heaven_branch - self.turn) % 12

    def place(self, name: str) -> int | None:
        if name == "stem":
            return self.lodge
        if name == "branch":
            return self.branch
        if self.nian_ming is None and name in _QUERENT_PLACES:
            return None
        if name == "hour":
            return self.ke.plate.hour
        if name == "month":
            return self.month
        if name == "year":
            return self.year
        if self.nian_ming is None:
            return None
        return (self.nian_ming.ben_ming if name == "ben_ming" else self.nian_ming.xing_nian).branch


_LODGE: Final = tuple(stem_palace(s) for s in STEMS)
_QUERENT_PLACES: Final = frozenset({"ben_ming", "xing_nian"})
# the transmissions (in any order) that make a 三合 frame, and those that make a 方, with the phase of each
_FRAME_OF: Final = {p: ph for ph, frame in _FRAME.items() for p in permutations(sorted(frame))}
_REGION_OF: Final = {p: ph for first, ph in ((2, 0), (5, 1), (8, 3), (11, 4))
                     for p in permutations((first, (first + 1) % 12, (first + 2) % 12))}


_BP = BRANCH_PHASE_INDEX.__getitem__
_SP = STEM_PHASE_INDEX.__getitem__
# the day's 鬼: _GHOST[stem][branch], the branch's phase overcoming the stem's
_GHOST: Final = tuple(tuple(overcomes(BRANCH_PHASE_INDEX[b], STEM_PHASE_INDEX[s]) for b in range(12)) for s in range(10))


def _ghost(lesson: _Lesson, branch: int) -> bool:
    """A branch that overcomes the day stem (the day's 鬼)."""
    return _GHOST[lesson.stem][branch]


def _he(a: int, b: int) -> bool:
    """六合."""
    return (a + b) % 12 == 1


def _t_transmissions(t: Test, x: _Lesson) -> bool:
    return x.trans in t.sequences


def _t_transmissions_in(t: Test, x: _Lesson) -> bool:
    a, b, c = x.trans
    br = t.branch_set
    return a in br and b in br and c in br


def _t_frame(t: Test, x: _Lesson) -> bool:
    """The three transmissions are a 三合 frame of the phase (earth: all three earth branches)."""
    if t.phase == 2:
        a, b, c = x.trans
        return _BP(a) == 2 and _BP(b) == 2 and _BP(c) == 2 and a != b and b != c and a != c
    return x.frame() == t.phase


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
    for p in t.places:
        if x.place(p) == under:
            return True
    return False


def _t_initial_pair(t: Test, x: _Lesson) -> bool:
    return (x.trans[0], x.under(x.trans[0])) in t.pairs


def _t_initial_ghost(t: Test, x: _Lesson) -> bool:
    return _ghost(x, x.trans[0]) == t.value


def _t_under_initial_ghost(t: Test, x: _Lesson) -> bool:
    """The earth branch under the 初传 overcomes the day stem too (临克日之乡)."""
    return _ghost(x, x.under(x.trans[0])) == t.value


def _t_final_growth(t: Test, x: _Lesson) -> bool:
    """The 末传 is the day stem's 长生 (Zhuang's table) and the 初传 generates it."""
    first, last = x.trans[0], x.trans[2]
    return growth_stage(x.stem, last) == 0 and (_BP(last) - _BP(first)) % 5 == 1


def _t_flank_stem(t: Test, x: _Lesson) -> bool:
    """The earth branches under the 初传 and the 末传 flank the stem's lodging (拱)."""
    return {x.under(x.trans[0]), x.under(x.trans[2])} == {(x.lodge - 1) % 12, (x.lodge + 1) % 12}


def _t_cross(t: Test, x: _Lesson) -> bool:
    """交车: the stem's lodging 合 the heaven branch over the day branch, and the day branch 合 the heaven
    branch over the lodging (the five days whose stem lodges at their own branch cannot)."""
    return x.crossed()


def _t_heart(t: Test, x: _Lesson) -> bool:
    """同心: the lodging 合 the day branch, and the heaven branches over them 合 each other."""
    return _he(x.lodge, x.branch) and _he(x.over(x.lodge), x.over(x.branch))


def _t_heaven_pair(t: Test, x: _Lesson) -> bool:
    """Any of the (heaven over earth) pairs stands on the plate; ``by_stem``: the pairs of the day stem."""
    return x.turn in t.turn_sets[x.stem]


def _t_place_pair(t: Test, x: _Lesson) -> bool:
    """One of the pairs (heaven over earth; those of the day stem too) stands at a place: a branch over
    the place (戴, 覆) or the place's own branch in heaven over a branch (坐, 临)."""
    pairs, turn, d = t.pair_sets[x.stem], x.turn, t.direction
    for name in t.places:
        p = x.place(name)
        if p is None:
            continue
        if d >= 0 and ((p + turn) % 12, p) in pairs:  # a branch over the place
            return True
        if d <= 0 and (p, (p - turn) % 12) in pairs:  # the place's branch in heaven over one
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
    br, turn = t.branch_set, x.turn
    for name in t.places:
        p = x.place(name)
        if p is not None and (p + turn) % 12 in br:
            return True
    return False


def _t_region(t: Test, x: _Lesson) -> bool:
    """The three transmissions are of one region (方: 寅卯辰 east, 巳午未 south, 申酉戌 west, 亥子丑 north)."""
    return len({(b - 2) % 12 // 3 for b in x.trans}) == 1 and len(set(x.trans)) == 3


_TOMB: Final = (7, 10, 4, 1, 4)  # the tomb of each phase: 木未 火戌 土辰 金丑 水辰 (土 with 水)


def _t_final_tomb(t: Test, x: _Lesson) -> bool:
    """The 末传 is the tomb of the day stem's phase."""
    return x.trans[2] == _TOMB[_SP(x.stem)]


def _t_day_branch_in(t: Test, x: _Lesson) -> bool:
    return x.branch in t.branches


def _gen(a: int, b: int) -> bool:
    """Phase ``a`` generates phase ``b``."""
    return (b - a) % 5 == 1


def _rel(relation: str, a_phase: int, b_phase: int) -> bool:
    return _RELT[relation][a_phase][b_phase]


# phase a generates / overcomes phase b, as tables
_RELT: Final = {"generate": tuple(tuple(_gen(a, b) for b in range(5)) for a in range(5)),
                "overcome": tuple(tuple(overcomes(a, b) for b in range(5)) for a in range(5))}
# the same read the other way: _RELT_REV[relation][a][b] is b bearing the relation to a
_RELT_REV: Final = {k: tuple(tuple(v[b][a] for b in range(5)) for a in range(5)) for k, v in _RELT.items()}
_OVER: Final = _RELT["overcome"]


def _t_flank(t: Test, x: _Lesson) -> bool:
    """The earth branches under the 初传 and the 末传 flank one of the places (前后引从)."""
    a, b = x.under(x.trans[0]), x.under(x.trans[2])
    if (a - b) % 12 not in (2, 10):  # flanking ends are two apart
        return False
    for name in t.places:
        p = x.place(name)
        if p is not None and {a, b} == {(p - 1) % 12, (p + 1) % 12}:
            return True
    return False


def _t_xun_ends(t: Test, x: _Lesson) -> bool:
    """The heaven branches over the stem and the branch are the xun's head and its tail (首尾相见)."""
    head = (12 - 2 * (x.ke.day // 10)) % 12
    tail = (head + 9) % 12
    return {x.over(x.lodge), x.over(x.branch)} == {head, tail}


def _t_all_yang(t: Test, x: _Lesson) -> bool:
    """The four lessons' upper branches and the three transmissions all yang (``value``) or all yin."""
    return x.parity() == (0 if t.value else 1)


def _void(x: _Lesson, b: int) -> bool:
    return b in x.ke.plate.void


def _t_initial_void(t: Test, x: _Lesson) -> bool:
    return _void(x, x.trans[0]) == t.value


def _t_all_void(t: Test, x: _Lesson) -> bool:
    v = x.ke.plate.void
    a, b, c = x.trans
    return a in v and b in v and c in v


def _t_later_void(t: Test, x: _Lesson) -> bool:
    """The 中传 and the 末传 void, the 初传 not (不行传)."""
    return not _void(x, x.trans[0]) and _void(x, x.trans[1]) and _void(x, x.trans[2])


def _t_initial_general(t: Test, x: _Lesson) -> bool:
    return x.ke.plate.general_of[x.trans[0]] == t.general  # the general riding the 初传


def _t_final_over(t: Test, x: _Lesson) -> bool:
    under = x.under(x.trans[2])
    for p in t.places:
        if x.place(p) == under:
            return True
    return False


def _t_chain(t: Test, x: _Lesson) -> bool:
    """Each transmission generates (overcomes) the next and the last the day stem, in either order."""
    s, _, a, b, c, _, _ = x.ph()
    r = _RELT[t.relation]
    return (r[a][b] and r[b][c] and r[c][s]) or (r[c][b] and r[b][a] and r[a][s])


def _t_initial_stage(t: Test, x: _Lesson) -> bool:
    return growth_stage(x.stem, x.trans[0]) == t.stage


def _t_final_stage(t: Test, x: _Lesson) -> bool:
    return growth_stage(x.stem, x.trans[2]) == t.stage


def _t_uppers(t: Test, x: _Lesson) -> bool:
    """The heaven branch over the stem bears the relation to the stem (``cross``: to the day branch) and
    the one over the day branch to the branch (``cross``: to the stem); ``direction`` −1: the places bear it
    to the uppers (人宅受脱: 干 feeds 干上 and 支 支上); ``either``: the direct or the crossed form."""
    stem, branch, _, _, _, gs, zs = x.ph()
    r = _RELT[t.relation]
    if t.direction < 0:  # the place bears the relation to its upper (脱: the stem feeds 干上)
        r = _RELT_REV[t.relation]
    if t.either:
        return (r[gs][stem] and r[zs][branch]) or (r[gs][branch] and r[zs][stem])
    if t.cross:
        return r[gs][branch] and r[zs][stem]
    return r[gs][stem] and r[zs][branch]


def _t_over_general(t: Test, x: _Lesson) -> bool:
    """The general standing over one of the places."""
    generals = x.ke.plate.generals
    for name in t.places:
        p = x.place(name)
        if p is not None and generals[p] == t.general:
            return True
    return False


def _t_ghost_general(t: Test, x: _Lesson) -> bool:
    """A transmission that is the day's 鬼 rides the general."""
    row = _GHOST[x.stem]
    for tr in x.ke.transmissions:
        if tr.general == t.general and row[tr.branch]:
            return True
    return False


def _t_lesson_ghost(t: Test, x: _Lesson) -> bool:
    row, lessons = _GHOST[x.stem], x.ke.lessons
    for n in t.lessons:
        if row[lessons[n - 1].upper]:
            return True
    return False


def _t_trans_stems(t: Test, x: _Lesson) -> bool:
    """The hidden stems (遁干) of the transmissions are one of the sets (三奇: 甲戊庚, 乙丙丁)."""
    stems = {tr.stem for tr in x.ke.transmissions}
    return None not in stems and any(stems == s for s in t.stem_sets)


def _t_day_stem_in(t: Test, x: _Lesson) -> bool:
    return x.stem in t.stems


def _t_trans_hidden_stem(t: Test, x: _Lesson) -> bool:
    return any(tr.stem in t.stems for tr in x.ke.transmissions)


def _t_general_on_stem(t: Test, x: _Lesson) -> bool:
    """The general rides a heaven branch whose hidden stem is one of the stems (玄武加丁)."""
    hp = x.ke.plate
    return hp.hidden[hp.general_of.index(t.general)] in t.stems  # each general rides one branch


def _t_noble_over(t: Test, x: _Lesson) -> bool:
    """The 贵人's heaven branch stands over one of the branches."""
    return x.under(x.ke.plate.noble) in t.branches


def _t_method(t: Test, x: _Lesson) -> bool:
    return x.ke.method in t.names or x.ke.ke in t.names


_LU: Final = (2, 3, 5, 6, 5, 6, 8, 9, 11, 0)  # 禄 of each stem: 甲寅 乙卯 丙戊巳 丁己午 庚申 辛酉 壬亥 癸子


def _t_lu_ma(t: Test, x: _Lesson) -> bool:
    """干上 is the day branch's 驿马 and 支上 the stem's 禄 (干支逢禄马)."""
    horse = {0: 2, 1: 11, 2: 8, 3: 5}[x.branch % 4]  # 申子辰 寅, 巳酉丑 亥, 寅午戌 申, 亥卯未 巳
    return x.over(x.lodge) == horse and x.over(x.branch) == _LU[x.stem]


def _t_lessons_overcome(t: Test, x: _Lesson) -> bool:
    """Exactly ``count`` of the lessons have their upper overcome the lower (``direction`` 1, 上克下) or the
    lower the upper (−1, 下贼上), a repeated lesson counted once (《御定六壬直指》 丙子 干上子, whose four
    lessons hold 未 over 子 twice, cites 《袖中金》「三上克下，为长幼」)."""
    return x.overcome()[0 if t.direction >= 0 else 1] == t.count


def _place_phase(x: _Lesson, name: str, branch: int) -> int:
    return _SP(x.stem) if name == "stem" else _BP(branch)


def _t_visit(t: Test, x: _Lesson) -> bool:
    """The first place's branch, in heaven, stands over the second place (支加干: ["branch", "stem"]), and
    the visitor overcomes the host (``direction`` 1) or the host the visitor (−1); the stem's phase is the
    day stem's own. ``cross``: or the host over the visitor with the same one overcoming (乱首: 支加干克干,
    or 干加支被支克)."""
    a, b = t.places
    return _visit(x, a, b, t.direction) or (t.cross and _visit(x, b, a, -t.direction))


def _visit(x: _Lesson, a: str, b: str, direction: int) -> bool:
    pa, pb = x.place(a), x.place(b)
    if pa is None or pb is None or x.over(pb) != pa:
        return False
    fa, fb = _place_phase(x, a, pa), _place_phase(x, b, pb)
    return overcomes(fa, fb) if direction >= 0 else overcomes(fb, fa)


def _t_initial_of_branch(t: Test, x: _Lesson) -> bool:
    """The 初传 is the branch the pairs give for the day branch (pairs written day branch first)."""
    return (x.branch, x.trans[0]) in t.pair_sets[x.stem]


def _t_initial_clash(t: Test, x: _Lesson) -> bool:
    """The 初传 clashes (冲, the opposite branch) with one of the places."""
    first = x.trans[0]
    for name in t.places:
        p = x.place(name)
        if p is not None and (first - p) % 12 == 6:
            return True
    return False


def _t_final_general(t: Test, x: _Lesson) -> bool:
    return x.ke.plate.general_of[x.trans[2]] == t.general


def _t_trans_in_lessons(t: Test, x: _Lesson) -> bool:
    """The three transmissions are all among the four lessons' upper branches (三传不离四课)."""
    uppers = x.uppers()
    a, b, c = x.trans
    return a in uppers and b in uppers and c in uppers


def _t_initial_of_xun(t: Test, x: _Lesson) -> bool:
    """The 初传 is the branch the pairs give for the xun's head (pairs written head's branch first)."""
    head = (12 - 2 * (x.ke.day // 10)) % 12
    return (head, x.trans[0]) in t.pair_sets[x.stem]


def _t_hour_ghost(t: Test, x: _Lesson) -> bool:
    """The hour branch and the 初传 both overcome the day stem (时与用神并克日干)."""
    return _ghost(x, x.ke.plate.hour) and _ghost(x, x.trans[0])


_CROSS_KINDS: Final = ("长生合", "财合", "脱合", "害合", "空合", "刑合", "冲合", "克合", "三交合", "交会合")
_YANG_STEM_OF_PHASE: Final = (0, 2, 4, 6, 8)  # 木甲 火丙 土戊 金庚 水壬
# 刑 by seed 001: 子卯 互刑, 丑→戌→未 and 寅→巳→申 朋刑 (not 未→丑, 申→寅), 辰午酉亥 自刑
_XING: Final = frozenset({(0, 3), (3, 0), (1, 10), (10, 7), (2, 5), (5, 8), (4, 4), (6, 6), (9, 9), (11, 11)})


def _xing_either(a: int, b: int) -> bool:
    return (a, b) in _XING or (b, a) in _XING


def _t_cross_kind(t: Test, x: _Lesson) -> bool:
    """One of the ten kinds of 交车 (seed 001), read from 干上 (gs) and 支上 (zs) against the day branch and
    the stem: 长生合 gs the branch's 长生 and zs the stem's; 财合 gs the branch's 财 and zs the stem's; 脱合
    gs drains the branch and zs the stem; 害合 gs 害 the lodging and zs the branch; 空合 both void; 刑合 gs 刑
    the lodging and zs the branch; 冲合 the lodging clashes with the branch; 克合 gs overcomes the branch and
    zs the stem; 三交合 孟仲季 over 孟仲季; 交会合 the transmissions a 三合."""
    kind = t.names[0]
    gs, zs = x.over(x.lodge), x.over(x.branch)
    stem, branch = _SP(x.stem), _BP(x.branch)
    if kind == "长生合":
        return growth_stage(_YANG_STEM_OF_PHASE[branch], gs) == 0 and growth_stage(x.stem, zs) == 0
    if kind == "财合":
        return overcomes(branch, _BP(gs)) and overcomes(stem, _BP(zs))
    if kind == "脱合":
        return _gen(branch, _BP(gs)) and _gen(stem, _BP(zs))
    if kind == "害合":
        return (gs + x.lodge) % 12 == 7 and (zs + x.branch) % 12 == 7
    if kind == "空合":
        return _void(x, gs) and _void(x, zs)
    if kind == "刑合":
        return _xing_either(gs, x.lodge) and _xing_either(zs, x.branch)
    if kind == "冲合":
        return (x.lodge - x.branch) % 12 == 6
    if kind == "克合":
        return overcomes(_BP(gs), branch) and overcomes(_BP(zs), stem)
    if kind == "三交合":
        return x.turn % 3 == 0
    return x.frame() is not None  # 交会合


def _t_spirit_on_initial(t: Test, x: _Lesson) -> bool:
    """The 初传's branch carries the spirit on Zhuang's plates (needs the plates); ``names``: one of these
    spirits (the groups of an ``any`` merged, :func:`_merged`)."""
    if x.plate is None or t.spirit is None:
        return False
    first = x.trans[0]
    for sid in t.names or (t.spirit,):
        if any(p.branch == first for p in x.plate.find(sid)):
            return True
    return False


def _t_month_general_in(t: Test, x: _Lesson) -> bool:
    """The month general (月将) is one of the three transmissions."""
    return x.ke.plate.general in x.trans


# 日德 (干德) of each stem: 甲己寅 乙庚申 丙辛巳 丁壬亥 戊癸巳 (seed 001's 「惟寅己、申乙、巳辛、亥丁四课」 agrees)
_DE: Final = (2, 8, 5, 11, 5, 2, 8, 5, 11, 5)
# the generals' phases, in the tables' order (贵人 … 天后), as seed 001 groups them (「甲乙日青龙六合……丙丁日朱雀
# 螣蛇……戊己日贵人太常勾陈……庚辛日白虎太阴……壬癸日玄武天后」; 天空, which it leaves out, is earth (戌))
_GENERAL_PHASE: Final = (2, 1, 1, 0, 2, 0, 2, 3, 2, 4, 3, 4)


def _t_initial_de(t: Test, x: _Lesson) -> bool:
    """The 初传 is the day stem's 德 (日德)."""
    return x.trans[0] == _DE[x.stem]


def _t_borrowed_gain(t: Test, x: _Lesson) -> bool:
    """借益: the three transmissions all drain the stem (the stem generates them; a 三合 局 by its phase) and
    overcome a 暗鬼 — a general on them whose phase overcomes the stem."""
    stem, _, a, b, c, _, _ = x.ph()
    frame = x.frame()
    phases = (frame, frame, frame) if frame is not None else (a, b, c)  # a 三合 局 counts as its phase
    gen = _RELT["generate"][stem]
    if not (gen[phases[0]] and gen[phases[1]] and gen[phases[2]]):
        return False
    over = _RELT["overcome"]
    for tr, ph in zip(x.ke.transmissions, phases, strict=True):
        g = _GENERAL_PHASE[tr.general]
        if over[g][stem] and over[ph][g]:
            return True
    return False


def _t_lu_over_branch(t: Test, x: _Lesson) -> bool:
    """支上 is the day stem's 禄 (禄临支)."""
    return x.over(x.branch) == _LU[x.stem]


_JUE: Final = 9  # the stage 绝 in STAGES (长生 … 胎 养)
# the branch where each phase is 绝, from the growth table (worked out once)
_JUE_OF_PHASE: Final = tuple(next(b for b in range(12) if growth_stage(_YANG_STEM_OF_PHASE[ph], b) == _JUE)
                             for ph in range(5))


def _t_uppers_jue(t: Test, x: _Lesson) -> bool:
    """干上 is the 绝 of the stem's phase and 支上 that of the day branch's (by the yang stem of each phase, on
    Zhuang's table: 木申 火亥 土亥 金寅 水巳) — 干支值绝."""
    return x.over(x.lodge) == _JUE_OF_PHASE[_SP(x.stem)] and x.over(x.branch) == _JUE_OF_PHASE[_BP(x.branch)]


def _t_initial_pinched(t: Test, x: _Lesson) -> bool:
    """The 初传 is overcome both by the earth branch under it and by the general riding it (夹克)."""
    first = x.ke.transmissions[0]
    ph = _BP(first.branch)
    return overcomes(_BP(x.under(first.branch)), ph) and overcomes(_GENERAL_PHASE[first.general], ph)


def _t_initial_inner_war(t: Test, x: _Lesson) -> bool:
    """The general riding the 初传 overcomes it (将克神, 内战)."""
    first = x.trans[0]
    return overcomes(_GENERAL_PHASE[x.ke.plate.general_of[first]], _BP(first))


# -- the 课体 of the 课经 (《六壬大全》 卷七–十) that read the month, the year, the 贵人's side … ----------------

# what a power test may name: the day stem, the day branch, the three transmissions, 干上 and 支上 — in the
# order of _Lesson.ph()
_POWER_ITEMS: Final = ("stem", "branch", "initial", "middle", "final", "gan_shang", "zhi_shang")
_PH_INDEX: Final = {n: i for i, n in enumerate(_POWER_ITEMS)}


def _t_power(t: Test, x: _Lesson) -> bool:
    """Each named item's phase has one of the strengths (旺相休囚死) in the lesson's month, as
    :func:`~shensha_plates.core.liuren.strength.strength` reckons it (辰戌丑未 months: earth). Without a
    month (no date), False: the season is not guessed from the month general."""
    if x.month is None:
        return False
    ph = x.ph()
    for i in t.items:
        if x.power(ph[i]) not in t.powers and not (t.cross and _power_ok(t, x, ph[i])):
            return False
    return True


def _t_noble_forward(t: Test, x: _Lesson) -> bool:
    """The generals run forward from 贵人 (``value``), or backward (not ``value``)."""
    return x.ke.plate.forward == t.value


def _t_uppers_side(t: Test, x: _Lesson) -> bool:
    """The generals riding 干上 and 支上 both stand before 贵人 (``direction`` 1: the five 螣蛇 朱雀 六合 勾陈
    青龙) or both behind it (−1: the six 天空 白虎 太常 玄武 太阴 天后) — 「天乙居中，后六前五」, as the 课经's
    励德课 says front and back are read."""
    g = x.ke.lesson_generals
    a, b = g[0], g[2]
    if t.direction >= 0:
        return 1 <= a <= 5 and 1 <= b <= 5
    return a >= 6 and b >= 6


def _t_initial_generals(t: Test, x: _Lesson) -> bool:
    return x.ke.plate.general_of[x.trans[0]] in t.generals


def _t_trans_general(t: Test, x: _Lesson) -> bool:
    """The general rides one of the three transmissions."""
    a, b, c = x.ke.transmissions
    g = t.general
    return a.general == g or b.general == g or c.general == g


def _t_trans_has(t: Test, x: _Lesson) -> bool:
    """One of the branches is among the three transmissions."""
    a, b, c = x.trans
    br = t.branches
    return a in br or b in br or c in br


def _t_initial_stem(t: Test, x: _Lesson) -> bool:
    """The 初传 bears the relation to the day stem (``direction`` 1), or the stem to it (−1: 财 when
    overcome, the stem's child when generated)."""
    a, s = _BP(x.trans[0]), _SP(x.stem)
    return _rel(t.relation, a, s) if t.direction >= 0 else _rel(t.relation, s, a)


def _t_initial_under(t: Test, x: _Lesson) -> bool:
    """The 初传 and the earth branch under it: the heaven one bears the relation to the earth one
    (``direction`` 1), the earth one to the heaven one (−1), or either (0) — 上下相生."""
    a = _BP(x.trans[0])
    b = _BP(x.under(x.trans[0]))
    return ((t.direction >= 0 and _rel(t.relation, a, b)) or (t.direction <= 0 and _rel(t.relation, b, a)))


# 驿马 of a branch by its 三合: 申子辰 寅, 亥卯未 巳, 寅午戌 申, 巳酉丑 亥
_HORSE: Final = (2, 11, 8, 5, 2, 11, 8, 5, 2, 11, 8, 5)


def _t_initial_horse(t: Test, x: _Lesson) -> bool:
    """The 初传 is the 驿马 of one of the places (the day branch, the year, the month, the querent's years)."""
    first = x.trans[0]
    for name in t.places:
        p = x.place(name)
        if p is not None and _HORSE[p] == first:
            return True
    return False


def _t_initial_place(t: Test, x: _Lesson) -> bool:
    """The 初传 is the branch of one of the places (太岁 or 月建 发用)."""
    first = x.trans[0]
    return any(x.place(n) == first for n in t.places)


def _t_initial_over_in(t: Test, x: _Lesson) -> bool:
    """The 初传 stands over one of the (earth) branches."""
    return x.under(x.trans[0]) in t.branches


def _t_initial_lesson(t: Test, x: _Lesson) -> bool:
    """The 初传 is the upper branch of one of the four lessons (it stands over that lesson's lower)."""
    first = x.trans[0]
    return any(lesson.upper == first for lesson in x.ke.lessons)


def _t_initial_zhi_de(t: Test, x: _Lesson) -> bool:
    """The 初传 is the day branch's 德 (支德: 「子日起巳顺行十二辰」, the fifth branch on)."""
    return x.trans[0] == (x.branch + 5) % 12


# 破 (seed 001: 「阳日破后四辰，阴日破前四辰」): 子酉 午卯 辰丑 戌未 寅亥 申巳
_PO: Final = tuple((b - 3) % 12 if b % 2 == 0 else (b + 3) % 12 for b in range(12))


def _t_initial_po(t: Test, x: _Lesson) -> bool:
    """The 初传 stands over its own 破."""
    first = x.trans[0]
    return x.under(first) == _PO[first]


def _t_bikou(t: Test, x: _Lesson) -> bool:
    """闭口 (《大全》 课经): the 初传 is the xun's tail (its 癸) over the xun's head (its 甲); or the head's branch
    in heaven riding 玄武; or the heaven branch over the head's (earth) branch riding 玄武. Not ``value``
    (the 毕法赋's 「闭口卦体两般推」): the same anywhere on the plate, 发用 or not."""
    head = (12 - 2 * (x.ke.day // 10)) % 12
    if not t.value:
        hp = x.ke.plate
        return x.turn == 9 or hp.general_of[head] == _XUANWU or hp.generals[head] == _XUANWU
    first = x.ke.transmissions[0]
    if first.branch == (head + 9) % 12 and x.under(first.branch) == head:
        return True
    return first.general == _XUANWU and (first.branch == head or x.under(first.branch) == head)


_XUANWU: Final = 9  # 玄武 in the tables' order


# the 旺神 (帝旺) of each phase: 木卯 火午 土午 金酉 水子 (土 with 火, as Zhuang has 戊 follow 丙)
_WANG: Final = tuple(next(b for b in range(12) if growth_stage(_YANG_STEM_OF_PHASE[ph], b) == 4) for ph in range(5))


def _t_uppers_prosper(t: Test, x: _Lesson) -> bool:
    """俱旺: 干上 is the 旺神 of the stem's phase and 支上 that of the day branch's; ``cross`` (互旺): 干上 the
    branch's and 支上 the stem's. The 旺神 is the phase's 帝旺 (木卯 火午 金酉 水子; 土 with 火, 午), a yin stem
    by its phase (《大全》's examples are 甲申 and 壬寅)."""
    stem, branch = _WANG[_SP(x.stem)], _WANG[_BP(x.branch)]
    gs, zs = x.over(x.lodge), x.over(x.branch)
    if t.either:
        return (gs == stem and zs == branch) or (gs == branch and zs == stem)
    return (gs == branch and zs == stem) if t.cross else (gs == stem and zs == branch)


def _t_initial_month_spirit(t: Test, x: _Lesson) -> bool:
    """The 初传 is one of the month's spirits named: 死神 (正月起巳), 死气 (正月起午), 生气 (正月起子), each
    going forward with the months."""
    if x.month is None:
        return False
    step = (x.month - 2) % 12  # 正月 is the 寅 month
    first = x.trans[0]
    return any(first == (_MONTH_START[n] + step) % 12 for n in t.names)


_MONTH_START: Final = {"死神": 5, "死气": 6, "生气": 0}


def _t_places_in_lessons(t: Test, x: _Lesson) -> bool:
    """Each named place's branch is among the four lessons' branches (upper or lower) — 天心: 岁月日时皆在四课."""
    branches = {b for lesson in x.ke.lessons for b in (lesson.upper, lesson.lower)}
    for name in t.places:
        p = x.place(name)
        if p is None or p not in branches:
            return False
    return True


def _t_hour_relation(t: Test, x: _Lesson) -> bool:
    """The hour branch bears the relation to (one of) the places' branches (时克行年)."""
    h = _BP(x.ke.plate.hour)
    for name in t.places:
        p = x.place(name)
        if p is not None and _rel(t.relation, h, _BP(p)):
            return True
    return False


def _t_any(t: Test, x: _Lesson) -> bool:
    """One of the groups of tests holds entirely (a definition with several forms: 亨通's 递生 俱生 互生 …)."""
    for group in t.alt_checks:
        if len(group) == 1:  # most forms are one test
            fn, sub = group[0]
            if fn(sub, x):
                return True
            continue
        for fn, sub in group:
            if not fn(sub, x):
                break
        else:
            return True
    return False

# -- more of the 毕法赋 (《六壬大全》 卷十一–十二, the lines' own examples) ---------------------------------------

def _t_lu_wang_on_stem(t: Test, x: _Lesson) -> bool:
    """干上 is the stem's 禄 and the 旺神 of its phase (旺禄临身: 「日之禄神，又作日之旺神，临于干上」 — the yin
    stems: 乙卯 丁午 己午 辛酉 癸子)."""
    up = x.over(x.lodge)
    return up == _LU[x.stem] and up == _WANG[_SP(x.stem)]


def _trans_phases(x: _Lesson) -> tuple[int, ...]:
    """The transmissions' phases, a 三合 局 or a 方 counted as its phase (the 毕法赋's 寅卯辰 「皆是日鬼」)."""
    frame = x.frame()
    if frame is not None:
        return (frame,)
    region = _REGION_OF.get(x.trans)
    if region is not None:
        return (region,)
    return x.ph()[2:5]


def _t_trans_kin(t: Test, x: _Lesson) -> bool:
    """The three transmissions are all the day's 鬼 (``names`` ["鬼"]: they overcome the stem) or all its 财
    (["财"]: the stem overcomes them), a 三合 局 or a 方 by its phase; with ``powers``, each in one of the
    strengths in the month (当时, 太旺); with ``count``, at least that many of them (众鬼虽彰: two or three)."""
    stem = _SP(x.stem)
    ghost = t.names[0] == "鬼"
    phases = x.trans_phases()
    if t.count and len(phases) == 3:  # ``count``: at least so many of them (众鬼); a 局 or a 方 of the kin is all three
        row = _RELT_REV["overcome"][stem] if ghost else _OVER[stem]
        a, b, c = phases
        return row[a] + row[b] + row[c] >= t.count
    for ph in phases:
        if not (overcomes(ph, stem) if ghost else overcomes(stem, ph)):
            return False
        if t.powers and (x.month is None or x.power(ph) not in t.powers):
            return False
    return True


def _stage_of_phase(phase: int, branch: int, reading: str) -> int:
    """The stage of a branch for a phase: by the phase's yang stem on Zhuang's table (土 with 火), or the
    five-phase reading (``wuxing``: 土 with 水)."""
    if reading == "wuxing":
        return growth_stage(_YANG_STEM_OF_PHASE[phase] if phase != 2 else 8, branch)  # 土 as 壬: born in 申
    return growth_stage(_YANG_STEM_OF_PHASE[phase], branch)


# the same, as tables: _PHASE_STAGE[reading][phase][branch]
_PHASE_STAGE: Final = {r: tuple(tuple(_stage_of_phase(ph, b, r) for b in range(12)) for ph in range(5))
                       for r in ("zhuang", "wuxing")}


def _t_upper_stage(t: Test, x: _Lesson) -> bool:
    """The heaven branch over each place (干上, 支上) is at the stage of the place's own phase (``cross``: of the
    other place's), by the phase (``names`` ["wuxing"]: 土 with 水; else 土 with 火) — 干支皆败, 人宅皆死."""
    table = _PHASE_STAGE[t.names[0] if t.names else "zhuang"]
    stem, branch = _SP(x.stem), _BP(x.branch)
    if t.either and len(t.places) == 2:  # 干上 and 支上, each at the stage of its own phase or of the other's
        gs, zs, st = x.over(x.lodge), x.over(x.branch), t.stage
        return (table[stem][gs] == st and table[branch][zs] == st) or (table[branch][gs] == st and table[stem][zs] == st)
    for name in t.places:
        if name == "stem":
            up, ph = x.over(x.lodge), (branch if t.cross else stem)
        else:
            up, ph = x.over(x.branch), (stem if t.cross else branch)
        if table[ph][up] != t.stage:
            return False
    return True


def _t_item_stem(t: Test, x: _Lesson) -> bool:
    """Each named item (干上, 支上, a transmission) bears the relation to the day stem (``direction`` 1), or the
    stem to it (−1)."""
    ph = x.ph()
    s = ph[0]
    r = _RELT[t.relation] if t.direction >= 0 else _RELT_REV[t.relation]
    for i in t.items:
        if not r[ph[i]][s]:
            return False
    return True


def _t_upper_month_spirit(t: Test, x: _Lesson) -> bool:
    """The heaven branch over one of the places is one of the month's spirits named (生气 死气 死神)."""
    if x.month is None:
        return False
    step = (x.month - 2) % 12
    for name in t.places:
        p = x.place(name)
        if p is not None and any(x.over(p) == (_MONTH_START[n] + step) % 12 for n in t.names):
            return True
    return False


def _t_bubei(t: Test, x: _Lesson) -> bool:
    """不备 with 克: the four lessons show only three (one repeats an earlier one) and one of them is 上克下
    or 下贼上 (芜淫's 「凡四课有克，缺一为不备」)."""
    shang, xia, distinct = x.overcome()
    return distinct == 3 and shang + xia > 0


def _t_upper_feeds_general(t: Test, x: _Lesson) -> bool:
    """干上 generates the general riding it (脱上逢脱: the stem feeds 干上, 干上 feeds its general)."""
    return _RELT["generate"][_BP(x.over(x.lodge))][_GENERAL_PHASE[x.ke.lesson_generals[0]]]


def _t_trans_relation(t: Test, x: _Lesson) -> bool:
    """The transmissions (a 局 or a 方 by its phase) bear the relation to each named item (``direction`` 1), or
    each item to them (−1): 三传生干 (眷属丰盈), 支生三传 (脱支), 三传生干上 (传财化鬼)."""
    r = _RELT[t.relation] if t.direction >= 0 else _RELT_REV[t.relation]
    phases = x.ph()
    for ph in x.trans_phases():
        for i in t.items:
            if not r[ph][phases[i]]:
                return False
    return True


def _t_items_relation(t: Test, x: _Lesson) -> bool:
    """The first named item bears the relation to the second (末助初: the 末传 generates the 初传)."""
    ph = x.ph()
    i, j = t.items
    return _RELT[t.relation][ph[i]][ph[j]]


def _t_lesson_uppers_in(t: Test, x: _Lesson) -> bool:
    """The four lessons' upper branches are all among the branches (一字刑: 辰午酉亥)."""
    return x.uppers() <= t.branch_set


def _t_uppers_pair(t: Test, x: _Lesson) -> bool:
    """(干上, 支上) is one of the pairs, written 干上 first (二字刑: 子卯, 卯子)."""
    return (x.over(x.lodge), x.over(x.branch)) in t.pair_sets[x.stem]


def _t_uppers_harm(t: Test, x: _Lesson) -> bool:
    """六害 (子未 丑午 寅巳 卯辰 申亥 酉戌) between 干上 and 支上 and their places, in the forms named: 各 (干上 害
    the lodge and 支上 the branch), 上 (干上 害 支上), 交 (干上 害 the branch and 支上 the lodge)."""
    gs, zs = x.over(x.lodge), x.over(x.branch)
    for form in t.names:
        if form == "各" and (gs + x.lodge) % 12 == 7 and (zs + x.branch) % 12 == 7:
            return True
        if form == "上" and (gs + zs) % 12 == 7:
            return True
        if form == "交" and (gs + x.branch) % 12 == 7 and (zs + x.lodge) % 12 == 7:
            return True
    return False


def _t_initial_tomb(t: Test, x: _Lesson) -> bool:
    """The 初传 is the tomb (木未 火戌 土水辰 金丑) of the phase of one of the places (the stem, the branch)."""
    first = x.trans[0]
    for name in t.places:
        ph = _SP(x.stem) if name == "stem" else _BP(x.branch)
        if first == _TOMB[ph]:
            return True
    return False


# spirits of the season (by 春 夏 秋 冬): 关神 春丑 夏辰 秋未 冬戌
_SEASON_SPIRIT: Final = {"关神": (1, 4, 7, 10)}


def _t_initial_season_spirit(t: Test, x: _Lesson) -> bool:
    """The 初传 is the season's spirit named (关神), the season by the month (寅卯辰 spring …)."""
    if x.month is None:
        return False
    season = (x.month - 2) % 12 // 3
    return any(x.trans[0] == _SEASON_SPIRIT[n][season] for n in t.names)


def _t_general_over(t: Test, x: _Lesson) -> bool:
    """The month general (太阳) stands over one of the places (太阳射宅: over the day branch)."""
    g = x.ke.plate.general
    for name in t.places:
        p = x.place(name)
        if p is not None and x.over(p) == g:
            return True
    return False


# the year's spirits by their step from the year's branch: 丧门 岁前二辰, 吊客 岁后二辰, 病符 旧太岁
_YEAR_SPIRIT: Final = {"丧门": 2, "吊客": -2, "病符": -1}


def _t_year_upper(t: Test, x: _Lesson) -> bool:
    """The heaven branch over each place is the year's spirit named in the same place of ``names``."""
    if x.year is None:
        return False
    for name, spirit in zip(t.places, t.names, strict=True):
        p = x.place(name)
        if p is None or x.over(p) != (x.year + _YEAR_SPIRIT[spirit]) % 12:
            return False
    return True


def _t_pair_general(t: Test, x: _Lesson) -> bool:
    """One of the (heaven over earth) pairs stands on the plate and its heaven branch rides the general."""
    gof = x.ke.plate.general_of
    for h, e in t.pair_sets[x.stem]:
        if x.over(e) == h and gof[h] == t.general:
            return True
    return False


# for each phase's 三合 frame (木 亥卯未, 火 寅午戌, 金 巳酉丑, 水 申子辰): the 六合 of its middle branch (三六相呼), and
# the branches that 犯杀 it (合中犯杀: its 刑, 害 and 冲 of the middle: 寅午戌 午 丑 子 …)
_FRAME_HE: Final = {0: 10, 1: 7, 3: 4, 4: 1}
_FRAME_SHA: Final = {0: frozenset({0, 4, 9}), 1: frozenset({6, 1, 0}), 3: frozenset({9, 10, 3}), 4: frozenset({3, 7, 6})}


def _t_frame_upper(t: Test, x: _Lesson) -> bool:
    """The transmissions are a 三合 frame and 干上 or 支上 is (``names`` ["合"]) the 六合 of its middle branch, or
    (["杀"]) one that 犯杀 it — its 刑, 害 or 冲 (the 毕法赋's 83 and 84)."""
    frame = x.frame()
    if frame is None:
        return False
    gs, zs = x.over(x.lodge), x.over(x.branch)
    if t.names[0] == "合":
        he = _FRAME_HE[frame]
        return gs == he or zs == he
    sha = _FRAME_SHA[frame]
    return gs in sha or zs in sha


def _t_tiger_hidden_ghost(t: Test, x: _Lesson) -> bool:
    """白虎 rides 干上, 支上 or a transmission whose hidden stem (遁干) is the day's 鬼 — it overcomes the day stem,
    yin with yin and yang with yang (虎乘遁鬼)."""
    hp = x.ke.plate
    h = hp.general_of.index(7)  # 白虎's heaven branch
    if h != x.over(x.lodge) and h != x.over(x.branch) and h not in x.trans:
        return False
    hidden = hp.hidden[h]
    return hidden is not None and hidden % 2 == x.stem % 2 and overcomes(_SP(hidden), _SP(x.stem))


def _nobles(x: _Lesson) -> tuple[int, int, frozenset[int]]:
    """The day's two 贵人 (by day, by night) and the day hours, by the lesson's own settings (noble, daynight);
    worked out once per lesson."""
    if x._nobles is None:
        day_hours, day_t, night_t, _ = _plate_rules(*_plate_settings(x.ke.options.choices))
        x._nobles = (day_t[x.stem], night_t[x.stem], day_hours)
    return x._nobles


def _t_two_nobles(t: Test, x: _Lesson) -> bool:
    """The two 贵人 of the day (昼 and 夜) on the plate, in the form named:
    加 — the 贵人 in use stands over the other's branch, itself an upper of the lessons or a transmission
    (昼夜贵加: 「六丁日亥加酉昼」); 差迭 — the day one over a night hour's branch and the night one over a day
    hour's (贵人差迭: 「甲子日丑为昼贵坐在酉上，未为夜贵却坐在卯上」); 受克 — each over a branch that overcomes
    it (两贵受克); 空 — each void or over a void (二贵皆空); 帘幕 — the one not in use over one of the
    ``places`` (帘幕贵人: 「昼占乃夜贵，夜占乃昼贵……临于占人年命之上，或临日干上」); 遍 — each transmission one
    of the two or standing over one (课传俱贵: 「三传皆是贵人者亦可用」)."""
    day_n, night_n, day_hours = _nobles(x)
    form = t.names[0]
    if form == "加":
        noble = x.ke.plate.noble
        other = night_n if noble == day_n else day_n
        if noble == other or x.under(noble) != other:
            return False
        return noble in x.uppers() or noble in x.trans
    if form == "差迭":
        return x.under(day_n) not in day_hours and x.under(night_n) in day_hours
    if form == "受克":
        return (overcomes(_BP(x.under(day_n)), _BP(day_n)) and overcomes(_BP(x.under(night_n)), _BP(night_n)))
    if form == "帘幕":  # the 贵人 not in use (昼占夜贵, 夜占昼贵) over one of the places
        noble = x.ke.plate.noble
        other = night_n if noble == day_n else day_n
        if other == noble:
            return False
        for name in t.places:
            p = x.place(name)
            if p is not None and x.over(p) == other:
                return True
        return False
    if form == "遍":  # each transmission one of the two 贵人 or standing over one
        for b in x.trans:
            if b != day_n and b != night_n and x.under(b) != day_n and x.under(b) != night_n:
                return False
        return True
    void = x.ke.plate.void  # 空
    return (day_n in void or x.under(day_n) in void) and (night_n in void or x.under(night_n) in void)



# -- the 毕法赋 lines read last (issue 25: 3 4 11 12 28 34 39 43 44 57 58 68 73 81 89 95) ---------------------

def _item_branch(x: _Lesson, i: int) -> int:
    """The branch of an item of _POWER_ITEMS (by its index): the lodge, the day branch, a transmission, 干上, 支上."""
    if i == 0:
        return x.lodge
    if i == 1:
        return x.branch
    if i < 5:
        return x.trans[i - 2]
    return x.over(x.lodge) if i == 5 else x.over(x.branch)


def _t_item_void(t: Test, x: _Lesson) -> bool:
    """Each named item (干上, 支上, a transmission) is void (``value``), or none is (not ``value``)."""
    void = x.ke.plate.void
    for i in t.items:
        if (_item_branch(x, i) in void) != t.value:
            return False
    return True


def _t_trans_fallen(t: Test, x: _Lesson) -> bool:
    """Each named transmission is void or stands over a void (空 or 落空: 「中末空陷」)."""
    void = x.ke.plate.void
    for i in t.items:
        b = x.trans[i - 2]
        if b not in void and x.under(b) not in void:
            return False
    return True


def _t_initial_hemmed(t: Test, x: _Lesson) -> bool:
    """The 初传 is overcome below — the upper of a lesson whose lower overcomes it (下贼上: the stem by its own
    phase in the first) — and, back at its own earth branch, by the heaven branch over it (前后逼迫: 「克处回归
    又受克」)."""
    first = x.trans[0]
    if not _OVER[_BP((first + x.turn) % 12)][_BP(first)]:
        return False
    for lesson in x.ke.lessons:
        if lesson.upper == first and lesson.relation == "xia":
            return True
    return False


def _t_trans_tomb(t: Test, x: _Lesson) -> bool:
    """The 中传 is the tomb of the 初传's phase (木未 火戌 土水辰 金丑): 传墓入墓."""
    return x.trans[1] == _TOMB[_BP(x.trans[0])]


def _t_ding_ma(t: Test, x: _Lesson) -> bool:
    """A transmission, 干上 or 支上 — and the querent's years over which their heaven branch stands, when given —
    carries the xun's 丁 (its hidden stem) or is the day branch's 驿马 (任信丁马)."""
    hidden, horse = x.ke.plate.hidden, _HORSE[x.branch]
    places = [*x.trans, x.over(x.lodge), x.over(x.branch)]
    if x.nian_ming is not None:
        places += [x.over(y.branch) for y in x.nian_ming.years]
    return any(b == horse or hidden[b] == 3 for b in places)


def _t_sun_general(t: Test, x: _Lesson) -> bool:
    """The general rides the month general's branch (太阳), and the hour is a day hour (太阳照武: 「惟畏占时在夜」)."""
    hp = x.ke.plate
    return hp.daytime and hp.general_of[hp.general] == t.general


def _t_ghost_general_over(t: Test, x: _Lesson) -> bool:
    """Over one of the places stands the day's 鬼 riding the general (催官使者: 「日鬼乘白虎加临日干或年命之上」)."""
    generals = x.ke.plate.generals
    for name in t.places:
        p = x.place(name)
        if p is not None and generals[p] == t.general and _ghost(x, x.over(p)):
            return True
    return False
def _t_noble_harmed(t: Test, x: _Lesson) -> bool:
    """The 初传 and the 贵人 in use are a 六害 pair (子未 丑午 寅巳 卯辰 申亥 酉戌), the 贵人 standing in the lessons or
    the transmissions (害贵: 「初传子与未又为害」, 「未加寅作初传，害中传之昼贵」)."""
    noble = x.ke.plate.noble
    if (x.trans[0] + noble) % 12 != 7:
        return False
    return noble in x.trans or noble in x.uppers()


def _t_trans_one_phase(t: Test, x: _Lesson) -> bool:
    """The three transmissions are of one phase — a 三合 局, a 方, or three of the same — so one kin of the day
    (六爻现卦: 「三传俱作日之财」)."""
    phases = x.trans_phases()
    return len(phases) == 1 or phases[0] == phases[1] == phases[2]


def _couple_words(x: _Lesson) -> dict[str, str]:
    """The husband's and the wife's 行年 and the heaven branch over each, in words (empty without both)."""
    couple = None if x.nian_ming is None else x.nian_ming.couple()
    if couple is None:
        return {}
    from shensha_plates.core.cycle import pillar_name
    fu, qi = couple
    return {"fu_nian": pillar_name(fu.pillar), "qi_nian": pillar_name(qi.pillar), "fu_shang": BRANCHES[fu.heaven],
            "qi_shang": BRANCHES[qi.heaven]}


def _t_couple(t: Test, x: _Lesson) -> bool:
    """The husband's and the wife's 行年 read together (《六壬大全》 课经): 德合 — their stems combine (甲己 乙庚
    丙辛 丁壬 戊癸) and their branches are 六合 (繁昌); 旺孕 — their branches are two of one 三合 frame, each
    旺 or 相 in the season (寅卯辰 spring …: the book's 三月 example is 「逢春旺相气」, so not strength.py's earth
    of the 辰戌丑未 months) (旺孕格); 解离 — the heaven branch over one overcomes the heaven branch over the
    other (交相克)."""
    couple = None if x.nian_ming is None else x.nian_ming.couple()
    if couple is None:
        return False
    fu, qi = couple
    form = t.names[0]
    if form == "德合":
        return (fu.pillar - qi.pillar) % 10 == 5 and _he(fu.branch, qi.branch)
    if form == "旺孕":
        a, b = fu.branch, qi.branch
        if a == b or _FRAME_PHASE[a] != _FRAME_PHASE[b] or x.month is None:
            return False
        season = _QUARTER_PHASE[(x.month - 2) % 12 // 3]  # the season by its three months: 三月 is spring
        return (_BP(a) - season) % 5 <= 1 and (_BP(b) - season) % 5 <= 1  # 旺 or 相
    ha, hb = _BP(fu.heaven), _BP(qi.heaven)
    return overcomes(ha, hb) or overcomes(hb, ha)


def _day_words(x: _Lesson) -> dict[str, str]:
    """The moon's lodging (its branch) and yesterday's pillar, in words (empty without a date's day)."""
    d = x.dayf
    if d is None:
        return {}
    from shensha_plates.core.cycle import pillar_name
    return {"moon": BRANCHES[d.moon_branch], "prev_day": pillar_name((x.ke.plate.day - 1) % 60)}


_ZHONG: Final = frozenset((0, 3, 6, 9))  # 子 卯 午 酉: the 四仲 (四平)


def _t_day_form(t: Test, x: _Lesson) -> bool:
    """What 《六壬大全》 课经 卷九 reads of the date: 天祸 — a 四立 day, and today's stem (or branch) stands over
    yesterday's, or yesterday's over today's (the stems by their lodges); 天寇 — a 分至 day, and the moon's
    lodging stands over yesterday's branch (离辰); 二烦 — the month general a 仲, a 四正 day (朔 弦 望 晦) or a
    仲 day (四平), the sun's lodging (the general, over the hour) and the moon's each over a 仲, and 辰 (斗罡)
    over 丑 or 未."""
    d = x.dayf
    if d is None:
        return False
    form = t.names[0]
    day = x.ke.plate.day
    prev = (day - 1) % 60
    if form == "天祸":
        if d.term not in _FOUR_LI:
            return False
        a, b = _LODGE[day % 10], _LODGE[prev % 10]
        c, e = day % 12, prev % 12
        return x.over(b) == a or x.over(a) == b or x.over(e) == c or x.over(c) == e
    if form == "天寇":
        return d.term in _FEN_ZHI and x.over(prev % 12) == d.moon_branch
    hp = x.ke.plate
    return (hp.general in _ZHONG and (d.si_zheng or day % 12 in _ZHONG) and hp.hour in _ZHONG
            and x.under(d.moon_branch) in _ZHONG and x.under(4) in (1, 7))


_FOUR_LI: Final = frozenset(("立春", "立夏", "立秋", "立冬"))
_FEN_ZHI: Final = frozenset(("春分", "夏至", "秋分", "冬至"))
_DAY_FORMS: Final = ("天祸", "天寇", "二烦")


_QUARTER_PHASE: Final = (0, 1, 3, 4)  # 寅卯辰 wood, 巳午未 fire, 申酉戌 metal, 亥子丑 water
_FRAME_PHASE: Final = tuple(next(ph for ph, frame in _FRAME.items() if b in frame) for b in range(12))


# -- the 课体 of the 课经 that need a choice of reading (issue 25: 侵害 刑伤 鬼墓 三光 灾厄 迍福 荣华 合欢 和美) --------

# 三刑 as 《六壬大全》's 刑伤课 lists them (寅刑巳 巳刑申 申刑寅, 丑刑戌 戌刑未 未刑丑, 子卯, 辰午酉亥 自刑), read either
# way: seed 001's table (_XING) leaves out 申刑寅 and 未刑丑, the 大全 has them
_XING_DAQUAN: Final = frozenset({(a, b) for a, b in ((2, 5), (5, 8), (8, 2), (1, 10), (10, 7), (7, 1), (0, 3),
                                                     (4, 4), (6, 6), (9, 9), (11, 11)) for a, b in ((a, b), (b, a))})


_XING_PARTNERS: Final = tuple(frozenset(b for b in range(12) if (a, b) in _XING_DAQUAN) for a in range(12))


def _t_initial_xing(t: Test, x: _Lesson) -> bool:
    """The 初传 and one of the places' branches are a 三刑 pair, either way, as the 大全's 刑伤课 lists them (刑干,
    刑支, 刑行年); ``names`` ["害"]: a 六害 pair instead (迍福's 「带刑害」)."""
    first = x.trans[0]
    if t.names:  # 六害
        for name in t.places:
            p = x.place(name)
            if p is not None and (first + p) % 12 == 7:
                return True
        return False
    partners = _XING_PARTNERS[first]
    for name in t.places:
        if x.place(name) in partners:
            return True
    return False


def _t_harm_initial(t: Test, x: _Lesson) -> bool:
    """侵害 (日辰六害相加): over one of the places (the stem's lodge, the day branch) stands its 六害, and the 初传 is
    that 害 or the place's own branch (the 大全's 丙子 example: 未 over 子, 「并用子」)."""
    first, turn = x.trans[0], x.turn
    for name in t.places:
        p = x.place(name)
        if p is None:
            continue
        up = (p + turn) % 12
        if (up + p) % 12 == 7 and (first == up or first == p):
            return True
    return False


def _t_initial_true_ghost(t: Test, x: _Lesson) -> bool:
    """The 初传 is the day's 鬼 as the 大全's 鬼墓课 counts it: it overcomes the stem, yang with yang and yin with
    yin (「阳见阳，阴见阴为鬼……壬日用辰戌，癸日用丑未」)."""
    first = x.trans[0]
    return first % 2 == x.stem % 2 and _GHOST[x.stem][first]


def _season_of(month: int) -> int:
    """The phase of the season of a month (寅卯辰 wood, 巳午未 fire, 申酉戌 metal, 亥子丑 water)."""
    return (0, 1, 3, 4)[(month - 2) % 12 // 3]


def _power_ok(t: Test, x: _Lesson, phase: int) -> bool:
    """The phase has one of the test's strengths in the lesson's month; ``cross``: in a 辰戌丑未 month also by
    the season's phase (季春 wood as well as earth — 「四季土旺」 beside the season)."""
    if x.power(phase) in t.powers:
        return True
    return t.cross and x.month is not None and x.month % 3 == 1 and (phase - _season_of(x.month)) % 5 in t.powers


def _t_day_power(t: Test, x: _Lesson) -> bool:
    """日辰有气: the stem (or 干上) and the day branch (or 支上) each have one of the strengths in the month (the
    袖中金's 「戊课在巳，是日有气。寅支传午，又是辰有气」 reads the day through the heaven branches on it)."""
    if x.month is None:
        return False
    stem, branch, _, _, _, gs, zs = x.ph()
    return (_power_ok(t, x, stem) or _power_ok(t, x, gs)) and (_power_ok(t, x, branch) or _power_ok(t, x, zs))


def _t_under_power(t: Test, x: _Lesson) -> bool:
    """The earth branch under the 初传 has one of the strengths in the month (旺气下胜)."""
    return x.month is not None and _power_ok(t, x, _BP(x.under(x.trans[0])))


def _t_initial_under_tomb(t: Test, x: _Lesson) -> bool:
    """The 初传 is the tomb of the phase of the earth branch under it (仰见其丘: 未 over 寅, wood's tomb)."""
    first = x.trans[0]
    return first == _TOMB[_BP(x.under(first))]


def _t_later_under(t: Test, x: _Lesson) -> bool:
    """The 中传 or the 末传 is overcome by the earth branch under it (下贼上 in the transmissions after the first)."""
    for b in x.trans[1:]:
        if overcomes(_BP(x.under(b)), _BP(b)):
            return True
    return False


def _t_upper_general_clash(t: Test, x: _Lesson) -> bool:
    """干上 or 支上 rides one of the generals and overcomes its place or is overcome by it (凶神临日辰相克)."""
    g = x.ke.lesson_generals
    stem, branch, _, _, _, gs, zs = x.ph()
    if g[0] in t.generals and (overcomes(gs, stem) or overcomes(stem, gs)):
        return True
    return g[2] in t.generals and (overcomes(zs, branch) or overcomes(branch, zs))


def _t_final_generals(t: Test, x: _Lesson) -> bool:
    return x.ke.transmissions[2].general in t.generals


def _t_final_de(t: Test, x: _Lesson) -> bool:
    """The 末传 is the day stem's 德 (母带德)."""
    return x.trans[2] == _DE[x.stem]


def _t_place_upper_initial(t: Test, x: _Lesson) -> bool:
    """The heaven branch over one of the places bears the relation to the 初传 (年命上神克初传)."""
    a = _BP(x.trans[0])
    for name in t.places:
        p = x.place(name)
        if p is not None and _rel(t.relation, _BP(x.over(p)), a):
            return True
    return False


def _t_upper_generals(t: Test, x: _Lesson) -> bool:
    """干上 (``places`` stem) or 支上 (branch) rides one of the generals."""
    g = x.ke.lesson_generals
    return any(g[0 if name == "stem" else 2] in t.generals for name in t.places)


def _t_lu_ma_over(t: Test, x: _Lesson) -> bool:
    """The stem's 禄 or the day branch's 驿马 stands over one of the places (禄马临年命)."""
    lu, horse = _LU[x.stem], _HORSE[x.branch]
    for name in t.places:
        p = x.place(name)
        if p is not None and x.over(p) in (lu, horse):
            return True
    return False


_STEM_HE: Final = (5, 6, 7, 8, 9, 0, 1, 2, 3, 4)  # 天干合: 甲己 乙庚 丙辛 丁壬 戊癸


def _t_upper_stem_he(t: Test, x: _Lesson) -> bool:
    """The hidden stem (遁干) of 干上 合 the day stem (日上神遁干与日干作合: 戊 with 丑's 癸)."""
    hidden = x.ke.plate.hidden[x.over(x.lodge)]
    return hidden is not None and hidden == _STEM_HE[x.stem]


def _t_initial_he(t: Test, x: _Lesson) -> bool:
    """The 初传 is the 六合 (``names`` ["六合"]) of the stem's lodge, the day branch, 干上 or 支上 (合欢's example: 子
    with 干上 丑), or of the day branch's 三合 frame, other than the branch itself (["三合"]: 子 of 申子辰)."""
    first = x.trans[0]
    if t.names[0] == "六合":
        return (_he(first, x.lodge) or _he(first, x.branch) or _he(first, x.over(x.lodge))
                or _he(first, x.over(x.branch)))
    return first != x.branch and (first - x.branch) % 4 == 0


def _t_uppers_he(t: Test, x: _Lesson) -> bool:
    """六合 among 干上, 支上 and their places, in the forms named: 上 (干上 合 支上), 会 (the lodge and the day branch
    合, one over the other), 各 (干上 合 the lodge and 支上 the branch), 交 (干上 合 the branch and 支上 the lodge:
    交车)."""
    lodge, branch, turn = x.lodge, x.branch, x.turn
    gs, zs = (lodge + turn) % 12, (branch + turn) % 12
    for form in t.names:
        if form == "上":
            if (gs + zs) % 12 == 1:
                return True
        elif form == "会":
            if (lodge + branch) % 12 == 1 and (gs == branch or zs == lodge):
                return True
        elif form == "各":
            if (gs + lodge) % 12 == 1 and (zs + branch) % 12 == 1:
                return True
        elif (gs + branch) % 12 == 1 and (zs + lodge) % 12 == 1 and lodge != branch:  # 交 (交车)
            return True
    return False


# the kinds whose one-test groups in an ``any`` are checked as one test (和美's 上 会 各 交, 灾厄's spirits): the
# groups' names (forms of uppers_he) or spirits together — the why still names each group that holds
_MERGEABLE: Final = frozenset({"uppers_he", "spirit_on_initial"})


def _merged(groups: tuple[tuple[Test, ...], ...]) -> tuple[tuple[tuple[Callable[[Test, _Lesson], bool], Test], ...], ...]:
    """The checks of an ``any``'s groups, the one-test groups of a mergeable kind as one check each kind."""
    out: list[tuple[tuple[Callable[[Test, _Lesson], bool], Test], ...]] = []
    first_of: dict[str, int] = {}
    for g in groups:
        kind = g[0].kind
        if len(g) == 1 and kind in _MERGEABLE:
            names = g[0].names or ((g[0].spirit,) if g[0].spirit else ())
            if kind in first_of:
                i = first_of[kind]
                prev = out[i][0][1]
                out[i] = ((TESTS[kind], Test(**{**_fields_of(prev), "names": prev.names + names})),)
                continue
            first_of[kind] = len(out)
            out.append(((TESTS[kind], Test(**{**_fields_of(g[0]), "names": names})),))
            continue
        out.append(tuple((TESTS[sub.kind], sub) for sub in g))
    return tuple(out)


def _fields_of(t: Test) -> dict[str, Any]:
    return {f: getattr(t, f) for f in Test.__dataclass_fields__}


def _held_forms(tests: Sequence[Test], x: _Lesson) -> str:
    """The named forms of the ``any`` tests that hold, in words (迍福: 「八迍：死气发用、…；五福：…」)."""
    parts = []
    for t in tests:
        held = [name for name, group in zip(t.names, t.alternatives, strict=True)
                if all(TESTS[sub.kind](sub, x) for sub in group)]
        parts.append((t.label + "：" if t.label else "") + "、".join(held))
    return "；".join(parts)


# Each test reads the lesson only through _Lesson (its attributes, its methods, ``ke``) and lets a read fail
# loudly: the index (see "detecting") runs every test on probes whose unknown facts raise when read, so a
# test must not catch an exception, nor read with a default (getattr's third argument) — it would be tabled
# on facts it does not know. tests/core/test_detection_digest.py checks the index against trying every rule.
TESTS: Final[Mapping[str, Callable[[Test, _Lesson], bool]]] = {
    "transmissions": _t_transmissions, "transmissions_in": _t_transmissions_in, "frame": _t_frame,
    "run": _t_run, "initial_in": _t_initial_in, "initial_over": _t_initial_over, "initial_pair": _t_initial_pair,
    "initial_ghost": _t_initial_ghost, "under_initial_ghost": _t_under_initial_ghost,
    "final_growth": _t_final_growth, "flank_stem": _t_flank_stem, "cross": _t_cross, "heart": _t_heart,
    "heaven_pair": _t_heaven_pair, "place_pair": _t_place_pair, "spirit_initial": _t_spirit_initial,
    "day_branch_in": _t_day_branch_in, "region": _t_region, "final_tomb": _t_final_tomb, "over_place": _t_over_place,
    "flank": _t_flank, "xun_ends": _t_xun_ends, "all_yang": _t_all_yang, "initial_void": _t_initial_void,
    "all_void": _t_all_void, "later_void": _t_later_void, "initial_general": _t_initial_general,
    "final_over": _t_final_over, "chain": _t_chain, "initial_stage": _t_initial_stage,
    "final_stage": _t_final_stage, "uppers": _t_uppers, "over_general": _t_over_general,
    "ghost_general": _t_ghost_general, "lesson_ghost": _t_lesson_ghost, "trans_stems": _t_trans_stems,
    "day_stem_in": _t_day_stem_in, "trans_hidden_stem": _t_trans_hidden_stem,
    "general_on_stem": _t_general_on_stem, "noble_over": _t_noble_over, "method": _t_method, "lu_ma": _t_lu_ma,
    "lessons_overcome": _t_lessons_overcome, "visit": _t_visit, "initial_of_branch": _t_initial_of_branch,
    "initial_clash": _t_initial_clash, "final_general": _t_final_general, "trans_in_lessons": _t_trans_in_lessons,
    "initial_of_xun": _t_initial_of_xun, "hour_ghost": _t_hour_ghost, "cross_kind": _t_cross_kind,
    "spirit_on_initial": _t_spirit_on_initial, "month_general_in": _t_month_general_in,
    "initial_de": _t_initial_de, "borrowed_gain": _t_borrowed_gain, "lu_over_branch": _t_lu_over_branch,
    "uppers_jue": _t_uppers_jue, "initial_pinched": _t_initial_pinched, "initial_inner_war": _t_initial_inner_war,
    "power": _t_power, "noble_forward": _t_noble_forward, "uppers_side": _t_uppers_side,
    "initial_generals": _t_initial_generals, "trans_general": _t_trans_general, "trans_has": _t_trans_has,
    "initial_stem": _t_initial_stem, "initial_under": _t_initial_under, "initial_horse": _t_initial_horse,
    "initial_place": _t_initial_place, "initial_over_in": _t_initial_over_in, "initial_lesson": _t_initial_lesson,
    "initial_zhi_de": _t_initial_zhi_de, "initial_po": _t_initial_po, "bikou": _t_bikou,
    "uppers_prosper": _t_uppers_prosper, "initial_month_spirit": _t_initial_month_spirit,
    "places_in_lessons": _t_places_in_lessons, "hour_relation": _t_hour_relation, "any": _t_any,
    "lu_wang_on_stem": _t_lu_wang_on_stem, "trans_kin": _t_trans_kin, "upper_stage": _t_upper_stage,
    "item_stem": _t_item_stem, "upper_month_spirit": _t_upper_month_spirit, "bubei": _t_bubei,
    "upper_feeds_general": _t_upper_feeds_general, "trans_relation": _t_trans_relation,
    "items_relation": _t_items_relation, "lesson_uppers_in": _t_lesson_uppers_in, "uppers_pair": _t_uppers_pair,
    "uppers_harm": _t_uppers_harm, "initial_tomb": _t_initial_tomb, "initial_season_spirit": _t_initial_season_spirit,
    "general_over": _t_general_over, "year_upper": _t_year_upper, "pair_general": _t_pair_general,
    "frame_upper": _t_frame_upper, "tiger_hidden_ghost": _t_tiger_hidden_ghost, "two_nobles": _t_two_nobles,
    "item_void": _t_item_void, "trans_fallen": _t_trans_fallen, "initial_hemmed": _t_initial_hemmed,
    "trans_tomb": _t_trans_tomb, "ding_ma": _t_ding_ma, "sun_general": _t_sun_general,
    "ghost_general_over": _t_ghost_general_over, "noble_harmed": _t_noble_harmed,
    "trans_one_phase": _t_trans_one_phase,
    "couple": _t_couple, "day_form": _t_day_form,
    "initial_xing": _t_initial_xing, "harm_initial": _t_harm_initial, "initial_true_ghost": _t_initial_true_ghost,
    "day_power": _t_day_power, "under_power": _t_under_power, "initial_under_tomb": _t_initial_under_tomb,
    "later_under": _t_later_under, "upper_general_clash": _t_upper_general_clash, "final_generals": _t_final_generals,
    "final_de": _t_final_de, "place_upper_initial": _t_place_upper_initial, "upper_generals": _t_upper_generals,
    "lu_ma_over": _t_lu_ma_over, "upper_stem_he": _t_upper_stem_he, "initial_he": _t_initial_he,
    "uppers_he": _t_uppers_he,
}
_TEST_FIELDS: Final = {"kind", "branches", "sequences", "pairs", "by_stem", "places", "phase", "step", "direction",
                       "spirit", "value", "general", "relation", "cross", "stage", "stems", "stem_sets", "lessons",
                       "names", "count", "generals", "powers", "any", "either", "forms", "label"}
_COUPLE_FORMS: Final = ("德合", "旺孕", "解离")
_WHY_FIELDS: Final = {"trans", "initial", "under", "day", "stem", "lodge", "branch", "gan_shang", "zhi_shang", "hour",
                      "month", "fu_nian", "qi_nian", "fu_shang", "qi_shang", "moon", "prev_day",
                      "forms"}  # forms: the named forms of a pattern's any tests that hold


# -- what a rule needs beyond the lesson: the plates (a spirit, the year), the month, the querent --------

_NEED_PLATE: Final = 1
_NEED_MONTH: Final = 2
_NEED_QUERENT: Final = 4
_NEED_PARTNER: Final = 8  # the husband's and the wife's 行年 together (a querent and a partner of the other sex)
_NEED_DAY: Final = 16  # the date's day: its solar term, lunar day and the moon's lodging (天寇 二烦 天祸)
_HAVES: Final = 32  # the masks of what a reading may have
_PLACE_NEED: Final = {"stem": 0, "branch": 0, "hour": 0, "year": _NEED_PLATE, "month": _NEED_MONTH,
                      "ben_ming": _NEED_QUERENT, "xing_nian": _NEED_QUERENT}


def _requirement(tests: Sequence[Test], loose: bool = False) -> int:
    """What the tests cannot do without (a mask of _NEED_*): a rule that needs what a reading lacks cannot
    hold, and is not tried. A test naming several places needs only what all of them need (it holds at any
    one); places_in_lessons needs every place; the groups of ``any`` need what all of them need.
    ``loose``: also what the rule cannot hold without in any way — a test whose every place (or ``any``
    whose every group) needs something of the date counts as needing the date (its ``needs``)."""
    req = 0
    for t in tests:
        if t.kind in ("spirit_initial", "spirit_on_initial"):
            req |= _NEED_PLATE
        elif t.kind in ("power", "initial_month_spirit", "upper_month_spirit", "initial_season_spirit", "day_power",
                        "under_power") or (
                t.kind == "trans_kin" and t.powers):
            req |= _NEED_MONTH
        elif t.kind == "year_upper":
            req |= _NEED_PLATE
        elif t.kind == "day_form":
            req |= _NEED_DAY
        elif t.kind == "couple":
            req |= _NEED_QUERENT | _NEED_PARTNER | (_NEED_MONTH if t.names == ("旺孕",) else 0)
        parts: list[int] = []
        if t.places and t.kind not in ("upper_month_spirit", "year_upper"):
            parts = [_PLACE_NEED[p] for p in t.places]
            if t.kind == "places_in_lessons":
                for n in parts:
                    req |= n
                parts = []
        elif t.alternatives:
            parts = [_requirement(g, loose) for g in t.alternatives]
        if parts:
            common = parts[0]
            for n in parts[1:]:
                common &= n
            req |= common
            if loose and not common and all(parts):  # each form needs something: the least of them
                dated = [n for n in parts if n & (_NEED_PLATE | _NEED_MONTH)]
                if not dated:
                    req |= _NEED_QUERENT
                elif len(dated) == len(parts):  # (a mix of date and querent forms needs neither alone)
                    req |= _NEED_MONTH if any(not n & ~_NEED_MONTH for n in dated) else _NEED_PLATE
    return req


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
    if "general" in raw:
        gnames = [g.name for g in liuren_tables().generals]
        if raw["general"] not in gnames:
            raise CatalogError(name, entry, "test.general", raw["general"], f"must be a general ({' '.join(gnames)})")
        args["general"] = gnames.index(raw["general"])
    if "relation" in raw:
        if raw["relation"] not in ("generate", "overcome"):
            raise CatalogError(name, entry, "test.relation", raw["relation"], "must be generate or overcome")
        args["relation"] = raw["relation"]
    for key in ("cross", "either"):
        if key in raw:
            if not isinstance(raw[key], bool):
                raise CatalogError(name, entry, f"test.{key}", raw[key], "must be true or false")
            args[key] = raw[key]
    if "stage" in raw:
        from shensha_plates.core.liuren.strength import STAGES
        if raw["stage"] not in STAGES:
            raise CatalogError(name, entry, "test.stage", raw["stage"], f"must be a stage ({' '.join(STAGES)})")
        args["stage"] = STAGES.index(raw["stage"])
    if "stems" in raw:
        if not isinstance(raw["stems"], str) or not raw["stems"] or any(ch not in STEMS for ch in raw["stems"]):
            raise CatalogError(name, entry, "test.stems", raw["stems"], "must be stems written together, e.g. 庚辛")
        args["stems"] = tuple(STEMS.index(ch) for ch in raw["stems"])
    if "stem_sets" in raw:
        sets = raw["stem_sets"]
        if not isinstance(sets, list) or not sets or any(not isinstance(x, str) or any(ch not in STEMS for ch in x)
                                                         for x in sets):
            raise CatalogError(name, entry, "test.stem_sets", sets, "must be a list of stems, e.g. [\"甲戊庚\"]")
        args["stem_sets"] = tuple(frozenset(STEMS.index(ch) for ch in x) for x in sets)
    if "lessons" in raw:
        ls = raw["lessons"]
        if not isinstance(ls, list) or not ls or any(n not in (1, 2, 3, 4) or isinstance(n, bool) for n in ls):
            raise CatalogError(name, entry, "test.lessons", ls, "must list lessons 1–4")
        args["lessons"] = tuple(ls)
    if "names" in raw:
        ns = raw["names"]
        if not isinstance(ns, list) or not ns or any(not isinstance(n, str) for n in ns):
            raise CatalogError(name, entry, "test.names", ns, "must list methods' ids or 课 names")
        args["names"] = tuple(ns)
    if "count" in raw:
        if raw["count"] not in (0, 1, 2, 3, 4) or isinstance(raw["count"], bool):
            raise CatalogError(name, entry, "test.count", raw["count"], "must be a number of lessons, 0–4")
        args["count"] = raw["count"]
    if "generals" in raw:
        gnames = [g.name for g in liuren_tables().generals]
        gs = raw["generals"]
        if not isinstance(gs, list) or not gs or any(g not in gnames for g in gs):
            raise CatalogError(name, entry, "test.generals", gs, f"must list generals ({' '.join(gnames)})")
        args["generals"] = tuple(gnames.index(g) for g in gs)
    if "powers" in raw:
        pw = raw["powers"]
        if not isinstance(pw, str) or not pw or any(ch not in STRENGTHS for ch in pw):
            raise CatalogError(name, entry, "test.powers", pw, "must be strengths written together, e.g. 旺相 or 囚死")
        args["powers"] = frozenset(STRENGTHS.index(ch) for ch in pw)
    if "any" in raw:
        groups = raw["any"]
        if not isinstance(groups, list) or len(groups) < 2 or any(not isinstance(g, list) or not g for g in groups):
            raise CatalogError(name, entry, "test.any", groups, "must list two or more groups of tests, e.g. [[{ kind = … }], [{ kind = … }]]")
        args["alternatives"] = tuple(tuple(_read_test(name, entry, sub) for sub in g) for g in groups)
        args["alt_checks"] = _merged(args["alternatives"])
    if "forms" in raw or "label" in raw:
        forms = raw.get("forms")
        if kind != "any" or not isinstance(forms, list) or len(forms) != len(args["alternatives"]) or any(
                not isinstance(f, str) or not f for f in forms):
            raise CatalogError(name, entry, "test.forms", forms,
                               "must name each group of a test of kind any, in order (with label, a text, optional)")
        if not isinstance(raw.get("label", ""), str):
            raise CatalogError(name, entry, "test.label", raw["label"], "must be a text")
        args["names"] = tuple(forms)
        args["label"] = raw.get("label", "")
    if kind == "hour_relation" and "places" not in args:
        raise CatalogError(name, entry, "test.places", None, "is needed by a test of kind hour_relation")
    if kind == "power" and (not args.get("names") or any(n not in _POWER_ITEMS for n in args["names"])):
        raise CatalogError(name, entry, "test.names", raw.get("names"), f"must list items among {', '.join(_POWER_ITEMS)}")
    if kind == "trans_kin" and (len(args.get("names", ())) != 1 or args["names"][0] not in ("鬼", "财")):
        raise CatalogError(name, entry, "test.names", raw.get("names"), "must name one kin: 鬼 or 财")
    if kind == "upper_stage" and ("stage" not in args or any(n not in ("zhuang", "wuxing") for n in args.get("names", ()))
                                  or len(args.get("names", ())) > 1):
        raise CatalogError(name, entry, "test.names" if "stage" in args else "test.stage", raw.get("names", raw.get("stage")),
                           "must give a stage, and at most one reading: zhuang or wuxing")
    if kind == "item_stem" and (not args.get("names") or any(n not in _POWER_ITEMS or n == "stem" for n in args["names"])):
        raise CatalogError(name, entry, "test.names", raw.get("names"), f"must list items among {', '.join(_POWER_ITEMS[1:])}")
    if kind == "upper_month_spirit" and (not args.get("names") or any(n not in _MONTH_START for n in args["names"])):
        raise CatalogError(name, entry, "test.names", raw.get("names"), f"must list month spirits among {', '.join(_MONTH_START)}")
    if kind in ("trans_relation", "items_relation") and (not args.get("names") or any(n not in _POWER_ITEMS for n in args["names"])
                                                        or (kind == "items_relation" and len(args["names"]) != 2)):
        raise CatalogError(name, entry, "test.names", raw.get("names"), f"must list items among {', '.join(_POWER_ITEMS)}"
                           + (" (two)" if kind == "items_relation" else ""))
    if kind == "initial_season_spirit" and (not args.get("names") or any(n not in _SEASON_SPIRIT for n in args["names"])):
        raise CatalogError(name, entry, "test.names", raw.get("names"), f"must list season spirits among {', '.join(_SEASON_SPIRIT)}")
    if kind == "year_upper" and (not args.get("names") or any(n not in _YEAR_SPIRIT for n in args["names"])
                                 or len(args["names"]) != len(args.get("places", ()))):
        raise CatalogError(name, entry, "test.names", raw.get("names"),
                           f"must name a year spirit ({', '.join(_YEAR_SPIRIT)}) for each place")
    if kind == "initial_tomb" and any(p not in ("stem", "branch") for p in args.get("places", ())):
        raise CatalogError(name, entry, "test.places", raw.get("places"), "must be stem and/or branch")
    if kind == "two_nobles" and (len(args.get("names", ())) != 1 or args["names"][0] not in ("加", "差迭", "受克", "空", "帘幕", "遍")):
        raise CatalogError(name, entry, "test.names", raw.get("names"), "must name one form: 加 差迭 受克 空 帘幕 遍")
    if kind == "two_nobles" and args["names"][0] == "帘幕" and "places" not in args:
        raise CatalogError(name, entry, "test.places", None, "is needed by the form 帘幕 (where the other 贵人 stands)")
    items_allowed: tuple[str, ...] = ("initial", "middle", "final") + (("gan_shang", "zhi_shang") if kind == "item_void" else ())
    if kind in ("item_void", "trans_fallen") and (not args.get("names") or any(n not in items_allowed for n in args["names"])):
        raise CatalogError(name, entry, "test.names", raw.get("names"),
                           "must list items among initial, middle, final" + ("" if kind == "trans_fallen" else ", gan_shang, zhi_shang"))
    if kind == "day_form" and (len(args.get("names", ())) != 1 or args["names"][0] not in _DAY_FORMS):
        raise CatalogError(name, entry, "test.names", raw.get("names"), f"must name one form: {' '.join(_DAY_FORMS)}")
    if kind == "couple" and (len(args.get("names", ())) != 1 or args["names"][0] not in _COUPLE_FORMS):
        raise CatalogError(name, entry, "test.names", raw.get("names"), f"must name one form: {' '.join(_COUPLE_FORMS)}")
    if kind == "frame_upper" and (len(args.get("names", ())) != 1 or args["names"][0] not in ("合", "杀")):
        raise CatalogError(name, entry, "test.names", raw.get("names"), "must name 合 or 杀")
    if kind == "uppers_harm" and (not args.get("names") or any(n not in ("各", "上", "交") for n in args["names"])):
        raise CatalogError(name, entry, "test.names", raw.get("names"), "must list forms among 各 上 交")
    if kind == "initial_month_spirit" and (not args.get("names") or any(n not in _MONTH_START for n in args["names"])):
        raise CatalogError(name, entry, "test.names", raw.get("names"), f"must list month spirits among {', '.join(_MONTH_START)}")
    if kind == "initial_he" and (len(args.get("names", ())) != 1 or args["names"][0] not in ("六合", "三合")):
        raise CatalogError(name, entry, "test.names", raw.get("names"), "must name 六合 or 三合")
    if kind == "uppers_he" and (not args.get("names") or any(n not in ("上", "会", "各", "交") for n in args["names"])):
        raise CatalogError(name, entry, "test.names", raw.get("names"), "must list forms among 上 会 各 交")
    if kind == "initial_xing" and args.get("names", ("害",)) != ("害",):
        raise CatalogError(name, entry, "test.names", raw.get("names"), "must be [\"害\"] (六害) or left out (三刑)")
    if kind == "upper_generals" and any(p not in ("stem", "branch") for p in args.get("places", ())):
        raise CatalogError(name, entry, "test.places", raw.get("places"), "must be stem and/or branch")
    if kind == "visit" and len(args.get("places", ())) != 2:
        raise CatalogError(name, entry, "test.places", raw.get("places"), "must name two places (the visitor, then the host)")
    needs = {"transmissions": "sequences", "transmissions_in": "branches", "initial_in": "branches",
             "frame": "phase", "initial_over": "places", "initial_pair": "pairs", "place_pair": "places",
             "spirit_initial": "spirit", "day_branch_in": "branches", "over_place": "places", "flank": "places",
             "initial_general": "general", "final_over": "places", "chain": "relation", "initial_stage": "stage",
             "final_stage": "stage", "uppers": "relation", "over_general": "general", "ghost_general": "general",
             "lesson_ghost": "lessons", "trans_stems": "stem_sets", "day_stem_in": "stems",
             "trans_hidden_stem": "stems", "general_on_stem": "general", "noble_over": "branches", "method": "names",
             "lessons_overcome": "count", "visit": "places", "initial_of_branch": "pairs", "initial_clash": "places",
             "final_general": "general", "initial_of_xun": "pairs", "cross_kind": "names",
             "spirit_on_initial": "spirit", "power": "powers", "initial_generals": "generals",
             "trans_general": "general", "trans_has": "branches", "initial_stem": "relation",
             "initial_under": "relation", "initial_horse": "places", "initial_place": "places",
             "initial_over_in": "branches", "initial_month_spirit": "names", "places_in_lessons": "places",
             "hour_relation": "relation", "any": "alternatives", "upper_stage": "places", "item_stem": "relation",
             "upper_month_spirit": "places", "trans_relation": "relation", "items_relation": "relation",
             "lesson_uppers_in": "branches", "uppers_pair": "pairs", "initial_tomb": "places",
             "initial_season_spirit": "names", "general_over": "places", "year_upper": "places",
             "pair_general": "general", "sun_general": "general", "ghost_general_over": "general",
             "item_void": "names", "trans_fallen": "names", "initial_xing": "places", "harm_initial": "places",
             "day_power": "powers", "under_power": "powers", "upper_general_clash": "generals",
             "final_generals": "generals", "place_upper_initial": "places", "upper_generals": "generals",
             "lu_ma_over": "places", "initial_he": "names", "uppers_he": "names"}
    if kind == "cross_kind" and (len(args.get("names", ())) != 1 or args["names"][0] not in _CROSS_KINDS):
        raise CatalogError(name, entry, "test.names", raw.get("names"), f"must name one kind of 交车: {' '.join(_CROSS_KINDS)}")
    if kind in needs and needs[kind] not in args:
        raise CatalogError(name, entry, f"test.{needs[kind]}", None, f"is needed by a test of kind {kind}")
    if kind in ("place_upper_initial", "upper_generals") and ("relation" if kind == "place_upper_initial" else "places") not in args:
        key = "relation" if kind == "place_upper_initial" else "places"
        raise CatalogError(name, entry, f"test.{key}", None, f"is needed by a test of kind {kind}")
    if kind == "pair_general" and "pairs" not in args and "by_stem" not in args:
        raise CatalogError(name, entry, "test.pairs", None, "is needed (or by_stem) by a test of kind pair_general")
    if kind == "heaven_pair" and "pairs" not in args and "by_stem" not in args:
        raise CatalogError(name, entry, "test.pairs", None, "is needed (or by_stem) by a test of kind heaven_pair")
    if kind == "ghost_general_over" and "places" not in args:
        raise CatalogError(name, entry, "test.places", None, "is needed by a test of kind ghost_general_over")
    if kind in ("item_stem", "trans_relation", "items_relation", "power", "item_void", "trans_fallen"):
        args["items"] = tuple(_PH_INDEX[n] for n in args["names"])
    if "branches" in args:
        args["branch_set"] = frozenset(args["branches"])
    if "by_stem" in args:
        args["per_stem"] = tuple(args.get("pairs", ()) + tuple(p for stems, ps in args["by_stem"] if s in stems for p in ps)
                                 for s in range(10))
    if "pairs" in args or "by_stem" in args:
        per = args.get("per_stem") or tuple(args["pairs"] for _ in range(10))
        args["pair_sets"] = tuple(frozenset(ps) for ps in per)
        args["turn_sets"] = tuple(frozenset((h - e) % 12 for h, e in ps) for ps in per)
    return Test(**args)


def _source(where: Where, f: str, raw: Any) -> TableSource:
    source: TableSource = table_source(liuren_tables().books)(where, f, raw)
    return source


def _why(where: Where, f: str, value: Any) -> str:
    """A sentence template naming only the fields of :data:`_WHY_FIELDS`."""
    value = _NONEMPTY(where, f, value)
    fields = template_fields(value)
    if fields is None:
        raise where.fail(f, value, "is not a valid sentence template (a { or } without its pair)")
    if not fields <= _WHY_FIELDS:
        bad = sorted(fields - _WHY_FIELDS)[0]
        raise where.fail(f, value, f"names {{{bad}}}; the fields are {', '.join(sorted(_WHY_FIELDS))}")
    return str(value)


def _tests(problem: str) -> Kind:
    """A non-empty list of ``[[….test]]`` tables, each read by :func:`_read_test`."""
    def read(where: Where, f: str, raw: Any) -> tuple[Test, ...]:
        if not isinstance(raw, list) or not raw:
            raise where.fail(f, raw, problem)
        return tuple(_read_test(where.file, where.entry, t) for t in raw)
    return read


def _pattern_id(where: Where, f: str, pid: Any) -> str:
    if not isinstance(pid, str) or not pid.isidentifier():
        raise where.fail(f, pid, "must be a new identifier")
    return pid


def _as_is(where: Where, f: str, value: Any) -> Any:
    return value


_NONEMPTY: Final = text("must be a non-empty text")
_PATTERN: Final = Table({
    "id": Field(_pattern_id), "name": Field(_NONEMPTY), "name_trad": Field(_NONEMPTY), "name_en": Field(_NONEMPTY),
    "why": Field(_why), "kind": Field(one_of(KINDS, f"must be one of {' '.join(KINDS)}")),
    "test": Field(_tests("must be a list of [[pattern.test]] tables")),
    "note": Field(string_("must be a text"), required=False, default=""), "source": Field(_source),
}, unknown="is not a field of a pattern", missing=None)


def load_patterns(path: Path | str | None = None) -> tuple[Pattern, ...]:
    """Read and validate the patterns file; a fault raises one :class:`CatalogError` naming file,
    entry, field and value."""
    return tomlcache.fresh_on_failure(lambda: _load(path))


def _load(path: Path | str | None) -> tuple[Pattern, ...]:
    p = Path(path) if path is not None else Path(str(resources.files("shensha_plates.resources.liuren"))) / "patterns.toml"
    name = str(p)
    data = read_toml(name, p)
    out: list[Pattern] = []
    seen: set[str] = set()
    for where, item in entries(Where(name), data.get("pattern"), "pattern",
                               lambda i, item: f"pattern {item.get('id', i + 1) if isinstance(item, dict) else i + 1}",
                               nonempty=True, not_array="must be a list of [[pattern]] entries",
                               table_field="(entry)", not_table="must be a table"):
        v = _PATTERN.read(where, item)
        if v["id"] in seen:
            raise where.fail("id", v["id"], "must be a new identifier")
        seen.add(v["id"])
        req = _requirement(v["test"], loose=True)
        needs = ("plate" if req & (_NEED_PLATE | _NEED_MONTH) else "nian_ming" if req & _NEED_QUERENT
                 else "day" if req & _NEED_DAY else "")
        forms = tuple(t for t in v["test"] if t.kind == "any" and t.names)
        if bool(forms) != ("forms" in (template_fields(v["why"]) or set())):
            raise where.fail("why", v["why"], "must name {forms} exactly when a test of kind any names its forms")
        out.append(Pattern(v["id"], v["name"], v["name_trad"], v["kind"], v["source"], v["test"], v["why"], v["note"],
                           needs, v["name_en"], forms))
    return tuple(out)


@lru_cache(maxsize=1)
def patterns() -> tuple[Pattern, ...]:
    """The packaged patterns, loaded once."""
    return load_patterns()


# -- detecting ---------------------------------------------------------------------------------------
#
# A lesson is not tried against every rule. When the rules are first used, each test of each rule is run
# on probes: lessons of which only a few facts are fixed — a key: the day stem, the day branch, the day,
# the turn of the heaven plate, the 初传, the 末传, the three transmissions, the 贵人's branch with the
# generals' direction, or two of them — and whose every other read raises. A test that runs on every
# probe of a key without reading more than the key fixes is a function of that key, and its results over
# the key's values become a table (the smallest such key is taken). The tables of all the rules are
# folded into a few bitmaps (over the day and the turn, the day and the 初传, the transmissions …): a
# lesson looks up its bitmaps, ANDs them, and runs only the rules left — of each, only the tests no key
# fixed. Nothing is declared per kind of test, so a rule written later in the same vocabulary is indexed
# the same way; a kind of test that reads a fact the probes do not know is simply run on every lesson.

_Checks = tuple[tuple[Callable[[Test, _Lesson], bool], Test], ...]
_Hit = Callable[[Any, str, Mapping[str, str]], Any]
_Rule = tuple[Any, tuple[Test, ...], _Hit, int]  # rule, its tests, its hit, its output (0 patterns, 1 lines)
_Entry = tuple[Any, _Checks, _Hit, int]  # the same with the tests no key fixed, as functions
_PlainEntry = tuple[Any, Callable[[Test, _Lesson], bool], Test, _Checks, _Hit, int]  # first test, the others


class _Unfixed(Exception):
    """A probe read what its key does not fix."""


class _Poison:
    """A fact a probe does not know, where a tuple needs a place filled: any use of it raises."""

    __slots__ = ()

    def __index__(self) -> int:
        raise _Unfixed

    def __eq__(self, other: object) -> bool:
        raise _Unfixed

    def __hash__(self) -> int:
        raise _Unfixed

    def __bool__(self) -> bool:
        raise _Unfixed


_POISON: Final = _Poison()


class _Partial:
    """A probe's transmissions when its key fixes only some of them: reading another raises."""

    __slots__ = ("known",)

    def __init__(self, known: dict[int, int]) -> None:
        self.known = known

    def __getitem__(self, i: object) -> int:
        if isinstance(i, int) and i in self.known:
            return self.known[i]
        raise _Unfixed

    def __iter__(self) -> Any:
        raise _Unfixed

    def __len__(self) -> int:
        raise _Unfixed

    def __contains__(self, item: object) -> bool:
        raise _Unfixed

    def __eq__(self, other: object) -> bool:
        raise _Unfixed

    def __hash__(self) -> int:
        raise _Unfixed


class _ProbeKe:
    """A probe's lesson (``x.ke``): the day, the plate, and the four lessons when the day and the turn are known."""

    __slots__ = ("day", "plate", "turn", "_lessons")
    day: int
    plate: _ProbePlate
    turn: int
    _lessons: tuple[Any, ...]

    @property
    def lessons(self) -> tuple[Any, ...]:
        try:
            return self._lessons
        except AttributeError:
            from shensha_plates.core.liuren.method import _lessons
            self._lessons = _lessons(self.day, self.turn)  # raises unless both are known
            return self._lessons


class _ProbePlate:
    __slots__ = ("day", "void", "hidden", "noble", "forward", "general_of", "generals")
    day: int
    void: tuple[int, int]
    hidden: tuple[int | None, ...]
    noble: int
    forward: bool
    general_of: tuple[int, ...]
    generals: tuple[int, ...]


# the facts a key may fix, and how many values each has ("gen": 贵人's heaven branch × 2 + 1 when the
# generals run forward)
_DIM_SIZE: Final = {"stem": 10, "branch": 12, "day": 60, "turn": 12, "initial": 12, "final": 12, "trans": 1728,
                    "gen": 24}
# the keys tried, the smallest first
_KEYS: Final = (("stem",), ("branch",), ("turn",), ("initial",), ("final",), ("gen",), ("day",), ("stem", "initial"),
                ("stem", "final"), ("stem", "turn"), ("branch", "turn"), ("turn", "initial"), ("gen", "initial"),
                ("gen", "final"), ("gen", "turn"), ("day", "turn"), ("day", "initial"), ("day", "final"), ("trans",))
# the bitmaps a lesson looks up; each key is folded into the first whose facts give it (see _Index.candidates)
_LOOKUPS: Final = (("day", "turn"), ("day", "initial"), ("turn", "initial"), ("trans",), ("day", "final"),
                   ("gen", "initial"), ("gen", "final"), ("gen", "turn"))
_UNFIXED: Final = (_Unfixed, AttributeError, TypeError)


def _implied(dims: Sequence[str]) -> set[str]:
    """The facts that facts give: the day its stem and branch, the transmissions the 初传 and the 末传."""
    out = set(dims)
    if "day" in out:
        out |= {"stem", "branch"}
    if "trans" in out:
        out |= {"initial", "final"}
    return out


def _size(key: Sequence[str]) -> int:
    n = 1
    for dim in key:
        n *= _DIM_SIZE[dim]
    return n


def _lookup_facts(lookup: Sequence[str]) -> dict[str, list[int]]:
    """For each value of a lookup (in its order), the facts it gives: its own and those they imply."""
    total = stride = _size(lookup)
    out = {}
    for dim in lookup:
        size = _DIM_SIZE[dim]
        stride //= size
        out[dim] = [i // stride % size for i in range(total)]
    if "day" in out:
        out["stem"], out["branch"] = [d % 10 for d in out["day"]], [d % 12 for d in out["day"]]
    if "trans" in out:
        out["initial"], out["final"] = [t // 144 for t in out["trans"]], [t % 12 for t in out["trans"]]
    return out


def _positions(key: Sequence[str], facts: Mapping[str, list[int]]) -> list[int]:
    """For each value of a lookup, the place in a key's table of the key's value it gives."""
    pos = facts[key[0]]
    for dim in key[1:]:
        size = _DIM_SIZE[dim]
        pos = [p * size + v for p, v in zip(pos, facts[dim], strict=True)]
    return list(pos)


def _probe(facts: Mapping[str, int]) -> _Lesson:
    """A lesson of which only the facts are known: reading anything else raises."""
    x = _Lesson.__new__(_Lesson)
    x._overcome = x._uppers = x._tph = x._nobles = x._words = x._cross = None
    x._parity = x._frame = -1
    day, turn, gen, trans = facts.get("day"), facts.get("turn"), facts.get("gen"), facts.get("trans")
    stem: int | None
    branch: int | None
    a: int | None
    c: int | None
    if day is not None:
        stem, branch = day % 10, day % 12
    else:
        stem, branch = facts.get("stem"), facts.get("branch")
    if day is not None or gen is not None:
        ke, hp = _ProbeKe(), _ProbePlate()
        if day is not None:
            x.day = ke.day = hp.day = day
            hp.void, hp.hidden = _VOID[day // 10], _HIDDEN[day // 10]
        if gen is not None:
            hp.noble, hp.forward = gen // 2, gen % 2 == 1
            hp.general_of, rows = _general_rows(hp.noble, hp.forward)
            if turn is not None:
                hp.generals = rows[turn]
        if turn is not None:
            ke.turn = turn
        ke.plate = hp
        x.ke = ke  # type: ignore[assignment]
    if stem is not None:
        x.stem, x.lodge = stem, _LODGE[stem]
    if branch is not None:
        x.branch = branch
    if turn is not None:
        x.turn = turn
    if trans is not None:
        a, b, c = x.trans = (trans // 144, trans // 12 % 12, trans % 12)
    else:
        a, b, c = facts.get("initial"), None, facts.get("final")
        if a is not None or c is not None:
            x.trans = _Partial({i: v for i, v in ((0, a), (2, c)) if v is not None})  # type: ignore[assignment]
    # the phases (_Lesson.ph) of what is known, the rest poisoned
    bp, p = BRANCH_PHASE_INDEX, _POISON
    x._ph = (STEM_PHASE_INDEX[stem] if stem is not None else p, bp[branch] if branch is not None else p,  # type: ignore[assignment]
             bp[a] if a is not None else p, bp[b] if b is not None else p, bp[c] if c is not None else p,
             bp[(x.lodge + turn) % 12] if stem is not None and turn is not None else p,
             bp[(branch + turn) % 12] if branch is not None and turn is not None else p)
    return x


class _Probes:
    """The probes of each key, made when first asked for, and each test's key and table (once per test)."""

    def __init__(self) -> None:
        self.probes: dict[tuple[str, ...], list[_Lesson]] = {}
        self.tables: dict[Test, tuple[tuple[str, ...], tuple[int, ...]] | None] = {}

    def of(self, key: tuple[str, ...]) -> Iterator[_Lesson]:
        """The key's probes in its order, each made when first reached (most tests fail on the first)."""
        made = self.probes.setdefault(key, [])
        yield from made
        total = _size(key)
        strides = []
        stride = total
        for dim in key:
            stride //= _DIM_SIZE[dim]
            strides.append((dim, stride, _DIM_SIZE[dim]))
        while len(made) < total:
            i = len(made)
            made.append(_probe({dim: i // stride % size for dim, stride, size in strides}))
            yield made[-1]

    def keyed(self, t: Test) -> tuple[tuple[str, ...], tuple[int, ...]] | None:
        """The smallest key the test is a function of, and the values of the key (places in its table) at
        which it holds; None when no key fixes what it reads."""
        if t not in self.tables:
            fn, found = TESTS[t.kind], None
            for key in _KEYS:
                made = self.probes.get(key)
                probes = made if made is not None and len(made) == _size(key) else self.of(key)
                try:
                    found = key, tuple([i for i, p in enumerate(probes) if fn(t, p)])
                    break
                except _UNFIXED:  # it read what the key does not fix
                    continue
            self.tables[t] = found
        return self.tables[t]


class _Index:
    """The rules, the bitmaps that leave out those whose keyed tests fail, and those a reading can form by
    what it has: bit ``j`` stands for ``entries[j]`` (a rule, or one of its forms: see :func:`_forms`)."""

    __slots__ = ("entries", "full", "rows", "outs", "allowed", "nbytes", "by_byte")

    def __init__(self, rules: Sequence[_Rule], probes: _Probes) -> None:
        entries: list[_Entry] = []
        reqs: list[int] = []  # what each entry needs of a reading (a form: what its own tests need)
        keyed: dict[tuple[str, ...], dict[int, frozenset[int]]] = {}
        for item, tests, hit, out in rules:
            forms = _forms(tests, probes)
            for form in forms:
                j, rest = len(entries), []
                for t in form:
                    k = probes.keyed(t)
                    if k is None:
                        rest.append((TESTS[t.kind], t))
                    else:  # two tests of a rule on one key: it holds where both do
                        on_key = keyed.setdefault(k[0], {})
                        on_key[1 << j] = on_key[1 << j] & frozenset(k[1]) if 1 << j in on_key else frozenset(k[1])
                entries.append((item, tuple(rest), hit, out))
                reqs.append(_requirement(form) if len(forms) > 1 else _requirement(tests))
        self.entries = tuple(entries)
        self.full = (1 << len(entries)) - 1
        # the rules a byte of a bitmap stands for, for each of its values (walking the bitmap a byte at a
        # time is some three times quicker than a bit at a time)
        self.nbytes = (len(entries) + 7) // 8
        padded = entries + [entries[-1]] * (8 * self.nbytes - len(entries))  # (the bits past the last rule are never set)
        by_byte = []
        for first in range(0, 8 * self.nbytes, 8):
            table: list[tuple[_Entry, ...]] = [()]
            for v in range(1, 256):  # the lowest bit's rule, then those of the byte without it (made already)
                table.append((padded[first + (v & -v).bit_length() - 1], *table[v & (v - 1)]))
            by_byte.append(tuple(table))
        self.by_byte = tuple(by_byte)
        rows: list[list[int] | None] = [None] * len(_LOOKUPS)
        folded: set[tuple[str, ...]] = set()
        for n, lookup in enumerate(_LOOKUPS):
            have = _implied(lookup)
            mine = [key for key in keyed if key not in folded and set(key) <= have]
            if not mine:
                continue
            folded.update(mine)
            facts = _lookup_facts(lookup)
            row = [0] * len(facts[lookup[0]])
            for key in mine:
                everyone = 0
                for bit in keyed[key]:
                    everyone |= bit
                fails = [everyone] * _size(key)  # for each value of the key, the rules it rules out
                for bit, holds in keyed[key].items():
                    for v in holds:
                        fails[v] &= ~bit
                row = [r | fails[i] for r, i in zip(row, _positions(key, facts), strict=True)]
            rows[n] = [self.full & ~m for m in row]
        self.rows = tuple(rows)
        patterns = sum(1 << j for j, e in enumerate(entries) if e[3] == 0)
        self.outs = (0, patterns, self.full & ~patterns, self.full)  # by outputs: none, patterns, lines, both
        # for each mask of what a reading has (the plates, the month, the querent), the rules it can form
        self.allowed = tuple(sum(1 << j for j, r in enumerate(reqs) if not r & ~have) for have in range(_HAVES))

    def candidates(self, x: _Lesson) -> int:
        """The rules (a bitmap) whose keyed tests hold for the lesson."""
        m = self.full
        dt, di, ti, tr, df, gi, gf, gt = self.rows
        a, b, c = x.trans
        day, turn = x.day, x.turn
        if dt is not None:
            m &= dt[day * 12 + turn]
        if di is not None:
            m &= di[day * 12 + a]
        if ti is not None:
            m &= ti[turn * 12 + a]
        if tr is not None:
            m &= tr[a * 144 + b * 12 + c]
        if df is not None:
            m &= df[day * 12 + c]
        if gi is not None or gf is not None or gt is not None:
            hp = x.ke.plate
            g = hp.noble * 24 + (12 if hp.forward else 0)
            if gi is not None:
                m &= gi[g + a]
            if gf is not None:
                m &= gf[g + c]
            if gt is not None:
                m &= gt[g + turn]
        return m


def _forms(tests: Sequence[Test], probes: _Probes) -> list[tuple[Test, ...]]:
    """A rule's tests; or, when one of them is an ``any`` that no key fixes whole, the rule's other tests with
    each of its groups in turn — the rule forms when one of these forms does, and each is indexed on its own
    (亨通's 递生 is tried on every lesson, its 俱生 and 互生 only where the uppers are right)."""
    for i, t in enumerate(tests):
        if t.kind == "any" and probes.keyed(t) is None:
            others = tuple(tests[:i]) + tuple(tests[i + 1:])
            return [others + group for group in t.alternatives]
    return [tuple(tests)]


def _index_of(rules: Sequence[_Rule]) -> _Index:
    return _Index(rules, _Probes())  # the probes (some 3 MB) are let go once the index is made


def _rules(table: Sequence[Pattern], lines: Sequence[BifaLine]) -> list[_Rule]:
    """The patterns then the 毕法赋 lines (those with tests), each with its tests, its hit and its output
    (0 the patterns, 1 the lines)."""
    return ([(p, p.tests, _PATTERN_HIT, 0) for p in table]
            + [(b, b.tests, _BIFA_HIT, 1) for b in lines if b.tests])


def _quick(cls: type) -> _Hit:
    """A hit made by setting its three slots directly (its dataclass's ``__init__`` goes through
    ``object.__setattr__`` for each, and a default factory keeps core.frozen.quick_init off it): the same
    frozen instance, in about half the time — a chart makes some ten."""
    new = object.__new__
    set_a, set_b, set_c = (getattr(cls, f.name).__set__ for f in dc_fields(cls))

    def make(item: Any, why: str, words: Mapping[str, str]) -> Any:
        hit: Any = new(cls)
        set_a(hit, item)
        set_b(hit, why)
        set_c(hit, words)
        return hit
    return make


@lru_cache(maxsize=1)
def _default_index() -> _Index:
    """The packaged patterns and 毕法赋 lines, indexed (on first use)."""
    return _index_of(_rules(patterns(), bifa_lines()))


class _Plain:
    """The rules in the data's order, each with all its tests, for each mask of what a reading has (the
    plates, the month, the querent): what a reading runs until the index is made."""

    __slots__ = ("flat", "reqs", "lists")

    def __init__(self, rules: Sequence[_Rule]) -> None:
        self.reqs = [_requirement(tests) for _, tests, _, _ in rules]
        # each rule as its first test and the rest (most rules are one test: no inner loop)
        self.flat = [(item, TESTS[tests[0].kind], tests[0], tuple((TESTS[t.kind], t) for t in tests[1:]), hit, out)
                     for item, tests, hit, out in rules]
        self.lists: dict[tuple[int, int], tuple[_PlainEntry, ...]] = {}

    def of(self, have: int, outs: int) -> tuple[_PlainEntry, ...]:
        """The rules a reading that has ``have`` can form, of the outputs ``outs`` (1 patterns, 2 lines, 3
        both): listed when first asked for."""
        got = self.lists.get((have, outs))
        if got is None:
            got = self.lists[have, outs] = tuple(e for e, r in zip(self.flat, self.reqs, strict=True)
                                                 if not r & ~have and outs >> e[5] & 1)
        return got


@lru_cache(maxsize=1)
def _default_plain() -> _Plain:
    return _Plain(_rules(patterns(), bifa_lines()))


# Making the index costs about as much as detecting 650 lessons without it (some 55 ms): a process that
# reads a few charts (``ke`` on the command line, the window's first chart) does not make it; one that
# reads many (a search over dates, the quiz, the benchmark) makes it after this many readings.
_INDEX_AFTER = 256
_plain_runs = [0]


def _has(x: _Lesson) -> int:
    nm = x.nian_ming
    return ((_NEED_PLATE if x.plate is not None else 0) | (_NEED_MONTH if x.month is not None else 0)
            | (0 if nm is None else _NEED_QUERENT | (_NEED_PARTNER if nm.couple() is not None else 0))
            | (_NEED_DAY if x.dayf is not None else 0))


def _run(x: _Lesson, outs: int) -> tuple[list[Any], list[Any]]:
    """The packaged patterns (``outs`` 1), 毕法赋 lines (2) or both (3) the lesson forms: without the index
    for the process's first readings, with it after."""
    if _plain_runs[0] >= _INDEX_AFTER:
        ix = _default_index()
        return _detect(x, ix, ix.allowed[_has(x)] & ix.outs[outs])
    _plain_runs[0] += 1
    return _detect_plain(x, _default_plain().of(_has(x), outs))


def _detect(x: _Lesson, ix: _Index, which: int) -> tuple[list[Any], list[Any]]:
    """The patterns and the lines (of those in ``which``, a bitmap) the lesson forms, each in the data's order."""
    found: tuple[list[Any], list[Any]] = ([], [])
    last = None  # the rule last found: its other forms (see _forms) come next, and are not tried
    for rules, byte in zip(ix.by_byte, (ix.candidates(x) & which).to_bytes(ix.nbytes, "little"), strict=True):
        if byte:
            for item, rest, hit, out in rules[byte]:
                if item is last:
                    continue
                for fn, t in rest:
                    if not fn(t, x):
                        break
                else:
                    words = _words(x, item)
                    found[out].append(hit(item, item.why.format_map(words), words))
                    last = item
    return found


def _detect_plain(x: _Lesson, entries: Sequence[_PlainEntry]) -> tuple[list[Any], list[Any]]:
    """The same, trying every rule of ``entries``."""
    found: tuple[list[Any], list[Any]] = ([], [])
    for item, fn, t, rest, hit, out in entries:
        if fn(t, x):
            for fn2, t2 in rest:
                if not fn2(t2, x):
                    break
            else:
                words = _words(x, item)
                found[out].append(hit(item, item.why.format_map(words), words))
    return found


def _words(x: _Lesson, item: Any) -> Mapping[str, str]:
    """The fields of a hit's why: the lesson's, and for a pattern of named forms those that hold (灾厄, 迍福 …)."""
    forms = getattr(item, "forms", None)
    if forms:
        return {**x.words(), "forms": _held_forms(forms, x)}
    return x.words()


def detect_patterns(ke: Ke, plate: Plate | None = None, nian_ming: NianMing | None = None,
                    table: Sequence[Pattern] | None = None, month: int | None = None,
                    day: DayFacts | None = None) -> tuple[PatternHit, ...]:
    """The patterns the lesson forms, in the data's order. ``plate``: the plates' spirits and their date
    (the 卦 that name a spirit, the 课体 that read the year or the month need it); ``nian_ming``: the
    querent's years (the tests that name them need it); ``month``: the month's branch, when there is no
    plate (the 课体 that read the season: 三阳 三阴 富贵 天狱 魄化 …); ``day``: the date's day (its solar term,
    lunar day and the moon's lodging: 天寇 二烦 天祸 read it; never guessed from a plate)."""
    x = _Lesson(ke, plate, nian_ming, month, day)
    if table is not None:
        return tuple(_detect_plain(x, _Plain(_rules(table, ())).of(_has(x), 1))[0])
    return tuple(_run(x, 1)[0])


# -- the 毕法赋 ---------------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class BifaLine:
    """One line of the 《毕法赋》: its number (1–100), its verse, its tests (none when it cannot be read
    from the lesson alone: ``reason`` says why) and how its why is said."""

    number: int
    verse: str
    source: TableSource
    tests: tuple[Test, ...]
    why: str
    reason: str = ""
    note: str = ""  # the readings not chosen, where the commentary gives several

    @property
    def detectable(self) -> bool:
        return bool(self.tests)


@dataclass(frozen=True, slots=True)
class BifaHit:
    line: BifaLine
    why: str
    words: Mapping[str, str] = dc_field(default_factory=dict, repr=False, compare=False)  # the why's fields

    @property
    def number(self) -> int:
        return self.line.number

    @property
    def verse(self) -> str:
        return self.line.verse


_PATTERN_HIT: Final = _quick(PatternHit)
_BIFA_HIT: Final = _quick(BifaHit)
_LINE: Final = Table({
    "number": Field(_as_is, required=False), "verse": Field(text("must be the line's text")),
    "source": Field(_source), "detectable": Field(_as_is, required=False, default=True),
    "reason": Field(_as_is, required=False), "test": Field(_as_is, required=False),
    "why": Field(_as_is, required=False), "note": Field(string_("must be a text"), required=False, default=""),
}, unknown="is not a field of a line", missing=None)
_LINE_TESTS: Final = _tests("must be a list of [[line.test]] (or detectable = false)")


def load_bifa(path: Path | str | None = None) -> tuple[BifaLine, ...]:
    """Read and validate the 毕法赋 file: the hundred lines, in order, each detectable or saying why not."""
    return tomlcache.fresh_on_failure(lambda: _load_bifa(path))


def _load_bifa(path: Path | str | None) -> tuple[BifaLine, ...]:
    p = Path(path) if path is not None else Path(str(resources.files("shensha_plates.resources.liuren"))) / "bifa.toml"
    name = str(p)
    data = read_toml(name, p)
    raw = data.get("line")
    if not isinstance(raw, list) or len(raw) != 100:
        raise Where(name).fail("line", None if not isinstance(raw, list) else len(raw),
                               "must be the hundred [[line]] entries")
    out: list[BifaLine] = []
    for where, item in entries(Where(name), raw, "line", lambda i, item: f"line {i + 1}", table_field="(entry)",
                               not_table="must be a table"):
        n = len(out) + 1
        if item.get("number") != n:
            raise where.fail("number", item.get("number"), f"must be {n} (the lines in order)")
        v = _LINE.read(where, item)
        if v["detectable"] is False:
            reason = v["reason"]
            if not isinstance(reason, str) or not reason.strip():
                raise where.fail("reason", reason, "must say why the line is not detected")
            if "test" in item:
                raise where.fail("test", item["test"], "is not read when detectable = false")
            out.append(BifaLine(n, v["verse"], v["source"], (), "", reason))
            continue
        tests = _LINE_TESTS(where, "test", v["test"])
        why = _why(where, "why", v["why"])
        if "forms" in (template_fields(why) or set()):
            raise where.fail("why", why, "cannot name {forms} (a line has no named forms)")
        out.append(BifaLine(n, v["verse"], v["source"], tests, why, note=v["note"]))
    return tuple(out)


@lru_cache(maxsize=1)
def bifa_lines() -> tuple[BifaLine, ...]:
    return load_bifa()


def detect_bifa(ke: Ke, plate: Plate | None = None, nian_ming: NianMing | None = None,
                month: int | None = None, day: DayFacts | None = None) -> tuple[BifaHit, ...]:
    """The lines of the 毕法赋 the lesson shows (of those that can be read from it), in the book's order."""
    x = _Lesson(ke, plate, nian_ming, month, day)
    return tuple(_run(x, 2)[1])


def read_lesson(ke: Ke, plate: Plate | None = None, nian_ming: NianMing | None = None,
                month: int | None = None, day: DayFacts | None = None) -> tuple[tuple[PatternHit, ...], tuple[BifaHit, ...]]:
    """The patterns and the 毕法赋 lines of one lesson together (what the tests read is worked out once).
    The month comes from the plates' date, or ``month`` (a branch) when there is no plate; without either,
    the rules that read the season are not tried (the month general does not fix the month); ``day``: see
    :func:`detect_patterns`."""
    x = _Lesson(ke, plate, nian_ming, month, day)
    found, lines = _run(x, 3)
    return tuple(found), tuple(lines)


def not_tried(plate: Plate | None = None, nian_ming: NianMing | None = None,
              month: int | None = None, day: DayFacts | None = None) -> tuple[tuple[str, ...], tuple[int, ...]]:
    """The patterns (names) and 毕法赋 lines (numbers) a reading cannot form because it lacks the date (the
    plates: the year, the month) or the querent — so that a reading without them says what it left out
    rather than guessing (``ke --day … --general …`` has no month: 三阳 三阴 富贵 天狱 …; without a partner
    繁昌 旺孕 解离 are not tried; without a date's day 天祸 天寇 二烦)."""
    have = ((_NEED_PLATE if plate is not None else 0) | (_NEED_MONTH if plate is not None or month is not None else 0)
            | (0 if nian_ming is None else _NEED_QUERENT | (_NEED_PARTNER if nian_ming.couple() is not None else 0))
            | (_NEED_DAY if day is not None else 0))
    return _not_tried(have)


@lru_cache(maxsize=32)
def _not_tried(have: int) -> tuple[tuple[str, ...], tuple[int, ...]]:
    names = tuple(p.name for p in patterns() if _requirement(p.tests, loose=True) & ~have)
    lines = tuple(b.number for b in bifa_lines() if b.tests and _requirement(b.tests, loose=True) & ~have)
    return names, lines
