"""Why an OpenAI-compatible endpoint failed, as a kind and a failure code (agent.md §5.2).

Pure: maps SDK and transport exceptions to ``ProviderError`` kinds and a ``core.failures.Failure``
whose sentence names the fix (Settings, Retry, the server); no I/O. The server's own text is kept
on one line, shortened, with the API key removed *before* shortening (a cut inside the key must not
leave part of it). ``core.llm.openai_compat`` (the network door) documents the kinds.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

import openai

from core.errors import ErrorKind
from core.failures import Failure, FailureCode, english

Code = FailureCode
Kind = ErrorKind


@dataclass(frozen=True, slots=True)
class Described:
    """An SDK failure as the kind, the failure and whether Retry is worth it at once."""

    kind: ErrorKind
    failure: Failure
    retryable: bool = False

    @property
    def message(self) -> str:
        return english(self.failure)


def describe_error(
    exc: openai.OpenAIError,
    *,
    base_url: str,
    model: str,
    has_key: bool,
    started: bool,
    listing: bool,
    timeout: float,
    retries: int,
    secret: str = "",
) -> Described:
    """Kind and failure of an SDK error. ``secret`` (the key) is scrubbed from the server's text
    before that is shortened: a key cut in two by the shortening would slip past the caller's
    redaction of the whole failure, which it still does."""
    if isinstance(exc, openai.APITimeoutError):
        waited = Code.STOPPED_SENDING if started else Code.TIMED_OUT
        return Described(Kind.TIMEOUT, Failure(waited, (base_url, timeout)), retryable=True)
    if isinstance(exc, openai.APIConnectionError):
        return Described(Kind.CONNECTION, broken(base_url, started=started), retryable=True)
    if isinstance(exc, openai.APIStatusError):
        return _status(
            exc, model=model, has_key=has_key, listing=listing, retries=retries, secret=secret
        )
    if isinstance(exc, openai.APIResponseValidationError):
        return Described(Kind.BAD_RESPONSE, unreadable("schema", listing=listing))
    if isinstance(exc, openai.APIError):
        midway = Failure(Code.FAILED_MIDWAY, detail=server_text(exc, secret))
        return Described(Kind.SERVER, midway, retryable=True)
    return Described(Kind.BAD_RESPONSE, unreadable(type(exc).__name__, listing=False))


def broken(base_url: str, *, started: bool) -> Failure:
    """A connection that failed: cut off during the answer, or never made."""
    return Failure(Code.CUT_OFF) if started else Failure(Code.UNREACHABLE, (base_url,))


def unreadable(what: str, *, listing: bool) -> Failure:
    """A stream (or, ``listing``, a model list) this app cannot read; ``what`` names the part."""
    return Failure(Code.MODELS_MALFORMED) if listing else Failure(Code.MALFORMED, (what,))


def foreign(error: BaseException) -> Failure | None:
    """A JSON failure another decoder raised (the openai SDK reads the stream's events with the
    standard library), in ``core.jsonread``'s terms; None when ``error`` is not one."""
    if isinstance(error, RecursionError):
        return Failure(Code.EVENT_TOO_DEEP)
    if isinstance(error, json.JSONDecodeError):
        return Failure(Code.EVENT_NOT_JSON, (error.msg, error.colno))
    if isinstance(error, ValueError) and "integer string conversion" in str(error):
        return Failure(Code.EVENT_NUMBER)
    return None


def _status(
    exc: openai.APIStatusError,
    *,
    model: str,
    has_key: bool,
    listing: bool,
    retries: int,
    secret: str,
) -> Described:
    code = exc.status_code
    detail = server_text(exc, secret)
    if code == 401:
        return Described(Kind.AUTH, Failure(Code.KEY_REJECTED if has_key else Code.KEY_NEEDED))
    if code == 403:
        return Described(Kind.AUTH, Failure(Code.FORBIDDEN, detail=detail))
    if code == 404:
        missing = (
            Failure(Code.NO_MODEL_LIST)
            if listing
            else Failure(Code.NO_SUCH_MODEL, (model,), detail)
        )
        return Described(Kind.NOT_FOUND, missing)
    if code == 429:
        if exc.code == "insufficient_quota" or "quota" in detail.lower():
            return Described(Kind.RATE_LIMIT, Failure(Code.NO_QUOTA, detail=detail))
        return Described(Kind.RATE_LIMIT, Failure(Code.RATE_LIMITED, (retries,)), retryable=True)
    if code >= 500:
        failed = Failure(Code.SERVER_FAILED, (code, retries), detail)
        return Described(Kind.SERVER, failed, retryable=True)
    if code in (400, 413) and (exc.code == "context_length_exceeded" or _says_too_long(detail)):
        return Described(Kind.TOO_LONG, Failure(Code.TOO_LONG, (code,), detail))
    if code in (400, 415, 422) and _says_no_images(detail):
        return Described(Kind.BAD_RESPONSE, Failure(Code.NO_IMAGES, (code,), detail))
    return Described(Kind.BAD_RESPONSE, Failure(Code.REFUSED, (code,), detail))


def _says_no_images(detail: str) -> bool:
    lowered = detail.lower()
    return any(word in lowered for word in ("image", "vision", "multimodal", "multi-modal"))


_TOO_LONG_WORDS = (
    "context length",  # OpenAI, vLLM: "maximum context length"
    "context size",  # llama.cpp: "exceeds the available context size"
    "context window",  # llama-cpp-python
    "maximum context",
    "too many tokens",
    "prompt is too long",
    "n_ctx",
)


def _says_too_long(detail: str) -> bool:
    lowered = detail.lower()
    return any(words in lowered for words in _TOO_LONG_WORDS)


def server_text(exc: openai.OpenAIError, secret: str = "") -> str:
    """The server's own error message, ``secret`` scrubbed, on one line and short; empty when
    it gave none."""
    body = getattr(exc, "body", None)
    message = body.get("message") if isinstance(body, dict) else None
    if not isinstance(message, str):
        message = body if isinstance(body, str) else ""
    if secret:
        message = message.replace(secret, "[redacted]")
    one_line = " ".join(message.split())
    return one_line if len(one_line) <= 200 else one_line[:199] + "…"
