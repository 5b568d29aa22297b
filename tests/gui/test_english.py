"""The window in English (issue 28): every text the window shows is English but for the names themselves
(pillars, branches, stems, the spirits, discs, generals, methods and patterns, the solar terms and the
books' titles); the plates keep their Chinese names; it fits 1280×800; a spirit's details give its
pinyin, English gloss and meaning."""

from __future__ import annotations

import re
from pathlib import Path

from PySide6.QtWidgets import QAbstractButton, QApplication, QComboBox, QGroupBox, QLabel, QLineEdit, QMenu

from shensha_plates.core.catalog import default_catalog
from shensha_plates.core.cycle import BRANCHES, PILLARS, STEMS
from shensha_plates.core.liuren import liuren_tables
from shensha_plates.core.liuren.patterns import patterns
from shensha_plates.gui.shell.main_window import MainWindow
from shensha_plates.gui.shell.settings import Settings

HAN = re.compile(r"[\u3400-\u9fff]")
TERMS = ("立春 雨水 惊蛰 春分 清明 谷雨 立夏 小满 芒种 夏至 小暑 大暑 立秋 处暑 白露 秋分 寒露 霜降 立冬 小雪 大雪 冬至 小寒 大寒 "
         "节 中气").split()


def names() -> list[str]:
    cat, lr = default_catalog(), liuren_tables()
    out = [s.name for s in cat.spirits] + [a for s in cat.spirits for a in s.aliases] + [r.name for r in cat.rings]
    out += [g.name for g in lr.generals] + [g.short for g in lr.generals] + [m.name for m in lr.month_generals]
    out += [m.name for m in lr.methods.values()] + [p.name for p in patterns()] + list(PILLARS) + TERMS
    out += [n.name for n in lr.names] + ["干煞", "支煞"]  # the names the lesson forms; the day tables' names
    out += ["简体", "繁體"]  # the languages offered, each named in its own script
    return sorted(set(out), key=len, reverse=True)


def leftover(text: str, allowed: list[str]) -> str:
    """The Chinese left in a text once the names, 《book titles》 and citations (a source line: the book,
    its chapter and translator, and its 「quoted words」) are taken out."""
    text = re.sub(r"Source: 《[^\n]*", "", text)
    text = re.sub(r"\(《[^\n]*\)", "", text)  # a variant's source in brackets
    text = re.sub(r"《[^》]*》", "", text)
    for n in allowed:
        text = text.replace(n, "")
    return "".join(ch for ch in text if HAN.match(ch) and ch not in BRANCHES and ch not in STEMS)


def test_the_english_window_says_everything_in_english(tmp_path: Path, qtbot: object) -> None:
    settings = Settings(tmp_path / "s.ini")
    settings.set("lang", "en")
    w = MainWindow(settings=settings)
    qtbot.addWidget(w)  # type: ignore[attr-defined]
    w.resize(1280, 800)
    w.show()
    w.set_date("1998-11-30T12:00", "Asia/Shanghai", "lichun", "jie", "next-day")
    w.show_lesson()
    QApplication.processEvents()
    allowed = names()
    bad: dict[str, str] = {}

    def check(where: str, text: str) -> None:
        rest = leftover(text or "", allowed)
        if rest:
            bad[where + ": " + text[:50]] = rest

    for i in range(w.panel.tabs.count()):
        w.panel.tabs.setCurrentIndex(i)
        QApplication.processEvents()
        check("tab", w.panel.tabs.tabText(i))
    w.lesson.school_toggle.setChecked(True)  # the school's settings unfolded
    for wd in w.findChildren(QLabel):
        check("label", wd.text())
    for b in w.findChildren(QAbstractButton):
        check("button", b.text())
    for g in w.findChildren(QGroupBox):
        check("group", g.title())
    for e in w.findChildren(QLineEdit):
        check("placeholder", e.placeholderText())
    for c in w.findChildren(QComboBox):
        for k in range(c.count()):
            check("combo " + c.objectName(), c.itemText(k))
            check("tooltip " + c.objectName(), str(c.itemData(k, 3) or ""))  # a school choice's note
    for m in w.menuBar().findChildren(QMenu):
        check("menu", m.title())
        for a in m.actions():
            check("action", a.text())
    check("status", w.statusBar().currentMessage())
    check("shortcuts", w.shortcut_sheet())
    for branch in range(12):  # the details of every branch: the spirits, conditions, notes and variants
        w.select_branch(branch)
        for line in w.panel.details.toPlainText().splitlines():
            check(f"details {branch}", line)
    assert bad == {}, bad


