"""The session-event vocabulary (agent.md §2, session-log.md §2): every event type, one frozen value
per event, and the one decoder. Pure: no I/O, no clock, no logging.

An event enters a session in two places, a line read from disk and an append; both decode it here
once (``decode_event``, ``decode_entry``) and everything downstream matches on the value's class
(``match event: case UserMessage(): ...``, ``assert_never`` for the rest). A writer builds the
value and ``to_data()`` renders its ``data`` with the keys in write order.

| type               | value            | data                                                      |
|--------------------|------------------|-----------------------------------------------------------|
| user/message       | UserMessage      | id, text, source ({kind:user,timeZone} or {kind:plugin,plugin}), parent?, revises?, attachments?, skipped? |
| turn/start         | TurnStart        | turn (1, 2, ...), input (seq of the consumed user/message), continues? (seq of the cut assistant/message it goes on from) |
| context/time       | ContextTime      | timeZone (name or null), text (the reading sent to the model) |
| assistant/message  | AssistantMessage | id, text, toolCalls [{id,name,arguments}], model {provider,name}, finish, usage?, durationMs?, firstTextMs?, reasoning?, reasoningMs?, callsFromText?, reminderNotSet? |
| tool/result        | ToolResult       | callId, name, content, isError, server?, images?, links?, outcome? |
| tool/start         | ToolStart        | callId (an MCP call about to run: appended and flushed first) |
| turn/end           | TurnEnd          | turn, status (completed|failed|cancelled|interrupted), error? {kind,message} |
| session/title      | SessionTitle     | title                                                     |
| schedule/change    | ScheduleChanged  | schedule.md §2.3, kept as given (the schedule fold decodes it strictly) |
| exchange/hide      | ExchangeHidden   | input, hidden                                             |
| path/select        | PathSelected     | leaf                                                      |
| session/model      | SessionModel     | provider, model, temperature (each may be null)           |
| session/instructions | SessionInstructions | text                                              |
| session/tools      | SessionTools     | servers (the MCP servers this conversation offers the model) |
| anything else      | UnknownEvent     | kept as given and ignored by every fold (a newer version's log still opens) |

Decoding choices where the spec is silent: a known type whose ``data`` has the wrong shape (a
field missing or of the wrong JSON type) decodes to ``MalformedEvent``, kept as given and ignored
by the folds like an unknown type, so one bad line never fails a whole session; only the schedule
fold is strict (schedule.md §8). ``usage`` and ``error`` are optional; keys a newer version adds
to a known ``data`` are accepted and not kept. A reminder's optional ``skipped`` (how many
occurrences of each recurring reminder were skipped, agent.md §2) is informational: when it is
not an object of ids to whole numbers it is dropped, and the reminder itself still reads.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from enum import StrEnum
from functools import lru_cache
from typing import Any, ClassVar, Literal, TypeAlias, get_args

from core.errors import ErrorKind
from core.failures import Failure, read_failure
from core.framing import DueReminder, parse_framing
from core.frozen import frozen


class EventType(StrEnum):
    """Every event type Chime writes (its ``type`` on the wire)."""

    USER_MESSAGE = "user/message"
    TURN_START = "turn/start"
    CONTEXT_TIME = "context/time"
    ASSISTANT_MESSAGE = "assistant/message"
    TOOL_RESULT = "tool/result"
    TURN_END = "turn/end"
    SESSION_TITLE = "session/title"
    SCHEDULE_CHANGE = "schedule/change"
    EXCHANGE_HIDE = "exchange/hide"
    PATH_SELECT = "path/select"
    SESSION_MODEL = "session/model"
    SESSION_INSTRUCTIONS = "session/instructions"
    TOOL_START = "tool/start"
    SESSION_TOOLS = "session/tools"


TurnStatus = Literal["completed", "failed", "cancelled", "interrupted"]
ToolOutcomeKind = Literal["denied", "cancelled", "unfinished", "timeout", "failed"]
TOOL_OUTCOMES: frozenset[str] = frozenset(get_args(ToolOutcomeKind))
FinishReason = Literal["stop", "tool_calls", "length", "interrupted"]
TURN_STATUSES: frozenset[str] = frozenset(get_args(TurnStatus))
FINISH_REASONS: frozenset[str] = frozenset(get_args(FinishReason))
_ERROR_KINDS: frozenset[str] = frozenset(ErrorKind)


class EventShapeError(ValueError):
    """The ``data`` of a known event type has the wrong shape (the decoder's internal signal)."""


# -- sources of a user message ---------------------------------------------------------------


@frozen
class UserSource:
    """Typed by the user; ``time_zone`` is the zone sampled when it was typed (agent.md §4)."""

    time_zone: str | None

    def to_json(self) -> dict[str, Any]:
        return {"kind": "user", "timeZone": self.time_zone}


@frozen
class PluginSource:
    """Written by a plugin: ``schedule`` for a reminder follow-up (schedule.md §10.6)."""

    plugin: str

    def to_json(self) -> dict[str, Any]:
        return {"kind": "plugin", "plugin": self.plugin}


Source: TypeAlias = UserSource | PluginSource
SCHEDULE_SOURCE = PluginSource("schedule")


# -- the events ------------------------------------------------------------------------------


ROOT = -1
"""The ``parent`` of a conversation's first input (agent.md §7)."""


@frozen
class Attachment:
    """A file added to a message: its bytes are ``sessions/<id>/attachments/<sha256>``."""

    name: str
    media_type: str
    sha256: str
    size: int

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "mediaType": self.media_type,
            "sha256": self.sha256,
            "size": self.size,
        }


