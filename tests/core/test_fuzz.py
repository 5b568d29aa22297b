"""Fuzzing the entry points of the core: random and mutated command lines, damaged catalogs,
numbers in every script's digits, output under other encodings and locales, files written over
links, modes and odd names.

Whatever comes in, the answer is a result or one clear message: never a traceback, never a
half-loaded catalog, never a file lost or half-written.
"""

from __future__ import annotations

import io
import json
import os
import stat
import subprocess
import sys
import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from shensha_plates.core.catalog import load_catalog
from shensha_plates.core.cli import main
from shensha_plates.core.cycle import BRANCHES, PILLARS, XUN_HEADS, ascii_int, parse_month
from shensha_plates.core.datafile import ReadOnlyTarget, write_atomic
from shensha_plates.core.errors import CatalogError, InputError
from shensha_plates.core.teaching import LessonError, load_lesson
from tests.conftest import REPO

CATALOG_DIR = REPO / "shensha_plates" / "resources" / "catalog"
GOOD_ARGV = ["show", "--year", "丙午", "--month", "11", "--xun", "甲辰", "--day", "庚戌", "--hour", "午",
             "--format", "json"]
DATE_ARGV = ["show", "--date", "2026-12-02T18:00", "--tz", "Asia/Shanghai", "--year-start", "lichun",
             "--month-basis", "jie", "--zi-hour", "next-day"]
WORDS = (["show", "--year", "--month", "--xun", "--day", "--hour", "--date", "--tz", "--variant", "--format",
          "--lang", "--now", "--year-start", "--month-basis", "--zi-hour", "json", "text", "trad", "simp",
          "tian_xi=shun_twelve", "palaces=kaoyuan", "palaces=x", "=", "", "-", "--", "13", "0", "-1", "正月",
          "冬月", "腊", "UTC", "+08:00", "1900-01-01", "2100-01-01", "2026-02-29", "24:00", "\x00", "﻿"]
         + list(PILLARS[:12]) + list(BRANCHES) + list(XUN_HEADS))


