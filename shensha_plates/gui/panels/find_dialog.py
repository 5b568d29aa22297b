"""查找吉日吉时: the ``find`` command in a dialog. Conditions are typed one a line or put together from a
spirit and a place; the range is searched a slice at a time on the event loop (a progress bar, a stop
button, the window stays alive), the results fill a list, and a click on one turns the dials to it.
The search itself is the core's (:func:`shensha_plates.core.find.search`); this module only asks and
shows."""

from __future__ import annotations

import datetime as _dt
from collections.abc import Callable, Iterator

from PySide6.QtCore import QDate, Qt, QTimer, Signal
from PySide6.QtWidgets import (QCheckBox, QComboBox, QDateEdit, QDialog, QFormLayout, QHBoxLayout, QLabel,
                               QListWidget, QListWidgetItem, QPlainTextEdit, QProgressBar, QPushButton,
                               QRadioButton, QVBoxLayout, QWidget)

from shensha_plates.core.catalog import default_catalog
from shensha_plates.core.cycle import BRANCHES
from shensha_plates.core.errors import ShenshaError
from shensha_plates.core.english import english
from shensha_plates.core.find import LESSON_PLACES, Match, hit_line, parse_condition, search
from shensha_plates.core.lang import name_in
from shensha_plates.gui.describe import to_lang
from shensha_plates.gui.i18n import tr

__all__ = ["FindDialog"]

_PLACES = [(b, b) for b in BRANCHES] + [(w, f"find_place_{w}") for w in ("year", "month", "day", "hour")] \
    + [(k, v) for k, v in LESSON_PLACES.items()]


def _date(q: QDate) -> _dt.date:
    return _dt.date(q.year(), q.month(), q.day())


