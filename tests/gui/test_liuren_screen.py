"""The Liu Ren plate on screen: the heaven ring and the generals turn with the hour (drag, wheel, keys,
selector), the month general follows the date, and what is shown agrees with the core."""

from __future__ import annotations

from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from shensha_plates.core.cycle import BRANCHES, STEMS
from shensha_plates.core.engine import State
from shensha_plates.core.liuren import compute_ke
from shensha_plates.gui.describe import to_lang
from shensha_plates.gui.panels.lesson import LessonPanel
from shensha_plates.gui.liuren import general_name
from shensha_plates.gui.shell.main_window import MainWindow
from shensha_plates.gui.style import branch_angle
from tests.gui.conftest import drag_ring, ring_point, wheel_on

SEED_DATE = "1998-11-30T12:00"  # seed 002's first worked case: 辛巳日 午时, 寅将


def set_seed_date(window: MainWindow) -> None:
    window.set_date(SEED_DATE, "Asia/Shanghai", "lichun", "jie", "next-day")
    QApplication.processEvents()
    window.view.finish_animations()


def assert_heaven_matches_core(window: MainWindow) -> None:
    """The heaven ring and the generals ring as drawn against the core's plate for the model's state."""
    window.view.finish_animations()
    st = window.model.state
    assert st.day is not None and st.hour is not None
    ke = compute_ke(st.day, st.hour, window.model.general, window.model.ke_options)
    th, tg = window.view.heaven["TH"], window.view.heaven["TG"]
    assert window.view.config.heaven
    # heaven 子 (slot 0) stands over the earth branch the core puts it on; the generals turn with it
    assert th.anchor == ke.plate.under(0) == tg.anchor
    assert abs(th.rotation() - 30 * round(th.rotation() / 30)) < 1e-6
    for earth in range(12):
        heaven = ke.plate.over(earth)
        assert th.label(heaven).text == BRANCHES[heaven]
        assert tg.label(heaven).text == general_name(ke.plate.generals[earth], window.model.lang)
    assert window.model.ke == ke


def _contains_run(lines: list[str], run: list[str]) -> bool:
    return any(lines[i:i + len(run)] == run for i in range(len(lines) - len(run) + 1))


def assert_lesson_shown(window: MainWindow) -> None:
    """The lesson panel shows the core's four lessons (right to left: generals, uppers, lowers) and
    three transmissions (kin, hidden stem, branch, general), and the method's name."""
    window.show_lesson()
    QApplication.processEvents()
    st = window.model.state
    assert st.day is not None and st.hour is not None
    ke = compute_ke(st.day, st.hour, window.model.general, window.model.ke_options)
    lang = window.model.lang
    lines = [line.strip() for line in window.lesson.plain_text().splitlines()]
    rtl = list(reversed(ke.lessons))
    assert _contains_run(lines, [general_name(g, lang, short=True) for g in reversed(ke.lesson_generals)]
                         + [BRANCHES[lesson.upper] for lesson in rtl] + [lesson.lower_name for lesson in rtl]), lines
    for t in ke.transmissions:
        stem = STEMS[t.stem] if t.stem is not None else ""
        assert _contains_run(lines, [to_lang(t.kin, lang), stem, BRANCHES[t.branch], general_name(t.general, lang)]), lines
    assert any(ke.method_name(lang) in line for line in lines)
    for step in ke.steps:
        assert step.text(lang) in lines



def _man_born_1975_on_seed_day(window: MainWindow) -> LessonPanel:
    """The lesson panel at seed 002's first case (1998-11-30 noon) with a querent, a man born in 1975."""
    window.set_date("1998-11-30T12:00", "Asia/Shanghai", "lichun", "jie", "next-day")
    window.show_lesson()
    lp = window.lesson
    lp.birth_edit.setText("1975")
    lp.sex_combo.setCurrentIndex(lp.sex_combo.findData("m"))
    lp._querent_changed()
    return lp

def test_the_seed_case_from_its_date(window: MainWindow) -> None:
    set_seed_date(window)
    model = window.model
    assert BRANCHES[model.general] == "寅" and model.general_source == "date"
    assert_heaven_matches_core(window)
    # 寅将加午: heaven 寅 over earth 午, 贵人 on 午 (辛 by day), the generals backward
    th, tg = window.view.heaven["TH"], window.view.heaven["TG"]
    assert (BRANCHES.index("寅") + th.anchor) % 12 == BRANCHES.index("午")
    assert tg.label(BRANCHES.index("午")).text == "贵人"
    assert "寅将" in window.statusBar().currentMessage()
    assert_lesson_shown(window)
    # as seed 002 prints it: generals 玄 龙 勾 贵 over 酉 丑 寅 午 over 丑 巳 午 辛; 午 贵, 寅 勾, 戌 常
    lines = [line.strip() for line in window.lesson.plain_text().splitlines()]
    assert _contains_run(lines, list("玄龙勾贵酉丑寅午丑巳午辛"))
    assert _contains_run(lines, ["官鬼", "壬", "午", "贵人"])
    assert _contains_run(lines, ["妻财", "戊", "寅", "勾陈"])
    assert _contains_run(lines, ["父母", "甲", "戌", "太常"])


def test_no_hour_no_heaven_rings(window: MainWindow) -> None:
    assert window.model.state.hour is None
    assert not window.view.config.heaven
    assert not window.view.heaven["TH"].isVisible()
    window.model.set_state(State.parse("戊寅", 10, None, "辛巳", "午"))
    QApplication.processEvents()
    assert window.view.config.heaven and window.view.heaven["TH"].isVisible()
    # the lower plate grew by the two rings; the scene rectangle holds them
    rect = window.view.scene_rect()
    group = window.view.groups["lower"]
    r = window.view.heaven["TG"].r_out
    assert rect.contains(group.pos().x() + r, group.pos().y())  # type: ignore[attr-defined]


