"""Issue 24 items 4-6: the parse cache reads regular files of a sane size only, never blocks, never
believes an entry of another file, and a cached tree that fails validation is parsed afresh (the
error then names a file only when the file is at fault); a damaged sources.toml is one line."""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from shensha_plates.core import tomlcache
from tests.conftest import REPO

TEXT = 'schema_version = 1\n[a]\nx = [1, 2.5, "三", true]\n'
LOWER = REPO / "shensha_plates" / "resources" / "catalog" / "lower.toml"


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    folder.mkdir()
    monkeypatch.setenv("SHENSHA_PLATES_CACHE_DIR", str(folder))
    return folder


def entry_of(data: bytes) -> Path:
    found = tomlcache._entry_path(data)
    assert found is not None
    return found[0]


def within(seconds: float, work: Any) -> Any:
    """``work()`` on a thread; fails (instead of hanging the test run) when it takes longer."""
    result: list[Any] = []
    thread = threading.Thread(target=lambda: result.append(work()), daemon=True)
    thread.start()
    thread.join(seconds)
    assert result, f"still reading after {seconds} s"
    return result[0]


@pytest.mark.parametrize("kind", ["fifo", "dev_zero", "dev_urandom", "sparse", "folder"])
def test_a_special_or_huge_entry_is_ignored_at_once(cache: Path, kind: str) -> None:
    entry = entry_of(TEXT.encode())
    if kind == "fifo":
        os.mkfifo(entry)
    elif kind == "sparse":
        with open(entry, "wb") as fh:
            fh.truncate(3 * 2**30)  # 3 GB, all holes
    elif kind == "folder":
        entry.mkdir()
    else:
        entry.symlink_to("/dev/zero" if kind == "dev_zero" else "/dev/urandom")
    start = time.monotonic()
    tree = within(10, lambda: tomlcache.loads(TEXT))
    assert tree["a"]["x"][2] == "三" and time.monotonic() - start < 5


def test_an_entry_of_another_file_is_not_believed(cache: Path) -> None:
    other = TEXT.replace("2.5", "7.5")
    tomlcache.loads(other)
    entry_of(other.encode()).rename(entry_of(TEXT.encode()))  # a valid entry, under this file's name
    assert tomlcache.loads(TEXT)["a"]["x"][1] == 2.5


@pytest.mark.parametrize("mode", [0o664, 0o646])
def test_an_entry_others_may_write_is_not_read(cache: Path, mode: int, monkeypatch: pytest.MonkeyPatch) -> None:
    tomlcache.loads(TEXT)
    entry = entry_of(TEXT.encode())
    entry.chmod(mode)
    calls: list[str] = []
    import tomllib
    real = tomllib.loads
    monkeypatch.setattr(tomllib, "loads", lambda text: calls.append(text) or real(text))
    tomlcache.loads(TEXT)
    assert calls == [TEXT]  # parsed, not taken from the entry


def _poison(data: bytes, change: Any) -> Path:
    """Write an entry for ``data`` whose checksum holds but whose tree ``change`` altered."""
    import tomllib
    entry, key = tomlcache._entry_path(data)  # type: ignore[misc]
    tree = tomllib.loads(data.decode("utf-8"))
    change(tree)
    tomlcache._write(entry, key, tree)
    assert tomlcache._read(entry, key, tomlcache.max_entry_size(len(data))) == tree  # believed as an entry
    return entry


def test_an_entry_that_fails_validation_is_parsed_afresh_and_replaced(cache: Path) -> None:
    from shensha_plates.core.catalog import load_catalog
    data = LOWER.read_bytes()

    def bad_group(tree: dict[str, Any]) -> None:
        tree["spirit"][0]["group"] = "no_such_group"
    entry = _poison(data, bad_group)
    catalog = load_catalog()  # not an error naming resources/catalog/lower.toml
    assert catalog.spirits
    import tomllib
    key = tomlcache._entry_path(data)[1]  # type: ignore[index]
    assert tomlcache._read(entry, key, tomlcache.max_entry_size(len(data))) == tomllib.loads(data.decode())


def test_a_file_at_fault_is_still_named(cache: Path, tmp_path: Path) -> None:
    from shensha_plates.core.catalog import load_catalog
    from shensha_plates.core.errors import CatalogError
    bad = tmp_path / "bad.toml"
    bad.write_text(LOWER.read_text("utf-8").replace('group = "', 'group = "x', 1), "utf-8")
    for _ in range(2):  # parsed, then from the cache: the same error naming the file
        with pytest.raises(CatalogError, match="bad.toml"):
            load_catalog([bad])


# -- item 6: a damaged sources.toml (or its cache entry) --------------------------------------------------

def package_copy(tmp_path: Path) -> Path:
    root = tmp_path / "copy"
    shutil.copytree(REPO / "shensha_plates", root / "shensha_plates",
                    ignore=shutil.ignore_patterns("__pycache__", "*.otf"))
    fonts = root / "shensha_plates" / "resources" / "fonts"
    (fonts / "ShenshaSerif-Regular.otf").symlink_to(REPO / "shensha_plates" / "resources" / "fonts" / "ShenshaSerif-Regular.otf")
    return root


def run_in(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(root), QT_QPA_PLATFORM="offscreen")
    return subprocess.run([sys.executable, "-m", "shensha_plates.gui.shell.launcher", *args], cwd=root, env=env,
                          capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("damage", ['schema_version = 1\n[seed."000"]\nfile = 3\n', "x[\n", "\xff"])
@pytest.mark.parametrize("command", [["show", "--year", "丙午", "--month", "11", "--xun", "甲辰"], ["relate", "寅", "亥"],
                                     ["ke", "--day", "辛巳", "--hour", "午", "--general", "寅"],
                                     ["snapshot", "--year", "丙午", "--month", "11", "--xun", "甲辰", "-o", "p.svg"]])
def test_a_damaged_sources_file_is_one_line(tmp_path: Path, damage: str, command: list[str], cache: Path) -> None:
    root = package_copy(tmp_path)
    (root / "shensha_plates" / "resources" / "sources.toml").write_bytes(damage.encode("utf-8", "surrogateescape")
                                                                         if damage != "\xff" else b"\xff")
    proc = run_in(root, *command)
    assert "Traceback" not in proc.stderr, proc.stderr
    if command[0] != "relate":  # relate needs no book: it may succeed
        assert proc.returncode == 2 and proc.stderr.count("\n") == 1, proc.stderr
        assert "sources.toml" in proc.stderr


def test_a_damaged_cache_entry_of_sources_is_parsed_afresh(tmp_path: Path, cache: Path) -> None:
    data = (REPO / "shensha_plates" / "resources" / "sources.toml").read_bytes()

    def no_seeds(tree: dict[str, Any]) -> None:
        tree["seed"] = {"000": {"file": 3}}
    _poison(data, no_seeds)
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", SHENSHA_PLATES_CACHE_DIR=str(cache))
    proc = subprocess.run([sys.executable, "-m", "shensha_plates.gui.shell.launcher", "show", "--year", "丙午",
                           "--month", "11", "--xun", "甲辰", "--format", "json"], cwd=REPO, env=env, capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode == 0 and proc.stderr == "", proc.stderr
    assert json.loads(proc.stdout)["positions"]
    assert stat.S_ISREG(os.stat(entry_of(data)).st_mode)
