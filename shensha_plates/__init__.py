"""Shensha Plates (神煞旋盘): Zhuang Guangzhi's rotating plates of the Da Liu Ren spirits, on screen.

One package: :mod:`shensha_plates.core` (pure Python: the cycle, the catalog, the plate engine, the
calendar bridge, the other systems and the Liu Ren method), :mod:`shensha_plates.gui` (PySide6 +
pyqtgraph: the window, the exports) and :mod:`shensha_plates.resources` (the rules as data, the font).
Importing this package loads neither Qt nor the catalog.
"""

from __future__ import annotations



def __getattr__(name: str) -> str:
    """``__version__``, from the package's metadata when first asked for: importing
    :mod:`importlib.metadata` costs 30 ms that every command paid before it could set up its
    handling of Ctrl+C (:mod:`shensha_plates.core.interrupt`)."""
    if name != "__version__":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from importlib import metadata
    try:
        version = metadata.version("shensha-plates")
    except metadata.PackageNotFoundError:  # run from a source tree that was never installed
        version = "0+unknown"
    globals()["__version__"] = version
    return version
