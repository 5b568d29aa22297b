"""The lesson (课传) in words and HTML, with no widget: the four lessons right to left and the three
transmissions top to bottom as the books print them, the method's steps, the spirits of Zhuang's plates
on each lesson and transmission, the names that need the plate, the school's choices, and the steps of
the walk-through. Everything comes from the core's :class:`~shensha_plates.core.liuren.Ke`; this module
only lays it out, for the lesson panel (:mod:`shensha_plates.gui.panels.lesson`) and the presentation.
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from collections.abc import Sequence
from typing import Final

from shensha_plates.core.cycle import BRANCHES, STEMS, pillar_name
from shensha_plates.core.engine import Plate
from shensha_plates.core.english import english as english_tables
from shensha_plates.core.lang import name_in
from shensha_plates.core.liuren import Ke, KeOptions, compute_ke, liuren_tables
from shensha_plates.core.liuren.nianming import NianMing
from shensha_plates.core.liuren.english_text import why_en
from shensha_plates.core.liuren.patterns import BifaHit, PatternHit
from shensha_plates.core.liuren.spirits import NameStatus
from shensha_plates.gui.describe import spirit_name, to_lang
from shensha_plates.gui.i18n import gloss, tr
from shensha_plates.gui.liuren import GENERAL_QUALITY, general_name

__all__ = ["lesson_html", "lesson_parts", "spirits_html", "spirit_rows", "Lit", "school_differences", "WalkStep",
           "setting_words", "choice_words",
           "walk_steps", "ELIMINATING", "year_marks", "year_role", "QUERENT", "PARTNER"]

QUERENT: Final = 0  # whose years a tag on the plate marks: the querent's
PARTNER: Final = 1  # or the partner's


_INK = {"good": "#b3261e", "bad": "#1c2b4a", "mixed": "#1f6f6b"}
_LIT_BG = "#ffe28a"
_OUT_FG = "#b0a890"


@dataclass(frozen=True)
class Lit:
    """What a walk-through step lights in the panel: lessons (1–4), transmissions (0–2), and the
    lessons struck out (eliminated) so far."""

    lessons: frozenset[int] = frozenset()
    transmissions: frozenset[int] = frozenset()
    struck: frozenset[int] = frozenset()
    step: int | None = None  # the record step being shown (index into ke.steps)


def _e(text: str) -> str:
    return html.escape(text)


def _lesson_name(n: int, lang: str) -> str:
    """一课 … 四课, or "Lesson 1" … in English."""
    return f"Lesson {n}" if lang == "en" else to_lang(_NUM[n - 1] + "课", lang)


def _en_label(name: str, gloss: str) -> str:
    """"贼克 Zéikè · Rebellion and Control" (issue 28: a name with its pinyin and English)."""
    from shensha_plates.core.english import label
    return label(name, gloss)


_KIND_EN: Final = {"课体": "lesson form", "格": "pattern", "卦": "hexagram"}


def setting_words(setting_id: str, lang: str) -> str:
    """A school setting's name as shown in ``lang`` (English: our translation, core/english.py)."""
    if lang == "en":
        return english_tables().settings[setting_id].name
    return to_lang(liuren_tables().settings[setting_id].name, lang)


def choice_words(setting_id: str, choice_id: str, lang: str) -> tuple[str, str]:
    """A setting's choice as shown in ``lang``: its name and its note ("" where it has none)."""
    if lang == "en":
        c = english_tables().settings[setting_id].choices[choice_id]
        return c.name, c.note
    choice = liuren_tables().settings[setting_id].choice(choice_id)
    return to_lang(choice.name, lang), to_lang(choice.note, lang)


def _general_html(g: int, lang: str, short: bool = True) -> str:
    return f"<span style='color:{_INK[GENERAL_QUALITY[g]]}'>{_e(general_name(g, lang, short=short))}</span>"


def _spirits_line(plate: Plate, branch: int, lang: str, names: dict[str, NameStatus]) -> str:
    """The spirits of Zhuang's plates at ``branch``, each a link that shows it on the plate."""
    out = []
    seen: set[str] = set()
    for p in plate.at(branch):
        sid = p.spirit.id
        if sid in seen:
            continue
        seen.add(sid)
        colour = _INK.get(p.spirit.quality, _INK["mixed"])
        state = names.get(sid)
        style = f"color:{colour};text-decoration:none"
        mark = ""
        if state is not None and state.in_force is False:
            style = f"color:{_OUT_FG};text-decoration:line-through"
            mark = "〔" + tr("not_in_force", lang) + "〕"
        elif state is not None and state.in_force:
            mark = "〔" + tr("in_force", lang) + "〕"
        out.append(f"<a href='spirit:{sid}:{branch}' style='{style}'>{_e(spirit_name(p.spirit, lang))}</a>{_e(mark)}")
    return "、".join(out) if out else "—"


