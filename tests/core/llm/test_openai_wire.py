"""``core.llm.openai_wire`` directly, no I/O: request dicts, and chunks merged into one ``Finish``."""

from __future__ import annotations

import itertools
import json
import random
from types import SimpleNamespace
from typing import Any, get_args

import pytest
from hypothesis import given
from hypothesis import strategies as st
from openai.types.chat import ChatCompletionChunk

from core.events import FinishReason, TokenUsage, ToolCall
from core.llm.messages import Finish, Message, ModelRequest, TextDelta
from core.llm.openai_wire import (
    FINISH_REASONS,
    StreamMerge,
    to_openai_messages,
    to_openai_tools,
    wire_text,
)
from tests.core.llm.loopback import chunk, usage_chunk

SURROGATE = st.characters(categories=["Cs"])
TEXT = st.text(st.one_of(st.characters(), st.sampled_from(['"', "\\", "\n", "⏰", "{"])))
WIRE_TEXT = st.text(st.one_of(st.characters(), SURROGATE))
IDS = st.lists(st.sampled_from(["a", "b", "a-2", "call_1", ""]), min_size=1, max_size=8)


def as_object(value: Any) -> Any:
    """A JSON value with attribute access, like the SDK's unvalidated chunk objects: a key that
    is not there is an attribute that is not there."""
    if isinstance(value, dict):
        return SimpleNamespace(**{key: as_object(item) for key, item in value.items()})
    if isinstance(value, list):
        return [as_object(item) for item in value]
    return value


def merged(*chunks: dict[str, Any]) -> tuple[StreamMerge, list[str]]:
    """The merge after ``chunks`` (flushed) and the answer text pieces it streamed."""
    merge = StreamMerge()
    pieces = [piece for c in chunks for piece in merge.feed(as_object(c))] + merge.flush()
    return merge, [p.text for p in pieces if isinstance(p, TextDelta)]


def finish_of(*chunks: dict[str, Any]) -> Finish:
    outcome = merged(*chunks)[0].finish("fallback")
    assert isinstance(outcome, Finish), outcome
    return outcome


def call_piece(index: int | None, call_id: str = "", name: str = "", arguments: str = "") -> Any:
    piece: dict[str, Any] = {"function": {"arguments": arguments}}
    if index is not None:
        piece["index"] = index
    if call_id:
        piece["id"] = call_id
    if name:
        piece["function"]["name"] = name
    return chunk(tool_calls=[piece])


def split(text: str, cuts: list[int]) -> list[str]:
    points = sorted({c % (len(text) + 1) for c in cuts} | {0, len(text)})
    return [text[a:b] for a, b in itertools.pairwise(points)]


# ---------------------------------------------------------------- the merge: properties


@given(arguments=TEXT, cuts=st.lists(st.integers(0, 80), max_size=8), indexed=st.booleans())
def test_any_split_of_tool_call_arguments_merges_back_to_the_same_call(
    arguments: str, cuts: list[int], indexed: bool
) -> None:
    index = 0 if indexed else None
    head, *rest = split(arguments, cuts) or [""]
    pieces = [call_piece(index, "c1", "schedule_create", head)]
    pieces += [call_piece(index, arguments=p) for p in rest]

    done = finish_of(*pieces, chunk(finish="tool_calls"))

    assert done.tool_calls == (ToolCall("c1", "schedule_create", arguments),)
    assert done.reason == "tool_calls"


@given(first=TEXT, second=TEXT, cuts=st.lists(st.integers(0, 80), max_size=8), seed=st.integers())
def test_two_calls_interleaved_by_index_each_merge_back_whole(
    first: str, second: str, cuts: list[int], seed: int
) -> None:
    ones = [call_piece(0, arguments=p) for p in split(first, cuts)]
    twos = [call_piece(1, arguments=p) for p in split(second, cuts)]
    mixed = _interleave(ones, twos, random.Random(seed))
    heads = [call_piece(0, "a", "one"), call_piece(1, "b", "two")]

    done = finish_of(*heads, *mixed, chunk(finish="tool_calls"))

    assert done.tool_calls == (ToolCall("a", "one", first), ToolCall("b", "two", second))


def _interleave(left: list[Any], right: list[Any], order: random.Random) -> list[Any]:
    """Both lists merged at random, each keeping its own order."""
    left, right, out = list(left), list(right), []
    while left or right:
        take_left = bool(left) and (not right or order.random() < 0.5)
        out.append((left if take_left else right).pop(0))
    return out


