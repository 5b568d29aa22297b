"""Error types of the Shensha Plates core.

Every error the core raises derives from :class:`ShenshaError`; the ones caused by a bad value
are also :class:`ValueError`, so callers that only know the standard library still catch them.
Messages quote the offending value and say what would be valid.
"""

from __future__ import annotations

__all__ = ["ShenshaError", "InputError", "CatalogError", "CalendarError", "one_line"]


class ShenshaError(Exception):
    """Base class of every error raised by :mod:`core`."""


class InputError(ShenshaError, ValueError):
    """A stem, branch, pillar, month, xun, variant or other user value is not valid.

    >>> raise InputError("invalid branch: '甲' (expected one of 子丑寅卯辰巳午未申酉戌亥)")
    Traceback (most recent call last):
    ...
    core.errors.InputError: invalid branch: '甲' (expected one of 子丑寅卯辰巳午未申酉戌亥)
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


def one_line(message: object) -> str:
    """A message as a single printable line: control characters (a newline typed into an
    argument, say) are shown escaped, so an error is always exactly one line.

    >>> one_line("unrecognized arguments: \\n\\t")
    'unrecognized arguments: \\\\n\\\\t'
    """
    text = str(message)
    return "".join(ch if ch.isprintable() or ch == " " else repr(ch)[1:-1] for ch in text)
