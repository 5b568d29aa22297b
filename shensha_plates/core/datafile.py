"""Reading and writing files safely: one place for the checks every reader and writer repeats (the
rule files are read by :mod:`shensha_plates.core.schema`, through :func:`read_file`).

:func:`read_file` reads regular files only and never blocks on a FIFO or a device.
:func:`write_atomic` never leaves a partial or temporary file, keeps an existing file whole when it
fails, writes through a symbolic link to the file it names, keeps an existing file's mode, and keeps
hard links whole.
"""

from __future__ import annotations

import errno
import os
import re
import stat
import time
from pathlib import Path
from typing import Final

from shensha_plates.core import interrupt

__all__ = ["read_file", "write_atomic", "output_path", "STALE_AFTER",
           "ReadOnlyTarget", "read_only", "refuse_read_only"]

# Temporary files are ".shensha-<16 hex>.part": 30 bytes whatever the target's name, so any name
# that is legal for the target (up to NAME_MAX, 255 bytes) can be written.
_PART_RE: Final = re.compile(r"\.shensha-[0-9a-f]{16}\.part\Z")
STALE_AFTER: Final = 600.0
"""Seconds after its last change that a temporary file of ours counts as left by a killed write."""


def read_file(path: str | os.PathLike[str]) -> bytes:
    """The bytes of a regular file (through symbolic links).

    Raises :class:`OSError` for anything else (a folder, a FIFO, a device, a socket) without
    blocking on it: the file is opened non-blocking and checked before a byte is read.
    """
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise IsADirectoryError(errno.EISDIR, "is a folder, not a file", str(path))
        if not stat.S_ISREG(mode):
            raise OSError(errno.EINVAL, f"is not a regular file (a {_kind(mode)})", str(path))
        with open(fd, "rb", closefd=False) as fh:
            return fh.read()
    finally:
        os.close(fd)


def _kind(mode: int) -> str:
    for test, name in ((stat.S_ISFIFO, "FIFO"), (stat.S_ISCHR, "character device"),
                       (stat.S_ISBLK, "block device"), (stat.S_ISSOCK, "socket")):
        if test(mode):
            return name
    return "special file"


def output_path(path: str | os.PathLike[str]) -> Path:
    """The file a name given for writing stands for.

    A name ending in a slash (``nul.png/``) or naming ``.`` or ``..`` names a folder: refused with
    :class:`IsADirectoryError` rather than silently read as ``nul.png``. A name the file system's
    encoding cannot hold (a CJK name under an ASCII locale, say) is written as its UTF-8 bytes.
    """
    text = os.fspath(path)
    if isinstance(text, bytes):
        text = os.fsdecode(text)
    seps = (os.sep, os.altsep) if os.altsep else (os.sep,)
    if not text or text.endswith(seps) or os.path.basename(text) in (".", ".."):
        raise IsADirectoryError(errno.EISDIR, "the name names a folder, not a file (it ends with a slash, "
                                "or is . or ..)", text)
    try:
        os.fsencode(text)
    except UnicodeEncodeError:
        text = os.fsdecode(text.encode("utf-8", "surrogateescape"))
    return Path(text)


class ReadOnlyTarget(PermissionError):
    """The file to be replaced is read-only: refused unless the user confirmed replacing it."""


def read_only(st: os.stat_result) -> bool:
    """Whether the permission bits that apply to this process allow no writing to the file (the
    owner's bits for its owner, root included, the group's for its group, else the others')."""
    mode = stat.S_IMODE(st.st_mode)
    if not hasattr(os, "geteuid"):
        return not mode & stat.S_IWRITE
    if st.st_uid == os.geteuid():
        return not mode & stat.S_IWUSR
    if st.st_gid == os.getegid() or st.st_gid in os.getgroups():
        return not mode & stat.S_IWGRP
    return not mode & stat.S_IWOTH


def refuse_read_only(target: str | os.PathLike[str], replace_read_only: bool = False) -> None:
    """Raise :class:`ReadOnlyTarget` when ``target`` (through links) is an existing read-only file
    and replacing it was not confirmed; other faults are left to the writer."""
    if replace_read_only:
        return
    try:
        st = os.stat(target)
    except OSError:
        return
    if stat.S_ISREG(st.st_mode) and read_only(st):
        raise ReadOnlyTarget(errno.EACCES, "the file is read-only (make it writable to replace it)",
                             os.fsdecode(os.fspath(target)))


