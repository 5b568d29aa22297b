"""The wheel holds one top-level package, shensha_plates/, with every module and data file, and nothing else.

An editable install reads the checkout, so a package or data file the packaging config misses goes
unseen until a user installs the wheel (resources/systems once did). This builds the real wheel with
setuptools from a copy of the tracked files (about a second) and compares its file list with the
checkout's; .ci/wheel_check.py then installs a wheel and runs the commands from it.
"""

from __future__ import annotations

import configparser
import shutil
import subprocess
import sys
import tomllib
import zipfile

import pytest

from tests.conftest import REPO

PACKAGED = ("shensha_plates",)


def shipped_files() -> list[str]:
    """What a clean clone has under the packaged folders (git's list when there is one)."""
    proc = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard", *PACKAGED],
                          cwd=REPO, capture_output=True, text=True, timeout=60) if (REPO / ".git").exists() else None
    if proc is not None and proc.returncode == 0:
        return sorted(f for f in proc.stdout.splitlines() if (REPO / f).is_file())
    return sorted(str(p.relative_to(REPO)) for top in PACKAGED for p in (REPO / top).rglob("*")
                  if p.is_file() and "__pycache__" not in p.parts)


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> zipfile.ZipFile:
    src = tmp_path_factory.mktemp("src")
    for rel in [*shipped_files(), "pyproject.toml", "README.md"]:
        (src / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(REPO / rel, src / rel)
    out = tmp_path_factory.mktemp("dist")
    code = f"from setuptools import build_meta; print(build_meta.build_wheel({str(out)!r}))"
    proc = subprocess.run([sys.executable, "-c", code], cwd=src, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    return zipfile.ZipFile(out / proc.stdout.strip().splitlines()[-1])


def test_the_wheel_holds_every_module_and_data_file_and_nothing_else(wheel: zipfile.ZipFile) -> None:
    inside = {n for n in wheel.namelist() if ".dist-info/" not in n}
    expected = set(shipped_files())
    assert "shensha_plates/resources/systems/bazi.toml" in expected and "shensha_plates/core/py.typed" in expected
    missing = sorted(expected - inside)
    assert not missing, (f"not in the wheel: {missing} — a folder without __init__.py, or a data file type "
                         "missing from [tool.setuptools.package-data] in pyproject.toml")
    tops = {n.split("/")[0] for n in inside}
    assert tops == {"shensha_plates"}, f"the wheel must install one top-level package, not {sorted(tops)}"
    extra = sorted(inside - expected)
    assert not extra, f"in the wheel but not in the checkout's packages: {extra}"


def test_the_wheel_declares_the_command_and_the_dependencies(wheel: zipfile.ZipFile) -> None:
    info = next(n for n in wheel.namelist() if n.endswith(".dist-info/entry_points.txt"))
    entry = configparser.ConfigParser()
    entry.read_string(wheel.read(info).decode("utf-8"))
    target = entry["console_scripts"]["shensha-plates"]
    module, _, func = target.partition(":")
    assert module.replace(".", "/") + ".py" in wheel.namelist() and func == "main"
    meta = wheel.read(next(n for n in wheel.namelist() if n.endswith(".dist-info/METADATA"))).decode("utf-8")
    project = tomllib.loads((REPO / "pyproject.toml").read_text("utf-8"))["project"]
    requires = [line.split(":", 1)[1].strip() for line in meta.splitlines() if line.startswith("Requires-Dist:")]
    for dep in project["dependencies"]:
        name = dep.split(">")[0].split("<")[0].split("=")[0].split(";")[0].strip().lower()
        assert any(r.lower().startswith(name) for r in requires), dep
