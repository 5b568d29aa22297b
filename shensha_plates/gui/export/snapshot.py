"""Plate snapshots: a page (not a screenshot) as PNG, SVG, PDF, print or clipboard image, and the file.

A snapshot renders fresh plate items in a plain scene at a fixed rectangle, with an explicit size,
so that the same state and options give the same file whatever the window or screen. The page holds
the plates, a caption with the state in words (and the date and conventions when it came from a
date), optionally the spirits under each branch as a table, a legend of colours and marks, and the
source line. What is asked for is :mod:`~shensha_plates.gui.export.options`, where each part goes
:mod:`~shensha_plates.gui.export.page_layout`, the painting :mod:`~shensha_plates.gui.export.page_paint`;
this module makes the image, SVG or PDF of the page and writes the file: to a temporary file beside
the target, renamed into place, so a failure never leaves a partial file behind.
"""

from __future__ import annotations

import os
import uuid
from dataclasses import replace
from pathlib import Path

from PySide6.QtCore import (QBuffer, QIODevice, QMarginsF, QMessageLogContext, QRectF, QtMsgType,
                            QUuid, qInstallMessageHandler)
from PySide6.QtGui import QColor, QImage, QPageLayout, QPageSize, QPainter, QPdfWriter

from shensha_plates.core.datafile import ReadOnlyTarget, output_path, refuse_read_only
from shensha_plates.core.datafile import write_atomic as core_write_atomic
from shensha_plates.core.calendar import CalendarInfo
from shensha_plates.core.catalog import Catalog, default_catalog
from shensha_plates.core.engine import Plate
from shensha_plates.gui.describe import state_label
from shensha_plates.gui.export.encode import encode_png, pin_pdf_dates
from shensha_plates.gui.export.options import PAPERS, ExportError, ReadOnlyError, SnapshotOptions
from shensha_plates.gui.export.page_layout import pdf_dpi, png_size
from shensha_plates.gui.export.page_paint import paint_pages, source_line

__all__ = ["export", "checked_target", "write_atomic", "render_image"]

def render_image(plate: Plate, calendar: CalendarInfo | None, opts: SnapshotOptions,
                 catalog: Catalog | None = None) -> QImage:
    cat = catalog or default_catalog()
    w, h = png_size(plate, opts, cat)
    # an opaque page needs no alpha channel: a third less to encode, and a smaller file
    img = _blank_image(w, h, opaque=not opts.transparent)
    img.fill(QColor(0, 0, 0, 0) if opts.transparent else opts.palette.paper)
    dots_per_m = round(opts.dpi / 0.0254)
    img.setDotsPerMeterX(dots_per_m)
    img.setDotsPerMeterY(dots_per_m)
    p = QPainter(img)
    try:
        paint_pages(p, QRectF(0, 0, w, h), plate, calendar, opts, cat)
    finally:
        p.end()
    return img


def _blank_image(w: int, h: int, opaque: bool = False) -> QImage:
    """A ``w``×``h`` image, or :class:`ExportError` when there is not the memory for it (Qt then
    returns a null image; its warning is kept off the terminal for this one attempt)."""
    previous = qInstallMessageHandler(_quiet)
    try:
        img = QImage(w, h, QImage.Format.Format_RGB32 if opaque else QImage.Format.Format_ARGB32_Premultiplied)
    finally:
        qInstallMessageHandler(previous)
    if img.isNull():
        raise ExportError(f"not enough memory for a {w}×{h} px image ({w * h * 4 / 2**20:,.0f} MB); "
                          "choose a smaller size")
    return img


def _quiet(mode: QtMsgType, context: QMessageLogContext, message: str) -> None:
    del mode, context, message


def _png_bytes(plate: Plate, calendar: CalendarInfo | None, opts: SnapshotOptions, catalog: Catalog) -> bytes:
    return encode_png(render_image(plate, calendar, opts, catalog), opts.dpi)


def _svg_bytes(plate: Plate, calendar: CalendarInfo | None, opts: SnapshotOptions, catalog: Catalog) -> bytes:
    from PySide6.QtSvg import QSvgGenerator

    w, h = png_size(plate, replace(opts, width=min(opts.width, 1600)), catalog)
    buf = QBuffer()
    buf.open(QIODevice.OpenModeFlag.WriteOnly)
    gen = QSvgGenerator()
    gen.setOutputDevice(buf)
    gen.setSize(QRectF(0, 0, w, h).size().toSize())
    gen.setViewBox(QRectF(0, 0, w, h))
    gen.setResolution(96)
    gen.setTitle(state_label(plate.state, opts.lang))
    gen.setDescription(source_line(opts.lang))
    p = QPainter(gen)
    try:
        paint_pages(p, QRectF(0, 0, w, h), plate, calendar, replace(opts, width=w), catalog)
    finally:
        p.end()
    return bytes(buf.data().data())


