"""Entry point of ``shensha-plates``: text commands go to :mod:`shensha_plates.core.cli`, ``snapshot`` to
:mod:`shensha_plates.gui.export.cli`, no command (or ``gui``) opens the window.

Qt is imported only for the commands that need it, so ``show`` runs where no Qt can load. The
window's own options are checked, and a display looked for, before Qt is started: a bad option is
a usage error and a missing display one line pointing to ``snapshot``, never a window opened
anyway or a Qt abort with a core dump.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from shensha_plates.core.cli import EXIT_USAGE, UsageError, _Parser, decode_argv, say
from shensha_plates.gui.qt_start import display_problem, prepare_qt_locale

__all__ = ["main", "window_parser"]

WINDOW_LANGS = ("zh-Hans", "zh-Hant")


def window_parser() -> _Parser:
    p = _Parser(prog="shensha-plates gui", description="Open the window (also: shensha-plates with no command).")
    p.add_argument("--lang", choices=WINDOW_LANGS, default=None,
                   help="the window's language: simplified (zh-Hans) or traditional (zh-Hant) characters")
    return p


def _window(args: list[str]) -> int:
    try:
        options = window_parser().parse_args(args)
    except UsageError as e:
        say(sys.stderr, f"error: {e}")
        return EXIT_USAGE
    problem = display_problem()
    if problem:
        say(sys.stderr, f"error: cannot open the window: {problem}; to draw a plate without a display use "
                        "'shensha-plates snapshot --year 丙午 --month 11 --xun 甲辰 -o plate.png' (or 'show' for text)")
        return EXIT_USAGE
    prepare_qt_locale()
    from shensha_plates.gui.shell.app import run_app
    return run_app([], lang=options.lang)


def main(argv: Sequence[str] | None = None) -> int:
    args = decode_argv(sys.argv[1:]) if argv is None else list(argv)
    if not args or args[0] == "gui":
        return _window(args[1:])
    if args[0] == "--lang" or args[0].startswith("--lang="):
        return _window(args)
    if args[0] == "snapshot":
        from shensha_plates.gui.export.cli import main as snapshot_main
        return snapshot_main(args[1:])
    if args[0] == "booklet":
        from shensha_plates.gui.export.cli import booklet_main
        return booklet_main(args[1:])
    from shensha_plates.core.cli import main as cli_main
    return cli_main(args)


if __name__ == "__main__":
    raise SystemExit(main())