def run(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(argv, out, err)
    return code, out.getvalue(), err.getvalue()


def assert_clean(argv: list[str]) -> None:
    code, out, err = run(argv)
    assert code in (0, 2), (argv, code)
    assert "Traceback" not in err and "Traceback" not in out
    if code == 2:
        assert err.count("\n") == 1 and err.startswith("shensha-plates: error: "), (argv, err)


@given(st.lists(st.one_of(st.sampled_from(WORDS), st.text(max_size=12)), max_size=8))
def test_random_command_lines_never_crash(argv: list[str]) -> None:
    assert_clean(argv)


@st.composite
def mutated(draw: st.DrawFn, base: list[str]) -> list[str]:
    argv = list(base)
    for _ in range(draw(st.integers(1, 3))):
        i = draw(st.integers(0, len(argv) - 1))
        op = draw(st.sampled_from(("replace", "drop", "swap", "char", "dup")))
        if op == "replace":
            argv[i] = draw(st.one_of(st.sampled_from(WORDS), st.text(max_size=8)))
        elif op == "drop" and len(argv) > 1:
            del argv[i]
        elif op == "swap":
            j = draw(st.integers(0, len(argv) - 1))
            argv[i], argv[j] = argv[j], argv[i]
        elif op == "char" and argv[i]:
            k = draw(st.integers(0, len(argv[i]) - 1))
            argv[i] = argv[i][:k] + draw(st.characters()) + argv[i][k + 1:]
        else:
            argv.insert(i, argv[i])
    return argv


@given(st.one_of(mutated(GOOD_ARGV), mutated(DATE_ARGV)))
def test_mutated_command_lines_never_crash(argv: list[str]) -> None:
    assert_clean(argv)


def test_the_unmutated_command_lines_work() -> None:
    assert run(GOOD_ARGV)[0] == 0 and run(DATE_ARGV)[0] == 0


# -- the catalog loader ---------------------------------------------------------------------------

FILES = {p.name: p.read_bytes() for p in sorted(CATALOG_DIR.glob("*.toml"))}


@st.composite
def damaged(draw: st.DrawFn) -> tuple[str, bytes]:
    name = draw(st.sampled_from(sorted(FILES)))
    data = bytearray(FILES[name])
    for _ in range(draw(st.integers(1, 4))):
        op = draw(st.sampled_from(("cut", "delete", "insert", "flip", "swap_lines", "retype")))
        i = draw(st.integers(0, len(data) - 1))
        if op == "cut":
            data = data[:i]
        elif op == "delete":
            del data[i:i + draw(st.integers(1, 200))]
        elif op == "insert":
            data[i:i] = draw(st.binary(min_size=1, max_size=20))
        elif op == "flip":
            if data:
                data[min(i, len(data) - 1)] ^= 1 << draw(st.integers(0, 7))
        elif op == "swap_lines":
            lines = bytes(data).split(b"\n")
            a, b = draw(st.integers(0, len(lines) - 1)), draw(st.integers(0, len(lines) - 1))
            lines[a], lines[b] = lines[b], lines[a]
            data = bytearray(b"\n".join(lines))
        else:  # a value of the wrong type or out of range in some rule
            text = bytes(data)
            target = draw(st.sampled_from((b"offset = ", b"step = ", b"start = \"", b"key = \"", b"ring = \"")))
            k = text.find(target, i)
            if k >= 0:
                j = k + len(target)
                data[j:j + 1] = draw(st.sampled_from((b"99", b"\"x\"", b"-", b"[", b"true", b"\"\xe5\"")))
        if not data:
            break
    return name, bytes(data)


@settings(max_examples=120)
@given(damaged())
def test_damaged_catalogs_fail_whole_and_clearly(case: tuple[str, bytes]) -> None:
    name, data = case
    with tempfile.TemporaryDirectory() as tmp:
        paths = []
        for n in FILES:
            p = Path(tmp) / n
            p.write_bytes(data if n == name else FILES[n])
            paths.append(p)
        try:
            catalog = load_catalog(paths)
        except CatalogError as e:
            message = str(e)
            assert "\n" not in message.strip()
            assert message.startswith(f"catalog {Path(tmp) / name}"), message
            assert "entry" in message and "field" in message
            return
        # a harmless change (a comment, a swapped blank line): the catalog is then whole
        assert len(catalog.spirits) == sum(f.count(b"[[spirit]]") for f in (FILES | {name: data}).values())


# -- numbers in other scripts' digits ---------------------------------------------------------------

# Every character Python calls a digit that is not 0–9: decimal digits of other scripts (١, １, 𝟏 …),
# which int() reads, and digits such as ² and ⑪, which str.isdigit() passes and int() refuses.
FOREIGN_DIGITS = tuple(ch for ch in map(chr, range(0x80, sys.maxunicode + 1)) if ch.isdigit())
digit_text = st.lists(st.one_of(st.sampled_from(FOREIGN_DIGITS), st.sampled_from("0123456789")),
                      min_size=1, max_size=4).map("".join)


@given(digit_text)
def test_numbers_in_any_digits_are_read_only_from_ascii(text: str) -> None:
    assert (ascii_int(text) is not None) == text.isascii()
    try:
        month = parse_month(text)
    except InputError:
        assert not text.isascii() or not 1 <= int(text) <= 12
    else:
        assert text.isascii() and month == int(text)


@given(digit_text, st.sampled_from(["show", "select"]))
def test_command_lines_with_foreign_digits_are_refused_cleanly(text: str, command: str) -> None:
    argv = [command, "--year", "丙午", "--month", text, "--xun", "甲辰"]
    code, _, err = run(argv)
    assert_clean(argv)
    if not text.isascii():
        assert code == 2 and "invalid month" in err


@settings(max_examples=60)
@given(digit_text)
def test_lesson_months_in_foreign_digits_are_refused(text: str) -> None:
    step = {"year": "丙午", "month": text, "xun": "甲辰"}
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "l.json"
        path.write_text(json.dumps({"format": "shensha-plates-lesson", "version": 1, "name": "x",
                                    "steps": [step]}), "utf-8")
        try:
            lesson = load_lesson(path)
        except LessonError as e:
            assert "step 1" in str(e) and (not text.isascii() or not 1 <= int(text) <= 12)
        else:
            assert text.isascii() and lesson.steps[0].state.month == int(text)


# -- output under other encodings and locales --------------------------------------------------------

ENCODINGS = ("ascii", "latin-1", "cp1252", "utf-8", "utf-16", "ascii:strict", "latin-1:replace", "koi8-r", "")
LOCALES = ({}, {"LC_ALL": "C"}, {"LC_ALL": "C.UTF-8"}, {"LC_ALL": "POSIX", "PYTHONUTF8": "0", "PYTHONCOERCECLOCALE": "0"})
COMMANDS = (["show", "--year", "丙午", "--month", "11", "--xun", "甲辰"], ["select", "--year", "午", "--month", "冬"],
            ["relate", "寅", "亥"], ["bazi", "--date", "1990-05-17T08:30"], ["show", "--year", "乙午", "--month", "1"],
            ["show", "--help"], ["variants"])
ARG_BYTES = (b"\xe5\xe5", b"\xff", "丙午".encode(), "丙午".encode("gb18030"), b"\x80abc")
CLI = "import sys; from shensha_plates.core.cli import main; sys.exit(main())"


@settings(max_examples=40)
@given(st.sampled_from(COMMANDS), st.sampled_from(ENCODINGS), st.sampled_from(LOCALES),
       st.sampled_from(["text", "json"]), st.one_of(st.none(), st.sampled_from(ARG_BYTES)))
def test_output_under_any_encoding_and_locale(command: list[str], encoding: str, locale: dict[str, str],
                                              fmt: str, extra: bytes | None) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("LC_", "LANG", "PYTHONIO", "PYTHONUTF8"))}
    env.update(locale)
    if encoding:
        env["PYTHONIOENCODING"] = encoding
    argv: list[str | bytes] = [sys.executable, "-c", CLI, *command]
    if command[-1] != "--help":
        argv += ["--format", fmt]
    if extra is not None:
        argv += [b"--year", extra] if command[0] == "show" else [extra]
    proc = subprocess.run(argv, capture_output=True, env=env, cwd=REPO, timeout=60)
    err = proc.stderr.decode("utf-8", "backslashreplace")
    assert proc.returncode in (0, 2) and "Traceback" not in err, (argv, err)
    if proc.returncode == 2:
        assert err.count("\n") == 1 and err.startswith("shensha-plates: error: "), (argv, err)
        assert proc.stdout == b""
    elif fmt == "json" and command[-1] != "--help":
        name = (encoding.split(":")[0] or "utf-8") if encoding or locale.get("LC_ALL") != "POSIX" else "ascii"
        data = json.loads(proc.stdout.decode(name if name != "utf-16" else "utf-16"))
        reference = run([*command, "--format", "json"])[1] if extra is None else None
        if reference is not None:
            assert data == json.loads(reference)


