"""Words for what the core computed: the state in either script, and what lies under a branch (HTML).

Pure Python (no Qt): the details panel, exports and tests share these texts.
"""

from __future__ import annotations

import html
import re
from typing import Final

from shensha_plates.core.catalog import Catalog, Source, Spirit
from shensha_plates.core.cycle import BRANCHES, XUN_HEADS, pillar_name, xun_void
from shensha_plates.core.lang import is_trad, name_in
from shensha_plates.core.text import section_name as core_section_name
from shensha_plates.core.engine import Placement, Plate, State
from shensha_plates.core.script import to_traditional
from shensha_plates.gui.i18n import tr

__all__ = ["state_label", "branch_html", "to_lang", "spirit_name", "spirit_html", "search_spirits",
           "section_name", "source_line"]

def to_lang(text: str, lang: str) -> str:
    """``text`` (written in simplified characters) in the script of ``lang`` (OpenCC, 干支 kept)."""
    return to_traditional(text) if is_trad(lang) else text


def state_label(state: State, lang: str = "zh-Hans") -> str:
    if lang == "en":  # the pillars and branches as they are, the words round them in English
        parts = [f"{state.year_name} year", f"month {state.month} ({BRANCHES[state.month_branch]})",
                 f"{XUN_HEADS[state.xun]} xun"]
        if state.day is not None:
            parts.append(f"{pillar_name(state.day)} day")
        if state.hour is not None:
            parts.append(f"{BRANCHES[state.hour]} hour")
        return " · ".join(parts)
    return to_lang(state.label(), lang)


def spirit_name(spirit: Spirit, lang: str) -> str:
    return name_in(spirit, lang)


def section_name(p: Placement, catalog: Catalog, lang: str) -> str:
    """The section (ring or square table) of a placement, in the interface's language."""
    if lang == "en":  # "岁煞 (square table)": the table's name, then the words
        name = core_section_name(p, "", False)
        return name if p.ring is not None or p.group in ("stem", "branch") else f"{name} ({tr('square_table', lang).lower()})"
    return core_section_name(p, tr("square_table", lang), is_trad(lang))


_ID_SUFFIXES: Final = ("day", "season", "stem", "yang", "yin")
_QUALITY_MARK: Final = {"good": "○", "bad": "●", "mixed": "◐"}
_QUALITY_COLOR: Final = {"good": "#b3261e", "bad": "#1c2b4a", "mixed": "#1f6f6b"}


