"""The rule data of the Liu Ren plate, read from ``resources/liuren/*.toml`` and validated completely.

Three files: ``plate.toml`` (books, month generals, the twelve generals, 贵人 tables, the day/night
boundary), ``methods.toml`` (the nine methods, the rules a step of the record names with their
sentences, and the disputed points as settings) and ``names.toml`` (the names that need the plate:
青龙煞 … 鬼呼). Any fault raises one :class:`shensha_plates.core.errors.CatalogError` naming file, entry, field and
value. The loaded tables are frozen and cached: :func:`liuren_tables`.
"""

from __future__ import annotations

import string
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any, Final
from collections.abc import Mapping

from shensha_plates.core.catalog import SEED_FILES
from shensha_plates.core.cycle import BRANCHES, STEMS
from shensha_plates.core import tomlcache
from shensha_plates.core.datafile import read_rules
from shensha_plates.core.errors import CatalogError

__all__ = ["TableSource", "Book", "MonthGeneral", "General", "NobleTable", "DayNight", "MethodInfo",
           "MethodRule", "Choice", "Setting", "NameRule", "LiurenTables", "liuren_tables", "load_tables",
           "RULE_FIELDS", "NAME_KINDS"]


@dataclass(frozen=True, slots=True)
class TableSource:
    """Where a Liu Ren table's rule comes from (not the catalog's :class:`~shensha_plates.core.catalog.Source`): a book of ``plate.toml`` (``book`` id) or a seed file (``file``)."""

    quote: str
    book: str | None = None
    file: str | None = None

    def label(self, books: Mapping[str, Book]) -> str:
        where = f"《{books[self.book].title}》" if self.book else SEED_FILES[self.file or ""]
        return f"{where}「{self.quote}」"


@dataclass(frozen=True, slots=True)
class Book:
    id: str
    title: str
    note: str


@dataclass(frozen=True, slots=True)
class MonthGeneral:
    branch: int
    name: str
    name_trad: str
    qi: str
    jie: str


@dataclass(frozen=True, slots=True)
class General:
    id: str
    name: str
    name_trad: str
    short: str
    short_trad: str


@dataclass(frozen=True, slots=True)
class NobleTable:
    id: str
    name: str
    day: tuple[int, ...]    # stem index → heaven branch of 贵人 by day
    night: tuple[int, ...]
    source: TableSource
    note: str


@dataclass(frozen=True, slots=True)
class DayNight:
    id: str
    name: str
    day_hours: frozenset[int]
    source: TableSource
    note: str


@dataclass(frozen=True, slots=True)
class MethodInfo:
    id: str
    name: str
    name_trad: str
    source: TableSource


@dataclass(frozen=True, slots=True)
class MethodRule:
    id: str
    text: str


@dataclass(frozen=True, slots=True)
class Choice:
    id: str
    name: str
    source: TableSource
    note: str


@dataclass(frozen=True, slots=True)
class Setting:
    """A disputed point: its choices, the first being the default."""

    id: str
    name: str
    choices: tuple[Choice, ...]

    @property
    def default(self) -> str:
        return self.choices[0].id

    def choice(self, choice_id: str) -> Choice:
        for c in self.choices:
            if c.id == choice_id:
                return c
        raise KeyError(choice_id)


@dataclass(frozen=True, slots=True)
class NameRule:
    """A name that exists only when the plate says so (``names.toml``)."""

    id: str
    name: str
    name_trad: str
    kind: str                     # one of NAME_KINDS
    spirit: str | None            # the catalog spirit it rides on, for the 加临 kinds
    general: int | None           # general index, for general_over
    heaven: int | None            # heaven branch, for heaven_over
    on: tuple[int, ...]           # branches the spirit must stand on, for spirit_on
    meaning: str
    source: TableSource


