"""Settings kept between runs (QSettings, INI format), validated on load; a damaged file is moved aside.
When the settings cannot be written (a folder that cannot be created, a read-only file or folder)
the program still starts, and :attr:`Settings.unsaved` says why changes will not be kept.

The folder is ``$SHENSHA_PLATES_CONFIG_DIR`` when set (tests point it at a temporary folder), else
Qt's per-user configuration folder.
"""

from __future__ import annotations

import errno
import os
import stat
import time
from pathlib import Path
from typing import Any, Final

from PySide6.QtCore import QSettings, QStandardPaths

from shensha_plates.core.cycle import ascii_int
from shensha_plates.core.lang import LANGS

__all__ = ["Settings", "settings_path"]

DEFAULTS: Final[dict[str, Any]] = {
    "schema_version": 1,
    "lang": "zh-Hans",
    "layout": "side",
    "orientation": "south",
    "text_mode": "radial",
    "mountains": False,
    "english": False,
    # each name's pinyin under it on the discs: "auto" follows the language (on in English, where a
    # reader needs the reading; off in Chinese), "on"/"off" once chosen in the 显示 menu
    "plate_pinyin": "auto",
    "reduce_motion": False,
    "first_run_hint_done": False,
    "querent/birth": "",
    "querent/sex": "",
    "querent/age": "",
    "querent/partner_birth": "",
    "querent/partner_sex": "",
    "querent/partner_age": "",
    "liuren/choices": "",
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
MAX_SIZE: Final = 1 << 20  # bytes: a settings file is a few hundred; anything larger is not ours
CHOICES: Final[dict[str, tuple[str, ...]]] = {
    "lang": LANGS, "layout": ("side", "stacked"), "orientation": ("south", "north"),
    "text_mode": ("radial", "upright"), "plate_pinyin": ("auto", "on", "off"), "calendar/year_start": ("lichun", "lichun-day", "new-year"),
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
        self._detached = False  # True: the file is not used at all (see _file_problem)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            self.unsaved = e.strerror or str(e)
        problem = self._file_problem()
        if problem is not None:
            # never handed to QSettings, which would block on a FIFO or read a device without end:
            # the defaults, kept in a private file of this run only, and the reason said once
            self.unsaved = problem
            self._detached = True
            # a name under the null device: nothing there to read, nothing can be written there
            self._qs = QSettings(os.path.join(os.devnull, "shensha-plates.ini"), QSettings.Format.IniFormat)
            return
        self._qs = QSettings(str(self.path), QSettings.Format.IniFormat)
        if self._exists() and not self._readable():
            self._move_aside()
        if self.unsaved is None:
            self.unsaved = self._write_problem()

    def _exists(self) -> bool:
        try:
            os.stat(self.path)
        except OSError:
            return False
        return True

    def _file_problem(self) -> str | None:
        """Why the settings file cannot be read at all (None when it is a regular file of a sane
        size, or is not there yet): a folder that cannot be searched, a name too long, a FIFO, a
        device, a folder, a file over :data:`MAX_SIZE`. Checked without blocking (opened
        non-blocking, examined before a byte is read)."""
        try:
            fd = os.open(self.path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
        except (FileNotFoundError, NotADirectoryError):
            return None
        except OSError as e:
            if e.errno == errno.EACCES and self._stat_ok():
                return None  # there but unreadable: the damaged-file path moves it aside
            return f"the settings file cannot be opened: {e.strerror or e}"
        try:
            st = os.fstat(fd)
        finally:
            os.close(fd)
        if not stat.S_ISREG(st.st_mode):
            kind = ("a FIFO" if stat.S_ISFIFO(st.st_mode) else "a device" if stat.S_ISCHR(st.st_mode) or
                    stat.S_ISBLK(st.st_mode) else "a folder" if stat.S_ISDIR(st.st_mode) else "a special file")
            return f"the settings file is {kind}, not a regular file"
        if st.st_size > MAX_SIZE:
            return f"the settings file is {st.st_size:,} bytes, over the {MAX_SIZE:,} a settings file can be"
        return None

    def _stat_ok(self) -> bool:
        try:
            return stat.S_ISREG(os.stat(self.path).st_mode)
        except OSError:
            return False

    def _write_problem(self) -> str | None:
        """Why the file cannot be written, checked as QSettings will check it when it syncs (the
        file if it exists, else its folder; a lock file goes in the folder too)."""
        folder = self.path.parent
        try:
            if self._exists() and not os.access(self.path, os.W_OK):
                return "the file is read-only"
            if not os.access(folder, os.W_OK | os.X_OK):
                return "the folder is read-only"
        except (OSError, ValueError) as e:
            return getattr(e, "strerror", None) or str(e)
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
        if self._detached:
            return False  # the file is not one that can be read or written (see unsaved)
        self._qs.setValue("schema_version", 1)
        self._qs.sync()
        if self._qs.status() == QSettings.Status.AccessError:
            self.unsaved = self.unsaved or "the file cannot be written"
            return False
        return True
