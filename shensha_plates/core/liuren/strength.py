"""The twelve stages of growth (十二长生) of a branch from the day stem, and a branch's strength in the
month (旺相休囚死).

长生: which branch each stem is born in is disputed for the earth stems (setting ``changsheng``,
plate.toml, each reading with its passage in seed 002): Zhuang's correction (default) has 戊 and 己
follow 丙 and 丁, whose palaces they share in Liu Ren, through all twelve stages; the common usage he
rejects lodges them with fire but counts their stages from water's (戊 born in 申, 己 in 卯); the
five-phase reading counts by the stem's phase, forward only. Yang stems count forward, yin stems
backward (the 十干长生), except in the five-phase reading.

旺相休囚死: the phase of the month's season (寅卯 木, 巳午 火, 申酉 金, 亥子 水, 辰戌丑未 土) is 旺;
the phase it generates 相; the one that generates it 休; the one that overcomes it 囚; the one it
overcomes 死.

>>> from shensha_plates.core.cycle import BRANCHES, STEMS
>>> STAGES[growth_stage(STEMS.index("戊"), BRANCHES.index("寅"))], STAGES[growth_stage(4, 2, "common")]
('长生', '病')
>>> strength(BRANCHES.index("午"), BRANCHES.index("寅"))  # fire in a spring month
'相'
"""

from __future__ import annotations

from typing import Final

from shensha_plates.core.cycle import BRANCH_PHASE_INDEX, STEM_PHASE_INDEX
from shensha_plates.core.errors import InputError

__all__ = ["STAGES", "STAGES_TRAD", "STRENGTHS", "growth_stage", "strength", "season_phase"]

STAGES: Final = ("长生", "沐浴", "冠带", "临官", "帝旺", "衰", "病", "死", "墓", "绝", "胎", "养")
STAGES_TRAD: Final = ("長生", "沐浴", "冠帶", "臨官", "帝旺", "衰", "病", "死", "墓", "絕", "胎", "養")
STRENGTHS: Final = ("旺", "相", "死", "囚", "休")  # by (phase − the season's phase) mod 5

# the branch each stem (甲 … 癸) is born in, by reading
_BORN: Final = {
    "zhuang": (11, 6, 2, 9, 2, 9, 5, 0, 8, 3),   # 戊 with 丙 in 寅, 己 with 丁 in 酉
    "common": (11, 6, 2, 9, 8, 3, 5, 0, 8, 3),   # 戊 from water's 申, 己 from 癸's 卯
}
_PHASE_BORN: Final = (11, 2, 8, 5, 8)  # 木亥 火寅 土申 金巳 水申 (five-phase reading)


def growth_stage(stem: int, branch: int, reading: str = "zhuang") -> int:
    """The stage (index into :data:`STAGES`) of ``branch`` for the day stem ``stem``."""
    if reading == "wuxing":
        return (branch - _PHASE_BORN[STEM_PHASE_INDEX[stem]]) % 12
    try:
        born = _BORN[reading][stem]
    except KeyError:
        raise InputError(f"invalid changsheng reading: {reading!r} (expected zhuang, common or wuxing)") from None
    forward = stem % 2 == 0
    return ((branch - born) if forward else (born - branch)) % 12


def season_phase(month_branch: int) -> int:
    """The phase in power in the month of ``month_branch`` (an index into PHASES)."""
    return 2 if month_branch % 3 == 1 else BRANCH_PHASE_INDEX[month_branch]


def strength(branch: int, month_branch: int) -> str:
    """旺, 相, 休, 囚 or 死: the branch's phase in the month of ``month_branch``."""
    return STRENGTHS[(BRANCH_PHASE_INDEX[branch] - season_phase(month_branch)) % 5]
