"""Snapshots: every format, identical bytes for identical input, atomic writes, the CLI and the
window's actions."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from PySide6.QtGui import QColor, QImage

from shensha_plates.core.engine import State, compute_plate
from shensha_plates.gui.shell.main_window import MainWindow
from shensha_plates.gui.export.options import ExportError, SnapshotOptions
from shensha_plates.gui.export.snapshot import export, render_image
from tests.conftest import REPO

PLATE = compute_plate(State.parse("丙午", 11, "甲辰", "庚戌"))


def _cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    env.pop("DISPLAY", None)
    return subprocess.run([sys.executable, "-m", "shensha_plates.gui.shell.launcher", "snapshot", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=180)


def test_png_decodes_is_not_blank_and_shows_the_branch_ring(tmp_path: Path, qapp: object) -> None:
    out = export(tmp_path / "p.png", PLATE, None, SnapshotOptions(fmt="png", width=1200))
    img = QImage(str(out))
    assert not img.isNull() and img.width() == 1200
    colours = {img.pixelColor(x, y).name() for x in range(0, 1200, 37) for y in range(0, img.height(), 37)}
    assert len(colours) > 20
    # the dark base ring of the branches: somewhere along the middle row there is near-black paint
    dark = [x for x in range(img.width()) for y in (img.height() // 6,) if img.pixelColor(x, y).lightness() < 80]
    mid_rows = [y for y in range(0, img.height() // 2, 5)
                if any(img.pixelColor(x, y).lightness() < 70 for x in range(0, img.width(), 5))]
    assert mid_rows, "no branch ring found"
    assert img.dotsPerMeterX() == round(150 / 0.0254)
    del dark


def test_transparent_png(tmp_path: Path, qapp: object) -> None:
    img = render_image(PLATE, None, SnapshotOptions(width=600, transparent=True, table=False))
    assert img.pixelColor(1, 1).alpha() == 0
    opaque = render_image(PLATE, None, SnapshotOptions(width=600, table=False))
    assert opaque.pixelColor(1, 1) == QColor("#ffffff")  # white paper by default
    cream = render_image(PLATE, None, SnapshotOptions(width=600, table=False, paper_look=True))
    assert cream.pixelColor(1, 1) == QColor("#fbf7ee")


def test_svg_is_xml_with_real_text(tmp_path: Path, qapp: object) -> None:
    out = export(tmp_path / "p.svg", PLATE, None, SnapshotOptions(fmt="svg"))
    root = ET.parse(out).getroot()
    texts = "".join(t.text or "" for t in root.iter() if t.tag.endswith("text"))
    for name in ("太岁", "月建", "天马", "丙午年"):
        assert name in texts, name


def test_pdf_pages_size_and_text(tmp_path: Path, qapp: object) -> None:
    pypdf = pytest.importorskip("pypdf")
    out = export(tmp_path / "p.pdf", PLATE, None, SnapshotOptions(fmt="pdf", paper="A4"))
    reader = pypdf.PdfReader(str(out))
    assert len(reader.pages) == 2
    box = reader.pages[0].mediabox
    assert (round(float(box.width)), round(float(box.height))) == (595, 842)
    text = reader.pages[0].extract_text() + reader.pages[1].extract_text()
    assert "丙午年" in text and "太岁" in text
    land = export(tmp_path / "l.pdf", PLATE, None, SnapshotOptions(fmt="pdf", paper="A3", landscape=True, table=False))
    r2 = pypdf.PdfReader(str(land))
    assert len(r2.pages) == 1
    assert (round(float(r2.pages[0].mediabox.width)), round(float(r2.pages[0].mediabox.height))) == (1191, 842)


@pytest.mark.parametrize("fmt", ["png", "svg", "pdf"])
def test_same_input_same_bytes(tmp_path: Path, fmt: str, qapp: object) -> None:
    a = export(tmp_path / f"a.{fmt}", PLATE, None, SnapshotOptions(fmt=fmt, width=900))
    b = export(tmp_path / f"b.{fmt}", PLATE, None, SnapshotOptions(fmt=fmt, width=900))
    assert a.read_bytes() == b.read_bytes()


def test_same_bytes_whatever_the_window_size(tmp_path: Path, window: MainWindow) -> None:
    window.model.set_state(PLATE.state)
    window.resize(1300, 820)
    assert window.export_to(str(tmp_path / "small.png"), SnapshotOptions(width=900))
    window.resize(2200, 1400)
    window.view.viewbox.scaleBy((0.5, 0.5))
    assert window.export_to(str(tmp_path / "large.png"), SnapshotOptions(width=900))
    direct = export(tmp_path / "direct.png", PLATE, None, SnapshotOptions(width=900))
    assert (tmp_path / "small.png").read_bytes() == (tmp_path / "large.png").read_bytes() == direct.read_bytes()


def test_unwritable_and_vanished_folders_leave_nothing(tmp_path: Path, qapp: object) -> None:
    with pytest.raises(ExportError, match="does not exist"):
        export(tmp_path / "gone" / "p.png", PLATE)
    ro = tmp_path / "ro"
    ro.mkdir()
    ro.chmod(stat.S_IRUSR | stat.S_IXUSR)
    try:
        if os.access(ro, os.W_OK):
            pytest.skip("running as a user who can write anywhere")
        with pytest.raises(ExportError, match="cannot write"):
            export(ro / "p.png", PLATE)
        assert list(ro.iterdir()) == []
    finally:
        ro.chmod(stat.S_IRWXU)


def test_a_failed_write_keeps_the_old_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, qapp: object) -> None:
    folder = tmp_path / "out"
    folder.mkdir()
    target = folder / "p.png"
    target.write_bytes(b"the teacher's old handout")
    real_fsync = os.fsync

    def broken(fd: int) -> None:
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(os, "fsync", broken)
    with pytest.raises(ExportError, match="No space left"):
        export(target, PLATE)
    monkeypatch.setattr(os, "fsync", real_fsync)
    assert target.read_bytes() == b"the teacher's old handout"
    assert sorted(p.name for p in folder.iterdir()) == ["p.png"]
    # a folder that refuses new files (as for a user without write permission)
    real_open = os.open

    def refuse(path: object, flags: int, *a: object, **k: object) -> int:
        if flags & os.O_CREAT:  # a new (temporary) file in the folder
            raise PermissionError(13, "Permission denied")
        return real_open(path, flags, *a, **k)  # type: ignore[arg-type]
    monkeypatch.setattr(os, "open", refuse)
    with pytest.raises(ExportError, match="Permission denied"):
        export(target, PLATE)
    assert target.read_bytes() == b"the teacher's old handout"


def test_bad_options() -> None:
    for opts, needle in ((SnapshotOptions(fmt="gif"), "invalid format"), (SnapshotOptions(width=5), "invalid size"),
                         (SnapshotOptions(dpi=5), "invalid dpi"), (SnapshotOptions(paper="B5"), "invalid paper")):
        with pytest.raises(ExportError, match=needle):
            opts.validate()


def test_cli_snapshot_every_format(tmp_path: Path) -> None:
    for name in ("p.pdf", "p.svg", "p.png"):
        proc = _cli("--year", "丙午", "--month", "11", "--xun", "甲辰", "--day", "庚戌", "-o", str(tmp_path / name),
                    "--size", "800", cwd=REPO)
        assert proc.returncode == 0, proc.stderr
        assert (tmp_path / name).stat().st_size > 1000
    proc = _cli("--date", "2026-12-02T18:00", "-o", str(tmp_path / "d.png"), "--size", "700", "--no-table",
                "--lang", "zh-Hant", cwd=REPO)
    assert proc.returncode == 0, proc.stderr


@pytest.mark.parametrize("args,needle", [
    (["--year", "丙午", "--month", "11", "--xun", "甲辰", "-o", "x.gif"], "cannot tell the format"),
    (["--year", "丙午", "--month", "11", "--xun", "甲辰", "-o", "{tmp}/none/x.png"], "does not exist"),
    (["--year", "丙午", "--month", "14", "--xun", "甲辰", "-o", "x.png"], "invalid month"),
    (["--year", "丙午", "--month", "11", "--xun", "甲辰", "-o", "x.png", "--size", "big"], "invalid --size"),
    (["--year", "丙午", "--month", "11", "--xun", "甲辰", "-o", "x.pdf", "--paper", "B5"], "invalid choice"),
    (["--year", "丙午", "--month", "11", "--xun", "甲辰"], "required"),
])
def test_cli_errors_are_one_line_and_leave_no_file(tmp_path: Path, args: list[str], needle: str) -> None:
    work = tmp_path / "work"
    work.mkdir()
    args = [a.replace("{tmp}", str(work)) for a in args]
    proc = _cli(*args, cwd=work)
    assert proc.returncode == 2
    assert needle in proc.stderr and proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr
    assert list(work.iterdir()) == []


def test_window_actions_export_print_and_copy(tmp_path: Path, window: MainWindow) -> None:
    from PySide6.QtGui import QGuiApplication
    from PySide6.QtPrintSupport import QPrinter
    assert window.export_to(str(tmp_path / "w.pdf"))
    assert (tmp_path / "w.pdf").read_bytes().startswith(b"%PDF")
    assert not window.export_to(str(tmp_path / "missing" / "w.png"))
    assert window.last_error and "does not exist" in window.last_error
    printer = QPrinter(QPrinter.PrinterMode.HighResolution)
    printer.setOutputFormat(QPrinter.OutputFormat.PdfFormat)
    printer.setOutputFileName(str(tmp_path / "printed.pdf"))
    window.print_to(printer)
    assert (tmp_path / "printed.pdf").stat().st_size > 1000
    window.copy_image()
    assert not QGuiApplication.clipboard().image().isNull()
    assert {"export", "print", "copy_image"} <= set(window.actions_by_name)
