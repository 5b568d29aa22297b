"""``shensha-plates snapshot`` and ``shensha-plates booklet``: a plate snapshot or the year booklet
from the command line, with no display needed.

    shensha-plates snapshot --year 丙午 --month 11 --xun 甲辰 [--day …|--date …] -o plate.pdf|.svg|.png
        [--size 2400|2400x3000] [--dpi 150] [--paper A4|A3|Letter] [--landscape] [--no-table]
        [--no-legend] [--transparent] [--paper-look] [--lang zh-Hans|zh-Hant] [--layout side|stacked]

    shensha-plates booklet --year 丙午 -o 2026.pdf [--xun 甲子] [--paper A4|A3] [--landscape]
        [--paper-look] [--lang zh-Hans|zh-Hant] [--layout side|stacked] [--orientation south|north]

Any bad option or unwritable path: one line on stderr, exit status 2, and no file left behind.
Numbers (--size, --dpi) are ASCII digits only.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, TextIO

from shensha_plates.core.arguments import (CommandParser, UsageError, add_state_arguments, ascii_number,
                                           rejected_warnings, resolve_calendar)
from shensha_plates.core import interrupt
from shensha_plates.core.cycle import ascii_int
from shensha_plates.core.engine import State, compute_plate
from shensha_plates.core.errors import ShenshaError
from shensha_plates.core.lang import LANGS
from shensha_plates.core.terminal import EXIT_USAGE, emit, say, write_safely

if TYPE_CHECKING:
    from shensha_plates.core.calendar import CalendarInfo
    from shensha_plates.core.liuren.lodging import DayFacts

__all__ = ["main", "build_parser", "add_arguments", "run", "add_booklet_arguments", "run_booklet"]


def build_parser() -> CommandParser:
    p = CommandParser(prog="shensha-plates snapshot", description="Write a plate snapshot (PNG, SVG or PDF).")
    add_arguments(p)
    return p


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The options of ``snapshot`` (registered in :mod:`shensha_plates.commands`)."""
    add_state_arguments(p)
    p.add_argument("-o", "--output", required=True, help="file to write: .png, .svg or .pdf")
    p.add_argument("--size", default=None, help="PNG size in pixels: WIDTH or WIDTHxHEIGHT (default 2400 wide)")
    p.add_argument("--dpi", type=ascii_number, default=150)
    p.add_argument("--paper", default="A4", choices=("A4", "A3", "Letter"))
    p.add_argument("--landscape", action="store_true")
    p.add_argument("--no-table", action="store_true", help="leave out the table of spirits under each branch")
    p.add_argument("--no-legend", action="store_true")
    p.add_argument("--no-caption", action="store_true")
    p.add_argument("--no-source", action="store_true")
    p.add_argument("--transparent", action="store_true", help="PNG/SVG without the paper background")
    p.add_argument("--paper-look", action="store_true",
                   help="the cream paper of the screen instead of a white page (white prints best)")
    p.add_argument("--lang", default="zh-Hans", choices=LANGS)
    p.add_argument("--layout", default="side", choices=("side", "stacked"))
    p.add_argument("--orientation", default="south", choices=("south", "north"))
    p.add_argument("--text", default="radial", choices=("radial", "upright"))
    p.add_argument("--mountains", action="store_true", help="show the 24 mountains around the branches")
    p.add_argument("--general", default=None,
                   help="the month general's branch (月将) for the lesson, e.g. 寅 (default: the date's, else the month's)")
    from shensha_plates.core.liuren.cli import add_querent_arguments
    add_querent_arguments(p)  # the querent's 年命: a row of the lesson's table
    p.add_argument("--kit", action="store_true",
                   help="Zhuang's plates to cut out (a PDF: every disc true to scale, instructions; --paper A4|A3)")


def _day_of(lesson: object | None, calendar: CalendarInfo | None) -> DayFacts | None:
    """The date's day (天祸 天寇 二烦 read it) for a lesson of a date; None otherwise."""
    if lesson is None or calendar is None:
        return None
    from shensha_plates.core.liuren.lodging import day_facts
    return day_facts(calendar)


def _size(text: str | None) -> tuple[int, int | None]:
    if not text:
        return 2400, None
    t = text.strip().lower().replace("×", "x")
    w, sep, h = t.partition("x")
    width, height = ascii_int(w), ascii_int(h) if sep else None
    if width is None or (sep and height is None):
        raise UsageError(f"invalid --size: {text!r} (expected WIDTH or WIDTHxHEIGHT in pixels, e.g. 3000 or 3000x3000)")
    return width, height


def main(argv: Sequence[str], out: TextIO | None = None, err: TextIO | None = None) -> int:
    """``out``/``err`` default to the process's standard streams at the call (``None`` when closed)."""
    out = sys.stdout if out is None else out
    err = sys.stderr if err is None else err
    try:
        args = build_parser().parse_args(list(argv))
    except UsageError as e:
        say(err, f"error: {e}")
        return EXIT_USAGE
    return run(args, out, err)


