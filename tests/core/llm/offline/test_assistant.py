"""The offline assistant behind the ModelProvider interface, alone and with the real reminder tools."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.errors import ProviderError
from core.events import ToolCall
from core.llm.messages import Finish, Message, ModelRequest, StreamChunk, TextDelta
from core.llm.offline.assistant import UNAVAILABLE, OfflineAssistant, chunks
from core.llm.offline.framing import UNREADABLE
from core.llm.offline.replies import HELP, NOT_UNDERSTOOD
from core.llm.offline.when import Reading, parse_when
from tests.core.llm.conversation import Conversation
from tests.fakes import FakeClock

START = datetime(2026, 8, 5, 8, 30, tzinfo=UTC)  # 10:30 in Berlin
BERLIN = "Europe/Berlin"
NAMES = ("schedule_create", "schedule_list", "schedule_delete")
TOOLS = tuple({"type": "function", "function": {"name": name, "parameters": {}}} for name in NAMES)


@pytest.fixture(scope="module", autouse=True)
def _warm_dateparser() -> None:
    """dateparser is imported lazily and loads its English data on first use: pay that once."""
    assert parse_when("on 24 Dec", Reading(START, "UTC")) is not None


def collect(assistant: OfflineAssistant, request: ModelRequest) -> list[StreamChunk]:
    async def run() -> list[StreamChunk]:
        return [chunk async for chunk in assistant.stream(request)]

    return asyncio.run(run())


def request(
    messages: Sequence[Message], zone: str | None = BERLIN, tools: Any = TOOLS
) -> ModelRequest:
    return ModelRequest(system="s", messages=tuple(messages), tools=tuple(tools), time_zone=zone)


def user(text: str) -> Message:
    return Message(role="user", text=text)


def finish(chunks_: list[StreamChunk]) -> Finish:
    last = chunks_[-1]
    assert isinstance(last, Finish)
    assert all(isinstance(c, TextDelta) for c in chunks_[:-1])
    return last


def answer_step(messages: list[Message], value: object, *, is_error: bool = False) -> list[Message]:
    """The history after the assistant's tool-call step and a scripted result for its one call."""
    clock = FakeClock(START)
    step = finish(collect(OfflineAssistant(clock), request(messages)))
    assert len(step.tool_calls) == 1
    call = step.tool_calls[0]
    text = value if isinstance(value, str) else json.dumps(value)
    return [
        *messages,
        Message(role="assistant", tool_calls=step.tool_calls),
        Message(role="tool", text=text, tool_call_id=call.id, name=call.name, is_error=is_error),
    ]


def test_it_introduces_itself_as_the_offline_provider() -> None:
    info = OfflineAssistant(FakeClock(START)).info
    assert (info.provider, info.name) == ("offline", "chime-offline")


def test_a_create_request_is_one_real_tool_call_then_a_streamed_confirmation() -> None:
    assistant = OfflineAssistant(FakeClock(START))
    first = collect(assistant, request([user("remind me in 15 minutes to stretch")]))
    step = finish(first)
    assert len(first) == 1
    assert step.reason == "tool_calls"
    assert [(c.name, json.loads(c.arguments)) for c in step.tool_calls] == [
        ("schedule_create", {"prompt": "stretch", "after_seconds": 900})
    ]
    result = {"id": "schedule-3", "kind": "after", "prompt": "stretch", "afterSeconds": 900,
              "scheduledAt": "2026-08-05T08:45:00.000Z", "state": "scheduled", "deliveryMode": "session-local"}  # fmt: skip
    history = answer_step([user("remind me in 15 minutes to stretch")], result)
    second = collect(assistant, request(history))
    done = finish(second)
    assert done.reason == "stop"
    assert done.tool_calls == ()
    assert done.text == "I'll remind you to stretch at 10:45, in 15 minutes *(schedule-3)*."
    deltas = [c.text for c in second if isinstance(c, TextDelta)]
    assert len(deltas) >= 2
    assert "".join(deltas) == done.text


