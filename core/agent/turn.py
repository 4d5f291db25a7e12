"""One turn of the agent (agent.md §3): the model steps, the tool calls and what the log records.
Must not decide which input runs or when: the agent's pump does that.

The runner appends ``context/time``, then loops: barrier, model request (system prompt, the
history window, the turn's reading, the tool definitions), streamed answer, ``assistant/message``,
and for each tool call in order: validate (known name, JSON arguments), barrier, the tool,
``tool/result``. A step's reasoning is recorded beside its text, with how long it streamed; a last
answer that left a reminder request without a ``schedule_create`` call records the reminder the
offline assistant understood (``core.agent.safety_net``). It stops when a step has no tool calls, or after ``MAX_STEPS`` steps: the last
step's message is then recorded with ``finish: "length"`` and its calls get error results without
running (the model will not see them, so running them would act behind its back). A step runs at
most ``MAX_TOOL_CALLS`` of its calls; each call beyond gets an error result saying so, which the
model reads at its next step (agent.md §3: a model cannot make one turn run for hours). The loop
yields to the event loop before every call, so Stop (a cancellation) lands between any two calls
even when no tool awaits anything. ``TurnState`` is what the pump needs to close a cancelled turn.
A Continue's first step (``TurnState.onward``) shows the cut text at once and records it with
what the model added (``core.agent.continuation``); stopped or failed before the model said
anything, it records the cut text as its answer, so the answer is never lost from view.

A provider with a bounded context (``BudgetedProvider``: an endpoint) is asked its token budget
at every step; the history is then fitted to what the budget leaves once the system prompt, the
tool definitions and the reading are counted (``core.llm.budget`` estimates), whole older turns
dropped first. The answer's share of the budget is the provider's ``max_tokens``.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncGenerator, Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from core.agent.continuation import Onward
from core.agent.files import needed, with_files
from core.agent.safety_net import CREATE, missed_reminder
from core.agent.tool_registry import OnStart, ToolOutcome, ToolRegistry
from core.clock import Clock
from core.errors import ErrorKind, ProviderError
from core.events import (
    AssistantMessage,
    Event,
    FinishReason,
    ModelRef,
    ToolCall,
    ToolResult,
    ToolStart,
    TurnEnd,
    TurnError,
    TurnStatus,
)
from core.failures import Failure, FailureCode
from core.llm.budget import fixed_tokens
from core.llm.messages import Finish, Message, ModelRequest, ReasoningDelta, TextDelta
from core.llm.provider import BudgetedProvider, ModelProvider
from core.time_context import TimeReading

MAX_STEPS = 8
MAX_TOOL_CALLS = 64
"""The tool calls one model step may run; the rest of that step's calls are answered, not run."""
STEP_LIMIT_TEXT = f"Not run: this turn reached its limit of {MAX_STEPS} model steps."
CALL_LIMIT_TEXT = (
    f"Not run: one step may make at most {MAX_TOOL_CALLS} tool calls, and this was call "
    "{number} of {total}. Make the calls still needed in your next step."
)
CANCELLED_TEXT = "Cancelled before this tool finished; its outcome is unknown."

_log = logging.getLogger(__name__)


@dataclass
class TurnState:
    """The mutable progress of one turn, shared with the pump for cancellation closers."""

    turn: int
    pieces: list[str] = field(default_factory=list)
    """The streamed text of the current step, as received (joined only when recorded: adding to
    one string per delta copies the whole answer each time, quadratic for a long answer)."""
    streaming: bool = False
    first_text_at: datetime | None = None
    """When the current step's first piece of text arrived (None: none yet)."""
    open_calls: list[ToolCall] = field(default_factory=list)
    started: dict[str, str] = field(default_factory=dict)
    """Open calls that went out to an MCP server (``tool/start`` recorded): id -> server."""
    model: ModelRef = field(default_factory=lambda: ModelRef("", ""))
    thinking: list[str] = field(default_factory=list)
    """The streamed reasoning of the current step, as received."""
    thought_from: datetime | None = None
    """When the current step's first piece of reasoning arrived (None: none yet)."""
    thought_until: datetime | None = None
    """When its reasoning ended: the first piece of answer after it (None: not yet)."""
    onward: Onward | None = None
    """A Continue's first step: the cut text it goes on from (``core.agent.continuation``)."""

    @property
    def partial(self) -> str:
        """The text streamed so far in the current step."""
        return "".join(self.pieces)


