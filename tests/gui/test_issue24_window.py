"""Issue 24 in the window: path faults and read-only targets in the export and booklet slots (item 7,
13), a damaged Liu Ren table behind the hour action (item 6)."""

from __future__ import annotations

import os
import stat
import sys
from pathlib import Path
from typing import Any

import pytest
from pytestqt.qtbot import QtBot
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


# -- item 6: a damaged Liu Ren table behind the hour action -------------------------------------------

def test_a_damaged_liuren_table_is_a_message_from_the_hour_action(window: MainWindow, tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    import shutil
    from importlib import resources

    from shensha_plates.core.engine import State
    from shensha_plates.core.liuren import tables
    escaped = catch_slot_exceptions(monkeypatch)
    folder = tmp_path / "liuren"
    shutil.copytree(str(resources.files("shensha_plates.resources.liuren")), folder)
    plate = folder / "plate.toml"
    plate.write_text(plate.read_text("utf-8").replace("schema_version = 1", "schema_version = 7", 1), "utf-8")
    window.model.set_state(State.parse("丙午", 11, "甲辰", "庚戌"))
    tables.liuren_tables.cache_clear()
    monkeypatch.setattr(tables, "load_tables", lambda folder_=None: tables._load_tables(folder))
    try:
        before = window.model.state
        window.actions_by_name["hour_fwd"].trigger()
        QApplicationProcess()
        assert escaped == []
        assert window.model.state == before and window.model.ke is None  # nothing half-changed
        assert window.last_error and "plate.toml" in window.last_error and "schema_version" in window.last_error
        window.actions_by_name["undo"].trigger()  # the refused step left no undo entry behind
        assert escaped == []
    finally:
        tables.liuren_tables.cache_clear()


def QApplicationProcess() -> None:  # noqa: N802 - reads as the Qt call it wraps
    from PySide6.QtWidgets import QApplication
    QApplication.processEvents()


# -- items 4 and 7: the settings file a FIFO, a device, huge, or behind a folder that cannot be searched --

_OPEN_SETTINGS = ("import sys; from pathlib import Path; from shensha_plates.gui.shell.settings import Settings; "
                  "s = Settings(Path(sys.argv[1])); s.set('lang', 'zh-Hant'); print(s.get('lang'), s.sync()); "
                  "print(s.unsaved)")


@pytest.mark.parametrize("kind", ["fifo", "dev_zero", "huge", "too_long", "folder"])
def test_a_settings_file_that_cannot_be_read_is_reported(tmp_path: Path, kind: str) -> None:
    import subprocess
    path = tmp_path / "shensha-plates.ini"
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "dev_zero":
        path.symlink_to("/dev/zero")
    elif kind == "huge":
        with open(path, "wb") as fh:
            fh.truncate(3 * 2**30)
    elif kind == "folder":
        path.mkdir()
    else:
        path = tmp_path / ("x" * 250) / ("y" * 250) / "z" / ".." / ("w" * 4000) / "shensha-plates.ini"
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    proc = subprocess.run([sys.executable, "-c", _OPEN_SETTINGS, str(path)], env=env, capture_output=True,
                          text=True, timeout=60)
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr
    value, synced, reason = proc.stdout.split("\n")[0].split()[0], proc.stdout.split()[1], proc.stdout.split("\n")[1]
    assert value == "zh-Hant" and synced == "False" and reason not in ("", "None"), proc.stdout
    if kind != "too_long":
        assert os.path.lexists(path) and (kind != "huge" or path.stat().st_size == 3 * 2**30)  # left as it was


def test_a_settings_folder_that_cannot_be_searched(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                   qapp: object) -> None:
    from shensha_plates.gui.shell.settings import Settings
    locked = tmp_path / "locked"
    locked.mkdir()
    path = locked / "inner" / "shensha-plates.ini"
    real_open, real_stat, real_mkdir = os.open, os.stat, os.mkdir

    def denied(real: Any) -> Any:  # the kernel's answer to a user other than root, given here
        def check(p: Any, *a: Any, **k: Any) -> Any:
            if os.fspath(p).startswith(str(locked) + os.sep):
                raise PermissionError(13, "Permission denied", os.fspath(p))
            return real(p, *a, **k)
        return check
    monkeypatch.setattr(os, "open", denied(real_open))
    monkeypatch.setattr(os, "stat", denied(real_stat))
    monkeypatch.setattr(os, "mkdir", denied(real_mkdir))
    s = Settings(path)
    assert s.unsaved and "Permission denied" in s.unsaved
    assert s.get("lang") == "zh-Hans" and s.sync() is False


def test_the_window_starts_with_a_fifo_for_settings(tmp_path: Path, qtbot: QtBot) -> None:
    from shensha_plates.gui.shell.settings import Settings
    path = tmp_path / "s.ini"
    os.mkfifo(path)
    w = MainWindow(settings=Settings(path))
    qtbot.addWidget(w)
    w.show()
    assert w.settings.unsaved and "FIFO" in w.settings.unsaved


# -- item 3: a lesson keeps its 式 --------------------------------------------------------------------

def _shi(window: MainWindow) -> str:
    from shensha_plates.core.cycle import BRANCHES
    ke = window.model.ke
    assert ke is not None
    return BRANCHES[window.model.general] + "将 " + "".join(BRANCHES[t.branch] for t in ke.transmissions)


def test_a_lesson_step_reopens_exactly_as_saved(window: MainWindow, tmp_path: Path) -> None:
    from shensha_plates.core.engine import State
    from shensha_plates.core.liuren import KeOptions
    c = window.classroom
    c.lesson_name.setText("式")
    m = window.model
    # a step with 子将 set by hand and the school's settings (shehai=depth, noble=seed000)
    m.set_state(State.parse("戊戌", 10, "甲午", "己亥", "亥"))
    m.set_general(0)
    m.set_ke_options(KeOptions.from_choices(["shehai=depth", "noble=seed000"]))
    by_hand = _shi(window)
    c.add_current()
    # a step from a date: its month general from the date's 中气
    window.set_date("1998-11-10T12:00", "Asia/Shanghai", "lichun", "jie", "next-day")
    m.set_ke_options(KeOptions())
    from_date = _shi(window)
    assert m.general_source == "date"
    c.add_current()
    # and a step whose general follows the month
    m.set_state(State.parse("丙午", 11, "甲辰", "庚戌", "午"))
    m.set_general(None)
    by_month = _shi(window)
    c.add_current()
    path = tmp_path / "shi.json"
    assert c.save_to(path)
    c._lesson = []
    m.set_state(State.parse("甲子", 1, "甲子"))
    assert c.open_from(path)
    seen = []
    for row in range(3):
        c.steps.setCurrentRow(row)
        c._step_chosen(row)
        seen.append(_shi(window))
    assert seen == [by_hand, from_date, by_month], (seen, [by_hand, from_date, by_month])
    assert by_hand.startswith("子将") and from_date.startswith("卯将")


def test_a_version_1_lesson_still_opens(window: MainWindow, tmp_path: Path) -> None:
    old = tmp_path / "old.json"
    old.write_text('{"format": "shensha-plates-lesson", "version": 1, "name": "旧课", "steps": ['
                   '{"year": "丙午", "month": 11, "xun": "甲辰", "day": "庚戌", "hour": "午", "variants": [], '
                   '"note": "一"}]}', "utf-8")
    c = window.classroom
    assert c.open_from(old) and len(c.lesson_steps()) == 1
    c._step_chosen(0)
    assert window.model.state.hour is not None and window.model.general_source == "month"


def test_the_lesson_file_is_versioned_and_takes_settings_among_the_variants(tmp_path: Path) -> None:
    import json

    from shensha_plates.core.teaching import LESSON_VERSION, LessonError, load_lesson
    path = tmp_path / "l.json"
    step = {"year": "丙午", "month": 11, "xun": "甲辰", "day": "庚戌", "hour": "午",
            "variants": ["shehai=depth", "tian_xi=shun_twelve"], "general": "寅", "note": ""}
    path.write_text(json.dumps({"format": "shensha-plates-lesson", "version": 2, "name": "x", "steps": [step]}),
                    "utf-8")
    [read] = load_lesson(path).steps
    assert read.variants == ("tian_xi=shun_twelve",) and read.liuren == ("shehai=depth",) and read.general == 2
    assert LESSON_VERSION == 2
    for field, value in (("general", "X"), ("general", 3), ("liuren", ["shehai=nope"]), ("liuren", "shehai")):
        path.write_text(json.dumps({"format": "shensha-plates-lesson", "version": 2, "name": "x",
                                    "steps": [dict(step, **{field: value})]}), "utf-8")
        with pytest.raises(LessonError, match=f"step 1, field {field}"):
            load_lesson(path)


def test_a_rule_error_escaping_any_slot_is_a_message(window: MainWindow, monkeypatch: pytest.MonkeyPatch,
                                                     qtbot: Any) -> None:
    from PySide6.QtCore import QTimer

    from shensha_plates.core.errors import CatalogError
    from shensha_plates.gui.shell.app import _report_escaped_errors
    monkeypatch.setattr(sys, "excepthook", sys.excepthook)  # put back after the test
    _report_escaped_errors(window)

    def slot() -> None:
        raise CatalogError("resources/liuren/plate.toml", "(file)", "schema_version", 7, "must be 1")
    QTimer.singleShot(0, slot)
    qtbot.waitUntil(lambda: bool(window.last_error), timeout=2000)
    assert "plate.toml" in (window.last_error or "")
