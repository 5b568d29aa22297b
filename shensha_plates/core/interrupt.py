"""Ctrl+C (SIGINT), SIGTERM and SIGHUP on the command line: a quiet exit with status 128 + the
signal's number (130 for Ctrl+C), no traceback, and no file written or changed.

Python turns SIGINT into a :class:`KeyboardInterrupt` raised wherever the program happens to be.
Raised inside Qt's drawing (``QGraphicsScene.render`` calling back into Python), it crashed the
process (a segmentation fault or an abort); raised during start-up, it printed a traceback. With
:func:`install`, a signal instead ends the process at once with :func:`os._exit`: nothing of a
file has been written while a command computes and draws, so there is nothing to undo. Only while a
file is being written (:func:`raising`, used by :func:`shensha_plates.core.datafile.write_atomic`)
does the signal raise :class:`KeyboardInterrupt`, so that the writer removes its temporary file
and leaves an existing file as it was; the command line then exits with the same status.

The window does not install this (Qt's event loop and the user's unsaved work are its own concern).
"""

from __future__ import annotations

import os
import signal
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType
from typing import Any

__all__ = ["install", "raising", "deferred", "exit_status", "set_unfinished_line", "written", "end_open_line",
           "SIGNALS"]

SIGNALS: tuple[int, ...] = tuple(getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP")
                                 if hasattr(signal, name))
_state: dict[str, Any] = {"raising": 0, "deferred": 0, "pending": None, "line": False, "written": False}


def exit_status(signum: int) -> int:
    """The shell's status for a process ended by ``signum`` (130 for SIGINT)."""
    return 128 + int(signum)


def end_open_line() -> None:
    """A progress line left open on the terminal: end it (once)."""
    if _state["line"]:
        _state["line"] = False
        try:
            os.write(2, b"\n")
        except OSError:
            pass


def _leave(signum: int) -> None:
    end_open_line()
    os._exit(exit_status(signum))


def _handler(signum: int, frame: FrameType | None) -> None:
    del frame
    if _state["written"]:  # the command's file is in place: nothing is left to stop
        return
    if _state["deferred"]:
        _state["pending"] = signum
        return
    if _state["raising"]:
        _state["pending"] = signum
        raise KeyboardInterrupt
    _leave(signum)


def install() -> Callable[[], None]:
    """End the process quietly on SIGINT, SIGTERM and SIGHUP (see the module's text); returns a
    function that puts the previous handlers back (for callers in a process that goes on, as
    tests). Only from the main thread (elsewhere it does nothing)."""
    previous: list[tuple[int, Any]] = []
    _state.update(written=False, pending=None)
    try:
        for sig in SIGNALS:
            previous.append((sig, signal.signal(sig, _handler)))
    except ValueError:  # not the main thread
        pass

    def restore() -> None:
        for sig, handler in previous:
            try:
                signal.signal(sig, handler)
            except (ValueError, TypeError):
                pass
    return restore


def pending() -> int | None:
    """The signal that arrived while a file was being written (None if none did)."""
    value: int | None = _state["pending"]
    return value


@contextmanager
def raising() -> Iterator[None]:
    """While a file is written: a signal raises :class:`KeyboardInterrupt` (the writer cleans up)."""
    _state["raising"] += 1
    try:
        yield
    finally:
        _state["raising"] -= 1


@contextmanager
def deferred() -> Iterator[None]:
    """A step that must not stop half-way (a file rewritten in place): a signal waits for its end
    and then acts (raises :class:`KeyboardInterrupt` inside :func:`raising`, else ends the process)."""
    _state["deferred"] += 1
    try:
        yield
    finally:
        _state["deferred"] -= 1
    signum = _state["pending"]
    if signum is not None and not _state["deferred"] and _installed():
        if _state["raising"]:
            raise KeyboardInterrupt
        _leave(signum)


def installed() -> bool:
    """Whether this process's signals are handled here (the command line), not by default or Qt."""
    return _installed()


def _installed() -> bool:
    try:
        return signal.getsignal(signal.SIGINT) is _handler
    except ValueError:
        return False


def written() -> None:
    """The command's file is in place (renamed over the old one): its work is done, so a signal from
    now on is let pass and the command ends as it would have (it prints the file's name, status
    0); one that came during the rename is forgotten for the same reason. The alternative, status
    130 with the new file written, would tell a script the file was not made."""
    _state["written"] = True
    _state["pending"] = None


def set_unfinished_line(open_line: bool) -> None:
    """Whether a progress line stands unfinished on stderr (a signal then ends it with a newline)."""
    _state["line"] = bool(open_line) and sys.stderr is not None
