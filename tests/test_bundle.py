"""The standalone bundle (issue 22 item 5): ``python bundle/build.py`` builds it, and it runs with a PATH
that holds no Python of ours and no Python environment: --version, show, snapshot -o x.pdf and the
window offscreen (gui --check). Slow (a PyInstaller build); skipped where PyInstaller is not installed
(pip install -e ".[bundle]"). CI runs it as its own step (.ci/run)."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
STATE = ["--year", "丙午", "--month", "11", "--xun", "甲辰", "--day", "庚戌"]

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(importlib.util.find_spec("PyInstaller") is None,
                                 reason="PyInstaller is not installed (pip install -e '.[bundle]')")]


@pytest.fixture(scope="module")
def bundle() -> Path:
    proc = subprocess.run([sys.executable, str(ROOT / "bundle" / "build.py")], cwd=ROOT, capture_output=True,
                          text=True, timeout=1800)
    assert proc.returncode == 0, proc.stderr[-3000:]
    exe = Path(proc.stdout.strip().splitlines()[-1])
    assert exe.is_file() and os.access(exe, os.X_OK)
    assert ROOT / "build" in exe.parents  # the ignored build folder, never committed
    return exe


def run(exe: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    # no Python of ours: a PATH of the system's folders only, no virtual environment, no PYTHON* variables
    env = {"PATH": "/usr/bin:/bin", "HOME": str(cwd), "LANG": "C.UTF-8", "QT_QPA_PLATFORM": "offscreen",
           "XDG_CONFIG_HOME": str(cwd / "config"), "XDG_CACHE_HOME": str(cwd / "cache")}
    return subprocess.run([str(exe), *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=180)


def test_the_bundle_runs_without_our_python(bundle: Path, tmp_path: Path) -> None:
    version = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]["version"]
    proc = run(bundle, "--version", cwd=tmp_path)
    assert proc.returncode == 0 and proc.stdout == f"shensha-plates {version}\n", proc

    proc = run(bundle, "show", *STATE, cwd=tmp_path)
    assert proc.returncode == 0 and proc.stdout.splitlines()[0] == "丙午年 冬月 甲辰旬 庚戌日", proc
    assert "太岁盘: 太岁" in proc.stdout

    proc = run(bundle, "ke", "--date", "1998-11-30T12:00", cwd=tmp_path)
    assert proc.returncode == 0 and "辛巳" in proc.stdout, proc

    proc = run(bundle, "snapshot", *STATE, "-o", "x.pdf", cwd=tmp_path)
    assert proc.returncode == 0 and proc.stdout == "x.pdf\n", proc
    pdf = (tmp_path / "x.pdf").read_bytes()
    assert pdf.startswith(b"%PDF-") and len(pdf) > 10_000
    import pypdf
    text = pypdf.PdfReader(tmp_path / "x.pdf").pages[0].extract_text()
    assert "丙午" in text or "太岁" in text

    proc = run(bundle, "gui", "--check", "--date", "1998-11-30T12:00", cwd=tmp_path)
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc
    assert proc.stdout.startswith("painted ") and "辛巳日 午时" in proc.stdout, proc

    proc = run(bundle, "show", "--year", "丙午", "--month", "13", cwd=tmp_path)  # bad input: one line, status 2
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr
