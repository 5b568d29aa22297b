"""Reading the plates at the sizes people use: the lens under the pointer, the one-plate view, the
presentation spotlight, the window's size, and the smallest name on screen."""

from __future__ import annotations

import math
from pathlib import Path

from pytestqt.qtbot import QtBot
from PySide6.QtCore import QEvent, QPointF, QRect, Qt
from PySide6.QtGui import QMouseEvent
from PySide6.QtWidgets import QApplication

from tests.support.measure import min_name_px, name_sizes
from shensha_plates.gui.plate.lens import BRANCH_PX, LENS_PX
from shensha_plates.gui.shell.main_window import MainWindow
from shensha_plates.gui.shell.settings import Settings
from shensha_plates.gui.style import branch_angle
from tests.gui.conftest import ring_point


def hover(window: MainWindow, ring_id: str, angle: float) -> None:
    vp = window.view.viewport()
    pos = ring_point(window, window.view.rings[ring_id], angle)
    ev = QMouseEvent(QEvent.Type.MouseMove, QPointF(pos), QPointF(vp.mapToGlobal(pos)), Qt.MouseButton.NoButton,
                     Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(vp, ev)
    QApplication.processEvents()


def test_lens_shows_the_hovered_slot_and_its_branch(window: MainWindow) -> None:
    lens = window.view.lens
    assert not lens.label.isVisible()
    ring = window.view.rings["L2"]
    hover(window, "L2", branch_angle(9, "south"))  # 酉
    assert lens.label.isVisible()
    assert lens.hit is not None and lens.hit.ring_id == "L2" and lens.hit.branch == 9
    slot = (9 - ring.anchor) % 12
    text = lens.label.text()
    for e in ring.entries(slot):
        assert e.text in text
    # and the other discs' names under the same branch
    other = window.view.rings["L4"]
    for e in other.entries((9 - other.anchor) % 12):
        assert e.text in text
    assert f"font-size:{LENS_PX}px" in text and LENS_PX >= 18 and BRANCH_PX >= 18
    # beside the pointer, never over the slot's names
    names = lens._slot_rect(ring, slot)
    assert not lens.label.geometry().intersects(names)
    assert lens.label.geometry().intersects(QRect(ring_point(window, ring, branch_angle(9, "south")),
                                                  ring_point(window, ring, branch_angle(9, "south"))).adjusted(
                                                      -400, -400, 400, 400))
    # it follows the pointer to another slot
    hover(window, "L3", branch_angle(3, "south"))
    assert lens.hit is not None and lens.hit.ring_id == "L3" and lens.hit.branch == 3


def test_lens_follows_a_turning_disc(window: MainWindow) -> None:
    lens = window.view.lens
    hover(window, "L2", branch_angle(0, "south"))
    assert lens.hit is not None
    before = lens.hit.slot
    window.model.step("month", 1)  # the month discs turn one step under the still pointer
    ring = window.view.rings["L2"]
    assert ring.animating
    ring.finish_animation()
    QApplication.processEvents()
    assert lens.hit is not None and lens.hit.branch == 0 and lens.hit.slot == (before - 1) % 12
    assert all(e.text in lens.label.text() for e in ring.entries(lens.hit.slot))


def test_lens_hides_off_the_discs(window: MainWindow) -> None:
    hover(window, "L2", branch_angle(0, "south"))
    assert window.view.lens.label.isVisible()
    QApplication.sendEvent(window.view.viewport(), QEvent(QEvent.Type.Leave))
    assert not window.view.lens.label.isVisible()


def test_one_plate_view(window: MainWindow) -> None:
    both = min_name_px(window.view)
    act = window.actions_by_name["one_plate"]
    assert act.shortcut().toString() == "V" and act in window.menu_view.actions()
    act.trigger()
    QApplication.processEvents()
    assert set(window.view.groups) == {"lower"}
    assert {s.ring_id[0] for s in name_sizes(window.view)} == {"L"}
    assert min_name_px(window.view) > both  # the lower plate alone is larger
    # as large as the canvas allows: its diameter is the canvas's smaller side
    view = window.view
    r = view.plates.plate_radius("lower")
    centre = view.mapFromScene(view.groups["lower"].mapToScene(QPointF(0, 0)))
    edge = view.mapFromScene(view.groups["lower"].mapToScene(QPointF(r, 0)))
    vp = view.viewport().rect()
    assert 2 * (edge.x() - centre.x()) >= 0.97 * min(vp.width(), vp.height())
    act.trigger()
    assert set(window.view.groups) == {"upper"}
    act.trigger()
    assert set(window.view.groups) == {"upper", "lower"}
    # survives a change of layout options
    act.trigger()
    window._toggle_combo(window.panel.orientation)
    assert set(window.view.groups) == {"lower"}


def test_plates_fill_the_canvas(window: MainWindow) -> None:
    """Neither plate is left with empty bands: the pair's box fills the canvas in one direction."""
    for size in ((1280, 800), (1920, 1080), (1000, 1100)):
        window.resize(*size)
        QApplication.processEvents()
        view = window.view
        rect = view.mapFromScene(view.viewbox.mapViewToScene(view.scene_rect())).boundingRect()
        vp = view.viewport().rect()
        assert rect.width() >= vp.width() * 0.97 or rect.height() >= vp.height() * 0.97, (size, rect, vp)


def test_spotlight_steps_round_the_branches(window: MainWindow, qtbot: QtBot) -> None:
    p = window.presenter
    p.enter()
    QApplication.processEvents()
    try:
        assert p.spotlight.isVisible() and window.view.isVisible()
        start = window.selected_branch
        assert start is not None and p.spotlight.branch == start
        for k in range(12):
            qtbot.keyClick(window.view, Qt.Key.Key_Tab)
            b = (start + k + 1) % 12
            assert window.selected_branch == b and p.spotlight.branch == b
            anchors = window.model.anchors()
            expected = [e.text for rid, ring in window.view.rings.items()
                        for e in ring.entries((b - anchors[rid]) % 12)]
            assert sorted(p.spotlight.names_shown()) == sorted(expected)
        qtbot.keyClick(window.view, Qt.Key.Key_Backtab)
        assert window.selected_branch == (start + 11) % 12
        assert p.spotlight.px >= 28
        # the names in the spotlight follow the dials
        window.model.step("month", 1)
        anchors = window.model.anchors()
        b = window.selected_branch
        assert sorted(p.spotlight.names_shown()) == sorted(
            e.text for rid, ring in window.view.rings.items() for e in ring.entries((b - anchors[rid]) % 12))
        # a click on the plate moves the spotlight there
        window.view.sigBranchClicked.emit(2)
        QApplication.processEvents()
        qtbot.waitUntil(lambda: p.spotlight.branch == 2, timeout=2000)
    finally:
        p.exit()
    assert not p.spotlight.isVisible()


def test_window_opens_at_screen_size_and_remembers_its_size(qtbot: QtBot, tmp_path: Path,
                                                            monkeypatch: object) -> None:
    fitted: list[MainWindow] = []
    real_fit = MainWindow.fit_to_screen

    def fit(self: MainWindow) -> None:
        fitted.append(self)
        real_fit(self)
    monkeypatch.setattr(MainWindow, "fit_to_screen", fit)  # type: ignore[attr-defined]
    w = MainWindow(settings=Settings(tmp_path / "settings.ini"))
    qtbot.addWidget(w)
    assert fitted == [w]
    area = w.screen().availableGeometry()
    # as large as the screen allows (never below the window's own minimum)
    assert w.width() == max(area.width(), w.minimumSizeHint().width())
    assert w.height() == max(area.height(), w.minimumSizeHint().height())
    w.show()
    w.resize(w.width() - 10, w.height())
    QApplication.processEvents()
    size = (w.width(), w.height())
    w.close()
    w2 = MainWindow(settings=Settings(tmp_path / "settings.ini"))
    qtbot.addWidget(w2)
    assert fitted == [w]  # the second time, the remembered geometry
    # (the offscreen screen is small: Qt may clamp a restored height to fit it, frame included)
    assert w2.width() == size[0] and abs(w2.height() - size[1]) <= 30


def test_smallest_name_is_measured_from_the_layout(window: MainWindow) -> None:
    sizes = name_sizes(window.view)
    assert len(sizes) == sum(len(r.entries(k)) for r in window.view.rings.values() for k in range(12))
    ring = window.view.rings["L2"]
    t = ring.deviceTransform(window.view.viewportTransform())
    scale = math.hypot(t.m11(), t.m12())
    smallest = min((s for s in sizes if s.ring_id == "L2"), key=lambda s: s.px)
    assert math.isclose(smallest.px, ring.slot_fit(smallest.slot).char_px * scale)
    before = min_name_px(window.view)
    window.view.viewbox.scaleBy((0.5, 0.5))  # zoom in two times
    QApplication.processEvents()
    assert math.isclose(min_name_px(window.view), before * 2, rel_tol=1e-3)