# -- files written over links, modes and odd names ----------------------------------------------------

KINDS = ("none", "file", "symlink", "dangling", "chain", "hardlink", "folder", "fifo", "loop")
NAME_CHARS = st.sampled_from("ab-_.盘神煞 é")


@st.composite
def file_setup(draw: st.DrawFn) -> tuple[str, int, str, bytes]:
    kind = draw(st.sampled_from(KINDS))
    mode = draw(st.sampled_from((0o600, 0o640, 0o644, 0o444, 0o755, 0o700, 0o666)))
    stem = draw(st.text(NAME_CHARS, min_size=1, max_size=100)).strip(". ") or "x"
    while len((stem + ".json").encode()) > 255:
        stem = stem[:-1]
    data = draw(st.binary(max_size=300))
    return kind, mode, stem + ".json", data


def _parts(folder: Path) -> list[Path]:
    return [p for p in folder.rglob("*") if p.name.endswith(".part")]


@settings(max_examples=150)
@given(file_setup())
def test_writes_over_links_modes_and_odd_names(case: tuple[str, int, str, bytes]) -> None:
    kind, mode, name, data = case
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        (root / "store").mkdir()
        target = root / name
        real = root / "store" / "real.json"
        old = b"old content that must survive a failure"
        if kind in ("file", "symlink", "chain", "hardlink"):
            real.write_bytes(old)
            real.chmod(mode)
        if kind == "file":
            target.write_bytes(old)
            target.chmod(mode)
            real = target
        elif kind in ("symlink", "dangling"):
            target.symlink_to(real)
        elif kind == "chain":
            (root / "store" / "middle.json").symlink_to(real)
            target.symlink_to(root / "store" / "middle.json")
        elif kind == "hardlink":
            os.link(real, target)
        elif kind == "folder":
            target.mkdir()
        elif kind == "fifo":
            os.mkfifo(target)
        elif kind == "loop":
            target.symlink_to(target)
        # an existing read-only file (0444) is refused unless the user confirmed replacing it
        refused = kind in ("file", "symlink", "chain", "hardlink") and not mode & 0o200
        try:
            write_atomic(target, data)
        except ReadOnlyTarget:
            assert refused, (kind, oct(mode))
            assert real.read_bytes() == old and stat.S_IMODE(real.stat().st_mode) == mode
        except OSError:
            assert kind in ("folder", "fifo", "loop"), kind
            assert target.is_dir() if kind == "folder" else True
        else:
            assert kind not in ("folder", "fifo", "loop") and not refused, (kind, oct(mode))
            assert target.read_bytes() == data
            if kind in ("symlink", "dangling", "chain"):
                assert target.is_symlink() and real.read_bytes() == data
            if kind in ("file", "symlink", "chain", "hardlink"):
                assert stat.S_IMODE(real.stat().st_mode) == mode
            if kind == "hardlink":
                assert real.read_bytes() == data and real.stat().st_ino == target.stat().st_ino
            if kind == "none":
                umask = os.umask(0)
                os.umask(umask)
                assert stat.S_IMODE(target.stat().st_mode) == 0o666 & ~umask
        assert _parts(root) == []
