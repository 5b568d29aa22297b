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
from collections.abc import Callable, Iterator, Mapping

from shensha_plates.core.catalog import SEED_FILES
from shensha_plates.core.cycle import BRANCHES, STEMS
from shensha_plates.core import tomlcache
from shensha_plates.core.errors import CatalogError
from shensha_plates.core.schema import Field, Kind, Table, Where, branch, branches, entries, read_toml, text

__all__ = ["TableSource", "Book", "MonthGeneral", "General", "NobleTable", "DayNight", "MethodInfo",
           "MethodRule", "Choice", "Setting", "NameRule", "LiurenTables", "liuren_tables", "load_tables",
           "RULE_FIELDS", "NAME_KINDS", "table_source"]


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

_QI: Final = ("雨水", "春分", "谷雨", "小满", "夏至", "大暑", "处暑", "秋分", "霜降", "小雪", "冬至", "大寒")
_JIE: Final = ("立春", "惊蛰", "清明", "立夏", "芒种", "小暑", "立秋", "白露", "寒露", "立冬", "大雪", "小寒")


# -- reading the files (by core/schema.py) ----------------------------------------------------------

def _ident(where: Where, f: str, value: Any) -> str:
    value = _TEXT(where, f, value)
    if not value.replace("_", "").isascii() or not value.replace("_", "").replace(".", "").isalnum():
        raise where.fail(f, value, "must be an ASCII identifier")
    return str(value)


_TEXT: Final = text("must be a non-empty string")
_BRANCH: Final = branch(f"must be one branch of {BRANCHES}")
_BRANCHES: Final = branches(f"must be a string of branches ({BRANCHES})")


def _stem_branches(where: Where, f: str, value: Any) -> tuple[int, ...]:
    """One branch for each of the ten stems."""
    out: tuple[int, ...] = _BRANCHES(where, f, value)
    if len(out) != 10:
        raise where.fail(f, value, f"must have 10 branches, one per stem {STEMS}")
    return out


def table_source(books: Mapping[str, Book] | None) -> Kind:
    """A rule's source: a book of ``books`` (those of plate.toml) or a seed file, with the quotation
    (a kind of :mod:`shensha_plates.core.schema`, for the other Liu Ren files too)."""
    def read(where: Where, f: str, raw: Any) -> TableSource:
        if not isinstance(raw, dict) or set(raw) not in ({"book", "quote"}, {"file", "quote"}):
            raise where.fail(f, raw, "must be { book = …, quote = … } or { file = …, quote = … }")
        quote = raw["quote"]
        if not isinstance(quote, str) or not quote.strip():
            raise where.fail(f + ".quote", quote, "must be a non-empty quotation")
        if "book" in raw:
            if books is None or raw["book"] not in books:
                raise where.fail(f + ".book", raw["book"], "is not a book listed in plate.toml")
            return TableSource(quote=quote, book=raw["book"])
        if raw["file"] not in SEED_FILES:
            raise where.fail(f + ".file", raw["file"], "is not a seed file code")
        return TableSource(quote=quote, file=raw["file"])
    return read


def _as_is(where: Where, f: str, value: Any) -> Any:
    return value  # read by the table's check, which knows the other fields


def _table(kind: str, fields: Mapping[str, Field], build: Callable[..., Any] | None = None,
           check: Callable[[Where, str, dict[str, Any], Mapping[str, Any]], None] | None = None) -> Table:
    return Table(fields, build=build, check=check, unknown=f"is not a field of a {kind} (expected one of {{sorted}})",
                 missing="is missing")


_OPTIONAL_NOTE: Final = Field(_TEXT, required=False, default="")
_KIND_SAYS: Final = ""  # a missing field: its kind is given None (an optional field that must be there here)


def _entries(where: Where, data: Mapping[str, Any], key: str) -> Iterator[tuple[Where, dict[str, Any]]]:
    """The ``[[key]]`` tables, each named ``key id`` (or ``key branch``, ``key #n``)."""
    return entries(where, data.get(key), key,
                   lambda i, item: f"{key} {item.get('id', item.get('branch', f'#{i + 1}'))}"
                   if isinstance(item, dict) else f"{key} #{i + 1}",
                   nonempty=True, not_array="must be a non-empty list of tables", array_at=(f"[[{key}]]", "(table)"),
                   not_table="must be a table", table_field="(table)")


def _read_all(where: Where, data: Mapping[str, Any], key: str, table: Table) -> list[Any]:
    """Every ``[[key]]`` entry read by ``table``; an id given twice is refused."""
    out: list[Any] = []
    seen: set[str] = set()
    for at, item in _entries(where, data, key):
        value = table.read(at, item)
        if "id" in item:
            label = at.entry.removeprefix(f"{key} ")
            if label in seen:
                raise at.fail("id", label, "is given twice")
            seen.add(label)
        out.append(value)
    return out


def _top_table(where: Where, data: Mapping[str, Any], key: str) -> dict[str, Any]:
    raw = data.get(key)
    if not isinstance(raw, dict):
        raise where.at(f"[{key}]").fail("(table)", raw, "must be a table")
    return raw


