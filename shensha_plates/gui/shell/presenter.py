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
from PySide6.QtWidgets import QApplication, QLabel, QMenuBar, QSplitter, QStatusBar, QVBoxLayout, QWidget

from shensha_plates.gui.describe import state_label
from shensha_plates.gui.fonts import plate_font
from shensha_plates.gui.i18n import tr
from shensha_plates.gui.panels.spotlight import Spotlight, spotlight_px
from shensha_plates.gui.shell.actions import PRESENT_KEYS

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
    def start_quiz(self) -> object: ...
    def toggle_zoom(self) -> None: ...
    def menuBar(self) -> QMenuBar: ...
    def statusBar(self) -> QStatusBar: ...
    def height(self) -> int: ...
    def rect(self) -> QRect: ...
    def isFullScreen(self) -> bool: ...
    def showFullScreen(self) -> None: ...
    def showNormal(self) -> None: ...
    def windowHandle(self) -> QWindow | None: ...

__all__ = ["Presenter", "PresentColumn", "DIAL_KEYS"]

DIAL_KEYS = ("year", "month", "xun", "day", "hour")  # chosen with the keys 1–5 (5: the hour, the heaven plate)


class PresentColumn(QWidget):
    """The column beside the plate in presentation: the spotlight on top, then, each in a row of its
    own and never over the plate or one another, the quiz, the traced spirit's rule, the
    walk-through's step and the state's caption. Every text in it is sized from the screen (28 px
    or more on 1080 lines)."""

    def __init__(self, view: PlateView) -> None:
        super().__init__()
        self.setObjectName("present_column")
        self.setStyleSheet("QWidget#present_column { background: white; }")
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 12, 12)
        lay.setSpacing(10)
        self.spotlight = Spotlight(view)
        self.spotlight.show()
        lay.addWidget(self.spotlight, 1)
        self.quiz_slot = QVBoxLayout()
        lay.addLayout(self.quiz_slot)

        def overlay(name: str, background: str) -> QLabel:
            label = QLabel()
            label.setObjectName(name)
            label.setWordWrap(True)
            label.setStyleSheet(f"QLabel#{name} {{ background: {background}; color: white; padding: 8px 14px;"
                                " border-radius: 8px; }")
            label.hide()
            lay.addWidget(label)
            return label

        self.trace = overlay("present_trace", "#8e2a20")
        self.walk = overlay("present_walk", "rgba(0,0,0,200)")
        self.caption = overlay("present_caption", "rgba(0,0,0,170)")
        self.px = 30
        self.hide()

    def set_px(self, px: int) -> None:
        """The type size of everything in the column (the spotlight sets its own from the same rule)."""
        self.px = px
        for label in (self.trace, self.walk, self.caption):
            label.setFont(plate_font(px))

    def overlays(self) -> list[QWidget]:
        """The column's parts shown now, each of which must keep clear of the others and the plate."""
        parts: list[QWidget] = [self.spotlight, self.trace, self.walk, self.caption]
        for i in range(self.quiz_slot.count()):
            item = self.quiz_slot.itemAt(i)
            widget = item.widget() if item is not None else None
            if widget is not None:
                parts.append(widget)
        return [p for p in parts if p.isVisible()]