@frozen
class UserMessage:
    """Input for a turn: typed by the user, or a reminder follow-up (``source`` plugin schedule).

    ``parent`` is the input it follows (``ROOT`` for the first; None when the log does not say,
    as in logs written before versions: then it follows the previous ``user/message``);
    ``revises`` the input it is a new version of (agent.md §7). ``skipped``: for a recurring
    reminder delivered late, ``(schedule id, count)`` of the occurrences before the delivered one
    that were skipped (latest-only catch-up); () otherwise.
    """

    id: str
    text: str
    source: Source
    parent: int | None = None
    revises: int | None = None
    attachments: tuple[Attachment, ...] = ()
    skipped: tuple[tuple[str, int], ...] = ()
    type: ClassVar[EventType] = EventType.USER_MESSAGE

    @property
    def is_reminder(self) -> bool:
        return self.source == SCHEDULE_SOURCE

    @property
    def reminders(self) -> tuple[DueReminder, ...] | None:
        """The due reminders of a follow-up, read by the one framing parser (None: this is not
        a reminder follow-up, or its text is not a framing Chime wrote)."""
        return parse_framing(self.text) if self.is_reminder else None

    def to_data(self) -> dict[str, Any]:
        data: dict[str, Any] = {"id": self.id, "text": self.text, "source": self.source.to_json()}
        if self.parent is not None:
            data["parent"] = self.parent
        if self.revises is not None:
            data["revises"] = self.revises
        if self.attachments:
            data["attachments"] = [attachment.to_json() for attachment in self.attachments]
        if self.skipped:
            data["skipped"] = dict(self.skipped)
        return data


@frozen
class TurnStart:
    """Turn ``turn`` consumes the ``user/message`` at seq ``input``; ``continues`` (Continue,
    agent.md §7) is the seq of the cut ``assistant/message`` of the input's previous turn that
    this turn goes on from (None: an ordinary turn)."""

    turn: int
    input: int
    continues: int | None = None
    type: ClassVar[EventType] = EventType.TURN_START

    def to_data(self) -> dict[str, Any]:
        data: dict[str, Any] = {"turn": self.turn, "input": self.input}
        if self.continues is not None:
            data["continues"] = self.continues
        return data


@frozen
class ContextTime:
    """The turn's time-context reading (agent.md §4); ``time_zone`` None when unknown or mixed."""

    time_zone: str | None
    text: str
    type: ClassVar[EventType] = EventType.CONTEXT_TIME

    def to_data(self) -> dict[str, Any]:
        return {"timeZone": self.time_zone, "text": self.text}


@frozen
class ToolCall:
    """One tool call as the model sent it; ``arguments`` is its raw JSON text (may be invalid)."""

    id: str
    name: str
    arguments: str

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "arguments": self.arguments}


@frozen
class ModelRef:
    """Which provider and model answered."""

    provider: str
    name: str

    def to_json(self) -> dict[str, Any]:
        return {"provider": self.provider, "name": self.name}


