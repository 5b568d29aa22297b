"""Presentation mode: the window full screen, large type, high contrast, no chrome.

It belongs to the application shell because it rearranges the window itself (hides the side panel,
the menu bar and the status line); what it steps through — the dials or the classroom's lesson —
it reads from the model and the classroom panel.
"""

from __future__ import annotations

from dataclasses import replace
from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

from PySide6.QtCore import QEvent, QObject, QRect, Qt, QTimer, Signal
from PySide6.QtGui import QGuiApplication, QKeyEvent, QWindow
from PySide6.QtWidgets import QApplication, QLabel, QMenuBar, QSplitter, QStatusBar, QWidget

from shensha_plates.gui.describe import state_label
from shensha_plates.gui.fonts import plate_font
from shensha_plates.gui.i18n import tr

if TYPE_CHECKING:
    from shensha_plates.gui.model import PlateModel
    from shensha_plates.gui.panels.classroom import ClassroomPanel
    from shensha_plates.gui.panels.lesson import LessonPanel
    from shensha_plates.gui.plate.view import PlateView


class _Watcher(QObject):
    """Passes a watched object's events to a function (and never stops them)."""

    def __init__(self, on_event: Callable[[QEvent], None], parent: QObject) -> None:
        super().__init__(parent)
        self._on_event = on_event

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        self._on_event(event)
        return False


class PresentedWindow(Protocol):
    """What presentation mode needs of the window it rearranges (the main window is one). A protocol,
    not the window's class, so that the window may own a presenter without an import circle."""

    selected_branch: int | None

    @property
    def view(self) -> PlateView: ...
    @property
    def model(self) -> PlateModel: ...
    @property
    def splitter(self) -> QSplitter: ...
    @property
    def panel_container(self) -> QWidget: ...
    @property
    def classroom(self) -> ClassroomPanel: ...
    @property
    def lesson_if_built(self) -> LessonPanel | None: ...
    def select_branch(self, branch: int) -> None: ...
    def menuBar(self) -> QMenuBar: ...
    def statusBar(self) -> QStatusBar: ...
    def height(self) -> int: ...
    def rect(self) -> QRect: ...
    def isFullScreen(self) -> bool: ...
    def showFullScreen(self) -> None: ...
    def showNormal(self) -> None: ...
    def windowHandle(self) -> QWindow | None: ...

__all__ = ["Presenter", "DIAL_KEYS"]

DIAL_KEYS = ("year", "month", "xun", "day", "hour")  # chosen with the keys 1–5 (5: the hour, the heaven plate)