def test_drag_the_heaven_ring_turns_the_hour(window: MainWindow, qtbot: QtBot) -> None:
    set_seed_date(window)
    th = window.view.heaven["TH"]
    start_anchor = th.anchor
    a = branch_angle(6, "south")  # at 午, the top
    with qtbot.waitSignal(th.sigRotationFinished, timeout=3000) as blocker:
        drag_ring(window, th, a, a + 60, steps=30)
    assert blocker.args == [(start_anchor + 2) % 12]
    QApplication.processEvents()
    model = window.model
    assert BRANCHES[model.state.hour] == "申"  # two hours on
    assert BRANCHES[model.general] == "寅"      # turning the hour keeps the date's month general
    assert model.calendar is None
    assert_heaven_matches_core(window)
    assert_lesson_shown(window)
    assert model.can_undo()
    model.undo()
    window.view.finish_animations()
    assert BRANCHES[model.state.hour] == "午"
    assert_heaven_matches_core(window)


def test_drag_the_generals_ring_turns_both(window: MainWindow, qtbot: QtBot) -> None:
    set_seed_date(window)
    tg, th = window.view.heaven["TG"], window.view.heaven["TH"]
    a = branch_angle(3, "south")
    with qtbot.waitSignal(tg.sigRotationFinished, timeout=3000):
        drag_ring(window, tg, a, a - 30, steps=20)
    QApplication.processEvents()
    assert BRANCHES[window.model.state.hour] == "巳"
    assert th.anchor == tg.anchor
    assert_heaven_matches_core(window)


def test_wheel_and_keys_turn_the_hour(window: MainWindow, qtbot: QtBot) -> None:
    set_seed_date(window)
    th = window.view.heaven["TH"]
    wheel_on(window, ring_point(window, th, branch_angle(6, "south")), -120)  # one step forward
    QApplication.processEvents()
    assert BRANCHES[window.model.state.hour] == "未"
    assert_heaven_matches_core(window)
    assert_lesson_shown(window)
    window.activateWindow()
    qtbot.keyClick(window, Qt.Key.Key_H)
    assert BRANCHES[window.model.state.hour] == "申"
    qtbot.keyClick(window, Qt.Key.Key_H, Qt.KeyboardModifier.ShiftModifier)
    qtbot.keyClick(window, Qt.Key.Key_H, Qt.KeyboardModifier.ShiftModifier)
    assert BRANCHES[window.model.state.hour] == "午"
    assert_heaven_matches_core(window)
    # every one of the twelve hours, by the key, agrees with the core
    for _ in range(12):
        qtbot.keyClick(window, Qt.Key.Key_H)
        assert_heaven_matches_core(window)
        assert_lesson_shown(window)
    assert BRANCHES[window.model.state.hour] == "午"


def test_hour_selector_and_hand_set_general(window: MainWindow) -> None:
    set_seed_date(window)
    combo = window.panel.hour
    combo.setCurrentIndex(combo.findData("子"))
    combo.activated.emit(combo.currentIndex())
    QApplication.processEvents()
    assert BRANCHES[window.model.state.hour] == "子"
    assert BRANCHES[window.model.general] == "寅"
    assert_heaven_matches_core(window)
    g = window.panel.general
    g.setCurrentIndex(g.findData(BRANCHES.index("丑")))
    g.activated.emit(g.currentIndex())
    assert BRANCHES[window.model.general] == "丑" and window.model.general_source == "hand"
    assert_heaven_matches_core(window)
    window.model.undo()
    assert BRANCHES[window.model.general] == "寅"


def test_month_general_without_a_date_follows_the_month(window: MainWindow) -> None:
    window.model.set_state(State.parse("甲子", 1, None, "甲子", "子"))  # 正月: after 雨水 the general is 亥
    assert BRANCHES[window.model.general] == "亥" and window.model.general_source == "month"
    window.model.step("month", 1)
    assert BRANCHES[window.model.general] == "戌"
    assert_heaven_matches_core(window)


def test_paper_mode_heaven_ring_turned_alone(window: MainWindow) -> None:
    set_seed_date(window)
    window.panel.paper.setChecked(True)
    QApplication.processEvents()
    th = window.view.heaven["TH"]
    anchor = th.anchor
    window.view._wheel("TH", 1)  # the wheel in paper mode turns the disc, not the dial
    window.view.finish_animations()
    assert window.model.state.hour == 6  # the hour dial did not move
    assert th.anchor == (anchor + 1) % 12 == window.view.heaven["TG"].anchor
    assert not window.model.heaven_agrees()
    status = window.statusBar().currentMessage()
    assert "天盘已离开寅将午时" in status and "寅将加未时" in status
    window.model.snap_to_consistent()
    window.view.finish_animations()
    assert BRANCHES[window.model.state.hour] == "未"
    assert window.model.heaven_agrees()


@pytest.mark.parametrize("lang", ["zh-Hans", "zh-Hant"])
def test_general_names_option(window: MainWindow, lang: str) -> None:
    set_seed_date(window)
    window.model.set_lang(lang)
    window.panel.general_names.setChecked(True)
    QApplication.processEvents()
    th = window.view.heaven["TH"]
    assert th.label(BRANCHES.index("亥")).sub == "登明"
    assert th.label(BRANCHES.index("酉")).sub == ("從魁" if lang == "zh-Hant" else "从魁")
    assert_heaven_matches_core(window)


def test_lesson_panel_traditional_and_the_second_seed_case(window: MainWindow) -> None:
    # 丑将 戌时 丁未日 (八专): transmissions 亥 阴, 戌 后, 戌 后 as Zhuang prints them
    window.model.set_state(State.parse("戊寅", 11, None, "丁未", "戌"))
    window.model.set_general(BRANCHES.index("丑"))
    assert_heaven_matches_core(window)
    assert_lesson_shown(window)
    lines = [line.strip() for line in window.lesson.plain_text().splitlines()]
    assert _contains_run(lines, list("常后常后丑戌丑戌戌未戌丁"))
    assert _contains_run(lines, ["亥", "太阴"]) and _contains_run(lines, ["戌", "天后"])
    window.model.set_lang("zh-Hant")
    assert_lesson_shown(window)


def test_no_day_no_lesson(window: MainWindow) -> None:
    window.model.set_state(State.parse("甲子", 1, "甲子", None, "午"))
    window.show_lesson()
    assert "起课需要日与时" in window.lesson.plain_text()
    assert window.view.config.heaven  # the heaven ring turns with the hour even without a day
    assert all(not lab.text for lab in window.view.heaven["TG"].labels())  # 贵人 needs the day stem


