"""Survival: hostile tool calls from a loopback endpoint, end to end through the real agent.

Invalid JSON arguments, unknown or empty tool names, arguments that are JSON but not an object,
50 calls in one step and repeated call ids: every call gets exactly one ``tool/result`` in the
order the model gave them (an error result the model can read for the broken ones), the turn goes
on to the model's next step, and the request that carries the results back is well formed (every
tool message answers a distinct call id of the assistant message before it).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests import wire as v
from tests.core.llm.loopback import Sse, chunk
from tests.survival.hostile_kit import GOOD, Rig, hosted, of_type, turn_end, turn_events

HOSTILE_TEXT = st.text(
    st.sampled_from(
        ['"', "\\", "{", "}", "[", ":", ",", "\u2028", "\u0085", "\ufeff", "😀", "a", " "]
    )
    | st.characters(),
    max_size=24,
)


def call(
    index: int, name: str | None, arguments: str, call_id: str | None = None
) -> dict[str, Any]:
    function: dict[str, Any] = {"arguments": arguments}
    if name is not None:
        function["name"] = name
    return {
        "index": index,
        "id": f"call_{index}" if call_id is None else call_id,
        "type": "function",
        "function": function,
    }


def step(calls: list[dict[str, Any]], *, split: bool = False) -> Sse:
    """One model step making ``calls``; ``split`` streams each call's arguments in two pieces."""
    if not split:
        return Sse([chunk(tool_calls=calls), chunk(finish="tool_calls")])
    events = []
    for c in calls:
        text = c["function"]["arguments"]
        head = {**c, "function": {**c["function"], "arguments": text[: len(text) // 2]}}
        tail = {"index": c["index"], "function": {"arguments": text[len(text) // 2 :]}}
        events += [chunk(tool_calls=[head]), chunk(tool_calls=[tail])]
    return Sse([*events, chunk(finish="tool_calls")])


def play(
    tmp_path: Path, calls: list[dict[str, Any]], *, split: bool = False
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """One turn: the step with ``calls``, then a plain answer. Returns (events, 2nd request's
    messages)."""

    async def body(rig: Rig) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        await rig.ask("do things")
        messages: list[dict[str, Any]] = rig.server.received[1].json()["messages"]
        return rig.events(), messages

    return hosted([step(calls, split=split), GOOD], tmp_path, body)


def assert_one_result_per_call_in_order(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    turn = turn_events(events, 1)
    first, last = of_type(turn, v.ASSISTANT_MESSAGE)
    results = of_type(turn, v.TOOL_RESULT)
    ids = [c["id"] for c in first["toolCalls"]]
    assert [r["callId"] for r in results] == ids
    assert len(set(ids)) == len(ids)
    assert first["finish"] == "tool_calls"
    assert (last["text"], last["finish"]) == ("All good again.", "stop")
    assert turn_end(events, 1) == {"turn": 1, "status": "completed"}
    return results


def assert_request_pairs_results_with_calls(messages: list[dict[str, Any]]) -> None:
    """In the request after the tools: each tool message answers one call of the assistant."""
    assistant = next(m for m in messages if m["role"] == "assistant")
    tools = [m for m in messages if m["role"] == "tool"]
    call_ids = [c["id"] for c in assistant["tool_calls"]]
    assert [t["tool_call_id"] for t in tools] == call_ids
    assert len(set(call_ids)) == len(call_ids)


def assert_readable_error(result: dict[str, Any], *words: str) -> None:
    assert result["isError"] is True
    content = result["content"]
    assert content[:1].isupper()
    assert content.endswith(".")
    assert "Traceback" not in content
    for word in words:
        assert word in content, content


BAD_JSON = ["{not json", '{"prompt": "x"', '{"prompt": "x"}}', "{'prompt': 'x'}", "\x00", "NaN-ish"]
NOT_OBJECTS = ["[1, 2]", '"remind me"', "5", "null", "true", "[]"]


@pytest.mark.parametrize("split", [False, True], ids=["whole", "streamed in pieces"])
def test_arguments_that_are_not_json_become_readable_error_results(
    split: bool, tmp_path: Path
) -> None:
    calls = [call(i, "schedule_create", text) for i, text in enumerate(BAD_JSON)]

    events, messages = play(tmp_path, calls, split=split)

    results = assert_one_result_per_call_in_order(events)
    for result in results:
        assert_readable_error(result, "not valid JSON")
    assert of_type(events, v.SCHEDULE_CHANGE) == []
    assert_request_pairs_results_with_calls(messages)


def test_json_that_is_not_an_object_becomes_a_readable_error_result(tmp_path: Path) -> None:
    calls = [call(i, "schedule_delete", text) for i, text in enumerate(NOT_OBJECTS)]

    events, messages = play(tmp_path, calls)

    for result in assert_one_result_per_call_in_order(events):
        assert_readable_error(result, "JSON object")
    assert_request_pairs_results_with_calls(messages)


UNKNOWN_NAMES = [
    "rm_rf",
    "",
    "schedule_create ",
    "SCHEDULE_LIST",
    "schedule_list\n",
    "x" * 500,
    None,
]


def test_unknown_missing_and_look_alike_tool_names_become_error_results_naming_the_tools(
    tmp_path: Path,
) -> None:
    calls = [call(i, name, "{}") for i, name in enumerate(UNKNOWN_NAMES)]

    events, messages = play(tmp_path, calls)

    for result in assert_one_result_per_call_in_order(events):
        assert_readable_error(result, "Unknown tool", "schedule_create", "schedule_list")
    assert of_type(events, v.SCHEDULE_CHANGE) == []
    assert_request_pairs_results_with_calls(messages)


def test_fifty_calls_in_one_step_each_get_their_result_and_the_valid_ones_run(
    tmp_path: Path,
) -> None:
    calls = []
    for i in range(50):
        if i % 5 == 0:
            arguments = json.dumps({"prompt": f"task {i}", "after_seconds": 60 + i})
            calls.append(call(i, "schedule_create", arguments))
        else:
            calls.append(call(i, ["schedule_list", "nope", "schedule_delete"][i % 3], "{bad"))

    events, messages = play(tmp_path, calls)

    results = assert_one_result_per_call_in_order(events)
    assert len(results) == 50
    created = [json.loads(r["content"]) for r in results if not r["isError"]]
    assert [c["prompt"] for c in created] == [f"task {i}" for i in range(0, 50, 5)]
    assert len(of_type(events, v.SCHEDULE_CHANGE)) == 10
    assert sum(r["isError"] for r in results) == 40
    assert_request_pairs_results_with_calls(messages)


def test_calls_that_share_an_id_each_run_under_a_distinct_id(tmp_path: Path) -> None:
    calls = [
        call(0, "schedule_create", '{"prompt": "first", "after_seconds": 60}', "dup"),
        call(1, "schedule_create", '{"prompt": "second", "after_seconds": 120}', "dup"),
        call(2, "schedule_list", "{}", "dup"),
        call(3, "schedule_list", "{}", "dup-2"),
        call(4, "schedule_list", "{}", ""),
        call(5, "schedule_list", "{}", "call_4"),
    ]

    events, messages = play(tmp_path, calls)

    results = assert_one_result_per_call_in_order(events)
    assert [r["callId"] for r in results] == [
        "dup",
        "dup-2",
        "dup-3",
        "dup-2-2",
        "call_4",
        "call_4-2",
    ]
    assert [json.loads(r["content"]).get("prompt") for r in results[:2]] == ["first", "second"]
    assert not any(r["isError"] for r in results)
    assert_request_pairs_results_with_calls(messages)


@pytest.mark.slow
@settings(
    max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    st.lists(
        st.tuples(
            st.sampled_from(["schedule_create", "schedule_list", "schedule_delete", "nope"]),
            HOSTILE_TEXT
            | st.builds(json.dumps, st.dictionaries(HOSTILE_TEXT, HOSTILE_TEXT, max_size=3)),
        ),
        min_size=1,
        max_size=8,
    )
)
def test_any_argument_text_gets_exactly_one_result_per_call_and_the_turn_completes(
    tmp_path_factory: pytest.TempPathFactory, made: list[tuple[str, str]]
) -> None:
    calls = [call(i, name, text) for i, (name, text) in enumerate(made)]

    events, messages = play(tmp_path_factory.mktemp("fuzz"), calls)

    results = assert_one_result_per_call_in_order(events)
    for result in results:
        assert isinstance(result["content"], str)
        assert result["content"]
    assert_request_pairs_results_with_calls(messages)


BEYOND_LIMITS = {
    "[" * 1000 + "]" * 1000: "nested too deeply",
    '{"a":' * 5000 + "1" + "}" * 5000: "nested too deeply",
    "[" * 100_000: "nested too deeply",
    '{"prompt": "x", "after_seconds": 1e999}': "out of range",
    '{"prompt": "x", "after_seconds": ' + "9" * 5000 + "}": "out of range",
    '{"prompt": "x", "after_seconds": NaN}': "NaN is not a JSON value",
}
"""(Arguments too large to decode cannot come through a stream: the answer is cut first.)"""


def test_arguments_beyond_the_decode_limits_become_error_results_saying_why(
    tmp_path: Path,
) -> None:
    calls = [call(i, "schedule_create", text) for i, text in enumerate(BEYOND_LIMITS)]

    events, messages = play(tmp_path, calls)

    results = assert_one_result_per_call_in_order(events)
    for result, words in zip(results, BEYOND_LIMITS.values(), strict=True):
        assert_readable_error(result, "not valid JSON", words)
    assert of_type(events, v.SCHEDULE_CHANGE) == []
    assert_request_pairs_results_with_calls(messages)
