"""What 天寇, 二烦 and 天祸 read of a date: the solar term falling on the lesson's day (the 分至 and the 四立),
the lunar day (朔 弦 望 晦) and the moon's lodging (月宿), counted as the book counts it.

The moon's lodging is the 课经's own count (``resources/liuren/lodgings.toml``: 正月初一起室 … one lodging a
day, 奎 井 张 翼 氐 斗 kept two days), not the astronomical place of the moon and not lunar-python's
值日星宿 (a fixed cycle of the days). The calendar bridge (:mod:`shensha_plates.core.calendar`) gives the
term of the day and the lunar date; this module only counts.

>>> LODGINGS[moon_lodging(1, 14)], BRANCHES[lodging_branch(moon_lodging(1, 14))]  # 「正月……十四日为柳，乃午宫宿」
('柳', '午')
>>> LODGINGS[moon_lodging(8, 5)]  # 「初一角、初二亢、初三氐、氐该重留一日，初四仍在氐，初五房」
'房'
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Final

from shensha_plates.core import tomlcache
from shensha_plates.core.cycle import BRANCHES
from shensha_plates.core.liuren.tables import TableSource, liuren_tables, table_source
from shensha_plates.core.schema import Where, read_toml

if TYPE_CHECKING:
    from shensha_plates.core.calendar import CalendarInfo

__all__ = ["DayFacts", "Lodgings", "load_lodgings", "lodgings", "moon_lodging", "lodging_branch", "day_facts",
           "LODGINGS", "FOUR_LI", "FEN_ZHI"]

LODGINGS: Final = "角亢氐房心尾箕斗牛女虚危室壁奎娄胃昴毕觜参井鬼柳星张翼轸"
FOUR_LI: Final = ("立春", "立夏", "立秋", "立冬")  # 天祸: the 四立 (the day before each is its 绝)
FEN_ZHI: Final = ("春分", "夏至", "秋分", "冬至")  # 天寇: the 分至 (the day before each is its 离)


@dataclass(frozen=True, slots=True)
class Lodgings:
    month_start: tuple[int, ...]  # the first day's lodging of each lunar month, 正月 first
    doubled: frozenset[int]       # lodgings the count keeps two days
    branch: tuple[int, ...]       # the branch of each lodging
    source: TableSource
    note: str


@dataclass(frozen=True, slots=True)
class DayFacts:
    """The lesson's day as 天寇, 二烦 and 天祸 read it (from a date only: never guessed from a plate)."""

    term: str | None   # the solar term whose moment falls on the day (in the chart's zone), or None
    lunar_month: int   # 1–12 (a leap month counted as the month it repeats)
    lunar_day: int     # 1–30
    month_days: int    # 29 or 30 (the last day is the 晦)
    moon: int          # the moon's lodging (an index into LODGINGS), by the book's count

    @property
    def moon_branch(self) -> int:
        return lodging_branch(self.moon)

    @property
    def si_zheng(self) -> bool:
        """A 四正 day: 朔 (初一), 上弦 (初八), 望 (十五), 下弦 (廿三) or 晦 (the last)."""
        return self.lunar_day in (1, 8, 15, 23) or self.lunar_day == self.month_days


def load_lodgings(path: Path | str | None = None) -> Lodgings:
    """Read and validate the lodgings file; a fault raises one CatalogError naming file, field and value."""
    return tomlcache.fresh_on_failure(lambda: _load(path))


def _load(path: Path | str | None) -> Lodgings:
    p = Path(path) if path is not None else Path(str(resources.files("shensha_plates.resources.liuren"))) / "lodgings.toml"
    name = str(p)
    data = read_toml(name, p)
    where = Where(name)
    if data.get("lodgings") != LODGINGS:
        raise where.fail("lodgings", data.get("lodgings"), f"must be the 28 lodgings in order: {LODGINGS}")

    def lodging_list(field: str, raw: object, count: int | None) -> tuple[int, ...]:
        if (not isinstance(raw, str) or any(ch not in LODGINGS for ch in raw) or (count is not None and len(raw) != count)
                or len(set(raw)) != len(raw)):
            raise where.fail(field, raw, "must be lodgings written together" + (f", {count} of them" if count else ""))
        return tuple(LODGINGS.index(ch) for ch in raw)

    month_start = lodging_list("month_start", data.get("month_start"), 12)
    doubled = lodging_list("doubled", data.get("doubled"), None)
    source = table_source(liuren_tables().books)(where, "source", data.get("source"))
    table = data.get("branch")
    if not isinstance(table, dict):
        raise where.fail("branch", table, "must be a table of the twelve branches, each with its lodgings")
    bwhere = Where(name, "[branch]")
    table_source(liuren_tables().books)(bwhere, "source", table.get("source"))
    branch = [-1] * 28
    for b in BRANCHES:
        for i in lodging_list(f"branch.{b}", table.get(b), None):
            if branch[i] != -1:
                raise bwhere.fail(b, table.get(b), f"names {LODGINGS[i]}, already of {BRANCHES[branch[i]]}")
            branch[i] = BRANCHES.index(b)
    if -1 in branch:
        raise where.fail("branch", None, f"leaves {LODGINGS[branch.index(-1)]} without a branch")
    note = data.get("note", "")
    if not isinstance(note, str):
        raise where.fail("note", note, "must be a text")
    return Lodgings(month_start, frozenset(doubled), tuple(branch), source, note)


@lru_cache(maxsize=1)
def lodgings() -> Lodgings:
    return load_lodgings()


def moon_lodging(lunar_month: int, lunar_day: int) -> int:
    """The moon's lodging on a lunar date by the book's count (an index into LODGINGS)."""
    if not (1 <= lunar_month <= 12 and 1 <= lunar_day <= 30):
        raise ValueError(f"not a lunar date: month {lunar_month}, day {lunar_day}")
    table = lodgings()
    at, left = table.month_start[lunar_month - 1], lunar_day - 1
    while True:
        span = 2 if at in table.doubled else 1
        if left < span:
            return at
        left -= span
        at = (at + 1) % 28


def lodging_branch(lodging: int) -> int:
    return lodgings().branch[lodging]


def day_facts(info: CalendarInfo) -> DayFacts:
    """The facts of a dated chart's day."""
    _, month, day = info.lunar_date
    month = abs(month)
    return DayFacts(info.day_term, month, day, info.lunar_month_days, moon_lodging(month, day))
