"""Every text the program prints or shows, gathered by running it: the text commands in both scripts
over many states (every lesson of the 720 among them), the window's strings, the lesson panel's words
and the walk-through's steps. The font test checks the bundled font against this (what a user can
see), and the font's generator takes its characters from it as well as from the data."""

from __future__ import annotations

import io
from collections.abc import Iterator

from shensha_plates.core.cycle import BRANCHES, PILLARS, STEMS


def _run(args: list[str]) -> str:
    from shensha_plates.core.cli import main
    out, err = io.StringIO(), io.StringIO()
    main(args, out=out, err=err)
    return out.getvalue() + err.getvalue()


def _commands() -> Iterator[list[str]]:
    for lang in ("zh-Hans", "zh-Hant"):
        for month in range(1, 13):
            yield ["show", "--year", "丙午", "--month", str(month), "--xun", "甲辰", "--day", "庚戌", "--lang", lang]
        yield ["show", "--year", "午", "--month", "1", "--xun", "甲子", "--lang", lang]
        yield ["variants", "--lang", lang]
        yield ["select", "--year", "丙午", "--month", "11", "--lang", lang]
        for date in ("1990-05-17T08:30", "1984-02-04T23:30", "2000-01-01T00:00", "1998-11-30T12:00"):
            yield ["bazi", "--date", date, "--lang", lang]
        for a in STEMS + BRANCHES:
            for b in STEMS + BRANCHES:
                yield ["relate", a, b, "--lang", lang]
        for day in PILLARS:
            for hour in BRANCHES:
                yield ["ke", "--day", day, "--hour", hour, "--general", "寅", "--lang", lang]
        yield ["ke", "--all", "--lang", lang]


def printed_text() -> str:
    """All characters of everything gathered (sorted, once each)."""
    from shensha_plates.gui.i18n import all_text
    parts = [all_text()]
    seen: set[str] = set()
    for args in _commands():
        seen.update(_run(args))
    parts.append("".join(seen))
    parts.append(_lesson_words())
    parts.append(_english_words())
    return "".join(sorted(set("".join(parts))))


def _english_words() -> str:
    """The details panel with 英文注释 on, for every branch of a plate with every ring (both scripts)."""
    from shensha_plates.core.catalog import default_catalog
    from shensha_plates.core.engine import State, compute_plate
    from shensha_plates.gui.describe import branch_html
    plate = compute_plate(State(year_branch=6, month=1, xun=0, year_stem=2, day=0, hour=0))
    chars: set[str] = set()
    for lang in ("zh-Hans", "zh-Hant"):
        for b in range(12):
            chars.update(branch_html(plate, b, default_catalog(), lang, english=True))
    return "".join(chars)


def _lesson_words() -> str:
    """The lesson panel's and the walk-through's words for every day of the cycle (both scripts)."""
    from shensha_plates.core.engine import State, compute_plate
    from shensha_plates.core.liuren import compute_ke
    from shensha_plates.gui.lesson_text import lesson_parts, school_differences, walk_steps
    chars: set[str] = set()
    for day in range(60):
        for hour in (0, 6):
            ke = compute_ke(day, hour, 2)
            plate = compute_plate(State(year_branch=6, month=1, xun=day // 10, year_stem=2, day=day, hour=hour))
            for lang in ("zh-Hans", "zh-Hant"):
                chars.update(str(lesson_parts(ke, plate, lang)))
                chars.update(" ".join(school_differences(ke, lang)))
                for step in walk_steps(ke, lang):
                    chars.update(str(step))
    return "".join(chars)
