"""The sentences a user reads when an OpenAI-compatible endpoint fails (agent.md §5.2).

Pure: maps SDK and transport exceptions to ``ProviderError`` kinds and one readable sentence that
names the fix (Settings, Retry, the server); no I/O. The server's own text is quoted on one line,
shortened, with the API key removed *before* shortening (a cut inside the key must not leave part
of it). ``core.llm.openai_compat`` (the network door) documents the kinds.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

import openai

from core.llm.budget import TokenBudget

_CONTEXT_SOURCES = {
    "server": "as the server reports it",
    "settings": "as set in Settings",
    "default": "assumed: the server does not report it",
}


@dataclass(frozen=True, slots=True)
class _Described:
    kind: str
    message: str
    retryable: bool = False


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
) -> _Described:
    """Kind and user-facing sentence for an SDK failure. ``secret`` (the key) is scrubbed from the
    server's text before that is shortened: a key cut in two by the shortening would slip past
    the caller's redaction of the whole message, which it still does."""
    if isinstance(exc, openai.APITimeoutError):
        return _Described("timeout", _timed_out(base_url, timeout, started), retryable=True)
    if isinstance(exc, openai.APIConnectionError):
        text = cut_off_sentence() if started else unreachable_sentence(base_url)
        return _Described("connection", text, retryable=True)
    if isinstance(exc, openai.APIStatusError):
        return _status(
            exc, model=model, has_key=has_key, listing=listing, retries=retries, secret=secret
        )
    if isinstance(exc, openai.APIResponseValidationError):
        return _Described(
            "bad_response", models_malformed_sentence() if listing else malformed_sentence("schema")
        )
    if isinstance(exc, openai.APIError):
        return _Described("server", _failed_midway(server_text(exc, secret)), retryable=True)
    return _Described("bad_response", malformed_sentence(type(exc).__name__))


def _status(
    exc: openai.APIStatusError,
    *,
    model: str,
    has_key: bool,
    listing: bool,
    retries: int,
    secret: str,
) -> _Described:
    code = exc.status_code
    detail = server_text(exc, secret)
    if code == 401:
        return _Described("auth", _rejected_key() if has_key else _key_needed())
    if code == 403:
        return _Described("auth", _forbidden(detail))
    if code == 404:
        return _Described("not_found", _models_missing() if listing else _not_found(model, detail))
    if code == 429:
        if exc.code == "insufficient_quota" or "quota" in detail.lower():
            return _Described("rate_limit", _no_quota(detail))
        return _Described("rate_limit", _rate_limited(retries), retryable=True)
    if code >= 500:
        return _Described("server", _server_failed(code, retries, detail), retryable=True)
    if code in (400, 413) and (exc.code == "context_length_exceeded" or _says_too_long(detail)):
        return _Described("too_long", _too_long(code, detail))
    if code in (400, 415, 422) and _says_no_images(detail):
        return _Described("bad_response", _no_images(code, detail))
    return _Described("bad_response", _refused(code, detail))


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


def closed_sentence() -> str:
    return (
        "The request was cancelled because the model connection was closed (the settings changed)."
    )


def _with_detail(sentence: str, detail: str) -> str:
    return (
        f"{sentence} The server said: {json.dumps(detail, ensure_ascii=False)}"
        if detail
        else sentence
    )


def _timed_out(base_url: str, timeout: float, started: bool) -> str:
    where = "stopped sending the answer" if started else "did not answer"
    return (
        f"The model endpoint at {base_url} {where} for {timeout:g} seconds. Check that the server "
        "is running and not overloaded, then retry."
    )


def unreachable_sentence(base_url: str) -> str:
    return (
        f"Could not connect to the model endpoint at {base_url}. Check that the server is running "
        "and that the base URL in Settings is right."
    )


def cut_off_sentence() -> str:
    return (
        "The connection to the model endpoint broke before the answer was complete. Retry; if it "
        "keeps happening, check the server."
    )


