"""Core's values in the window's words: a tool card's title (``core.readable.ToolOutcome``) and a
failed turn's or endpoint's reason (``core.failures.Failure``), translated with ``tr()``. No I/O.

Core names what happened; this module (and ``ui.failure_words`` for the failures) says it. A
failure without a code, or with one this version does not know (a log written before codes were
stored), is said by the English ``message`` stored with it. Untranslated, every sentence here is
the English core writes into logs and the Markdown export, word for word (a test holds them equal).
"""

from __future__ import annotations

from typing import assert_never

from PySide6.QtCore import QCoreApplication

from core.errors import ProviderError
from core.events import TurnError
from core.readable import ToolKind, ToolOutcome, ToolRefusal
from core.transcript.mcp import CallState, McpCall
from ui.failure_words import failure_text, number
from ui.i18n import fill

translate = QCoreApplication.translate  # pyside6-lupdate reads translate("Wording", …)


def turn_error_text(error: TurnError | None) -> str:
    """What a failed turn's error row says: its reason in the window's language, else the
    stored English message, else that the turn failed."""
    if error is not None and error.reason is not None:
        return failure_text(error.reason)
    if error is not None and error.message:
        return error.message
    return translate("Wording", "The turn failed.")


def provider_error_text(error: ProviderError) -> str:
    """An endpoint's failure (Test connection, the model list) in the window's language."""
    return failure_text(error.failure) if error.failure is not None else error.message


def tool_title(outcome: ToolOutcome) -> str:
    """A tool card's title: ``Create reminder — stretch, 10:45 · schedule-3``."""
    title = _tool_name(outcome)
    if outcome.refusal is not None:
        return fill(
            translate("Wording", "%1 — not done: %2"), (title, refusal_text(outcome.refusal))
        )
    match outcome.tool:
        case ToolKind.CREATE:
            text = (
                fill(translate("Wording", "%1 — %2"), (title, outcome.prompt))
                if outcome.prompt
                else title
            )
            if outcome.clock is None:
                return text
            return fill(
                translate("Wording", "%1, %2 · %3"), (text, outcome.clock, outcome.schedule_id)
            )
        case ToolKind.LIST:
            if outcome.count is None:
                return title
            return fill(translate("Wording", "%1 — %2 active"), (title, number(outcome.count)))
        case ToolKind.DELETE:
            return _deleted(title, outcome)
        case ToolKind.OTHER:
            return title
        case unexpected:
            assert_never(unexpected)


def _deleted(title: str, outcome: ToolOutcome) -> str:
    if not outcome.schedule_id:
        return title
    text = fill(translate("Wording", "%1 — %2"), (title, outcome.schedule_id))
    if outcome.deleted is None:
        return text
    if outcome.deleted:
        return fill(translate("Wording", "%1 · deleted"), (text,))
    return fill(translate("Wording", "%1 · not found"), (text,))


def _tool_name(outcome: ToolOutcome) -> str:
    match outcome.tool:
        case ToolKind.CREATE:
            return translate("Wording", "Create reminder")
        case ToolKind.LIST:
            return translate("Wording", "List reminders")
        case ToolKind.DELETE:
            return translate("Wording", "Delete reminder")
        case ToolKind.OTHER:
            return outcome.name or translate("Wording", "Tool")
        case unexpected:
            assert_never(unexpected)


def refusal_text(refusal: ToolRefusal) -> str:  # noqa: C901 -- one case per code, read as a table
    """Why a tool call was not done (schedule.md §5's codes), as the tool card says it."""
    match refusal:
        case ToolRefusal.INVALID_SELECTOR:
            return translate("Wording", "the request was malformed")
        case ToolRefusal.INVALID_PROMPT:
            return translate("Wording", "the reminder needs some text")
        case ToolRefusal.INVALID_RULE:
            return translate("Wording", "that time or delay isn't valid")
        case ToolRefusal.FREQUENCY_TOO_HIGH:
            return translate("Wording", "it can repeat at most every 5 minutes")
        case ToolRefusal.INVALID_TIME_ZONE:
            return translate("Wording", "that time zone isn't known")
        case ToolRefusal.NOT_FUTURE:
            return translate("Wording", "that time has already passed")
        case ToolRefusal.TIME_OUT_OF_RANGE:
            return translate("Wording", "that is past the year 9999")
        case ToolRefusal.CORRUPT_SCHEDULE_LOG:
            return translate("Wording", "this conversation's reminder log is damaged")
        case ToolRefusal.PERSISTENCE_UNCERTAIN:
            return translate("Wording", "saving could not be confirmed")
        case ToolRefusal.INTERNAL_ERROR:
            return translate("Wording", "something went wrong inside the reminder system")
        case ToolRefusal.SCHEDULE_NOT_FOUND:
            return translate("Wording", "no such active reminder")
        case ToolRefusal.FAILED:
            return translate("Wording", "it failed")
        case ToolRefusal.REFUSED:
            return translate("Wording", "it was refused")
        case unexpected:
            assert_never(unexpected)


def call_state_text(state: CallState) -> str:
    """Where an MCP call stands, as its row says it."""
    match state:
        case CallState.WAITING:
            return translate("Wording", "waiting for your answer")
        case CallState.RUNNING:
            return translate("Wording", "running…")
        case CallState.DONE:
            return translate("Wording", "done")
        case CallState.FAILED:
            return translate("Wording", "failed")
        case CallState.DENIED:
            return translate("Wording", "denied: it did not run")
        case CallState.CANCELLED:
            return translate("Wording", "stopped")
        case CallState.UNFINISHED:
            return translate("Wording", "not finished: Chime stopped during the call")
        case CallState.TIMEOUT:
            return translate("Wording", "timed out")
        case unexpected:
            assert_never(unexpected)


def call_title(call: McpCall) -> str:
    """An MCP row's title: ``time · get_current_time — done``."""
    name = (
        fill(translate("Wording", "%1 · %2"), (call.server, call.tool))
        if call.server
        else call.tool
    )
    return fill(translate("Wording", "%1 — %2"), (name, call_state_text(call.state)))