def spirit_html(spirit: Spirit, lang: str, english: bool = False, placement: Placement | None = None,
                decided: tuple[bool, str] | None = None) -> str:
    """One spirit: name, marks, meaning, source and variants; ``decided`` says whether the Liu Ren
    plate puts a conditional name in force here, and why."""
    e = html.escape
    name = spirit_name(spirit, lang)
    colour = _QUALITY_COLOR[spirit.quality]
    parts = [f'<b style="color:{colour}">{_QUALITY_MARK[spirit.quality]} {e(name)}</b>']
    if placement is not None and placement.at not in BRANCHES:
        parts.append(f" <span style='color:#8a7a5a'>（{e(placement.at)}）</span>")
    if spirit.variants:
        parts.append(" ＊")
    aliases = spirit.aliases_trad if is_trad(lang) else spirit.aliases
    if aliases:
        joined = f"{tr('aliases', lang)}: {', '.join(aliases)}" if lang == "en" else f"{tr('aliases', lang)}：{'、'.join(aliases)}"
        parts.append(f" <span style='color:#555'>{e(joined)}</span>")
    cond = placement.conditional if placement is not None else spirit.condition
    if cond and lang == "en":  # the condition in English (our translation), the core's reason in English
        from shensha_plates.core.english import condition_english
        words = condition_english(cond)
        if decided is not None:
            verdict = tr("in_force", lang) if decided[0] else tr("not_in_force", lang)
            colour = "#1f6f3b" if decided[0] else "#8a7a5a"
            parts.append(f" <span style='color:{colour}'>[if {e(words)}: <b>{e(verdict)}</b> — {e(decided[1])}]</span>")
        else:
            parts.append(f" <span style='color:#8a7a5a'>[{e(tr('conditional', lang))}: if {e(words)}]</span>")
    elif cond and decided is not None:
        verdict = tr("in_force", lang) if decided[0] else tr("not_in_force", lang)
        colour = "#1f6f3b" if decided[0] else "#8a7a5a"
        parts.append(f" <span style='color:{colour}'>〔{e(to_lang(cond, lang))}：<b>{e(verdict)}</b>，"
                     f"{e(to_lang(decided[1], lang))}〕</span>")
    elif cond:
        parts.append(f" <span style='color:#8a7a5a'>〔{e(tr('conditional', lang))}：{e(to_lang(cond, lang))}〕</span>")
    en_tables = None
    if lang == "en":  # the catalog's Chinese notes in English (our translation, core/english.py)
        from shensha_plates.core.english import english as english_tables
        en_tables = english_tables()

    def variant_words(v_id: str, note: str) -> str:
        if en_tables is not None:
            return en_tables.variant_note(spirit.id, v_id) or note
        return to_lang(note, lang)

    if placement is not None and placement.variant:  # the reading in force, by its words (not its id)
        chosen = next((v for v in spirit.variants if v.id == placement.variant), None)
        words = variant_words(chosen.id, chosen.note) if chosen is not None and chosen.note else placement.variant
        sep = ": " if lang == "en" else "："
        parts.append(f" <span style='color:#8a7a5a'>〔{e(tr('variants', lang))}{sep}{e(words)}〕</span>")
    learner = _learner_html(spirit) if english else ""
    if en_tables is not None and en_tables.spirit(spirit.id).meaning:
        parts.append(learner)  # English: the name read aloud and its meaning in English take the meaning's place
        learner = ""
    else:
        parts.append(f"<br/><span>{e(to_lang(spirit.meaning, lang))}</span>")
    if spirit.note:
        note = en_tables.spirit_notes.get(spirit.id, spirit.note) if en_tables is not None else to_lang(spirit.note, lang)
        parts.append(f"<br/><span style='color:#555'>{e(note)}</span>")
    parts.append("<br/>" + _source_html(spirit.source, lang))
    for number, v in enumerate(spirit.variants, 1):
        verdict = {"rejected": tr("rejected", lang), "accepted": tr("accepted", lang)}.get(v.verdict or "", "")
        verdict_html = f"<b>{e(verdict)}</b> " if verdict else ""
        head = (f"Variant {number}: " if lang == "en"
                else f"{tr('variants', lang)}{'一二三四五六七八九'[min(number, 9) - 1]}：")
        cite = f" ({source_line(v.source, lang)})" if lang == "en" else f"（{source_line(v.source, lang)}）"
        parts.append(f"<br/><span style='color:#555;font-size:small'>{e(head)}{verdict_html}"
                     f"{e(variant_words(v.id, v.note))}{e(cite)}</span>")
    parts.append(learner)
    return "".join(parts)


def _learner_html(spirit: Spirit) -> str:
    """For a learner: the name read aloud, its English and its meaning (our translation)."""
    from shensha_plates.core.english import english as english_tables, pinyin
    e = html.escape
    en = english_tables().spirit(spirit.id)
    word = {"good": "auspicious", "bad": "inauspicious", "mixed": "mixed"}[spirit.quality]
    if not en.gloss:  # a spirit of a catalog of one's own, with no English written for it
        return f"<br/><i style='color:#777;font-size:small'>{e(pinyin(spirit.name))} ({e(word)})</i>"
    out = f"<br/><i style='color:#555'>{e(spirit.name)} {e(pinyin(spirit.name))} · {e(en.gloss)} ({e(word)})</i>"
    if en.meaning:
        out += f"<br/><i style='color:#777;font-size:small'>{e(en.meaning)}</i>"
    return out