@frozen
class TokenUsage:
    """Tokens the endpoint reported for one answer."""

    prompt_tokens: int
    completion_tokens: int

    def to_json(self) -> dict[str, Any]:
        return {"promptTokens": self.prompt_tokens, "completionTokens": self.completion_tokens}


@frozen
class AssistantMessage:
    """One model step's answer: text, the tool calls it asked for, why it stopped."""

    id: str
    text: str
    tool_calls: tuple[ToolCall, ...]
    model: ModelRef
    finish: FinishReason
    usage: TokenUsage | None = None
    duration_ms: int | None = None
    first_text_ms: int | None = None
    """From the request to the answer's first piece of text (None: no text, or not measured)."""
    reasoning: str | None = None
    """The model's thinking before this answer (None: it showed none). Never sent back to it."""
    reasoning_ms: int | None = None
    """How long it thought: from its first piece of reasoning to the end of the reasoning."""
    calls_from_text: bool = False
    """The tool calls were recognised in the answer's text (the server left them unparsed)."""
    reminder_not_set: str | None = None
    """The person asked for a reminder and the turn set none: the ``schedule_create`` arguments
    (a JSON object as text) the offline assistant understood, for the window to offer."""
    type: ClassVar[EventType] = EventType.ASSISTANT_MESSAGE

    def to_data(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": self.id,
            "text": self.text,
            "toolCalls": [call.to_json() for call in self.tool_calls],
            "model": self.model.to_json(),
            "finish": self.finish,
        }
        if self.usage is not None:
            data["usage"] = self.usage.to_json()
        if self.duration_ms is not None:
            data["durationMs"] = self.duration_ms
        if self.first_text_ms is not None:
            data["firstTextMs"] = self.first_text_ms
        if self.reasoning is not None:
            data["reasoning"] = self.reasoning
        if self.reasoning_ms is not None:
            data["reasoningMs"] = self.reasoning_ms
        if self.calls_from_text:
            data["callsFromText"] = True
        if self.reminder_not_set is not None:
            data["reminderNotSet"] = self.reminder_not_set
        return data


@frozen
class ToolLink:
    """A resource link an MCP tool returned: kept as a link, opened only when the person asks."""

    uri: str
    name: str

    def to_json(self) -> dict[str, Any]:
        return {"uri": self.uri, "name": self.name}


@frozen
class ToolResult:
    """The result the model is given for the call ``call_id``. An MCP call also records its
    ``server``, the ``images`` it returned (saved like attachments), its resource ``links`` and,
    when it did not run to its end, ``outcome`` (``TOOL_OUTCOMES``); older logs have none."""

    call_id: str
    name: str
    content: str
    is_error: bool
    server: str | None = None
    images: tuple[Attachment, ...] = ()
    links: tuple[ToolLink, ...] = ()
    outcome: ToolOutcomeKind | None = None
    type: ClassVar[EventType] = EventType.TOOL_RESULT

    def to_data(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "callId": self.call_id,
            "name": self.name,
            "content": self.content,
            "isError": self.is_error,
        }
        if self.server is not None:
            data["server"] = self.server
        if self.images:
            data["images"] = [image.to_json() for image in self.images]
        if self.links:
            data["links"] = [link.to_json() for link in self.links]
        if self.outcome is not None:
            data["outcome"] = self.outcome
        return data


@frozen
class ToolStart:
    """An MCP call ``call_id`` is about to run (appended and flushed right before it does): a
    result missing after it means Chime stopped during the call, which is never run again."""

    call_id: str
    type: ClassVar[EventType] = EventType.TOOL_START

    def to_data(self) -> dict[str, Any]:
        return {"callId": self.call_id}


@frozen
class TurnError:
    """Why a turn failed: an ``ErrorKind``, the English sentence (``message``, what logs written
    before ``reason`` hold) and the failure's code and values (``reason``: None in those logs, or
    when its code is unknown here; the window then shows ``message``)."""

    kind: ErrorKind
    message: str
    reason: Failure | None = None

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"kind": str(self.kind), "message": self.message}
        if self.reason is not None:
            data["reason"] = self.reason.to_json()
        return data


