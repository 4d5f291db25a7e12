"""The three model tools and the per-session transaction queue (schedule.md §4, §11, §12).

Async, so not pure: it awaits the log's barrier and logs contained failures (never into results).
It must not read the wall clock (only the injected clock), the system zone or model context, and
it never answers from an unconfirmed log: every read follows a successful barrier.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Callable, Mapping
from contextlib import asynccontextmanager
from typing import Any

from pydantic import BaseModel

from core.clock import Clock
from core.errors import ScheduleLogError, ToolArgumentError
from core.events import EventType
from core.instant import datetime_to_ms
from core.schedule.arguments import (
    CreateArguments,
    CreateRequest,
    DeleteArguments,
    ListArguments,
    build_record,
    check_create_arguments,
    check_delete_arguments,
    check_list_arguments,
    stage_a,
)
from core.schedule.fold import ScheduleFold, allocate_schedule_id, fold_reader
from core.schedule.log import SessionLog
from core.schedule.messages import InputError, Rule
from core.schedule.records import CreateChange, DeleteChange, view

logger = logging.getLogger(__name__)

CREATE, LIST, DELETE = "schedule_create", "schedule_list", "schedule_delete"

DESCRIPTIONS = {
    CREATE: (
        "Create one reminder in the current conversation. Requires a non-empty prompt (the text to "
        "relay to the user when it is due) and exactly one selector: after_seconds (a positive "
        "whole number of seconds from now), at (a date-time with Z or a numeric offset such as "
        "2026-08-06T09:00:00+08:00, or an object with local date, time and an explicit IANA "
        "time_zone), or every_seconds (whole seconds, at least 300; fixed rate aligned to the "
        "creation time; missed occurrences are skipped and only the latest is delivered). "
        "Delivery is session-local: on time only while this conversation is open, otherwise late "
        "when it is reopened."
    ),
    LIST: (
        "List all active reminders of this conversation in creation order, each with its id, UTC "
        "target time, scheduled or overdue state and delivery mode."
    ),
    DELETE: (
        "Delete one active reminder by the exact id returned by schedule_create or schedule_list. "
        "Unknown or already finished ids return deleted: false."
    ),
}

Result = dict[str, Any] | list[dict[str, Any]]


class TransactionQueue:
    """The per-session FIFO: one tool transaction or owner drive at a time, in arrival order.

    ``async with queue.turn():`` waits for every earlier turn to end. A turn cancelled while it
    waits leaves the queue without running and does not disturb later turns (asyncio.Lock is
    FIFO-fair and hands the lock on when a woken waiter was cancelled).
    """

    def __init__(self) -> None:
        self._lock = asyncio.Lock()

    @asynccontextmanager
    async def turn(self) -> AsyncIterator[None]:
        async with self._lock:
            yield

    @property
    def busy(self) -> bool:
        """True while a turn runs."""
        return self._lock.locked()


class _Stop(Exception):  # noqa: N818 - a control-flow signal carrying a result, not an error
    """Ends a transaction early with ``result``."""

    def __init__(self, result: Result) -> None:
        super().__init__()
        self.result = result


def _persistence(operation: str, schedule_id: str | None = None) -> dict[str, Any]:
    value = {**Rule.E17.value_json(), "operation": operation}
    if schedule_id is not None:
        value["id"] = schedule_id
    return value


class _CancelWatch:
    """§11.3: notices a cancellation requested for the calling task since the call began.

    A cancellation requested while the task is suspended arrives as CancelledError at that
    await; one requested while it runs (between awaits) is only counted by
    ``Task.cancelling()``, so ``check`` compares that count with its value at the start of the
    call. A cancellation the caller caught earlier and never uncancelled is therefore ignored,
    and no extra yield reorders the queue.
    """

    def __init__(self) -> None:
        self._task = asyncio.current_task()
        self._start = self._task.cancelling() if self._task is not None else 0

    def check(self) -> None:
        if self._task is not None and self._task.cancelling() > self._start:
            raise asyncio.CancelledError


class ScheduleTools:
    """``schedule_create``, ``schedule_list`` and ``schedule_delete`` for one session's log.

    ``clock`` is the injected Clock; ``on_change`` the owner's recompute request, called after
    every successful barrier #1 and after the successful barrier #2 of a create or actual delete
    (its failures are logged and never change a result). ``queue`` is shared with the owner.
    """

    def __init__(
        self, log: SessionLog, clock: Clock, *, on_change: Callable[[], object] | None = None
    ) -> None:
        self._log = log
        self._read_fold = fold_reader(log)
        self._clock = clock
        self._on_change = on_change
        self.queue = TransactionQueue()

    async def call(self, name: str, arguments: object, *, root_agent: bool = True) -> Result:
        """Run one tool with the model's decoded arguments; returns the model-visible JSON value.

        ``root_agent=False`` is the app glue's A0 owner check (a call on behalf of another agent):
        it yields ``internal_error`` after the shape checks that precede it. Raises
        ToolArgumentError (§4.1, or an unknown tool name) and CancelledError (§11.3).
        """
        watch = _CancelWatch()
        if name == CREATE:
            return await self._create(watch, check_create_arguments(arguments), root_agent)
        if name == LIST:
            check_list_arguments(arguments)
            return await self._list(watch) if root_agent else Rule.E18.value_json()
        if name == DELETE:
            return await self._delete(watch, arguments, root_agent)
        raise ToolArgumentError(f"Unknown tool {name!r}; use {CREATE}, {LIST} or {DELETE}.")

    def definitions(self) -> list[dict[str, Any]]:
        """The three tools as OpenAI-style function definitions (§2.5, §13)."""
        return tool_definitions()

    async def _create(
        self, watch: _CancelWatch, root: Mapping[str, Any], root_agent: bool
    ) -> Result:
        if not root_agent:
            return Rule.E18.value_json()
        try:
            request = stage_a(root)
        except InputError as error:
            return error.rule.value_json()
        async with self.queue.turn():
            try:
                return await self._create_in_queue(watch, request)
            except _Stop as stop:
                return stop.result

    async def _create_in_queue(self, watch: _CancelWatch, request: CreateRequest) -> Result:
        await self._open(watch, "create")
        fold = self._fold()
        schedule_id = allocate_schedule_id(fold.seen_ids)
        now_ms = self._sample()
        try:
            record = build_record(request, schedule_id, now_ms)
        except InputError as error:
            return error.rule.value_json()
        except Exception:
            logger.exception("schedule: building the record failed")
            return Rule.E18.value_json()
        self._append(watch, CreateChange(record).to_json())
        await self._close("create", schedule_id)
        return view(record, self._sample())

    async def _list(self, watch: _CancelWatch) -> Result:
        async with self.queue.turn():
            try:
                await self._open(watch, "list")
                fold = self._fold()
                now_ms = self._sample()
                return [view(record, now_ms) for record in fold.active]
            except _Stop as stop:
                return stop.result

    async def _delete(self, watch: _CancelWatch, arguments: object, root_agent: bool) -> Result:
        try:
            schedule_id = check_delete_arguments(arguments)
        except InputError as error:
            return error.rule.value_json()
        if not root_agent:
            return Rule.E18.value_json()
        async with self.queue.turn():
            try:
                return await self._delete_in_queue(watch, schedule_id)
            except _Stop as stop:
                return stop.result

    async def _delete_in_queue(self, watch: _CancelWatch, schedule_id: str) -> Result:
        await self._open(watch, "delete", schedule_id)
        if self._fold().get(schedule_id) is None:
            return {"id": schedule_id, "deleted": False, "code": "schedule_not_found"}
        self._append(watch, DeleteChange(schedule_id).to_json())
        await self._close("delete", schedule_id)
        return {"id": schedule_id, "deleted": True}

    async def _open(
        self, watch: _CancelWatch, operation: str, schedule_id: str | None = None
    ) -> None:
        """Cancellation check, barrier #1, recompute request."""
        watch.check()
        if not await self._barrier():
            raise _Stop(_persistence(operation, schedule_id))
        self._recompute()

    async def _close(self, operation: str, schedule_id: str) -> None:
        """Barrier #2 after an append (the change is kept on failure), then a recompute request."""
        if not await self._barrier():
            raise _Stop(_persistence(operation, schedule_id))
        self._recompute()

    async def _barrier(self) -> bool:
        try:
            return await self._log.flush() is True
        except Exception:
            logger.exception("schedule: persistence barrier raised")
            return False

    def _recompute(self) -> None:
        if self._on_change is None:
            return
        try:
            self._on_change()
        except Exception:
            logger.exception("schedule: the recompute callback raised (contained)")

    def _fold(self) -> ScheduleFold:
        try:
            return self._read_fold()
        except ScheduleLogError:
            logger.exception("schedule: the session's schedule log is corrupt")
            raise _Stop(Rule.E16.value_json()) from None
        except Exception:
            logger.exception("schedule: reading the session log failed")
            raise _Stop(Rule.E18.value_json()) from None

    def _sample(self) -> int:
        try:
            return datetime_to_ms(self._clock())
        except Exception:
            logger.exception("schedule: clock failure")
            raise _Stop(Rule.E18.value_json()) from None

    def _append(self, watch: _CancelWatch, data: dict[str, Any]) -> None:
        watch.check()
        try:
            self._log.append(EventType.SCHEDULE_CHANGE.value, data)
        except Exception:
            logger.exception("schedule: the log refused an append")
            raise _Stop(Rule.E18.value_json()) from None


