"""How long dialogs and subscriptions live: a dialog that is closed is deleted, and nothing keeps
it alive afterwards — not the window's attribute that named it, not the model's list of listeners.

Without this, every compare dialog (two plates of its own) stayed in memory for the rest of the
session once closed (issue 16: 100 compares, 964 MB).
"""

from __future__ import annotations

from typing import TypeVar
from collections.abc import Callable

from PySide6.QtCore import QObject, Qt
from PySide6.QtWidgets import QWidget

from shensha_plates.gui.model import PlateModel

__all__ = ["delete_on_close", "follow_model"]

W = TypeVar("W", bound=QWidget)


def delete_on_close(dialog: W, owner: object | None = None, attr: str | None = None) -> W:
    """Have Qt delete ``dialog`` when it is closed. With ``owner`` and ``attr``, ``owner.attr``
    names the dialog while it lives and is set back to None when Qt deletes it (unless it names
    another dialog by then), so that no Python reference outlives the dialog."""
    dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    if owner is not None and attr is not None:
        setattr(owner, attr, dialog)

        def forget(*_: object) -> None:
            if getattr(owner, attr, None) is dialog:
                setattr(owner, attr, None)
        dialog.destroyed.connect(forget)
    return dialog


def follow_model(widget: QObject, model: PlateModel, listener: Callable[[str], None]) -> None:
    """Subscribe ``listener`` to ``model`` for as long as ``widget`` lives: when Qt deletes the
    widget the listener is dropped, so the model neither keeps it alive nor calls into a deleted
    widget."""
    model.subscribe(listener)
    widget.destroyed.connect(lambda *_: model.unsubscribe(listener))