@frozen
class TurnEnd:
    """Turn ``turn`` ended with ``status``; ``error`` says why when it failed."""

    turn: int
    status: TurnStatus
    error: TurnError | None = None
    type: ClassVar[EventType] = EventType.TURN_END

    def to_data(self) -> dict[str, Any]:
        data: dict[str, Any] = {"turn": self.turn, "status": self.status}
        if self.error is not None:
            data["error"] = self.error.to_json()
        return data


@frozen
class SessionTitle:
    """The session's title: given by the person (a rename, a fork's), or written by the model
    after the first exchange (``by_model``, ``"by": "model"`` on the wire), which never replaces
    a person's title (core.session.folds)."""

    title: str
    by_model: bool = False
    type: ClassVar[EventType] = EventType.SESSION_TITLE

    def to_data(self) -> dict[str, Any]:
        return {"title": self.title, "by": "model"} if self.by_model else {"title": self.title}


@frozen
class ScheduleChanged:
    """A ``schedule/change``: ``data`` as given; only the schedule fold decodes it (strictly)."""

    data: Any
    type: ClassVar[EventType] = EventType.SCHEDULE_CHANGE

    def to_data(self) -> Any:
        return self.data


@frozen
class ExchangeHidden:
    """The exchange of input ``input`` leaves the view and the history (or, not ``hidden``,
    comes back)."""

    input: int
    hidden: bool
    type: ClassVar[EventType] = EventType.EXCHANGE_HIDE

    def to_data(self) -> dict[str, Any]:
        return {"input": self.input, "hidden": self.hidden}


@frozen
class PathSelected:
    """The shown path now ends at input ``leaf`` (a version was chosen)."""

    leaf: int
    type: ClassVar[EventType] = EventType.PATH_SELECT

    def to_data(self) -> dict[str, Any]:
        return {"leaf": self.leaf}


@frozen
class SessionModel:
    """This session's model from its next turn on; None fields fall back to the app's settings."""

    provider: str | None
    model: str | None
    temperature: float | None = None
    type: ClassVar[EventType] = EventType.SESSION_MODEL

    def to_data(self) -> dict[str, Any]:
        return {"provider": self.provider, "model": self.model, "temperature": self.temperature}


@frozen
class SessionInstructions:
    """This session's own instructions, appended to the system prompt ("" removes them)."""

    text: str
    type: ClassVar[EventType] = EventType.SESSION_INSTRUCTIONS

    def to_data(self) -> dict[str, Any]:
        return {"text": self.text}


@frozen
class SessionTools:
    """The MCP servers this conversation offers the model from its next turn on, in order."""

    servers: tuple[str, ...]
    type: ClassVar[EventType] = EventType.SESSION_TOOLS

    def to_data(self) -> dict[str, Any]:
        return {"servers": list(self.servers)}


@frozen
class UnknownEvent:
    """An event type this version does not know: kept as given, ignored by every fold."""

    type: str
    data: Any

    def to_data(self) -> Any:
        return self.data


@frozen
class MalformedEvent:
    """A known type whose ``data`` has the wrong shape: kept as given, ignored like an unknown."""

    type: EventType
    data: Any
    problem: str

    def to_data(self) -> Any:
        return self.data


Event: TypeAlias = (
    UserMessage
    | TurnStart
    | ContextTime
    | AssistantMessage
    | ToolResult
    | TurnEnd
    | SessionTitle
    | ScheduleChanged
    | ExchangeHidden
    | PathSelected
    | SessionModel
    | SessionInstructions
    | ToolStart
    | SessionTools
    | UnknownEvent
    | MalformedEvent
)


@frozen
class Entry:
    """One event of a session's log: its index ``seq``, append time ``at`` (the canonical UTC
    instant text, schedule.md §2.1) and ``group``, the size of the atomic group whose first line it
    is (None for every other line; session-log.md §3)."""

    seq: int
    at: str
    event: Event
    group: int | None = None

    @property
    def type(self) -> str:
        return self.event.type

    def to_json(self) -> dict[str, Any]:
        """The envelope in write order (session-log.md §2)."""
        envelope: dict[str, Any] = {
            "seq": self.seq,
            "at": self.at,
            "type": str(self.event.type),  # a plain str for JSON readers, not the enum
            "data": self.event.to_data(),
        }
        if self.group is not None:
            envelope["group"] = self.group
        return envelope


# -- decoding --------------------------------------------------------------------------------