@given(
    pieces=st.lists(TEXT, max_size=12)
    .map(lambda rest: ["A", *rest])
    .filter(lambda pieces: "</think>" not in "".join(pieces))
)
def test_text_deltas_come_back_as_they_arrive_and_concatenate_to_the_finish_text(
    pieces: list[str],
) -> None:
    """(An answer that starts with a letter: one that starts like ``<think>`` is held back until
    it is told apart, and text before a lone ``</think>`` is reasoning once the answer is whole,
    ``test_reasoning_streams``.)"""
    merge, streamed = merged(*(chunk(p) for p in pieces), chunk(finish="stop"))

    assert streamed == [p for p in pieces if p]
    done = merge.finish("fallback")
    assert isinstance(done, Finish)
    assert done.text == "".join(pieces)


@given(ids=IDS)
def test_a_repeated_id_is_made_unique_and_a_missing_one_comes_from_the_index(
    ids: list[str],
) -> None:
    calls = [call_piece(i, call_id, "f", "{}") for i, call_id in enumerate(ids)]

    done = finish_of(*calls, chunk(finish="tool_calls"))

    given_ids = [call_id or f"call_{i}" for i, call_id in enumerate(ids)]
    got = [c.id for c in done.tool_calls]
    assert len(set(got)) == len(got)
    for wanted, id_ in zip(given_ids, got, strict=True):
        assert id_ == wanted or id_.startswith(f"{wanted}-")
    if len(set(given_ids)) == len(given_ids):
        assert got == given_ids


@given(texts=st.lists(TEXT, max_size=6), arguments=st.lists(TEXT, max_size=6))
def test_size_is_one_per_chunk_plus_the_characters_of_text_and_arguments(
    texts: list[str], arguments: list[str]
) -> None:
    events = [chunk(t) for t in texts] + [call_piece(0, arguments=a) for a in arguments]

    merge, _ = merged(*events)

    assert merge.size == len(events) + sum(map(len, texts)) + sum(map(len, arguments))
    assert merge.started == bool(events)


@given(reason=st.text(min_size=1), with_call=st.booleans())
def test_any_finish_reason_becomes_a_neutral_one(reason: str, with_call: bool) -> None:
    calls = [call_piece(0, "c", "f", "{}")] if with_call else []

    done = finish_of(*calls, chunk(finish=reason))

    assert done.reason in get_args(FinishReason)
    expected = FINISH_REASONS.get(reason, "stop")
    assert done.reason == ("tool_calls" if with_call and expected == "stop" else expected)


# ---------------------------------------------------------------- the merge: cases


def test_the_sdks_own_chunk_objects_merge_like_plain_ones() -> None:
    events = [
        chunk(
            "Hi", tool_calls=[{"index": 0, "id": "c", "function": {"name": "f", "arguments": "{"}}]
        ),
        chunk(tool_calls=[{"index": 0, "function": {"arguments": "}"}}], finish="tool_calls"),
        usage_chunk(3, 4),
    ]
    merge = StreamMerge()

    pieces = [p for e in events for p in merge.feed(ChatCompletionChunk.model_validate(e))]

    assert pieces == [TextDelta("Hi")]
    assert merge.finish("fallback") == finish_of(*events)
    assert finish_of(*events) == Finish(
        "Hi", (ToolCall("c", "f", "{}"),), "tool_calls", TokenUsage(3, 4), "test-model"
    )


@pytest.mark.parametrize(
    ("events", "gap"),
    [
        ([], "empty"),
        ([chunk("Hel"), chunk("lo")], "ended_early"),
        ([{"model": "m", "choices": "nope"}, chunk("x")], "unreadable"),
    ],
)
def test_a_stream_without_a_finish_reason_says_why_it_is_not_an_answer(
    events: list[dict[str, Any]], gap: str
) -> None:
    assert merged(*events)[0].finish("fallback") == gap


def test_a_chunk_without_choices_is_ignored_once_the_answer_finishes() -> None:
    done = finish_of({"model": "m"}, chunk("kept", finish="stop"))

    assert done.text == "kept"


def test_other_choices_empty_deltas_and_odd_usage_are_ignored() -> None:
    other = chunk("ignored")
    other["choices"][0]["index"] = 1
    no_index = chunk(" too")
    del no_index["choices"][0]["index"]
    empty = {**chunk(), "choices": [{"index": 0, "delta": None, "finish_reason": None}]}
    odd_usage = {**chunk(), "usage": {"prompt_tokens": "1", "completion_tokens": 2}}

    done = finish_of(chunk("kept"), other, no_index, empty, odd_usage, chunk(finish="stop"))

    assert done.text == "kept too"
    assert done.usage is None


def test_the_chunks_model_name_wins_and_the_fallback_fills_a_missing_one() -> None:
    assert finish_of(chunk("x", finish="stop", model="served")).model == "served"
    assert finish_of(chunk("x", finish="stop", model="")).model == "fallback"


