"""The one reader and the one atomic writer of files (core/datafile.py): links, modes, long names,
stale temporary files, names that end in a slash, files that are not regular files."""

from __future__ import annotations

import os
import stat
import threading
import time
from pathlib import Path

import pytest

from shensha_plates.core.catalog import load_catalog
from shensha_plates.core.datafile import STALE_AFTER, output_path, read_file, write_atomic
from shensha_plates.core.schema import read_toml
from shensha_plates.core.errors import CatalogError
from tests.conftest import REPO

CATALOG_DIR = REPO / "shensha_plates" / "resources" / "catalog"


@pytest.fixture
def d(tmp_path: Path) -> Path:
    """An empty folder of the test's own (tmp_path also holds the test's home folder)."""
    folder = tmp_path / "work"
    folder.mkdir()
    return folder


def parts(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".part"))


def test_a_symbolic_link_is_written_through(d: Path) -> None:
    (d / "real").mkdir()
    target = d / "real" / "plate.png"
    target.write_bytes(b"old")
    link = d / "link.png"
    link.symlink_to(target)
    write_atomic(link, b"new")
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert target.read_bytes() == b"new"
    assert parts(d) == [] and parts(d / "real") == []


def test_a_relative_dangling_link_creates_its_target(d: Path) -> None:
    link = d / "lesson.json"
    link.symlink_to("made.json")
    write_atomic(link, b"{}")
    assert link.is_symlink() and (d / "made.json").read_bytes() == b"{}"


@pytest.mark.parametrize("mode", [0o600, 0o640, 0o444, 0o755])
def test_an_existing_files_mode_is_kept(d: Path, mode: int) -> None:
    target = d / "x.svg"
    target.write_bytes(b"old")
    target.chmod(mode)
    # a read-only file is replaced only when the user confirmed it (issue 24 item 13); it keeps its mode
    write_atomic(target, b"new", replace_read_only=not mode & 0o200)
    assert stat.S_IMODE(target.stat().st_mode) == mode and target.read_bytes() == b"new"


def test_a_new_file_gets_the_umask_mode(d: Path) -> None:
    old = os.umask(0o027)
    try:
        write_atomic(d / "new.pdf", b"x")
    finally:
        os.umask(old)
    assert stat.S_IMODE((d / "new.pdf").stat().st_mode) == 0o640


@pytest.mark.parametrize("new", [b"a longer content than before " * 100, b"s"])
def test_a_hard_link_is_kept_whole(d: Path, new: bytes) -> None:
    a = d / "a.json"
    a.write_bytes(b"old content")
    b = d / "b.json"
    os.link(a, b)
    write_atomic(a, new)
    assert a.stat().st_ino == b.stat().st_ino and a.stat().st_nlink == 2
    assert b.read_bytes() == new and a.read_bytes() == new
    assert parts(d) == []


@pytest.mark.parametrize("name", ["p" * 251 + ".png", "盘" * 81 + ".svg", "x" * 255])
def test_the_longest_legal_names_can_be_written(d: Path, name: str) -> None:
    assert len(name.encode()) <= 255
    write_atomic(d / name, b"data")
    assert (d / name).read_bytes() == b"data" and parts(d) == []


def test_a_name_too_long_fails_cleanly(d: Path) -> None:
    with pytest.raises(OSError):
        write_atomic(d / ("x" * 256), b"data")
    assert list(d.iterdir()) == []


def test_stale_temporary_files_of_ours_are_cleaned_and_nothing_else(d: Path) -> None:
    old = time.time() - STALE_AFTER - 60
    stale = [".shensha-0123456789abcdef.part", ".plate.png.a1b2_c3d.part"]
    kept_old = [".shensha-xyz.part", ".other.png.a1b2c3d4.part", "notes.part", ".shensha-0123456789abcdef.partial"]
    for n in stale + kept_old:
        (d / n).write_bytes(b"half")
        os.utime(d / n, (old, old))
    fresh = d / ".shensha-fedcba9876543210.part"  # a write in progress elsewhere
    fresh.write_bytes(b"busy")
    write_atomic(d / "plate.png", b"png")
    names = {p.name for p in d.iterdir()}
    assert not names & set(stale)
    assert set(kept_old) | {fresh.name, "plate.png"} == names


