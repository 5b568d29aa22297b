"""Fuzzing the entry points of the core: random and mutated command lines, damaged catalogs.

Whatever comes in, the answer is a result or one clear message: never a traceback, never a
half-loaded catalog.
"""

from __future__ import annotations

import io
import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from core.catalog import load_catalog
from core.cli import main
from core.cycle import BRANCHES, PILLARS, XUN_HEADS
from core.errors import CatalogError
from tests.conftest import REPO

CATALOG_DIR = REPO / "resources" / "catalog"
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
