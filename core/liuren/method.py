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

from core.cycle import BRANCHES, STEMS, stem_palace
from core.errors import InputError
from core.liuren.plate import DEFAULT_OPTIONS, KeOptions, element_of_branch, element_of_stem, overcomes
from core.liuren.tables import liuren_tables

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
        """
        sentence = liuren_tables().rules[self.rule].text.format(**dict(self.fields))
        if lang == "zh-Hant":
            from core.script import to_traditional
            return to_traditional(sentence)
        return sentence


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
    return _course(day, turn, _method_settings(options))


@lru_cache(maxsize=64)
def _method_settings(options: KeOptions) -> tuple[str, ...]:
    return tuple(options.get(s) for s in METHOD_SETTINGS)


def _b(branch: int) -> str:
    return BRANCHES[branch]


def _bs(branches: tuple[int, ...] | list[int]) -> str:
    return "、".join(BRANCHES[b] for b in branches)


class _Record:
    __slots__ = ("steps",)

    def __init__(self) -> None:
        self.steps: list[Step] = []

    def add(self, rule: str, at: int | None = None, /, **fields: str) -> None:
        # the fields given must be exactly RULE_FIELDS[rule]: checked for every step of every lesson
        # by tests/core/test_liuren_structure.py, not here (this runs for every step of every chart)
        self.steps.append(Step(rule, tuple(fields.items()), at))


@lru_cache(maxsize=4096)
def _course(day: int, turn: int, settings: tuple[str, ...]) -> Course:
    shehai_choice, fuyin_back, bazhuan_yaoke, biezhe_yin, fanyin_wu = settings
    stem, branch = day % 10, day % 12
    palace = _PALACE[stem]
    yang_day = stem % 2 == 0
    rec = _Record()

    def up(e: int) -> int:
        return (e + turn) % 12

    # -- the four lessons --------------------------------------------------------------------
    u1 = up(palace)
    u3 = up(branch)
    raw = ((u1, palace, stem), (up(u1), u1, None), (u3, branch, None), (up(u3), u3, None))
    lessons: list[Lesson] = []
    for i, (u, lo, st) in enumerate(raw):
        low_el = element_of_stem(st) if st is not None else element_of_branch(lo)
        up_el = element_of_branch(u)
        rel = "xia" if overcomes(low_el, up_el) else "shang" if overcomes(up_el, low_el) else None
        rep = next((j + 1 for j in range(i) if raw[j][0] == u and raw[j][1] == lo), None)
        lessons.append(Lesson(i + 1, u, lo, st, rel, rep))
    for lesson in lessons:
        if lesson.repeat_of is not None:
            rec.add("lessons.repeat", None, a=LESSON_NAMES[lesson.repeat_of - 1], b=lesson.name)
    distinct = [lesson for lesson in lessons if lesson.repeat_of is None]
    # A lesson that repeats another's place still counts its own 克 when its lower differs in kind
    # (一课's lower is the stem: 辛 under 亥 has none, 戌 under 亥 is 下贼上); candidates are then
    # counted once per upper branch.
    for lesson in lessons:
        if lesson.relation is not None:
            rec.add("ke.xia" if lesson.relation == "xia" else "ke.shang", lesson.upper, lesson=lesson.name,
                    upper=_b(lesson.upper), lower=lesson.lower_name)

    def finish(init: int, method: str, ke: str, mid: int | None = None, last: int | None = None) -> Course:
        if mid is None:
            mid = up(init)
            rec.add("pass.next", mid, pos="中传", prev=_b(init), branch=_b(mid))
        if last is None:
            last = up(mid)
            rec.add("pass.next", last, pos="末传", prev=_b(mid), branch=_b(last))
        return Course(day, turn, tuple(lessons), (init, mid, last), method, ke, tuple(rec.steps))

    def level(e: int) -> int:
        return e % 3  # 0 仲, 1 季, 2 孟

    def choose(cands: list[Lesson], kind: str, method: str) -> Course:
        """比用 then 涉害 among several candidates of one kind (lessons with distinct uppers)."""
        same = [c for c in cands if c.upper % 2 == stem % 2]
        if len(same) == 1:
            for c in cands:
                if c is not same[0]:
                    rec.add("biyong.drop", c.upper, stem=STEMS[stem], pol=_POL[stem % 2], branch=_b(c.upper),
                            bpol=_POL[c.upper % 2])
            rec.add("biyong.one", same[0].upper, branch=_b(same[0].upper), stem=STEMS[stem], pol=_POL[stem % 2])
            return finish(same[0].upper, "biyong" if method == "zeike" else method, "知一" if method == "zeike"
                          else _YAO_KE[kind])
        if not same:
            rec.add("biyong.none", None, cands=_bs([c.upper for c in cands]), stem=STEMS[stem])
            pool = cands
        else:
            for c in cands:
                if c not in same:
                    rec.add("biyong.drop", c.upper, stem=STEMS[stem], pol=_POL[stem % 2], branch=_b(c.upper),
                            bpol=_POL[c.upper % 2])
            rec.add("biyong.all", None, cands=_bs([c.upper for c in same]), stem=STEMS[stem])
            pool = same
        return shehai(pool, kind, method)

    def depth(c: Lesson, kind: str) -> tuple[int, str]:
        """《六壬大全》: from the earth position (exclusive) forward to the upper's home (exclusive),
        count the branches and lodged stems that overcome it (下贼上) or that it overcomes (上克下)."""
        u_el = element_of_branch(c.upper)
        hits: list[str] = []
        e = (c.lower + 1) % 12
        while e != c.upper:
            for el, label in ((element_of_branch(e), _b(e)),) + _LODGED[e]:
                if (overcomes(el, u_el) if kind == "xia" else overcomes(u_el, el)):
                    hits.append(label)
            e = (e + 1) % 12
        return len(hits), "、".join(hits) or "无"

    def shehai(pool: list[Lesson], kind: str, method: str) -> Course:
        m = "shehai" if method == "zeike" else method
        if shehai_choice == "bihe":
            # 《六壬大全》课经「比用格」: of the tied, the one that generates the day stem (生日) is taken
            stem_el = element_of_stem(stem)
            gen = [c for c in pool if (stem_el - element_of_branch(c.upper)) % 5 == 1]
            if gen:
                for c in pool:
                    if c not in gen:
                        rec.add("shehai.not_bihe", c.upper, branch=_b(c.upper), stem=STEMS[stem])
                if len(gen) == 1:
                    rec.add("shehai.bihe", gen[0].upper, branch=_b(gen[0].upper), stem=STEMS[stem])
                    return finish(gen[0].upper, m, "比用" if method == "zeike" else _YAO_KE[kind])
                pool = gen
        if shehai_choice == "depth":
            scored = [(c, *depth(c, kind)) for c in pool]
            for c, n, detail in scored:
                rec.add("shehai.depth", c.upper, branch=_b(c.upper), lower=_b(c.lower), count=str(n), detail=detail)
            top = max(n for _, n, _ in scored)
            deepest = [c for c, n, _ in scored if n == top]
            for c, n, _ in scored:
                if n < top:
                    rec.add("shehai.shallow", c.upper, branch=_b(c.upper), count=str(n),
                            deep=_bs([d.upper for d in deepest]), max=str(top))
            if len(deepest) == 1:
                rec.add("shehai.deepest", deepest[0].upper, branch=_b(deepest[0].upper), count=str(top))
                return finish(deepest[0].upper, m, "涉害" if method == "zeike" else _YAO_KE[kind])
            pool = deepest
        meng = [c for c in pool if level(c.lower) == 2]
        if len(meng) == 1:
            for c in pool:
                if c is not meng[0]:
                    rec.add("shehai.not_meng", c.upper, branch=_b(c.upper), lower=c.lower_name,
                            level=_LEVEL[level(c.lower)] + "神")
            rec.add("shehai.meng", meng[0].upper, branch=_b(meng[0].upper), lower=_b(meng[0].lower))
            return finish(meng[0].upper, m, "见机" if method == "zeike" else _YAO_KE[kind])
        if not meng:
            zhong = [c for c in pool if level(c.lower) == 0]
            if len(zhong) == 1:
                for c in pool:
                    if c is not zhong[0]:
                        rec.add("shehai.not_zhong", c.upper, branch=_b(c.upper), lower=c.lower_name,
                                level=_LEVEL[level(c.lower)] + "神")
                rec.add("shehai.zhong", zhong[0].upper, branch=_b(zhong[0].upper), lower=_b(zhong[0].lower))
                return finish(zhong[0].upper, m, "察微" if method == "zeike" else _YAO_KE[kind])
            tied = zhong or pool
        else:
            for c in pool:
                if c not in meng:
                    rec.add("shehai.not_meng", c.upper, branch=_b(c.upper), lower=c.lower_name,
                            level=_LEVEL[level(c.lower)] + "神")
            tied = meng
        # 缀瑕: a yang day takes the first of the stem's two lessons among the tied, a yin day the
        # first of the branch's two; failing that, the first tied lesson.
        own = [c for c in tied if (c.index <= 2) == yang_day]
        pick = own[0] if own else tied[0]
        which = ("干上两课先见之神" if yang_day else "支上两课先见之神") if own else "先见之神"
        rec.add("shehai.tie", pick.upper, cands=_bs([c.upper for c in tied]),
                day_kind="刚日" if yang_day else "柔日", which=which, branch=_b(pick.upper))
        return finish(pick.upper, m, "缀瑕" if method == "zeike" else _YAO_KE[kind])

    def zeike() -> Course | None:
        xia = _unique([c for c in lessons if c.relation == "xia"])
        shang = _unique([c for c in lessons if c.relation == "shang"])
        if not xia and not shang:
            return None
        if xia:
            for c in shang:
                rec.add("zeike.xia_first", c.upper, branch=_b(c.upper))
            if len(xia) == 1:
                rec.add("zeike.one_xia", xia[0].upper, branch=_b(xia[0].upper))
                return finish(xia[0].upper, "zeike", "重审")
            rec.add("zeike.several", None, kind="下贼上", cands=_bs([c.upper for c in xia]))
            return choose(xia, "xia", "zeike")
        if len(shang) == 1:
            rec.add("zeike.one_shang", shang[0].upper, branch=_b(shang[0].upper))
            return finish(shang[0].upper, "zeike", "元首")
        rec.add("zeike.several", None, kind="上克下", cands=_bs([c.upper for c in shang]))
        return choose(shang, "shang", "zeike")

    def yaoke() -> Course | None:
        others = _unique([c for c in distinct if c.index > 1])
        haoshi = [c for c in others if overcomes(element_of_branch(c.upper), element_of_stem(stem))]
        if haoshi:
            rec.add("yaoke.haoshi", None, cands=_bs([c.upper for c in haoshi]), stem=STEMS[stem])
            cands, kind = haoshi, "hao"
        else:
            danshe = [c for c in others if overcomes(element_of_stem(stem), element_of_branch(c.upper))]
            if not danshe:
                return None
            rec.add("yaoke.danshe", None, cands=_bs([c.upper for c in danshe]), stem=STEMS[stem])
            cands, kind = danshe, "dan"
        if len(cands) == 1:
            rec.add("yaoke.one", cands[0].upper, branch=_b(cands[0].upper))
            return finish(cands[0].upper, "yaoke", _YAO_KE[kind])
        rec.add("yaoke.several", None, cands=_bs([c.upper for c in cands]))
        # 遥克 counts the overcoming against the stem: for the depth reading a 蒿矢 spirit is the one
        # overcome along the way (as 下贼上), a 弹射 one the overcoming one (as 上克下).
        return choose(cands, "xia" if kind == "hao" else "shang", "yaoke")

    bazhuan_day = palace == branch

    # -- the order of the methods --------------------------------------------------------------
    if turn == 0:
        rec.add("plate.fuyin")
        return _fuyin(day, lessons, rec, yang_day, palace, branch, fuyin_back)
    if turn == 6:
        rec.add("plate.fanyin")
        if fanyin_wu == "si" and stem == 4 and branch in (4, 10):
            rec.add("fanyin.wu_si", 5)
            return finish(5, "fanyin", "返吟")
        if any(lesson.relation for lesson in lessons):
            rec.add("fanyin.ke")
            result = zeike()
            assert result is not None
            return _with_method(result, "fanyin")
        init = YIMA[branch]
        rec.add("fanyin.jinglan", init, day_branch=_b(branch), branch=_b(init), mid=_b(u3), last=_b(u1))
        return finish(init, "fanyin", "井栏射", u3, u1)
    result = zeike()
    if result is not None:
        return result
    rec.add("ke.none")
    if bazhuan_day and bazhuan_yaoke == "bazhuan":
        return _bazhuan(lessons, rec, yang_day, u1, finish)
    result = yaoke()
    if result is not None:
        return result
    n = len(distinct)
    rec.add("lessons.count", None, count="一二三四"[n - 1])
    if n == 4:
        if yang_day:
            init = up(BRANCHES.index("酉"))
            rec.add("maoxing.yang", init, branch=_b(init), mid=_b(u3), last=_b(u1))
            return finish(init, "maoxing", "虎视", u3, u1)
        init = (BRANCHES.index("酉") - turn) % 12
        rec.add("maoxing.yin", init, branch=_b(init), mid=_b(u1), last=_b(u3))
        return finish(init, "maoxing", "冬蛇掩目", u1, u3)
    if n == 3:
        if yang_day:
            he = (stem + 5) % 10
            he_palace = _PALACE[he]
            init = up(he_palace)
            rec.add("biezhe.yang", init, he=STEMS[he], palace=_b(he_palace), branch=_b(init), last=_b(u1))
        else:
            front = (branch + 4) % 12
            init = front if biezhe_yin == "branch" else up(front)
            rec.add("biezhe.yin" if biezhe_yin == "branch" else "biezhe.yin_upper", init, day_branch=_b(branch),
                    front=_b(front), branch=_b(init), last=_b(u1))
        return finish(init, "biezhe", "别责", u1, u1)
    return _bazhuan(lessons, rec, yang_day, u1, finish)


_PALACE: Final = tuple(stem_palace(STEMS[s]) for s in range(10))
_YAO_KE: Final = {"hao": "蒿矢", "dan": "弹射", "xia": "蒿矢", "shang": "弹射"}
# The stems lodged at each branch (寄宫), as (element, label) pairs, for the depth count.
_LODGED: Final = tuple(tuple((element_of_stem(s), STEMS[s]) for s in range(10) if stem_palace(STEMS[s]) == e)
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


def _with_method(c: Course, method: str) -> Course:
    return Course(c.day, c.turn, c.lessons, c.transmissions, method, c.ke, c.steps)


def _bazhuan(lessons: list[Lesson], rec: _Record, yang_day: bool, u1: int, finish: object) -> Course:
    if yang_day:
        start = u1
        init = (u1 + 2) % 12
        rec.add("bazhuan.yang", init, start=_b(start), branch=_b(init), last=_b(u1))
    else:
        start = lessons[3].upper
        init = (start - 2) % 12
        rec.add("bazhuan.yin", init, start=_b(start), branch=_b(init), last=_b(u1))
    assert callable(finish)
    result = finish(init, "bazhuan", "八专", u1, u1)
    assert isinstance(result, Course)
    return result


def _fuyin(day: int, lessons: list[Lesson], rec: _Record, yang_day: bool, palace: int, branch: int,
           back: str) -> Course:
    kes = [lesson for lesson in lessons if lesson.relation is not None]
    if kes:
        init, from_stem = kes[0].upper, kes[0].index <= 2
        rec.add("fuyin.ke", init, lesson=kes[0].name, branch=_b(init))
        ke = "自任" if yang_day else "自信"
    elif yang_day:
        init, from_stem = palace, True
        rec.add("fuyin.yang", init, branch=_b(init))
        ke = "自任"
    else:
        init, from_stem = branch, False
        rec.add("fuyin.yin", init, branch=_b(init))
        ke = "自信"
    if XING[init] != init:
        mid = XING[init]
        rec.add("fuyin.xing", mid, prev=_b(init), branch=_b(mid), pos="中传")
    else:
        # 杜传: the initial punishes itself; the middle takes the other of 干上/支上
        mid = branch if from_stem else palace
        rec.add("fuyin.self_xing", mid, prev=_b(init), pos="中传", which="支上神" if from_stem else "干上神",
                branch=_b(mid))
        ke = "杜传"
    if XING[mid] == mid:
        last = (mid + 6) % 12
        rec.add("fuyin.chong", last, prev=_b(mid), why="自刑", pos="末传", branch=_b(last))
    elif XING[mid] == init and back == "chong":
        last = (mid + 6) % 12
        rec.add("fuyin.chong", last, prev=_b(mid), why=f"所刑{_b(init)}回到初传", pos="末传", branch=_b(last))
    elif XING[mid] == init:
        last = init
        rec.add("fuyin.xing_back", last, prev=_b(mid), branch=_b(last), pos="末传")
    else:
        last = XING[mid]
        rec.add("fuyin.xing", last, prev=_b(mid), branch=_b(last), pos="末传")
    return Course(day, 0, tuple(lessons), (init, mid, last), "fuyin", ke, tuple(rec.steps))
