"""The heaven plate (天盘), the twelve generals (天将), the hidden stems (遁干) and the voids (旬空).

月将加时: the month general's branch stands over the earth branch of the hour and the other eleven
follow, so the heaven branch over earth ``e`` is ``(e + turn) % 12`` with ``turn = general − hour``.
贵人 stands on a heaven branch chosen by the day stem and by day or night (table and boundary are
settings); the generals run forward when 贵人's heaven branch stands over 亥子丑寅卯辰, else backward.

Branch, stem and pillar indices follow :mod:`shensha_plates.core.cycle` (子 = 0, 甲 = 0, 甲子 = 0).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Final
from collections.abc import Iterable, Mapping

from shensha_plates.core.cycle import BRANCH_PHASE_INDEX, BRANCHES, STEM_PHASE_INDEX, STEMS, xun_head_branch, xun_of, xun_void
from shensha_plates.core.errors import InputError
from shensha_plates.core.frozen import quick_init
from shensha_plates.core.liuren.tables import Setting, liuren_tables

__all__ = ["KeOptions", "HeavenPlate", "heaven_plate", "noble_branch", "is_daytime", "hidden_stem",
           "DEFAULT_OPTIONS", "kin", "KIN"]

KIN: Final = ("兄弟", "子孙", "妻财", "官鬼", "父母")  # by (phase − day stem's phase) % 5 (core.cycle's phases)
# The colour a general is drawn in: the six auspicious generals (六吉将) in vermilion, the six
# inauspicious ones (六凶将) in ink blue, as the books class them (贵人 六合 青龙 太常 太阴 天后 /
# 螣蛇 朱雀 勾陈 天空 白虎 玄武). A display cue only (the window and the web page); no rule depends on it.
GENERAL_QUALITY: Final = ("good", "bad", "bad", "good", "bad", "good", "bad", "bad", "good", "bad", "good",
                          "good")


def kin(day_stem: int, branch: int) -> str:
    """The kin (六亲) of a branch to the day stem: 兄弟 子孙 妻财 官鬼 父母.

    >>> kin(7, 6)  # 午 to 辛: fire overcomes metal
    '官鬼'
    """
    return KIN[(BRANCH_PHASE_INDEX[branch] - STEM_PHASE_INDEX[day_stem]) % 5]


@lru_cache(maxsize=10)
def _kin_row(day_stem: int) -> tuple[str, ...]:
    """The kin of each of the twelve branches to a day stem."""
    return tuple(kin(day_stem, b) for b in range(12))


@dataclass(frozen=True, slots=True)
class KeOptions:
    """The disputed points chosen (setting id → choice id); absent settings take the default.

    >>> KeOptions.from_choices(["shehai=depth"]).get("shehai")
    'depth'
    """

    choices: tuple[tuple[str, str], ...] = ()

    @classmethod
    def from_choices(cls, choices: Mapping[str, str] | Iterable[str] = ()) -> KeOptions:
        """Validate choices given as a mapping or as ``ID=CHOICE`` strings; ``default`` keeps the
        default. Raises :class:`InputError` naming the unknown setting or choice."""
        settings = liuren_tables().settings
        pairs: dict[str, str] = {}
        items = choices.items() if isinstance(choices, Mapping) else (_split(c) for c in choices)
        for sid, cid in items:
            setting = settings.get(sid)
            if setting is None:
                raise InputError(f"unknown Liu Ren variant: {sid!r} (expected one of {', '.join(settings)})")
            valid = ["default"] + [c.id for c in setting.choices]
            if cid not in valid:
                raise InputError(f"unknown choice for {sid} ({setting.name}): {cid!r} "
                                 f"(expected one of {', '.join(valid)})")
            if cid != "default" and cid != setting.default:
                pairs[sid] = cid
            else:
                pairs.pop(sid, None)
        return cls(tuple(sorted(pairs.items())))

    def get(self, setting_id: str) -> str:
        for sid, cid in self.choices:
            if sid == setting_id:
                return cid
        return _settings()[setting_id].default

    def to_choices(self) -> tuple[str, ...]:
        return tuple(f"{sid}={cid}" for sid, cid in self.choices)


DEFAULT_OPTIONS: Final = KeOptions()


def _split(text: str) -> tuple[str, str]:
    sid, sep, cid = str(text).partition("=")
    if not sep or not sid.strip() or not cid.strip():
        raise InputError(f"invalid variant choice: {text!r} (expected ID=CHOICE, e.g. shehai=depth)")
    return sid.strip(), cid.strip()


def _settings() -> Mapping[str, Setting]:
    return liuren_tables().settings


@lru_cache(maxsize=16)
def _noble_table(choice: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
    for n in liuren_tables().nobles:
        if n.id == choice:
            return n.day, n.night
    raise KeyError(choice)


@lru_cache(maxsize=16)
def _day_hours(choice: str) -> frozenset[int]:
    for d in liuren_tables().daynights:
        if d.id == choice:
            return d.day_hours
    raise KeyError(choice)


def is_daytime(hour: int, options: KeOptions = DEFAULT_OPTIONS) -> bool:
    """Whether the hour branch takes the day 贵人 (default: 卯 … 申)."""
    return hour in _day_hours(options.get("daynight"))


def noble_branch(day_stem: int, hour: int, options: KeOptions = DEFAULT_OPTIONS) -> int:
    """The heaven branch 贵人 stands on.

    >>> BRANCHES[noble_branch(STEMS.index("辛"), BRANCHES.index("午"))]
    '午'
    """
    day, night = _noble_table(options.get("noble"))
    return (day if is_daytime(hour, options) else night)[day_stem]


def hidden_stem(day: int, branch: int) -> int | None:
    """The stem the day's xun hides on a branch (遁干): 甲 on the xun head's branch, 乙 on the
    next …; the two void branches have none."""
    k = (branch - xun_head_branch(xun_of(day))) % 12
    return k if k < 10 else None


@quick_init
@dataclass(frozen=True, slots=True)
class HeavenPlate:
    """The turned plate for one day, hour and month general.

    ``heaven[e]`` is the heaven branch over earth branch ``e``; ``generals[e]`` the general (0 = 贵人 …
    11 = 天后) over it; ``general_of[h]`` the general riding heaven branch ``h``.
    """

    day: int
    hour: int
    general: int          # the month general's branch (月将)
    turn: int             # heaven over 子 minus 子: (general − hour) % 12
    heaven: tuple[int, ...]
    generals: tuple[int, ...]
    general_of: tuple[int, ...]
    noble: int            # heaven branch of 贵人
    daytime: bool
    forward: bool
    void: tuple[int, int]  # (yang void 孤, yin void 寡)
    hidden: tuple[int | None, ...]  # branch → its hidden stem (遁干), None on the voids

    def over(self, earth: int) -> int:
        """The heaven branch over an earth branch."""
        return self.heaven[earth]

    def under(self, heaven_branch: int) -> int:
        """The earth branch a heaven branch stands over."""
        return (heaven_branch - self.turn) % 12

    @property
    def is_fuyin(self) -> bool:
        return self.turn == 0

    @property
    def is_fanyin(self) -> bool:
        return self.turn == 6


def heaven_plate(day: int, hour: int, general: int, options: KeOptions = DEFAULT_OPTIONS) -> HeavenPlate:
    """The heaven plate, generals, hidden stems and voids for a day pillar, an hour branch and a
    month general (all indices).

    >>> hp = heaven_plate(17, BRANCHES.index("午"), BRANCHES.index("寅"))  # 辛巳 日, 寅将午时
    >>> BRANCHES[hp.over(BRANCHES.index("戌"))], hp.forward
    ('午', False)
    """
    if not (isinstance(day, int) and isinstance(hour, int) and isinstance(general, int)
            and 0 <= day <= 59 and 0 <= hour <= 11 and 0 <= general <= 11):
        for name, value, hi in (("day", day, 59), ("hour", hour, 11), ("general", general, 11)):
            if not isinstance(value, int) or not 0 <= value <= hi:
                raise InputError(f"invalid {name}: {value!r} (expected 0–{hi})")
    return _heaven_plate(day, hour, general, *_plate_settings(options.choices))


@lru_cache(maxsize=64)
def _plate_settings(choices: tuple[tuple[str, str], ...]) -> tuple[str, str]:
    options = KeOptions(choices)  # keyed by the choices: a tuple hashes faster than the dataclass
    return options.get("noble"), options.get("daynight")


@lru_cache(maxsize=64)
def _plate_rules(noble_choice: str, daynight_choice: str) -> tuple[frozenset[int], tuple[int, ...], tuple[int, ...],
                                                                   frozenset[int]]:
    """The day hours, the 贵人 tables by day and by night, and the heaven branches from which the
    generals run forward."""
    return (_day_hours(daynight_choice), *_noble_table(noble_choice), liuren_tables().forward)


@lru_cache(maxsize=8192)
def _heaven_plate(day: int, hour: int, general: int, noble_choice: str, daynight_choice: str) -> HeavenPlate:
    turn = (general - hour) % 12
    day_hours, day_t, night_t, forward_from = _plate_rules(noble_choice, daynight_choice)
    daytime = hour in day_hours
    noble = (day_t if daytime else night_t)[day % 10]
    forward = (noble - turn) % 12 in forward_from
    general_of, generals = _general_rows(noble, forward)
    return HeavenPlate(day, hour, general, turn, _HEAVEN[turn], generals[turn], general_of, noble, daytime,
                       forward, _VOID[day // 10], _HIDDEN[day // 10])


_HEAVEN: Final = tuple(tuple((e + turn) % 12 for e in range(12)) for turn in range(12))
_VOID: Final = tuple(xun_void(x) for x in range(6))
_HIDDEN: Final = tuple(tuple(k if (k := (b - xun_head_branch(x)) % 12) < 10 else None for b in range(12))
                       for x in range(6))


@lru_cache(maxsize=24)
def _general_rows(noble: int, forward: bool) -> tuple[tuple[int, ...], tuple[tuple[int, ...], ...]]:
    """With 贵人 on heaven branch ``noble`` and the generals running forward or backward: the general
    riding each heaven branch, and for each turn of the plate the general over each earth branch."""
    if forward:
        general_of = tuple((h - noble) % 12 for h in range(12))
    else:
        general_of = tuple((noble - h) % 12 for h in range(12))
    return general_of, tuple(tuple(general_of[(e + turn) % 12] for e in range(12)) for turn in range(12))


def describe(hp: HeavenPlate) -> str:
    """One line: 寅将加午, 天盘 and the generals' direction (for debugging and text output)."""
    return (f"{BRANCHES[hp.general]}将加{BRANCHES[hp.hour]}　"
            f"{'昼' if hp.daytime else '夜'}贵{BRANCHES[hp.noble]}　{'顺' if hp.forward else '逆'}行　"
            f"旬空{BRANCHES[hp.void[0]]}{BRANCHES[hp.void[1]]}　{STEMS[hp.day % 10]}{BRANCHES[hp.day % 12]}日")