@pytest.mark.parametrize("name", ["nul.png/", "dir/.", "dir/..", ""])
def test_a_name_that_names_a_folder_is_refused(d: Path, name: str) -> None:
    (d / "dir").mkdir()
    os.chdir(d)
    with pytest.raises(IsADirectoryError):
        output_path(name)
    with pytest.raises(IsADirectoryError):
        write_atomic(name, b"x")  # type: ignore[arg-type]
    assert sorted(p.name for p in d.iterdir()) == ["dir"]


def test_writing_over_a_folder_or_a_fifo_is_refused(d: Path) -> None:
    (d / "d.png").mkdir()
    with pytest.raises(IsADirectoryError):
        write_atomic(d / "d.png", b"x")
    os.mkfifo(d / "f.png")
    with pytest.raises(OSError, match="not a regular file"):
        write_atomic(d / "f.png", b"x")
    assert parts(d) == []


def _never_blocks(fn: object, *args: object) -> BaseException | None:
    """Run fn(*args) in a thread; fail the test if it does not return within 5 s."""
    result: list[BaseException | None] = []

    def go() -> None:
        try:
            fn(*args)  # type: ignore[operator]
            result.append(None)
        except BaseException as e:  # noqa: B036 - handed back to the test
            result.append(e)

    t = threading.Thread(target=go, daemon=True)
    t.start()
    t.join(5)
    if t.is_alive():  # unblock the reader so the process can end
        fd = os.open(args[0], os.O_WRONLY | os.O_NONBLOCK)  # type: ignore[call-overload]
        os.close(fd)
        pytest.fail("blocked on a FIFO")
    return result[0]


def test_reading_never_blocks_on_a_fifo(d: Path) -> None:
    os.mkfifo(d / "rules.toml")
    e = _never_blocks(read_file, d / "rules.toml")
    assert isinstance(e, OSError) and "FIFO" in str(e)
    e = _never_blocks(lambda p: read_toml(str(p), p), d / "rules.toml")
    assert isinstance(e, CatalogError) and "FIFO" in str(e)


def _bad_file(kind: str, path: Path) -> None:
    if kind == "dangling link":
        path.symlink_to(path.parent / "nowhere.toml")
    elif kind == "folder":
        path.mkdir()
    elif kind == "fifo":
        os.mkfifo(path)
    else:  # no permission
        path.write_bytes(b"schema_version = 1\n")
        path.chmod(0)


BAD_KINDS = ["dangling link", "folder", "fifo",
             pytest.param("no permission", marks=pytest.mark.skipif(os.geteuid() == 0, reason="root reads anything"))]


@pytest.mark.parametrize("kind", BAD_KINDS)
def test_an_unreadable_catalog_file_is_one_catalog_error(d: Path, kind: str) -> None:
    paths = sorted(CATALOG_DIR.glob("*.toml"))
    bad = d / "extra.toml"
    _bad_file(kind, bad)
    e = _never_blocks(load_catalog, [*paths, bad])
    assert isinstance(e, CatalogError), e
    assert str(e).startswith(f"catalog {bad}: entry (file), field (file)") and "cannot be read" in str(e)


@pytest.mark.parametrize("kind", BAD_KINDS)
def test_an_unreadable_bundled_catalog_file_is_one_catalog_error(d: Path, kind: str,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    import shensha_plates.core.catalog
    root = d / "resources"
    (root / "catalog").mkdir(parents=True)
    for p in CATALOG_DIR.glob("*.toml"):
        (root / "catalog" / p.name).write_bytes(p.read_bytes())
    _bad_file(kind, root / "catalog" / "zz_extra.toml")
    monkeypatch.setattr(shensha_plates.core.catalog.importlib_resources, "files", lambda package: root)
    e = _never_blocks(load_catalog)
    assert isinstance(e, CatalogError), e
    assert str(e).startswith("catalog resources/catalog/zz_extra.toml: entry (file), field (file)")
