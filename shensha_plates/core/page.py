"""The plates as one self-contained web page (``snapshot -o plates.html``): the discs and their turning
rules, not a picture per state.

The page holds, from the engine itself: every spirit (name, meaning, source); every disc with the
spirits in its twelve slots and the branch its slot 0 stands on for each value of its key (year,
month, season … xun); and, for the spirits of the square tables, their branches for each value of
their key. Its script composes a state's spirits exactly as :func:`shensha_plates.core.engine.
compute_plate` does (the rows of the year, the xun and the month, with the 阳年/阴年 spirits of the year's
parity), so every state the page can reach lists what ``show`` lists for it (the browser test checks
it). The bundled font subset is embedded; the page asks for nothing on the network.
"""

from __future__ import annotations

import base64
import html
import json
import math
from importlib import resources
from typing import TYPE_CHECKING, Any, Final

from shensha_plates.core.catalog import KEYS, Catalog, default_catalog
from shensha_plates.core.cycle import (
    BRANCHES, STEMS, XUN_HEADS, group_of_month, month_default_general, mzj_of_month, parse_pillar, season_of_month,
    xun_void,
)
from shensha_plates.core.engine import MONTH_NAMES, Options, State, _compile
from shensha_plates.core.errors import InputError
from shensha_plates.core.lang import is_trad, name_in
from shensha_plates.core.script import to_traditional

if TYPE_CHECKING:
    from shensha_plates.core.liuren.plate import KeOptions

__all__ = ["page_data", "liuren_data", "page_html", "PAGE_KEYS"]

# the keys a page's state gives values to; the year stem and the day may be unknown (their spirits are
# then listed as omitted, as ``show`` lists them)
PAGE_KEYS: Final = ("year_branch", "year_stem", "month", "season", "mzj", "mgroup", "xun", "day_stem", "day_branch")
_DIAL_OF: Final = {"year_branch": "year", "year_stem": "year", "month": "month", "season": "month", "mzj": "month",
                   "mgroup": "month", "xun": "xun", "day_stem": "day", "day_branch": "day"}


# The page's own words: the Chinese (as the page has always shown them, in either script) and the
# English, our translation, for lang en. Branches, stems, pillars and names stay as they are.
_UI: Final[dict[str, tuple[str, str]]] = {
    "title": ("神煞旋盘", "Shensha Plates"), "a_year": ("年", "Year"), "a_month": ("月", "Month"),
    "a_xun": ("旬", "Xun"), "a_day": ("日", "Day"), "a_hour": ("时", "Hour"), "a_general": ("月将", "Month general"),
    "hint": ("拖动或滚动圆盘即转盘；Y / M / X / D / H 转年、月、旬、日、时，G 转月将（Shift 反转）；点一支看其下诸神煞",
             "Drag or scroll a disc to turn it; Y / M / X / D / H turn the year, month, xun, day, hour, G the month "
             "general (Shift: back); click a branch to see the spirits under it"),
    "yearSfx": ("年", " year"), "xunSfx": ("旬", " xun"), "daySfx": ("日", " day"), "hourSfx": ("时", " hour"),
    "upper": ("上位", "Upper"), "lower": ("下位", "Lower"), "yearBranches": ("年支", "year branch"),
    "yearPillars": ("干支", "year pillar"), "noDay": ("无日", "no day"), "noHour": ("无时", "no hour"),
    "pick": ("点圆盘上的一支，看其下诸神煞。", "Click a branch on a plate to see the spirits under it."),
    "needBoth": ("年干或日干支", "the year's stem or the day's pillar"), "needStem": ("年干", "the year's stem"),
    "needDay": ("日干支", "the day's pillar"), "omitted": ("未列 {n} 位：需要{need}", "{n} not listed: they need {need}"),
    "badYear": ("（应为甲子如丙午，或一支如午）", " (expected a pillar such as 丙午, or a branch such as 午)"),
    "badMonth": ("（应为1–12）", " (expected 1–12)"), "badXun": ("（应为{xun}）", " (expected {xun})"),
    "badDay": ("（应为甲子如庚戌）", " (expected a pillar such as 庚戌)"),
    "dayXun": (" 属{a}旬，不属{b}旬：取日之旬", " is in the {a} xun, not the {b} xun: the day's xun is taken"),
    "badHour": ("（应为一支如午）", " (expected a branch such as 午)"),
    "badGeneral": ("（应为一支如寅）", " (expected a branch such as 寅)"),
    "badAddress": ("网页所记有误：", "The address has mistakes: "), "sep": ("；", "; "),
}
_EN_WORDS: Final = {"将": " general", "加": " over ", "昼": "day ", "夜": "night ", "贵": "Noble ", "顺": "forward",
                    "逆": "backward", "行": "", "旬空": "void ", "日": " day", "时": " hour", "四课": "Four lessons",
                    "三传": "Three transmissions", "课体": "Lesson", "取传": "How the transmissions were found",
                    "空": "void", "随月": "by the month"}
_EN_TRANSMISSIONS: Final = ("First", "Middle", "Last")


def _EN_KIN(k: str) -> str:  # noqa: N802 - a table's lookup
    from shensha_plates.core.english import english
    return english().kin[k]


def _ui(lang: str) -> dict[str, str]:
    """The page's words in ``lang`` (the Chinese for both scripts, as before)."""
    return {k: (en if lang == "en" else zh) for k, (zh, en) in _UI.items()}


def key_values(state: State) -> dict[str, int]:
    """The value of each of the page's keys in a state (as the engine reads them)."""
    m = state.month
    return {"year_branch": state.year_branch, "month": m - 1, "season": season_of_month(m),
            "mzj": mzj_of_month(m), "mgroup": group_of_month(m), "xun": state.xun}


