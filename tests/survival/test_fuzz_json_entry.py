"""Fuzzing every place JSON enters Chime with hostile texts (tests/survival/json_strategies.py):
the bounded decode itself against an independent reading of its rules, then each entry point,
which must answer in its own way and never raise anything else: a model's tool-call arguments (an
error result), a log line and the header (a refusal the open turns into read-only, a torn tail
or a refused header), the checkpoint and the offsets index (ignored: the session opens as from
the log alone), settings.json and state.json (defaults, a sentence), the line a second start
sends the running instance (a session id or none), and the texts the window, the offline
assistant and the framing parser read back. ``scripts/fuzz_json.py`` runs the same bodies for
longer and counts inputs and failures.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import tempfile
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
import xxhash
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.settings import SETTINGS_FILE, read_settings
from app.single_instance import asked_session
from app.state import STATE_FILE, read_state_checked
from core.agent.tool_registry import ToolRegistry
from core.errors import ScheduleLogError, SessionFormatError
from core.events import AssistantMessage, Entry, ModelRef, ToolCall, ToolResult
from core.framing import parse_framing
from core.jsonread import (
    CHECKPOINT,
    INSTANCE_REQUEST,
    LOG_HEADER,
    LOG_LINE,
    SETTINGS,
    TOOL_ARGUMENTS,
    TOOL_TEXT,
    JsonLimits,
    JsonRefusedError,
    parse_json,
)
from core.llm.messages import Finish, Message, ModelRequest
from core.llm.offline import OfflineAssistant
from core.session.checkpoint import decode_checkpoint
from core.session.lines import parse_entry, parse_header, parse_line
from tests import wire as v
from tests.core.llm.loopback import Sse, chunk
from tests.core.llm.openai_kit import exchange
from tests.core.session.helpers import add_turn, create_change, log_path, make_store
from tests.fakes import FakeClock
from tests.survival.json_strategies import BYTES, TEXTS
from tests.survival.scan_oracle import depth, read_json
from ui.transcript_rows import merge_tool_result, row_for_event

pytestmark = pytest.mark.slow
FUZZ = settings(
    max_examples=300,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
FEWER = settings(FUZZ, max_examples=40)  # real files, or the loopback server: slower per input
LIMITS = st.sampled_from(
    [TOOL_ARGUMENTS, LOG_LINE, LOG_HEADER, CHECKPOINT, SETTINGS, INSTANCE_REQUEST, TOOL_TEXT]
)
AT = "2026-08-05T12:00:00.000Z"
NOW = datetime(2026, 8, 5, 12, tzinfo=UTC)


# -- the decode itself, against the rules read independently ------------------------------------


def oracle(raw: bytes | str, limits: JsonLimits) -> tuple[bool, Any]:
    """(accepted, value) by RFC 8259 read strictly, within the limits' size and depth."""
    if len(raw) > limits.max_size:
        return False, None
    try:
        return True, read_json(raw)
    except ValueError:
        return False, None


def check_decode(raw: bytes | str, limits: JsonLimits) -> None:
    refusal: JsonRefusedError | None = None
    try:
        value, accepted = parse_json(raw, limits), True
    except JsonRefusedError as refused:
        value, accepted, refusal = None, False, refused
    assert refusal is None or (str(refusal) and refusal.detail)
    expected, expected_value = oracle(raw, limits)
    assert accepted == expected, (accepted, raw[:200])
    if accepted:
        assert depth(value) <= limits.max_depth
        assert json.dumps(value, allow_nan=False) == json.dumps(expected_value, allow_nan=False)


@FUZZ
@given(raw=st.one_of(BYTES, TEXTS), limits=LIMITS)
def test_the_bounded_decode_agrees_with_the_rules_and_refuses_only_in_words(
    raw: bytes | str, limits: JsonLimits
) -> None:
    check_decode(raw, limits)


# -- a model's tool-call arguments --------------------------------------------------------------


class Recording:
    """A toolset whose one tool records the arguments it was given."""

    def __init__(self) -> None:
        self.seen: list[Any] = []

    def definitions(self) -> Sequence[dict[str, Any]]:
        return [{"type": "function", "function": {"name": "schedule_create", "parameters": {}}}]

    async def call(self, name: str, arguments: Any) -> object:
        self.seen.append(arguments)
        json.dumps(arguments, allow_nan=False)  # what the tool is given can always be rendered
        return {"ok": True}


def check_arguments(text: str) -> None:
    tools = Recording()
    outcome = asyncio.run(ToolRegistry([tools]).run("schedule_create", text))
    if outcome.is_error:
        assert outcome.content.startswith("The arguments are not valid JSON: ")
        assert outcome.content.endswith(".")
        assert tools.seen == []
    else:
        assert len(tools.seen) == 1
        assert outcome.failure is None


