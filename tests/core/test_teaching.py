"""Teaching aids: traces and their words, quiz questions, lesson files (atomic, validated)."""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shensha_plates.core.cycle import BRANCHES
from shensha_plates.core.engine import State, compute_plate
from shensha_plates.core.errors import InputError
from shensha_plates.core.teaching import (
    LessonPlan, LessonError, LessonStep, check_answer, load_lesson, make_question, path_words, save_lesson, trace,
)

START = State.parse("甲子", 1, "甲子")


@pytest.mark.parametrize("sid,dial,first,words", [
    ("tian_ma", "month", "午申戌子", "顺行，每步进二辰；只行六阳辰"),
    ("huang_en", "month", "未酉亥丑", "顺行，每步进二辰；只行六阴辰"),
    ("sheng_xin", "month", "亥巳子午", "两步一循环，往复交替"),
    ("tian_xi", "month", "戌戌戌丑", "每三步一移；顺行，每移进三辰；只行四季"),
    ("yue_jian", "month", "寅卯辰巳", "顺行，每步进一辰；遍历十二辰"),
    ("tai_sui", "year", "子丑寅卯", "顺行，每步进一辰"),
    ("yi_shen", "xun", "子戌申午", "逆行，每步退二辰"),
])
def test_traces_and_their_words(sid: str, dial: str, first: str, words: str) -> None:
    t = trace(sid, START, dial)
    assert "".join(s.at[0] for s in t.steps[:4]) == first
    assert t.words.startswith(words)
    for step in t.steps:  # each step is the engine's own answer for that state
        assert step.branches == tuple(p.branch for p in compute_plate(step.state).find(sid))


def test_path_words_edge_cases() -> None:
    assert path_words([]) == "不在此盘"
    assert path_words([3, 3, 3]) == "不动，常居卯"
    assert path_words([0, 6, 0, 6]).startswith("每步对冲")
    with pytest.raises(InputError):
        trace("nobody", START)
    with pytest.raises(InputError):
        trace("tian_ma", START, "hour")


@given(st.integers(0, 10_000))
def test_questions_are_answerable_and_checked_by_the_plate(seed: int) -> None:
    rng = random.Random(seed)
    q = make_question(rng, START)
    plate = compute_plate(q.state)
    assert q.prompt()
    if q.kind == "where":
        assert q.answer_branches == frozenset(p.branch for p in plate.find(q.spirit_id or ""))
        right = min(q.answer_branches)
        wrong = next(b for b in range(12) if b not in q.answer_branches)
        assert check_answer(q, right)[0] and not check_answer(q, wrong)[0]
    else:
        under = {p.spirit.id for p in plate.at(q.branch or 0)}
        assert q.answer_id in under and q.answer_id in q.options
        assert all(o not in under for o in q.options if o != q.answer_id)
        ok, why = check_answer(q, q.answer_id or "")
        assert ok and BRANCHES[q.branch or 0] in why


def test_questions_keep_to_the_chosen_rings() -> None:
    rng = random.Random(1)
    for _ in range(40):
        assert make_question(rng, START, rings=["L6"]).ring == "L6"


LESSON = LessonPlan("天马一年", (LessonStep(State.parse("丙午", 1, "甲辰"), (), "正月天马在午"),
                            LessonStep(State.parse("丙午", 2, "甲辰", "庚戌", "午"), ("tian_xi=shun_twelve",), "二月")))


def test_lesson_round_trip(tmp_path: Path) -> None:
    path = save_lesson(tmp_path / "tianma.json", LESSON)
    assert load_lesson(path) == LESSON
    assert json.loads(path.read_text("utf-8"))["format"] == "shensha-plates-lesson"


