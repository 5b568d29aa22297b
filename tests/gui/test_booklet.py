"""The year booklet: its pages in order with their numbers, a cancel that leaves nothing behind, the
command line (progress line, bad arguments) and the window's entry."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from pytestqt.qtbot import QtBot
from shensha_plates.core.engine import MONTH_NAMES
from shensha_plates.core.cycle import XUN_HEADS
from shensha_plates.gui.export.booklet import BookletCancelled, BookletOptions, booklet_pages, write_booklet
from tests.conftest import REPO

pypdf = pytest.importorskip("pypdf")


def _texts(path: Path) -> list[str]:
    return [re.sub(r"[ \t]+", " ", p.extract_text()) for p in pypdf.PdfReader(str(path)).pages]


@pytest.fixture(scope="module")
def booklet_texts(booklet: Path) -> list[str]:
    return _texts(booklet)


@pytest.fixture(scope="module")
def booklet(tmp_path_factory: pytest.TempPathFactory, qapp: object) -> Path:
    out = tmp_path_factory.mktemp("booklet") / "2026.pdf"
    seen: list[tuple[int, int]] = []
    write_booklet(out, BookletOptions.parse("丙午"), progress=lambda d, n, w: seen.append((d, n)) or True)
    assert seen[0] == (0, 26) and seen[-1] == (26, 26)
    assert [d for d, _ in seen] == list(range(27))
    return out


def test_booklet_pages_in_order(booklet_texts: list[str]) -> None:
    pages = booklet_pages()
    texts = booklet_texts
    assert len(texts) == len(pages) == 2 + 12 * 2
    assert [p.number for p in pages] == list(range(1, 27))
    flat = [re.sub(r"\s", "", t) for t in texts]
    # cover: the year plate under the title
    assert "丙午年全年神煞" in flat[0] and "上位圆图" in flat[0] and "太岁" in flat[0]
    # contents: every month, with the page each starts on
    assert "目录" in flat[1]
    for m, name in enumerate(MONTH_NAMES, start=1):
        assert f"丙午年{name}甲子旬下位圆图{1 + 2 * m}" in flat[1], name
    # each month: the plates (with the month's label and both plates), then the table page
    for m, name in enumerate(MONTH_NAMES, start=1):
        plates, table = flat[2 * m], flat[2 * m + 1]
        assert f"丙午年{name}甲子旬" in plates and "上位圆图" in plates and "下位圆图" in plates
        assert "月建" in plates
        assert f"本月方图丙午年{name}甲子旬" in table
        for branch in "子丑寅卯辰巳午未申酉戌亥":
            assert branch in table
    # page numbers on every page after the cover
    for n, text in enumerate(texts, start=1):
        if n > 1:
            assert f"— {n} —" in text, n


def test_the_month_tables_follow_the_month(booklet_texts: list[str]) -> None:
    """天德 (a month square-table spirit) stands where its table puts it for each month: 丁 in 正月,
    坤 in 二月, 壬 in 三月 (the table's first columns, seed 002)."""
    from shensha_plates.core.engine import spirit_row
    row = spirit_row("tian_de")[1]
    flat = [re.sub(r"\s", "", t) for t in booklet_texts]
    for m in (1, 2, 3):
        assert "天德" + "".join(row[m - 1]) in flat[2 * m + 1], m


def test_a3_landscape_booklet(tmp_path: Path, qapp: object) -> None:
    from shensha_plates.gui.plate.scene import ViewConfig
    # the window's one-plate view does not leave a plate out of the booklet
    opts = BookletOptions.parse("午", paper="A3", landscape=True, view=ViewConfig(plate="lower"))
    out = write_booklet(tmp_path / "a3.pdf", opts)
    reader = pypdf.PdfReader(str(out))
    assert len(reader.pages) == 26
    box = reader.pages[5].mediabox
    assert (round(float(box.width)), round(float(box.height))) == (1191, 842)
    text = re.sub(r"\s", "", reader.pages[4].extract_text())
    assert "上位圆图" in text and "下位圆图" in text and "太岁" in text and "月建" in text


def test_a_cancelled_booklet_leaves_no_file(tmp_path: Path, qapp: object) -> None:
    folder = tmp_path / "out"
    folder.mkdir()
    target = folder / "year.pdf"
    with pytest.raises(BookletCancelled):
        write_booklet(target, BookletOptions.parse("丙午"), progress=lambda d, n, w: d < 5)
    assert list(folder.iterdir()) == []
    target.write_bytes(b"last year's booklet")
    with pytest.raises(BookletCancelled):
        write_booklet(target, BookletOptions.parse("丙午"), progress=lambda d, n, w: d < 25)
    assert target.read_bytes() == b"last year's booklet"
    assert [p.name for p in folder.iterdir()] == ["year.pdf"]


def test_the_progress_dialog_cancel_button_stops_it(tmp_path: Path, qtbot: QtBot) -> None:
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication, QProgressDialog, QWidget

    from shensha_plates.gui.export.booklet_dialog import make_booklet
    parent = QWidget()
    qtbot.addWidget(parent)
    pressed: list[int] = []

    def press_cancel() -> None:
        for dlg in parent.findChildren(QProgressDialog):
            if dlg.isVisible() and dlg.value() >= 3:
                pressed.append(dlg.value())
                dlg.cancel()
                return
        QTimer.singleShot(5, press_cancel)
    QTimer.singleShot(5, press_cancel)
    folder = tmp_path / "out"
    folder.mkdir()
    assert make_booklet(parent, folder / "b.pdf", BookletOptions.parse("丙午")) is None
    assert pressed and pressed[0] < 26
    assert list(folder.iterdir()) == []
    QApplication.processEvents()
    # and without a cancel the same call writes the whole booklet
    done = make_booklet(parent, folder / "b.pdf", BookletOptions.parse("丙午", paper="A3"))
    assert done is not None and len(pypdf.PdfReader(str(done)).pages) == 26


def test_the_file_menu_has_the_booklet(tmp_path: Path, window: object) -> None:
    act = window.actions_by_name["booklet"]  # type: ignore[attr-defined]
    assert act in window.menu_file.actions()  # type: ignore[attr-defined]
    assert act.text() == "全年年历（PDF）…"


def _cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    env.pop("DISPLAY", None)
    proc = subprocess.run([sys.executable, "-m", "shensha_plates.gui.shell.launcher", "booklet", *args], cwd=cwd, env=env,
                          capture_output=True, timeout=300)
    # decoded by hand: text mode would turn the progress line's carriage returns into newlines
    return subprocess.CompletedProcess(proc.args, proc.returncode, proc.stdout.decode(), proc.stderr.decode())


def test_cli_booklet_with_a_progress_line(tmp_path: Path) -> None:
    proc = _cli("--year", "丙午", "-o", str(tmp_path / "2026.pdf"), "--paper", "A4", cwd=REPO)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == str(tmp_path / "2026.pdf")
    # one line on the terminal, rewritten in place for every page
    assert proc.stderr.count("\n") == 1 and proc.stderr.count("\r") == 27 and "26/26" in proc.stderr
    assert len(pypdf.PdfReader(str(tmp_path / "2026.pdf")).pages) == 26


@pytest.mark.parametrize("args,needle", [
    (["--year", "丙子午", "-o", "b.pdf"], "invalid year"),
    (["--year", "丙午", "-o", "b.pdf", "--paper", "Letter"], "invalid choice"),
    (["--year", "丙午", "-o", "b.pdf", "--xun", "乙丑"], "invalid xun"),
    (["--year", "丙午", "-o", "b.png"], "should end in .pdf"),
    (["--year", "丙午", "-o", "{tmp}/none/b.pdf"], "does not exist"),
    (["--year", "丙午", "-o", "b.pdf", "--variant", "nobody=x"], "variant"),
    (["-o", "b.pdf"], "required"),
    (["--year", "丙午"], "required"),
])
def test_cli_booklet_bad_arguments(tmp_path: Path, args: list[str], needle: str) -> None:
    work = tmp_path / "work"
    work.mkdir()
    proc = _cli(*[a.replace("{tmp}", str(work)) for a in args], cwd=work)
    assert proc.returncode == 2
    assert needle in proc.stderr and proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr
    assert list(work.iterdir()) == []


def test_the_booklet_dialog_gives_the_chosen_options(qtbot: QtBot) -> None:
    from shensha_plates.gui.export.booklet_dialog import BookletDialog
    dlg = BookletDialog(BookletOptions.parse("丙午", "甲辰", lang="zh-Hans"))
    qtbot.addWidget(dlg)
    assert dlg.year.currentText() == "丙午" and dlg.xun.currentText() == "甲辰"
    dlg.year.setCurrentText("丁未")
    dlg.paper.setCurrentText("A3")
    dlg.landscape.setChecked(True)
    dlg.paper_look.setChecked(True)
    opts = dlg.options()
    assert (opts.year_name, XUN_HEADS[opts.first.xun], opts.paper, opts.landscape, opts.paper_look) == ("丁未", "甲辰", "A3", True, True)
    opts.validate()


def test_the_export_dialog_remembers_the_paper_look(tmp_path: Path, qapp: object) -> None:
    from PySide6.QtCore import QSettings

    from shensha_plates.gui.export.dialog import ExportOptionsDialog, load_snapshot_options, save_snapshot_options
    from shensha_plates.gui.export.options import SnapshotOptions
    q = QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)
    assert load_snapshot_options(q, SnapshotOptions()).paper_look is False
    dlg = ExportOptionsDialog(SnapshotOptions(), "zh-Hans")
    dlg.checks["paper_look"].setChecked(True)
    save_snapshot_options(q, dlg.options())
    assert load_snapshot_options(q, SnapshotOptions()).paper_look is True
    dlg.deleteLater()