@dataclass(frozen=True, slots=True, eq=False)
class LiurenTables:
    books: Mapping[str, Book]
    month_generals: tuple[MonthGeneral, ...]
    generals: tuple[General, ...]
    generals_source: TableSource
    forward: frozenset[int]
    direction_source: TableSource
    nobles: tuple[NobleTable, ...]
    daynights: tuple[DayNight, ...]
    methods: Mapping[str, MethodInfo]
    rules: Mapping[str, MethodRule]
    settings: Mapping[str, Setting]
    names: tuple[NameRule, ...]

    def general_of_term(self, term: str, basis: str) -> int:
        """The month general's branch that a 中气 (basis ``zhongqi``) or 节 (``jie``) begins."""
        for mg in self.month_generals:
            if (mg.qi if basis == "zhongqi" else mg.jie) == term:
                return mg.branch
        raise KeyError(term)


# Every rule id the code may name, with the fields its sentence may use. The loader checks that the
# data has each of these rules and that its sentence uses no other field.
RULE_FIELDS: Final[Mapping[str, frozenset[str]]] = {k: frozenset(v.split()) for k, v in {
    "plate.fuyin": "", "plate.fanyin": "",
    "lessons.repeat": "a b", "lessons.count": "count",
    "ke.xia": "lesson upper lower", "ke.shang": "lesson upper lower", "ke.none": "",
    "zeike.xia_first": "branch", "zeike.one_xia": "branch", "zeike.one_shang": "branch",
    "zeike.several": "kind cands",
    "biyong.drop": "stem pol branch bpol", "biyong.one": "branch stem pol",
    "biyong.none": "cands stem", "biyong.all": "cands stem",
    "shehai.meng": "branch lower", "shehai.zhong": "branch lower",
    "shehai.not_meng": "branch lower level", "shehai.not_zhong": "branch lower level",
    "shehai.depth": "branch lower count detail", "shehai.shallow": "branch count deep max",
    "shehai.deepest": "branch count", "shehai.tie": "cands day_kind which branch",
    "shehai.bihe": "branch stem", "shehai.not_bihe": "branch stem",
    "yaoke.haoshi": "cands stem", "yaoke.danshe": "cands stem", "yaoke.one": "branch",
    "yaoke.several": "cands",
    "maoxing.yang": "branch mid last", "maoxing.yin": "branch mid last",
    "biezhe.yang": "he palace branch last", "biezhe.yin": "day_branch front branch last", "biezhe.yin_upper": "day_branch front branch last",
    "bazhuan.yang": "start branch last", "bazhuan.yin": "start branch last",
    "fuyin.ke": "lesson branch", "fuyin.yang": "branch", "fuyin.yin": "branch",
    "fuyin.xing": "prev branch pos", "fuyin.self_xing": "prev pos which branch",
    "fuyin.chong": "prev why pos branch", "fuyin.xing_back": "prev branch pos",
    "fanyin.ke": "", "fanyin.jinglan": "day_branch branch mid last",
    "pass.next": "pos prev branch", "fanyin.wu_si": "",
}.items()}

METHOD_IDS: Final = ("zeike", "biyong", "shehai", "yaoke", "maoxing", "biezhe", "bazhuan", "fuyin",
                     "fanyin")
# Settings the code reads, with the choices it knows how to apply.
SETTING_CHOICES: Final[Mapping[str, frozenset[str]]] = {
    "shehai": frozenset({"mengzhong", "depth", "bihe"}),
    "fuyin_back": frozenset({"chong", "xing"}),
    "bazhuan_yaoke": frozenset({"bazhuan", "yaoke"}),
    "biezhe_yin": frozenset({"branch", "upper"}),
    "fanyin_wu": frozenset({"gan", "si"}),
    "jialin": frozenset({"earth", "heaven"}),
    "general_basis": frozenset({"zhongqi", "jie"}),
    "changsheng": frozenset({"zhuang", "common", "wuxing"}),
    "xingnian": frozenset({"xusui", "zhousui", "liujia"}),
}
# How a name that needs the plate is decided (names.toml, field kind).
NAME_KINDS: Final = ("general_over", "heaven_over", "void_initial", "spirit_on", "ghost_on_tomb")

