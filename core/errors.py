"""The engine's exception tree. Pure: no I/O.

ChimeError                      base of everything the engine raises on purpose
├── ScheduleLogError            stored schedule data is corrupt (code "corrupt_schedule_log")
├── ToolArgumentError           model input failed the generic argument layer (schedule.md §4.1)
├── SessionError                a session cannot be used as asked
│   ├── SessionFormatError      header invalid or of an unknown version; the file is untouched
│   ├── SessionLockedError      another process owns the session live (open it read-only)
│   ├── SessionReadOnlyError    an append to a read-only (locked elsewhere or corrupt) session
│   └── SessionNotFoundError    no such session in the data directory
└── ProviderError               a model endpoint failed; ``kind`` says how, ``failure`` why
"""

from __future__ import annotations

from enum import StrEnum

from core.failures import Failure, english


class ErrorKind(StrEnum):
    """How a model request failed (``ProviderError.kind``; a failed turn's ``TurnError.kind``).

    ``core.llm.openai_compat`` says when each provider kind is used. ``internal`` is a turn's own
    failure (a bug ended it), never a provider's; ``other`` is a kind read from a log that this
    version does not know (its stored message is still shown)."""

    AUTH = "auth"
    RATE_LIMIT = "rate_limit"
    SERVER = "server"
    CONNECTION = "connection"
    TIMEOUT = "timeout"
    BAD_RESPONSE = "bad_response"
    NOT_FOUND = "not_found"
    TOO_LONG = "too_long"
    CANCELLED = "cancelled"
    INTERNAL = "internal"
    OTHER = "other"


class ChimeError(Exception):
    """Base class of every deliberate engine error."""


class ScheduleLogError(ChimeError):
    """The schedule changes in scope cannot be folded (schedule.md §8). Blame: stored data."""

    code = "corrupt_schedule_log"


class ToolArgumentError(ChimeError):
    """Tool arguments fail the generic argument layer (schedule.md §4.1). Blame: model input."""


class SessionError(ChimeError):
    """A session cannot be opened, written or found as asked."""


class SessionFormatError(SessionError):
    """The header is invalid or its version unknown. The file was left untouched."""


class SessionLockedError(SessionError):
    """Another process holds the session's live lock."""


class SessionReadOnlyError(SessionError):
    """The session is open read-only (locked elsewhere, or its log is corrupt); nothing is appended."""


class SessionNotFoundError(SessionError):
    """No session with that id exists in the data directory."""


class ProviderError(ChimeError):
    """A model request failed: ``kind`` says how, ``failure`` why (its code and values, which
    the window says in its language), ``message`` the same in English (logs, the terminal).

    A message without a failure (a test's scripted error) is shown as it is.
    """

    def __init__(
        self,
        kind: ErrorKind,
        message: str,
        *,
        retryable: bool = False,
        failure: Failure | None = None,
    ) -> None:
        super().__init__(message)
        self.kind = kind
        self.message = message
        self.retryable = retryable
        self.failure = failure

    @classmethod
    def because(
        cls, kind: ErrorKind, failure: Failure, *, retryable: bool = False
    ) -> ProviderError:
        """The error for ``failure``, its English sentence as the message."""
        return cls(kind, english(failure), retryable=retryable, failure=failure)