def test_english_details_and_the_plates(tmp_path: Path, qtbot: object) -> None:
    settings = Settings(tmp_path / "s.ini")
    settings.set("lang", "en")
    w = MainWindow(settings=settings)
    qtbot.addWidget(w)  # type: ignore[attr-defined]
    w.select_branch(6)
    html = w.panel.details.toHtml()
    assert "Tàisuìpán" in html or "Grand Duke" in html  # the disc's pinyin and English name
    ring = w.view.rings["U1"]  # the plates keep the Chinese names
    assert any(HAN.search(e.text) for k in range(12) for e in ring.entries(k))


def test_the_english_window_fits_1280x800(tmp_path: Path, qtbot: object) -> None:
    from PySide6.QtCore import Qt
    settings = Settings(tmp_path / "s.ini")
    settings.set("lang", "en")
    w = MainWindow(settings=settings)
    qtbot.addWidget(w)  # type: ignore[attr-defined]
    w.setWindowState(Qt.WindowState.WindowNoState)
    w.resize(1280, 800)
    w.show()
    w.set_date("1998-11-30T12:00", "Asia/Shanghai", "lichun", "jie", "next-day")
    w.show_lesson()
    QApplication.processEvents()
    tabs = w.panel.tabs
    for i in range(tabs.count()):
        tabs.setCurrentIndex(i)
        QApplication.processEvents()
        width = w.panel_container.viewport().width()
        assert w.panel.minimumSizeHint().width() <= width, (tabs.tabText(i), w.panel.minimumSizeHint().width(), width)
        page = tabs.widget(i)
        inner = page.widget() if hasattr(page, "widget") and callable(page.widget) else None
        if inner is not None:
            assert inner.minimumSizeHint().width() <= page.viewport().width() + 1, tabs.tabText(i)


def test_the_exports_say_everything_in_english(tmp_path: Path, qapp: object) -> None:
    """The snapshot's rows of spirits (conditions in English: 〔if the Soaring Snake over it〕), the
    paper kit's instructions, table and disc titles, and the booklet's pages and progress line."""
    from pypdf import PdfReader

    from shensha_plates.core.calendar import from_datetime, parse_datetime
    from shensha_plates.core.engine import compute_plate
    from shensha_plates.gui.export.booklet import BookletOptions, write_booklet
    from shensha_plates.gui.export.kit import WORDS, kit_word, write_kit
    from shensha_plates.gui.export.page_layout import table_rows
    allowed = names()
    info = from_datetime(parse_datetime("1998-11-30T12:00"))
    rows = table_rows(compute_plate(info.state), "en", default_catalog())
    assert any("〔if the Soaring Snake over it〕" in text for _, text in rows)
    bad = {f"row {b}": leftover(text, allowed) for b, text in rows if leftover(text, allowed)}
    write_kit(tmp_path / "kit.pdf", "A4", "en")
    pages = PdfReader(str(tmp_path / "kit.pdf")).pages
    text = pages[0].extract_text().replace("\t", " ")  # the disc pages: their titles are kit_word's (below)
    assert "Cut out each disc" in text
    assert any("turns with the month" in p.extract_text().replace("\t", " ") for p in pages[1:])
    words = "\n".join(kit_word(k, "en", paper="A4", mm=3.1, pt=8.7, dial="") for k in WORDS)  # all it can say
    if leftover(text + "\n" + words, allowed):
        bad["kit"] = leftover(text + "\n" + words, allowed)
    said: list[str] = []
    write_booklet(tmp_path / "b.pdf", BookletOptions.parse("丙午", lang="en"),
                  progress=lambda done, total, what: said.append(what) or True)
    assert "month 1" in said
    bad |= {"progress: " + w: leftover(w, allowed) for w in said if leftover(w, allowed)}
    assert bad == {}, bad


