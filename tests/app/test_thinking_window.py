"""An answer's thinking and the reminder safety net in the real window (issue 19): the thinking
streams as "Thinking… 12 s" in a folded block at the top of the answer and in the waiting line,
then reads "Thought for 12 s", opens and closes with a click and with Enter, is left out of the
answer's Copy and of find; a reminder request a model answered in words gets a quiet line with
"Set it", which asks before it creates the reminder through the session's schedule tools; a tool
call the model wrote as text is shown as a tool call."""

from __future__ import annotations

import asyncio
import functools
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication

from core.events import ToolCall
from core.llm.messages import Finish, ModelInfo, ReasoningDelta, TextDelta
from tests.app.test_verbs import key, press, rows
from tests.app.window import Opener, RealApp, running
from tests.fakes import FakeClock
from ui.find_marks import marks_in
from ui.row_parts import THINKING


@pytest.fixture
def open_app(qtbot, qapp, loop, tmp_path: Path, clock: FakeClock) -> Opener:
    return functools.partial(running, qtbot, qapp, loop, tmp_path, clock)


class Thinker:
    """A reasoning model: thinks "weighing the oven" (the clock moves 12 s while it thinks),
    waits for ``gate``, then answers "Bake it at 180 °C."."""

    def __init__(self, clock: FakeClock, gate: asyncio.Event) -> None:
        self.clock, self.gate = clock, gate

    @property
    def info(self) -> Any:
        return ModelInfo("test", "thinker")

    async def stream(self, request: object) -> Any:
        yield ReasoningDelta("weighing ")
        yield ReasoningDelta("the oven")
        await self.gate.wait()
        self.clock.advance(timedelta(seconds=12))
        yield TextDelta("Bake it at 180 °C.")
        yield Finish("Bake it at 180 °C.", (), "stop", reasoning="weighing the oven")


class Wordy:
    """A small model that answers every request in words (or with ``finish`` when given)."""

    def __init__(self, finish: Finish | None = None) -> None:
        self.finish = finish or Finish("Sure! I will remind you to check the oven.", (), "stop")
        self.asked = 0

    @property
    def info(self) -> Any:
        return ModelInfo("test", "wordy")

    async def stream(self, request: object) -> Any:
        self.asked += 1
        if self.asked > 1:  # after its tool call: a closing sentence
            yield Finish("Done.", (), "stop")
            return
        yield self.finish


def answer_row(chime: RealApp) -> int:
    return next(i for i, row in reversed(list(enumerate(rows(chime)))) if row.reasoning)


def thinking_button(chime: RealApp, row: int) -> str:
    layout = chime.window.transcript.parts.delegate.layout_at(row)
    assert layout is not None
    button = layout.button(THINKING)
    assert button is not None
    return button.text


