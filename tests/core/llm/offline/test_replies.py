"""The offline assistant's answers, computed from tool results: confirmations, errors, lists."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.llm.offline.replies import (
    confirm_create,
    delete_text,
    explain_create_error,
    list_text,
    tool_failure_text,
)
from core.llm.offline.text import duration_text, interval_text, render_prompt

MORNING = datetime(2026, 8, 5, 8, 30, tzinfo=UTC)  # 10:30 in Berlin
BERLIN = "Europe/Berlin"


def view(rid: str, kind: str, prompt: str, scheduled_at: str, **extra: Any) -> dict[str, Any]:
    record: dict[str, Any] = {"id": rid, "kind": kind, "prompt": prompt}
    record.update(extra)
    record.update(scheduledAt=scheduled_at, state="scheduled", deliveryMode="session-local")
    return record


def test_a_confirmation_shows_the_local_time_without_the_system_zone_and_the_id_last() -> None:
    value = view("schedule-3", "after", "stretch", "2026-08-05T08:45:00.000Z", afterSeconds=900)
    text = confirm_create({"prompt": "stretch", "after_seconds": 900}, value, MORNING, BERLIN)
    assert text == "I'll remind you to stretch at 10:45, in 15 minutes *(schedule-3)*."


def test_the_confirmation_uses_the_stored_time_not_the_requested_one() -> None:
    value = view("schedule-1", "after", "stretch", "2026-08-05T09:00:00.000Z", afterSeconds=900)
    text = confirm_create({"prompt": "stretch", "after_seconds": 900}, value, MORNING, BERLIN)
    assert "at 11:00, in 30 minutes" in text


def test_an_every_confirmation_names_the_interval_and_the_first_time() -> None:
    value = view(
        "schedule-2", "every", "drink water", "2026-08-05T09:00:00.000Z", everySeconds=1800
    )
    args = {"prompt": "drink water", "every_seconds": 1800}
    assert confirm_create(args, value, MORNING, BERLIN) == (
        "I'll remind you to drink water every 30 minutes, starting at 11:00 (in 30 minutes) "
        "*(schedule-2)*."
    )


def test_a_time_asked_for_in_another_zone_is_shown_there_as_people_say_it_and_here() -> None:
    value = view("schedule-1", "at", "buy gifts", "2026-12-24T23:00:00.000Z")
    args = {
        "prompt": "buy gifts",
        "at": {"date": "2026-12-24", "time": "18:00:00", "time_zone": "America/New_York"},
    }
    assert confirm_create(args, value, MORNING, BERLIN) == (
        "I'll remind you to buy gifts at 18:00 on Thu 24 Dec New York time (00:00 on Fri 25 Dec "
        "here), in 141 days 14 hours *(schedule-1)*."
    )


def test_a_confirmation_across_a_dst_change_shows_the_new_local_offset() -> None:
    saturday = datetime(2026, 3, 7, 15, 0, tzinfo=UTC)  # 10:00 EST
    value = view("schedule-1", "at", "jog", "2026-03-08T13:30:00.000Z")  # 09:30 EDT
    args = {
        "prompt": "jog",
        "at": {"date": "2026-03-08", "time": "09:30:00", "time_zone": "America/New_York"},
    }
    assert confirm_create(args, value, saturday, "America/New_York") == (
        "I'll remind you to jog at 09:30 tomorrow, in 22 hours 30 minutes *(schedule-1)*."
    )


def test_without_a_zone_times_are_shown_in_utc_and_about_is_kept() -> None:
    value = view("schedule-4", "after", "the meeting", "2026-08-05T08:35:00.000Z", afterSeconds=300)
    text = confirm_create(
        {"prompt": "the meeting", "after_seconds": 300}, value, MORNING, None, link="about"
    )
    assert text == "I'll remind you about the meeting at 08:35 UTC, in 5 minutes *(schedule-4)*."


def at_args(day: str, clock: str, zone: str) -> dict[str, Any]:
    return {"prompt": "x", "at": {"date": day, "time": clock, "time_zone": zone}}


ERROR_CASES = [
    ("invalid_rule", at_args("2026-03-08", "02:30:00", "America/New_York"),
     "02:30 on Sun 8 Mar 2026 doesn't exist in New York time because the clocks skip it; pick another time."),
    ("invalid_rule", at_args("2026-02-30", "09:00:00", BERLIN), "isn't a real calendar date and time"),
    ("invalid_rule", {"prompt": "x", "after_seconds": 0.5}, "positive whole number of seconds"),
    ("invalid_rule", {"prompt": "x", "every_seconds": 300.5}, "whole number of seconds"),
    ("not_future", at_args("2026-08-05", "09:00:00", BERLIN), "09:00 on 2026-08-05 (Berlin time) has already passed"),
    ("time_out_of_range", {"prompt": "x", "after_seconds": 10**15}, "up to the end of the year 9999"),
    ("invalid_rule", {"prompt": "x", "after_seconds": 2**60}, "up to the end of the year 9999"),
    ("frequency_too_high", {"prompt": "x", "every_seconds": 30},
     "I can repeat a reminder at most every 5 minutes, so every 30 seconds is too often; nothing was set."),
    ("invalid_time_zone", at_args("2026-08-05", "17:00:00", "Mars/Olympus"), "“Mars/Olympus” isn't one I know"),
    ("persistence_uncertain", {"prompt": "x", "after_seconds": 60},
     "I couldn't confirm it was saved; ask me to list reminders to check."),
    ("corrupt_schedule_log", {"prompt": "x", "after_seconds": 60}, "reminder log is damaged"),
    ("internal_error", {"prompt": "x", "after_seconds": 60}, "Something went wrong inside the reminder system"),
    ("invalid_prompt", {"prompt": " ", "after_seconds": 60}, "What should I remind you about?"),
    ("invalid_selector", {"prompt": "x"}, "malformed request"),
    ("some_new_code", {"prompt": "x", "after_seconds": 60}, "(some\\_new\\_code)"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("code", "args", "says"), ERROR_CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(ERROR_CASES)]
)
def test_every_error_code_is_explained_in_plain_words(
    code: str, args: dict[str, Any], says: str
) -> None:
    text = confirm_create(args, {"code": code, "message": "ignored"}, MORNING, BERLIN)
    assert says in text
    assert "ignored" not in text


def test_a_persistence_error_after_the_append_names_the_id_it_would_have() -> None:
    value = {
        "code": "persistence_uncertain",
        "message": "m",
        "operation": "create",
        "id": "schedule-7",
    }
    text = explain_create_error({"prompt": "x", "after_seconds": 60}, value, MORNING, BERLIN)
    assert text == (
        "I couldn't confirm the reminder was saved (it would be schedule-7); ask me to list "
        "reminders to check."
    )


def test_an_unreadable_create_result_is_not_confirmed() -> None:
    values: tuple[object, ...] = (None, [], {"id": "schedule-1", "scheduledAt": "tomorrow"})
    for value in values:
        text = confirm_create({"prompt": "x"}, value, MORNING, BERLIN)
        assert "can't say whether it was set" in text


def test_an_empty_list_says_there_are_none() -> None:
    assert list_text([], MORNING, BERLIN) == "You have no reminders in this conversation."


def test_a_list_shows_each_reminder_with_its_local_time_state_and_id_last() -> None:
    views = [
        view("schedule-1", "after", "stretch", "2026-08-05T08:45:00.000Z", afterSeconds=900),
        view("schedule-2", "every", "drink water", "2026-08-05T09:00:00.000Z", everySeconds=1800),
        {**view("schedule-4", "at", "call *Ana*", "2026-08-05T06:30:00.000Z"), "state": "overdue"},
    ]
    assert list_text(views, MORNING, BERLIN) == (
        "You have 3 reminders in this conversation:\n\n"
        "- stretch — 10:45, in 15 minutes *(schedule-1)*\n"
        "- drink water — every 30 minutes, next at 11:00, in 30 minutes *(schedule-2)*\n"
        "- call \\*Ana\\* — was due at 08:30, 2 hours ago; it will arrive shortly *(schedule-4)*"
    )


@pytest.mark.parametrize(
    ("value", "says"),
    [
        ({"code": "persistence_uncertain", "message": "m", "operation": "list"}, "I won't guess"),
        ({"code": "corrupt_schedule_log", "message": "m"}, "reminder log is damaged"),
        ("nonsense", "couldn't read"),
    ],
)
def test_list_errors_are_explained(value: object, says: str) -> None:
    assert says in list_text(value, MORNING, BERLIN)


@pytest.mark.parametrize(
    ("value", "prompt", "expected"),
    [
        (
            {"id": "schedule-3", "deleted": True},
            "water the plants",
            "Deleted “water the plants” *(schedule-3)*.",
        ),
        ({"id": "schedule-3", "deleted": True}, None, "Deleted reminder schedule-3."),
        (
            {"id": "schedule-9", "deleted": False, "code": "schedule_not_found"},
            None,
            "There is no active reminder schedule-9 in this conversation (it may have fired already "
            "or been deleted). Say “list my reminders” to see them.",
        ),
        (
            {
                "code": "persistence_uncertain",
                "message": "m",
                "operation": "delete",
                "id": "schedule-3",
            },
            None,
            "I couldn't confirm that deleting schedule-3 was saved; ask me to list reminders to check.",
        ),
    ],
)
def test_delete_results_are_reported_as_they_are(
    value: object, prompt: str | None, expected: str
) -> None:
    assert delete_text(value, prompt) == expected


def test_a_tool_error_result_is_explained_with_its_reason() -> None:
    text = tool_failure_text("after_seconds must be a number.")
    assert (
        text
        == "The reminder tool refused my request, so nothing was changed: after\\_seconds must be a number."
    )


@pytest.mark.parametrize(
    ("seconds", "expected"),
    [(45, "45 seconds"), (899.6, "15 minutes"), (60, "1 minute"), (9000, "2 hours 30 minutes"),
     (7200, "2 hours"), (3 * 86400 + 4 * 3600, "3 days 4 hours"), (86400 * 2, "2 days")],
)  # fmt: skip
def test_durations_are_rounded_to_readable_units(seconds: float, expected: str) -> None:
    assert duration_text(seconds) == expected


@pytest.mark.parametrize(
    ("seconds", "expected"),
    [(86400, "every day"), (3600, "every hour"), (1800, "every 30 minutes"), (5400, "every 90 minutes"),
     (604800, "every week"), (172800, "every 2 days"), (30, "every 30 seconds"), (300.5, "every 300.5 seconds")],
)  # fmt: skip
def test_intervals_read_naturally(seconds: float, expected: str) -> None:
    assert interval_text(seconds) == expected


PROMPTS = st.text(
    alphabet=st.sampled_from(list('"\\\u2028\u2029\u0085\ufeff😀\n\r\t\x00\x1f*_[]()<>!`#ab '))
)


@given(PROMPTS)
def test_rendered_reminder_text_is_one_line_without_raw_markdown_or_controls(prompt: str) -> None:
    rendered = render_prompt(prompt)
    assert not any(c in rendered for c in "\n\r\x00\x1f\u2028\u2029\u0085\ufeff")
    unescaped = rendered.replace("\\\\", "")
    for char in "*_[]()<>!`#":
        assert all(unescaped[i - 1] == "\\" for i, c in enumerate(unescaped) if c == char)


def test_odd_values_are_described_without_crashing() -> None:
    from core.llm.offline.matching import matching
    from core.llm.offline.replies import view_line
    from core.llm.offline.text import local_time_text, relative_text

    assert view_line("junk", MORNING, "UTC") == "(a reminder I couldn't read)"
    assert view_line({"id": "schedule-1", "prompt": "p"}, MORNING, "UTC") == "p *(schedule-1)*"
    assert matching([{"id": 3}, {"id": "schedule-1", "prompt": "Water"}], ["water"]) == [
        {"id": "schedule-1", "prompt": "Water"}
    ]
    assert delete_text("junk", None) == "The reminder tool gave an answer I couldn't read."
    assert "reminder log is damaged" in delete_text(
        {"code": "corrupt_schedule_log", "message": "m"}, None
    )
    assert relative_text(MORNING, MORNING) == "now"
    assert interval_text("daily") == "at that interval"
    far = datetime(9999, 12, 31, 23, 0, tzinfo=UTC)
    assert local_time_text(far, MORNING, "Pacific/Kiritimati") == "9999-12-31T23:00:00+00:00 UTC"


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (at_args("2026-13-01", "09:00:00", BERLIN), "isn't a real calendar date"),
        (at_args("2026-03-08", "02:30:00", "Mars/Olympus"), "isn't a real calendar date"),
        (at_args("2026-08-05", "09:00:00", BERLIN), "isn't a real calendar date"),
    ],
)
def test_invalid_local_times_outside_a_gap_are_not_called_a_gap(
    args: dict[str, Any], says: str
) -> None:
    text = confirm_create(args, {"code": "invalid_rule", "message": "m"}, MORNING, BERLIN)
    assert says in text
    assert "clocks skip" not in text


def test_a_past_delay_is_reported_without_a_local_time() -> None:
    text = confirm_create(
        {"prompt": "x", "after_seconds": 1},
        {"code": "not_future", "message": "m"},
        MORNING,
        BERLIN,
    )
    assert text.startswith("That time has already passed")


# --- the wording of the new answers ---------------------------------------------------------


def test_seconds_are_shown_only_when_the_time_is_less_than_a_minute_away() -> None:
    near = view("schedule-1", "after", "tea", "2026-08-05T08:30:45.000Z", afterSeconds=45)
    far = view("schedule-2", "after", "tea", "2026-08-05T08:51:18.000Z", afterSeconds=1278)
    args = {"prompt": "tea", "after_seconds": 45}
    assert confirm_create(args, near, MORNING, BERLIN) == (
        "I'll remind you to tea at 10:30:45, in 45 seconds *(schedule-1)*."
    )
    assert "at 10:51, in 21 minutes" in confirm_create(args, far, MORNING, BERLIN)


def test_the_task_is_said_back_in_the_second_person_and_notes_follow() -> None:
    value = view("schedule-1", "at", "take my pills", "2026-08-05T19:00:00.000Z")
    args = at_args("2026-08-05", "21:00:00", BERLIN)
    note = "I took “9” as 21:00, the next 9 o'clock; say “9am” or “9pm” to choose."
    assert confirm_create(args, value, MORNING, BERLIN, notes=(note,)) == (
        "I'll remind you to take your pills at 21:00, in 10 hours 30 minutes *(schedule-1)*."
        f"\n\n{note}"
    )
    that = view("schedule-2", "after", "I left the oven on", "2026-08-05T08:40:00.000Z")
    assert confirm_create({}, that, MORNING, BERLIN, link="that").startswith(
        "I'll remind you that you left the oven on at 10:40"
    )


def test_timers_and_alarms_are_confirmed_as_such() -> None:
    timer = view(
        "schedule-1", "after", "Timer for 10 minutes", "2026-08-05T08:40:00.000Z", afterSeconds=600
    )
    pasta = view("schedule-2", "after", "the pasta", "2026-08-05T08:38:00.000Z", afterSeconds=480)
    alarm = view("schedule-3", "at", "Wake up", "2026-08-06T05:00:00.000Z")
    assert confirm_create({}, timer, MORNING, BERLIN, link="timer") == (
        "Timer set for 10 minutes: I'll tell you at 10:40 *(schedule-1)*."
    )
    assert confirm_create({}, pasta, MORNING, BERLIN, link="timer") == (
        "Timer set for 8 minutes for the pasta: I'll tell you at 10:38 *(schedule-2)*."
    )
    assert confirm_create({}, alarm, MORNING, BERLIN, link="alarm") == (
        "Alarm set for 07:00 tomorrow, in 20 hours 30 minutes: “Wake up” *(schedule-3)*."
    )


def test_a_time_in_a_zone_with_the_same_offset_here_is_not_repeated() -> None:
    value = view("schedule-1", "at", "call", "2026-08-05T15:00:00.000Z")
    paris = {
        "prompt": "call",
        "at": {"date": "2026-08-05", "time": "17:00:00", "time_zone": "Europe/Paris"},
    }
    fixed = {"prompt": "call", "at": "2026-08-05T17:00:00+02:00"}
    utc = {"prompt": "call", "at": "2026-08-05T15:00:00Z"}
    assert "at 17:00 Paris time, in 6 hours 30 minutes" in confirm_create(
        paris, value, MORNING, BERLIN
    )
    assert "at 17:00 UTC+02:00, in" in confirm_create(fixed, value, MORNING, BERLIN)
    assert "at 15:00 UTC (17:00 here)" in confirm_create(utc, value, MORNING, BERLIN)


def test_asking_before_deleting_many_names_them_and_says_how_many_more() -> None:
    from core.llm.offline.replies import ambiguous_text, confirm_all_text, deleted_many_text

    views = [
        view(f"schedule-{n}", "after", f"task {n}", "2026-08-05T09:00:00.000Z")
        for n in range(1, 24)
    ]
    text = confirm_all_text(views)
    assert text.startswith("Delete all 23 reminders? That is “task 1”, “task 2”,")
    assert "“task 20” and 3 more. Say “yes” to delete them, or “no” to keep them." in text
    assert deleted_many_text(views[:2], []) == "Deleted all 2 reminders: “task 1” and “task 2”."
    assert (
        deleted_many_text(views[:1], ["It failed."])
        == "Deleted 1 reminder: “task 1”.\n\nIt failed."
    )
    assert ambiguous_text(views[:3]).endswith("describe it, or say “all of them”.")


def test_the_time_is_told_with_its_zone() -> None:
    from core.llm.offline.replies import time_text
    from core.llm.offline.zones import Offset

    assert time_text(MORNING, BERLIN) == "It's 10:30 on Wednesday 5 August 2026 (Europe/Berlin)."
    assert time_text(MORNING, BERLIN, "Asia/Tokyo") == (
        "In Tokyo it's 17:30 on Wednesday 5 August 2026 (Asia/Tokyo)."
    )
    assert time_text(MORNING, None) == (
        "It's 08:30 UTC on Wednesday 5 August 2026. I don't know your time zone (the status bar says so)."
    )
    assert time_text(MORNING, BERLIN, Offset(120)).startswith("In UTC+02:00 it's 10:30")


def test_list_times_are_in_utc_when_the_zone_is_unknown() -> None:
    views = [view("schedule-1", "after", "stretch", "2026-08-05T08:45:00.000Z", afterSeconds=900)]
    assert list_text(views, MORNING, None).startswith(
        "You have 1 reminder in this conversation (times in UTC):"
    )
