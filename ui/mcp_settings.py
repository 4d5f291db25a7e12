"""McpPage: the Settings page "Tools (MCP)". No I/O: the app reads an imported file, lists a
server's tools and keeps secrets; the page edits a copy (``McpDraft``) and shows what it is told.

What it shows: each configured server (its name, local or remote, its status, whether new
conversations offer it); the selected server's command or address with its non-secret values
and the names of its secrets (their values are never shown back: "kept in the keyring"); its
tools with their descriptions exactly as the server wrote them (untrusted text, shown plain, so
an instruction hidden in a description can be read); the tools the person always allows, each
revocable.

Adding: ``mcpServers`` JSON pasted (or a .json file the app reads, ``add_json``) is read by
``core.mcp.config.parse_servers``; every entry it could not read is one sentence under the box.
A pasted server with the name of one already configured replaces it (so pasting a README's new
version updates it), and the page says so.

Signals:
    tools_requested(str): list this server's tools (the app starts it if needed; ``set_tools``).
    import_requested(): the person wants to import a .json file (the app asks, reads, ``add_json``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import assert_never

from PySide6.QtCore import QCoreApplication, Qt, Signal
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import (
    QCheckBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QPushButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from core.mcp.config import McpConfigError, Secret, parse_servers
from core.mcp.types import HttpServer, ServerConfig, StdioServer, ToolInfo
from ui.untrusted import plain

translate = QCoreApplication.translate  # pyside6-lupdate reads translate("McpPage", …)


class ServerStatus(StrEnum):
    """What the page says of a server's process or connection (the app's pool tells it)."""

    IDLE = "idle"
    STARTING = "starting"
    RUNNING = "running"
    FAILED = "failed"


@dataclass(frozen=True, slots=True)
class McpDraft:
    """What the page edits: the servers, the secrets pasted during this visit (their values go to
    the keyring when the settings are saved, never to settings.json), the servers removed (their
    secrets are dropped) and the always-allowed tools as (server, tool)."""

    servers: tuple[ServerConfig, ...] = ()
    secrets: tuple[Secret, ...] = ()
    removed: tuple[str, ...] = ()
    always_allowed: tuple[tuple[str, str], ...] = ()


def status_text(status: ServerStatus) -> str:
    """A server's status in the window's words."""
    match status:
        case ServerStatus.IDLE:
            return translate("McpPage", "starts when a conversation uses it")
        case ServerStatus.STARTING:
            return translate("McpPage", "starting…")
        case ServerStatus.RUNNING:
            return translate("McpPage", "running")
        case ServerStatus.FAILED:
            return translate("McpPage", "failed")
        case unexpected:
            assert_never(unexpected)


def where_text(server: ServerConfig) -> str:
    """ "local" for a server Chime starts, "remote" for one it connects to."""
    match server.transport:
        case StdioServer():
            return translate("McpPage", "local")
        case HttpServer():
            return translate("McpPage", "remote")
        case unexpected:
            assert_never(unexpected)


def server_details(server: ServerConfig) -> str:
    """The selected server's settings as plain text; secrets by name only."""
    kept = translate("McpPage", "(kept in the keyring)")
    match server.transport:
        case StdioServer(command, args, env, secret_env, cwd):
            lines = [translate("McpPage", "Command: %1").replace("%1", " ".join((command, *args)))]
            if cwd:
                lines.append(translate("McpPage", "Folder: %1").replace("%1", cwd))
            lines += [f"  {name}={value}" for name, value in env]
            lines += [f"  {name} {kept}" for name in secret_env]
        case HttpServer(url, headers, secret_headers):
            lines = [translate("McpPage", "Address: %1").replace("%1", url)]
            lines += [f"  {name}: {value}" for name, value in headers]
            lines += [f"  {name}: {kept}" for name in secret_headers]
        case unexpected:
            assert_never(unexpected)
    return "\n".join(lines)