def spirit_rows(ke: Ke, lang: str = "zh-Hans") -> list[tuple[int, str]]:
    """The branches whose spirits the panel lists, in order (distinct lessons, then transmissions),
    each once with the positions it holds ("一课、初传")."""
    heads: dict[int, list[str]] = {}
    for lesson in ke.lessons:
        if lesson.repeat_of is None:
            heads.setdefault(lesson.upper, []).append(_lesson_name(lesson.index, lang))
    for t in ke.transmissions:
        which = tr(("trans_first", "trans_middle", "trans_last")[t.position], lang)
        if which not in heads.setdefault(t.branch, []):
            heads[t.branch].append(which)
    return [(b, (", " if lang == "en" else "、").join(h)) for b, h in heads.items()]


def lesson_html(ke: Ke, plate: Plate, lang: str = "zh-Hans", lit: Lit = Lit(),
                names: Sequence[NameStatus] = (), differences: Sequence[str] = (), english: bool = False) -> str:
    """The whole panel as HTML (see the module's docstring)."""
    top, rows, tail = lesson_parts(ke, plate, lang, lit, names, differences, english)
    return top + tail + spirits_html(rows, lang, english)


def spirits_html(rows: Sequence[tuple[int, str, str]], lang: str = "zh-Hans", english: bool = False) -> str:
    """The spirits under each branch of the lesson (the rows of :func:`lesson_parts`), titled."""
    gl = f" <i style='color:#777;font-size:small'>({gloss('spirits_here')})</i>" if english else ""
    return (f"<h3 style='margin:8px 0 2px 0'>{_e(tr('spirits_here', lang))}{gl}</h3>"
            + "".join(f"<p style='margin:2px 0'>{head}：{body}</p>" for _, head, body in rows))


