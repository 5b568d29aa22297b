"""Shensha Plates (神煞旋盘): Zhuang Guangzhi's rotating plates of the Da Liu Ren spirits, on screen.

One package: :mod:`shensha_plates.core` (pure Python: the cycle, the catalog, the plate engine, the
calendar bridge, the other systems and the Liu Ren method), :mod:`shensha_plates.gui` (PySide6 +
pyqtgraph: the window, the exports) and :mod:`shensha_plates.resources` (the rules as data, the font).
Importing this package loads neither Qt nor the catalog.
"""

from __future__ import annotations

from importlib import metadata as _metadata

try:
    __version__: str = _metadata.version("shensha-plates")
except _metadata.PackageNotFoundError:  # run from a source tree that was never installed
    __version__ = "0+unknown"
