"""Screenshots of the Liu Ren plate on screen (seed 002's first worked case: 1998-11-30 午时, Asia/Shanghai).

    QT_QPA_PLATFORM=offscreen .venv/bin/python docs/make_liuren_screenshots.py

Writes docs/liuren-window-1920x1080.png and -1280x800.png (the window with the lesson panel),
docs/liuren-walk.png (a step of the classroom walk-through: the transmissions drawn as arrows) and
docs/liuren-presentation.png (presentation mode at 1920×1080, walking through the method).
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def main() -> int:

    from shensha_plates.gui.shell.app import prepare_application

    app = prepare_application()  # as the program sets it up: its font, flat scroll bars
    from shensha_plates.gui.fonts import register_fonts
    from shensha_plates.gui.shell.main_window import MainWindow
    from shensha_plates.gui.shell.settings import Settings

    register_fonts()
    out = ROOT / "docs"

    def settle(w: MainWindow) -> None:
        for _ in range(3):
            app.processEvents()
        w.view.finish_animations()
        app.processEvents()

    def window(width: int, height: int, tmp: str) -> MainWindow:
        w = MainWindow(settings=Settings(Path(tmp) / "s.ini"))
        w.resize(width, height)
        w.show()
        w.set_date("1998-11-30T12:00", "Asia/Shanghai", "lichun", "jie", "next-day")
        w.show_lesson()
        settle(w)
        w.lesson.flush()  # the spirits' lists follow the turn by a moment
        settle(w)
        return w

    for width, height in ((1920, 1080), (1280, 800)):
        with tempfile.TemporaryDirectory() as tmp:
            w = window(width, height, tmp)
            w.grab().save(str(out / f"liuren-window-{width}x{height}.png"))
            print("wrote", out / f"liuren-window-{width}x{height}.png")
            if width == 1920:
                # the walk-through, at its last step: the three transmissions as arrows over the plate
                w.lesson.start_walk()
                w.lesson.go_walk(len(w.lesson.walk))
                settle(w)
                w.grab().save(str(out / "liuren-walk.png"))
                print("wrote", out / "liuren-walk.png")
                w.lesson.stop_walk()
            w.close()

    with tempfile.TemporaryDirectory() as tmp:
        w = window(1920, 1080, tmp)
        w.presenter.enter()
        w.resize(1920, 1080)
        settle(w)
        w.lesson.start_walk()
        for _ in range(7):  # into the method's record: the lesson that gives 初传
            w.presenter.next()
        settle(w)
        w.grab().save(str(out / "liuren-presentation.png"))
        print("wrote", out / "liuren-presentation.png")
        w.presenter.exit()
        w.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
