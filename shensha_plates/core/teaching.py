"""Teaching aids, Qt-free: a spirit's path over a cycle with its rule in words, quiz questions drawn
from the catalog, and lesson files (named sequences of states with notes).

>>> t = trace("tian_ma", State.parse("甲子", 1, "甲子"), "month")
>>> [s.at[0] for s in t.steps][:4], t.words
(['午', '申', '戌', '子'], '顺行，每步进二辰；只行六阳辰（子寅辰午申戌）')
"""

from __future__ import annotations

import json
import os
import random
import reprlib
from itertools import pairwise
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final
from collections.abc import Sequence

from shensha_plates.core.catalog import Catalog, default_catalog
from shensha_plates.core.cycle import BRANCHES, XUN_HEADS, pillar_name
from shensha_plates.core.engine import MONTH_NAMES, Options, State, compute_plate, step_state
from shensha_plates.core.datafile import output_path, read_file, write_atomic
from shensha_plates.core.errors import InputError, ShenshaError

if TYPE_CHECKING:
    from shensha_plates.core.liuren.nianming import Querent

__all__ = ["all_text", "Trace", "TraceStep", "trace", "path_words", "Question", "make_question", "check_answer",
           "LessonPlan", "LessonStep", "LessonError", "load_lesson", "save_lesson", "TRACE_DIALS", "LESSON_VERSION"]

TRACE_DIALS: Final = {"month": 12, "year": 12, "xun": 6}
_NUM: Final = "〇一二三四五六七八九十"
_CLASSES: Final = (
    (set("寅申巳亥"), "四孟（寅申巳亥）"), (set("子午卯酉"), "四仲（子午卯酉）"), (set("辰戌丑未"), "四季（辰戌丑未）"),
    (set("子寅辰午申戌"), "六阳辰（子寅辰午申戌）"), (set("丑卯巳未酉亥"), "六阴辰（丑卯巳未酉亥）"),
)


@dataclass(frozen=True, slots=True)
class TraceStep:
    index: int
    label: str               # 正月, 丑年, 甲戌旬 …
    state: State
    branches: tuple[int, ...]
    at: tuple[str, ...]      # the labels as the rule gives them (a stem or trigram stays one)


@dataclass(frozen=True, slots=True)
class Trace:
    spirit_id: str
    dial: str
    steps: tuple[TraceStep, ...]
    words: str


def _step_label(dial: str, state: State) -> str:
    if dial == "month":
        return MONTH_NAMES[state.month - 1]
    if dial == "year":
        return state.year_name + "年"
    return XUN_HEADS[state.xun] + "旬"


def path_words(branches: Sequence[int]) -> str:
    """The path in words: direction and step (顺/逆), and the class of branches it keeps to."""
    if not branches:
        return "不在此盘"
    parts = []
    runs = [1]
    for a, b in pairwise(branches):
        if a == b:
            runs[-1] += 1
        else:
            runs.append(1)
    if len(runs) > 1 and len(set(runs)) == 1 and runs[0] > 1:
        # moves every k steps (天喜 by the season): describe the moves themselves
        k = runs[0]
        moved = list(branches[::k])
        return f"每{_NUM[k]}步一移；" + path_words(moved).replace("每步", "每移")
    diffs = {(b - a) % 12 for a, b in pairwise(branches)}
    if len(set(branches)) == 1:
        parts.append("不动，常居" + BRANCHES[branches[0]])
    elif len(diffs) == 1:
        d = diffs.pop()
        if d == 6:
            parts.append("每步对冲")
        elif d < 6:
            parts.append(f"顺行，每步进{_NUM[d]}辰")
        else:
            parts.append(f"逆行，每步退{_NUM[12 - d]}辰")
    else:
        ds = [(b - a) % 12 for a, b in pairwise(branches)]
        if len(set(ds[0::2])) == 1 and len(set(ds[1::2])) == 1:
            parts.append("两步一循环，往复交替")
        else:
            parts.append("不依一定步数")
    seen = {BRANCHES[b] for b in branches}
    if len(seen) == 12:
        parts.append("遍历十二辰")
    else:
        for members, name in _CLASSES:
            if seen <= members and len(seen) > 1:
                parts.append("只行" + name)
                break
    return "；".join(parts)


