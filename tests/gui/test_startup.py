"""Start-up: the window comes up without waiting for the desktop; the desktop's wish for reduced
motion (GNOME's enable-animations = false) is asked for once the window is painted, and honoured."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest
from PySide6.QtWidgets import QApplication

from gui.shell.app import open_window


def _fake_gsettings(folder: Path, answer: str) -> None:
    tool = folder / "gsettings"
    tool.write_text(f"#!/bin/sh\necho {answer}\n")
    tool.chmod(tool.stat().st_mode | stat.S_IEXEC)


@pytest.mark.parametrize("answer", ["false", "true"])
def test_reduce_motion_follows_the_desktop_after_the_first_paint(qtbot: object, tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch,
                                                                answer: str) -> None:
    _fake_gsettings(tmp_path, answer)
    monkeypatch.setenv("PATH", f"{tmp_path}{os.pathsep}{os.environ.get('PATH', '')}")
    monkeypatch.delenv("SHENSHA_REDUCE_MOTION", raising=False)
    window = open_window([])
    assert window is not None
    qtbot.addWidget(window)  # type: ignore[attr-defined]
    box = window.panel.reduce_motion  # type: ignore[attr-defined]
    assert not box.isChecked()  # not asked before the window is painted
    QApplication.processEvents()
    window.view.viewport().repaint()  # type: ignore[attr-defined]
    if answer == "false":
        qtbot.waitUntil(box.isChecked, timeout=5000)  # type: ignore[attr-defined]
    else:
        qtbot.wait(600)  # type: ignore[attr-defined]
        assert not box.isChecked()


def test_no_gsettings_is_no_error(qtbot: object, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))  # nothing to run
    monkeypatch.delenv("SHENSHA_REDUCE_MOTION", raising=False)
    window = open_window([])
    assert window is not None
    qtbot.addWidget(window)  # type: ignore[attr-defined]
    QApplication.processEvents()
    window.view.viewport().repaint()  # type: ignore[attr-defined]
    qtbot.wait(300)  # type: ignore[attr-defined]
    assert not window.panel.reduce_motion.isChecked()  # type: ignore[attr-defined]


def test_the_environment_asks_at_once(qtbot: object, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SHENSHA_REDUCE_MOTION", "1")
    window = open_window([])
    assert window is not None
    qtbot.addWidget(window)  # type: ignore[attr-defined]
    assert window.panel.reduce_motion.isChecked()  # type: ignore[attr-defined]