def page_data(options: Options = Options(), catalog: Catalog | None = None, lang: str = "zh-Hans") -> dict[str, Any]:
    """What the page's script needs: spirits, discs (slots and anchors per key value) and tables."""
    cat = catalog or default_catalog()
    comp = _compile(cat, options)
    trad = is_trad(lang)
    index = {s.id: i for i, s in enumerate(cat.spirits)}
    spirits = []
    en = None
    if lang == "en":  # English: each name's pinyin and gloss, its meaning (our translation, core/english.py)
        from shensha_plates.core.english import english, label
        en = english()
    for s in cat.spirits:
        meaning = to_traditional(s.meaning) if trad else s.meaning
        if en is not None and en.spirit(s.id).meaning:
            meaning = en.spirit(s.id).meaning
        src = s.source.line(trad=trad) if s.source.file else s.source.line()
        spirits.append({"id": s.id, "name": name_in(s, lang), "q": s.quality, "m": meaning,
                        "src": src, "only": s.only})
        if en is not None:
            spirits[-1]["en"] = label(s.name, en.spirit(s.id).gloss).removeprefix(s.name + " ")
    rings = []
    ring_ids = set()
    for ring, key, per_value in comp.rings:
        ring_ids.add(ring.id)
        slots = [[index[sp.id] for sp in slot] for slot in per_value[0].slots]
        rings.append({"id": ring.id, "name": name_in(ring, lang), "plate": ring.plate, "key": key,
                      "dial": _DIAL_OF[key], "anchors": [rp.anchor for rp in per_value], "slots": slots})
    # the square tables: for each key and value, each spirit not on a disc and the branches it lies on
    # (a spirit of one day pillar, 天转 …, also carries that pillar: with a day known it holds only then)
    tables: dict[str, list[list[list[int]]]] = {}
    for key in PAGE_KEYS:
        rows = []
        for value in range(KEYS[key]):
            entries = []
            for e in comp.entries(key, value):
                for p in e.placements:
                    if p.ring is None:
                        entry = [index[p.spirit.id], p.branch]
                        if p.spirit.day_pillar:
                            entry.append(parse_pillar(p.at))
                        entries.append(entry)
            rows.append(entries)
        tables[key] = rows
    # the spirits a state without a year stem, or without a day, leaves out (as ``show`` says)
    omitted = {"stem": sorted(index[sid] for sid in comp.omitted[(False, True)]),
               "day": sorted(index[sid] for sid in comp.omitted[(True, False)])}
    return {"spirits": spirits, "rings": rings, "tables": tables, "omitted": omitted, "branches": BRANCHES,
            "stems": STEMS, "months": ([f"month {m}" for m in range(1, 13)] if lang == "en" else
                                       [to_traditional(n) if trad else n for n in MONTH_NAMES]),
            "ui": _ui(lang),
            "xun": list(XUN_HEADS), "lang": lang}


def _layout(data: dict[str, Any]) -> dict[str, Any]:
    """Radii of every disc (inner → outer per plate), in units of one character: each disc as wide as
    its longest name, and far enough out that its fullest slot's columns fit the slot's arc."""
    names = [len(s["name"]) + 0.4 for s in data["spirits"]]
    out: dict[str, Any] = {}
    for plate in ("upper", "lower"):
        rings = [r for r in data["rings"] if r["plate"] == plate][::-1]  # the catalog lists them outer first
        r = 2.2
        for ring in rings:
            cols = max((len(slot) for slot in ring["slots"]), default=1)
            longest = max((names[i] for slot in ring["slots"] for i in slot), default=1.0)
            r = max(r, cols * 1.12 * 12 / (2 * math.pi))  # the columns fit the arc at the inner edge
            width = longest + 0.5
            out[ring["id"]] = [round(r, 3), round(r + width, 3)]
            r += width
        out[plate] = round(r, 3)  # the ring of branches starts here
    return out


_DIGITS: Final = "0123456789ab"  # a branch (or a general) as one character, base 12


def liuren_data(lang: str = "zh-Hans", ke_options: KeOptions | None = None) -> dict[str, Any]:
    """What the page needs of the Liu Ren plate (式), all from :mod:`shensha_plates.core.liuren`:

    - ``plates``: for each day stem, hour and month general (10 × 12 × 12, in that order) the core's
      heaven plate as 15 characters: the general riding each heaven branch 子 … 亥 (base 12), ``d``/``n``
      (day or night 贵人), ``+``/``-`` (the generals run forward or backward) and 贵人's heaven branch;
      the generals depend on the day only through its stem;
    - ``courses``: for each day and turn of the plate (60 × 12: heaven branch over 子 = general − hour)
      the four lessons' upper and lower branches and the three transmissions (11 characters), the
      lesson's name and the record of its steps (indices into ``names`` and ``steps``): the lessons
      depend on the general and the hour only through the turn;
    - per day stem the kin (六亲) of each branch, per xun the hidden stems (遁干) and the voids;
    - the month general of each month dial (:func:`~shensha_plates.core.cycle.month_default_general`).

    Raises :class:`~shensha_plates.core.errors.CatalogError` when a Liu Ren table is damaged.
    """
    from shensha_plates.core.liuren.method import TRANSMISSION_NAMES, course
    from shensha_plates.core.liuren.plate import DEFAULT_OPTIONS, GENERAL_QUALITY, KIN, heaven_plate, hidden_stem, kin
    from shensha_plates.core.liuren.tables import liuren_tables
    opts = ke_options or DEFAULT_OPTIONS
    trad = is_trad(lang)

    def tr(text: str) -> str:
        return to_traditional(text) if trad else text

    tables = liuren_tables()
    plates = []
    for stem in range(10):
        for hour in range(12):
            for general in range(12):
                hp = heaven_plate(stem, hour, general, opts)  # day 甲子 … 癸酉: any day of this stem
                plates.append("".join(_DIGITS[g] for g in hp.general_of) + ("d" if hp.daytime else "n")
                              + ("+" if hp.forward else "-") + _DIGITS[hp.noble])
    names: dict[str, int] = {}
    steps: dict[str, int] = {}
    courses = []
    for day in range(60):
        for turn in range(12):
            c = course(day, turn, opts)
            code = ("".join(_DIGITS[lesson.upper] for lesson in c.lessons)
                    + "".join(_DIGITS[lesson.lower] for lesson in c.lessons)
                    + "".join(_DIGITS[b] for b in c.transmissions))
            if lang == "en":  # "贼克 Zéikè · Rebellion and Control; 元首 Yuánshǒu · Prime Leader"
                from shensha_plates.core.english import english, label
                name = (f"{label(tables.methods[c.method].name, english().methods[c.method].gloss)}; "
                        f"{label(c.ke, english().ke.get(c.ke, ''))}")
            else:
                name = f"{name_in(tables.methods[c.method], lang)}（{tr(c.ke)}）"
            courses.append([code, names.setdefault(name, len(names)),
                            [steps.setdefault(step.text(lang), len(steps)) for step in c.steps]])
    month_generals = {mg.branch: name_in(mg, lang) for mg in tables.month_generals}
    return {
        "generals": [{"name": name_in(g, lang), "short": g.short_trad if trad else g.short, "q": GENERAL_QUALITY[i]}
                     for i, g in enumerate(tables.generals)],
        "monthGeneralNames": [month_generals[b] for b in range(12)],
        "monthGeneral": [month_default_general(m) for m in range(1, 13)],
        "plates": plates, "courses": courses, "names": list(names), "steps": list(steps),
        "kin": [_EN_KIN(k) if lang == "en" else tr(k) for k in KIN],
        "kinOf": ["".join(str(KIN.index(kin(stem, b))) for b in range(12)) for stem in range(10)],
        "hidden": ["".join("-" if (h := hidden_stem(x * 10, b)) is None else STEMS[h] for b in range(12))
                   for x in range(6)],
        "void": [list(xun_void(x)) for x in range(6)],
        "transmissions": [_EN_TRANSMISSIONS[i] if lang == "en" else tr(t) for i, t in enumerate(TRANSMISSION_NAMES)],
        "words": {w: _EN_WORDS[w] if lang == "en" else tr(w)
                  for w in ("将", "加", "昼", "夜", "贵", "顺", "逆", "行", "旬空", "日", "时", "四课", "三传",
                            "课体", "取传", "空", "随月")},
    }


