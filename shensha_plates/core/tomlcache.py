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

What the cache trusts: an entry is read only when it is a regular file owned by this user, not
writable by others, at most a few times the size of the file it stands for (never a FIFO, a device
or a huge sparse file: it is opened non-blocking and checked before a byte is read), and its
checksum (SHA-256 over the key of the file's bytes and the JSON) holds, so an entry damaged, cut
short or renamed from another file's is parsed afresh. A reader that finds a cached tree invalid
parses the file afresh (:func:`fresh_on_failure`), so a bad entry is never blamed on the file.
Beyond that it is trusted as the folder is: whoever can write the cache folder can write an entry
with a valid checksum, as they could edit the rule files of the installed program.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final, TypeVar

__all__ = ["cache_dir", "loads", "FORMAT", "fresh_on_failure", "max_entry_size", "read_blob", "write_blob"]

T = TypeVar("T")
FORMAT: Final = 2
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


def _entry_path(data: bytes) -> tuple[Path, bytes] | None:
    """The entry's file and its key (which its checksum covers too)."""
    folder = cache_dir()
    if folder is None:
        return None
    key = hashlib.sha256(_TAG.encode() + b"\0" + data).hexdigest()
    return folder / f"toml-{key}.json", key.encode("ascii")


def max_entry_size(source_size: int) -> int:
    """The largest entry read for a file of ``source_size`` bytes: its JSON tree is about the size of
    the TOML text (escapes at most double it), so anything much larger is not an entry of ours."""
    return 4 * source_size + 65536


def _checksum(key: bytes, payload: bytes | memoryview) -> bytes:
    h = hashlib.sha256(key)
    h.update(b"\n")
    h.update(payload)  # (fed in turn, not joined: a bitmap entry is megabytes)
    return h.hexdigest().encode("ascii")


def read_blob(path: Path, key: bytes, limit: int) -> memoryview | None:
    """The payload of the entry at ``path`` written by :func:`write_blob` under ``key`` (a view of
    the bytes read), or None
    when it is missing, unreadable, not a regular file of this user's that no one else may write,
    larger than ``limit`` bytes, or damaged (its checksum does not hold). Never raises."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except (OSError, ValueError):  # missing, unreadable, a name too long or holding a NUL …
        return None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or st.st_size > limit or not _owned(st):
            return None  # a FIFO, a device, a huge or sparse file, or one another user may have written
        with open(fd, "rb", closefd=False) as fh:
            raw = fh.read(limit + 1)
    except (OSError, MemoryError):
        return None
    finally:
        os.close(fd)
    if len(raw) > limit:
        return None
    end = raw.find(b"\n", 0, 100)  # the checksum line (a view of the rest, not a copy)
    if end < 0:
        return None
    payload = memoryview(raw)[end + 1:]
    if raw[:end] != _checksum(key, payload):
        return None
    return payload


def _read(path: Path, key: bytes, limit: int) -> dict[str, Any] | None:
    payload = read_blob(path, key, limit)
    if payload is None:
        return None
    try:
        tree = json.loads(bytes(payload))
    except (ValueError, MemoryError, RecursionError):  # damaged (UnicodeDecodeError is a ValueError)
        return None
    if not isinstance(tree, dict) or tree.get("format") != FORMAT or not isinstance(tree.get("data"), dict):
        return None
    data: dict[str, Any] = tree["data"]
    return data


def _owned(st: os.stat_result) -> bool:
    """Whether an entry is this user's own and no one else may write it."""
    if not hasattr(os, "geteuid"):
        return True
    return st.st_uid == os.geteuid() and not st.st_mode & (stat.S_IWGRP | stat.S_IWOTH)


def _plain(value: object) -> bool:
    """Whether JSON gives ``value`` back unchanged (TOML dates and times do not round-trip)."""
    if isinstance(value, dict):
        return all(isinstance(k, str) and _plain(v) for k, v in value.items())
    if isinstance(value, list):
        return all(_plain(v) for v in value)
    return value is None or isinstance(value, str | int | float | bool)


def write_blob(path: Path, key: bytes, payload: bytes, prefix: str = ".toml-") -> None:
    """Write ``payload`` as the entry at ``path`` under ``key`` (a checksum line, then the bytes),
    through a temporary file renamed into place, so that a reader never sees half of it. A folder
    that cannot be made or written leaves things as they were: never raises."""
    blob = _checksum(key, payload) + b"\n" + payload
    tmp: str | None = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=prefix, suffix=".part")
        with os.fdopen(fd, "wb") as fh:
            fh.write(blob)
        os.replace(tmp, path)
        tmp = None
    except (OSError, ValueError):
        pass  # a cache that cannot be written only costs the work next time
    finally:
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass


def _write(path: Path, key: bytes, tree: dict[str, Any]) -> None:
    payload = json.dumps({"format": FORMAT, "data": tree}, ensure_ascii=False, separators=(",", ":")).encode()
    write_blob(path, key, payload)


_fresh: list[bool] = [False]  # parsing everything afresh (a reader found a cached tree invalid)
_hits: list[int] = [0]        # trees given from the cache in this process


def loads(text: str, data: bytes | None = None) -> dict[str, Any]:
    """``tomllib.loads(text)``, from the cache when these exact bytes were parsed before.

    ``data`` is the file's bytes (``text`` encoded as UTF-8 when not given). Raises
    :class:`tomllib.TOMLDecodeError` as ``tomllib`` does; a file that does not parse is not cached.
    """
    raw = text.encode("utf-8") if data is None else data
    entry = _entry_path(raw)
    if entry is not None and not _fresh[0]:
        hit = _read(entry[0], entry[1], max_entry_size(len(raw)))
        if hit is not None:
            _hits[0] += 1
            return hit
    import tomllib  # only when something must be parsed: its import is part of the cost saved

    tree = tomllib.loads(text)
    if entry is not None and _plain(tree):
        _write(entry[0], entry[1], tree)
    return tree


def fresh_on_failure(load: Callable[[], T]) -> T:
    """``load()``, a reader that validates what :func:`loads` gives it. When it fails (in any way)
    after a tree came from the cache, the cache may be at fault, not the file: ``load()`` runs again
    with every file parsed afresh (and its entry written anew), and only a failure then is the
    file's own."""
    if _fresh[0]:
        return load()
    hits = _hits[0]
    try:
        return load()
    except Exception:
        if _hits[0] == hits:
            raise  # nothing came from the cache: the fault is the file's
    _fresh[0] = True
    try:
        return load()
    finally:
        _fresh[0] = False
