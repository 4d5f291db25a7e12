"""Why a turn failed, as a value: a ``FailureCode`` with its values (agent.md §5.2). Pure: no I/O.

Core never says a failure in the window's words: it names the failure (``Failure``: a code, the
values its sentence needs, and the server's own text) and ``ui.wording`` says it in the window's
language. ``english`` is the English sentence of each code, kept in ``turn/end``'s ``message``
(what an older Chime, the Markdown export and the terminal log read) and in
``ProviderError.message``. ``SIGNATURES`` says which values each code takes, in order; a reason
read from a log whose values do not fit its code is not trusted (``fits``): the window then shows
the stored English ``message``.
"""

from __future__ import annotations

import json
from enum import StrEnum
from typing import assert_never

from core.frozen import frozen

Value = str | int | float
"""A value a failure's sentence names: a URL, a model name, a number of seconds or tokens."""


class FailureCode(StrEnum):
    """Each sentence a failed turn (or Test connection) can end with; the value is what the log
    stores (``turn/end`` ``error.reason.code``)."""

    TIMED_OUT = "timed_out"
    STOPPED_SENDING = "stopped_sending"
    UNREACHABLE = "unreachable"
    BAD_URL = "bad_url"
    CUT_OFF = "cut_off"
    ENDED_EARLY = "ended_early"
    NO_ANSWER = "no_answer"
    CRASHED = "crashed"
    MALFORMED = "malformed"
    NOT_AN_API = "not_an_api"
    NO_CHOICES = "no_choices"
    EVENT_TOO_DEEP = "event_too_deep"
    EVENT_NOT_JSON = "event_not_json"
    EVENT_NUMBER = "event_number"
    OVERSIZED = "oversized"
    MODELS_MALFORMED = "models_malformed"
    FAILED_MIDWAY = "failed_midway"
    KEY_NEEDED = "key_needed"
    KEY_REJECTED = "key_rejected"
    FORBIDDEN = "forbidden"
    NO_SUCH_MODEL = "no_such_model"
    NO_MODEL_LIST = "no_model_list"
    RATE_LIMITED = "rate_limited"
    NO_QUOTA = "no_quota"
    SERVER_FAILED = "server_failed"
    TOO_LONG = "too_long"
    NO_IMAGES = "no_images"
    REFUSED = "refused"
    CLOSED = "closed"
    UNFINISHED = "unfinished"
    CLOCK_FAILED = "clock_failed"
    INTERNAL = "internal"


_URL = (str,)
_URL_SECONDS = (str, float)
SIGNATURES: dict[FailureCode, tuple[type, ...]] = {
    FailureCode.TIMED_OUT: _URL_SECONDS,  # base URL, seconds
    FailureCode.STOPPED_SENDING: _URL_SECONDS,
    FailureCode.UNREACHABLE: _URL,
    FailureCode.BAD_URL: _URL,
    FailureCode.NO_ANSWER: (int, int, str),  # prompt and context tokens, server/settings/default
    FailureCode.CRASHED: _URL,
    FailureCode.MALFORMED: (str,),  # what could not be read: a technical name
    FailureCode.EVENT_NOT_JSON: (str, int),  # the decoder's own words, the column
    FailureCode.OVERSIZED: (int,),  # bytes
    FailureCode.NO_SUCH_MODEL: (str,),  # the model's name
    FailureCode.RATE_LIMITED: (int,),  # retries made
    FailureCode.SERVER_FAILED: (int, int),  # HTTP status, retries made
    FailureCode.TOO_LONG: (int,),  # HTTP status
    FailureCode.NO_IMAGES: (int,),
    FailureCode.REFUSED: (int,),
    FailureCode.INTERNAL: (str,),  # the exception's own text
}
"""The values each code's sentence takes, in order (a code not listed takes none); a float
value also accepts a whole number (JSON has one kind of number)."""


