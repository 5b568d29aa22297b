"""Checks made before Qt starts (and so before it can abort the process): whether a display can be
opened for the chosen platform, and a UTF-8 locale for Qt. No Qt import here."""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import socket
import sys
import threading
from collections.abc import Callable, Mapping
from typing import Final

__all__ = ["display_problem", "display_unreachable", "prepare_qt_locale"]


def display_problem(environ: os._Environ[str] | dict[str, str] | None = None,
                    find_library: object = ctypes.util.find_library,
                    reach: Callable[[str, str, Mapping[str, str]], str | None] | None = None) -> str | None:
    """Why Qt could not open a window here (``None`` when it can): no display server named in the
    environment for the X11 (xcb) or Wayland platform, one named that cannot be reached (nothing
    listening, a name that does not parse, a server that refuses the connection), or no
    ``libxcb-cursor`` for Qt's xcb plugin. Checked before Qt starts, because Qt aborts the process
    (a core dump) when it cannot open the display. The platforms are tried in Qt's order (those of
    ``QT_QPA_PLATFORM``, else Wayland when ``WAYLAND_DISPLAY`` is set, then X11); ``reach(platform,
    name, env)`` says why a named display cannot be reached (``None``: it can; default
    :func:`display_unreachable`, which connects to it)."""
    env = os.environ if environ is None else environ
    reach = display_unreachable if reach is None else reach
    if not sys.platform.startswith(("linux", "freebsd", "openbsd", "netbsd")):
        return None  # Windows and macOS always have their own window system
    candidates = [p.split(":")[0].strip() for p in env.get("QT_QPA_PLATFORM", "").split(";") if p.strip()]
    if any(p != "xcb" and not p.startswith("wayland") for p in candidates):
        return None  # offscreen, eglfs, vnc …: no display server needed (or Qt's own concern)
    order = candidates or (["wayland", "xcb"] if env.get("WAYLAND_DISPLAY") else ["xcb"])
    problems: list[str] = []
    for platform in dict.fromkeys("wayland" if p.startswith("wayland") else p for p in order):
        variable = "WAYLAND_DISPLAY" if platform == "wayland" else "DISPLAY"
        name = env.get(variable)
        if not name:
            continue
        if platform == "xcb" and not find_library("xcb-cursor"):  # type: ignore[operator]
            problems.append("Qt's X11 (xcb) platform plugin cannot load: the library libxcb-cursor (package "
                            "libxcb-cursor0) is missing")
            continue
        why = reach(platform, name, env)
        if why is not None:
            problems.append(f"cannot reach the display {variable}={name!r} ({why})")
            continue
        missing = _plugin_problem(platform) if reach is display_unreachable else None
        if missing is None:
            return None
        problems.append(missing)
    if problems:
        return "; ".join(problems)
    wanted = ("DISPLAY and WAYLAND_DISPLAY are" if not candidates or len(set(order)) > 1
              else "WAYLAND_DISPLAY is" if candidates[0].startswith("wayland") else "DISPLAY is")
    return f"no display found ({wanted} not set)"


def _plugin_problem(platform: str) -> str | None:
    """Why Qt's plugin for ``platform`` cannot be loaded (a library it needs is missing, as
    libxcb-icccm4 on a minimal system), found by loading it as Qt would; None when it loads or
    cannot be found here (then Qt is left to say so)."""
    import importlib.util
    spec = importlib.util.find_spec("PySide6")
    folders = list(spec.submodule_search_locations or ()) if spec is not None else []
    name = {"xcb": "libqxcb.so", "wayland": "libqwayland.so"}.get(platform)
    plugins = [os.path.join(f, "Qt", "plugins", "platforms", name) for f in folders] if name else []
    for path in plugins:
        if os.path.isfile(path):
            try:
                ctypes.CDLL(path, mode=getattr(os, "RTLD_LAZY", 1) | getattr(os, "RTLD_LOCAL", 0))
            except OSError as e:
                import re
                found = re.search(r"([^\s:/]+\.so[.0-9]*): cannot open shared object file", str(e))
                reason = f"the library {found.group(1)} is missing" if found else str(e)
                return (f"Qt's {'X11 (xcb)' if platform == 'xcb' else 'Wayland'} platform plugin cannot load: "
                        f"{reason} (the README's Set-up lists the packages)")
            return None
    return None


_CONNECT_TIMEOUT: Final = 3.0  # seconds: a display that does not answer in this time is not waited for


def display_unreachable(platform: str, name: str, env: Mapping[str, str]) -> str | None:
    """Why the display ``name`` of ``platform`` (``xcb`` or ``wayland``) cannot be reached, or None
    when a connection to it opens. X11 is asked through libxcb, as Qt asks it (the display name
    parsed, the server's authorisation included), Wayland by connecting to its socket; neither waits
    longer than a few seconds."""
    if platform == "wayland":
        return _wayland_unreachable(name, env)
    return _x11_unreachable(name)


def _wayland_unreachable(name: str, env: Mapping[str, str]) -> str | None:
    if os.path.isabs(name):
        path = name
    else:
        runtime = env.get("XDG_RUNTIME_DIR")
        if not runtime:
            return "XDG_RUNTIME_DIR is not set, so the name does not lead to a socket"
        path = os.path.join(runtime, name)
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.settimeout(_CONNECT_TIMEOUT)
    try:
        sock.connect(path)
    except OSError as e:
        return f"{path}: {e.strerror or e}"
    finally:
        sock.close()
    return None


_XCB_ERRORS: Final = {1: "the connection failed", 2: "an extension is missing", 3: "out of memory",
                      4: "a request was too long", 5: "the display name cannot be parsed",
                      6: "no such screen", 7: "a file descriptor error"}


def _x11_unreachable(name: str) -> str | None:
    library = ctypes.util.find_library("xcb")
    if library is None:
        return "the library libxcb is missing"
    try:
        xcb = ctypes.CDLL(library)
    except OSError as e:
        return f"libxcb cannot be loaded: {e}"
    xcb.xcb_connect.restype = ctypes.c_void_p
    xcb.xcb_connect.argtypes = [ctypes.c_char_p, ctypes.POINTER(ctypes.c_int)]
    xcb.xcb_connection_has_error.restype = ctypes.c_int
    xcb.xcb_connection_has_error.argtypes = [ctypes.c_void_p]
    xcb.xcb_disconnect.restype = None
    xcb.xcb_disconnect.argtypes = [ctypes.c_void_p]
    answer: list[str | None] = []

    def connect() -> None:
        conn = xcb.xcb_connect(os.fsencode(name), None)
        if not conn:
            answer.append("the connection failed")
            return
        code = xcb.xcb_connection_has_error(conn)
        xcb.xcb_disconnect(conn)
        answer.append(None if code == 0 else _XCB_ERRORS.get(code, f"libxcb error {code}"))
    # a remote display that does not answer would hold the connection for minutes: ask on a thread
    worker = threading.Thread(target=connect, name="display check", daemon=True)
    worker.start()
    worker.join(_CONNECT_TIMEOUT)
    if not answer:
        return f"no answer in {_CONNECT_TIMEOUT:g} s"
    return answer[0]


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