def test_click_a_spirit_in_the_lesson_shows_it_on_the_plate(window: MainWindow) -> None:
    set_seed_date(window)
    window.show_lesson()
    window.lesson.click("spirit:xian_chi:6")
    assert window.selected_branch == 6
    assert any(r._highlight == frozenset({"xian_chi"}) for r in window.view.rings.values())
    window.lesson.click("trans:1")  # 中传 寅, over earth 午
    assert window.view.heaven["TH"].lit == frozenset({BRANCHES.index("寅")})
    assert window.selected_branch == BRANCHES.index("午")


def test_school_settings_switch_and_compare(window: MainWindow) -> None:
    # a 涉害 case where the two readings disagree: find one from the core, then switch in the panel
    from shensha_plates.core.liuren import KeOptions
    found = None
    for day in range(60):
        for hour in range(12):
            a = compute_ke(day, hour, 0)
            b = compute_ke(day, hour, 0, KeOptions.from_choices(["shehai=depth"]))
            if a.transmissions != b.transmissions:
                found = (day, hour)
                break
        if found:
            break
    assert found is not None
    from shensha_plates.core.cycle import pillar_name
    window.model.set_state(State.parse("甲子", 1, None, pillar_name(found[0]), BRANCHES[found[1]]))
    window.model.set_general(0)
    window.show_lesson()
    assert "涉害取法" in window.lesson.plain_text()  # the other reading is shown beside
    combo = window.lesson.setting_combos["shehai"]
    combo.setCurrentIndex(combo.findData("depth"))
    combo.activated.emit(combo.currentIndex())
    assert window.model.ke_options.get("shehai") == "depth"
    assert_lesson_shown(window)
    window.model.undo()
    assert window.model.ke_options.get("shehai") == "mengzhong"
    assert combo.currentData() == "mengzhong"


CONDITIONAL = ("qing_long_sha", "cao_sha", "wu_sha", "hua_sha", "bai_hu_sha", "chuang_sha", "ti_sha")


def _drawn_entries(window: MainWindow, spirit_id: str) -> list[object]:
    out = []
    for ring in window.view.rings.values():
        for k in range(12):
            out += [e for e in ring.entries(k) if e.spirit_id == spirit_id]
    return out


def test_conditional_names_lit_and_dimmed_as_the_core_says_for_all_twelve_turns(window: MainWindow) -> None:
    from shensha_plates.core.liuren.spirits import resolve_names
    from shensha_plates.core.engine import compute_plate
    set_seed_date(window)
    seen = {True: 0, False: 0}
    for _ in range(12):
        window.model.step("hour", 1)
        window.view.finish_animations()
        st = window.model.state
        ke = compute_ke(st.day, st.hour, window.model.general)  # type: ignore[arg-type]
        core = {n.spirit: n for n in resolve_names(st, ke, window.model.ke_options, compute_plate(st))
                if n.spirit in CONDITIONAL and n.id == n.spirit}
        assert set(core) == set(CONDITIONAL)
        for sid, status in core.items():
            entries = _drawn_entries(window, sid)
            assert entries, sid  # every one of them is on a ring in a state with year and month
            for e in entries:
                assert e.dimmed is (status.in_force is False), (sid, st.hour, status)  # type: ignore[attr-defined]
                assert e.conditional is (status.in_force is not True)  # type: ignore[attr-defined]
            seen[bool(status.in_force)] += 1
        # the details panel says why, for the branch of each
        for status in core.values():
            if status.branch is None:
                continue
            window.select_branch(status.branch)
            text = window.panel.details.toPlainText()
            assert status.reason in text and ("不成立" in text or "成立" in text)
    assert seen[True] > 0 and seen[False] > 0  # both inks were exercised


def test_without_an_hour_the_names_stay_conditional(window: MainWindow) -> None:
    assert window.model.state.hour is None
    for sid in CONDITIONAL:
        for e in _drawn_entries(window, sid):
            assert e.conditional and not e.dimmed  # type: ignore[attr-defined]


def test_walk_through_steps_and_arrows(window: MainWindow) -> None:
    from shensha_plates.gui.lesson_text import walk_steps
    set_seed_date(window)
    window.show_lesson()
    lesson = window.lesson
    assert lesson.start_walk()
    ke = window.model.ke
    assert ke is not None
    steps = walk_steps(ke)
    from shensha_plates.core.liuren.patterns import detect_patterns
    hits = detect_patterns(ke, window.model.plate)  # those the tab lists (the 卦 need the plate's spirits)
    assert hits  # the seed's case forms 炎上, two 墓 patterns and 伏殃卦: the walk ends on them
    assert len(lesson.walk) == len(steps) == 4 + sum(1 for s in ke.steps if s.rule != "pass.next") + 3 + 1
    # the four lessons light up in turn, on the panel and on the heaven ring
    for i in range(4):
        step = lesson.current_walk_step()
        assert step is not None and step.lit.lessons == frozenset({i + 1})
        assert window.view.heaven["TH"].lit == frozenset({ke.lessons[i].upper})
        lesson.go_walk(1)
    # the record: every step's words are the core's
    record = [s for s in ke.steps if s.rule != "pass.next"]
    for s in record:
        step = lesson.current_walk_step()
        assert step is not None and step.words == s.text()
        lesson.go_walk(1)
    # the transmissions drawn as arrows, one more each step
    arrows = window.view.arrows
    assert arrows is not None
    for n in range(1, 4):
        step = lesson.current_walk_step()
        assert step is not None
        assert arrows.earth == tuple(ke.plate.under(t.branch) for t in ke.transmissions[:n])
        if n == 3:
            assert window.statusBar().currentMessage().startswith("末传：戌，太常")
        lesson.go_walk(1)
    last = lesson.current_walk_step()  # the end: the patterns, the whole lesson lit
    assert last is not None and last.words == "课成：" + "、".join(h.name for h in hits)
    assert last.lit.transmissions == frozenset(range(3)) and len(arrows.earth) == 3
    lesson.go_walk(-1)
    lesson.go_walk(-1)
    assert len(arrows.earth) == 2
    lesson.stop_walk()
    assert arrows.earth == () and window.view.heaven["TH"].lit == frozenset()