@frozen
class Failure:
    """A failure's code, the values its sentence names (``SIGNATURES``) and the server's own
    text (one line, key removed; "" when it gave none), quoted as it is in every language."""

    code: FailureCode
    args: tuple[Value, ...] = ()
    detail: str = ""

    def to_json(self) -> dict[str, object]:
        data: dict[str, object] = {"code": self.code.value, "args": list(self.args)}
        if self.detail:
            data["detail"] = self.detail
        return data

    def redacted(self, secret: str) -> Failure:
        """The failure with ``secret`` (the API key) replaced in every text it holds."""
        if not secret:
            return self
        args = tuple(
            a.replace(secret, "[redacted]") if isinstance(a, str) else a for a in self.args
        )
        return Failure(self.code, args, self.detail.replace(secret, "[redacted]"))


def fits(code: FailureCode, args: tuple[object, ...]) -> bool:
    """Whether ``args`` are the values ``code``'s sentence takes (bools are not numbers)."""
    wanted = SIGNATURES.get(code, ())
    return len(args) == len(wanted) and all(
        type(arg) is kind or (kind is float and type(arg) is int)
        for arg, kind in zip(args, wanted, strict=True)
    )


def read_failure(data: object) -> Failure | None:
    """The ``reason`` object of a stored ``turn/end`` error, or None when it is missing, of a code
    this version does not know, or malformed (the stored ``message`` is shown instead)."""
    if not isinstance(data, dict):
        return None
    code, args, detail = data.get("code"), data.get("args", []), data.get("detail", "")
    if not isinstance(code, str) or not isinstance(args, list) or not isinstance(detail, str):
        return None
    try:
        known = FailureCode(code)
    except ValueError:
        return None
    values = tuple(args)
    return Failure(known, values, detail) if fits(known, values) else None


_CHECK_BASE_URL = (
    "Check that the base URL points to an OpenAI-compatible API (it usually ends in /v1)."
)
_BIGGER_CONTEXT = "(llama.cpp: -c 8192; llama-cpp-python: --n_ctx 8192)"
_SOURCE_WORDS = {
    "server": "as the server reports it",
    "settings": "as set in Settings",
    "default": "assumed: the server does not report it",
}


def english(failure: Failure) -> str:
    """The failure's sentence in English, the server's text quoted after it."""
    sentence = _english_sentence(failure.code, failure.args)
    if failure.detail:
        return f"{sentence} The server said: {json.dumps(failure.detail, ensure_ascii=False)}"
    return sentence


def _after(retries: object) -> str:
    return f" after {retries} retries" if retries else ""


