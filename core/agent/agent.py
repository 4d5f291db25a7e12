"""The local agent of one live session (agent.md §1-§3): input queue, turns, maintenance phase.
Must not know Qt, read the machine clock or zone (injected), or know which tools exist.

Choices the spec leaves open (written down here):

- Input is appended to the log at once and the session's input-queue fold
  (``core.session.folds``, read through ``SessionPort.inputs()``) decides what runs: one input per
  turn, oldest first. A failed turn consumes its input, which becomes *failed* (agent.md §7):
  later input runs on its own, and ``retry(seq)`` queues a new turn on the failed one (retries
  asked for run before pending input; a retry request is not recorded until its ``turn/start``).
- The verbs of agent.md §7 append one event each (``edit``/``regenerate``: a ``user/message``
  version; ``hide``: ``exchange/hide``; ``select``: ``path/select``; ``choose_model``:
  ``session/model``; ``set_instructions``: ``session/instructions``; ``choose_tools``:
  ``session/tools``), so no crash can leave half a
  verb in the log. A new input follows the shown leaf (its ``parent`` written only when it is not
  the previous input).
- ``start()`` runs input left pending by an earlier run (e.g. a reminder admitted just before a
  crash, or a turn the app closed mid-way), so a reopened session answers it.
- ``cancel()`` ends the running turn with ``status: "cancelled"``; ``dispose()`` ends it with
  ``status: "interrupted"`` (the same closers crash recovery writes), so its input is answered
  again when the session next runs, by a turn that continues from the calls and results the
  interrupted one recorded (``core.agent.history``): none of its calls is made again.
- A partial answer is kept (``finish: "interrupted"``) only when some text had streamed.
- ``continue_answer(seq)`` queues a Continue of a cut answer (agent.md §7), run after the
  retries asked for and before pending input: a turn whose ``turn/start`` names the answer it
  goes on from (``continues``) and whose answer is the whole text (``core.agent.continuation``).
- A barrier (``flush``) that fails before a model request or a tool does not stop the turn: the
  events stay queued in the live log and the session reports the warning to its observers. On a
  log checked in stages after a warm open (``StagedLog``) it is ``flush_staged``: a turn reads no
  reminder (the schedule tools take the whole check's barrier themselves), so it need not wait
  for the check of reminders due later.
- The provider is read once per turn: a provider swapped meanwhile answers from the next turn.
- Unexpected exceptions inside a turn end it ``failed`` with kind ``internal`` (and are logged).
- A log that turns read-only under a running turn (``SessionReadOnlyError`` from an append, or a
  barrier that failed because of it, e.g. after a failed verification of a warm open, whichever
  the turn meets first) stops the agent for good: nothing more can be
  recorded, not even ``turn/end``. The pump ends without an exception, the status observers see
  ``idle``, the turn observers see ``(turn, "interrupted")`` (what recovery will record when the
  session next opens writable), ``stopped`` holds the reason, and later input is refused by the
  log itself (``submit`` raises ``SessionReadOnlyError``, appending nothing).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any, Literal, TypeVar

from core.agent.continuation import cut_answer
from core.agent.history import assistant_message, fold_history
from core.agent.tool_registry import ToolRegistry
from core.agent.turn import (
    TurnContext,
    TurnOutcome,
    TurnState,
    close_cancelled,
    close_open,
    onward_state,
    run_steps,
)
from core.clock import Clock, NewId, ZoneSource
from core.errors import ErrorKind, SessionReadOnlyError
from core.events import (
    SCHEDULE_SOURCE,
    AssistantMessage,
    Attachment,
    ContextTime,
    Event,
    ExchangeHidden,
    PathSelected,
    ScheduleChanged,
    SessionInstructions,
    SessionModel,
    SessionTools,
    Source,
    TurnEnd,
    TurnError,
    TurnStart,
    TurnStatus,
    UserMessage,
    UserSource,
)
from core.failures import Failure, FailureCode, english
from core.llm.provider import ModelProvider
from core.schedule.log import StagedLog
from core.schedule.owner import FollowupBuildError
from core.session.conversation import parent_of
from core.session.port import SessionPort
from core.time_context import sample_zone, time_reading

AgentStatus = Literal["idle", "running"]
T = TypeVar("T")
Unsubscribe = Callable[[], None]

INSTRUCTIONS_HEADING = "Instructions for this conversation:"
"""Heads the session's own instructions after the stable system prompt (agent.md §7)."""