def _dialog_texts(w: object) -> list[str]:
    from PySide6.QtWidgets import QListWidget, QMessageBox, QPlainTextEdit, QTableWidget, QTabWidget, QTextEdit, QWidget
    assert isinstance(w, QWidget)
    out = [w.windowTitle()]
    out += [x.text() for x in w.findChildren(QLabel)] + [x.text() for x in w.findChildren(QAbstractButton)]
    out += [x.title() for x in w.findChildren(QGroupBox)] + [x.placeholderText() for x in w.findChildren(QLineEdit)]
    out += [x.itemText(k) for x in w.findChildren(QComboBox) for k in range(x.count())]
    out += [x.tabText(k) for x in w.findChildren(QTabWidget) for k in range(x.count())]
    out += [x.toPlainText() for x in w.findChildren(QTextEdit) + w.findChildren(QPlainTextEdit)]
    for t in w.findChildren(QTableWidget):
        out += [t.horizontalHeaderItem(c).text() for c in range(t.columnCount()) if t.horizontalHeaderItem(c)]
        out += [t.item(r, c).text() for r in range(t.rowCount()) for c in range(t.columnCount()) if t.item(r, c)]
    out += [x.item(k).text() for x in w.findChildren(QListWidget) for k in range(x.count())]
    if isinstance(w, QMessageBox):
        out += [w.text(), w.informativeText()]
    return out


def test_every_dialog_says_everything_in_english(tmp_path: Path, qtbot: object) -> None:
    """The dialogs of the English window: quizzes, compare, tables, find (its places and its results),
    About, export, booklet, kit, page, open lesson, shortcuts (the export and booklet dialogs once raised
    KeyError 'en'), and the other systems' dialog (B: date selection with its remedies, Bazi, relations)."""
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QDialog
    settings = Settings(tmp_path / "s.ini")
    settings.set("lang", "en")
    settings.set("first_run_hint_done", True)
    w = MainWindow(settings=settings)
    qtbot.addWidget(w)  # type: ignore[attr-defined]
    w.resize(1280, 800)
    w.show()
    w.set_date("1998-11-30T12:00", "Asia/Shanghai", "lichun", "jie", "next-day")
    from shensha_plates.core.bazi import default_bazi
    from shensha_plates.core.relations import relate
    from shensha_plates.core.selection import default_selection
    others = ([s.name for s in default_selection().spirits] + [s.name for s in default_selection().spurious]
              + [s.name for s in default_bazi().spirits] + [r.name for r in relate("寅", "亥")])
    allowed = sorted(set(names() + others), key=len, reverse=True) + list("乾坤艮巽震离坎兑")  # and the trigrams
    bad: dict[str, str] = {}

    def scan(kind: str, d: object) -> None:
        for text in _dialog_texts(d):
            rest = leftover(re.sub(r"「[^」]*」", "", text or ""), allowed)
            if rest:
                bad[f"{kind}: {text[:50]}"] = rest

    c = w.classroom
    from PySide6.QtCore import QDate
    find = w.show_find_moment()
    find.conditions.setPlainText("天马@午\nday=午")
    find.start.setDate(QDate(2027, 1, 1))
    find.end.setDate(QDate(2027, 3, 31))
    find.start_search()
    qtbot.waitUntil(lambda: not find.running(), timeout=20000)  # type: ignore[attr-defined]
    assert find.results.count() > 0
    for kind, open_ in (("compare", lambda: c.compare("next:month")), ("quiz", lambda: w.start_quiz(seed=1)),
                        ("tables", lambda: (w.show_tables(), w.tables)[1]), ("systems", w.show_systems),
                        ("lesson_quiz", lambda: w.lesson.start_quiz("first", seed=1)), ("find", lambda: find)):
        d = open_()
        QApplication.processEvents()
        scan(kind, d)
        d.close()
    scanned: list[str] = []

    def modal(kind: str, run: object) -> None:
        def dismiss(left: int = 200) -> None:
            box = QApplication.activeModalWidget()
            if not isinstance(box, QDialog):
                if left:
                    QTimer.singleShot(5, lambda: dismiss(left - 1))
                return
            scan(kind, box)
            scanned.append(kind)
            box.reject()
        QTimer.singleShot(0, dismiss)
        run()  # type: ignore[operator]
        QApplication.processEvents()

    kinds = {"about": w.show_about, "export": w.export_dialog, "shortcuts": w.show_shortcuts,
             "booklet": w.booklet_dialog, "export_kit": w.export_kit_dialog, "export_page": w.export_page_dialog,
             "open_lesson": c._open_dialog}
    for kind, run in kinds.items():
        modal(kind, run)
    assert sorted(scanned) == sorted(kinds)  # each one opened (none raised)
    assert bad == {}, bad