_FIELDS: Final[Mapping[str, frozenset[str]]] = {
    "book": frozenset({"id", "title", "note"}),
    "month_general": frozenset({"branch", "name", "name_trad", "qi", "jie"}),
    "general": frozenset({"id", "name", "name_trad", "short", "short_trad"}),
    "noble": frozenset({"id", "name", "day", "night", "source", "note"}),
    "daynight": frozenset({"id", "name", "day", "source", "note"}),
    "method": frozenset({"id", "name", "name_trad", "source"}),
    "rule": frozenset({"id", "text"}),
    "setting": frozenset({"id", "name", "choice"}),
    "choice": frozenset({"id", "name", "source", "note"}),
    "name": frozenset({"id", "name", "name_trad", "kind", "spirit", "general", "heaven", "on", "meaning",
                       "source"}),
}
_OPTIONAL: Final = frozenset({"note", "spirit", "general", "heaven", "on"})
_QI: Final = ("雨水", "春分", "谷雨", "小满", "夏至", "大暑", "处暑", "秋分", "霜降", "小雪", "冬至", "大寒")
_JIE: Final = ("立春", "惊蛰", "清明", "立夏", "芒种", "小暑", "立秋", "白露", "寒露", "立冬", "大雪", "小寒")


class _Reader:
    """Checks for one file; every fault names the file, the entry, the field and the value."""

    def __init__(self, name: str, books: Mapping[str, Book] | None = None) -> None:
        self.name = name
        self.books = books

    def fail(self, entry: str, field: str, value: object, problem: str) -> CatalogError:
        return CatalogError(self.name, entry, field, value, problem)

    def entries(self, data: Mapping[str, Any], key: str, kind: str) -> list[tuple[str, dict[str, Any]]]:
        raw = data.get(key)
        if not isinstance(raw, list) or not raw:
            raise self.fail(f"[[{key}]]", "(table)", raw, "must be a non-empty list of tables")
        out: list[tuple[str, dict[str, Any]]] = []
        seen: set[str] = set()
        for i, item in enumerate(raw):
            if not isinstance(item, dict):
                raise self.fail(f"{key} #{i + 1}", "(table)", item, "must be a table")
            label = str(item.get("id", item.get("branch", f"#{i + 1}")))
            entry = f"{key} {label}"
            self.fields(item, entry, kind)
            if "id" in item:
                if label in seen:
                    raise self.fail(entry, "id", label, "is given twice")
                seen.add(label)
            out.append((entry, item))
        return out

    def fields(self, item: Mapping[str, Any], entry: str, kind: str) -> None:
        allowed = _FIELDS[kind]
        for f in item:
            if f not in allowed:
                raise self.fail(entry, f, item[f], f"is not a field of a {kind} (expected one of "
                                f"{', '.join(sorted(allowed))})")
        for f in sorted(allowed - _OPTIONAL):
            if f not in item:
                raise self.fail(entry, f, None, "is missing")

    def text(self, item: Mapping[str, Any], entry: str, field: str, optional: bool = False) -> str:
        value = item.get(field)
        if value is None and optional:
            return ""
        if not isinstance(value, str) or not value.strip():
            raise self.fail(entry, field, value, "must be a non-empty string")
        return value

    def ident(self, item: Mapping[str, Any], entry: str) -> str:
        value = self.text(item, entry, "id")
        if not value.replace("_", "").isascii() or not value.replace("_", "").replace(".", "").isalnum():
            raise self.fail(entry, "id", value, "must be an ASCII identifier")
        return value

    def branch(self, value: object, entry: str, field: str) -> int:
        if not isinstance(value, str) or len(value) != 1 or value not in BRANCHES:
            raise self.fail(entry, field, value, f"must be one branch of {BRANCHES}")
        return BRANCHES.index(value)

    def branches(self, value: object, entry: str, field: str, length: int | None = None) -> tuple[int, ...]:
        if not isinstance(value, str) or any(ch not in BRANCHES for ch in value) or not value:
            raise self.fail(entry, field, value, f"must be a string of branches ({BRANCHES})")
        if length is not None and len(value) != length:
            raise self.fail(entry, field, value, f"must have {length} branches, one per stem {STEMS}")
        return tuple(BRANCHES.index(ch) for ch in value)

    def source(self, item: Mapping[str, Any], entry: str) -> TableSource:
        raw = item.get("source")
        if not isinstance(raw, dict) or set(raw) not in ({"book", "quote"}, {"file", "quote"}):
            raise self.fail(entry, "source", raw, "must be { book = …, quote = … } or { file = …, quote = … }")
        quote = raw["quote"]
        if not isinstance(quote, str) or not quote.strip():
            raise self.fail(entry, "source.quote", quote, "must be a non-empty quotation")
        if "book" in raw:
            if self.books is None or raw["book"] not in self.books:
                raise self.fail(entry, "source.book", raw["book"], "is not a book listed in plate.toml")
            return TableSource(quote=quote, book=raw["book"])
        if raw["file"] not in SEED_FILES:
            raise self.fail(entry, "source.file", raw["file"], "is not a seed file code")
        return TableSource(quote=quote, file=raw["file"])

    def table(self, data: Mapping[str, Any], key: str) -> dict[str, Any]:
        raw = data.get(key)
        if not isinstance(raw, dict):
            raise self.fail(f"[{key}]", "(table)", raw, "must be a table")
        return raw


