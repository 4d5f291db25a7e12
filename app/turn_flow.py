"""TurnFlow: the composer's actions on the session on screen (send with its files, stop, retry,
rename) and which provider answers each open session.

It acts through each session's bridge and says refusals in the window's message bar; it opens,
closes and lists nothing.

Choices where the spec is silent:
- Each live session answers with the provider of its own ``session/model`` choice (agent.md §7),
  resolved again whenever the app's settings change; a session without one follows the settings.
- Files added to a message wait in their own session (they are stored in its folder) and are sent
  with its next message; a message of files only is allowed. An image for a session the offline
  assistant answers is refused with the reason (it reads no image), and nothing is sent.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

from app.engine import OpenSession
from app.open_sessions import OpenSessions, translate
from core.events import Attachment, SessionModel
from core.llm.provider import ModelProvider

OFFLINE_PROVIDER = "offline"
"""``ModelInfo.provider`` of the offline assistant."""


class TurnFlow:
    """Sends, stops, retries and renames the session on screen; sets the open sessions' providers."""

    def __init__(self, sessions: OpenSessions) -> None:
        self._sessions = sessions

    async def submit(self, text: str) -> None:
        """Send the composer's text with the files added to it; refused by a session that is (or
        just turned) read-only, the text goes back into the composer and the state is shown. An
        image waiting for a session the offline assistant answers is said, and nothing is sent."""
        sessions = self._sessions
        window = sessions.window
        opened = sessions.current_session()
        if opened is None:
            return
        files = tuple(opened.attachments)
        refusal = attachments_refusal(opened, files)
        if refusal:
            window.notify(refusal, 12000, conversation=True)
            window.set_draft(text)
            return
        window.scroll_to_end()
        if await opened.bridge.submit(text, files):
            opened.attachments.clear()
            if sessions.current == opened.id:
                window.show_attachments(())
        elif opened.session.read_only:
            window.set_access(sessions.access(opened))
            window.set_draft(text)

    def stop(self) -> None:
        opened = self._sessions.current_session()
        if opened is not None:
            opened.bridge.stop()

    def retry(self) -> None:
        opened = self._sessions.current_session()
        if opened is not None and not opened.bridge.retry():
            nothing = translate("AppController", "There is no failed turn to retry.")
            self._sessions.window.notify(nothing, 5000, conversation=True)

    def rename(self, title: str) -> None:
        opened = self._sessions.current_session()
        if opened is not None:
            opened.bridge.rename(title)

    def set_provider(
        self,
        factory: Callable[[], ModelProvider],
        chosen: Callable[[SessionModel], ModelProvider | None] | None = None,
    ) -> None:
        """New provider settings apply from the next turn of every open session: the setting's
        provider (``factory``) and, when given, a session's own choice resolved with them."""
        sessions = self._sessions
        parts = sessions.parts  # the MCP toolsets stay (sessions opened later have them too)
        sessions.parts = replace(
            parts, provider=factory, chosen=parts.chosen if chosen is None else chosen
        )
        for opened in sessions.open.values():
            opened.set_provider(sessions.parts.provider_for(opened.session.choices().model))


def attachments_refusal(opened: OpenSession, files: Sequence[Attachment]) -> str:
    """Why these files cannot be sent in this session ("" when they can): the offline
    assistant reads no image."""
    if not any(f.media_type.startswith("image/") for f in files) or not answers_offline(opened):
        return ""
    return image_refusal()


def image_refusal() -> str:
    """Why an image cannot go to a session the offline assistant answers."""
    return translate(
        "AppController",
        "The offline assistant cannot read images; choose a model that reads images in "
        "the model picker.",
    )


def answers_offline(opened: OpenSession) -> bool:
    """The offline assistant answers this live session's next turn."""
    agent = opened.agent
    return agent is not None and agent.provider.info.provider == OFFLINE_PROVIDER
