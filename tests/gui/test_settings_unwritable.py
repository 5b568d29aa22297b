"""The window starts whatever the state of the settings folder: one that cannot be created (HOME
read-only, a file in the way) or a read-only settings file. It starts (with defaults, or with the
file's settings), says once that changes will not be kept, and never loses or garbles the file."""

from __future__ import annotations

import os
import stat
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QMessageBox

from shensha_plates.core.engine import State
from shensha_plates.gui.shell.main_window import MainWindow
from shensha_plates.gui.shell.settings import Settings


class ReadOnly:
    """Makes files and folders unwritable for this process: ``chattr +i`` for root (whom mode bits
    do not stop), ``chmod a-w`` otherwise; undone after the test so the folder can be removed."""

    def __init__(self) -> None:
        self.done: list[tuple[Path, int]] = []

    def __call__(self, path: Path) -> None:
        mode = path.stat().st_mode
        if os.geteuid() == 0:
            proc = subprocess.run(["chattr", "+i", str(path)], capture_output=True, text=True)
            if proc.returncode != 0:
                pytest.skip(f"running as root and cannot make {path} immutable: {proc.stderr.strip()}")
        else:
            path.chmod(stat.S_IMODE(mode) & ~0o222)
        self.done.append((path, mode))

    def undo(self) -> None:
        for path, mode in reversed(self.done):
            if os.geteuid() == 0:
                subprocess.run(["chattr", "-i", str(path)], check=True)
            path.chmod(stat.S_IMODE(mode))


@pytest.fixture
def read_only() -> Iterator[ReadOnly]:
    ro = ReadOnly()
    try:
        yield ro
    finally:
        ro.undo()


def start(qtbot: QtBot, settings: Settings) -> tuple[MainWindow, list[str]]:
    """A window, with every message it shows recorded."""
    told: list[str] = []
    w = MainWindow(settings=settings)
    real = w.show_message
    w.show_message = lambda text: (told.append(text), real(text))[1]  # type: ignore[method-assign]
    qtbot.addWidget(w)
    w.show()
    QApplication.processEvents()
    return w, told


def use_the_window(w: MainWindow) -> None:
    w.model.set_state(State.parse("丙午", 11, "甲辰"))
    w.model.step("month", 1)
    w.set_now()


def unsaved(told: list[str]) -> list[str]:
    return [t for t in told if "设置无法保存" in t]


def test_a_settings_folder_that_cannot_be_created(tmp_path: Path, qtbot: QtBot) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the settings folder should be")
    s = Settings(blocker / "shensha" / "shensha-plates.ini")
    w, told = start(qtbot, s)
    assert w.model.state == State.parse("甲子", 1, "甲子") and w.model.lang == "zh-Hans"  # defaults
    assert len(unsaved(told)) == 1 and str(s.path) in unsaved(told)[0]
    assert "设置无法保存" in w.statusBar().currentMessage()
    use_the_window(w)
    w.close()
    assert not w.isVisible() and len(unsaved(told)) == 1  # said once, not again when closing
    assert blocker.read_text() == "a file where the settings folder should be"


def test_a_read_only_home(tmp_path: Path, qtbot: QtBot, monkeypatch: pytest.MonkeyPatch,
                          read_only: ReadOnly) -> None:
    home = Path(os.environ["HOME"])
    monkeypatch.delenv("SHENSHA_PLATES_CONFIG_DIR")  # the per-user folder under HOME, as in use
    read_only(home)
    s = Settings()
    assert home in s.path.parents and not s.path.parent.exists()
    w, told = start(qtbot, s)
    assert len(unsaved(told)) == 1
    use_the_window(w)
    w.close()
    assert not w.isVisible() and len(unsaved(told)) == 1 and list(home.iterdir()) == []


def test_a_read_only_settings_file_says_so_and_is_kept(tmp_path: Path, qtbot: QtBot, read_only: ReadOnly) -> None:
    path = tmp_path / "cfg" / "shensha-plates.ini"
    first = Settings(path)
    first.set("lang", "zh-Hant")
    first.set("state/year", "丁未")
    assert first.sync()
    before = path.read_bytes()
    read_only(path)
    w, told = start(qtbot, Settings(path))
    assert w.model.lang == "zh-Hant" and w.model.state.year_name == "丁未"  # its settings are used
    assert len(unsaved(told)) == 0 and len([t for t in told if "設置無法保存" in t]) == 1
    use_the_window(w)
    w.close()
    assert not w.isVisible() and path.read_bytes() == before


def test_a_file_that_becomes_read_only_is_reported_on_closing(tmp_path: Path, qtbot: QtBot,
                                                             read_only: ReadOnly) -> None:
    path = tmp_path / "cfg" / "shensha-plates.ini"
    w, told = start(qtbot, Settings(path))
    assert told == []
    w.settings.sync()
    read_only(path)
    read_only(path.parent)  # no lock file, no replacement either
    seen: list[str] = []

    def answer() -> None:
        box = QApplication.activeModalWidget()
        if isinstance(box, QMessageBox):
            seen.append(box.text())
            box.accept()
        else:
            QTimer.singleShot(5, answer)
    QTimer.singleShot(0, answer)
    use_the_window(w)
    w.close()
    assert not w.isVisible() and len(seen) == 1 and "设置无法保存" in seen[0] and str(path) in seen[0]