def branch_html(plate: Plate, branch: int, catalog: Catalog, lang: str = "zh-Hans", english: bool = False,
                decided: dict[str, tuple[bool, str]] | None = None) -> str:
    """Everything under ``branch``: round-plate spirits ring by ring, then the square tables, then the
    day spirits — each with its meaning, source and variants."""
    e = html.escape
    head = f"<h2 style='margin:0'>{e(BRANCHES[branch])} <small>{e(state_label(plate.state, lang))}</small></h2>"
    void = xun_void(plate.state.xun)
    if branch in void:
        head += f"<p style='color:#b3261e;margin:2px 0'>{e(tr('void', lang, xun=XUN_HEADS[plate.state.xun]))}</p>"
    sections: list[tuple[str, list[str]]] = []
    for p in plate.positions[branch]:
        label = section_name(p, catalog, lang)
        if not sections or sections[-1][0] != label:
            sections.append((label, []))
        sections[-1][1].append(spirit_html(p.spirit, lang, english, p, (decided or {}).get(p.spirit.id)))
    body = []
    for label, items in sections:
        gl = ""
        if english:  # the disc's or the table's English name
            from shensha_plates.core.english import english as english_tables, pinyin
            ring = next((r for r in catalog.rings if label in (r.name, r.name_trad)), None)
            words = english_tables().rings.get(ring.id, "") if ring is not None else {
                tr("stem_spirits", "zh-Hans"): tr("stem_spirits", "en"),
                tr("branch_spirits", "zh-Hans"): tr("branch_spirits", "en")}.get(label, "")
            chinese = label.split(" (")[0]
            gl = f" <i style='color:#777;font-size:small'>{e(pinyin(chinese))}{' · ' + e(words) if words else ''}</i>"
        body.append(f"<h3 style='margin:8px 0 2px 0'>{e(label)}{gl}</h3>" + "<br/>".join(
            f"<div style='margin:3px 0 6px 0'>{it}</div>" for it in items))
    if plate.omitted:
        body.append(f"<p style='color:#777'>{e(tr('omitted', lang, n=len(plate.omitted)))}</p>")
    return head + "".join(body)


def _relations_english(first: str, second: str, relations: object) -> str:
    """The relations in English: each by its name, pinyin and gloss, the branches or stems it joins,
    its meaning and note (our translation) and its source."""
    from shensha_plates.core.cycle import BRANCHES as B, STEMS as S
    from shensha_plates.core.english import english, label
    e = html.escape
    en = english()
    out = [f"<h2 style='margin:0'>{e(first)} · {e(second)}</h2>"]
    rels = list(relations)  # type: ignore[call-overload]
    if not rels:
        out.append(f"<p style='color:#777'>{e(tr('relations_none', 'en'))}</p>")
    for r in rels:
        g = en.relations[r.kind]
        between = " ".join(ch for ch in r.detail if ch in B or ch in S)
        line = (f"<div style='margin:6px 0'><b style='color:{_QUALITY_COLOR[r.quality]}'>{_QUALITY_MARK[r.quality]} "
                f"{e(label(r.name, g.gloss))}</b> {e(between)}")
        if r.verdict == "rejected":
            line += f" <b style='color:#8a3b12'>{e(tr('rejected_by_source', 'en'))}</b>"
        line += f"<br/>{e(g.meaning)}"
        if r.note and en.system_text(r.note):
            line += f"<br/><span style='color:#555;font-size:small'>{e(en.system_text(r.note))}</span>"
        out.append(line + "<br/>" + _source_html(r.source, "en") + "</div>")
    return "".join(out)


def search_spirits(catalog: Catalog, text: str) -> tuple[Spirit, ...]:
    """Spirits matching ``text`` by simplified or traditional name, alias, id or pinyin (the ids are
    pinyin: 天马 → tian_ma, found by ``tianma`` or the initials ``tm``)."""
    t = text.strip().lower().replace(" ", "")
    if not t:
        return ()
    exact = catalog.find(text.strip())
    if exact:
        return exact
    found = []
    for s in catalog.spirits:
        syll = s.id.split("_")
        if len(syll) > 2 and (syll[-1] in _ID_SUFFIXES or re.fullmatch(r"[lu]\d", syll[-1])):
            syll = syll[:-1]
        pinyin = "".join(syll)
        initials = "".join(x[0] for x in syll if x)
        names = [s.name, s.name_trad, *s.aliases, *s.aliases_trad]
        if (t in names or pinyin == t or s.id == t or initials == t or pinyin.startswith(t) and len(t) >= 4
                or any(t in n for n in names)):
            found.append(s)
    return tuple(found)


