"""A recurring reminder delivered late says how many occurrences were skipped: the owner's
decision counts them, the reminder's user/message carries them (agent.md §2), the history hands
them to the provider, and the framing text stays as schedule.md §10.6 fixes it."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from core.agent.history import fold_history
from core.events import SCHEDULE_SOURCE, Entry, TurnStart, UserMessage, decode_event
from core.framing import parse_framing
from core.schedule import fold_schedule, plan_delivery
from core.schedule.every import skipped
from tests.fakes import FakeClock, MemoryLog

NOON = datetime(2026, 8, 5, 12, 0, tzinfo=UTC)


def every(rid: str, prompt: str, seconds: int, created: datetime) -> dict[str, object]:
    """A create change of an every record made at ``created``."""
    ms = int(created.timestamp() * 1000)
    target = datetime.fromtimestamp((ms + seconds * 1000) / 1000, UTC)
    return {
        "version": 1,
        "operation": "create",
        "schedule": {
            "id": rid,
            "kind": "every",
            "prompt": prompt,
            "everySeconds": seconds,
            "scheduledAt": target.isoformat(timespec="milliseconds").replace("+00:00", "Z"),
        },
    }


def test_the_count_is_the_occurrences_before_the_delivered_one() -> None:
    assert skipped(0, 300_000, 0) == 0
    assert skipped(0, 300_000, 299_999) == 0
    assert skipped(0, 300_000, 300_000) == 1
    assert skipped(0, 1_800_000, 7_200_000) == 4


def test_a_late_batch_counts_what_each_record_skipped_and_an_on_time_one_nothing() -> None:
    log = MemoryLog(clock=FakeClock(NOON))
    log.append("schedule/change", every("schedule-1", "drink water", 1800, NOON))
    log.append("schedule/change", every("schedule-2", "stretch", 7200, NOON))
    late = plan_delivery(fold_schedule(log.events), NOON + timedelta(hours=2, minutes=15))
    assert late.kind == "every"
    assert late.skipped == {"schedule-1": 3}  # schedule-2 is due once, at 14:00: nothing skipped
    on_time = plan_delivery(fold_schedule(log.events), NOON + timedelta(minutes=30))
    assert on_time.skipped == {}
    framing = parse_framing(late.framing or "")
    assert framing is not None
    assert [r.schedule_id for r in framing] == ["schedule-1", "schedule-2"]


def test_the_field_is_written_only_when_something_was_skipped_and_read_back() -> None:
    plain = UserMessage("m1", "text", SCHEDULE_SOURCE)
    counted = UserMessage("m2", "text", SCHEDULE_SOURCE, skipped=(("schedule-1", 3),))
    assert "skipped" not in plain.to_data()
    assert counted.to_data()["skipped"] == {"schedule-1": 3}
    assert decode_event("user/message", counted.to_data()) == counted
    assert decode_event("user/message", plain.to_data()) == plain


@pytest.mark.parametrize(
    "junk", [[3], {"schedule-1": "3"}, {"schedule-1": -1}, {"schedule-1": True}, "3", {"a": 1.5}]
)
def test_a_malformed_count_is_dropped_and_the_reminder_still_reads(junk: object) -> None:
    data = {"id": "m", "text": "t", "source": SCHEDULE_SOURCE.to_json(), "skipped": junk}
    assert decode_event("user/message", data) == UserMessage("m", "t", SCHEDULE_SOURCE)


def test_the_history_hands_the_count_to_the_provider() -> None:
    message = UserMessage("m", "text", SCHEDULE_SOURCE, skipped=(("schedule-1", 2),))
    entries = [
        Entry(0, "2026-08-05T12:00:00.000Z", message),
        Entry(1, "2026-08-05T12:00:00.000Z", TurnStart(1, 0)),
    ]
    (user,) = fold_history(entries)
    assert (user.source_kind, user.skipped) == ("plugin", (("schedule-1", 2),))
