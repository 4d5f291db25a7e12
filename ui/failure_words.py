"""A failed turn's reason in the window's language: each ``core.failures.FailureCode`` as a
translated sentence (context ``Failures``). No I/O.

The values a sentence names (URLs, model names, the server's own text, an exception's text) are
put in as they are; quantities (tokens, bytes) are grouped the window's way (``4.096`` in German),
and a fraction of seconds takes its decimal sign (``2,5``). Untranslated, each
sentence is ``core.failures.english``'s, word for word (a test holds the two equal).
"""

from __future__ import annotations

import json
from typing import assert_never

from PySide6.QtCore import QCoreApplication, QLocale

from core.failures import Failure, FailureCode, Value
from ui.i18n import fill

translate = QCoreApplication.translate  # pyside6-lupdate reads translate("Failures", …)


def number(value: int) -> str:
    """``4,096`` (``4.096`` in German): a quantity grouped the window's way."""
    locale = QLocale()
    return f"{value:,}" if locale.language() == QLocale.Language.C else locale.toString(value)


def _plain(value: Value) -> str:
    """A value as it is: text, a whole number ungrouped (a status, a column), a fraction with
    the window's decimal sign (``2,5`` in German)."""
    if isinstance(value, str | int) or value.is_integer():
        return str(value if not isinstance(value, float) else int(value))
    locale = QLocale()
    return (
        f"{value:g}" if locale.language() == QLocale.Language.C else locale.toString(value, "g", 6)
    )


def failure_text(failure: Failure) -> str:
    """The failure's sentence, the server's own text quoted after it."""
    sentence = _sentence(failure.code, failure.args)
    if not failure.detail:
        return sentence
    said = translate("Failures", "The server said: %1")
    return f"{sentence} {fill(said, (json.dumps(failure.detail, ensure_ascii=False),))}"


def _check_url() -> str:
    return translate(
        "Failures",
        "Check that the base URL points to an OpenAI-compatible API (it usually ends in /v1).",
    )


