"""Guard against a Qt binding that corrupts reference counts (PySide6 6.12.0 on Python 3.11 loses a
reference to None on every void call, which crashes a long session after a few thousand paints)."""

from __future__ import annotations

import sys

from PySide6.QtCore import QPointF
from PySide6.QtGui import QImage, QPainter, QPicture


def test_painting_keeps_none_alive(qapp: object) -> None:
    pic = QPicture()
    p = QPainter(pic)
    p.drawLine(QPointF(0, 0), QPointF(5, 5))
    p.end()
    img = QImage(16, 16, QImage.Format.Format_ARGB32)
    p = QPainter(img)
    before = sys.getrefcount(None)
    for _ in range(2000):
        p.save()
        p.translate(1.0, 1.0)
        p.drawPicture(0, 0, pic)
        p.restore()
    drift = sys.getrefcount(None) - before
    p.end()
    assert abs(drift) < 500, f"None lost {-drift} references: this Qt binding is broken"