def lesson_parts(ke: Ke, plate: Plate, lang: str = "zh-Hans", lit: Lit = Lit(),
                 names: Sequence[NameStatus] = (), differences: Sequence[str] = (),
                 english: bool = False, nian_ming: NianMing | None = None,
                 hits: Sequence[PatternHit] = (), bifa: Sequence[BifaHit] = ()) -> tuple[str, list[tuple[int, str, str]], str]:
    """The panel in three parts: the lessons, transmissions and method; the spirits under each
    branch of the lesson (branch, head, list); the names that need the plate and the schools."""
    hp = ke.plate
    T = lambda k, **f: tr(k, lang, **f)  # noqa: E731
    by_id = {n.spirit: n for n in names if n.spirit is not None and n.spirit == n.id}
    out: list[str] = []
    day = STEMS[ke.day % 10] + BRANCHES[ke.day % 12]
    if lang == "en":
        out.append(f"<p style='margin:0 0 4px 0'><b>Day {_e(day)} · general {_e(BRANCHES[hp.general])} over the hour "
                   f"{_e(BRANCHES[hp.hour])}</b> · {'day' if hp.daytime else 'night'} noble at {_e(BRANCHES[hp.noble])} · "
                   f"{'forward' if hp.forward else 'backward'} · void {_e(BRANCHES[hp.void[0]] + BRANCHES[hp.void[1]])}</p>")
    else:
        out.append(f"<p style='margin:0 0 4px 0'><b>{_e(day)}日　{_e(BRANCHES[hp.general])}将加{_e(BRANCHES[hp.hour])}</b>"
                   f"　{'昼' if hp.daytime else '夜'}贵{_e(BRANCHES[hp.noble])}　{_e(to_lang('顺' if hp.forward else '逆', lang))}"
                   f"　{_e(to_lang('旬空', lang))}{_e(BRANCHES[hp.void[0]] + BRANCHES[hp.void[1]])}</p>")

    # the four lessons, right to left
    gl = (lambda k: f" <i style='color:#777;font-size:small'>({gloss(k)})</i>") if english else (lambda k: "")
    out.append(f"<h3 style='margin:6px 0 2px 0'>{_e(T('four_lessons'))}{gl('four_lessons')}</h3>")
    order = [3, 2, 1, 0]
    cells: dict[str, list[str]] = {"head": [], "gen": [], "up": [], "low": [], "info": []}
    for i in order:
        lesson = ke.lessons[i]
        n = lesson.index
        bg = f"background:{_LIT_BG};" if n in lit.lessons else ""
        fg = f"color:{_OUT_FG};" if n in lit.struck else ""
        strike = "text-decoration:line-through;" if n in lit.struck else ""
        td = f"<td align='center' valign='middle' style='padding:1px 9px;{bg}{fg}'>"
        name = _lesson_name(n, lang)
        cells["head"].append(f"{td}<a href='lesson:{n}' style='color:#555;text-decoration:none'>{_e(name)}</a></td>")
        cells["gen"].append(f"{td}<span style='font-size:13pt'>{_general_html(ke.lesson_generals[i], lang)}</span></td>")
        cells["up"].append(f"{td}<a href='lesson:{n}' style='font-size:19pt;color:#1f2430;text-decoration:none;{strike}'>"
                           f"{_e(BRANCHES[lesson.upper])}</a></td>")
        cells["low"].append(f"{td}<span style='font-size:19pt'>{_e(lesson.lower_name)}</span></td>")
        info = []
        stem = hp.hidden[lesson.upper]
        if stem is not None:
            info.append(STEMS[stem])
        if lesson.upper in hp.void:
            info.append(f"<b style='color:#b3261e'>{_e(T('void_mark'))}</b>")
        if lesson.repeat_of is not None:
            info.append(f"<span style='color:#777'>＝{_e(_lesson_name(lesson.repeat_of, lang))}</span>")
        cells["info"].append(f"{td}<span style='font-size:small'>{' '.join(info) or '&nbsp;'}</span></td>")
    out.append("<table cellspacing='0'>" + "".join("<tr>" + "".join(cells[k]) + "</tr>"
                                                   for k in ("head", "gen", "up", "low", "info")) + "</table>")

    # the three transmissions, top to bottom
    out.append(f"<h3 style='margin:8px 0 2px 0'>{_e(T('three_transmissions'))}{gl('three_transmissions')}</h3>"
               "<table cellspacing='0'>")
    for t in ke.transmissions:
        bg = f"background:{_LIT_BG};" if t.position in lit.transmissions else ""
        td = f"<td valign='middle' style='padding:0px 7px;{bg}'>"
        which = T(("trans_first", "trans_middle", "trans_last")[t.position])
        if lang == "en":  # the column is narrow: "First transmission" would break inside its word
            which = ("First", "Middle", "Last")[t.position]
        tstem = STEMS[t.stem] if t.stem is not None else "&nbsp;"
        void = f"<b style='color:#b3261e'>{_e(T('void_mark'))}</b>" if t.void else "&nbsp;"
        out.append(f"<tr>{td}<a href='trans:{t.position}' style='color:#555;text-decoration:none'>{_e(which)}</a></td>"
                   f"{td}{_e(english_tables().kin[t.kin] if lang == 'en' else to_lang(t.kin, lang))}</td>{td}<span style='font-size:13pt'>{tstem}</span></td>"
                   f"{td}<a href='trans:{t.position}' style='font-size:19pt;color:#1f2430;text-decoration:none'>"
                   f"{_e(BRANCHES[t.branch])}</a></td>{td}<span style='font-size:13pt'>{_general_html(t.general, lang, short=False)}"
                   f"</span></td>{td}{void}</td></tr>")
    out.append("</table>")

    # the method and why
    method = ke.method_name(lang)
    kename = to_lang(ke.ke, lang)
    title = method if kename == method else f"{method} · {kename}"
    if lang == "en":
        en = english_tables()
        title = _en_label(method, en.methods[ke.course.method].gloss)
        if ke.ke != method:
            title += "; " + _en_label(ke.ke, en.ke.get(ke.ke, ""))
    out.append(f"<h3 style='margin:8px 0 2px 0'>{_e(T('method'))}：{_e(title)}</h3><ol style='margin:0 0 0 -20px'>")
    for i, step in enumerate(ke.steps):
        style = f" style='background:{_LIT_BG}'" if lit.step == i else ""
        out.append(f"<li{style}>{_e(step.text(lang))}</li>")
    out.append("</ol>")

    # the patterns the lesson forms (课体, 格, 卦) and why
    if hits:
        out.append(f"<h3 style='margin:8px 0 2px 0'>{_e(T('patterns'))}</h3><p style='margin:0'>")
        if lang == "en":  # the English name, and why in our English ([pattern_why] of en.toml)
            out.append("<br/>".join(
                f"<a href='pattern:{h.id}' style='color:#1f2430;text-decoration:none'><b>{_e(_en_label(h.name, h.pattern.name_en))}"
                f"</b></a> <span style='color:#777;font-size:small'>({_e(_KIND_EN.get(h.kind, h.kind))})</span> "
                f"{_e(why_en(h))}" for h in hits) + "</p>")
        else:
            out.append("<br/>".join(
                f"<a href='pattern:{h.id}' style='color:#1f2430;text-decoration:none'><b>{_e(name_in(h, lang))}"
                f"</b></a><span style='color:#777;font-size:small'>〔{_e(to_lang(h.kind, lang))}〕</span> "
                f"{_e(to_lang(h.why, lang))}" for h in hits) + "</p>")

    # the lines of the 毕法赋 the lesson shows
    if bifa:
        out.append(f"<h3 style='margin:8px 0 2px 0'>{_e(T('bifa'))}</h3><p style='margin:0'>")
        out.append("<br/>".join(f"<b>{h.number}. {_e(to_lang(h.verse, lang))}</b> "  # the verse: the book's words
                                + f"<span style='color:#555'>{_e(why_en(h) if lang == 'en' else to_lang(h.why, lang))}</span>"
                                for h in bifa) + "</p>")

    # the querent's 年命 (and the partner's): each year's branch, the heaven branch over it and the general on that
    people = [] if nian_ming is None else [(T("nian_ming"), nian_ming, "")] + (
        [] if nian_ming.partner is None else [(T("partner"), nian_ming.partner, "partner.")])
    for title, person, whose in people:
        sex = T("male") if person.sex == "m" else T("female")
        out.append(f"<h3 style='margin:8px 0 2px 0'>{_e(title)}"
                   f"<span style='font-weight:normal;font-size:small;color:#555'>（{_e(sex)}，"
                   f"{_e(T('age_xusui', age=person.age))}"
                   f"{'' if person.count == 'xusui' else '，' + _e(T('xingnian_' + person.count))}）"
                   "</span></h3><table cellspacing='0'>")
        for y in person.years:
            td = "<td valign='middle' style='padding:0px 7px'>"
            # a click shows the year on the plate (the querent's in the plate's tag colour, the partner's in its)
            colour = "#1b4f8a" if not whose else "#7a2e5a"
            role = f"<a href='year:{whose}{y.role}' style='color:{colour};text-decoration:none'>{_e(T(y.role))}</a>"
            heaven = (f"<a href='year:{whose}{y.role}' style='font-size:19pt;color:#1f2430;text-decoration:none'>"
                      f"{_e(BRANCHES[y.heaven])}</a>")
            out.append(f"<tr>{td}{role}</td>{td}{_e(pillar_name(y.pillar))}</td>"
                       f"{td}{_e(BRANCHES[y.branch]) + (' carries' if lang == 'en' else _e(to_lang('上', lang)))}</td>"
                       f"{td}{heaven}</td>{td}<span style='font-size:13pt'>"
                       f"{_general_html(y.general, lang, short=False)}</span></td></tr>")
        out.append("</table>")

    # the spirits on each lesson and transmission (laid out by the caller: see spirits_html)
    top = "".join(out)
    heads = list(spirit_rows(ke, lang))
    if nian_ming is not None:
        heads += [(y.heaven, T(y.role)) for y in nian_ming.years]
        if nian_ming.partner is not None:
            heads += [(y.heaven, year_role(y.role, lang, partner=True)) for y in nian_ming.partner.years]
    rows = [(b, f"<b>{_e(head)} {_e(BRANCHES[b])}</b>", _spirits_line(plate, b, lang, by_id))
            for b, head in heads]
    out = []

    # names that need the plate
    if names:
        out.append(f"<h3 style='margin:8px 0 2px 0'>{_e(T('conditional_names'))}</h3>")
        for ns in names:
            colour = "#1f2430" if ns.in_force else _OUT_FG
            verdict = "？" if ns.in_force is None else T("in_force") if ns.in_force else T("not_in_force")
            where = f"（{BRANCHES[ns.branch]}）" if ns.branch is not None else ""
            link = (f"spirit:{ns.spirit}:{ns.branch}" if ns.branch is not None and ns.spirit is not None
                    else f"name:{ns.id}")
            name = name_in(ns, lang)
            reason = to_lang(ns.reason, lang)
            if lang == "en":  # the name's rule in English (the reason's words are the plate's, in Chinese)
                g = english_tables().names.get(ns.id)
                name, reason = (_en_label(ns.name, g.gloss), g.meaning) if g else (ns.name, "")
                where = f" ({BRANCHES[ns.branch]})" if ns.branch is not None else ""
            out.append(f"<p style='margin:2px 0;color:{colour}'><a href='{link}' style='color:{colour};"
                       f"text-decoration:none'><b>{_e(name)}</b></a>{_e(where)} {_e(verdict)}"
                       f"{'：' if lang != 'en' else ': '}{_e(reason)}</p>")

    # the schools
    if differences:
        out.append(f"<p style='margin:8px 0 2px 0;color:#8a3b12'><b>{_e(T('school_differs'))}</b><br/>"
                   + "<br/>".join(_e(d) for d in differences) + "</p>")
    else:
        out.append(f"<p style='margin:8px 0 2px 0;color:#777'>{_e(T('school_same'))}</p>")
    return top, rows, "".join(out)


