"""Small modal questions the window asks (rename, export target, confirmations). No I/O.

Choosing a path is not I/O: the app writes the file. Each helper returns None when cancelled.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QFileDialog, QInputDialog, QLineEdit, QWidget


def ask_title(parent: QWidget, current: str) -> str | None:
    """A new session title, or None when cancelled or blank."""
    text, ok = QInputDialog.getText(
        parent, parent.tr("Rename session"), parent.tr("Title:"), QLineEdit.EchoMode.Normal, current
    )
    return text.strip() if ok and text.strip() else None


def ask_export_path(parent: QWidget, suggested: Path, kind: str) -> Path | None:
    """Where to save an export (``kind`` is ``markdown`` or ``jsonl``), or None."""
    pattern = (
        parent.tr("Markdown (*.md)") if kind == "markdown" else parent.tr("JSON Lines (*.jsonl)")
    )
    path, _selected = QFileDialog.getSaveFileName(
        parent, parent.tr("Export session"), str(suggested), pattern
    )
    return Path(path) if path else None