def run(args: argparse.Namespace, out: TextIO | None, err: TextIO | None) -> int:
    """``snapshot`` with parsed arguments: write the file, print its name."""
    try:
        if getattr(args, "kit", False):
            return _write_kit(args, out, err)
        if str(args.output).lower().endswith((".html", ".htm")):  # the interactive page: no Qt needed
            return _write_page(args, out, err)
        from shensha_plates.gui.export.options import SnapshotOptions, format_from_path
        from shensha_plates.gui.export.snapshot import export
        fmt = format_from_path(args.output)
        state, calendar = resolve_calendar(args)
        from shensha_plates.core.liuren.cli import split_choices
        ke_options, options = split_choices(args.variant)
        lesson = _lesson(state, calendar, ke_options, args.general)
        nian_ming = None
        if lesson is not None:
            from shensha_plates.core.liuren.cli import nian_ming_from_args
            nian_ming = nian_ming_from_args(args, lesson, ke_options, state,
                                            None if calendar is None else calendar.moment)
        elif getattr(args, "birth", None) is not None or getattr(args, "partner_birth", None) is not None:
            raise UsageError(f"{'--birth' if getattr(args, 'birth', None) is not None else '--partner-birth'} needs a "
                             "lesson: an hour (--hour, or a --date with a time)")
        for line in rejected_warnings(args.variant):  # a rejected reading is never chosen silently
            say(err, line.removeprefix("shensha-plates: "))
        width, height = _size(args.size)
        from shensha_plates.gui.plate.scene import ViewConfig
        opts = SnapshotOptions(fmt=fmt, width=width, height=height, dpi=args.dpi, paper=args.paper,
                               landscape=args.landscape, table=not args.no_table, legend=not args.no_legend,
                               caption=not args.no_caption, source=not args.no_source,
                               transparent=args.transparent, lang=args.lang, paper_look=args.paper_look,
                               view=ViewConfig(layout=args.layout, orientation=args.orientation,
                                               text_mode=args.text, mountains=args.mountains,
                                               heaven=lesson is not None),
                               lesson=lesson, nian_ming=nian_ming, day=_day_of(lesson, calendar)).validate()
        _ensure_app()
        plate = compute_plate(state, options)
        path = export(args.output, plate, calendar, opts)
    except ShenshaError as e:
        say(err, f"error: {e}")
        return EXIT_USAGE
    finally:
        for note in getattr(args, "notes", ()):
            say(err, f"note: {note}")
    shown = Path(args.output)  # the name as typed (``path`` may hold it as the file system's bytes)
    del path
    return _report_written(f"{shown}\n", out, err)


def _write_kit(args: argparse.Namespace, out: TextIO | None, err: TextIO | None) -> int:
    """``snapshot --kit -o kit.pdf``: the paper plates (they need no state: the instructions give it)."""
    if not str(args.output).lower().endswith(".pdf"):
        raise UsageError(f"--kit writes a PDF: give -o NAME.pdf, not {args.output!r}")
    from shensha_plates.gui.export.kit import PAPERS, write_kit
    if args.paper not in PAPERS:
        raise UsageError(f"--kit prints on {' or '.join(PAPERS)} (not {args.paper})")
    from shensha_plates.core.liuren.cli import split_choices
    _ke, options = split_choices(args.variant)
    _ensure_app()
    try:
        write_kit(args.output, args.paper, args.lang, options)
    except OSError as e:
        say(err, f"error: cannot write {args.output!r}: {e.strerror or e}")
        return EXIT_USAGE
    return _report_written(f"{Path(args.output)}\n", out, err)


def _write_page(args: argparse.Namespace, out: TextIO | None, err: TextIO | None) -> int:
    """``snapshot -o plates.html``: the page opened at the state (year, month, xun, day, hour), with the
    month general given (``--general``, kept on the page as one set by hand) or the date's (which gives
    way to the month's when the page's month dial turns, as in the window)."""
    from shensha_plates.core.datafile import write_atomic
    from shensha_plates.core.page import page_html
    state, calendar = resolve_calendar(args)
    from shensha_plates.core.liuren.cli import split_choices
    ke_options, options = split_choices(args.variant)
    general, source = None, "hand"
    if args.general is not None:
        if state.hour is None:
            raise UsageError("--general needs an hour (--hour, or a --date with a time)")
        general = _given_general(args.general, calendar, ke_options)
    elif calendar is not None:
        from shensha_plates.core.liuren import month_general_at
        general, source = month_general_at(calendar.moment, ke_options).general, "date"
    try:
        write_atomic(args.output, page_html(state, options, lang=args.lang, ke_options=ke_options, general=general,
                                            general_source=source).encode("utf-8"))
    except OSError as e:
        say(err, f"error: cannot write {args.output!r}: {e.strerror or e}")
        return EXIT_USAGE
    return _report_written(f"{Path(args.output)}\n", out, err)