# Steps of the record that strike a candidate out (its branch is the one eliminated).
ELIMINATING: Final = frozenset({"zeike.xia_first", "biyong.drop", "shehai.not_meng", "shehai.not_zhong",
                                "shehai.shallow"})
_NUM: Final = ("一", "二", "三", "四")


@dataclass(frozen=True)
class WalkStep:
    """One step of the walk-through: the words, what the panel lights, the heaven slots lit and the
    earth branch selected on the plate, and the transmissions drawn as arrows so far (their earth
    branches, 初 first)."""

    words: str
    lit: Lit
    heaven: frozenset[int] = frozenset()
    earth: int | None = None
    arrows: tuple[int, ...] = ()


def year_role(role: str, lang: str, partner: bool = False) -> str:
    """本命 or 行年 in ``lang``; the partner's as 配偶本命 (English: Partner's birth year)."""
    if not partner:
        return tr(role, lang)
    return tr("partner_year", lang, role=gloss(role) if lang == "en" else tr(role, lang))


def year_marks(nian_ming: NianMing | None, lang: str = "zh-Hans") -> tuple[tuple[int, str, int], ...]:
    """The tags of the years on the plate's ring of earth branches: (earth branch, tag, whose) — the
    querent's 命 (本命) and 年 (行年), the partner's 配命 and 配年 (whose: :data:`QUERENT` or
    :data:`PARTNER`); a person's two years on one branch are one tag (命年, 配命年). Empty without a querent."""
    if nian_ming is None:
        return ()
    out: list[tuple[int, str, int]] = []
    for whose, person, prefix in ((QUERENT, nian_ming, ""), (PARTNER, nian_ming.partner, "partner_")):
        if person is None:
            continue
        if person.ben_ming.branch == person.xing_nian.branch:
            out.append((person.ben_ming.branch, tr(prefix + "ming_nian_tag", lang), whose))
        else:
            out += [(person.ben_ming.branch, tr(prefix + "ming_tag", lang), whose),
                    (person.xing_nian.branch, tr(prefix + "nian_tag", lang), whose)]
    return tuple(out)


