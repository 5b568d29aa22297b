"""How large the names come out on screen, computed from the layout itself (not from pixels).

For every name drawn on a disc shown in the view: the type size its slot's fitted layout gives it
(:meth:`shensha_plates.gui.plate.ring_item.RingItem.slot_fit`) times the view's scale, device pixels per plate
unit. The benchmark (``bench/run.py``) and the tests call the same functions.
"""

from __future__ import annotations

import math
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from shensha_plates.gui.plate.view import PlateView

__all__ = ["NameSize", "name_sizes", "min_name_px", "window_min_name_px"]


@dataclass(frozen=True, slots=True)
class NameSize:
    ring_id: str
    slot: int
    text: str
    px: float


def name_sizes(view: PlateView) -> list[NameSize]:
    """The on-screen type size of every name on every disc the view shows."""
    out = []
    for rid, ring in view.rings.items():
        if ring.scene() is None or not ring.isVisible():
            continue
        t = ring.deviceTransform(view.viewportTransform())
        scale = math.hypot(t.m11(), t.m12()) * view.devicePixelRatioF()
        for k in range(12):
            fit = ring.slot_fit(k)
            for e in ring.entries(k):
                out.append(NameSize(rid, k, e.text, fit.char_px * scale))
    return out


def min_name_px(view: PlateView) -> float:
    """The smallest name on screen, in device pixels."""
    sizes = name_sizes(view)
    return min(s.px for s in sizes) if sizes else 0.0


def window_min_name_px(width: int, height: int, layout: str = "side", plate: str = "both",
                       state: tuple[str, int, str] = ("甲子", 1, "甲子")) -> float:
    """Open the real window at ``width`` × ``height`` (fresh settings; a QApplication must exist),
    in ``layout`` and showing ``plate`` (both, upper or lower), and measure its smallest name."""
    from PySide6.QtWidgets import QApplication

    from shensha_plates.core.engine import State
    from shensha_plates.gui.shell.main_window import MainWindow
    from shensha_plates.gui.shell.settings import Settings

    with tempfile.TemporaryDirectory() as tmp:
        w = MainWindow(settings=Settings(Path(tmp) / "s.ini"))
        try:
            w.resize(width, height)
            w.show()
            if layout != w.view.config.layout:
                w.panel.layout_combo.setCurrentIndex(w.panel.layout_combo.findData(layout))
                w._apply_view_options()
            w.view.set_one_plate(plate)
            w.model.set_state(State.parse(*state))
            for _ in range(3):
                QApplication.processEvents()
            w.view.finish_animations()
            QApplication.processEvents()
            return min_name_px(w.view)
        finally:
            w.close()
            w.deleteLater()
            QApplication.processEvents()