def decode_event(type: str, data: Any) -> Event:
    """The value of one event. Never raises: unknown and ill-shaped events are values too."""
    decoder = _DECODERS.get(type)
    if decoder is None:
        return UnknownEvent(type, data)
    try:
        return decoder(data)
    except EventShapeError as problem:
        return MalformedEvent(EventType(type), data, str(problem))


def decode_entry(envelope: Mapping[str, Any]) -> Entry:
    """An envelope whose ``seq``, ``at``, ``type`` and ``group`` were already checked (the line
    parser and the append build them), decoded with its event."""
    return Entry(
        envelope["seq"],
        envelope["at"],
        decode_event(envelope["type"], envelope["data"]),
        envelope.get("group"),
    )


# The decoders run once per event of a log being opened (10^6 of them): each checks its fields
# inline with ``type(x) is ...`` (a bool is never an int here) and names the first wrong one.


def _object(data: Any, what: str = "data") -> dict[str, Any]:
    if type(data) is not dict:
        raise EventShapeError(f"{what} is not an object")
    return data


def _wrong(key: str, kind: str) -> EventShapeError:
    return EventShapeError(f"{key} is not {kind}")


def _one_of(value: object, allowed: frozenset[str]) -> bool:
    """Whether a decoded JSON value is one of ``allowed`` (``None`` may be one): a list or object
    is not, rather than unhashable."""
    return (value is None or type(value) is str) and value in allowed


@lru_cache(maxsize=256)
def _user_source(time_zone: str | None) -> UserSource:
    """Sources repeat on every message: one value per zone name."""
    return UserSource(time_zone)


@lru_cache(maxsize=256)
def _model_ref(provider: str, name: str) -> ModelRef:
    """Models repeat on every answer: one value per provider and name."""
    return ModelRef(provider, name)


def _source(value: Any) -> Source:
    if value is None:
        return _user_source(None)
    source = _object(value, "source")
    kind = source.get("kind")
    if kind == "user":
        zone = source.get("timeZone")
        if zone is not None and type(zone) is not str:
            raise _wrong("source.timeZone", "a string or null")
        return _user_source(zone)
    if kind == "plugin":
        plugin = source.get("plugin")
        if type(plugin) is not str:
            raise _wrong("source.plugin", "a string")
        return SCHEDULE_SOURCE if plugin == SCHEDULE_SOURCE.plugin else PluginSource(plugin)
    raise EventShapeError("source.kind is neither user nor plugin")


def _user_message(data: Any) -> UserMessage:
    data = _object(data)
    message_id, text = data.get("id"), data.get("text")
    if type(message_id) is not str:
        raise _wrong("id", "a string")
    if type(text) is not str:
        raise _wrong("text", "a string")
    source = data.get("source")
    if len(data) == 3 and source is not None:  # the common message: id, text, source
        return UserMessage(message_id, text, _source(source))
    source = _source(source)
    parent, revises = _optional_seq(data, "parent"), _optional_seq(data, "revises")
    attachments = data.get("attachments")
    if attachments is not None and type(attachments) is not list:
        raise _wrong("attachments", "an array")
    files = tuple(map(_attachment, attachments or ()))
    skipped = data.get("skipped")
    return UserMessage(
        message_id,
        text,
        source,
        parent,
        revises,
        files,
        () if skipped is None else _skipped(skipped),
    )


def _optional_seq(data: dict[str, Any], key: str) -> int | None:
    value = data.get(key)
    if value is not None and (type(value) is not int or value < ROOT):
        raise _wrong(key, "a seq")
    return value


def _attachment(value: Any) -> Attachment:
    item = _object(value, "an attachment")
    name, media_type = item.get("name"), item.get("mediaType")
    sha256, size = item.get("sha256"), item.get("size")
    if type(name) is not str or type(media_type) is not str or type(sha256) is not str:
        raise EventShapeError("an attachment needs a string name, mediaType and sha256")
    if type(size) is not int or size < 0:
        raise _wrong("an attachment's size", "a whole number")
    return Attachment(name, media_type, sha256, size)


def _skipped(value: Any) -> tuple[tuple[str, int], ...]:
    """``{"schedule-2": 3}`` as pairs; anything else is dropped (the field is informational)."""
    if type(value) is not dict:
        return ()
    pairs = tuple(value.items())
    if all(type(k) is str and type(n) is int and n >= 0 for k, n in pairs):
        return pairs
    return ()