@pytest.mark.parametrize("content,needle", [
    (b"", "not valid JSON"),
    (b"\xff\xfe{}", "not UTF-8"),
    (b'{"format": "other"}', "not a lesson file"),
    (b'{"format": "shensha-plates-lesson", "version": 9, "name": "x", "steps": []}', "unsupported version"),
    (b'{"format": "shensha-plates-lesson", "version": 1, "name": "", "steps": []}', "name"),
    (b'{"format": "shensha-plates-lesson", "version": 1, "name": "x", "steps": [{"year": "\xe4\xb8\x99\xe4\xb8\x91", '
     b'"month": 1, "xun": "\xe7\x94\xb2\xe5\xad\x90"}]}', "step 1"),
    (b'{"format": "shensha-plates-lesson", "version": 1, "name": "x", "steps": [{"year": "\xe5\x8d\x88", '
     b'"month": 13, "xun": "\xe7\x94\xb2\xe5\xad\x90"}]}', "step 1, field month"),
    (b'{"format": "shensha-plates-lesson", "version": 1, "name": "x", "steps": [{"year": "\xe5\x8d\x88", '
     b'"month": 1, "xun": "\xe7\x94\xb2\xe5\xad\x90", "variants": ["zz=1"]}]}', "unknown variant"),
])
def test_damaged_lessons_are_reported_and_kept(tmp_path: Path, content: bytes, needle: str) -> None:
    path = tmp_path / "bad.json"
    path.write_bytes(content)
    with pytest.raises(LessonError) as info:
        load_lesson(path)
    assert needle in str(info.value) and str(path) in str(info.value)
    assert path.read_bytes() == content  # never lost


