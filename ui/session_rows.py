"""The sessions sidebar's rows: conversations under their group headings, and the search filter.
No I/O.

``SessionListModel`` holds the app's ``SessionListItem`` values and the person's arrangement
(``core.organise.Organisation``) and lays them out with ``core.organise.arrange``: Pinned, the
folders, then by day of last activity (in the zone it is given). While the list is searched it is
flat (every conversation, archived ones too, newest first) and ``SessionFilter`` keeps the ones
that match. A heading row has no session id (``ID_ROLE`` is None); a folder's heading carries its
folder id (``FOLDER_ROLE``) and is edited in place to rename the folder. Editing a conversation's
row in place asks for a rename (``rename_wanted``): the title itself changes when the app records
it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime, tzinfo
from typing import Any, assert_never

from PySide6.QtCore import (
    QAbstractListModel,
    QByteArray,
    QCoreApplication,
    QMimeData,
    QModelIndex,
    QPersistentModelIndex,
    QSortFilterProxyModel,
    Qt,
    QTimer,
    Signal,
)

from core.frozen import frozen
from core.organise import Group, Heading, Listed, Organisation, Row, View, arrange
from core.visible_text import visible_name
from ui.i18n import QT_TRANSLATE_NOOP
from ui.timefmt import since
from ui.untrusted import literal

Index = QModelIndex | QPersistentModelIndex
ID_ROLE = Qt.ItemDataRole.UserRole + 2
SEARCH_ROLE = Qt.ItemDataRole.UserRole + 3
FOLDER_ROLE = Qt.ItemDataRole.UserRole + 4
"""A folder heading's folder id (None on every other row)."""
SESSION_MIME = "application/x-chime-session"
"""A dragged conversation: its session id, UTF-8."""
SNIPPET_LEAD = 12
"""Characters a snippet keeps before the match, so the match shows in a narrow sidebar."""

GROUP_NAMES = {
    Group.PINNED: QT_TRANSLATE_NOOP("SessionListModel", "Pinned"),
    Group.TODAY: QT_TRANSLATE_NOOP("SessionListModel", "Today"),
    Group.YESTERDAY: QT_TRANSLATE_NOOP("SessionListModel", "Yesterday"),
    Group.WEEK: QT_TRANSLATE_NOOP("SessionListModel", "Previous 7 days"),
    Group.OLDER: QT_TRANSLATE_NOOP("SessionListModel", "Older"),
}
FORK = QT_TRANSLATE_NOOP("SessionListModel", "{title} (fork)")


def fork_title(title: str) -> str:
    """The title of a fork of a conversation titled ``title``."""
    return QCoreApplication.translate("SessionListModel", FORK).format(title=title)


def fork_parts(title: str) -> tuple[str, str]:
    """``title`` split before its fork mark (" (fork)"), kept whole when the list elides the
    rest; ("title", "") when it has none."""
    mark = fork_title("")
    if mark and title.endswith(mark) and len(title) > len(mark):
        return title[: -len(mark)], mark
    return title, ""


def search_key(text: str) -> str:
    """A query as it is compared: spaces folded, case-insensitive."""
    return " ".join(text.split()).casefold()


def snippet_from_match(snippet: str, query: str) -> str:
    """``snippet`` started shortly before the first match of ``query`` ("…" marks a cut)."""
    at = snippet.casefold().find(search_key(query))
    if at <= SNIPPET_LEAD:
        return snippet
    start = at - SNIPPET_LEAD
    space = snippet.find(" ", start, at)  # begin with a whole word
    return "…" + snippet[space + 1 if space >= 0 else start :]


@frozen
class SessionListItem:
    """What the sidebar shows for one session (the app builds it from an open session or a
    stored one's ``core.session.summary.SessionFileSummary``)."""

    id: str
    title: str
    last_activity: datetime
    reminder_count: int = 0
    live: bool = False
    unread: bool = False
    read_only: bool = False
    search_text: str = ""
    overdue: bool = False
    """Closed, with a reminder already due: it is delivered when the conversation opens."""
    unread_count: int = 0
    fork: bool = False
    """Forked from another conversation (its title's fork mark is never elided)."""


