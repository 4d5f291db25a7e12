"""The built-in offline assistant (agent.md §5.1): a deterministic ModelProvider. No network, no model.

It behaves like a model behind the same interface: each ``stream(request)`` is one model step.
The step is decided from the conversation alone (the provider keeps no state between steps):
the last user message is read into an intent (``intent``), in the light of what the
turns before it left open (``dialogue``: the answer to a question it asked, "cancel
that" after a new reminder, "snooze" after a delivered one); the tool calls this assistant
already made after it, and their results, say how far the turn has come. A step either emits
real tool calls (``Finish(reason="tool_calls")``) or streams the answer composed from the tool
results in a few ``TextDelta`` chunks, then ``Finish(reason="stop")``.

- Create, list and delete-by-id: one tool call, then the answer.
- Delete by description ("delete the water reminder", "clear all my reminders"):
  ``schedule_list``, then one ``schedule_delete`` per reminder that goes; several matches make it
  ask which (numbered), and a delete of several asks first ("Delete all 18 reminders?"), then
  deletes exactly the ones it named and says which went.
- A reminder follow-up (a user message with ``source_kind="plugin"``) is presented as the
  reminder, from the strictly parsed framing (``framing``); no tool is called.
- Anything it does not understand gets the full help the first time in a conversation and a
  short sentence after that.
- Tools it needs but the request does not offer are not called; it says reminders are unavailable.
- A Continue (the request ends with the cut text as an assistant message, agent.md §7) is
  answered as the step before it: the same answer again, whole; the agent keeps only what goes
  beyond the cut text (``core.agent.continuation.Onward``), so a stopped answer is finished.

Tool call ids are ``offline-<history length>-<history digest>-<n>``: a new step always follows a
different history, so ids do not repeat within a session. The clock is read once per step; a
failing clock is a ``ProviderError``.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import AsyncGenerator, Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any

from core.clock import Clock
from core.errors import ErrorKind, ProviderError
from core.events import ToolCall
from core.failures import Failure, FailureCode
from core.jsonvalue import compact_json
from core.llm.messages import Finish, Message, ModelInfo, ModelRequest, StreamChunk, TextDelta
from core.llm.offline.dialogue import (
    TURNS_READ_BACK,
    Exchange,
    Turn,
    interpret,
    split_turns,
    state_before,
)
from core.llm.offline.framing import present_reminders
from core.llm.offline.lang import ENGLISH, Language, spoken
from core.llm.offline.matching import AskAll, AskWhich, DeleteNow, Gone, NoMatch, delete_decision
from core.llm.offline.replies import (
    GONE,
    HELP,
    NOT_UNDERSTOOD,
    UNREADABLE_RESULT,
    ambiguous_text,
    confirm_all_text,
    confirm_create,
    delete_text,
    deleted_many_text,
    list_text,
    no_match_text,
    time_text,
    tool_failure_text,
)
from core.llm.offline.values import (
    Ask,
    Create,
    DeleteById,
    DeleteMatching,
    Help,
    Intent,
    ListReminders,
    Reply,
    TellTime,
    Unknown,
)
from core.llm.offline.when import Reading

PROVIDER = "offline"
MODEL = "chime-offline"
UNAVAILABLE = (
    "I can't manage reminders here: the reminder tools aren't available in this conversation."
)
LOST = "I lost track of that request, so I'm not sure what happened. Please ask me again."
NO_ANSWER = "The reminder tool didn't answer, so I can't say what happened."


@dataclass(frozen=True, slots=True)
class Step:
    """What one model step does: tool calls to make, or the answer text."""

    text: str = ""
    calls: tuple[tuple[str, dict[str, Any]], ...] = ()


def _without_cut_text(request: ModelRequest) -> ModelRequest:
    """``request`` without a last assistant message of text (a Continue's cut text)."""
    messages = request.messages
    if messages and messages[-1].role == "assistant" and not messages[-1].tool_calls:
        return replace(request, messages=messages[:-1])
    return request


class OfflineAssistant:
    """The default provider: ``OfflineAssistant(clock)``; see the module docstring."""

    def __init__(self, clock: Clock) -> None:
        self._clock = clock

    @property
    def info(self) -> ModelInfo:
        return ModelInfo(provider=PROVIDER, name=MODEL)

    async def stream(self, request: ModelRequest) -> AsyncGenerator[StreamChunk, None]:
        step = self._step(_without_cut_text(request))
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
            raise _clock_failed() from error
        raise _clock_failed()

    def _step(self, request: ModelRequest) -> Step:
        messages, language = canonical_messages(request.messages)
        step = self._canonical_step(replace(request, messages=messages))
        users = [m for m in request.messages if m.role == "user" and m.source_kind == "user"]
        said = [m.text for m in users[-(TURNS_READ_BACK + 1) :]]
        calls = tuple(_named(call, language, said) for call in step.calls)
        return Step(language.say(step.text), calls)

    def _canonical_step(self, request: ModelRequest) -> Step:
        turns = split_turns(request.messages)
        if not turns:
            return Step(HELP)
        current = turns[-1]
        now = self._now()
        if current.user.source_kind == "plugin":
            skipped = dict(current.user.skipped)
            return Step(present_reminders(current.user.text, now, request.time_zone, skipped))
        reading = Reading(now, request.time_zone)
        intent = interpret(current.user.text, state_before(turns, reading), reading)
        step = plan(
            intent,
            current.exchanges,
            reading,
            introduced=introduced(request.messages),
            prompts=lambda: created_prompts(turns),
        )
        offered = tool_names(request.tools)
        if any(name not in offered for name, _ in step.calls):
            return Step(UNAVAILABLE)
        return step


def canonical_messages(messages: Sequence[Message]) -> tuple[tuple[Message, ...], Language]:
    """The user messages in the canonical phrasing, each read in its own language
    (``core.llm.offline.lang``), and the language the answer is in: the last user message's.
    Only the messages the dialogue reads back are rewritten (older ones only split the turns)."""
    users = [m for m in messages if m.role == "user"]
    languages = spoken([m.text if m.source_kind == "user" else None for m in users])
    recent = {id(m) for m in users[-(TURNS_READ_BACK + 1) :]}
    read = {id(m): lang for m, lang in zip(users, languages, strict=True) if id(m) in recent}
    out = tuple(
        replace(m, text=read[id(m)].read(m.text))
        if id(m) in read and m.source_kind == "user"
        else m
        for m in messages
    )
    return out, (languages[-1] if languages else ENGLISH)


def _named(
    call: tuple[str, dict[str, Any]], language: Language, said: Sequence[str]
) -> tuple[str, dict[str, Any]]:
    """A reminder's text in the language of the conversation (``said``: the user's messages as
    typed): the time words in it as typed, and a name the assistant gave ("Timer for 5
    minutes") in the language."""
    name, args = call
    if name == "schedule_create" and isinstance(args.get("prompt"), str):
        return name, {**args, "prompt": language.prompt(args["prompt"], said)}
    return call


def introduced(messages: Sequence[Message]) -> bool:
    """Whether the assistant already said something in this conversation (before the last user
    message): then what it does not understand gets a short answer, not the whole help."""
    last_user = max((i for i, m in enumerate(messages) if m.role == "user"), default=0)
    return any(m.role == "assistant" and m.text.strip() for m in messages[:last_user])


def tool_names(tools: Sequence[Mapping[str, Any]]) -> frozenset[str]:
    """The function names among OpenAI-style tool definitions."""
    names: set[str] = set()
    for tool in tools:
        entry: object = tool
        function = entry.get("function") if isinstance(entry, Mapping) else None
        if isinstance(function, Mapping) and isinstance(function.get("name"), str):
            names.add(function["name"])
    return frozenset(names)


def created_prompts(turns: Sequence[Turn]) -> dict[str, str]:
    """The text of each reminder this conversation's history shows being set, by id (so a delete
    by id can say what went)."""
    prompts: dict[str, str] = {}
    for turn in turns:
        for exchange in turn.exchanges:
            value = exchange.json()
            if exchange.call.name != "schedule_create" or not isinstance(value, Mapping):
                continue
            if isinstance(value.get("id"), str) and isinstance(value.get("prompt"), str):
                prompts[value["id"]] = value["prompt"]
    return prompts


def plan(
    intent: Intent,
    done: Sequence[Exchange],
    reading: Reading,
    *,
    introduced: bool,
    prompts: Callable[[], Mapping[str, str]] = dict,
) -> Step:
    """The next step for ``intent`` given the exchanges made so far this turn; ``prompts`` gives
    the texts of reminders set earlier, by id."""
    now, zone = reading.now, reading.zone
    match intent:
        case Help():
            return Step(HELP)
        case Unknown():
            return Step(NOT_UNDERSTOOD if introduced else HELP)
        case Reply(text) | Ask(text):
            return Step(text)
        case TellTime(asked):
            return Step(time_text(now, zone, asked))
        case Create():
            return _plan_create(intent, done, reading)
        case ListReminders():
            if not done:
                return Step(calls=(("schedule_list", {}),))
            return _answer(done[0], "schedule_list", lambda v: list_text(v, now, zone))
        case DeleteById(rid):
            if not done:
                return Step(calls=(("schedule_delete", {"id": rid}),))
            return _answer(done[0], "schedule_delete", lambda v: delete_text(v, prompts().get(rid)))
        case DeleteMatching():
            return _plan_delete_matching(intent, done, reading)


def exchange_value(exchange: Exchange) -> tuple[object, str | None]:
    """The decoded tool value, or an answer explaining why there is none."""
    if exchange.result is None:
        return None, NO_ANSWER
    if exchange.result.is_error:
        return None, tool_failure_text(exchange.result.text)
    value = exchange.json()
    if value is None and exchange.result.text.strip() != "null":
        return None, f"{UNREADABLE_RESULT}."
    return value, None


def _answer(exchange: Exchange, name: str, compose: Callable[[object], str]) -> Step:
    if exchange.call.name != name:
        return Step(LOST)
    value, failure = exchange_value(exchange)
    return Step(failure if failure is not None else compose(value))


def _plan_create(intent: Create, done: Sequence[Exchange], reading: Reading) -> Step:
    if not done:
        return Step(calls=(("schedule_create", intent.arguments()),))
    args = done[0].arguments()

    def compose(value: object) -> str:
        return confirm_create(
            args, value, reading.now, reading.zone, link=intent.link, notes=intent.notes
        )

    return _answer(done[0], "schedule_create", compose)


def _plan_delete_matching(
    intent: DeleteMatching, done: Sequence[Exchange], reading: Reading
) -> Step:
    if not done:
        return Step(calls=(("schedule_list", {}),))
    if done[0].call.name != "schedule_list":
        return Step(LOST)
    views, failure = exchange_value(done[0])
    if failure is not None:
        return Step(failure)
    if not isinstance(views, list):
        return Step(list_text(views, reading.now, reading.zone))
    decision = delete_decision(intent, views, reading.zone)
    if len(done) > 1:
        return Step(_deleted_text(done[1:], views))
    match decision:
        case DeleteNow(found):
            return Step(calls=tuple(("schedule_delete", {"id": view["id"]}) for view in found))
        case AskWhich(found):
            return Step(ambiguous_text(found))
        case AskAll(found):
            return Step(confirm_all_text(found))
        case NoMatch(active):
            return Step(no_match_text(active, intent.words))
        case Gone():
            return Step(GONE)


def _deleted_text(deletes: Sequence[Exchange], views: Sequence[object]) -> str:
    """What the deletes of this turn did: the one that went, or how many and which."""
    listed = {str(v["id"]): v for v in views if isinstance(v, Mapping) and "id" in v}
    deleted: list[Mapping[str, Any]] = []
    failures: list[str] = []
    for exchange in deletes:
        value, failure = exchange_value(exchange)
        view = listed.get(str(exchange.arguments().get("id")))
        if failure is None and isinstance(value, Mapping) and value.get("deleted") is True:
            deleted.append(view or {"id": value.get("id"), "prompt": value.get("id")})
            continue
        prompt = str(view.get("prompt", "")) if view is not None else None
        failures.append(failure if failure is not None else delete_text(value, prompt))
    if len(deletes) == 1 and deleted:
        return delete_text(
            {"id": deleted[0].get("id"), "deleted": True}, str(deleted[0].get("prompt", ""))
        )
    return deleted_many_text(deleted, failures)


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


def _clock_failed() -> ProviderError:
    return ProviderError.because(ErrorKind.BAD_RESPONSE, Failure(FailureCode.CLOCK_FAILED))