@FUZZ
@given(text=TEXTS)
def test_any_argument_text_is_run_or_refused_with_a_sentence(text: str) -> None:
    check_arguments(text)


# -- log lines, the header, the checkpoint ----------------------------------------------------


def check_lines(raw: bytes) -> None:
    for read in (parse_line, parse_entry):
        with contextlib.suppress(ValueError):
            read(raw, 0)
    said = ""
    try:
        parse_header(raw)
    except SessionFormatError as refusal:
        said = str(refusal)
    assert not said or said.startswith(
        ("the session header", "the first line", "unknown", "invalid")
    )
    assert decode_checkpoint(raw) is None or raw.endswith(b'"}')


def envelope(data: str) -> bytes:
    line = '{"seq":0,"at":"' + AT + '","type":"user/message","data":' + data + "}"
    return line.encode("utf-8", "surrogatepass")


@FUZZ
@given(raw=st.one_of(BYTES, TEXTS.map(envelope)))
def test_a_log_line_a_header_or_a_checkpoint_of_any_bytes_is_read_or_refused(raw: bytes) -> None:
    check_lines(raw)


# -- settings.json and state.json ----------------------------------------------------------


def check_settings_files(raw: bytes) -> None:
    with tempfile.TemporaryDirectory() as folder:
        data = Path(folder)
        (data / SETTINGS_FILE).write_bytes(raw)
        (data / STATE_FILE).write_bytes(raw)
        read = read_settings(data)
        state, problem = read_state_checked(data)
        if read.problem is not None:
            assert read.problem.endswith("The default settings apply.")
            assert not (data / SETTINGS_FILE).exists()
        if problem is not None:
            assert problem.startswith(STATE_FILE)
        assert all(isinstance(sid, str) for sid in state.open)
        state.geometry.encode("ascii")  # what the window restores is base64 text


def _settings_like(text: str) -> bytes:
    return ('{"model":' + text + ',"geometry":' + text + "}").encode("utf-8", "surrogatepass")


SETTINGS_BYTES = st.one_of(BYTES, TEXTS.map(_settings_like))


@FUZZ
@given(raw=SETTINGS_BYTES)
def test_settings_and_state_of_any_bytes_give_defaults_and_a_sentence(raw: bytes) -> None:
    check_settings_files(raw)


def check_request_line(raw: bytes) -> None:
    session = asked_session(raw)
    assert session is None or (isinstance(session, str) and session)


def _request_like(text: str) -> bytes:
    return ('{"session":' + text + "}\n").encode("utf-8", "surrogatepass")


REQUEST_BYTES = st.one_of(BYTES, TEXTS.map(_request_like))


@FUZZ
@given(raw=REQUEST_BYTES)
def test_a_request_line_of_any_bytes_asks_for_a_session_or_for_none(raw: bytes) -> None:
    check_request_line(raw)


# -- what the window, the offline assistant and the framing parser read back ----------------


def check_read_back(arguments: str, result: str) -> None:
    call = ToolCall("c1", "schedule_create", arguments)
    answer = AssistantMessage("a1", "", (call,), ModelRef("t", "m"), "tool_calls")
    (row,) = [r for r in row_for_event(Entry(1, AT, answer), "UTC") if r.kind == "tool"]
    merged = merge_tool_result(row, ToolResult("c1", "schedule_create", result, False), "UTC")
    assert merged.title
    request = ModelRequest(
        "system",
        (
            Message("user", "remind me in 10 minutes to stretch"),
            Message("assistant", tool_calls=(call,)),
            Message("tool", result, tool_call_id="c1", name="schedule_create"),
        ),
    )

    async def answered() -> list[Any]:
        return [chunk async for chunk in OfflineAssistant(lambda: NOW).stream(request)]

    assert isinstance(asyncio.run(answered())[-1], Finish)
    for framing in (f"[SCHEDULE REMINDER BATCH]\nx\nreminders_json: {result}", result):
        parse_framing(framing)


@FUZZ
@given(arguments=TEXTS, result=TEXTS)
def test_tool_texts_read_back_for_display_and_answers_never_break(
    arguments: str, result: str
) -> None:
    check_read_back(arguments, result)


# -- whole sessions on disk: a hostile line, a hostile checkpoint or offsets index ----------


def _good_log(store: Any) -> str:
    async def build() -> str:
        session = await store.create()
        for turn in range(1, 4):
            add_turn(session, turn, f"q{turn}")
        session.append(v.SCHEDULE_CHANGE, create_change("schedule-1"))
        assert await session.close()
        return str(session.id)

    return asyncio.run(build())