def trace(spirit_id: str, state: State, dial: str = "month", options: Options = Options(),
          catalog: Catalog | None = None) -> Trace:
    """Where ``spirit_id`` lies at each step of ``dial`` (twelve months, twelve years or six xun)
    starting from ``state``'s first position (正月, the current year, 甲子旬)."""
    cat = catalog or default_catalog()
    try:
        cat.spirit(spirit_id)
    except KeyError:
        raise InputError(f"unknown spirit: {spirit_id!r}") from None
    if dial not in TRACE_DIALS:
        raise InputError(f"cannot trace along {dial!r} (expected month, year or xun)")
    if dial == "month":
        s = replace(state, month=1)
    elif dial == "xun":
        s = replace(state, xun=0, day=None if state.day is None else 0)
    else:
        s = state
    steps = []
    for i in range(TRACE_DIALS[dial]):
        plate = compute_plate(s, options, cat)
        places = plate.find(spirit_id)
        steps.append(TraceStep(i, _step_label(dial, s), s, tuple(p.branch for p in places),
                               tuple(p.at for p in places)))
        s = step_state(s, dial, 1)
    first = [st.branches[0] for st in steps if st.branches]
    return Trace(spirit_id, dial, tuple(steps), path_words(first) if len(first) == len(steps) else
                 path_words(first) + "；部分步无此神")


# -- quiz ------------------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Question:
    """``where``: click the branch where ``spirit_id`` lies in ``state`` (any of ``answer_branches``).
    ``which``: pick, among ``options``, the spirit that lies under ``branch`` (``answer_id``)."""

    kind: str
    state: State
    spirit_id: str | None = None
    answer_branches: frozenset[int] = frozenset()
    branch: int | None = None
    options: tuple[str, ...] = ()
    answer_id: str | None = None
    ring: str | None = None

    def prompt(self, catalog: Catalog | None = None, trad: bool = False) -> str:
        cat = catalog or default_catalog()
        when = MONTH_NAMES[self.state.month - 1]
        if self.kind == "where":
            sp = cat.spirit(self.spirit_id or "")
            return f"{when}，{sp.name_trad if trad else sp.name}在何支？" if trad else f"{when}，{sp.name}在哪一支？"
        return (f"{when}，下列何者臨{BRANCHES[self.branch or 0]}？" if trad
                else f"{when}，下列哪一位在{BRANCHES[self.branch or 0]}之下？")

    def prompt_en(self, catalog: Catalog | None = None) -> str:
        """The question in English (the spirit by its name, pinyin and gloss)."""
        from shensha_plates.core.english import english, label
        cat = catalog or default_catalog()
        when = f"Month {self.state.month}"
        if self.kind == "where":
            sp = cat.spirit(self.spirit_id or "")
            return f"{when}: on which branch is {label(sp.name, english().spirit(sp.id).gloss)}?"
        return f"{when}: which of these lies under {BRANCHES[self.branch or 0]}?"


def make_question(rng: random.Random, state: State, rings: Sequence[str] | None = None,
                  options: Options = Options(), catalog: Catalog | None = None) -> Question:
    """A question drawn from the catalog: a spirit on one of ``rings`` (all rings by default), in a
    random month of ``state``'s year."""
    cat = catalog or default_catalog()
    ring_ids = list(rings) if rings else [r.id for r in cat.rings]
    s = replace(state, month=rng.randint(1, 12))
    plate = compute_plate(s, options, cat)
    on_rings = [p for row in plate.positions for p in row if p.ring in ring_ids and p.conditional is None]
    if not on_rings:
        raise InputError("no spirit on the chosen rings to ask about")
    if rng.random() < 0.5:
        pick = rng.choice(on_rings)
        branches = frozenset(p.branch for p in plate.find(pick.spirit.id))
        return Question("where", s, spirit_id=pick.spirit.id, answer_branches=branches, ring=pick.ring)
    pick = rng.choice(on_rings)
    under = {p.spirit.id for p in plate.at(pick.branch)}
    others = sorted({p.spirit.id for p in on_rings} - under)
    distractors = rng.sample(others, k=min(3, len(others)))
    opts = [pick.spirit.id] + distractors
    rng.shuffle(opts)
    return Question("which", s, branch=pick.branch, options=tuple(opts), answer_id=pick.spirit.id, ring=pick.ring)


