"""The text commands of ``shensha-plates``: ``show`` (a plate as text or JSON), ``relate`` (the eight
relations between two positions), ``bazi``, ``select``, ``variants`` (and ``ke``'s runner). Each has
an ``add_*_arguments`` function and runs through :func:`run`; the command line that registers them
all (with ``snapshot``, ``booklet`` and ``gui``) is :mod:`shensha_plates.commands`.

Bad input never produces a traceback: every :class:`shensha_plates.core.errors.ShenshaError` and every argument
error becomes one line on stderr and exit status 2. Output goes through :func:`emit`: output that
cannot be written (a full disk, a closed standard output) or encoded (an ASCII or Latin-1 terminal)
is one line on stderr and exit status 2 too; JSON falls back to ASCII escapes and succeeds.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import re
import sys
from typing import Any, NoReturn, TextIO
from collections.abc import Callable, Sequence

from shensha_plates.core.catalog import default_catalog
from shensha_plates.core.cycle import BRANCHES, XUN_HEADS, pillar_name, xun_void
from shensha_plates.core.engine import MONTH_NAMES, SEASONS, Options, Placement, Plate, State, compute_plate, split_choice
from shensha_plates.core import english_text
from shensha_plates.core.lang import LANGS, is_trad
from shensha_plates.core.text import SQUARE_TABLE, branch_sections, section_name
from shensha_plates.core.errors import ShenshaError, one_line

__all__ = ["main", "build_parser", "plate_to_json", "plate_to_text", "UsageError", "add_state_arguments",
           "add_date_arguments", "resolve_state", "resolve_calendar", "add_show_arguments", "add_bazi_arguments",
           "add_select_arguments", "add_relate_arguments", "add_variants_arguments", "run", "read_moment", "ascii_number", "emit", "say", "decode_argv"]

EXIT_USAGE = 2


class UsageError(ShenshaError, ValueError):
    """A command-line argument is malformed."""


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are exceptions (turned into one line by :func:`main`)."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{message} (usage: {self.prog} --help)")

    def _print_message(self, message: str, file: Any = None) -> None:
        # --help and --version: through emit, so an ASCII terminal gets one line, not a traceback
        if message and emit(message, sys.stdout if file is None else file, sys.stderr) != 0:
            raise SystemExit(EXIT_USAGE)


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


def build_parser(prog: str = "shensha-plates") -> argparse.ArgumentParser:
    """The text commands alone (for :func:`main`, used by tests and scripts that need no Qt), with
    the same options as the program's one command line, :mod:`shensha_plates.commands`."""
    from shensha_plates.core.liuren.cli import add_arguments as add_ke_arguments
    parser = _Parser(prog=prog, description="Zhuang Guangzhi's rotating plates of the Da Liu Ren spirits.")
    sub = parser.add_subparsers(dest="command", parser_class=_Parser)
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


def state_to_json(state: State) -> dict[str, Any]:
    void = xun_void(state.xun)
    return {
        "year": state.year_name,
        "year_branch": BRANCHES[state.year_branch],
        "month": state.month,
        "month_name": MONTH_NAMES[state.month - 1],
        "month_branch": BRANCHES[state.month_branch],
        "season": SEASONS[state.season],
        "xun": XUN_HEADS[state.xun],
        "xun_void": BRANCHES[void[0]] + BRANCHES[void[1]],
        "day": None if state.day is None else pillar_name(state.day),
        "hour": None if state.hour is None else BRANCHES[state.hour],
    }


def plate_to_json(plate: Plate, calendar: dict[str, Any] | None = None) -> dict[str, Any]:
    """The stable scripting shape: ``{"state": …, "positions": {branch: [spirit, …]}}``."""
    state = state_to_json(plate.state)
    if calendar is not None:
        state.update(calendar)
    return {
        "state": state,
        "positions": {
            BRANCHES[b]: [placement_to_json(p) for p in plate.positions[b]] for b in range(12)
        },
        "rings": {r.ring.id: BRANCHES[r.anchor] for r in plate.rings},
        "variants": dict(plate.options.variants),
        "variant_verdicts": {sid: default_catalog().spirit(sid).verdict_of(vid)
                             for sid, vid in plate.options.variants},
        "omitted": list(plate.omitted),
    }


def placement_to_json(p: Placement) -> dict[str, Any]:
    """One spirit at one position, with its other names, meaning, the source of the reading in force,
    that reading (``default`` or a variant id; null for a spirit read only one way), Zhuang's verdict
    on it (accepted, rejected, or null where he gives none), and its pinyin and English gloss."""
    from shensha_plates.core.english import english_of
    s = p.spirit
    reading = None if not s.variants else (p.variant or "default")
    source = s.source if p.variant is None else s.variant(p.variant).source
    return {"id": p.id, "name": p.name, "name_trad": p.name_trad, "group": p.group, "ring": p.ring,
            "at": p.at, "conditional": p.conditional, "aliases": list(s.aliases),
            "aliases_trad": list(s.aliases_trad), "meaning": s.meaning, "source": source.to_json(),
            "variant": reading, "verdict": s.verdict_of(p.variant), **english_of(s.id, s.name)}