def test_walk_elimination_strikes_lessons_out() -> None:
    # a 比用 or 涉害 case: the struck lessons are those the record eliminated
    from shensha_plates.gui.lesson_text import ELIMINATING, walk_steps
    for day in range(60):
        for turn in range(12):
            ke = compute_ke(day, 0, turn)
            dropped = [s for s in ke.steps if s.rule in ELIMINATING]
            if not dropped:
                continue
            steps = walk_steps(ke)
            last = [st for st in steps if st.lit.step is not None][-1]
            struck_uppers = {ke.lessons[i - 1].upper for i in last.lit.struck}
            assert {s.branch for s in dropped} <= struck_uppers | {None}
            assert ke.transmissions[0].branch not in {s.branch for s in dropped}
            return
    raise AssertionError("no lesson with an eliminating step among the 720")


def test_presentation_keys_step_the_walk(window: MainWindow) -> None:
    set_seed_date(window)
    window.show_lesson()
    window.lesson.start_walk()
    window.presenter.enter()
    QApplication.processEvents()
    try:
        window.presenter.handle_key(Qt.Key.Key_PageDown)
        window.presenter.handle_key(Qt.Key.Key_Right)
        assert window.lesson.walk_index == 2
        assert window.presenter.walk_caption.isVisible()
        assert "三课" in window.presenter.walk_caption.text()
        window.presenter.handle_key(Qt.Key.Key_PageUp)
        assert window.lesson.walk_index == 1
        assert window.model.state.hour == 6  # the keys walked the lesson, not a dial
    finally:
        window.presenter.exit()
    assert not window.presenter.walk_caption.isVisible()


@pytest.mark.parametrize("kind", ["first", "method"])
def test_quiz_first_transmission_and_method(window: MainWindow, kind: str) -> None:
    set_seed_date(window)
    window.show_lesson()
    before = window.model.snapshot()
    quiz = window.lesson.start_quiz(kind, seed=3)
    right = wrong = 0
    for _ in range(6):
        ke = window.model.ke
        assert ke is not None and quiz.ke == ke
        assert window.lesson.answer_hidden and BRANCHES[ke.transmissions[0].branch] not in \
            window.lesson.plain_text()
        answer = BRANCHES[ke.transmissions[0].branch] if kind == "first" else ke.method
        if right <= wrong:
            assert quiz.answer(answer)
            right += 1
        else:
            bad = next(v for v in quiz.buttons if v != answer)
            assert not quiz.answer(bad)
            wrong += 1
        # after the answer: the reasons are the core's, and the panel shows the lesson again
        text = quiz.feedback.text()
        assert all(s.text() in text for s in ke.steps)
        assert not window.lesson.answer_hidden
        quiz.ask()
    assert quiz.score == right and quiz.asked == 6
    quiz.done(0)
    assert window.model.snapshot() == before  # the plate as it was, date and all


def test_play_the_twelve_hours(window: MainWindow) -> None:
    set_seed_date(window)
    window.classroom.play_hours.click()
    assert window.classroom.play_dial == "hour" and window.classroom.play_left == 12
    hours = []
    for _ in range(12):
        window.classroom._tick()
        hours.append(window.model.state.hour)
        assert_heaven_matches_core(window)
    assert hours == [(6 + k) % 12 for k in range(1, 13)]
    assert not window.classroom.timer.isActive()


def test_snapshot_includes_the_lesson(window: MainWindow, tmp_path: object) -> None:
    import shutil
    import subprocess
    from pathlib import Path
    from dataclasses import replace as dc_replace
    set_seed_date(window)
    out = Path(str(tmp_path))
    opts = window.snapshot_options("pdf")
    assert opts.lesson == window.model.ke and opts.view.heaven
    assert window.export_to(str(out / "with.pdf"), opts)
    assert window.export_to(str(out / "without.pdf"), dc_replace(opts, lesson=None))
    assert window.export_to(str(out / "with.png"), dc_replace(window.snapshot_options("png"), width=900))
    assert (out / "with.png").stat().st_size > 0
    if shutil.which("pdftotext") is None:
        pytest.skip("pdftotext not installed")
    text = subprocess.run(["pdftotext", str(out / "with.pdf"), "-"], capture_output=True, text=True).stdout
    plain = subprocess.run(["pdftotext", str(out / "without.pdf"), "-"], capture_output=True, text=True).stdout
    compact = "".join(text.split())
    assert "三传" in compact and "寅将加午" in compact and "贵人" in compact
    assert "初传" in compact and "咸池" in compact  # the spirits on 一课/初传 午
    assert "寅将加午" not in "".join(plain.split())


def test_the_lens_says_why_a_conditional_name_is_or_is_not_in_force(window: MainWindow) -> None:
    from tests.gui.test_readable import hover
    set_seed_date(window)
    # 乌煞 (on the month disc L2) stands on 寅 in this state; the core says it is not in force
    status = next(n for n in window.model.names if n.id == "wu_sha")
    assert status.branch is not None and status.in_force is False
    hover(window, "L2", branch_angle(status.branch, "south"))
    lens = window.view.lens
    assert lens.label.isVisible() and lens.hit is not None and lens.hit.branch == status.branch
    text = lens.label.text()
    assert "乌煞：不成立" in text and status.reason in text


