"""Fixed-rate arithmetic for ``every`` records (schedule.md §7). Pure integer ms: no I/O, no clock.

Targets are anchor + k·I for the creation anchor; a dispatch at decision time A selects the latest
occurrence O at or before A and moves the target to the first occurrence strictly after A. Missed
occurrences are never enumerated (latest-only catch-up).
"""

from __future__ import annotations

from core.instant import MAX_MS


def occurrence(target_ms: int, interval_ms: int, accepted_ms: int) -> int:
    """O = T + k·I with k = floor((A − T) / I): the latest aligned occurrence at or before A.

    Requires A ≥ T (the decoder rejects an earlier dispatch) and I > 0.
    """
    return target_ms + (accepted_ms - target_ms) // interval_ms * interval_ms


def next_target(target_ms: int, interval_ms: int, accepted_ms: int) -> int | None:
    """N = O + I, the first occurrence strictly after A; None when N > MAX_MS (the record ends)."""
    following = occurrence(target_ms, interval_ms, accepted_ms) + interval_ms
    return following if following <= MAX_MS else None


def skipped(target_ms: int, interval_ms: int, accepted_ms: int) -> int:
    """k = floor((A − T) / I): how many occurrences before O were never delivered (T, T + I, …,
    O − I: the session was not open, or the agent was busy, when they fell due)."""
    return (accepted_ms - target_ms) // interval_ms
