"""The one command line (shensha_plates.commands): every command listed and reachable, --version from
the package metadata, an example in each command's --help that parses, and lazy registration."""

from __future__ import annotations

import shlex
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from shensha_plates import commands

ROOT = Path(__file__).resolve().parent.parent
EXPECTED = {"show", "ke", "variants", "bazi", "relate", "select", "snapshot", "booklet", "gui"}


def launch(*args: str, module: str = "shensha_plates.gui.shell.launcher") -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", module, *args], capture_output=True, text=True, timeout=120,
                          env={"PATH": "/usr/bin:/bin", "PYTHONIOENCODING": "utf-8", "QT_QPA_PLATFORM": "offscreen"})


def test_every_command_is_in_the_table_once() -> None:
    names = [c.name for c in commands.COMMANDS]
    assert len(names) == len(set(names)) and EXPECTED <= set(names)


def test_help_lists_every_command_with_its_line() -> None:
    proc = launch("--help")
    assert proc.returncode == 0 and proc.stderr == ""
    listed = {line.split()[0] for line in proc.stdout.splitlines() if line.startswith("    ") and line.split()}
    assert {c.name for c in commands.COMMANDS} <= listed, proc.stdout
    for c in commands.COMMANDS:
        assert c.summary.split()[0] in proc.stdout


def test_version_agrees_with_pyproject_both_ways() -> None:
    version = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]["version"]
    for module in ("shensha_plates.gui.shell.launcher", "shensha_plates"):
        proc = launch("--version", module=module)
        assert proc.returncode == 0 and proc.stdout == f"shensha-plates {version}\n", (module, proc)


@pytest.mark.parametrize("command", commands.COMMANDS, ids=lambda c: c.name)
def test_each_command_help_ends_with_an_example_that_parses(command: commands.Command,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        commands.parse([command.name, "--help"])
    assert stop.value.code == 0
    text = capsys.readouterr().out
    assert f"usage: shensha-plates {command.name}" in text and "example:" in text
    for line in command.example.splitlines():
        argv = shlex.split(line)
        assert argv[:2] == ["shensha-plates", command.name], line
        assert line.strip() in text
        assert commands.parse(argv[1:]).command == command.name  # the example is a valid command line


def test_no_command_or_window_options_alone_is_the_window() -> None:
    assert commands.parse([]).command == "gui"
    assert commands.parse(["--lang", "zh-Hant"]).lang == "zh-Hant"


def test_an_unknown_command_is_one_usage_line() -> None:
    proc = launch("bogus")
    assert proc.returncode == 2 and proc.stdout == "" and proc.stderr.count("\n") == 1
    assert "invalid choice: 'bogus'" in proc.stderr and "Traceback" not in proc.stderr


_IMPORTED = ("import sys; from shensha_plates.gui.shell.launcher import main\n"
             "try:\n    code = main(sys.argv[1:])\nexcept SystemExit as e:\n    code = e.code\n"
             "print(sorted(m for m in sys.modules if m.startswith(('PySide6', 'pyqtgraph', 'shensha_plates.gui.export', "
             "'shensha_plates.core.liuren')))); sys.exit(code)")


def test_help_imports_no_command_and_show_no_qt() -> None:
    helped = subprocess.run([sys.executable, "-c", _IMPORTED, "--help"], capture_output=True, text=True, timeout=60)
    assert helped.returncode == 0 and helped.stdout.splitlines()[-1] == "[]", helped.stdout[-300:]
    shown = subprocess.run([sys.executable, "-c", _IMPORTED, "show", "--year", "丙午", "--month", "11", "--xun", "甲辰"],
                           capture_output=True, text=True, timeout=60)
    assert shown.returncode == 0 and shown.stdout.splitlines()[-1] == "[]", shown.stdout[-300:]


def test_every_registered_function_exists() -> None:
    for c in commands.COMMANDS:
        for target in (c.add_arguments, c.run):
            assert callable(commands._load(target)), target
