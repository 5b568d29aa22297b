"""Start-up: the window comes up without waiting for the desktop; the desktop's wish for reduced
motion (GNOME's enable-animations = false) is asked for once the window is painted, and honoured."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot
from PySide6.QtWidgets import QApplication

from shensha_plates.gui.shell.app import open_window


def _fake_gsettings(folder: Path, answer: str) -> None:
    """A gsettings that answers ``answer`` and leaves a mark that it was asked."""
    tool = folder / "gsettings"
    tool.write_text(f"#!/bin/sh\necho \"$@\" > '{folder / 'asked'}'\necho {answer}\n")
    tool.chmod(tool.stat().st_mode | stat.S_IEXEC)


@pytest.mark.parametrize("answer", ["false", "true"])
def test_reduce_motion_follows_the_desktop_after_the_first_paint(qtbot: QtBot, tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch,
                                                                answer: str) -> None:
    _fake_gsettings(tmp_path, answer)
    monkeypatch.setenv("PATH", f"{tmp_path}{os.pathsep}{os.environ.get('PATH', '')}")
    monkeypatch.delenv("SHENSHA_REDUCE_MOTION", raising=False)
    window = open_window([])
    assert window is not None
    qtbot.addWidget(window)
    box = window.panel.reduce_motion  # type: ignore[attr-defined]
    assert not box.isChecked()  # not asked before the window is painted
    QApplication.processEvents()
    window.view.viewport().repaint()  # type: ignore[attr-defined]
    if answer == "false":
        qtbot.waitUntil(box.isChecked, timeout=5000)
    else:
        # asked (the mark is there), answered "true", and the box stays as it was
        qtbot.waitUntil((tmp_path / "asked").exists, timeout=5000)
        qtbot.wait(300)
        assert not box.isChecked()
    assert "enable-animations" in (tmp_path / "asked").read_text()


def test_no_gsettings_is_no_error(qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))  # nothing to run
    monkeypatch.delenv("SHENSHA_REDUCE_MOTION", raising=False)
    window = open_window([])
    assert window is not None
    qtbot.addWidget(window)
    QApplication.processEvents()
    window.view.viewport().repaint()  # type: ignore[attr-defined]
    qtbot.wait(300)
    assert not window.panel.reduce_motion.isChecked()  # type: ignore[attr-defined]


def test_the_environment_asks_at_once(qtbot: QtBot, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SHENSHA_REDUCE_MOTION", "1")
    window = open_window([])
    assert window is not None
    qtbot.addWidget(window)
    assert window.panel.reduce_motion.isChecked()  # type: ignore[attr-defined]


_FIRST_PAINT = """\
import sys
from shensha_plates.gui.shell.app import open_window
from PySide6.QtWidgets import QApplication
w = open_window([])
QApplication.processEvents()
w.view.grab()
loaded = sorted(m for m in sys.modules if m.startswith(("shensha_plates.core.liuren", "shensha_plates.gui.panels.lesson", "shensha_plates.gui.panels.classroom",
                                                         "lunar_python")))
print("LOADED", ",".join(loaded), "BUILT", w.lesson_if_built is not None)
w.panel.tabs.setCurrentWidget(w.lesson_page)  # the tab shown: the panel is built, and shows the state
QApplication.processEvents()
print("SHOWN", w.lesson_if_built is not None, w.lesson.isVisible(), bool(w.lesson.plain_text().strip()))
"""


def test_start_up_waits_only_for_what_the_first_paint_needs(tmp_path: Path) -> None:
    """The lesson panel and the Liu Ren method, the classroom and the calendar load when first used."""
    import subprocess
    import sys

    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", SHENSHA_PLATES_CONFIG_DIR=str(tmp_path / "config"),
               SHENSHA_PLATES_CACHE_DIR=str(tmp_path / "cache"), SHENSHA_REDUCE_MOTION="1")
    root = Path(__file__).resolve().parents[2]
    out = subprocess.run([sys.executable, "-c", _FIRST_PAINT], cwd=root, env=env, capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    lines = {ln.split()[0]: ln.split()[1:] for ln in out.stdout.splitlines() if ln.split()}
    assert lines["LOADED"] == ["BUILT", "False"], lines["LOADED"]  # nothing of them loaded, no panel built
    assert lines["SHOWN"] == ["True", "True", "True"]


_CLOSED_WHILE_ASKING = """\
from shensha_plates.gui.shell.app import open_window
from PySide6.QtWidgets import QApplication
w = open_window([])
QApplication.processEvents()
w.view.viewport().repaint()
QApplication.processEvents()  # the desktop is being asked now; the program ends before it answers
print("ENDED")
"""


def test_a_window_gone_before_the_desktop_answers_ends_quietly(tmp_path: Path) -> None:
    """gsettings still running when the window goes: no traceback, no warning, the process ends."""
    import subprocess
    import sys

    slow = tmp_path / "bin"
    slow.mkdir()
    tool = slow / "gsettings"
    tool.write_text("#!/bin/sh\nsleep 5\necho false\n")
    tool.chmod(tool.stat().st_mode | stat.S_IEXEC)
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", SHENSHA_PLATES_CONFIG_DIR=str(tmp_path / "config"),
               SHENSHA_PLATES_CACHE_DIR=str(tmp_path / "cache"), SHENSHA_REDUCE_MOTION="",
               PATH=f"{slow}{os.pathsep}{os.environ.get('PATH', '')}")
    root = Path(__file__).resolve().parents[2]
    out = subprocess.run([sys.executable, "-c", _CLOSED_WHILE_ASKING], cwd=root, env=env, capture_output=True,
                         text=True, timeout=60)
    assert out.returncode == 0 and "ENDED" in out.stdout, out.stderr[-2000:]
    assert "Traceback" not in out.stderr and "still running" not in out.stderr, out.stderr[-2000:]


def test_the_garbage_collector_pauses_for_the_start_only(qtbot: QtBot) -> None:
    """Paused from the start of open_window, running again half a second after the first picture."""
    import gc

    from shensha_plates.gui.shell.app import collector_paused
    assert gc.isenabled()
    window = open_window([])
    assert window is not None
    qtbot.addWidget(window)
    assert collector_paused() and not gc.isenabled()
    QApplication.processEvents()
    window.view.viewport().repaint()  # type: ignore[attr-defined]
    assert not gc.isenabled()  # not while the first picture is being made
    qtbot.waitUntil(gc.isenabled, timeout=3000)
    assert not collector_paused()


def test_the_collector_runs_again_when_the_window_goes_or_the_start_fails(qtbot: QtBot,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    import gc

    from shensha_plates.core.errors import CatalogError
    window = open_window([])
    assert window is not None and not gc.isenabled()
    window.deleteLater()  # gone before it was ever painted
    qtbot.waitUntil(gc.isenabled, timeout=3000)

    def damaged() -> None:
        raise CatalogError("x.toml", "spirit y", "name", "", "empty")
    monkeypatch.setattr("shensha_plates.core.catalog.default_catalog", damaged)
    monkeypatch.setattr("PySide6.QtWidgets.QMessageBox.critical", lambda *_a, **_k: 0)  # no dialog to wait on
    assert open_window([]) is None
    assert gc.isenabled()

    def broken(*_a: object, **_k: object) -> None:
        raise RuntimeError("a fault while the window is built")
    monkeypatch.setattr("shensha_plates.gui.shell.app._open_window", broken)
    with pytest.raises(RuntimeError):
        open_window([])
    assert gc.isenabled()
