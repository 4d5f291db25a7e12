"""The MCP gate's question in the window: ``ApprovalAsker.approve`` is the engine's injected
``async approve(ApprovalRequest) -> Decision``, answered by a ``ui.tool_approval`` dialog.

Each call gets its own dialog (two conversations may ask at once) and a future the dialog
resolves. Closing the dialog or Escape is a Deny. When the awaiting task is cancelled (Stop, the
conversation closed, quit) the dialog closes without an answer reaching anyone: a cancelled call
never runs (so quitting, which cancels every turn, closes every question). ``open_dialogs``
are the questions open now.

``wire_mcp_window`` connects the window's MCP parts to the engine's ``McpService``.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from PySide6.QtWidgets import QWidget

from app.controller import AppController
from app.mcp.secrets import McpSecrets
from app.mcp.service import McpService
from app.mcp_settings_flow import McpSettingsLink
from app.session_choices import ChoicesFlow
from app.settings_flow import SettingsFlow
from core.mcp.types import ApprovalRequest, Decision
from ui.tool_approval import ToolApprovalDialog

Make = Callable[[ApprovalRequest, QWidget, str], ToolApprovalDialog]


def _make(request: ApprovalRequest, parent: QWidget, conversation: str) -> ToolApprovalDialog:
    return ToolApprovalDialog(request, parent, conversation)


class ApprovalAsker:
    """Asks the person about each call in a dialog over ``parent`` (see the module docstring).

    ``title_of(session_id)`` names the conversation that asks ("" when it is the one shown or
    unknown); ``make`` builds the dialog (tests may watch it)."""

    def __init__(
        self,
        parent: QWidget,
        title_of: Callable[[str], str] = lambda _session_id: "",
        make: Make = _make,
    ) -> None:
        self._parent = parent
        self._title_of = title_of
        self._make = make
        self.open_dialogs: list[ToolApprovalDialog] = []

    async def approve(self, request: ApprovalRequest) -> Decision:
        """The person's answer to ``request``; Deny when the dialog is closed."""
        future: asyncio.Future[Decision] = asyncio.get_running_loop().create_future()
        dialog = self._make(request, self._parent, self._title_of(request.session_id))

        def answered(decision: object) -> None:
            if not future.done() and isinstance(decision, Decision):
                future.set_result(decision)

        dialog.decided.connect(answered)
        self.open_dialogs.append(dialog)
        dialog.open()
        try:
            return await future
        finally:
            self.open_dialogs.remove(dialog)
            if dialog.decision is None:  # cancelled while asking: the question goes away
                dialog.decided.disconnect(answered)
                dialog.reject()
            dialog.deleteLater()


def conversation_title(controller: AppController) -> Callable[[str], str]:
    """The title the question names: "" for the conversation on screen (it is the one that
    asks), else the asking conversation's title."""

    def title_of(session_id: str) -> str:
        if session_id == controller.current:
            return ""
        opened = controller.open.get(session_id)
        return (opened.session.title if opened is not None else "") or ""

    return title_of


def wire_mcp_window(
    window: QWidget,
    controller: AppController,
    service: McpService,
    flow: SettingsFlow,
    choices: ChoicesFlow,
    secrets: McpSecrets,
) -> ApprovalAsker:
    """The window's side of MCP: the approval question, the Settings page's link to the
    servers and secrets, and the servers a conversation may choose in its settings."""
    asker = ApprovalAsker(window, conversation_title(controller))
    service.approver = asker.approve
    flow.mcp = McpSettingsLink(service, secrets)
    choices.mcp_servers = lambda: tuple(server.name for server in service.servers())
    choices.mcp_defaults = service.defaults
    return asker
