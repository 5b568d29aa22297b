"""Entry point of ``shensha-plates``: sets up the signals, then runs the one command line,
:mod:`shensha_plates.commands` (where every command is registered); no command (or ``gui``) opens
the window, whose options and start are here.

Qt is imported only for the commands that need it, so ``show`` runs where no Qt can load. The
window's own options are checked, and a display looked for, before Qt is started: a bad option is
a usage error and a missing display one line pointing to ``snapshot``, never a window opened
anyway or a Qt abort with a core dump.
"""

from __future__ import annotations

import os
import signal
import sys


def _quiet_exit(signum: int, frame: object) -> None:
    os._exit(128 + signum)


# Ctrl+C from the program's first line on is a quiet exit (130), not a traceback from the middle of
# an import; main() then installs the full handling (shensha_plates.core.interrupt). Only where
# Python's own handler is in place: a process that set its own keeps it.
_ORIGINAL: list[tuple[int, object]] = []  # the handlers replaced here, put back for the window
try:
    for _name, _python_default in (("SIGINT", signal.default_int_handler), ("SIGTERM", signal.SIG_DFL),
                                   ("SIGHUP", signal.SIG_DFL)):
        if hasattr(signal, _name) and signal.getsignal(getattr(signal, _name)) is _python_default:
            _ORIGINAL.append((getattr(signal, _name), _python_default))
            signal.signal(getattr(signal, _name), _quiet_exit)
except ValueError:  # imported outside the main thread
    pass


def _original_handlers() -> None:
    """The handlers the process started with: the window runs Qt's event loop, where a Python
    handler would wait for Python code to run (a SIGTERM would not end a window showing a dialog)."""
    for signum, handler in _ORIGINAL:
        try:
            signal.signal(signum, handler)  # type: ignore[arg-type]
        except (ValueError, TypeError):
            pass

from collections.abc import Sequence  # noqa: E402 - after the handler, on purpose
from typing import TYPE_CHECKING, TextIO  # noqa: E402

from shensha_plates.core import interrupt  # noqa: E402
from shensha_plates.core.lang import LANGS  # noqa: E402

if TYPE_CHECKING:
    import argparse

    from shensha_plates.core.arguments import CommandParser
    from shensha_plates.gui.model import Snapshot

# Everything else is imported by main, after Ctrl+C has been made a quiet exit (importing the
# command line's modules is most of a text command's start-up, where Ctrl+C printed a traceback).

__all__ = ["main", "window_parser", "add_window_arguments", "run_window"]

WINDOW_LANGS = LANGS


def add_window_arguments(p: argparse.ArgumentParser) -> None:
    """The options of ``gui`` (registered in :mod:`shensha_plates.commands`): the language and the
    state to open at, as ``show`` and ``ke`` take it (none: the state the window was left in)."""
    from shensha_plates.core.arguments import add_state_arguments
    p.add_argument("--lang", choices=WINDOW_LANGS, default=None,
                   help="the window's language: simplified (zh-Hans) or traditional (zh-Hant) characters")
    add_state_arguments(p)
    p.add_argument("--general", help="the month general's branch (月将), e.g. 寅; with --date it must agree")
    p.add_argument("--check", action="store_true",
                   help="open the window, print one line once it is painted ('painted', the monotonic clock "
                        "and processor seconds, width, height, the state shown) and close it: a check that "
                        "the window starts (the bundle's test and bench use it)")


_STATE_FLAGS = ("date", "now", "year", "month", "xun", "day", "hour", "tz", "year_start", "month_basis", "zi_hour")