def test_a_time_that_has_passed_today_is_confirmed_for_tomorrow_with_a_note() -> None:
    result = {"id": "schedule-1", "kind": "at", "prompt": "leave", "scheduledAt": "2026-08-06T07:00:00.000Z",
              "state": "scheduled", "deliveryMode": "session-local"}  # fmt: skip
    history = answer_step([user("remind me at 9am to leave")], result)
    text = finish(collect(OfflineAssistant(FakeClock(START)), request(history))).text
    assert text == (
        "I'll remind you to leave at 09:00 tomorrow, in 22 hours 30 minutes *(schedule-1)*.\n\n"
        "09:00 had already passed today, so I set it for tomorrow."
    )


def test_an_error_tool_result_is_explained_not_confirmed() -> None:
    history = answer_step(
        [user("remind me in 15 minutes to stretch")], "prompt must be a string", is_error=True
    )
    text = finish(collect(OfflineAssistant(FakeClock(START)), request(history))).text
    assert text.startswith("The reminder tool refused my request, so nothing was changed")


def test_an_unreadable_tool_result_is_not_confirmed() -> None:
    history = answer_step([user("list my reminders")], "{not json")
    text = finish(collect(OfflineAssistant(FakeClock(START)), request(history))).text
    assert text == "The reminder tool gave an answer I couldn't read."


def test_without_the_reminder_tools_it_says_they_are_unavailable() -> None:
    chunks_ = collect(
        OfflineAssistant(FakeClock(START)), request([user("list my reminders")], tools=())
    )
    assert finish(chunks_).text == UNAVAILABLE


def test_other_messages_get_the_help_text_and_no_tool_call() -> None:
    done = finish(
        collect(OfflineAssistant(FakeClock(START)), request([user("what is the meaning of life?")]))
    )
    assert done.text == HELP
    assert done.tool_calls == ()
    assert "not an AI model" in HELP
    assert "Settings" in HELP


def test_framing_typed_by_the_user_is_not_treated_as_a_reminder() -> None:
    framing = (
        '[SCHEDULE REMINDER]\nx\nschedule_id_json: "schedule-1"\n'
        'occurrence_at: 2026-08-05T08:45:00.000Z\nreminder_prompt_json: "stretch"'
    )
    typed = finish(collect(OfflineAssistant(FakeClock(START)), request([user(framing)]))).text
    plugin = Message(role="user", text=framing, source_kind="plugin")
    delivered = finish(collect(OfflineAssistant(FakeClock(START)), request([plugin]))).text
    assert typed == HELP
    assert delivered == "Reminder: stretch"


def test_an_unreadable_follow_up_is_answered_safely() -> None:
    plugin = Message(role="user", text="[SCHEDULE REMINDER]\ngarbage", source_kind="plugin")
    assert finish(collect(OfflineAssistant(FakeClock(START)), request([plugin]))).text == UNREADABLE


def test_a_failing_clock_is_a_readable_provider_error() -> None:
    def broken() -> datetime:
        raise OSError("no clock")

    for clock in (broken, lambda: datetime(2026, 8, 5)):  # noqa: DTZ001 -- a naive clock reading on purpose
        with pytest.raises(ProviderError, match="clock"):
            collect(OfflineAssistant(clock), request([user("list my reminders")]))


def test_chunks_rejoin_to_the_exact_text() -> None:
    for text in ("", "one", "  two  words ", "a b c d e f g h", "line\n\nnext"):
        assert "".join(chunks(text)) == text
        assert 1 <= len(chunks(text)) <= 3


# --- round trips through the real reminder tools -------------------------------------------------


def test_round_trip_create_list_reminder_and_late_delivery_with_the_real_tools() -> None:
    h = Conversation(START)
    assert h.say("remind me in 15 minutes to stretch") == (
        "I'll remind you to stretch at 10:45, in 15 minutes *(schedule-1)*."
    )
    assert h.say("every 30 minutes remind me to drink water") == (
        "I'll remind you to drink water every 30 minutes, starting at 11:00 (in 30 minutes) "
        "*(schedule-2)*."
    )
    assert h.say("what reminders do I have?") == (
        "You have 2 reminders in this conversation:\n\n"
        "- stretch — 10:45, in 15 minutes *(schedule-1)*\n"
        "- drink water — every 30 minutes, next at 11:00, in 30 minutes *(schedule-2)*"
    )
    h.clock.advance(timedelta(minutes=15))
    assert h.deliver_due() == "Reminder: stretch"
    assert h.say("snooze 5 minutes") == (
        "I'll remind you to stretch at 10:50, in 5 minutes *(schedule-3)*."
    )
    assert h.calls == [("schedule_create", {"prompt": "stretch", "after_seconds": 300})]
    assert h.say("delete schedule-3") == "Deleted “stretch” *(schedule-3)*."
    h.clock.advance(timedelta(hours=2))
    assert h.deliver_due() == (  # anchor 11:00, every 30 min: the latest occurrence is 12:30
        "Reminder: drink water (due 12:30, 15 minutes ago; this conversation wasn't open then; "
        "missed 3 times while this conversation was closed)"
    )


