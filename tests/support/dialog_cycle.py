"""Open and close every kind of dialog the window has, as a user would, and let Qt delete them.

One cycle is shared by the long-session test (every dialog opened and closed many times, memory
returning to a bound, no dialog left alive) and by ``bench/run.py`` (issue 18's memory growth
over 1,000 dialog open/close cycles), so that both measure the same thing. Modal dialogs are
answered from a timer inside their own event loop, as a user would press Escape or Cancel.
"""

from __future__ import annotations

import gc
import os
from collections import Counter
from typing import TYPE_CHECKING
from collections.abc import Callable

from PySide6.QtCore import QEvent, QTimer
from PySide6.QtWidgets import QApplication, QDialog, QMessageBox, QWidget

if TYPE_CHECKING:
    from shensha_plates.gui.shell.main_window import MainWindow

__all__ = ["dialog_cycle", "settle", "live_dialogs", "rss_mb", "DIALOG_KINDS"]


def rss_mb() -> float:
    """Resident memory of this process in MiB (Linux: /proc/self/statm)."""
    with open("/proc/self/statm") as fh:
        return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def settle(collect: bool = True) -> None:
    """Let pending events run and deferred deletions happen, as the event loop would between two
    user actions; with ``collect``, collect Python garbage too."""
    app = QApplication.instance()
    for _ in range(2):
        app.processEvents()  # type: ignore[union-attr]
        QApplication.sendPostedEvents(None, int(QEvent.Type.DeferredDelete))
    if collect:
        gc.collect()


def live_dialogs() -> list[QWidget]:
    """Dialogs that exist as Qt windows right now."""
    return [w for w in QApplication.topLevelWidgets() if isinstance(w, QDialog)]


def _answer_modal(seen: Counter[str], tries: int = 200) -> None:
    """Once the modal dialog is up, note its kind and dismiss it (Escape / Cancel)."""
    def dismiss(left: int) -> None:
        box = QApplication.activeModalWidget()
        if not isinstance(box, QDialog):
            if left > 0:
                QTimer.singleShot(5, lambda: dismiss(left - 1))
            return
        seen[type(box).__name__] += 1
        if isinstance(box, QMessageBox) and box.escapeButton() is not None:
            box.escapeButton().click()  # Cancel where there is one: nothing is thrown away
        else:
            box.reject()
    QTimer.singleShot(0, lambda: dismiss(tries))


def _modeless(window: MainWindow, seen: Counter[str], open_: Callable[[], QWidget]) -> None:
    dlg = open_()
    QApplication.processEvents()
    seen[type(dlg).__name__] += 1
    dlg.close()
    del dlg
    settle(collect=False)


def _modal(seen: Counter[str], run: Callable[[], object]) -> None:
    _answer_modal(seen)
    run()
    settle(collect=False)


def _notice(window: MainWindow) -> QWidget:
    window.show_message("dialog cycle")
    box = window._error_box
    assert box is not None
    return box


def _tables(window: MainWindow) -> QWidget:
    window.show_tables()
    assert window.tables is not None
    return window.tables


def _unsaved_lesson_prompt(window: MainWindow) -> None:
    c = window.classroom
    c.add_current()  # a change, so that opening another lesson asks first
    assert not c.maybe_save(), "Cancel must keep the lesson"
    c.remove_current()
    c.mark_saved()


DIALOG_KINDS: tuple[str, ...] = ("compare", "quiz", "tables", "systems", "notice", "export", "shortcuts",
                                 "print_preview", "open_lesson", "save_prompt", "lesson_quiz", "booklet", "find")


def dialog_cycle(window: MainWindow, rounds: int = 1, kinds: tuple[str, ...] = DIALOG_KINDS) -> Counter[str]:
    """Open and close each kind of dialog ``rounds`` times; the count of each dialog class seen."""
    seen: Counter[str] = Counter()
    c = window.classroom
    steps: dict[str, Callable[[], None]] = {
        "compare": lambda: _modeless(window, seen, lambda: c.compare("next:month")),
        "quiz": lambda: _modeless(window, seen, lambda: window.start_quiz(seed=1)),
        "tables": lambda: _modeless(window, seen, lambda: _tables(window)),
        "systems": lambda: _modeless(window, seen, window.show_systems),
        "notice": lambda: _modeless(window, seen, lambda: _notice(window)),
        "export": lambda: _modal(seen, window.export_dialog),
        "shortcuts": lambda: _modal(seen, window.show_shortcuts),
        "print_preview": lambda: _modal(seen, window.print_dialog),
        "open_lesson": lambda: _modal(seen, c._open_dialog),
        "save_prompt": lambda: _modal(seen, lambda: _unsaved_lesson_prompt(window)),
        "lesson_quiz": lambda: _modeless(window, seen, lambda: window.lesson.start_quiz("first", seed=1)),
        "booklet": lambda: _modal(seen, window.booklet_dialog),
        "find": lambda: _modeless(window, seen, window.show_find_moment),
    }
    for _ in range(rounds):
        for kind in kinds:
            steps[kind]()
    return seen
