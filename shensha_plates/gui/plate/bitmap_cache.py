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
import struct
import sys
from pathlib import Path
from typing import Final

from PySide6.QtCore import QPointF, QTimer, qVersion
from PySide6.QtGui import QGuiApplication, QImage, QPixmap

from shensha_plates.core import tomlcache

__all__ = ["digest", "lookup", "record", "stats", "FILE_NAME"]

FILE_NAME: Final = "plate-bitmaps.bin"
_MAGIC: Final = b"shensha-plates bitmaps 1\n"
_HEAD: Final = struct.Struct("<16sIIddd")  # digest, width, height, device pixel ratio, offset x, y
_LIMIT: Final = 64 * 1024 * 1024           # a whole plate at 4K is a few megabytes
_RECORD_MS: Final = 2000                   # the start's first pictures: what is kept for the next
_FORMAT: Final = QImage.Format.Format_ARGB32_Premultiplied

_DRAWING_MODULES: Final = ("slot_paint.py", "ring_item.py", "fit.py", "bitmap_cache.py")


class _Store:
    """The bitmaps read from the file (by digest) and those of this start's first pictures."""

    def __init__(self) -> None:
        self.loaded = False
        self.path: Path | None = None
        self.payload = b""
        self.index: dict[bytes, tuple[int, int, int, float, float, float]] = {}
        self.recording = True
        self.timer_started = False
        self.kept: dict[bytes, bytes] = {}  # digest -> its record (head and pixels), in drawing order
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
    if payload is None or not payload.startswith(_MAGIC):
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


def _keep(key: bytes, data: bytes, drawn: bool) -> None:
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