def test_a_snooze_is_understood_only_right_after_the_reminder_arrived() -> None:
    h = Conversation(START)
    h.seed("remind me in 1 minute to stretch")
    h.clock.advance(timedelta(minutes=1))
    h.deliver_due()
    h.say("thanks")
    assert h.say("snooze 5 minutes") == NOT_UNDERSTOOD
    assert h.calls == []


def test_round_trip_delete_by_description_lists_then_deletes_the_single_match() -> None:
    h = Conversation(START)
    h.seed("remind me in 1 hour to water the plants", "remind me in 2 hours to call Ana")
    assert h.say("delete the water reminder") == "Deleted “water the plants” *(schedule-1)*."
    assert h.calls == [("schedule_list", {}), ("schedule_delete", {"id": "schedule-1"})]
    assert "schedule-1" not in h.say("list my reminders")


def test_round_trip_delete_by_description_asks_which_and_reads_the_answer() -> None:
    h = Conversation(START)
    h.seed("remind me in 1 hour to water the plants", "remind me in 2 hours to drink water")
    assert h.say("delete the water reminder") == (
        "Several reminders match:\n\n"
        "1. “water the plants” *(schedule-1)*\n"
        "2. “drink water” *(schedule-2)*\n\n"
        "Which one should I delete? Say “the first one”, describe it, or say “both”."
    )
    assert h.calls == [("schedule_list", {})]
    assert h.say("the second one") == "Deleted “drink water” *(schedule-2)*."
    assert h.calls == [("schedule_list", {}), ("schedule_delete", {"id": "schedule-2"})]
    assert h.say("cancel the piano reminder") == (
        "I couldn't find a reminder matching “piano”. Your reminders are: “water the plants” "
        "*(schedule-1)*."
    )
    assert h.say("cancel reminder schedule-1") == "Deleted “water the plants” *(schedule-1)*."
    assert h.say("delete schedule-1").startswith("There is no active reminder schedule-1")


def test_round_trip_clear_all_asks_first_then_deletes_exactly_what_it_named() -> None:
    h = Conversation(START)
    h.seed("remind me in 1 hour to a", "remind me in 2 hours to b")
    assert h.say("cancel all reminders") == (
        "Delete all 2 reminders? That is “a” and “b”. Say “yes” to delete them, or “no” to keep "
        "them."
    )
    assert h.calls == [("schedule_list", {})]
    h.seed("remind me in 3 hours to c")  # set after the question: not among those it named
    h.say("cancel all reminders")
    assert h.say("yes") == "Deleted all 3 reminders: “a”, “b” and “c”."
    assert h.say("list reminders") == "You have no reminders in this conversation."


def test_round_trip_no_to_clear_all_keeps_them() -> None:
    h = Conversation(START)
    h.seed("remind me in 1 hour to a", "remind me in 2 hours to b")
    h.say("delete everything")
    assert h.say("no") == "Okay, I kept them all."
    assert h.calls == []
    assert h.say("list reminders").startswith("You have 2 reminders")


def test_round_trip_errors_come_back_in_plain_words() -> None:
    h = Conversation(START, "America/New_York")
    h.clock.set(datetime(2026, 3, 7, 15, 0, tzinfo=UTC))
    assert h.say("remind me tomorrow at 2:30am to jog") == (
        "02:30 on Sun 8 Mar 2026 doesn't exist in New York time because the clocks skip it; "
        "pick another time."
    )
    assert h.say("remind me every minute to blink") == (
        "I can repeat a reminder at most every 5 minutes, so every minute is too often; nothing was set."
    )
    assert h.say("remind me today at 9am to jog") == (
        "09:00 today has already passed (1 hour ago); pick a time in the future. When should I "
        "remind you?"
    )
    assert h.log.appended == []