def test_thinking_streams_folded_then_reads_thought_for_and_opens_by_click_and_key(
    open_app: Opener,
) -> None:
    with open_app() as chime:
        gate = asyncio.Event()
        chime.controller.set_provider(lambda: Thinker(chime.clock, gate))
        wait = chime.window.answer_wait
        wait.elapsed_ms = lambda: 3000  # asked 3 s ago
        chime.window.composer.editor.setPlainText("how hot should the oven be?")
        chime.inside(chime.window.composer.send_button.click)
        chime.until(lambda: chime.kinds()[-1:] == ["streaming"] and bool(rows(chime)[-1].reasoning))
        chime.window.transcript_model.stream.flush()
        streaming = len(rows(chime)) - 1
        assert rows(chime)[streaming].reasoning == "weighing the oven"
        assert rows(chime)[streaming].text == ""
        assert thinking_button(chime, streaming).endswith("Thinking…")
        assert wait.text() == "Thinking…"
        assert not wait.isHidden()
        wait.elapsed_ms = lambda: 15000  # thinking for 12 s now: the next tick says so
        chime.inside(wait._tick.timeout.emit)
        chime.inside(chime.window.transcript_model.stream.flush)
        assert wait.text() == "Thinking… 12 s"
        assert thinking_button(chime, streaming).endswith("Thinking… 12 s")
        chime.inside(gate.set)
        chime.until(lambda: chime.idle() and chime.kinds()[-1:] == ["assistant"])
        row = answer_row(chime)
        answer = rows(chime)[row]
        assert (answer.text, answer.reasoning, answer.reasoning_ms) == (
            "Bake it at 180 °C.",
            "weighing the oven",
            12000,
        )
        assert wait.isHidden()
        assert thinking_button(chime, row) == "▸  Thought for 12 s"
        layout = chime.window.transcript.parts.delegate.layout_at(row)
        assert layout is not None
        assert not any(piece.aside for piece in layout.pieces)

        press(chime, row, THINKING)  # a click opens it
        layout = chime.window.transcript.parts.delegate.layout_at(row)
        assert layout is not None
        assert layout.pieces[0].aside
        assert layout.pieces[0].doc.toPlainText() == "weighing the oven"
        assert thinking_button(chime, row) == "▾  Thought for 12 s"

        chime.inside(lambda: chime.qtbot.keyClick(chime.window.transcript, Qt.Key.Key_Return))
        layout = chime.window.transcript.parts.delegate.layout_at(row)
        assert layout is not None
        assert not any(piece.aside for piece in layout.pieces)
        assert thinking_button(chime, row) == "▸  Thought for 12 s"
        menu = chime.window.transcript.parts.menu.build(row, "")
        show = next(a for a in menu.actions() if a.text() == "Show &thinking")
        chime.inside(show.trigger)  # the context menu, for the keyboard
        assert chime.window.transcript_model.is_expanded(row)
        menu = chime.window.transcript.parts.menu.build(row, "")
        assert any(a.text() == "Hide &thinking" for a in menu.actions())


def test_copy_and_find_leave_the_thinking_out(open_app: Opener) -> None:
    with open_app() as chime:
        gate = asyncio.Event()
        gate.set()
        chime.controller.set_provider(lambda: Thinker(chime.clock, gate))
        chime.window.composer.editor.setPlainText("how hot should the oven be?")
        chime.inside(chime.window.composer.send_button.click)
        chime.until(lambda: chime.idle() and chime.kinds()[-1:] == ["assistant"])
        row = answer_row(chime)
        press(chime, row, THINKING)  # open: find still leaves it out
        press(chime, row, "copy")
        assert QGuiApplication.clipboard().text() == "Bake it at 180 °C."
        chime.activate()
        key(chime, Qt.Key.Key_F)
        bar = chime.window.finder.bar
        chime.inside(lambda: bar.edit.setText("oven"))
        # "oven" is in the question and the (open) thinking: only the question counts
        chime.until(lambda: bar.count_label.text() == "1 of 1")
        layout = chime.window.transcript.parts.delegate.layout_at(row)
        assert layout is not None
        assert layout.pieces[0].aside
        assert marks_in(layout, "oven") == []


def test_a_reminder_answered_in_words_offers_set_it_which_asks_then_creates_it(
    open_app: Opener,
) -> None:
    with open_app() as chime:
        model = Wordy()
        chime.controller.set_provider(lambda: model)
        chime.window.composer.editor.setPlainText("remind me in 2 minutes to check the oven")
        chime.inside(chime.window.composer.send_button.click)
        chime.until(lambda: chime.idle() and chime.kinds()[-1:] == ["unset"])
        line = len(rows(chime)) - 1
        assert chime.window.transcript_model.index(line).data() == ""
        layout = chime.window.transcript.parts.delegate.layout_at(line)
        assert layout is not None
        assert layout.pieces[0].doc.toPlainText() == (
            "No reminder was set: this model answered in words."
        )
        chime.answers.set_reminders.append(False)  # cancelled: nothing is created
        press(chime, line, "set-reminder")
        assert chime.answers.offered == [("check the oven", "in 2 min")]
        assert not _has_reminders(chime)

        chime.answers.set_reminders.append(True)
        press(chime, line, "set-reminder")
        chime.until(lambda: rows(chime)[line].result is not None)
        assert rows(chime)[line].result == "schedule-1"
        layout = chime.window.transcript.parts.delegate.layout_at(line)
        assert layout is not None
        assert layout.button("set-reminder") is None
        assert layout.pieces[0].doc.toPlainText() == "Reminder set: “check the oven” · schedule-1"
        opened = chime.controller.current_session()
        assert opened is not None
        active = opened.session.schedule_fold().active
        assert [(r.id, r.prompt) for r in active] == [("schedule-1", "check the oven")]
        chime.clock.advance(timedelta(minutes=2, seconds=1))  # it fires, as any reminder does
        chime.inside(chime.controller.redrive_all)
        chime.until(lambda: "reminder" in chime.kinds())


