"""Failures as codes with values (core.failures): every code is produced by some failure, its
values fit its signature, it is stored in ``turn/end`` beside the English message and read back,
and a stored reason that does not fit is dropped (the message is shown instead)."""

from __future__ import annotations

import asyncio
import json
from datetime import datetime

import httpx2
import openai
import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.errors import ErrorKind, ProviderError
from core.events import TurnEnd, TurnError, decode_event
from core.failures import SIGNATURES, Failure, FailureCode, english, fits, read_failure
from core.llm.messages import Message, ModelRequest
from core.llm.offline import OfflineAssistant
from core.llm.openai_compat import _incomplete, url_problem
from core.llm.openai_errors import broken, describe_error, foreign, unreadable

REQUEST = httpx2.Request("POST", "http://model.test/v1/chat/completions")


def sample(code: FailureCode) -> Failure:
    """A failure of ``code`` with values of the kinds its signature takes."""
    values = {str: "http://model.test/v1", int: 4096, float: 30.0}
    return Failure(code, tuple(values[kind] for kind in SIGNATURES.get(code, ())), "")


def status(code: int, body: object = None, error_code: str | None = None) -> openai.APIStatusError:
    error = openai.APIStatusError("x", response=httpx2.Response(code, request=REQUEST), body=body)
    error.code = error_code
    return error


def described(
    exc: openai.OpenAIError, *, started: bool = False, listing: bool = False, key: bool = True
) -> Failure:
    kind_and_failure = describe_error(
        exc,
        base_url="http://model.test/v1",
        model="m",
        has_key=key,
        started=started,
        listing=listing,
        timeout=30.0,
        retries=2,
    )
    assert isinstance(kind_and_failure.kind, ErrorKind)
    return kind_and_failure.failure


def offline_clock_failure() -> Failure | None:
    def broken_clock() -> datetime:
        raise OSError("no clock")

    async def run() -> Failure | None:
        try:
            async for _ in OfflineAssistant(broken_clock).stream(
                ModelRequest("", (Message("user", "hi"),))
            ):
                pass
        except ProviderError as error:
            return error.failure
        return None

    return asyncio.run(run())


def produced() -> list[Failure | None]:
    """One failure from each producer that needs no server (the rest: REACHED_ELSEWHERE)."""
    timeout = openai.APITimeoutError(REQUEST)
    connection = openai.APIConnectionError(request=REQUEST)
    return [
        described(timeout),
        described(timeout, started=True),
        described(connection),
        described(connection, started=True),
        described(status(401)),
        described(status(401), key=False),
        described(status(403, {"message": "no"})),
        described(status(404)),
        described(status(404), listing=True),
        described(status(429)),
        described(status(429, {"message": "quota exceeded"})),
        described(status(500, {"message": "boom"})),
        described(status(400, error_code="context_length_exceeded")),
        described(status(422, {"message": "model has no vision"})),
        described(status(400, {"message": "tools unsupported"})),
        described(openai.APIResponseValidationError(httpx2.Response(200, request=REQUEST), None)),
        described(openai.APIError("mid-stream", REQUEST, body=None)),
        described(openai.OpenAIError("odd")),
        unreadable("schema", listing=True),
        broken("u", started=False),
        foreign(RecursionError()),
        foreign(json.JSONDecodeError("Expecting value", "x", 0)),
        foreign(ValueError("Exceeds the limit (4300 digits) for integer string conversion")),
        url_problem("ftp://model.test"),
        _incomplete("unreadable").failure,
        _incomplete("empty").failure,
        _incomplete("ended_early").failure,
        offline_clock_failure(),
    ]


REACHED_ELSEWHERE = {
    FailureCode.NO_ANSWER: "test_openai_servers: an empty answer from a server that lists models",
    FailureCode.CRASHED: "test_openai_servers: an empty answer from a server that then stops",
    FailureCode.OVERSIZED: "test_openai_workarounds: an unfinished event longer than the bound",
    FailureCode.CLOSED: "test_openai_merge: a transport that was shut down",
    FailureCode.UNFINISHED: "test_agent: a stream that ends without finishing",
    FailureCode.INTERNAL: "test_agent: a clock failure ends the turn failed",
}
"""Codes only a server or a running agent produces; those tests assert the code."""