def _turn_start(data: Any) -> TurnStart:
    data = _object(data)
    turn, consumed = data.get("turn"), data.get("input")
    if type(turn) is not int:
        raise _wrong("turn", "a whole number")
    if type(consumed) is not int:
        raise _wrong("input", "a whole number")
    return TurnStart(turn, consumed, _optional_seq(data, "continues"))


def _context_time(data: Any) -> ContextTime:
    data = _object(data)
    zone, text = data.get("timeZone"), data.get("text")
    if zone is not None and type(zone) is not str:
        raise _wrong("timeZone", "a string or null")
    if type(text) is not str:
        raise _wrong("text", "a string")
    return ContextTime(zone, text)


def _tool_call(value: Any) -> ToolCall:
    call = _object(value, "a tool call")
    call_id, name, arguments = call.get("id"), call.get("name"), call.get("arguments")
    if type(call_id) is not str or type(name) is not str or type(arguments) is not str:
        raise EventShapeError("a tool call needs string id, name and arguments")
    return ToolCall(call_id, name, arguments)


def _usage(value: Any) -> TokenUsage | None:
    if value is None:
        return None
    usage = _object(value, "usage")
    prompt, completion = usage.get("promptTokens"), usage.get("completionTokens")
    if type(prompt) is not int or type(completion) is not int:
        raise EventShapeError("usage needs whole numbers of prompt and completion tokens")
    return TokenUsage(prompt, completion)


def _assistant_message(data: Any) -> AssistantMessage:
    data = _object(data)
    message_id, text, calls = data.get("id"), data.get("text"), data.get("toolCalls")
    model, finish = _object(data.get("model"), "model"), data.get("finish")
    if type(message_id) is not str:
        raise _wrong("id", "a string")
    if type(text) is not str:
        raise _wrong("text", "a string")
    if type(calls) is not list:
        raise _wrong("toolCalls", "an array")
    provider, name = model.get("provider"), model.get("name")
    if type(provider) is not str or type(name) is not str:
        raise EventShapeError("model needs a string provider and name")
    if not _one_of(finish, FINISH_REASONS):
        raise _wrong("finish", "a known reason")
    duration, first_text = data.get("durationMs"), data.get("firstTextMs")
    if duration is not None and type(duration) is not int:
        raise _wrong("durationMs", "a whole number")
    if first_text is not None and type(first_text) is not int:
        raise _wrong("firstTextMs", "a whole number")
    return AssistantMessage(
        message_id,
        text,
        tuple(map(_tool_call, calls)) if calls else (),
        _model_ref(provider, name),
        finish,
        _usage(data.get("usage")),
        duration,
        first_text,
        *_answer_extras(data),
    )


def _answer_extras(data: dict[str, Any]) -> tuple[str | None, int | None, bool, str | None]:
    """The optional ``reasoning``, ``reasoningMs``, ``callsFromText`` and ``reminderNotSet``."""
    reasoning, thought = data.get("reasoning"), data.get("reasoningMs")
    from_text, not_set = data.get("callsFromText", False), data.get("reminderNotSet")
    if reasoning is not None and type(reasoning) is not str:
        raise _wrong("reasoning", "a string")
    if thought is not None and type(thought) is not int:
        raise _wrong("reasoningMs", "a whole number")
    if type(from_text) is not bool:
        raise _wrong("callsFromText", "a boolean")
    if not_set is not None and type(not_set) is not str:
        raise _wrong("reminderNotSet", "a string")
    return reasoning, thought, from_text, not_set


def _tool_result(data: Any) -> ToolResult:
    data = _object(data)
    call_id, name = data.get("callId"), data.get("name")
    content, is_error = data.get("content"), data.get("isError")
    if type(call_id) is not str or type(name) is not str or type(content) is not str:
        raise EventShapeError("a tool result needs string callId, name and content")
    if type(is_error) is not bool:
        raise _wrong("isError", "a boolean")
    if len(data) == 4:  # the common result: no MCP extras
        return ToolResult(call_id, name, content, is_error)
    return ToolResult(call_id, name, content, is_error, *_result_extras(data))


