"""The transcript model's roles: which value of a row each Qt role reads. No I/O, no state.

``ui.transcript_model.TranscriptModel.data`` answers from here; delegates read the row value
itself (``TranscriptModel.row_at``), so these roles serve Qt's accessibility, the model tester
and tests that read a row as a view would.
"""

from __future__ import annotations

from PySide6.QtCore import Qt

from core.transcript.rows import TranscriptRow
from ui.transcript_rows import reminder_caption, reminder_text

KIND_ROLE = Qt.ItemDataRole.UserRole + 1
TITLE_ROLE = Qt.ItemDataRole.UserRole + 3
DETAIL_ROLE = Qt.ItemDataRole.UserRole + 4
EXPANDED_ROLE = Qt.ItemDataRole.UserRole + 5
SEQ_ROLE = Qt.ItemDataRole.UserRole + 6
CAPTION_ROLE = Qt.ItemDataRole.UserRole + 7
QUEUED_ROLE = Qt.ItemDataRole.UserRole + 8

ROLE_NAMES: dict[int, bytes] = {
    KIND_ROLE: b"kind",
    TITLE_ROLE: b"title",
    DETAIL_ROLE: b"detail",
    EXPANDED_ROLE: b"expanded",
    SEQ_ROLE: b"seq",
    CAPTION_ROLE: b"caption",
    QUEUED_ROLE: b"queued",
}
"""The names of the model's own roles (``roleNames``, beside Qt's)."""

_FIELDS: dict[int, str] = {
    KIND_ROLE: "kind",
    TITLE_ROLE: "title",
    DETAIL_ROLE: "detail",
    SEQ_ROLE: "seq",
    QUEUED_ROLE: "queued",
}
"""The roles that read one field of the row as it is."""

_TEXT_ROLES = (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.AccessibleTextRole)


def role_value(row: TranscriptRow, role: int, *, expanded: bool, zone: str | None) -> object:
    """What ``role`` reads of ``row`` (None for a role the model has not): ``expanded`` whether
    its details are shown, ``zone`` the zone its times are read in."""
    if role in _TEXT_ROLES:
        return plain_text(row)
    if role == EXPANDED_ROLE:
        return expanded
    if role == CAPTION_ROLE:
        return caption(row, zone)
    field = _FIELDS.get(role)
    return None if field is None else getattr(row, field)


def caption(row: TranscriptRow, zone: str | None) -> str:
    """The reminder card's caption line (due time, late delivery); "" for other rows."""
    return reminder_caption(row, zone) if row.kind == "reminder" else ""


def plain_text(row: TranscriptRow) -> str:
    """A row as plain text (the display role; copying a whole row uses its Markdown source)."""
    if row.kind in ("tool", "mcp"):
        return row.title
    if row.kind == "reminder":
        return reminder_text(row)
    return row.text