def check_answer(q: Question, answer: int | str, catalog: Catalog | None = None,
                 options: Options = Options()) -> tuple[bool, str]:
    """Right or wrong, and the rule that decides it (in words)."""
    cat = catalog or default_catalog()
    if q.kind == "where":
        sp = cat.spirit(q.spirit_id or "")
        right = isinstance(answer, int) and answer in q.answer_branches
        where = "、".join(BRANCHES[b] for b in sorted(q.answer_branches))
        t = trace(sp.id, q.state, "month", options, cat)
        return right, f"{sp.name}在{where}。{sp.source.quote}（{t.words}）"
    sp = cat.spirit(q.answer_id or "")
    right = answer == q.answer_id
    return right, f"{sp.name}在{BRANCHES[q.branch or 0]}。{sp.source.quote}"


# -- lessons ---------------------------------------------------------------------------------------

LESSON_FORMAT: Final = "shensha-plates-lesson"
_MAX_DIGITS: Final = 40          # an integer longer than this is never a valid value in a lesson
_SHOW = reprlib.Repr()
_SHOW.maxstring, _SHOW.maxother, _SHOW.maxlevel, _SHOW.maxlist, _SHOW.maxdict = 60, 60, 2, 4, 4


class LessonError(ShenshaError, ValueError):
    """A lesson file cannot be read or written; names the file, the step and the field."""

    def __init__(self, file: str, entry: str, field: str, problem: str) -> None:
        self.file, self.entry, self.field, self.problem = file, entry, field, problem
        super().__init__(f"lesson {file}: {entry}, field {field}: {problem}")


@dataclass(frozen=True, slots=True)
class LessonStep:
    """One step of a lesson: the state, the catalog's variant readings, the note, and the step's 式:
    the month general when it was set by hand or came from a date (``None``: the month's, which the
    state gives again) and the school's settings for the Liu Ren plate (``shehai=depth`` …)."""

    state: State
    variants: tuple[str, ...] = ()
    note: str = ""
    general: int | None = None
    liuren: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class LessonPlan:
    name: str
    steps: tuple[LessonStep, ...]
    querent: Querent | None = None  # the person the lesson's 式 are cast for (年命), kept with the lesson


class _LongNumber:
    """An integer literal too long to be any lesson value, kept as its length: ``int()`` on it
    would raise (Python's limit on digits) before the field could be named."""

    __slots__ = ("digits",)

    def __init__(self, text: str) -> None:
        self.digits = len(text.lstrip("-"))

    def __repr__(self) -> str:
        return f"a {self.digits}-digit number"


def _parse_int(text: str) -> int | _LongNumber:
    return _LongNumber(text) if len(text) > _MAX_DIGITS else int(text)


def _show(value: object) -> str:
    """A value as the message quotes it: short, one line, however large or deep the value is."""
    return _SHOW.repr(value)


def _has_surrogate(text: str) -> bool:
    return any("\ud800" <= ch <= "\udfff" for ch in text)


def _text_fault(value: str) -> str | None:
    """Why ``value`` cannot be kept in a lesson file (UTF-8), or None."""
    if _has_surrogate(value):
        return f"holds a lone surrogate (a cut-off character), cannot be written as UTF-8: {_show(value)}"
    return None