def onward_state(turn: int, prefix: str) -> TurnState:
    """The state of a Continue's turn: the cut text is its streamed text from the start, so a
    Stop or failure before the model says anything keeps it as the answer."""
    return TurnState(turn, [prefix], streaming=True, onward=Onward(prefix))


@dataclass(frozen=True, slots=True)
class TurnOutcome:
    status: TurnStatus
    error: TurnError | None = None


@dataclass(frozen=True, slots=True)
class TurnContext:
    """What a turn reads and where it writes. ``append`` feeds the agent's folds too."""

    history: Callable[[int | None], tuple[Message, ...]]
    """The turn's history within the given token budget (None: unbounded)."""
    read_attachment: Callable[[str], Awaitable[bytes | None]]
    append: Callable[[Event], None]
    barrier: Callable[[], Any]
    provider: ModelProvider
    tools: ToolRegistry
    system_prompt: str
    new_id: Callable[[], str]
    on_delta: Callable[[str], None]
    clock: Clock
    temperature: float | None = None
    on_reasoning: Callable[[str], None] = lambda _text: None
    """Streaming reasoning as it arrives (shown apart from the answer)."""


async def run_steps(ctx: TurnContext, state: TurnState, reading: TimeReading) -> TurnOutcome:
    """The model/tool loop of one turn. ProviderError ends it ``failed``; cancellation propagates."""
    info = ctx.provider.info
    state.model = ModelRef(info.provider, info.name)
    created = False
    if state.onward is not None:  # the cut text is shown at once
        ctx.on_delta(state.onward.prefix)
    try:
        for step in range(MAX_STEPS):
            await ctx.barrier()
            began = ctx.clock()
            request = await _request(ctx, reading)
            finish = await _stream(ctx, state, request)
            ended, first = ctx.clock(), state.first_text_at
            timing = StepTiming(_ms(ended - began), None if first is None else _ms(first - began))
            last = step == MAX_STEPS - 1
            created = created or any(c.name == CREATE for c in finish.tool_calls)
            unset = None
            if not created and not finish.tool_calls:
                unset = missed_reminder(request, began, reading.zone_name)
            _record_answer(ctx, state, finish, timing, last=last, unset=unset)
            if not finish.tool_calls:
                break
            await _run_calls(ctx, state, finish.tool_calls, skip=last)
    except ProviderError as error:
        _keep_partial(ctx, state)
        return TurnOutcome("failed", TurnError(error.kind, error.message, error.failure))
    return TurnOutcome("completed")


async def _request(ctx: TurnContext, reading: TimeReading) -> ModelRequest:
    budget = await ctx.provider.budget() if isinstance(ctx.provider, BudgetedProvider) else None
    await ctx.tools.prepare(None if budget is None else budget.prompt_tokens)
    tools = ctx.tools.definitions()
    room: int | None = None
    if budget is not None:
        room = budget.prompt_tokens - fixed_tokens(ctx.system_prompt, tools, reading.text)
    messages = ctx.history(room)
    files = {sha: await ctx.read_attachment(sha) for sha in needed(messages)}
    return ModelRequest(
        system=ctx.system_prompt,
        messages=with_files(messages, files),
        tools=tools,
        time_context=reading.text,
        time_zone=reading.zone_name,
        temperature=ctx.temperature,
    )


def _ms(elapsed: timedelta) -> int:
    return max(0, round(elapsed.total_seconds() * 1000))


@dataclass(frozen=True, slots=True)
class StepTiming:
    """How long a model step took from its request, and until its first piece of text."""

    duration_ms: int
    first_text_ms: int | None


async def _stream(ctx: TurnContext, state: TurnState, request: ModelRequest) -> Finish:
    onward = state.onward
    state.pieces = [] if onward is None else [onward.prefix]
    state.streaming, state.first_text_at = True, None
    state.thinking, state.thought_from, state.thought_until = [], None, None
    stream = ctx.provider.stream(request)
    try:
        async for chunk in stream:
            if isinstance(chunk, TextDelta):
                if state.first_text_at is None and chunk.text:
                    state.first_text_at = ctx.clock()
                if state.thought_from is not None and state.thought_until is None:
                    state.thought_until = ctx.clock()
                shown = chunk.text if onward is None else onward.shown(chunk.text)
                if shown:
                    state.pieces.append(shown)
                    ctx.on_delta(shown)
            elif isinstance(chunk, ReasoningDelta):
                state.thought_from = state.thought_from or ctx.clock()
                state.thinking.append(chunk.text)
                ctx.on_reasoning(chunk.text)
            elif isinstance(chunk, Finish):
                return chunk
        raise ProviderError.because(ErrorKind.BAD_RESPONSE, Failure(FailureCode.UNFINISHED))
    finally:
        await _close(stream)


