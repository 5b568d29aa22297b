"""Render the window's icon, ``shensha-plates.png`` (256 px), from ``shensha-plates.svg``.

Run from the repository root whenever the SVG changes (a test fails when the two differ):

    python shensha_plates/resources/icons/make_png.py

The desktop entry installs the SVG; the window sets this PNG as its icon, because loading an SVG
icon first loads Qt's SVG icon engine, a few milliseconds of every start.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
SIZE = 256


def render(svg: Path, size: int = SIZE) -> object:
    """The SVG drawn on a transparent ``size``×``size`` image (a QImage)."""
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QImage, QPainter
    from PySide6.QtSvg import QSvgRenderer

    img = QImage(size, size, QImage.Format.Format_ARGB32)
    img.fill(Qt.GlobalColor.transparent)
    painter = QPainter(img)
    QSvgRenderer(str(svg)).render(painter)
    painter.end()
    return img


def main() -> int:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtGui import QGuiApplication

    _app = QGuiApplication.instance() or QGuiApplication(sys.argv[:1])
    out = HERE / "shensha-plates.png"
    if not render(HERE / "shensha-plates.svg").save(str(out)):  # type: ignore[attr-defined]
        sys.stderr.write(f"make_png.py: error: could not write {out}\n")
        return 1
    print(out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