def test_the_querents_years_in_the_lesson_tab_on_the_plate_and_kept(window: MainWindow, tmp_path: Path) -> None:
    """Issue 25 item 2 in the window: year of birth and sex in the 课传 tab give the 本命 and 行年 with
    what rides them, tagged on the plate; kept in the settings and in a saved lesson."""
    from shensha_plates.core.cycle import BRANCHES
    from shensha_plates.gui.shell.settings import Settings
    lp = _man_born_1975_on_seed_day(window)
    nm = window.model.nian_ming()
    assert nm is not None and nm.age == 24
    text = lp.plain_text()
    assert "年命（男，虚岁24）" in text and "乙卯" in text and "己丑" in text
    assert f"本命 {BRANCHES[nm.ben_ming.heaven]}" in text  # its heaven branch's spirits listed
    assert window.view.years is not None
    assert window.view.years.marks == ((BRANCHES.index("卯"), "命", 0), (BRANCHES.index("丑"), "年", 0))
    # a click on 行年 lights the heaven branch over 丑 and selects 丑
    lp.click("year:xing_nian")
    assert window.selected_branch == BRANCHES.index("丑")
    # a lesson keeps the querent; another window's settings too
    path = tmp_path / "l.json"
    window.classroom.add_current()
    assert window.classroom.save_to(path)
    window.model.set_querent(None)
    assert window.view.years.marks == ()
    assert window.classroom.open_from(path) and window.model.querent is not None
    assert window.model.querent.birth_text == "1975"
    window.save_settings()
    other = MainWindow(settings=Settings(window.settings.path))
    try:
        assert other.model.querent == window.model.querent
    finally:
        other.close()
    # a bad year is one message and keeps the last good querent
    lp.birth_edit.setText("19x5")
    lp._querent_changed()
    assert window.model.querent is not None and window.model.querent.birth_text == "1975"
    assert window.model.message is not None and "birth year" in window.model.message.text


def test_the_partners_row_in_the_lesson_tab_kept_with_the_querent(window: MainWindow, tmp_path: Path) -> None:
    """The partner (a second querent) in the 课传 tab's second row: its years listed beside the querent's,
    the couple's 课体 tried, kept in the settings and in a saved lesson; a bad one is one message."""
    from shensha_plates.gui.shell.settings import Settings
    window.set_date("1998-11-30T12:00", "Asia/Shanghai", "lichun", "jie", "next-day")
    window.show_lesson()
    lp = window.lesson
    lp.birth_edit.setText("1975")
    lp.sex_combo.setCurrentIndex(lp.sex_combo.findData("m"))
    lp.partner_birth_edit.setText("1977")
    lp.partner_sex_combo.setCurrentIndex(lp.partner_sex_combo.findData("f"))
    lp._querent_changed()
    nm = window.model.nian_ming()
    assert nm is not None and nm.partner is not None and nm.partner.age == 22 and nm.couple() is not None
    text = lp.plain_text()
    assert "年命（男，虚岁24）" in text and "配偶（女，虚岁22）" in text and "辛亥" in text
    path = tmp_path / "l.json"
    window.classroom.add_current()
    assert window.classroom.save_to(path)
    window.model.set_querent(None)
    assert window.classroom.open_from(path) and window.model.querent is not None
    assert window.model.querent.partner is not None and window.model.querent.partner.birth_text == "1977"
    assert lp.partner_birth_edit.text() == "1977"
    window.save_settings()
    other = MainWindow(settings=Settings(window.settings.path))
    try:
        assert other.model.querent == window.model.querent and other.lesson.partner_birth_edit.text() == "1977"
    finally:
        other.close()
    # a partner of the querent's sex is one message, and the last good querent stays
    lp.partner_sex_combo.setCurrentIndex(lp.partner_sex_combo.findData("m"))
    lp._querent_changed()
    assert window.model.querent.partner is not None and window.model.querent.partner.sex == "f"
    assert window.model.message is not None and "partner" in window.model.message.text
    # clearing the partner's year leaves the querent alone
    lp.partner_birth_edit.setText("")
    lp._querent_changed()
    assert window.model.querent is not None and window.model.querent.partner is None


def test_the_lesson_table_of_exports_carries_the_querents_years() -> None:
    from shensha_plates.core.engine import compute_plate
    from shensha_plates.core.liuren.nianming import Querent, querent_on
    from shensha_plates.gui.export.lesson_page import lesson_rows
    state = State.parse("戊寅", 10, "甲戌", "辛巳", "午")
    ke = compute_ke(state.day, state.hour, BRANCHES.index("寅"))
    nm = querent_on(Querent.parse("1975", "m"), ke.plate.heaven, ke.plate.generals, 14, 1998)
    assert nm is not None
    rows = dict(lesson_rows(ke, compute_plate(state), "zh-Hans", nm))
    assert rows["年命"].startswith("男·虚岁24") and "本命乙卯 卯上亥白虎" in rows["年命"]
    assert "行年" in rows[BRANCHES[nm.xing_nian.heaven]]
    nm = querent_on(Querent.parse("1975", "m"), ke.plate.heaven, ke.plate.generals, 14, 1998, "liujia")
    assert nm is not None
    rows = dict(lesson_rows(ke, compute_plate(state), "zh-Hans", nm))
    assert rows["年命"].startswith("男·虚岁24·六甲起行年") and "行年己卯 卯上" in rows["年命"]


def test_snapshot_takes_the_querent_only_with_a_lesson(tmp_path: Path) -> None:
    import io

    from shensha_plates.commands import main
    err = io.StringIO()
    assert main(["snapshot", "--year", "戊寅", "--month", "10", "--xun", "甲戌", "--birth", "1975", "--sex", "m",
                 "-o", str(tmp_path / "x.png")], out=io.StringIO(), err=err) == 2
    assert "--birth needs a lesson" in err.getvalue() and not (tmp_path / "x.png").exists()
    err = io.StringIO()
    assert main(["snapshot", "--year", "戊寅", "--month", "10", "--xun", "甲戌", "--partner-birth", "1977",
                 "--partner-sex", "f", "-o", str(tmp_path / "x.png")], out=io.StringIO(), err=err) == 2
    assert "--partner-birth needs a lesson" in err.getvalue() and not (tmp_path / "x.png").exists()