def _result_extras(
    data: dict[str, Any],
) -> tuple[str | None, tuple[Attachment, ...], tuple[ToolLink, ...], Any]:
    """An MCP result's ``server``, ``images``, ``links`` and ``outcome``: informational, so an
    ill-shaped one is dropped and the result itself still reads."""
    server, outcome = data.get("server"), data.get("outcome")
    try:
        images = tuple(map(_attachment, _list(data.get("images"))))
    except EventShapeError:
        images = ()
    links = tuple(
        ToolLink(item["uri"], item["name"])
        for item in _list(data.get("links"))
        if type(item) is dict and type(item.get("uri")) is str and type(item.get("name")) is str
    )
    return (
        server if type(server) is str else None,
        images,
        links,
        outcome if _one_of(outcome, TOOL_OUTCOMES) else None,
    )


def _list(value: Any) -> list[Any]:
    return value if type(value) is list else []


def _tool_start(data: Any) -> ToolStart:
    call_id = _object(data).get("callId")
    if type(call_id) is not str:
        raise _wrong("callId", "a string")
    return ToolStart(call_id)


def _session_tools(data: Any) -> SessionTools:
    servers = _object(data).get("servers")
    if type(servers) is not list or not all(type(s) is str for s in servers):
        raise _wrong("servers", "an array of strings")
    return SessionTools(tuple(servers))


def _turn_end(data: Any) -> TurnEnd:
    data = _object(data)
    turn, status, error = data.get("turn"), data.get("status"), data.get("error")
    if type(turn) is not int:
        raise _wrong("turn", "a whole number")
    if not _one_of(status, TURN_STATUSES):
        raise _wrong("status", "a known turn status")
    if error is None:
        return TurnEnd(turn, status)
    error = _object(error, "error")
    kind, message = error.get("kind"), error.get("message")
    if type(kind) is not str or type(message) is not str:
        raise EventShapeError("error needs a string kind and message")
    known = ErrorKind(kind) if kind in _ERROR_KINDS else ErrorKind.OTHER
    return TurnEnd(turn, status, TurnError(known, message, read_failure(error.get("reason"))))


def _session_title(data: Any) -> SessionTitle:
    title = _object(data).get("title")
    if type(title) is not str:
        raise _wrong("title", "a string")
    return SessionTitle(title, _object(data).get("by") == "model")  # any other: a person's


def _exchange_hidden(data: Any) -> ExchangeHidden:
    data = _object(data)
    seq, hidden = data.get("input"), data.get("hidden")
    if type(seq) is not int or seq < 0:
        raise _wrong("input", "a seq")
    if type(hidden) is not bool:
        raise _wrong("hidden", "a boolean")
    return ExchangeHidden(seq, hidden)


def _path_selected(data: Any) -> PathSelected:
    leaf = _object(data).get("leaf")
    if type(leaf) is not int or leaf < 0:
        raise _wrong("leaf", "a seq")
    return PathSelected(leaf)


def _session_model(data: Any) -> SessionModel:
    data = _object(data)
    provider, model, temperature = data.get("provider"), data.get("model"), data.get("temperature")
    if provider is not None and type(provider) is not str:
        raise _wrong("provider", "a string or null")
    if model is not None and type(model) is not str:
        raise _wrong("model", "a string or null")
    if temperature is not None and type(temperature) not in (int, float):
        raise _wrong("temperature", "a number or null")
    return SessionModel(provider, model, None if temperature is None else float(temperature))


def _session_instructions(data: Any) -> SessionInstructions:
    text = _object(data).get("text")
    if type(text) is not str:
        raise _wrong("text", "a string")
    return SessionInstructions(text)


_DECODERS: dict[str, Callable[[Any], Event]] = {
    EventType.USER_MESSAGE: _user_message,
    EventType.TURN_START: _turn_start,
    EventType.CONTEXT_TIME: _context_time,
    EventType.ASSISTANT_MESSAGE: _assistant_message,
    EventType.TOOL_RESULT: _tool_result,
    EventType.TURN_END: _turn_end,
    EventType.SESSION_TITLE: _session_title,
    EventType.SCHEDULE_CHANGE: ScheduleChanged,
    EventType.EXCHANGE_HIDE: _exchange_hidden,
    EventType.PATH_SELECT: _path_selected,
    EventType.SESSION_MODEL: _session_model,
    EventType.SESSION_INSTRUCTIONS: _session_instructions,
    EventType.TOOL_START: _tool_start,
    EventType.SESSION_TOOLS: _session_tools,
}
