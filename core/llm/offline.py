"""The built-in offline assistant (agent.md §5.1): a deterministic ModelProvider. No network, no model.

It behaves like a model behind the same interface: each ``stream(request)`` is one model step.
The step is decided from the conversation alone (the provider keeps no state between steps):
the last user message is parsed into an intent (``offline_intent``); the tool calls this
assistant already made after it, and their results, say how far the turn has come. A step
either emits real tool calls (``Finish(reason="tool_calls")``) or streams the answer composed
from the tool results in a few ``TextDelta`` chunks, then ``Finish(reason="stop")``.

- Create, list and delete-by-id: one tool call, then the answer.
- Delete by description ("delete the water reminder"): ``schedule_list``, then one
  ``schedule_delete`` for the single match (or one per match for "delete all"); several
  matches make it ask which, naming them with ids; none, it says so.
- A message that only names a time zone, right after a request that needed one, resumes that
  request in the named zone (``parse_reply``).
- "snooze 10 minutes" right after a delivered reminder sets it again (``parse_snooze``).
- A reminder follow-up (a user message with ``source_kind="plugin"``) is presented as the
  reminder, from the strictly parsed framing (``offline_framing``); no tool is called.
- Tools it needs but the request does not offer are not called; it says reminders are unavailable.

Tool call ids are ``offline-<history length>-<history digest>-<n>``: a new step always follows a
different history, so ids do not repeat within a session. The clock is read once per step; a failing clock is a ``ProviderError``.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import AsyncGenerator, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from core.clock import Clock
from core.errors import ProviderError
from core.events import ToolCall
from core.framing import parse_framing
from core.jsonvalue import compact_json
from core.llm.messages import Finish, Message, ModelInfo, ModelRequest, StreamChunk, TextDelta
from core.llm.offline_framing import present_reminders
from core.llm.offline_intent import (
    Clarify,
    Create,
    DeleteById,
    DeleteMatching,
    Help,
    Intent,
    ListReminders,
    parse_reply,
    parse_snooze,
)
from core.llm.offline_replies import (
    HELP,
    UNREADABLE_RESULT,
    ambiguous_text,
    confirm_create,
    delete_text,
    list_text,
    matching,
    no_match_text,
    rolled_note,
    tool_failure_text,
)
from core.llm.offline_when import LocalTime

PROVIDER = "offline"
MODEL = "chime-offline"
UNAVAILABLE = (
    "I can't manage reminders here: the reminder tools aren't available in this conversation."
)
CLOCK_FAILED = "The offline assistant couldn't read the clock."
LOST = "I lost track of that request, so I'm not sure what happened. Please ask me again."


@dataclass(frozen=True, slots=True)
class Exchange:
    """One tool call this turn and its result message (None while it has none)."""

    call: ToolCall
    result: Message | None

    def arguments(self) -> dict[str, Any]:
        try:
            value = json.loads(self.call.arguments or "{}")
        except ValueError:
            return {}
        return value if isinstance(value, dict) else {}

    def value(self) -> tuple[object, str | None]:
        """The decoded tool value, or an answer explaining why there is none."""
        if self.result is None:
            return None, "The reminder tool didn't answer, so I can't say what happened."
        if self.result.is_error:
            return None, tool_failure_text(self.result.text)
        try:
            return json.loads(self.result.text), None
        except ValueError:
            return None, f"{UNREADABLE_RESULT}."


@dataclass(frozen=True, slots=True)
class Step:
    """What one model step does: tool calls to make, or the answer text."""

    text: str = ""
    calls: tuple[tuple[str, dict[str, Any]], ...] = ()


class OfflineAssistant:
    """The default provider: ``OfflineAssistant(clock)``; see the module docstring."""

    def __init__(self, clock: Clock) -> None:
        self._clock = clock

    @property
    def info(self) -> ModelInfo:
        return ModelInfo(provider=PROVIDER, name=MODEL)

    async def stream(self, request: ModelRequest) -> AsyncGenerator[StreamChunk, None]:
        step = self._step(request)
        if step.calls:
            prefix = f"offline-{history_digest(request.messages)}"
            calls = tuple(
                ToolCall(f"{prefix}-{n}", name, compact_json(args))
                for n, (name, args) in enumerate(step.calls, start=1)
            )
            yield Finish(text="", tool_calls=calls, reason="tool_calls", model=MODEL)
            return
        for piece in chunks(step.text):
            yield TextDelta(piece)
        yield Finish(text=step.text, tool_calls=(), reason="stop", model=MODEL)

    def _now(self) -> datetime:
        try:  # any clock failure (raising, or not an aware datetime) becomes a provider error
            now: object = self._clock()
            if isinstance(now, datetime) and now.utcoffset() is not None:
                return now.astimezone(UTC)
        except Exception as error:
            raise ProviderError("bad_response", CLOCK_FAILED) from error
        raise ProviderError("bad_response", CLOCK_FAILED)

    def _intent(self, request: ModelRequest, text: str, now: datetime) -> Intent:
        zone = request.time_zone
        intent = parse_reply(text, earlier_user_text(request.messages), now, zone)
        if isinstance(intent, Help | Clarify):
            prompt = _snoozed_prompt(request.messages)
            snooze = parse_snooze(text, prompt, now, zone) if prompt is not None else None
            return snooze if snooze is not None else intent
        return intent

    def _step(self, request: ModelRequest) -> Step:
        user, done = current_turn(request.messages)
        if user is None:
            return Step(HELP)
        now = self._now()
        if user.source_kind == "plugin":
            return Step(present_reminders(user.text, now, request.time_zone))
        intent = self._intent(request, user.text, now)
        step = plan(intent, done, now, request.time_zone)
        offered = tool_names(request.tools)
        if any(name not in offered for name, _ in step.calls):
            return Step(UNAVAILABLE)
        return step


def _snoozed_prompt(messages: Sequence[Message]) -> str | None:
    """The text of the reminder delivered just before the last user message, if exactly one."""
    users = [m for m in messages if m.role == "user"]
    if len(users) < 2 or users[-2].source_kind != "plugin":
        return None
    due = parse_framing(users[-2].text)
    return due[0].prompt if due is not None and len(due) == 1 else None


def current_turn(messages: Sequence[Message]) -> tuple[Message | None, list[Exchange]]:
    """The last user message and the tool exchanges that follow it, in call order."""
    start = next((i for i in range(len(messages) - 1, -1, -1) if messages[i].role == "user"), None)
    if start is None:
        return None, []
    calls: list[ToolCall] = []
    results: dict[str, Message] = {}
    for message in messages[start + 1 :]:
        if message.role == "assistant":
            calls.extend(message.tool_calls)
        elif message.role == "tool" and message.tool_call_id is not None:
            results.setdefault(message.tool_call_id, message)
    return messages[start], [Exchange(call, results.get(call.id)) for call in calls]


def earlier_user_text(messages: Sequence[Message]) -> str | None:
    """The text of the user-typed message before the last user message, if there is one."""
    users = [m for m in messages if m.role == "user"]
    if len(users) < 2 or users[-2].source_kind != "user":
        return None
    return users[-2].text


def tool_names(tools: Sequence[Mapping[str, Any]]) -> frozenset[str]:
    """The function names among OpenAI-style tool definitions."""
    names: set[str] = set()
    for tool in tools:
        entry: object = tool
        function = entry.get("function") if isinstance(entry, Mapping) else None
        if isinstance(function, Mapping) and isinstance(function.get("name"), str):
            names.add(function["name"])
    return frozenset(names)


def plan(intent: Intent, done: Sequence[Exchange], now: datetime, zone: str | None) -> Step:
    """The next step for ``intent`` given the exchanges made so far this turn."""
    match intent:
        case Help():
            return Step(HELP)
        case Clarify(text):
            return Step(text)
        case Create():
            return _plan_create(intent, done, now, zone)
        case ListReminders():
            if not done:
                return Step(calls=(("schedule_list", {}),))
            return _answer(done[0], "schedule_list", lambda v: list_text(v, now, zone))
        case DeleteById(rid):
            if not done:
                return Step(calls=(("schedule_delete", {"id": rid}),))
            return _answer(done[0], "schedule_delete", lambda v: delete_text(v, None))
        case DeleteMatching():
            return _plan_delete_matching(intent, done, now, zone)


def _answer(exchange: Exchange, name: str, compose: Any) -> Step:
    if exchange.call.name != name:
        return Step(LOST)
    value, failure = exchange.value()
    return Step(failure if failure is not None else compose(value))


def _plan_create(intent: Create, done: Sequence[Exchange], now: datetime, zone: str | None) -> Step:
    if not done:
        return Step(calls=(("schedule_create", intent.arguments()),))
    exchange = done[0]
    args = exchange.arguments()

    def compose(value: object) -> str:
        text = confirm_create(args, value, now, zone, about=intent.about)
        rolled = isinstance(intent.when, LocalTime) and intent.when.rolled
        succeeded = isinstance(value, Mapping) and "code" not in value
        return text + rolled_note(args) if rolled and succeeded else text

    return _answer(exchange, "schedule_create", compose)


def _plan_delete_matching(
    intent: DeleteMatching, done: Sequence[Exchange], now: datetime, zone: str | None
) -> Step:
    if not done:
        return Step(calls=(("schedule_list", {}),))
    if done[0].call.name != "schedule_list":
        return Step(LOST)
    views, failure = done[0].value()
    if failure is not None:
        return Step(failure)
    if not isinstance(views, list):
        return Step(list_text(views, now, zone))
    found = matching(views, intent.words)
    if len(done) > 1:
        return Step(_deleted_text(done[1:], found))
    if not found:
        return Step(no_match_text(views, intent.words))
    if len(found) > 1 and not intent.every:
        return Step(ambiguous_text(found))
    return Step(calls=tuple(("schedule_delete", {"id": view["id"]}) for view in found))


def _deleted_text(deletes: Sequence[Exchange], found: Sequence[Mapping[str, Any]]) -> str:
    prompts = {str(v["id"]): str(v.get("prompt", "")) for v in found}
    lines: list[str] = []
    for exchange in deletes:
        value, failure = exchange.value()
        rid = exchange.arguments().get("id")
        lines.append(failure if failure is not None else delete_text(value, prompts.get(str(rid))))
    return "\n\n".join(lines)


def history_digest(messages: Sequence[Message]) -> str:
    """A short digest of the history: a step's call ids differ from every earlier step's, even
    when the agent sends only a window of the history (its length alone could repeat)."""
    digest = hashlib.blake2b(digest_size=6)
    for message in messages:
        calls = "\x1e".join(f"{c.id}\x1f{c.name}\x1f{c.arguments}" for c in message.tool_calls)
        parts = (message.role, message.text, message.tool_call_id or "", calls)
        digest.update("\x1d".join(parts).encode("utf-8", "surrogatepass") + b"\x1c")
    return f"{len(messages)}-{digest.hexdigest()}"


def chunks(text: str, *, pieces: int = 3) -> list[str]:
    """``text`` cut at spaces into at most ``pieces`` streamed chunks (joined, exactly ``text``)."""
    words = re.findall(r"\S*\s*", text)
    words = [w for w in words if w] or [text]
    size = -(-len(words) // pieces)
    return ["".join(words[i : i + size]) for i in range(0, len(words), size)]