def write_atomic(target: str | os.PathLike[str], data: bytes, replace_read_only: bool = False) -> None:
    """Write ``data`` to ``target`` so that it holds either its old or its new content, never a mix.

    The data goes to a temporary file in the same folder, flushed and synced, which is then renamed
    over the target. A symbolic link is written through: the file it names gets the data and the
    link stays. An existing file keeps its permission bits (and, where allowed, its owner); a new
    one gets the usual ``0666 & ~umask``. Temporary files of ours left by a killed write, older than
    :data:`STALE_AFTER` seconds, are removed from the folder.

    A file with more than one hard link is written in place instead, so every name keeps seeing
    the same file (a rename would split them). The trade-off: that write is not atomic against a
    crash while it runs; the space is reserved first, so a full disk fails before any byte changes.

    An existing file that is read-only is refused (:class:`ReadOnlyTarget`), as desktop programs
    refuse it, unless ``replace_read_only`` (the user confirmed); it then keeps its mode.

    Raises :class:`OSError` on failure, after removing the temporary file.
    """
    with interrupt.raising():  # Ctrl+C now: the temporary file is removed, the old file left whole
        _write_atomic(target, data, replace_read_only)


def _write_atomic(target: str | os.PathLike[str], data: bytes, replace_read_only: bool) -> None:
    name = output_path(target)
    refuse_read_only(name, replace_read_only)
    real = Path(os.path.realpath(name))
    folder = real.parent
    _clean_stale(folder, real.name)
    try:
        old: os.stat_result | None = os.stat(real)
    except FileNotFoundError:
        old = None
    if old is not None and stat.S_ISDIR(old.st_mode):
        raise IsADirectoryError(errno.EISDIR, "is a folder, not a file", str(name))
    if old is not None and not stat.S_ISREG(old.st_mode):
        raise OSError(errno.EINVAL, f"is not a regular file (a {_kind(old.st_mode)})", str(name))
    if old is not None and old.st_nlink > 1:
        with interrupt.deferred():  # a file rewritten in place is not left half-written by a signal
            _write_in_place(real, data, old)
            if interrupt.installed():
                interrupt.written()
        return
    import secrets  # here, not at the top: it loads hmac and OpenSSL, a few ms of every start that writes nothing

    tmp = folder / f".shensha-{secrets.token_hex(8)}.part"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0), 0o666)
    try:
        try:
            with open(fd, "wb", closefd=False) as fh:
                fh.write(data)
                fh.flush()
            if old is not None:
                _keep_owner_and_mode(fd, tmp, old)
            os.fsync(fd)
        finally:
            os.close(fd)
        with interrupt.deferred():
            if interrupt.pending() is not None:  # interrupted before the rename: the old file stays
                raise KeyboardInterrupt
            os.replace(tmp, real)
            if interrupt.installed():  # the command line's one file; the window goes on writing others
                interrupt.written()
    except BaseException:
        with interrupt.deferred():
            try:
                os.unlink(tmp)
            except OSError:
                pass
        raise
    _sync_folder(folder)


def _keep_owner_and_mode(fd: int, path: Path, old: os.stat_result) -> None:
    if hasattr(os, "fchown") and (old.st_uid, old.st_gid) != (os.geteuid(), os.getegid()):
        try:
            os.fchown(fd, old.st_uid, old.st_gid)
        except OSError:
            pass  # only the owner's group or root may give a file away; the mode is kept anyway
    if hasattr(os, "fchmod"):
        os.fchmod(fd, stat.S_IMODE(old.st_mode))
    else:  # Windows before Python 3.13
        os.chmod(path, stat.S_IMODE(old.st_mode))


def _write_in_place(real: Path, data: bytes, old: os.stat_result) -> None:
    fd = os.open(real, os.O_WRONLY | getattr(os, "O_CLOEXEC", 0))
    try:
        if len(data) > old.st_size and hasattr(os, "posix_fallocate"):
            try:
                os.posix_fallocate(fd, 0, len(data))
            except OSError as e:
                os.ftruncate(fd, old.st_size)
                if e.errno not in (errno.EOPNOTSUPP, errno.EINVAL):
                    raise
        view = memoryview(data)
        os.lseek(fd, 0, os.SEEK_SET)
        written = 0
        while written < len(data):
            written += os.write(fd, view[written:])
        os.ftruncate(fd, len(data))
        os.fsync(fd)
    finally:
        os.close(fd)


def _sync_folder(folder: Path) -> None:
    """Make the rename itself durable (best effort: not every system can open a folder)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _clean_stale(folder: Path, target_name: str) -> None:
    """Remove our temporary files that a killed write left in ``folder``: ``.shensha-….part`` and the
    earlier ``.NAME.XXXXXXXX.part`` of ``target_name``, once untouched for :data:`STALE_AFTER` seconds.
    Nothing else is touched, and a failure here never stops the write."""
    earlier = re.compile(re.escape(f".{target_name}.") + r"[a-z0-9_]{8}\.part\Z")
    cutoff = time.time() - STALE_AFTER
    try:
        entries = os.scandir(folder)
    except OSError:
        return
    with entries:
        for entry in entries:
            if not (_PART_RE.match(entry.name) or earlier.match(entry.name)):
                continue
            try:
                st = entry.stat(follow_symlinks=False)
                if stat.S_ISREG(st.st_mode) and st.st_mtime < cutoff:
                    os.unlink(entry.path)
            except OSError:
                pass
