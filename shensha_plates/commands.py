"""The one command line of ``shensha-plates``: every command, registered in :data:`COMMANDS`.

Adding a command is one entry in :data:`COMMANDS` and two functions in the module that does the work::

    Command("find", "find a spirit by name, rule or source",
            "shensha-plates find 驿马",
            "shensha_plates.core.find:add_arguments",   # (parser) -> None: the command's options
            "shensha_plates.core.find:run"),            # (args, out, err) -> exit status

``add_arguments`` receives the command's own subparser (a :class:`shensha_plates.core.arguments.CommandParser`,
whose errors become one line and exit status 2); ``run`` receives the parsed arguments and the
output and error streams (``None`` when closed) and returns the exit status. A ``run`` reports bad
input by raising :class:`shensha_plates.core.errors.ShenshaError` (or returns 2 after saying one line
itself); it writes output through :func:`shensha_plates.core.terminal.emit`.

Both are named by strings and imported only when their command is chosen: ``shensha-plates --help``
imports none of them, ``show`` never imports Qt (start-up time matters; ``bench/run.py --part startup``).
The list printed by ``--help`` is this table, in its order; each command's ``--help`` ends with its
example. No command (or only window options, e.g. ``--lang zh-Hant`` or ``--date …``) is ``gui``.

This module imports nothing of Qt and nothing of :mod:`shensha_plates.gui`; the process's entry point,
:mod:`shensha_plates.gui.shell.launcher`, sets up the signals and calls :func:`main`.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TextIO

from shensha_plates.core.arguments import CommandParser, UsageError
from shensha_plates.core.errors import ShenshaError
from shensha_plates.core.terminal import EXIT_USAGE, say

__all__ = ["Command", "COMMANDS", "WINDOW", "build_parser", "parse", "run", "main", "version"]

WINDOW = "gui"  # the command run when none is given


@dataclass(frozen=True)
class Command:
    """One command: its name, the line ``--help`` shows for it, an example for its own ``--help``,
    and its two functions as ``"module:function"`` (imported when the command is chosen)."""

    name: str
    summary: str
    example: str
    add_arguments: str
    run: str


_TEXT = "shensha_plates.core.cli"
_EXPORT = "shensha_plates.gui.export.cli"

COMMANDS: tuple[Command, ...] = (
    Command("show", "print what lies under each branch for a state or a date (text or JSON)",
            "shensha-plates show --year 丙午 --month 11 --xun 甲辰 --day 庚戌\n"
            "  shensha-plates show --date 2026-12-02T18:00 --format json",
            f"{_TEXT}:add_show_arguments", f"{_TEXT}:run"),
    Command("ke", "the Liu Ren plate: heaven plate, generals, four lessons, three transmissions",
            "shensha-plates ke --date 1998-11-30T12:00\n  shensha-plates ke --day 辛巳 --hour 午 --general 寅",
            "shensha_plates.core.liuren.cli:add_arguments", f"{_TEXT}:run"),
    Command("variants", "spirits read more than one way: each reading's rule, source and Zhuang's verdict",
            "shensha-plates variants 天喜", f"{_TEXT}:add_variants_arguments", f"{_TEXT}:run"),
    Command("bazi", "the four pillars of a birth moment and the spirits each carries (seed 000)",
            "shensha-plates bazi --date 1990-05-17T08:30", f"{_TEXT}:add_bazi_arguments", f"{_TEXT}:run"),
    Command("relate", "the eight relations (seed 001) between two stems or branches",
            "shensha-plates relate 寅 亥", f"{_TEXT}:add_relate_arguments", f"{_TEXT}:run"),
    Command("select", "date selection (seed 004): the year and month spirits on the 24 mountains",
            "shensha-plates select --year 丙午 --month 11", f"{_TEXT}:add_select_arguments", f"{_TEXT}:run"),
    Command("find", "find the days or hours whose plates and lessons meet conditions (date selection)",
            "shensha-plates find --from 2027-01-01 --to 2027-06-30 --where 天马@午\n"
            "  shensha-plates find --from 2027-03-01 --to 2027-03-31 --every hour --where ke=伏吟 --format ics",
            "shensha_plates.core.find_cli:add_arguments", "shensha_plates.core.find_cli:run"),
    Command("snapshot", "write a plate as PNG, SVG or PDF (no display needed)",
            "shensha-plates snapshot --year 丙午 --month 11 --xun 甲辰 -o plate.pdf",
            f"{_EXPORT}:add_arguments", f"{_EXPORT}:run"),
    Command("booklet", "write the year booklet: the year plate and each month's, as one PDF",
            "shensha-plates booklet --year 丙午 -o 2026.pdf", f"{_EXPORT}:add_booklet_arguments",
            f"{_EXPORT}:run_booklet"),
    Command("install-desktop", "add the program to your desktop's application menu, with its icon (Linux)",
            "shensha-plates install-desktop\n  shensha-plates install-desktop --uninstall",
            "shensha_plates.desktop:add_arguments", "shensha_plates.desktop:run"),
    Command(WINDOW, "open the window (also: shensha-plates with no command), at a state or date if given",
            "shensha-plates gui --date 1998-11-30T12:00\n  shensha-plates gui --year 丙午 --month 11 --xun 甲辰 --lang zh-Hant",
            "shensha_plates.gui.shell.launcher:add_window_arguments", "shensha_plates.gui.shell.launcher:run_window"),
)


def _load(target: str) -> Callable[..., Any]:
    module, _, function = target.partition(":")
    return getattr(importlib.import_module(module), function)


def version() -> str:
    """The installed package's version (from its metadata)."""
    import shensha_plates
    return str(shensha_plates.__version__)


