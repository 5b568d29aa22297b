"""The rings' resting bitmaps kept between starts (gui/plate/bitmap_cache.py): a second start
draws no name again and looks exactly the same; another state, a damaged file or a folder that
cannot be written never shows a wrong bitmap or stops the window. Each start is a real process,
as a user's starts are."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from shensha_plates.gui.plate import bitmap_cache

ROOT = Path(__file__).resolve().parents[2]

_START = """\
import json, os, sys
from shensha_plates.commands import parse
from shensha_plates.gui.shell.app import open_window
from shensha_plates.gui.shell.launcher import window_start
from shensha_plates.gui.plate import bitmap_cache
from PySide6.QtWidgets import QApplication
w = open_window([], start=window_start(parse(["gui", *sys.argv[2:]])))
QApplication.processEvents()
w.view.grab().save(sys.argv[1])
print(json.dumps(bitmap_cache.stats()))
"""


def _start(tmp: Path, cache: Path, name: str, *state: str) -> tuple[dict[str, int], bytes]:
    """Open the window in a fresh process with ``cache`` as the cache folder; its use of the cache
    and the plate's pixels."""
    png = tmp / f"{name}.png"
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", SHENSHA_PLATES_CACHE_DIR=str(cache),
               SHENSHA_PLATES_CONFIG_DIR=str(tmp / f"config-{name}"), SHENSHA_REDUCE_MOTION="1")
    proc = subprocess.run([sys.executable, "-c", _START, str(png), *state], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=180)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "Traceback" not in proc.stderr, proc.stderr[-2000:]
    from PySide6.QtGui import QImage
    img = QImage(str(png)).convertToFormat(QImage.Format.Format_ARGB32)
    return json.loads(proc.stdout.strip().splitlines()[-1]), bytes(img.constBits())


STATE_A = ("--year", "丙午", "--month", "11", "--xun", "甲辰")
STATE_B = ("--year", "丙午", "--month", "3", "--xun", "甲子")


def test_second_start_draws_nothing_again_and_looks_the_same(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    first, pixels = _start(tmp_path, cache, "first", *STATE_A)
    assert first["hits"] == 0 and first["drawn"] > 50  # every slot drawn, and kept
    assert (cache / bitmap_cache.FILE_NAME).is_file()
    second, again = _start(tmp_path, cache, "second", *STATE_A)
    assert second["drawn"] == 0 and second["hits"] == first["drawn"]
    assert again == pixels


def test_another_state_never_gets_a_stale_bitmap(tmp_path: Path) -> None:
    """Kept from state A, started at state B: the rings that did not change come from the file, the
    others are drawn, and the plate is pixel for pixel the one drawn with no cache at all."""
    cache = tmp_path / "cache"
    _start(tmp_path, cache, "a", *STATE_A)
    used, pixels = _start(tmp_path, cache, "b", *STATE_B)
    fresh, expected = _start(tmp_path, tmp_path / "empty", "b-fresh", *STATE_B)
    assert 0 < used["hits"] < fresh["drawn"] and used["drawn"] > 0  # the year's rings kept, the month's drawn
    assert pixels == expected


def _truncate(f: Path) -> None:
    f.write_bytes(f.read_bytes()[:-1000])


def _flip_a_pixel(f: Path) -> None:
    data = bytearray(f.read_bytes())
    data[-7] ^= 0xFF
    f.write_bytes(bytes(data))


def _fifo(f: Path) -> None:
    f.unlink()
    os.mkfifo(f)


def _writable_by_others(f: Path) -> None:
    f.chmod(0o666)


@pytest.mark.parametrize("damage", [
    _flip_a_pixel,
    pytest.param(_truncate, marks=pytest.mark.slow),
    pytest.param(_fifo, marks=pytest.mark.slow),
    pytest.param(_writable_by_others, marks=pytest.mark.slow),
])
def test_a_damaged_file_is_drawn_afresh_and_replaced(tmp_path: Path, damage: object) -> None:
    cache = tmp_path / "cache"
    _, pixels = _start(tmp_path, cache, "first", *STATE_A)
    damage(cache / bitmap_cache.FILE_NAME)  # type: ignore[operator]
    used, again = _start(tmp_path, cache, "damaged", *STATE_A)
    assert used["hits"] == 0 and used["drawn"] > 50
    assert again == pixels
    if not (cache / bitmap_cache.FILE_NAME).is_fifo():
        third, _ = _start(tmp_path, cache, "third", *STATE_A)
        assert third["drawn"] == 0  # written anew


def test_a_folder_that_cannot_be_written_costs_only_the_drawing(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    used, pixels = _start(tmp_path, blocker / "cache", "nowhere", *STATE_A)
    assert used["hits"] == 0 and used["drawn"] > 50
    assert blocker.read_text() == "not a folder"
    _, expected = _start(tmp_path, tmp_path / "cache", "somewhere", *STATE_A)
    assert pixels == expected


def test_the_digest_changes_with_whatever_the_drawing_reads(qapp: object) -> None:
    from dataclasses import replace

    from PySide6.QtGui import QColor

    from shensha_plates.gui.plate.slot_paint import METRICS, SlotEntry
    from shensha_plates.gui.style import PALETTE
    entry = (SlotEntry("taisui", "太岁", "bad"),)
    base = bitmap_cache.digest(entry, 1.0, lasting=(PALETTE, METRICS))
    assert bitmap_cache.digest(entry, 1.0, lasting=(PALETTE, METRICS)) == base
    assert bitmap_cache.digest((SlotEntry("taisui", "太歲", "bad"),), 1.0, lasting=(PALETTE, METRICS)) != base
    assert bitmap_cache.digest(entry, 1.5, lasting=(PALETTE, METRICS)) != base
    assert bitmap_cache.digest(entry, 1.0, lasting=(replace(PALETTE, bad=QColor("#000000")), METRICS)) != base
    assert bitmap_cache.digest(entry, 1.0, lasting=(PALETTE, replace(METRICS, gap=0.2))) != base