# -- the other systems -------------------------------------------------------------------------------

def source_line(src: Source, lang: str) -> str:
    """The book and the passage (never a file name): 《大六壬指南》卷四 …「…」. A seed's quote is
    shown as the seed has it; a book outside the seeds is named in the reader's script."""
    if src.file:
        return src.line(trad=is_trad(lang))
    return to_lang(src.line(), lang)


def _source_html(src: Source, lang: str) -> str:
    e = html.escape
    sep = ": " if lang == "en" else "："
    return f"<span style='color:#777;font-size:small'>{e(tr('source', lang))}{sep}{e(source_line(src, lang))}</span>"


def chart_html(chart: object, lang: str = "zh-Hans", english: bool = False, heading: str = "") -> str:
    """A Bazi chart: the four pillars side by side with the spirits each carries, then every hit with
    the rule that fired and its source."""
    from shensha_plates.core.bazi import PILLAR_KEYS, PILLAR_NAMES
    from shensha_plates.core.cycle import PILLARS, nayin
    if lang == "en":
        return _chart_english(chart, heading)
    e = html.escape
    pillars = chart.pillars  # type: ignore[attr-defined]
    hits = chart.hits  # type: ignore[attr-defined]
    trad = is_trad(lang)
    cells_head, cells_stem, cells_branch, cells_nayin, cells_spirits = [], [], [], [], []
    for k in PILLAR_KEYS:
        p = PILLARS[pillars[k]]
        cells_head.append(f"<th width='120' style='padding:4px 14px;color:#555'>{e(PILLAR_NAMES[k][1 if trad else 0])}</th>")
        cells_stem.append(f"<td align='center' style='font-size:26pt'>{e(p[0])}</td>")
        cells_branch.append(f"<td align='center' style='font-size:26pt'>{e(p[1])}</td>")
        cells_nayin.append(f"<td align='center' style='color:#777'>{e(to_lang(nayin(pillars[k]), lang))}</td>")
        names = [h for h in hits if k in h.pillar.split("-")]
        cells_spirits.append("<td width='120' valign='top' align='center'>" + "<br/>".join(
            f"<span style='color:{_QUALITY_COLOR[h.spirit.quality]}'>{_QUALITY_MARK[h.spirit.quality]} "
            f"{e(name_in(h.spirit, lang))}</span>" for h in names) + "</td>")
    rows = [cells_head, cells_stem, cells_branch, cells_nayin, cells_spirits]
    table = "<table cellspacing='0' style='margin:6px 0'>" + "".join(
        "<tr>" + "".join(r) + "</tr>" for r in rows) + "</table>"
    out = [f"<h2 style='margin:0'>{e(heading)}</h2>" if heading else "", table]
    for h in hits:
        name = name_in(h.spirit, lang)
        where = "、".join(PILLAR_NAMES[k][1 if trad else 0] for k in h.pillar.split("-"))
        line = (f"<div style='margin:4px 0'><b style='color:{_QUALITY_COLOR[h.spirit.quality]}'>{e(name)}</b>"
                f" <span style='color:#555'>· {e(where)}</span><br/>{e(to_lang(h.rule, lang))}"
                f"<br/><span>{e(to_lang(h.spirit.meaning, lang))}</span>")
        if h.spirit.note:
            line += f"<br/><span style='color:#555;font-size:small'>{e(to_lang(h.spirit.note, lang))}</span>"
        line += "<br/>" + _source_html(h.spirit.source, lang)
        if english:
            line += f"<br/><i style='color:#777;font-size:small'>{e(h.spirit.id)} · {e(h.pillar)}</i>"
        out.append(line + "</div>")
    if not hits:
        out.append(f"<p style='color:#777'>{e(tr('chart_none', lang))}</p>")
    return "".join(out)


