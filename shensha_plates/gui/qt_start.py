"""Checks made before Qt starts (and so before it can abort the process): whether a display can be
opened for the chosen platform, and a UTF-8 locale for Qt. No Qt import here."""

from __future__ import annotations

import ctypes.util
import os
import sys

__all__ = ["display_problem", "prepare_qt_locale"]


def display_problem(environ: os._Environ[str] | dict[str, str] | None = None,
                    find_library: object = ctypes.util.find_library) -> str | None:
    """Why Qt could not open a window here (``None`` when it can): no display server named in the
    environment for the X11 (xcb) or Wayland platform, or no ``libxcb-cursor`` for Qt's xcb plugin.
    Checked before Qt starts, because Qt aborts the process (a core dump) when it finds no display."""
    env = os.environ if environ is None else environ
    if not sys.platform.startswith(("linux", "freebsd", "openbsd", "netbsd")):
        return None  # Windows and macOS always have their own window system
    candidates = [p.split(":")[0].strip() for p in env.get("QT_QPA_PLATFORM", "").split(";") if p.strip()]
    if any(p != "xcb" and not p.startswith("wayland") for p in candidates):
        return None  # offscreen, eglfs, vnc …: no display server needed (or Qt's own concern)
    wayland = bool(env.get("WAYLAND_DISPLAY")) and (not candidates or any(p.startswith("wayland") for p in candidates))
    if wayland:
        return None
    x11 = bool(env.get("DISPLAY")) and (not candidates or "xcb" in candidates)
    if not x11:
        wanted = ("DISPLAY and WAYLAND_DISPLAY are" if not candidates or len(set(candidates)) > 1
                  else "WAYLAND_DISPLAY is" if candidates[0].startswith("wayland") else "DISPLAY is")
        return f"no display found ({wanted} not set)"
    if not find_library("xcb-cursor"):  # type: ignore[operator]
        return ("Qt's X11 (xcb) platform plugin cannot load: the library libxcb-cursor (package "
                "libxcb-cursor0) is missing")
    return None


def prepare_qt_locale() -> None:
    """Under a locale that is not UTF-8, Qt switches itself to C.UTF-8 and prints four lines about it;
    make the same switch beforehand, silently (the program's own text streams are already set up)."""
    if not _environment_locale_is_utf8():
        os.environ["LC_ALL"] = "C.UTF-8"


def _environment_locale_is_utf8() -> bool:
    """Whether the C library's locale, set from the environment as Qt sets it (``setlocale(LC_ALL,
    "")``), is UTF-8. Python's own preferred encoding says less: its UTF-8 mode makes it UTF-8 under
    ``LC_ALL=POSIX``, and a locale that is not installed leaves the C library in "C" while the
    variables still name a UTF-8 one."""
    import locale
    try:
        saved = locale.setlocale(locale.LC_ALL)
    except locale.Error:
        return False
    try:
        locale.setlocale(locale.LC_ALL, "")
        codeset = locale.nl_langinfo(locale.CODESET)
    except (locale.Error, AttributeError):
        return False
    finally:
        try:
            locale.setlocale(locale.LC_ALL, saved)
        except locale.Error:
            pass
    return codeset.lower().replace("-", "") == "utf8"