def _has_reminders(chime: RealApp) -> bool:
    opened = chime.controller.current_session()
    return opened is not None and bool(opened.session.schedule_fold().active)


def test_a_tool_call_written_as_text_is_shown_as_a_tool_call(open_app: Opener) -> None:
    call = ToolCall("text_call_0", "schedule_list", "{}")
    written = Finish("", (call,), "tool_calls", calls_from_text=True)
    with open_app() as chime:
        model = Wordy(written)
        chime.controller.set_provider(lambda: model)
        chime.window.composer.editor.setPlainText("what reminders do I have?")
        chime.inside(chime.window.composer.send_button.click)
        chime.until(lambda: chime.idle() and chime.kinds()[-1:] == ["assistant"])
        tools = [row for row in rows(chime) if row.kind == "tool"]
        assert len(tools) == 1
        assert tools[0].from_text
        assert tools[0].title.endswith(" · written as text")
        assert "schedule_list" not in "".join(r.text for r in rows(chime) if r.kind == "assistant")


def test_set_it_says_why_when_nothing_can_be_set(open_app: Opener) -> None:
    with open_app() as chime:
        verbs = chime.started.verbs
        assert verbs is not None
        offer = verbs.offer
        chime.send("hello")  # the offline assistant: no offer anywhere
        chime.inside(lambda: offer.row_action("show", 0))  # another verb: not this flow's
        chime.inside(lambda: offer.row_action("set-reminder", 0))
        assert chime.window.message_bar.label.text() == "There is no reminder to set here."
        opened = chime.controller.current_session()
        assert opened is not None
        chime.run(offer.create(opened, '{"prompt": 3}'))  # arguments the tools refuse
        assert chime.window.message_bar.label.text().startswith("Could not set the reminder: ")
        past = '{"prompt":"late","at":"2020-01-01T09:00:00+00:00"}'
        chime.run(offer.create(opened, past))  # a time the tool refuses with its own words
        said = chime.window.message_bar.label.text()
        assert said.startswith("Could not set the reminder: ")
        assert not _has_reminders(chime)
        host, opened.host = opened.host, None
        chime.run(offer.create(opened, past))  # closed meanwhile: nothing happens
        chime.inside(lambda: offer.offer(0))
        assert chime.window.message_bar.label.text() == (
            "This session is read-only: nothing can be changed."
        )
        opened.host = host


def test_offered_arguments_take_the_newest_answer_of_that_input() -> None:
    from app.reminder_offer import _refusal

    assert _refusal({"code": "E2", "message": "in the past"}) == "in the past"
    assert _refusal({"id": "schedule-1"}) == ""
    assert _refusal([1]) == ""


def test_a_session_shown_while_it_thinks_shows_its_thinking_so_far(open_app: Opener) -> None:
    with open_app() as chime:
        gate = asyncio.Event()
        chime.controller.set_provider(lambda: Thinker(chime.clock, gate))
        thinking = chime.controller.current
        chime.window.composer.editor.setPlainText("how hot should the oven be?")
        chime.inside(chime.window.composer.send_button.click)
        chime.until(lambda: chime.kinds()[-1:] == ["streaming"])
        chime.trigger("new_session")
        chime.until(lambda: chime.controller.current != thinking)
        assert "streaming" not in chime.kinds()
        chime.inside(lambda: chime.controller.show_session(thinking))  # type: ignore[arg-type]  # a session id
        chime.until(lambda: chime.kinds()[-1:] == ["streaming"])
        assert rows(chime)[-1].reasoning == "weighing the oven"
        assert chime.window.answer_wait.text() == "Thinking…"
        chime.inside(gate.set)
        chime.until(lambda: chime.idle() and chime.kinds()[-1:] == ["assistant"])
        assert rows(chime)[-1].reasoning == "weighing the oven"
