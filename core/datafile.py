"""Reading the rule files of the other systems (``resources/systems/*.toml``) and writing files
atomically: one place for the checks every reader repeats.

Faults in a rule file raise :class:`core.errors.CatalogError` naming the file, entry, field and
value; :func:`write_atomic` never leaves a partial or temporary file and keeps an existing file
whole when it fails.
"""

from __future__ import annotations

import os
import tempfile
import tomllib
from pathlib import Path
from typing import Any

from core.catalog import SEED_FILES, Source
from core.errors import CatalogError

__all__ = ["read_rules", "parse_source", "write_atomic"]


def read_rules(path: Path | str) -> tuple[str, dict[str, Any]]:
    """The file's name (for messages) and its TOML, with schema version 1 checked."""
    name = str(path)
    try:
        data = tomllib.loads(Path(path).read_bytes().decode("utf-8"))
    except OSError as e:
        raise CatalogError(name, "(file)", "(file)", name, f"cannot be read: {e.strerror or e}") from None
    except UnicodeDecodeError as e:
        raise CatalogError(name, "(file)", "(encoding)", e.object[e.start:e.end], "is not UTF-8") from None
    except tomllib.TOMLDecodeError as e:
        raise CatalogError(name, "(file)", "(syntax)", "", f"is not valid TOML: {e}") from None
    if data.get("schema_version") != 1:
        raise CatalogError(name, "(file)", "schema_version", data.get("schema_version"), "must be 1")
    return name, data


def parse_source(file: str, entry: str, field: str, raw: Any) -> Source:
    """A ``{ file = "000", quote = "…" }`` table: a seed code and a non-empty quotation."""
    if not isinstance(raw, dict) or set(raw) != {"file", "quote"}:
        raise CatalogError(file, entry, field, raw, "must be { file = …, quote = … }")
    if raw["file"] not in SEED_FILES:
        raise CatalogError(file, entry, f"{field}.file", raw["file"], "is not a seed file code")
    if not isinstance(raw["quote"], str) or not raw["quote"].strip():
        raise CatalogError(file, entry, f"{field}.quote", raw["quote"], "must be a non-empty quotation")
    return Source(raw["file"], raw["quote"])


def write_atomic(target: Path, data: bytes) -> None:
    """Write to a temporary file in the same folder, flush and sync it, then rename it over
    ``target``. Raises :class:`OSError` on failure, after removing the temporary file."""
    folder = target.parent if str(target.parent) else Path(".")
    tmp_name = None
    try:
        fd, tmp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".part", dir=folder)
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp_name, 0o666 & ~umask)
        os.replace(tmp_name, target)
        tmp_name = None
    finally:
        if tmp_name is not None:
            try:
                os.unlink(tmp_name)
            except OSError:
                pass
