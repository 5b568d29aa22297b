"""The command line's shared arguments: the parser whose errors are one line (:class:`CommandParser`,
:class:`UsageError`), the options that name a state or a moment (``--year … --hour``, ``--date``,
``--now`` and the calendar conventions) and their reading into a :class:`~shensha_plates.core.engine.State`,
ASCII numbers, and the warning for a chosen reading Zhuang rejects.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import Any, NoReturn

from shensha_plates.core.engine import Options, State
from shensha_plates.core.errors import ShenshaError
from shensha_plates.core.terminal import EXIT_USAGE, emit

__all__ = ["UsageError", "CommandParser", "add_state_arguments", "add_date_arguments", "rejected_warnings",
           "resolve_state", "resolve_calendar", "ascii_number", "read_moment"]


class UsageError(ShenshaError, ValueError):
    """A command-line argument is malformed."""


class CommandParser(argparse.ArgumentParser):
    """An argument parser whose errors are exceptions (:class:`UsageError`, turned into one line and
    exit status 2 by the command line)."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{message} (usage: {self.prog} --help)")

    def _print_message(self, message: str, file: Any = None) -> None:
        # --help and --version: through emit, so an ASCII terminal gets one line, not a traceback
        if message and emit(message, sys.stdout if file is None else file, sys.stderr) != 0:
            raise SystemExit(EXIT_USAGE)


def add_state_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--year", help="year as a 甲子 (丙午) or a bare branch (午)")
    p.add_argument("--month", help="month 1–12 (1 = 正月, the 寅 month), a month word or its branch")
    p.add_argument("--xun", help="the xun by its head: 甲子 甲戌 甲申 甲午 甲辰 甲寅 (default: the day's)")
    p.add_argument("--day", help="the day as a 甲子, e.g. 庚戌")
    p.add_argument("--hour", help="the hour branch, e.g. 午")
    p.add_argument("--variant", action="append", default=[], metavar="ID=CHOICE",
                   help="choose a variant reading, e.g. tian_xi=shun_twelve or palaces=kaoyuan; repeatable")
    add_date_arguments(p.add_argument_group("from a date (instead of --year/--month/--xun/--day)"),
                       "date and time, e.g. 2026-12-02T18:00")


def add_date_arguments(cal: Any, date_help: str) -> None:
    """--date and --now (mutually exclusive), --tz and the calendar conventions."""
    moment = cal.add_mutually_exclusive_group()
    moment.add_argument("--date", help=date_help + "; a time the clocks show twice (autumn) is the first "
                        "unless an offset such as -05:00 is given")
    moment.add_argument("--now", action="store_true", help="use the current date and time")
    cal.add_argument("--tz", default=None, help="time zone of --date (default Asia/Shanghai)")
    cal.add_argument("--year-start", default=None, choices=("lichun", "lichun-day", "new-year"),
                     help="where the year starts: 立春 exact moment (default), 立春 day, lunar new year")
    cal.add_argument("--month-basis", default=None, choices=("jie", "lunar"),
                     help="months by the solar terms 节 (default) or by lunar months")
    cal.add_argument("--zi-hour", default=None, choices=("next-day", "same-day"),
                     help="the late 子 hour (23:00–24:00) counts to the next day (default) or the same day")


def rejected_warnings(choices: Sequence[str]) -> list[str]:
    """One warning line for every chosen reading that Zhuang rejects (never chosen silently)."""
    from shensha_plates.core.variants import rejected_choices
    return [f"shensha-plates: warning: {s.id}={vid} ({s.name}) is a reading Zhuang rejects (verdict: rejected)"
            for s, vid in rejected_choices(Options.from_choices(choices))]


def resolve_state(args: argparse.Namespace) -> tuple[State, dict[str, Any] | None]:
    """The state the arguments describe, and the calendar details when it came from a date."""
    state, info = resolve_calendar(args)
    return state, None if info is None else info.to_json()


def resolve_calendar(args: argparse.Namespace) -> tuple[State, Any]:
    """The state the arguments describe, and the :class:`shensha_plates.core.calendar.CalendarInfo` when it came
    from a date (else ``None``)."""
    if args.date or args.now:
        if any(getattr(args, k) for k in ("year", "month", "xun", "day", "hour")):
            raise UsageError("give either --date/--now or --year/--month/--xun/--day, not both")
        from shensha_plates.core.calendar import from_datetime
        moment, opts = read_moment(args)
        info = from_datetime(moment, opts)
        return info.state, info
    for flag in ("tz", "year_start", "month_basis", "zi_hour"):
        if getattr(args, flag):
            raise UsageError(f"--{flag.replace('_', '-')} only applies with --date or --now")
    if not args.year or not args.month:
        raise UsageError("--year and --month are required (or give --date or --now)")
    return State.parse(args.year, args.month, args.xun, args.day, args.hour), None


def ascii_number(text: str) -> int:
    """An argparse ``type``: a whole number in ASCII digits (``int()`` would also take ``١٥٠``)."""
    from shensha_plates.core.cycle import ascii_int
    n = ascii_int(text.strip())
    if n is None:
        raise argparse.ArgumentTypeError(f"invalid number: {text!r} (expected digits 0–9)")
    return n


def read_moment(args: argparse.Namespace) -> tuple[Any, Any]:
    """The moment (``--date`` or ``--now``) and the calendar options the arguments give. A time the
    clocks show twice adds a note (printed on stderr by :func:`run`) saying which was taken."""
    from shensha_plates.core.calendar import CalendarOptions, clock_note, now, parse_datetime
    opts = CalendarOptions.from_cli(tz=args.tz, year_start=args.year_start, month_basis=args.month_basis,
                                    zi_hour=args.zi_hour)
    moment = now(opts) if args.now else parse_datetime(args.date, opts)
    note = clock_note(moment)
    if note and note not in getattr(args, "notes", ()):
        args.notes = [*getattr(args, "notes", []), note]
    return moment, opts
