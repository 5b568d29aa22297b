"""Start the window: the bundled font first, then the main window; a damaged catalog stops here
with a message naming file, entry and field instead of a half-loaded program."""

from __future__ import annotations

import gc
import os
import subprocess
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:
    from PySide6.QtWidgets import QApplication, QMainWindow

    from shensha_plates.gui.model import Snapshot

__all__ = ["run_app", "open_window", "prepare_application", "reduce_motion_requested",
           "ask_desktop_after_first_paint", "after_first_paint", "collector_paused"]


_GSETTINGS = ("gsettings", "get", "org.gnome.desktop.interface", "enable-animations")


def reduce_motion_requested() -> bool:
    """Whether the desktop asks for reduced motion (GNOME's enable-animations, or an env var)."""
    if os.environ.get("SHENSHA_REDUCE_MOTION", "") not in ("", "0"):
        return True
    try:
        out = subprocess.run(_GSETTINGS, capture_output=True, text=True, timeout=1)
    except (OSError, subprocess.SubprocessError):
        return False
    return out.returncode == 0 and out.stdout.strip() == "false"


def ask_desktop_after_first_paint(window: QMainWindow) -> None:
    """Once the window has been painted, ask GNOME (in the background) whether animations are
    off, and if so turn reduced motion on. Nothing moves before the user acts, so the answer is
    not needed for the first picture; asking earlier made every start wait for ``gsettings``."""
    from PySide6.QtCore import QProcess, QTimer
    from shiboken6 import isValid

    def ask() -> None:
        proc = QProcess(window)
        proc.setProgram(_GSETTINGS[0])
        proc.setArguments(list(_GSETTINGS[1:]))
        proc.finished.connect(lambda code, status: answered(proc, code, status))
        proc.errorOccurred.connect(lambda _err: proc.deleteLater() if isValid(proc) else None)  # no gsettings
        timeout = QTimer(proc)  # a desktop that does not answer is not waited for
        timeout.setSingleShot(True)
        timeout.timeout.connect(proc.kill)
        timeout.start(1000)
        # the window closed before the desktop answered: stop asking, quietly (deleting a running
        # process, Qt kills it and calls its handlers on objects already half gone)
        window.destroyed.connect(lambda *_: stop(proc))
        proc.start()

    def stop(proc: QProcess) -> None:
        if not isValid(proc):
            return
        proc.finished.disconnect()
        proc.errorOccurred.disconnect()
        if proc.state() != QProcess.ProcessState.NotRunning:
            proc.kill()
            proc.waitForFinished(500)

    def answered(proc: QProcess, code: int, status: QProcess.ExitStatus) -> None:
        if not (isValid(proc) and isValid(window)):
            return
        out = bytes(proc.readAllStandardOutput().data()).decode("utf-8", "replace").strip()
        proc.deleteLater()
        if status == QProcess.ExitStatus.NormalExit and code == 0 and out == "false":
            window.panel.reduce_motion.setChecked(True)  # type: ignore[attr-defined]

    after_first_paint(window, 0, ask)


def after_first_paint(window: QMainWindow, delay_ms: int, then: Callable[[], None]) -> None:
    """Run ``then`` ``delay_ms`` after the plate view of ``window`` is first painted."""
    from PySide6.QtCore import QEvent, QObject, QTimer

    class FirstPaint(QObject):
        def eventFilter(self, obj: QObject, ev: QEvent) -> bool:  # noqa: N802 - Qt's name
            if ev.type() == QEvent.Type.Paint:
                obj.removeEventFilter(self)
                QTimer.singleShot(delay_ms, then)
            return False

    window.view.viewport().installEventFilter(FirstPaint(window))  # type: ignore[attr-defined]


# Python's cyclic garbage collector, paused while a window starts: a start allocates some hundred
# thousand objects (Qt's and pyqtgraph's modules, the catalog, the window), so the collector ran 161
# times and walked the young objects over and over (54–90 ms of processor time on a loaded two-core
# machine), to free 410 objects. It runs again half a second after the first picture, when the
# window waits for the user, or as soon as the window is closed or another is opened.
_COLLECTOR_PAUSED: list[bool] = []
_RESUME_MS = 500


def _pause_collector() -> None:
    _resume_collector()
    if gc.isenabled():
        gc.disable()
        _COLLECTOR_PAUSED.append(True)


def _resume_collector() -> None:
    if _COLLECTOR_PAUSED:
        _COLLECTOR_PAUSED.clear()
        gc.enable()


def collector_paused() -> bool:
    """Whether a start's pause of the garbage collector is still on (see :func:`open_window`)."""
    return bool(_COLLECTOR_PAUSED)