def _step_to_json(step: LessonStep) -> dict[str, Any]:
    st = step.state
    return {"year": st.year_name, "month": st.month, "xun": XUN_HEADS[st.xun],
            "day": None if st.day is None else pillar_name(st.day),
            "hour": None if st.hour is None else BRANCHES[st.hour],
            "variants": list(step.variants), "note": step.note,
            "general": None if step.general is None else BRANCHES[step.general], "liuren": list(step.liuren)}


LESSON_VERSION: Final = 2
"""Version 2 keeps each step's 式 (``general``, ``liuren``); version 1 files (without them) still open."""


def lesson_to_json(lesson: LessonPlan) -> dict[str, Any]:
    data: dict[str, Any] = {"format": LESSON_FORMAT, "version": LESSON_VERSION, "name": lesson.name,
                            "steps": [_step_to_json(s) for s in lesson.steps]}
    q = lesson.querent
    if q is not None:
        data["querent"] = {"birth": q.birth_text, "sex": q.sex, "age": q.age}
        if q.partner is not None:  # the second querent (繁昌 旺孕 解离 read the couple's 行年)
            p = q.partner
            data["querent"]["partner"] = {"birth": p.birth_text, "sex": p.sex, "age": p.age}
    return data


def _read_querent(name: str, raw: object, key: str = "querent") -> Querent | None:
    """The lesson's ``querent`` (optional: older files have none), with its ``partner`` (optional too)."""
    if raw is None:
        return None
    allowed = {"birth", "sex", "age"} | ({"partner"} if key == "querent" else set())
    if not isinstance(raw, dict) or set(raw) - allowed:
        raise LessonError(name, "(file)", key, f"must be {{{', '.join(sorted(allowed))}}}, got {_show(raw)}")
    birth, sex, age = raw.get("birth"), raw.get("sex"), raw.get("age")
    if not isinstance(birth, str):
        raise LessonError(name, "(file)", f"{key}.birth", f"must be a year or a pillar as text, got {_show(birth)}")
    if not isinstance(sex, str):
        raise LessonError(name, "(file)", f"{key}.sex", f"must be m or f, got {_show(sex)}")
    if age is not None and (not isinstance(age, int) or isinstance(age, bool)):
        raise LessonError(name, "(file)", f"{key}.age", f"must be a number or null, got {_show(age)}")
    from shensha_plates.core.liuren.nianming import Querent  # only a lesson with a querent needs the 式
    try:
        q = Querent.parse(birth, sex, age)
    except InputError as e:
        field = f"{key}.sex" if "sex" in str(e) else f"{key}.age" if "age" in str(e) else f"{key}.birth"
        raise LessonError(name, "(file)", field, str(e)) from None
    if key != "querent" or raw.get("partner") is None:
        return q
    partner = _read_querent(name, raw["partner"], "querent.partner")
    try:
        return q.with_partner(partner)
    except InputError as e:
        raise LessonError(name, "(file)", "querent.partner.sex", str(e)) from None


def _check_text(file: str, lesson: LessonPlan) -> None:
    """Every piece of free text in ``lesson`` can be written as UTF-8; else the step and field."""
    if (fault := _text_fault(lesson.name)) is not None:
        raise LessonError(file, "(file)", "name", fault)
    for i, step in enumerate(lesson.steps):
        for field, values in (("note", (step.note,)), ("variants", step.variants), ("liuren", step.liuren)):
            for value in values:
                if (fault := _text_fault(value)) is not None:
                    raise LessonError(file, f"step {i + 1}", field, fault)