def plate_to_text(plate: Plate, calendar: dict[str, Any] | None = None, trad: bool = False,
                  lang: str = "zh-Hans") -> str:
    """One line per branch: the spirits there, grouped by ring or table (``lang="en"``: in English, each
    name with its pinyin and gloss)."""
    if lang == "en":
        return english_text.plate_to_english(plate, calendar)
    cat = default_catalog()
    ring_names = {r.id: (r.name_trad if trad else r.name) for r in cat.rings}
    square_table = SQUARE_TABLE["zh-Hant" if trad else "zh-Hans"]
    head = plate.state.label()
    if calendar is not None:
        head += f"  ({calendar['date']} {calendar['zone']})"
    lines = [head]
    rot = "  ".join(f"{ring_names[r.ring.id]}{BRANCHES[r.anchor]}" for r in plate.rings)
    lines.append(rot)
    for b in range(12):
        sections = branch_sections(plate, b, lambda p: section_name(p, square_table, trad), trad, "[{}]")
        body = " │ ".join(f"{label}: {' '.join(names)}" for label, names in sections)
        lines.append(f"{BRANCHES[b]} │ {body}")
    if plate.omitted:
        lines.append(f"(未列 {len(plate.omitted)} 位：需要年干或日干支)")
    return "\n".join(lines)


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


QUALITY_WORDS: dict[str, tuple[str, str]] = {"good": ("吉", "吉"), "bad": ("凶", "凶"), "mixed": ("吉凶参半", "吉凶參半")}


def relations_to_text(first: str, second: str, relations: Sequence[Any], lang: str = "zh-Hans") -> str:
    if lang == "en":
        return english_text.relations_to_english(first, second, relations)
    from shensha_plates.core.script import in_script
    trad = is_trad(lang)
    lines = [f"{first} · {second}"]
    if not relations:
        lines.append(in_script("（八煞之中无一相涉）", lang))
    for r in relations:
        quality = QUALITY_WORDS[r.quality][1 if trad else 0]
        lines.append(f"{r.name_trad if trad else r.name}  {in_script(r.detail, lang)}  [{quality}]")
        lines.append(f"    {in_script(r.meaning, lang)}")
        if r.verdict == "rejected":
            lines.append(f"    {in_script('辨：不取。', lang)}{in_script(r.note or '', lang)}")
        elif r.note:
            lines.append(f"    {in_script('注：', lang)}{in_script(r.note, lang)}")
        lines.append(f"    {in_script('出处：', lang)}{r.source.line(trad)}")
    return "\n".join(lines)


def chart_to_json(chart: Any, calendar: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"pillars": chart.pillar_names(), "spirits": [h.to_json() for h in chart.hits], "calendar": calendar}


def chart_to_text(chart: Any, calendar: dict[str, Any] | None = None, lang: str = "zh-Hans") -> str:
    if lang == "en":
        return english_text.chart_to_english(chart, calendar)
    from shensha_plates.core.bazi import PILLAR_KEYS, PILLAR_NAMES
    from shensha_plates.core.script import in_script
    trad = is_trad(lang)
    names = chart.pillar_names()
    lines = []
    if calendar:
        lines.append(f"{calendar['date']} ({calendar['zone']})")
    lines.append("  ".join(f"{PILLAR_NAMES[k][1 if trad else 0]} {names[k]}" for k in PILLAR_KEYS))
    for k in PILLAR_KEYS:
        hits = [h for h in chart.hits if h.pillar.split("-")[0] == k]
        for h in hits:
            name = h.spirit.name_trad if trad else h.spirit.name
            lines.append(f"{PILLAR_NAMES[k][1 if trad else 0]}  {name}  {in_script(h.rule, lang)}")
            lines.append(f"      {in_script('出处：', lang)}{h.spirit.source.line(trad)}")
    if not chart.hits:
        lines.append(in_script("（无所列神煞）", lang))
    return "\n".join(lines)


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
    from shensha_plates.core.cycle import MOUNTAINS
    from shensha_plates.core.script import in_script
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
    lang = args.lang
    if lang == "en":
        out.write(english_text.selection_to_english(plate) + "\n")
        return 0
    trad = is_trad(lang)
    lines = [in_script(f"{plate.year_name} {MONTH_NAMES[plate.month - 1]}（选择求真）", lang)]
    for m in MOUNTAINS:
        names = [p.spirit.name_trad if trad else p.spirit.name for p in plate.at(m) if p.palace is None]
        lines.append(f"{m} │ {' '.join(names)}")
    flying = [(p.spirit, p.palace) for p in plate.placements if p.palace is not None]
    if flying:
        lines.append(in_script("飞宫：", lang) + "；".join(
            f"{sp.name_trad if trad else sp.name} {in_script(palace + '宫', lang)}" for sp, palace in flying))
    none = [p.spirit.name_trad if trad else p.spirit.name for p in plate.placements if p.spirit.remedy == "none"]
    if none:
        lines.append(in_script("例无制法：", lang) + "、".join(dict.fromkeys(none)))
    if plate.omitted:
        lines.append(in_script(f"（未列 {len(plate.omitted)} 位：需要年干）", lang))
    out.write("\n".join(lines) + "\n")
    return 0


def _cmd_relate(args: argparse.Namespace, out: TextIO) -> int:
    from shensha_plates.core.relations import parse_position, relate
    parse_position(args.first)
    parse_position(args.second)
    rels = relate(args.first, args.second)
    first, second = args.first.strip(), args.second.strip()
    if args.format == "json":
        json.dump({"first": first, "second": second, "relations": [r.to_json() for r in rels]}, out,
                  ensure_ascii=False, indent=2)
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