def _load_plate(path: Path | str) -> dict[str, Any]:
    name, data = read_rules(path)
    r = _Reader(name)
    books: dict[str, Book] = {}
    for entry, item in r.entries(data, "book", "book"):
        bid = r.ident(item, entry)
        books[bid] = Book(bid, r.text(item, entry, "title"), r.text(item, entry, "note"))
    r.books = books
    settings: dict[str, Setting] = {}
    for entry, item in r.entries(data, "setting", "setting"):
        settings_from(r, entry, item, settings)
    mgs: list[MonthGeneral] = []
    for entry, item in r.entries(data, "month_general", "month_general"):
        b = r.branch(item.get("branch"), entry, "branch")
        qi, jie = r.text(item, entry, "qi"), r.text(item, entry, "jie")
        k = len(mgs)
        if k >= 12 or b != (11 - k) % 12:
            raise r.fail(entry, "branch", item.get("branch"), "month generals must run 亥 戌 酉 … 子, twelve")
        if qi != _QI[k]:
            raise r.fail(entry, "qi", qi, f"expected {_QI[k]} (the 中气 after {_QI[k - 1] if k else '大寒'})")
        if jie != _JIE[k]:
            raise r.fail(entry, "jie", jie, f"expected {_JIE[k]}")
        mgs.append(MonthGeneral(b, r.text(item, entry, "name"), r.text(item, entry, "name_trad"), qi, jie))
    if len(mgs) != 12:
        raise r.fail("month_general", "(count)", len(mgs), "there must be twelve")
    gsource = r.source(r.table(data, "generals_rule"), "generals_rule")
    generals = tuple(General(r.ident(item, e), r.text(item, e, "name"), r.text(item, e, "name_trad"),
                             r.text(item, e, "short"), r.text(item, e, "short_trad"))
                     for e, item in r.entries(data, "general", "general"))
    if len(generals) != 12 or generals[0].name != "贵人":
        raise r.fail("general", "(count)", len(generals), "there must be twelve, 贵人 first")
    direction = r.table(data, "direction")
    forward = r.branches(direction.get("forward"), "direction", "forward")
    if len(set(forward)) != 6:
        raise r.fail("direction", "forward", direction.get("forward"), "must name six distinct branches")
    dsource = r.source(direction, "direction")
    nobles = []
    for entry, item in r.entries(data, "noble", "noble"):
        nobles.append(NobleTable(r.ident(item, entry), r.text(item, entry, "name"),
                                 r.branches(item.get("day"), entry, "day", 10),
                                 r.branches(item.get("night"), entry, "night", 10),
                                 r.source(item, entry), r.text(item, entry, "note", optional=True)))
    daynights = []
    for entry, item in r.entries(data, "daynight", "daynight"):
        hours = r.branches(item.get("day"), entry, "day")
        if len(set(hours)) != 6:
            raise r.fail(entry, "day", item.get("day"), "must name six distinct hours")
        daynights.append(DayNight(r.ident(item, entry), r.text(item, entry, "name"), frozenset(hours),
                                  r.source(item, entry), r.text(item, entry, "note", optional=True)))
    return {"books": books, "month_generals": tuple(mgs), "plate_settings": settings,
            "generals": generals, "generals_source": gsource, "forward": frozenset(forward),
            "direction_source": dsource, "nobles": tuple(nobles), "daynights": tuple(daynights)}