class _VersionAction(argparse.Action):
    """``--version``: the version is read from the metadata only when asked for (30 ms)."""

    def __init__(self, option_strings: Sequence[str], dest: str = argparse.SUPPRESS,
                 default: str = argparse.SUPPRESS, help: str | None = None) -> None:
        super().__init__(option_strings=option_strings, dest=dest, default=default, nargs=0, help=help)

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: Any,
                 option_string: str | None = None) -> None:
        parser._print_message(f"{parser.prog} {version()}\n", sys.stdout)
        parser.exit()


def build_parser(chosen: str | None = None, prog: str = "shensha-plates") -> CommandParser:
    """The command line. Every command is listed; only ``chosen``'s options are added (its module
    imported), which is all that parsing one command line needs."""
    parser = CommandParser(prog=prog, formatter_class=argparse.RawDescriptionHelpFormatter,
                     description="Zhuang Guangzhi's rotating plates of the Da Liu Ren spirits (神煞旋盘).",
                     epilog="With no command the window opens.\n"
                            f"Each command's options and an example: {prog} COMMAND --help")
    parser.add_argument("--version", action=_VersionAction, help="print the version and exit")
    sub = parser.add_subparsers(dest="command", title="commands", metavar="COMMAND", parser_class=CommandParser)
    for command in COMMANDS:
        p = sub.add_parser(command.name, help=command.summary, description=command.summary,
                           epilog=f"example:\n  {command.example}",
                           formatter_class=argparse.RawDescriptionHelpFormatter)
        if command.name == chosen:
            _load(command.add_arguments)(p)
    return parser


def _command_of(args: Sequence[str]) -> str | None:
    return next((c.name for c in COMMANDS if args and args[0] == c.name), None)


def parse(args: Sequence[str]) -> argparse.Namespace:
    """Parsed arguments (``command`` names the command). No command, or window options alone, is
    the window. Raises :class:`UsageError` (one line); ``--help`` and ``--version`` exit 0."""
    args = list(args)
    if not args or (args[0].startswith("-") and args[0] not in ("-h", "--help", "--version")):
        args.insert(0, WINDOW)
    return build_parser(_command_of(args)).parse_args(args)


def run(args: argparse.Namespace, out: TextIO | None = None, err: TextIO | None = None) -> int:
    """Run parsed arguments with their command's ``run``; bad input is one line and status 2."""
    command = next(c for c in COMMANDS if c.name == args.command)
    try:
        return int(_load(command.run)(args, out, err))
    except ShenshaError as e:
        say(err, f"error: {e}")
        return EXIT_USAGE


def main(argv: Sequence[str] | None = None, out: TextIO | None = None, err: TextIO | None = None) -> int:
    """Parse and run ``argv`` (the process's arguments by default); ``out`` and ``err`` default to
    the process's standard streams at the call (``None`` when closed)."""
    from shensha_plates.core.terminal import decode_argv
    out = sys.stdout if out is None else out
    err = sys.stderr if err is None else err
    try:
        args = parse(decode_argv(sys.argv[1:]) if argv is None else argv)
    except UsageError as e:
        say(err, f"error: {e}")
        return EXIT_USAGE
    return run(args, out, err)