def test_the_lesson_tab_and_the_export_list_the_patterns(window: MainWindow) -> None:
    from shensha_plates.core.engine import compute_plate
    from shensha_plates.gui.export.lesson_page import lesson_rows
    window.set_date("1998-11-30T12:00", "Asia/Shanghai", "lichun", "jie", "next-day")
    window.show_lesson()
    lp = window.lesson
    text = lp.plain_text()
    assert "课体·格·卦" in text and "炎上〔课体〕 三传午寅戌成火局" in text and "伏殃卦" in text
    assert {h.name for h in lp.hits} >= {"炎上", "伏殃卦"}
    assert "毕法赋" in text and "48. 鬼乘天乙乃神祗" in text and {h.number for h in lp.bifa} >= {47, 48}
    lp.click("pattern:yanshang")  # the 初传 lit, its earth branch selected
    ke = window.model.ke
    assert ke is not None and window.selected_branch == ke.plate.under(ke.transmissions[0].branch)
    rows = dict(lesson_rows(ke, compute_plate(window.model.state), "zh-Hans"))
    assert "炎上（三传午寅戌成火局（寅午戌））" in rows["课体·格·卦"]


def test_quiz_which_pattern(window: MainWindow) -> None:
    """Issue 25 item 6: "which 课体 does this lesson form?" — asked only of lessons that form one; right
    when the answer is one of them, with each formed 课体 and why in the feedback."""
    from shensha_plates.core.liuren.patterns import detect_patterns
    set_seed_date(window)
    before = window.model.snapshot()
    quiz = window.lesson.start_quiz("pattern", seed=5)
    for _ in range(5):
        ke = quiz.ke
        assert ke is not None
        formed = [h for h in detect_patterns(ke) if h.kind == "课体"]
        assert formed and "此课成何课体" in quiz.prompt.text()
        wrong = next(v for v in quiz.buttons if v not in {h.id for h in formed})
        assert not quiz.answer(wrong)
        assert all(h.name in quiz.feedback.text() for h in formed)
        quiz.ask()
        assert quiz.answer(detect_patterns(quiz.ke)[0].id if detect_patterns(quiz.ke)[0].kind == "课体"  # type: ignore[arg-type]
                           else next(h.id for h in detect_patterns(quiz.ke) if h.kind == "课体"))  # type: ignore[arg-type]
        quiz.ask()
    assert quiz.score == 5 and quiz.asked == 10
    quiz.done(0)
    assert window.model.snapshot() == before


def test_the_liujia_count_of_the_years_from_the_lessons_settings(window: MainWindow) -> None:
    """The 行年 count is a setting of the 课传 tab like the others (data-driven): 《大六壬类集》's 六甲 count
    starts a man born 1975 (乙卯, 甲寅旬) at 丙辰, so at 虚岁 24 his 行年 is 己卯 — on 卯 with his 本命 —
    where the default puts it on 丑; the plate joins the two tags, and the settings keep the choice."""
    from shensha_plates.core.cycle import BRANCHES, pillar_name
    from shensha_plates.gui.shell.settings import Settings
    lp = _man_born_1975_on_seed_day(window)
    nm = window.model.nian_ming()
    assert nm is not None and pillar_name(nm.xing_nian.pillar) == "己丑"
    combo = lp.setting_combos["xingnian"]
    assert [combo.itemData(i) for i in range(combo.count())] == ["xusui", "zhousui", "liujia"]
    combo.setCurrentIndex(combo.findData("liujia"))
    lp._settings_changed()
    nm = window.model.nian_ming()
    assert nm is not None and (nm.count, pillar_name(nm.xing_nian.pillar)) == ("liujia", "己卯")
    assert window.view.years is not None and window.view.years.marks == ((BRANCHES.index("卯"), "命年", 0),)
    assert "六甲起行年" in lp.plain_text()
    window.save_settings()
    other = MainWindow(settings=Settings(window.settings.path))
    try:
        assert other.model.ke_options.get("xingnian") == "liujia"
        assert not other.model.can_undo()  # restored, not a step to undo
    finally:
        other.close()
    # a damaged entry is dropped: the defaults again, without a word
    bad = Settings(window.settings.path)
    bad.set("liuren/choices", "xingnian=bogus,nonsense")
    bad.sync()
    third = MainWindow(settings=Settings(window.settings.path))
    try:
        assert third.model.ke_choices == () and third.model.message is None
    finally:
        third.close()


def test_the_walk_through_visits_the_querents_years_and_ends_on_their_patterns(window: MainWindow) -> None:
    """Issue 25 item 6 for 年命: with a querent the walk-through shows the 本命 and the 行年 after the
    transmissions (each year's earth branch selected, the heaven branch over it lit) and ends on the
    patterns the tab lists, those that need the querent among them (年命坐墓 here)."""
    from shensha_plates.core.cycle import BRANCHES
    window.set_date("1998-11-30T12:00", "Asia/Shanghai", "lichun", "jie", "next-day")
    window.show_lesson()
    lp = window.lesson
    assert lp.start_walk()
    plain = len(lp.walk)
    lp.stop_walk()
    lp.birth_edit.setText("1975")
    lp.sex_combo.setCurrentIndex(lp.sex_combo.findData("m"))
    lp._querent_changed()
    nm = window.model.nian_ming()
    assert nm is not None
    assert lp.start_walk()
    assert len(lp.walk) == plain + 2
    years, last = lp.walk[-3:-1], lp.walk[-1]
    assert [s.earth for s in years] == [nm.ben_ming.branch, nm.xing_nian.branch] == [BRANCHES.index("卯"),
                                                                                    BRANCHES.index("丑")]
    assert years[1].heaven == frozenset({nm.xing_nian.heaven})
    assert years[0].words.startswith("本命乙卯：卯上") and years[1].words.startswith("行年己丑：丑上")
    assert "年命坐墓" in last.words and last.words.startswith("课成：")
    lp.go_walk(len(lp.walk))  # to the end: the walk stops on the patterns
    lp.go_walk(-1)
    assert window.selected_branch == nm.xing_nian.branch  # the 行年's step selects its branch
    lp.stop_walk()


def test_the_lesson_tab_reads_the_dates_day_for_tianhuo(window: MainWindow) -> None:
    """天祸 天寇 二烦 read the date's day (its solar term, the moon's lodging): the 课传 tab lists them on a dated
    plate, and not once the dials leave the date's day."""
    window.set_date("2024-02-04T02:30", "Asia/Shanghai", "lichun", "jie", "next-day")  # 立春 2024-02-04 16:27
    window.show_lesson()
    assert window.model.day_facts() is not None and window.model.day_facts().term == "立春"  # type: ignore[union-attr]
    assert "天祸" in window.lesson.plain_text()
    st = window.model.state
    window.model.set_state(State(year_branch=st.year_branch, month=st.month, xun=(st.day + 1) // 10 % 6,  # type: ignore[operator]
                                 year_stem=st.year_stem, day=(st.day + 1) % 60, hour=st.hour))  # type: ignore[operator]
    assert window.model.day_facts() is None and "天祸" not in window.lesson.plain_text()


