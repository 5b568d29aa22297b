"""The window's model: the current state of the plates, as one Qt-free object the widgets follow.

It holds the core :class:`~shensha_plates.core.engine.State`, the variant options, the language, the undo history
and — in paper mode — the position of every disc turned by hand. Widgets subscribe to it and redraw
when it says so; they never place a spirit themselves, they read :attr:`PlateModel.plate`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Final
from collections.abc import Callable, Mapping

from shensha_plates.core.catalog import KEYS, Catalog, default_catalog
from shensha_plates.core.cycle import month_default_general  # the page (core) reads it too
from shensha_plates.core.errors import CatalogError, one_line
from shensha_plates.core.engine import DIALS, Options, Plate, State, compute_plate, step_state, turn_to_anchor

if TYPE_CHECKING:
    from shensha_plates.core.calendar import CalendarInfo  # lunar-python loads when a date is first used
    # the Liu Ren method loads when a state first has a day and an hour (or its options are asked for)
    from shensha_plates.core.liuren import HeavenPlate, Ke, KeOptions
    from shensha_plates.core.liuren.lodging import DayFacts
    from shensha_plates.core.liuren.nianming import NianMing, Querent
    from shensha_plates.core.liuren.spirits import NameStatus

__all__ = ["PlateModel", "Snapshot", "DIALS", "DIAL_RING", "RING_DIAL", "Consistency", "Message", "HEAVEN_RINGS",
           "month_default_general"]

# The ring that shows each dial, and the dial each ring belongs to (linked mode).
DIAL_RING: Final[Mapping[str, str]] = {"year": "U1", "month": "L2", "xun": "U3"}
RING_DIAL: Final[Mapping[str, str]] = {"U1": "year", "U2": "year", "U3": "xun", "U4": "xun",
                                       "L1": "month", "L2": "month", "L3": "month", "L4": "month",
                                       "L5": "month", "L6": "month", "L7": "month",
                                       "TH": "hour", "TG": "hour"}
# The two rings of the Liu Ren plate: the heaven plate (天盘) and the twelve generals riding it. Both
# turn with the hour (月将加时); the generals are carried by the heaven plate.
HEAVEN_RINGS: Final = ("TH", "TG")


Listener = Callable[[str], None]
UNDO_LIMIT: Final = 500  # steps kept for undo


@dataclass(frozen=True, slots=True)
class Snapshot:
    """One undo step."""

    state: State
    options: Options
    calendar: CalendarInfo | None
    general: int | None = None  # the month general set by hand or kept from a date; None: by month/date
    # the school's choices for the Liu Ren plate (涉害, 贵人 table …); None: the defaults (《大六壬指南》)
    ke: KeOptions | None = None


@dataclass(frozen=True, slots=True)
class Message:
    """A line for the user: an error (bad input, a file that cannot be read) or a passing notice."""

    text: str
    error: bool = True


@dataclass(frozen=True, slots=True)
class Consistency:
    """Whether the discs as turned by hand show a real state, the nearest one, and the discs that differ from it."""

    consistent: bool
    nearest: State
    off_rings: tuple[str, ...]


def _circular(a: int, b: int) -> int:
    d = (a - b) % 12
    return min(d, 12 - d)


class PlateModel:
    """The current plate and everything the user has set; notifies listeners of each change.

    Events: ``"state"`` (state, options or calendar changed; the plate is new), ``"paper"`` (paper
    mode or a hand-turned disc), ``"lang"``, ``"history"`` (undo/redo availability), ``"message"``
    (a panel has something to tell the user: :attr:`message`; the window shows it), ``"querent"``
    (the person the 式 is cast for: :attr:`querent`).
    """

    def __init__(self, state: State | None = None, options: Options = Options(),
                 catalog: Catalog | None = None, lang: str = "zh-Hans") -> None:
        self.catalog = catalog or default_catalog()
        self._state = state or State.parse("甲子", 1, "甲子")
        self._options = options
        self._calendar: CalendarInfo | None = None
        self._plate = compute_plate(self._state, self._options, self.catalog)
        self._general: int | None = None
        self._ke: KeOptions | None = None  # the defaults
        self._ke_result: Ke | None = None
        self._names: tuple[NameStatus, ...] = ()
        self._date_general_cache: tuple[object, int] = (None, 0)
        self._message: Message | None = None
        try:
            self._compute_liuren()
        except CatalogError as e:  # a damaged Liu Ren table: the plates without the 式, and the reason
            self._ke_result, self._names = None, ()
            self._message = Message(one_line(str(e)), True)
        self._lang = lang
        self._listeners: list[Listener] = []
        self._undo: list[Snapshot] = []
        self._redo: list[Snapshot] = []
        self._paper = False
        self._paper_anchors: dict[str, int] = {}
        self._gesture: Snapshot | None = None
        self._querent: Querent | None = None

    # -- observers -----------------------------------------------------------------------------
    def subscribe(self, listener: Listener) -> None:
        self._listeners.append(listener)

    def unsubscribe(self, listener: Listener) -> None:
        """Stop calling ``listener`` (a no-op if it is not subscribed)."""
        try:
            self._listeners.remove(listener)
        except ValueError:
            pass

    def _emit(self, event: str) -> None:
        for listener in list(self._listeners):
            listener(event)

    # -- reading -------------------------------------------------------------------------------
    @property
    def state(self) -> State:
        return self._state

    @property
    def options(self) -> Options:
        return self._options

    @property
    def calendar(self) -> CalendarInfo | None:
        return self._calendar

    @property
    def plate(self) -> Plate:
        return self._plate

    @property
    def lang(self) -> str:
        return self._lang

    @property
    def paper(self) -> bool:
        return self._paper

    @property
    def message(self) -> Message | None:
        """The last message reported by :meth:`report`."""
        return self._message

    def anchors(self) -> dict[str, int]:
        """The branch under slot 0 of every ring, as shown (hand-turned positions in paper mode).
        The heaven-plate rings are there only when the state has an hour."""
        linked = {r.ring.id: r.anchor for r in self._plate.rings}
        heaven = self.heaven_anchor()
        if heaven is not None:
            linked.update({rid: heaven for rid in HEAVEN_RINGS})
        if self._paper:
            linked.update(self._paper_anchors)
        return linked

    # -- the Liu Ren plate (式): hour, month general, heaven plate --------------------------------
    @property
    def general(self) -> int:
        """The month general (月将) in force: set by hand (or kept from a date once a dial was
        turned), else the date's, else the month dial's (see :func:`month_default_general`)."""
        if self._general is not None:
            return self._general
        if self._calendar is not None:
            return self._date_general(self._calendar)
        return month_default_general(self._state.month)

    @property
    def general_source(self) -> str:
        """Where :attr:`general` comes from: ``hand``, ``date`` or ``month``."""
        if self._general is not None:
            return "hand"
        return "date" if self._calendar is not None else "month"

    def _date_general(self, calendar: CalendarInfo) -> int:
        """The month general at the date's moment (the last 中气, or 节 as the school's setting)."""
        from shensha_plates.core.liuren import month_general_at
        key = (calendar.moment, self.ke_options.get("general_basis"))
        if self._date_general_cache[0] != key:
            self._date_general_cache = (key, month_general_at(calendar.moment, self.ke_options).general)
        return self._date_general_cache[1]

    @property
    def ke_options(self) -> KeOptions:
        if self._ke is not None:
            return self._ke
        from shensha_plates.core.liuren.plate import DEFAULT_OPTIONS
        return DEFAULT_OPTIONS

    @property
    def ke_choices(self) -> tuple[str, ...]:
        """The school's readings that differ from the defaults, as ``ID=CHOICE`` (none: the defaults,
        without loading the Liu Ren modules)."""
        return () if self._ke is None else self._ke.to_choices()

    def set_ke_options(self, ke: KeOptions, record: bool = True) -> None:
        """Choose the school's readings (undoable like any other change; ``record=False``: the choice
        restored from the settings at start, which is no step to undo)."""
        # the defaults are kept as None, as at the start, so that choosing them is no change
        self._commit(Snapshot(self._state, self._options, self._calendar, self._general, ke if ke.choices else None),
                     record)

    @property
    def heaven_plate(self) -> HeavenPlate | None:
        """The core's heaven plate and generals, when the state has a day and an hour."""
        return None if self._ke_result is None else self._ke_result.plate

    @property
    def ke(self) -> Ke | None:
        """The core's whole 式 (lessons, transmissions, the record of the method), when the state
        has a day and an hour."""
        return self._ke_result

    def _compute_liuren(self) -> None:
        st = self._state
        if st.day is None or st.hour is None:
            self._ke_result, self._names = None, ()
            return
        from shensha_plates.core.liuren import compute_ke, resolve_names
        self._ke_result = compute_ke(st.day, st.hour, self.general, self.ke_options)
        self._names = resolve_names(st, self._ke_result, self.ke_options, self._plate)

    # -- the querent (年命) -----------------------------------------------------------------------
    @property
    def querent(self) -> Querent | None:
        """The person the 式 is cast for (year of birth, sex, age): a person, not a state, so it is
        kept through every turn of the dials and is not undone with them."""
        return self._querent

    def set_querent(self, querent: Querent | None) -> None:
        if querent != self._querent:
            self._querent = querent
            self._emit("querent")

    def day_facts(self) -> DayFacts | None:
        """What 天寇 二烦 天祸 read of the date (its solar term, lunar day, the moon's lodging): None without a
        date, or when the state's day is no longer the date's."""
        cal = self._calendar
        if cal is None or self._state.day != cal.day:
            return None
        from shensha_plates.core.liuren.lodging import day_facts
        return day_facts(cal)

    def nian_ming(self) -> NianMing | None:
        """The querent's 本命 and 行年 on the plate now: None without a 式, a querent, or an age (no age
        given and the state's year has no stem)."""
        ke, q = self._ke_result, self._querent
        if ke is None or q is None:
            return None
        from shensha_plates.core.liuren.nianming import querent_on
        st = self._state
        chart_pillar = None if st.year_stem is None else next(
            i for i in range(60) if i % 12 == st.year_branch and i % 10 == st.year_stem)
        chart_year = None
        if self._calendar is not None and chart_pillar is not None:
            y = self._calendar.moment.year
            chart_year = y if (y - 4) % 60 == chart_pillar else y - 1
        return querent_on(q, ke.plate.heaven, ke.plate.generals, chart_pillar, chart_year,
                          self.ke_options.get("xingnian"))

    @property
    def names(self) -> tuple[NameStatus, ...]:
        """The names that need the plate (青龙煞 … 孤课, 鬼呼), as the core resolves them in this
        state; empty when there is no 式 (no day or no hour)."""
        return self._names

    def in_force(self) -> dict[str, bool]:
        """The catalog's conditional spirits → whether their condition holds now (only those the
        core could decide)."""
        return {n.spirit: bool(n.in_force) for n in self._names
                if n.spirit is not None and n.spirit == n.id and n.in_force is not None}

    def heaven_anchor(self) -> int | None:
        """The earth branch under heaven-plate 子 (月将加时), or None when the state has no hour."""
        if self._state.hour is None:
            return None
        return (self._state.hour - self.general) % 12

    def set_general(self, general: int | None) -> None:
        """Set the month general by hand (None: follow the date or the month again); undoable."""
        self._commit(Snapshot(self._state, self._options, self._calendar, general, self._ke))

    def can_undo(self) -> bool:
        return bool(self._undo)

    def can_redo(self) -> bool:
        return bool(self._redo)

    # -- changing ------------------------------------------------------------------------------
    def _snapshot(self) -> Snapshot:
        return Snapshot(self._state, self._options, self._calendar, self._general, self._ke)

    def _apply(self, snap: Snapshot) -> bool:
        """Show ``snap``; False (nothing changed, the reason reported) when a rule file it needs is
        damaged, as the Liu Ren tables first read when the state gets an hour."""
        before = (self._snapshot(), self._plate, self._ke_result, self._names)
        self._state, self._options, self._calendar = snap.state, snap.options, snap.calendar
        self._general, self._ke = snap.general, snap.ke
        try:
            self._plate = compute_plate(self._state, self._options, self.catalog)
            self._compute_liuren()
        except CatalogError as e:
            old = before[0]
            self._state, self._options, self._calendar = old.state, old.options, old.calendar
            self._general, self._ke = old.general, old.ke
            self._plate, self._ke_result, self._names = before[1], before[2], before[3]
            self.report(one_line(str(e)))
            return False
        self._paper_anchors = {}
        self._emit("state")
        return True

    def set_state(self, state: State, *, calendar: CalendarInfo | None = None,
                  options: Options | None = None, record: bool = True) -> None:
        """Show ``state`` (and, when it came from a date, the calendar facts behind it).

        A date sets the month general; leaving a date for a state in the same month keeps the
        date's month general (turning the hour must not move the general); a new month, or a new
        date, lets it follow the month or the date again unless it was set by hand."""
        general = self._general
        if calendar is not None:
            general = None
        elif self._calendar is not None and general is None and state.month == self._state.month:
            general = self._date_general(self._calendar)
        self._commit(Snapshot(state, options or self._options, calendar, general, self._ke), record)

    def start_at(self, snap: Snapshot) -> None:
        """Show ``snap`` as the start (from the command line): no undo step."""
        self._commit(snap, record=False)

    def snapshot(self) -> Snapshot:
        """Everything undo would restore (state, options, date, month general, school)."""
        return self._snapshot()

    def restore(self, snap: Snapshot) -> None:
        """Go back to a snapshot taken earlier (undoable)."""
        self._commit(snap)

    def _commit(self, new: Snapshot, record: bool = True) -> None:
        if new == self._snapshot():
            return
        current = self._snapshot()
        if not self._apply(new):
            return
        if record:
            self._undo.append(current)
            del self._undo[:-UNDO_LIMIT]
            self._redo.clear()
        self._emit("history")

    def set_options(self, options: Options) -> None:
        self.set_state(self._state, calendar=self._calendar, options=options)

    def step(self, dial: str, delta: int, record: bool = True) -> None:
        """Turn a dial by ``delta`` steps; a dial turn forgets the date it came from. The hour
        dial (``hour``) turns the heaven plate; from no hour it starts at 子 (or 亥 going back)."""
        if not delta:
            return
        if dial == "hour":
            h = self._state.hour
            hour = ((delta - 1) if delta > 0 else delta) % 12 if h is None else (h + delta) % 12
            self.set_state(replace(self._state, hour=hour), record=record)
            return
        self.set_state(step_state(self._state, dial, delta), record=record)

    def dial_to_anchor(self, ring_id: str, anchor: int) -> State:
        """The state in which ring ``ring_id`` (linked mode) has slot 0 on branch ``anchor``:
        the dial of that ring turns by as many steps as it takes (the nearest way round)."""
        dial = RING_DIAL[ring_id]
        state = self._state
        if dial == "hour":  # 月将加时: heaven 子 over earth ``anchor`` means the hour is anchor + 月将
            return replace(state, hour=(anchor + self.general) % 12)
        return turn_to_anchor(state, self.catalog.ring(ring_id), anchor)

    def reachable_anchors(self, ring_id: str) -> tuple[int, ...]:
        """Branches slot 0 of a ring can reach by turning its dial (all twelve in paper mode)."""
        if self._paper or ring_id in HEAVEN_RINGS:
            return tuple(range(12))
        # the ring's anchor over every value of its key: the same set whatever the current state
        ring = self.catalog.ring(ring_id)
        return tuple(sorted({ring.anchor.branch(v) for v in range(KEYS[ring.key])}))

    # -- gestures: a drag is many live steps but one undo step -----------------------------------
    def begin_gesture(self) -> None:
        self._gesture = self._snapshot()

    def end_gesture(self) -> None:
        start = getattr(self, "_gesture", None)
        self._gesture = None
        if start is not None and start != self._snapshot():
            self._undo.append(start)
            del self._undo[:-UNDO_LIMIT]
            self._redo.clear()
            self._emit("history")

    def set_lang(self, lang: str) -> None:
        if lang != self._lang:
            self._lang = lang
            self._emit("lang")

    def undo(self) -> None:
        if self._undo:
            current = self._snapshot()
            if self._apply(self._undo[-1]):
                self._undo.pop()
                self._redo.append(current)
                self._emit("history")

    def redo(self) -> None:
        if self._redo:
            current = self._snapshot()
            if self._apply(self._redo[-1]):
                self._redo.pop()
                self._undo.append(current)
                self._emit("history")

    def report(self, text: str, *, error: bool = True) -> None:
        """Tell the user something (an error by default); whoever shows messages follows ``"message"``."""
        self._message = Message(text, error)
        self._emit("message")

    # -- paper mode ----------------------------------------------------------------------------
    def set_paper(self, on: bool) -> None:
        if on != self._paper:
            self._paper = on
            self._paper_anchors = {}
            self._emit("paper")

    def turn_paper_ring(self, ring_id: str, anchor: int) -> None:
        """Paper mode: leave ring ``ring_id`` with slot 0 on ``anchor``, whatever the rules say."""
        for rid in (HEAVEN_RINGS if ring_id in HEAVEN_RINGS else (ring_id,)):
            self._paper_anchors[rid] = anchor % 12  # the generals ride the heaven plate
        self._emit("paper")

    def heaven_agrees(self) -> bool:
        """Paper mode: whether the heaven plate as turned agrees with the month general and hour."""
        shown = self.anchors()
        return self.heaven_anchor() is None or shown.get("TH") == self.heaven_anchor()

    def heaven_hour(self) -> int | None:
        """Paper mode: the hour the heaven plate as turned shows with this month general."""
        shown = self.anchors().get("TH")
        return None if shown is None else (shown + self.general) % 12

    def consistency(self) -> Consistency:
        """Whether the discs as turned describe one state, and the nearest state that they would."""
        shown = self.anchors()
        groups = {
            "year": [r for r, d in RING_DIAL.items() if d == "year"],
            "month": [r for r, d in RING_DIAL.items() if d == "month"],
            "xun": [r for r, d in RING_DIAL.items() if d == "xun"],
        }
        nearest = self._state
        for dial, rings in groups.items():
            best: tuple[int, int] | None = None
            best_state = nearest
            count = {"year": 12, "month": 12, "xun": 6}[dial]
            for delta in range(count):
                candidate = step_state(nearest, dial, delta)
                plate = compute_plate(candidate, self._options, self.catalog)
                cost = sum(_circular(plate.ring(r).anchor, shown[r]) for r in rings)
                key = (cost, min(delta, count - delta))
                if best is None or key < best:
                    best, best_state = key, candidate
            nearest = best_state
        rule = compute_plate(nearest, self._options, self.catalog)
        off = tuple(r.ring.id for r in rule.rings if r.anchor != shown[r.ring.id])
        return Consistency(consistent=not off, nearest=nearest, off_rings=off)

    def snap_to_consistent(self) -> None:
        target = self.consistency().nearest
        hour = self.heaven_hour()
        if hour is not None and not self.heaven_agrees():
            target = replace(target, hour=hour)  # the hour the heaven plate was turned to
        self._paper_anchors = {}
        self.set_state(target)
        self._emit("paper")