def save_lesson(path: str | os.PathLike[str], lesson: LessonPlan) -> Path:
    """Write atomically: a temporary file in the same folder, flushed and synced, then renamed over
    the target. A failure leaves the old file as it was and no temporary file behind."""
    try:
        target = output_path(path)
    except OSError as e:
        raise LessonError(os.fspath(path), "(file)", "(path)", f"cannot write: {e.strerror or e}") from None
    _check_text(str(target), lesson)
    try:
        data = (json.dumps(lesson_to_json(lesson), ensure_ascii=False, indent=2) + "\n").encode("utf-8")
    except (UnicodeEncodeError, ValueError) as e:  # _check_text should have named it; never a traceback
        raise LessonError(str(target), "(file)", "(encoding)", f"cannot be written as UTF-8: {e}") from None
    folder = target.parent if str(target.parent) else Path(".")
    if not folder.is_dir():
        raise LessonError(str(target), "(file)", "(path)", "the folder does not exist")
    try:
        write_atomic(target, data)
    except OSError as e:
        raise LessonError(str(target), "(file)", "(write)", f"cannot write: {e.strerror or e}") from None
    return target


# each field of a step: the JSON types it may have, what to say otherwise, and how to read it
# alone (with the other fields at a fixed, valid value) so that a fault names this field
_STEP_FIELDS: Final[tuple[tuple[str, tuple[type, ...], bool, str], ...]] = (
    ("year", (str,), False, "must be a year as text (a 甲子 such as 丙午, or a branch such as 午)"),
    ("month", (int, str), False, "must be 1–12, a month word or its branch"),
    ("xun", (str,), False, "must be a xun head as text (甲子 … 甲寅)"),
    ("day", (str,), True, "must be a 甲子 day as text (such as 庚戌) or null"),
    ("hour", (str,), True, "must be a branch as text (such as 午) or null"),
)


def _read_alone(field: str, value: Any) -> None:
    defaults: dict[str, Any] = {"year": "甲子", "month": 1, "xun": "甲子", "day": None, "hour": None}
    if field == "day":
        defaults["xun"] = None  # the day's own xun
    State.parse(**(defaults | {field: value}))


def _read_step(name: str, entry: str, st: Any) -> LessonStep:
    if not isinstance(st, dict):
        raise LessonError(name, entry, "(step)", f"must be an object, got {_show(st)}")
    for field, types, optional, expected in _STEP_FIELDS:
        value = st.get(field)
        if value is None and optional:
            continue
        if not isinstance(value, types) or isinstance(value, bool):
            raise LessonError(name, entry, field, f"{expected}, got {_show(value)}")
        if isinstance(value, str) and (fault := _text_fault(value)) is not None:
            raise LessonError(name, entry, field, fault)
        try:
            _read_alone(field, value)
        except (ShenshaError, ValueError) as e:
            raise LessonError(name, entry, field, str(e)) from None
    try:
        state = State.parse(st["year"], st["month"], st["xun"], st.get("day"), st.get("hour"))
    except (ShenshaError, ValueError) as e:  # the fields agree alone but not together: the day's xun
        raise LessonError(name, entry, "day" if st.get("day") else "(state)", str(e)) from None
    raw_variants = st.get("variants", [])
    if not isinstance(raw_variants, list) or not all(isinstance(v, str) for v in raw_variants):
        raise LessonError(name, entry, "variants", f"must be a list of texts such as \"tian_xi=shun_twelve\", "
                                                   f"got {_show(raw_variants)}")
    for v in raw_variants:
        if (fault := _text_fault(v)) is not None:
            raise LessonError(name, entry, "variants", fault)
    raw_liuren = st.get("liuren", [])
    if not isinstance(raw_liuren, list) or not all(isinstance(v, str) for v in raw_liuren):
        raise LessonError(name, entry, "liuren", f"must be a list of texts such as \"shehai=depth\", "
                                                 f"got {_show(raw_liuren)}")
    for v in raw_liuren:
        if (fault := _text_fault(v)) is not None:
            raise LessonError(name, entry, "liuren", fault)
    # a Liu Ren setting among the variants (as ke --variant takes them) is read as one
    from shensha_plates.core.liuren import KeOptions, liuren_tables
    settings = liuren_tables().settings
    is_setting = [str(v).partition("=")[0].strip() in settings for v in raw_variants]
    variants = tuple(v for v, setting in zip(raw_variants, is_setting, strict=True) if not setting)
    liuren = tuple(raw_liuren) + tuple(v for v, setting in zip(raw_variants, is_setting, strict=True) if setting)
    try:
        Options.from_choices(list(variants))
    except (ShenshaError, ValueError) as e:
        raise LessonError(name, entry, "variants", str(e)) from None
    try:
        liuren = KeOptions.from_choices(list(liuren)).to_choices()
    except (ShenshaError, ValueError) as e:
        raise LessonError(name, entry, "liuren", str(e)) from None
    raw_general = st.get("general")
    general: int | None = None
    if raw_general is not None:
        if not isinstance(raw_general, str) or raw_general.strip().removesuffix("将").removesuffix("將") not in BRANCHES:
            raise LessonError(name, entry, "general", f"must be a branch as text (such as 寅) or null, got "
                                                      f"{_show(raw_general)}")
        general = BRANCHES.index(raw_general.strip().removesuffix("将").removesuffix("將"))
    note = st.get("note", "")
    if not isinstance(note, str):
        raise LessonError(name, entry, "note", f"must be text, got {_show(note)}")
    if (fault := _text_fault(note)) is not None:
        raise LessonError(name, entry, "note", fault)
    return LessonStep(state, variants, note, general, liuren)