async def _close(stream: AsyncGenerator[Any, None]) -> None:
    await stream.aclose()


def _record_answer(
    ctx: TurnContext,
    state: TurnState,
    finish: Finish,
    timing: StepTiming,
    *,
    last: bool,
    unset: str | None = None,
) -> None:
    calls = finish.tool_calls
    reason: FinishReason
    if calls:
        reason = "length" if last else "tool_calls"
    else:
        reason = "length" if finish.reason == "length" else "stop"
    model = ModelRef(state.model.provider, finish.model or state.model.name)
    text = finish.text if state.onward is None else state.onward.text(finish.text)
    state.onward = None
    answer = AssistantMessage(
        ctx.new_id(),
        text,
        calls,
        model,
        reason,
        finish.usage,
        timing.duration_ms,
        timing.first_text_ms,
        finish.reasoning or None,
        _thought_ms(ctx, state) if finish.reasoning else None,
        finish.calls_from_text,
        unset,
    )
    state.pieces, state.streaming = [], False
    state.open_calls = list(calls)
    ctx.append(answer)


async def _run_calls(
    ctx: TurnContext, state: TurnState, calls: Sequence[ToolCall], *, skip: bool
) -> None:
    for number, call in enumerate(calls, start=1):
        await asyncio.sleep(0)  # Stop lands here too, between any two calls
        if skip:
            outcome = ToolOutcome(STEP_LIMIT_TEXT, is_error=True)
        elif number > MAX_TOOL_CALLS:
            text = CALL_LIMIT_TEXT.format(number=number, total=len(calls))
            outcome = ToolOutcome(text, is_error=True)
        else:
            outcome = await ctx.tools.run(
                call.name,
                call.arguments,
                before_call=ctx.barrier,
                call_id=call.id,
                on_start=_starter(ctx, state, call),
            )
            if outcome.failure is not None:
                _log.error("tool %s failed", call.name, exc_info=outcome.failure)
        state.open_calls.remove(call)
        state.started.pop(call.id, None)
        ctx.append(
            ToolResult(
                call.id,
                call.name,
                outcome.content,
                outcome.is_error,
                outcome.server,
                outcome.images,
                outcome.links,
                outcome.outcome,
            )
        )


def _starter(ctx: TurnContext, state: TurnState, call: ToolCall) -> OnStart:
    """Records that ``call`` goes out (``tool/start``, made durable) right before it does."""

    async def start(server: str) -> None:
        state.started[call.id] = server
        ctx.append(ToolStart(call.id))
        await ctx.barrier()

    return start


def _thought_ms(ctx: TurnContext, state: TurnState) -> int | None:
    """How long the step's reasoning streamed (None: it came whole, with the answer)."""
    if state.thought_from is None:
        return None
    return _ms((state.thought_until or ctx.clock()) - state.thought_from)


def _keep_partial(ctx: TurnContext, state: TurnState) -> None:
    """Records a streamed-but-unfinished answer as ``finish: "interrupted"`` (if it had text or
    reasoning)."""
    partial, thought = state.partial, "".join(state.thinking).strip()
    if state.streaming and (partial or thought):
        ctx.append(
            AssistantMessage(
                ctx.new_id(),
                partial,
                (),
                state.model,
                "interrupted",
                reasoning=thought or None,
                reasoning_ms=_thought_ms(ctx, state) if thought else None,
            )
        )
    state.pieces, state.streaming, state.thinking = [], False, []


def close_open(ctx: TurnContext, state: TurnState) -> None:
    """Keeps the partial answer and gives every call without a result an error result."""
    _keep_partial(ctx, state)
    for call in list(state.open_calls):
        # a call stopped while its question was open has no tool/start: its server by its name
        server = state.started.get(call.id) or ctx.tools.server_of(call.name)
        if server is None:
            ctx.append(ToolResult(call.id, call.name, CANCELLED_TEXT, is_error=True))
        else:
            ctx.append(
                ToolResult(call.id, call.name, CANCELLED_TEXT, True, server, outcome="cancelled")
            )
    state.open_calls.clear()
    state.started.clear()


def close_cancelled(ctx: TurnContext, state: TurnState, status: TurnStatus) -> None:
    """Closers of a turn ended from outside (agent.md §1 ``cancel()``): the partial answer, an
    error result for every call without one, then ``turn/end`` with ``status``."""
    close_open(ctx, state)
    ctx.append(TurnEnd(state.turn, status))
