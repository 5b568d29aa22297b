"""Benchmarks: speed of the engine, the calendar, sweeps, the window and exports, and memory.

    python bench/run.py [--quick] [--json PATH]

Every engine figure is a ratio against a reference measured in the same process (lunar-python,
cnlunar), each the median of repeated runs, so that a noisy machine moves both sides alike.
lunar-python and cnlunar are the references; cnlunar is installed for the benchmark only
(``pip install cnlunar``); kinliuren likewise for the Liu Ren figure (``pip install kinliuren``;
without it ke_vs_kinliuren is reported as not measured). The targets are in :data:`TARGETS` (issues
8, 12, 13 and 18); the table printed at the end lists every one of them, measured or not.

Start-up is a ratio too: the time from process start to the window painted, divided by the same
time for a bare PySide6 + pyqtgraph window (``pg.GraphicsView`` shown and painted, nothing else),
each the median of fresh processes started alternately, so that machine noise hits both alike.
"""

from __future__ import annotations

import argparse
import datetime as dt
import gc
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from collections.abc import Callable

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

# figure → (comparison, target). One line per figure, grouped by the issue that set it.
TARGETS = {
    # issue 8: the engine against its references
    "engine_vs_lunar": (">=", 20.0),
    "engine_vs_cnlunar": (">=", 2.0),
    "calendar_vs_lunar": (">=", 1 / 1.2),
    "sweep_vs_lunar": (">=", 1.0),
    "export_pdf_s": ("<=", 1.0),
    "export_svg_s": ("<=", 0.3),
    "export_html_s": ("<=", 1.0),
    "export_kit_s": ("<=", 1.0),
    # issue 12: every name readable (the smallest name drawn, from the layout: type size × the view's scale)
    "min_name_px_1280x800": (">=", 12.0),
    "min_name_px_1920x1080": (">=", 16.0),
    "min_name_px_stacked_1920x1080": (">=", 12.0),
    "min_name_px_one_plate_1280x800": (">=", 15.0),
    "min_name_pt_a4": (">=", 8.0),
    # issue 13: the Liu Ren lessons
    "ke_720_ms": ("<=", 30.0),
    "ke_720_full_ms": ("<=", 60.0),  # issue 25: with the patterns
    "ke_full_vs_kinliuren": (">=", 100.0),
    "ke_vs_kinliuren": (">=", 100.0),
    # issue 14: turning the hour is a state change like the others (issue 18's targets)
    "state_change_hour_ms": ("<=", 16.7),
    "frame_hour_ms_median": ("<=", 8.0),
    "frame_hour_ms_p95": ("<=", 16.0),
    # issue 18: faster than a frame
    "state_change_ms": ("<=", 16.7),
    "startup_vs_qt_floor": ("<=", 1.3),  # issue 22 item 6 (issue 18 had 1.5)
    # issue 22: the standalone bundle starts as fast (measured only when built: python bundle/build.py)
    "bundle_startup_vs_qt_floor": ("<=", 1.3),
    # issue 26: find the moment (a year by hour with a lesson condition; a century by day)
    "find_year_hours_s": ("<=", 0.5),
    "find_century_days_s": ("<=", 2.0),
    "find_memory_century_vs_20_years": ("<=", 1.2),  # peak traced memory flat (past the plate cache's 4,096)
    "export_png_s": ("<=", 0.5),
    "booklet_a4_s": ("<=", 10.0),
    "frame_ms_median": ("<=", 8.0),
    "frame_ms_p95": ("<=", 16.0),
    "memory_growth_mb": ("<", 20.0),
    "dialog_memory_growth_mb": ("<", 20.0),
}

# window size, layout, plate shown: the readable-size figures (gui.measure.window_min_name_px)
NAME_SIZES = {
    "min_name_px_1280x800": (1280, 800, "side", "both"),
    "min_name_px_1920x1080": (1920, 1080, "side", "both"),
    "min_name_px_stacked_1920x1080": (1920, 1080, "stacked", "both"),
    "min_name_px_one_plate_1280x800": (1280, 800, "side", "lower"),
}


