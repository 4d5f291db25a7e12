"""Durable, session-local reminders (schedule.md): the public facade of api.md.

The reminder contract in brief:

- A reminder's only durable state is the ``schedule/change`` events of its session's log; the pure
  ``fold_schedule(events, seed_length)`` turns them into the active records (creation order) and
  the ids ever created in scope. Anything else (timers, views, tool values) is a projection.
- ``ScheduleTools(log, clock, on_change=...)`` serves ``schedule_create`` / ``schedule_list`` /
  ``schedule_delete``: shape checks before the queue, then, inside the session's FIFO ``queue``,
  barrier #1 (``await log.flush()``), fold, decide, append, barrier #2. A failed barrier answers
  ``persistence_uncertain``, never a guess; a kept append stays in the log.
- Targets are integer ms in the canonical form ``YYYY-MM-DDTHH:mm:ss.sssZ`` within years 1–9999.
  ``at`` needs an explicit offset or an explicit IANA zone: the core never reads the system zone
  or the wall clock, only the injected clock.
- ``every`` records are fixed-rate from their creation anchor; a dispatch delivers only the latest
  missed occurrence and moves the target to the next aligned one, in place.
- ``plan_delivery(fold, now)`` is the owner's pure decision: one due one-shot, else one batch of
  every due every record, else a wait for the earliest target; its framing embeds ids and prompts
  only as JSON string literals.
- Corrupt data raises ``ScheduleLogError`` (tools answer ``corrupt_schedule_log``); bad argument
  shapes raise ``ToolArgumentError``.

Known limitations: delivery is session-local (a closed session's reminders fire late, on
reopening); catch-up is latest-only; intervals are fixed, not calendar rules; failures wait for
the next trigger, except a failed barrier, retried on a bounded back-off (schedule.md §10.2); the
model's answer to a reminder is at-least-once.
"""

from __future__ import annotations

from core.errors import ScheduleLogError, ToolArgumentError
from core.schedule.delivery import Delivery, plan_delivery, timer_delay_ms
from core.schedule.fold import ScheduleFold, ScheduleFolder, fold_reader, fold_schedule
from core.schedule.log import FoldingLog, SessionLog
from core.schedule.tools import ScheduleTools, TransactionQueue

__all__ = [
    "Delivery",
    "FoldingLog",
    "ScheduleFold",
    "ScheduleFolder",
    "ScheduleLogError",
    "ScheduleTools",
    "SessionLog",
    "ToolArgumentError",
    "TransactionQueue",
    "fold_reader",
    "fold_schedule",
    "plan_delivery",
    "timer_delay_ms",
]