def _load_methods(path: Path | str, books: Mapping[str, Book]) -> dict[str, Any]:
    name, data = read_rules(path)
    r = _Reader(name, books)
    methods: dict[str, MethodInfo] = {}
    for entry, item in r.entries(data, "method", "method"):
        mid = r.ident(item, entry)
        if mid not in METHOD_IDS:
            raise r.fail(entry, "id", mid, f"is not one of the nine methods ({', '.join(METHOD_IDS)})")
        methods[mid] = MethodInfo(mid, r.text(item, entry, "name"), r.text(item, entry, "name_trad"),
                                  r.source(item, entry))
    for mid in METHOD_IDS:
        if mid not in methods:
            raise r.fail(f"method {mid}", "id", mid, "is missing (the nine methods must all be described)")
    rules: dict[str, MethodRule] = {}
    for entry, item in r.entries(data, "rule", "rule"):
        rid = r.ident(item, entry)
        if rid not in RULE_FIELDS:
            raise r.fail(entry, "id", rid, "is not a rule the method names")
        text = r.text(item, entry, "text")
        try:
            used = {f for _, f, _, _ in string.Formatter().parse(text) if f is not None}
        except ValueError as e:
            raise r.fail(entry, "text", text, f"is not a valid sentence template: {e}") from None
        extra = used - RULE_FIELDS[rid]
        if extra:
            raise r.fail(entry, "text", text, f"uses unknown field(s) {', '.join(sorted(extra))} "
                         f"(this rule is given: {', '.join(sorted(RULE_FIELDS[rid])) or 'none'})")
        rules[rid] = MethodRule(rid, text)
    for rid in RULE_FIELDS:
        if rid not in rules:
            raise r.fail(f"rule {rid}", "id", rid, "is missing (the method names this rule)")
    settings: dict[str, Setting] = {}
    for entry, item in r.entries(data, "setting", "setting"):
        settings_from(r, entry, item, settings)
    return {"methods": methods, "rules": rules, "settings": settings}


def settings_from(r: _Reader, entry: str, item: Mapping[str, Any], out: dict[str, Setting]) -> None:
    sid = r.ident(item, entry)
    if sid not in SETTING_CHOICES:
        raise r.fail(entry, "id", sid, f"is not a setting the method reads ({', '.join(SETTING_CHOICES)})")
    raw = item.get("choice")
    if not isinstance(raw, list) or len(raw) < 2:
        raise r.fail(entry, "choice", raw, "must list at least two choices, the default first")
    choices: list[Choice] = []
    for i, c in enumerate(raw):
        if not isinstance(c, dict):
            raise r.fail(entry, f"choice #{i + 1}", c, "must be a table")
        centry = f"{entry}, choice {c.get('id', i + 1)}"
        r.fields(c, centry, "choice")
        cid = r.ident(c, centry)
        if cid not in SETTING_CHOICES[sid]:
            raise r.fail(centry, "id", cid, f"is not a choice the method knows "
                         f"({', '.join(sorted(SETTING_CHOICES[sid]))})")
        if any(ch.id == cid for ch in choices):
            raise r.fail(centry, "id", cid, "is given twice")
        choices.append(Choice(cid, r.text(c, centry, "name"), r.source(c, centry),
                              r.text(c, centry, "note", optional=True)))
    out[sid] = Setting(sid, r.text(item, entry, "name"), tuple(choices))


