"""Render the window in a few states and save the screenshots shown in the README.

    QT_QPA_PLATFORM=offscreen .venv/bin/python docs/make_screenshots.py
    QT_QPA_PLATFORM=xcb xvfb-run -s "-screen 0 1920x1080x24" .venv/bin/python docs/make_screenshots.py

The second renders the real window on a virtual 1920×1080 screen (presentation mode then fills
it as it would a projector).
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

SHOTS = [
    # file, state (year, month, xun, day), selected branch, view options
    ("window-zhuang-example.png", ("甲子", 1, "甲子", None), 6, {}),
    ("window-bingwu-dongyue.png", ("丙午", 11, "甲辰", "庚戌"), 0, {}),
    ("window-stacked-upright.png", ("乙巳", 5, "甲申", None), None,
     {"layout": "stacked", "text_mode": "upright", "mountains": True}),
    ("window-traditional-north.png", ("丁未", 8, "甲寅", "丁巳"), 3, {"lang": "zh-Hant", "orientation": "north"}),
]


def main() -> int:

    from shensha_plates.gui.shell.app import prepare_application

    app = prepare_application()  # as the program sets it up: its font, flat scroll bars

    from shensha_plates.core.engine import State
    from shensha_plates.gui.fonts import register_fonts
    from shensha_plates.gui.shell.main_window import MainWindow
    from shensha_plates.gui.shell.settings import Settings

    register_fonts()
    out = ROOT / "docs"
    for name, (year, month, xun, day), branch, opts in SHOTS:
        with tempfile.TemporaryDirectory() as tmp:
            w = MainWindow(settings=Settings(Path(tmp) / "s.ini"))
            w.resize(1600, 1000)
            w.show()
            p = w.panel
            combos = {"layout": p.layout_combo, "text_mode": p.text_mode, "lang": p.lang_combo,
                      "orientation": p.orientation}
            for key, value in opts.items():
                if key in combos:
                    combos[key].setCurrentIndex(combos[key].findData(value))
                elif key == "mountains":
                    p.mountains.blockSignals(True)
                    p.mountains.setChecked(bool(value))
                    p.mountains.blockSignals(False)
            w._apply_view_options()
            w.model.set_state(State.parse(year, month, xun, day))
            if branch is not None:
                w.select_branch(branch)
            for _ in range(3):
                app.processEvents()
            w.view.finish_animations()
            app.processEvents()
            w.grab().save(str(out / name))
            print("wrote", out / name)
            w.close()
    classroom_shots(app, out)
    readable_shots(app, out)
    return 0


def readable_shots(app: object, out: Path) -> None:
    """The window at a laptop's 1280×800 and at 1920×1080, one plate, the lens, the spotlight."""
    import math

    from PySide6.QtCore import QEvent, QPointF, Qt
    from PySide6.QtGui import QMouseEvent
    from PySide6.QtWidgets import QApplication

    from shensha_plates.core.engine import State
    from tests.support.measure import min_name_px
    from shensha_plates.gui.shell.main_window import MainWindow
    from shensha_plates.gui.shell.settings import Settings
    from shensha_plates.gui.style import branch_angle

    def settle(w: MainWindow) -> None:
        for _ in range(3):
            app.processEvents()  # type: ignore[attr-defined]
        w.view.finish_animations()
        app.processEvents()  # type: ignore[attr-defined]

    def save(w: MainWindow, name: str) -> None:
        w.grab().save(str(out / name))
        print("wrote", out / name, f"(smallest name {min_name_px(w.view):.1f} px)")

    shots = [("window-1280x800-zhuang-example.png", (1280, 800), ("甲子", 1, "甲子", None), None, "both"),
             ("window-1920x1080.png", (1920, 1080), ("丙午", 11, "甲辰", "庚戌"), 0, "both"),
             ("window-one-plate-1280x800.png", (1280, 800), ("丙午", 11, "甲辰", "庚戌"), None, "lower")]
    for name, (width, height), (year, month, xun, day), branch, plate in shots:
        with tempfile.TemporaryDirectory() as tmp:
            w = MainWindow(settings=Settings(Path(tmp) / "s.ini"))
            w.resize(width, height)
            w.show()
            w.view.set_one_plate(plate)
            w.model.set_state(State.parse(year, month, xun, day))
            if branch is not None:
                w.select_branch(branch)
            settle(w)
            save(w, name)
            if plate == "both" and width == 1280:
                # the lens over the crowded outer disc, at 未
                ring = w.view.rings["L2"]
                r = (ring.r_in + ring.r_out) / 2
                a = math.radians(branch_angle(7, "south") - 6)
                pos = w.view.mapFromScene(ring.parentItem().mapToScene(QPointF(r * math.cos(a), r * math.sin(a))))
                vp = w.view.viewport()
                QApplication.sendEvent(vp, QMouseEvent(QEvent.Type.MouseMove, QPointF(pos), QPointF(vp.mapToGlobal(pos)),
                                                       Qt.MouseButton.NoButton, Qt.MouseButton.NoButton,
                                                       Qt.KeyboardModifier.NoModifier))
                settle(w)
                img = w.grab()
                # the pointer, drawn where it was
                from PySide6.QtGui import QPainter, QPen, QPolygonF
                p = QPainter(img)
                p.setRenderHint(QPainter.RenderHint.Antialiasing)
                tip = vp.mapTo(w, pos)
                arrow = QPolygonF([QPointF(tip.x() + dx, tip.y() + dy) for dx, dy in
                                   ((0, 0), (0, 17), (4, 13), (7, 20), (10, 19), (7, 12), (12, 12))])
                p.setPen(QPen(Qt.GlobalColor.white, 1.2))
                p.setBrush(Qt.GlobalColor.black)
                p.drawPolygon(arrow)
                p.end()
                img.save(str(out / "window-lens.png"))
                print("wrote", out / "window-lens.png")
            w.close()
    # presentation with the spotlight on 申, the window as large as the screen (1920×1080 under Xvfb)
    with tempfile.TemporaryDirectory() as tmp:
        w = MainWindow(settings=Settings(Path(tmp) / "s.ini"))
        w.resize(1920, 1080)
        w.show()
        w.model.set_state(State.parse("丙午", 11, "甲辰", "庚戌"))
        w.presenter.enter()
        if QApplication.platformName() == "offscreen":
            w.resize(1920, 1080)
        w.select_branch(8)
        w.presenter._sync_spotlight()
        settle(w)
        save(w, "classroom-presentation-spotlight.png")
        w.presenter.exit()
        w.close()


