"""Walk one path through the code and count it: the distinct functions and modules it visits, the
calls that cross between modules, and any call that climbs to a higher layer.

    python bench/walk.py show|booklet|drag [FUNCTION]

- ``show``: ``show --year 丙午 --month 11 --day 庚戌`` from the command line to its text;
- ``booklet``: ``booklet --year 丙午 -o x.pdf`` (in a temporary folder) from the options to the PDF;
- ``drag``: the month disc dragged two slots in the window (twelve calm moves, released, settled),
  from the pointer through the model to the engine and back to the plate drawn.

Every ``call`` event of a function of ``shensha_plates`` is recorded (comprehensions and lambdas,
``<…>``, are left out); its caller is the nearest ``shensha_plates`` frame up the stack, so a call
made through argparse, Qt or a signal counts from the package code that set it off (and a call the
garbage collector makes while another function runs counts from that function). Before the walk
every module is imported, the catalog and rule tables loaded, Qt started (``booklet``) and the
window built (``drag``): none of that is the walk. A call goes *up* when the caller's layer is below
the callee's (core < i18n, qt_start < model, describe, fonts, style < lifetime < plate, liuren <
lesson_text < panels, export < shell < commands); it goes up *by import* when the caller's module
imports the callee's, else *by callback* (a function, subclass or listener handed down). The chain
printed is the stack of package functions at the first call of ``FUNCTION`` (by default the walk's
entry to the engine). docs/architecture.md has the numbers and what they say.
"""

from __future__ import annotations

import importlib
import io
import math
import os
import pkgutil
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from types import FrameType
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import shensha_plates  # noqa: E402

LAYERS = (("shensha_plates.core", 0), ("shensha_plates.gui.i18n", 1), ("shensha_plates.gui.qt_start", 1),
          ("shensha_plates.gui.model", 2), ("shensha_plates.gui.describe", 2), ("shensha_plates.gui.fonts", 2),
          ("shensha_plates.gui.style", 2), ("shensha_plates.gui.lifetime", 3), ("shensha_plates.gui.plate", 4),
          ("shensha_plates.gui.liuren", 4), ("shensha_plates.gui.lesson_text", 5), ("shensha_plates.gui.panels", 6),
          ("shensha_plates.gui.export", 6), ("shensha_plates.gui.shell", 7))
ENTRY = {"show": "compute_plate", "booklet": "compute_plate", "drag": "turn_to_anchor"}


def layer(module: str) -> int:
    return next((n for prefix, n in LAYERS if module == prefix or module.startswith(prefix + ".")), 8)


def ours(frame: FrameType) -> bool:
    return (str(frame.f_globals.get("__name__", "")).startswith("shensha_plates")
            and not frame.f_code.co_name.startswith("<"))


class Walk:
    def __init__(self, target: str) -> None:
        self.target = target
        self.functions: Counter[tuple[str, str]] = Counter()
        self.crossings: Counter[tuple[str, str]] = Counter()
        self.chain: list[str] | None = None

    def __call__(self, frame: FrameType, event: str, arg: Any) -> None:
        if event != "call" or not ours(frame):
            return
        module = frame.f_globals["__name__"]
        self.functions[(module, frame.f_code.co_qualname)] += 1
        caller = frame.f_back
        while caller is not None and not ours(caller):
            caller = caller.f_back
        if caller is not None and caller.f_globals["__name__"] != module:
            self.crossings[(caller.f_globals["__name__"], module)] += 1
        if self.chain is None and frame.f_code.co_name == self.target:
            stack: list[str] = []
            f: FrameType | None = frame
            while f is not None:
                if ours(f):
                    stack.append(f"{f.f_globals['__name__'].removeprefix('shensha_plates.')}.{f.f_code.co_qualname}")
                f = f.f_back
            self.chain = stack[::-1]

    def report(self, name: str) -> str:
        import grimp
        graph = grimp.build_graph("shensha_plates")
        modules = Counter(m for m, _ in self.functions)
        short = lambda m: m.removeprefix("shensha_plates.")  # noqa: E731
        lines = [f"walk {name}: {len(self.functions)} distinct functions in {len(modules)} modules; "
                 f"{sum(self.functions.values())} calls, {sum(self.crossings.values())} of them across modules "
                 f"along {len(self.crossings)} distinct module pairs"]
        up = sorted((a, b, n) for (a, b), n in self.crossings.items() if layer(a) < layer(b))
        for a, b, n in up:
            how = "by import" if b in graph.find_modules_directly_imported_by(a) else "by callback"
            lines.append(f"  up ({how}): {short(a)} -> {short(b)} ×{n}")
        lines.append(f"  {len(up)} module pairs called upwards")
        lines.append("  modules (distinct functions): "
                     + " ".join(f"{short(m)}({n})" for m, n in sorted(modules.items())))
        lines.append(f"  chain to {self.target}: " + " > ".join(self.chain or ["(not reached)"]))
        return "\n".join(lines)


