"""Zhuang's spirits on the Liu Ren plate: the spirits at each lesson's upper branch and at each
transmission, and the names that exist only when the plate says so (``resources/liuren/names.toml``).

A heaven branch carries the spirits of its own name (seed 002's first case: "支上为天目、墓神" — the
heaven branch 丑 over the day branch is called 天目 and 墓神), so the spirits on a lesson are those
the plates place at its upper branch. A name such as 青龙煞 is in force when its condition holds on
this plate; "X 加临" is read by the setting ``jialin``: ``earth`` (default — the general X stands over
the earth branch where the catalog places the spirit, as "卯加临" must be read) or ``heaven`` (the
general X rides the heaven branch of the spirit's name).

:func:`resolve_names` is what a display needs: for a state and a plate, every such name with
whether it is in force, on which branch, and a short reason.
"""

from __future__ import annotations

from dataclasses import dataclass

from shensha_plates.core.cycle import BRANCHES, STEMS, branch_phase_index, overcomes, stem_phase_index
from shensha_plates.core.engine import Options, Placement, Plate, State, compute_plate
from shensha_plates.core.liuren.ke import Ke
from shensha_plates.core.liuren.plate import DEFAULT_OPTIONS, KeOptions
from shensha_plates.core.liuren.tables import NameRule, liuren_tables

__all__ = ["NameStatus", "SpiritsAt", "KeSpirits", "resolve_names", "names_for_state", "spirits_on", "DAY_GROUPS",
           "spirits_at_branches"]

# Spirit groups that depend only on the day (and its xun): the ones shown when no year or month is known.
DAY_GROUPS = ("xun", "stem", "branch")


@dataclass(frozen=True, slots=True)
class NameStatus:
    """A name that needs the plate, resolved: ``in_force`` on ``branch`` (the earth branch where
    the condition was tested; None when it could not be tested), and why (``reason``; ``reason_en``
    the same in English, the branches, stems and generals' names kept)."""

    id: str
    name: str
    name_trad: str
    in_force: bool | None
    branch: int | None
    reason: str
    spirit: str | None
    reason_en: str = ""

    def to_json(self) -> dict[str, object]:
        return {"id": self.id, "name": self.name, "name_trad": self.name_trad, "in_force": self.in_force,
                "branch": None if self.branch is None else BRANCHES[self.branch], "reason": self.reason,
                "reason_en": self.reason_en}


@dataclass(frozen=True, slots=True)
class SpiritsAt:
    """The spirits of Zhuang's plates at one heaven branch of the plate (a lesson's upper or a
    transmission)."""

    position: str          # 一课 … 四课, 初传 中传 末传
    branch: int
    placements: tuple[Placement, ...]


@dataclass(frozen=True, slots=True)
class KeSpirits:
    lessons: tuple[SpiritsAt, ...]
    transmissions: tuple[SpiritsAt, ...]
    names: tuple[NameStatus, ...]
    partial: bool          # True when the state had no year/month: only xun and day spirits are listed

    def status(self, spirit_id: str) -> NameStatus | None:
        """The resolution of a catalog spirit that is conditional (青龙煞 …), if any."""
        for n in self.names:
            if n.spirit == spirit_id and n.id == spirit_id:
                return n
        return None


def _g(index: int) -> str:
    return liuren_tables().generals[index].name


def resolve_names(state: State | None, ke: Ke, options: KeOptions = DEFAULT_OPTIONS,
                  plate: Plate | None = None) -> tuple[NameStatus, ...]:
    """Every name of ``names.toml`` resolved on this plate. ``state`` gives where the catalog puts
    the spirits (None: only the names that need no year or month are decided; the others come back
    with ``in_force=None``)."""
    zplate = plate if plate is not None else (compute_plate(state) if state is not None else None)
    reading = options.get("jialin")
    out = []
    for rule in liuren_tables().names:
        out.append(_resolve(rule, zplate, ke, reading))
    return tuple(out)


