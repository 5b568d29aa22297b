"""The text commands of ``shensha-plates``: ``show`` (a plate as text or JSON), ``relate`` (the eight
relations between two positions), ``bazi``, ``select``, ``variants`` (and ``ke``'s runner). Each has
an ``add_*_arguments`` function and runs through :func:`run`; the command line that registers them
all (with ``snapshot``, ``booklet`` and ``gui``) is :mod:`shensha_plates.commands`.

What they share lives beside them: the parser and the state and date options in
:mod:`shensha_plates.core.arguments`, writing to the terminal in :mod:`shensha_plates.core.terminal`,
the text and JSON of each system's result in :mod:`shensha_plates.core.formats`. Bad input never
produces a traceback: every :class:`shensha_plates.core.errors.ShenshaError` and every argument error
becomes one line on stderr and exit status 2.
"""

from __future__ import annotations

import argparse
import io
import json
import sys
from collections.abc import Callable, Sequence
from typing import TextIO

from shensha_plates.core import english_text
from shensha_plates.core.arguments import (CommandParser, UsageError, add_date_arguments, add_state_arguments,
                                           read_moment, rejected_warnings, resolve_state)
from shensha_plates.core.engine import Options, compute_plate, split_choice
from shensha_plates.core.errors import ShenshaError
from shensha_plates.core.formats import (chart_to_json, chart_to_text, plate_to_json, plate_to_text,
                                         relations_to_json, relations_to_text, selection_to_text)
from shensha_plates.core.lang import LANGS, is_trad
from shensha_plates.core.terminal import EXIT_USAGE, decode_argv, emit, say

__all__ = ["main", "build_parser", "add_show_arguments", "add_bazi_arguments", "add_select_arguments",
           "add_relate_arguments", "add_variants_arguments", "run"]


def build_parser(prog: str = "shensha-plates") -> argparse.ArgumentParser:
    """The text commands alone (for :func:`main`, used by tests and scripts that need no Qt), with
    the same options as the program's one command line, :mod:`shensha_plates.commands`."""
    from shensha_plates.core.liuren.cli import add_arguments as add_ke_arguments
    parser = CommandParser(prog=prog, description="Zhuang Guangzhi's rotating plates of the Da Liu Ren spirits.")
    sub = parser.add_subparsers(dest="command", parser_class=CommandParser)
    for name, add, text in (
            ("show", add_show_arguments, "print what lies under each branch for a state or a date"),
            ("bazi", add_bazi_arguments, "the four pillars of a birth moment and the spirits each carries"),
            ("select", add_select_arguments, "date selection: the year and month spirits on the 24 mountains"),
            ("relate", add_relate_arguments, "the eight relations between two stems or branches"),
            ("ke", add_ke_arguments, "the Liu Ren plate"),
            ("variants", add_variants_arguments, "spirits read more than one way")):
        add(sub.add_parser(name, help=text))
    return parser


def add_show_arguments(show: argparse.ArgumentParser) -> None:
    add_state_arguments(show)
    show.add_argument("--format", choices=("text", "json"), default="text")
    show.add_argument("--lang", choices=LANGS, default="zh-Hans",
                      help="simplified (default) or traditional characters in text output")


def add_bazi_arguments(bazi: argparse.ArgumentParser) -> None:
    add_date_arguments(bazi, "birth date and time, e.g. 1990-05-17T08:30")
    bazi.add_argument("--variant", action="append", default=[], metavar="ID=CHOICE",
                      help="a variant reading, e.g. jiang_xing=shenfeng or tian_de=kaoyuan; repeatable")
    bazi.add_argument("--format", choices=("text", "json"), default="text")
    bazi.add_argument("--lang", choices=LANGS, default="zh-Hans")


def add_select_arguments(select: argparse.ArgumentParser) -> None:
    add_state_arguments(select)
    select.add_argument("--format", choices=("text", "json"), default="text")
    select.add_argument("--lang", choices=LANGS, default="zh-Hans")


def add_relate_arguments(relate: argparse.ArgumentParser) -> None:
    relate.add_argument("first", help="a stem or branch, e.g. 寅")
    relate.add_argument("second", help="another stem or branch, e.g. 亥")
    relate.add_argument("--format", choices=("text", "json"), default="text")
    relate.add_argument("--lang", choices=LANGS, default="zh-Hans")


def add_variants_arguments(variants: argparse.ArgumentParser) -> None:
    variants.add_argument("name", nargs="?", help="a spirit's id, name, traditional name or other name (default: all with variants)")
    variants.add_argument("--format", choices=("text", "json"), default="text")
    variants.add_argument("--lang", choices=LANGS, default="zh-Hans")


