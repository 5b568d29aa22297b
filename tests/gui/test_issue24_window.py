"""Issue 24 in the window: path faults and read-only targets in the export and booklet slots (item 7,
13), a damaged Liu Ren table behind the hour action (item 6)."""

from __future__ import annotations

import os
import stat
import sys
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtWidgets import QDialog, QFileDialog

from shensha_plates.gui.shell.main_window import MainWindow


def catch_slot_exceptions(monkeypatch: pytest.MonkeyPatch) -> list[BaseException]:
    """What escapes a Qt slot lands in sys.excepthook: record it (the test then fails on it)."""
    escaped: list[BaseException] = []
    monkeypatch.setattr(sys, "excepthook", lambda kind, value, tb: escaped.append(value))
    return escaped


@pytest.mark.parametrize("fault", ["too long", "unsearchable"])
def test_export_with_a_path_fault_is_a_message(window: MainWindow, tmp_path: Path, fault: str,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    escaped = catch_slot_exceptions(monkeypatch)
    if fault == "too long":
        path = str(tmp_path / ("d" * 250) / ("e" * 250) / ("f" * 250)) * 6 + ".png"
    else:  # root may search any folder: the kernel's answer for one that cannot be searched, given here
        locked = tmp_path / "locked"
        locked.mkdir()
        path = str(locked / "p.png")
        real_lstat, real_stat = os.lstat, os.stat

        def denied(real: Any) -> Any:
            def check(p: Any, *a: Any, **k: Any) -> Any:
                if os.fspath(p).startswith(str(locked) + os.sep) or os.fspath(p) == str(locked):
                    raise PermissionError(13, "Permission denied", os.fspath(p))
                return real(p, *a, **k)
            return check
        monkeypatch.setattr(os, "lstat", denied(real_lstat))
        monkeypatch.setattr(os, "stat", denied(real_stat))
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (path, ""))
    monkeypatch.setattr(QDialog, "exec", lambda self: QDialog.DialogCode.Accepted)
    window.export_dialog()
    window.booklet_dialog()
    assert escaped == []
    assert window.last_error and "cannot write" in window.last_error, window.last_error


@pytest.mark.parametrize("confirm", [False, True])
@pytest.mark.parametrize("what", ["export", "booklet"])
def test_a_read_only_file_is_replaced_only_when_confirmed(window: MainWindow, tmp_path: Path, confirm: bool,
                                                          what: str, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / ("r.pdf")
    target.write_bytes(b"old")
    target.chmod(0o444)
    asked: list[str] = []

    def answer(path: str) -> bool:
        asked.append(path)
        return confirm
    monkeypatch.setattr(window, "confirm_replace", answer)
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(target), ""))
    monkeypatch.setattr(QDialog, "exec", lambda self: QDialog.DialogCode.Accepted)
    if what == "export":
        window.export_to(str(target))
    else:
        window.booklet_dialog()
    assert asked == [str(target)]
    if confirm:
        assert target.read_bytes().startswith(b"%PDF") and stat.S_IMODE(target.stat().st_mode) == 0o444
    else:
        assert target.read_bytes() == b"old"
        assert "read-only" in (window.last_error or "")
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".part")]
