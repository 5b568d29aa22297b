"""年命: the querent's 本命 (the year of birth) and 行年 (the year of life) on the Liu Ren plate.

The 行年 is counted through the sixty pillars by age: a man's first year is 丙寅 and the count runs
forward, a woman's first year is 壬申 and it runs backward (setting ``xingnian``, plate.toml: by 虚岁,
the year of birth counted as one, by default — 《六壬粹言》's 行年第九; by full years, or from the 丙/壬
of the birth year's 旬 (六甲起行年, 《大六壬类集》), as choices). Each of the two stands on
its earth branch; what rides it — the heaven branch over it (its 上神), the general on that, and the
spirits of Zhuang's plates on that heaven branch — is what the books read (seed 002: "行年上的神将凶";
seed 001: 年命乘墓、坐墓).

A second querent, the partner (``ke --partner-birth 1977 --partner-sex f``), has years of the same kind:
the 课经's 繁昌, 旺孕 and 解离 read the husband's and the wife's 行年 together (:meth:`NianMing.couple`).

>>> from shensha_plates.core.cycle import pillar_name
>>> pillar_name(xing_nian_pillar("m", 1)), pillar_name(xing_nian_pillar("f", 1))
('丙寅', '壬申')
>>> pillar_name(xing_nian_pillar("m", 30)), pillar_name(xing_nian_pillar("f", 30))
('乙未', '癸卯')
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Final, Literal

from shensha_plates.core.cycle import PILLARS, parse_pillar
from shensha_plates.core.errors import InputError

__all__ = ["Sex", "Querent", "YearOnPlate", "NianMing", "querent_on", "xing_nian_pillar", "nian_ming", "parse_sex", "parse_birth",
           "age_between", "MAX_AGE"]

Sex = Literal["m", "f"]
MAX_AGE: Final = 150
_FIRST: Final = {"m": PILLARS.index("丙寅"), "f": PILLARS.index("壬申")}
_SEX_WORDS: Final = {"m": "m", "male": "m", "man": "m", "男": "m", "f": "f", "female": "f", "woman": "f", "女": "f"}


@dataclass(frozen=True, slots=True)
class YearOnPlate:
    """One of the two years on the plate: its pillar, the heaven branch standing over its branch and
    the general riding that heaven branch."""

    role: Literal["ben_ming", "xing_nian"]
    pillar: int
    heaven: int
    general: int

    @property
    def branch(self) -> int:
        return self.pillar % 12


@dataclass(frozen=True, slots=True)
class NianMing:
    sex: Sex
    age: int  # 虚岁: the year of birth counts as one
    count: str  # the ``xingnian`` setting's choice
    ben_ming: YearOnPlate
    xing_nian: YearOnPlate
    partner: NianMing | None = None  # the second querent's years, when one is given (never with its own)

    @property
    def years(self) -> tuple[YearOnPlate, YearOnPlate]:
        return (self.ben_ming, self.xing_nian)

    def couple(self) -> tuple[YearOnPlate, YearOnPlate] | None:
        """The husband's and the wife's 行年 (繁昌 旺孕 解离 read them together); None without a partner."""
        p = self.partner
        if p is None or p.sex == self.sex:
            return None
        return (self.xing_nian, p.xing_nian) if self.sex == "m" else (p.xing_nian, self.xing_nian)


@dataclass(frozen=True, slots=True)
class Querent:
    """The person asking: the year of birth (its pillar, and the year when it was given as one), the
    sex and, when given, the age in 虚岁 (else it comes from the chart's year)."""

    birth: int
    birth_year: int | None
    sex: Sex
    age: int | None = None
    partner: Querent | None = None  # the second querent (husband or wife), without a partner of its own

    @property
    def birth_text(self) -> str:
        return str(self.birth_year) if self.birth_year is not None else PILLARS[self.birth]

    @classmethod
    def parse(cls, birth: str, sex: str, age: int | str | None = None) -> Querent:
        """From the words a user gives (``1975`` or ``乙卯``; ``m``/``f``/男/女; an age or none)."""
        pillar, year = parse_birth(birth)
        if age is None or (isinstance(age, str) and not age.strip()):
            given = None
        else:
            t = str(age).strip()
            if not (t.isascii() and t.isdigit()) or not 1 <= int(t) <= MAX_AGE:
                raise InputError(f"invalid age: {age!r} (expected 1–{MAX_AGE}, in 虚岁: the year of birth is 1)")
            given = int(t)
        return cls(pillar, year, parse_sex(sex), given)

    def with_partner(self, partner: Querent | None) -> Querent:
        """This querent with ``partner`` (or none): the partner is of the other sex (the patterns that read
        two 行年 read a husband's and a wife's) and has no partner of its own."""
        if partner is not None:
            if partner.sex == self.sex:
                raise InputError(f"invalid partner sex: {partner.sex!r} (the partner's sex must differ from the "
                                 f"querent's, {self.sex}: 繁昌 旺孕 解离 read a husband's and a wife's 行年)")
            partner = replace(partner, partner=None)
        return replace(self, partner=partner)


def querent_on(querent: Querent, heaven: tuple[int, ...], generals: tuple[int, ...], chart_pillar: int | None,
               chart_year: int | None, count: str = "xusui") -> NianMing | None:
    """The querent's two years on a plate (and the partner's, when given and the partner's age can be
    known); None when the age cannot be known (no age given and the chart's year unknown)."""
    age = querent.age
    if age is None:
        if chart_pillar is None:
            return None
        age = age_between(querent.birth, querent.birth_year, chart_pillar, chart_year)
    nm = nian_ming(heaven, generals, querent.birth, querent.sex, age, count)
    if querent.partner is not None:
        p = querent_on(replace(querent.partner, partner=None), heaven, generals, chart_pillar, chart_year, count)
        if p is not None:
            nm = replace(nm, partner=p)
    return nm


def xing_nian_pillar(sex: Sex, age: int, count: str = "xusui", birth: int | None = None) -> int:
    """The pillar of the 行年 at ``age`` (虚岁). ``count``: ``xusui`` (the year of birth is the first,
    丙寅 for a man, 壬申 for a woman), ``zhousui`` (the first full year is 丙寅: one place behind) or
    ``liujia`` (六甲起行年: the first year is the 丙 — a woman's the 壬 — of the 旬 of ``birth``, the
    year of birth's pillar; a birth in the 甲子旬 counts as ``xusui``).

    >>> from shensha_plates.core.cycle import pillar_name
    >>> pillar_name(xing_nian_pillar("m", 1, "liujia", PILLARS.index("甲戌")))
    '丙子'
    >>> pillar_name(xing_nian_pillar("f", 2, "liujia", PILLARS.index("甲戌")))
    '辛巳'
    """
    if not 1 <= age <= MAX_AGE:
        raise InputError(f"invalid age: {age} (expected 1–{MAX_AGE}, counted in 虚岁: the year of birth is 1)")
    if count == "liujia":
        if birth is None:
            raise InputError("the 六甲 count of the 行年 needs the year of birth (its 旬 sets the first year)")
        first = (birth - birth % 10 + (2 if sex == "m" else 8)) % 60  # the 旬's 丙 / 壬
        steps = age - 1
    else:
        first, steps = _FIRST[sex], (age - 1 if count == "xusui" else max(0, age - 2))
    return (first + (steps if sex == "m" else -steps)) % 60


def nian_ming(heaven: tuple[int, ...], generals: tuple[int, ...], birth: int, sex: Sex, age: int,
              count: str = "xusui") -> NianMing:
    """The two years on a plate whose heaven branch over earth branch ``e`` is ``heaven[e]`` and whose
    general there is ``generals[e]``. ``birth``: the pillar of the year of birth."""
    def on(role: Literal["ben_ming", "xing_nian"], pillar: int) -> YearOnPlate:
        b = pillar % 12
        return YearOnPlate(role, pillar, heaven[b], generals[b])
    return NianMing(sex, age, count, on("ben_ming", birth), on("xing_nian", xing_nian_pillar(sex, age, count, birth)))


def parse_sex(text: str) -> Sex:
    sex = _SEX_WORDS.get(str(text).strip().lower())
    if sex is None:
        raise InputError(f"invalid sex: {text!r} (expected m or f — 男 or 女)")
    return sex  # type: ignore[return-value]


def parse_birth(text: str) -> tuple[int, int | None]:
    """``--birth``: a year (1975: the 干支 year that began at 立春 1975) or its pillar (乙卯). Returns
    the pillar and the year (None when only the pillar was given)."""
    t = str(text).strip()
    t = t[:-1] if t.endswith("年") else t
    if t.isascii() and t.isdigit():
        year = int(t)
        if not 1 <= year <= 9999:
            raise InputError(f"invalid birth year: {text!r} (expected a year 1–9999 or a pillar such as 乙卯)")
        return (year - 4) % 60, year
    try:
        return parse_pillar(t), None
    except InputError:
        raise InputError(f"invalid birth year: {text!r} (expected a year such as 1975 or a pillar such as "
                         f"乙卯)") from None


def age_between(birth: int, birth_year: int | None, chart_pillar: int, chart_year: int | None) -> int:
    """The 虚岁 in the chart's year: from the two years when both are known, else the youngest age
    whose year has the chart's pillar (the sixty-year cycle leaves older ones open)."""
    if birth_year is not None and chart_year is not None:
        age = chart_year - birth_year + 1
        if age < 1:
            raise InputError(f"the birth year {birth_year} is after the chart's year {chart_year}")
        if age > MAX_AGE:
            raise InputError(f"the birth year {birth_year} gives an age of {age} (more than {MAX_AGE})")
        return age
    return (chart_pillar - birth) % 60 + 1
