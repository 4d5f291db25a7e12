"""A short title written by the conversation's language model after its first exchange.

When the first turn of a conversation completes (turns that failed before it do not count, up
to ``FIRST_TURNS``), its title is still the automatic one (no ``session/title`` given by the
person), the setting ``model_titles`` is on, and the session answers with a language model (never the offline assistant), one small separate request goes
through the session's own provider: the first message and the answer, asking for a title of a
few words. Its answer, cleaned (``clean_title``), is recorded as ``session/title`` with
``"by": "model"``. Nothing is recorded when the request fails, times out
(``TITLE_SECONDS``), answers nothing usable, or the person renamed the conversation meanwhile
(the fold also keeps a person's title over a model's, core.session.folds). Each conversation is
asked at most once per run.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Sequence

from app.controller import AppController, answers_offline
from app.engine import OpenSession
from app.qtasync import TaskRunner
from app.settings import Settings
from core.errors import ChimeError
from core.events import AssistantMessage, Entry, SessionTitle, TurnEnd, TurnStart, UserMessage
from core.llm.messages import Finish, Message, ModelRequest
from core.llm.provider import ModelProvider

_log = logging.getLogger(__name__)

FIRST_TURNS = 3
"""A conversation whose first completed turn comes later (turns that failed before it) is titled
up to this turn; past it, a conversation is an old one (from before the setting was on)."""
TITLE_SECONDS = 30.0
"""How long the title's request may take before the automatic title simply stays."""
TITLE_CHARS = 60
"""A model's title is cut to this many characters (a title, not an answer)."""
EXCERPT_CHARS = 2000
"""How much of the first message and of the answer the title's request sends."""
TITLE_PROMPT = (
    "You name conversations. Write a title of two to six words for the conversation the user "
    "shows you, in the language the conversation is written in. Answer with the title only: "
    "no quotes, no full stop, no explanation."
)
_QUOTES = "\"'“”„‘’«»`*#"


def wire_titles(
    controller: AppController, settings: Callable[[], Settings], tasks: TaskRunner
) -> None:
    """Ask for a model's title after each conversation's first exchange (module docstring)."""
    asked: set[str] = set()

    def observe(session_id: str, entry: Entry) -> None:
        event = entry.event
        if not isinstance(event, TurnEnd) or event.status != "completed":
            return
        opened = controller.open.get(session_id)
        if opened is None or session_id in asked or event.turn > FIRST_TURNS:
            return
        asked.add(session_id)  # its first completed turn, or a later one: never asked again
        exchange = first_exchange(opened.session.entries, entry.seq)
        if exchange is not None and wanted(opened, settings()):
            tasks.spawn(give_title(opened, exchange))

    controller.entry_observers.append(observe)


def wanted(opened: OpenSession, settings: Settings) -> bool:
    """Whether ``opened`` should get a model's title now."""
    session = opened.session
    return (
        settings.model_titles
        and opened.agent is not None
        and not answers_offline(opened)
        and not session.read_only
        and not session.titled_by_person
    )


async def give_title(opened: OpenSession, exchange: tuple[str, str]) -> None:
    """Ask the session's provider for a title of ``exchange`` (the first message and its
    answer) and record it (see the module docstring)."""
    agent = opened.agent
    if agent is None:
        return
    try:
        async with asyncio.timeout(TITLE_SECONDS):
            text = await ask_title(agent.provider, *exchange)
    except (ChimeError, TimeoutError, OSError) as error:
        _log.info("no model title for %s: %s", opened.id, error)
        return
    title = clean_title(text)
    session = opened.session
    if title is None or session.read_only or session.titled_by_person:
        return
    try:
        session.append_event(SessionTitle(title, by_model=True))
    except ChimeError as error:  # closed or turned read-only meanwhile
        _log.info("model title for %s not recorded: %s", opened.id, error)


def first_exchange(entries: Sequence[Entry], end: int) -> tuple[str, str] | None:
    """The message and the answer of the turn whose ``turn/end`` is at ``end``, when that turn
    is the session's first completed one and answers a message the person wrote; else None."""
    started: dict[int, int] = {}
    answer = ""
    for seq in range(end):
        event = _event(entries, seq)
        match event:
            case TurnStart(turn=turn, input=consumed):
                started[turn] = consumed
                answer = ""
            case AssistantMessage(text=text) if text.strip():
                answer = text
            case TurnEnd(status="completed"):
                return None  # an earlier exchange was the first
            case _:
                pass
    last = _event(entries, end)
    consumed = started.get(last.turn, -1) if isinstance(last, TurnEnd) else -1
    question = _event(entries, consumed) if consumed >= 0 else None
    if not isinstance(question, UserMessage) or question.is_reminder or not answer:
        return None
    return (question.text, answer) if question.text.strip() else None


def _event(entries: Sequence[Entry], seq: int) -> object:
    try:
        return entries[seq].event
    except (ValueError, IndexError):  # an unreadable line
        return None


async def ask_title(provider: ModelProvider, question: str, answer: str) -> str:
    """The provider's whole answer to the title's request."""
    shown = f"User: {question[:EXCERPT_CHARS]}\n\nAssistant: {answer[:EXCERPT_CHARS]}"
    request = ModelRequest(TITLE_PROMPT, (Message("user", shown),))
    text = ""
    stream = provider.stream(request)
    try:
        async for chunk in stream:
            if isinstance(chunk, Finish):
                text = chunk.text
    finally:
        await stream.aclose()
    return text


def clean_title(text: str) -> str | None:
    """A model's answer as a title: its first line that has words, without quotes, a "Title:"
    lead or a final full stop, spaces folded, at most ``TITLE_CHARS``; None when nothing is left."""
    for line in text.splitlines():
        words = " ".join(line.split()).strip(_QUOTES + " ")
        if words.casefold().startswith("title:"):
            words = words[len("title:") :].strip(_QUOTES + " ")
        words = words.rstrip(".").strip(_QUOTES + " ")
        if words:
            return words[:TITLE_CHARS].rstrip()
    return None
