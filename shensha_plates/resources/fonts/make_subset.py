"""Generate the bundled CJK font: a subset of Noto Serif CJK SC, renamed, with its licence.

Run from the repository root (needs fontTools and Debian's fonts-noto-cjk):

    python resources/fonts/make_subset.py [/usr/share/fonts/opentype/noto/NotoSerifCJK-Regular.ttc]

The subset holds every character the catalog and the interface can show, in both scripts, plus
ASCII, CJK punctuation and a few symbols. Noto CJK is under the SIL Open Font License 1.1, whose
Reserved Font Name is "Source"; the subset is renamed "Shensha Serif" as the licence asks of
modified versions. Re-run this script whenever catalog or interface text gains new characters
(a test fails when a character is missing).
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT))

SOURCE = "/usr/share/fonts/opentype/noto/NotoSerifCJK-Regular.ttc"
FAMILY = "Shensha Serif"
OUT = ROOT / "shensha_plates" / "resources" / "fonts" / "ShenshaSerif-Regular.otf"
EXTRA = ("0123456789０１２３４５６７８９（）〔〕【】「」『』《》〈〉：；，。、！？…—·・／＋－＝"
         "○●◐◇◆□■△▲▽▼☆★※＊←→↑↓✓×÷°′″　 "
         "甲乙丙丁戊己庚辛壬癸子丑寅卯辰巳午未申酉戌亥乾坤艮巽震离兑坎離兌"
         "正二三四五六七八九十冬腊臘一月年旬日时時春夏秋冬孟仲季吉凶")


def system_texts() -> list[str]:
    """Text of the other systems: Bazi rules, the eight relations (every pair), date selection."""
    from shensha_plates.core.bazi import PILLAR_NAMES, default_bazi
    from shensha_plates.core.cycle import BRANCHES, PILLARS, STEMS, nayin
    from shensha_plates.core.relations import KINDS, relate

    parts: list[str] = [n for pair in PILLAR_NAMES.values() for n in pair]
    parts += [k[0] + k[1] for k in KINDS.values()]
    parts += [nayin(i) for i in range(60)] + list(PILLARS)
    for sp in default_bazi().spirits:
        parts += [sp.name, sp.name_trad, sp.meaning, sp.note, sp.source.quote]
        parts += [v.note + v.source.quote for v in sp.variants]
    parts.append("月支日干支季旬在年纳音见顺连为；春夏秋冬")
    positions = STEMS + BRANCHES
    for a in positions:
        for b in positions:
            for r in relate(a, b):
                parts += [r.name, r.name_trad, r.detail, r.meaning, r.note or "", r.source.quote]
    from shensha_plates.core.selection import all_text as selection_text
    from shensha_plates.core.teaching import all_text as teaching_text
    parts += [selection_text(), teaching_text()]
    return parts


def liuren_texts() -> list[str]:
    """Text of the Liu Ren plate: generals, month generals, methods, the sentences of the method's
    record, the names that need the plate, the settings and their books."""
    from shensha_plates.core.liuren import liuren_tables

    t = liuren_tables()
    parts: list[str] = []
    for g in t.generals:
        parts += [g.name, g.name_trad, g.short, g.short_trad]
    for mg in t.month_generals:
        parts += [mg.name, mg.name_trad, mg.qi, mg.jie]
    for m in t.methods.values():
        parts += [m.name, m.name_trad, m.source.quote]
    parts += [r.text for r in t.rules.values()]
    for n in t.names:
        parts += [n.name, n.name_trad, n.meaning, n.source.quote]
    for st in t.settings.values():
        parts += [st.name] + [c.name + c.note + c.source.quote for c in st.choices]
    for b in t.books.values():
        parts += [b.title, b.note]
    parts.append("元首重审知一见机察微缀瑕涉害蒿矢弹射虎视冬蛇掩目别责八专自任自信井栏射杜传孤寡课哭神下泪鬼呼")
    # the words core/liuren/spirits.py builds a name's reason from
    parts.append("初传不空旬空与传中孤寡俱空阳空阴空发用未知年月不能定其位置此时不列此神天盘为之鬼加临墓神上非乘不在昼夜贵顺逆")
    return parts


def needed_text() -> str:
    from shensha_plates.core.catalog import default_catalog
    from shensha_plates.gui.i18n import all_text

    parts = [EXTRA, all_text()]
    from shensha_plates.core.catalog import SEED_BOOKS
    for _, book, book_trad, _ in SEED_BOOKS.values():  # source lines name the book
        parts += [book, book_trad]
    for s in default_catalog().spirits:
        parts += [s.name, s.name_trad, *s.aliases, *s.aliases_trad, s.meaning, s.note or "",
                  s.condition or "", s.source.quote]
        for v in s.variants:
            parts += [v.note, v.source.quote, v.source.book()]
    for r in default_catalog().rings:
        parts += [r.name, r.name_trad, r.source.quote]
    parts += system_texts()
    parts += liuren_texts()
    parts += english_texts()
    from shensha_plates.core import page  # the web page's own words (it embeds this font)
    parts += [page._TEMPLATE, page._SCRIPT]
    # the paper kit's own words (its module draws them; read as text: this script needs no Qt)
    parts.append((ROOT / "shensha_plates" / "gui" / "export" / "kit.py").read_text(encoding="utf-8"))
    from shensha_plates.core.liuren.patterns import patterns  # 课体, 格, 卦: names, reasons, quotes
    for pat in patterns():
        parts += [pat.name, pat.name_trad, pat.kind, pat.why, pat.note, pat.source.quote]
    from shensha_plates.core.liuren.patterns import bifa_lines
    for line in bifa_lines():
        parts += [line.verse, line.why, line.reason]
    try:  # what the program prints, gathered by running it (in a checkout, beside the tests)
        from tests.support.printed import printed_text
    except ImportError:
        pass
    else:
        parts.append(printed_text())
    from shensha_plates.core.script import to_traditional  # traditional forms of meanings and notes (OpenCC, 干支 kept)
    parts.append(to_traditional("".join(parts)))
    text = "".join(parts)
    text += "".join(chr(c) for c in range(0x20, 0x7F))
    return "".join(sorted(set(text)))


def english_texts() -> list[str]:
    """The English of the learners' glosses (our translation) and the pinyin of every name, with its
    tone marks (ā á ǎ à …)."""
    from shensha_plates.core.catalog import default_catalog
    from shensha_plates.core.english import english, pinyin
    en = english()
    parts: list[str] = []
    for glosses in (en.spirits, en.generals, en.methods, en.names):
        for g in glosses.values():
            parts += [g.gloss, g.meaning]
    for texts in (en.rings, en.conditions, en.month_generals, en.kin, en.ke, en.rules, en.terms, en.branches,
                  en.stems):
        parts += list(texts.values())
    for s in default_catalog().spirits:
        parts += [pinyin(s.name), pinyin(s.name_trad)]
    for r in default_catalog().rings:
        parts.append(pinyin(r.name))
    parts.append("āáǎàēéěèīíǐìōóǒòūúǔùǖǘǚǜüĀÁǍÀĒÉĚÈŌÓǑÒ·—–’“”")  # every tone mark, capitals for a name's first letter
    return parts


def main(argv: list[str]) -> int:
    from fontTools import subset
    from fontTools.ttLib import TTCollection

    source = argv[1] if len(argv) > 1 else SOURCE
    collection = TTCollection(source)
    font = next(f for f in collection.fonts
                if "SC" in f["name"].getDebugName(1) or "SC" in f["name"].getDebugName(4))
    options = subset.Options()
    options.layout_features = ["vert", "vrt2", "locl", "kern", "palt", "vpal"]
    options.name_IDs = ["*"]
    options.notdef_outline = True
    options.hinting = False
    sub = subset.Subsetter(options)
    sub.populate(text=needed_text())
    sub.subset(font)
    names = font["name"]
    for rec in list(names.names):
        if rec.nameID in (1, 16):
            rec.string = FAMILY
        elif rec.nameID == 4:
            rec.string = FAMILY + " Regular"
        elif rec.nameID == 6:
            rec.string = "ShenshaSerif-Regular"
        elif rec.nameID == 3:
            rec.string = "ShenshaSerif-Regular;subset of Noto Serif CJK SC"
    font.save(OUT)
    print(f"wrote {OUT} ({OUT.stat().st_size // 1024} KiB, {len(needed_text())} characters)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
