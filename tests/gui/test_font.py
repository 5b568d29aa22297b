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