def ended_early_sentence() -> str:
    return (
        "The model endpoint closed the stream before the answer was complete. Retry; if it keeps "
        "happening, check the server."
    )


def no_answer_sentence(prompt_tokens: int, budget: TokenBudget) -> str:
    """A server that is up accepted the request and sent no answer at all."""
    source = _CONTEXT_SOURCES.get(budget.source, budget.source)
    return (
        "The model endpoint accepted the request but sent no answer. Most often the conversation "
        f"is longer than the model's context (the request is about {prompt_tokens:,} tokens; "
        f"the context is {budget.context_tokens:,} tokens, {source}). Start a new session, or "
        "give the server a bigger context (llama.cpp: -c 8192; llama-cpp-python: --n_ctx 8192) "
        "and enter it in Settings. If that is not it, the server's log says what went wrong."
    )


def crashed_sentence(base_url: str) -> str:
    """A server that accepted the request, sent nothing, and no longer answers at all."""
    return (
        f"The model endpoint at {base_url} accepted the request, then stopped answering: the "
        "server seems to have stopped or crashed. Restart it, then retry; its log says why."
    )


def malformed_sentence(what: str) -> str:
    return (
        f"The model endpoint sent a stream this app cannot read ({what}). Check that the base URL "
        "points to an OpenAI-compatible API (it usually ends in /v1)."
    )


def oversized_sentence(limit: int) -> str:
    return (
        f"The model endpoint sent more than {limit:,} bytes without finishing one piece of the "
        "answer. Check that the base URL points to an OpenAI-compatible API (it usually ends in /v1)."
    )


def models_malformed_sentence() -> str:
    return (
        "The model endpoint's model list is not in the OpenAI format. Check that the base URL "
        "points to an OpenAI-compatible API (it usually ends in /v1)."
    )


def _failed_midway(detail: str) -> str:
    return _with_detail("The model endpoint reported an error while answering.", detail)


def _key_needed() -> str:
    return "The endpoint requires an API key (401). Add the key in Settings."


def _rejected_key() -> str:
    return "The endpoint rejected the API key (401). Check the key in Settings."


def _forbidden(detail: str) -> str:
    return _with_detail(
        "The endpoint refused access with this API key (403). Check the key's permissions and the model in Settings.",
        detail,
    )


def _not_found(model: str, detail: str) -> str:
    return _with_detail(
        f"The endpoint has no model named {model!r}, or no chat API at this base URL (404). Check "
        "the model name and base URL in Settings.",
        detail,
    )


def _models_missing() -> str:
    return (
        "The endpoint has no model list at this base URL (404). Check the base URL in Settings "
        "(it usually ends in /v1)."
    )


def _rate_limited(retries: int) -> str:
    tries = f" after {retries} retries" if retries else ""
    return f"The endpoint is rate-limiting requests (429) and still refused{tries}. Wait a moment, then retry."


def _no_quota(detail: str) -> str:
    return _with_detail(
        "The account behind this API key has no quota left (429). Check your plan or billing with the provider.",
        detail,
    )


def _server_failed(code: int, retries: int, detail: str) -> str:
    tries = f" after {retries} retries" if retries else ""
    return _with_detail(
        f"The model endpoint failed with a server error ({code}){tries}. Try again later, or check the server's logs.",
        detail,
    )


def _too_long(code: int, detail: str) -> str:
    return _with_detail(
        f"The conversation is too long for this model's context ({code}). Hide or edit earlier "
        "messages, start a new session, or choose a model with a bigger context; a local server "
        "can be given a bigger one (llama.cpp: -c 8192; llama-cpp-python: --n_ctx 8192), then "
        "enter it in Settings.",
        detail,
    )


def _no_images(code: int, detail: str) -> str:
    return _with_detail(
        f"This model does not accept images ({code}). Edit the message to remove the image, or "
        "choose a model that reads images.",
        detail,
    )


def _refused(code: int, detail: str) -> str:
    return _with_detail(
        f"The endpoint refused the request ({code}). Check that the model supports tool calls and "
        "that the settings are right.",
        detail,
    )