def walk_steps(ke: Ke, lang: str = "zh-Hans", nian_ming: NianMing | None = None,
               hits: Sequence[PatternHit] | None = None) -> list[WalkStep]:
    """The method step by step: the four lessons in turn, then each step of the core's record (the
    candidates lit, what eliminated each struck out), then the three transmissions as arrows, the
    querent's two years when there is a querent and then the partner's when there is one (each year's
    earth branch selected, the heaven branch over it lit), and last the patterns the lesson forms (``hits``: those the tab lists; else the
    lesson's own, without the plate or the querent)."""
    hp = ke.plate
    T = lambda k, **f: tr(k, lang, **f)  # noqa: E731
    out: list[WalkStep] = []
    for lesson, g in zip(ke.lessons, ke.lesson_generals, strict=True):
        words = T("walk_lesson", n=str(lesson.index) if lang == "en" else _NUM[lesson.index - 1], upper=BRANCHES[lesson.upper], lower=lesson.lower_name,
                  general=general_name(g, lang))
        out.append(WalkStep(words, Lit(lessons=frozenset({lesson.index})), frozenset({lesson.upper}), lesson.lower))
    struck: set[int] = set()
    passes: list[str] = []
    for i, step in enumerate(ke.steps):
        if step.rule == "pass.next":
            passes.append(step.text(lang))
            continue
        fields = dict(step.fields)
        lit: set[int] = set()
        for key in ("lesson", "a", "b"):
            name = fields.get(key, "")
            if name in ("一课", "二课", "三课", "四课"):
                lit.add(("一课", "二课", "三课", "四课").index(name) + 1)
        cands = {BRANCHES.index(ch) for ch in fields.get("cands", "") if ch in BRANCHES}
        lit |= {lesson.index for lesson in ke.lessons if lesson.upper in cands}
        if step.branch is not None:
            if step.rule in ELIMINATING:
                struck |= {lesson.index for lesson in ke.lessons if lesson.upper == step.branch}
            else:
                lit |= {lesson.index for lesson in ke.lessons if lesson.upper == step.branch}
        heaven = frozenset({step.branch}) if step.branch is not None else frozenset(cands)
        earth = hp.under(step.branch) if step.branch is not None else None
        out.append(WalkStep(step.text(lang), Lit(lessons=frozenset(lit), struck=frozenset(struck), step=i),
                            heaven, earth))
    arrows: list[int] = []
    for t in ke.transmissions:
        arrows.append(hp.under(t.branch))
        which = T(("trans_first", "trans_middle", "trans_last")[t.position])
        words = T("walk_trans", which=which, branch=BRANCHES[t.branch], general=general_name(t.general, lang))
        if t.position >= 1 and len(passes) >= t.position:
            words += "　" + passes[t.position - 1]
        out.append(WalkStep(words, Lit(transmissions=frozenset(range(t.position + 1))), frozenset({t.branch}),
                            hp.under(t.branch), tuple(arrows)))
    # the querent's years (年命), then the partner's: what rides each
    people = [] if nian_ming is None else [(nian_ming, False)] + (
        [] if nian_ming.partner is None else [(nian_ming.partner, True)])
    for person, partner in people:
        for y in person.years:
            words = T("walk_year", role=year_role(y.role, lang, partner), pillar=pillar_name(y.pillar),
                      branch=BRANCHES[y.branch], heaven=BRANCHES[y.heaven], general=general_name(y.general, lang))
            out.append(WalkStep(words, Lit(transmissions=frozenset(range(3))), frozenset({y.heaven}), y.branch,
                                tuple(arrows)))
    # the end: the patterns the lesson forms (课体, 格), the whole lesson lit
    if hits is None:
        from shensha_plates.core.liuren.patterns import detect_patterns
        hits = detect_patterns(ke)
    if hits:
        names = (", ".join(_en_label(h.name, h.pattern.name_en) for h in hits) if lang == "en"
                 else "、".join(name_in(h, lang) for h in hits))
        first = ke.transmissions[0].branch
        out.append(WalkStep(T("walk_patterns", names=names), Lit(transmissions=frozenset(range(3))),
                            frozenset(t.branch for t in ke.transmissions), hp.under(first), tuple(arrows)))
    return out