def names_for_state(state: State, general: int, options: KeOptions = DEFAULT_OPTIONS) -> tuple[NameStatus, ...]:
    """For a display: the names that need the plate, resolved for a state with a day and an hour and
    the month general (branch index) — each in force or not, on which earth branch, and why.

    >>> from shensha_plates.core.cycle import parse_pillar
    >>> st = State(year_branch=2, month=10, xun=1, year_stem=4, day=parse_pillar("辛巳"), hour=6)
    >>> [(n.name, BRANCHES[n.branch or 0], n.reason) for n in names_for_state(st, 2) if n.in_force]
    [('鬼呼', '戌', '天盘午为辛之鬼，加临墓神戌')]
    """
    if state.day is None or state.hour is None:
        from shensha_plates.core.errors import InputError
        raise InputError("the Liu Ren plate needs a day and an hour: give the state a day pillar and an hour branch")
    from shensha_plates.core.liuren.ke import compute_ke
    return resolve_names(state, compute_ke(state.day, state.hour, general, options), options)


def _spirit_branches(zplate: Plate | None, spirit_id: str | None) -> tuple[int, ...] | None:
    if zplate is None or spirit_id is None:
        return None
    return tuple(dict.fromkeys(p.branch for p in zplate.find(spirit_id)))


def _resolve(rule: NameRule, zplate: Plate | None, ke: Ke, reading: str) -> NameStatus:
    hp = ke.plate

    def status(in_force: bool | None, branch: int | None, reason: str, en: str, name: str | None = None,
               name_trad: str | None = None) -> NameStatus:
        return NameStatus(rule.id, name or rule.name, name_trad or rule.name_trad, in_force, branch, reason,
                          rule.spirit, en)

    B = BRANCHES
    if rule.kind == "void_initial":
        init = ke.course.transmissions[0]
        yang, yin = hp.void
        if init not in hp.void:
            return status(False, init, f"初传{B[init]}不空（旬空{B[yang]}{B[yin]}）",
                          f"the first transmission {B[init]} is not void (the xun leaves {B[yang]} {B[yin]} void)")
        other = yin if init == yang else yang
        if other in ke.course.transmissions[1:]:
            return status(True, init, f"初传{B[init]}与传中{B[other]}孤寡俱空",
                          f"the first transmission {B[init]} and {B[other]} among the transmissions are both void",
                          "孤寡课", "孤寡課")
        if init == yang:
            return status(True, init, f"阳空{B[init]}发用", f"the yang void {B[init]} is the first transmission",
                          "孤课", "孤課")
        return status(True, init, f"阴空{B[init]}发用", f"the yin void {B[init]} is the first transmission",
                      "寡课", "寡課")
    branches = _spirit_branches(zplate, rule.spirit)
    if branches is None:
        return status(None, None, "未知年月，不能定其位置", "year and month unknown: its place cannot be found")
    if not branches:
        return status(False, None, "此时不列此神", "the plates do not have this spirit now")
    if rule.kind == "ghost_on_tomb":
        day_el = stem_phase_index(hp.day % 10)
        for e in branches:
            h = hp.heaven[e]
            if overcomes(branch_phase_index(h), day_el):
                return status(True, e, f"天盘{B[h]}为{STEMS[hp.day % 10]}之鬼，加临墓神{B[e]}",
                              f"heaven-plate {B[h]}, the ghost of {STEMS[hp.day % 10]}, stands over the tomb spirit's {B[e]}")
        e = branches[0]
        return status(False, e, f"墓神{B[e]}上为{B[hp.heaven[e]]}，非日之鬼",
                      f"over the tomb spirit's {B[e]} is {B[hp.heaven[e]]}, not the day's ghost")
    if rule.kind == "heaven_over":
        assert rule.heaven is not None
        for e in branches:
            if hp.heaven[e] == rule.heaven:
                return status(True, e, f"{B[rule.heaven]}加临{B[e]}", f"{B[rule.heaven]} stands over {B[e]}")
        e = branches[0]
        return status(False, e, f"{B[e]}上为{B[hp.heaven[e]]}，非{B[rule.heaven]}",
                      f"over {B[e]} is {B[hp.heaven[e]]}, not {B[rule.heaven]}")
    if rule.kind == "spirit_on":
        for k in branches:
            under = hp.under(k)
            if under in rule.on:
                return status(True, k, f"天盘{B[k]}加{B[under]}", f"heaven-plate {B[k]} over {B[under]}")
        k = branches[0]
        on = "".join(B[b] for b in rule.on)
        return status(False, k, f"天盘{B[k]}加{B[hp.under(k)]}，不在{on}",
                      f"heaven-plate {B[k]} over {B[hp.under(k)]}, not over {' '.join(on)}")
    # general_over
    assert rule.general is not None
    g = rule.general
    for e in branches:
        if reading == "earth" and hp.generals[e] == g:
            return status(True, e, f"{_g(g)}加临{B[e]}（天盘{B[hp.heaven[e]]}）",
                          f"{_g(g)} stands over {B[e]} (heaven plate {B[hp.heaven[e]]})")
        if reading == "heaven" and hp.general_of[e] == g:
            return status(True, e, f"{_g(g)}乘{B[e]}", f"{_g(g)} rides {B[e]}")
    e = branches[0]
    if reading == "earth":
        return status(False, e, f"{B[e]}上为{_g(hp.generals[e])}，非{_g(g)}",
                      f"over {B[e]} is {_g(hp.generals[e])}, not {_g(g)}")
    return status(False, e, f"{B[e]}乘{_g(hp.general_of[e])}，非{_g(g)}",
                  f"{_g(hp.general_of[e])} rides {B[e]}, not {_g(g)}")