def _settings(where: Where, data: Mapping[str, Any], books: Mapping[str, Book]) -> dict[str, Setting]:
    """The ``[[setting]]`` entries: disputed points, each with its choices (the default first)."""
    choice = _table("choice", {"id": Field(_ident), "name": Field(_TEXT), "source": Field(table_source(books)),
                               "note": _OPTIONAL_NOTE}, build=Choice)

    def check(at: Where, p: str, v: dict[str, Any], raw: Mapping[str, Any]) -> None:
        sid = v["id"]
        if sid not in SETTING_CHOICES:
            raise at.fail("id", sid, f"is not a setting the method reads ({', '.join(SETTING_CHOICES)})")
        rc = v["choice"]
        if not isinstance(rc, list) or len(rc) < 2:
            raise at.fail("choice", rc, "must list at least two choices, the default first")
        choices: list[Choice] = []
        for i, c in enumerate(rc):
            if not isinstance(c, dict):
                raise at.fail(f"choice #{i + 1}", c, "must be a table")
            cat = at.at(f"{at.entry}, choice {c.get('id', i + 1)}")
            ch: Choice = choice.read(cat, c)
            if ch.id not in SETTING_CHOICES[sid]:
                raise cat.fail("id", ch.id, f"is not a choice the method knows "
                               f"({', '.join(sorted(SETTING_CHOICES[sid]))})")
            if any(x.id == ch.id for x in choices):
                raise cat.fail("id", ch.id, "is given twice")
            choices.append(ch)
        v["choice"] = tuple(choices)

    setting = _table("setting", {"id": Field(_ident), "name": Field(_TEXT), "choice": Field(_as_is)},
                     check=check, build=lambda id, name, choice: Setting(id, name, choice))
    return {s.id: s for s in _read_all(where, data, "setting", setting)}


_BOOK: Final = _table("book", {"id": Field(_ident), "title": Field(_TEXT), "note": Field(_TEXT, missing=_KIND_SAYS)},
                      build=Book)
_GENERAL: Final = _table("general", {"id": Field(_ident), "name": Field(_TEXT), "name_trad": Field(_TEXT),
                                     "short": Field(_TEXT), "short_trad": Field(_TEXT)}, build=General)


def _load_plate(path: Path | str) -> dict[str, Any]:
    name = str(path)
    data = read_toml(name, Path(path))
    where = Where(name)
    books: dict[str, Book] = {b.id: b for b in _read_all(where, data, "book", _BOOK)}
    settings = _settings(where, data, books)
    month_general = _table("month_general", {"branch": Field(_BRANCH), "name": Field(_TEXT),
                                             "name_trad": Field(_TEXT), "qi": Field(_TEXT), "jie": Field(_TEXT)},
                           build=MonthGeneral)
    mgs: list[MonthGeneral] = []
    for at, item in _entries(where, data, "month_general"):
        mg: MonthGeneral = month_general.read(at, item)
        k = len(mgs)
        if k >= 12 or mg.branch != (11 - k) % 12:
            raise at.fail("branch", item.get("branch"), "month generals must run 亥 戌 酉 … 子, twelve")
        if mg.qi != _QI[k]:
            raise at.fail("qi", mg.qi, f"expected {_QI[k]} (the 中气 after {_QI[k - 1] if k else '大寒'})")
        if mg.jie != _JIE[k]:
            raise at.fail("jie", mg.jie, f"expected {_JIE[k]}")
        mgs.append(mg)
    if len(mgs) != 12:
        raise where.at("month_general").fail("(count)", len(mgs), "there must be twelve")
    source = table_source(books)
    gsource = source(where.at("generals_rule"), "source", _top_table(where, data, "generals_rule").get("source"))
    generals = tuple(_read_all(where, data, "general", _GENERAL))
    if len(generals) != 12 or generals[0].name != "贵人":
        raise where.at("general").fail("(count)", len(generals), "there must be twelve, 贵人 first")
    direction = _top_table(where, data, "direction")
    dat = where.at("direction")
    forward = _BRANCHES(dat, "forward", direction.get("forward"))
    if len(set(forward)) != 6:
        raise dat.fail("forward", direction.get("forward"), "must name six distinct branches")
    dsource = source(dat, "source", direction.get("source"))
    noble = _table("noble", {"id": Field(_ident), "name": Field(_TEXT), "day": Field(_stem_branches),
                             "night": Field(_stem_branches), "source": Field(source), "note": _OPTIONAL_NOTE},
                   build=NobleTable)

    def check_daynight(at: Where, p: str, v: dict[str, Any], raw: Mapping[str, Any]) -> None:
        if len(set(v["day"])) != 6:
            raise at.fail("day", raw["day"], "must name six distinct hours")
        v["day"] = frozenset(v["day"])

    daynight = _table("daynight", {"id": Field(_ident), "name": Field(_TEXT), "day": Field(_BRANCHES),
                                   "source": Field(source), "note": _OPTIONAL_NOTE},
                      check=check_daynight, build=lambda id, name, day, source, note: DayNight(id, name, day,
                                                                                               source, note))
    nobles = _read_all(where, data, "noble", noble)
    daynights = _read_all(where, data, "daynight", daynight)
    return {"books": books, "month_generals": tuple(mgs), "plate_settings": settings,
            "generals": generals, "generals_source": gsource, "forward": frozenset(forward),
            "direction_source": dsource, "nobles": tuple(nobles), "daynights": tuple(daynights)}