def _opened(store: Any, sid: str) -> tuple[int, str | None, Any]:
    async def open_it() -> tuple[int, str | None, Any]:
        session = await store.open(sid)
        await session.verification()
        found = (len(session.events), session.read_only_reason, _fold_or_none(session))
        await session.close()
        return found

    return asyncio.run(open_it())


def _fold_or_none(session: Any) -> Any:
    try:
        return session.schedule_fold()
    except ScheduleLogError:
        return None


def check_session_line(raw: bytes, where: str) -> None:
    """``raw`` as the header, a middle line or the last line of a real session."""
    with tempfile.TemporaryDirectory() as folder:
        store = make_store(Path(folder), FakeClock(NOW))
        sid = _good_log(store)
        log = log_path(Path(folder), sid)
        lines = log.read_bytes().split(b"\n")
        line = raw.replace(b"\n", b" ")
        if where == "header":
            lines[0] = line
        elif where == "middle":
            lines[4] = line
        else:
            lines.insert(-1, line)
        log.write_bytes(b"\n".join(lines))
        damaged = log.read_bytes()
        (log.parent / "checkpoint.json").unlink()
        try:
            count, reason, _ = _opened(store, sid)
        except SessionFormatError:
            assert where == "header"
            assert log.read_bytes() == damaged
            return
        if reason is not None:
            assert "corrupt" in reason
            assert log.read_bytes() == damaged  # a corrupt log is never rewritten
        elif where == "last" and count == 21:
            torn = [p for p in log.parent.iterdir() if p.name.startswith("session.jsonl.torn-")]
            assert [p.read_bytes() for p in torn] in ([line + b"\n"], [])


@FEWER
@given(raw=BYTES, where=st.sampled_from(["header", "middle", "last"]))
def test_a_session_with_a_hostile_line_opens_read_only_sets_the_tail_aside_or_refuses(
    raw: bytes, where: str
) -> None:
    check_session_line(raw, where)


def check_derived_files(checkpoint: bytes, offsets: bytes | None, reseal: bool) -> None:
    """Hostile ``checkpoint.json`` (sealed again, as a forger would, when ``reseal``) and
    ``offsets.bin``: the session opens exactly as from its log alone."""
    with tempfile.TemporaryDirectory() as folder:
        store = make_store(Path(folder), FakeClock(NOW))
        sid = _good_log(store)
        path = log_path(Path(folder), sid).parent
        truth = _opened(store, sid)
        if reseal:
            checkpoint = _resealed(path / "checkpoint.json", checkpoint)
        (path / "checkpoint.json").write_bytes(checkpoint)
        if offsets is not None:
            (path / "offsets.bin").write_bytes(offsets)
        assert _opened(store, sid) == truth


def _resealed(path: Path, noise: bytes) -> bytes:
    """The real checkpoint with ``noise`` spliced into its folds, sealed again."""
    head = path.read_bytes()[: path.read_bytes().rindex(b',"seal":"')]
    cut = len(noise) % max(1, len(head))
    changed = head[:cut] + noise + head[cut + len(noise) :]
    return changed + b',"seal":"' + xxhash.xxh3_128_hexdigest(changed).encode() + b'"}'


@FEWER
@given(
    checkpoint=st.one_of(BYTES, TEXTS.map(lambda t: t.encode("utf-8", "surrogatepass"))),
    offsets=st.one_of(st.none(), st.binary(max_size=8 * 30)),
    reseal=st.booleans(),
)
def test_hostile_derived_files_change_nothing_but_speed(
    checkpoint: bytes, offsets: bytes | None, reseal: bool
) -> None:
    check_derived_files(checkpoint, offsets, reseal)


# -- the model stream -------------------------------------------------------------------------


def check_stream(event: str, arguments: str) -> None:
    """One streamed event of any text, then a tool call with any arguments: the step ends as a
    Finish or as a ProviderError in words (never a Python error's name)."""
    calls = [
        {
            "index": 0,
            "id": "c",
            "type": "function",
            "function": {"name": "x", "arguments": arguments},
        }
    ]
    script = [Sse([event.replace("\n", " "), chunk(tool_calls=calls), chunk(finish="tool_calls")])]
    chunks, error, _ = exchange(script, max_retries=0)
    if error is None:
        assert isinstance(chunks[-1], Finish)
    else:
        assert error.message.endswith(".")
        assert "Error" not in error.message


@FEWER
@given(event=TEXTS, arguments=TEXTS)
def test_any_streamed_event_ends_the_step_as_an_answer_or_a_failure_in_words(
    event: str, arguments: str
) -> None:
    check_stream(event, arguments)
