"""The classroom in a real room (issue 23): leaving presentation gives the window back as it was, the
side panel can be shown and hidden, and F1 lists every key there is."""

from __future__ import annotations

from pytestqt.qtbot import QtBot
import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QApplication

from shensha_plates.gui.shell.main_window import MainWindow


def test_leaving_presentation_gives_the_panel_back(window: MainWindow, qtbot: QtBot) -> None:
    window.resize(1280, 800)
    window.show()
    QApplication.processEvents()
    tab = window.panel.tabs.count() - 1
    window.panel.tabs.setCurrentIndex(tab)
    before = window.splitter.sizes()
    assert before[1] > 200
    for _ in range(2):  # F5 then Esc, twice
        window.toggle_presentation()
        QApplication.processEvents()
        assert not window.panel_container.isVisible()
        qtbot.keyClick(window.view, Qt.Key.Key_Escape)
        QApplication.processEvents()
        assert window.panel_container.isVisible()
        assert window.splitter.sizes()[:2] == before[:2], (window.splitter.sizes(), before)
        assert window.panel.tabs.currentIndex() == tab


def test_the_side_panel_toggles(window: MainWindow) -> None:
    window.resize(1280, 800)
    window.show()
    QApplication.processEvents()
    act = window.actions_by_name["side_panel"]
    assert act.isCheckable() and act.isChecked() and act.shortcut() == QKeySequence("F9")
    act.trigger()
    assert not window.panel_container.isVisible() and not act.isChecked()
    window.splitter.setSizes([sum(window.splitter.sizes()), 0])  # the handle pushed to the edge meanwhile
    act.trigger()
    QApplication.processEvents()
    assert window.panel_container.isVisible() and act.isChecked() and window.splitter.sizes()[1] >= 200
    assert act in window.menu_view.actions()


def test_f1_lists_every_key_there_is(window: MainWindow) -> None:
    sheet = window.shortcut_sheet()
    keyed = [a for a in window.actions_by_name.values() if not a.shortcut().isEmpty()]
    assert len(keyed) >= 25
    for act in keyed:
        assert act.shortcut().toString(QKeySequence.SequenceFormat.NativeText) in sheet, act.objectName()
    for word in ("Q", "Ctrl+E", "Ctrl+P", "F5", "F9", "Esc", "Tab", "PageDown"):
        assert word in sheet, word


