"""Parsed rule files kept between runs, so that start-up does not parse unchanged TOML again.

Parsing the bundled catalog with :mod:`tomllib` costs about 100 ms of every start; reading the same
tree back from JSON costs about 1 ms. Only the *parsing* is cached: every reader still validates
what it gets in full, exactly as if it had just been parsed, so a cached file is checked as strictly
as a new one. An entry is keyed by the SHA-256 of the file's bytes (and of the Python version, whose
``tomllib`` made it), so a changed file is never read from the cache: it is parsed afresh and its
faults are reported as before. A file that does not parse is never cached.

The folder is ``$SHENSHA_PLATES_CACHE_DIR`` when set, else ``$XDG_CACHE_HOME/shensha-plates``, else
``~/.cache/shensha-plates``. Each entry is one file holding a checksum line and the JSON tree,
written to a temporary file and renamed into place; an entry that is missing, unreadable, damaged
(checksum or JSON wrong) or of another format is ignored and written again. A folder that cannot be
created or written costs the parse and nothing else: the cache never raises.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any, Final

__all__ = ["cache_dir", "loads", "FORMAT"]

FORMAT: Final = 1
"""Bumped whenever the entry layout changes; entries of another format are ignored."""
_TAG: Final = f"shensha-plates toml cache {FORMAT}; python {sys.version_info[0]}.{sys.version_info[1]}"


def cache_dir() -> Path | None:
    """The cache folder (not created here), or None when no home folder can be found."""
    folder = os.environ.get("SHENSHA_PLATES_CACHE_DIR")
    if folder:
        return Path(folder)
    xdg = os.environ.get("XDG_CACHE_HOME")
    if xdg and os.path.isabs(xdg):
        return Path(xdg) / "shensha-plates"
    home = os.path.expanduser("~")
    return None if home == "~" else Path(home) / ".cache" / "shensha-plates"


def _entry_path(data: bytes) -> Path | None:
    folder = cache_dir()
    if folder is None:
        return None
    key = hashlib.sha256(_TAG.encode() + b"\0" + data).hexdigest()
    return folder / f"toml-{key}.json"


def _read(path: Path) -> dict[str, Any] | None:
    try:
        with open(path, "rb") as fh:
            raw = fh.read()
        check, sep, payload = raw.partition(b"\n")
        if not sep or check.decode("ascii") != hashlib.sha256(payload).hexdigest():
            return None
        tree = json.loads(payload)
    except (OSError, ValueError):  # missing, unreadable, damaged (UnicodeDecodeError is a ValueError)
        return None
    if not isinstance(tree, dict) or tree.get("format") != FORMAT or not isinstance(tree.get("data"), dict):
        return None
    data: dict[str, Any] = tree["data"]
    return data


def _plain(value: object) -> bool:
    """Whether JSON gives ``value`` back unchanged (TOML dates and times do not round-trip)."""
    if isinstance(value, dict):
        return all(isinstance(k, str) and _plain(v) for k, v in value.items())
    if isinstance(value, list):
        return all(_plain(v) for v in value)
    return value is None or isinstance(value, str | int | float | bool)


def _write(path: Path, tree: dict[str, Any]) -> None:
    payload = json.dumps({"format": FORMAT, "data": tree}, ensure_ascii=False, separators=(",", ":")).encode()
    blob = hashlib.sha256(payload).hexdigest().encode("ascii") + b"\n" + payload
    tmp: str | None = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".toml-", suffix=".part")
        with os.fdopen(fd, "wb") as fh:
            fh.write(blob)
        os.replace(tmp, path)
        tmp = None
    except OSError:
        pass  # a cache that cannot be written only costs the parse next time
    finally:
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass


def loads(text: str, data: bytes | None = None) -> dict[str, Any]:
    """``tomllib.loads(text)``, from the cache when these exact bytes were parsed before.

    ``data`` is the file's bytes (``text`` encoded as UTF-8 when not given). Raises
    :class:`tomllib.TOMLDecodeError` as ``tomllib`` does; a file that does not parse is not cached.
    """
    raw = text.encode("utf-8") if data is None else data
    path = _entry_path(raw)
    if path is not None:
        hit = _read(path)
        if hit is not None:
            return hit
    import tomllib  # only when something must be parsed: its import is part of the cost saved

    tree = tomllib.loads(text)
    if path is not None and _plain(tree):
        _write(path, tree)
    return tree
