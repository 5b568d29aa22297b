"""The main window: the plate canvas, the side panel, menus, shortcuts, status line and settings."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from functools import partial
from typing import TYPE_CHECKING

from PySide6.QtCore import QByteArray, Qt, QTimer
from PySide6.QtGui import QAction, QCloseEvent, QKeySequence
from PySide6.QtWidgets import (QApplication, QBoxLayout, QLabel, QMainWindow, QMenu, QMessageBox, QScrollArea, QSplitter, QVBoxLayout,
                               QWidget)

from shensha_plates.core.catalog import Catalog
from shensha_plates.core.cycle import BRANCHES
from shensha_plates.core.engine import Options, State
from shensha_plates.core.errors import ShenshaError
from shensha_plates.core.lang import is_trad
from shensha_plates.gui.describe import branch_html, search_spirits, spirit_name, state_label
from shensha_plates.gui.i18n import gloss, tr
from shensha_plates.gui.lifetime import delete_on_close
from shensha_plates.gui.model import PlateModel
from shensha_plates.gui.plate.scene import ViewConfig
from shensha_plates.gui.plate.view import PlateView
from shensha_plates.gui.shell.actions import ACTIONS, MENUS, PRESENT_KEYS, STANDARD_KEYS
from shensha_plates.gui.shell.qt_language import use_qt_language
from shensha_plates.gui.shell.settings import Settings
from shensha_plates.gui.panels.side_panel import SidePanel

from shensha_plates.gui.shell.presenter import Presenter

if TYPE_CHECKING:
    from shensha_plates.core.calendar import CalendarOptions
    from shensha_plates.gui.panels.classroom import ClassroomPanel, QuizDialog
    from shensha_plates.gui.panels.lesson import LessonPanel
    from shensha_plates.gui.panels.tables import TablesDialog
    from shensha_plates.gui.panels.systems import SystemsDialog
    from shensha_plates.gui.panels.find_dialog import FindDialog
    from shensha_plates.gui.export.options import SnapshotOptions

__all__ = ["MainWindow"]

Shortcut = str | QKeySequence | QKeySequence.StandardKey | None

# presentation's keys as the F1 sheet writes them
_KEY_NAMES = {"Escape": "Esc", "BracketRight": "]", "BracketLeft": "[", "Period": ".", "Backtab": "Shift+Tab",
              "Right": "→", "Left": "←", "Up": "↑", "Down": "↓", "Return": "Enter", "Enter": "Enter (keypad)"}


class MainWindow(QMainWindow):
    def __init__(self, settings: Settings | None = None, catalog: Catalog | None = None) -> None:
        super().__init__()
        self.setObjectName("main_window")
        self.settings = settings or Settings()
        self.first_run_hint: QLabel | None = None  # shown below, once the status line exists
        self.model = PlateModel(self._initial_state(), self._initial_options(), catalog,
                                lang=self.settings.get("lang"))
        self.view = PlateView(self.model)
        self.view.setObjectName("plate_view")
        use_qt_language(self.model.lang)  # Qt's own buttons and dialogs in the interface's language
        self.panel = SidePanel()
        cat = self.model.catalog
        self.panel.set_search_names([n for sp in cat.spirits for n in (sp.name, sp.name_trad, *sp.aliases)])
        scroll = QScrollArea()
        scroll.setWidget(self.panel)
        scroll.setWidgetResizable(True)
        scroll.setMinimumWidth(330)
        self.panel_container = scroll
        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        self.splitter.addWidget(self.view)
        self.splitter.addWidget(scroll)
        # the canvas takes whatever the panel does not need: the plates are what the window is for
        self.splitter.setStretchFactor(0, 1)
        self.splitter.setStretchFactor(1, 0)
        self.setCentralWidget(self.splitter)
        self.tables: TablesDialog | None = None
        self.systems: SystemsDialog | None = None
        self.find_moment: FindDialog | None = None
        self.quiz: QuizDialog | None = None
        self.selected_branch: int | None = None
        self.last_error: str | None = None
        self._error_box: QMessageBox | None = None
        self._build_actions()
        # The classroom tab is built when it is first shown or used (start-up does not wait for it),
        # in a scroll area of its own, so that its height does not crowd out the details below.
        self._classroom: ClassroomPanel | None = None
        self.classroom_scroll = QScrollArea()
        self.classroom_scroll.setWidgetResizable(True)
        self.classroom_scroll.setFrameShape(QScrollArea.Shape.NoFrame)
        self.panel.tabs.addTab(self.classroom_scroll, "")
        self.panel.tabs.currentChanged.connect(self._tab_shown)
        self.presenter = Presenter(self, parent=self)
        self._build_lesson_tab()
        self._connect()
        self.panel.set_view_options({k: self.settings.get(k) for k in
                                     ("layout", "orientation", "text_mode", "lang", "mountains", "english",
                                      "reduce_motion")} | {"paper": False})
        self.panel.zone.setEditText(self.settings.get("calendar/zone"))
        for combo, key in ((self.panel.year_start, "calendar/year_start"), (self.panel.month_basis, "calendar/month_basis"),
                           (self.panel.zi_hour, "calendar/zi_hour")):
            combo.setCurrentIndex(max(0, combo.findData(self.settings.get(key))))
        self._apply_view_options(first=True)
        geometry = self.settings.raw().value("window/geometry")
        if not (isinstance(geometry, QByteArray) and self.restoreGeometry(geometry)):
            self.fit_to_screen()
        self.model.subscribe(self._on_model)
        self._on_model("state")
        self._on_model("history")
        self._restore_querent()
        self._restore_liuren_choices()
        if not self.settings.get("first_run_hint_done"):
            self._show_first_run_hint()
        self._settings_told = False  # "settings will not be saved" is said once
        if self.settings.notice or self.settings.unsaved:
            QTimer.singleShot(0, self._tell_settings_problems)

    @property
    def classroom(self) -> ClassroomPanel:
        """The classroom panel, built on first use."""
        if self._classroom is None:
            from shensha_plates.gui.panels.classroom import ClassroomPanel
            panel = ClassroomPanel(self.model, self.view, self.actions_by_name)
            self._classroom = panel
            self.classroom_scroll.setWidget(panel)
            panel.retranslate(self.panel.english.isChecked())
        return self._classroom

    def _tab_shown(self, index: int) -> None:
        if self.panel.tabs.widget(index) is self.classroom_scroll:
            self.classroom  # noqa: B018 - built on first show

    def fit_to_screen(self) -> None:
        """Open as large as the screen the window is on (the first time; afterwards its remembered size)."""
        screen = self.screen() or QApplication.primaryScreen()
        if screen is None:
            self.resize(1440, 900)
            return
        area = screen.availableGeometry()
        self.setGeometry(area)
        self.splitter.setSizes([max(200, area.width() - 360), 360])

    # -- start-up ------------------------------------------------------------------------------
    def _tell_settings_problems(self) -> None:
        """One notice for the settings file: moved aside because damaged, and/or not writable."""
        lang, s = self.model.lang, self.settings
        parts = []
        if s.notice:
            parts.append(tr("settings_reset", lang, path=s.notice))
        if s.unsaved and not self._settings_told:
            parts.append(tr("settings_unsaved", lang, path=str(s.path), reason=s.unsaved))
            self._settings_told = True
        if parts:
            self.show_message(" ".join(parts))

    def _initial_state(self) -> State:
        s = self.settings
        try:
            return State.parse(s.get("state/year"), s.get("state/month"), s.get("state/xun") or None,
                               s.get("state/day") or None, s.get("state/hour") or None)
        except ValueError:
            return State.parse("甲子", 1, "甲子")

    def _initial_options(self) -> Options:
        raw = self.settings.get("variants")
        try:
            return Options.from_choices([c for c in raw.split(",") if c.strip()])
        except ValueError:
            return Options()

    # -- actions -------------------------------------------------------------------------------
    def _action(self, name: str, shortcut: Shortcut, slot: Callable[[], object]) -> QAction:
        act = QAction(self)
        act.setObjectName(name)
        if shortcut:
            act.setShortcut(QKeySequence(shortcut))
        act.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
        act.triggered.connect(slot)
        self.addAction(act)
        return act

    def _build_actions(self) -> None:
        """The actions and menus, from the one table of :mod:`~shensha_plates.gui.shell.actions`."""
        self.actions_by_name: dict[str, QAction] = {}
        for spec in ACTIONS:
            key: Shortcut = None
            if spec.key in STANDARD_KEYS:
                key = getattr(QKeySequence.StandardKey, spec.key)
            elif spec.key:
                key = spec.key
            handler: Callable[..., object] = getattr(self, spec.handler)
            slot: Callable[[], object] = partial(handler, *spec.args)
            act = self._action(spec.id, key, slot)
            act.setCheckable(spec.checkable)
            self.actions_by_name[spec.id] = act
        self.actions_by_name["side_panel"].setChecked(True)
        menubar = self.menuBar()
        self.menus: dict[str, QMenu] = {name: menubar.addMenu("") for name in MENUS}
        for spec in ACTIONS:
            if spec.menu is not None:
                self.menus[spec.menu].addAction(self.actions_by_name[spec.id])
        self.menu_file, self.menu_edit = self.menus["file"], self.menus["edit"]
        self.menu_view, self.menu_help = self.menus["view"], self.menus["help"]

    # the handlers the table names that are not the window's own methods elsewhere
    def step_dial(self, dial: str, delta: int) -> None:
        self.model.step(dial, delta)
        self.dismiss_first_run_hint()  # the keys have been found

    def undo(self) -> None:
        self.model.undo()

    def redo(self) -> None:
        self.model.redo()

    def focus_search(self) -> None:
        self.panel.search.setFocus()

    def toggle_layout(self) -> None:
        self._toggle_combo(self.panel.layout_combo)

    def toggle_orientation(self) -> None:
        self._toggle_combo(self.panel.orientation)

    def toggle_paper(self) -> None:
        self.panel.paper.toggle()

    def reset_view(self) -> None:
        self._zoom = 0
        self.view.reset_view()

    def toggle_zoom(self) -> None:
        """Z: the quadrant of the lower plate round the selected branch, then the upper plate's, then
        everything again (with one plate shown, its quadrant and back)."""
        plates = [p for p in ("lower", "upper") if p in self.view.groups]
        self._zoom = (getattr(self, "_zoom", 0) + 1) % (len(plates) + 1)
        if self._zoom == 0:
            self.view.reset_view()
            return
        branch = self.selected_branch
        if branch is None:
            branch = 6 if self.view.config.orientation == "south" else 0
        self.view.zoom_quadrant(plates[self._zoom - 1], branch)

    def _toggle_combo(self, combo: object) -> None:
        c = combo  # QComboBox
        c.setCurrentIndex((c.currentIndex() + 1) % c.count())  # type: ignore[attr-defined]
        self._apply_view_options()

    def _connect(self) -> None:
        p = self.panel
        p.sigDials.connect(lambda st: self.model.set_state(st))
        p.sigStep.connect(self.model.step)
        p.sigDate.connect(self.set_date)
        p.sigNow.connect(self.set_now)
        p.sigView.connect(self._apply_view_options)
        p.sigSearch.connect(self.search)
        p.sigSnap.connect(self.model.snap_to_consistent)
        p.sigInvalid.connect(self.show_message)
        p.sigGeneral.connect(self.model.set_general)
        p.sigHeaven.connect(self._apply_heaven_options)
        self.view.sigBranchClicked.connect(self._branch_clicked)
        self.view.sigBranchHovered.connect(self._hover)
        self.view.sigTurned.connect(self.dismiss_first_run_hint)
        self.view.sigBranchClicked.connect(lambda _b: self.dismiss_first_run_hint())

    # -- following the model -------------------------------------------------------------------
    def _on_model(self, event: str) -> None:
        lang = self.model.lang
        if event in ("state", "lang"):
            self.panel.show_state(self.model.state)
            if self.lesson_visible():
                self.lesson.show_options()
                self.lesson.refresh()
            self.view.heaven["TH"].set_lit(frozenset())
            self._update_status()
            self._show_details(self.selected_branch)
            if self.panel.search.text().strip():
                self.search(self.panel.search.text(), quiet=True)
        if event in ("state", "querent", "lang"):
            nm = self.model.nian_ming()
            if nm is None:
                self.view.show_years(())
            else:
                from shensha_plates.gui.lesson_text import year_marks
                self.view.show_years(year_marks(nm, lang))
        if event == "paper":
            self._update_status()
        if event == "history":
            self.actions_by_name["undo"].setEnabled(self.model.can_undo())
            self.actions_by_name["redo"].setEnabled(self.model.can_redo())
        if event == "lang":
            use_qt_language(self.model.lang)
            self._retranslate()
        if event == "message" and self.model.message is not None:
            if self.model.message.error:
                self.show_message(self.model.message.text)
            else:
                self.statusBar().showMessage(self.model.message.text, 6000)
        del lang

    def _update_status(self) -> None:
        lang = self.model.lang
        text = state_label(self.model.state, lang)
        cal = self.model.calendar
        if cal is not None:
            text += f"　{cal.moment.strftime('%Y-%m-%d %H:%M')} {cal.options.zone}"
        text += self._liuren_status()
        if self.model.paper:
            c = self.model.consistency()
            if c.consistent:
                msg = tr("paper_consistent", lang, state=state_label(c.nearest, lang))
            else:
                msg = tr("paper_inconsistent", lang, rings="、".join(c.off_rings), state=state_label(c.nearest, lang))
            self.panel.paper_status.setText(msg)
            self.panel.snap.setVisible(not c.consistent)
            text += "　" + msg
            heaven = self._heaven_paper_status()
            if heaven:
                text += "　" + heaven
                self.panel.paper_status.setText(msg + "\n" + heaven)
                self.panel.snap.setVisible(True if not self.model.heaven_agrees() else not c.consistent)
        else:
            self.panel.paper_status.setText("")
            self.panel.snap.setVisible(False)
        self.statusBar().showMessage(text)
        self.setWindowTitle(f"{tr('app_title', lang)} — {state_label(self.model.state, lang)}")

    # -- the lesson panel (课传) ------------------------------------------------------------------
    def _build_lesson_tab(self) -> None:
        # The lesson panel (and the Liu Ren method behind it) is built when its tab is first shown or
        # the panel is first used: start-up does not wait for it. Its page holds the tab till then.
        self._lesson: LessonPanel | None = None
        self.lesson_page = QWidget()
        QVBoxLayout(self.lesson_page).setContentsMargins(0, 0, 0, 0)
        self.panel.tabs.addTab(self.lesson_page, "")
        self.panel.tabs.currentChanged.connect(lambda _i: self._lesson_tab_shown())

    @property
    def lesson(self) -> LessonPanel:
        """The lesson panel (课传), built on first use."""
        if self._lesson is None:
            from shensha_plates.gui.panels.lesson import LessonPanel
            panel = LessonPanel(self.model, english=lambda: self.panel.english.isChecked())
            self._lesson = panel
            layout = self.lesson_page.layout()
            assert layout is not None
            layout.addWidget(panel)
            panel.sigShow.connect(self.show_on_plate)
            panel.sigWalk.connect(self._walk_step)
            panel.retranslate()
        return self._lesson

    @property
    def lesson_if_built(self) -> LessonPanel | None:
        """The lesson panel if it has been built (nothing to ask of it otherwise: no walk running)."""
        return self._lesson

    def lesson_visible(self) -> bool:
        return self.panel.tabs.currentWidget() is self.lesson_page

    def _lesson_tab_shown(self) -> None:
        # the lesson needs the room: its tab takes most of the panel's height while shown
        layout = self.panel.layout()
        if isinstance(layout, QBoxLayout):
            layout.setStretch(layout.indexOf(self.panel.tabs), 5 if self.lesson_visible() else 0)
        self.panel.details.setMaximumHeight(96 if self.lesson_visible() else 16777215)
        if self.lesson_visible():
            self.lesson.refresh()

    def show_lesson(self) -> None:
        self.lesson  # noqa: B018 - built before its tab is shown
        self.panel.tabs.setCurrentWidget(self.lesson_page)

    def _walk_step(self, step: object) -> None:
        """A step of the lesson's walk-through shown on the plate (None: the walk ended)."""
        from shensha_plates.gui.lesson_text import WalkStep
        if isinstance(step, WalkStep):
            self.view.heaven["TH"].set_lit(step.heaven)
            if step.earth is not None:
                self.select_branch(step.earth)
            self.view.show_transmissions(step.arrows)
            self.statusBar().showMessage(step.words, 15000)
        else:
            self.view.heaven["TH"].set_lit(frozenset())
            self.view.show_transmissions(())
        self.presenter.refresh_caption()

    def show_on_plate(self, spirit_id: str, branch: int, heaven: frozenset[int]) -> None:
        """From the lesson panel: select the earth branch, light heaven slots, highlight a spirit."""
        self.select_branch(branch)
        self.view.heaven["TH"].set_lit(frozenset(heaven))
        self.view.highlight(frozenset({spirit_id}) if spirit_id else frozenset())

    def _liuren_status(self) -> str:
        """The month general in force and where it comes from, when the state has an hour."""
        m = self.model
        g = BRANCHES[m.general]
        self.panel.show_general(m.general if m.general_source == "hand" else None,
                                tr("general_src_" + m.general_source, m.lang, g=g))
        if m.state.hour is None:
            return ""
        over = f" over {BRANCHES[m.state.hour]}" if m.lang == "en" else f"加{BRANCHES[m.state.hour]}"
        return "　" + tr("general_src_" + m.general_source, m.lang, g=g) + over

    def _heaven_paper_status(self) -> str:
        """Paper mode: whether the heaven ring as turned still agrees with the month general and hour."""
        m = self.model
        if m.state.hour is None or not self.view.config.heaven:
            return ""
        g, h = BRANCHES[m.general], BRANCHES[m.state.hour]
        if m.heaven_agrees():
            return tr("heaven_agrees", m.lang, g=g, h=h)
        shown = m.heaven_hour()
        return tr("heaven_disagrees", m.lang, g=g, h=h, shown=BRANCHES[shown if shown is not None else 0])

    def _apply_heaven_options(self) -> None:
        p = self.panel
        self.view.set_heaven_options(p.heaven_rings.isChecked(), p.general_names.isChecked())
        self._update_status()

    def _retranslate(self) -> None:
        lang = self.model.lang
        english = self.panel.english.isChecked()
        self.panel.retranslate(lang, english)
        self.panel.tabs.setTabText(self.panel.tabs.indexOf(self.classroom_scroll), tr("classroom", lang))
        if self._classroom is not None:
            self._classroom.retranslate(english)
        self.panel.tabs.setTabText(self.panel.tabs.indexOf(self.lesson_page), tr("lesson_tab", lang))
        self.panel.tabs.setTabToolTip(self.panel.tabs.indexOf(self.lesson_page), gloss("lesson_tab"))
        if self._lesson is not None:
            self._lesson.retranslate()
        self.panel.show_state(self.model.state)
        for spec in ACTIONS:
            self.actions_by_name[spec.id].setText(tr(spec.title, lang))
        for name, menu in self.menus.items():
            menu.setTitle(tr(name, lang))
        if self.first_run_hint is not None:
            self.first_run_hint.setText(tr("first_run_hint", lang))
        self._follow_pinyin()
        self._update_status()

    def _restore_querent(self) -> None:
        """The querent (年命) saved last time, if any: a damaged entry is dropped without a word (the
        fields are empty again, as on a first start)."""
        birth, sex, age = (self.settings.get(k) for k in ("querent/birth", "querent/sex", "querent/age"))
        if birth and sex:  # (the Liu Ren modules load only for a querent: start-up does not wait for them)
            from shensha_plates.core.liuren.nianming import Querent
            try:
                q = Querent.parse(birth, sex, age or None)
            except ShenshaError:
                return
            p_birth, p_sex, p_age = (self.settings.get(k) for k in ("querent/partner_birth", "querent/partner_sex",
                                                                    "querent/partner_age"))
            if p_birth and p_sex:  # the partner's (繁昌 旺孕 解离): a damaged one is dropped alone
                try:
                    q = q.with_partner(Querent.parse(p_birth, p_sex, p_age or None))
                except ShenshaError:
                    pass
            self.model.set_querent(q)

    def _restore_liuren_choices(self) -> None:
        """The 课传 tab's school settings (the 行年 count among them) saved last time: only when some
        differ from the defaults (else start-up loads no Liu Ren module); a damaged entry is dropped."""
        raw = self.settings.get("liuren/choices")
        if not raw.strip():
            return
        from shensha_plates.core.liuren import KeOptions
        try:
            self.model.set_ke_options(KeOptions.from_choices([c for c in raw.split(",") if c.strip()]), record=False)
        except ShenshaError:
            return

    def _show_first_run_hint(self) -> None:
        """Once, on the first start: the discs turn by dragging, and the three keys that matter. It stands
        in the status line (over the canvas it covered names of the plate), and goes when the plate is
        first clicked or turned, and is not shown again."""
        hint = QLabel(tr("first_run_hint", self.model.lang))
        hint.setObjectName("first_run_hint")
        hint.setStyleSheet("QLabel#first_run_hint { background: #2f3b52; color: white; padding: 3px 10px;"
                           " border-radius: 5px; }")
        self.first_run_hint = hint
        self.statusBar().addPermanentWidget(hint)
        hint.show()

    def dismiss_first_run_hint(self) -> None:
        if self.first_run_hint is None:
            return
        self.first_run_hint.hide()
        self.first_run_hint.deleteLater()
        self.first_run_hint = None
        self.settings.set("first_run_hint_done", True)


    def toggle_side_panel(self) -> None:
        """显示 → 侧栏 (F9): hide or show the panel beside the plate; shown, it has its width back even
        if something had pushed the splitter's handle to the edge."""
        show = not self.panel_container.isVisible()
        self.panel_container.setVisible(show)
        if show and self.splitter.sizes()[1] < 200:
            total = sum(self.splitter.sizes())
            self.splitter.setSizes([max(200, total - 360), 360] + self.splitter.sizes()[2:])
        act = self.actions_by_name["side_panel"]
        act.setChecked(show)

    def toggle_pinyin(self) -> None:
        """显示 → 盘上名下注拼音: each name's pinyin under it on the discs where its slot has room; the
        choice is kept (until then it follows the language: on in English)."""
        on = self.actions_by_name["pinyin"].isChecked()
        self.settings.set("plate_pinyin", "on" if on else "off")
        self.view.set_readings(on)

    def _follow_pinyin(self) -> None:
        """The pinyin setting as it applies now (``auto``: on in English, off in Chinese)."""
        choice = self.settings.get("plate_pinyin")
        on = choice == "on" or (choice == "auto" and self.model.lang == "en")
        self.actions_by_name["pinyin"].setChecked(on)
        self.view.set_readings(on)

    def cycle_one_plate(self) -> None:
        """V: both plates → the lower plate alone → the upper plate alone → both."""
        order = ("both", "lower", "upper")
        self.view.set_one_plate(order[(order.index(self.view.config.plate) + 1) % 3])
        self.actions_by_name["one_plate"].setText(tr("one_plate", self.model.lang) + "：" +
                                                  tr("plate_" + self.view.config.plate, self.model.lang))

    # -- view options ---------------------------------------------------------------------------
    def _apply_view_options(self, first: bool = False) -> None:
        opts = self.panel.view_options()
        config = ViewConfig(layout=str(opts["layout"]), orientation=str(opts["orientation"]),
                            text_mode=str(opts["text_mode"]), mountains=bool(opts["mountains"]),
                            plate=self.view.config.plate)
        self.view.set_reduce_motion(bool(opts["reduce_motion"]))
        if config != self.view.config:  # the view was built with its default configuration
            self.view.apply_config(config)
        self.model.set_paper(bool(opts["paper"]))
        if opts["lang"] != self.model.lang:
            self.model.set_lang(str(opts["lang"]))
        else:
            self._retranslate()
        self._show_details(self.selected_branch)

    # -- user actions --------------------------------------------------------------------------
    def show_message(self, text: str) -> None:
        """A clear message in the status line and a non-blocking notice; nothing else changes."""
        self.last_error = text
        self.statusBar().showMessage(f"{tr('invalid_input', self.model.lang)}：{text}", 8000)
        # one notice, reused: a string of bad entries updates it instead of piling up windows
        box = self._error_box
        if box is None:
            box = delete_on_close(QMessageBox(QMessageBox.Icon.Warning, "", "", QMessageBox.StandardButton.Ok, self),
                                  self, "_error_box")
            box.setObjectName("error_box")
            box.setWindowModality(Qt.WindowModality.NonModal)
        box.setWindowTitle(tr("error", self.model.lang))
        box.setText(text)
        box.show()

    def calendar_options(self, zone: str, year_start: str, month_basis: str, zi_hour: str) -> CalendarOptions:
        # the calendar (and lunar-python's tables) loads when a date is first used, not at start-up
        from shensha_plates.core.calendar import CalendarOptions
        return CalendarOptions(zone=zone or "Asia/Shanghai", year_start=year_start, month_basis=month_basis,
                               zi_hour=zi_hour)

    def set_date(self, text: str, zone: str, year_start: str, month_basis: str, zi_hour: str) -> None:
        from shensha_plates.core.calendar import from_datetime, parse_datetime
        try:
            opts = self.calendar_options(zone, year_start, month_basis, zi_hour)
            info = from_datetime(parse_datetime(text, opts), opts)
        except ShenshaError as e:
            self.show_message(str(e))
            return
        self._remember_calendar(opts)
        self.model.set_state(info.state, calendar=info)

    def set_now(self) -> None:
        from shensha_plates.core.calendar import from_datetime, now
        p = self.panel
        try:
            opts = self.calendar_options(p.zone.currentText().strip(), p.year_start.currentData(),
                                         p.month_basis.currentData(), p.zi_hour.currentData())
            moment = now(opts)
            info = from_datetime(moment, opts)
        except ShenshaError as e:
            self.show_message(str(e))
            return
        p.set_date(moment.strftime("%Y-%m-%dT%H:%M"), opts.zone)
        self._remember_calendar(opts)
        self.model.set_state(info.state, calendar=info)

    def _remember_calendar(self, opts: CalendarOptions) -> None:
        s = self.settings
        s.set("calendar/zone", opts.zone)
        s.set("calendar/year_start", opts.year_start)
        s.set("calendar/month_basis", opts.month_basis)
        s.set("calendar/zi_hour", opts.zi_hour)

    def select_branch(self, branch: int) -> None:
        self.selected_branch = branch
        self.view.select_branch(branch)
        self._show_details(branch)

    def _hover(self, branch: int) -> None:
        if self.selected_branch is None:
            self._show_details(branch)

    def _show_details(self, branch: int | None) -> None:
        lang = self.model.lang
        if branch is None:
            self._set_details(f"<p style='color:#777'>{tr('click_hint', lang)}</p>")
            return
        # the conditional names the Liu Ren plate decides, with the core's reason
        decided = {n.spirit: (bool(n.in_force), n.reason_en if lang == "en" else n.reason) for n in self.model.names
                   if n.spirit is not None and n.spirit == n.id and n.in_force is not None}
        self._set_details(branch_html(self.model.plate, branch, self.model.catalog, lang,
                                      english=self.panel.english.isChecked() or self.model.lang == "en", decided=decided))

    def _set_details(self, html: str) -> None:
        # the same text again (a turn that leaves the branch's spirits as they were, a hover over the
        # same branch) is neither laid out nor painted again
        if html != getattr(self, "_details_html", None):
            self._details_html = html
            self.panel.details.setHtml(html)

    def search(self, text: str, quiet: bool = False) -> None:
        lang = self.model.lang
        if not text.strip():
            self.view.highlight(frozenset())
            return
        found = search_spirits(self.model.catalog, text)
        ids = frozenset(s.id for s in found)
        self.view.highlight(ids)
        if not found:
            if not quiet:
                self.statusBar().showMessage(tr("search_none", lang, text=text), 6000)
            return
        plate = self.model.plate
        where = []
        for s in found:
            places = plate.find(s.id)
            if places:
                where.append(spirit_name(s, lang) + "：" + "、".join(sorted({p.at for p in places})))
        msg = "；".join(where) if where else tr("search_none", lang, text=text)
        self.statusBar().showMessage(msg, 10000)
        self.last_search = msg

    def _branch_clicked(self, branch: int) -> None:
        """A click selects a branch; Shift+click shows the relations between the selected one and it;
        during a quiz question that asks for a branch, a click answers it."""
        if self.quiz is not None and self.quiz.waiting_for_click():
            self.quiz.answer(branch)
            self.select_branch(branch)
            return
        shift = QApplication.keyboardModifiers() & Qt.KeyboardModifier.ShiftModifier
        if shift and self.selected_branch is not None:
            self.show_relation(BRANCHES[self.selected_branch], BRANCHES[branch])
            return
        self.select_branch(branch)

    def show_find_moment(self) -> FindDialog:
        """查找吉日吉时: the find dialog, opened at the current state's year; a result sets the dials."""
        if self.find_moment is None:
            import datetime as _dt

            from shensha_plates.gui.panels.find_dialog import FindDialog
            dialog = FindDialog(self, self.model.lang, self.panel.zone.currentText().strip(), _dt.date.today(),
                                on_error=self.show_message)
            dialog.sigPicked.connect(self._go_to_moment)
            delete_on_close(dialog, self, "find_moment")
        assert self.find_moment is not None
        self.find_moment.show()
        self.find_moment.raise_()
        return self.find_moment

    def _go_to_moment(self, moment: object) -> None:
        from shensha_plates.core.calendar import from_datetime
        p = self.panel
        try:
            opts = self.calendar_options(p.zone.currentText().strip(), p.year_start.currentData(),
                                         p.month_basis.currentData(), p.zi_hour.currentData())
            info = from_datetime(moment, opts)  # type: ignore[arg-type]
        except ShenshaError as e:
            self.show_message(str(e))
            return
        self.model.set_state(info.state, calendar=info)

    def show_systems(self) -> SystemsDialog:
        if self.systems is None:
            from shensha_plates.gui.panels.systems import SystemsDialog
            delete_on_close(SystemsDialog(self.model, self, zone=self.panel.zone.currentText().strip(),
                                          on_error=self.show_message), self, "systems")
        assert self.systems is not None
        self.systems.show()
        self.systems.raise_()
        return self.systems

    def toggle_presentation(self) -> None:
        if self.presenter.active:
            self.presenter.exit()
        else:
            self.presenter.enter(self.classroom.screen_combo.currentData())

    def start_quiz(self, seed: int | None = None) -> QuizDialog:
        from shensha_plates.gui.panels.classroom import QuizDialog
        if self.quiz is not None:
            self.quiz.close()
        quiz = delete_on_close(QuizDialog(self.model, self.view, self, seed), self, "quiz")
        if self.presenter.active:
            self.presenter.embed_quiz(quiz)  # in the room: in the column beside the plate, in its type
        else:
            quiz.show()
        return quiz

    def show_relation(self, first: str, second: str) -> None:
        self.show_systems().show_relation(first, second)

    def show_tables(self) -> None:
        if self.tables is None:
            from shensha_plates.gui.panels.tables import TablesDialog
            delete_on_close(TablesDialog(self.model, self), self, "tables")
        assert self.tables is not None
        self.tables.show()
        self.tables.raise_()

    def shortcut_sheet(self) -> str:
        """F1: every key there is, from the one table of actions and presentation's keys (so the sheet
        cannot leave one out), then the mouse."""
        lang = self.model.lang
        rows = []
        for spec in ACTIONS:
            key = self.actions_by_name[spec.id].shortcut().toString(QKeySequence.SequenceFormat.NativeText)
            if key:
                rows.append(f"{key}　{tr(spec.title, lang).rstrip('…')}")
        rows.append("")
        rows.append(tr("present_keys", lang))
        for pk in PRESENT_KEYS:
            rows.append(" / ".join(_KEY_NAMES.get(k, k) for k in pk.keys) + "　" + tr(pk.title, lang))
        return "\n".join(rows) + "\n\n" + tr("shortcut_mouse", lang)

    def show_shortcuts(self) -> None:
        QMessageBox.information(self, tr("shortcuts", self.model.lang), self.shortcut_sheet())

    def about_text(self) -> str:
        """帮助 → 关于: the version (package metadata), the licence and the books of the sources."""
        import shensha_plates
        from shensha_plates.core.catalog import SEED_BOOKS
        trad = is_trad(self.model.lang)
        books = "\n".join(b[2] if trad else b[1] for _, b in sorted(SEED_BOOKS.items()))
        return tr("about_text", self.model.lang, version=shensha_plates.__version__, books=books)

    def show_about(self) -> None:
        QMessageBox.about(self, tr("about", self.model.lang), self.about_text())

    # -- snapshots -----------------------------------------------------------------------------
    def snapshot_options(self, fmt: str = "png") -> SnapshotOptions:
        from shensha_plates.gui.export.dialog import load_snapshot_options
        from shensha_plates.gui.export.options import SnapshotOptions
        base = SnapshotOptions(fmt=fmt, lang=self.model.lang, view=self.view.config)
        return replace(load_snapshot_options(self.settings.raw(), base), fmt=fmt, lang=self.model.lang,
                       view=self.view.config, lesson=self.model.ke,  # the lesson, when the state has one
                       nian_ming=self.model.nian_ming(), day=self.model.day_facts())

    def export_to(self, path: str, opts: SnapshotOptions | None = None) -> bool:
        """Write the current plate to ``path``; a failure is reported and nothing is left behind.
        A read-only file is replaced only when the user confirms it (:meth:`confirm_replace`)."""
        from shensha_plates.gui.export.options import ReadOnlyError, format_from_path
        from shensha_plates.gui.export.snapshot import export
        replace_read_only = False
        while True:
            try:
                fmt = format_from_path(path)
                options = replace(opts, fmt=fmt) if opts is not None else self.snapshot_options(fmt)
                export(path, self.model.plate, self.model.calendar, options, self.model.catalog,
                       replace_read_only=replace_read_only)
            except ReadOnlyError as e:
                if not replace_read_only and self.confirm_replace(path):
                    replace_read_only = True
                    continue
                self.show_message(str(e))
                return False
            except ShenshaError as e:
                self.show_message(str(e))
                return False
            except (OSError, MemoryError) as e:  # never out of the slot: one message
                self.show_message(f"cannot write {path!r}: {getattr(e, 'strerror', None) or e or 'out of memory'}")
                return False
            break
        self.statusBar().showMessage(path, 6000)
        return True

    def export_dialog(self) -> None:
        from PySide6.QtWidgets import QFileDialog
        from shensha_plates.gui.export.dialog import ExportOptionsDialog, save_snapshot_options
        dlg = ExportOptionsDialog(self.snapshot_options(), self.model.lang, self)
        try:
            if dlg.exec() != dlg.DialogCode.Accepted:
                return
            opts = dlg.options()
        finally:
            dlg.deleteLater()
        save_snapshot_options(self.settings.raw(), opts)
        path, _ = QFileDialog.getSaveFileName(self, tr("export", self.model.lang),
                                              state_label(self.model.state, self.model.lang).replace(" ", "_") + ".pdf",
                                              "PDF (*.pdf);;PNG (*.png);;SVG (*.svg)")
        if path:
            self.export_to(path, opts)

    def export_page_to(self, path: str) -> bool:
        """文件 → 网页: the interactive page at this state (year, month, xun, day, hour) with the month
        general in force when it was set by hand or came from a date, and the school's Liu Ren
        choices; a failure is reported and nothing is left behind."""
        from shensha_plates.core.datafile import write_atomic
        from shensha_plates.core.page import page_html
        m = self.model
        source = m.general_source
        try:
            write_atomic(path, page_html(m.state, m.options, m.catalog, m.lang, ke_options=m.ke_options,
                                         general=None if source == "month" else m.general,
                                         general_source="date" if source == "date" else "hand").encode("utf-8"))
        except (OSError, ShenshaError) as e:
            self.show_message(tr("page_failed", self.model.lang, path=path, reason=getattr(e, "strerror", None) or str(e)))
            return False
        self.statusBar().showMessage(tr("cls_saved", self.model.lang, path=path), 6000)
        return True

    def export_kit_to(self, path: str, paper: str = "A4") -> bool:
        """文件 → 纸盘: Zhuang's plates to cut out; a failure is reported and nothing is left behind."""
        from shensha_plates.gui.export.kit import write_kit
        try:
            write_kit(path, paper, self.model.lang, self.model.options)
        except (OSError, ShenshaError) as e:
            self.show_message(tr("page_failed", self.model.lang, path=path, reason=getattr(e, "strerror", None) or str(e)))
            return False
        self.statusBar().showMessage(tr("cls_saved", self.model.lang, path=path), 6000)
        return True

    def export_kit_dialog(self) -> None:
        from PySide6.QtWidgets import QFileDialog
        path, chosen = QFileDialog.getSaveFileName(self, tr("export_kit", self.model.lang), "神煞旋盘-纸盘.pdf",
                                                   "A4 PDF (*.pdf);;A3 PDF (*.pdf)")
        if path:
            self.export_kit_to(path, "A3" if chosen.startswith("A3") else "A4")

    def export_page_dialog(self) -> None:
        from PySide6.QtWidgets import QFileDialog
        path, _ = QFileDialog.getSaveFileName(self, tr("export_page", self.model.lang),
                                              state_label(self.model.state, self.model.lang).replace(" ", "_") + ".html",
                                              "HTML (*.html)")
        if path:
            self.export_page_to(path)

    def confirm_replace(self, path: str) -> bool:
        """Ask whether to replace the read-only file ``path`` (No by default)."""
        lang = self.model.lang
        answer = QMessageBox.question(self, tr("read_only_title", lang), tr("read_only_replace", lang, name=path),
                                      QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
                                      QMessageBox.StandardButton.No)
        return answer == QMessageBox.StandardButton.Yes

    def booklet_dialog(self) -> None:
        from shensha_plates.gui.export.booklet_dialog import booklet_from_window
        booklet_from_window(self)

    def print_to(self, printer: object) -> None:
        from PySide6.QtCore import QRectF
        from PySide6.QtGui import QPainter
        from shensha_plates.gui.export.page_paint import paint_pages
        opts = replace(self.snapshot_options("pdf"), transparent=True)
        painter = QPainter(printer)  # type: ignore[call-overload]
        try:
            rect = printer.pageLayout().paintRectPixels(printer.resolution())  # type: ignore[attr-defined]
            paint_pages(painter, QRectF(0, 0, rect.width(), rect.height()), self.model.plate, self.model.calendar,
                        opts, self.model.catalog, new_page=printer.newPage)  # type: ignore[attr-defined]
        finally:
            painter.end()

    def print_dialog(self) -> None:
        from PySide6.QtPrintSupport import QPrinter, QPrintPreviewDialog
        printer = QPrinter(QPrinter.PrinterMode.HighResolution)
        preview = QPrintPreviewDialog(printer, self)
        preview.paintRequested.connect(self.print_to)
        try:
            preview.exec()
        finally:
            preview.deleteLater()

    def copy_image(self) -> None:
        from shensha_plates.gui.export.snapshot import render_image
        img = render_image(self.model.plate, self.model.calendar, replace(self.snapshot_options("png"), width=1800))
        QApplication.clipboard().setImage(img)
        self.statusBar().showMessage(tr("copy_image", self.model.lang), 4000)

    # -- closing -------------------------------------------------------------------------------
    def save_settings(self) -> None:
        s = self.settings
        st = self.model.state
        opts = self.panel.view_options()
        for key in ("layout", "orientation", "text_mode", "lang", "mountains", "english", "reduce_motion"):
            s.set(key, opts[key])
        s.set("state/year", st.year_name)
        s.set("state/month", st.month)
        s.set("state/xun", ["甲子", "甲戌", "甲申", "甲午", "甲辰", "甲寅"][st.xun])
        from shensha_plates.core.cycle import BRANCHES, pillar_name
        s.set("state/day", "" if st.day is None else pillar_name(st.day))
        s.set("state/hour", "" if st.hour is None else BRANCHES[st.hour])
        s.set("variants", ",".join(f"{a}={b}" for a, b in self.model.options.variants))
        q = self.model.querent
        s.set("querent/birth", "" if q is None else q.birth_text)
        s.set("querent/sex", "" if q is None else q.sex)
        s.set("querent/age", "" if q is None or q.age is None else str(q.age))
        p = None if q is None else q.partner
        s.set("querent/partner_birth", "" if p is None else p.birth_text)
        s.set("querent/partner_sex", "" if p is None else p.sex)
        s.set("querent/partner_age", "" if p is None or p.age is None else str(p.age))
        s.set("liuren/choices", ",".join(self.model.ke_choices))
        s.raw().setValue("window/geometry", self.saveGeometry())
        if not s.sync() and not self._settings_told:  # it became unwritable during the session
            self._settings_told = True
            QMessageBox.warning(self, tr("error", self.model.lang),
                                tr("settings_unsaved", self.model.lang, path=str(s.path), reason=s.unsaved))

    def closeEvent(self, event: QCloseEvent) -> None:
        # a classroom never opened holds no lesson to save
        if self._classroom is not None and not self._classroom.maybe_save():  # Cancel, or a failed save: stay
            event.ignore()
            return
        self.save_settings()
        super().closeEvent(event)