def school_differences(ke: Ke, lang: str = "zh-Hans") -> list[str]:
    """For every setting of the school and every other choice: the lessons it would give, when its
    transmissions (or their generals) differ from the chosen ones'."""
    hp = ke.plate
    tables = liuren_tables()
    mine = [(t.branch, t.general) for t in ke.transmissions]
    lines = []
    for setting in tables.settings.values():
        if setting.id in ("general_basis", "jialin"):
            continue  # the month general is given to the plate; 加临 only touches the names
        current = ke.options.get(setting.id)
        for choice in setting.choices:
            if choice.id == current:
                continue
            chosen = dict(ke.options.choices) | {setting.id: choice.id}
            other = compute_ke(hp.day, hp.hour, hp.general, KeOptions.from_choices(chosen))
            theirs = [(t.branch, t.general) for t in other.transmissions]
            if theirs != mine:
                words = " ".join(BRANCHES[b] + general_name(g, lang, short=True) for b, g in theirs)
                if lang == "en":
                    lines.append(f"{setting_words(setting.id, lang)}: {choice_words(setting.id, choice.id, lang)[0]}"
                                 f" → {other.method_name()}  {words}")
                else:
                    lines.append(to_lang(f"{setting.name}：{choice.name} → {other.method_name()}　{words}", lang))
    return lines
