"""Settings kept between runs (QSettings, INI format), validated on load; a damaged file is moved aside.
When the settings cannot be written (a folder that cannot be created, a read-only file or folder)
the program still starts, and :attr:`Settings.unsaved` says why changes will not be kept.

The folder is ``$SHENSHA_PLATES_CONFIG_DIR`` when set (tests point it at a temporary folder), else
Qt's per-user configuration folder.
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any, Final

from PySide6.QtCore import QSettings, QStandardPaths

from shensha_plates.core.cycle import ascii_int

__all__ = ["Settings", "settings_path"]

DEFAULTS: Final[dict[str, Any]] = {
    "schema_version": 1,
    "lang": "zh-Hans",
    "layout": "side",
    "orientation": "south",
    "text_mode": "radial",
    "mountains": False,
    "english": False,
    "reduce_motion": False,
    "state/year": "甲子",
    "state/month": 1,
    "state/xun": "甲子",
    "state/day": "",
    "state/hour": "",
    "variants": "",
    "calendar/zone": "Asia/Shanghai",
    "calendar/year_start": "lichun",
    "calendar/month_basis": "jie",
    "calendar/zi_hour": "next-day",
}
CHOICES: Final[dict[str, tuple[str, ...]]] = {
    "lang": ("zh-Hans", "zh-Hant"), "layout": ("side", "stacked"), "orientation": ("south", "north"),
    "text_mode": ("radial", "upright"), "calendar/year_start": ("lichun", "lichun-day", "new-year"),
    "calendar/month_basis": ("jie", "lunar"), "calendar/zi_hour": ("next-day", "same-day"),
}


def settings_path() -> Path:
    folder = os.environ.get("SHENSHA_PLATES_CONFIG_DIR")
    if not folder:
        folder = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.AppConfigLocation) or "."
    return Path(folder) / "shensha-plates.ini"


class Settings:
    """Typed access to the settings file; unknown or malformed values fall back to defaults."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or settings_path()
        self.notice: str | None = None
        # why changes made now cannot be kept (the window says so once), or None
        self.unsaved: str | None = None
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            self.unsaved = e.strerror or str(e)
        self._qs = QSettings(str(self.path), QSettings.Format.IniFormat)
        if self.path.exists() and not self._readable():
            self._move_aside()
        if self.unsaved is None:
            self.unsaved = self._write_problem()

    def _write_problem(self) -> str | None:
        """Why the file cannot be written, checked as QSettings will check it when it syncs (the
        file if it exists, else its folder; a lock file goes in the folder too)."""
        folder = self.path.parent
        if self.path.exists() and not os.access(self.path, os.W_OK):
            return "the file is read-only"
        if not os.access(folder, os.W_OK | os.X_OK):
            return "the folder is read-only"
        return None

    def _readable(self) -> bool:
        try:
            raw = self.path.read_bytes()
            raw.decode("utf-8")
        except (OSError, UnicodeDecodeError):
            return False
        if self._qs.status() != QSettings.Status.NoError:
            return False
        version = self._qs.value("schema_version", 1)
        return (version if type(version) is int else ascii_int(str(version).strip())) == 1

    def _move_aside(self) -> None:
        aside = self.path.with_name(f"{self.path.stem}.damaged-{time.strftime('%Y%m%d-%H%M%S')}{self.path.suffix}")
        del self._qs
        try:
            self.path.replace(aside)
            self.notice = str(aside)
        except OSError:
            self.notice = str(self.path)
        self._qs = QSettings(str(self.path), QSettings.Format.IniFormat)

    def get(self, key: str) -> Any:
        default = DEFAULTS[key]
        value = self._qs.value(key, default)
        if isinstance(default, bool):
            if isinstance(value, str):
                return value.lower() in ("true", "1", "yes")
            return bool(value)
        if isinstance(default, int):
            number = value if type(value) is int else ascii_int(str(value).strip())  # never ١٢ or ²
            return default if number is None else number
        value = "" if value is None else str(value)
        if key in CHOICES and value not in CHOICES[key]:
            return default
        return value

    def set(self, key: str, value: Any) -> None:
        self._qs.setValue(key, value)

    def raw(self) -> QSettings:
        return self._qs

    def sync(self) -> bool:
        """Write the settings out; False (with :attr:`unsaved` set) when they could not be."""
        self._qs.setValue("schema_version", 1)
        self._qs.sync()
        if self._qs.status() == QSettings.Status.AccessError:
            self.unsaved = self.unsaved or "the file cannot be written"
            return False
        return True
