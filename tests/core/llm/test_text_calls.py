"""Tool calls written as text (``core.llm.text_calls``): the three shapes are recognised only for
an offered tool with valid arguments; prose that shows JSON never is. Through the door, a family that
leaves such calls unparsed gets the call as a real one."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from core.events import ToolCall
from core.llm.compat import QUIRKS
from core.llm.messages import Finish, Message, ModelRequest
from core.llm.openai_wire import with_text_calls
from core.llm.text_calls import calls_in_text, schema_errors
from tests.core.llm.loopback import Sse, chunk
from tests.core.llm.openai_kit import exchange, final

CREATE = {
    "type": "function",
    "function": {
        "name": "schedule_create",
        "parameters": {
            "type": "object",
            "properties": {
                "prompt": {"type": "string"},
                "after_seconds": {"type": "number"},
                "at": {
                    "anyOf": [
                        {"type": "string"},
                        {
                            "type": "object",
                            "additionalProperties": False,
                            "properties": {"date": {"type": "string"}},
                            "required": ["date"],
                        },
                    ]
                },
            },
            "required": ["prompt"],
        },
    },
}
LIST = {"type": "function", "function": {"name": "schedule_list", "parameters": {"type": "object"}}}
TOOLS = (CREATE, LIST)
OVEN = (
    '{"name": "schedule_create", "arguments": {"prompt": "check the oven", "after_seconds": 120}}'
)
OVEN_ARGS = '{"prompt":"check the oven","after_seconds":120}'


def test_a_fenced_call_of_an_offered_tool_is_recognised_and_leaves_the_text() -> None:
    text = f"Sure, here it is:\n\n```json\n{OVEN}\n```\n\nDone."

    found = calls_in_text(text, TOOLS)

    assert found is not None
    assert found.calls == (ToolCall("text_call_0", "schedule_create", OVEN_ARGS),)
    assert found.text == "Sure, here it is:\n\nDone."


def test_an_answer_that_is_nothing_but_a_call_is_recognised_and_leaves_no_text() -> None:
    # Qwen2.5-Coder-0.5B on llama.cpp's server answered Chime's request with exactly this
    found = calls_in_text(f"\n{OVEN}\n", TOOLS)

    assert found is not None
    assert found.calls == (ToolCall("text_call_0", "schedule_create", OVEN_ARGS),)
    assert found.text == ""
    assert calls_in_text(f"Here: {OVEN}", TOOLS) is None
    assert calls_in_text(f"{OVEN} and then I set it.", TOOLS) is None


def test_hermes_blocks_are_recognised_the_last_one_even_without_its_closing_tag() -> None:
    listing = '{"name": "schedule_list", "arguments": "{}"}'
    text = f"<tool_call>\n{OVEN}\n</tool_call>\n<tool_call>\n{listing}"

    found = calls_in_text(text, TOOLS)

    assert found is not None
    assert [(c.name, c.arguments) for c in found.calls] == [
        ("schedule_create", OVEN_ARGS),
        ("schedule_list", "{}"),
    ]
    assert found.text == ""


def test_arguments_that_do_not_validate_leave_the_text_as_prose() -> None:
    wrong = [
        '{"name": "schedule_create", "arguments": {"after_seconds": 120}}',  # no prompt
        '{"name": "schedule_create", "arguments": {"prompt": 5}}',
        '{"name": "schedule_create", "arguments": {"prompt": "x", "after_seconds": true}}',
        '{"name": "schedule_create", "arguments": {"prompt": "x", "at": {"day": 1}}}',
        '{"name": "schedule_create", "arguments": "{not json"}',
        '{"name": "schedule_create", "arguments": [1]}',
        '{"name": "schedule_create", "arguments": {"prompt": "x"}, "id": 1}',
        '{"name": 7, "arguments": {}}',
    ]
    for call in wrong:
        assert calls_in_text(f"```json\n{call}\n```", TOOLS) is None, call
        assert calls_in_text(f"<tool_call>{call}</tool_call>", TOOLS) is None, call


def test_the_schema_subset_names_what_is_wrong() -> None:
    schema = CREATE["function"]["parameters"]

    assert schema_errors({"prompt": "x", "at": "2026-08-06T09:00:00Z"}, schema) == []
    assert schema_errors({"prompt": "x", "at": {"date": "d", "extra": 1}}, schema) == [
        "arguments.at matches none of its forms"
    ]
    assert schema_errors([], schema) == ["arguments is not a object"]


NAMES = st.sampled_from(["schedule_create", "schedule_list"])
ARGUMENTS = st.fixed_dictionaries({"prompt": st.text(max_size=20)})
CALL = st.builds(lambda n, a: json.dumps({"name": n, "arguments": a}), NAMES, ARGUMENTS)
PROSE = st.text(st.characters(blacklist_characters="`<"), max_size=60)


@given(before=PROSE, call=CALL, after=PROSE)
def test_prose_that_shows_a_call_outside_a_fence_or_tag_is_never_a_call(
    before: str, call: str, after: str
) -> None:
    text = f"{before} You could send JSON like {call} to the API. {after}"

    assert calls_in_text(text, TOOLS) is None


@given(
    name=st.text(min_size=1, max_size=20).filter(lambda n: n not in ("schedule_create",)),
    arguments=ARGUMENTS,
    shape=st.sampled_from(
        ["```json\n{}\n```", "```\n{}\n```", "<tool_call>{}</tool_call>", "\n{}\n"]
    ),
    before=PROSE,
)
def test_a_call_of_a_tool_not_offered_is_never_recognised(
    name: str, arguments: dict[str, Any], shape: str, before: str
) -> None:
    block = shape.replace("{}", json.dumps({"name": name, "arguments": arguments}))

    assert calls_in_text(f"{before}\n{block}", (CREATE,)) is None


@given(text=st.text(max_size=200))
def test_without_offered_tools_nothing_is_ever_a_call(text: str) -> None:
    assert calls_in_text(text, ()) is None
    assert calls_in_text(f"```json\n{OVEN}\n```{text}", ()) is None


def _finish(text: str) -> Finish:
    return Finish(text, (), "stop", None, "m")


def test_only_families_that_leave_calls_unparsed_get_them_made_real() -> None:
    request = ModelRequest("sys", (Message("user", "remind me"),), tools=TOOLS)
    text = f"```json\n{OVEN}\n```"

    local = with_text_calls(_finish(text), request, QUIRKS["llamacpp"])
    hosted = with_text_calls(_finish(text), request, QUIRKS["openai"])
    untooled = with_text_calls(_finish(text), ModelRequest("sys", ()), QUIRKS["llamacpp"])

    assert local.calls_from_text
    assert local.reason == "tool_calls"
    assert local.text == ""
    assert hosted == _finish(text)
    assert untooled == _finish(text)


def test_the_door_turns_a_fenced_call_from_a_local_server_into_a_tool_call() -> None:
    pieces = ["```json\n", OVEN[:30], OVEN[30:], "\n```"]
    stream = Sse([*(chunk(p) for p in pieces), chunk(finish="stop")])
    request = ModelRequest("sys", (Message("user", "remind me in 2 minutes"),), tools=TOOLS)

    chunks, error, _server = exchange([stream], request=request, preset="llamacpp")

    assert error is None, error
    done = final(chunks)
    assert done.tool_calls == (ToolCall("text_call_0", "schedule_create", OVEN_ARGS),)
    assert done.calls_from_text
    assert done.reason == "tool_calls"


def test_a_block_that_is_not_json_is_prose() -> None:
    assert calls_in_text("<tool_call>{name: schedule_list}</tool_call>", TOOLS) is None