def test_every_failure_code_is_produced_with_values_that_fit_it() -> None:
    failures = produced()
    assert None not in failures
    reached = {f.code for f in failures if f is not None}
    assert all(fits(f.code, f.args) for f in failures if f is not None)
    assert reached | set(REACHED_ELSEWHERE) == set(FailureCode)
    assert not reached & set(REACHED_ELSEWHERE)


def test_the_english_sentences_are_the_ones_the_messages_always_had() -> None:
    assert english(Failure(FailureCode.KEY_REJECTED)) == (
        "The endpoint rejected the API key (401). Check the key in Settings."
    )
    assert english(Failure(FailureCode.SERVER_FAILED, (500, 2), "boom")) == (
        "The model endpoint failed with a server error (500) after 2 retries. Try again later, "
        'or check the server\'s logs. The server said: "boom"'
    )
    assert english(Failure(FailureCode.TIMED_OUT, ("http://h/v1", 2.5))).startswith(
        "The model endpoint at http://h/v1 did not answer for 2.5 seconds."
    )
    assert "(an event that is not JSON: Expecting value at column 1)" in english(
        Failure(FailureCode.EVENT_NOT_JSON, ("Expecting value", 1))
    )


@pytest.mark.parametrize("code", list(FailureCode))
def test_each_code_says_a_sentence_and_survives_the_log(code: FailureCode) -> None:
    for failure in (sample(code), Failure(code, sample(code).args, "the server's own words")):
        assert english(failure).strip()
        end = TurnEnd(3, "failed", TurnError(ErrorKind.SERVER, english(failure), failure))
        again = decode_event("turn/end", json.loads(json.dumps(end.to_data())))
        assert again == end


def test_the_key_is_redacted_from_every_value_and_the_server_text() -> None:
    failure = Failure(FailureCode.NO_SUCH_MODEL, ("sk-secret",), "bad key sk-secret")
    assert "sk-secret" not in english(failure.redacted("sk-secret"))
    assert failure.redacted("") is failure


def test_a_log_written_before_reasons_reads_as_kind_and_message() -> None:
    error = {"kind": "timeout", "message": "Timed out."}
    event = decode_event("turn/end", {"turn": 1, "status": "failed", "error": error})
    assert event == TurnEnd(1, "failed", TurnError(ErrorKind.TIMEOUT, "Timed out."))
    assert event.to_data()["error"] == error


def test_an_unknown_kind_reads_as_other_and_keeps_its_message() -> None:
    error = {"kind": "bad_request", "message": "HTTP 400."}
    event = decode_event("turn/end", {"turn": 1, "status": "failed", "error": error})
    assert isinstance(event, TurnEnd)
    assert event.error == TurnError(ErrorKind.OTHER, "HTTP 400.")


@pytest.mark.parametrize(
    "reason",
    [
        None,
        "unreachable",
        {"code": "a_code_from_a_later_version", "args": []},
        {"code": "unreachable", "args": []},  # too few values
        {"code": "unreachable", "args": [3]},  # a number where a URL goes
        {"code": "rate_limited", "args": [True]},  # a bool is not a count
        {"code": "rate_limited", "args": 3},
        {"code": "cut_off", "args": [], "detail": 7},
        {"args": []},
    ],
)
def test_a_stored_reason_that_does_not_fit_is_dropped_and_the_message_stays(
    reason: object,
) -> None:
    error: dict[str, object] = {"kind": "connection", "message": "Could not connect."}
    if reason is not None:
        error["reason"] = reason
    event = decode_event("turn/end", {"turn": 1, "status": "failed", "error": error})
    assert isinstance(event, TurnEnd)
    assert event.error == TurnError(ErrorKind.CONNECTION, "Could not connect.")
    assert read_failure(reason) is None


@given(st.lists(st.one_of(st.text(), st.integers(), st.floats(allow_nan=False), st.booleans())))
def test_a_reason_is_read_only_when_its_values_fit_its_code(args: list[object]) -> None:
    for code in (FailureCode.SERVER_FAILED, FailureCode.TIMED_OUT, FailureCode.CUT_OFF):
        read = read_failure({"code": code.value, "args": args})
        assert (read is not None) == fits(code, tuple(args))
        if read is not None:
            assert english(read).strip()
