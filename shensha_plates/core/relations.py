"""The eight relations of seed 001 (八煞: 德, 合, 鬼, 墓, 破, 害, 刑, 冲) between two positions.

:func:`relate` takes two stems or branches and returns every relation between them, each with
its kind, quality, a meaning taken from the seed and the phrase it rests on. Where seed 001 and
Zhuang's plates (seed 002) disagree — 未刑丑 and 申刑寅, which Zhuang's 岁刑 table keeps and
seed 001 calls a confusion of 冲 with 刑 — both readings are returned, the disputed one marked
with the seed's verdict, never merged.

>>> [r.name for r in relate("寅", "亥")]
['六合', '破']
>>> relate("寅", "亥")[0].detail
'寅亥合（破合）'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from shensha_plates.core.catalog import Source
from shensha_plates.core.cycle import BRANCHES, STEMS, branch_phase, stem_phase
from shensha_plates.core.errors import InputError

__all__ = ["Relation", "relate", "parse_position", "KINDS"]

# kind id → (name, traditional name, English)
KINDS: Final = {
    "de": ("德", "德", "virtue"), "he": ("合", "合", "union"), "gui": ("鬼", "鬼", "ghost (harming control)"),
    "mu": ("墓", "墓", "tomb"), "po": ("破", "破", "break"), "hai": ("害", "害", "harm"),
    "xing": ("刑", "刑", "punishment"), "chong": ("冲", "沖", "clash"),
}
_TRAD_NAMES: Final = {"冲": "沖"}  # every other name here is written alike in both scripts


@dataclass(frozen=True, slots=True)
class Relation:
    """One relation between the two positions asked about.

    ``detail`` says which way it runs (``丑刑戌``); ``verdict`` is ``"rejected"`` when seed 001 rejects
    the reading (the catalog's word for Zhuang's own rejections), ``note`` says who holds which view.
    """

    kind: str
    name: str
    name_trad: str
    quality: str  # good | bad | mixed
    detail: str
    meaning: str
    source: Source
    verdict: str | None = None
    note: str | None = None

    def to_json(self) -> dict[str, object]:
        return {"name": self.name, "name_trad": self.name_trad, "kind": self.kind, "quality": self.quality,
                "detail": self.detail, "meaning": self.meaning,
                "source": {"file": self.source.file, "quote": self.source.quote},
                "verdict": self.verdict, "note": self.note}


def _src(quote: str) -> Source:
    return Source("001", quote)


def parse_position(text: str) -> tuple[str, int]:
    """``("stem", i)`` or ``("branch", i)`` for one stem or branch character (夘 read as 卯)."""
    t = text.strip().replace("夘", "卯")
    if len(t) == 1 and t in STEMS:
        return "stem", STEMS.index(t)
    if len(t) == 1 and t in BRANCHES:
        return "branch", BRANCHES.index(t)
    raise InputError(f"not a stem or branch: {text!r} (expected one of {STEMS} or {BRANCHES})")


# -- the tables of seed 001 ------------------------------------------------------------------------

# 德: the stem's virtue branch (寅己、申乙、巳辛、亥丁 in 001; the whole table as 干德 of seed 002)
_DE: Final = "寅申巳亥巳寅申巳亥巳"

# 三合 (行合): four trines, each with its meaning
_TRINES: Final = (
    ("亥卯未", "木合", "亥卯未木合，主繁宂驳杂"), ("寅午戌", "火合", "寅午戌火合，主侣党不正"),
    ("巳酉丑", "金合", "巳酉丑金合，主矫革离异"), ("申子辰", "水合", "申子辰水合，主流动无滞"),
)
_TRINE_Q: Final = "凡三合入传，主事闗牵连，必过月方能了结"

# 六合 (支合)
_SIX_HE: Final = ("子丑", "寅亥", "卯戌", "辰酉", "巳申", "午未")
_SIX_HE_SPECIAL: Final = {"寅亥": "破合", "巳申": "刑合"}

# 五合 (干合): pair → (name, quality, meaning quote)
_FIVE_HE: Final = {
    "甲己": ("中正合", "good", "凡中正合，乘贵人，主贵人成就，见贵得喜"),
    "乙庚": ("仁义合", "good", "凡仁义合，乘吉神，主内外和合，作事端肃"),
    "丙辛": ("威权合", "mixed", "凡威权合，乘吉神，主施威徳，布号令，观兵耀武。若乘凶神，主挟令凌下"),
    "丁壬": ("淫泆合", "bad", "凡淫泆合，乘吉神，主阴谋成事。若乘阴、后、玄、六临夘酉，主女子淫奔"),
    "戊癸": ("无情合", "bad", "凡无情合，乘吉神，占事半实半虚；若乘凶神，主外合中离"),
}

# 十干墓 and the plain five-phase tombs
_STEM_TOMB: Final = "未戌戌丑戌丑丑辰辰未"  # 甲乙丙丁戊己庚辛壬癸
_PHASE_TOMB: Final = {"木": "未", "火": "戌", "金": "丑", "水": "辰", "土": "辰"}

# 破: pair → meaning quote
_PO: Final = {
    frozenset("午卯"): ("午破卯", "凡午破卯，主门户破败"), frozenset("辰丑"): ("辰破丑", "辰破丑，主墙墓颓圮"),
    frozenset("酉子"): ("酉破子", "酉破子，主阴小灾悔"), frozenset("戌未"): ("戌破未", "戌破未，主人物刑伤"),
    frozenset("亥寅"): ("亥破寅", "亥破寅，申破巳，破中有合，败而复成"),
    frozenset("申巳"): ("申破巳", "亥破寅，申破巳，破中有合，败而复成"),
}

# 害: (upper, lower) → meaning of "upper 加 lower"
_HAI: Final = {
    ("子", "未"): "凡子加未，主事无终始，官非口舌", ("未", "子"): "未加子，主营谋阻滞，暗里生灾",
    ("丑", "午"): "丑加午，主公讼不利，夫妻不和", ("午", "丑"): "午加丑，主事不分明，终难成就",
    ("寅", "巳"): "寅加巳，主出行改动，退利进阻", ("巳", "寅"): "巳加寅，主谋事阻难，口舌忧疑",
    ("卯", "辰"): "夘加辰，主事有虚争，好中生斗", ("辰", "卯"): "辰加夘，主求谋多阻，干事无终",
    ("酉", "戌"): "酉加戌，主门户损伤，阴小灾疾", ("戌", "酉"): "戌加酉，主暗中不美，奴婢邪谋",
    ("申", "亥"): "申加亥，主先阻后得，事必有终", ("亥", "申"): "亥加申，主图谋未遂，事必无始",
}

# 刑: (punisher, punished) → (kind name, meaning quote)
_XING: Final = {
    ("丑", "戌"): ("朋刑", "刑中有鬼，贵贱相侮，病狱交臻", "丑刑戌，刑中有鬼，贵贱相侮，病狱交臻"),
    ("戌", "未"): ("朋刑", "刑中有破，长幼不和，身家零落", "巳刑申，戌刑未，刑中有破，长幼不和，身家零落"),
    ("寅", "巳"): ("朋刑", "刑中有害，举动艰难，灾讼骈至", "寅刑巳，刑中有害，举动艰难，灾讼骈至"),
    ("巳", "申"): ("朋刑", "刑中有破，长幼不和，身家零落", "巳刑申，戌刑未，刑中有破，长幼不和，身家零落"),
    ("子", "卯"): ("互刑", "死败相刑，门户不正，尊卑不睦", "子刑夘，死败相刑，门户不正，尊卑不睦"),
    ("卯", "子"): ("互刑", "明入晦出，子息不律，水陆不通", "夘刑子明入晦出，子息不律，水陆不通"),
}
_SELF_XING: Final = "辰午酉亥"
_SELF_XING_Q: Final = "自刑，主自逞自作，以致落败，事非顺成，死非正命"
# the two Zhuang keeps (his 岁刑 table, seed 002 as read in PLATES.md) and seed 001 rejects
_XING_DISPUTED: Final = {("未", "丑"): "未刑丑", ("申", "寅"): "申刑寅"}
_XING_REJECT_Q: Final = "而《世本》有以未刑丑，申刑寅者，盖未考冲首为自刑，而误以冲为刑也"

# 冲: pair → meaning quote
_CHONG: Final = {
    frozenset("子午"): "子午相加，道路驱逐，男女争交，谋为变迁，举动差失",
    frozenset("卯酉"): "卯酉相加，分异失脱，更改门户，乘阴临合淫泆奸私",
    frozenset("寅申"): "寅申相加，邪鬼作祟，夫妻异心",
    frozenset("巳亥"): "巳亥相加，顺去逆来，重求轻得",
    frozenset("丑未"): "丑未相加，弟兄两意，谋望无成",
    frozenset("辰戌"): "辰戌相加，悲喜不明，奴仆逃走",
}

_CONTROLS: Final = {"木": "土", "土": "水", "水": "火", "火": "金", "金": "木"}


def _rel(kind: str, quality: str, detail: str, meaning: str, quote: str, name: str | None = None,
         verdict: str | None = None, note: str | None = None) -> Relation:
    n = name or KINDS[kind][0]
    return Relation(kind=kind, name=n, name_trad=_TRAD_NAMES.get(n, n), quality=quality, detail=detail,
                    meaning=meaning, source=_src(quote), verdict=verdict, note=note)


def _phase_and_polarity(pos: tuple[str, int]) -> tuple[str, int]:
    kind, i = pos
    return (stem_phase(i), i % 2) if kind == "stem" else (branch_phase(i), i % 2)


def _char(pos: tuple[str, int]) -> str:
    return STEMS[pos[1]] if pos[0] == "stem" else BRANCHES[pos[1]]


def relate(a: str, b: str) -> tuple[Relation, ...]:
    """Every relation of seed 001 between positions ``a`` and ``b`` (stems or branches), in the
    seed's order: 德, 合, 鬼, 墓, 破, 害, 刑, 冲."""
    pa, pb = parse_position(a), parse_position(b)
    ca, cb = _char(pa), _char(pb)
    out: list[Relation] = []
    # 德: a stem and its virtue branch
    for s, br in ((pa, pb), (pb, pa)):
        if s[0] == "stem" and br[0] == "branch" and _DE[s[1]] == BRANCHES[br[1]]:
            out.append(_rel("de", "good", f"{BRANCHES[br[1]]}为{STEMS[s[1]]}德",
                            "福佑之神；临日入传，能转凶为吉", "徳者，福佑之神也。凡临日入传，能转凶为吉"))
    # 合
    if pa[0] == pb[0] == "branch" and ca != cb:
        for trine, label, quote in _TRINES:
            if ca in trine and cb in trine:
                out.append(_rel("he", "good", f"{trine}{label}", quote.split("，", 1)[1] + "；必过月方能了结",
                                quote, name="三合"))
        pair = next((p for p in _SIX_HE if set(p) == {ca, cb}), None)
        if pair is not None:
            special = _SIX_HE_SPECIAL.get(pair)
            if special:
                out.append(_rel("he", "mixed", f"{pair[0]}{pair[1]}合（{special}）",
                                "谋事合而不合，成而不成；得贵、青、德、禄乘之，仍主顺利",
                                "凡寅合亥为破合，巳合申为刑合，主谋事合而不合，成而不成", name="六合"))
            else:
                out.append(_rel("he", "good", f"{pair[0]}{pair[1]}合", "合与德同入传，百事皆吉",
                                "子与丑合，寅与亥合，夘与戌合，辰与酉合，巳与申合，午与未合", name="六合"))
    if pa[0] == pb[0] == "stem":
        key = "".join(sorted((ca, cb), key=STEMS.index))
        if key in _FIVE_HE:
            label, quality, quote = _FIVE_HE[key]
            out.append(_rel("he", quality, f"{key}{label}", quote.split("，", 1)[1], quote, name="五合"))
    # 鬼: same polarity, one controls the other (阳克阳, 阴克阴)
    (fa, ya), (fb, yb) = _phase_and_polarity(pa), _phase_and_polarity(pb)
    if ya == yb and (ca != cb):
        for x, fx, y, fy in ((ca, fa, cb, fb), (cb, fb, ca, fa)):
            if _CONTROLS[fx] == fy:
                out.append(_rel("gui", "bad", f"{x}为{y}之鬼（{fx}克{fy}）", "贼害之神；传中多鬼，事事不美",
                                "鬼者，贼害之神也。干支之中，阳克阳为鬼，阴克阴为鬼"))
    # 墓
    for s, br in ((pa, pb), (pb, pa)):
        if s[0] == "stem" and br[0] == "branch" and _STEM_TOMB[s[1]] == BRANCHES[br[1]]:
            out.append(_rel("mu", "bad", f"{BRANCHES[br[1]]}为{STEMS[s[1]]}墓（十干墓）",
                            "伏没之神；临日入传，主一切闭塞暗昧，壅蔽不通",
                            "未为甲癸之墓，戌为丙戊乙之墓，丑为庚丁己之墓，辰为壬辛之墓"))
    if pa[0] == pb[0] == "branch" and ca != cb:
        for x, y in ((ca, cb), (cb, ca)):
            if _PHASE_TOMB[branch_phase(BRANCHES.index(x))] == y and y in "辰戌丑未":
                out.append(_rel("mu", "bad", f"{y}为{x}之五行墓", "单论五行之墓；壬课惟从十干墓，此只备参",
                                "未为木墓，戌为火墓，丑为金墓，辰为水土墓，此盖单论五行",
                                note="壬课重在日，惟従十干墓，不从五行墓"))
    # 破
    if pa[0] == pb[0] == "branch":
        po = _PO.get(frozenset((ca, cb)))
        if po is not None and ca != cb:
            label, quote = po
            mixed = "有合" in quote
            out.append(_rel("po", "mixed" if mixed else "bad", label,
                            "破中有合，败而复成" if mixed else quote.split("主", 1)[1] + "；宜散凶事，不宜成吉事", quote))
        # 害
        hai = _HAI.get((ca, cb))
        if hai is not None:
            rev = _HAI[(cb, ca)]
            out.append(_rel("hai", "bad", f"{ca}{cb}相害", f"{hai.lstrip('凡').replace('夘', '卯')}；"
                            f"{rev.lstrip('凡').replace('夘', '卯')}", hai))
        # 刑
        for x, y in ((ca, cb),) if ca == cb else ((ca, cb), (cb, ca)):
            xing = _XING.get((x, y))
            if xing is not None:
                kind_name, meaning, quote = xing
                out.append(_rel("xing", "bad", f"{x}刑{y}（{kind_name}）", meaning, quote))
            disputed = _XING_DISPUTED.get((x, y))
            if disputed is not None:
                out.append(_rel("xing", "bad", f"{disputed}（朋刑）", "庄氏岁刑表以此为刑；本书以为误冲为刑，不取",
                                _XING_REJECT_Q, verdict="rejected",
                                note="本书（001）以为误以冲为刑，不取；庄氏（002）岁刑表用之"))
        if ca == cb and ca in _SELF_XING:
            out.append(_rel("xing", "bad", f"{ca}{ca}自刑", "自逞自作，以致落败，事非顺成，死非正命", _SELF_XING_Q))
        # 冲
        chong = _CHONG.get(frozenset((ca, cb)))
        if chong is not None and ca != cb:
            out.append(_rel("chong", "mixed", f"{ca}{cb}相冲", chong.split("，", 1)[1] + "；凶神宜冲，吉神不宜冲",
                            chong))
    return tuple(out)
