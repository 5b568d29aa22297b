"""The rings' resting bitmaps kept between starts, so that the first picture of a start does not
draw every name again.

A ring at rest blits each slot's names as a bitmap already turned to its place on screen
(:meth:`shensha_plates.gui.plate.ring_item.RingItem._rest_pixmap`). Drawing them is most of the
first paint: Qt rasterises every character of the font, at every size the plate uses, for the
first time in the process. This cache keeps the bitmaps of a start's first pictures in one file of
the cache folder (:func:`shensha_plates.core.tomlcache.cache_dir`), written when the program ends,
and gives them back on the next start when exactly the same slot is to be drawn.

*Exactly the same* is decided by a digest of everything the drawing reads: the slot's names with
their cues, its fitted layout and readings, the ring's palette and type metrics, the turn on
screen, the device scale, and a stamp of the program (Qt's version and platform, the bundled font
file and the drawing modules' files by size and time, or a bundle's executable), so a bitmap is never shown
for anything it was not drawn from, and a changed program draws afresh. Slots whose content did not
change since the last start (a new day leaves most rings as they were) are still found.

The file is an entry of :func:`shensha_plates.core.tomlcache.write_blob` (a checksum line, then the
bitmaps; written through a temporary file renamed into place) and is read only under the same
conditions as the parsed-rule cache: a regular file of this user's that no one else may write, of
bounded size, whose checksum holds. Anything else, or a folder that cannot be written, costs the
drawing and nothing more: the cache never raises.
"""

from __future__ import annotations

import atexit
import hashlib
import math
import struct
import sys
from pathlib import Path
from typing import Final

from collections.abc import Callable

from PySide6.QtCore import QPointF, QRectF, Qt, QTimer, qVersion
from PySide6.QtGui import QGuiApplication, QImage, QPainter, QPixmap, QTransform

from shensha_plates.core import tomlcache

__all__ = ["digest", "lookup", "record", "stats", "Kept", "paint_kept", "FILE_NAME"]

FILE_NAME: Final = "plate-bitmaps.bin"
_MAGIC: Final = b"shensha-plates bitmaps 1\n"
_HEAD: Final = struct.Struct("<16sIIddd")  # digest, width, height, device pixel ratio, offset x, y
_LIMIT: Final = 64 * 1024 * 1024           # a whole plate at 4K is a few megabytes
_RECORD_MS: Final = 2000                   # the start's first pictures: what is kept for the next
_FORMAT: Final = QImage.Format.Format_ARGB32_Premultiplied

_DRAWING_MODULES: Final = ("slot_paint.py", "ring_item.py", "fit.py", "bitmap_cache.py", "bands_item.py",
                            "base_ring_item.py")


class _Store:
    """The bitmaps read from the file (by digest) and those of this start's first pictures."""

    def __init__(self) -> None:
        self.loaded = False
        self.path: Path | None = None
        self.payload = memoryview(b"")
        self.index: dict[bytes, tuple[int, int, int, float, float, float]] = {}
        self.recording = True
        self.timer_started = False
        self.kept: dict[bytes, bytes | memoryview] = {}  # digest -> its record (head and pixels), in drawing order
        self.drawn = 0                       # bitmaps drawn afresh while recording
        self.hits = 0


_STORE = _Store()
_STAMP: list[bytes] = []


def _stamp() -> bytes:
    """What, besides a slot's own content, decides its pixels: the program and the machine's Qt."""
    if not _STAMP:
        here = Path(__file__).resolve().parent
        files = [here / name for name in _DRAWING_MODULES]
        files += [here.parent / "fonts.py", here.parent / "style.py",
                  here.parents[1] / "resources" / "fonts" / "ShenshaSerif-Regular.otf"]
        if getattr(sys, "frozen", False):  # a bundle keeps its modules in an archive: its program stands for them
            files.append(Path(sys.executable))
        parts = [qVersion(), QGuiApplication.platformName()]
        for f in files:
            try:
                st = f.stat()
                parts.append(f"{f.name}:{st.st_size}:{st.st_mtime_ns}")
            except OSError:
                parts.append(f"{f.name}:-")
        _STAMP.append(repr(parts).encode())
    return _STAMP[0]


def digest(*parts: object, lasting: tuple[object, ...] = ()) -> bytes:
    """The key of one bitmap: a digest of the reprs of what it is drawn from (plain values, tuples
    and frozen dataclasses, whose reprs show every field) and the program's stamp. ``lasting``:
    objects that live as long as the plate's look (its palette, its type metrics), whose reprs are
    kept (a palette's fifteen colours cost 20 µs to spell out, for every slot)."""
    spelled = []
    for obj in lasting:
        known = _REPRS.get(id(obj))
        if known is None or known[0] is not obj:
            known = _REPRS[id(obj)] = (obj, repr(obj))
        spelled.append(known[1])
    return hashlib.blake2b(_stamp() + repr((spelled, parts)).encode(), digest_size=16).digest()


_REPRS: dict[int, tuple[object, str]] = {}


def _load() -> None:
    store = _STORE
    store.loaded = True
    folder = tomlcache.cache_dir()
    if folder is None:
        return
    store.path = folder / FILE_NAME
    payload = tomlcache.read_blob(store.path, _MAGIC, _LIMIT)
    if payload is None or payload[:len(_MAGIC)] != _MAGIC:
        return
    index: dict[bytes, tuple[int, int, int, float, float, float]] = {}
    at = len(_MAGIC)
    while at < len(payload):
        if at + _HEAD.size > len(payload):
            return  # cut short: none of it is used
        key, w, h, dpr, ox, oy = _HEAD.unpack_from(payload, at)
        at += _HEAD.size
        if not (0 < w <= 16384 and 0 < h <= 16384 and 0.1 <= dpr <= 16) or at + 4 * w * h > len(payload):
            return
        index[key] = (at, w, h, dpr, ox, oy)
        at += 4 * w * h
    store.payload, store.index = payload, index


