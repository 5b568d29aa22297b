"""A long session on the real window: ten thousand random drags, key presses, state changes and
dialogs (every kind, opened and closed).

No exception may escape (pytest-qt fails the test on one raised inside a Qt handler), no Qt
warning may be logged (the suite fails on any), the window must agree with the core at the end,
and memory must stay bounded.
"""

from __future__ import annotations

import gc
import random

import pytest
from pytestqt.qtbot import QtBot
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from shensha_plates.core.engine import State, compute_plate
from tests.support.dialog_cycle import DIALOG_KINDS, dialog_cycle, live_dialogs, settle
from shensha_plates.gui.shell.main_window import MainWindow
from shensha_plates.gui.style import branch_angle
from tests.gui.conftest import drag_ring, ring_point, wheel_on

pytestmark = pytest.mark.slow

ACTIONS = 10_000
TEXTS = ["丙午", "午", "甲子", "癸亥", "hello", "", "丙丑", "１２", "甲子年", "庚戌日", "\t", "子午", "🐉", "  乙丑  "]


def rss_mb() -> float:
    with open("/proc/self/status") as fh:
        for line in fh:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def test_ten_thousand_random_actions(window: MainWindow, qtbot: QtBot) -> None:
    rng = random.Random(20261203)
    view, model, panel = window.view, window.model, window.panel
    view.set_reduce_motion(True)  # no animation to wait for: each action settles at once
    window.resize(900, 640)
    counts: dict[str, int] = {}
    keys = [(Qt.Key.Key_Y, "year_fwd"), (Qt.Key.Key_M, "month_fwd"), (Qt.Key.Key_X, "xun_fwd"),
            (Qt.Key.Key_D, "day_fwd")]

    def drag() -> None:
        ring = view.rings[rng.choice(sorted(view.rings))]
        if not ring.draggable:
            return
        a = branch_angle(rng.randrange(12), view.config.orientation)
        drag_ring(window, ring, a, a + rng.uniform(-200, 200), steps=rng.randint(2, 4),
                  seconds_per_step=rng.choice((0.004, 0.05)))

    def wheel() -> None:
        ring = view.rings[rng.choice(sorted(view.rings))]
        wheel_on(window, ring_point(window, ring, rng.uniform(0, 360)), rng.choice((-120, 120)))

    def key() -> None:
        k, name = rng.choice(keys)
        if rng.random() < 0.5:
            window.actions_by_name[name.replace("_fwd", "_back") if rng.random() < 0.5 else name].trigger()
        else:
            qtbot.keyClick(view, k, Qt.KeyboardModifier.ShiftModifier if rng.random() < 0.5
                           else Qt.KeyboardModifier.NoModifier)

    def undo_redo() -> None:
        window.actions_by_name[rng.choice(("undo", "redo"))].trigger()

    def set_state() -> None:
        y = rng.randrange(60)
        model.set_state(State(year_branch=y % 12, month=rng.randint(1, 12), xun=rng.randrange(6),
                              year_stem=y % 10, day=None))

    def typed() -> None:
        combo = rng.choice((panel.year, panel.day))
        combo.setEditText(rng.choice(TEXTS))
        combo.lineEdit().returnPressed.emit()

    def click_branch() -> None:
        window.select_branch(rng.randrange(12))

    def search() -> None:
        window.search(rng.choice(("太岁", "歲", "tian_xi", "zz", "", "月")), quiet=True)

    def toggle() -> None:
        what = rng.choice(("paper", "orientation", "layout", "lang", "english", "mountains"))
        if what in ("paper", "orientation", "layout"):
            window.actions_by_name[what].trigger()
        elif what == "lang":
            combo = panel.lang_combo
            combo.setCurrentIndex(1 - combo.currentIndex())
            combo.activated.emit(combo.currentIndex())
        else:
            getattr(panel, what).toggle()

    def date() -> None:
        panel.set_date(f"{rng.randint(1890, 2110)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}T"
                       f"{rng.randrange(24):02d}:00", rng.choice(("Asia/Shanghai", "UTC", "Mars/Base", "+08:00")))
        panel.apply_date.click()

    def dialog() -> None:
        dialog_cycle(window, 1, (rng.choice(DIALOG_KINDS),))

    table = [(drag, 30), (wheel, 15), (key, 20), (undo_redo, 8), (set_state, 8), (typed, 5), (click_branch, 6),
             (search, 3), (toggle, 2), (date, 3), (dialog, 1)]
    funcs, weights = zip(*table, strict=True)
    baseline = 0.0
    for i in range(ACTIONS):
        fn = rng.choices(funcs, weights)[0]
        fn()
        counts[fn.__name__] = counts.get(fn.__name__, 0) + 1
        QApplication.processEvents()
        if i == 1000:
            dialog_cycle(window, 1)  # every dialog once before the baseline: the caches they fill stay
            gc.collect()
            baseline = rss_mb()
    # back to linked mode, and the window must agree with the core
    if model.paper:
        panel.snap.click()
        window.actions_by_name["paper"].trigger()
    QApplication.processEvents()
    view.finish_animations()
    assert not model.paper
    plate = compute_plate(model.state, model.options)
    assert model.plate == plate
    for rp in plate.rings:
        ring = view.rings[rp.ring.id]
        assert ring.anchor == rp.anchor, rp.ring.id
        assert abs(ring.rotation() - 30 * round(ring.rotation() / 30)) < 1e-6
    assert model.state.label() in window.statusBar().currentMessage() or window.last_error
    from PySide6.QtWidgets import QMessageBox

    from shensha_plates.gui.model import UNDO_LIMIT
    assert len(model._undo) <= UNDO_LIMIT  # history is bounded
    assert len(window.findChildren(QMessageBox)) <= 1  # bad entries update one notice, never pile up
    settle(collect=False)
    assert all(d.isVisible() for d in live_dialogs())  # every dialog closed during the session was deleted
    for d in live_dialogs():  # and those still open (the other-systems window after a Shift+click) go when closed
        d.close()
    settle()
    assert live_dialogs() == []
    growth = rss_mb() - baseline
    assert growth < 40, f"resident memory grew by {growth:.1f} MB"
    assert sum(counts.values()) == ACTIONS and all(counts.get(f.__name__) for f in funcs)
