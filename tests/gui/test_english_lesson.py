"""The 课传 tab in English (issue 28): the lesson panel's text, the walk-through's steps and the
querent's years are English but for the names (spirits, generals, methods, lesson names, patterns,
each with pinyin where it is named as a term), branches, stems and the 毕法赋's verses (the book's words);
the patterns' and the lines' reasons in our English."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QApplication

from shensha_plates.core.english import english
from shensha_plates.core.liuren import liuren_tables
from shensha_plates.core.liuren.english_text import why_en
from shensha_plates.core.liuren.patterns import bifa_lines
from shensha_plates.gui.shell.main_window import MainWindow
from shensha_plates.gui.shell.settings import Settings
from tests.gui.test_english import leftover, names


def test_the_lesson_tab_in_english(tmp_path: Path, qtbot: object) -> None:
    settings = Settings(tmp_path / "s.ini")
    settings.set("lang", "en")
    w = MainWindow(settings=settings)
    qtbot.addWidget(w)  # type: ignore[attr-defined]
    w.resize(1280, 800)
    w.show()
    w.set_date("1998-11-30T12:00", "Asia/Shanghai", "lichun", "jie", "next-day")
    w.show_lesson()
    QApplication.processEvents()
    lr = liuren_tables()
    allowed = sorted(set(names() + [line.verse for line in bifa_lines()] + list(english().ke)
                         + [n.name for n in lr.names]), key=len, reverse=True)
    text = w.lesson.plain_text()
    assert "贼克 Zéikè · Rebellion and Control" in text and "officer-ghost" in text
    assert "Lesson 1: the upper 午 controls the lower 辛" in text
    # the school's choices are named in the books' words (as the window's settings are)
    lines = [line for line in text.splitlines() if " → " not in line]
    rest = {line: leftover(line, allowed) for line in lines if leftover(line, allowed)}
    assert rest == {}, rest
    # each pattern and 毕法赋 line with why in English, where the Chinese window gives the Chinese reason
    assert w.lesson.hits and w.lesson.bifa
    for h in (*w.lesson.hits, *w.lesson.bifa):
        assert why_en(h) and why_en(h) in text and h.why not in text, (h.why, why_en(h))
    assert "The transmissions 午 寅 戌 form the fire frame (寅 午 戌)" in text
    w.lesson.start_walk()
    steps = []
    for _ in range(20):
        step = w.lesson.current_walk_step()
        if step is None:
            break
        steps.append(step.words)
        w.lesson.go_walk(1)
    assert len(steps) > 5
    rest = {s: leftover(s, allowed) for s in steps if leftover(s, allowed)}
    assert rest == {}, rest


def test_the_lens_and_the_spotlight_carry_the_english(tmp_path: Path, qtbot: object) -> None:
    """Hovering a slot in English shows each name with its pinyin and gloss and the disc's English
    name; the presentation's spotlight gives each name's pinyin under it."""
    from shensha_plates.core.english import pinyin
    from shensha_plates.gui.style import branch_angle
    from tests.gui.test_readable import hover
    settings = Settings(tmp_path / "s.ini")
    settings.set("lang", "en")
    w = MainWindow(settings=settings)
    qtbot.addWidget(w)  # type: ignore[attr-defined]
    w.resize(1280, 800)
    w.show()
    QApplication.processEvents()
    ring = w.view.rings["L2"]
    hover(w, "L2", branch_angle(9, "south"))
    text = w.view.lens.label.text()
    entries = ring.entries((9 - ring.anchor) % 12)
    assert entries and all(pinyin(e.text) in text for e in entries)
    assert english().rings["L2"] in text
    assert any(english().spirit(e.spirit_id).gloss in text for e in entries)
    p = w.presenter
    p.enter()
    QApplication.processEvents()
    try:
        shown = p.spotlight.label.text()
        assert p.spotlight.names_shown() and all(pinyin(n) in shown for n in p.spotlight.names_shown())
    finally:
        p.exit()


def test_the_exported_lesson_rows_in_english() -> None:
    """The snapshot's lesson rows in English: a head is a branch or empty (its column is one character
    wide: 'Four lessons' ran past its edge), and the rows carry no Chinese but names."""
    from shensha_plates.core.calendar import CalendarOptions, from_datetime, parse_datetime
    from shensha_plates.core.engine import compute_plate
    from shensha_plates.core.liuren import compute_ke
    from shensha_plates.core.liuren.ke import month_general_at
    from shensha_plates.core.liuren.nianming import nian_ming
    from shensha_plates.core.liuren.plate import DEFAULT_OPTIONS
    from shensha_plates.gui.export.lesson_page import lesson_rows
    copts = CalendarOptions.from_cli(tz=None)
    info = from_datetime(parse_datetime("1998-11-30T12:00", copts), copts)
    ke = compute_ke(info.day, info.hour, month_general_at(info.moment, DEFAULT_OPTIONS).general)
    plate = compute_plate(info.state)
    nm = nian_ming(ke.plate.heaven, ke.plate.generals, 6, "m", 9)  # born 庚午 (1990), a man of 9
    rows = lesson_rows(ke, plate, "en", nm)
    assert all(len(head) <= 1 for head, _ in rows)
    lr = liuren_tables()
    allowed = sorted(set(names() + [line.verse for line in bifa_lines()] + list(english().ke)
                         + [n.name for n in lr.names] + ["本命", "行年"]), key=len, reverse=True)
    rest = {body: leftover(body, allowed) for _, body in rows if leftover(body, allowed)}
    assert rest == {}, rest
    assert any(body.startswith("Three transmissions: First 午 (officer-ghost") for _, body in rows)
    patterns = next(body for _, body in rows if body.startswith("Patterns: "))  # each with why, in English
    assert "炎上 Yánshàng · Flaming Upward (Fire Frame) (The transmissions 午 寅 戌 form the fire frame" in patterns
    from shensha_plates.core.liuren.patterns import detect_patterns
    assert all(why_en(h) in patterns and h.why not in patterns for h in detect_patterns(ke, plate, nm))