def prepare_application(argv: Sequence[str] = ()) -> QApplication:
    """The application as the program sets it up (made here unless one exists): names, high-DPI
    rounding, antialiased pyqtgraph, the bundled font as the interface font and flat scroll bars."""
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QFont, QGuiApplication
    from PySide6.QtWidgets import QApplication

    import pyqtgraph as pg

    from shensha_plates.gui.fonts import register_fonts

    existing = QApplication.instance()
    if isinstance(existing, QApplication):
        app = existing
    else:
        QGuiApplication.setHighDpiScaleFactorRoundingPolicy(Qt.HighDpiScaleFactorRoundingPolicy.PassThrough)
        app = QApplication([sys.argv[0], *argv])
    app.setApplicationName("shensha-plates")
    app.setOrganizationName("shensha-plates")
    from PySide6.QtGui import QIcon

    from shensha_plates.desktop import APP_ID, window_icon_file
    app.setWindowIcon(QIcon(window_icon_file()))  # the window's and the task bar's icon
    QGuiApplication.setDesktopFileName(APP_ID)  # the task bar matches it to the menu entry
    pg.setConfigOptions(antialias=True)
    ui_font = QFont(register_fonts())
    ui_font.setPointSizeF(max(10.0, app.font().pointSizeF()))
    app.setFont(ui_font)
    from shensha_plates.gui.shell.flat_style import install_flat_scroll_bars
    install_flat_scroll_bars(app)
    return app


def open_window(argv: Sequence[str] = (), lang: str | None = None, start: Snapshot | None = None) -> QMainWindow | None:
    """Everything ``shensha-plates`` does before the event loop: the application, the bundled font,
    the catalog and the main window (``lang``: its language for this start, else the saved one),
    shown. None (after a message) when the catalog is damaged. ``argv``: extra arguments for Qt
    itself. ``start``: the state to open at (from ``gui``'s arguments), its lesson shown when it has
    one. The benchmark's start-up figure runs exactly this. Python's garbage collector is paused
    until half a second after the window's first picture (see ``_COLLECTOR_PAUSED``)."""
    _pause_collector()
    try:
        window = _open_window(argv, lang, start)
    except BaseException:
        _resume_collector()
        raise
    if window is None:
        _resume_collector()
        return None
    after_first_paint(window, _RESUME_MS, _resume_collector)
    window.destroyed.connect(lambda *_: _resume_collector())
    return window


def _open_window(argv: Sequence[str], lang: str | None, start: Snapshot | None) -> QMainWindow | None:
    from PySide6.QtWidgets import QMessageBox

    from shensha_plates.core.catalog import default_catalog
    from shensha_plates.core.errors import CatalogError, one_line

    prepare_application(argv)
    try:
        catalog = default_catalog()
    except CatalogError as e:
        QMessageBox.critical(None, "神煞旋盘 — catalog error", str(e))
        sys.stderr.write(f"shensha-plates: error: {one_line(e)}\n")
        return None
    from shensha_plates.gui.shell.main_window import MainWindow
    window = MainWindow(catalog=catalog)
    if lang is not None:
        window.model.set_lang(lang)
    if start is not None:
        window.model.start_at(start)
        window.view.finish_animations()  # it opens there: nothing turns into place
        if window.model.ke is not None:
            window.show_lesson()
    if os.environ.get("SHENSHA_REDUCE_MOTION", "") not in ("", "0"):
        window.panel.reduce_motion.setChecked(True)
    else:
        ask_desktop_after_first_paint(window)
    window.show()
    return window


def run_app(argv: Sequence[str] = (), lang: str | None = None, start: Snapshot | None = None,
            check: TextIO | None = None) -> int:
    """Open the window (see :func:`open_window`) and run until it closes. ``check``: instead, once
    the window is painted, write one line there (``painted``, the monotonic clock and the processor
    time in seconds, the window's width and height, the state shown) and close it."""
    from PySide6.QtWidgets import QApplication

    window = open_window(argv, lang, start)
    if window is None:
        return 2
    if check is not None:
        import time

        from shensha_plates.core.terminal import emit
        QApplication.processEvents()
        window.view.grab()  # type: ignore[attr-defined]
        line = (f"painted {time.clock_gettime(time.CLOCK_MONOTONIC):.6f} {time.process_time():.6f} "
                f"{window.width()} {window.height()} {window.model.state.label()}\n")  # type: ignore[attr-defined]
        window.hide()  # not closed: a check leaves the saved settings as they were
        return emit(line, check, sys.stderr)
    _report_escaped_errors(window)
    return QApplication.instance().exec()  # type: ignore[union-attr]


def _report_escaped_errors(window: QMainWindow) -> None:
    """A safety net under every slot: a :class:`shensha_plates.core.errors.ShenshaError` that escapes
    one (a rule file damaged since start-up, read when first used) is shown in the window's message
    line instead of a traceback on the terminal; anything else goes to Python's hook as before."""
    from shiboken6 import isValid

    from shensha_plates.core.errors import ShenshaError, one_line
    previous = sys.excepthook

    def hook(kind: type[BaseException], value: BaseException, tb: object) -> None:
        if isinstance(value, ShenshaError) and isValid(window):
            window.show_message(one_line(str(value)))  # type: ignore[attr-defined]
            return
        previous(kind, value, tb)  # type: ignore[arg-type]
    sys.excepthook = hook
