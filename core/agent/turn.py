"""One turn of the agent (agent.md §3): the model steps, the tool calls and what the log records.
Must not decide which input runs or when: the agent's pump does that.

The runner appends ``context/time``, then loops: barrier, model request (system prompt, the
history window, the turn's reading, the tool definitions), streamed answer, ``assistant/message``,
and for each tool call in order: validate (known name, JSON arguments), barrier, the tool,
``tool/result``. It stops when a step has no tool calls, or after ``MAX_STEPS`` steps: the last
step's message is then recorded with ``finish: "length"`` and its calls get error results without
running (the model will not see them, so running them would act behind its back). ``TurnState``
is what the pump needs to close a cancelled turn.

A provider with a bounded context (``BudgetedProvider``: an endpoint) is asked its token budget
at every step; the history is then fitted to what the budget leaves once the system prompt, the
tool definitions and the reading are counted (``core.llm.budget`` estimates), whole older turns
dropped first. The answer's share of the budget is the provider's ``max_tokens``.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncGenerator, Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from core.agent.files import needed, with_files
from core.agent.tool_registry import ToolRegistry
from core.clock import Clock
from core.errors import ErrorKind, ProviderError
from core.events import (
    AssistantMessage,
    Event,
    FinishReason,
    ModelRef,
    ToolCall,
    ToolResult,
    TurnEnd,
    TurnError,
    TurnStatus,
)
from core.failures import Failure, FailureCode
from core.llm.budget import fixed_tokens
from core.llm.messages import Finish, Message, ModelRequest, TextDelta
from core.llm.provider import BudgetedProvider, ModelProvider
from core.time_context import TimeReading

MAX_STEPS = 8
STEP_LIMIT_TEXT = "Not run: this turn reached its limit of 8 model steps."
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
    model: ModelRef = field(default_factory=lambda: ModelRef("", ""))

    @property
    def partial(self) -> str:
        """The text streamed so far in the current step."""
        return "".join(self.pieces)


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


async def run_steps(ctx: TurnContext, state: TurnState, reading: TimeReading) -> TurnOutcome:
    """The model/tool loop of one turn. ProviderError ends it ``failed``; cancellation propagates."""
    info = ctx.provider.info
    state.model = ModelRef(info.provider, info.name)
    try:
        for step in range(MAX_STEPS):
            await ctx.barrier()
            began = ctx.clock()
            finish = await _stream(ctx, state, await _request(ctx, reading))
            ended, first = ctx.clock(), state.first_text_at
            timing = StepTiming(_ms(ended - began), None if first is None else _ms(first - began))
            last = step == MAX_STEPS - 1
            _record_answer(ctx, state, finish, timing, last=last)
            if not finish.tool_calls:
                break
            await _run_calls(ctx, state, finish.tool_calls, skip=last)
    except ProviderError as error:
        _keep_partial(ctx, state)
        return TurnOutcome("failed", TurnError(error.kind, error.message, error.failure))
    return TurnOutcome("completed")


async def _request(ctx: TurnContext, reading: TimeReading) -> ModelRequest:
    tools = ctx.tools.definitions()
    room: int | None = None
    if isinstance(ctx.provider, BudgetedProvider):
        budget = await ctx.provider.budget()
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
    state.pieces, state.streaming, state.first_text_at = [], True, None
    stream = ctx.provider.stream(request)
    try:
        async for chunk in stream:
            if isinstance(chunk, TextDelta):
                if state.first_text_at is None and chunk.text:
                    state.first_text_at = ctx.clock()
                state.pieces.append(chunk.text)
                ctx.on_delta(chunk.text)
            elif isinstance(chunk, Finish):
                return chunk
        raise ProviderError.because(ErrorKind.BAD_RESPONSE, Failure(FailureCode.UNFINISHED))
    finally:
        await _close(stream)


async def _close(stream: AsyncGenerator[Any, None]) -> None:
    await stream.aclose()


def _record_answer(
    ctx: TurnContext, state: TurnState, finish: Finish, timing: StepTiming, *, last: bool
) -> None:
    calls = finish.tool_calls
    reason: FinishReason
    if calls:
        reason = "length" if last else "tool_calls"
    else:
        reason = "length" if finish.reason == "length" else "stop"
    model = ModelRef(state.model.provider, finish.model or state.model.name)
    answer = AssistantMessage(
        ctx.new_id(),
        finish.text,
        calls,
        model,
        reason,
        finish.usage,
        timing.duration_ms,
        timing.first_text_ms,
    )
    state.pieces, state.streaming = [], False
    state.open_calls = list(calls)
    ctx.append(answer)


async def _run_calls(
    ctx: TurnContext, state: TurnState, calls: Sequence[ToolCall], *, skip: bool
) -> None:
    for call in calls:
        if skip:
            content, is_error = STEP_LIMIT_TEXT, True
        else:
            outcome = await ctx.tools.run(call.name, call.arguments, before_call=ctx.barrier)
            if outcome.failure is not None:
                _log.error("tool %s failed", call.name, exc_info=outcome.failure)
            content, is_error = outcome.content, outcome.is_error
        state.open_calls.remove(call)
        ctx.append(ToolResult(call.id, call.name, content, is_error))


def _keep_partial(ctx: TurnContext, state: TurnState) -> None:
    """Records a streamed-but-unfinished answer as ``finish: "interrupted"`` (if it had text)."""
    partial = state.partial
    if state.streaming and partial:
        ctx.append(AssistantMessage(ctx.new_id(), partial, (), state.model, "interrupted"))
    state.pieces, state.streaming = [], False


def close_open(ctx: TurnContext, state: TurnState) -> None:
    """Keeps the partial answer and gives every call without a result an error result."""
    _keep_partial(ctx, state)
    for call in list(state.open_calls):
        ctx.append(ToolResult(call.id, call.name, CANCELLED_TEXT, is_error=True))
    state.open_calls.clear()


def close_cancelled(ctx: TurnContext, state: TurnState, status: TurnStatus) -> None:
    """Closers of a turn ended from outside (agent.md §1 ``cancel()``): the partial answer, an
    error result for every call without one, then ``turn/end`` with ``status``."""
    close_open(ctx, state)
    ctx.append(TurnEnd(state.turn, status))