def _pdf_bytes(plate: Plate, calendar: CalendarInfo | None, opts: SnapshotOptions, catalog: Catalog) -> bytes:
    buf = QBuffer()
    buf.open(QIODevice.OpenModeFlag.WriteOnly)
    writer = QPdfWriter(buf)
    writer.setResolution(pdf_dpi(opts))
    writer.setCreator("Shensha Plates")
    writer.setTitle(state_label(plate.state, opts.lang))
    writer.setDocumentId(QUuid.fromString(str(uuid.uuid5(uuid.NAMESPACE_URL, repr((plate.state, plate.options, opts))))))
    layout = QPageLayout(QPageSize(PAPERS[opts.paper]),
                         QPageLayout.Orientation.Landscape if opts.landscape else QPageLayout.Orientation.Portrait,
                         QMarginsF(0, 0, 0, 0))
    writer.setPageLayout(layout)
    p = QPainter(writer)
    try:
        page = QRectF(0, 0, writer.width(), writer.height())
        paint_pages(p, page, plate, calendar, opts, catalog, new_page=writer.newPage)
    finally:
        p.end()
    return pin_pdf_dates(bytes(buf.data().data()))


def export(path: str | os.PathLike[str], plate: Plate, calendar: CalendarInfo | None = None,
           opts: SnapshotOptions = SnapshotOptions(), catalog: Catalog | None = None,
           replace_read_only: bool = False) -> Path:
    """Write a snapshot to ``path`` atomically (temporary file, flush, fsync, rename).

    Raises :class:`ExportError` with a clear message for bad options or a folder that cannot be
    written; on any failure no file (partial or temporary) is left behind and an existing file at
    ``path`` is untouched. A read-only file is refused (:class:`ReadOnlyError`) unless
    ``replace_read_only``.
    """
    opts.validate()
    cat = catalog or default_catalog()
    target = checked_target(path, replace_read_only)
    makers = {"png": _png_bytes, "svg": _svg_bytes, "pdf": _pdf_bytes}
    try:
        data = makers[opts.fmt](plate, calendar, opts, cat)
    except MemoryError:
        w, h = (opts.width, opts.height or opts.width) if opts.fmt == "png" else (0, 0)
        need = f" (a {w}×{h} px image needs about {w * h * 4 * 1.1 / 2**20:,.0f} MB)" if w else ""
        raise ExportError(f"not enough memory to make {str(target)!r}{need}; choose a smaller size") from None
    write_atomic(target, data, replace_read_only)
    return target


def checked_target(path: str | os.PathLike[str], replace_read_only: bool = False) -> Path:
    """The file ``path`` names for writing, checked before any work is done: not a folder's name
    (a trailing slash), in a folder that exists and can be searched, not too long a name, not a
    read-only file unless ``replace_read_only`` (:class:`ReadOnlyError`). Every failure is an
    :class:`ExportError` naming the file."""
    shown = os.fsdecode(os.fspath(path))
    try:
        target = output_path(path)
        folder = target.parent if str(target.parent) else Path(".")
        if not folder.is_dir():
            raise ExportError(f"cannot write {str(target)!r}: the folder {str(folder)!r} does not exist")
        try:
            os.lstat(target)  # a name too long (ENAMETOOLONG), a folder that cannot be searched (EACCES)
        except FileNotFoundError:
            pass
        refuse_read_only(target, replace_read_only)
    except ReadOnlyTarget as e:
        raise ReadOnlyError(f"cannot write {shown!r}: {e.strerror}") from None
    except OSError as e:
        raise ExportError(f"cannot write {shown!r}: {e.strerror or e}") from None
    return target


def write_atomic(target: Path, data: bytes, replace_read_only: bool = False) -> None:
    try:
        core_write_atomic(target, data, replace_read_only)
    except ReadOnlyTarget as e:
        raise ReadOnlyError(f"cannot write {str(target)!r}: {e.strerror}") from None
    except OSError as e:
        raise ExportError(f"cannot write {str(target)!r}: {e.strerror or e}") from e
