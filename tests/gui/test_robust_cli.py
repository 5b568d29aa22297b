"""The launcher and the snapshot command under hostile input: bad window options, no display, Unicode
digits, names ending in a slash, links and modes, pages over the size limit, too little memory."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from shensha_plates.core.engine import State, compute_plate
from shensha_plates.gui.export.options import ExportError, SnapshotOptions
from shensha_plates.gui.export.snapshot import export
from shensha_plates.gui.qt_start import display_problem
from tests.conftest import REPO

PLATE = compute_plate(State.parse("丙午", 11, "甲辰", "庚戌"))
STATE = ["--year", "丙午", "--month", "11", "--xun", "甲辰"]


def launch(*args: str, env: dict[str, str] | None = None, cwd: Path = REPO) -> subprocess.CompletedProcess[str]:
    """The program in a process of its own; a window that opened by mistake is stopped by the timeout."""
    full = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    full.update(env or {})
    full = {k: v for k, v in full.items() if v is not None}
    return subprocess.run([sys.executable, "-m", "shensha_plates.gui.shell.launcher", *args], cwd=cwd, env=full,
                          capture_output=True, text=True, timeout=60)


def one_error(proc: subprocess.CompletedProcess[str], needle: str) -> None:
    assert proc.returncode == 2, (proc.returncode, proc.stderr)
    assert "Traceback" not in proc.stderr and proc.stderr.count("\n") == 1, proc.stderr
    assert proc.stderr.startswith("shensha-plates: error: ") and needle in proc.stderr, proc.stderr


# -- the window's options and the display (item 11) ------------------------------------------------

@pytest.mark.parametrize("args,needle", [
    (["--lang", "klingon"], "invalid choice: 'klingon'"),
    (["--no-such-option"], "unrecognized arguments: --no-such-option"),
    (["gui", "--bogus"], "unrecognized arguments: --bogus"),
    (["gui", "--lang"], "expected one argument"),
    (["--lang=xx"], "invalid choice"),
])
def test_bad_window_options_are_usage_errors(args: list[str], needle: str) -> None:
    proc = launch(*args)
    one_error(proc, needle)
    assert "--help" in proc.stderr


@pytest.mark.parametrize("env", [{"QT_QPA_PLATFORM": "xcb", "DISPLAY": ""},
                                 {"QT_QPA_PLATFORM": "wayland", "WAYLAND_DISPLAY": ""},
                                 {"QT_QPA_PLATFORM": "", "DISPLAY": "", "WAYLAND_DISPLAY": ""}])
def test_no_display_is_one_line_pointing_to_snapshot(env: dict[str, str]) -> None:
    proc = launch("gui", env=env)
    one_error(proc, "no display found")
    assert "shensha-plates snapshot" in proc.stderr and proc.returncode != 134


@pytest.mark.parametrize("env,cursor,expected", [
    ({"QT_QPA_PLATFORM": "offscreen"}, False, None),
    ({"QT_QPA_PLATFORM": "xcb", "DISPLAY": ":0"}, True, None),
    ({"QT_QPA_PLATFORM": "xcb", "DISPLAY": ":0"}, False, "libxcb-cursor"),
    ({"DISPLAY": ":0"}, False, "libxcb-cursor"),
    ({"WAYLAND_DISPLAY": "wayland-0"}, False, None),
    ({"QT_QPA_PLATFORM": "wayland", "DISPLAY": ":0"}, True, "WAYLAND_DISPLAY is not set"),
    ({"QT_QPA_PLATFORM": "xcb", "WAYLAND_DISPLAY": "wayland-0"}, True, "DISPLAY is not set"),
    ({"QT_QPA_PLATFORM": "wayland;xcb", "DISPLAY": ":0"}, True, None),
    ({}, True, "DISPLAY and WAYLAND_DISPLAY are not set"),
])
def test_display_problem(env: dict[str, str], cursor: bool, expected: str | None) -> None:
    problem = display_problem(env, lambda name: "libxcb-cursor.so.0" if cursor else None,
                              reach=lambda platform, name, env: None)  # every named display answers
    assert (problem is None) if expected is None else (expected in (problem or "")), problem


# -- the snapshot command: digits, names, dates (items 6, 13, 15, 17) --------------------------------

@pytest.mark.parametrize("args,needle", [
    (["--size", "２４００"], "invalid --size"),
    (["--size", "2400x３000"], "invalid --size"),
    (["--size", "²"], "invalid --size"),
    (["--dpi", "١٥٠"], "invalid number"),
    (["--dpi", "⑪"], "invalid number"),
    (["--month", "⑪"], "invalid month"),
])
def test_snapshot_numbers_are_ascii_digits(tmp_path: Path, args: list[str], needle: str) -> None:
    base = ["snapshot", *STATE, "-o", "p.png"]
    if "--month" in args:
        base = ["snapshot", "--year", "丙午", "--xun", "甲辰", "-o", "p.png"]
    one_error(launch(*base, *args, cwd=tmp_path), needle)
    assert not (tmp_path / "p.png").exists()


def test_snapshot_refuses_a_name_ending_in_a_slash(tmp_path: Path) -> None:
    one_error(launch("snapshot", *STATE, "-o", "nul.png/", cwd=tmp_path), "names a folder")
    assert not (tmp_path / "nul.png").exists()


def test_snapshot_now_with_date_and_clock_gaps(tmp_path: Path) -> None:
    one_error(launch("snapshot", "--now", "--date", "2026-01-01", "-o", "p.png", cwd=tmp_path), "not allowed with")
    one_error(launch("snapshot", "--date", "2026-03-08T02:30", "--tz", "America/New_York", "-o", "p.png",
                     cwd=tmp_path), "does not exist")
    proc = launch("snapshot", "--date", "2026-11-01T01:30", "--tz", "America/New_York", "--size", "300",
                  "-o", "p.png", cwd=tmp_path)
    assert proc.returncode == 0 and proc.stdout == "p.png\n"
    assert proc.stderr.startswith("shensha-plates: note: ") and "occurs twice" in proc.stderr


def test_snapshot_name_the_terminal_cannot_show(tmp_path: Path) -> None:
    proc = launch("snapshot", *STATE, "--size", "300", "-o", "盘.svg", env={"PYTHONIOENCODING": "ascii"}, cwd=tmp_path)
    one_error(proc, "cannot show")
    assert (tmp_path / "盘.svg").stat().st_size > 0  # the file itself is whole


# -- links and modes through the exporter (items 3, 4) --------------------------------------------

def test_export_writes_through_a_link_and_keeps_the_mode(tmp_path: Path, qapp: object) -> None:
    real = tmp_path / "real.svg"
    real.write_bytes(b"old")
    real.chmod(0o600)
    link = tmp_path / "link.svg"
    link.symlink_to(real)
    hard = tmp_path / "hard.svg"
    os.link(real, hard)
    export(link, PLATE, None, SnapshotOptions(fmt="svg", width=400))
    assert link.is_symlink() and real.read_bytes().startswith(b"<?xml")
    assert stat.S_IMODE(real.stat().st_mode) == 0o600 and hard.read_bytes() == real.read_bytes()
    long_name = "盘" * 81 + ".svg"  # 247 bytes: legal, and too long for the old temporary name
    export(tmp_path / long_name, PLATE, None, SnapshotOptions(fmt="svg", width=400))
    assert (tmp_path / long_name).stat().st_size > 0
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".part")]


# -- size limits and memory (item 12) ----------------------------------------------------------------

def test_an_automatic_height_over_the_limit_is_refused(tmp_path: Path, qapp: object) -> None:
    with pytest.raises(ExportError, match=r"makes the page [\d,]+ px high, over the limit of 20,000"):
        export(tmp_path / "big.png", PLATE, None, SnapshotOptions(fmt="png", width=20000))
    assert not (tmp_path / "big.png").exists()


MEMORY_LIMITED = textwrap.dedent("""
    import resource, sys
    from shensha_plates.gui.export.cli import main, _ensure_app
    _ensure_app()
    vm = int(next(l for l in open("/proc/self/status") if l.startswith("VmSize")).split()[1]) * 1024
    resource.setrlimit(resource.RLIMIT_AS, (vm + 300 * 2**20, resource.RLIM_INFINITY))
    sys.exit(main(["--year", "丙午", "--month", "11", "--xun", "甲辰", "-o", "big.png", "--size", "12000x12000"]))
