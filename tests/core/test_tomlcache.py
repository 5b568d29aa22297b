"""The cache of parsed TOML: the same tree as tomllib, never stale, never trusted when damaged, never
an error of its own; and a cached catalog file is validated as strictly as a new one."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from shensha_plates.core import tomlcache
from shensha_plates.core.catalog import load_catalog
from shensha_plates.core.errors import CatalogError

TEXT = 'schema_version = 1\n[a]\nx = [1, 2.5, "三", true]\ny = { z = -3 }\n'


def _entries(folder: Path) -> list[Path]:
    return sorted(folder.glob("toml-*.json"))


def test_a_second_read_comes_from_the_cache_and_equals_tomllib(tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SHENSHA_PLATES_CACHE_DIR", str(tmp_path))
    first = tomlcache.loads(TEXT)
    assert first == tomllib.loads(TEXT)
    [entry] = _entries(tmp_path)
    calls: list[str] = []
    monkeypatch.setattr(tomllib, "loads", lambda text: calls.append(text) or {})  # type: ignore[func-returns-value]
    second = tomlcache.loads(TEXT)
    assert calls == [] and second == first and second is not first
    assert not list(tmp_path.glob(".toml-*"))  # no temporary file left behind
    assert entry.exists()


def test_a_changed_file_is_parsed_afresh_and_its_faults_reported(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SHENSHA_PLATES_CACHE_DIR", str(tmp_path))
    tomlcache.loads(TEXT)
    changed = TEXT.replace("-3", "4")
    assert tomlcache.loads(changed)["a"]["y"]["z"] == 4
    with pytest.raises(tomllib.TOMLDecodeError):
        tomlcache.loads(TEXT + "[a\n")
    assert len(_entries(tmp_path)) == 2  # the broken text was not cached


@pytest.mark.parametrize("damage", ["truncate", "flip", "garbage", "empty", "other_format", "folder"])
def test_a_damaged_entry_is_ignored_and_rebuilt(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                damage: str) -> None:
    monkeypatch.setenv("SHENSHA_PLATES_CACHE_DIR", str(tmp_path))
    tomlcache.loads(TEXT)
    [entry] = _entries(tmp_path)
    raw = entry.read_bytes()
    if damage == "truncate":
        entry.write_bytes(raw[: len(raw) // 2])
    elif damage == "flip":
        entry.write_bytes(raw.replace(b"2.5", b"7.5"))  # valid JSON, wrong content: the checksum catches it
    elif damage == "garbage":
        entry.write_bytes(b"\xff\xfe\x00 not json")
    elif damage == "empty":
        entry.write_bytes(b"")
    elif damage == "other_format":
        import hashlib
        payload = b'{"format": 999, "data": {"schema_version": 2}}'
        entry.write_bytes(hashlib.sha256(payload).hexdigest().encode() + b"\n" + payload)
    else:
        entry.unlink()
        entry.mkdir()
    assert tomlcache.loads(TEXT) == tomllib.loads(TEXT)
    if damage != "folder":
        assert tomlcache.loads(TEXT) == tomllib.loads(TEXT)
        assert entry.read_bytes() != b"" and b"7.5" not in entry.read_bytes()


def test_an_unwritable_cache_costs_only_the_parse(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the cache folder would be")
    monkeypatch.setenv("SHENSHA_PLATES_CACHE_DIR", str(blocker / "cache"))
    assert tomlcache.loads(TEXT) == tomllib.loads(TEXT)
    assert tomlcache.loads(TEXT) == tomllib.loads(TEXT)


def test_dates_are_not_cached(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SHENSHA_PLATES_CACHE_DIR", str(tmp_path))
    text = "when = 2026-12-03T10:00:00Z\n"
    assert tomlcache.loads(text) == tomllib.loads(text)
    assert _entries(tmp_path) == []


def test_the_cache_follows_xdg_and_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SHENSHA_PLATES_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert tomlcache.cache_dir() == tmp_path / "xdg" / "shensha-plates"
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/ignored")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert tomlcache.cache_dir() == tmp_path / "home" / ".cache" / "shensha-plates"


def test_a_cached_catalog_file_is_validated_in_full(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SHENSHA_PLATES_CACHE_DIR", str(tmp_path / "cache"))
    fresh = load_catalog()
    cached = load_catalog()  # every file now comes from the cache
    assert len(_entries(tmp_path / "cache")) >= 3
    assert cached.spirits == fresh.spirits and cached.rings == fresh.rings
    # a fault that only validation finds (the TOML itself is fine) is raised from a cached tree too
    root = Path(__file__).resolve().parents[2] / "shensha_plates" / "resources" / "catalog"
    bad = tmp_path / "upper.toml"
    bad.write_text((root / "upper.toml").read_text("utf-8").replace('plate = "upper"', 'plate = "middle"', 1),
                   "utf-8")
    errors = []
    for _ in range(2):
        with pytest.raises(CatalogError) as info:
            load_catalog([bad])
        errors.append(str(info.value))
    assert errors[0] == errors[1] and "middle" in errors[0]
    assert len(_entries(tmp_path / "cache")) >= 4  # the bad file's tree was cached, and still refused
