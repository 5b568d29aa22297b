"""The bundled font holds every character the program can show (in both scripts)."""

from __future__ import annotations

import importlib.util

from PySide6.QtGui import QRawFont

from tests.conftest import REPO

FONT = REPO / "shensha_plates" / "resources" / "fonts" / "ShenshaSerif-Regular.otf"


def test_every_character_shown_is_in_the_bundled_font(qapp: object) -> None:
    spec = importlib.util.spec_from_file_location("make_subset", REPO / "shensha_plates" / "resources" / "fonts" / "make_subset.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    raw = QRawFont(str(FONT), 24)
    assert raw.isValid()
    needed = [ch for ch in module.needed_text() if not ch.isspace()]
    missing = "".join(ch for ch in needed if not raw.supportsCharacter(ord(ch)))
    assert missing == "", f"re-run resources/fonts/make_subset.py: missing {missing!r}"
    assert len(needed) > 1000


def test_every_character_the_program_prints_is_in_the_bundled_font(qapp: object) -> None:
    """Not from the generator's own list: from running the program (every command in both scripts,
    the 720 lessons, the window's strings, the lesson panel and the walk-through), so that a character
    the generator's list forgot (父 and 母 of the kin, 给 of a step) fails here."""
    from tests.support.printed import printed_text

    raw = QRawFont(str(FONT), 24)
    shown = [ch for ch in printed_text() if not ch.isspace() and ord(ch) >= 0x80]
    assert len(shown) > 800
    missing = "".join(ch for ch in shown if not raw.supportsCharacter(ord(ch)))
    assert missing == "", f"re-run resources/fonts/make_subset.py: missing {missing!r}"
