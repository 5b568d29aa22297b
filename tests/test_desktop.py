"""``shensha-plates install-desktop``: a valid freedesktop entry and the icon under $XDG_DATA_HOME, an
Exec that starts this installation, removal again, and one line (nothing left) when it cannot write."""

from __future__ import annotations

import configparser
import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path


from shensha_plates.desktop import APP_ID, data_home, desktop_entry, exec_line, icon_bytes, targets


def launch(*args: str, home: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "XDG_DATA_HOME": str(home), "PYTHONIOENCODING": "utf-8"}
    return subprocess.run([sys.executable, "-m", "shensha_plates", *args], capture_output=True, text=True,
                          timeout=60, env=env)


def read_entry(path: Path) -> configparser.SectionProxy:
    parser = configparser.ConfigParser(interpolation=None, strict=True)
    parser.optionxform = str  # type: ignore[assignment,method-assign]  # keys are case-sensitive
    parser.read_string(path.read_text("utf-8"))
    return parser["Desktop Entry"]


def test_install_writes_a_valid_entry_and_the_icon_then_uninstall_removes_them(tmp_path: Path) -> None:
    home = tmp_path / "share"
    proc = launch("install-desktop", home=home)
    assert proc.returncode == 0 and proc.stderr == "", proc
    entry, icon = targets(home)
    assert proc.stdout.splitlines() == [str(icon), str(entry)]
    assert icon.read_bytes() == icon_bytes() and icon.read_bytes().lstrip().startswith(b"<svg")
    fields = read_entry(entry)
    assert fields["Type"] == "Application" and fields["Icon"] == APP_ID and fields["Name[zh_CN]"] == "神煞旋盘"
    command = shlex.split(fields["Exec"])
    assert command[-1] == "gui" and os.access(command[0], os.X_OK)
    version = subprocess.run([*command[:-1], "--version"], capture_output=True, text=True, timeout=60)
    assert version.returncode == 0 and version.stdout.startswith("shensha-plates "), version
    if shutil.which("desktop-file-validate"):
        check = subprocess.run(["desktop-file-validate", str(entry)], capture_output=True, text=True, timeout=30)
        assert check.returncode == 0 and check.stdout == "", check.stdout
    again = launch("install-desktop", home=home)  # a second install replaces the files
    assert again.returncode == 0 and entry.is_file()
    gone = launch("install-desktop", "--uninstall", home=home)
    assert gone.returncode == 0 and not entry.exists() and not icon.exists()
    assert gone.stdout.splitlines() == [f"removed {entry}", f"removed {icon}"]


def test_exec_quotes_what_the_spec_reserves() -> None:
    assert exec_line(["/opt/shensha/bin/shensha-plates", "gui"]) == "/opt/shensha/bin/shensha-plates gui"
    # a space quotes the argument; inside the quotes $ and " are escaped, % doubled, and the file
    # format's string escape then doubles every backslash
    assert exec_line(['/home/a b/100%/x$"y', "gui"]) == '"/home/a b/100%%/x\\\\$\\\\"y" gui'
    assert "Exec=" in desktop_entry(["/x/shensha-plates", "gui"])


def test_data_home_follows_the_base_directory_spec(tmp_path: Path) -> None:
    assert data_home({"XDG_DATA_HOME": str(tmp_path), "HOME": "/h"}) == tmp_path
    assert data_home({"XDG_DATA_HOME": "relative/x", "HOME": "/h"}) == Path("/h/.local/share")
    assert data_home({"HOME": "/h"}) == Path("/h/.local/share")


def test_a_place_that_cannot_be_written_is_one_line_and_leaves_nothing(tmp_path: Path) -> None:
    home = tmp_path / "share"
    home.mkdir()
    (home / "applications").write_text("a file where the folder should be")
    proc = launch("install-desktop", home=home)
    assert proc.returncode == 2 and proc.stdout == "" and proc.stderr.count("\n") == 1, proc
    assert "Traceback" not in proc.stderr and "applications" in proc.stderr
    assert not targets(home)[1].exists()  # the icon written first is taken back