_log = logging.getLogger(__name__)


class AgentMaintenanceClaim:
    """The agent's maintenance phase, held by one job (the reminder owner) until ``release()``:
    the agent's side of the owner's ``MaintenanceClaim`` (``core/schedule/owner.py``)."""

    def __init__(self, agent: Agent) -> None:
        self._agent: Agent | None = agent

    def admit_reminder(
        self,
        text: str,
        changes: Sequence[Mapping[str, Any]],
        skipped: Mapping[str, int] | None = None,
    ) -> None:
        """Appends the reminder ``user/message`` (with the ``skipped`` occurrence counts of its
        recurring reminders, agent.md §2) and its dispatch changes as ONE atomic group.
        Raises (and appends nothing) when the claim was released or the log refuses the group,
        and ``FollowupBuildError`` when the message could not be built (schedule.md §10.3 7.4)."""
        if self._agent is None:
            raise RuntimeError("the maintenance claim was already released")
        self._agent._admit(text, changes, skipped or {})

    def release(self) -> None:
        agent, self._agent = self._agent, None
        if agent is not None:
            agent._release()


class Agent:
    """Turns pending input into turns. Create inside a running event loop's thread; call
    ``start()`` once the observers are connected. Implements the owner's ``MaintenanceHost``."""

    def __init__(
        self,
        log: SessionPort,
        provider: ModelProvider,
        tools: ToolRegistry,
        clock: Clock,
        zone_source: ZoneSource,
        *,
        system_prompt: str,
        new_id: NewId,
    ) -> None:
        self._log = log
        # reading no reminder, a turn needs only the first stage of a warm open's check
        self._flush = log.flush_staged if isinstance(log, StagedLog) else log.flush
        self.provider = provider
        self._tools = tools
        self._clock = clock
        self._zone_source = zone_source
        self._system_prompt = system_prompt
        self._new_id = new_id
        self._status: AgentStatus = "idle"
        self._claim: AgentMaintenanceClaim | None = None
        self._pump: asyncio.Task[None] | None = None
        self._turn_task: asyncio.Task[TurnOutcome] | None = None
        self._end_status: TurnStatus = "cancelled"
        self._retries: list[int] = []
        self._onward: list[int] = []
        """Inputs whose cut answer a Continue was asked for, oldest first."""
        self._closed = False
        self._running_turn: int | None = None
        self.stopped: str | None = None
        """Why the agent stopped on its own (the log turned read-only), else None."""
        self._idle_waiters: list[asyncio.Future[None]] = []
        self._status_observers: list[Callable[[AgentStatus], None]] = []
        self._delta_observers: list[Callable[[str], None]] = []
        self._reasoning_observers: list[Callable[[str], None]] = []
        self._turn_observers: list[Callable[[int, str], None]] = []

    # --- public state and observers -------------------------------------------------------

    @property
    def status(self) -> AgentStatus:
        """``idle`` or ``running``; the maintenance phase shows as ``idle``."""
        return self._status

    @property
    def in_maintenance(self) -> bool:
        return self._claim is not None

    @property
    def pending_inputs(self) -> tuple[int, ...]:
        """Seqs of the pending ``user/message`` events, oldest first."""
        return self._log.inputs().pending

    @property
    def failed_inputs(self) -> frozenset[int]:
        """Seqs of the inputs whose latest turn failed (each can be retried)."""
        return self._log.inputs().failed

    def can_retry(self, input_seq: int | None = None) -> bool:
        """True when ``input_seq`` (default: the newest failed input) failed and is not queued."""
        seq = self._newest_failed() if input_seq is None else input_seq
        return seq is not None and seq in self.failed_inputs and seq not in self._retries

    def on_status(self, callback: Callable[[AgentStatus], None]) -> Unsubscribe:
        return _subscribe(self._status_observers, callback)

    def on_delta(self, callback: Callable[[str], None]) -> Unsubscribe:
        """Streaming answer text as it arrives (not events; the finished message is one event)."""
        return _subscribe(self._delta_observers, callback)

    def on_reasoning(self, callback: Callable[[str], None]) -> Unsubscribe:
        """Streaming reasoning (the model's thinking) as it arrives, apart from the answer."""
        return _subscribe(self._reasoning_observers, callback)

    def on_turn_end(self, callback: Callable[[int, str], None]) -> Unsubscribe:
        """``(turn, status)`` after each ``turn/end`` is appended."""
        return _subscribe(self._turn_observers, callback)

    # --- input ----------------------------------------------------------------------------

    def start(self) -> None:
        """Runs input left pending by an earlier run of this session (needs a running loop)."""
        self._kick()

    def submit(
        self, text: str, time_zone: str | None, attachments: Sequence[Attachment] = ()
    ) -> str:
        """Appends the user's input at once (also while a turn runs); returns its message id."""
        return self.followup(text, UserSource(time_zone), attachments)

    def followup(self, text: str, source: Source, attachments: Sequence[Attachment] = ()) -> str:
        """Appends a pending input that starts a normal later turn once the agent is idle."""
        message_id = self._new_id()
        parent = self._log.inputs().parent
        self._append(UserMessage(message_id, text, source, parent, attachments=tuple(attachments)))
        self._kick()
        return message_id

    def retry(self, input_seq: int | None = None) -> bool:
        """Queues a new turn on a failed input (default: the newest one); False when it did not
        fail, is already queued, or the agent is disposed."""
        seq = self._newest_failed() if input_seq is None else input_seq
        if seq is None or self._closed or not self.can_retry(seq):
            return False
        self._retries.append(seq)
        self._kick()
        return True

    def continue_answer(self, input_seq: int) -> bool:
        """Queues a Continue of input ``input_seq``'s cut answer (agent.md §7: a new turn that
        goes on from it); False when its answer is not cut, a Continue of it is queued already,
        or the agent is disposed."""
        if self._closed or input_seq in self._onward:
            return False
        if cut_answer(self._log.entries, input_seq) is None:
            return False
        self._onward.append(input_seq)
        self._kick()
        return True

    def edit(self, input_seq: int, text: str, time_zone: str | None) -> int:
        """Appends a new version of input ``input_seq`` with ``text`` (agent.md §7): it becomes
        the leaf and gets its own turn. Returns its seq; ValueError when ``input_seq`` is no input."""
        original = self._input(input_seq)
        source = (
            UserSource(time_zone) if isinstance(original.source, UserSource) else original.source
        )
        return self._new_version(input_seq, original, text, source)

    def regenerate(self, input_seq: int) -> int:
        """A new version of ``input_seq`` with its text, source and attachments: a new answer
        that keeps the old one reachable. Returns its seq."""
        original = self._input(input_seq)
        return self._new_version(input_seq, original, original.text, original.source)

    def hide(self, input_seq: int, hidden: bool = True) -> None:
        """Takes the exchange of ``input_seq`` out of the view and the history (or back in)."""
        self._input(input_seq)
        self._append(ExchangeHidden(input_seq, hidden))

    def select(self, leaf: int) -> None:
        """Shows (and sends from now on) the path ending at input ``leaf``."""
        self._input(leaf)
        self._append(PathSelected(leaf))

    def choose_model(
        self, provider: str | None, model: str | None, temperature: float | None = None
    ) -> None:
        """This session's model from its next turn on (None: the app's setting)."""
        self._append(SessionModel(provider, model, temperature))

    def set_instructions(self, text: str) -> None:
        """This session's own instructions, appended to the system prompt (\"\" removes them)."""
        self._append(SessionInstructions(text))

    def choose_tools(self, servers: Sequence[str]) -> None:
        """The MCP servers this session offers the model from its next step on (``()``: none)."""
        self._append(SessionTools(tuple(servers)))

    def cancel(self) -> bool:
        """Ends the running turn (``status: "cancelled"``); False when no turn runs."""
        task = self._turn_task
        if task is None or task.done():
            return False
        self._end_status = "cancelled"
        task.cancel()
        return True

    async def when_idle(self) -> None:
        """Resolves when the agent is idle, out of maintenance, with no runnable input (at once
        after ``dispose()``: a disposed agent runs nothing more)."""
        if self._closed or self._is_settled():
            return
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._idle_waiters.append(future)
        await future

    def claim_maintenance(self) -> AgentMaintenanceClaim | None:
        """The maintenance phase, or None at once when a turn runs or another job holds it."""
        if self._closed or self._claim is not None or self._pump is not None:
            return None
        self._claim = AgentMaintenanceClaim(self)
        return self._claim

    def run_maintenance(
        self, job: Callable[[AgentMaintenanceClaim], Awaitable[T]]
    ) -> Awaitable[T] | None:
        """agent.md §1 ``run_maintenance``: None at once (synchronously) when refused, else an
        awaitable that runs ``job(claim)`` inside the phase and releases it however it ends."""
        claim = self.claim_maintenance()
        if claim is None:
            return None
        return _run_claimed(claim, job)

    async def dispose(self) -> None:
        """Stops for good: a running turn ends ``interrupted``; idle waiters are cancelled."""
        self._closed = True
        task = self._turn_task
        if task is not None and not task.done():
            self._end_status = "interrupted"
            task.cancel()
        if self._pump is not None:
            await asyncio.gather(self._pump, return_exceptions=True)
        for future in self._idle_waiters:
            future.cancel()
        self._idle_waiters.clear()

    # --- maintenance ----------------------------------------------------------------------

    def _admit(
        self, text: str, changes: Sequence[Mapping[str, Any]], skipped: Mapping[str, int]
    ) -> None:
        try:
            message = UserMessage(
                self._new_id(),
                text,
                SCHEDULE_SOURCE,
                self._log.inputs().parent,
                skipped=tuple(skipped.items()),
            )
            group: list[Event] = [message, *(ScheduleChanged(dict(change)) for change in changes)]
        except Exception as error:  # schedule.md §10.3 step 7.4: building, not the log, failed
            raise FollowupBuildError(
                f"the reminder's follow-up could not be built: {error}"
            ) from error
        self._log.append_events(group)

    def _release(self) -> None:
        self._claim = None
        self._kick()

    # --- the pump -------------------------------------------------------------------------

    def _kick(self) -> None:
        if self._closed or self._claim is not None or self._pump is not None:
            return
        if self._next_input() is None:
            self._settle()
            return
        self._set_status("running")
        self._pump = asyncio.get_running_loop().create_task(self._run_pending())

    async def _run_pending(self) -> None:
        try:
            while not self._closed:
                input_seq = self._next_input()
                if input_seq is None:
                    break
                await self._run_turn(input_seq)
        except SessionReadOnlyError as error:
            self._stop_read_only(error)
        finally:
            self._pump = None
            self._set_status("idle")
            self._settle()

    def _stop_read_only(self, error: SessionReadOnlyError) -> None:
        """The log refused an append because it turned read-only: stop, record nothing more."""
        turn, self._running_turn = self._running_turn, None
        _log.warning("the session turned read-only; the agent stops: %s", error)
        self._closed = True
        self.stopped = str(error)
        if turn is not None:
            self._notify_turn(turn, "interrupted")

    async def _run_turn(self, input_seq: int) -> None:
        turn = self._log.inputs().last_turn + 1
        onward = self._onward[0] if self._onward else None
        continues = cut_answer(self._log.entries, input_seq) if onward == input_seq else None
        self._append(TurnStart(turn, input_seq, continues))
        if self._retries and self._retries[0] == input_seq:
            self._retries.pop(0)
        elif onward == input_seq:
            self._onward.pop(0)
        self._running_turn = turn
        state = self._turn_state(turn, continues)
        ctx = self._context(input_seq)
        self._turn_task = asyncio.get_running_loop().create_task(self._turn(ctx, state, input_seq))
        try:
            outcome = await self._turn_task
        except asyncio.CancelledError:
            current = asyncio.current_task()
            if current is not None and current.cancelling():
                raise
            close_cancelled(ctx, state, self._end_status)
            self._running_turn = None
            self._notify_turn(turn, self._end_status)
            return
        finally:
            self._turn_task = None
        self._append(TurnEnd(turn, outcome.status, outcome.error))
        self._running_turn = None
        self._notify_turn(turn, outcome.status)

    async def _turn(self, ctx: TurnContext, state: TurnState, input_seq: int) -> TurnOutcome:
        try:
            reading = time_reading(self._clock(), self._turn_zones(input_seq))
            self._append(ContextTime(reading.zone_name, reading.text))
            return await run_steps(ctx, state, reading)
        except SessionReadOnlyError:
            raise  # nothing more can be recorded: the pump stops the agent
        except Exception as error:  # a bug must end the turn visibly, never wedge the agent
            _log.exception("turn %d failed unexpectedly", state.turn)
            close_open(ctx, state)
            failure = Failure(FailureCode.INTERNAL, (str(error),))
            return TurnOutcome("failed", TurnError(ErrorKind.INTERNAL, english(failure), failure))

    def _turn_state(self, turn: int, continues: int | None) -> TurnState:
        """A new turn's state; a Continue's starts from the text of the answer it goes on from
        (as the model is shown it: ``core.agent.history.assistant_message``)."""
        cut = None if continues is None else self._log.entries[continues].event
        if not isinstance(cut, AssistantMessage):
            return TurnState(turn)
        return onward_state(turn, assistant_message(cut).text)

    def _turn_zones(self, input_seq: int) -> list[str | None]:
        zones = [sample_zone(self._zone_source)]
        event = self._log.entries[input_seq].event
        if isinstance(event, UserMessage) and isinstance(event.source, UserSource):
            zones.append(event.source.time_zone)
        return zones

    def _context(self, input_seq: int) -> TurnContext:
        choices = self._log.choices()
        system = self._system_prompt
        if choices.instructions.strip():
            system = f"{system}\n\n{INSTRUCTIONS_HEADING}\n{choices.instructions.strip()}"
        model = choices.model
        return TurnContext(
            history=lambda room: fold_history(
                self._log.entries, self._log.conversation(), input_seq, max_tokens=room
            ),
            read_attachment=self._log.read_attachment,
            append=self._append,
            barrier=self._barrier,
            provider=self.provider,
            tools=self._tools,
            system_prompt=system,
            new_id=self._new_id,
            on_delta=self._notify_delta,
            on_reasoning=self._notify_reasoning,
            clock=self._clock,
            temperature=None if model is None else model.temperature,
        )

    # --- helpers --------------------------------------------------------------------------

    def _next_input(self) -> int | None:
        """What the next turn runs on: a retry asked for (still failed), else pending input."""
        failed = self._log.inputs().failed
        while self._retries:
            if self._retries[0] in failed:
                return self._retries[0]
            self._retries.pop(0)
        while self._onward:
            if cut_answer(self._log.entries, self._onward[0]) is not None:
                return self._onward[0]
            self._onward.pop(0)
        return self._log.inputs().next_input()

    def _newest_failed(self) -> int | None:
        return max(self.failed_inputs, default=None)

    def _input(self, seq: int) -> UserMessage:
        entries = self._log.entries
        event = entries[seq].event if 0 <= seq < len(entries) else None
        if not isinstance(event, UserMessage):
            raise ValueError(f"event {seq} is not an input")
        return event

    def _new_version(self, seq: int, original: UserMessage, text: str, source: Source) -> int:
        parent = parent_of(self._log.entries, self._log.conversation(), seq)
        version = UserMessage(self._new_id(), text, source, parent, seq, original.attachments)
        entry = self._log.append_event(version)
        self._kick()
        return entry.seq

    def _append(self, event: Event) -> None:
        self._log.append_event(event)

    async def _barrier(self) -> None:
        try:
            ok = await self._flush()
        except Exception:  # a barrier failure is a warning for the window, not a turn failure
            _log.warning("persistence barrier raised", exc_info=True)
            return
        reason = None if ok else self._log.read_only_reason
        if reason is not None:  # e.g. a warm open's check found the log corrupt
            raise SessionReadOnlyError(reason)
        if not ok:
            _log.warning("persistence barrier failed; events stay queued in the live log")

    def _is_settled(self) -> bool:
        idle = self._pump is None and self._claim is None
        return idle and self._next_input() is None

    def _settle(self) -> None:
        if not self._is_settled():
            return
        waiters, self._idle_waiters = self._idle_waiters, []
        for future in waiters:
            if not future.done():
                future.set_result(None)

    def _set_status(self, status: AgentStatus) -> None:
        if status == self._status:
            return
        self._status = status
        for callback in list(self._status_observers):
            _safely(callback, status)

    def _notify_delta(self, text: str) -> None:
        for callback in list(self._delta_observers):
            _safely(callback, text)

    def _notify_reasoning(self, text: str) -> None:
        for callback in list(self._reasoning_observers):
            _safely(callback, text)

    def _notify_turn(self, turn: int, status: str) -> None:
        for callback in list(self._turn_observers):
            _safely(callback, turn, status)


async def _run_claimed(
    claim: AgentMaintenanceClaim, job: Callable[[AgentMaintenanceClaim], Awaitable[T]]
) -> T:
    try:
        return await job(claim)
    finally:
        claim.release()


def _subscribe(observers: list[Any], callback: Any) -> Unsubscribe:
    observers.append(callback)

    def unsubscribe() -> None:
        if callback in observers:
            observers.remove(callback)

    return unsubscribe


def _safely(callback: Callable[..., None], *args: Any) -> None:
    try:
        callback(*args)
    except Exception:  # an observer's bug must not break the agent
        _log.exception("agent observer failed")
