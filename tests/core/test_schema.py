"""The one reader of the rule files (core/schema.py): each fault named by file, entry, field and value."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from shensha_plates.core import catalog
from shensha_plates.core.errors import CatalogError
from shensha_plates.core.schema import (
    Field, Table, Where, boolean, branch, branches, checked, entries, nested, one_of, read_toml, sequence_of, stems,
    template_fields, text, text_list, variants_of,
)

BOOK = Table({"id": Field(text()), "title": Field(text("must be a title")),
              "year": Field(one_of((1, 2)), required=False, default=1)})


def fault(call: object) -> CatalogError:
    with pytest.raises(CatalogError) as info:
        assert callable(call)
        call()
    return info.value


def test_a_table_gives_its_typed_values_and_defaults() -> None:
    assert BOOK.read(Where("f"), {"id": "a", "title": "T"}) == {"id": "a", "title": "T", "year": 1}


@pytest.mark.parametrize(("raw", "field", "value", "problem"), [
    ({"id": "a", "title": "T", "colour": "red"}, "colour", "red", "unknown field (allowed: id, title, year)"),
    ({"title": "T"}, "id", None, "missing"),
    ({"id": "  ", "title": "T"}, "id", "  ", "must be a non-empty string"),
    ({"id": "a", "title": 3}, "title", 3, "must be a title"),
    ({"id": "a", "title": "T", "year": True}, "year", True, "expected one of 1, 2"),
    ({"id": "a", "title": "T", "year": 3}, "year", 3, "expected one of 1, 2"),
])
def test_each_fault_names_file_entry_field_and_value(raw: dict[str, object], field: str, value: object,
                                                    problem: str) -> None:
    e = fault(lambda: BOOK.read(Where("plate.toml", "book a"), raw))
    assert (e.file, e.entry, e.field, e.value, e.problem) == ("plate.toml", "book a", field, value, problem)


def test_a_nested_table_names_its_fields_under_the_outer_one() -> None:
    outer = Table({"source": Field(nested(Table({"file": Field(text())})))})
    e = fault(lambda: outer.read(Where("f", "x"), {"source": {"file": ""}}))
    assert (e.field, e.value) == ("source.file", "")
    e = fault(lambda: outer.read(Where("f", "x"), {"source": "000"}))
    assert (e.field, e.value, e.problem) == ("source", "000", "expected a table")


def test_build_makes_the_frozen_value() -> None:
    table = Table({"a": Field(branch()), "b": Field(branches())}, build=lambda a, b: (a, b))
    assert table.read(Where("f"), {"a": "寅", "b": "子丑"}) == (2, (0, 1))


@pytest.mark.parametrize(("kind", "good", "typed", "bad"), [
    (branch(), "亥", 11, "甲"), (branches(), "寅申", (2, 8), ""), (stems(), "甲乙", (0, 1), "甲子"),
    (boolean(), False, False, 0), (text_list(), ["a"], ("a",), ["a", " "]),
    (sequence_of(branch(), "list"), ["子"], (0,), []),
    (checked(branches(), lambda b: len(b) == 2, "two"), "子丑", (0, 1), "子"),
])
def test_kinds_type_what_is_good_and_refuse_what_is_not(kind: object, good: object, typed: object,
                                                        bad: object) -> None:
    assert callable(kind)
    assert kind(Where("f"), "x", good) == typed
    e = fault(lambda: kind(Where("f", "e"), "x", bad))
    assert (e.field, e.value) == ("x", bad)


def test_entries_are_named_as_the_file_names_them() -> None:
    raw = [{"id": "a"}, {"id": "b"}]
    names = [w.entry for w, _ in entries(Where("f"), raw, "book", lambda i, t: f"book {t.get('id', i + 1)}")]
    assert names == ["book a", "book b"]
    e = fault(lambda: list(entries(Where("f"), [{"id": "a"}, 3], "book", lambda i, t: f"book #{i + 1}")))
    assert (e.entry, e.field, e.value) == ("book #2", "book", 3)
    e = fault(lambda: list(entries(Where("f"), [], "book", str, nonempty=True)))
    assert (e.entry, e.field, e.value) == ("(file)", "book", [])


def test_template_fields() -> None:
    assert template_fields("{a} and {b}") == {"a", "b"}
    assert template_fields("{a") is None


@pytest.mark.parametrize(("data", "field", "problem"), [
    (b"\xff", "(encoding)", "not UTF-8 text (bad byte at offset 0)"),
    (b"x[\n", "(syntax)", "not valid TOML"),
    (b"schema_version = 2\n", "schema_version", "this program reads schema version 1"),
])
def test_read_toml_refuses_a_damaged_file(tmp_path: Path, data: bytes, field: str, problem: str) -> None:
    path = tmp_path / "r.toml"
    path.write_bytes(data)
    e = fault(lambda: read_toml("r.toml", path))
    assert (e.file, e.entry, e.field) == ("r.toml", "(file)", field) and e.problem.startswith(problem)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_read_toml_never_waits_on_a_fifo(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "r.toml")
    e = fault(lambda: read_toml("r.toml", tmp_path / "r.toml"))
    assert e.field == "(file)" and e.problem.startswith("cannot be read")


def test_the_sources_file_is_read_whole() -> None:
    assert catalog.SEED_BOOKS["000"][0] == catalog.SEED_FILES["000"]
    assert all(len(v) == 4 and all(v) for v in catalog.SEED_BOOKS.values())


LIUREN = Path(__file__).resolve().parents[2] / "shensha_plates" / "resources" / "liuren"


@pytest.mark.parametrize(("old", "new", "entry", "field", "problem"), [
    ('why = "三传{trans}相连"', 'why = "三传{trans相连"', "pattern lianru", "why", "is not a valid sentence template"),
    ('name_en = "Linked Roots"', 'name_en = "Linked Roots"\ncolour = "red"', "pattern lianru", "colour",
     "is not a field of a pattern"),
    ('name_en = "Linked Roots"', 'name_en = 3', "pattern lianru", "name_en", "must be a non-empty text"),
    ('source = { book = "zhizhi", quote = "丙申日第十二局　干上午', 'source = { book = "zhizi", quote = "丙申日第十二局　干上午',
     "pattern lianru", "source.book", "is not a book listed in plate.toml"),
])
def test_a_damaged_pattern_is_named(tmp_path: Path, old: str, new: str, entry: str, field: str, problem: str) -> None:
    from shensha_plates.core.liuren.patterns import load_patterns
    src = (LIUREN / "patterns.toml").read_text("utf-8")
    assert old in src
    path = tmp_path / "patterns.toml"
    path.write_text(src.replace(old, new, 1), "utf-8")
    e = fault(lambda: load_patterns(path))
    assert (e.file, e.entry, e.field) == (str(path), entry, field) and e.problem.startswith(problem)


@pytest.mark.parametrize(("old", "new", "field", "problem"), [
    ('detectable = false\nreason = "断法：以旬空', 'detectable = false\nreasons = "断法：以旬空', "reasons",
     "is not a field of a line"),
    ('detectable = false\nreason = "断法：以旬空', 'detectable = false\ntest = []\nreason = "断法：以旬空', "test",
     "is not read when detectable = false"),
    ('detectable = false\nreason = "断法：以旬空', 'detectable = true\nreason = "断法：以旬空', "test",
     "must be a list of [[line.test]]"),
])
def test_a_damaged_line_is_named(tmp_path: Path, old: str, new: str, field: str, problem: str) -> None:
    from shensha_plates.core.liuren.patterns import load_bifa
    src = (LIUREN / "bifa.toml").read_text("utf-8")
    assert old in src
    path = tmp_path / "bifa.toml"
    path.write_text(src.replace(old, new, 1), "utf-8")
    e = fault(lambda: load_bifa(path))
    assert (e.entry, e.field) == ("line 96", field) and e.problem.startswith(problem)


def test_variants_are_read_in_order_and_one_without_an_id_is_refused() -> None:
    where = Where("f", "spirit x")
    raw = {"variant": [{"id": "a", "title": "T"}, {"id": "b", "title": "U", "year": 2}]}
    got = list(variants_of(where, raw, BOOK))
    assert [(vf, var["id"], var["year"]) for vf, var, _ in got] == [("variant[0]", "a", 1), ("variant[1]", "b", 2)]
    assert list(variants_of(where, {}, BOOK)) == []
    e = fault(lambda: list(variants_of(where, {"variant": [{"id": "a", "title": "T"}, {"title": "U"}]}, BOOK)))
    assert (e.entry, e.field, e.value) == ("spirit x", "variant[1].id", {"title": "U"})
    e = fault(lambda: list(variants_of(where, {"variant": [{"id": "a", "title": 3}]}, BOOK)))
    assert e.field == "variant[0].title"
