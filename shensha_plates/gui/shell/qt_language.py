"""Qt's own words (the standard buttons OK / Cancel / Yes / No, the file dialogs, the print preview) in
the interface's language, from the translations that ship with Qt: simplified Chinese (qtbase_zh_CN),
traditional (qtbase_zh_TW); English is Qt's own."""

from __future__ import annotations

from typing import Final

from PySide6.QtCore import QCoreApplication, QLibraryInfo, QTranslator

__all__ = ["use_qt_language", "QT_CATALOGS"]

QT_CATALOGS: Final = {"zh-Hans": "qtbase_zh_CN", "zh-Hant": "qtbase_zh_TW"}
_installed: list[QTranslator] = []


def use_qt_language(lang: str) -> bool:
    """Install Qt's translation for ``lang`` in place of the one installed before; False where Qt
    ships none (English, or a Qt without its translations: its English words then stay)."""
    app = QCoreApplication.instance()
    if app is None:
        return False
    for old in _installed:
        app.removeTranslator(old)
    _installed.clear()
    name = QT_CATALOGS.get(lang)
    if name is None:
        return False
    translator = QTranslator(app)
    if not translator.load(name, QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)):
        return False
    app.installTranslator(translator)
    _installed.append(translator)
    return True
