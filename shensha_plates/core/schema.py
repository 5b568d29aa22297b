"""One reader for every rule file: a file read into its TOML tree, and each of its tables read by a
declarative description of its fields into typed values (issue 29 item 1).

A :class:`Table` lists a table's fields, each with its :data:`Kind` (a function that checks one value
and turns it into the typed value the program keeps: a branch character into its index, a list into a
tuple), whether it is required and its default. :meth:`Table.read` checks the table whole — not a
table, a field not in the list, a required field missing, a value of the wrong kind — and gives the
typed values (or, with ``build``, the frozen value made from them). :func:`entries` reads an array of
tables, naming each entry as the file's readers name it (``spirit tian_ma``, ``pattern 2``), and
:func:`read_toml` reads a file: bytes, UTF-8, TOML and ``schema_version``.

Every fault is one :class:`~shensha_plates.core.errors.CatalogError` naming the file, the entry, the
field and the value; each kind's problem text can be given, so every file keeps the messages its
damaged-data tests expect. What a schema cannot say (one field read against another, a table against
another file) stays in the reader, as code after :meth:`Table.read`.

Why our own and not a library such as msgspec (checked: msgspec 0.23 installs here as a 724 KB C
extension): its errors name a path (``Expected `str`, got `int` - at `$.spirit[1].name```), not our
entry ids, and do not quote the value; most of our checks are not types at all (a branch character, a
label that lies on the ring slot, a sentence template's fields, a seed code), so they would stay
hand-written beside it; and importing it costs about 20 ms (``python -X importtime -c "import
msgspec"``), more than all the rule files take to validate from the parse cache. This module is small,
pure Python and imports nothing beyond the standard library.

>>> book = Table({"id": Field(text()), "note": Field(text(), required=False, default="")})
>>> book.read(Where("plate.toml", "book a"), {"id": "a"}) == {"id": "a", "note": ""}
True
>>> book.read(Where("plate.toml", "book a"), {"id": "a", "colour": "red"})
Traceback (most recent call last):
...
shensha_plates.core.errors.CatalogError: catalog plate.toml: entry book a, field colour = 'red': unknown field (allowed: id, note)
"""

from __future__ import annotations

import re
import string
from collections.abc import Callable, Collection, Iterator, Mapping
from dataclasses import dataclass, field
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any, Final

from shensha_plates.core import tomlcache
from shensha_plates.core.cycle import BRANCHES, STEMS
from shensha_plates.core.datafile import read_file
from shensha_plates.core.errors import CatalogError

__all__ = ["Where", "Kind", "Field", "Table", "read_toml", "entries", "variants_of", "as_is", "skip", "text", "string_", "boolean", "one_of",
           "branch", "branches", "stems", "text_list", "nested", "checked", "matching", "sequence_of", "template_fields",
           "SCHEMA_VERSION"]

SCHEMA_VERSION: Final = 1


class Where:
    """The file and the entry being read, for the error messages."""

    __slots__ = ("file", "entry")

    def __init__(self, file: str, entry: str = "(file)") -> None:
        self.file = file
        self.entry = entry

    def fail(self, fieldname: str, value: object, problem: str) -> CatalogError:
        return CatalogError(self.file, self.entry, fieldname, value, problem)

    def at(self, entry: str) -> Where:
        return Where(self.file, entry)


Kind = Callable[[Where, str, Any], Any]
"""Checks one value (``where.fail(field, value, …)`` when it is wrong) and gives its typed value."""


@dataclass(frozen=True, slots=True)
class Field:
    """One field: its kind, whether it must be given, its value when it is not, and (``missing``) what
    is said when a required field is not given, where that is said otherwise than for the table (an
    empty text: its kind is given None, and says what it says of a wrong value)."""

    kind: Kind
    required: bool = True
    default: Any = None
    missing: str | None = None


