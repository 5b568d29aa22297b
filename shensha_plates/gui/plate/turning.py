"""What lets a disc be turned by hand: a graphics item that the pointer drags about its parent's origin.

A drag turns the item with the pointer (``sigRotationChanged`` on every move); on release it carries
on with the flick's speed and settles on an allowed branch (``allowed``) with a short animation (none
with ``reduce_motion``), then ``sigRotationFinished`` carries the final anchor, the branch slot 0
rests on. A right click during a drag cancels it. :meth:`set_anchor` turns it from outside (the
model's state), the shortest way round. What the disc shows and how it paints is
:class:`shensha_plates.gui.plate.ring_item.RingItem`, which is one of these.
"""

from __future__ import annotations

import math
import time

import pyqtgraph as pg
from PySide6.QtCore import QEasingCurve, QPointF, Qt, QVariantAnimation, Signal

__all__ = ["TurningItem"]


class TurningItem(pg.GraphicsObject):
    """A graphics item centred at its parent's origin that a drag turns and a flick carries on;
    rotation 30° × k puts slot 0 on branch k."""

    sigRotationChanged = Signal(float)
    sigRotationFinished = Signal(int)
    sigDragStarted = Signal()

    def __init__(self, parent: pg.GraphicsObject | None = None) -> None:
        super().__init__(parent)
        self.draggable = True
        self.allowed = tuple(range(12))
        self.reduce_motion = False
        self.duration_ms = 260
        self._drag: tuple[float, float] | None = None  # (pointer angle at start, rotation at start)
        self._history: list[tuple[float, float]] = []
        self._anim = QVariantAnimation(self)
        self._anim.valueChanged.connect(self._on_anim_value)
        self._anim.finished.connect(self._on_anim_finished)
        self._anim_target: int | None = None
        self._emit_finish = False

    # -- rotation ----------------------------------------------------------------------------
    @property
    def anchor(self) -> int:
        return round(self.rotation() / 30.0) % 12

    @property
    def animating(self) -> bool:
        return self._anim.state() == QVariantAnimation.State.Running

    @property
    def dragging(self) -> bool:
        return self._drag is not None

    def set_anchor(self, anchor: int, animate: bool = True, emit: bool = False) -> None:
        """Turn to put slot 0 on branch ``anchor``, the shortest way round."""
        if self._drag is not None:
            return
        current = self.rotation()
        target = current + (((anchor * 30.0 - current) + 180.0) % 360.0 - 180.0)
        if not emit and not self.animating and abs(target - current) < 1e-9:
            # already there: turning it "again" would repaint it, and with it the whole plate
            self._anim_target = anchor
            return
        self._animate_to(target, animate, emit)

    def _animate_to(self, target: float, animate: bool, emit: bool) -> None:
        self._anim.stop()
        self._anim_target = round(target / 30.0) % 12
        self._emit_finish = emit
        if not animate or self.reduce_motion or abs(target - self.rotation()) < 0.01:
            self._set_rotation(target)
            self._on_anim_finished()
            return
        self._anim.setStartValue(float(self.rotation()))
        self._anim.setEndValue(float(target))
        span = abs(target - self.rotation())
        self._anim.setDuration(int(min(max(700, 2.5 * self.duration_ms), self.duration_ms * (0.6 + span / 90.0))))
        self._anim.setEasingCurve(QEasingCurve.Type.OutCubic)
        self._anim.start()

    def _set_rotation(self, deg: float) -> None:
        # keep the angle small so that it never loses precision after many turns
        if abs(deg) > 3600:
            deg = deg % 360.0
        self.setRotation(deg)
        self.sigRotationChanged.emit(deg)

    def _on_anim_value(self, value: object) -> None:
        self._set_rotation(float(value))  # type: ignore[arg-type]

    def _on_anim_finished(self) -> None:
        if self._anim_target is not None:
            target = self._anim_target
            self.setRotation(target * 30.0 + 360.0 * round((self.rotation() - target * 30.0) / 360.0))
            if self._emit_finish:
                self._emit_finish = False
                self.sigRotationFinished.emit(target)

    def finish_animation(self) -> None:
        """Jump to the end of a running animation (tests, exports)."""
        if self.animating:
            end = float(self._anim.endValue())
            self._anim.stop()
            self._set_rotation(end)
            self._on_anim_finished()

    def _nearest_allowed(self, rotation: float) -> float:
        best = None
        for a in self.allowed:
            cand = rotation + (((a * 30.0 - rotation) + 180.0) % 360.0 - 180.0)
            if best is None or abs(cand - rotation) < abs(best - rotation):
                best = cand
        return rotation if best is None else best

    # -- pointer ------------------------------------------------------------------------------
    def _pointer_angle(self, scene_pos: QPointF) -> float:
        parent = self.parentItem()
        pt = parent.mapFromScene(scene_pos) if parent is not None else scene_pos
        return math.degrees(math.atan2(pt.y(), pt.x()))

    def mouseDragEvent(self, ev: object) -> None:  # pyqtgraph's drag protocol
        if ev.button() != Qt.MouseButton.LeftButton or not self.draggable:  # type: ignore[attr-defined]
            ev.ignore()  # type: ignore[attr-defined]
            return
        ev.accept()  # type: ignore[attr-defined]
        if ev.isStart():  # type: ignore[attr-defined]
            self._anim.stop()
            self._drag = (self._pointer_angle(ev.buttonDownScenePos()), self.rotation())  # type: ignore[attr-defined]
            self._history = [(time.monotonic(), self.rotation())]
            self.sigDragStarted.emit()
        if self._drag is None:
            return
        start_angle, start_rot = self._drag
        delta = self._pointer_angle(ev.scenePos()) - start_angle  # type: ignore[attr-defined]
        delta = (delta + 180.0) % 360.0 - 180.0
        # unwrap across the ±180° seam relative to the last position
        last = self.rotation()
        rot = start_rot + delta
        rot += 360.0 * round((last - rot) / 360.0)
        self._set_rotation(rot)
        now = time.monotonic()
        self._history.append((now, rot))
        self._history = [h for h in self._history if now - h[0] < 0.12]
        if ev.isFinish():  # type: ignore[attr-defined]
            self._release()

    def _release(self) -> None:
        self._drag = None
        rot = self.rotation()
        velocity = 0.0
        if len(self._history) >= 2:
            (t0, r0), (t1, r1) = self._history[0], self._history[-1]
            if t1 - t0 > 1e-3:
                velocity = (r1 - r0) / (t1 - t0)  # degrees per second
        carry = 0.0 if self.reduce_motion or abs(velocity) < 240 else max(-540.0, min(540.0, velocity * 0.35))
        target = self._nearest_allowed(rot + carry)
        self._animate_to(target, animate=True, emit=True)

    def cancel_drag(self) -> None:
        """Right click during a drag: go back to where the drag began."""
        if self._drag is not None:
            _, start_rot = self._drag
            self._drag = None
            self._animate_to(start_rot, animate=True, emit=False)

    def mousePressEvent(self, ev: object) -> None:
        if self._drag is not None and ev.button() == Qt.MouseButton.RightButton:  # type: ignore[attr-defined]
            self.cancel_drag()
            ev.accept()  # type: ignore[attr-defined]
            return
        super().mousePressEvent(ev)