def page_html(state: State, options: Options = Options(), catalog: Catalog | None = None,
              lang: str = "zh-Hans", ke_options: KeOptions | None = None, general: int | None = None,
              general_source: str = "hand") -> str:
    """The whole page, opened at ``state`` (its year, month, xun, day and hour). ``general`` is a month
    general (月将) set by hand (``general_source`` ``hand``, kept through every turn) or a date's
    (``date``, which gives way to the month's when the month dial turns, as in the window); None:
    the month's. ``ke_options`` are the school's choices for the Liu Ren plate."""
    if general_source not in ("hand", "date"):
        raise ValueError(f"invalid general_source: {general_source!r} (expected hand or date)")
    if general is not None and not (isinstance(general, int) and 0 <= general <= 11):
        raise InputError(f"invalid month general: {general!r} (expected a branch index 0–11)")
    data = page_data(options, catalog, lang)
    data["liuren"] = liuren_data(lang, ke_options)
    data["layout"] = _layout(data)
    data["start"] = {"year": state.year_branch, "ystem": state.year_stem, "month": state.month, "xun": state.xun,
                     "day": state.day, "hour": state.hour, "general": general,
                     "gsrc": None if general is None else general_source}
    font = resources.files("shensha_plates.resources").joinpath("fonts", "ShenshaSerif-Regular.otf").read_bytes()
    trad = is_trad(lang)
    title = "神煞旋盤" if trad else _UI["title"][1 if lang == "en" else 0]
    payload = json.dumps(data, ensure_ascii=False, separators=(",", ":")).replace("</", "<\\/")
    page = _TEMPLATE
    for key, text in _ui(lang).items():
        if key == "hint" or key.startswith("a_"):
            page = page.replace(f"@{key.upper()}@", html.escape(text))
    return (page.replace("@TITLE@", html.escape(title)).replace("@LANG@", lang if lang == "en" else "zh-Hant" if trad else "zh-Hans")
            .replace("@FONT@", base64.b64encode(font).decode("ascii")).replace("@DATA@", payload)
            .replace("@SCRIPT@", _SCRIPT))


_TEMPLATE: Final = """<!DOCTYPE html>
<html lang="@LANG@"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; font-src data:; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:">
<title>@TITLE@</title>
<style>
@font-face { font-family: "Shensha Serif"; src: url(data:font/otf;base64,@FONT@) format("opentype"); }
html, body { margin: 0; background: #fbf7ee; color: #1f2430; font-family: "Shensha Serif", serif; }
header { display: flex; flex-wrap: wrap; align-items: center; gap: 8px 16px; padding: 8px 12px;
         background: #2f3b52; color: white; }
header h1 { font-size: 20px; margin: 0 12px 0 0; font-weight: normal; }
header button { font: inherit; font-size: 16px; min-width: 40px; padding: 4px 8px; border-radius: 6px;
                border: 1px solid #8a98b5; background: #45536f; color: white; cursor: pointer; }
header .dial { display: flex; align-items: center; gap: 4px; }
header select { font: inherit; font-size: 17px; padding: 3px 2px; border-radius: 6px; border: 1px solid #8a98b5;
                background: #45536f; color: white; }
#notice { margin: 0; padding: 6px 12px; background: #f6d9a8; color: #5a3b00; }
header .dial[hidden] { display: none; }
#lesson { border-bottom: 1px solid #ddd; padding-bottom: 6px; margin-bottom: 6px; }
#lesson .hdr { font-size: 14px; margin: 4px 0; }
#lesson table { border-collapse: collapse; font-size: 18px; }
#lesson td { padding: 1px 8px; text-align: center; }
#lesson .chuan td { font-size: 16px; }
#lesson details { font-size: 13px; } #lesson ol { margin: 2px 0; padding-left: 20px; }
[data-ring=TG] text, [data-ring=TH] text { cursor: grab; }
aside .omitted { font-size: 13px; color: #777; border-top: 1px solid #ddd; padding-top: 6px; }
#state { font-size: 18px; }
main { display: flex; flex-wrap: wrap; }
#plates { flex: 3 1 520px; min-width: 300px; touch-action: none; user-select: none; }
#plates svg { width: 100%; height: auto; max-height: calc(100vh - 60px); display: block; }
aside { flex: 1 1 280px; padding: 8px 14px; max-height: calc(100vh - 60px); overflow: auto; }
aside h2 { margin: 4px 0; font-size: 26px; }
aside h3 { margin: 10px 0 2px; font-size: 15px; color: #555; font-weight: normal; }
aside .sp { margin: 3px 0 8px; }
aside .name { font-weight: bold; }
aside .m { font-size: 14px; }
aside .src { font-size: 12px; color: #777; }
.good { fill: #b3261e; color: #b3261e; } .bad { fill: #1c2b4a; color: #1c2b4a; } .mixed { fill: #1f6f6b; color: #1f6f6b; }
.hint { font-size: 13px; color: #c9d2e3; }
@media print {
  header button, .hint, #notice { display: none; } header select { border: none; background: none; color: black; appearance: none; } header { background: none; color: black; }
  aside { max-height: none; overflow: visible; } #plates svg { max-height: none; }
}
</style></head>
<body>
<header><h1>@TITLE@</h1>
<span class="dial"><button data-dial="year" data-step="-1" title="Shift+Y">◀</button><select id="v-year" aria-label="@A_YEAR@"></select><button data-dial="year" data-step="1" title="Y">▶</button></span>
<span class="dial"><button data-dial="month" data-step="-1" title="Shift+M">◀</button><select id="v-month" aria-label="@A_MONTH@"></select><button data-dial="month" data-step="1" title="M">▶</button></span>
<span class="dial"><button data-dial="xun" data-step="-1" title="Shift+X">◀</button><select id="v-xun" aria-label="@A_XUN@"></select><button data-dial="xun" data-step="1" title="X">▶</button></span>
<span class="dial"><button data-dial="day" data-step="-1" title="Shift+D">◀</button><select id="v-day" aria-label="@A_DAY@"></select><button data-dial="day" data-step="1" title="D">▶</button></span>
<span class="dial"><button data-dial="hour" data-step="-1" title="Shift+H">◀</button><select id="v-hour" aria-label="@A_HOUR@"></select><button data-dial="hour" data-step="1" title="H">▶</button></span>
<span class="dial" id="d-general" hidden><button data-dial="general" data-step="-1" title="Shift+G">◀</button><select id="v-general" aria-label="@A_GENERAL@"></select><button data-dial="general" data-step="1" title="G">▶</button></span>
<span id="state"></span>
<span class="hint">@HINT@</span>
</header>
<p id="notice" hidden></p>
<main><div id="plates"></div><aside id="details"></aside></main>
<script id="data" type="application/json">@DATA@</script>
<script>@SCRIPT@</script>
</body></html>
"""