class FindDialog(QDialog):
    """Search a range of days or hours for moments that meet the conditions; ``sigPicked`` carries the
    moment of a clicked result (an aware datetime in the search's zone)."""

    sigPicked = Signal(object)

    def __init__(self, parent: QWidget | None, lang: str, zone: str, start: _dt.date,
                 on_error: Callable[[str], None] | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("find_dialog")
        self.lang = lang
        self.zone = zone
        self._on_error = on_error
        self._run: Iterator[tuple[int, list[Match]]] | None = None
        self._timer = QTimer(self)
        self._timer.setInterval(0)
        self._timer.timeout.connect(self._step)
        self.setWindowTitle(tr("find_moment", lang).rstrip("…"))
        outer = QVBoxLayout(self)
        outer.addWidget(QLabel(tr("find_conditions", lang)))
        self.conditions = QPlainTextEdit()
        self.conditions.setPlaceholderText(tr("find_hint", lang))
        self.conditions.setMinimumHeight(90)
        outer.addWidget(self.conditions)
        pick = QHBoxLayout()
        self.spirit = QComboBox()
        self.spirit.setEditable(True)
        names = sorted({name_in(s, lang) for s in default_catalog().spirits})
        self.spirit.addItems(names)
        self.place = QComboBox()
        for value, key in _PLACES:
            label = to_lang(key, lang) if len(key) == 1 else (key if key in LESSON_PLACES.values() else tr(key, lang))
            if lang == "en" and key in LESSON_PLACES.values():  # our translation
                label = {"干上": "over the day stem", "支上": "over the day branch"}.get(key) or english().term(key)
            self.place.addItem(to_lang(label, lang), value)
        add = QPushButton(tr("find_add", lang))
        add.clicked.connect(self._add_condition)
        pick.addWidget(QLabel(tr("find_spirit", lang)))
        pick.addWidget(self.spirit, 1)
        pick.addWidget(QLabel(tr("find_place", lang)))
        pick.addWidget(self.place)
        pick.addWidget(add)
        outer.addLayout(pick)
        form = QFormLayout()
        dates = QHBoxLayout()
        self.start = QDateEdit(QDate(start.year, start.month, start.day))
        end = start + _dt.timedelta(days=364)
        self.end = QDateEdit(QDate(end.year, end.month, end.day))
        for edit in (self.start, self.end):
            edit.setCalendarPopup(True)
            edit.setDisplayFormat("yyyy-MM-dd")
            edit.setMinimumDate(QDate(1901, 1, 1))
            edit.setMaximumDate(QDate(2099, 12, 31))
        dates.addWidget(QLabel(tr("find_from", lang)))
        dates.addWidget(self.start)
        dates.addWidget(QLabel(tr("find_to", lang)))
        dates.addWidget(self.end)
        dates.addStretch(1)
        form.addRow(dates)
        every = QHBoxLayout()
        self.by_day = QRadioButton(tr("find_every_day", lang))
        self.by_hour = QRadioButton(tr("find_every_hour", lang))
        self.by_day.setChecked(True)
        self.any = QCheckBox(tr("find_any", lang))
        every.addWidget(self.by_day)
        every.addWidget(self.by_hour)
        every.addWidget(self.any)
        every.addStretch(1)
        form.addRow(every)
        outer.addLayout(form)
        run = QHBoxLayout()
        self.run_button = QPushButton(tr("find_run", lang))
        self.run_button.setDefault(True)
        self.run_button.clicked.connect(self.start_search)
        self.stop_button = QPushButton(tr("find_stop", lang))
        self.stop_button.setEnabled(False)
        self.stop_button.clicked.connect(self.stop)
        self.progress = QProgressBar()
        self.progress.setRange(0, 1000)
        self.progress.setValue(0)
        run.addWidget(self.run_button)
        run.addWidget(self.stop_button)
        run.addWidget(self.progress, 1)
        outer.addLayout(run)
        self.status = QLabel(tr("find_pick_hint", lang))
        self.status.setWordWrap(True)
        outer.addWidget(self.status)
        self.results = QListWidget()
        self.results.setMinimumHeight(200)
        self.results.itemClicked.connect(self._picked)
        self.results.itemActivated.connect(self._picked)
        outer.addWidget(self.results, 1)
        self.hits: list[Match] = []
        self.resize(720, 620)

    # -- conditions --------------------------------------------------------------------------------
    def _add_condition(self) -> None:
        name = self.spirit.currentText().strip()
        if not name:
            return
        line = f"{name}@{self.place.currentData()}"
        text = self.conditions.toPlainText().rstrip()
        self.conditions.setPlainText(f"{text}\n{line}" if text else line)

    def condition_lines(self) -> list[str]:
        return [line.strip() for line in self.conditions.toPlainText().splitlines() if line.strip()]

    # -- searching, a slice at a time -------------------------------------------------------------
    def start_search(self) -> None:
        """Check the conditions and the range, then search on the event loop (a year's slice a tick)."""
        from shensha_plates.core.calendar import CalendarOptions
        self.stop()
        self.results.clear()
        self.hits = []
        try:
            conditions = [parse_condition(line) for line in self.condition_lines()]
            first, last = _date(self.start.date()), _date(self.end.date())
            every = "hour" if self.by_hour.isChecked() else "day"
            calendar = CalendarOptions.from_cli(self.zone or None)
            if not conditions:
                list(search(first, last, conditions))  # raises the core's "no condition" error
            if last < first:
                raise ShenshaError(f"empty range: {first.isoformat()} … {last.isoformat()}")
        except ShenshaError as e:
            self.status.setText(str(e))
            if self._on_error is not None:
                self._on_error(str(e))
            return
        total = (last - first).days + 1
        span = 31 if every == "hour" else 366

        def slices() -> Iterator[tuple[int, list[Match]]]:
            day = first
            while day <= last:
                end = min(last, day + _dt.timedelta(days=span - 1))
                found = list(search(day, end, conditions, every=every, any_of=self.any.isChecked(),
                                    calendar=calendar))
                day = end + _dt.timedelta(days=1)
                yield (day - first).days, found
        self._run = slices()
        self._total = total
        self.run_button.setEnabled(False)
        self.stop_button.setEnabled(True)
        self.progress.setValue(0)
        self._timer.start()

    def _step(self) -> None:
        if self._run is None:
            self._timer.stop()
            return
        try:
            done, found = next(self._run)
        except StopIteration:
            self._finish(stopped=False)
            return
        except ShenshaError as e:
            self.status.setText(str(e))
            self._finish(stopped=True)
            return
        for hit in found:
            self.hits.append(hit)
            if self.lang == "en":  # as find --lang en writes it
                from shensha_plates.core.english_text import hit_line_english
                item = QListWidgetItem(hit_line_english(hit))
            else:
                item = QListWidgetItem(to_lang(hit_line(hit), self.lang))
            item.setData(Qt.ItemDataRole.UserRole, len(self.hits) - 1)
            self.results.addItem(item)
        self.progress.setValue(round(1000 * done / max(1, self._total)))
        self.status.setText(tr("find_count", self.lang, n=len(self.hits)))

    def _finish(self, stopped: bool) -> None:
        self._timer.stop()
        self._run = None
        self.run_button.setEnabled(True)
        self.stop_button.setEnabled(False)
        if not stopped:
            self.progress.setValue(1000)
        key = "find_stopped" if stopped else "find_count"
        self.status.setText(tr(key, self.lang, n=len(self.hits)) + "　" + tr("find_pick_hint", self.lang))

    def stop(self) -> None:
        if self._run is not None:
            self._finish(stopped=True)

    def running(self) -> bool:
        return self._run is not None

    def _picked(self, item: QListWidgetItem) -> None:
        index = item.data(Qt.ItemDataRole.UserRole)
        if isinstance(index, int) and 0 <= index < len(self.hits):
            self.sigPicked.emit(self.hits[index].moment)

    def done(self, result: int) -> None:  # closing stops a search under way
        self.stop()
        super().done(result)
