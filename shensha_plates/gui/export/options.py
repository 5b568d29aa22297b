"""What a snapshot is asked for: :class:`SnapshotOptions` (format, size, paper, what the page shows,
the language and the view; the view drawn on white paper unless the paper look is asked for) and
their checks, the papers, the format a file name asks for, and the errors of an export
(:class:`ExportError`, :class:`ReadOnlyError`).
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Final

from PySide6.QtGui import QPageSize

from shensha_plates.core.datafile import output_path
from shensha_plates.core.lang import is_lang
from shensha_plates.core.liuren import Ke
from shensha_plates.core.liuren.lodging import DayFacts
from shensha_plates.core.liuren.nianming import NianMing
from shensha_plates.core.errors import ShenshaError
from shensha_plates.gui.plate.scene import PrintView, ViewConfig
from shensha_plates.gui.style import Palette

__all__ = ["SnapshotOptions", "ExportError", "ReadOnlyError", "PAPERS", "FORMATS", "MAX_SIDE", "format_from_path"]

PAPERS: Final = {"A4": QPageSize.PageSizeId.A4, "A3": QPageSize.PageSizeId.A3,
                 "Letter": QPageSize.PageSizeId.Letter}


FORMATS: Final = ("png", "svg", "pdf")


MAX_SIDE: Final = 20000  # pixels, either side of a PNG


class ExportError(ShenshaError, ValueError):
    """A snapshot cannot be written (bad options, unwritable or vanished folder, full disk…)."""


class ReadOnlyError(ExportError):
    """The file to be replaced is read-only (the window asks whether to replace it anyway)."""


@dataclass(frozen=True)
class SnapshotOptions:
    fmt: str = "png"
    width: int = 2400             # PNG pixel width (height follows the page)
    height: int | None = None     # PNG pixel height; None: from the page's shape
    dpi: int = 150                # PNG resolution stored in the file; PDF resolution
    paper: str = "A4"
    landscape: bool = False
    table: bool = True
    legend: bool = True
    caption: bool = True
    source: bool = True
    transparent: bool = False
    lang: str = "zh-Hans"
    view: ViewConfig = field(default_factory=ViewConfig)
    lesson: Ke | None = None      # include this lesson (课传): heaven rings drawn, lesson rows in the table
    nian_ming: NianMing | None = None  # the querent's years on that lesson (a row of the table)
    day: DayFacts | None = None   # the date's day (天祸 天寇 二烦 read it), when the lesson is a date's
    paper_look: bool = False      # the cream "paper" of the screen instead of white

    @property
    def render_view(self) -> ViewConfig:
        """The view the plates are drawn with: white paper unless the paper look or high contrast
        (already white) is asked for."""
        if self.paper_look or self.view.high_contrast or isinstance(self.view, PrintView):
            return self.view
        return PrintView(**{f.name: getattr(self.view, f.name) for f in fields(self.view)})

    @property
    def palette(self) -> Palette:
        return self.render_view.palette

    def validate(self) -> SnapshotOptions:
        if self.fmt not in FORMATS:
            raise ExportError(f"invalid format: {self.fmt!r} (expected one of {', '.join(FORMATS)})")
        if not 64 <= self.width <= MAX_SIDE or (self.height is not None and not 64 <= self.height <= MAX_SIDE):
            raise ExportError(f"invalid size: {self.width}×{self.height or 'auto'} (expected 64–{MAX_SIDE} pixels a side)")
        if not 36 <= self.dpi <= 2400:
            raise ExportError(f"invalid dpi: {self.dpi} (expected 36–2400)")
        if self.paper not in PAPERS:
            raise ExportError(f"invalid paper: {self.paper!r} (expected one of {', '.join(PAPERS)})")
        if not is_lang(self.lang):
            raise ExportError(f"invalid language: {self.lang!r} (expected zh-Hans, zh-Hant or en)")
        return self


def format_from_path(path: str) -> str:
    try:
        ext = output_path(path).suffix.lower().lstrip(".")
    except OSError as e:
        raise ExportError(f"cannot write {path!r}: {e.strerror or e}") from None
    if ext not in FORMATS:
        raise ExportError(f"cannot tell the format of {path!r} (expected a name ending in .png, .svg or .pdf)")
    return ext