def test_the_exported_lesson_table_reads_the_dates_day() -> None:
    from shensha_plates.core.calendar import from_datetime, parse_datetime
    from shensha_plates.core.engine import compute_plate
    from shensha_plates.core.liuren.cli import month_general_at
    from shensha_plates.core.liuren.lodging import day_facts
    from shensha_plates.core.liuren.plate import DEFAULT_OPTIONS
    from shensha_plates.gui.export.lesson_page import lesson_rows
    info = from_datetime(parse_datetime("2024-02-04T02:30"))  # 立春 2024
    ke = compute_ke(info.day, info.hour, month_general_at(info.moment, DEFAULT_OPTIONS).general)
    plate = compute_plate(info.state)
    for lang in ("zh-Hans", "en"):
        with_day = " ".join(v for _, v in lesson_rows(ke, plate, lang, None, day_facts(info)))
        without = " ".join(v for _, v in lesson_rows(ke, plate, lang))
        assert "天祸" in with_day and "天祸" not in without, lang


def _set_couple(window: MainWindow, birth: str = "1975", partner: str = "1977", ages: tuple[str, str] = ("", "")) -> None:
    lp = window.lesson
    lp.birth_edit.setText(birth)
    lp.sex_combo.setCurrentIndex(lp.sex_combo.findData("m"))
    lp.age_edit.setText(ages[0])
    lp.partner_birth_edit.setText(partner)
    lp.partner_sex_combo.setCurrentIndex(lp.partner_sex_combo.findData("f"))
    lp.partner_age_edit.setText(ages[1])
    lp._querent_changed()


def test_the_partners_years_are_tagged_on_the_plate_apart_from_the_querents(window: MainWindow) -> None:
    """The partner's 本命 and 行年 are tagged 配命 and 配年 (whose 1: drawn hollow, on the branch's other side)
    beside the querent's 命 and 年; gone with the partner, and all gone without a querent; English tags in
    the English interface."""
    window.set_date("1998-11-30T12:00", "Asia/Shanghai", "lichun", "jie", "next-day")
    window.show_lesson()
    _set_couple(window)
    nm = window.model.nian_ming()
    assert nm is not None and nm.partner is not None
    assert (BRANCHES[nm.partner.ben_ming.branch], BRANCHES[nm.partner.xing_nian.branch]) == ("巳", "亥")  # 丁巳, 辛亥
    years = window.view.years
    assert years is not None
    assert years.marks == ((BRANCHES.index("卯"), "命", 0), (BRANCHES.index("丑"), "年", 0),
                           (BRANCHES.index("巳"), "配命", 1), (BRANCHES.index("亥"), "配年", 1))
    window.model.set_lang("zh-Hant")
    assert [t for _, t, _ in years.marks] == ["命", "年", "配命", "配年"]
    window.model.set_lang("en")
    assert [t for _, t, _ in years.marks] == ["Birth", "Year", "P. birth", "P. year"]
    window.model.set_lang("zh-Hans")
    # without the partner only the querent's; without a querent none
    window.lesson.partner_birth_edit.setText("")
    window.lesson._querent_changed()
    assert window.model.querent is not None and window.model.querent.partner is None
    assert [t for _, t, _ in years.marks] == ["命", "年"]
    window.model.set_querent(None)
    assert years.marks == ()


def test_the_two_peoples_tags_never_meet_nor_cover_a_branch(window: MainWindow) -> None:
    """On every branch, in both orientations and both scripts, the querent's tag and the partner's stand
    on the two sides of the branch's character, neither over it, and stay inside the branch's cell."""
    import math
    from PySide6.QtCore import QPointF
    from shensha_plates.gui.plate.years_item import YearsItem
    item = YearsItem()
    for orientation in ("south", "north"):
        item.configure(311.0, 13.0, orientation, 24.7)  # the Liu Ren plate's ring of earth branches
        for branch in range(12):
            a = math.radians(branch_angle(branch, orientation))
            centre = QPointF(311.0 * math.cos(a), 311.0 * math.sin(a))
            char = item.tag_layout(branch, "命", 0)[0].__class__(centre.x() - 6.5, centre.y() - 6.5, 13, 13)
            for mine, theirs in (("命", "配命"), ("命年", "配命年"), ("Birth", "P. birth"), ("Birth, year", "P. birth, year")):
                box0, size0, _ = item.tag_layout(branch, mine, 0)
                box1, size1, text1 = item.tag_layout(branch, theirs, 1)
                assert not box0.intersects(box1), (orientation, branch, mine)
                assert not box0.intersects(char) and not box1.intersects(char), (orientation, branch, mine)
                assert min(size0, size1) >= 13.0 * 0.8  # never smaller than 0.8 of the plate's characters
                for box in (box0, box1):  # inside the branch's 30° cell
                    for corner in (box.topLeft(), box.topRight(), box.bottomLeft(), box.bottomRight()):
                        off = (math.degrees(math.atan2(corner.y(), corner.x())) - math.degrees(a) + 180) % 360 - 180
                        assert abs(off) < 15, (orientation, branch, theirs, off)
            # beside 卯 and 酉, where the ring runs up and down, 配命 stands a character a line
            if branch in (3, 9):
                assert item.tag_layout(branch, "配命", 1)[2] == "配\n命"
            if branch in (0, 6):
                assert item.tag_layout(branch, "配命", 1)[2] == "配命"