class SessionListModel(QAbstractListModel):
    """Session summaries under their headings (see the module docstring).

    Signals:
        rename_wanted(str, str): the person renamed this session in place to this title.
        organised(object): the person changed the arrangement (the new ``Organisation``).
    """

    rename_wanted = Signal(str, str)
    organised = Signal(object)

    def __init__(self, clock: Callable[[], datetime], parent: Any = None) -> None:
        super().__init__(parent)
        self._clock = clock
        self._items: dict[str, SessionListItem] = {}
        self._rows: list[Row] = []
        self._searched: dict[str, tuple[SessionListItem, str]] = {}
        self.organisation = Organisation()
        self.view = View.LIST
        self.flat = False
        """Searching: every conversation, archived ones too, newest first, no headings."""
        self.zone: Callable[[], tzinfo] = lambda: UTC

    # -- reading -----------------------------------------------------------------------------
    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008 -- Qt's own default
        return 0 if parent.isValid() else len(self._rows)

    def roleNames(self) -> dict[int, QByteArray]:
        names = dict(super().roleNames())
        names[ID_ROLE] = QByteArray(b"sessionId")
        names[SEARCH_ROLE] = QByteArray(b"search")
        names[FOLDER_ROLE] = QByteArray(b"folderId")
        return names

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        row = self.row(index.row()) if index.isValid() else None
        match row:
            case None:
                return None
            case Heading():
                return self._heading_data(row, role)
            case Listed(id=sid):
                return self._item_data(self._items[sid], role)
            case unexpected:
                assert_never(unexpected)

    def _heading_data(self, heading: Heading, role: int) -> Any:
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.EditRole):
            return self.heading_text(heading)
        if role == Qt.ItemDataRole.AccessibleTextRole:
            return self.tr("Group: {name}").format(name=self.heading_text(heading))
        if role == FOLDER_ROLE and heading.folder is not None:
            return heading.folder.id
        return None

    def heading_text(self, heading: Heading) -> str:
        if heading.folder is not None:
            return heading.folder.name
        return QCoreApplication.translate("SessionListModel", GROUP_NAMES[heading.group])

    def _item_data(self, item: SessionListItem, role: int) -> Any:
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.EditRole):
            return item.title
        if role == Qt.ItemDataRole.AccessibleTextRole:
            return self._accessible(item)
        if role == ID_ROLE:
            return item.id
        if role == SEARCH_ROLE:
            return f"{item.title}\n{item.search_text}"
        if role == Qt.ItemDataRole.ToolTipRole:
            return literal(visible_name(item.title))  # the model's or the user's words, not HTML
        return None

    def _accessible(self, item: SessionListItem) -> str:
        parts = [item.title, since(item.last_activity, self._clock())]
        if item.id in self.organisation.pinned:
            parts.append(self.tr("pinned"))
        if item.id in self.organisation.archived:
            parts.append(self.tr("archived"))
        if item.reminder_count:
            parts.append(self.tr("%n active reminder(s)", "", item.reminder_count))
        if item.live:
            parts.append(self.tr("open"))
        if item.unread:
            parts.append(self.tr("unread reminder"))
        if item.overdue:
            parts.append(self.tr("a reminder is overdue: opening the conversation delivers it"))
        return ", ".join(parts)

    def flags(self, index: Index) -> Qt.ItemFlag:
        row = self.row(index.row()) if index.isValid() else None
        flag = Qt.ItemFlag
        match row:
            case None:
                return flag.ItemIsDropEnabled
            case Heading(folder=folder):  # not selectable: the keyboard steps over it
                if folder is None:
                    return flag.ItemIsDropEnabled
                return flag.ItemIsEnabled | flag.ItemIsEditable | flag.ItemIsDropEnabled
            case Listed(id=sid):
                found = flag.ItemIsEnabled | flag.ItemIsSelectable | flag.ItemIsDragEnabled
                return found if self._items[sid].read_only else found | flag.ItemIsEditable
            case unexpected:
                assert_never(unexpected)

    def row(self, row: int) -> Row | None:
        return self._rows[row] if 0 <= row < len(self._rows) else None

    def item(self, row: int) -> SessionListItem | None:
        """The summary at ``row`` (None on a heading; delegates read it here, not via QVariant)."""
        found = self.row(row)
        return self._items[found.id] if isinstance(found, Listed) else None

    def searched(self, row: int) -> tuple[str, str] | None:
        """The session id at ``row`` and the text the filter matches, case-folded (title and
        message text; kept while the item is the same); None on a heading."""
        found = self.row(row)
        if not isinstance(found, Listed):
            return None
        item = self._items[found.id]
        kept = self._searched.get(found.id)
        if kept is None or kept[0] != item:
            kept = (item, f"{item.title}\n{item.search_text}".casefold())
            self._searched[found.id] = kept
        return found.id, kept[1]

    def item_of(self, session_id: str) -> SessionListItem | None:
        return self._items.get(session_id)

    def row_of(self, session_id: str) -> int:
        for row, found in enumerate(self._rows):
            if isinstance(found, Listed) and found.id == session_id:
                return row
        return -1

    def folder_row(self, folder_id: str) -> int:
        for row, found in enumerate(self._rows):
            if isinstance(found, Heading) and found.folder and found.folder.id == folder_id:
                return row
        return -1

    def session_ids(self) -> list[str]:
        """The conversations shown, top to bottom."""
        return [row.id for row in self._rows if isinstance(row, Listed)]

    # -- changing ----------------------------------------------------------------------------
    def setData(self, index: Index, value: Any, role: int = Qt.ItemDataRole.EditRole) -> bool:
        row = self.row(index.row()) if index.isValid() else None
        text = " ".join(str(value).split()) if isinstance(value, str) else ""
        if role != Qt.ItemDataRole.EditRole or not text:
            return False  # an empty name keeps the old one
        match row:
            case Listed(id=sid) if text != self._items[sid].title:
                self.rename_wanted.emit(sid, text)
            case Heading(folder=folder) if folder is not None and text != folder.name:
                renamed = self.organisation.rename_folder(folder.id, text)
                QTimer.singleShot(0, self, lambda: self.organise(renamed))  # after the editor
            case _:
                return False
        return True

    def mimeTypes(self) -> list[str]:
        return [SESSION_MIME]

    def mimeData(self, indexes: Sequence[QModelIndex]) -> QMimeData:
        data = QMimeData()
        ids = [sid for i in indexes if isinstance(sid := i.data(ID_ROLE), str)]
        if ids:
            data.setData(SESSION_MIME, QByteArray(ids[0].encode("utf-8")))
        return data

    def supportedDropActions(self) -> Qt.DropAction:
        return Qt.DropAction.MoveAction

    def organise(self, organisation: Organisation) -> None:
        """The person changed the arrangement: lay the list out again and say so."""
        if organisation == self.organisation:
            return
        self.organisation = organisation
        self.lay_out()
        self.organised.emit(organisation)

    def set_organisation(self, organisation: Organisation) -> None:
        """The arrangement as the app read it (not a change of the person's)."""
        self.organisation = organisation
        self.lay_out()

    def set_sessions(
        self, items: Sequence[SessionListItem], *, hold_order: bool = False, freeze: bool = False
    ) -> None:
        """Replace the conversations; ``hold_order`` (the pointer or the keyboard is on the
        list) keeps the rows already shown where they are inside their group (a new one comes
        in on top of it), so a click aimed at one row never lands on another; ``freeze`` (a
        title is being edited in place) keeps every row where it is while the same
        conversations are listed."""
        same = self._items.keys() == {item.id for item in items}
        self._items = {item.id: item for item in items}
        if freeze and same:
            if self._rows:
                self.dataChanged.emit(self.index(0), self.index(len(self._rows) - 1))
            return
        if len(self._searched) > 2 * len(self._items):  # sessions deleted: forget their texts
            self._searched = {k: v for k, v in self._searched.items() if k in self._items}
        self.lay_out(hold_order=hold_order)

    def lay_out(self, *, hold_order: bool = False) -> None:
        fresh = self.arranged()
        if hold_order:
            fresh = held(fresh, self._rows)
        if fresh == self._rows:
            if fresh:
                self.dataChanged.emit(self.index(0), self.index(len(fresh) - 1))
            return
        self.beginResetModel()
        self._rows = fresh
        self.endResetModel()

    def arranged(self) -> list[Row]:
        """The rows in their own order (nothing held)."""
        pairs = [(item.id, item.last_activity) for item in self._items.values()]
        if self.flat:
            newest = sorted(pairs, key=lambda s: (s[1], s[0]), reverse=True)
            return [Listed(sid) for sid, _at in newest]
        zone = self.zone() if pairs else UTC  # no day to group: the zone is not looked up
        return list(arrange(pairs, self.organisation, self._clock(), zone, self.view))

    def in_order(self) -> bool:
        """Whether the rows are in their own order (not held)."""
        return self.arranged() == self._rows


