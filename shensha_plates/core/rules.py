"""Each placement rule of the catalog as a typed value, parsed once (issue 29 item 1).

The catalog reads a rule's TOML table into a :class:`~shensha_plates.core.catalog.Rule` (its kind and its
fields, validated with a message naming file, entry, field and value); :func:`placing` turns it into one
of the frozen values below, once per rule (cached), and the engine dispatches on their types instead of
reading an untyped bag of fields by name.

>>> from shensha_plates.core.catalog import default_catalog
>>> placing(default_catalog().spirit("tian_ma").rule)
RingPlacing(ring='L6', offsets=(0,), at=None)
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from collections.abc import Sequence
from typing import Any, Protocol

from shensha_plates.core.cycle import BRANCHES


class RuleFields(Protocol):
    """What :func:`placing` reads of the catalog's rule: its kind and its fields by name."""

    @property
    def kind(self) -> str: ...

    def get(self, name: str, default: Any = None) -> Any: ...

__all__ = ["table_entries", "StepPlacing", "AlternatePlacing", "TablePlacing", "FixedPlacing", "RingPlacing", "OppositePlacing",
           "Placing", "placing"]


@dataclass(frozen=True, slots=True)
class StepPlacing:
    """From ``start``, ``step`` branches on for each value of ``key``."""

    key: str
    start: int
    step: int

    def branch(self, value: int) -> int:
        return (self.start + self.step * value) % 12


@dataclass(frozen=True, slots=True)
class AlternatePlacing:
    """From ``start``: one branch on every second value, the opposite branch between (顺逆相间)."""

    key: str
    start: int

    def branch(self, value: int) -> int:
        return (self.start + value // 2 + 6 * (value % 2)) % 12


@dataclass(frozen=True, slots=True)
class TablePlacing:
    """The labels (branches, stems, trigrams, pillars) for each value of ``key``."""

    key: str
    entries: tuple[tuple[str, ...], ...]


@dataclass(frozen=True, slots=True)
class FixedPlacing:
    """The same labels whatever the state (day spirits that need a day all the same)."""

    labels: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class RingPlacing:
    """On a disc, at these slot offsets (or, with ``at``, at a label for each value)."""

    ring: str
    offsets: tuple[int, ...]
    at: tuple[str, ...] | None


@dataclass(frozen=True, slots=True)
class OppositePlacing:
    """Opposite (冲) another spirit."""

    of: str


Placing = StepPlacing | AlternatePlacing | TablePlacing | FixedPlacing | RingPlacing | OppositePlacing


def table_entries(values: str | Sequence[str]) -> tuple[tuple[str, ...], ...]:
    """A table's values as a tuple of label tuples: a string gives one label per character; in a list,
    each entry's labels are space separated (an empty entry means no position)."""
    if isinstance(values, str):
        return tuple((ch,) for ch in values)
    return tuple(tuple(v.split()) for v in values)


@lru_cache(maxsize=4096)
def placing(rule: RuleFields) -> Placing:
    """The typed value of a validated rule (the catalog has checked its fields already)."""
    kind = rule.kind
    if kind == "step":
        return StepPlacing(str(rule.get("key")), BRANCHES.index(rule.get("start")), int(rule.get("step")))
    if kind == "alternate":
        return AlternatePlacing(str(rule.get("key")), BRANCHES.index(rule.get("start")))
    if kind == "table":
        return TablePlacing(str(rule.get("key")), table_entries(rule.get("values")))
    if kind == "fixed":
        return FixedPlacing(tuple(label for entry in table_entries(rule.get("values")) for label in entry))
    if kind == "ring":
        offs = rule.get("offset")
        at = rule.get("at")
        offsets = tuple(offs) if isinstance(offs, tuple) else () if offs is None else (int(offs),)
        return RingPlacing(str(rule.get("ring")), offsets, None if at is None else tuple(at))
    if kind == "opposite":
        return OppositePlacing(str(rule.get("of")))
    raise ValueError(f"rule kind {kind!r} has no placing")