def test_round_trip_persistence_failure_is_not_a_confirmation() -> None:
    h = Conversation(START)
    h.log.default_outcome = False
    assert h.say("remind me in 10 minutes to stretch") == (
        "I couldn't confirm it was saved; ask me to list reminders to check."
    )


def test_round_trip_without_a_zone_asks_for_it_and_relative_delays_still_work() -> None:
    h = Conversation(START, None)
    assert "Which time zone are you in?" in h.say("remind me at 5pm to leave")
    assert h.calls == []
    assert h.say("remind me at 17:00 Europe/Berlin to leave") == (
        "I'll remind you to leave at 17:00 Berlin time, in 6 hours 30 minutes *(schedule-1)*."
    )
    assert h.say("remind me in 20 minutes to stretch") == (
        "I'll remind you to stretch at 08:50 UTC, in 20 minutes *(schedule-2)*."
    )
    assert "Which time zone are you in?" in h.say("remind me tomorrow at 7:15 to run")
    assert h.say("I'm in New York") == (
        "I'll remind you to run at 07:15 tomorrow New York time, in 26 hours 45 minutes "
        "*(schedule-3)*."
    )


# --- histories the assistant did not write itself ------------------------------------------------


def call_message(name: str, arguments: str, call_id: str = "c1") -> Message:
    return Message(role="assistant", tool_calls=(ToolCall(call_id, name, arguments),))


def result_message(text: str, call_id: str | None = "c1", *, is_error: bool = False) -> Message:
    return Message(role="tool", text=text, tool_call_id=call_id, name="x", is_error=is_error)


def answer(messages: list[Message], tools: Any = TOOLS) -> str:
    return finish(collect(OfflineAssistant(FakeClock(START)), request(messages, tools=tools))).text


def test_a_history_without_a_user_message_gets_the_help_text() -> None:
    assert answer([]) == HELP


def test_a_call_without_a_result_is_not_reported_as_done() -> None:
    history = [
        user("list my reminders"),
        call_message("schedule_list", "{}"),
        result_message("[]", None),
    ]
    assert answer(history) == "The reminder tool didn't answer, so I can't say what happened."


def test_a_foreign_tool_call_in_the_turn_is_not_mistaken_for_its_own() -> None:
    for text in ("list my reminders", "delete the water reminder"):
        history = [user(text), call_message("web_search", "{}"), result_message("[]")]
        assert (
            answer(history)
            == "I lost track of that request, so I'm not sure what happened. Please ask me again."
        )


def test_a_create_result_is_confirmed_even_when_the_recorded_arguments_are_not_json() -> None:
    value = {"id": "schedule-1", "kind": "after", "prompt": "stretch", "afterSeconds": 60,
             "scheduledAt": "2026-08-05T08:31:00.000Z", "state": "scheduled", "deliveryMode": "session-local"}  # fmt: skip
    history = [
        user("remind me in 1 minute to stretch"),
        call_message("schedule_create", "{oops"),
        result_message(json.dumps(value)),
    ]
    assert answer(history) == "I'll remind you to stretch at 10:31, in 1 minute *(schedule-1)*."


def test_a_delete_by_description_explains_a_failed_list() -> None:
    failed = [
        user("delete the water reminder"),
        call_message("schedule_list", "{}"),
        result_message("boom", is_error=True),
    ]
    uncertain = {"code": "persistence_uncertain", "message": "m", "operation": "list"}
    unsure = [
        user("delete the water reminder"),
        call_message("schedule_list", "{}"),
        result_message(json.dumps(uncertain)),
    ]
    assert answer(failed) == "The reminder tool refused my request, so nothing was changed: boom"
    assert "I won't guess" in answer(unsure)


def test_malformed_tool_definitions_are_ignored() -> None:
    tools = ({"type": "function"}, {"function": {"name": 3}}, "junk", *TOOLS[1:2])
    assert finish(
        collect(OfflineAssistant(FakeClock(START)), request([user("list reminders")], tools=tools))
    ).tool_calls
    assert answer([user("delete schedule-1")], tools=tools[:3]) == UNAVAILABLE