def _inline_refs(node: Any, defs: Mapping[str, Any]) -> Any:
    if isinstance(node, dict):
        ref = node.get("$ref")
        if isinstance(ref, str):
            return _inline_refs(defs[ref.rsplit("/", 1)[-1]], defs)
        return {
            key: _inline_refs(value, defs)
            for key, value in node.items()
            if not (key == "title" and isinstance(value, str))
        }
    if isinstance(node, list):
        return [_inline_refs(item, defs) for item in node]
    return node


def tool_definitions() -> list[dict[str, Any]]:
    """The three tools as OpenAI-style function definitions (§2.5, §13): what every turn offers,
    and what Test connection's probe offers (it needs no session)."""
    models: tuple[tuple[str, type[BaseModel]], ...] = (
        (CREATE, CreateArguments),
        (LIST, ListArguments),
        (DELETE, DeleteArguments),
    )
    return [
        {
            "type": "function",
            "function": {
                "name": name,
                "description": DESCRIPTIONS[name],
                "parameters": parameters_schema(model),
            },
        }
        for name, model in models
    ]


def parameters_schema(model: type[BaseModel]) -> dict[str, Any]:
    """The model's JSON Schema with ``$defs`` inlined, titles dropped and the root left open."""
    schema = model.model_json_schema()
    defs = schema.pop("$defs", {})
    schema.pop("additionalProperties", None)
    schema.pop("description", None)
    result: dict[str, Any] = _inline_refs(schema, defs)
    return result
