"""The paper kit (``snapshot --kit``): discs true to scale that nest on one pin, names of 8 pt or more,
each disc on its page with its title, the instructions with Zhuang's example, and bad input refused."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from pypdf import PdfReader

from shensha_plates.commands import main
from shensha_plates.core.cycle import BRANCHES
from shensha_plates.core.engine import State, compute_plate
from shensha_plates.gui.export.kit import MIN_PT, PAPERS, kit_geometry


@pytest.mark.parametrize("paper", list(PAPERS))
def test_the_discs_nest_and_fit_the_paper(paper: str) -> None:
    geo = kit_geometry(paper)
    assert geo.font_pt >= MIN_PT
    width = PAPERS[paper][0]
    for plate in ("lower", "upper"):
        discs = [d for d in geo.discs if d.plate == plate]
        base, rings = discs[0], discs[1:]
        assert base.id == f"base-{plate}" and 2 * base.r_out <= width - 2 * 10  # the base fits, margins kept
        assert base.r_in >= rings[0].r_out - 1e-9  # the largest disc lies inside the ring of branches
        for big, small in zip(rings, rings[1:], strict=False):
            assert big.r_out > small.r_out  # each next disc is smaller …
            assert big.r_in >= small.r_out - 1e-9  # … and leaves the bigger one's names in view
        assert all(d.r_out - d.r_in >= geo.unit_mm for d in rings)
    assert kit_geometry("A3").unit_mm > kit_geometry("A4").unit_mm


def test_the_kit_pdf(tmp_path: Path, qapp: object) -> None:
    path = tmp_path / "kit.pdf"
    assert main(["snapshot", "--kit", "-o", str(path)], out=io.StringIO(), err=io.StringIO()) == 0
    reader = PdfReader(str(path))
    geo = kit_geometry("A4")
    assert len(reader.pages) == 1 + len(geo.discs)
    box = reader.pages[0].mediabox
    assert round(float(box.width) / 72 * 25.4) == 210 and round(float(box.height) / 72 * 25.4) == 297
    first = reader.pages[0].extract_text()
    assert "子年、正月、甲子旬" in first.replace(" ", "")
    for disc, page in zip(geo.discs, reader.pages[1:], strict=True):
        assert disc.title in page.extract_text().replace(" ", ""), disc.id
    # the example's column: where each disc's pointer goes for 子年 正月 甲子旬 is the engine's anchor
    plate = compute_plate(State.parse("子", 1, "甲子"))
    assert BRANCHES[plate.ring("U1").anchor] == "子" and BRANCHES[plate.ring("L2").anchor] == "寅"


@pytest.mark.parametrize("argv, words", [
    (["--kit", "-o", "kit.png"], "PDF"),
    (["--kit", "--paper", "Letter", "-o", "kit.pdf"], "A4 or A3"),
])
def test_bad_kit_requests_are_one_line(tmp_path: Path, argv: list[str], words: str, qapp: object) -> None:
    err = io.StringIO()
    argv = [a if not a.startswith("kit.") else str(tmp_path / a) for a in argv]
    assert main(["snapshot", *argv], out=io.StringIO(), err=err) == 2
    assert words in err.getvalue() and err.getvalue().count("\n") == 1
    assert not any(tmp_path.glob("kit.*"))


def test_the_window_writes_the_kit(tmp_path: Path, qtbot: object) -> None:
    from shensha_plates.gui.shell.main_window import MainWindow
    from shensha_plates.gui.shell.settings import Settings
    w = MainWindow(settings=Settings(tmp_path / "s.ini"))
    qtbot.addWidget(w)  # type: ignore[attr-defined]
    assert w.actions_by_name["export_kit"] in w.menu_file.actions()
    assert w.export_kit_to(str(tmp_path / "k.pdf"), "A3")
    assert len(PdfReader(str(tmp_path / "k.pdf")).pages) == 1 + len(kit_geometry("A3").discs)
    assert not w.export_kit_to(str(tmp_path / "no" / "k.pdf"))
    assert w.last_error is not None