def test_snapshot_with_an_hour_draws_the_heaven_ring_and_the_lesson(tmp_path: object, qapp: object,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """Like the window's export: a state with an hour (a date with a time, or --hour) gets the heaven
    plate and generals around the lower plate and the lesson's rows on the spirits page."""
    import io
    from pathlib import Path

    from pypdf import PdfReader

    from shensha_plates.gui.export.cli import main

    import shensha_plates.gui.export.snapshot as snapshot

    folder = Path(str(tmp_path))
    asked: list[object] = []
    real_export = snapshot.export
    monkeypatch.setattr(snapshot, "export", lambda path, plate, calendar, opts: asked.append(opts)
                        or real_export(path, plate, calendar, opts))
    for name, args in (("date.pdf", ["--date", "1998-11-30T12:00"]),
                       ("hour.pdf", ["--year", "戊寅", "--month", "10", "--day", "辛巳", "--hour", "午", "--general", "寅"])):
        out, err = io.StringIO(), io.StringIO()
        assert main([*args, "-o", str(folder / name)], out, err) == 0, err.getvalue()
        pages = PdfReader(folder / name).pages
        opts = asked[-1]
        assert opts.view.heaven and opts.lesson is not None, name  # type: ignore[attr-defined]
        second = pages[1].extract_text()
        assert "三传" in second and "官鬼" in second and "父母" in second, name
    out, err = io.StringIO(), io.StringIO()
    assert main(["--year", "丙午", "--month", "1", "--xun", "甲子", "--general", "寅", "-o", str(folder / "x.pdf")],
                out, err) == 2 and "needs an hour" in err.getvalue()


def test_the_date_field_keeps_what_is_typed_and_enter_applies_it(window: MainWindow, qtbot: QtBot) -> None:
    field = window.panel.datetime
    window.panel.tabs.setCurrentWidget(window.panel.date_box)
    window.show()
    field.setFocus()
    qtbot.keyClick(field, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClicks(field, "1998-11-30 12:00")
    assert field.text() == "1998-11-30 12:00"
    qtbot.keyClick(field, Qt.Key.Key_Return)
    assert window.model.state.label() == "戊寅年 十月 甲戌旬 辛巳日 午时"
    field.setText("1998-13-40 99:00")
    qtbot.keyClick(field, Qt.Key.Key_Return)
    assert window.model.state.label() == "戊寅年 十月 甲戌旬 辛巳日 午时"  # kept; the error is said
    assert window.last_error and "invalid date" in window.last_error


def test_find_as_you_type_and_esc_clears(window: MainWindow, qtbot: QtBot) -> None:
    box = window.panel.search
    window.show()
    box.setFocus()
    box.insert("天马")  # typed (QTest types ASCII keys only)
    lit = lambda: any(r._highlight for r in window.view.rings.values())  # noqa: E731
    qtbot.waitUntil(lit, timeout=3000)  # no Enter needed
    assert "天马" in window.statusBar().currentMessage()
    completer = box.completer()
    assert completer is not None and completer.completionCount() >= 1
    qtbot.keyClick(box, Qt.Key.Key_Escape)
    assert box.text() == "" and not lit()
    qtbot.keyClicks(box, "tianma")
    qtbot.waitUntil(lit, timeout=3000)
    window.toggle_presentation()
    assert not lit()  # the highlight does not follow into presentation
    window.presenter.exit()


def test_qt_own_buttons_follow_the_interface_language(window: MainWindow) -> None:
    from PySide6.QtCore import QCoreApplication

    from shensha_plates.gui.shell.qt_language import use_qt_language
    assert QCoreApplication.translate("QPlatformTheme", "Cancel") == "取消"
    window.model.set_lang("zh-Hant")
    assert QCoreApplication.translate("QPlatformTheme", "Cancel") == "取消"
    assert QCoreApplication.translate("QFileDialog", "Look in:") != "Look in:"
    use_qt_language("en")
    assert QCoreApplication.translate("QPlatformTheme", "Cancel") == "Cancel"


def test_the_spotlight_follows_the_walk_through(window: MainWindow) -> None:
    window.set_date("1998-11-30T12:00", "Asia/Shanghai", "lichun", "jie", "next-day")
    window.show_lesson()
    window.toggle_presentation()
    panel = window.lesson
    panel.start_walk()
    seen = set()
    for _ in range(12):
        step = panel.current_walk_step()
        if step is not None and step.earth is not None:
            assert window.selected_branch == step.earth
            assert window.presenter.spotlight.branch == step.earth
            seen.add(step.earth)
        window.presenter.next()
    assert len(seen) >= 2  # the lit slice moved, and the column with it
    assert "1–5" in window.presenter.caption.text()
    window.presenter.exit()


def _window_rect(widget: object, window: MainWindow) -> object:
    from PySide6.QtCore import QPoint, QRect
    w = widget  # a QWidget
    return QRect(w.mapTo(window, QPoint(0, 0)), w.size())  # type: ignore[attr-defined]


@pytest.mark.parametrize("size", [(1280, 800), (1920, 1080), (1024, 768)])
@pytest.mark.parametrize("scene", ["walk_and_trace", "quiz"])
def test_presentation_overlays_keep_clear_of_the_plate_and_each_other(window: MainWindow, qtbot: QtBot,
                                                                     size: tuple[int, int], scene: str) -> None:
    """Issue 23 items 3–5: the caption, the walk-through and the trace's rule together (or the quiz, which
    has the column to itself), each in space of its own beside the plate: none covers the plate, the
    spotlight or another, none is cut, and every text is at least 28 px."""
    from PySide6.QtWidgets import QLabel, QPushButton
    window.show()
    window.set_date("1998-11-30T12:00", "Asia/Shanghai", "lichun", "jie", "next-day")
    assert window.classroom.trace("圣心")
    window.show_lesson()
    window.toggle_presentation()
    window.setWindowState(Qt.WindowState.WindowNoState)
    window.resize(*size)
    qtbot.waitUntil(lambda: window.width() == size[0] and window.height() == size[1], timeout=3000)
    QApplication.processEvents()
    quiz = None
    if scene == "quiz":
        quiz = window.start_quiz(seed=3)
        assert quiz.window() is window  # in the room, not a window of its own
    else:
        assert window.lesson.start_walk()
        window.lesson.go_walk(1)
        window.presenter.refresh_caption()
    QApplication.processEvents()
    p = window.presenter
    parts = p.column.overlays()
    names = {w.objectName() for w in parts}
    wanted = {"spotlight", "present_caption"} | ({"quiz_dialog"} if quiz else {"present_walk", "present_trace"})
    assert wanted <= names, names
    plate = _window_rect(window.view, window)
    rects = [(w.objectName(), _window_rect(w, window)) for w in parts]
    for i, (name, r) in enumerate(rects):
        assert window.rect().contains(r), (name, r, size)
        assert not r.intersects(plate), (name, r, plate)  # type: ignore[attr-defined]
        for other, r2 in rects[i + 1:]:
            assert not r.intersects(r2), (name, other, r, r2)  # type: ignore[attr-defined]
    texts = [w for w in parts if isinstance(w, QLabel)]
    if quiz is not None:
        texts += quiz.findChildren(QLabel) + quiz.findChildren(QPushButton)
    for w in texts:
        if isinstance(w, QLabel) and w.text() and w.wordWrap():
            assert w.height() >= w.heightForWidth(w.width()) - 1, (w.objectName(), w.text())  # whole, not cut
        if w.isVisible() and (not isinstance(w, QLabel) or w.text()):
            assert w.font().pixelSize() >= 28, (w.objectName(), w.font().pixelSize())
    assert p.spotlight.height() >= p.spotlight.px * 4  # the spotlight keeps room for its branch and names
    if quiz is not None:  # the quizzed disc is hidden in the column as on the plate
        q = quiz.question
        assert q is not None
        if q.ring:
            assert window.view.rings[q.ring].names_hidden
            assert not any(e.text in p.spotlight.names_shown() for e in p.spotlight._raw(q.ring))
        quiz.close()
        QApplication.processEvents()
        assert p.trace_caption.isVisible()  # the trace's rule is back when the quiz ends


def test_the_spotlit_quadrant_fills_the_canvas_and_z_again_gives_everything_back(window: MainWindow) -> None:
    window.resize(1280, 800)
    window.show()
    QApplication.processEvents()
    whole = window.view.viewbox.viewRect()
    window.select_branch(2)
    window.actions_by_name["zoom"].trigger()
    lower = window.view.viewbox.viewRect()
    assert lower.width() < whole.width() / 1.6  # the names half again as large and more
    window.actions_by_name["zoom"].trigger()
    upper = window.view.viewbox.viewRect()
    assert upper.width() < whole.width() / 1.6 and upper.center() != lower.center()
    window.actions_by_name["zoom"].trigger()
    back = window.view.viewbox.viewRect()
    assert abs(back.width() - whole.width()) < 1 and abs(back.height() - whole.height()) < 1


def test_upright_names_stand_apart_on_bands_of_their_own(window: MainWindow) -> None:
    """Issue 23 item 8: upright, a name's characters run along a slanted radius, and the characters of two
    neighbouring names read across as well as along; each name is painted on a band of its own colour
    that joins its characters (the bands inset, so that two bands never touch)."""
    from PySide6.QtGui import QImage, QPainter

    from shensha_plates.gui.plate.slot_paint import UPRIGHT_METRICS, paint_slot

    p = window.panel
    p.text_mode.setCurrentIndex(p.text_mode.findData("upright"))
    window._apply_view_options()
    for rid, ring in window.view.rings.items():
        assert ring.metrics is UPRIGHT_METRICS, rid
    # the bands: painting a slot of two names fills two rounded bands behind their characters

    class Counting(QPainter):
        bands = 0

        def drawRoundedRect(self, *args: object) -> None:  # noqa: N802 - Qt's name
            Counting.bands += 1
            super().drawRoundedRect(*args)  # type: ignore[arg-type]

    ring = next(r for r in window.view.rings.values() if any(len(e) == 2 for e in r._entries))
    k = next(i for i, e in enumerate(ring._entries) if len(e) == 2)
    img = QImage(400, 400, QImage.Format.Format_ARGB32)
    painter = Counting(img)
    painter.translate(200, 200)
    paint_slot(painter, ring._entries[k], ring._fits[k], (ring.r_in + ring.r_out) / 2, ring.palette,
               ring.metrics, False, 30.0)
    painter.end()
    assert Counting.bands >= 2


def test_the_first_run_hint_shows_once(tmp_path: object, qtbot: QtBot) -> None:
    """A newcomer is told, once, that the discs turn by dragging, and the three keys that matter; the hint
    goes when the plate is first turned or clicked (the click reaching the plate) and the next start does not show it."""
    from pathlib import Path

    from shensha_plates.gui.shell.settings import Settings
    path = Path(str(tmp_path)) / "s.ini"
    first = MainWindow(settings=Settings(path))
    qtbot.addWidget(first)
    first.resize(1280, 800)
    first.show()
    QApplication.processEvents()
    hint = first.first_run_hint
    assert hint is not None and hint.isVisible()
    assert "拖动" in hint.text() and "F1" in hint.text()
    assert hint.parent() is first.statusBar()  # in the status line: it covers nothing of the plate
    assert first.rect().contains(hint.geometry().translated(hint.mapTo(first, hint.rect().topLeft())
                                                            - hint.geometry().topLeft()))
    first.actions_by_name["month_fwd"].trigger()
    assert first.first_run_hint is None
    first.close()
    again = MainWindow(settings=Settings(path))
    qtbot.addWidget(again)
    assert again.first_run_hint is None


def test_the_first_run_hint_follows_the_language(tmp_path: object, qtbot: QtBot) -> None:
    """A first start in English (``--lang en``, set after the window is built) gives the hint in English."""
    from pathlib import Path

    from shensha_plates.gui.shell.settings import Settings
    w = MainWindow(settings=Settings(Path(str(tmp_path)) / "s.ini"))
    qtbot.addWidget(w)
    w.model.set_lang("en")
    hint = w.first_run_hint
    assert hint is not None and hint.text().startswith("Drag a disc") and "拖" not in hint.text()


def test_english_glosses_fit_the_panel_at_1280x800_and_are_english(window: MainWindow) -> None:
    """Issue 23 item 7: with 英文注释 on, every tab of the panel fits the width a 1280×800 screen leaves
    it (nothing pushed past the edge), and the details say the spirit's English, not its id."""
    window.setWindowState(Qt.WindowState.WindowNoState)
    window.resize(1280, 800)
    window.set_date("1998-11-30T12:00", "Asia/Shanghai", "lichun", "jie", "next-day")
    window.panel.english.setChecked(True)
    QApplication.processEvents()
    tabs = window.panel.tabs
    for i in range(tabs.count()):
        tabs.setCurrentIndex(i)
        QApplication.processEvents()
        width = window.panel_container.viewport().width()
        assert window.panel.minimumSizeHint().width() <= width, (tabs.tabText(i), window.panel.minimumSizeHint())
        from PySide6.QtWidgets import QCheckBox
        for cb in tabs.widget(i).findChildren(QCheckBox):  # a gloss on its own lines is not cut off
            if cb.isVisible():
                assert cb.height() >= cb.sizeHint().height(), (cb.text(), cb.height(), cb.sizeHint())
        page = tabs.widget(i)
        inner = page.widget() if hasattr(page, "widget") and callable(page.widget) else None
        if inner is not None:  # a tab that scrolls on its own (the classroom)
            assert inner.minimumSizeHint().width() <= page.viewport().width() + 1, tabs.tabText(i)
    from shensha_plates.core.english import english
    from shensha_plates.gui.describe import branch_html
    text = branch_html(window.model.plate, 6, window.model.catalog, "zh-Hans", english=True)
    assert english().spirit("guan_fu").gloss in text and "guan_fu" not in text and "round plate" not in text