_SCRIPT: Final = r"""
"use strict";
const D = JSON.parse(document.getElementById("data").textContent);
const B = D.branches, NS = "http://www.w3.org/2000/svg";
const S = { ...D.start };  // year (branch), ystem, month, xun, day, hour (null: none), general (null: the month's), gsrc
const LR = D.liuren, W = LR.words, T = D.ui;  // T: the page's words in its language
let selected = null;
const mod = (a, n) => ((a % n) + n) % n;
const P = (p) => D.stems[p % 10] + B[p % 12];  // a pillar's name (甲子 = 0)
const pillarOf = (stem, branch) => mod(6 * stem - 5 * branch, 60);
const yearName = (s) => (s.ystem === null ? "" : D.stems[s.ystem]) + B[s.year];
function keyValues(s) {
  const m = s.month, d = s.day;
  return { year_branch: s.year, year_stem: s.ystem, month: m - 1, season: Math.floor((m - 1) / 3), mzj: (m - 1) % 3,
           mgroup: (m - 1) % 4, xun: s.xun, day_stem: d === null ? null : d % 10, day_branch: d === null ? null : d % 12 };
}
// the engine reads the year's and the day's parity (阳年/阴年, 阳日/阴日) on the month's rows only; a day's
// parity unknown leaves the spirit listed (as show lists it without a day: conditional)
const MONTHLY = new Set(["month", "season", "mzj", "mgroup"]);
function applies(sp, yearParity, dayParity) {
  if (!sp.only) return true;
  if (sp.only === "yang_year" || sp.only === "yin_year") return (yearParity === 0) === (sp.only === "yang_year");
  if (dayParity === null) return true;
  return (dayParity === 0) === (sp.only === "yang_day");
}
// the spirits under each branch in a state: what compute_plate gives (discs turned, tables looked up)
function listing(s) {
  const kv = keyValues(s), rows = [];
  const yp = s.year % 2, dp = s.day === null ? null : s.day % 2;
  for (let b = 0; b < 12; b++) rows.push([]);
  for (const ring of D.rings) {
    const a = ring.anchors[kv[ring.key]], m = MONTHLY.has(ring.key);
    ring.slots.forEach((slot, k) => { for (const i of slot) if (applies(D.spirits[i], m ? yp : 0, m ? dp : null)) rows[(a + k) % 12].push(i); });
  }
  for (const key in D.tables) {
    const v = kv[key], m = MONTHLY.has(key);
    if (v === null) continue;  // no year stem, or no day: these spirits are omitted
    for (const [i, b, p] of D.tables[key][v]) {
      if (m && p !== undefined && s.day !== null && p !== s.day) continue;  // a spirit of another day pillar
      if (applies(D.spirits[i], m ? yp : 0, m ? dp : null)) rows[b].push(i);
    }
  }
  return rows;
}
function omittedIn(s) { return (s.ystem === null ? D.omitted.stem : []).concat(s.day === null ? D.omitted.day : []); }
function stateLabel(s) {
  return yearName(s) + T.yearSfx + " " + D.months[s.month - 1] + " " + D.xun[s.xun] + T.xunSfx +
         (s.day === null ? "" : " " + P(s.day) + T.daySfx) + (s.hour === null ? "" : " " + B[s.hour] + T.hourSfx);
}
// -- the Liu Ren plate: looked up in the core's tables, never worked out here -------------------------
const generalOf = (s) => (s.general !== null ? s.general : LR.monthGeneral[s.month - 1]);  // 月将 in force
const heavenAnchor = (s) => (s.hour === null ? null : mod(s.hour - generalOf(s), 12));  // earth under heaven 子
const digit = (c) => parseInt(c, 12);
function heavenPlate(s) {  // the generals on the heaven branches (they need the day's stem), or null
  if (s.hour === null || s.day === null) return null;
  const g = generalOf(s), code = LR.plates[((s.day % 10) * 12 + s.hour) * 12 + g];
  return { general: g, hour: s.hour, turn: mod(g - s.hour, 12), generalOf: [...code.slice(0, 12)].map(digit),
           daytime: code[12] === "d", forward: code[13] === "+", noble: digit(code[14]) };
}
function lessonOf(s) {  // the four lessons and three transmissions (core's, by day and turn), or null
  const hp = heavenPlate(s);
  if (hp === null) return null;
  const [code, name, steps] = LR.courses[s.day * 12 + hp.turn], n = [...code].map(digit);
  const x = Math.floor(s.day / 10), stem = s.day % 10, voids = LR.void[x], hidden = LR.hidden[x];
  return {
    header: `${B[hp.general]}${W["将"]}${W["加"]}${B[s.hour]}　${hp.daytime ? W["昼"] : W["夜"]}${W["贵"]}${B[hp.noble]}　` +
            `${hp.forward ? W["顺"] : W["逆"]}${W["行"]}　${W["旬空"]}${B[voids[0]]}${B[voids[1]]}　${P(s.day)}${W["日"]}　${B[s.hour]}${W["时"]}`,
    lessons: [0, 1, 2, 3].map((i) => ({ upper: B[n[i]], lower: i === 0 ? D.stems[stem] : B[n[4 + i]], general: hp.generalOf[n[i]] })),
    transmissions: [0, 1, 2].map((i) => { const b = n[8 + i];
      return { branch: B[b], general: hp.generalOf[b], kin: LR.kin[+LR.kinOf[stem][b]], stem: hidden[b] === "-" ? null : hidden[b],
               void: voids.includes(b) }; }),
    method: LR.names[name], steps: steps.map((k) => LR.steps[k]),
  };
}
// the state after turning a dial by d steps, as core's step_state turns it
function stepped(s, dial, d) {
  const t = { ...s };
  if (dial === "year") {
    if (s.ystem === null) t.year = mod(s.year + d, 12);
    else { const p = mod(pillarOf(s.ystem, s.year) + d, 60); t.year = p % 12; t.ystem = p % 10; }
  } else if (dial === "month") {
    t.month = mod(s.month - 1 + d, 12) + 1;
    if (s.gsrc === "date" && d !== 0) { t.general = null; t.gsrc = null; }  // a date's general gives way to the new month's
  } else if (dial === "xun") { t.xun = mod(s.xun + d, 6); if (s.day !== null) t.day = mod(s.day + 10 * d, 60); }
  else if (dial === "day") {
    let day = s.day === null ? mod(s.xun * 10, 60) : mod(s.day + d, 60);
    if (s.day === null && d < 0) day = mod(s.xun * 10 + 9, 60);
    t.day = day; t.xun = Math.floor(day / 10);
  } else if (dial === "hour") t.hour = s.hour === null ? mod(d > 0 ? d - 1 : d, 12) : mod(s.hour + d, 12);  // from none: 子 (亥 back)
  else if (dial === "general" && d !== 0) { t.general = mod(generalOf(s) + d, 12); t.gsrc = "hand"; }
  return t;
}
// the state, by the fewest turns of the ring's own dial, with the ring's slot 0 on ``anchor`` (or the
// nearest it can come); ties to the backward turn: core's turn_to_anchor
function turnTo(s, ring, anchor) {
  if (ring.heaven) return { ...s, hour: mod(anchor + generalOf(s), 12) };  // 月将加时: heaven 子 over ``anchor``
  let best = null, bestScore = null;
  for (let d = -6; d <= 6; d++) {
    const t = stepped(s, ring.dial, d), v = keyValues(t)[ring.key], dd = mod(ring.anchors[v === null ? 0 : v] - anchor, 12);
    const score = [Math.min(dd, 12 - dd), Math.abs(d), d];
    if (bestScore === null || score[0] < bestScore[0] || (score[0] === bestScore[0] && (score[1] < bestScore[1] ||
        (score[1] === bestScore[1] && score[2] < bestScore[2])))) { best = t; bestScore = score; }
  }
  return best;
}
// -- drawing ----------------------------------------------------------------------------------------
const L = D.layout, U = 10;  // one character = 10 units
const HW = 1.9, GW = 2.9;  // the widths of the heaven ring and of the generals ring, in characters
const svg = document.createElementNS(NS, "svg");
const plates = {};
// the heaven plate's two rings round the lower plate, there while the state has an hour; they turn together
const HEAVEN = [{ id: "TH", heaven: true, plate: "lower", key: "hour", dial: "hour" },
                { id: "TG", heaven: true, plate: "lower", key: "hour", dial: "hour" }];
let shownHeaven = null;
const allRings = () => (shownHeaven ? D.rings.concat(HEAVEN) : D.rings);
const anchorOf = (ring, s) => (ring.heaven ? heavenAnchor(s) : ring.anchors[keyValues(s)[ring.key]]);
function el(name, attrs, parent) {
  const e = document.createElementNS(NS, name);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  if (parent) parent.appendChild(e);
  return e;
}
function angleOf(branch) { return (-90 + 30 * (branch - 6)) * Math.PI / 180; }  // 午 at the top, clockwise
function build() {
  shownHeaven = S.hour !== null;
  svg.replaceChildren();
  const extra = shownHeaven ? HW + GW : 0;
  const rU = (L.upper + 2) * U, rL = (L.lower + 2 + extra) * U;
  const w = 2 * rL + 2 * rU + 3 * U, h = 2 * Math.max(rL, rU) + 2 * U;
  svg.setAttribute("viewBox", `0 0 ${w} ${h}`);
  plates.upper = { cx: rU + U, cy: rU + U, r: L.upper * U, outer: L.upper + 2 };
  plates.lower = { cx: 2 * rU + 2 * U + rL, cy: h / 2, r: L.lower * U, outer: L.lower + 2 + extra };
  for (const name of ["upper", "lower"]) {
    const p = plates[name], g = el("g", { "data-plate": name }, svg);
    p.g = g;
    if (name === "lower" && shownHeaven) {  // the heaven ring on a warmer ground, the generals' on the paper
      el("circle", { cx: p.cx, cy: p.cy, r: p.outer * U, fill: "#fffdf6", stroke: "#8a7a5a" }, g);
      el("circle", { cx: p.cx, cy: p.cy, r: (L.lower + 2 + HW) * U, fill: "#f1e6cc", stroke: "#8a7a5a", "stroke-width": 0.8 }, g);
    }
    el("circle", { cx: p.cx, cy: p.cy, r: p.r + 2 * U, fill: "#fffdf6", stroke: "#8a7a5a" }, g);
    el("circle", { cx: p.cx, cy: p.cy, r: p.r + U, fill: "none", stroke: "#1f2430", "stroke-width": 2 * U * 0.95,
                   "stroke-opacity": 0.9 }, g);
    for (let b = 0; b < 12; b++) {  // the fixed ring of the twelve branches
      const a = angleOf(b), x = p.cx + (p.r + U) * Math.cos(a), y = p.cy + (p.r + U) * Math.sin(a);
      const t = el("text", { x: x, y: y + 0.36 * U * 1.2, "font-size": 1.2 * U, "text-anchor": "middle", fill: "white",
                             "data-branch": b }, g);
      t.textContent = B[b];
      const a0 = angleOf(b - 0.5);
      el("line", { x1: p.cx + 2.2 * U * Math.cos(a0), y1: p.cy + 2.2 * U * Math.sin(a0),
                   x2: p.cx + (p.r + 2 * U) * Math.cos(a0), y2: p.cy + (p.r + 2 * U) * Math.sin(a0),
                   stroke: "#c9bea5", "stroke-width": 0.6 }, g);
    }
    p.sel = el("path", { fill: "#e8a0a0", "fill-opacity": 0.35, stroke: "none" }, g);
    const title = el("text", { x: p.cx, y: p.cy + 0.4 * U, "font-size": 1.1 * U, "text-anchor": "middle", fill: "#8a7a5a" }, g);
    title.textContent = name === "upper" ? T.upper : T.lower;
  }
  for (const ring of D.rings) {
    const p = plates[ring.plate], [r0, r1] = L[ring.id];
    ring.g = el("g", { "data-ring": ring.id }, p.g);
    el("circle", { cx: p.cx, cy: p.cy, r: r1 * U, fill: "none", stroke: "#c9bea5", "stroke-width": 0.8 }, ring.g);
    ring.names = [];
    ring.slots.forEach((slot, k) => {
      slot.forEach((i, c) => {
        const sp = D.spirits[i];
        const band = el("line", { "stroke-linecap": "round", "stroke-width": U * 0.95, "stroke-opacity": 0.13,
                                  class: sp.q, stroke: "currentColor" }, ring.g);
        const chars = [...sp.name].map((ch) => { const t = el("text", { "font-size": U * 0.92, "text-anchor": "middle",
                                                                         class: sp.q }, ring.g); t.textContent = ch; return t; });
        ring.names.push({ k: k, c: c, n: slot.length, i: i, band: band, chars: chars });
      });
    });
    ring.rot = anchorOf(ring, S);
  }
  if (shownHeaven) {
    const p = plates.lower, base = L.lower + 2;
    HEAVEN[0].r = [base, base + HW]; HEAVEN[1].r = [base + HW, base + HW + GW];
    for (const ring of HEAVEN) {
      ring.g = el("g", { "data-ring": ring.id }, p.g);
      ring.labels = [];
      for (let k = 0; k < 12; k++) {  // slot k: heaven branch k, and the general riding it
        const size = ring.id === "TH" ? 1.35 * U : 1.15 * U;
        const t = el("text", { "font-size": size, "text-anchor": "middle", "data-slot": k,
                               "font-weight": ring.id === "TH" ? "bold" : "normal" }, ring.g);
        if (ring.id === "TH") t.textContent = B[k];
        ring.labels.push(t);
      }
      ring.rot = heavenAnchor(S);
    }
  }
  if (!svg.parentNode) document.getElementById("plates").appendChild(svg);
}
function place(ring) {  // the disc at its rotation (slot 0 over branch ``ring.rot``, fractional while dragged)
  const p = plates[ring.plate];
  if (ring.heaven) {  // upright labels, each at the middle of its slot
    const rm = (ring.r[0] + ring.r[1]) / 2 * U;
    ring.labels.forEach((t, k) => {
      const a = angleOf(ring.rot + k), size = +t.getAttribute("font-size");
      t.setAttribute("x", p.cx + rm * Math.cos(a)); t.setAttribute("y", p.cy + rm * Math.sin(a) + 0.36 * size);
    });
    return;
  }
  const [r0, r1] = L[ring.id];
  for (const nm of ring.names) {
    const a = angleOf(ring.rot + nm.k);
    const off = (nm.c - (nm.n - 1) / 2) * 1.12 * U;  // the columns side by side, across the radius
    const tx = -Math.sin(a), ty = Math.cos(a), len = nm.chars.length;
    const start = r0 * U + (r1 - r0) * U / 2 - (len - 1) * U / 2;
    // a name reads down the screen (or, lying across it, rightwards): from the rim inwards in the
    // upper half, outwards in the lower
    const outward = Math.sin(a) > 0.2 || (Math.abs(Math.sin(a)) <= 0.2 && Math.cos(a) > 0);
    nm.chars.forEach((t, j) => {
      const r = start + (outward ? j : len - 1 - j) * U;
      t.setAttribute("x", p.cx + r * Math.cos(a) + off * tx);
      t.setAttribute("y", p.cy + r * Math.sin(a) + off * ty + 0.34 * U);
    });
    const ra = start, rb = start + (len - 1) * U;
    nm.band.setAttribute("x1", p.cx + ra * Math.cos(a) + off * tx); nm.band.setAttribute("y1", p.cy + ra * Math.sin(a) + off * ty);
    nm.band.setAttribute("x2", p.cx + rb * Math.cos(a) + off * tx); nm.band.setAttribute("y2", p.cy + rb * Math.sin(a) + off * ty);
  }
}
function render() {
  if ((S.hour !== null) !== shownHeaven) build();  // an hour given or taken away: the heaven rings come or go
  if (shownHeaven) {  // the generals ring: each heaven branch's general (none without a day: 贵人 needs its stem)
    const hp = heavenPlate(S);
    HEAVEN[1].labels.forEach((t, k) => {
      const gi = hp === null ? null : hp.generalOf[k];
      t.textContent = gi === null ? "" : LR.generals[gi].name;
      t.setAttribute("class", gi === null ? "" : LR.generals[gi].q);
      t.setAttribute("data-general", gi === null ? "" : gi);
    });
  }
  for (const ring of allRings()) { if (!ring.dragging) ring.rot = anchorOf(ring, S); place(ring); }
  dialValue("year").value = S.ystem === null ? "b" + S.year : "p" + pillarOf(S.ystem, S.year);
  dialValue("month").value = String(S.month);
  dialValue("xun").value = String(S.xun);
  dialValue("day").value = S.day === null ? "" : String(S.day);
  dialValue("hour").value = S.hour === null ? "" : String(S.hour);
  dialValue("general").value = S.general === null ? "" : String(S.general);
  dialValue("general").options[0].textContent = `${W["随月"]}（${B[LR.monthGeneral[S.month - 1]]}${W["将"]}）`;
  document.getElementById("d-general").hidden = S.hour === null;
  document.getElementById("state").textContent = stateLabel(S);
  const h = address(S);
  if (decodeURIComponent(location.hash.slice(1)) !== h) history.replaceState(null, "", "#" + h);
  details();
}
function address(s) {
  return `year=${yearName(s)}&month=${s.month}&xun=${D.xun[s.xun]}` + (s.day === null ? "" : `&day=${P(s.day)}`) +
         (s.hour === null ? "" : `&hour=${B[s.hour]}`) + (s.general === null ? "" : `&general=${B[s.general]}`);
}
const dialValue = (dial) => document.getElementById("v-" + dial);
function buildDials() {  // each dial's list of values: a select between its two buttons
  const add = (parent, value, text) => { const o = document.createElement("option"); o.value = value; o.textContent = text; parent.appendChild(o); };
  const year = dialValue("year"), branches = document.createElement("optgroup"), pillars = document.createElement("optgroup");
  branches.label = T.yearBranches; pillars.label = T.yearPillars;
  [...B].forEach((b, i) => add(branches, "b" + i, b + T.yearSfx));
  for (let p = 0; p < 60; p++) add(pillars, "p" + p, P(p) + T.yearSfx);
  year.append(branches, pillars);
  D.months.forEach((m, i) => add(dialValue("month"), String(i + 1), m));
  D.xun.forEach((x, i) => add(dialValue("xun"), String(i), x + T.xunSfx));
  add(dialValue("day"), "", T.noDay);
  for (let p = 0; p < 60; p++) add(dialValue("day"), String(p), P(p) + T.daySfx);
  add(dialValue("hour"), "", T.noHour);
  [...B].forEach((b, i) => add(dialValue("hour"), String(i), b + T.hourSfx));
  add(dialValue("general"), "", W["随月"]);
  [...B].forEach((b, i) => add(dialValue("general"), String(i), b + W["将"] + " " + LR.monthGeneralNames[i]));
  for (const dial of ["year", "month", "xun", "day", "hour", "general"]) dialValue(dial).addEventListener("change", (ev) => {
    const v = ev.target.value;
    if (dial === "year") { const n = +v.slice(1); S.year = n % 12; S.ystem = v[0] === "b" ? null : n % 10; }
    else if (dial === "month") Object.assign(S, stepped(S, "month", +v - S.month));
    else if (dial === "xun") Object.assign(S, stepped(S, "xun", +v - S.xun));  // a day keeps its place in the xun
    else if (dial === "day") { if (v === "") S.day = null; else { S.day = +v; S.xun = Math.floor(S.day / 10); } }
    else if (dial === "hour") S.hour = v === "" ? null : +v;
    else { S.general = v === "" ? null : +v; S.gsrc = v === "" ? null : "hand"; }
    render();
  });
}
function lessonHtml(s) {  // the lesson (课传) as the program prints it: lessons right to left, transmissions down
  const ke = lessonOf(s);
  if (ke === null) return "";
  const gen = (i, short) => `<span class="${LR.generals[i].q}">${esc(short ? LR.generals[i].short : LR.generals[i].name)}</span>`;
  const order = [3, 2, 1, 0];
  let out = `<section id="lesson"><p class="hdr">${esc(ke.header)}</p><h3>${W["四课"]}</h3><table class="ke">` +
    `<tr>${order.map((i) => `<td>${gen(ke.lessons[i].general, true)}</td>`).join("")}</tr>` +
    `<tr>${order.map((i) => `<td>${ke.lessons[i].upper}</td>`).join("")}</tr>` +
    `<tr>${order.map((i) => `<td>${ke.lessons[i].lower}</td>`).join("")}</tr></table><h3>${W["三传"]}</h3><table class="chuan">`;
  ke.transmissions.forEach((t, i) => {
    out += `<tr><td>${LR.transmissions[i]}</td><td>${esc(t.kin)}</td><td>${t.stem || "　"}</td><td><b>${t.branch}</b></td>` +
           `<td>${gen(t.general, false)}</td><td>${t.void ? W["空"] : ""}</td></tr>`;
  });
  out += `</table><p>${W["课体"]}：${esc(ke.method)}</p><details><summary>${W["取传"]}</summary><ol>` +
         ke.steps.map((t) => `<li>${esc(t)}</li>`).join("") + "</ol></details></section>";
  return out;
}
function details() {
  const box = document.getElementById("details");
  for (const name of ["upper", "lower"]) {
    const p = plates[name];
    if (selected === null) { p.sel.setAttribute("d", ""); continue; }
    const a0 = angleOf(selected - 0.5), a1 = angleOf(selected + 0.5), R = p.outer * U, r = 2.2 * U;
    p.sel.setAttribute("d", `M ${p.cx + r * Math.cos(a0)} ${p.cy + r * Math.sin(a0)} L ${p.cx + R * Math.cos(a0)} ${p.cy + R * Math.sin(a0)} ` +
      `A ${R} ${R} 0 0 1 ${p.cx + R * Math.cos(a1)} ${p.cy + R * Math.sin(a1)} L ${p.cx + r * Math.cos(a1)} ${p.cy + r * Math.sin(a1)} ` +
      `A ${r} ${r} 0 0 0 ${p.cx + r * Math.cos(a0)} ${p.cy + r * Math.sin(a0)} Z`);
  }
  let out = lessonHtml(S);
  if (selected === null) out += `<p>${T.pick}</p>`;
  else {
    out += `<h2>${B[selected]}</h2><p>${stateLabel(S)}</p>`;
    for (const i of listing(S)[selected]) {
      const sp = D.spirits[i];
      out += `<div class="sp" data-id="${sp.id}"><span class="name ${sp.q}">${esc(sp.name)}</span>` +
             (sp.en ? ` <span class="en">${esc(sp.en)}</span>` : "") +
             `<div class="m">${esc(sp.m)}</div><div class="src">${esc(sp.src)}</div></div>`;
    }
  }
  const left = omittedIn(S);  // what show says it leaves out: the year stem's spirits, the day's
  if (left.length) {
    const need = S.ystem === null && S.day === null ? T.needBoth : S.ystem === null ? T.needStem : T.needDay;
    out += `<p class="omitted" data-ids="${left.map((i) => D.spirits[i].id).join(" ")}">` +
           T.omitted.replace("{n}", left.length).replace("{need}", need) +
           `（${left.map((i) => esc(D.spirits[i].name)).join(" ")}）</p>`;
  }
  const open = box.querySelector("#lesson details") && box.querySelector("#lesson details").open;
  box.innerHTML = out;
  if (open && box.querySelector("#lesson details")) box.querySelector("#lesson details").open = true;
}
function esc(t) { return String(t).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]); }
// -- turning ----------------------------------------------------------------------------------------
function step(dial, d) { Object.assign(S, stepped(S, dial, d)); render(); }
function hit(ev) {  // the plate, ring and branch under a pointer
  const pt = svg.createSVGPoint(); pt.x = ev.clientX; pt.y = ev.clientY;
  const q = pt.matrixTransform(svg.getScreenCTM().inverse());
  for (const name of ["upper", "lower"]) {
    const p = plates[name], dx = q.x - p.cx, dy = q.y - p.cy, r = Math.hypot(dx, dy) / U;
    if (r > p.outer) continue;
    const ang = Math.atan2(dy, dx) * 180 / Math.PI;
    const branch = (((Math.round((ang + 90) / 30) + 6) % 12) + 12) % 12;
    const ring = D.rings.find((g) => g.plate === name && r >= L[g.id][0] && r < L[g.id][1]) ||
                 (name === "lower" && shownHeaven ? HEAVEN.find((g) => r >= g.r[0] && r < g.r[1]) : null) || null;
    return { plate: name, ring: ring, branch: branch, angle: ang };
  }
  return null;
}
let drag = null;
svg.addEventListener("pointerdown", (ev) => {
  const h = hit(ev);
  if (!h) return;
  if (h.ring) { drag = { ring: h.ring, start: h.angle, rot0: h.ring.rot, moved: false, branch: h.branch };
                h.ring.dragging = true; svg.setPointerCapture(ev.pointerId); }
  else { selected = h.branch; details(); }
  ev.preventDefault();
});
svg.addEventListener("pointermove", (ev) => {
  if (!drag) return;
  const h = hit(ev);
  if (!h) return;
  let d = h.angle - drag.start; d = ((d + 540) % 360) - 180;
  if (Math.abs(d) > 3) drag.moved = true;
  drag.ring.rot = drag.rot0 + d / 30;
  for (const ring of allRings()) if (ring.key === drag.ring.key) { if (ring !== drag.ring) ring.rot = anchorOf(ring, S) + (drag.ring.rot - drag.rot0); place(ring); }
});
function endDrag() {
  if (!drag) return;
  const ring = drag.ring;
  ring.dragging = false;
  if (drag.moved) Object.assign(S, turnTo(S, ring, mod(Math.round(ring.rot), 12)));
  else { selected = drag.branch; }
  drag = null;
  render();
}
svg.addEventListener("pointerup", endDrag);
svg.addEventListener("pointercancel", endDrag);
svg.addEventListener("wheel", (ev) => {
  const h = hit(ev);
  if (!h || !h.ring) return;
  ev.preventDefault();
  step(h.ring.dial, ev.deltaY > 0 ? 1 : -1);
}, { passive: false });
const KEY_DIALS = { y: "year", m: "month", x: "xun", d: "day", h: "hour", g: "general" };
document.addEventListener("keydown", (ev) => {
  if (ev.ctrlKey || ev.metaKey || ev.altKey || ev.target.tagName === "SELECT") return;  // a select reads its own keys
  const dial = KEY_DIALS[ev.key.toLowerCase()];
  if (dial === "general" && S.hour === null) return;  // the month general shows with an hour
  if (dial) { step(dial, ev.shiftKey ? -1 : 1); ev.preventDefault(); }
});
for (const b of document.querySelectorAll("header button")) b.addEventListener("click", () => step(b.dataset.dial, +b.dataset.step));
// a link opens at its state: year=丙午 (or a bare branch, 午), month=1…12, xun=甲辰, day=庚戌, hour=午,
// general=寅 (a month general set by hand); what the address leaves out is kept, but a day, an hour or
// a general left out is none. A value not understood is named, once.
function fromHash() {
  const q = new URLSearchParams(location.hash.slice(1)), bad = [];
  if (![...q.keys()].length) return;
  const strip = (v, suffix) => (v.endsWith(suffix) ? v.slice(0, -1) : v).trim();
  const pillar = (v) => { const s = D.stems.indexOf(v[0]), b = B.indexOf(v[1]);
                          return v.length === 2 && s >= 0 && b >= 0 && (s - b) % 2 === 0 ? pillarOf(s, b) : -1; };
  const branch = (v) => (v.length === 1 ? B.indexOf(v) : -1);
  const t = { ...S, day: null, hour: null, general: null, gsrc: null };
  if (q.has("year")) {
    const v = strip(q.get("year"), "年");
    if (branch(v) >= 0) { t.year = branch(v); t.ystem = null; }
    else if (pillar(v) >= 0) { t.year = pillar(v) % 12; t.ystem = pillar(v) % 10; }
    else bad.push(`year=${q.get("year")}` + T.badYear);
  }
  if (q.has("month")) {
    const v = q.get("month").trim(), m = /^[0-9]{1,2}$/.test(v) ? +v : D.months.indexOf(v) + 1;
    if (m >= 1 && m <= 12) t.month = m; else bad.push(`month=${q.get("month")}` + T.badMonth);
  }
  if (q.has("xun")) {
    const x = D.xun.indexOf(strip(q.get("xun"), "旬"));
    if (x >= 0) t.xun = x; else bad.push(`xun=${q.get("xun")}` + T.badXun.replace("{xun}", D.xun.join(" ")));
  }
  if (q.has("day") && q.get("day").trim() !== "") {
    const d = pillar(strip(q.get("day"), "日"));
    if (d < 0) bad.push(`day=${q.get("day")}` + T.badDay);
    else {
      if (q.has("xun") && Math.floor(d / 10) !== t.xun) {
        bad.push(`day=${P(d)}` + T.dayXun.replace("{a}", D.xun[Math.floor(d / 10)]).replace("{b}", D.xun[t.xun]));
      }
      t.day = d; t.xun = Math.floor(d / 10);
    }
  }
  if (q.has("hour") && q.get("hour").trim() !== "") {
    const h = branch(strip(q.get("hour"), "时"));
    if (h >= 0) t.hour = h; else bad.push(`hour=${q.get("hour")}` + T.badHour);
  }
  if (q.has("general") && q.get("general").trim() !== "") {
    const g = branch(strip(q.get("general"), D.lang === "en" ? "将" : W["将"]));  // the address's suffix is one character
    if (g >= 0) { t.general = g; t.gsrc = "hand"; } else bad.push(`general=${q.get("general")}` + T.badGeneral);
  }
  Object.assign(S, t);
  const note = document.getElementById("notice");
  note.textContent = bad.length ? T.badAddress + bad.join(T.sep) : "";
  note.hidden = !bad.length;
}
window.addEventListener("hashchange", () => { fromHash(); render(); });
// for the tests and for scripting: the state and what each branch holds now
const ids = (rows) => rows.map((row) => row.map((i) => D.spirits[i].id));
const full = (s) => ({ year: 0, ystem: null, month: 1, xun: 0, day: null, hour: null, general: null, gsrc: null, ...s });
window.shensha = { state: () => ({ ...S }), listing: () => ids(listing(S)),
                   listingFor: (s) => ids(listing(full(s))),
                   omittedFor: (s) => omittedIn(full(s)).map((i) => D.spirits[i].id),
                   label: (s) => stateLabel(full(s)), address: () => address(S),
                   heavenFor: (s) => ({ anchor: heavenAnchor(full(s)), general: generalOf(full(s)), plate: heavenPlate(full(s)) }),
                   lessonFor: (s) => lessonOf(full(s)),
                   heavenShown: () => HEAVEN.map((ring) => ({ rot: ring.rot, labels: ring.labels.map((t) => t.textContent) })),
                   toClient: (x, y) => { const pt = svg.createSVGPoint(); pt.x = x; pt.y = y;
                                         const q = pt.matrixTransform(svg.getScreenCTM()); return { x: q.x, y: q.y }; },
                   branchPoint: (plate, b) => { const p = plates[plate], a = angleOf(b), r = p.r + U;
                                                 return window.shensha.toClient(p.cx + r * Math.cos(a), p.cy + r * Math.sin(a)); },
                   ringCentre: (id) => { const ring = allRings().find((g) => g.id === id), p = plates[ring.plate];
                                         const [r0, r1] = ring.heaven ? ring.r : L[id];
                                         return { cx: p.cx, cy: p.cy, r: (r0 + r1) / 2 * U }; } };
buildDials();
fromHash();
build();
render();
"""
