"""``shensha-plates snapshot``: write a plate snapshot from the command line, with no display needed.

    shensha-plates snapshot --year 丙午 --month 11 --xun 甲辰 [--day …|--date …] -o plate.pdf|.svg|.png
        [--size 2400|2400x3000] [--dpi 150] [--paper A4|A3|Letter] [--landscape] [--no-table]
        [--no-legend] [--transparent] [--lang zh-Hans|zh-Hant] [--layout side|stacked]

Any bad option or unwritable path: one line on stderr, exit status 2, and no file left behind.
Numbers (--size, --dpi) are ASCII digits only.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from collections.abc import Sequence
from typing import TextIO

from core.cli import EXIT_USAGE, UsageError, _Parser, add_state_arguments, ascii_number, emit, resolve_calendar, say
from core.cycle import ascii_int
from core.engine import Options, compute_plate
from core.errors import ShenshaError

__all__ = ["main", "build_parser"]


def build_parser() -> _Parser:
    p = _Parser(prog="shensha-plates snapshot", description="Write a plate snapshot (PNG, SVG or PDF).")
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
    p.add_argument("--lang", default="zh-Hans", choices=("zh-Hans", "zh-Hant"))
    p.add_argument("--layout", default="side", choices=("side", "stacked"))
    p.add_argument("--orientation", default="south", choices=("south", "north"))
    p.add_argument("--text", default="radial", choices=("radial", "upright"))
    p.add_argument("--mountains", action="store_true", help="show the 24 mountains around the branches")
    return p


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
    args = None
    try:
        args = build_parser().parse_args(list(argv))
        from gui.export.snapshot import SnapshotOptions, export, format_from_path
        fmt = format_from_path(args.output)
        state, calendar = resolve_calendar(args)
        options = Options.from_choices(args.variant)
        from core.cli import rejected_warnings
        for line in rejected_warnings(args.variant):  # a rejected reading is never chosen silently
            say(err, line.removeprefix("shensha-plates: "))
        width, height = _size(args.size)
        from gui.plate.scene import ViewConfig
        opts = SnapshotOptions(fmt=fmt, width=width, height=height, dpi=args.dpi, paper=args.paper,
                               landscape=args.landscape, table=not args.no_table, legend=not args.no_legend,
                               caption=not args.no_caption, source=not args.no_source,
                               transparent=args.transparent, lang=args.lang,
                               view=ViewConfig(layout=args.layout, orientation=args.orientation,
                                               text_mode=args.text, mountains=args.mountains)).validate()
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
    return emit(f"{shown}\n", out, err)  # a name the terminal cannot show: one line, status 2


def _ensure_app() -> None:
    # A snapshot needs no display: draw off screen unless a platform was asked for and can start
    # (Qt aborts the process when the one asked for finds no display).
    from gui.qt_start import display_problem, prepare_qt_locale
    if "QT_QPA_PLATFORM" not in os.environ or display_problem():
        os.environ["QT_QPA_PLATFORM"] = "offscreen"
    prepare_qt_locale()
    from PySide6.QtWidgets import QApplication
    if QApplication.instance() is None:
        QApplication(["shensha-plates"])
    from gui.fonts import register_fonts
    register_fonts()
