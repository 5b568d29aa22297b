"""Every key and menu entry of the window, as one table.

The window builds its actions and menus from :data:`ACTIONS`, retranslates them from it, and the F1
sheet lists it whole, so that a key cannot be bound without being listed or listed without being
bound. Presentation mode's own keys (handled by the presenter while it is active) are in
:data:`PRESENT_KEYS`, read by the presenter and by the sheet alike. Pure data: no Qt import.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal

__all__ = ["ActionSpec", "ACTIONS", "MENUS", "PresentKey", "PRESENT_KEYS", "STANDARD_KEYS"]

Menu = Literal["file", "edit", "view", "help"]

# shortcuts given by the platform's convention (Qt's QKeySequence.StandardKey names)
STANDARD_KEYS: Final = frozenset({"Undo", "Redo", "Find", "Quit", "Print"})


@dataclass(frozen=True, slots=True)
class ActionSpec:
    """One action: ``id`` (the QAction's object name), its key (a key sequence, a
    :data:`STANDARD_KEYS` name, or None), the menu it is listed in (None: a key only), the
    interface string that titles it, and the window's method that handles it with its arguments."""

    id: str
    key: str | None
    menu: Menu | None
    title: str
    handler: str
    args: tuple[object, ...] = ()
    checkable: bool = False


ACTIONS: Final[tuple[ActionSpec, ...]] = (
    # the dials (keys only: the panel has their buttons)
    ActionSpec("year_fwd", "Y", None, "key_year_fwd", "step_dial", ("year", 1)),
    ActionSpec("year_back", "Shift+Y", None, "key_year_back", "step_dial", ("year", -1)),
    ActionSpec("month_fwd", "M", None, "key_month_fwd", "step_dial", ("month", 1)),
    ActionSpec("month_back", "Shift+M", None, "key_month_back", "step_dial", ("month", -1)),
    ActionSpec("xun_fwd", "X", None, "key_xun_fwd", "step_dial", ("xun", 1)),
    ActionSpec("xun_back", "Shift+X", None, "key_xun_back", "step_dial", ("xun", -1)),
    ActionSpec("day_fwd", "D", None, "key_day_fwd", "step_dial", ("day", 1)),
    ActionSpec("day_back", "Shift+D", None, "key_day_back", "step_dial", ("day", -1)),
    ActionSpec("hour_fwd", "H", None, "hour_fwd", "step_dial", ("hour", 1)),
    ActionSpec("hour_back", "Shift+H", None, "hour_back", "step_dial", ("hour", -1)),
    ActionSpec("now", "N", None, "now", "set_now"),
    # 文件
    ActionSpec("export", "Ctrl+E", "file", "export", "export_dialog"),
    ActionSpec("print", "Print", "file", "print", "print_dialog"),
    ActionSpec("booklet", None, "file", "booklet", "booklet_dialog"),
    ActionSpec("export_page", None, "file", "export_page", "export_page_dialog"),
    ActionSpec("export_kit", None, "file", "export_kit", "export_kit_dialog"),
    ActionSpec("copy_image", "Ctrl+Shift+C", "file", "copy_image", "copy_image"),
    ActionSpec("quit", "Quit", "file", "quit", "close"),
    # 编辑
    ActionSpec("undo", "Undo", "edit", "undo", "undo"),
    ActionSpec("redo", "Redo", "edit", "redo", "redo"),
    ActionSpec("find", "Find", "edit", "search", "focus_search"),
    ActionSpec("find_moment", "Ctrl+Shift+F", "edit", "find_moment", "show_find_moment"),
    # 显示
    ActionSpec("side_panel", "F9", "view", "side_panel", "toggle_side_panel", checkable=True),
    ActionSpec("tables", "T", "view", "tables", "show_tables"),
    ActionSpec("systems", "B", "view", "systems", "show_systems"),
    ActionSpec("present", "F5", "view", "present", "toggle_presentation"),
    ActionSpec("quiz", "Q", "view", "quiz", "start_quiz"),
    ActionSpec("layout", "L", "view", "layout", "toggle_layout"),
    ActionSpec("one_plate", "V", "view", "one_plate", "cycle_one_plate"),
    ActionSpec("zoom", "Z", "view", "zoom_quadrant", "toggle_zoom"),
    ActionSpec("orientation", "O", "view", "orientation", "toggle_orientation"),
    ActionSpec("paper", "P", "view", "paper_mode", "toggle_paper"),
    ActionSpec("pinyin", None, "view", "plate_pinyin", "toggle_pinyin", checkable=True),
    ActionSpec("reset_view", "0", "view", "reset_view", "reset_view"),
    # 帮助
    ActionSpec("shortcuts", "F1", "help", "shortcuts", "show_shortcuts"),
    ActionSpec("about", None, "help", "about", "show_about"),
)

MENUS: Final[tuple[Menu, ...]] = ("file", "edit", "view", "help")


@dataclass(frozen=True, slots=True)
class PresentKey:
    """A key of presentation mode: what it does (``id``), the keys (Qt key names without ``Key_``)
    and the interface string that says it."""

    id: str
    keys: tuple[str, ...]
    title: str


PRESENT_KEYS: Final[tuple[PresentKey, ...]] = (
    PresentKey("next", ("PageDown", "Right", "Down", "Space", "Return", "Enter"), "pk_next"),
    PresentKey("previous", ("PageUp", "Left", "Up", "Backspace"), "pk_previous"),
    PresentKey("dial", ("1", "2", "3", "4", "5"), "pk_dial"),
    PresentKey("spot_next", ("Tab", "BracketRight"), "pk_spot_next"),
    PresentKey("spot_previous", ("Backtab", "BracketLeft"), "pk_spot_previous"),
    PresentKey("play", ("P",), "pk_play"),
    PresentKey("blackout", ("B", "Period"), "pk_blackout"),
    PresentKey("quiz", ("Q",), "pk_quiz"),
    PresentKey("zoom", ("Z",), "pk_zoom"),
    PresentKey("leave", ("Escape", "F5"), "pk_leave"),
)