def test_index_less_pieces_join_their_ids_call_a_new_id_or_the_latest_call() -> None:
    done = finish_of(
        call_piece(None, "p", "f", '{"a"'),
        call_piece(None, "p", arguments=": 1}"),
        call_piece(None, "q", "g", "{"),
        call_piece(None, arguments="}"),
        chunk(finish="tool_calls"),
    )

    assert done.tool_calls == (ToolCall("p", "f", '{"a": 1}'), ToolCall("q", "g", "{}"))


def test_the_first_id_and_name_of_a_call_stay_whatever_later_pieces_repeat() -> None:
    done = finish_of(
        call_piece(0, "c", "f", '{"a"'),
        call_piece(0, "c", "f", ": 1"),
        call_piece(0, "other", "g", "}"),
        chunk(finish="tool_calls"),
    )

    assert done.tool_calls == (ToolCall("c", "f", '{"a": 1}'),)


def test_pieces_with_neither_index_nor_id_start_one_call_and_continue_it() -> None:
    both = chunk(tool_calls=[{"function": {"name": "f", "arguments": "{"}}, {"function": {}}])

    done = finish_of(both, call_piece(None, arguments="}"), chunk(finish="tool_calls"))

    assert done.tool_calls == (ToolCall("call_0", "f", "{}"),)


def test_a_cut_answer_ends_with_the_note_drops_open_calls_and_keeps_usage() -> None:
    merge, _ = merged(chunk("so far"), call_piece(0, "c", "f", '{"half'), usage_chunk(5, 6))

    done = merge.cut(" [cut]", "fallback")

    assert done == Finish("so far [cut]", (), "length", TokenUsage(5, 6), "test-model")


# ---------------------------------------------------------------- request mapping


@given(text=WIRE_TEXT)
def test_wire_text_replaces_each_lone_surrogate_and_nothing_else(text: str) -> None:
    sent = wire_text(text)

    assert len(sent) == len(text)
    for original, out in zip(text, sent, strict=True):
        assert out == ("\ufffd" if "\ud800" <= original <= "\udfff" else original)
    sent.encode("utf-8")  # what the SDK does with it


@given(user=WIRE_TEXT, reply=WIRE_TEXT, arguments=WIRE_TEXT, result=WIRE_TEXT, reading=WIRE_TEXT)
def test_every_text_of_the_request_is_sent_wire_safe_and_in_place(
    user: str, reply: str, arguments: str, result: str, reading: str
) -> None:
    request = ModelRequest(
        system="sys",
        messages=(
            Message("user", user),
            Message("assistant", reply, tool_calls=(ToolCall("c1", "f", arguments),)),
            Message("tool", result, tool_call_id="c1"),
            Message("user", "again"),
        ),
        time_context=reading or None,
    )

    sent = to_openai_messages(request)

    assert [m["role"] for m in sent] == (
        ["system", "user", "assistant", "tool"] + (["system"] if reading else []) + ["user"]
    )
    assert sent[1]["content"] == wire_text(user)
    assert sent[2]["content"] == wire_text(reply)
    assert sent[2]["tool_calls"][0]["function"]["arguments"] == wire_text(arguments)
    assert sent[3]["content"] == wire_text(result)
    json.dumps(sent, ensure_ascii=False).encode("utf-8")  # as the SDK writes it: no lone surrogate


def test_the_reading_goes_last_without_a_user_message_and_nowhere_without_one() -> None:
    silent = (Message("assistant", ""),)

    assert to_openai_messages(ModelRequest("", silent, time_context="R")) == [
        {"role": "assistant", "content": ""},
        {"role": "system", "content": "R"},
    ]
    assert to_openai_messages(ModelRequest("", (Message("user", "u"),))) == [
        {"role": "user", "content": "u"}
    ]


def test_an_assistant_message_without_calls_sends_its_text_and_an_empty_one_sends_empty() -> None:
    request = ModelRequest("", (Message("assistant", "Done."), Message("assistant", "")))

    assert to_openai_messages(request) == [
        {"role": "assistant", "content": "Done."},
        {"role": "assistant", "content": ""},
    ]


def test_a_tool_result_without_a_call_id_is_sent_with_an_empty_one() -> None:
    request = ModelRequest("", (Message("tool", "r"),))

    assert to_openai_messages(request) == [{"role": "tool", "tool_call_id": "", "content": "r"}]


def test_tools_are_sent_as_function_tools_and_a_bare_schema_is_wrapped() -> None:
    bare = {"name": "f", "parameters": {"type": "object", "properties": {}}}
    typed = {"type": "function", "function": {"name": "g", "parameters": {}}}

    tools = to_openai_tools(ModelRequest("", (), tools=(bare, typed)))

    assert tools == [{"type": "function", "function": bare}, typed]
    assert to_openai_tools(ModelRequest("", ())) == []
