"""``shensha-plates install-desktop``: the program in the desktop's application menu, for the current user.

Following the freedesktop.org specifications (Desktop Entry 1.4, Icon Theme, XDG Base Directory), it
writes two files under ``$XDG_DATA_HOME`` (``~/.local/share`` when unset):

- ``applications/shensha-plates.desktop`` — the menu entry; ``Exec`` is this installation's own
  ``shensha-plates`` (the console script beside the interpreter, or the bundle's executable);
- ``icons/hicolor/scalable/apps/shensha-plates.svg`` — the icon (``resources/icons``), which the window
  also shows (with ``shensha-plates`` as its desktop file name, so the task bar matches the entry).

``--uninstall`` removes them. Nothing here imports Qt. Each file is written whole or not at all
(:func:`shensha_plates.core.datafile.write_atomic`).
"""

from __future__ import annotations

import argparse
import os
import sys
from importlib import resources
from pathlib import Path
from typing import TextIO

from shensha_plates.core.errors import InputError

__all__ = ["APP_ID", "icon_bytes", "icon_file", "window_icon_file", "data_home", "launch_command", "exec_line", "desktop_entry",
           "targets", "add_arguments", "run"]

APP_ID = "shensha-plates"  # the entry's file name, the icon's name, the window's desktop file name

_RESERVED = set(" \t\n\"'\\><~|&;$*?#()`")


def icon_file() -> str:
    """The icon's path as a file (for Qt); it ships with the package (and the bundle)."""
    return str(resources.files("shensha_plates.resources.icons").joinpath(f"{APP_ID}.svg"))


def window_icon_file() -> str:
    """The window's icon: the SVG rendered at 256 px (``resources/icons/make_png.py``), because
    loading an SVG icon first loads Qt's SVG icon engine, a few milliseconds of every start."""
    return str(resources.files("shensha_plates.resources.icons").joinpath(f"{APP_ID}.png"))


def icon_bytes() -> bytes:
    return resources.files("shensha_plates.resources.icons").joinpath(f"{APP_ID}.svg").read_bytes()


def data_home(environ: dict[str, str] | None = None) -> Path:
    """``$XDG_DATA_HOME``, or ``~/.local/share`` when it is unset, empty or not absolute (as the spec says)."""
    env = os.environ if environ is None else environ
    value = env.get("XDG_DATA_HOME", "")
    if value and os.path.isabs(value):
        return Path(value)
    return Path(env.get("HOME") or Path.home()) / ".local" / "share"


def launch_command() -> list[str]:
    """The command that starts this installation's window: the bundle's executable, the console
    script beside this interpreter (a virtual environment's ``bin``), the one on PATH, or this
    interpreter with ``-m shensha_plates``."""
    if getattr(sys, "frozen", False):
        return [os.path.abspath(sys.executable), "gui"]
    beside = Path(sys.executable).parent / APP_ID
    if beside.is_file() and os.access(beside, os.X_OK):
        return [str(beside.absolute()), "gui"]
    import shutil
    found = shutil.which(APP_ID)
    if found:
        return [os.path.abspath(found), "gui"]
    return [os.path.abspath(sys.executable), "-m", "shensha_plates", "gui"]


def _quote(arg: str) -> str:
    """One argument of ``Exec`` (Desktop Entry spec, "The Exec key"): quoted when it holds a reserved
    character, with ``"`` `` ` `` ``$`` ``\\`` escaped inside the quotes; ``%`` doubled."""
    if any(c in _RESERVED for c in arg):
        arg = '"' + "".join("\\" + c if c in '"`$\\' else c for c in arg) + '"'
    return arg.replace("%", "%%")


def exec_line(command: list[str]) -> str:
    """The ``Exec`` value as written in the file: the quoted arguments, then the string escapes of
    the file format (a backslash doubled: the spec applies them before the quoting)."""
    for arg in command:
        if any(ord(c) < 0x20 and c not in "\t\n" for c in arg):
            raise InputError(f"cannot write a menu entry for a path with control characters: {arg!r}")
    line = " ".join(_quote(a) for a in command)
    return line.replace("\\", "\\\\").replace("\n", "\\n").replace("\t", "\\t")


def desktop_entry(command: list[str]) -> str:
    """The ``.desktop`` file's text for ``command``."""
    return "\n".join([
        "[Desktop Entry]",
        "Type=Application",
        "Version=1.4",  # the newest version desktop-file-validate (0.26) knows
        "Name=Shensha Plates",
        "Name[zh_CN]=神煞旋盘",
        "Name[zh_TW]=神煞旋盤",
        "Name[zh_HK]=神煞旋盤",
        "GenericName=Da Liu Ren spirit plates",
        "GenericName[zh_CN]=大六壬神煞旋盘",
        "GenericName[zh_TW]=大六壬神煞旋盤",
        "Comment=Zhuang Guangzhi's rotating plates of the Da Liu Ren spirits, the Liu Ren plate, Bazi and date selection",
        "Comment[zh_CN]=庄广之大六壬神煞旋盘，兼六壬式盘、四柱、八煞与选择",
        "Comment[zh_TW]=莊廣之大六壬神煞旋盤，兼六壬式盤、四柱、八煞與選擇",
        f"Exec={exec_line(command)}",
        f"Icon={APP_ID}",
        "Terminal=false",
        "Categories=Education;",
        "Keywords=Liu Ren;Da Liu Ren;shensha;六壬;神煞;式盘;",
        "StartupNotify=true",
        f"StartupWMClass={APP_ID}",
        "",
    ])


def targets(home: Path) -> tuple[Path, Path]:
    """Where the entry and the icon go under the data home."""
    return (home / "applications" / f"{APP_ID}.desktop",
            home / "icons" / "hicolor" / "scalable" / "apps" / f"{APP_ID}.svg")


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The options of ``install-desktop`` (registered in :mod:`shensha_plates.commands`)."""
    p.add_argument("--uninstall", action="store_true", help="remove the menu entry and the icon again")


def run(args: argparse.Namespace, out: TextIO | None, err: TextIO | None) -> int:
    """Install (or remove) the entry and the icon; print each file's path."""
    from shensha_plates.core.terminal import EXIT_USAGE, emit, say
    from shensha_plates.core.datafile import write_atomic
    entry, icon = targets(data_home())
    done: list[str] = []
    new: list[Path] = []  # written by this run where there was no file: removed again on failure
    current = icon
    try:
        if args.uninstall:
            for current in (entry, icon):
                if current.is_file() or current.is_symlink():
                    current.unlink()
                    done.append(f"removed {current}")
        else:
            text = desktop_entry(launch_command())
            for current, data in ((icon, icon_bytes()), (entry, text.encode("utf-8"))):
                existed = current.exists()
                current.parent.mkdir(parents=True, exist_ok=True)
                write_atomic(current, data)
                if not existed:
                    new.append(current)
                done.append(str(current))
    except OSError as e:
        for path in new:
            path.unlink(missing_ok=True)
        say(err, f"error: cannot {'remove' if args.uninstall else 'write'} {current}: {e.strerror or e}")
        return EXIT_USAGE
    if not done:
        done.append("nothing installed")
    return emit("\n".join(done) + "\n", out, err)