""")


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="needs Linux's /proc")
def test_too_little_memory_for_a_png_is_one_line(tmp_path: Path) -> None:
    proc = subprocess.run([sys.executable, "-c", MEMORY_LIMITED], cwd=tmp_path, capture_output=True, text=True,
                          timeout=120, env=dict(os.environ, QT_QPA_PLATFORM="offscreen", PYTHONPATH=str(REPO)))
    one_error(proc, "not enough memory for a 12000×12000 px image")
    assert not (tmp_path / "big.png").exists()


# -- numbers in the settings file are ASCII digits too (item 6) -------------------------------------

@pytest.mark.parametrize("written,expected", [("11", 11), ("１１", 1), ("١١", 1), ("⑪", 1), ("²", 1), ("-3", 1)])
def test_settings_numbers_are_ascii_digits(tmp_path: Path, qapp: object, written: str, expected: int) -> None:
    from shensha_plates.gui.export.dialog import load_snapshot_options
    from shensha_plates.gui.shell.settings import Settings
    path = tmp_path / "s.ini"
    path.write_text(f"[General]\nschema_version=1\n\n[state]\nmonth={written}\n\n[export]\nwidth={written}000\n",
                    "utf-8")
    s = Settings(path)
    assert s.get("state/month") == expected
    width = load_snapshot_options(s.raw(), SnapshotOptions()).width
    assert width == (11000 if expected == 11 else SnapshotOptions().width)


# -- arguments under a locale that is not UTF-8 (item 16) ------------------------------------------

def test_snapshot_under_an_ascii_locale_reads_and_writes_the_typed_name(tmp_path: Path) -> None:
    env = {"LC_ALL": "C", "PYTHONUTF8": "0", "PYTHONCOERCECLOCALE": "0", "PYTHONIOENCODING": "utf-8"}
    proc = launch("snapshot", *STATE, "--size", "300", "-o", "盘.svg", env=env, cwd=tmp_path)
    assert proc.returncode == 0 and proc.stdout == "盘.svg\n" and proc.stderr == "", proc.stderr
    assert "盘.svg".encode() in [os.fsencode(n) for n in os.listdir(os.fsencode(tmp_path))]


@pytest.mark.parametrize("version,kept", [("1", True), ("１", False), ("١", False), ("¹", False)])
def test_the_settings_schema_version_is_ascii_digits(tmp_path: Path, qapp: object, version: str, kept: bool) -> None:
    from shensha_plates.gui.shell.settings import Settings
    path = tmp_path / "s.ini"
    path.write_text(f"[General]\nschema_version={version}\n\n[state]\nmonth=7\n", "utf-8")
    s = Settings(path)
    assert (s.get("state/month") == 7) == kept  # a file of another schema is moved aside, defaults used
