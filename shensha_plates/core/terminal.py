"""The terminal side of every command: output written whole through :func:`emit`, one line on stderr
through :func:`say`, the exit status for bad input (:data:`EXIT_USAGE`), and the arguments as typed
(:func:`decode_argv`).

Output that cannot be written (a full disk, a closed standard output) or encoded (an ASCII or
Latin-1 terminal) is one line on stderr and exit status 2; JSON falls back to ASCII escapes and
succeeds; a reader that went away (``| head``) ends the output quietly.
"""

from __future__ import annotations

import io
import json
import os
import re
import sys
from collections.abc import Sequence
from typing import TextIO

from shensha_plates.core.errors import one_line

__all__ = ["EXIT_USAGE", "write_safely", "say", "emit", "decode_argv"]

EXIT_USAGE = 2


def write_safely(stream: TextIO | None, text: str) -> None:
    """Write ``text`` to ``stream`` (stderr) whatever its encoding (what it cannot encode as
    backslash escapes), and flush; never raises: with nowhere left to report to, nothing is said."""
    if stream is None:
        return
    try:
        try:
            stream.write(text)
        except UnicodeEncodeError:
            stream.write(text.encode("ascii", "backslashreplace").decode("ascii"))
        stream.flush()
    except (OSError, ValueError):
        pass


def say(err: TextIO | None, line: str) -> None:
    """Write one line to ``err`` (stderr), whatever its encoding; never raises."""
    write_safely(err, f"shensha-plates: {one_line(line)}\n")


def _ascii_json(text: str) -> str:
    """JSON text with every non-ASCII character escaped: the same document (JSON puts such
    characters only inside strings), as ``ensure_ascii=True`` would have written it."""
    return re.sub(r"[^\x00-\x7f]", lambda m: json.dumps(m.group())[1:-1], text)


def emit(text: str, out: TextIO | None, err: TextIO | None, is_json: bool = False) -> int:
    """Write a command's whole output; the exit status: 0, or 2 after one line on ``err`` when the
    output cannot be encoded for ``out`` (JSON is then escaped to ASCII instead) or written to it.
    A reader that went away (``| head``) ends the output quietly with status 0."""
    if out is None:
        say(err, "error: cannot write the output: standard output is closed")
        return EXIT_USAGE
    encoding = getattr(out, "encoding", None)
    if encoding:
        try:
            # JSON is checked strictly: a stream set to replace what it cannot encode would turn
            # the data into question marks, where escapes keep it whole
            text.encode(encoding, "strict" if is_json else getattr(out, "errors", None) or "strict")
        except UnicodeEncodeError as e:
            if is_json:
                text = _ascii_json(text)
            else:
                bad = e.object[e.start:e.end]
                say(err, f"error: cannot print the output: standard output's encoding ({encoding}) cannot "
                         f"show {ascii(bad)} (use a UTF-8 locale, set PYTHONIOENCODING=utf-8, or ask for "
                         "--format json)")
                return EXIT_USAGE
    try:
        out.write(text)
        out.flush()
    except BrokenPipeError:
        _discard(out)
        return 0
    except (OSError, ValueError) as e:
        _discard(out)
        reason = e.strerror if isinstance(e, OSError) and e.strerror else "standard output is closed"
        say(err, f"error: cannot write the output: {reason}")
        return EXIT_USAGE
    return 0


def _discard(out: TextIO) -> None:
    """Point ``out``'s file descriptor at the null device, so that the interpreter's last flush of
    what could not be written does not fail a second time with a traceback."""
    try:
        fd = out.fileno()
        null = os.open(os.devnull, os.O_WRONLY)
    except (OSError, ValueError, io.UnsupportedOperation):
        return
    try:
        os.dup2(null, fd)
    except OSError:
        pass
    finally:
        os.close(null)


def decode_argv(argv: Sequence[str]) -> list[str]:
    """Arguments as they were typed. Under a locale whose encoding is not UTF-8, Python decodes
    the argument bytes with that encoding (lone surrogates for what it cannot read, mojibake under
    Latin-1); arguments whose bytes are valid UTF-8 are read as UTF-8 instead, others are kept (and
    shown readably by :func:`shensha_plates.core.errors.one_line`). A no-op under a UTF-8 locale."""
    if sys.getfilesystemencoding().lower().replace("-", "") == "utf8":
        return list(argv)
    decoded = []
    for arg in argv:
        try:
            decoded.append(os.fsencode(arg).decode("utf-8"))
        except (UnicodeEncodeError, UnicodeDecodeError):
            decoded.append(arg)
    return decoded