def median_time(fn: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        gc.collect()
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def paired_medians(fns: list[Callable[[], object]], repeat: int) -> list[float]:
    """The median time of each function, run in turn (a, b, a, b, …) so that a change in the
    machine's load during the measurement hits every side alike."""
    times: list[list[float]] = [[] for _ in fns]
    for _ in range(repeat):
        for i, fn in enumerate(fns):
            gc.collect()
            t = time.perf_counter()
            fn()
            times[i].append(time.perf_counter() - t)
    return [statistics.median(ts) for ts in times]


def rss_mb() -> float:
    with open("/proc/self/status") as fh:
        for line in fh:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


# -- engine, calendar and sweep ------------------------------------------------------------------

def bench_core(quick: bool, results: dict[str, float], details: dict[str, object]) -> None:
    from lunar_python import Solar

    from shensha_plates.core.calendar import CalendarOptions, from_datetime, sweep
    from shensha_plates.core.engine import _plate, compute_plate

    start, end = dt.date(1950, 1, 1), dt.date(2009, 12, 31)
    days = [start + dt.timedelta(days=i) for i in range((end - start).days + 1)]
    repeat = 3 if quick else 5
    sample = days[:: 10 if quick else 1]
    states = [s for _, s in sweep(start, end)]
    states_sample = states[:: 10 if quick else 1]
    lunars = [Solar.fromYmdHms(d.year, d.month, d.day, 12, 0, 0).getLunar() for d in sample]

    # lunar-python's day spirits for a day: the Lunar for that day is built and asked for its
    # 吉神 and 凶煞 (the way a caller gets them; cnlunar's figure below likewise builds its almanac)
    def lunar_spirits() -> None:
        for d in sample:
            lun = Solar.fromYmdHms(d.year, d.month, d.day, 12, 0, 0).getLunar()
            lun.getDayJiShen()
            lun.getDayXiongSha()

    # the same two calls on Lunar objects built beforehand (reported, not a target)
    def lunar_calls_only() -> None:
        for lun in lunars:
            lun.getDayJiShen()
            lun.getDayXiongSha()

    def engine() -> None:
        _plate.cache_clear()  # every plate computed afresh, no cache hits
        for s in states_sample:
            compute_plate(s)

    engine()  # the compiled tables are made on first use: a session's later plates are what we time
    t_lunar, t_engine = paired_medians([lunar_spirits, engine], repeat)
    results["engine_vs_lunar"] = t_lunar / t_engine
    details["engine_us_per_day"] = t_engine / len(states_sample) * 1e6
    details["lunar_jishen_xiongsha_us_per_day"] = t_lunar / len(sample) * 1e6
    t_calls = median_time(lunar_calls_only, repeat)
    details["lunar_calls_only_us_per_day"] = t_calls / len(sample) * 1e6
    details["engine_vs_lunar_calls_only"] = t_calls / t_engine
    try:
        import cnlunar

        moments = [dt.datetime(d.year, d.month, d.day, 12) for d in sample]

        def cn() -> None:
            for m in moments:
                cnlunar.Lunar(m)
        t_cn, t_engine_cn = paired_medians([cn, engine], repeat)
        results["engine_vs_cnlunar"] = t_cn / t_engine_cn
        details["cnlunar_us_per_day"] = t_cn / len(sample) * 1e6
    except ImportError:
        details["cnlunar"] = "not installed (pip install cnlunar)"

    # calendar: date → state, against the lunar-python calls it wraps
    tz = CalendarOptions().tzinfo()
    cal_days = days[:: 20 if quick else 5]
    aware = [dt.datetime(d.year, d.month, d.day, 12, tzinfo=tz) for d in cal_days]

    def ours() -> None:
        for m in aware:
            from_datetime(m)

    def theirs() -> None:
        for m in aware:
            lun = Solar.fromYmdHms(m.year, m.month, m.day, m.hour, m.minute, m.second).getLunar()
            lun.getYearInGanZhiExact()
            lun.getMonthInGanZhiExact()
            lun.getDayInGanZhiExact()
            lun.getTimeInGanZhi()
            lun.getPrevJie(False)
            lun.getNextJie(False)

    t_ours, t_theirs = paired_medians([ours, theirs], repeat)
    results["calendar_vs_lunar"] = t_theirs / t_ours
    details["calendar_us_per_date"] = t_ours / len(aware) * 1e6
    details["lunar_conversion_us_per_date"] = t_theirs / len(aware) * 1e6

    # sweep: the plates of every day of 1950–2009 in one call, against the same lunar-python sweep
    sweep_end = end if not quick else dt.date(1955, 12, 31)
    n_sweep = (sweep_end - start).days + 1

    def our_sweep() -> None:
        _plate.cache_clear()
        for _, s in sweep(start, sweep_end):
            compute_plate(s)

    def lunar_sweep() -> None:
        for i in range(n_sweep):
            d = start + dt.timedelta(days=i)
            lun = Solar.fromYmdHms(d.year, d.month, d.day, 12, 0, 0).getLunar()
            lun.getDayJiShen()
            lun.getDayXiongSha()

    t_sweep = median_time(our_sweep, 1 if quick else 3)
    t_lsweep = median_time(lunar_sweep, 1)
    results["sweep_vs_lunar"] = t_lsweep / t_sweep
    details["sweep_days"] = n_sweep
    details["sweep_s"] = t_sweep
    details["lunar_sweep_s"] = t_lsweep


# -- the Liu Ren plate (issue 13) -----------------------------------------------------------------

def bench_find(quick: bool, results: dict[str, float], details: dict[str, object]) -> None:
    """``find``: 4,380 moments of a year read by hour with a lesson condition, and 36,525 days of a
    century with a spirit condition; the peak memory of the century against that of twenty years (both
    past the engine's cache of 4,096 plates, so what grows with the range would show)."""
    import tracemalloc

    from shensha_plates.core.find import parse_condition, search

    def year_hours() -> int:
        return sum(1 for _ in search(dt.date(2027, 1, 1), dt.date(2027, 12, 31),
                                     [parse_condition("ke=伏吟"), parse_condition("天马@chu")], every="hour", any_of=True))

    def days(last: int) -> int:
        return sum(1 for _ in search(dt.date(1950, 1, 1), dt.date(last, 12, 31), [parse_condition("天德@day")]))
    repeat = 1 if quick else 3
    results["find_year_hours_s"] = median_time(year_hours, repeat)
    results["find_century_days_s"] = median_time(lambda: days(2049), repeat)
    peaks = []
    for last in (1969, 2049):
        tracemalloc.start()
        days(last)
        peaks.append(tracemalloc.get_traced_memory()[1])
        tracemalloc.stop()
    results["find_memory_century_vs_20_years"] = peaks[1] / peaks[0]
    details["find_hits"] = f"year by hour: {year_hours()} moments; century by day: {days(2049)} days"
    details["find_peak_mb"] = f"twenty years {peaks[0] / 2**20:.1f} MB, a century {peaks[1] / 2**20:.1f} MB"


def bench_liuren(quick: bool, results: dict[str, float], details: dict[str, object]) -> None:
    """ke_720_ms: all 720 lessons (60 days × 12 heaven branches over 子, hour 子), default options, every
    chart computed afresh (the caches of lessons and plates emptied before each run). ke_vs_kinliuren:
    one chart (seed 002's first case, 辛巳 日 寅将午时) against kinliuren's in the same run; kinliuren is
    installed for the benchmark only (``pip install kinliuren``)."""
    from shensha_plates.core.liuren import compute_ke
    from shensha_plates.core.liuren.method import _course
    from shensha_plates.core.liuren.plate import _heaven_plate
    from shensha_plates.core.liuren.tables import liuren_tables

    liuren_tables()  # the rule files are read once per process, not per chart

    def clear() -> None:
        _course.cache_clear()
        _heaven_plate.cache_clear()

    def all_720() -> None:
        for day in range(60):
            for turn in range(12):
                compute_ke(day, 0, turn)

    # Each of the 720 charts is timed on its own in every pass (caches emptied before the pass); a
    # chart's cost is its median over the passes, and ke_720_ms their sum. On a shared machine a pass
    # is often preempted for milliseconds at a time; the per-chart median drops those pauses (which hit
    # random charts) and keeps every chart's own cost. The plain whole-pass median is reported too.
    charts = [(day, turn) for day in range(60) for turn in range(12)]
    per_chart: list[list[float]] = [[] for _ in charts]
    passes, warm = [], []
    for _ in range(5 if quick else 15):
        clear()
        gc.collect()
        start = time.perf_counter()
        for i, (day, turn) in enumerate(charts):
            t = time.perf_counter()
            compute_ke(day, 0, turn)
            per_chart[i].append(time.perf_counter() - t)
        passes.append(time.perf_counter() - start)
        t = time.perf_counter()
        all_720()
        warm.append(time.perf_counter() - t)
    results["ke_720_ms"] = sum(statistics.median(ts) for ts in per_chart) * 1000
    # issue 25: the same 720 charts with the patterns they form (课体, 格; the 卦 need a plate of a year)
    # and the lines of the 毕法赋 they show
    from shensha_plates.core.liuren.patterns import bifa_lines, patterns, read_lesson
    patterns(), bifa_lines()  # the rule files are read once per process
    full: list[list[float]] = [[] for _ in charts]
    for _ in range(5 if quick else 15):
        clear()
        gc.collect()
        for i, (day, turn) in enumerate(charts):
            t = time.perf_counter()
            read_lesson(compute_ke(day, 0, turn))
            full[i].append(time.perf_counter() - t)
    results["ke_720_full_ms"] = sum(statistics.median(ts) for ts in full) * 1000
    # the index of the rules (made once per process, after the first readings): what making it costs
    from shensha_plates.core.liuren import patterns as patterns_module
    builds = []
    for _ in range(3):
        patterns_module._default_index.cache_clear()
        t = time.perf_counter()
        patterns_module._default_index()
        builds.append(time.perf_counter() - t)
    details["detect_index_build_ms"] = statistics.median(builds) * 1000
    details["ke_720_pass_median_ms"] = statistics.median(passes) * 1000
    details["ke_720_cached_ms"] = statistics.median(warm) * 1000
    t = time.perf_counter()
    for _ in range(1_000_000):
        pass
    details["python_empty_loop_1m_ms"] = (time.perf_counter() - t) * 1000  # how loaded the machine was

    ours = []
    for _ in range(100 if quick else 400):
        clear()
        t = time.perf_counter()
        compute_ke(17, 6, 2)
        ours.append(time.perf_counter() - t)
    t_ours = statistics.median(ours)
    details["ke_chart_us"] = t_ours * 1e6
    full_one = []
    for _ in range(100 if quick else 400):
        clear()
        t = time.perf_counter()
        read_lesson(compute_ke(17, 6, 2))
        full_one.append(time.perf_counter() - t)
    details["ke_chart_full_us"] = statistics.median(full_one) * 1e6
    try:
        from kinliuren.kinliuren import Liuren
    except ImportError:
        details["kinliuren"] = "not installed (pip install kinliuren): ke_vs_kinliuren not measured"
        return
    theirs = []
    for _ in range(10 if quick else 40):
        t = time.perf_counter()
        Liuren("小雪", "十", "辛巳", "甲午").result(0)
        theirs.append(time.perf_counter() - t)
    t_theirs = statistics.median(theirs)
    details["kinliuren_chart_ms"] = t_theirs * 1000
    results["ke_vs_kinliuren"] = t_theirs / t_ours
    results["ke_full_vs_kinliuren"] = t_theirs / statistics.median(full_one)  # issue 25: still ≥ 100×


# -- the window and exports ----------------------------------------------------------------------

def bench_gui(quick: bool, results: dict[str, float], details: dict[str, object]) -> None:
    from PySide6.QtGui import QImage, QPainter

    from shensha_plates.gui.shell.app import prepare_application

    app = prepare_application()  # as the program sets it up: its interface font, antialiasing
    from shensha_plates.core.engine import State, compute_plate
    from shensha_plates.gui.fonts import register_fonts
    from shensha_plates.gui.shell.main_window import MainWindow
    from shensha_plates.gui.shell.settings import Settings
    from shensha_plates.gui.export.options import SnapshotOptions
    from shensha_plates.gui.export.snapshot import export

    register_fonts()
    tmp = Path(tempfile.mkdtemp())
    w = MainWindow(settings=Settings(tmp / "s.ini"))
    # the window at 1920×1080: the plate canvas gets its share of it, and the fitted layout its
    # larger text, as on a full-HD screen
    w.resize(1920, 1080)
    w.show()
    app.processEvents()
    view = w.view
    view.reset_view()
    app.processEvents()
    details["frame_view_px"] = f"{view.width()}×{view.height()} in a 1920×1080 window"
    img = QImage(view.size(), QImage.Format.Format_ARGB32_Premultiplied)

    def paint() -> None:
        p = QPainter(img)
        view.render(p)
        p.end()

    # one animation frame of a dial turn: the month dial steps, every disc of the lower plate is
    # part-way through its animation, and the scene is painted into an image
    paint()
    frames = []
    steps = 8 if quick else 30
    for _ in range(steps):
        w.model.step("month", 1)
        moving = [r for r in view.rings.values() if r.animating]
        for f in range(1, 9):
            for ring in moving:
                ring._anim.setCurrentTime(int(ring._anim.duration() * f / 9))
            t = time.perf_counter()
            paint()
            frames.append((time.perf_counter() - t) * 1000)
        view.finish_animations()
        paint()  # the discs at rest again
    frames.sort()
    results["frame_ms_median"] = statistics.median(frames)
    results["frame_ms_p95"] = frames[max(0, int(len(frames) * 0.95) - 1)]
    details["frames"] = len(frames)

    # a full state change: rings placed, side panel and details updated, and the window painted —
    # what a user waits for after a click. The pending events are handled as the event loop would;
    # the plate's paint events are counted to make sure each change is painted, and painted once (a
    # forced repaint before the event loop painted it twice: the scene's own queued update follows).
    view.set_reduce_motion(True)
    w.select_branch(6)
    changes = []
    from PySide6.QtCore import QEvent, QObject

    class PaintCounter(QObject):
        count = 0

        def eventFilter(self, obj: object, ev: QEvent) -> bool:  # noqa: N802 - Qt's name
            if ev.type() == QEvent.Type.Paint:
                self.count += 1
            return False
    counter = PaintCounter()
    view.viewport().installEventFilter(counter)
    states = [State.parse(y, m, x) for y, m, x in (("丙午", 11, "甲辰"), ("丁未", 3, "甲子"), ("戊申", 7, "甲戌"),
                                                  ("己酉", 1, "甲午"), ("庚戌", 9, "甲寅"))]
    painted = []
    cpu = []
    for i in range(15 if quick else 40):
        st = states[i % len(states)]
        counter.count = 0
        c = time.thread_time()
        t = time.perf_counter()
        w.model.set_state(st)
        app.processEvents()
        changes.append((time.perf_counter() - t) * 1000)
        cpu.append((time.thread_time() - c) * 1000)
        painted.append(counter.count)
    view.viewport().removeEventFilter(counter)
    if min(painted) < 1:
        raise RuntimeError("a state change was not painted: the figure would leave out the paint")
    details["state_change_paints"] = f"{min(painted)}–{max(painted)} per change"
    results["state_change_ms"] = statistics.median(changes)
    # the processor time of the same changes (this thread only): what the change costs when the
    # machine is shared and the wall clock also counts other processes' turns
    details["state_change_cpu_ms"] = statistics.median(cpu)
    bench_hour(w, app, paint, counter, quick, results, details)

    # exports
    plate = compute_plate(State.parse("丙午", 11, "甲辰", "庚戌"))
    out = tmp / "x"
    results["export_pdf_s"] = median_time(lambda: export(str(out) + ".pdf", plate, None,
                                                         SnapshotOptions(fmt="pdf", paper="A4", table=True)), 3)
    png_wall, png_cpu = [], []
    for _ in range(3):
        gc.collect()
        c, t = time.thread_time(), time.perf_counter()
        export(str(out) + ".png", plate, None, SnapshotOptions(fmt="png", width=3000, height=3000))
        png_wall.append(time.perf_counter() - t)
        png_cpu.append(time.thread_time() - c)
    results["export_png_s"] = statistics.median(png_wall)
    details["export_png_cpu_s"] = statistics.median(png_cpu)  # this thread's processor time, 3000×3000
    details["export_png_default_size_s"] = median_time(lambda: export(str(out) + ".png", plate, None,
                                                                   SnapshotOptions(fmt="png")), 3)
    results["export_svg_s"] = median_time(lambda: export(str(out) + ".svg", plate, None,
                                                         SnapshotOptions(fmt="svg")), 3)
    bench_paper(quick, plate, tmp, results, details)
    # issue 27: the interactive page and the paper kit (each written whole, to a file)
    from shensha_plates.core.datafile import write_atomic
    from shensha_plates.core.page import page_html
    from shensha_plates.gui.export.kit import write_kit
    results["export_html_s"] = median_time(
        lambda: write_atomic(str(out) + ".html", page_html(plate.state).encode("utf-8")), 3)
    details["export_html_mb"] = Path(str(out) + ".html").stat().st_size / 1e6
    results["export_kit_s"] = median_time(lambda: write_kit(str(out) + "-kit.pdf"), 3)

    # memory: resident size after 10,000 state changes (state, options and plate churn)
    import random
    rng = random.Random(7)
    # first the caches every session fills and keeps (each disc's bitmaps in each of its twelve
    # places, the engine's rows): random turns of all four dials, each painted; then the growth
    for _ in range(600):
        w.model.step(rng.choice(("year", "month", "xun", "day")), rng.choice((-1, 1)))
        app.processEvents()
    gc.collect()
    before = rss_mb()
    count = 2000 if quick else 10000
    for i in range(count):
        dial = rng.choice(("year", "month", "xun", "day"))
        w.model.step(dial, rng.choice((-1, 1)))
        if i % 10 == 0:
            app.processEvents()
    app.processEvents()
    gc.collect()
    results["memory_growth_mb"] = rss_mb() - before
    details["memory_state_changes"] = count
    bench_dialogs(w, quick, results, details)
    w.close()
    bench_name_sizes(results, details)


def bench_name_sizes(results: dict[str, float], details: dict[str, object]) -> None:
    """The smallest name drawn, in Zhuang's example state, the real window at each size."""
    from tests.support.measure import window_min_name_px

    for key, (width, height, layout, plate) in NAME_SIZES.items():
        results[key] = window_min_name_px(width, height, layout, plate)
    details["min_name_px_state"] = "甲子年 正月 甲子旬 (window resized to the size; offscreen)"


def bench_hour(w: object, app: object, paint: Callable[[], None], counter: object, quick: bool,
               results: dict[str, float], details: dict[str, object]) -> None:
    """The Liu Ren plate: seed 002's first case (a day and an hour, so the heaven plate and the
    generals are drawn), the lesson panel shown. Frames while the hour turns (the heaven rings in
    motion) and the hour turn as a state change: plate, 式 and lesson recomputed, rings placed,
    panels refreshed, exactly as the other dials are measured."""
    from shensha_plates.core.engine import State
    view = w.view  # type: ignore[attr-defined]
    model = w.model  # type: ignore[attr-defined]
    view.set_reduce_motion(False)
    w.set_date("1998-11-30T12:00", "Asia/Shanghai", "lichun", "jie", "next-day")  # type: ignore[attr-defined]
    w.show_lesson()  # type: ignore[attr-defined]
    app.processEvents()  # type: ignore[attr-defined]
    view.finish_animations()
    if not view.config.heaven:
        raise RuntimeError("the heaven rings are not shown: the hour figures would leave them out")
    paint()
    frames = []
    for _ in range(8 if quick else 30):
        model.step("hour", 1)
        moving = [r for r in view.all_rings().values() if r.animating]
        for f in range(1, 9):
            for ring in moving:
                ring._anim.setCurrentTime(int(ring._anim.duration() * f / 9))
            t = time.perf_counter()
            paint()
            frames.append((time.perf_counter() - t) * 1000)
        view.finish_animations()
        paint()
    frames.sort()
    results["frame_hour_ms_median"] = statistics.median(frames)
    results["frame_hour_ms_p95"] = frames[max(0, int(len(frames) * 0.95) - 1)]
    view.set_reduce_motion(True)
    view.viewport().installEventFilter(counter)  # type: ignore[arg-type]
    changes, painted, cpu = [], [], []
    for _ in range(15 if quick else 40):
        counter.count = 0  # type: ignore[attr-defined]
        c = time.thread_time()
        t = time.perf_counter()
        model.step("hour", 1)
        # the lesson panel's second pane (spirits, names, schools) is laid out a moment after a turn
        # (once when turning fast); the figure counts it, laid out now, in the same single paint
        w.lesson.flush()  # type: ignore[attr-defined]
        app.processEvents()  # type: ignore[attr-defined]
        changes.append((time.perf_counter() - t) * 1000)
        cpu.append((time.thread_time() - c) * 1000)
        painted.append(counter.count)  # type: ignore[attr-defined]
    details["state_change_hour_cpu_ms"] = statistics.median(cpu)
    view.viewport().removeEventFilter(counter)  # type: ignore[arg-type]
    if min(painted) < 1:
        raise RuntimeError("an hour turn was not painted: the figure would leave out the paint")
    details["state_change_hour_paints"] = f"{min(painted)}–{max(painted)} per change"
    results["state_change_hour_ms"] = statistics.median(changes)
    model.set_state(State.parse("丙午", 11, "甲辰"))  # back to a state without the 式 for what follows
    app.processEvents()  # type: ignore[attr-defined]


def bench_paper(quick: bool, plate: object, tmp: Path, results: dict[str, float],
                details: dict[str, object]) -> None:
    """Paper: the smallest name on the A4 PDF's plates (from the page layout: the name font's size
    times the page's scale) and the time to write the 12-month booklet."""
    from shensha_plates.gui.export.booklet import BookletOptions, write_booklet
    from shensha_plates.gui.export.options import SnapshotOptions
    from shensha_plates.gui.export.page_layout import min_name_pt
    results["min_name_pt_a4"] = min_name_pt(plate, SnapshotOptions(fmt="pdf", paper="A4"))  # type: ignore[arg-type]
    for paper, landscape in (("A4", True), ("A3", False), ("A3", True)):
        key = f"min_name_pt_{paper.lower()}{'_landscape' if landscape else ''}"
        details[key] = min_name_pt(plate, SnapshotOptions(fmt="pdf", paper=paper, landscape=landscape))  # type: ignore[arg-type]
    results["booklet_a4_s"] = median_time(
        lambda: write_booklet(tmp / "booklet.pdf", BookletOptions.parse("丙午", paper="A4")), 1 if quick else 3)


def bench_dialogs(w: object, quick: bool, results: dict[str, float], details: dict[str, object]) -> None:
    """Resident memory after 1,000 dialog open/close cycles (issue 18): every kind of dialog opened
    and closed in turn, 100 rounds of the ten kinds, measured after ten rounds that fill the caches
    a session keeps (glyphs, styles)."""
    from tests.support.dialog_cycle import DIALOG_KINDS, dialog_cycle, live_dialogs, settle
    rounds = -(-(200 if quick else 1000) // len(DIALOG_KINDS))  # at least that many cycles
    cycles = rounds * len(DIALOG_KINDS)
    dialog_cycle(w, 10)  # type: ignore[arg-type]
    settle()
    before = rss_mb()
    t = time.perf_counter()
    dialog_cycle(w, rounds)  # type: ignore[arg-type]
    settle()
    results["dialog_memory_growth_mb"] = rss_mb() - before
    alive = len(live_dialogs())
    if alive:
        raise RuntimeError(f"{alive} dialogs still alive after the dialog cycles")
    details["dialog_cycles"] = f"{cycles} ({rounds} rounds of {len(DIALOG_KINDS)} kinds) in {time.perf_counter() - t:.0f} s"


# The program: what ``shensha-plates`` runs before its event loop (gui.shell.app.open_window), then
# the window painted. The floor: a bare PySide6 + pyqtgraph window of the same size, painted.
# Each prints the monotonic clock (system-wide on Linux) once painted; the parent reads the clock
# just before starting the process, so the figure runs from process start (interpreter included)
# to the window painted, and leaves out the process's exit.
_STARTUP_PROGRAM = """\
import os, sys, time
os.environ.setdefault('QT_QPA_PLATFORM', 'offscreen')
from shensha_plates.gui.shell.app import open_window
w = open_window([])
from PySide6.QtWidgets import QApplication
QApplication.processEvents(); w.view.grab()
print('painted', time.clock_gettime(time.CLOCK_MONOTONIC), time.process_time(), w.width(), w.height())
"""
_STARTUP_FLOOR = """\
import os, sys, time
os.environ.setdefault('QT_QPA_PLATFORM', 'offscreen')
from PySide6.QtWidgets import QApplication
app = QApplication([])
import pyqtgraph as pg
v = pg.GraphicsView(); v.resize(int(sys.argv[1]), int(sys.argv[2])); v.show()
app.processEvents(); v.grab()
print('painted', time.clock_gettime(time.CLOCK_MONOTONIC), time.process_time(), v.width(), v.height())
"""


# The floor with Python's garbage collector paused as the program pauses it for its start
# (gui.shell.app.open_window): the like-for-like figure, so that what the pause gains is seen apart.
_STARTUP_FLOOR_PAUSED = "import gc\ngc.disable()\n" + _STARTUP_FLOOR


def _time_to_paint(code: str, args: list[str], env: dict[str, str]) -> tuple[float, float, list[str]]:
    """Seconds from process start to the window painted (wall clock), the process's processor time
    up to then (all its threads: what it cost, whatever else the machine ran), and the window size."""
    t = time.clock_gettime(time.CLOCK_MONOTONIC)
    proc = subprocess.run([sys.executable, "-c", code, *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=120, env=env)
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("painted ")]
    if proc.returncode != 0 or not lines:
        raise RuntimeError(f"a start-up process failed:\n{proc.stderr[-2000:]}")
    fields = lines[-1].split()
    return float(fields[1]) - t, float(fields[2]), fields[3:]


def bench_startup(quick: bool, results: dict[str, float], details: dict[str, object]) -> None:
    # As installed: pip byte-compiles a package when it installs it, as it did the libraries the
    # floor loads. A checkout run with PYTHONDONTWRITEBYTECODE set (as on the machine this bench was
    # written on) would otherwise compile every module of ours from source at every start, which no
    # installed program does. (Python writes these files itself when allowed; they are git-ignored.)
    import compileall
    compileall.compile_dir(ROOT / "shensha_plates", quiet=1)
    with tempfile.TemporaryDirectory() as tmp:
        # settings and the parsed-TOML cache in a folder of their own: a user's second start
        env = dict(os.environ, QT_QPA_PLATFORM="offscreen", SHENSHA_PLATES_CONFIG_DIR=str(Path(tmp) / "config"),
                   SHENSHA_PLATES_CACHE_DIR=str(Path(tmp) / "cache"), SHENSHA_REDUCE_MOTION="")
        # one start of each, not counted: the first fills the cache (reported) and gives the size
        cold, _, size = _time_to_paint(_STARTUP_PROGRAM, [], env)
        _time_to_paint(_STARTUP_FLOOR, size, env)
        program, floor, program_cpu, floor_cpu, paused = [], [], [], [], []
        for _ in range(7 if quick else 15):
            wall, cpu, _ = _time_to_paint(_STARTUP_PROGRAM, [], env)
            program.append(wall)
            program_cpu.append(cpu)
            wall, cpu, _ = _time_to_paint(_STARTUP_FLOOR, size, env)
            floor.append(wall)
            floor_cpu.append(cpu)
            paused.append(_time_to_paint(_STARTUP_FLOOR_PAUSED, size, env)[0])
    p, f = statistics.median(program), statistics.median(floor)
    results["startup_vs_qt_floor"] = p / f
    details["startup_s"] = p
    details["startup_qt_floor_s"] = f
    details["startup_first_s"] = cold
    # the same ratio from each program start and the floor start right after it (the load changes
    # less within a pair), and from processor time (which another process's load does not inflate)
    details["startup_vs_qt_floor_pairwise"] = statistics.median(a / b for a, b in zip(program, floor, strict=True))
    details["startup_cpu_vs_qt_floor"] = statistics.median(program_cpu) / statistics.median(floor_cpu)
    details["startup_cpu_s"] = statistics.median(program_cpu)
    details["startup_vs_qt_floor_gc_paused"] = p / statistics.median(paused)
    details["startup_window"] = "×".join(size)


BUNDLE = ROOT / "build" / "bundle" / "dist" / "shensha-plates"


def _bundle_time_to_paint(exe: Path, env: dict[str, str], cwd: str) -> tuple[float, float, list[str]]:
    """As :func:`_time_to_paint`, for the bundle's window: ``gui --check`` prints the same line."""
    t = time.clock_gettime(time.CLOCK_MONOTONIC)
    proc = subprocess.run([str(exe), "gui", "--check"], cwd=cwd, capture_output=True, text=True, timeout=120, env=env)
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("painted ")]
    if proc.returncode != 0 or not lines:
        raise RuntimeError(f"the bundle's window did not start:\n{proc.stderr[-2000:]}")
    fields = lines[-1].split()
    return float(fields[1]) - t, float(fields[2]), fields[3:5]


def bench_bundle(quick: bool, results: dict[str, float], details: dict[str, object]) -> None:
    """The standalone bundle (issue 22), when built (python bundle/build.py): its size on disk, the
    time to its window painted against the bare PySide6 + pyqtgraph floor (alternate fresh
    processes, medians), and a text command's start-up (--version, show)."""
    exe = BUNDLE / ("shensha-plates.exe" if sys.platform == "win32" else "shensha-plates")
    if not exe.is_file():
        details["bundle"] = "not built (python bundle/build.py)"
        return
    files = [f for f in BUNDLE.rglob("*") if f.is_file() and not f.is_symlink()]
    details["bundle_size_mb"] = sum(f.stat().st_size for f in files) / 1e6
    details["bundle_files"] = len(files)
    with tempfile.TemporaryDirectory() as tmp:
        env = {"PATH": "/usr/bin:/bin", "HOME": tmp, "LANG": "C.UTF-8", "QT_QPA_PLATFORM": "offscreen",
               "SHENSHA_PLATES_CONFIG_DIR": str(Path(tmp) / "config"),
               "SHENSHA_PLATES_CACHE_DIR": str(Path(tmp) / "cache"), "SHENSHA_REDUCE_MOTION": ""}
        floor_env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
        cold, _, size = _bundle_time_to_paint(exe, env, tmp)
        _time_to_paint(_STARTUP_FLOOR, size, floor_env)
        program, floor = [], []
        for _ in range(7 if quick else 15):
            program.append(_bundle_time_to_paint(exe, env, tmp)[0])
            floor.append(_time_to_paint(_STARTUP_FLOOR, size, floor_env)[0])
        for name, args in (("version", ["--version"]), ("show", ["show", "--year", "丙午", "--month", "11", "--xun", "甲辰"])):
            times = []
            for _ in range(5 if quick else 11):
                t = time.perf_counter()
                subprocess.run([str(exe), *args], cwd=tmp, env=env, capture_output=True, timeout=60, check=True)
                times.append(time.perf_counter() - t)
            details[f"bundle_{name}_s"] = statistics.median(times)
    results["bundle_startup_vs_qt_floor"] = statistics.median(program) / statistics.median(floor)
    details["bundle_startup_s"] = statistics.median(program)
    details["bundle_startup_first_s"] = cold
    details["bundle_startup_qt_floor_s"] = statistics.median(floor)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="fewer samples; finishes within a minute")
    ap.add_argument("--json", type=Path, help="write the figures to this JSON file")
    # internal: one part alone ("gui" runs in its own process in a full run; "liuren", "startup" by hand)
    ap.add_argument("--part", choices=("gui", "liuren", "startup", "find", "bundle"), help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    results: dict[str, float] = {}
    details: dict[str, object] = {}
    if args.part == "gui":
        bench_gui(args.quick, results, details)
        if args.json:
            args.json.write_text(json.dumps({**results, "details": details}))
        return 0
    if args.part in ("liuren", "startup", "bundle", "find"):  # python bench/run.py --part liuren|startup|bundle|find
        {"liuren": bench_liuren, "startup": bench_startup, "bundle": bench_bundle, "find": bench_find}[args.part](args.quick, results, details)
        for key, v in {**results, **details}.items():
            print(f"{key}: {v:.3f}" if isinstance(v, float) else f"{key}: {v}")
        if args.json:
            args.json.write_text(json.dumps({**results, "details": details}, indent=2, ensure_ascii=False))
        return 0
    t0 = time.perf_counter()
    bench_core(args.quick, results, details)
    bench_liuren(args.quick, results, details)
    bench_find(args.quick, results, details)
    # The window is measured in a fresh process: the engine benchmark leaves a large heap behind
    # (tens of thousands of plates and Lunar objects) whose garbage collection a real session never has.
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "shensha_plates.gui.json"
        cmd = [sys.executable, str(Path(__file__).resolve()), "--part", "gui", "--json", str(out)]
        proc = subprocess.run(cmd + (["--quick"] if args.quick else []), cwd=ROOT, capture_output=True, text=True,
                              env=dict(os.environ, QT_QPA_PLATFORM="offscreen"), timeout=3600)
        if proc.returncode != 0 or not out.exists():
            raise RuntimeError(f"the window benchmark failed:\n{proc.stderr[-2000:]}")
        gui = json.loads(out.read_text())
        details.update(gui.pop("details"))
        results.update(gui)
    bench_startup(args.quick, results, details)
    bench_bundle(args.quick, results, details)
    details["bench_seconds"] = time.perf_counter() - t0
    print(f"{'figure':<31} {'value':>10}   target")
    ok = True
    for key, (op, target) in TARGETS.items():
        if key not in results:
            print(f"{key:<31} {'—':>10}   {op} {target:g}  (not measured)")
            continue
        v = results[key]
        met = v >= target if op == ">=" else v <= target if op == "<=" else v < target
        ok &= met
        print(f"{key:<31} {v:>10.3f}   {op} {target:g}  {'ok' if met else 'MISSED'}")
    for key, v in details.items():
        print(f"  {key}: {v:.3f}" if isinstance(v, float) else f"  {key}: {v}")
    if args.json:
        args.json.write_text(json.dumps({**results, "details": details}, indent=2, ensure_ascii=False))
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