def tools_text(tools: Sequence[ToolInfo]) -> str:
    """Each tool's name and, indented under it, its description as the server wrote it."""
    if not tools:
        return translate("McpPage", "This server offers no tools.")
    parts = []
    for tool in tools:
        description = "\n".join(f"    {line}" for line in tool.description.splitlines())
        parts.append(f"• {tool.name}\n{description}" if description else f"• {tool.name}")
    return "\n\n".join(parts)


def _wrapped(text: str) -> QLabel:
    """A label of the window's own words that wraps (German ones are longer)."""
    label = QLabel(text)
    label.setWordWrap(True)
    return label


class McpPage(QWidget):
    """The "Tools (MCP)" page (see the module docstring)."""

    tools_requested = Signal(str)
    import_requested = Signal()

    def __init__(self, draft: McpDraft, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("mcp-page")
        self._draft = draft
        self._status: dict[str, tuple[ServerStatus, str]] = {}
        self._tools: dict[str, tuple[ToolInfo, ...] | str] = {}
        layout = QVBoxLayout(self)
        layout.addWidget(self._build_servers(), 3)
        layout.addWidget(self._build_adding(), 2)
        layout.addWidget(self._build_always(), 1)
        self._refresh()

    # -- building ------------------------------------------------------------------------
    def _build_servers(self) -> QWidget:
        box = QWidget(self)
        column = QVBoxLayout(box)
        column.setContentsMargins(0, 0, 0, 0)
        column.addWidget(
            _wrapped(self.tr("MCP servers (their tools can be offered to the model):"))
        )
        self.tree = QTreeWidget(box)
        self.tree.setObjectName("mcp-servers")
        self.tree.setAccessibleName(self.tr("MCP servers"))
        self.tree.setRootIsDecorated(False)
        self.tree.setHeaderLabels(
            [self.tr("Server"), self.tr("Kind"), self.tr("Status"), self.tr("New conversations")]
        )
        header = self.tree.header()
        header.setStretchLastSection(False)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        for section in (1, 2, 3):
            header.setSectionResizeMode(section, QHeaderView.ResizeMode.ResizeToContents)
        self.tree.setMinimumHeight(self.fontMetrics().lineSpacing() * 5)
        column.addWidget(self.tree, 1)
        buttons = QHBoxLayout()
        self.remove_button = QPushButton(self.tr("&Remove"), box)
        self.remove_button.setObjectName("mcp-remove")
        self.tools_button = QPushButton(self.tr("Show &tools"), box)
        self.tools_button.setObjectName("mcp-show-tools")
        self.tools_button.setToolTip(self.tr("Starts the server if needed and lists its tools"))
        self.offer_check = QCheckBox(self.tr("&Offer to new conversations"), box)
        self.offer_check.setObjectName("mcp-offer")
        buttons.addWidget(self.offer_check)
        buttons.addStretch(1)
        buttons.addWidget(self.tools_button)
        buttons.addWidget(self.remove_button)
        column.addLayout(buttons)
        self.details = QPlainTextEdit(box)
        self.details.setObjectName("mcp-details")
        self.details.setAccessibleName(self.tr("The server's settings and tools"))
        self.details.setReadOnly(True)
        self.details.setTabChangesFocus(True)
        self.details.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.details.setMinimumHeight(self.details.fontMetrics().lineSpacing() * 8)
        column.addWidget(self.details, 1)
        self.tree.currentItemChanged.connect(lambda *_: self._show_details())
        self.offer_check.toggled.connect(self._offer_changed)
        self.remove_button.clicked.connect(self._remove_current)
        self.tools_button.clicked.connect(self._request_tools)
        return box

    def _build_adding(self) -> QWidget:
        box = QWidget(self)
        column = QVBoxLayout(box)
        column.setContentsMargins(0, 0, 0, 0)
        column.addWidget(
            _wrapped(
                self.tr("Add servers: paste their “mcpServers” JSON (as in a server's README):")
            )
        )
        self.paste = QPlainTextEdit(box)
        self.paste.setObjectName("mcp-paste")
        self.paste.setAccessibleName(self.tr("mcpServers JSON"))
        self.paste.setTabChangesFocus(True)
        self.paste.setPlaceholderText('{"mcpServers": {"time": {"command": "uvx", "args": [...]}}}')
        self.paste.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.paste.setMaximumHeight(self.paste.fontMetrics().lineSpacing() * 8)
        column.addWidget(self.paste, 1)
        row = QHBoxLayout()
        self.add_button = QPushButton(self.tr("&Add"), box)
        self.add_button.setObjectName("mcp-add")
        self.import_button = QPushButton(self.tr("&Import a .json file…"), box)
        self.import_button.setObjectName("mcp-import")
        row.addWidget(self.add_button)
        row.addWidget(self.import_button)
        row.addStretch(1)
        column.addLayout(row)
        self.problems = plain(QLabel(box))  # quotes the pasted names
        self.problems.setObjectName("mcp-problems")
        self.problems.setWordWrap(True)
        self.problems.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        column.addWidget(self.problems)
        self.add_button.clicked.connect(lambda: self.add_json(self.paste.toPlainText()))
        self.import_button.clicked.connect(self.import_requested)
        return box

    def _build_always(self) -> QWidget:
        box = QWidget(self)
        column = QVBoxLayout(box)
        column.setContentsMargins(0, 0, 0, 0)
        column.addWidget(_wrapped(self.tr("Tools that run without asking:")))
        self.always = QListWidget(box)
        self.always.setObjectName("mcp-always")
        self.always.setAccessibleName(self.tr("Always allowed tools"))
        self.always.setMaximumHeight(self.fontMetrics().lineSpacing() * 6)
        column.addWidget(self.always, 1)
        self.revoke_button = QPushButton(self.tr("Ask &again before this tool runs"), box)
        self.revoke_button.setObjectName("mcp-revoke")
        row = QHBoxLayout()
        row.addWidget(self.revoke_button)
        row.addStretch(1)
        column.addLayout(row)
        self.revoke_button.clicked.connect(self._revoke_current)
        return box

    # -- what the app tells --------------------------------------------------------------
    def draft(self) -> McpDraft:
        """The edited copy."""
        return self._draft

    def set_status(self, statuses: Mapping[str, tuple[ServerStatus, str]]) -> None:
        """Each server's status and, when it failed, the sentence saying why."""
        self._status = dict(statuses)
        self._refresh()

    def set_tools(self, server: str, tools: Sequence[ToolInfo], error: str = "") -> None:
        """The tools ``server`` advertised (or why they could not be listed)."""
        self._tools[server] = error or tuple(tools)
        self.tools_button.setEnabled(True)
        self._show_details()

    def add_json(self, text: str) -> None:
        """Read pasted (or imported) ``mcpServers`` JSON and add the servers it holds."""
        try:
            parsed = parse_servers(text)
        except McpConfigError as error:
            self.problems.setText(str(error))
            return
        names = {s.name for s in parsed.servers}
        known = {s.name for s in self._draft.servers}
        notes = list(parsed.problems)
        notes += [
            self.tr("Server “%1” replaces the one of that name.").replace("%1", name)
            for name in sorted(names & known)
        ]
        if not parsed.servers and not notes:
            notes.append(self.tr("The text names no servers."))
        kept = tuple(s for s in self._draft.servers if s.name not in names)
        secrets = tuple(s for s in self._draft.secrets if s.server not in names)
        self._draft = replace(
            self._draft,
            servers=kept + parsed.servers,
            secrets=secrets + parsed.secrets,
            removed=tuple(n for n in self._draft.removed if n not in names),
        )
        for name in names:
            self._tools.pop(name, None)
        added = len(parsed.servers)
        shown = ", ".join(f"“{s.name}”" for s in parsed.servers)
        summary = self.tr("Added: %1.").replace("%1", shown) if added else ""
        self.problems.setText("\n".join([summary, *notes]).strip())
        if added:
            self.paste.clear()
        self._refresh(select=parsed.servers[-1].name if added else None)

    # -- the list ------------------------------------------------------------------------
    def _refresh(self, select: str | None = None) -> None:
        current = select or self._current_name()
        self.tree.blockSignals(True)
        self.tree.clear()
        for server in self._draft.servers:
            status, _why = self._status.get(server.name, (ServerStatus.IDLE, ""))
            offered = "✓" if server.enabled_by_default else ""
            item = QTreeWidgetItem([server.name, where_text(server), status_text(status), offered])
            item.setData(0, Qt.ItemDataRole.UserRole, server.name)
            item.setTextAlignment(3, Qt.AlignmentFlag.AlignCenter)
            self.tree.addTopLevelItem(item)
            if server.name == current:
                self.tree.setCurrentItem(item)
        first = self.tree.topLevelItem(0)
        if self.tree.currentItem() is None and first is not None:
            self.tree.setCurrentItem(first)
        self.tree.blockSignals(False)
        self.always.clear()
        for owner, tool in self._draft.always_allowed:
            allowed = QListWidgetItem(f"{owner} · {tool}", self.always)
            allowed.setData(Qt.ItemDataRole.UserRole, (owner, tool))
        self.always.setCurrentRow(0 if self.always.count() else -1)
        self.revoke_button.setEnabled(bool(self._draft.always_allowed))
        self._show_details()

    def _current_name(self) -> str | None:
        item = self.tree.currentItem()
        return None if item is None else str(item.data(0, Qt.ItemDataRole.UserRole))

    def _current(self) -> ServerConfig | None:
        name = self._current_name()
        return next((s for s in self._draft.servers if s.name == name), None)

    def _show_details(self) -> None:
        server = self._current()
        self.offer_check.blockSignals(True)
        self.offer_check.setChecked(server is not None and server.enabled_by_default)
        self.offer_check.blockSignals(False)
        self.offer_check.setEnabled(server is not None)
        self.remove_button.setEnabled(server is not None)
        self.tools_button.setEnabled(server is not None)
        if server is None:
            self.details.setPlainText(self.tr("No servers yet: paste their JSON below."))
            return
        parts = [server_details(server)]
        status, why = self._status.get(server.name, (ServerStatus.IDLE, ""))
        if status is ServerStatus.FAILED and why:
            parts.append(why)
        tools = self._tools.get(server.name)
        if isinstance(tools, str):
            parts.append(self.tr("Its tools could not be listed: %1").replace("%1", tools))
        elif tools is not None:
            parts.append(self.tr("Its tools, described as the server wrote them:"))
            parts.append(tools_text(tools))
        self.details.setPlainText("\n\n".join(parts))

    def _offer_changed(self, on: bool) -> None:
        name = self._current_name()
        servers = tuple(
            replace(s, enabled_by_default=on) if s.name == name else s for s in self._draft.servers
        )
        self._draft = replace(self._draft, servers=servers)
        self._refresh()

    def _remove_current(self) -> None:
        server = self._current()
        if server is None:
            return
        name = server.name
        self._draft = replace(
            self._draft,
            servers=tuple(s for s in self._draft.servers if s.name != name),
            secrets=tuple(s for s in self._draft.secrets if s.server != name),
            removed=(*self._draft.removed, name),
            always_allowed=tuple(p for p in self._draft.always_allowed if p[0] != name),
        )
        self._refresh()

    def _request_tools(self) -> None:
        name = self._current_name()
        if name is not None:
            self.tools_button.setEnabled(False)
            self.tools_requested.emit(name)

    def _revoke_current(self) -> None:
        item = self.always.currentItem()
        if item is None:
            return
        pair = tuple(item.data(Qt.ItemDataRole.UserRole))
        kept = tuple(p for p in self._draft.always_allowed if p != pair)
        self._draft = replace(self._draft, always_allowed=kept)
        self._refresh()