def test_a_failed_save_keeps_the_old_lesson(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "lessons"
    folder.mkdir()
    path = save_lesson(folder / "l.json", LESSON)
    before = path.read_bytes()

    def broken(fd: int) -> None:
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(os, "fsync", broken)
    with pytest.raises(LessonError, match="No space left"):
        save_lesson(path, LessonPlan("new", ()))
    monkeypatch.undo()
    assert path.read_bytes() == before
    assert sorted(p.name for p in folder.iterdir()) == ["l.json"]
    with pytest.raises(LessonError, match="does not exist"):
        save_lesson(tmp_path / "gone" / "l.json", LESSON)


@pytest.mark.parametrize("month", ["²", "⑪", "１１", "١١", "𝟏𝟏"])
def test_a_lesson_month_in_other_digits_is_refused(tmp_path: Path, month: str) -> None:
    path = tmp_path / "digits.json"
    step = {"year": "丙午", "month": month, "xun": "甲辰"}
    path.write_text(json.dumps({"format": "shensha-plates-lesson", "version": 1, "name": "x", "steps": [step]}),
                    "utf-8")
    with pytest.raises(LessonError, match="step 1.*invalid month"):
        load_lesson(path)


def test_a_lesson_name_ending_in_a_slash_is_refused(tmp_path: Path) -> None:
    os.chdir(tmp_path)
    with pytest.raises(LessonError, match="names a folder"):
        save_lesson("l.json/", LESSON)
    assert not (tmp_path / "l.json").exists()


def test_a_lesson_that_is_a_fifo_is_refused_at_once(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "l.json")
    with pytest.raises(LessonError, match="FIFO"):
        load_lesson(tmp_path / "l.json")  # opened non-blocking: no writer needed to return


def _lesson_bytes(step: str) -> bytes:
    return ('{"format": "shensha-plates-lesson", "version": 1, "name": "x", "steps": [' + step + "]}").encode()


GOOD_STEP = '{"year": "丙午", "month": 1, "xun": "甲辰"'


@pytest.mark.parametrize("content,needle", [
    # a wrong type in any field is named with its step and field, never a traceback
    (_lesson_bytes(GOOD_STEP + ', "day": 5}'), "step 1, field day: must be a 甲子 day"),
    (_lesson_bytes(GOOD_STEP + ', "day": [1, 2]}'), "step 1, field day: must be a 甲子 day"),
    (_lesson_bytes(GOOD_STEP + ', "day": {}}'), "step 1, field day: must be a 甲子 day"),
    (_lesson_bytes(GOOD_STEP + ', "day": true}'), "step 1, field day: must be a 甲子 day"),
    (_lesson_bytes(GOOD_STEP + ', "hour": 3}'), "step 1, field hour: must be a branch"),
    (_lesson_bytes(GOOD_STEP + ', "variants": "tian_xi=shun_twelve"}'), "step 1, field variants: must be a list"),
    (_lesson_bytes(GOOD_STEP + ', "variants": [7]}'), "step 1, field variants: must be a list"),
    (_lesson_bytes(GOOD_STEP + ', "note": null}'), "step 1, field note: must be text"),
    (_lesson_bytes('{"year": "丙午", "month": true, "xun": "甲辰"}'), "step 1, field month: must be 1–12"),
    (_lesson_bytes('{"year": "丙午", "month": 1.5, "xun": "甲辰"}'), "step 1, field month: must be 1–12"),
    (_lesson_bytes('{"year": "丙午", "month": 13, "xun": "甲辰"}'), "step 1, field month: invalid month"),
    (_lesson_bytes('{"year": "丙丑", "month": 1, "xun": "甲辰"}'), "step 1, field year: invalid"),
    (_lesson_bytes('{"year": "丙午", "month": 1, "xun": "乙丑"}'), "step 1, field xun: invalid xun"),
    (_lesson_bytes(GOOD_STEP + ', "day": "甲子"}'), "step 1, field day: day 甲子 belongs to 甲子旬"),
    # a number too long for int(): named where it stands, with its length
    (_lesson_bytes('{"year": "丙午", "month": ' + "1" * 5000 + ', "xun": "甲辰"}'),
     "step 1, field month: must be 1–12, a month word or its branch, got a 5000-digit number"),
    # a thousand nested lists or 100,000 of them: the file, not a RecursionError
    (b"[" * 100_000, "(file), field (syntax): nests lists or objects too deeply"),
    (_lesson_bytes(GOOD_STEP + ', "note": ' + "[" * 100_000 + "]" * 100_000 + "}"),
     "(file), field (syntax): nests lists or objects too deeply"),
    (_lesson_bytes(GOOD_STEP + ', "note": ' + "[" * 300 + "]" * 300 + "}"), "step 1, field note: must be text"),
    # text that cannot be written back as UTF-8 (a cut-off emoji from a browser's JSON writer)
    (_lesson_bytes(GOOD_STEP + ', "note": "see \\ud83d here"}'), "step 1, field note: holds a lone surrogate"),
    (b'{"format": "shensha-plates-lesson", "version": 1, "name": "a\\udc00", "steps": []}',
     "(file), field name: holds a lone surrogate"),
])
def test_damaged_fields_name_step_and_field(tmp_path: Path, content: bytes, needle: str) -> None:
    path = tmp_path / "bad.json"
    path.write_bytes(content)
    with pytest.raises(LessonError) as info:
        load_lesson(path)
    message = str(info.value)
    assert message.startswith(f"lesson {path}: ") and needle in message, message
    assert len(message) < 400 and "\n" not in message  # one line, whatever the file holds
    assert path.read_bytes() == content


def test_a_byte_order_mark_simply_opens(tmp_path: Path) -> None:
    path = save_lesson(tmp_path / "l.json", LESSON)
    path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes())
    assert load_lesson(path) == LESSON


def test_saving_text_that_utf8_cannot_hold_is_a_lesson_error(tmp_path: Path) -> None:
    folder = tmp_path / "lessons"
    folder.mkdir()
    path = save_lesson(folder / "l.json", LESSON)
    before = path.read_bytes()
    broken = LessonPlan("天马", (LESSON.steps[0], LessonStep(LESSON.steps[1].state, (), "see \ud83d here")))
    with pytest.raises(LessonError, match=r"step 2, field note: holds a lone surrogate"):
        save_lesson(path, broken)
    assert path.read_bytes() == before and sorted(p.name for p in folder.iterdir()) == ["l.json"]
