"""Error types of the Shensha Plates core.

Every error the core raises derives from :class:`ShenshaError`; the ones caused by a bad value
are also :class:`ValueError`, so callers that only know the standard library still catch them.
Messages quote the offending value and say what would be valid.
"""

from __future__ import annotations

import ast
import re
from typing import Final

__all__ = ["ShenshaError", "InputError", "CatalogError", "CalendarError", "one_line"]


class ShenshaError(Exception):
    """Base class of every error raised by :mod:`core`."""


class InputError(ShenshaError, ValueError):
    """A stem, branch, pillar, month, xun, variant or other user value is not valid.

    >>> raise InputError("invalid branch: '甲' (expected one of 子丑寅卯辰巳午未申酉戌亥)")
    Traceback (most recent call last):
    ...
    shensha_plates.core.errors.InputError: invalid branch: '甲' (expected one of 子丑寅卯辰巳午未申酉戌亥)
    """


class CatalogError(ShenshaError, ValueError):
    """The spirit catalog is damaged; names the file, entry, field and value at fault."""

    def __init__(self, file: str, entry: str, field: str, value: object, problem: str) -> None:
        self.file = file
        self.entry = entry
        self.field = field
        self.value = value
        self.problem = problem
        super().__init__(
            f"catalog {file}: entry {entry!s}, field {field!s} = {value!r}: {problem}"
        )


class CalendarError(ShenshaError, ValueError):
    """A date, time zone or calendar convention cannot be turned into a plate state."""


LONG_VALUE: Final = 200
"""Longest quoted value (or unbroken word) an error line shows whole; longer ones are cut."""

_QUOTED: Final = re.compile(r"'(?:[^'\\\n]|\\.)*'" + r'|"(?:[^"\\\n]|\\.)*"')
_WORD: Final = re.compile(r"[^\s'\"]{" + str(LONG_VALUE + 1) + ",}")
_ESCAPED_BYTES: Final = re.compile("[\udc80-\udcff]+")
_ESCAPED_BYTES_SHOWN: Final = re.compile(r"(?:(?<!\\)\\udc[89a-f][0-9a-f])+")  # the same, as repr() shows them


def one_line(message: object) -> str:
    """A message as a single readable line, the one form every error takes on its way to the user.

    * control characters (a newline typed into an argument, say) are shown escaped, so an error
      is always exactly one line;
    * bytes that could not be decoded (an argument typed under another locale, which Python keeps
      as lone surrogates such as ``'\\udce4'``) are read as UTF-8 where they form it, else shown
      as ``\\xe4``;
    * a quoted value or an unbroken word longer than :data:`LONG_VALUE` characters is cut, saying
      how long it was.

    >>> one_line("unrecognized arguments: \\n\\t")
    'unrecognized arguments: \\\\n\\\\t'
    >>> one_line("invalid year: " + repr("\\udce4\\udcb8\\udc99\\udce5"))
    "invalid year: '丙\\\\xe5'"
    >>> one_line("invalid year: \\udce4\\udcb8\\udc99")
    'invalid year: 丙'
    >>> one_line(f"invalid day: {'x' * 40000!r}")[-30:]
    "xxxxxxxx…' (40,000 characters)"
    """
    text = _ESCAPED_BYTES.sub(_decode_escaped, str(message))
    text = _ESCAPED_BYTES_SHOWN.sub(_decode_shown, text)
    text = "".join(ch if ch.isprintable() or ch == " " else repr(ch)[1:-1] for ch in text)
    text = _QUOTED.sub(_cut_quoted, text)
    return _WORD.sub(lambda m: _cut(m.group(), len(m.group())), text)


def _decode_escaped(m: re.Match[str]) -> str:
    raw = m.group().encode("utf-8", "surrogateescape")
    return raw.decode("utf-8", "backslashreplace")


def _decode_shown(m: re.Match[str]) -> str:
    raw = bytes(int(code[2:], 16) for code in m.group().split("\\u")[1:])
    return raw.decode("utf-8", "backslashreplace")


def _cut_quoted(m: re.Match[str]) -> str:
    quoted = m.group()
    if len(quoted) <= LONG_VALUE + 2:
        return quoted
    try:
        length = len(ast.literal_eval(quoted))
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        length = len(quoted) - 2
    return f"{quoted[:LONG_VALUE // 2]}…{quoted[0]} ({length:,} characters)"


def _cut(word: str, length: int) -> str:
    return f"{word[:LONG_VALUE // 2]}… ({length:,} characters)"
