"""Small modal questions the window asks (rename, export target, confirmations). No I/O.

Choosing a path is not I/O: the app writes the file. Each helper returns None when cancelled.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QFileDialog,
    QInputDialog,
    QLineEdit,
    QMessageBox,
    QWidget,
)

translate = QCoreApplication.translate  # pyside6-lupdate reads translate("Dialogs", …)

TITLE_MIN_WIDTH = 460
"""The rename dialog is at least this wide (and wider for a long title), so a title fits."""


def title_dialog(parent: QWidget, current: str) -> QInputDialog:
    """The rename dialog, wide enough for ``current`` (up to two thirds of the window)."""
    dialog = QInputDialog(parent)
    dialog.setObjectName("rename-dialog")
    dialog.setWindowTitle(translate("Dialogs", "Rename session"))
    dialog.setLabelText(translate("Dialogs", "Title:"))
    dialog.setTextEchoMode(QLineEdit.EchoMode.Normal)
    dialog.setTextValue(current)
    needed = dialog.fontMetrics().horizontalAdvance(current) + 80
    dialog.resize(
        max(TITLE_MIN_WIDTH, min(needed, parent.width() * 2 // 3)), dialog.sizeHint().height()
    )
    return dialog


@dataclass(frozen=True, slots=True)
class LeaveWarning:
    """Closing, quitting or deleting would leave reminders waiting (or stop them): the dialog's
    ``title``, its one ``text`` sentence and the ``action`` that goes ahead ("Close", "Quit")."""

    title: str
    text: str
    action: str


@dataclass(frozen=True, slots=True)
class LeaveAnswer:
    """The user went ahead; ``dont_ask_again`` when they ticked "Don't ask again"."""

    dont_ask_again: bool


def ask_leave(parent: QWidget, warning: LeaveWarning) -> LeaveAnswer | None:
    """Ask whether to go ahead (its action, or Cancel) with a "Don't ask again" box; None when
    cancelled (a tick in the box is then ignored)."""
    box = QMessageBox(QMessageBox.Icon.Information, warning.title, warning.text, parent=parent)
    box.setObjectName("leave-warning")
    go = box.addButton(warning.action, QMessageBox.ButtonRole.AcceptRole)
    box.addButton(QMessageBox.StandardButton.Cancel)
    box.setDefaultButton(go)
    again = QCheckBox(translate("Dialogs", "Don't ask again"), box)
    box.setCheckBox(again)
    box.exec()
    return LeaveAnswer(again.isChecked()) if box.clickedButton() is go else None


def ask_title(parent: QWidget, current: str) -> str | None:
    """A new session title, or None when cancelled or blank."""
    dialog = title_dialog(parent, current)
    accepted = dialog.exec() == QDialog.DialogCode.Accepted
    text = dialog.textValue().strip()
    dialog.deleteLater()
    return text if accepted and text else None


def ask_export_path(parent: QWidget, suggested: Path, kind: str) -> Path | None:
    """Where to save an export (``kind`` is ``markdown`` or ``jsonl``), or None."""
    pattern = (
        translate("Dialogs", "Markdown (*.md)")
        if kind == "markdown"
        else translate("Dialogs", "JSON Lines (*.jsonl)")
    )
    path, _selected = QFileDialog.getSaveFileName(
        parent, translate("Dialogs", "Export session"), str(suggested), pattern
    )
    return Path(path) if path else None


def ask_lose_unsaved(parent: QWidget, question: str) -> bool:
    """True when the user chooses to quit although what ``question`` names is lost."""
    box = QMessageBox(
        QMessageBox.Icon.Warning, translate("Dialogs", "Quit Chime?"), question, parent=parent
    )
    lose = box.addButton(
        translate("Dialogs", "Quit and lose them"), QMessageBox.ButtonRole.DestructiveRole
    )
    keep = box.addButton(translate("Dialogs", "Keep Chime open"), QMessageBox.ButtonRole.RejectRole)
    box.setDefaultButton(keep)
    box.exec()
    return box.clickedButton() is lose


def ask_set_reminder(parent: QWidget, prompt: str, when: str) -> bool:
    """True when the user wants the reminder the model did not set: ``prompt``, ``when``."""
    box = QMessageBox(
        QMessageBox.Icon.Question,
        translate("Dialogs", "Set this reminder?"),
        translate("Dialogs", "“{prompt}” — {when}").format(prompt=prompt, when=when)
        if when
        else f"“{prompt}”",
        parent=parent,
    )
    box.setTextFormat(Qt.TextFormat.PlainText)
    box.setInformativeText(
        translate(
            "Dialogs",
            "The model answered in words and set nothing; this is the reminder as Chime's "
            "offline assistant understood your message.",
        )
    )
    set_it = box.addButton(translate("Dialogs", "Set reminder"), QMessageBox.ButtonRole.AcceptRole)
    box.addButton(QMessageBox.StandardButton.Cancel)
    box.setDefaultButton(set_it)
    box.exec()
    return box.clickedButton() is set_it


def ask_restart_for_language(parent: QWidget, language: str) -> bool:
    """True when the user wants Chime to start again now to show ``language`` (its own name)."""
    box = QMessageBox(
        QMessageBox.Icon.Question,
        translate("Dialogs", "Restart Chime?"),
        translate(
            "Dialogs",
            "Chime switches to %1 when it starts again. Restart it now? Your conversations and "
            "reminders are saved first, and the open ones open again.",
        ).replace("%1", language),
        parent=parent,
    )
    restart = box.addButton(translate("Dialogs", "Restart now"), QMessageBox.ButtonRole.AcceptRole)
    box.addButton(translate("Dialogs", "Later"), QMessageBox.ButtonRole.RejectRole)
    box.setDefaultButton(restart)
    box.exec()
    return box.clickedButton() is restart


def ask_attachment_paths(parent: QWidget) -> list[Path]:
    """The files to attach to the message being written (none when cancelled)."""
    paths, _selected = QFileDialog.getOpenFileNames(
        parent,
        translate("Dialogs", "Attach files"),
        str(Path.home()),
        translate("Dialogs", "All files (*)")
        + ";;"
        + translate("Dialogs", "Images (*.png *.jpg *.jpeg *.gif *.webp)"),
    )
    return [Path(path) for path in paths]