class Presenter(QObject):
    """Full screen, large type, high contrast, no chrome; the keyboard (or a presenter remote:
    Page Up/Down, arrows, space) steps the plates or the lesson; B or . blacks the screen out."""

    sigChanged = Signal(bool)

    NEXT = {Qt.Key.Key_Right, Qt.Key.Key_Down, Qt.Key.Key_PageDown, Qt.Key.Key_Space, Qt.Key.Key_Return,
            Qt.Key.Key_Enter}
    PREV = {Qt.Key.Key_Left, Qt.Key.Key_Up, Qt.Key.Key_PageUp, Qt.Key.Key_Backspace}
    # the spotlight steps round the branches (clockwise with Tab or ], back with Shift+Tab or [)
    SPOT_NEXT = (Qt.Key.Key_Tab, Qt.Key.Key_BracketRight)
    SPOT_PREV = (Qt.Key.Key_Backtab, Qt.Key.Key_BracketLeft)

    def __init__(self, window: PresentedWindow, parent: QWidget) -> None:
        super().__init__(parent)
        self.w = window
        self.active = False
        self.dial = "month"
        self._saved: dict[str, object] = {}
        self.caption = QLabel(window.view)
        self.caption.setObjectName("present_caption")
        self.caption.setStyleSheet("background: rgba(0,0,0,170); color: white; padding: 10px 18px;"
                                   "border-radius: 8px;")
        self.caption.hide()
        # the Liu Ren walk-through: the lesson in large type and the step in words, bottom left
        self.walk_caption = QLabel(window.view)
        self.walk_caption.setObjectName("present_walk")
        self.walk_caption.setStyleSheet("background: rgba(0,0,0,185); color: white; padding: 10px 18px;"
                                        "border-radius: 8px;")
        self.walk_caption.setWordWrap(True)
        self.walk_caption.hide()
        self.blackout = QWidget(parent)
        self.blackout.setObjectName("blackout")
        self.blackout.setStyleSheet("background: black;")
        self.blackout.hide()
        from shensha_plates.gui.panels.spotlight import Spotlight
        self.spotlight = Spotlight(window.view)
        self._restore_until = 0.0
        self._settle = _Watcher(self._window_settling, self)
        window.splitter.addWidget(self.spotlight)
        window.view.sigBranchClicked.connect(lambda _b: QTimer.singleShot(0, self._sync_spotlight))
        window.model.subscribe(self._on_model)

    # entering and leaving
    def enter(self, screen_index: int | None = None) -> None:
        if self.active:
            return
        w = self.w
        # everything presentation changes, to be put back exactly on leaving (the splitter's sizes
        # too: presentation gives the panel's share to the spotlight, and a panel shown again at
        # width 0 was lost behind a 3-pixel handle)
        self._saved = {"config": w.view.config, "panel": w.panel_container.isVisible(),
                       "menu": w.menuBar().isVisible(), "status": w.statusBar().isVisible(),
                       "full": w.isFullScreen(), "sizes": w.splitter.sizes()}
        screens = QGuiApplication.screens()
        handle = w.windowHandle()
        if screen_index is not None and 0 <= screen_index < len(screens) and handle is not None:
            handle.setScreen(screens[screen_index])
        w.panel_container.hide()
        w.view.highlight(frozenset())  # a find highlight does not follow into the room
        w.menuBar().hide()
        w.statusBar().hide()
        w.view.apply_config(replace(w.view.config, high_contrast=True))
        w.showFullScreen()
        self.active = True
        # the spotlight beside the plate: the selected branch (or the one at the top) in large type
        self.spotlight.show()
        total = max(1, w.splitter.width())
        w.splitter.setSizes([total - total * 32 // 100, 0, total * 32 // 100])
        if w.selected_branch is None:
            w.select_branch(6 if w.view.config.orientation == "south" else 0)
        self._sync_spotlight()
        QApplication.instance().installEventFilter(self)  # type: ignore[union-attr]
        self.caption.setParent(self.spotlight)
        self._update_caption()
        self.caption.show()
        self.caption.raise_()
        self.sigChanged.emit(True)

    def exit(self) -> None:
        if not self.active:
            return
        w = self.w
        QApplication.instance().removeEventFilter(self)  # type: ignore[union-attr]
        self.active = False
        self.blackout.hide()
        self.caption.hide()
        self.walk_caption.hide()
        self.walk_caption.setParent(w.view)
        self.caption.setParent(w.view)
        self.spotlight.hide()
        w.view.apply_config(self._saved["config"])  # type: ignore[arg-type]
        w.panel_container.setVisible(bool(self._saved["panel"]))
        w.menuBar().setVisible(bool(self._saved["menu"]))
        w.statusBar().setVisible(bool(self._saved["status"]))
        if not self._saved["full"]:
            w.showNormal()
        self._restore_splitter()
        # a real window leaves full screen when the window system says so, after this returns (on X
        # without a window manager it is unmapped and mapped again), and its splitter then lays out
        # again with the panel at width 0: put the sizes back when the window shows and settles
        import time
        self._restore_until = time.monotonic() + 1.0  # the window's own settling, not a user's resize later
        self.blackout.window().installEventFilter(self._settle)
        QTimer.singleShot(0, self._restore_splitter)
        self.sigChanged.emit(False)

    def _window_settling(self, event: QEvent) -> None:
        import time
        if time.monotonic() > self._restore_until:
            self.blackout.window().removeEventFilter(self._settle)
        elif event.type() in (QEvent.Type.Show, QEvent.Type.Resize, QEvent.Type.WindowStateChange):
            QTimer.singleShot(0, self._restore_splitter)

    def _restore_splitter(self) -> None:
        if self.active or "sizes" not in self._saved:
            return
        w = self.w
        w.panel_container.setVisible(bool(self._saved["panel"]))
        sizes = list(self._saved["sizes"])  # type: ignore[call-overload]
        if len(sizes) == w.splitter.count():
            total = sum(w.splitter.sizes())
            if total > 0 and sum(sizes) != total:  # the window's width changed meanwhile: the panel keeps its own
                sizes[0] = max(200, total - sum(sizes[1:]))
            w.splitter.setSizes(sizes)

    # stepping
    def next(self) -> None:
        self._go(1)

    def previous(self) -> None:
        self._go(-1)

    def _go(self, delta: int) -> None:
        panel = self.w.lesson_if_built
        if panel is not None and panel.walk_active():  # the Liu Ren walk-through, when one is running
            panel.go_walk(delta)
            return
        lesson = self.w.classroom.lesson_steps()
        if lesson:
            self.w.classroom.go_lesson(delta)
        else:
            self.w.model.step(self.dial, delta)

    def toggle_blackout(self) -> None:
        if self.blackout.isVisible():
            self.blackout.hide()
        else:
            self.blackout.setGeometry(self.w.rect())
            self.blackout.show()
            self.blackout.raise_()

    def _on_model(self, event: str) -> None:
        if self.active and event in ("state", "lang", "paper"):
            self._update_caption()
            self.spotlight.refresh()

    def _sync_spotlight(self) -> None:
        if self.active:
            self.spotlight.show_branch(self.w.selected_branch, self.w.height())

    def step_spotlight(self, delta: int) -> None:
        """Move the spotlight (and the selection on the plate) round the twelve branches."""
        b = self.w.selected_branch
        self.w.select_branch(((6 if b is None else b) + delta) % 12)
        self._sync_spotlight()

    def refresh_caption(self) -> None:
        """After a step of the walk-through (or a note): the caption, and the spotlight on the branch the
        step selected, so that the column follows the lit slice."""
        if self.active:
            self._update_caption()
            self._sync_spotlight()

    def _update_caption(self) -> None:
        lang = self.w.model.lang
        text = state_label(self.w.model.state, lang)
        note = self.w.classroom.current_note()
        dial = tr("dial_" + self.dial, lang)
        self.caption.setText(f"{text}" + (f"\n{note}" if note else "") + "\n" + tr("present_dial", lang, dial=dial))
        side = min(self.w.view.width(), self.w.view.height())
        self.caption.setFont(plate_font(max(18.0, min(side / 26, self.w.height() / 40))))
        # at the foot of the spotlight column, clear of the plates (which fill their canvas)
        parent = self.caption.parentWidget() or self.w.view
        self.caption.setMaximumWidth(max(100, parent.width() - 32))
        self.caption.adjustSize()
        self.caption.move(16, max(16, parent.height() - self.caption.height() - 16))
        self._update_walk_caption(side)

    def _update_walk_caption(self, side: int) -> None:
        lesson = self.w.lesson_if_built
        walk = None if lesson is None else lesson.current_walk_step()
        if lesson is None or walk is None or not self.active:
            self.walk_caption.hide()
            return
        # in the spotlight column, above the state's caption, clear of the plates
        parent = self.caption.parentWidget() or self.w.view
        if self.walk_caption.parentWidget() is not parent:
            self.walk_caption.setParent(parent)
        self.walk_caption.setText(lesson.walk_summary())
        self.walk_caption.setFont(plate_font(max(18.0, min(side / 38, self.w.height() / 38))))  # 28 px at 1080
        self.walk_caption.setMaximumWidth(max(100, parent.width() - 32))
        self.walk_caption.adjustSize()
        self.walk_caption.move(16, max(16, self.caption.y() - self.walk_caption.height() - 12))
        self.walk_caption.show()
        self.walk_caption.raise_()

    def eventFilter(self, obj: QObject, ev: QEvent) -> bool:  # noqa: N802 - Qt's name
        if not self.active:
            return False
        t = ev.type()
        if t == QEvent.Type.Resize and obj is self.w:
            self.blackout.setGeometry(self.w.rect())
            self._update_caption()
            self._sync_spotlight()
            return False
        if t not in (QEvent.Type.KeyPress, QEvent.Type.ShortcutOverride) or not isinstance(ev, QKeyEvent):
            return False
        key = Qt.Key(ev.key())
        handled = key in self.NEXT or key in self.PREV or key in (
            Qt.Key.Key_B, Qt.Key.Key_Period, Qt.Key.Key_Escape, Qt.Key.Key_F5, Qt.Key.Key_P,
            Qt.Key.Key_1, Qt.Key.Key_2, Qt.Key.Key_3, Qt.Key.Key_4, Qt.Key.Key_5, *self.SPOT_NEXT, *self.SPOT_PREV)
        if not handled:
            return False
        if t == QEvent.Type.ShortcutOverride:
            ev.accept()  # ours, not the window's shortcuts
            return True
        self.handle_key(key)
        return True

    def handle_key(self, key: Qt.Key) -> None:
        if key in self.SPOT_NEXT:
            self.step_spotlight(1)
        elif key in self.SPOT_PREV:
            self.step_spotlight(-1)
        elif key in self.NEXT:
            self.next()
        elif key in self.PREV:
            self.previous()
        elif key in (Qt.Key.Key_B, Qt.Key.Key_Period):
            self.toggle_blackout()
        elif key in (Qt.Key.Key_Escape, Qt.Key.Key_F5):
            self.exit()
        elif key == Qt.Key.Key_P:
            self.w.classroom.toggle_play()
        else:
            self.dial = DIAL_KEYS[int(key) - int(Qt.Key.Key_1)]
            self._update_caption()
