"""``shensha-plates gui`` opens at the state its arguments give (as ``show`` and ``ke`` take it), its
lesson shown when the state has a day and an hour; bad state arguments are one line before any window."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot
from PySide6.QtWidgets import QApplication

from shensha_plates.commands import parse
from shensha_plates.core.cycle import BRANCHES, XUN_HEADS, pillar_name
from shensha_plates.gui.shell.app import open_window
from shensha_plates.gui.shell.launcher import window_start
from shensha_plates.gui.shell.main_window import MainWindow


def opened(qtbot: QtBot, *args: str) -> MainWindow:
    window = open_window([], start=window_start(parse(["gui", *args])))
    assert isinstance(window, MainWindow)
    qtbot.addWidget(window)
    QApplication.processEvents()
    return window


def test_a_date_opens_at_its_day_and_hour_with_the_lesson_shown(qtbot: QtBot) -> None:
    w = opened(qtbot, "--date", "1998-11-30T12:00")
    st = w.model.state
    assert st.day is not None and pillar_name(st.day) == "辛巳"
    assert st.hour is not None and BRANCHES[st.hour] == "午"
    assert w.model.calendar is not None and w.model.ke is not None
    assert w.lesson_visible()
    assert BRANCHES[w.model.general] == "寅"  # the date's month general (after 小雪)
    assert not w.model.can_undo()  # the start is no undo step


def test_a_state_without_an_hour_opens_the_plates(qtbot: QtBot) -> None:
    w = opened(qtbot, "--year", "丙午", "--month", "11", "--xun", "甲辰", "--variant", "tian_xi=shun_twelve")
    st = w.model.state
    assert (st.year_name, st.month, XUN_HEADS[st.xun], st.hour) == ("丙午", 11, "甲辰", None)
    assert dict(w.model.options.variants)["tian_xi"] == "shun_twelve"
    assert w.model.ke is None and not w.lesson_visible()


def test_a_general_by_hand_and_a_liuren_setting(qtbot: QtBot) -> None:
    w = opened(qtbot, "--year", "戊寅", "--month", "10", "--day", "辛巳", "--hour", "午", "--general", "卯",
               "--variant", "shehai=depth")
    assert BRANCHES[w.model.general] == "卯" and w.model.general_source == "hand"
    assert w.model.ke_options.get("shehai") == "depth" and w.lesson_visible()


def test_no_state_arguments_keep_the_saved_start() -> None:
    assert window_start(parse(["gui"])) is None
    assert window_start(parse(["gui", "--lang", "zh-Hant"])) is None


@pytest.mark.parametrize("args,needle", [
    (["--date", "1998-13-40T12:00"], "1998-13-40"),
    (["--date", "1998-11-30T12:00", "--general", "子"], "disagrees with the date"),
    (["--general", "寅"], "give --date"),
    (["--year", "丙午"], "--month are required"),
    (["--date", "1998-11-30T12:00", "--year", "丙午"], "either --date"),
    (["--year", "丙午", "--month", "11", "--xun", "甲辰", "--variant", "no_such=x"], "no_such"),
])
def test_bad_state_arguments_are_one_line_and_no_window(tmp_path: Path, args: list[str], needle: str) -> None:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "XDG_CONFIG_HOME": str(tmp_path)}
    proc = subprocess.run([sys.executable, "-m", "shensha_plates", "gui", *args], capture_output=True,
                          text=True, timeout=60, env=env)
    assert proc.returncode == 2 and proc.stdout == "", proc
    assert proc.stderr.count("\n") == 1 and needle in proc.stderr and "Traceback" not in proc.stderr


def test_the_help_menu_has_about_with_version_licence_and_sources(window: MainWindow) -> None:
    import shensha_plates
    from shensha_plates.core.catalog import SEED_BOOKS
    about = window.actions_by_name["about"]
    assert about in window.menu_help.actions() and about.text() == "关于神煞旋盘"
    text = window.about_text()
    assert shensha_plates.__version__ in text and "MIT" in text and "OFL 1.1" in text
    assert all(book in text for _, book, _, _ in SEED_BOOKS.values())
    window.model.set_lang("zh-Hant")
    assert about.text() == "關於神煞旋盤"
    assert all(book_trad in window.about_text() for _, _, book_trad, _ in SEED_BOOKS.values())


def test_the_window_shows_the_program_icon_and_names_its_menu_entry(qtbot: QtBot) -> None:
    from PySide6.QtGui import QGuiApplication

    from shensha_plates.desktop import APP_ID
    w = opened(qtbot)
    icon = QApplication.windowIcon()
    assert not icon.isNull() and not icon.pixmap(48, 48).isNull()
    assert not w.windowIcon().isNull()
    assert QGuiApplication.desktopFileName() == APP_ID


def test_check_opens_the_window_at_the_state_prints_one_line_and_ends(tmp_path: Path) -> None:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "XDG_CONFIG_HOME": str(tmp_path)}
    proc = subprocess.run([sys.executable, "-m", "shensha_plates", "gui", "--check", "--date", "1998-11-30T12:00"],
                          capture_output=True, text=True, timeout=120, env=env)
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc
    word, clock, cpu, width, height, *label = proc.stdout.split()
    assert word == "painted" and float(clock) > 0 and float(cpu) > 0 and int(width) > 300 and int(height) > 300
    assert "辛巳日" in label and "午时" in label


def test_the_window_icon_is_the_svg_rendered(qtbot: QtBot) -> None:
    """The PNG the window shows is the SVG the desktop entry installs, rendered (make_png.py): they
    cannot drift apart."""
    from PySide6.QtGui import QImage

    from shensha_plates.desktop import icon_file, window_icon_file
    from shensha_plates.resources.icons.make_png import SIZE, render
    png = QImage(window_icon_file()).convertToFormat(QImage.Format.Format_ARGB32)
    fresh = render(Path(icon_file()), SIZE)
    assert png.size() == fresh.size()  # type: ignore[attr-defined]
    worst = max(abs(((a >> s) & 255) - ((b >> s) & 255))
                for y in range(0, SIZE, 3) for x in range(0, SIZE, 3)
                for a, b in [(png.pixel(x, y), fresh.pixel(x, y))]  # type: ignore[attr-defined]
                for s in (0, 8, 16, 24))
    assert worst <= 8, f"the PNG differs from the SVG by {worst}: run shensha_plates/resources/icons/make_png.py"