def _load_names(path: Path | str, books: Mapping[str, Book], generals: tuple[General, ...]) -> dict[str, Any]:
    from shensha_plates.core.catalog import default_catalog
    name, data = read_rules(path)
    r = _Reader(name, books)
    catalog = default_catalog()
    settings: dict[str, Setting] = {}
    for entry, item in r.entries(data, "setting", "setting"):
        settings_from(r, entry, item, settings)
    names = []
    gnames = [g.name for g in generals]
    for entry, item in r.entries(data, "name", "name"):
        nid = r.ident(item, entry)
        kind = r.text(item, entry, "kind")
        if kind not in NAME_KINDS:
            raise r.fail(entry, "kind", kind, f"must be one of {', '.join(NAME_KINDS)}")
        spirit = item.get("spirit")
        needs_spirit = kind in ("general_over", "heaven_over", "spirit_on", "ghost_on_tomb")
        if needs_spirit:
            try:
                catalog.spirit(str(spirit))
            except KeyError:
                raise r.fail(entry, "spirit", spirit, "is not a spirit id of the catalog") from None
        elif spirit is not None:
            raise r.fail(entry, "spirit", spirit, f"is not used by kind {kind}")
        general = None
        if kind == "general_over":
            g = item.get("general")
            if g not in gnames:
                raise r.fail(entry, "general", g, f"must be a general's name ({' '.join(gnames)})")
            general = gnames.index(str(g))
        elif "general" in item:
            raise r.fail(entry, "general", item["general"], f"is not used by kind {kind}")
        heaven = None
        if kind == "heaven_over":
            heaven = r.branch(item.get("heaven"), entry, "heaven")
        elif "heaven" in item:
            raise r.fail(entry, "heaven", item["heaven"], f"is not used by kind {kind}")
        on: tuple[int, ...] = ()
        if kind == "spirit_on":
            on = r.branches(item.get("on"), entry, "on")
        elif "on" in item:
            raise r.fail(entry, "on", item["on"], f"is not used by kind {kind}")
        names.append(NameRule(nid, r.text(item, entry, "name"), r.text(item, entry, "name_trad"), kind,
                              None if spirit is None else str(spirit), general, heaven, on,
                              r.text(item, entry, "meaning"), r.source(item, entry)))
    return {"names": tuple(names), "name_settings": settings}


def load_tables(folder: Path | str | None = None) -> LiurenTables:
    """See :func:`_load_tables`; a cached tree that fails validation is parsed afresh first
    (:func:`shensha_plates.core.tomlcache.fresh_on_failure`), so only the file's own faults are reported."""
    return tomlcache.fresh_on_failure(lambda: _load_tables(folder))


def _load_tables(folder: Path | str | None = None) -> LiurenTables:
    """Read and validate the three files of ``folder`` (default: the packaged ``resources/liuren``)."""
    base = Path(folder) if folder is not None else Path(str(resources.files("shensha_plates.resources.liuren")))
    plate = _load_plate(base / "plate.toml")
    books = plate["books"]
    methods = _load_methods(base / "methods.toml", books)
    names = _load_names(base / "names.toml", books, plate["generals"])
    settings: dict[str, Setting] = {}
    for fname, group in (("plate.toml", plate.pop("plate_settings")), ("methods.toml", methods["settings"]),
                         ("names.toml", names["name_settings"])):
        for sid, s in group.items():
            if sid in settings:
                raise CatalogError(str(base / fname), f"setting {sid}", "id", sid,
                                   "is defined in two files")
            settings[sid] = s
    for sid in SETTING_CHOICES:
        if sid not in settings:
            raise CatalogError(str(base), f"setting {sid}", "id", sid, "is missing (the plate reads it)")
    # the 贵人 tables and the day/night boundaries are settings too, their entries the choices
    settings["noble"] = Setting("noble", "贵人表", tuple(Choice(n.id, n.name, n.source, n.note)
                                                       for n in plate["nobles"]))
    settings["daynight"] = Setting("daynight", "昼夜之分", tuple(Choice(d.id, d.name, d.source, d.note)
                                                             for d in plate["daynights"]))
    return LiurenTables(methods=methods["methods"], rules=methods["rules"], settings=settings,
                        names=names["names"], **plate)


@lru_cache(maxsize=1)
def liuren_tables() -> LiurenTables:
    """The packaged tables, loaded once."""
    return load_tables()