def _check_rule_text(at: Where, p: str, v: dict[str, Any], raw: Mapping[str, Any]) -> None:
    rid, sentence = v["id"], v["text"]
    if rid not in RULE_FIELDS:
        raise at.fail("id", rid, "is not a rule the method names")
    try:
        used = {f for _, f, _, _ in string.Formatter().parse(sentence) if f is not None}
    except ValueError as e:
        raise at.fail("text", sentence, f"is not a valid sentence template: {e}") from None
    extra = used - RULE_FIELDS[rid]
    if extra:
        raise at.fail("text", sentence, f"uses unknown field(s) {', '.join(sorted(extra))} "
                      f"(this rule is given: {', '.join(sorted(RULE_FIELDS[rid])) or 'none'})")


_RULE: Final = _table("rule", {"id": Field(_ident), "text": Field(_TEXT)}, check=_check_rule_text, build=MethodRule)


def _load_methods(path: Path | str, books: Mapping[str, Book]) -> dict[str, Any]:
    name = str(path)
    data = read_toml(name, Path(path))
    where = Where(name)

    def check_method(at: Where, p: str, v: dict[str, Any], raw: Mapping[str, Any]) -> None:
        if v["id"] not in METHOD_IDS:
            raise at.fail("id", v["id"], f"is not one of the nine methods ({', '.join(METHOD_IDS)})")

    method = _table("method", {"id": Field(_ident), "name": Field(_TEXT), "name_trad": Field(_TEXT),
                               "source": Field(table_source(books))}, check=check_method, build=MethodInfo)
    methods: dict[str, MethodInfo] = {m.id: m for m in _read_all(where, data, "method", method)}
    for mid in METHOD_IDS:
        if mid not in methods:
            raise where.at(f"method {mid}").fail("id", mid, "is missing (the nine methods must all be described)")
    rules: dict[str, MethodRule] = {r.id: r for r in _read_all(where, data, "rule", _RULE)}
    for rid in RULE_FIELDS:
        if rid not in rules:
            raise where.at(f"rule {rid}").fail("id", rid, "is missing (the method names this rule)")
    return {"methods": methods, "rules": rules, "settings": _settings(where, data, books)}


def _load_names(path: Path | str, books: Mapping[str, Book], generals: tuple[General, ...]) -> dict[str, Any]:
    from shensha_plates.core.catalog import default_catalog
    name = str(path)
    data = read_toml(name, Path(path))
    where = Where(name)
    catalog = default_catalog()
    settings = _settings(where, data, books)
    gnames = [g.name for g in generals]

    def check(at: Where, p: str, v: dict[str, Any], raw: Mapping[str, Any]) -> None:
        kind, spirit = v["kind"], v["spirit"]
        if kind not in NAME_KINDS:
            raise at.fail("kind", kind, f"must be one of {', '.join(NAME_KINDS)}")
        if kind in ("general_over", "heaven_over", "spirit_on", "ghost_on_tomb"):
            try:
                catalog.spirit(str(spirit))
            except KeyError:
                raise at.fail("spirit", spirit, "is not a spirit id of the catalog") from None
            v["spirit"] = str(spirit)
        elif spirit is not None:
            raise at.fail("spirit", spirit, f"is not used by kind {kind}")
        if kind == "general_over":
            g = v["general"]
            if g not in gnames:
                raise at.fail("general", g, f"must be a general's name ({' '.join(gnames)})")
            v["general"] = gnames.index(str(g))
        elif "general" in raw:
            raise at.fail("general", raw["general"], f"is not used by kind {kind}")
        if kind == "heaven_over":
            v["heaven"] = _BRANCH(at, "heaven", v["heaven"])
        elif "heaven" in raw:
            raise at.fail("heaven", raw["heaven"], f"is not used by kind {kind}")
        if kind == "spirit_on":
            v["on"] = _BRANCHES(at, "on", v["on"])
        elif "on" in raw:
            raise at.fail("on", raw["on"], f"is not used by kind {kind}")
        else:
            v["on"] = ()

    name_rule = _table("name", {
        "id": Field(_ident), "name": Field(_TEXT), "name_trad": Field(_TEXT), "kind": Field(_TEXT),
        "spirit": Field(_as_is, required=False), "general": Field(_as_is, required=False),
        "heaven": Field(_as_is, required=False), "on": Field(_as_is, required=False),
        "meaning": Field(_TEXT), "source": Field(table_source(books)),
    }, check=check, build=NameRule)
    return {"names": tuple(_read_all(where, data, "name", name_rule)), "name_settings": settings}


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
