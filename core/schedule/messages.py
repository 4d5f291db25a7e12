"""Error conditions E1–E18 of schedule.md §5: their codes and one constant sentence each. Pure.

A sentence never carries ids, echoed input or exception text; distinct conditions have distinct
sentences. ``InputError`` is how the pure parsers report a model-input condition (E1–E15).
"""

from __future__ import annotations

from enum import Enum
from typing import Any


class Rule(Enum):
    """One §5 condition: ``value`` is the spec's number, ``code`` and ``message`` what the model sees."""

    E1 = (
        "E1",
        "invalid_selector",
        "Give exactly one of after_seconds, at or every_seconds; no keys other than prompt and that one selector are allowed.",
    )
    E2 = ("E2", "invalid_prompt", "The prompt must be non-empty after trimming whitespace.")
    E3 = ("E3", "invalid_rule", "after_seconds must be a positive whole number of seconds.")
    E4 = ("E4", "invalid_rule", "every_seconds must be a whole number of seconds.")
    E5 = ("E5", "frequency_too_high", "The minimum interval for every_seconds is 300 seconds.")
    E6 = (
        "E6",
        "invalid_rule",
        "at must be YYYY-MM-DDTHH:mm:ss with an optional 1-3 digit fraction, then Z or ±HH:MM, or an object with date, time and time_zone.",
    )
    E7 = ("E7", "invalid_rule", "The value is not a real calendar date and time.")
    E8 = (
        "E8",
        "invalid_rule",
        "The numeric offset is invalid: use ±HH:MM with hour at most 23 and minute at most 59; -00:00 is not allowed.",
    )
    E9 = (
        "E9",
        "invalid_rule",
        "The local form needs date as YYYY-MM-DD and time as HH:mm:ss with an optional 1-3 digit fraction.",
    )
    E10 = ("E10", "invalid_rule", "The local date or time has an out-of-range field.")
    E11 = (
        "E11",
        "invalid_rule",
        "That local time does not exist in the time zone because a clock change skips it; choose another time.",
    )
    E12 = (
        "E12",
        "invalid_time_zone",
        "time_zone must be UTC or an IANA Area/Location name such as Europe/Berlin.",
    )
    E13 = ("E13", "not_future", "The time must be strictly in the future.")
    E14 = (
        "E14",
        "time_out_of_range",
        "The time must lie between 0001-01-01T00:00:00.000Z and 9999-12-31T23:59:59.999Z.",
    )
    E15 = ("E15", "invalid_rule", "The id must be non-empty with no surrounding whitespace.")
    E16 = (
        "E16",
        "corrupt_schedule_log",
        "This session's reminder log is corrupt, so its reminders cannot be read or changed.",
    )
    E17 = (
        "E17",
        "persistence_uncertain",
        "Saving could not be confirmed; check with schedule_list before relying on this result.",
    )
    E18 = ("E18", "internal_error", "The reminder operation failed.")

    def __init__(self, number: str, code: str, message: str) -> None:
        self.number = number
        self.code = code
        self.message = message

    def value_json(self) -> dict[str, Any]:
        """The §2.6 basic error value ``{"code", "message"}``."""
        return {"code": self.code, "message": self.message}


class InputError(ValueError):
    """A model-input condition (E1–E15) found by a pure parser."""

    def __init__(self, rule: Rule) -> None:
        super().__init__(rule.message)
        self.rule = rule
