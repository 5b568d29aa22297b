"""Render the classroom's screenshots of issue 23 on a virtual screen the size of the screen (run it
once on each: presentation fills the screen, as it would a projector's).

    for s in 1280x800 1920x1080; do
      QT_QPA_PLATFORM=xcb xvfb-run -a -s "-screen 0 ${s}x24" .venv/bin/python docs/make_room_screenshots.py
    done

Presentation with the walk-through and a trace, presentation with the quiz, the upright text, and
the trace's rule in the 课堂 panel, and 英文注释 (English glosses) on; the English window, 课传 tab and
presentation, and the English window zoomed (Z) with the names' pinyin under them where there is room. Saved as JPEG at quality 80 (a
fifth of a PNG's size; 256-colour PNGs shifted the plates' paler colours).
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

SCENES = ("present-walk-trace", "present-quiz", "upright", "english", "trace-panel", "zoom", "en-window", "en-lesson",
          "en-present", "en-pinyin-zoom")
ONLY = {"trace-panel": 800, "zoom": 1080}  # these at one size only (the screen's height)


def main() -> int:
    from shensha_plates.gui.shell.app import prepare_application

    app = prepare_application()

    from PySide6.QtCore import QTimer
    from PySide6.QtGui import QGuiApplication

    from shensha_plates.gui.shell.main_window import MainWindow
    from shensha_plates.gui.shell.settings import Settings

    def settle(ms: int = 500) -> None:
        QTimer.singleShot(ms, app.quit)
        app.exec()

    out = ROOT / "docs"
    screen = QGuiApplication.primaryScreen().size()
    for width, height in ((screen.width(), screen.height()),):
        for scene in SCENES:
            if ONLY.get(scene, height) != height:
                continue
            with tempfile.TemporaryDirectory() as tmp:
                settings = Settings(Path(tmp) / "s.ini")
                settings.set("first_run_hint_done", True)
                if scene.startswith("en-"):
                    settings.set("lang", "en")  # the English interface (issue 28)
                w = MainWindow(settings=settings)
                w.resize(width, height)
                w.show()
                settle(100)
                w.set_date("1998-11-30T12:00", "Asia/Shanghai", "lichun", "jie", "next-day")
                p = w.panel
                if scene == "upright":
                    p.text_mode.setCurrentIndex(p.text_mode.findData("upright"))
                    w._apply_view_options()
                if scene.startswith("english"):
                    p.english.setChecked(True)
                    p.tabs.setCurrentIndex(2 if scene == "english" else p.tabs.indexOf(w.classroom_scroll))
                    w.select_branch(6)
                if scene in ("present-walk-trace", "trace-panel"):
                    w.classroom.trace("圣心")
                if scene == "trace-panel":
                    p.tabs.setCurrentIndex(p.tabs.indexOf(w.classroom_scroll))
                if scene == "en-window":
                    w.select_branch(6)
                if scene == "en-lesson":
                    w.show_lesson()
                if scene.startswith("present") or scene in ("zoom", "en-present"):
                    w.show_lesson()
                    w.toggle_presentation()
                    settle(200)
                if scene == "present-walk-trace":
                    w.lesson.start_walk()
                    for _ in range(3):
                        w.lesson.go_walk(1)
                    w.presenter.refresh_caption()
                if scene == "present-quiz":
                    w.start_quiz(seed=5)
                if scene == "en-pinyin-zoom":  # pinyin under the names where the slots have room (Z)
                    w.select_branch(6)
                    w.toggle_zoom()
                if scene == "zoom":
                    w.select_branch(8)
                    w.presenter.refresh_caption()
                    w.toggle_zoom()
                settle()
                name = f"room-{scene}-{width}x{height}.jpg"
                w.grab().toImage().save(str(out / name), "JPG", 80)
                print("wrote", name)
                if w.presenter.active:
                    w.presenter.exit()
                w.close()
                w.deleteLater()
                settle(50)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