def load_lesson(path: str | os.PathLike[str]) -> LessonPlan:
    """Read and validate a lesson file; any fault raises :class:`LessonError` naming the step and
    the field (or the file, for faults that no step holds). A UTF-8 byte-order mark is allowed."""
    name = str(path)
    try:
        raw = read_file(path)
    except OSError as e:
        raise LessonError(name, "(file)", "(file)", f"cannot be read: {e.strerror or e}") from None
    try:
        data = json.loads(raw.decode("utf-8-sig"), parse_int=_parse_int)
    except UnicodeDecodeError:
        raise LessonError(name, "(file)", "(encoding)", "is not UTF-8 text") from None
    except json.JSONDecodeError as e:
        raise LessonError(name, "(file)", "(syntax)", f"is not valid JSON (line {e.lineno}, column {e.colno})") from None
    except RecursionError:
        raise LessonError(name, "(file)", "(syntax)", "nests lists or objects too deeply to be a lesson") from None
    except ValueError as e:  # a float or other literal the decoder itself refuses
        raise LessonError(name, "(file)", "(syntax)", f"is not valid JSON: {e}") from None
    if not isinstance(data, dict) or data.get("format") != LESSON_FORMAT:
        raise LessonError(name, "(file)", "format", f"is not a lesson file (expected format {LESSON_FORMAT!r})")
    if data.get("version") not in (1, LESSON_VERSION) or isinstance(data.get("version"), bool):
        raise LessonError(name, "(file)", "version", f"unsupported version {_show(data.get('version'))}")
    title = data.get("name")
    if not isinstance(title, str) or not title.strip():
        raise LessonError(name, "(file)", "name", f"must be a non-empty string, got {_show(title)}")
    if (fault := _text_fault(title)) is not None:
        raise LessonError(name, "(file)", "name", fault)
    raw_steps = data.get("steps")
    if not isinstance(raw_steps, list):
        raise LessonError(name, "(file)", "steps", f"must be a list, got {_show(raw_steps)}")
    steps = tuple(_read_step(name, f"step {i + 1}", st) for i, st in enumerate(raw_steps))
    return LessonPlan(title.strip(), steps, _read_querent(name, data.get("querent")))


def all_text() -> str:
    """Every fixed character the teaching aids can show (prompts, path words), both scripts."""
    q = Question("where", State(0, 1, 0), spirit_id="tai_sui")
    w = Question("which", State(0, 1, 0), branch=0)
    words = "".join(text for _, text in _CLASSES) + "不在此盘不动常居每步对冲顺行进辰逆行退两步一循环往复交替不依一定步数遍历十二辰只行一移部分步无此神"
    return "".join([q.prompt(), q.prompt(trad=True), w.prompt(), w.prompt(trad=True), words, _NUM, "在。（）"])
