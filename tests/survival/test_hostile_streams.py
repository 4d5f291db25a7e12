"""Survival: broken and hostile model streams, end to end through the real agent.

A ``SessionHost`` on a real session folder (tmp_path) with ``OpenAICompatProvider`` pointed at a
hostile server on 127.0.0.1. Every broken stream must end as a readable failed turn (``turn/end``
``failed`` with ``{kind, message}``) or a bounded answer, never a crash or a lost input, and the
same session must answer again once the server behaves (``retry()`` re-runs the same input).
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any, Literal

import pytest

from core.llm.openai_compat import MAX_ANSWER_CHARS, cut_note
from tests import wire as v
from tests.core.llm.loopback import Json, Reply, Sse, chunk, error_body
from tests.survival.hostile_kit import (
    GOOD,
    Rig,
    assert_readable_failure,
    hosted,
    of_type,
    turn_end,
    turn_events,
)
from tests.survival.hostile_server import Flood, HostileReply, Raw


def bare(choices: Any, **fields: Any) -> dict[str, Any]:
    """A chunk-shaped object with ``choices`` and any other fields as given (types unchecked)."""
    return {"id": "x", "object": "chat.completion.chunk", "created": 1, "model": "m"} | {
        "choices": choices,
        **fields,
    }


def call_piece(arguments: str, name: str | None = "schedule_create") -> dict[str, Any]:
    function: dict[str, Any] = {"arguments": arguments}
    if name is not None:
        function["name"] = name
    return chunk(
        tool_calls=[{"index": 0, "id": "call_a", "type": "function", "function": function}]
    )


BROKEN: dict[str, HostileReply] = {
    "garbage data line": Sse(["this is not json at all"]),
    "garbage after text": Sse([chunk("Hel"), "{oops", chunk("lo", finish="stop")]),
    "JSON object that is not a chunk": Sse(['{"hello": "world"}']),
    "JSON array": Sse(["[1, 2, 3]"]),
    "JSON number": Sse(["42"]),
    "JSON string": Sse(['"data"']),
    "choices null": Sse([bare(None)]),
    "choices an object": Sse([bare({"index": 0})]),
    "finish_reason of the wrong type": Sse([bare([{"index": 0, "delta": {}, "finish_reason": 7}])]),
    "every field of the wrong type": Sse(
        [
            {
                "id": 1,
                "object": 2,
                "created": "x",
                "model": 5,
                "choices": [{"index": "0", "delta": 3}],
            }
        ]
    ),
    "invalid UTF-8": Raw(b"data: \xff\xfe\xfd\n\n"),
    "lines without data: prefix": Raw(b"hello world\nthis is html\n\n"),
    "HTML page": Raw(b"<html><body>502 Bad Gateway</body></html>"),
    "error event mid answer": Sse([chunk("Hel"), error_body("CUDA out of memory\nat layer 3")]),
    "empty stream": Sse([]),
    "only DONE missing": Sse([chunk("Hello")], done=False),
    "stops mid tool call (socket cut)": Sse([call_piece('{"prompt": "str')], done=False, cut=True),
    "stops mid tool call (clean end)": Sse([call_piece('{"prompt": "str')]),
    "text then socket cut": Sse([chunk("Half an ans")], done=False, cut=True),
    "data nested 100 000 deep": Sse(["[" * 100_000 + "]" * 100_000]),
    "a chunk nested 5 000 deep": Sse(['{"choices":' * 5000 + "1" + "}" * 5000]),
    "a number of 5 000 digits": Sse(['{"created":' + "9" * 5000 + "}"]),
}


ANSWERS_NOTHING = {"lines without data: prefix", "HTML page", "empty stream"}


@pytest.mark.parametrize("name", list(BROKEN))
def test_a_broken_stream_fails_the_turn_readably_and_retry_answers_the_same_input(
    name: str, tmp_path: Path
) -> None:
    async def body(rig: Rig) -> list[dict[str, Any]]:
        await rig.ask("hello there")
        assert rig.host.agent.can_retry
        await rig.retry()
        return rig.events()

    # An answer without any event makes the door ask GET /models at once (to tell a wrong URL
    # from a server that is up or one that stopped): here it answers a web page.
    asked = [Raw(b"<html>not an API</html>")] if name in ANSWERS_NOTHING else []
    events = hosted([BROKEN[name], *asked, GOOD], tmp_path, body)

    error = assert_readable_failure(turn_end(events, 1))
    assert error["kind"] in {"bad_response", "connection", "server"}, error
    starts = of_type(events, v.TURN_START)
    assert [s["input"] for s in starts] == [0, 0]  # the input was kept and answered by the retry
    assert events[0]["data"]["text"] == "hello there"
    assert turn_end(events, 2) == {"turn": 2, "status": "completed"}
    answers = of_type(turn_events(events, 2), v.ASSISTANT_MESSAGE)
    assert [(a["text"], a["finish"]) for a in answers] == [("All good again.", "stop")]
    for answer in of_type(turn_events(events, 1), v.ASSISTANT_MESSAGE):
        assert answer["finish"] == "interrupted"
        assert answer["toolCalls"] == []


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("garbage data line", "an event that is not JSON: Expecting value at column 1"),
        ("data nested 100 000 deep", "an event nested too deeply"),
        ("a chunk nested 5 000 deep", "an event nested too deeply"),
        ("a number of 5 000 digits", "an event with a number out of range"),
    ],
)
def test_an_event_the_sdk_cannot_decode_is_named_in_words_not_as_a_python_error(
    name: str, words: str, tmp_path: Path
) -> None:
    async def body(rig: Rig) -> list[dict[str, Any]]:
        await rig.ask("hello there")
        return rig.events()

    error = assert_readable_failure(turn_end(hosted([BROKEN[name]], tmp_path, body), 1))
    assert f"cannot read ({words})." in error["message"]
    assert "Error" not in error["message"]


TOLERATED: dict[str, Reply] = {
    "a choices-null chunk before a good one": Sse([bare(None), chunk("Hi", finish="stop")]),
    "delta a string": Sse([bare([{"index": 0, "delta": "str"}]), chunk("Hi", finish="stop")]),
    "content a list": Sse(
        [bare([{"index": 0, "delta": {"content": ["x"]}}]), chunk("Hi", finish="stop")]
    ),
    "tool_calls a string": Sse(
        [bare([{"index": 0, "delta": {"tool_calls": "no"}}]), chunk("Hi", finish="stop")]
    ),
    "a second choice": Sse(
        [bare([{"index": 1, "delta": {"content": "other"}}]), chunk("Hi", finish="stop")]
    ),
    "an unknown finish reason": Sse([chunk("Hi", finish="eos_token")]),
    "usage of the wrong type": Sse([chunk("Hi", finish="stop"), bare([], usage="lots")]),
}


@pytest.mark.parametrize("name", list(TOLERATED))
def test_odd_but_harmless_chunks_are_skipped_and_the_readable_part_is_the_answer(
    name: str, tmp_path: Path
) -> None:
    async def body(rig: Rig) -> list[dict[str, Any]]:
        await rig.ask("hello")
        await rig.ask("and again")
        return rig.events()

    events = hosted([TOLERATED[name], GOOD], tmp_path, body)

    assert turn_end(events, 1) == {"turn": 1, "status": "completed"}
    answers = of_type(turn_events(events, 1), v.ASSISTANT_MESSAGE)
    assert [(a["text"], a["finish"], a["toolCalls"]) for a in answers] == [("Hi", "stop", [])]
    assert turn_end(events, 2) == {"turn": 2, "status": "completed"}


@pytest.mark.parametrize("kind", ["text", "arguments", "empty"])
def test_an_endless_stream_is_cut_at_the_answer_bound_with_a_note_and_the_connection_closed(
    kind: Literal["text", "arguments", "empty"], tmp_path: Path
) -> None:
    limit = 200

    async def body(rig: Rig) -> tuple[list[dict[str, Any]], list[str]]:
        await rig.ask("talk forever")
        assert rig.server.hung_up.is_set()  # the flood only stops when the client hangs up
        await rig.ask("now something short")
        return rig.events(), list(rig.deltas)

    events, deltas = hosted([Flood(kind, "ab"), GOOD], tmp_path, body, max_answer_chars=limit)

    assert turn_end(events, 1) == {"turn": 1, "status": "completed"}
    [answer] = of_type(turn_events(events, 1), v.ASSISTANT_MESSAGE)
    note = cut_note(limit)
    assert answer["finish"] == "length"
    assert answer["toolCalls"] == []
    assert answer["text"].endswith(note)
    streamed = answer["text"][: -len(note)]
    assert set(streamed) <= ({"a", "b"} if kind == "text" else set())
    assert len(streamed) <= limit
    assert "".join(deltas[:-1]) == answer["text"]  # the window saw exactly what was recorded
    assert "This answer reached 200 characters, the most Chime keeps" in note
    assert turn_end(events, 2) == {"turn": 2, "status": "completed"}


def test_the_provider_bounds_answers_by_default_at_a_few_megabytes() -> None:
    assert 1_000_000 <= MAX_ANSWER_CHARS <= 8_000_000


def test_stop_ends_an_endless_stream_keeping_the_partial_answer(tmp_path: Path) -> None:
    async def body(rig: Rig) -> tuple[list[dict[str, Any]], int]:
        seen = asyncio.Event()
        rig.host.on_delta(lambda _text: seen.set())
        rig.host.submit("talk forever")
        await seen.wait()
        assert rig.host.cancel()
        await rig.idle()
        await asyncio.wait_for(rig.server.hung_up.wait(), 2)
        await rig.ask("next")
        return rig.events(), rig.server.flood_chunks

    events, flooded = hosted([Flood("text", "ab"), GOOD], tmp_path, body)

    assert turn_end(events, 1)["status"] == "cancelled"
    [partial] = of_type(turn_events(events, 1), v.ASSISTANT_MESSAGE)
    assert partial["finish"] == "interrupted"
    assert partial["text"]
    assert set(partial["text"]) <= {"a", "b"}
    assert flooded >= len(partial["text"]) // 2
    assert turn_end(events, 2) == {"turn": 2, "status": "completed"}


@pytest.mark.parametrize("kind", ["line", "event"])
def test_an_endless_line_or_event_fails_readably_once_the_event_bound_is_passed(
    kind: Literal["line", "event"], tmp_path: Path
) -> None:
    limit = 200  # the event bound is then 12 * 200 + 65536 bytes

    async def body(rig: Rig) -> list[dict[str, Any]]:
        await rig.ask("talk forever")
        assert rig.server.hung_up.is_set()
        await rig.retry()
        return rig.events()

    events = hosted([Flood(kind, "ab"), GOOD], tmp_path, body, max_answer_chars=limit)

    error = assert_readable_failure(turn_end(events, 1), "bad_response")
    assert f"more than {12 * limit + 65_536:,} bytes" in error["message"]
    assert of_type(turn_events(events, 1), v.ASSISTANT_MESSAGE) == []
    assert turn_end(events, 2) == {"turn": 2, "status": "completed"}


def test_input_typed_during_an_endless_stream_is_kept_and_answered_next(tmp_path: Path) -> None:
    async def body(rig: Rig) -> list[dict[str, Any]]:
        seen = asyncio.Event()
        rig.host.on_delta(lambda _text: seen.set())
        rig.host.submit("talk forever")
        await seen.wait()
        rig.host.submit("typed meanwhile")
        await rig.idle()
        return rig.events()

    events = hosted([Flood("text", "ab"), GOOD], tmp_path, body, max_answer_chars=200)

    starts = of_type(events, v.TURN_START)
    texts = {e["seq"]: e["data"]["text"] for e in events if e["type"] == v.USER_MESSAGE}
    assert [texts[s["input"]] for s in starts] == ["talk forever", "typed meanwhile"]
    assert [e["status"] for e in of_type(events, v.TURN_END)] == ["completed", "completed"]


def test_lone_surrogates_in_an_answer_are_kept_and_later_requests_still_go_out(
    tmp_path: Path,
) -> None:
    """The loopback writes ``\\ud800`` as a JSON escape, so the SDK decodes a lone surrogate."""
    text = "odd \ud800 text \udfff end"
    arguments = '{"prompt": "p \ud800", "after_seconds": 60}'
    step = Sse([chunk(text), call_piece(arguments), chunk(finish="tool_calls")])

    async def body(rig: Rig) -> tuple[list[dict[str, Any]], list[Any]]:
        await rig.ask("be odd")
        await rig.ask("and now?")
        return rig.events(), [r.json()["messages"] for r in rig.server.received]

    events, requests = hosted([step, GOOD, GOOD], tmp_path, body)

    first = of_type(turn_events(events, 1), v.ASSISTANT_MESSAGE)[0]
    assert first["text"] == text  # the session keeps what the model sent
    assert first["toolCalls"][0]["arguments"] == arguments
    assert [e["status"] for e in of_type(events, v.TURN_END)] == ["completed", "completed"]
    assert len(requests) == 3
    sent = requests[2][2]  # system, user, then the odd answer
    assert sent["content"] == "odd \ufffd text \ufffd end"
    assert (
        sent["tool_calls"][0]["function"]["arguments"]
        == '{"prompt": "p \ufffd", "after_seconds": 60}'
    )


NOT_A_STREAM: dict[str, HostileReply] = {
    "a whole completion (stream ignored)": Json(
        200,
        {
            "id": "x",
            "object": "chat.completion",
            "created": 1,
            "model": "m",
            "choices": [{"index": 0, "message": {"role": "assistant", "content": "Hi"}}],
        },
    ),
    "a web page": Json(200, raw=b"<html>Open WebUI</html>", headers={"Content-Type": "text/html"}),
    "an empty body": Json(200, raw=b""),
    "an event stream with only DONE": Sse([]),
}


@pytest.mark.parametrize("name", list(NOT_A_STREAM))
def test_a_200_answer_without_any_event_points_to_the_settings_not_to_retrying(
    name: str, tmp_path: Path
) -> None:
    async def body(rig: Rig) -> list[dict[str, Any]]:
        await rig.ask("hello")
        return rig.events()

    events = hosted([NOT_A_STREAM[name]], tmp_path, body)

    error = assert_readable_failure(turn_end(events, 1), "bad_response")
    assert "base URL" in error["message"]
    assert "Retry" not in error["message"]
