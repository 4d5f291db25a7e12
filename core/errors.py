"""The engine's exception tree. Pure: no I/O.

ChimeError                      base of everything the engine raises on purpose
├── ScheduleLogError            stored schedule data is corrupt (code "corrupt_schedule_log")
├── ToolArgumentError           model input failed the generic argument layer (schedule.md §4.1)
├── SessionError                a session cannot be used as asked
│   ├── SessionFormatError      header invalid or of an unknown version; the file is untouched
│   ├── SessionLockedError      another process owns the session live (open it read-only)
│   ├── SessionReadOnlyError    an append to a read-only (locked elsewhere or corrupt) session
│   └── SessionNotFoundError    no such session in the data directory
└── ProviderError               a model endpoint failed; ``kind`` says how, ``message`` in words
"""

from __future__ import annotations


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
    """A model request failed.

    ``kind`` is one of ``auth``, ``rate_limit``, ``server``, ``connection``, ``timeout``,
    ``bad_response``, ``not_found``, ``cancelled``; ``message`` is a sentence for the user.
    """

    def __init__(self, kind: str, message: str, *, retryable: bool = False) -> None:
        super().__init__(message)
        self.kind = kind
        self.message = message
        self.retryable = retryable
