"""One type for the interface languages and one way to name a thing in one (issue 29 item 2): the
package compares a language with "zh-Hant" and picks ``name_trad`` only in core/lang.py."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import shensha_plates
from shensha_plates.core.catalog import default_catalog
from shensha_plates.core.lang import LANGS, is_lang, is_trad, name_in, parse_lang
from shensha_plates.core.liuren import liuren_tables

PACKAGE = Path(shensha_plates.__file__).parent
# a language compared with the traditional one's code, or a name picked by hand by language
BY_HAND = re.compile(r"""[!=]=\s*["']zh-Hant["']|["']zh-Hant["']\s*[!=]=|\.name_trad if [\w.]*lang\b""")


def test_the_languages() -> None:
    assert LANGS == ("zh-Hans", "zh-Hant", "en")
    assert [parse_lang(t) for t in ("zh-hans", "ZH_HANT", " en ")] == list(LANGS)
    with pytest.raises(ValueError, match="zh-Hans, zh-Hant, en"):
        parse_lang("fr")
    assert is_lang("en") and not is_lang("zh-CN") and is_trad("zh-Hant") and not is_trad("en")


def test_name_in_each_language() -> None:
    s = next(s for s in default_catalog().spirits if s.name != s.name_trad)
    g = next(g for g in liuren_tables().generals if g.name != g.name_trad)
    for x in (s, g):
        assert (name_in(x, "zh-Hans"), name_in(x, "zh-Hant"), name_in(x, "en")) == (x.name, x.name_trad, x.name)


def test_no_language_is_compared_by_hand() -> None:
    found = [f"{p.relative_to(PACKAGE)}:{n}: {line.strip()}"
             for p in sorted(PACKAGE.rglob("*.py")) if p.name != "lang.py"
             for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1) if BY_HAND.search(line)]
    assert found == []