def spirits_on(state: State | None, ke: Ke, options: KeOptions = DEFAULT_OPTIONS) -> KeSpirits:
    """The spirits at each lesson's upper and each transmission, and the names resolved.

    ``state`` is the plates' state (year, month, xun, day); None, or a state whose year and month
    are unknown, lists only the xun and day spirits (``partial``)."""
    from shensha_plates.core.liuren.method import LESSON_NAMES, TRANSMISSION_NAMES
    partial = state is None
    if state is None:
        zplate = _day_only_plate(ke.day)
    else:
        zplate = compute_plate(state)

    def at(branch: int) -> tuple[Placement, ...]:
        row = zplate.positions[branch]
        return tuple(p for p in row if p.group in DAY_GROUPS) if partial else row

    lessons = tuple(SpiritsAt(LESSON_NAMES[i], lesson.upper, at(lesson.upper))
                    for i, lesson in enumerate(ke.lessons))
    trans = tuple(SpiritsAt(TRANSMISSION_NAMES[t.position], t.branch, at(t.branch)) for t in ke.transmissions)
    names = resolve_names(None if partial else state, ke, options, None if partial else zplate)
    if partial:
        # the day's own names (孤课, 鬼呼 on the day branch's tomb) need no year or month
        names = tuple(_resolve(r, zplate, ke, options.get("jialin"))
                      if r.kind in ("void_initial", "ghost_on_tomb") else n
                      for r, n in zip(liuren_tables().names, names, strict=True))
    return KeSpirits(lessons, trans, names, partial)


def spirits_at_branches(state: State | None, day: int, branches: tuple[int, ...],
                        catalog: Options | None = None) -> tuple[tuple[Placement, ...], ...]:
    """The spirits of Zhuang's plates on each of ``branches`` (as on a lesson's upper branch): with no
    state, only the xun's and the day's."""
    if state is None:
        plate = _day_only_plate(day)
        return tuple(tuple(p for p in plate.positions[b] if p.group in DAY_GROUPS) for b in branches)
    plate = compute_plate(state) if catalog is None else compute_plate(state, catalog)
    return tuple(plate.positions[b] for b in branches)


def _day_only_plate(day: int) -> Plate:
    """A plate for the day's xun and pillar; its year and month rows are ignored by the callers
    (only the xun and day groups are read from it)."""
    from shensha_plates.core.cycle import xun_of
    return compute_plate(State(year_branch=0, month=1, xun=xun_of(day), day=day))