def _cmd_variants(args: argparse.Namespace, out: TextIO) -> int:
    from shensha_plates.core.variants import find_readings, readings_to_json, readings_to_text
    found = find_readings(args.name)
    if args.format == "json":
        json.dump(readings_to_json(found), out, ensure_ascii=False, indent=2)
        out.write("\n")
    else:
        out.write((english_text.readings_to_english(found) if args.lang == "en"
                   else readings_to_text(found, trad=is_trad(args.lang))) + "\n")
    return 0


def _cmd_show(args: argparse.Namespace, out: TextIO) -> int:
    state, calendar = resolve_state(args)
    options = Options.from_choices(args.variant)
    plate = compute_plate(state, options)
    if args.format == "json":
        json.dump(plate_to_json(plate, calendar), out, ensure_ascii=False, indent=2)
        out.write("\n")
    else:
        out.write(plate_to_text(plate, calendar, trad=is_trad(args.lang), lang=args.lang) + "\n")
    return 0


def _cmd_bazi(args: argparse.Namespace, out: TextIO) -> int:
    from shensha_plates.core.bazi import BaziOptions, chart_for
    if bool(args.date) == bool(args.now):
        raise UsageError("give a birth moment with --date (e.g. --date 1990-05-17T08:30) or --now")
    moment, opts = read_moment(args)
    chart, info = chart_for(moment, opts, BaziOptions.from_choices(args.variant))
    if args.format == "json":
        json.dump(chart_to_json(chart, info.to_json()), out, ensure_ascii=False, indent=2)
        out.write("\n")
    else:
        out.write(chart_to_text(chart, info.to_json(), args.lang) + "\n")
    return 0


def _cmd_select(args: argparse.Namespace, out: TextIO) -> int:
    from shensha_plates.core.selection import plate_to_json, selection_plate
    if not (args.date or args.now or args.xun or args.day):
        args.xun = "甲子"  # the xun plays no part in date selection; any will do
    state, calendar = resolve_state(args)
    choices = dict(split_choice(c) for c in args.variant)
    plate = selection_plate(state.year_branch, state.year_stem, state.month, choices)
    if args.format == "json":
        data = plate_to_json(plate)
        data["calendar"] = calendar
        json.dump(data, out, ensure_ascii=False, indent=2)
        out.write("\n")
        return 0
    out.write(selection_to_text(plate, args.lang) + "\n")
    return 0


def _cmd_relate(args: argparse.Namespace, out: TextIO) -> int:
    from shensha_plates.core.relations import parse_position, relate
    parse_position(args.first)
    parse_position(args.second)
    rels = relate(args.first, args.second)
    first, second = args.first.strip(), args.second.strip()
    if args.format == "json":
        json.dump(relations_to_json(first, second, rels), out, ensure_ascii=False, indent=2)
        out.write("\n")
    else:
        out.write(relations_to_text(first, second, rels, args.lang) + "\n")
    return 0


COMMANDS: dict[str, Callable[[argparse.Namespace, TextIO], int]] = {"show": _cmd_show, "bazi": _cmd_bazi, "select": _cmd_select,
                                                                   "relate": _cmd_relate,
                                                                   "variants": _cmd_variants}
COMMANDS["ke"] = lambda args, out: __import__("shensha_plates.core.liuren.cli", fromlist=["run_ke"]).run_ke(args, out)


def run(args: argparse.Namespace, out: TextIO | None = None, err: TextIO | None = None) -> int:
    """Run a parsed text command. Its output is made whole first and then written by :func:`emit`;
    errors become one line on ``err`` and exit status 2, notes (an ambiguous clock time) a line each."""
    out = sys.stdout if out is None else out  # still None when the process's output is closed
    err = sys.stderr if err is None else err
    buffer = io.StringIO()
    args.notes = []
    try:
        code = COMMANDS[args.command](args, buffer)
        if args.command == "show":
            for line in rejected_warnings(args.variant):
                say(err, line.removeprefix("shensha-plates: "))
        for line in getattr(args, "warnings", ()):  # a command's own (ke: the rejected readings)
            say(err, f"warning: {line}")
    except ShenshaError as e:
        say(err, f"error: {e}")
        return EXIT_USAGE
    finally:
        for note in args.notes:
            say(err, f"note: {note}")
    return emit(buffer.getvalue(), out, err, getattr(args, "format", None) == "json") or code


def main(argv: Sequence[str] | None = None, out: TextIO | None = None, err: TextIO | None = None) -> int:
    """``shensha-plates`` with the text commands; ``out`` and ``err`` default to the process's
    standard output and error as they are at the call (``None`` when closed)."""
    out = sys.stdout if out is None else out
    err = sys.stderr if err is None else err
    parser = build_parser()
    try:
        args = parser.parse_args(decode_argv(sys.argv[1:]) if argv is None else list(argv))
    except UsageError as e:
        say(err, f"error: {e}")
        return EXIT_USAGE
    if args.command is None:
        return emit(parser.format_help(), out, err)
    return run(args, out, err)