def window_start(args: argparse.Namespace) -> Snapshot | None:
    """Where the window opens, from ``gui``'s state arguments (None: none given, the saved state).
    Bad input raises :class:`shensha_plates.core.errors.ShenshaError` before Qt starts."""
    from shensha_plates.core.arguments import UsageError, resolve_calendar
    from shensha_plates.core.errors import InputError
    from shensha_plates.core.liuren.cli import parse_general, split_choices
    from shensha_plates.gui.model import Snapshot
    if not (any(getattr(args, k, None) for k in _STATE_FLAGS) or args.general or args.variant):
        return None
    if not any(getattr(args, k, None) for k in _STATE_FLAGS):
        raise UsageError("--general and --variant open the window at a state: give --date (or --now), or "
                         "--year and --month (with --xun, --day, --hour) as well")
    ke, options = split_choices(args.variant)
    state, info = resolve_calendar(args)
    general = None if args.general is None else parse_general(args.general)
    if info is not None and general is not None:
        from shensha_plates.core.cycle import BRANCHES
        from shensha_plates.core.liuren import month_general_at
        at_date = month_general_at(info.moment, ke).general
        if general != at_date:
            raise InputError(f"--general {args.general.strip()!r} disagrees with the date: the month general "
                             f"then is {BRANCHES[at_date]}; leave out --general or give the date's")
        general = None  # the date's, as the window keeps it
    return Snapshot(state, options, info, general, ke if ke.choices else None)


def window_parser() -> CommandParser:
    """``gui``'s options alone (the program's command line is :mod:`shensha_plates.commands`)."""
    from shensha_plates.core.arguments import CommandParser
    p = CommandParser(prog="shensha-plates gui", description="Open the window (also: shensha-plates with no command).")
    add_window_arguments(p)
    return p


def run_window(options: argparse.Namespace, out: TextIO | None, err: TextIO | None) -> int:
    """Open the window; a display that cannot be reached is one line and status 2, before Qt starts."""
    from shensha_plates.core.arguments import rejected_warnings
    from shensha_plates.core.terminal import EXIT_USAGE, say
    from shensha_plates.gui.qt_start import display_problem, prepare_qt_locale
    start = window_start(options)  # bad input: one line (by the caller), before any window
    for line in rejected_warnings(options.variant):  # a rejected reading is never chosen silently
        say(err, line.removeprefix("shensha-plates: "))
    for note in getattr(options, "notes", ()):
        say(err, f"note: {note}")
    problem = display_problem()
    if problem:
        say(err, f"error: cannot open the window: {problem}; to draw a plate without a display use "
                 "'shensha-plates snapshot --year 丙午 --month 11 --xun 甲辰 -o plate.png' (or 'show' for text)")
        return EXIT_USAGE
    prepare_qt_locale()
    from shensha_plates.gui.shell.app import run_app
    return run_app([], lang=options.lang, start=start, check=out if options.check else None)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command ``argv`` (the process's arguments by default; the command line is
    :mod:`shensha_plates.commands`). On the command line, Ctrl+C, SIGTERM and SIGHUP end it quietly
    with status 128 + the signal (130 for Ctrl+C) and no file written
    (:mod:`shensha_plates.core.interrupt`); the window keeps Python's own handling."""
    restore = interrupt.install()
    try:
        from shensha_plates.commands import WINDOW, parse, run
        from shensha_plates.core.arguments import UsageError
        from shensha_plates.core.terminal import EXIT_USAGE, decode_argv, say
        try:
            args = parse(decode_argv(sys.argv[1:]) if argv is None else list(argv))
        except UsageError as e:
            say(sys.stderr, f"error: {e}")
            return EXIT_USAGE
        if args.command == WINDOW:
            restore()
            _original_handlers()
        return run(args, sys.stdout, sys.stderr)
    except KeyboardInterrupt:  # raised only while a file was written, after the writer cleaned up
        interrupt.end_open_line()  # a progress line left open (the booklet's) is ended before the prompt
        return interrupt.exit_status(interrupt.pending() or 2)
    finally:
        if argv is not None:  # called from a process that goes on (a test): its handlers back
            restore()


if __name__ == "__main__":
    raise SystemExit(main())
