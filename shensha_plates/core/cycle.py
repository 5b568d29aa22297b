"""The sexagenary foundations: stems, branches, the sixty pillars, xun, phases and palaces.

Indices: stems 甲=0 … 癸=9, branches 子=0 … 亥=11. Everything here is a pure function or an
immutable table; parsing functions accept simplified and traditional characters and raise
:class:`shensha_plates.core.errors.InputError` with the bad value quoted.
"""

from __future__ import annotations

from typing import Final

from shensha_plates.core.errors import InputError

__all__ = [
    "STEMS", "BRANCHES", "PILLARS", "XUN_HEADS", "TRIGRAMS", "MOUNTAINS", "PHASES",
    "parse_stem", "parse_branch", "parse_pillar", "parse_xun", "parse_month", "ascii_int",
    "pillar_index", "pillar_name", "xun_of", "xun_void", "stem_phase", "branch_phase",
    "STEM_PHASE_INDEX", "BRANCH_PHASE_INDEX", "stem_phase_index", "branch_phase_index", "overcomes",
    "nayin", "stem_palace", "trigram_palace", "is_yang_branch", "is_yang_stem",
    "season_of_month", "mzj_of_month", "group_of_month", "month_branch", "month_default_general",
]

STEMS: Final = "甲乙丙丁戊己庚辛壬癸"
BRANCHES: Final = "子丑寅卯辰巳午未申酉戌亥"
TRIGRAMS: Final = "乾坤艮巽"
# The 24 mountains, clockwise from 壬 (just before 子).
MOUNTAINS: Final = "壬子癸丑艮寅甲卯乙辰巽巳丙午丁未坤申庚酉辛戌乾亥"
PHASES: Final = "木火土金水"

PILLARS: Final = tuple(STEMS[i % 10] + BRANCHES[i % 12] for i in range(60))
XUN_HEADS: Final = ("甲子", "甲戌", "甲申", "甲午", "甲辰", "甲寅")


# The five phases (五行) of the stems and branches, once: as indexes into PHASES (木0 火1 土2 金3 水4),
# so that a phase difference mod 5 says which generates (1) or overcomes (2) which.
STEM_PHASE_INDEX: Final = (0, 0, 1, 1, 2, 2, 3, 3, 4, 4)
BRANCH_PHASE_INDEX: Final = (4, 2, 0, 0, 2, 1, 1, 2, 3, 3, 2, 4)

# 寄宫: the branch palace each stem lodges in (Liu Ren).
_STEM_PALACE: Final = {"甲": "寅", "乙": "辰", "丙": "巳", "丁": "未", "戊": "巳",
                       "己": "未", "庚": "申", "辛": "戌", "壬": "亥", "癸": "丑"}
# Trigram palaces: the 六壬大全 reading (default) and the 考原 reading (seed 000).
TRIGRAM_PALACES: Final = {
    "liuren": {"乾": "亥", "艮": "寅", "巽": "巳", "坤": "申"},
    "kaoyuan": {"乾": "戌", "艮": "丑", "巽": "辰", "坤": "未"},
}

_NAYIN: Final = ("海中金", "炉中火", "大林木", "路旁土", "剑锋金", "山头火", "涧下水", "城头土",
                 "白蜡金", "杨柳木", "泉中水", "屋上土", "霹雳火", "松柏木", "长流水", "砂中金",
                 "山下火", "平地木", "壁上土", "金箔金", "覆灯火", "天河水", "大驿土", "钗钏金",
                 "桑柘木", "大溪水", "沙中土", "天上火", "石榴木", "大海水")

_MONTH_WORDS: Final = {"正": 1, "一": 1, "二": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7,
                       "八": 8, "九": 9, "十": 10, "冬": 11, "十一": 11, "腊": 12, "臘": 12,
                       "十二": 12}


def parse_stem(text: str) -> int:
    """Index of a heavenly stem.

    >>> parse_stem("丙")
    2
    """
    t = str(text).strip()
    if len(t) == 1 and t in STEMS:
        return STEMS.index(t)
    raise InputError(f"invalid stem: {text!r} (expected one of {STEMS})")


def parse_branch(text: str) -> int:
    """Index of an earthly branch.

    >>> parse_branch("午")
    6
    """
    t = str(text).strip()
    if len(t) == 1 and t in BRANCHES:
        return BRANCHES.index(t)
    raise InputError(f"invalid branch: {text!r} (expected one of {BRANCHES})")


def pillar_index(stem: int, branch: int) -> int:
    """Position 0–59 of the pillar with these stem and branch indices.

    >>> pillar_index(2, 6)  # 丙午
    42
    """
    if (stem - branch) % 2:
        raise InputError(
            f"invalid pillar: {STEMS[stem % 10] + BRANCHES[branch % 12]!r} pairs a yang and a yin "
            "character (stem and branch must both be yang or both yin)")
    return (6 * stem - 5 * branch) % 60


def parse_pillar(text: str) -> int:
    """Index 0–59 of a 甲子 pillar written as two characters.

    >>> parse_pillar("庚戌")
    46
    """
    t = str(text).strip()
    if len(t) != 2 or t[0] not in STEMS or t[1] not in BRANCHES:
        raise InputError(f"invalid 甲子 pillar: {text!r} (expected a stem and a branch, e.g. 丙午)")
    return pillar_index(STEMS.index(t[0]), BRANCHES.index(t[1]))


def pillar_name(index: int) -> str:
    """The two characters of pillar ``index`` (0–59)."""
    return PILLARS[index % 60]