def run_command(walk: Walk, argv: list[str]) -> None:
    from shensha_plates import commands
    out, err = io.StringIO(), io.StringIO()
    sys.setprofile(walk)
    try:
        code = commands.main(argv, out, err)
    finally:
        sys.setprofile(None)
    if code != 0:
        raise SystemExit(f"{argv[0]} failed: {err.getvalue()}")


def drag(walk: Walk) -> None:
    import pyqtgraph as pg
    from PySide6.QtCore import QElapsedTimer, QEvent, QPoint, QPointF, Qt
    from PySide6.QtGui import QMouseEvent
    from PySide6.QtWidgets import QApplication

    from shensha_plates.gui.fonts import register_fonts
    from shensha_plates.gui.shell.main_window import MainWindow
    from shensha_plates.gui.shell.settings import Settings
    from shensha_plates.gui.style import branch_angle

    _app = QApplication.instance() or QApplication(["walk"])
    pg.setConfigOption("mouseRateLimit", 0)
    register_fonts()
    window = MainWindow(settings=Settings(Path(tempfile.mkdtemp()) / "settings.ini"))
    window.resize(1400, 900)
    window.show()
    QApplication.processEvents()
    window.view.set_reduce_motion(False)
    ring = window.view.rings["L2"]
    finished: list[int] = []
    ring.sigRotationFinished.connect(finished.append)
    viewport = window.view.viewport()

    def point(degrees: float) -> QPoint:
        r = (ring.r_in + ring.r_out) / 2
        scene = ring.parentItem().mapToScene(QPointF(r * math.cos(math.radians(degrees)),
                                                     r * math.sin(math.radians(degrees))))
        return window.view.mapFromScene(scene)

    def send(kind: QEvent.Type, pos: QPoint, button: Qt.MouseButton, buttons: Qt.MouseButton) -> None:
        QApplication.sendEvent(viewport, QMouseEvent(kind, QPointF(pos), QPointF(viewport.mapToGlobal(pos)),
                                                     button, buttons, Qt.KeyboardModifier.NoModifier))

    start = branch_angle(2, "south")  # 月建 on 寅 in 正月; two slots on is 三月
    left, none = Qt.MouseButton.LeftButton, Qt.MouseButton.NoButton
    sys.setprofile(walk)
    try:
        send(QEvent.Type.MouseButtonPress, point(start), left, left)
        for i in range(1, 13):
            send(QEvent.Type.MouseMove, point(start + 60 * i / 12), none, left)
            QApplication.processEvents()
            time.sleep(0.03)  # a calm hand: no flick
        send(QEvent.Type.MouseButtonRelease, point(start + 60), left, none)
        clock = QElapsedTimer()
        clock.start()
        while not finished and clock.elapsed() < 5000:
            QApplication.processEvents()
        QApplication.processEvents()
    finally:
        sys.setprofile(None)
    if finished != [4] or window.model.state.month != 3:
        raise SystemExit(f"the drag did not end on 辰 (三月): {finished}, month {window.model.state.month}")


def main() -> None:
    name = sys.argv[1] if len(sys.argv) > 1 else ""
    if name not in ENTRY:
        raise SystemExit(__doc__)
    for info in pkgutil.walk_packages(shensha_plates.__path__, "shensha_plates."):
        if not info.name.startswith(("shensha_plates.resources", "shensha_plates.__main__")):
            importlib.import_module(info.name)
    from shensha_plates.core.catalog import default_catalog
    from shensha_plates.core.liuren.tables import liuren_tables
    default_catalog()
    liuren_tables()
    walk = Walk(sys.argv[2] if len(sys.argv) > 2 else ENTRY[name])
    if name == "show":
        run_command(walk, ["show", "--year", "丙午", "--month", "11", "--day", "庚戌"])
    elif name == "booklet":
        from shensha_plates.gui.export.cli import _ensure_app
        _ensure_app()
        with tempfile.TemporaryDirectory() as folder:
            run_command(walk, ["booklet", "--year", "丙午", "-o", str(Path(folder) / "x.pdf"), "--quiet"])
    else:
        drag(walk)
    print(walk.report(name))


if __name__ == "__main__":
    main()
