"""The interface languages, named once.

``Lang`` is the one type for a language everywhere (the command line, the window, the exports):
simplified Chinese, traditional Chinese, or English. English keeps the Chinese names (a learner meets
them in the books) in simplified characters, with pinyin and an English gloss beside them
(:mod:`shensha_plates.core.english`).

>>> name_in(Named_("太岁", "太歲"), "zh-Hant")
'太歲'
>>> name_in(Named_("太岁", "太歲"), "en")
'太岁'
>>> parse_lang("EN")
'en'
"""

from __future__ import annotations

from typing import Final, Literal, NamedTuple, Protocol, TypeGuard, get_args

__all__ = ["Lang", "LANGS", "DEFAULT_LANG", "is_lang", "parse_lang", "is_trad", "name_in", "HasNames", "NameMixin"]

Lang = Literal["zh-Hans", "zh-Hant", "en"]
LANGS: Final[tuple[Lang, ...]] = get_args(Lang)
DEFAULT_LANG: Final[Lang] = "zh-Hans"


class HasNames(Protocol):
    """Anything with a name in simplified and in traditional characters."""

    @property
    def name(self) -> str: ...

    @property
    def name_trad(self) -> str: ...


class Named_(NamedTuple):  # for the doctests
    name: str
    name_trad: str


def is_lang(value: object) -> TypeGuard[Lang]:
    return value in LANGS


def parse_lang(text: str) -> Lang:
    """A language as typed (case and ``_`` for ``-`` forgiven); ValueError names the choices."""
    wanted = text.strip().replace("_", "-").lower()
    for lang in LANGS:
        if lang.lower() == wanted:
            return lang
    raise ValueError(f"unknown language {text!r}: choose one of {', '.join(LANGS)}")


def is_trad(lang: str) -> bool:
    """True for traditional characters."""
    return lang == "zh-Hant"


def name_in(obj: HasNames, lang: str) -> str:
    """The name as shown in ``lang``: traditional for zh-Hant, else simplified (English shows the
    Chinese name too, with pinyin and a gloss beside it)."""
    return obj.name_trad if lang == "zh-Hant" else obj.name


class NameMixin:
    """``self.name_in(lang)`` for a frozen dataclass with ``name`` and ``name_trad`` fields."""

    __slots__ = ()

    def name_in(self: HasNames, lang: str) -> str:
        return name_in(self, lang)
