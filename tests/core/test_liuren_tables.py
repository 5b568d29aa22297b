"""The Liu Ren rule files are validated completely: a damaged copy fails with one CatalogError that
names the file, the entry, the field and the value."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from shensha_plates.core.errors import CatalogError
from shensha_plates.core.liuren.tables import load_tables

SOURCE = Path(__file__).resolve().parents[2] / "shensha_plates" / "resources" / "liuren"

# (file, text to replace, replacement, words the message must contain)
DAMAGES = [
    ("plate.toml", 'qi = "小雪"', 'qi = "立冬"', ["plate.toml", "month_general 寅", "qi", "立冬"]),
    ("plate.toml", 'day = "丑子亥亥丑子丑午巳巳"', 'day = "丑子亥亥丑子丑午巳"', ["noble zhinan", "day", "丑子亥亥丑子丑午巳"]),
    ("plate.toml", 'forward = "亥子丑寅卯辰"', 'forward = "亥子丑寅卯甲"', ["direction", "forward", "亥子丑寅卯甲"]),
    ("plate.toml", 'source = { book = "zhinan", quote = "在天门之前', 'source = { book = "zhinam", quote = "在天门之前',
     ["direction", "source.book", "zhinam"]),
    ("plate.toml", 'short = "贵"', 'short = ""', ["general gui_ren", "short"]),
    ("methods.toml", 'id = "shehai.meng"', 'id = "shehai.mong"', ["methods.toml", "shehai.mong", "id"]),
    ("methods.toml", 'text = "{branch}临孟神{lower}，涉害深，取为初传（见机）。"',
     'text = "{branch}临孟神{lowr}，涉害深，取为初传（见机）。"', ["rule shehai.meng", "text", "lowr"]),
    ("methods.toml", 'id = "mengzhong"', 'id = "mengzhang"', ["setting shehai", "choice", "mengzhang"]),
    ("methods.toml", 'id = "fanyin"\nname = "返吟"', 'id = "fanyin2"\nname = "返吟"', ["method fanyin2", "id"]),
    ("names.toml", 'general = "青龙"', 'general = "青蛇"', ["names.toml", "name qing_long_sha", "general", "青蛇"]),
    ("names.toml", 'spirit = "ku_shen"', 'spirit = "ku_sheng"', ["name ku_shen_xia_lei", "spirit", "ku_sheng"]),
    ("names.toml", 'kind = "heaven_over"\nspirit = "ti_sha"', 'kind = "heaven_under"\nspirit = "ti_sha"',
     ["name ti_sha", "kind", "heaven_under"]),
    ("names.toml", 'schema_version = 1', 'schema_version = 2', ["names.toml", "schema_version", "2"]),
    ("plate.toml", '[[general]]\nid = "gui_ren"', '[[general]]\nid = "gui_ren"\ncolour = "gold"',
     ["general gui_ren", "colour", "gold"]),
    ("plate.toml", '[[month_general]]\nbranch = "亥"\nname = "登明"', '[[month_general]]\nbranch = "亥"',
     ["month_general 亥", "field name = None: is missing"]),
    ("plate.toml", 'title = "大六壬指南"\nnote = "', 'title = "大六壬指南"\nnotes = "',
     ["book zhinan", "notes", "is not a field of a book (expected one of id, note, title)"]),
    ("plate.toml", 'id = "zhinan"\nname = "甲戊庚', 'id = "zhinan"\ncolour = 1\nname = "甲戊庚',
     ["noble zhinan", "colour = 1: is not a field of a noble"]),
    ("names.toml", 'kind = "heaven_over"\nspirit = "ti_sha"', 'kind = "heaven_over"\non = "子"\nspirit = "ti_sha"',
     ["name ti_sha", "on = '子': is not used by kind heaven_over"]),
]


def test_packaged_tables_load() -> None:
    t = load_tables()
    assert len(t.generals) == 12 and len(t.month_generals) == 12 and len(t.methods) == 9


@pytest.mark.parametrize(("file", "old", "new", "words"), DAMAGES, ids=[d[2][:24] for d in DAMAGES])
def test_damaged_file_is_refused_with_one_line(tmp_path: Path, file: str, old: str, new: str,
                                               words: list[str]) -> None:
    folder = tmp_path / "liuren"
    shutil.copytree(SOURCE, folder)
    target = folder / file
    text = target.read_text(encoding="utf-8")
    assert old in text, f"the damage no longer applies to {file}: {old!r}"
    target.write_text(text.replace(old, new, 1), encoding="utf-8")
    with pytest.raises(CatalogError) as err:
        load_tables(folder)
    message = str(err.value)
    assert "\n" not in message
    for w in words:
        assert w in message, (w, message)


def test_unreadable_toml_is_refused(tmp_path: Path) -> None:
    folder = tmp_path / "liuren"
    shutil.copytree(SOURCE, folder)
    (folder / "methods.toml").write_text("[[method]\nid = ", encoding="utf-8")
    with pytest.raises(CatalogError, match="methods.toml.*not valid TOML"):
        load_tables(folder)