def xun_of(pillar: int) -> int:
    """Index 0–5 of the xun (decade) a pillar belongs to, in the order of :data:`XUN_HEADS`."""
    return (pillar % 60) // 10


def parse_xun(text: str) -> int:
    """Index 0–5 of a xun given by its head (甲子 … 甲寅).

    >>> parse_xun("甲辰")
    4
    """
    t = str(text).strip()
    if t.endswith("旬"):
        t = t[:-1]
    if t in XUN_HEADS:
        return XUN_HEADS.index(t)
    raise InputError(f"invalid xun head: {text!r} (expected one of {' '.join(XUN_HEADS)})")


def xun_void(xun: int) -> tuple[int, int]:
    """The two void branches (空亡) of a xun: (yang one 孤, yin one 寡).

    >>> [BRANCHES[b] for b in xun_void(0)]
    ['戌', '亥']
    """
    head_branch = (12 - 2 * xun) % 12  # 甲子→子, 甲戌→戌, 甲申→申 …
    return ((head_branch + 10) % 12, (head_branch + 11) % 12)


def xun_head_branch(xun: int) -> int:
    """Branch index of the head of xun ``xun``."""
    return (12 - 2 * xun) % 12


def stem_phase(stem: int) -> str:
    """The phase of a stem as its character.

    >>> stem_phase(7)  # 辛
    '金'
    """
    return PHASES[STEM_PHASE_INDEX[stem % 10]]


def branch_phase(branch: int) -> str:
    return PHASES[BRANCH_PHASE_INDEX[branch % 12]]


def stem_phase_index(stem: int) -> int:
    return STEM_PHASE_INDEX[stem]


def branch_phase_index(branch: int) -> int:
    return BRANCH_PHASE_INDEX[branch]


def overcomes(a: int, b: int) -> bool:
    """Whether phase ``a`` overcomes phase ``b`` (indexes into PHASES: 木克土, 土克水, 水克火, 火克金, 金克木).

    >>> overcomes(PHASES.index("火"), PHASES.index("金"))
    True
    """
    return (b - a) % 5 == 2


def nayin(pillar: int) -> str:
    """The 纳音 of a pillar.

    >>> nayin(0)
    '海中金'
    """
    return _NAYIN[(pillar % 60) // 2]


def stem_palace(stem_char: str) -> int:
    """Branch index of the palace (寄宫) a stem lodges in."""
    return BRANCHES.index(_STEM_PALACE[stem_char])


def trigram_palace(trigram: str, reading: str = "liuren") -> int:
    """Branch index of a trigram's palace under a reading ('liuren' or 'kaoyuan')."""
    try:
        table = TRIGRAM_PALACES[reading]
    except KeyError:
        raise InputError(
            f"invalid trigram reading: {reading!r} (expected one of {', '.join(TRIGRAM_PALACES)})"
        ) from None
    return BRANCHES.index(table[trigram])


def is_yang_branch(branch: int) -> bool:
    return branch % 2 == 0


def is_yang_stem(stem: int) -> bool:
    return stem % 2 == 0


def ascii_int(text: str, max_digits: int = 9) -> int | None:
    """The value of ``text`` if it is a whole number written with the ASCII digits 0–9 only (at most
    ``max_digits`` of them, no sign, no spaces), else ``None``.

    ``int()`` also reads other scripts' digits (``'١٢'``, ``'１２'``) and ``str.isdigit`` passes
    ``'²'`` and ``'⑪'``, which ``int()`` then refuses; every number typed by a user or read from a
    file goes through this one check instead.

    >>> ascii_int("12"), ascii_int("１２"), ascii_int("²"), ascii_int("-1"), ascii_int("")
    (12, None, None, None, None)
    """
    if not isinstance(text, str) or not 0 < len(text) <= max_digits or not text.isascii() \
            or not text.isdigit():
        return None
    return int(text)


def parse_month(text: str | int) -> int:
    """Month number 1–12 (正月=1 is the 寅 month) from a number, a month word or a month branch.

    >>> parse_month("11"), parse_month("子"), parse_month("冬"), parse_month("正月")
    (11, 11, 11, 1)
    """
    t = str(text).strip()
    if t.endswith("月"):
        t = t[:-1]
    n = ascii_int(t)
    if n is not None and 1 <= n <= 12:
        return n
    if len(t) == 1 and t in BRANCHES:
        return (BRANCHES.index(t) - 2) % 12 + 1
    if t in _MONTH_WORDS:
        return _MONTH_WORDS[t]
    raise InputError(
        f"invalid month: {text!r} (expected 1–12, a month word such as 正 or 冬, "
        f"or the month's branch 寅 … 丑)")


def month_branch(month: int) -> int:
    """Branch index of month ``month`` (1 → 寅)."""
    return (month + 1) % 12


def season_of_month(month: int) -> int:
    """0 spring, 1 summer, 2 autumn, 3 winter."""
    return (month - 1) // 3


def mzj_of_month(month: int) -> int:
    """0 孟, 1 仲, 2 季."""
    return (month - 1) % 3


def group_of_month(month: int) -> int:
    """0 正五九, 1 二六十, 2 三七冬, 3 四八腊."""
    return (month - 1) % 4


def month_default_general(month: int) -> int:
    """The month general (月将) of a month dial with no date: the one that holds from the month's
    中气 on (雨水 in 正月 gives 亥 …), i.e. the branch in 六合 with the month's branch.

    >>> BRANCHES[month_default_general(1)], BRANCHES[month_default_general(11)]
    ('亥', '丑')
    """
    return (12 - month) % 12
