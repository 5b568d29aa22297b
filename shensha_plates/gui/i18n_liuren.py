"""Interface strings of the Liu Ren plate (heaven rings, lesson panel, its classroom), in both scripts.

Kept beside :mod:`shensha_plates.gui.i18n` (which merges them into its table, so ``tr`` and the font subset see
them) to keep that shared file's changes to one line. key → (simplified, traditional, English gloss).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

__all__ = ["LIUREN_STRINGS"]

LIUREN_STRINGS: Final[Mapping[str, tuple[str, str, str]]] = {
    "dial_hour": ("时", "時", "hour"),
    "hour_fwd": ("时 ▶", "時 ▶", "next hour"),
    "hour_back": ("时 ◀", "時 ◀", "previous hour"),
    "month_general": ("月将", "月將", "month general"),
    "general_auto": ("随日期或月份", "隨日期或月份", "from the date or the month"),
    "general_src_date": ("{g}将（按日期中气）", "{g}將（按日期中氣）", "{g} general (from the date's 中气)"),
    "general_src_month": ("{g}将（按月份：中气之后）", "{g}將（按月份：中氣之後）",
                          "{g} general (by the month dial: after its 中气)"),
    "general_src_hand": ("{g}将（手定）", "{g}將（手定）", "{g} general (set by hand)"),
    "show_heaven": ("显示天盘与天将（有时辰时）", "顯示天盤與天將（有時辰時）",
                    "show the heaven plate and the generals (when an hour is set)"),
    "general_names": ("天盘标月将名（登明……）", "天盤標月將名（登明……）", "name the month generals on the heaven plate"),
    "heaven_agrees": ("天盘与{g}将{h}时相合", "天盤與{g}將{h}時相合", "the heaven plate agrees with the {g} general at {h}"),
    "heaven_disagrees": ("天盘已离开{g}将{h}时：现为{g}将加{shown}时", "天盤已離開{g}將{h}時：現為{g}將加{shown}時",
                         "the heaven plate no longer agrees with the {g} general at {h}: it shows {g} over {shown}"),
    "lesson_tab": ("课传", "課傳", "lessons and transmissions"),
    "nian_ming": ("年命", "年命", "the querent's years: birth year and year of life"),
    "ben_ming": ("本命", "本命", "birth year"),
    "xing_nian": ("行年", "行年", "year of life"),
    "ming_tag": ("命", "命", "birth year (本命)"),
    "nian_tag": ("年", "年", "year of life (行年)"),
    "male": ("男", "男", "male"),
    "female": ("女", "女", "female"),
    "age_xusui": ("虚岁{age}", "虛歲{age}", "age {age} (counted from 1 at birth)"),
    "querent_birth": ("生年（如 1975 或 乙卯）", "生年（如 1975 或 乙卯）", "year of birth (1975 or 乙卯)"),
    "querent_age": ("虚岁", "虛歲", "age"),
    "querent_age_tip": ("虚岁（生年为一岁）；空则由日期与生年推出", "虛歲（生年為一歲）；空則由日期與生年推出",
                        "age counted from 1 in the year of birth; empty: from the date and the year of birth"),
    "querent_sex": ("性别", "性別", "sex"),
    "querent_needs_age": ("年命：此盘无年干，请填虚岁", "年命：此盤無年干，請填虛歲",
                          "年命: this plate has no year stem; give the age"),
    "lesson_none": ("起课需要日与时：请选择日干支与时辰（或由日期定盘）。", "起課需要日與時：請選擇日干支與時辰（或由日期定盤）。",
                    "a lesson needs a day and an hour: choose them, or set a date"),
    "four_lessons": ("四课", "四課", "the four lessons"),
    "three_transmissions": ("三传", "三傳", "the three transmissions"),
    "lesson_n": ("{n}课", "{n}課", "lesson {n}"),
    "trans_first": ("初传", "初傳", "first transmission"),
    "trans_middle": ("中传", "中傳", "middle transmission"),
    "trans_last": ("末传", "末傳", "last transmission"),
    "method": ("课体", "課體", "method"),
    "reasons": ("取传之由", "取傳之由", "why"),
    "spirits_here": ("所乘神煞", "所乘神煞", "the spirits there"),
    "void_mark": ("空", "空", "void"),
    "in_force": ("成立", "成立", "in force"),
    "not_in_force": ("不成立", "不成立", "not in force"),
    "conditional_names": ("待天盘而成之神煞", "待天盤而成之神煞", "names that need the plate"),
    "school": ("取法", "取法", "the school's choices"),
    "school_differs": ("取法不同则三传不同：", "取法不同則三傳不同：", "the choices give other transmissions:"),
    "school_same": ("诸取法三传相同", "諸取法三傳相同", "every choice gives the same transmissions"),
    "walk": ("逐步演示起课", "逐步演示起課", "walk through the method"),
    "walk_stop": ("结束演示", "結束演示", "end the walk-through"),
    "walk_step": ("第 {i}/{n} 步", "第 {i}/{n} 步", "step {i} of {n}"),
    "walk_lesson": ("{n}课：{upper}加{lower}，{general}", "{n}課：{upper}加{lower}，{general}",
                    "lesson {n}: {upper} over {lower}, {general}"),
    "walk_trans": ("{which}：{branch}，{general}", "{which}：{branch}，{general}", "{which}: {branch}, {general}"),
    "play_hours": ("十二时", "十二時", "the twelve hours"),
    "quiz_first": ("初传是哪一支？", "初傳是哪一支？", "which branch is the first transmission?"),
    "quiz_method": ("此课用何法取传？", "此課用何法取傳？", "which method gives the transmissions?"),
    "quiz_liuren": ("课传测验", "課傳測驗", "lesson quiz"),
    "quiz_first_go": ("问初传", "問初傳", "ask for the first transmission"),
    "quiz_method_go": ("问课体", "問課體", "ask for the method"),
    "lesson_in_export": ("附课传", "附課傳", "include the lesson"),
    "ke_shehai": ("涉害", "涉害", "涉害 rule"),
    "ke_noble": ("贵人", "貴人", "贵人 table"),
}
