"""The bytes of the exported files, apart from drawing them: a PNG encoder that needs little beyond the
image itself, and the PDF's time stamps pinned so that the same state gives the same bytes anywhere.
Used by the snapshot and the booklet."""

from __future__ import annotations

import re
import struct
import zlib
from typing import Final

from PySide6.QtGui import QImage

from shensha_plates.core.errors import ShenshaError

__all__ = ["encode_png", "pin_pdf_dates", "PdfLayoutError"]


class PdfLayoutError(ShenshaError, ValueError):
    """The PDF writer's output is not laid out as expected (its time stamps cannot be pinned)."""


_STRIP_BYTES: Final = 16 << 20  # bytes of converted rows encoded at a time


def encode_png(img: QImage, dpi: int) -> bytes:
    """The image as PNG bytes: 8-bit RGB (RGBA if it has an alpha channel), the resolution in a
    pHYs chunk, rows unfiltered and deflated at zlib level 3. A page is mostly flat colour and
    text, which compresses as well this way as with libpng's adaptive filters, in under half the
    time (Qt's writer spent most of an export's time there).

    The rows are converted and deflated in strips of about 16 MB, so that encoding needs little
    beyond the image itself and the compressed bytes (converting and copying the whole image at
    once took four times the image: 6.4 GB for a 20,000 px square)."""
    alpha = img.hasAlphaChannel()
    fmt = QImage.Format.Format_RGBA8888 if alpha else QImage.Format.Format_RGB888
    w, h = img.width(), img.height()
    row = w * (4 if alpha else 3)
    rows_per_strip = max(1, _STRIP_BYTES // row)
    deflate = zlib.compressobj(3)
    idat: list[bytes] = []
    for top in range(0, h, rows_per_strip):
        n = min(rows_per_strip, h - top)
        strip = img.copy(0, top, w, n).convertToFormat(fmt)
        if strip.isNull():
            raise MemoryError
        stride = strip.bytesPerLine()
        bits = memoryview(strip.constBits()).cast("B")
        idat.append(deflate.compress(b"".join(b"\x00" + bits[y * stride:y * stride + row] for y in range(n))))
        del bits, strip
    idat.append(deflate.flush())

    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
    per_metre = round(dpi / 0.0254)
    return (b"\x89PNG\r\n\x1a\n"
            + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 6 if alpha else 2, 0, 0, 0))
            + chunk(b"pHYs", struct.pack(">IIB", per_metre, per_metre, 1))
            + chunk(b"IDAT", b"".join(idat))
            + chunk(b"IEND", b""))


_PDF_DATE = re.compile(rb"\(D:[0-9]{14}(?:Z|[+-][0-9]{2}'[0-9]{2}'?)?\)")
_XMP_DATE = re.compile(rb"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(?:[+-][0-9]{2}:[0-9]{2})?")
_PINNED_PDF: Final = b"(D:20000101000000Z)"
_PINNED_XMP: Final = b"2000-01-01T00:00:00+00:00"


def pin_pdf_dates(data: bytes) -> bytes:
    """Same state, same options, same bytes, whatever the machine's clock and time zone: every time
    stamp Qt writes becomes 2000-01-01 00:00 UTC. The metadata stream's dates keep their length (its
    /Length stays right); the document information's may change length (Qt writes ``Z`` in UTC and
    ``-05'00'`` elsewhere), so the cross-reference table's offsets are moved to match."""
    data = _XMP_DATE.sub(lambda m: _PINNED_XMP if len(m.group()) == len(_PINNED_XMP) else b"2000-01-01T00:00:00",
                         data)
    shifts: list[tuple[int, int]] = []  # (offset in the old bytes where the change ends, change in length)
    parts: list[bytes] = []
    last = 0
    for m in _PDF_DATE.finditer(data):
        parts += [data[last:m.start()], _PINNED_PDF]
        last = m.end()
        if len(_PINNED_PDF) != len(m.group()):
            shifts.append((m.end(), len(_PINNED_PDF) - len(m.group())))
    if not shifts:
        return b"".join(parts) + data[last:]
    return _shift_xref(b"".join(parts) + data[last:], shifts)


_STARTXREF = re.compile(rb"startxref\s+([0-9]+)\s+%%EOF\s*\Z")
_XREF_ENTRY = re.compile(rb"([0-9]{10}) ([0-9]{5}) n")


def _shift_xref(data: bytes, shifts: list[tuple[int, int]]) -> bytes:
    """``data`` with its classic cross-reference table (and ``startxref``) moved by ``shifts``."""
    def moved(offset: int) -> int:
        return offset + sum(delta for end, delta in shifts if end <= offset)
    tail = _STARTXREF.search(data)
    if tail is None:
        raise PdfLayoutError("the PDF writer's output has no cross-reference table where expected")
    old_start = int(tail.group(1))
    start = moved(old_start)
    if data[start:start + 4] != b"xref":
        raise PdfLayoutError("the PDF writer's output has no cross-reference table where expected")
    end = tail.start()
    table = _XREF_ENTRY.sub(lambda m: b"%010d %s n" % (moved(int(m.group(1))), m.group(2)), data[start:end])
    return data[:start] + table + data[end:tail.start(1)] + b"%d" % start + data[tail.end(1):]
