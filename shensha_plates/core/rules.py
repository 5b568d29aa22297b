"""Each placement rule of the catalog as a typed frozen value, parsed once at load (issue 29 item 1).

The catalog reads a rule's TOML table by its schema (:mod:`shensha_plates.core.schema`; every fault
named by file, entry, field and value) straight into one of the values below; a :class:`~shensha_plates.
core.catalog.Spirit` holds that value, and the engine dispatches on its type. Nothing downstream reads
a rule's fields by name.

``ring``       :class:`RingPlacing`: on a ring slot, ``offset`` branches 顺 from the ring's anchor;
``table``      :class:`TablePlacing`: an explicit table with one entry per key value;
``step``       :class:`StepPlacing`: ``start`` in the first key value, ``step`` branches per value;
``alternate``  :class:`AlternatePlacing`: the 圣心 rule, odd months 顺 from ``start``, even months the 冲;
``opposite``   :class:`OppositePlacing`: the 冲 of another spirit (same key);
``fixed``      :class:`FixedPlacing`: the same positions whatever the state.

>>> from shensha_plates.core.catalog import default_catalog
>>> default_catalog().spirit("tian_ma").rule
RingPlacing(ring='L6', offsets=(0,), at=None)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from collections.abc import Sequence
from typing import ClassVar

from shensha_plates.core.cycle import BRANCHES, STEMS, TRIGRAMS, TRIGRAM_PALACES, stem_palace

__all__ = ["table_entries", "label_branch", "is_label", "StepPlacing", "AlternatePlacing", "TablePlacing", "FixedPlacing",
           "RingPlacing", "OppositePlacing", "Placing", "KeyedPlacing"]


def label_branch(label: str, palaces: str = "liuren") -> int:
    """Branch index where a position label lies: a branch, a stem or trigram (its palace), or a
    甲子 pillar (its branch). Anything else (甲丑 too, which is no pillar) raises :class:`ValueError`:
    this is also how the catalog checks a label.

    >>> label_branch("寅"), label_branch("甲"), label_branch("乾"), label_branch("丙午")
    (2, 2, 11, 6)
    """
    if len(label) == 1:
        if label in BRANCHES:
            return BRANCHES.index(label)
        if label in STEMS:
            return stem_palace(label)
        if label in TRIGRAMS:
            return BRANCHES.index(TRIGRAM_PALACES[palaces][label])
    elif len(label) == 2 and label[0] in STEMS and label[1] in BRANCHES:
        branch = BRANCHES.index(label[1])
        if (STEMS.index(label[0]) - branch) % 2 == 0:  # a stem and a branch of the same polarity
            return branch
    raise ValueError(f"not a position label: {label!r}")


def is_label(label: str) -> bool:
    """Whether ``label`` is a position label (:func:`label_branch`)."""
    try:
        label_branch(label)
    except ValueError:
        return False
    return True


@dataclass(frozen=True, slots=True)
class StepPlacing:
    """From ``start``, ``step`` branches on for each value of ``key``."""

    kind: ClassVar[str] = "step"
    key: str
    start: int
    step: int

    def branch(self, value: int) -> int:
        return (self.start + self.step * value) % 12


@dataclass(frozen=True, slots=True)
class AlternatePlacing:
    """From ``start``: one branch on every second value, the opposite branch between (顺逆相间)."""

    kind: ClassVar[str] = "alternate"
    key: str
    start: int

    def branch(self, value: int) -> int:
        return (self.start + value // 2 + 6 * (value % 2)) % 12


@dataclass(frozen=True, slots=True)
class TablePlacing:
    """The labels (branches, stems, trigrams, pillars) for each value of ``key``."""

    kind: ClassVar[str] = "table"
    key: str
    entries: tuple[tuple[str, ...], ...]

    def branch(self, value: int) -> int:
        """The branch of the entry's first label (a ring anchor has one label per value)."""
        return label_branch(self.entries[value][0])


@dataclass(frozen=True, slots=True)
class FixedPlacing:
    """The same labels whatever the state (day spirits that need a day all the same)."""

    kind: ClassVar[str] = "fixed"
    labels: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class RingPlacing:
    """On a disc, at these slot offsets (or, with ``at``, at a label for each value). The disc's key
    and anchor are carried too, so that placing needs no look-up of the ring."""

    kind: ClassVar[str] = "ring"
    ring: str
    offsets: tuple[int, ...]
    at: tuple[str, ...] | None
    key: str = field(repr=False)
    anchor: StepPlacing | AlternatePlacing | TablePlacing = field(repr=False, compare=False)


@dataclass(frozen=True, slots=True)
class OppositePlacing:
    """Opposite (冲) another spirit."""

    kind: ClassVar[str] = "opposite"
    of: str


Placing = StepPlacing | AlternatePlacing | TablePlacing | FixedPlacing | RingPlacing | OppositePlacing
# The kinds that give one branch per key value by themselves: what may turn a ring.
KeyedPlacing = StepPlacing | AlternatePlacing | TablePlacing


def table_entries(values: str | Sequence[str]) -> tuple[tuple[str, ...], ...]:
    """A table's values as a tuple of label tuples: a string gives one label per character; in a list,
    each entry's labels are space separated (an empty entry means no position)."""
    if isinstance(values, str):
        return tuple((ch,) for ch in values)
    return tuple(tuple(v.split()) for v in values)
