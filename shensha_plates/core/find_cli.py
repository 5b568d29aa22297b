"""The ``find`` command: its options and its run (the search itself is :mod:`shensha_plates.core.find`)."""

from __future__ import annotations

import argparse
import datetime as _dt
import io
import json
from typing import TextIO

from shensha_plates.core.arguments import UsageError, add_date_arguments, ascii_number, rejected_warnings
from shensha_plates.core.formats import state_to_json
from shensha_plates.core.errors import ShenshaError
from shensha_plates.core.lang import LANGS
from shensha_plates.core.terminal import EXIT_USAGE, emit, say

__all__ = ["add_arguments", "run"]


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--from", dest="start", required=True, help="the first date, e.g. 2027-01-01")
    p.add_argument("--to", dest="end", required=True, help="the last date (included), e.g. 2027-12-31")
    p.add_argument("--every", choices=("day", "hour"), default="day",
                   help="read each day at 12:00 (or --at), or each hour at its whole even hour (00:00 子 … 22:00 亥)")
    p.add_argument("--at", default="12:00", help="the clock time each day is read at, with --every day (HH:MM)")
    p.add_argument("--where", action="append", default=[], metavar="COND",
                   help="a condition; all must hold (repeatable): 天马@午, 天德@day, day=甲子, hour=午, "
                        "ke=伏吟, chu=子, 青龙@chu, 'not 天罡@day'")
    p.add_argument("--any", action="store_true", help="at least one condition must hold (not all)")
    p.add_argument("--limit", type=ascii_number, default=None, help="stop after N results")
    p.add_argument("--format", choices=("text", "json", "ics"), default="text",
                   help="a table, a JSON array, or an iCalendar file a calendar program imports")
    p.add_argument("--variant", action="append", default=[], metavar="ID=CHOICE",
                   help="a variant reading or a Liu Ren setting, e.g. tian_xi=shun_twelve, shehai=depth; repeatable")
    p.add_argument("--lang", choices=LANGS, default="zh-Hans",
                   help="the table's language: en gives the lesson's name with its pinyin and English")
    cal = p.add_argument_group("calendar conventions")
    add_date_arguments(cal, "unused")
    # --date and --now make no sense for a range: refused with one line if given
    p.set_defaults(command="find")


def _date(text: str, what: str) -> _dt.date:
    try:
        return _dt.date.fromisoformat(text.strip())
    except ValueError:
        raise UsageError(f"invalid {what}: {text!r} (expected a date such as 2027-01-01)") from None


def _clock(text: str) -> tuple[int, int]:
    h, sep, m = text.strip().partition(":")
    if not (sep and h.isascii() and m.isascii() and h.isdigit() and m.isdigit() and len(m) == 2):
        raise UsageError(f"invalid --at: {text!r} (expected HH:MM, e.g. 12:00)")
    hour, minute = int(h), int(m)
    if not (0 <= hour <= 23 and 0 <= minute <= 59):
        raise UsageError(f"invalid --at: {text!r} (expected 00:00–23:59)")
    return hour, minute


def run(args: argparse.Namespace, out: TextIO | None = None, err: TextIO | None = None) -> int:
    from shensha_plates.core.calendar import CalendarOptions
    from shensha_plates.core.english_text import hit_line_english
    from shensha_plates.core.find import hit_line, parse_condition, search, to_ics
    buffer = io.StringIO()
    try:
        if args.date is not None or args.now:
            raise UsageError("find searches a range: give --from and --to, not --date or --now")
        start, end = _date(args.start, "--from"), _date(args.end, "--to")
        at = _clock(args.at)
        cal = CalendarOptions.from_cli(args.tz, args.year_start, args.month_basis, args.zi_hour)
        from shensha_plates.core.liuren.cli import split_choices
        kopts, options = split_choices(args.variant)
        conditions = [parse_condition(c) for c in args.where]
        for line in rejected_warnings(args.variant):
            say(err, line.removeprefix("shensha-plates: "))
        hits = list(search(start, end, conditions, every=args.every, at=at, any_of=args.any, limit=args.limit,
                           options=options, ke_options=kopts, calendar=cal))
    except ShenshaError as e:
        say(err, f"error: {e}")
        return EXIT_USAGE
    if args.format == "json":
        rows = [{"date": h.moment.isoformat(timespec="minutes"), "state": state_to_json(h.state),
                 "matched": list(h.matched), **({"ke": h.ke} if h.ke else {})} for h in hits]
        json.dump(rows, buffer, ensure_ascii=False, indent=2)
        buffer.write("\n")
    elif args.format == "ics":
        buffer.write(to_ics(hits, args.every, _dt.datetime.now(_dt.UTC).replace(microsecond=0)))
    else:
        for h in hits:
            buffer.write((hit_line_english(h) if getattr(args, "lang", "zh-Hans") == "en" else hit_line(h)) + "\n")
        buffer.write(f"({len(hits)} {'moment' if len(hits) == 1 else 'moments'} from {start.isoformat()} to "
                     f"{end.isoformat()}, {'each hour' if args.every == 'hour' else 'each day at ' + args.at})\n")
    return emit(buffer.getvalue(), out, err, args.format == "json")
