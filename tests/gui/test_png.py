"""The snapshot PNG encoder (gui.export.encode.encode_png): what Qt (libpng) reads back is the
picture, pixel for pixel, with its resolution, opaque or transparent, whatever the row padding; the
file is well formed; and the same image gives the same bytes."""

from __future__ import annotations

import struct
import zlib

import pytest
from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QFont, QImage, QPainter

from shensha_plates.gui.export.encode import encode_png


def _picture(width: int, height: int, transparent: bool) -> QImage:
    # as render_image makes them: an alpha channel only for a transparent page
    fmt = QImage.Format.Format_ARGB32_Premultiplied if transparent else QImage.Format.Format_RGB32
    img = QImage(width, height, fmt)
    img.fill(QColor(0, 0, 0, 0) if transparent else QColor("#fbf7ee"))
    p = QPainter(img)
    p.setRenderHint(QPainter.RenderHint.Antialiasing)
    p.setBrush(QColor(200, 30, 40, 160 if transparent else 255))
    p.drawEllipse(QRectF(1, 1, width * 0.7, height * 0.6))
    p.setPen(QColor("#1b4f8a"))
    p.setFont(QFont("", 9))
    p.drawText(QRectF(0, 0, width, height), Qt.AlignmentFlag.AlignCenter, "甲子 ok")
    p.end()
    return img


@pytest.mark.parametrize("transparent", [False, True])
@pytest.mark.parametrize("size", [(1, 1), (5, 3), (63, 40), (301, 17)])  # odd widths: padded rows
def test_qt_reads_back_the_same_pixels(qapp: object, transparent: bool, size: tuple[int, int]) -> None:
    img = _picture(*size, transparent)
    data = encode_png(img, 150)
    back = QImage.fromData(data, "PNG")
    assert not back.isNull()
    assert (back.width(), back.height()) == size
    fmt = QImage.Format.Format_ARGB32 if transparent else QImage.Format.Format_RGB32
    assert back.convertToFormat(fmt) == img.convertToFormat(fmt)
    assert back.hasAlphaChannel() == transparent
    assert (back.dotsPerMeterX(), back.dotsPerMeterY()) == (5906, 5906)  # 150 dpi
    assert encode_png(img, 150) == data


def test_the_file_is_well_formed(qapp: object) -> None:
    data = encode_png(_picture(40, 30, False), 96)
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    i, kinds = 8, []
    while i < len(data):
        (n,) = struct.unpack(">I", data[i:i + 4])
        kind, body = data[i + 4:i + 8], data[i + 8:i + 8 + n]
        (crc,) = struct.unpack(">I", data[i + 8 + n:i + 12 + n])
        assert crc == zlib.crc32(kind + body)
        kinds.append(kind)
        i += 12 + n
    assert kinds == [b"IHDR", b"pHYs", b"IDAT", b"IEND"] and i == len(data)