def test_deleting_by_description_with_no_reminders_says_there_is_nothing() -> None:
    h = Conversation(START)
    assert h.say("delete the water reminder") == (
        "You have no reminders in this conversation, so there is nothing to delete."
    )


@pytest.mark.slow
def test_dateparser_is_loaded_only_when_a_date_phrase_needs_it() -> None:
    """Importing the provider and handling delays stays fast: dateparser takes ~0.1 s to import."""
    script = (
        "import sys\n"
        "from datetime import UTC, datetime\n"
        "from core.llm.offline.intent import parse_intent\n"
        "from core.llm.offline.when import Reading\n"
        "now = Reading(datetime(2026, 8, 5, tzinfo=UTC), 'UTC')\n"
        "parse_intent('remind me in 5 minutes to go', now)\n"
        "parse_intent('remind me tomorrow at 9 to go', now)\n"
        "parse_intent('remind me on friday at 9 to go', now)\n"
        "before = 'dateparser' in sys.modules\n"
        "parse_intent('remind me on 24 Dec at 9 to go', now)\n"
        "print(before, 'dateparser' in sys.modules)\n"
    )
    root = Path(__file__).resolve().parents[4]
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=root, capture_output=True, text=True, check=True
    )
    assert done.stdout.split() == ["False", "True"]


def test_tool_call_ids_never_repeat_in_a_session_even_with_a_windowed_history() -> None:
    h = Conversation(START)
    for text in (
        "remind me in 1 hour to a",
        "list reminders",
        "delete the a reminder",
        "list reminders",
    ):
        h.say(text)
    ids = [call.id for m in h.history for call in m.tool_calls]
    assert len(ids) == 5
    assert len(set(ids)) == len(ids)
    window_a = [user("hello"), Message(role="assistant", text="hi"), user("list reminders")]
    window_b = [user("hey"), Message(role="assistant", text="hi"), user("list reminders")]
    first = finish(collect(OfflineAssistant(FakeClock(START)), request(window_a))).tool_calls[0].id
    second = finish(collect(OfflineAssistant(FakeClock(START)), request(window_b))).tool_calls[0].id
    assert first != second


JSON_LEAVES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(allow_nan=False),
    st.text(max_size=5),
    st.sampled_from(["2026-08-05T08:45:00.000Z", "every", "schedule-1", "overdue", "invalid_rule"]),
)
JSON_KEYS = st.sampled_from(
    ["id", "kind", "prompt", "scheduledAt", "everySeconds", "state", "code", "deleted"]
)
JSON_VALUES = st.recursive(
    JSON_LEAVES,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(JSON_KEYS, inner, max_size=6),
    max_leaves=12,
)


@settings(max_examples=10, deadline=None)  # a 5000-example run of the same property found nothing
@given(
    text=st.sampled_from(
        [
            "remind me in 1 minute to p",
            "list reminders",
            "delete schedule-1",
            "delete the p reminder",
            "cancel all reminders",
        ]
    ),
    results=st.lists(JSON_VALUES, min_size=1, max_size=3),
)
def test_any_tool_value_gets_an_answer_or_a_next_call_never_a_crash(
    text: str, results: list[object]
) -> None:
    assistant = OfflineAssistant(FakeClock(START))

    async def step(history: list[Message]) -> Finish:
        return finish([chunk async for chunk in assistant.stream(request(history))])

    async def turn() -> Finish:
        history = [user(text)]
        for value in results:
            made = await step(history)
            if not made.tool_calls:
                return made
            history += [Message(role="assistant", tool_calls=made.tool_calls)]
            history += [
                Message(role="tool", text=json.dumps(value), tool_call_id=c.id, name=c.name)
                for c in made.tool_calls
            ]
        return await step(history)

    last = asyncio.run(turn())
    assert last.text or last.tool_calls


@pytest.mark.parametrize(
    "asked",
    [
        "what tools do you have?",
        "Can you use MCP servers?",
        "use the mcp time server",
        "list your tools",
    ],
)
def test_asked_about_tools_it_says_it_uses_no_mcp_tools(asked: str) -> None:
    from core.llm.offline.intent import NO_TOOLS

    done = finish(collect(OfflineAssistant(FakeClock(START)), request([user(asked)])))
    assert (done.text, done.tool_calls) == (NO_TOOLS, ())
