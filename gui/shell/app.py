"""Start the window: the bundled font first, then the main window; a damaged catalog stops here
with a message naming file, entry and field instead of a half-loaded program."""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence

__all__ = ["run_app", "reduce_motion_requested"]


def reduce_motion_requested() -> bool:
    """Whether the desktop asks for reduced motion (GNOME's enable-animations, or an env var)."""
    if os.environ.get("SHENSHA_REDUCE_MOTION", "") not in ("", "0"):
        return True
    try:
        import subprocess
        out = subprocess.run(["gsettings", "get", "org.gnome.desktop.interface", "enable-animations"],
                             capture_output=True, text=True, timeout=1)
        return out.returncode == 0 and out.stdout.strip() == "false"
    except (OSError, subprocess.SubprocessError):
        return False


def run_app(argv: Sequence[str] = (), lang: str | None = None) -> int:
    """Open the window (``lang``: its language for this start, else the saved one) and run until it
    closes. ``argv``: extra arguments for Qt itself."""
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QGuiApplication
    from PySide6.QtWidgets import QApplication, QMessageBox

    import pyqtgraph as pg

    from core.catalog import default_catalog
    from core.errors import CatalogError, one_line

    QGuiApplication.setHighDpiScaleFactorRoundingPolicy(Qt.HighDpiScaleFactorRoundingPolicy.PassThrough)
    existing = QApplication.instance()
    app = existing if isinstance(existing, QApplication) else QApplication([sys.argv[0], *argv])
    app.setApplicationName("shensha-plates")
    app.setOrganizationName("shensha-plates")
    pg.setConfigOptions(antialias=True)
    from gui.fonts import register_fonts
    family = register_fonts()
    from PySide6.QtGui import QFont
    ui_font = QFont(family)
    ui_font.setPointSizeF(max(10.0, app.font().pointSizeF()))
    app.setFont(ui_font)
    try:
        catalog = default_catalog()
    except CatalogError as e:
        QMessageBox.critical(None, "神煞旋盘 — catalog error", str(e))
        sys.stderr.write(f"shensha-plates: error: {one_line(e)}\n")
        return 2
    from gui.shell.main_window import MainWindow
    window = MainWindow(catalog=catalog)
    if lang is not None:
        window.model.set_lang(lang)
    if reduce_motion_requested():
        window.panel.reduce_motion.setChecked(True)
    window.show()
    return app.exec()
