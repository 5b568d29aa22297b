"""Source lines in the window and in snapshots name the book, never a seed's file name (issue 15)."""

from __future__ import annotations

import re

import pytest

from shensha_plates.core.catalog import SEED_BOOKS, default_catalog
from shensha_plates.core.engine import State, compute_plate
from shensha_plates.core.relations import relate
from shensha_plates.core.selection import selection_plate
from shensha_plates.gui.describe import branch_html, relations_html, spirit_html
from shensha_plates.gui.export.page_paint import source_line
from shensha_plates.gui.panels.selection import selection_html

FILE_NAME = re.compile(r"\d{3}_[0-9a-f]{16}|\.txt")


@pytest.mark.parametrize("lang", ["zh-Hans", "zh-Hant"])
def test_details_panel_names_the_book(lang: str) -> None:
    cat = default_catalog()
    plate = compute_plate(State(year_branch=0, month=1, xun=0, year_stem=0, day=0))
    for b in range(12):
        text = branch_html(plate, b, cat, lang)
        assert not FILE_NAME.search(text)
    book = SEED_BOOKS["002"][2 if lang == "zh-Hant" else 1]
    assert book in spirit_html(cat.spirit("tai_yang"), lang)
    # a reading from outside the seeds names its book too
    assert "《大六壬指南》卷四 方" in spirit_html(cat.spirit("you_shen"), "zh-Hans")


def test_other_systems_name_their_books() -> None:
    assert SEED_BOOKS["001"][1] in relations_html("寅", "亥", relate("寅", "亥"))
    sel = selection_html(selection_plate(0, 0, 1))
    assert SEED_BOOKS["004"][1] in sel and not FILE_NAME.search(sel)


@pytest.mark.parametrize("lang", ["zh-Hans", "zh-Hant"])
def test_snapshot_source_line_names_the_book_from_the_data(lang: str) -> None:
    line = source_line(lang)
    assert SEED_BOOKS["002"][2 if lang == "zh-Hant" else 1] in line and not FILE_NAME.search(line)


def test_snapshot_with_a_rejected_reading_warns(tmp_path: object, qapp: object) -> None:
    import io
    from pathlib import Path

    from shensha_plates.gui.export.cli import main
    out, err = io.StringIO(), io.StringIO()
    target = Path(str(tmp_path)) / "p.svg"
    code = main(["--year", "子", "--month", "1", "--xun", "甲子", "-o", str(target), "--size", "600",
                 "--variant", "tian_xi=shun_twelve"], out, err)
    assert code == 0 and target.is_file()
    assert err.getvalue().count("\n") == 1 and "tian_xi=shun_twelve" in err.getvalue() and "warning" in err.getvalue()
