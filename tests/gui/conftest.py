"""Fixtures for the window tests: a fresh window per test, settings in a temporary folder."""

from __future__ import annotations

import math
from pathlib import Path
from collections.abc import Iterator

import pyqtgraph as pg
import pytest
from pytestqt.qtbot import QtBot
from PySide6.QtCore import QEvent, QPoint, QPointF, Qt
from PySide6.QtGui import QMouseEvent, QWheelEvent
from PySide6.QtWidgets import QApplication

from shensha_plates.gui.shell.main_window import MainWindow
from shensha_plates.gui.plate.ring_item import RingItem
from shensha_plates.gui.shell.settings import Settings


@pytest.fixture(autouse=True)
def _no_rate_limit() -> None:
    pg.setConfigOption("mouseRateLimit", 0)


@pytest.fixture
def window(qtbot: QtBot, tmp_path: Path) -> Iterator[MainWindow]:
    from shensha_plates.gui.fonts import register_fonts
    register_fonts()
    w = MainWindow(settings=Settings(tmp_path / "settings.ini"))
    qtbot.addWidget(w)
    w.resize(1400, 900)
    w.show()
    QApplication.processEvents()
    w.view.set_reduce_motion(False)
    yield w
    w.view.finish_animations()
    w.classroom.mark_saved()  # a lesson a test left unsaved must not ask (and wait) when qtbot closes the window


def ring_point(window: MainWindow, ring: RingItem, angle_deg: float) -> QPoint:
    """Viewport coordinates of the point on ``ring``'s mid-radius at screen angle ``angle_deg``."""
    r = (ring.r_in + ring.r_out) / 2
    parent = ring.parentItem()
    scene = parent.mapToScene(QPointF(r * math.cos(math.radians(angle_deg)), r * math.sin(math.radians(angle_deg))))
    return window.view.mapFromScene(scene)


def send_mouse(widget: object, kind: QEvent.Type, pos: QPoint, button: Qt.MouseButton,
               buttons: Qt.MouseButton) -> None:
    ev = QMouseEvent(kind, QPointF(pos), QPointF(widget.mapToGlobal(pos)), button, buttons,  # type: ignore[attr-defined]
                     Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(widget, ev)


class _StepClock:
    """A stand-in for ``time`` inside gui.plate.turning: advances by a fixed step per pointer event, so the
    release velocity (and thus any fling) does not depend on how fast the test machine is."""

    def __init__(self, seconds_per_step: float) -> None:
        self.now = 1000.0
        self.step = seconds_per_step

    def monotonic(self) -> float:
        return self.now

    def tick(self) -> None:
        self.now += self.step


def drag_ring(window: MainWindow, ring: RingItem, from_deg: float, to_deg: float, steps: int = 12,
              seconds_per_step: float = 0.05) -> None:
    """Press on a ring, move along the arc in small steps, release.

    Each step takes ``seconds_per_step`` of (simulated) time: the default is a calm hand-turn
    (no fling); a small value gives a flick that carries on after release."""
    import shensha_plates.gui.plate.turning as ring_module
    clock = _StepClock(seconds_per_step)
    real_time = ring_module.time
    ring_module.time = clock  # type: ignore[assignment]
    try:
        vp = window.view.viewport()
        start = ring_point(window, ring, from_deg)
        send_mouse(vp, QEvent.Type.MouseButtonPress, start, Qt.MouseButton.LeftButton, Qt.MouseButton.LeftButton)
        for i in range(1, steps + 1):
            clock.tick()
            a = from_deg + (to_deg - from_deg) * i / steps
            send_mouse(vp, QEvent.Type.MouseMove, ring_point(window, ring, a), Qt.MouseButton.NoButton,
                       Qt.MouseButton.LeftButton)
            QApplication.processEvents()
        clock.tick()
        end = ring_point(window, ring, to_deg)
        send_mouse(vp, QEvent.Type.MouseButtonRelease, end, Qt.MouseButton.LeftButton, Qt.MouseButton.NoButton)
    finally:
        ring_module.time = real_time  # type: ignore[assignment]


def wheel_on(window: MainWindow, pos: QPoint, delta: int, modifiers: Qt.KeyboardModifier = Qt.KeyboardModifier.NoModifier) -> None:
    vp = window.view.viewport()
    ev = QWheelEvent(QPointF(pos), QPointF(vp.mapToGlobal(pos)), QPoint(0, 0), QPoint(0, delta),
                     Qt.MouseButton.NoButton, modifiers, Qt.ScrollPhase.NoScrollPhase, False)
    QApplication.sendEvent(vp, ev)
