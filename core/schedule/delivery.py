"""The owner's pure decision and the follow-up framing (schedule.md §10.4, §10.6). Pure: no I/O.

``plan_delivery`` picks one due one-shot, else a batch of all due every records, else a wait for
the earliest target. The framing text itself is ``core.framing``'s (one renderer, one parser).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal

from core.events import SCHEDULE_SOURCE
from core.framing import render_batch, render_one_shot
from core.instant import datetime_to_ms, format_instant_ms, ms_to_datetime
from core.schedule.every import occurrence, skipped
from core.schedule.fold import ScheduleFold
from core.schedule.records import DispatchChange, EveryRecord, Record

MAX_TIMER_MS = 2_147_483_647
"""The 2^31 − 1 ms ceiling of one timer segment (Qt timers share it)."""
FOLLOWUP_SOURCE = SCHEDULE_SOURCE.to_json()
"""The ``source`` of a reminder's user message, as JSON (agent.md §2)."""


@dataclass(frozen=True)
class Delivery:
    """One decision: ``kind`` ``one-shot``/``every``/``wait``, the follow-up ``framing`` (None for
    wait), the dispatch ``changes`` to append in order (``[]`` for wait) and, for a wait, the
    next target ``wake_at`` (None when nothing is active).

    ``skipped``: for an ``every`` batch, the records whose latest occurrence O is not their
    durable target T, with how many occurrences before O were skipped (schedule.md §7: k); the
    reminder's ``user/message`` carries it beside the framing (agent.md §2), which stays as
    §10.6 fixes it."""

    kind: Literal["one-shot", "every", "wait"]
    framing: str | None = None
    changes: list[dict[str, Any]] = field(default_factory=list)
    wake_at: datetime | None = None
    skipped: dict[str, int] = field(default_factory=dict)


def one_shot_framing(record: Record) -> str:
    """The one-shot framing (§10.6) of ``record``'s current target."""
    return render_one_shot(record.id, record.scheduled_at, record.prompt)


def batch_framing(batch: list[EveryRecord], now_ms: int) -> str:
    """The batch framing (§10.6) for ``batch`` in batch order, decided at ``now_ms``."""
    return render_batch(
        [
            (
                record.id,
                format_instant_ms(
                    occurrence(record.scheduled_ms, record.every_seconds * 1000, now_ms)
                ),
                record.prompt,
            )
            for record in batch
        ]
    )


def _skipped(batch: list[EveryRecord], now_ms: int) -> dict[str, int]:
    counts = {r.id: skipped(r.scheduled_ms, r.every_seconds * 1000, now_ms) for r in batch}
    return {rid: count for rid, count in counts.items() if count > 0}


def plan_delivery(fold: ScheduleFold, now: datetime) -> Delivery:
    """The §10.4 decision for an idle agent at ``now`` (converted as a clock sample).

    With the next-due index of an incremental fold (``fold.due_index()``) it costs O(log n) plus
    the due every records, however many are active; any other fold is scanned (O(n)).
    Raises ``core.schedule.wire.ClockError`` when ``now`` is naive or outside years 1–9999 (the
    decision fails; the owner logs it and is not faulted).
    """
    now_ms = datetime_to_ms(now)
    index = fold.due_index()
    first = index.first_due_one_shot(now_ms) if index is not None else _first_one_shot(fold, now_ms)
    if first is not None:
        changes = [DispatchChange(first.id).to_json()]
        return Delivery("one-shot", one_shot_framing(first), changes)
    batch = index.due_every(now_ms) if index is not None else _due_every(fold, now_ms)
    if batch:
        changes = [DispatchChange(record.id, now_ms).to_json() for record in batch]
        return Delivery(
            "every", batch_framing(batch, now_ms), changes, skipped=_skipped(batch, now_ms)
        )
    earliest = index.earliest() if index is not None else _earliest(fold)
    return Delivery("wait", wake_at=None if earliest is None else ms_to_datetime(earliest))


def _first_one_shot(fold: ScheduleFold, now_ms: int) -> Record | None:
    """The due one-shot with the smallest target, by a scan (``min`` keeps creation order on
    ties)."""
    due = [r for r in fold.active if r.scheduled_ms <= now_ms and not isinstance(r, EveryRecord)]
    return min(due, key=lambda record: record.scheduled_ms) if due else None


def _due_every(fold: ScheduleFold, now_ms: int) -> list[EveryRecord]:
    """The due every records by target, by a scan (``sorted`` is stable: ties keep creation
    order)."""
    due = (r for r in fold.active if isinstance(r, EveryRecord) and r.scheduled_ms <= now_ms)
    return sorted(due, key=lambda record: record.scheduled_ms)


def _earliest(fold: ScheduleFold) -> int | None:
    return min((record.scheduled_ms for record in fold.active), default=None)


def timer_delay_ms(wake_at: datetime, now: datetime) -> int:
    """One timer segment: min(target − now, 2147483647) ms, never negative (§10.4, §14.8).

    Both instants are converted as clock samples (sub-millisecond digits dropped).
    """
    return max(0, min(datetime_to_ms(wake_at) - datetime_to_ms(now), MAX_TIMER_MS))