@dataclass(frozen=True, slots=True)
class Table:
    """A table's fields. ``build`` makes the typed value from the fields read (by name); without it
    :meth:`read` gives them as a dict. The problem texts: ``unknown`` may name ``{allowed}``, a list of
    the fields (``{sorted}``: in alphabetical order); ``missing`` is said of a required field not given
    (None or empty: its kind is given None, and says what it says of a wrong value). ``check`` sees the
    fields read (and the raw table, to quote a value as written) before ``build``: what one field says
    of another, which no field's kind can see; it may finish reading a field that depends on another.

    The fields are read in the file's order, a field it does not have refused as it comes (one pass:
    start-up reads every table of the catalog), then the required ones not given are named in the
    order declared."""

    fields: Mapping[str, Field]
    build: Callable[..., Any] | None = None
    check: Callable[[Where, str, dict[str, Any], Mapping[str, Any]], None] | None = None
    unknown: str = "unknown field (allowed: {allowed})"
    missing: str | None = "missing"
    not_table: str = "expected a table"
    allowed: tuple[str, ...] = field(default=(), compare=False)
    _kinds: Mapping[str, Kind] = field(default_factory=dict, compare=False, repr=False)
    _defaults: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)
    _required: frozenset[str] = field(default=frozenset(), compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "allowed", tuple(self.fields))
        object.__setattr__(self, "_kinds", {k: f.kind for k, f in self.fields.items()})
        object.__setattr__(self, "_defaults", {k: f.default for k, f in self.fields.items() if not f.required})
        object.__setattr__(self, "_required", frozenset(k for k, f in self.fields.items() if f.required))

    def _unknown(self, where: Where, raw: Mapping[str, Any], k: str, prefix: str) -> CatalogError:
        return where.fail(prefix + str(k), raw[k], self.unknown.format(
            allowed=", ".join(self.allowed), sorted=", ".join(sorted(self.allowed))))

    def check_fields(self, where: Where, raw: Mapping[str, Any], prefix: str = "") -> None:
        """A field the table does not have is refused (the first one, in the file's order)."""
        for k in raw:
            if k not in self._kinds:
                raise self._unknown(where, raw, k, prefix)

    def read(self, where: Where, raw: object, prefix: str = "", name: str = "(table)") -> Any:
        """The typed values of the table ``raw``; ``prefix`` goes before each field's name in a message
        (``rule.`` for a field of a nested table), ``name`` names the table itself when it is not one."""
        if not isinstance(raw, dict):
            raise where.fail(prefix.rstrip(".") or name, raw, self.not_table)
        kinds = self._kinds
        out: dict[str, Any] = self._defaults.copy() if self._defaults else {}
        for k, value in raw.items():
            kind = kinds.get(k)
            if kind is None:
                raise self._unknown(where, raw, k, prefix)
            if kind is skip:
                continue
            out[k] = value if kind is as_is else kind(where, prefix + k if prefix else k, value)
        if not self._required <= raw.keys():
            for fname, spec in self.fields.items():
                if spec.required and fname not in raw:
                    missing = self.missing if spec.missing is None else spec.missing
                    if missing:
                        raise where.fail(prefix + fname, None, missing)
                    out[fname] = spec.kind(where, prefix + fname, None)  # its kind says what is wrong
        if self.check is not None:
            self.check(where, prefix, out, raw)
        return out if self.build is None else self.build(**out)


def entries(where: Where, raw: object, key: str, name: Callable[[int, Any], str], *,
            not_array: str = "expected an array of tables", nonempty: bool = False,
            not_table: str = "expected a table", table_field: str | None = None,
            array_at: tuple[str, str] | None = None) -> Iterator[tuple[Where, Any]]:
    """Each entry of the array of tables ``raw`` (the file's ``[[key]]``), with where it is: the entry
    named by ``name(index, table)``. A value that is not an array (or is empty, with ``nonempty``) is
    refused as the field ``key`` of the file (or as ``array_at``, an entry and a field); an entry that
    is not a table, as ``table_field`` (default ``key``) of that entry."""
    if not isinstance(raw, list) or (nonempty and not raw):
        if array_at is not None:
            raise where.at(array_at[0]).fail(array_at[1], raw, not_array)
        raise where.fail(key, raw, not_array)
    for i, item in enumerate(raw):
        at = where.at(name(i, item))
        if not isinstance(item, dict):
            raise at.fail(table_field or key, item, not_table)
        yield at, item


def variants_of(where: Where, raw: Mapping[str, Any], table: Table) -> Iterator[tuple[str, dict[str, Any], Mapping[str, Any]]]:
    """Each ``[[…variant]]`` of an entry read by ``table``: its field prefix (``variant[j]``), its read
    values and its raw table; a variant that is not a table with a string ``id`` is refused first."""
    for j, rv in enumerate(raw.get("variant", [])):
        vf = f"variant[{j}]"
        if not isinstance(rv, dict) or not isinstance(rv.get("id"), str):
            raise where.fail(f"{vf}.id", rv, "a variant needs an id")
        yield vf, table.read(where, rv, vf + "."), rv


def read_toml(name: str, source: Path | Traversable, version: int | None = SCHEMA_VERSION) -> dict[str, Any]:
    """The TOML tree of a rule file (through :mod:`shensha_plates.core.tomlcache`), with its
    ``schema_version`` checked when ``version`` is given. A file that cannot be read (a dangling link,
    a folder, no permission, a FIFO, which is never waited on), is not UTF-8 or not TOML is one
    :class:`CatalogError` naming the file."""
    where = Where(name)
    try:
        raw = read_file(source) if isinstance(source, Path) else source.read_bytes()
    except OSError as e:
        raise where.fail("(file)", None, f"cannot be read: {e.strerror or e}") from None
    try:
        text_ = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise where.fail("(encoding)", None, f"not UTF-8 text (bad byte at offset {e.start})") from None
    try:
        data = tomlcache.loads(text_, raw)
    except ValueError as e:  # tomllib.TOMLDecodeError (tomllib is imported only when a file is parsed)
        raise where.fail("(syntax)", None, f"not valid TOML: {e}") from None
    if version is not None and data.get("schema_version") != version:
        raise where.fail("schema_version", data.get("schema_version"), f"this program reads schema version {version}")
    return data


# -- kinds ------------------------------------------------------------------------------------------