def lookup(key: bytes) -> tuple[QPixmap, QPointF] | None:
    """The bitmap drawn before from what ``key`` digests, with its centre's offset, or None."""
    store = _STORE
    if not store.loaded:
        _load()
    hit = store.index.get(key)
    if hit is None:
        return None
    at, w, h, dpr, ox, oy = hit
    img = QImage(store.payload[at:at + 4 * w * h], w, h, 4 * w, _FORMAT).copy()
    pix = QPixmap.fromImage(img)
    pix.setDevicePixelRatio(dpr)
    store.hits += 1
    _keep(key, store.payload[at - _HEAD.size:at + 4 * w * h], drawn=False)
    return pix, QPointF(ox, oy)


def record(key: bytes, img: QImage, dpr: float, offset: QPointF) -> None:
    """A bitmap just drawn (``img``, ARGB32 premultiplied): kept for the next start when it belongs
    to this start's first pictures."""
    store = _STORE
    if not store.recording or img.format() != _FORMAT or img.bytesPerLine() != 4 * img.width():
        return
    head = _HEAD.pack(key, img.width(), img.height(), dpr, offset.x(), offset.y())
    _keep(key, head + bytes(img.constBits()), drawn=True)


def _keep(key: bytes, data: bytes | memoryview, drawn: bool) -> None:
    store = _STORE
    if not store.recording:
        return
    if not store.timer_started:
        store.timer_started = True
        atexit.register(_save)
        QTimer.singleShot(_RECORD_MS, _stop_recording)
    if key not in store.kept:
        store.kept[key] = data
        store.drawn += drawn


def _stop_recording() -> None:
    _STORE.recording = False


def _save() -> None:
    """At the program's end: the first pictures' bitmaps, when any had to be drawn afresh."""
    store = _STORE
    if not store.drawn or store.path is None:
        return
    if sum(len(d) for d in store.kept.values()) + len(_MAGIC) > _LIMIT:
        return
    tomlcache.write_blob(store.path, _MAGIC, _MAGIC + b"".join(store.kept.values()), prefix=".bitmaps-")


def stats() -> dict[str, int]:
    """How this process used the cache: bitmaps given from the file, drawn afresh while recording,
    and kept for the next start."""
    return {"hits": _STORE.hits, "drawn": _STORE.drawn, "kept": len(_STORE.kept)}


class Kept:
    """An item's bitmap of its fixed drawing (see :func:`paint_kept`): the last one, and what it was
    drawn for. :meth:`forget` when what the item draws changes."""

    def __init__(self) -> None:
        self.token: tuple[object, ...] | None = None
        self.hit: tuple[QPixmap, QPointF] | None = None

    def forget(self) -> None:
        self.token = self.hit = None


def paint_kept(p: QPainter, kept: Kept, parts: tuple[object, ...], lasting: tuple[object, ...], bounds: QRectF,
               draw: Callable[[QPainter], None]) -> bool:
    """Paint what ``draw`` paints (in the item's coordinates, within ``bounds``) as a bitmap at
    device resolution, kept in ``kept`` and between starts; ``parts`` and ``lasting``: everything
    ``draw`` reads (see :func:`digest`). For the fixed parts of a plate (the bands, the ring of
    branches), in place of Qt's device-coordinate cache, which cannot be kept. Only when the
    painter's transform is a plain scale and shift: False (nothing painted) otherwise, and the
    caller draws directly."""
    t = p.transform()
    if t.m12() != 0 or t.m21() != 0 or t.m11() <= 0 or abs(t.m22() - t.m11()) > 1e-9 * t.m11():
        return False
    device = p.device()
    dpr = device.devicePixelRatioF() if device is not None else 1.0
    scale = t.m11() * dpr
    # the item's origin on the device, a whole pixel and the fraction drawn into the bitmap (so
    # that it lands exactly where Qt would have drawn it, not up to half a pixel off)
    x, y = t.dx() * dpr, t.dy() * dpr
    ix, iy = math.floor(x), math.floor(y)
    fx, fy = round(x - ix, 3), round(y - iy, 3)
    token = (scale, dpr, fx, fy)
    if kept.token != token or kept.hit is None:
        key = digest(*parts, scale, dpr, fx, fy, lasting=lasting)
        hit = lookup(key)
        if hit is None:
            box = QTransform.fromScale(scale, scale).mapRect(bounds)
            left, top = math.floor(box.left()) - 1, math.floor(box.top()) - 1
            img = QImage(max(1, math.ceil(box.right()) + 2 - left), max(1, math.ceil(box.bottom()) + 2 - top), _FORMAT)
            img.fill(Qt.GlobalColor.transparent)
            ip = QPainter(img)
            ip.translate(fx - left, fy - top)
            ip.scale(scale, scale)
            draw(ip)
            ip.end()
            pix = QPixmap.fromImage(img)
            pix.setDevicePixelRatio(dpr)
            hit = (pix, QPointF(-left, -top))  # the origin's whole pixel inside the bitmap
            record(key, img, dpr, hit[1])
        kept.token, kept.hit = token, hit
    pix, at = kept.hit
    p.save()
    p.setTransform(QTransform())
    p.drawPixmap(QPointF((ix - at.x()) / dpr, (iy - at.y()) / dpr), pix)
    p.restore()
    return True
