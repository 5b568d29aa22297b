"""Simplified → traditional characters for text the sources give only in simplified form.

Names in the catalog carry their traditional form as data; meanings, notes and relation texts are
converted here with OpenCC (its ``s2t`` tables). The stems and branches, and 干 (a stem, never 幹),
are kept as they are: OpenCC would turn 丑 into 醜 and 干 into 幹, which in a 干支 text is wrong.

>>> to_traditional("丑刑戌，刑中有鬼")
'丑刑戌，刑中有鬼'
>>> to_traditional("岁破就是太岁所冲之支")
'歲破就是太歲所衝之支'
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Final

from shensha_plates.core.cycle import BRANCHES, STEMS
from shensha_plates.core.lang import is_trad

__all__ = ["to_traditional", "in_script"]

_KEEP: Final = re.compile(f"([{STEMS}{BRANCHES}干]+)")


@lru_cache(maxsize=1)
def _converter() -> object:
    import opencc
    return opencc.OpenCC("s2t")


@lru_cache(maxsize=4096)
def to_traditional(text: str) -> str:
    conv = _converter()
    parts = _KEEP.split(text)
    # split() with a group alternates: even indices are free text, odd ones the kept 干支 runs
    return "".join(p if i % 2 else conv.convert(p) for i, p in enumerate(parts))  # type: ignore[attr-defined]


def in_script(text: str, lang: str) -> str:
    """``text`` in the script of ``lang`` ("zh-Hans" as given, "zh-Hant" converted)."""
    return to_traditional(text) if is_trad(lang) else text
