"""Start the window: the bundled font first, then the main window; a damaged catalog stops here
with a message naming file, entry and field instead of a half-loaded program."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from PySide6.QtWidgets import QApplication, QMainWindow

__all__ = ["run_app", "open_window", "prepare_application", "reduce_motion_requested"]


def _ask_desktop() -> subprocess.Popen[str] | None:
    """Start asking GNOME whether animations are off; the answer is read by :func:`_answer`."""
    try:
        return subprocess.Popen(["gsettings", "get", "org.gnome.desktop.interface", "enable-animations"],
                                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    except OSError:
        return None


def _answer(proc: subprocess.Popen[str] | None) -> bool:
    if proc is None:
        return False
    try:
        out, _ = proc.communicate(timeout=1)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        return False
    return proc.returncode == 0 and out.strip() == "false"


def reduce_motion_requested() -> bool:
    """Whether the desktop asks for reduced motion (GNOME's enable-animations, or an env var)."""
    if os.environ.get("SHENSHA_REDUCE_MOTION", "") not in ("", "0"):
        return True
    return _answer(_ask_desktop())


def prepare_application(argv: Sequence[str] = ()) -> QApplication:
    """The application as the program sets it up (made here unless one exists): names, high-DPI
    rounding, antialiased pyqtgraph and the bundled font as the interface font."""
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QFont, QGuiApplication
    from PySide6.QtWidgets import QApplication

    import pyqtgraph as pg

    from gui.fonts import register_fonts

    existing = QApplication.instance()
    if isinstance(existing, QApplication):
        app = existing
    else:
        QGuiApplication.setHighDpiScaleFactorRoundingPolicy(Qt.HighDpiScaleFactorRoundingPolicy.PassThrough)
        app = QApplication([sys.argv[0], *argv])
    app.setApplicationName("shensha-plates")
    app.setOrganizationName("shensha-plates")
    pg.setConfigOptions(antialias=True)
    ui_font = QFont(register_fonts())
    ui_font.setPointSizeF(max(10.0, app.font().pointSizeF()))
    app.setFont(ui_font)
    return app


def open_window(argv: Sequence[str] = (), lang: str | None = None) -> QMainWindow | None:
    """Everything ``shensha-plates`` does before the event loop: the application, the bundled font,
    the catalog and the main window (``lang``: its language for this start, else the saved one),
    shown. None (after a message) when the catalog is damaged. ``argv``: extra arguments for Qt
    itself. The benchmark's start-up figure runs exactly this."""
    # the desktop is asked first and answers while the program loads (a process of its own)
    by_env = os.environ.get("SHENSHA_REDUCE_MOTION", "") not in ("", "0")
    desktop = None if by_env else _ask_desktop()
    from PySide6.QtWidgets import QMessageBox

    from core.catalog import default_catalog
    from core.errors import CatalogError, one_line

    prepare_application(argv)
    try:
        catalog = default_catalog()
    except CatalogError as e:
        _answer(desktop)
        QMessageBox.critical(None, "神煞旋盘 — catalog error", str(e))
        sys.stderr.write(f"shensha-plates: error: {one_line(e)}\n")
        return None
    from gui.shell.main_window import MainWindow
    window = MainWindow(catalog=catalog)
    if lang is not None:
        window.model.set_lang(lang)
    if by_env or _answer(desktop):
        window.panel.reduce_motion.setChecked(True)
    window.show()
    return window


def run_app(argv: Sequence[str] = (), lang: str | None = None) -> int:
    """Open the window (see :func:`open_window`) and run until it closes."""
    from PySide6.QtWidgets import QApplication

    window = open_window(argv, lang)
    if window is None:
        return 2
    return QApplication.instance().exec()  # type: ignore[union-attr]