def _chart_english(chart: object, heading: str = "") -> str:
    """A Bazi chart in English: the pillars, their Na Yin, the spirits each carries by name, pinyin and
    gloss, where each lies, its meaning and note (our translation) and its source."""
    from shensha_plates.core.bazi import PILLAR_KEYS
    from shensha_plates.core.cycle import PILLARS, nayin
    from shensha_plates.core.english import english, label, pinyin
    e = html.escape
    en = english()
    pillars = chart.pillars  # type: ignore[attr-defined]
    hits = chart.hits  # type: ignore[attr-defined]
    words = {"year": "Year pillar", "month": "Month pillar", "day": "Day pillar", "hour": "Hour pillar"}
    rows: list[list[str]] = [[], [], [], [], []]
    for k in PILLAR_KEYS:
        p = PILLARS[pillars[k]]
        rows[0].append(f"<th width='120' style='padding:4px 14px;color:#555'>{e(words[k])}</th>")
        rows[1].append(f"<td align='center' style='font-size:26pt'>{e(p[0])}</td>")
        rows[2].append(f"<td align='center' style='font-size:26pt'>{e(p[1])}</td>")
        rows[3].append(f"<td align='center' style='color:#777'>{e(en.nayin[nayin(pillars[k])])}</td>")
        rows[4].append("<td width='120' valign='top' align='center'>" + "<br/>".join(
            f"<span style='color:{_QUALITY_COLOR[h.spirit.quality]}'>{_QUALITY_MARK[h.spirit.quality]} "
            f"{e(h.spirit.name)}</span>" for h in hits if k in h.pillar.split("-")) + "</td>")
    out = [f"<h2 style='margin:0'>{e(heading)}</h2>" if heading else "",
           "<table cellspacing='0' style='margin:6px 0'>" + "".join("<tr>" + "".join(r) + "</tr>" for r in rows)
           + "</table>"]
    for h in hits:
        g = en.named(h.spirit.name, en.bazi, h.spirit.id)
        where = ", ".join(words[k] for k in h.pillar.split("-"))
        name = label(h.spirit.name, g.gloss, pinyin(h.spirit.name.split("（")[0]))
        line = (f"<div style='margin:4px 0'><b style='color:{_QUALITY_COLOR[h.spirit.quality]}'>{e(name)}</b>"
                f" <span style='color:#555'>· {e(where)}, at {e(h.at)}</span>")
        if g.meaning:
            line += f"<br/><span>{e(g.meaning)}</span>"
        if h.spirit.note and en.system_text(h.spirit.note):
            line += f"<br/><span style='color:#555;font-size:small'>{e(en.system_text(h.spirit.note))}</span>"
        out.append(line + "<br/>" + _source_html(h.spirit.source, "en") + "</div>")
    if not hits:
        out.append(f"<p style='color:#777'>{e(tr('chart_none', 'en'))}</p>")
    return "".join(out)


def relations_html(first: str, second: str, relations: object, lang: str = "zh-Hans", english: bool = False) -> str:
    """The eight relations between two positions, each with its meaning, source and any verdict."""
    from shensha_plates.core.relations import KINDS
    if lang == "en":
        return _relations_english(first, second, relations)
    e = html.escape
    out = [f"<h2 style='margin:0'>{e(first)} · {e(second)}</h2>"]
    rels = list(relations)  # type: ignore[call-overload]
    if not rels:
        out.append(f"<p style='color:#777'>{e(tr('relations_none', lang))}</p>")
    for r in rels:
        colour = _QUALITY_COLOR[r.quality]
        line = (f"<div style='margin:6px 0'><b style='color:{colour}'>{_QUALITY_MARK[r.quality]} "
                f"{e(name_in(r, lang))}</b> {e(to_lang(r.detail, lang))}")
        if english:
            line += f" <i style='color:#777;font-size:small'>({e(KINDS[r.kind][2])})</i>"
        if r.verdict == "rejected":
            line += f" <b style='color:#8a3b12'>{e(tr('rejected_by_source', lang))}</b>"
        line += f"<br/>{e(to_lang(r.meaning, lang))}"
        if r.note:
            line += f"<br/><span style='color:#555;font-size:small'>{e(to_lang(r.note, lang))}</span>"
        line += "<br/>" + _source_html(r.source, lang) + "</div>"
        out.append(line)
    return "".join(out)
