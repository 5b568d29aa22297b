"""User-interface strings in simplified and traditional Chinese, with English glosses.

Every string the window shows lives here, in both scripts, written out (not converted at run time),
so that the bundled font subset can be generated from this table and the catalog alone.
Pure Python: no Qt import.
"""

from __future__ import annotations

from typing import Final
from collections.abc import Mapping

from shensha_plates.gui.i18n_liuren import LIUREN_STRINGS

__all__ = ["STRINGS", "tr", "gloss", "LANGS", "all_text"]

LANGS: Final = ("zh-Hans", "zh-Hant")

# key → (simplified, traditional, English gloss)
STRINGS: Final[Mapping[str, tuple[str, str, str]]] = {
    "app_title": ("神煞旋盘", "神煞旋盤", "Shensha Plates"),
    "upper_plate": ("上位圆图", "上位圓圖", "upper plate: year and xun"),
    "lower_plate": ("下位圆图", "下位圓圖", "lower plate: month"),
    "base_ring": ("地盘十二支", "地盤十二支", "fixed ring of the twelve branches"),
    "year": ("年", "年", "year"),
    "month": ("月", "月", "month"),
    "xun": ("旬", "旬", "xun (decade)"),
    "day": ("日", "日", "day"),
    "hour": ("时", "時", "hour"),
    "no_day": ("（不取日）", "（不取日）", "no day"),
    "no_hour": ("（不取时）", "（不取時）", "no hour"),
    "dials": ("转盘", "轉盤", "dials"),
    "from_date": ("由日期", "由日期", "from a date"),
    "now": ("现在", "現在", "now"),
    "apply_date": ("按日期定盘", "按日期定盤", "set the plates from this date"),
    "zone": ("时区", "時區", "time zone"),
    "year_start": ("岁首", "歲首", "year starts at"),
    "ys_lichun": ("立春时刻", "立春時刻", "the moment of 立春"),
    "ys_lichun_day": ("立春当日", "立春當日", "the day of 立春"),
    "ys_new_year": ("农历正月初一", "農曆正月初一", "lunar new year"),
    "month_basis": ("月份", "月份", "months by"),
    "mb_jie": ("按节气", "按節氣", "solar terms (节)"),
    "mb_lunar": ("按农历月", "按農曆月", "lunar months"),
    "zi_hour": ("夜子时", "夜子時", "late 子 hour"),
    "zh_next": ("算次日", "算次日", "counts to the next day"),
    "zh_same": ("算当日", "算當日", "counts to the same day"),
    "view": ("显示", "顯示", "view"),
    "layout": ("排列", "排列", "layout"),
    "layout_side": ("两盘并列", "兩盤並列", "two plates side by side"),
    "layout_stacked": ("层层叠叠", "層層疊疊", "one stacked wheel"),
    "orientation": ("方位", "方位", "orientation"),
    "orient_south": ("午上子下（传统）", "午上子下（傳統）", "午 at the top (traditional)"),
    "orient_north": ("子上午下", "子上午下", "子 at the top"),
    "text_mode": ("文字", "文字", "text"),
    "text_radial": ("径向排列", "徑向排列", "radial"),
    "text_upright": ("正立排列", "正立排列", "upright"),
    "mountains": ("显示二十四山", "顯示二十四山", "show the 24 mountains"),
    "paper_mode": ("纸盘模式（各盘自由转动）", "紙盤模式（各盤自由轉動）", "paper mode: turn each disc freely"),
    "paper_consistent": ("各盘一致：{state}", "各盤一致：{state}", "the discs agree: {state}"),
    "paper_inconsistent": ("各盘不一致：{rings} 与规则不符；最近的一致设置是 {state}",
                           "各盤不一致：{rings} 與規則不符；最近的一致設置是 {state}",
                           "the discs disagree ({rings}); the nearest consistent setting is {state}"),
    "snap_consistent": ("对齐到最近一致", "對齊到最近一致", "snap to the nearest consistent setting"),
    "language": ("语言", "語言", "language"),
    "lang_hans": ("简体", "簡體", "simplified"),
    "lang_hant": ("繁體", "繁體", "traditional"),
    "english": ("英文注释", "英文註釋", "English glosses"),
    "search": ("查找神煞", "查找神煞", "find a spirit"),
    "search_hint": ("名称、繁体或拼音", "名稱、繁體或拼音", "name, traditional or pinyin"),
    "search_none": ("未找到：{text}", "未找到：{text}", "not found: {text}"),
    "search_found": ("{name} 在 {where}", "{name} 在 {where}", "{name} lies under {where}"),
    "details": ("宫位详情", "宮位詳情", "what lies under a branch"),
    "click_hint": ("点击或悬停某一支，查看其下诸神煞", "點擊或懸停某一支，查看其下諸神煞",
                   "click or hover over a branch to list its spirits"),
    "tables": ("方图", "方圖", "square tables"),
    "tables_title": ("方图：当前一栏已标出", "方圖：當前一欄已標出", "square tables, current column marked"),
    "round_plate": ("圆图", "圓圖", "round plate"),
    "square_table": ("方图", "方圖", "square table"),
    "stem_spirits": ("干煞", "干煞", "day-stem spirits"),
    "branch_spirits": ("支煞", "支煞", "day-branch spirits"),
    "meaning": ("释义", "釋義", "meaning"),
    "source": ("出处", "出處", "source"),
    "variants": ("异说", "異說", "variants"),
    "rejected": ("庄氏斥为误", "莊氏斥為誤", "rejected by Zhuang"),
    "rejected_by_source": ("本书不取", "本書不取", "rejected by this source"),
    "systems": ("其他体系", "其他體系", "other systems"),
    "systems_title": ("其他体系：八字神煞、八煞关系、选择年月神煞", "其他體系：八字神煞、八煞關係、選擇年月神煞",
                      "other systems: Bazi spirits, the eight relations, date-selection spirits"),
    "bazi_tab": ("八字神煞", "八字神煞", "Bazi chart spirits"),
    "classroom": ("课堂", "課堂", "classroom"),
    "present": ("演示模式", "演示模式", "presentation mode"),
    "quiz": ("测验", "測驗", "quiz"),
    "dial_year": ("年", "年", "year"), "dial_month": ("月", "月", "month"), "dial_xun": ("旬", "旬", "xun"),
    "dial_day": ("日", "日", "day"),
    "cls_present_play": ("演示与播放", "演示與播放", "present and play"),
    "cls_aids": ("描迹·突出·对比·测验", "描跡·突出·對比·測驗", "trace, highlight, compare, quiz"),
    "cls_lesson": ("课程", "課程", "lesson"),
    "cls_present": ("全屏演示 (F5)", "全屏演示 (F5)", "present full screen (F5)"),
    "cls_screen": ("屏幕", "屏幕", "screen"),
    "cls_duration": ("转盘时长", "轉盤時長", "turn duration"),
    "cls_interval": ("每步秒数", "每步秒數", "seconds per step"),
    "cls_play": ("播放", "播放", "play"),
    "cls_play_year": ("一年十二月", "一年十二月", "a year, month by month"),
    "cls_play_days": ("六十日", "六十日", "the sixty days"),
    "cls_pause": ("暂停", "暫停", "pause"),
    "cls_resume": ("继续", "繼續", "resume"),
    "cls_trace": ("描迹", "描跡", "trace a spirit"),
    "cls_trace_hint": ("神煞名，如 天马、圣心、tianma", "神煞名，如 天馬、聖心、tianma", "a spirit, e.g. 天马 or tianma"),
    "cls_trace_go": ("描其行迹", "描其行跡", "draw its path"),
    "cls_clear": ("清除", "清除", "clear"),
    "cls_highlight": ("突出", "突出", "highlight"),
    "cls_none": ("（全部）", "（全部）", "(all)"),
    "cls_group_year": ("岁煞诸盘", "歲煞諸盤", "the year discs"),
    "cls_group_xun": ("旬煞诸盘", "旬煞諸盤", "the xun discs"),
    "cls_group_month": ("月煞诸盘", "月煞諸盤", "the month discs"),
    "cls_compare": ("对比", "對比", "compare"),
    "cls_compare_go": ("并列对比", "並列對比", "side by side"),
    "cls_next_month": ("与下月", "與下月", "with next month"),
    "cls_next_year": ("与下年", "與下年", "with next year"),
    "cls_next_xun": ("与下旬", "與下旬", "with next xun"),
    "cls_differences": ("位置不同者 {n} 位（两盘皆标出）", "位置不同者 {n} 位（兩盤皆標出）", "{n} spirits differ (marked on both)"),
    "cls_quiz": ("测验", "測驗", "quiz"),
    "cls_quiz_go": ("出题 (Q)", "出題 (Q)", "ask (Q)"),
    "cls_lesson_name": ("课程名称", "課程名稱", "lesson name"),
    "cls_note": ("此步说明", "此步說明", "note for this step"),
    "cls_add": ("加入当前", "加入當前", "add current"),
    "cls_remove": ("删除", "刪除", "remove"),
    "cls_open": ("打开…", "打開…", "open…"),
    "cls_save": ("保存…", "保存…", "save…"),
    "cls_saved": ("已保存：{path}", "已保存：{path}", "saved: {path}"),
    "cls_untitled": ("未命名课程", "未命名課程", "untitled lesson"),
    "cls_new": ("新课程", "新課程", "new lesson"),
    "cls_unsaved": ("课程“{name}”有改动尚未保存。保存这些改动？", "課程「{name}」有改動尚未保存。保存這些改動？",
                    "the lesson “{name}” has unsaved changes; save them?"),
    "quiz_click": ("请在盘上点选", "請在盤上點選", "click the branch on the plate"),
    "quiz_next": ("下一题", "下一題", "next question"),
    "quiz_right": ("对！", "對！", "right!"),
    "quiz_wrong": ("不对。", "不對。", "not quite."),
    "quiz_score": ("得分 {right} / {asked}", "得分 {right} / {asked}", "score {right} / {asked}"),
    "selection_tab": ("选择年月神煞", "選擇年月神煞", "date selection: year and month spirits"),
    "sel_year": ("年家神煞（随太岁转）", "年家神煞（隨太歲轉）", "year spirits (turn with the year)"),
    "sel_month": ("月家神煞与飞宫", "月家神煞與飛宮", "month spirits and the flying palaces"),
    "sel_needs_stem": ("需年干", "需年干", "needs the year stem"),
    "sel_no_remedy": ("例无制法", "例無制法", "no remedy"),
    "sel_remedy": ("制法", "制法", "remedy"),
    "sel_returns": ("还宫之月", "還宮之月", "months it returns to its palace"),
    "sel_spurious": ("辨伪：书中斥为伪煞，不列于盘", "辨偽：書中斥為偽煞，不列於盤", "spurious: named by the book, not placed"),
    "relations_tab": ("八煞关系", "八煞關係", "the eight relations"),
    "birth": ("出生时间", "出生時間", "birth date and time"),
    "make_chart": ("排八字", "排八字", "cast the chart"),
    "from_plate": ("取转盘日期", "取轉盤日期", "use the plates' date"),
    "chart_none": ("此命四柱未见所列神煞", "此命四柱未見所列神煞", "none of the listed spirits in this chart"),
    "relations_none": ("八煞之中无一相涉", "八煞之中無一相涉", "none of the eight relations applies"),
    "first_pos": ("甲方", "甲方", "first position"),
    "second_pos": ("乙方", "乙方", "second position"),
    "swap": ("对调", "對調", "swap"),
    "relation_hint": ("在盘上选一支后，按住 Shift 再点另一支，即见二者关系", "在盤上選一支後，按住 Shift 再點另一支，即見二者關係",
                      "select a branch on the plate, then Shift+click another to see their relations"),
    "accepted": ("庄氏取之", "莊氏取之", "accepted by Zhuang"),
    "conditional": ("条件", "條件", "condition"),
    "aliases": ("同位异名", "同位異名", "other names"),
    "auspicious": ("吉", "吉", "auspicious"),
    "inauspicious": ("凶", "凶", "inauspicious"),
    "mixed": ("吉凶兼", "吉凶兼", "mixed"),
    "legend": ("图例", "圖例", "legend"),
    "legend_good": ("吉神：朱色、细体、○", "吉神：朱色、細體、○", "auspicious: vermilion, light, ○"),
    "legend_bad": ("凶煞：墨色、粗体、●", "凶煞：墨色、粗體、●", "inauspicious: ink, bold, ●"),
    "legend_mixed": ("吉凶兼：青色、◐", "吉凶兼：青色、◐", "mixed: teal, ◐"),
    "legend_cond": ("〔 〕条件神煞：虚框", "〔 〕條件神煞：虛框", "conditional: dashed box"),
    "legend_variant": ("＊有异说", "＊有異說", "* has variant readings"),
    "undo": ("撤销", "撤銷", "undo"),
    "redo": ("重做", "重做", "redo"),
    "file": ("文件", "文件", "file"),
    "edit": ("编辑", "編輯", "edit"),
    "help": ("帮助", "幫助", "help"),
    "shortcuts": ("快捷键", "快捷鍵", "keyboard shortcuts"),
    "about": ("关于神煞旋盘", "關於神煞旋盤", "about Shensha Plates"),
    # {version}: the installed version; {books}: the books of the seeds, one a line (resources/sources.toml)
    "about_text": (
        "神煞旋盘 {version}\n\n庄广之《大六壬指南》的神煞旋盘，兼六壬式盘、四柱、八煞与选择。\n\n"
        "许可：程序为 MIT 许可；所附字体为 SIL 开放字体许可（OFL 1.1）。\n\n所据之书：\n{books}\n"
        "（各条出处另注，他书亦注其名。）",
        "神煞旋盤 {version}\n\n莊廣之《大六壬指南》的神煞旋盤，兼六壬式盤、四柱、八煞與選擇。\n\n"
        "許可：程式為 MIT 許可；所附字型為 SIL 開放字型許可（OFL 1.1）。\n\n所據之書：\n{books}\n"
        "（各條出處另注，他書亦注其名。）",
        "Shensha Plates {version}: Zhuang Guangzhi's rotating plates of the spirits, with the Liu Ren plate, "
        "Bazi, the eight relations and date selection. Licence: the program MIT, the bundled font SIL OFL 1.1. "
        "Sources: the books listed (each rule cites its passage)."),
    "quit": ("退出", "退出", "quit"),
    "export": ("导出…", "導出…", "export…"),
    "print": ("打印…", "打印…", "print…"),
    "copy_image": ("复制图像", "複製圖像", "copy image"),
    "booklet": ("全年年历（PDF）…", "全年年曆（PDF）…", "year booklet (PDF)…"),
    "side_panel": ("侧栏", "側欄", "side panel"),
    "cls_turned": ("（另有 {n} 盘转动：{rings}）", "（另有 {n} 盤轉動：{rings}）", "(and {n} discs turned: {rings})"),
    "present_dial": ("方向键转{dial}盘（1–5 换盘）", "方向鍵轉{dial}盤（1–5 換盤）", "the arrow keys turn the {dial} dial (1–5 to change)"),
    "find_moment": ("查找吉日吉时…", "查找吉日吉時…", "find days and hours by spirits and lessons…"),
    "find_conditions": ("条件（每行一条，须全部成立）", "條件（每行一條，須全部成立）",
                        "conditions, one a line (all must hold)"),
    "find_hint": ("例：天马@午　天德@day　day=甲子　hour=午　ke=伏吟　chu=子　not 月破@day",
                  "例：天馬@午　天德@day　day=甲子　hour=午　ke=伏吟　chu=子　not 月破@day",
                  "e.g. 天马@午, 天德@day, day=甲子, hour=午, ke=伏吟, chu=子, not 月破@day"),
    "find_spirit": ("神煞", "神煞", "spirit"),
    "find_place": ("位于", "位於", "under"),
    "find_add": ("加入条件", "加入條件", "add the condition"),
    "find_from": ("自", "自", "from"),
    "find_to": ("至", "至", "to"),
    "find_every_day": ("逐日（正午）", "逐日（正午）", "each day at noon"),
    "find_every_hour": ("逐时（课传）", "逐時（課傳）", "each hour (with the lesson)"),
    "find_any": ("任一条件成立即可", "任一條件成立即可", "any one condition is enough"),
    "find_run": ("查找", "查找", "search"),
    "find_stop": ("停止", "停止", "stop"),
    "find_count": ("找到 {n} 个时刻", "找到 {n} 個時刻", "{n} moments found"),
    "find_stopped": ("已停止：找到 {n} 个时刻", "已停止：找到 {n} 個時刻", "stopped: {n} moments found"),
    "find_pick_hint": ("单击结果即把转盘转到该时刻", "單擊結果即把轉盤轉到該時刻",
                       "click a result to turn the dials to it"),
    "find_place_year": ("年支", "年支", "the year's branch"),
    "find_place_month": ("月支", "月支", "the month's branch"),
    "find_place_day": ("日支", "日支", "the day's branch"),
    "find_place_hour": ("时支", "時支", "the hour's branch"),
    "booklet_title": ("{year}年 全年神煞", "{year}年 全年神煞", "the spirits of the year {year}, month by month"),
    "read_only_title": ("只读文件", "唯讀檔案", "read-only file"),
    "read_only_replace": ("{name} 是只读文件。仍要替换它吗？", "{name} 是唯讀檔案。仍要替換它嗎？",
                          "{name} is read-only. Replace it anyway?"),
    "booklet_progress": ("正在生成年历：{what}", "正在生成年曆：{what}", "writing the booklet: {what}"),
    "contents": ("目录", "目錄", "contents"),
    "month_tables": ("本月方图", "本月方圖", "this month's square tables"),
    "error": ("错误", "錯誤", "error"),
    "invalid_input": ("输入无效", "輸入無效", "invalid input"),
    "status_state": ("{state}", "{state}", "{state}"),
    "season_names": ("春夏秋冬", "春夏秋冬", "spring summer autumn winter"),
    "reduce_motion": ("减少动画", "減少動畫", "reduce motion"),
    "reset_view": ("复位视图", "復位視圖", "reset zoom and pan"),
    "one_plate": ("单盘", "單盤", "one plate"),
    "plate_both": ("两盘", "兩盤", "both plates"),
    "plate_lower": ("下位圆图", "下位圓圖", "the lower plate"),
    "plate_upper": ("上位圆图", "上位圓圖", "the upper plate"),
    "settings_reset": ("设置文件已损坏，已移至 {path}，以默认设置启动。", "設置文件已損壞，已移至 {path}，以默認設置啟動。",
                       "the settings file was damaged; it was moved to {path} and defaults are used"),
    "settings_unsaved": ("设置无法保存：{path}（{reason}）；本次所作改动不会保留。",
                         "設置無法保存：{path}（{reason}）；本次所作改動不會保留。",
                         "settings cannot be saved: {path} ({reason}); changes made now will not be kept"),
    # {book}: the book of seed 002 as resources/sources.toml names it
    "source_line": ("据{book}之圆图与方图 · 神煞旋盘 Shensha Plates",
                    "據{book}之圓圖與方圖 · 神煞旋盤 Shensha Plates",
                    "after Zhuang Guangzhi's round plates and square tables ({book})"),
    "omitted": ("（{n} 位干煞、支煞或年干之煞需要日或年干）", "（{n} 位干煞、支煞或年干之煞需要日或年干）",
                "({n} spirits need a day or the year's stem)"),
    "void": ("{xun}旬 空亡", "{xun}旬 空亡", "void of the {xun} xun"),
    "shortcut_more": (
        "演示中：PageDown / → / ↓ / 空格 前进，PageUp / ← / ↑ 后退；1–5 选转盘（年 月 旬 日 时）；"
        "P 播放 / 暂停；B 或 . 黑屏；Tab 或 ] 聚光下一支，Shift+Tab 或 [ 上一支；Esc 退出\n"
        "鼠标拖动盘面即转盘（松手后自会停在一支上）；滚轮转一格；Ctrl+滚轮缩放；拖动背景平移；"
        "Shift+点击另一支：两支关系",
        "演示中：PageDown / → / ↓ / 空格 前進，PageUp / ← / ↑ 後退；1–5 選轉盤（年 月 旬 日 時）；"
        "P 播放 / 暫停；B 或 . 黑屏；Tab 或 ] 聚光下一支，Shift+Tab 或 [ 上一支；Esc 退出\n"
        "鼠標拖動盤面即轉盤（鬆手後自會停在一支上）；滾輪轉一格；Ctrl+滾輪縮放；拖動背景平移；"
        "Shift+點擊另一支：兩支關係",
        "In presentation: Page Down / → / ↓ / Space forward, Page Up / ← / ↑ back; 1–5 choose the dial "
        "(year, month, xun, day, hour); P play / pause; B or . blacks out; Tab or ] spotlight the next branch, "
        "Shift+Tab or [ the previous; Esc leaves. Drag a disc to turn it (it settles on a branch); the wheel "
        "turns one step; Ctrl+wheel zooms; drag the background to pan; Shift+click a second branch: relations"),
    **LIUREN_STRINGS,
}


def tr(key: str, lang: str = "zh-Hans", **fields: object) -> str:
    """The string ``key`` in ``lang`` with ``{fields}`` filled in."""
    simp, trad, _ = STRINGS[key]
    text = trad if lang == "zh-Hant" else simp
    return text.format(**fields) if fields else text


def gloss(key: str, **fields: object) -> str:
    text = STRINGS[key][2]
    return text.format(**fields) if fields else text


def all_text() -> str:
    """Every character the interface can show (for the font subset)."""
    return "".join(s + t for s, t, _ in STRINGS.values())
