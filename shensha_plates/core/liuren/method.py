"""The four lessons (四课) and the three transmissions (三传) by the nine methods (九宗门), every step
recorded.

The result depends only on the day pillar, the turn of the heaven plate (heaven over 子) and the
method settings — never on which hour produced the turn — so it is computed once per (day, turn,
settings) and cached: :func:`course`. Each :class:`Step` names a rule of ``methods.toml`` and the
values that fill its sentence; :meth:`Step.text` gives it in words (simplified or traditional).

Polarity: stems 甲丙戊庚壬 and branches 子寅辰午申戌 are yang. 孟 寅申巳亥, 仲 子午卯酉, 季 辰戌丑未.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Final

from shensha_plates.core.cycle import (BRANCH_PHASE_INDEX, BRANCHES, STEM_PHASE_INDEX, STEMS, branch_phase_index,
                                      overcomes, stem_palace, stem_phase_index)
from shensha_plates.core.errors import InputError
from shensha_plates.core.frozen import quick_init
from shensha_plates.core.lang import is_trad
from shensha_plates.core.liuren.plate import DEFAULT_OPTIONS, KeOptions
from shensha_plates.core.liuren.tables import liuren_tables

__all__ = ["Lesson", "Step", "Course", "course", "XING", "YIMA", "LESSON_NAMES", "TRANSMISSION_NAMES",
           "METHOD_SETTINGS"]

LESSON_NAMES: Final = ("一课", "二课", "三课", "四课")
TRANSMISSION_NAMES: Final = ("初传", "中传", "末传")
# 刑: 寅刑巳 巳刑申 申刑寅 丑刑戌 戌刑未 未刑丑 子刑卯 卯刑子; 辰午酉亥 自刑.
XING: Final = tuple(BRANCHES.index(c) for c in "卯戌巳子辰申午丑寅酉未亥")
# 驿马 of a branch by its 三合: 申子辰→寅, 寅午戌→申, 巳酉丑→亥, 亥卯未→巳.
YIMA: Final = tuple(BRANCHES.index(c) for c in "寅亥申巳寅亥申巳寅亥申巳")
# The settings the method reads (the others only touch the generals or the names).
METHOD_SETTINGS: Final = ("shehai", "fuyin_back", "bazhuan_yaoke", "biezhe_yin", "fanyin_wu")
_LEVEL: Final = ("仲", "季", "孟")  # by branch % 3
_POL: Final = ("阳", "阴")


@quick_init
@dataclass(frozen=True, slots=True)
class Lesson:
    """One lesson: ``upper`` over ``lower`` (branch indices; for 一课 ``lower`` is the stem's lodging
    palace and ``stem`` the day stem). ``relation`` is ``"xia"`` (下贼上), ``"shang"`` (上克下) or None;
    ``repeat_of`` the index (1–4) of an earlier identical lesson."""

    index: int
    upper: int
    lower: int
    stem: int | None
    relation: str | None
    repeat_of: int | None

    @property
    def lower_name(self) -> str:
        return STEMS[self.stem] if self.stem is not None else BRANCHES[self.lower]

    @property
    def name(self) -> str:
        return LESSON_NAMES[self.index - 1]


@quick_init
@dataclass(frozen=True, slots=True)
class Step:
    """One step of the record: the rule applied (an id of ``methods.toml``), the values that fill
    its sentence, and the branch it took or eliminated (None for a step about the whole plate)."""

    rule: str
    fields: tuple[tuple[str, str], ...] = ()
    branch: int | None = None

    def text(self, lang: str = "zh-Hans") -> str:
        """The step in words.

        >>> Step("zeike.one_xia", (("branch", "午"),), 6).text()
        '只一课下贼上，取午为初传（重审）。'
        >>> Step("zeike.one_xia", (("branch", "午"),), 6).text("en")
        'Only one lesson where the lower overcomes the upper: 午 is the first transmission (Repeated Examination).'
        """
        if lang == "en":
            from shensha_plates.core.english import english, translate_term
            en = english()  # our translation, with the same fields; the branches stay as they are
            text = en.rules[self.rule].format(**{k: translate_term(v, en) for k, v in self.fields})
            return text[:1].upper() + text[1:]
        sentence = liuren_tables().rules[self.rule].text.format(**dict(self.fields))
        if is_trad(lang):
            from shensha_plates.core.script import to_traditional
            return to_traditional(sentence)
        return sentence


@quick_init
@dataclass(frozen=True, slots=True)
class Course:
    """The lessons and transmissions of a day and a turn of the plate, and how they were found.

    ``method`` is the id of the method that gave 初传 (one of the nine); ``ke`` the lesson's name
    (重审, 元首, 知一, 见机, 察微, 缀瑕, 涉害, 比用, 蒿矢, 弹射, 虎视, 冬蛇掩目, 别责, 八专, 自任, 自信, 井栏射 …).
    """

    day: int
    turn: int
    lessons: tuple[Lesson, ...]
    transmissions: tuple[int, int, int]
    method: str
    ke: str
    steps: tuple[Step, ...]

    @property
    def distinct(self) -> int:
        return sum(1 for lesson in self.lessons if lesson.repeat_of is None)


def course(day: int, turn: int, options: KeOptions = DEFAULT_OPTIONS) -> Course:
    """The four lessons and three transmissions of day pillar ``day`` (0–59) with heaven branch
    ``turn`` over 子 (the plate's turn, 0–11).

    >>> c = course(17, 8)  # 辛巳 日, 寅将午时: 午 over 戌
    >>> "".join(BRANCHES[b] for b in c.transmissions), c.ke
    ('午寅戌', '元首')
    """
    if type(day) is not int or not 0 <= day <= 59:  # noqa: E721 - bool is not a day
        raise InputError(f"invalid day: {day!r} (expected a pillar index 0–59)")
    if type(turn) is not int or not 0 <= turn <= 11:  # noqa: E721
        raise InputError(f"invalid turn: {turn!r} (expected 0–11)")
    return _course(day, turn, _method_settings(options.choices))


@lru_cache(maxsize=64)
def _method_settings(choices: tuple[tuple[str, str], ...]) -> tuple[str, ...]:
    options = KeOptions(choices)  # keyed by the choices: a tuple hashes faster than the dataclass
    return tuple(options.get(s) for s in METHOD_SETTINGS)


# The branches and stems as tuples of one-character strings (indexing a str makes a new one each time).
_B: Final = ("子", "丑", "寅", "卯", "辰", "巳", "午", "未", "申", "酉", "戌", "亥")
_S: Final = ("甲", "乙", "丙", "丁", "戊", "己", "庚", "辛", "壬", "癸")
# A lesson's relation by (upper's element − lower's element) % 5: at 2 the lower overcomes the upper
# (下贼上), at 3 the upper overcomes the lower (上克下).
_RELATION: Final = (None, None, "xia", "shang", None)


def _b(branch: int) -> str:
    return _B[branch]


def _bs(branches: tuple[int, ...] | list[int]) -> str:
    return "、".join([_B[b] for b in branches])


def _lower_name(lesson: Lesson) -> str:
    return _S[lesson.stem] if lesson.stem is not None else _B[lesson.lower]


def _lessons(day: int, turn: int) -> tuple[Lesson, Lesson, Lesson, Lesson]:
    """The four lessons of a day at a turn of the plate (no setting changes them). Each upper is the
    heaven branch over its lower, so a lesson repeats the first earlier one with the same lower; 一课's
    lower is the stem's palace, its 克 counted with the stem's element."""
    stem, branch = day % 10, day % 12
    palace = _PALACE[stem]
    el = BRANCH_PHASE_INDEX
    u1 = (palace + turn) % 12
    u2 = (u1 + turn) % 12
    u3 = (branch + turn) % 12
    u4 = (u3 + turn) % 12
    lessons = (Lesson(1, u1, palace, stem, _RELATION[(el[u1] - STEM_PHASE_INDEX[stem]) % 5], None),
               Lesson(2, u2, u1, None, _RELATION[(el[u2] - el[u1]) % 5], 1 if u1 == palace else None),
               Lesson(3, u3, branch, None, _RELATION[(el[u3] - el[branch]) % 5],
                      1 if branch == palace else 2 if branch == u1 else None),
               Lesson(4, u4, u3, None, _RELATION[(el[u4] - el[u3]) % 5],
                      1 if u3 == palace else 2 if u3 == u1 else 3 if u3 == branch else None))
    return lessons


# Each Step below gives its rule's fields in order; that they are exactly RULE_FIELDS[rule] is checked for
# every step of every chart by tests/core/test_liuren_structure.py, not here (this runs for every chart).
@lru_cache(maxsize=4096)
def _course(day: int, turn: int, settings: tuple[str, ...]) -> Course:
    shehai_choice, fuyin_back, bazhuan_yaoke, biezhe_yin, fanyin_wu = settings
    stem, branch = day % 10, day % 12
    palace = _PALACE[stem]
    yang_day = stem % 2 == 0
    lessons = _lessons(day, turn)
    u1, u3 = lessons[0].upper, lessons[2].upper
    steps: list[Step] = []
    for lesson in lessons:
        if lesson.repeat_of is not None:
            steps.append(Step("lessons.repeat", (("a", LESSON_NAMES[lesson.repeat_of - 1]),
                                                 ("b", LESSON_NAMES[lesson.index - 1]))))
    # A lesson that repeats another's place still counts its own 克 when its lower differs in kind
    # (一课's lower is the stem: 辛 under 亥 has none, 戌 under 亥 is 下贼上); candidates are then
    # counted once per upper branch.
    lower_names = (_S[stem], _B[u1], _B[branch], _B[u3])
    for i, lesson in enumerate(lessons):
        if lesson.relation is not None:
            steps.append(Step("ke.xia" if lesson.relation == "xia" else "ke.shang",
                              (("lesson", LESSON_NAMES[i]), ("upper", _B[lesson.upper]), ("lower", lower_names[i])),
                              lesson.upper))
    ch = _Chart(day, turn, lessons, steps, shehai_choice)

    # -- the order of the methods --------------------------------------------------------------
    if turn == 0:
        steps.append(Step("plate.fuyin"))
        return _fuyin(day, lessons, steps, yang_day, palace, branch, fuyin_back)
    if turn == 6:
        steps.append(Step("plate.fanyin"))
        if fanyin_wu == "si" and stem == 4 and branch in (4, 10):
            steps.append(Step("fanyin.wu_si", (), 5))
            return ch.finish(5, "fanyin", "返吟")
        if lessons[0].relation or lessons[1].relation or lessons[2].relation or lessons[3].relation:
            steps.append(Step("fanyin.ke"))
            ch.as_method = "fanyin"
            result = ch.zeike()
            assert result is not None
            return result
        init = YIMA[branch]
        steps.append(Step("fanyin.jinglan", (("day_branch", _B[branch]), ("branch", _B[init]), ("mid", _B[u3]),
                                             ("last", _B[u1])), init))
        return ch.finish(init, "fanyin", "井栏射", u3, u1)
    result = ch.zeike()
    if result is not None:
        return result
    steps.append(Step("ke.none"))
    if palace == branch and bazhuan_yaoke == "bazhuan":  # 八专日
        return _bazhuan(ch, yang_day, u1)
    result = ch.yaoke()
    if result is not None:
        return result
    n = ch.distinct()
    steps.append(Step("lessons.count", (("count", "一二三四"[n - 1]),)))
    if n == 4:
        if yang_day:
            init = (9 + turn) % 12  # the heaven branch over 酉
            steps.append(Step("maoxing.yang", (("branch", _B[init]), ("mid", _B[u3]), ("last", _B[u1])), init))
            return ch.finish(init, "maoxing", "虎视", u3, u1)
        init = (9 - turn) % 12  # the earth branch under 酉
        steps.append(Step("maoxing.yin", (("branch", _B[init]), ("mid", _B[u1]), ("last", _B[u3])), init))
        return ch.finish(init, "maoxing", "冬蛇掩目", u1, u3)
    if n == 3:
        if yang_day:
            he = (stem + 5) % 10
            he_palace = _PALACE[he]
            init = (he_palace + turn) % 12
            steps.append(Step("biezhe.yang", (("he", _S[he]), ("palace", _B[he_palace]), ("branch", _B[init]),
                                              ("last", _B[u1])), init))
        else:
            front = (branch + 4) % 12
            init = front if biezhe_yin == "branch" else (front + turn) % 12
            steps.append(Step("biezhe.yin" if biezhe_yin == "branch" else "biezhe.yin_upper",
                              (("day_branch", _B[branch]), ("front", _B[front]), ("branch", _B[init]),
                               ("last", _B[u1])), init))
        return ch.finish(init, "biezhe", "别责", u1, u1)
    return _bazhuan(ch, yang_day, u1)


_PALACE: Final = tuple(stem_palace(STEMS[s]) for s in range(10))
_YAO_KE: Final = {"hao": "蒿矢", "dan": "弹射", "xia": "蒿矢", "shang": "弹射"}
# The stems lodged at each branch (寄宫), as (element, label) pairs, for the depth count.
_LODGED: Final = tuple(tuple((stem_phase_index(s), STEMS[s]) for s in range(10) if stem_palace(STEMS[s]) == e)
                       for e in range(12))


def _unique(cands: list[Lesson]) -> list[Lesson]:
    """Candidates with distinct upper branches (a branch over two lowers counts once)."""
    seen: set[int] = set()
    out = []
    for c in cands:
        if c.upper not in seen:
            seen.add(c.upper)
            out.append(c)
    return out


class _Chart:
    """A course being found: its day, turn and lessons, the steps recorded so far, the 涉害 setting,
    and the method to report when it is not the one that found 初传 (返吟 by 贼克)."""

    __slots__ = ("day", "turn", "stem", "lessons", "steps", "shehai_choice", "as_method")

    def __init__(self, day: int, turn: int, lessons: tuple[Lesson, ...], steps: list[Step],
                 shehai_choice: str) -> None:
        self.day = day
        self.turn = turn
        self.stem = day % 10
        self.lessons = lessons
        self.steps = steps
        self.shehai_choice = shehai_choice
        self.as_method: str | None = None

    def distinct(self) -> int:
        return sum(1 for lesson in self.lessons if lesson.repeat_of is None)

    def finish(self, init: int, method: str, ke: str, mid: int | None = None, last: int | None = None) -> Course:
        turn, steps = self.turn, self.steps
        if mid is None:
            mid = (init + turn) % 12
            steps.append(Step("pass.next", (("pos", "中传"), ("prev", _B[init]), ("branch", _B[mid])), mid))
        if last is None:
            last = (mid + turn) % 12
            steps.append(Step("pass.next", (("pos", "末传"), ("prev", _B[mid]), ("branch", _B[last])), last))
        return Course(self.day, turn, self.lessons, (init, mid, last), self.as_method or method, ke, tuple(steps))

    def zeike(self) -> Course | None:
        xia: list[Lesson] = []
        shang: list[Lesson] = []
        seen_xia: list[int] = []
        seen_shang: list[int] = []
        for c in self.lessons:  # the candidates, once per upper branch
            if c.relation == "xia":
                if c.upper not in seen_xia:
                    seen_xia.append(c.upper)
                    xia.append(c)
            elif c.relation == "shang" and c.upper not in seen_shang:
                seen_shang.append(c.upper)
                shang.append(c)
        steps = self.steps
        if xia:
            for c in shang:
                steps.append(Step("zeike.xia_first", (("branch", _B[c.upper]),), c.upper))
            if len(xia) == 1:
                init = xia[0].upper
                steps.append(Step("zeike.one_xia", (("branch", _B[init]),), init))
                return self.finish(init, "zeike", "重审")
            steps.append(Step("zeike.several", (("kind", "下贼上"), ("cands", _bs([c.upper for c in xia])))))
            return self.choose(xia, "xia", "zeike")
        if not shang:
            return None
        if len(shang) == 1:
            init = shang[0].upper
            steps.append(Step("zeike.one_shang", (("branch", _B[init]),), init))
            return self.finish(init, "zeike", "元首")
        steps.append(Step("zeike.several", (("kind", "上克下"), ("cands", _bs([c.upper for c in shang])))))
        return self.choose(shang, "shang", "zeike")

    def choose(self, cands: list[Lesson], kind: str, method: str) -> Course:
        """比用 then 涉害 among several candidates of one kind (lessons with distinct uppers)."""
        stem, steps = self.stem, self.steps
        same = [c for c in cands if c.upper % 2 == stem % 2]
        if len(same) == 1:
            for c in cands:
                if c is not same[0]:
                    steps.append(Step("biyong.drop", (("stem", _S[stem]), ("pol", _POL[stem % 2]),
                                                      ("branch", _B[c.upper]), ("bpol", _POL[c.upper % 2])), c.upper))
            steps.append(Step("biyong.one", (("branch", _B[same[0].upper]), ("stem", _S[stem]),
                                             ("pol", _POL[stem % 2])), same[0].upper))
            return self.finish(same[0].upper, "biyong" if method == "zeike" else method,
                               "知一" if method == "zeike" else _YAO_KE[kind])
        if not same:
            steps.append(Step("biyong.none", (("cands", _bs([c.upper for c in cands])), ("stem", _S[stem]))))
            pool = cands
        else:
            for c in cands:
                if c not in same:
                    steps.append(Step("biyong.drop", (("stem", _S[stem]), ("pol", _POL[stem % 2]),
                                                      ("branch", _B[c.upper]), ("bpol", _POL[c.upper % 2])), c.upper))
            steps.append(Step("biyong.all", (("cands", _bs([c.upper for c in same])), ("stem", _S[stem]))))
            pool = same
        return self.shehai(pool, kind, method)

    def shehai(self, pool: list[Lesson], kind: str, method: str) -> Course:
        stem, steps, shehai_choice = self.stem, self.steps, self.shehai_choice
        m = "shehai" if method == "zeike" else method
        if shehai_choice == "bihe":
            # 《六壬大全》课经「比用格」: of the tied, the one that generates the day stem (生日) is taken
            stem_el = stem_phase_index(stem)
            gen = [c for c in pool if (stem_el - branch_phase_index(c.upper)) % 5 == 1]
            if gen:
                for c in pool:
                    if c not in gen:
                        steps.append(Step("shehai.not_bihe", (("branch", _B[c.upper]), ("stem", _S[stem])), c.upper))
                if len(gen) == 1:
                    steps.append(Step("shehai.bihe", (("branch", _B[gen[0].upper]), ("stem", _S[stem])),
                                      gen[0].upper))
                    return self.finish(gen[0].upper, m, "比用" if method == "zeike" else _YAO_KE[kind])
                pool = gen
        if shehai_choice == "depth":
            scored = [(c, *_depth(c, kind)) for c in pool]
            for c, n, detail in scored:
                steps.append(Step("shehai.depth", (("branch", _B[c.upper]), ("lower", _B[c.lower]), ("count", str(n)),
                                                   ("detail", detail)), c.upper))
            top = max(n for _, n, _ in scored)
            deepest = [c for c, n, _ in scored if n == top]
            for c, n, _ in scored:
                if n < top:
                    steps.append(Step("shehai.shallow", (("branch", _B[c.upper]), ("count", str(n)),
                                                         ("deep", _bs([d.upper for d in deepest])), ("max", str(top))),
                                      c.upper))
            if len(deepest) == 1:
                steps.append(Step("shehai.deepest", (("branch", _B[deepest[0].upper]), ("count", str(top))),
                                  deepest[0].upper))
                return self.finish(deepest[0].upper, m, "涉害" if method == "zeike" else _YAO_KE[kind])
            pool = deepest
        meng = [c for c in pool if c.lower % 3 == 2]  # 孟 (branch % 3: 0 仲, 1 季, 2 孟)
        if len(meng) == 1:
            for c in pool:
                if c is not meng[0]:
                    steps.append(Step("shehai.not_meng", (("branch", _B[c.upper]), ("lower", _lower_name(c)),
                                                          ("level", _LEVEL[c.lower % 3] + "神")), c.upper))
            steps.append(Step("shehai.meng", (("branch", _B[meng[0].upper]), ("lower", _B[meng[0].lower])),
                              meng[0].upper))
            return self.finish(meng[0].upper, m, "见机" if method == "zeike" else _YAO_KE[kind])
        if not meng:
            zhong = [c for c in pool if c.lower % 3 == 0]
            if len(zhong) == 1:
                for c in pool:
                    if c is not zhong[0]:
                        steps.append(Step("shehai.not_zhong", (("branch", _B[c.upper]), ("lower", _lower_name(c)),
                                                               ("level", _LEVEL[c.lower % 3] + "神")), c.upper))
                steps.append(Step("shehai.zhong", (("branch", _B[zhong[0].upper]), ("lower", _B[zhong[0].lower])),
                                  zhong[0].upper))
                return self.finish(zhong[0].upper, m, "察微" if method == "zeike" else _YAO_KE[kind])
            tied = zhong or pool
        else:
            for c in pool:
                if c not in meng:
                    steps.append(Step("shehai.not_meng", (("branch", _B[c.upper]), ("lower", _lower_name(c)),
                                                          ("level", _LEVEL[c.lower % 3] + "神")), c.upper))
            tied = meng
        # 缀瑕: a yang day takes the first of the stem's two lessons among the tied, a yin day the
        # first of the branch's two; failing that, the first tied lesson.
        yang_day = stem % 2 == 0
        own = [c for c in tied if (c.index <= 2) == yang_day]
        pick = own[0] if own else tied[0]
        which = ("干上两课先见之神" if yang_day else "支上两课先见之神") if own else "先见之神"
        steps.append(Step("shehai.tie", (("cands", _bs([c.upper for c in tied])),
                                         ("day_kind", "刚日" if yang_day else "柔日"), ("which", which),
                                         ("branch", _B[pick.upper])), pick.upper))
        return self.finish(pick.upper, m, "缀瑕" if method == "zeike" else _YAO_KE[kind])

    def yaoke(self) -> Course | None:
        stem, steps = self.stem, self.steps
        others = _unique([c for c in self.lessons if c.repeat_of is None and c.index > 1])
        haoshi = [c for c in others if overcomes(branch_phase_index(c.upper), stem_phase_index(stem))]
        if haoshi:
            steps.append(Step("yaoke.haoshi", (("cands", _bs([c.upper for c in haoshi])), ("stem", _S[stem]))))
            cands, kind = haoshi, "hao"
        else:
            danshe = [c for c in others if overcomes(stem_phase_index(stem), branch_phase_index(c.upper))]
            if not danshe:
                return None
            steps.append(Step("yaoke.danshe", (("cands", _bs([c.upper for c in danshe])), ("stem", _S[stem]))))
            cands, kind = danshe, "dan"
        if len(cands) == 1:
            steps.append(Step("yaoke.one", (("branch", _B[cands[0].upper]),), cands[0].upper))
            return self.finish(cands[0].upper, "yaoke", _YAO_KE[kind])
        steps.append(Step("yaoke.several", (("cands", _bs([c.upper for c in cands])),)))
        # 遥克 counts the overcoming against the stem: for the depth reading a 蒿矢 spirit is the one
        # overcome along the way (as 下贼上), a 弹射 one the overcoming one (as 上克下).
        return self.choose(cands, "xia" if kind == "hao" else "shang", "yaoke")


def _depth(c: Lesson, kind: str) -> tuple[int, str]:
    """《六壬大全》: from the earth position (exclusive) forward to the upper's home (exclusive),
    count the branches and lodged stems that overcome it (下贼上) or that it overcomes (上克下)."""
    u_el = branch_phase_index(c.upper)
    hits: list[str] = []
    e = (c.lower + 1) % 12
    while e != c.upper:
        for el, label in ((branch_phase_index(e), _b(e)),) + _LODGED[e]:
            if (overcomes(el, u_el) if kind == "xia" else overcomes(u_el, el)):
                hits.append(label)
        e = (e + 1) % 12
    return len(hits), "、".join(hits) or "无"


def _bazhuan(ch: _Chart, yang_day: bool, u1: int) -> Course:
    if yang_day:
        start = u1
        init = (u1 + 2) % 12
        ch.steps.append(Step("bazhuan.yang", (("start", _B[start]), ("branch", _B[init]), ("last", _B[u1])), init))
    else:
        start = ch.lessons[3].upper
        init = (start - 2) % 12
        ch.steps.append(Step("bazhuan.yin", (("start", _B[start]), ("branch", _B[init]), ("last", _B[u1])), init))
    return ch.finish(init, "bazhuan", "八专", u1, u1)


def _fuyin(day: int, lessons: tuple[Lesson, ...], steps: list[Step], yang_day: bool, palace: int, branch: int,
           back: str) -> Course:
    kes = [lesson for lesson in lessons if lesson.relation is not None]
    if kes:
        init, from_stem = kes[0].upper, kes[0].index <= 2
        steps.append(Step("fuyin.ke", (("lesson", kes[0].name), ("branch", _B[init])), init))
        ke = "自任" if yang_day else "自信"
    elif yang_day:
        init, from_stem = palace, True
        steps.append(Step("fuyin.yang", (("branch", _B[init]),), init))
        ke = "自任"
    else:
        init, from_stem = branch, False
        steps.append(Step("fuyin.yin", (("branch", _B[init]),), init))
        ke = "自信"
    if XING[init] != init:
        mid = XING[init]
        steps.append(Step("fuyin.xing", (("prev", _B[init]), ("branch", _B[mid]), ("pos", "中传")), mid))
    else:
        # 杜传: the initial punishes itself; the middle takes the other of 干上/支上
        mid = branch if from_stem else palace
        steps.append(Step("fuyin.self_xing", (("prev", _B[init]), ("pos", "中传"),
                                              ("which", "支上神" if from_stem else "干上神"), ("branch", _B[mid])), mid))
        ke = "杜传"
    if XING[mid] == mid:
        last = (mid + 6) % 12
        steps.append(Step("fuyin.chong", (("prev", _B[mid]), ("why", "自刑"), ("pos", "末传"), ("branch", _B[last])),
                          last))
    elif XING[mid] == init and back == "chong":
        last = (mid + 6) % 12
        steps.append(Step("fuyin.chong", (("prev", _B[mid]), ("why", f"所刑{_B[init]}回到初传"), ("pos", "末传"),
                                          ("branch", _B[last])), last))
    elif XING[mid] == init:
        last = init
        steps.append(Step("fuyin.xing_back", (("prev", _B[mid]), ("branch", _B[last]), ("pos", "末传")), last))
    else:
        last = XING[mid]
        steps.append(Step("fuyin.xing", (("prev", _B[mid]), ("branch", _B[last]), ("pos", "末传")), last))
    return Course(day, 0, lessons, (init, mid, last), "fuyin", ke, tuple(steps))