def classroom_shots(app: object, out: Path) -> None:
    """Presentation mode, a trace, a quiz question and the other-systems window."""
    from shensha_plates.core.engine import State
    from shensha_plates.gui.shell.main_window import MainWindow
    from shensha_plates.gui.shell.settings import Settings

    def settle(w: MainWindow) -> None:
        for _ in range(3):
            app.processEvents()  # type: ignore[attr-defined]
        w.view.finish_animations()
        app.processEvents()  # type: ignore[attr-defined]

    with tempfile.TemporaryDirectory() as tmp:
        w = MainWindow(settings=Settings(Path(tmp) / "s.ini"))
        w.resize(1600, 1000)
        w.show()
        w.model.set_state(State.parse("丙午", 3, "甲辰"))
        w.panel.tabs.setCurrentWidget(w.classroom_scroll)
        w.classroom.trace("天马")
        settle(w)
        w.grab().save(str(out / "classroom-trace.png"))
        print("wrote", out / "classroom-trace.png")
        w.classroom.clear_trace()
        w.presenter.enter()
        w.resize(1600, 1000)  # offscreen: keep a fixed size for the picture
        w.model.set_state(State.parse("丙午", 11, "甲辰", "庚戌"))
        settle(w)
        w.presenter._update_caption()
        w.grab().save(str(out / "classroom-presentation.png"))
        print("wrote", out / "classroom-presentation.png")
        w.presenter.exit()
        quiz = w.start_quiz(seed=5)
        while quiz.question is not None and quiz.question.kind != "where":
            quiz.ask()
        settle(w)
        w.grab().save(str(out / "classroom-quiz-plate.png"))
        quiz.grab().save(str(out / "classroom-quiz.png"))
        print("wrote", out / "classroom-quiz.png")
        quiz.close()
        d = w.show_systems()
        d.show_chart("1990-05-17T08:30")
        settle(w)
        d.grab().save(str(out / "systems-bazi.png"))
        d.show_relation("寅", "亥")
        d.grab().save(str(out / "systems-relations.png"))
        d.show_selection()
        d.selection.disc.finish()
        settle(w)
        d.grab().save(str(out / "systems-selection.png"))
        print("wrote the other-systems pictures")
        w.close()


if __name__ == "__main__":
    raise SystemExit(main())
