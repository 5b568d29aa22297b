"""The whole Liu Ren plate (式) for a day, an hour and a month general: :func:`compute_ke`.

The month general comes from a moment through the calendar bridge (:func:`month_general_at`: the
中气 to the minute, or the 节 as a setting), or is given by hand. The lessons and transmissions come
from :mod:`shensha_plates.core.liuren.method` (cached by day and turn); the generals, hidden stems, kin and voids
are put on them here.
"""

from __future__ import annotations

import datetime as _dt
from dataclasses import dataclass

from typing import TYPE_CHECKING

from shensha_plates.core.cycle import BRANCHES, STEMS
from shensha_plates.core.errors import InputError
from shensha_plates.core.frozen import quick_init
from shensha_plates.core.lang import name_in
from shensha_plates.core.liuren.method import Course, Lesson, Step, course
from shensha_plates.core.liuren.plate import DEFAULT_OPTIONS, HeavenPlate, KeOptions, _kin_row, heaven_plate
from shensha_plates.core.liuren.tables import liuren_tables

if TYPE_CHECKING:
    from shensha_plates.core.calendar import CalendarInfo, CalendarOptions

__all__ = ["Transmission", "Ke", "compute_ke", "compute_ke_at", "month_general_at", "GeneralTerm"]


@quick_init
@dataclass(frozen=True, slots=True)
class Transmission:
    """One transmission: its branch, the general riding it, its kin to the day stem, its hidden
    stem (遁干; None on a void) and whether it is void (旬空)."""

    position: int  # 0 初传, 1 中传, 2 末传
    branch: int
    general: int
    kin: str
    stem: int | None
    void: bool


@quick_init
@dataclass(frozen=True, slots=True)
class Ke:
    """The plate: heaven plate and generals, the four lessons (with the general over each upper),
    the three transmissions, the method and the record of its steps."""

    plate: HeavenPlate
    course: Course
    lesson_generals: tuple[int, ...]
    transmissions: tuple[Transmission, ...]
    options: KeOptions

    @property
    def day(self) -> int:
        return self.plate.day

    @property
    def lessons(self) -> tuple[Lesson, ...]:
        return self.course.lessons

    @property
    def method(self) -> str:
        return self.course.method

    @property
    def ke(self) -> str:
        return self.course.ke

    @property
    def steps(self) -> tuple[Step, ...]:
        return self.course.steps

    @property
    def general(self) -> int:
        return self.plate.general

    def method_name(self, lang: str = "zh-Hans") -> str:
        info = liuren_tables().methods[self.course.method]
        return name_in(info, lang)


def compute_ke(day: int, hour: int, general: int, options: KeOptions = DEFAULT_OPTIONS) -> Ke:
    """The whole plate for day pillar ``day`` (0–59), hour branch ``hour`` and month general
    ``general`` (branch indices).

    >>> k = compute_ke(17, 6, 2)  # 辛巳 日, 寅将午时 (seed 002's first case)
    >>> " ".join(BRANCHES[t.branch] for t in k.transmissions), k.ke
    ('午 寅 戌', '元首')
    """
    hp = heaven_plate(day, hour, general, options)
    c = course(day, hp.turn, options)
    return _assemble(hp, c, options)


def _assemble(hp: HeavenPlate, c: Course, options: KeOptions) -> Ke:
    gof, void, hidden = hp.general_of, hp.void, hp.hidden
    kin_row = _kin_row(hp.day % 10)
    init, mid, last = c.transmissions
    trans = (Transmission(0, init, gof[init], kin_row[init], hidden[init], init in void),
             Transmission(1, mid, gof[mid], kin_row[mid], hidden[mid], mid in void),
             Transmission(2, last, gof[last], kin_row[last], hidden[last], last in void))
    l1, l2, l3, l4 = c.lessons
    return Ke(hp, c, (gof[l1.upper], gof[l2.upper], gof[l3.upper], gof[l4.upper]), trans, options)


@dataclass(frozen=True, slots=True)
class GeneralTerm:
    """The month general at a moment and the solar term that began it."""

    general: int
    term: str
    moment: _dt.datetime
    basis: str


def month_general_at(moment: _dt.datetime, options: KeOptions = DEFAULT_OPTIONS) -> GeneralTerm:
    """The month general (月将) in force at an aware moment: the last 中气 to the minute (default),
    or the last 节 (setting ``general_basis=jie``).

    >>> import zoneinfo
    >>> g = month_general_at(_dt.datetime(1998, 11, 30, 12, tzinfo=zoneinfo.ZoneInfo("Asia/Shanghai")))
    >>> BRANCHES[g.general], g.term
    ('寅', '小雪')
    """
    from shensha_plates.core.calendar import governing_term
    basis = options.get("general_basis")
    term = governing_term(moment, "qi" if basis == "zhongqi" else "jie")
    try:
        branch = liuren_tables().general_of_term(term.name, basis)
    except KeyError:
        raise InputError(f"no month general for the solar term {term.name!r}") from None
    return GeneralTerm(branch, term.name, term.moment, basis)


def compute_ke_at(moment: _dt.datetime, options: KeOptions = DEFAULT_OPTIONS,
                  calendar: CalendarOptions | None = None) -> tuple[Ke, GeneralTerm, CalendarInfo]:
    """The plate of an aware moment: its day and hour by the calendar bridge (with its conventions),
    the month general by :func:`month_general_at`.

    >>> import zoneinfo
    >>> k, g, info = compute_ke_at(_dt.datetime(1998, 11, 30, 12, tzinfo=zoneinfo.ZoneInfo("Asia/Shanghai")))
    >>> pillar_text(k.day), BRANCHES[k.plate.hour], BRANCHES[k.general]
    ('辛巳', '午', '寅')
    """
    from shensha_plates.core.calendar import CalendarOptions, from_datetime
    info = from_datetime(moment, calendar or CalendarOptions())
    g = month_general_at(info.moment, options)
    return compute_ke(info.day, info.hour, g.general, options), g, info


def pillar_text(day: int) -> str:
    return STEMS[day % 10] + BRANCHES[day % 12]
