"""The whole reminder loop on a real model: plain words set a reminder, it fires as a turn and is
answered, and it is listed and deleted in words. Shared by ``scripts/real_server.py`` and
``tests/real/``.

Owns: one ``core.host.SessionHost`` per conversation over a real store in a given folder, driven
by the real network door against a real server, and reading back from the log what happened.
A reminder counts as set by the model's own call (parsed by the server, or written as text and
recognised by Chime), or, when the model answered in words, by the safety net's offer accepted
as the window's "Set it" does (the arguments recorded in ``reminderNotSet``). Must not: sleep
for the reminder when given a ``ShiftClock`` (the clock is moved instead), or start servers.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Literal

from core.events import AssistantMessage, Entry, UserMessage
from core.host import LoopWaker, SessionHost
from core.instant import ms_to_datetime, parse_instant_ms
from core.llm.openai_compat import OpenAICompatProvider
from core.schedule.fold import ScheduleFold, fold_reader
from core.session.store import SessionStore

OVEN = "remind me in 2 minutes to check the oven"
LIST = "which reminders do I have?"
DELETE = "delete the oven reminder"
ZONE = "Europe/Berlin"
HowSet = Literal["tool call", "tool call written as text", "safety net", "not set"]
_TIMING = re.compile(
    r"prompt eval time =\s*([\d.]+) ms /\s*(\d+) tokens.*?\n.*?eval time =\s*([\d.]+) ms /\s*(\d+)"
)


class ShiftClock:
    """The real UTC clock, moved forward on demand (a test's two minutes pass at once)."""

    def __init__(self) -> None:
        self.shift = timedelta()

    def __call__(self) -> datetime:
        return datetime.now(UTC) + self.shift

    def advance(self, seconds: float) -> None:
        self.shift += timedelta(seconds=seconds)


@dataclass(frozen=True)
class Timing:
    """One request as llama.cpp's server logged it (``print_timing``)."""

    prompt_ms: float
    prompt_tokens: int
    eval_ms: float
    eval_tokens: int

    @property
    def tokens_per_second(self) -> float:
        return self.eval_tokens / self.eval_ms * 1000 if self.eval_ms else 0.0


def timings(log: Path) -> list[Timing]:
    """Every request's timings so far in the server's log."""
    text = log.read_text(encoding="utf-8", errors="replace") if log.exists() else ""
    return [Timing(float(a), int(b), float(c), int(d)) for a, b, c, d in _TIMING.findall(text)]


@dataclass
class Conversation:
    """One live conversation on a real door; ``entries`` is its log so far."""

    host: SessionHost
    clock: ShiftClock
    said: list[str] = field(default_factory=list)

    @property
    def entries(self) -> Sequence[Entry]:
        return self.host.session.entries

    async def say(self, text: str) -> list[AssistantMessage]:
        """Submits ``text`` and waits for the turn; the answers it got."""
        start = len(self.entries)
        self.host.submit(text, ZONE)
        await self.host.when_idle()
        return [e.event for e in self.entries[start:] if isinstance(e.event, AssistantMessage)]

    def schedule(self) -> ScheduleFold:
        return fold_reader(self.host.session)()

    def active(self) -> list[str]:
        """The active reminders' texts (the schedule's fold)."""
        return [r.prompt for r in self.schedule().active]


async def conversation(folder: Path, door: OpenAICompatProvider, clock: ShiftClock) -> Conversation:
    store = SessionStore(folder, clock)
    session = await store.create()
    host = SessionHost(session, door, clock, lambda: ZONE, LoopWaker.factory(clock))
    host.start()
    return Conversation(host, clock)


def how_set(answers: Sequence[AssistantMessage]) -> HowSet:
    """How the turn's answers set the reminder, if at all."""
    for answer in answers:
        if any(c.name == "schedule_create" for c in answer.tool_calls):
            return "tool call written as text" if answer.calls_from_text else "tool call"
    return "safety net" if any(a.reminder_not_set for a in answers) else "not set"


async def set_reminder(chat: Conversation) -> tuple[HowSet, list[AssistantMessage]]:
    """Asks for the oven reminder in words; accepts the safety net's offer when it is made."""
    answers = await chat.say(OVEN)
    how = how_set(answers)
    offer = next((a.reminder_not_set for a in answers if a.reminder_not_set), None)
    if how == "safety net" and offer is not None:
        await chat.host.tools.call("schedule_create", json.loads(offer))
    return how, answers


async def fire(chat: Conversation, *, wait: bool) -> tuple[float, list[AssistantMessage]]:
    """Lets the reminder fall due (by waiting, or by moving the clock) and waits for its turn;
    how late it was admitted (seconds after its time) and the turn's answers."""
    due = _due(chat)
    start = len(chat.entries)
    arrived: asyncio.Future[Entry] = asyncio.get_running_loop().create_future()

    def heard(entry: Entry) -> None:
        if _is_reminder(entry) and not arrived.done():
            arrived.set_result(entry)

    unsubscribe = chat.host.session.subscribe(heard)
    try:
        if not wait:
            chat.clock.advance((due - chat.clock()).total_seconds())
            chat.host.request_drive()
        turn = await arrived
    finally:
        unsubscribe()
    late = (ms_to_datetime(parse_instant_ms(turn.at)) - due).total_seconds()
    await chat.host.when_idle()
    answers = [e.event for e in chat.entries[start:] if isinstance(e.event, AssistantMessage)]
    return late, answers


def _is_reminder(entry: Entry) -> bool:
    return isinstance(entry.event, UserMessage) and entry.event.is_reminder


def _due(chat: Conversation) -> datetime:
    active = chat.schedule().active
    assert active, "no active reminder to fire"
    return ms_to_datetime(min(r.scheduled_ms for r in active))


# ---------------------------------------------------------------- what the script reports


@dataclass(frozen=True)
class Try:
    """One "remind me in 2 minutes…" in a new conversation: how it was set, and the timings of
    its first request (None: the server's log said nothing)."""

    how: HowSet
    said: str
    first: Timing | None


async def one_try(folder: Path, door: OpenAICompatProvider, log: Path) -> Try:
    seen = len(timings(log))
    chat = await conversation(folder, door, ShiftClock())
    try:
        how, answers = await set_reminder(chat)
    finally:
        await chat.host.dispose()
    said = " | ".join(a.text.replace("\n", " ")[:80] for a in answers if a.text)
    new = timings(log)[seen:]
    return Try(how, said, new[0] if new else None)


def describe(attempt: Try) -> str:
    timing = attempt.first
    figures = (
        f"prompt {timing.prompt_tokens} tokens read in {timing.prompt_ms / 1000:.1f} s, "
        f"{timing.eval_tokens} tokens at {timing.tokens_per_second:.1f}/s"
        if timing is not None
        else "no timings logged"
    )
    return f"{attempt.how} ({figures}); said: {attempt.said[:100]!r}"


@dataclass
class LoopSeen:
    """What the whole loop showed, line by line (each line one step)."""

    lines: list[str] = field(default_factory=list)
    ok: bool = True

    def step(self, holds: bool, line: str) -> None:
        self.lines.append(("ok   " if holds else "MISS ") + line)
        self.ok = self.ok and holds


async def whole_loop(
    folder: Path, door: OpenAICompatProvider, log: Path, *, wait: bool, cold: Timing | None
) -> LoopSeen:
    """Set from plain words, fire on time, answered, listed and deleted in words; and how much
    of each request the server read anew, against ``cold`` (a request whose prefix it had not
    seen): a byte-stable prefix (system prompt and tools) is served from its prompt cache."""
    seen = LoopSeen()
    before = len(timings(log))
    chat = await conversation(folder, door, ShiftClock())
    try:
        how, _answers = await set_reminder(chat)
        active = chat.active()
        seen.step(len(active) == 1 and "oven" in active[0].lower(), f"set by {how}: {active}")
        late, answered = await fire(chat, wait=wait)
        text = answered[-1].text if answered else ""
        seen.step(late < 2.0 and bool(text), f"fired {late:.1f} s after its time; {text[:70]!r}")
        if not chat.active():  # the one-shot was delivered: set one to list and delete
            await set_reminder(chat)
        listed = await chat.say(LIST)
        calls = [c.name for a in listed for c in a.tool_calls]
        said = listed[-1].text.replace("\n", " ")[:70] if listed else ""
        seen.step("schedule_list" in calls, f"listed in words: calls {calls}; said {said!r}")
        await chat.say(DELETE)
        seen.step(not chat.active(), f"deleted in words: active after {chat.active()}")
    finally:
        await chat.host.dispose()
    requests = timings(log)[before:]
    if cold is not None and requests:
        read = ", ".join(f"{r.prompt_tokens} in {r.prompt_ms / 1000:.1f} s" for r in requests)
        seen.step(
            max(r.prompt_tokens for r in requests) < cold.prompt_tokens / 2,
            f"prompt cache: a cold request read {cold.prompt_tokens} tokens in "
            f"{cold.prompt_ms / 1000:.1f} s; the loop's {len(requests)} requests read {read}",
        )
    return seen