def _english_sentence(code: FailureCode, a: tuple[Value, ...]) -> str:  # noqa: C901 -- one case per code, read as a table
    match code:
        case FailureCode.TIMED_OUT | FailureCode.STOPPED_SENDING:
            where = (
                "did not answer" if code is FailureCode.TIMED_OUT else "stopped sending the answer"
            )
            return (
                f"The model endpoint at {a[0]} {where} for {a[1]:g} seconds. Check that the "
                "server is running and not overloaded, then retry."
            )
        case FailureCode.UNREACHABLE:
            return (
                f"Could not connect to the model endpoint at {a[0]}. Check that the server is "
                "running and that the base URL in Settings is right."
            )
        case FailureCode.BAD_URL:
            return (
                f"The base URL {a[0]!r} is not a web address this app can use. Enter one that "
                "starts with http:// or https:// in Settings, for example http://localhost:11434/v1."
            )
        case FailureCode.CUT_OFF:
            return (
                "The connection to the model endpoint broke before the answer was complete. "
                "Retry; if it keeps happening, check the server."
            )
        case FailureCode.ENDED_EARLY:
            return (
                "The model endpoint closed the stream before the answer was complete. Retry; if "
                "it keeps happening, check the server."
            )
        case FailureCode.NO_ANSWER:
            source = _SOURCE_WORDS.get(str(a[2]), str(a[2]))
            return (
                "The model endpoint accepted the request but sent no answer. Most often the "
                "conversation is longer than the model's context (the request is about "
                f"{a[0]:,} tokens; the context is {a[1]:,} tokens, {source}). Start a new "
                f"session, or give the server a bigger context {_BIGGER_CONTEXT} and enter it "
                "in Settings. If that is not it, the server's log says what went wrong."
            )
        case FailureCode.CRASHED:
            return (
                f"The model endpoint at {a[0]} accepted the request, then stopped answering: the "
                "server seems to have stopped or crashed. Restart it, then retry; its log says why."
            )
        case (
            FailureCode.MALFORMED
            | FailureCode.NOT_AN_API
            | FailureCode.NO_CHOICES
            | FailureCode.EVENT_TOO_DEEP
            | FailureCode.EVENT_NOT_JSON
            | FailureCode.EVENT_NUMBER
        ):
            return (
                f"The model endpoint sent a stream this app cannot read ({_unreadable(code, a)}). "
                + _CHECK_BASE_URL
            )
        case FailureCode.OVERSIZED:
            return (
                f"The model endpoint sent more than {a[0]:,} bytes without finishing one piece of "
                "the answer. " + _CHECK_BASE_URL
            )
        case FailureCode.MODELS_MALFORMED:
            return "The model endpoint's model list is not in the OpenAI format. " + _CHECK_BASE_URL
        case FailureCode.FAILED_MIDWAY:
            return "The model endpoint reported an error while answering."
        case FailureCode.KEY_NEEDED:
            return "The endpoint requires an API key (401). Add the key in Settings."
        case FailureCode.KEY_REJECTED:
            return "The endpoint rejected the API key (401). Check the key in Settings."
        case FailureCode.FORBIDDEN:
            return (
                "The endpoint refused access with this API key (403). Check the key's "
                "permissions and the model in Settings."
            )
        case FailureCode.NO_SUCH_MODEL:
            return (
                f"The endpoint has no model named {a[0]!r}, or no chat API at this base URL "
                "(404). Check the model name and base URL in Settings."
            )
        case FailureCode.NO_MODEL_LIST:
            return (
                "The endpoint has no model list at this base URL (404). Check the base URL in "
                "Settings (it usually ends in /v1)."
            )
        case FailureCode.RATE_LIMITED:
            return (
                f"The endpoint is rate-limiting requests (429) and still refused{_after(a[0])}. "
                "Wait a moment, then retry."
            )
        case FailureCode.NO_QUOTA:
            return (
                "The account behind this API key has no quota left (429). Check your plan or "
                "billing with the provider."
            )
        case FailureCode.SERVER_FAILED:
            return (
                f"The model endpoint failed with a server error ({a[0]}){_after(a[1])}. Try "
                "again later, or check the server's logs."
            )
        case FailureCode.TOO_LONG:
            return (
                f"The conversation is too long for this model's context ({a[0]}). Hide or edit "
                "earlier messages, start a new session, or choose a model with a bigger context; "
                f"a local server can be given a bigger one {_BIGGER_CONTEXT}, then enter it in "
                "Settings."
            )
        case FailureCode.NO_IMAGES:
            return (
                f"This model does not accept images ({a[0]}). Edit the message to remove the "
                "image, or choose a model that reads images."
            )
        case FailureCode.REFUSED:
            return (
                f"The endpoint refused the request ({a[0]}). Check that the model supports tool "
                "calls and that the settings are right."
            )
        case FailureCode.CLOSED:
            return (
                "The request was cancelled because the model connection was closed (the "
                "settings changed)."
            )
        case FailureCode.UNFINISHED:
            return "The model's answer ended without finishing."
        case FailureCode.CLOCK_FAILED:
            return "The offline assistant couldn't read the clock."
        case FailureCode.INTERNAL:
            return f"Internal error: {a[0]}"
        case unexpected:
            assert_never(unexpected)


def _unreadable(code: FailureCode, a: tuple[Value, ...]) -> str:
    """What an unreadable stream held, in the words of ``core.jsonread``'s refusals."""
    if code is FailureCode.NOT_AN_API:
        return "no answer in it"
    if code is FailureCode.NO_CHOICES:
        return "no choices"
    if code is FailureCode.EVENT_TOO_DEEP:
        return "an event nested too deeply"
    if code is FailureCode.EVENT_NOT_JSON:
        return f"an event that is not JSON: {a[0]} at column {a[1]}"
    if code is FailureCode.EVENT_NUMBER:
        return "an event with a number out of range"
    return str(a[0])