def held(fresh: Sequence[Row], shown: Sequence[Row]) -> list[Row]:
    """``fresh`` with each group's conversations that ``shown`` had in that same group kept in
    their shown order, after the group's newcomers (in their fresh order)."""
    before: dict[Row | None, list[str]] = {}
    heading: Row | None = None
    for row in shown:
        if isinstance(row, Heading):
            heading = row
        else:
            before.setdefault(heading, []).append(row.id)
    result: list[Row] = []
    group: list[str] = []
    heading = None

    def close() -> None:
        kept = before.get(heading, [])
        place = {sid: n for n, sid in enumerate(kept)}
        newcomers = [sid for sid in group if sid not in place]
        stayed = sorted((sid for sid in group if sid in place), key=place.__getitem__)
        result.extend(Listed(sid) for sid in newcomers + stayed)

    for row in fresh:
        if isinstance(row, Heading):
            close()
            group, heading = [], row
            result.append(row)
        else:
            group.append(row.id)
    close()
    return result


class SessionFilter(QSortFilterProxyModel):
    """The typed text's sessions: a title or loaded message text holding it, or a session the
    app's search of every message found (``matches``, for the query they answer)."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._typed = ""
        self._key = ""
        self._query = ""
        self._matches: dict[str, str] = {}

    def set_text(self, text: str) -> None:
        """The text typed into the filter box (matched case-insensitively, anywhere)."""
        self.beginFilterChange()
        self._typed = text
        self._key = text.casefold()
        self.endFilterChange(QSortFilterProxyModel.Direction.Rows)

    def set_matches(self, query: str, matches: Mapping[str, str]) -> None:
        self.beginFilterChange()
        self._query = search_key(query)
        self._matches = {sid: snippet_from_match(text, query) for sid, text in matches.items()}
        self.endFilterChange(QSortFilterProxyModel.Direction.Rows)

    def snippet(self, session_id: str) -> str:
        """The snippet of a session found by its messages for the text typed now ("" none)."""
        if not self._query or self._query != search_key(self._typed):
            return ""
        return self._matches.get(session_id, "")

    def filterAcceptsRow(self, source_row: int, _source_parent: Index) -> bool:
        if not self._key:
            return True
        model = self.sourceModel()
        assert isinstance(model, SessionListModel)
        found = model.searched(source_row)
        if found is None:  # a heading: the list is flat while it is searched
            return False
        session_id, text = found
        return self._key in text or bool(self.snippet(session_id))