def _lesson(state: State, calendar: Any, ke_options: Any, general: str | None) -> Any:
    """The lesson (课传) when the state has a day and an hour, as the window shows it: the month general
    given, else the date's (the last 中气 to the minute), else the month's; None without an hour."""
    if state.day is None or state.hour is None:
        if general is not None:
            raise UsageError("--general needs an hour (--hour, or a --date with a time)")
        return None
    from shensha_plates.core.liuren import compute_ke, month_general_at
    if general is not None:
        branch = _given_general(general, calendar, ke_options)
    elif calendar is not None:
        branch = month_general_at(calendar.moment, ke_options).general
    else:
        from shensha_plates.core.cycle import month_default_general
        branch = month_default_general(state.month)
    return compute_ke(state.day, state.hour, branch, ke_options)


def _given_general(general: str, calendar: Any, ke_options: Any) -> int:
    """``--general``'s branch; refused (UsageError) when a date gives another."""
    from shensha_plates.core.liuren import month_general_at
    from shensha_plates.core.liuren.cli import parse_general
    branch = parse_general(general)
    if calendar is not None and branch != month_general_at(calendar.moment, ke_options).general:
        raise UsageError(f"--general {general} does not agree with the date's month general")
    return branch


def _report_written(text: str, out: TextIO | None, err: TextIO | None) -> int:
    """Print the name of the file written. The file is the command's work and it is done: with
    standard output closed there is nowhere to print the name and nothing went wrong (status 0);
    a name the terminal cannot show is still one line and status 2."""
    if out is None or getattr(out, "closed", False):
        return 0
    return emit(text, out, err)


def _ensure_app() -> None:
    # A snapshot needs no display: draw off screen unless a platform was asked for and can start
    # (Qt aborts the process when the one asked for finds no display).
    from shensha_plates.gui.qt_start import display_problem, prepare_qt_locale
    if "QT_QPA_PLATFORM" not in os.environ or display_problem():
        os.environ["QT_QPA_PLATFORM"] = "offscreen"
    prepare_qt_locale()
    from PySide6.QtWidgets import QApplication
    if QApplication.instance() is None:
        QApplication(["shensha-plates"])
    from shensha_plates.gui.fonts import register_fonts
    register_fonts()


def add_booklet_arguments(p: argparse.ArgumentParser) -> None:
    """The options of ``booklet`` (registered in :mod:`shensha_plates.commands`)."""
    p.add_argument("--year", required=True, help="year as a 甲子 (丙午) or a bare branch (午)")
    p.add_argument("--xun", default="甲子", help="where the xun dial stays: 甲子 (default) 甲戌 甲申 甲午 甲辰 甲寅")
    p.add_argument("-o", "--output", required=True, help="the PDF to write")
    p.add_argument("--paper", default="A4", choices=("A4", "A3"))
    p.add_argument("--landscape", action="store_true")
    p.add_argument("--paper-look", action="store_true", help="the cream paper of the screen instead of white")
    p.add_argument("--lang", default="zh-Hans", choices=LANGS)
    p.add_argument("--layout", default="side", choices=("side", "stacked"))
    p.add_argument("--orientation", default="south", choices=("south", "north"))
    p.add_argument("--variant", action="append", default=[], metavar="ID=CHOICE",
                   help="choose a variant reading, e.g. tian_xi=shun_twelve; repeatable")
    p.add_argument("--quiet", action="store_true", help="no progress line")


def run_booklet(args: argparse.Namespace, out: TextIO | None, err: TextIO | None) -> int:
    """``booklet`` with parsed arguments."""
    shown = [False]

    def line(text: str) -> None:
        write_safely(err, text)
    try:
        for warning in rejected_warnings(args.variant):  # a rejected reading is never chosen silently
            say(err, warning.removeprefix("shensha-plates: "))
        from shensha_plates.gui.plate.scene import ViewConfig
        _ensure_app()
        from shensha_plates.gui.export.booklet import BookletOptions, write_booklet
        opts = BookletOptions.parse(args.year, args.xun, args.variant, paper=args.paper, landscape=args.landscape,
                                    lang=args.lang, paper_look=args.paper_look,
                                    view=ViewConfig(layout=args.layout, orientation=args.orientation))

        def progress(done: int, total: int, what: str) -> bool:
            if not args.quiet:
                width = 24
                filled = round(width * done / total)
                line(f"\rbooklet {args.year} [{'#' * filled}{'-' * (width - filled)}] {done}/{total} {what:<4}")
                shown[0] = True
                interrupt.set_unfinished_line(True)  # Ctrl+C now ends the line before the prompt
            return True
        path = write_booklet(args.output, opts, progress=progress)
    except ShenshaError as e:
        if shown[0]:
            line("\n")
            interrupt.set_unfinished_line(False)
        say(err, f"error: {e}")
        return EXIT_USAGE
    if shown[0]:
        line("\n")
        interrupt.set_unfinished_line(False)
    return _report_written(f"{path}\n", out, err)