def test_the_walk_through_visits_the_partners_years_after_the_querents(window: MainWindow) -> None:
    """With a partner the walk-through shows the partner's 本命 and 行年 after the querent's (each year's earth
    branch selected, the heaven branch over it lit, its general named), in English too."""
    from shensha_plates.core.cycle import pillar_name
    from shensha_plates.gui.liuren import general_name
    lp = _man_born_1975_on_seed_day(window)
    assert lp.start_walk()
    alone = len(lp.walk)
    lp.stop_walk()
    _set_couple(window)
    nm = window.model.nian_ming()
    assert nm is not None and nm.partner is not None
    assert lp.start_walk()
    assert len(lp.walk) == alone + 2
    mine, theirs = lp.walk[-5:-3], lp.walk[-3:-1]
    assert [s.earth for s in mine] == [nm.ben_ming.branch, nm.xing_nian.branch]
    assert [s.earth for s in theirs] == [nm.partner.ben_ming.branch, nm.partner.xing_nian.branch]
    assert [s.heaven for s in theirs] == [frozenset({y.heaven}) for y in nm.partner.years]
    p_ben = nm.partner.ben_ming
    assert theirs[0].words == (f"配偶本命{pillar_name(p_ben.pillar)}：{BRANCHES[p_ben.branch]}上{BRANCHES[p_ben.heaven]}，"
                               f"{general_name(p_ben.general, 'zh-Hans')}")
    assert theirs[1].words.startswith("配偶行年辛亥：亥上")
    assert lp.walk[-1].words.startswith("课成：")
    lp.go_walk(len(lp.walk) - 2)  # from the first step to the partner's 行年
    assert lp.current_walk_step() == theirs[1]
    assert window.selected_branch == nm.partner.xing_nian.branch
    assert window.view.heaven["TH"].lit == frozenset({nm.partner.xing_nian.heaven})
    lp.stop_walk()
    # the partner's years in the tab link to the plate as the querent's do
    lp.click("year:partner.ben_ming")
    assert window.selected_branch == nm.partner.ben_ming.branch
    assert window.view.heaven["TH"].lit == frozenset({nm.partner.ben_ming.heaven})
    text = lp.plain_text()
    assert f"配偶本命 {BRANCHES[p_ben.heaven]}" in text  # the spirits on the heaven branch over it listed
    window.model.set_lang("en")
    assert lp.start_walk()
    assert lp.walk[-3].words.startswith("Partner's birth year 丁巳: ") and lp.walk[-2].words.startswith(
        "Partner's year of life 辛亥: ")
    assert "Partner's birth year" in lp.plain_text()
    lp.stop_walk()


def test_the_walk_through_ends_on_the_couples_pattern(window: MainWindow) -> None:
    """繁昌's book example in the window (壬申日未时巳将, the husband's 行年 甲寅 at 49, the wife's 己亥 at 34):
    the 课传 tab lists it and the walk-through, past both people's years, ends on it."""
    window.model.set_state(State.parse("甲子", 1, None, "壬申", "未"))
    window.model.set_general(BRANCHES.index("巳"))
    window.show_lesson()
    _set_couple(window, "甲子", "甲子", ("49", "34"))
    nm = window.model.nian_ming()
    assert nm is not None and nm.couple() is not None
    assert "繁昌" in window.lesson.plain_text()
    lp = window.lesson
    assert lp.start_walk()
    assert lp.walk[-2].words.startswith("配偶行年己亥：亥上酉")
    assert lp.walk[-1].words.startswith("课成：") and "繁昌" in lp.walk[-1].words
    lp.stop_walk()
    _set_couple(window, "甲子", "甲子", ("49", "35"))  # her 行年 戊戌: no 繁昌, and the walk does not end on it
    assert lp.start_walk()
    assert "繁昌" not in lp.walk[-1].words
    lp.stop_walk()


def test_the_exported_plate_and_table_carry_both_peoples_years(qtbot: QtBot) -> None:
    """The snapshot's plate tags the years as the window does (the querent's 命 年, the partner's 配命 配年), and
    its table heads the heaven branch over each partner's year with 配偶本命 / 配偶行年 (English: Partner's …);
    no tags without a querent."""
    from shensha_plates.core.catalog import default_catalog
    from shensha_plates.core.engine import compute_plate
    from shensha_plates.core.liuren.nianming import Querent, querent_on
    from shensha_plates.gui.export.lesson_page import lesson_rows
    from shensha_plates.gui.export.options import SnapshotOptions
    from shensha_plates.gui.export.page_layout import plates_scene
    from shensha_plates.gui.plate.scene import ViewConfig
    from shensha_plates.gui.plate.years_item import YearsItem
    state = State.parse("戊寅", 10, "甲戌", "辛巳", "午")
    ke = compute_ke(state.day, state.hour, BRANCHES.index("寅"))  # type: ignore[arg-type]
    q = Querent.parse("1975", "m").with_partner(Querent.parse("1977", "f"))
    nm = querent_on(q, ke.plate.heaven, ke.plate.generals, 14, 1998)
    assert nm is not None and nm.partner is not None
    plate = compute_plate(state)
    for lang, tags in (("zh-Hans", ["命", "年", "配命", "配年"]), ("en", ["Birth", "Year", "P. birth", "P. year"])):
        opts = SnapshotOptions(fmt="png", lang=lang, view=ViewConfig(heaven=True), lesson=ke, nian_ming=nm)
        scene, _rect, _plates = plates_scene(plate, opts, default_catalog())
        years = [i for i in scene.items() if isinstance(i, YearsItem)]
        assert len(years) == 1 and [t for _, t, _ in years[0].marks] == tags
        assert [b for b, _, _ in years[0].marks] == [y.branch for y in (*nm.years, *nm.partner.years)]
    scene, _rect, _plates = plates_scene(plate, SnapshotOptions(fmt="png", view=ViewConfig(heaven=True), lesson=ke),
                                         default_catalog())
    assert not [i for i in scene.items() if isinstance(i, YearsItem)]
    rows = dict(lesson_rows(ke, plate, "zh-Hans", nm))
    assert "配偶本命" in rows[BRANCHES[nm.partner.ben_ming.heaven]]
    assert "配偶行年" in rows[BRANCHES[nm.partner.xing_nian.heaven]]
    en = " ".join(body for _, body in lesson_rows(ke, plate, "en", nm))
    assert "Partner's birth year" in en and "Partner's moving year" in en