def _sentence(code: FailureCode, a: tuple[Value, ...]) -> str:  # noqa: C901 -- one case per code, read as a table
    shown = tuple(_plain(v) for v in a)
    match code:
        case FailureCode.TIMED_OUT:
            text = translate(
                "Failures",
                "The model endpoint at %1 did not answer for %2 seconds. Check that the server is running and not overloaded, then retry.",
            )
        case FailureCode.STOPPED_SENDING:
            text = translate(
                "Failures",
                "The model endpoint at %1 stopped sending the answer for %2 seconds. Check that the server is running and not overloaded, then retry.",
            )
        case FailureCode.UNREACHABLE:
            text = translate(
                "Failures",
                "Could not connect to the model endpoint at %1. Check that the server is running and that the base URL in Settings is right.",
            )
        case FailureCode.BAD_URL:
            text = translate(
                "Failures",
                "The base URL '%1' is not a web address this app can use. Enter one that starts with http:// or https:// in Settings, for example http://localhost:11434/v1.",
            )
        case FailureCode.CUT_OFF:
            text = translate(
                "Failures",
                "The connection to the model endpoint broke before the answer was complete. Retry; if it keeps happening, check the server.",
            )
        case FailureCode.ENDED_EARLY:
            text = translate(
                "Failures",
                "The model endpoint closed the stream before the answer was complete. Retry; if it keeps happening, check the server.",
            )
        case FailureCode.NO_ANSWER:
            return _no_answer(number(int(a[0])), number(int(a[1])), shown[2])
        case FailureCode.CRASHED:
            text = translate(
                "Failures",
                "The model endpoint at %1 accepted the request, then stopped answering: the server seems to have stopped or crashed. Restart it, then retry; its log says why.",
            )
        case (
            FailureCode.MALFORMED
            | FailureCode.NOT_AN_API
            | FailureCode.NO_CHOICES
            | FailureCode.EVENT_TOO_DEEP
            | FailureCode.EVENT_NOT_JSON
            | FailureCode.EVENT_NUMBER
        ):
            what = _unreadable(code, shown)
            cannot = translate(
                "Failures", "The model endpoint sent a stream this app cannot read (%1)."
            )
            return f"{fill(cannot, (what,))} {_check_url()}"
        case FailureCode.OVERSIZED:
            text = translate(
                "Failures",
                "The model endpoint sent more than %1 bytes without finishing one piece of the answer.",
            )
            return f"{fill(text, (number(int(a[0])),))} {_check_url()}"
        case FailureCode.MODELS_MALFORMED:
            text = translate(
                "Failures", "The model endpoint's model list is not in the OpenAI format."
            )
            return f"{text} {_check_url()}"
        case FailureCode.FAILED_MIDWAY:
            text = translate("Failures", "The model endpoint reported an error while answering.")
        case FailureCode.KEY_NEEDED:
            text = translate(
                "Failures", "The endpoint requires an API key (401). Add the key in Settings."
            )
        case FailureCode.KEY_REJECTED:
            text = translate(
                "Failures", "The endpoint rejected the API key (401). Check the key in Settings."
            )
        case FailureCode.FORBIDDEN:
            text = translate(
                "Failures",
                "The endpoint refused access with this API key (403). Check the key's permissions and the model in Settings.",
            )
        case FailureCode.NO_SUCH_MODEL:
            text = translate(
                "Failures",
                "The endpoint has no model named '%1', or no chat API at this base URL (404). Check the model name and base URL in Settings.",
            )
        case FailureCode.NO_MODEL_LIST:
            text = translate(
                "Failures",
                "The endpoint has no model list at this base URL (404). Check the base URL in Settings (it usually ends in /v1).",
            )
        case FailureCode.RATE_LIMITED:
            text = (
                translate(
                    "Failures",
                    "The endpoint is rate-limiting requests (429) and still refused after %1 retries. Wait a moment, then retry.",
                )
                if a[0]
                else translate(
                    "Failures",
                    "The endpoint is rate-limiting requests (429) and still refused. Wait a moment, then retry.",
                )
            )
        case FailureCode.NO_QUOTA:
            text = translate(
                "Failures",
                "The account behind this API key has no quota left (429). Check your plan or billing with the provider.",
            )
        case FailureCode.SERVER_FAILED:
            text = (
                translate(
                    "Failures",
                    "The model endpoint failed with a server error (%1) after %2 retries. Try again later, or check the server's logs.",
                )
                if a[1]
                else translate(
                    "Failures",
                    "The model endpoint failed with a server error (%1). Try again later, or check the server's logs.",
                )
            )
        case FailureCode.TOO_LONG:
            text = translate(
                "Failures",
                "The conversation is too long for this model's context (%1). Hide or edit earlier messages, start a new session, or choose a model with a bigger context; a local server can be given a bigger one (llama.cpp: -c 8192; llama-cpp-python: --n_ctx 8192), then enter it in Settings.",
            )
        case FailureCode.NO_IMAGES:
            text = translate(
                "Failures",
                "This model does not accept images (%1). Edit the message to remove the image, or choose a model that reads images.",
            )
        case FailureCode.REFUSED:
            text = translate(
                "Failures",
                "The endpoint refused the request (%1). Check that the model supports tool calls and that the settings are right.",
            )
        case FailureCode.CLOSED:
            text = translate(
                "Failures",
                "The request was cancelled because the model connection was closed (the settings changed).",
            )
        case FailureCode.UNFINISHED:
            text = translate("Failures", "The model's answer ended without finishing.")
        case FailureCode.CLOCK_FAILED:
            text = translate("Failures", "The offline assistant couldn't read the clock.")
        case FailureCode.INTERNAL:
            text = translate("Failures", "Internal error: %1")
        case unexpected:
            assert_never(unexpected)
    return fill(text, shown)


def _no_answer(prompt: str, context: str, source_name: str) -> str:
    sources = {
        "server": translate("Failures", "as the server reports it"),
        "settings": translate("Failures", "as set in Settings"),
        "default": translate("Failures", "assumed: the server does not report it"),
    }
    source = sources.get(source_name, source_name)
    text = translate(
        "Failures",
        "The model endpoint accepted the request but sent no answer. Most often the conversation is longer than the model's context (the request is about %1 tokens; the context is %2 tokens, %3). Start a new session, or give the server a bigger context (llama.cpp: -c 8192; llama-cpp-python: --n_ctx 8192) and enter it in Settings. If that is not it, the server's log says what went wrong.",
    )
    return fill(text, (prompt, context, source))


def _unreadable(code: FailureCode, shown: tuple[str, ...]) -> str:
    """What an unreadable stream held (``MALFORMED``: a technical name, as it is)."""
    if code is FailureCode.NOT_AN_API:
        return translate("Failures", "no answer in it")
    if code is FailureCode.NO_CHOICES:
        return translate("Failures", "no choices")
    if code is FailureCode.EVENT_TOO_DEEP:
        return translate("Failures", "an event nested too deeply")
    if code is FailureCode.EVENT_NOT_JSON:
        return fill(translate("Failures", "an event that is not JSON: %1 at column %2"), shown)
    if code is FailureCode.EVENT_NUMBER:
        return translate("Failures", "an event with a number out of range")
    return shown[0]