class Presenter(QObject):
    """Full screen, large type, high contrast, no chrome; the keyboard (or a presenter remote:
    Page Up/Down, arrows, space) steps the plates or the lesson; B or . blacks the screen out."""

    sigChanged = Signal(bool)

    def __init__(self, window: PresentedWindow, parent: QWidget) -> None:
        super().__init__(parent)
        self.w = window
        self.active = False
        self.dial = "month"
        self._saved: dict[str, object] = {}
        self.column = PresentColumn(window.view)
        self.spotlight = self.column.spotlight
        self.caption = self.column.caption
        self.walk_caption = self.column.walk
        self.trace_caption = self.column.trace
        self.blackout = QWidget(parent)
        self.blackout.setObjectName("blackout")
        self.blackout.setStyleSheet("background: black;")
        self.blackout.hide()
        self._restore_until = 0.0
        self._trace_followed = False
        self._settle = _Watcher(self._window_settling, self)
        self._keys = {getattr(Qt.Key, "Key_" + k): pk.id for pk in PRESENT_KEYS for k in pk.keys}
        window.splitter.addWidget(self.column)
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
        # the column beside the plate: the selected branch (or the one at the top) in large type, and
        # under it the quiz, the trace's rule, the walk-through's step and the caption
        self.column.show()
        total = max(1, w.splitter.width())
        share = self.column_share(w.rect().width(), w.rect().height())
        w.splitter.setSizes([total - total * share // 100, 0, total * share // 100])
        if w.selected_branch is None:
            w.select_branch(6 if w.view.config.orientation == "south" else 0)
        self._sync_spotlight()
        QApplication.instance().installEventFilter(self)  # type: ignore[union-attr]
        if not self._trace_followed:
            w.classroom.sigTraced.connect(self._update_caption)
            self._trace_followed = True
        quiz = getattr(w, "quiz", None)
        if quiz is not None:  # a quiz already open on the desk moves into the room
            self.embed_quiz(quiz)
        self._update_caption()
        self.caption.show()
        self.sigChanged.emit(True)

    @staticmethod
    def column_share(width: int, height: int) -> int:
        """The column's share of the width, in per cent: a third on a wide screen, more on a 4:3 one
        (where the plate, bounded by the height, does not need the width)."""
        return 32 if width >= height * 1.5 else 38

    def exit(self) -> None:
        if not self.active:
            return
        w = self.w
        QApplication.instance().removeEventFilter(self)  # type: ignore[union-attr]
        self.active = False
        self.blackout.hide()
        quiz = getattr(w, "quiz", None)
        if quiz is not None and quiz.parentWidget() is not None and quiz.parentWidget().window() is w:
            quiz.close()  # the room's quiz ends with the presentation (the plate goes back to its state)
        self.column.hide()
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
        self.column.set_px(spotlight_px(self.w.height()))
        text = state_label(self.w.model.state, lang)
        note = self.w.classroom.current_note()
        dial = tr("dial_" + self.dial, lang)
        self.caption.setText(f"{text}" + (f"\n{note}" if note else "") + "\n" + tr("present_dial", lang, dial=dial))
        # a quiz in the room has the column to itself (it sets the plates to its own question)
        quizzing = any(self.column.quiz_slot.itemAt(i) is not None for i in range(self.column.quiz_slot.count()))
        words = "" if quizzing else self.w.classroom.trace_summary()
        self.trace_caption.setText(words)
        self.trace_caption.setVisible(self.active and bool(words))
        self._update_walk_caption(quizzing)

    def _update_walk_caption(self, quizzing: bool = False) -> None:
        lesson = self.w.lesson_if_built
        walk = None if lesson is None else lesson.current_walk_step()
        if lesson is None or walk is None or not self.active or quizzing:
            self.walk_caption.hide()
            return
        self.walk_caption.setText(lesson.walk_summary())
        self.walk_caption.show()

    def _quiz_ended(self, quiz: QWidget) -> None:
        self.column.quiz_slot.removeWidget(quiz)
        quiz.hide()
        self._update_caption()

    def embed_quiz(self, quiz: QWidget) -> None:
        """Put the quiz in the column, in the room's type, instead of a window of its own."""
        quiz.setWindowFlags(Qt.WindowType.Widget)
        self.column.quiz_slot.addWidget(quiz)
        set_px = getattr(quiz, "set_px", None)
        if set_px is not None:
            set_px(spotlight_px(self.w.height()))
        quiz.show()
        finished = getattr(quiz, "finished", None)
        if finished is not None:  # a dialog's end: out of the column at once (Qt deletes it later)
            finished.connect(lambda *_: self._quiz_ended(quiz))
        self._update_caption()

    def eventFilter(self, obj: QObject, ev: QEvent) -> bool:  # noqa: N802 - Qt's name
        if not self.active:
            return False
        t = ev.type()
        if t == QEvent.Type.Resize and obj is self.w:
            self.blackout.setGeometry(self.w.rect())
            total = max(1, self.w.splitter.width())
            share = self.column_share(self.w.rect().width(), self.w.height())
            self.w.splitter.setSizes([total - total * share // 100, 0, total * share // 100])
            self._update_caption()
            self._sync_spotlight()
            return False
        if t not in (QEvent.Type.KeyPress, QEvent.Type.ShortcutOverride) or not isinstance(ev, QKeyEvent):
            return False
        key = Qt.Key(ev.key())
        if key not in self._keys:
            return False
        if t == QEvent.Type.ShortcutOverride:
            ev.accept()  # ours, not the window's shortcuts
            return True
        self.handle_key(key)
        return True

    def handle_key(self, key: Qt.Key) -> None:
        """Presentation's keys, as :data:`~shensha_plates.gui.shell.actions.PRESENT_KEYS` lists them."""
        what = self._keys.get(key)
        if what == "spot_next":
            self.step_spotlight(1)
        elif what == "spot_previous":
            self.step_spotlight(-1)
        elif what == "next":
            self.next()
        elif what == "previous":
            self.previous()
        elif what == "blackout":
            self.toggle_blackout()
        elif what == "leave":
            self.exit()
        elif what == "play":
            self.w.classroom.toggle_play()
        elif what == "quiz":
            self.w.start_quiz()
        elif what == "zoom":
            self.w.toggle_zoom()
        elif what == "dial":
            self.dial = DIAL_KEYS[int(key) - int(Qt.Key.Key_1)]
            self._update_caption()