def as_is(where: Where, f: str, value: Any) -> Any:
    """Any value, kept as it is (for the table's check to read, when it depends on another field)."""
    return value


def skip(where: Where, f: str, value: Any) -> Any:
    """A field the table may have that is not among its typed values (a rule's ``kind``, read
    before the table is chosen)."""
    return value

def text(problem: str = "must be a non-empty string", blank: str | None = None, *, empty: bool = False) -> Kind:
    """A string with something in it (any string, with ``empty``); ``blank`` is the problem of a string
    of spaces, when it is said otherwise than that of a value that is no string."""
    def read(where: Where, f: str, value: Any) -> str:
        if not isinstance(value, str):
            raise where.fail(f, value, problem)
        if not (empty or value.strip()):
            raise where.fail(f, value, blank or problem)
        return value
    return read


def string_(problem: str = "must be a text") -> Kind:
    """Any string, empty or not."""
    return text(problem, empty=True)


def boolean(problem: str = "expected true or false") -> Kind:
    def read(where: Where, f: str, value: Any) -> bool:
        if not isinstance(value, bool):
            raise where.fail(f, value, problem)
        return value
    return read


def one_of(allowed: Collection[object], problem: str | None = None) -> Kind:
    """One of the values ``allowed`` (``True`` is not taken for 1)."""
    words = problem or f"expected one of {', '.join(str(a) for a in allowed)}"
    strings = frozenset(a for a in allowed if type(a) is str)

    def read(where: Where, f: str, value: Any) -> Any:
        if type(value) is str and value in strings:
            return value
        if isinstance(value, bool) or isinstance(value, list | dict) or value not in allowed:
            raise where.fail(f, value, words)
        return value
    return read


def branch(problem: str = f"expected a branch ({BRANCHES})") -> Kind:
    """One branch character, as its index."""
    def read(where: Where, f: str, value: Any) -> int:
        if not (isinstance(value, str) and len(value) == 1 and value in BRANCHES):
            raise where.fail(f, value, problem)
        return BRANCHES.index(value)
    return read


def branches(problem: str = "must be branches written together, e.g. 寅申巳亥") -> Kind:
    """Branch characters written together (at least one), as a tuple of indices."""
    def read(where: Where, f: str, value: Any) -> tuple[int, ...]:
        if not isinstance(value, str) or not value or any(ch not in BRANCHES for ch in value):
            raise where.fail(f, value, problem)
        return tuple(BRANCHES.index(ch) for ch in value)
    return read


def stems(problem: str = "must be stems written together, e.g. 庚辛") -> Kind:
    """Stem characters written together (at least one), as a tuple of indices."""
    def read(where: Where, f: str, value: Any) -> tuple[int, ...]:
        if not isinstance(value, str) or not value or any(ch not in STEMS for ch in value):
            raise where.fail(f, value, problem)
        return tuple(STEMS.index(ch) for ch in value)
    return read


def text_list(problem: str = "expected a list of non-empty strings", *, nonempty: bool = False,
              blank: bool = False) -> Kind:
    """A list of strings (non-empty ones unless ``blank``; at least one with ``nonempty``), as a tuple."""
    def read(where: Where, f: str, value: Any) -> tuple[str, ...]:
        if (not isinstance(value, list) or (nonempty and not value)
                or not all(isinstance(v, str) and (blank or v.strip()) for v in value)):
            raise where.fail(f, value, problem)
        return tuple(value)
    return read


def nested(table: Table) -> Kind:
    """A table inside the table, read by its own description (its fields named ``outer.inner``)."""
    def read(where: Where, f: str, value: Any) -> Any:
        return table.read(where, value, f + ".")
    return read


def template_fields(sentence: str) -> set[str] | None:
    """The ``{fields}`` a sentence template names (None when it is not a valid template)."""
    try:
        return {f for _, f, _, _ in string.Formatter().parse(sentence) if f}
    except ValueError:
        return None


def matching(pattern: re.Pattern[str], problem: str, base: Kind) -> Kind:
    """A string that ``pattern`` matches (an id, say); ``base`` says what is wrong with a value that is
    no string or is blank (the common case, a good value, costs one match: every entry has an id)."""
    match = pattern.match

    def read(where: Where, f: str, value: Any) -> str:
        if type(value) is str and match(value):
            return value
        base(where, f, value)
        raise where.fail(f, value, problem)
    return read


def checked(kind: Kind, test: Callable[[Any], bool], problem: str) -> Kind:
    """``kind``, and then ``test`` of its typed value must hold."""
    def read(where: Where, f: str, value: Any) -> Any:
        out = kind(where, f, value)
        if not test(out):
            raise where.fail(f, value, problem)
        return out
    return read


def sequence_of(kind: Kind, problem: str, *, nonempty: bool = True) -> Kind:
    """A list whose every item is of ``kind``, as a tuple (the item at fault is named by its field)."""
    def read(where: Where, f: str, value: Any) -> tuple[Any, ...]:
        if not isinstance(value, list) or (nonempty and not value):
            raise where.fail(f, value, problem)
        return tuple(kind(where, f, v) for v in value)
    return read

