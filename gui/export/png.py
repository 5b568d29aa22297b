"""PNG encoding for snapshots, about five times faster than Qt's writer for our pictures.

Qt's PNG writer (libpng) tries its adaptive row filters on every row and deflates at zlib's default
level: at 3000×3000 that took three quarters of an export. A snapshot is mostly flat paper with
lines and text, which needs no row filter: rows stored as they are and deflated at a low level come
out smaller than Qt's file (measured on the 3000×3000 plate: 1.33 MB against 1.85 MB) in a fraction
of the time. The file is an ordinary 8-bit PNG (RGB, or RGBA for a transparent background) with
its resolution in a ``pHYs`` chunk; the same image always gives the same bytes.
"""

from __future__ import annotations

import struct
import zlib
from typing import Final

from PySide6.QtGui import QImage

__all__ = ["png_bytes", "LEVEL"]

LEVEL: Final = 2
"""zlib level: 1–3 are all fast here; 2 gave the smallest file of the three on the plates."""
_SIGNATURE: Final = b"\x89PNG\r\n\x1a\n"


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(data, zlib.crc32(kind)))


def png_bytes(image: QImage, alpha: bool) -> bytes:
    """``image`` as a PNG file: RGBA when ``alpha`` (a transparent background), else RGB (the alpha
    channel of an opaque picture is dropped). The resolution is the image's dots per metre."""
    fmt = QImage.Format.Format_RGBA8888 if alpha else QImage.Format.Format_RGB888
    img = image.convertToFormat(fmt)
    width, height = img.width(), img.height()
    row = width * (4 if alpha else 3)
    stride = img.bytesPerLine()
    bits = memoryview(img.constBits()).cast("B")
    deflate = zlib.compressobj(LEVEL)
    out = []
    for y in range(height):
        start = y * stride
        out.append(deflate.compress(b"\x00"))  # filter type 0: the row as it is
        out.append(deflate.compress(bits[start:start + row]))
    out.append(deflate.flush())
    header = struct.pack(">IIBBBBB", width, height, 8, 6 if alpha else 2, 0, 0, 0)
    dpm_x, dpm_y = max(0, image.dotsPerMeterX()), max(0, image.dotsPerMeterY())
    return b"".join((_SIGNATURE, _chunk(b"IHDR", header), _chunk(b"pHYs", struct.pack(">IIB", dpm_x, dpm_y, 1)),
                     _chunk(b"IDAT", b"".join(out)), _chunk(b"IEND", b"")))
