"""The conversation verbs in the real window (agent.md §7, desktop.md §1.2): edit and resend,
versions, regenerate, hide with Undo and Show, a failed turn's Retry / Edit / Discard, the usage
under an answer, and a failure that does not block, against a real loopback HTTP server."""

from __future__ import annotations

import functools
import json
from collections.abc import AsyncIterator, Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt

from app.find_flow import FindFlow
from app.providers import provider_factory
from app.settings import Settings
from core.errors import ProviderError
from core.events import (
    AssistantMessage,
    ModelRef,
    TokenUsage,
    TurnEnd,
    TurnStart,
    UserMessage,
    UserSource,
)
from core.llm.messages import Finish, ModelInfo, ModelRequest, TextDelta
from tests.app.window import Opener, RealApp, running
from tests.core.llm.loopback import (
    Json,
    LoopbackServer,
    Received,
    Reply,
    Sse,
    chunk,
    error_body,
    model_list,
)
from tests.fakes import FakeClock
from ui.transcript_rows import TranscriptRow

CTRL = Qt.KeyboardModifier.ControlModifier
ALT = Qt.KeyboardModifier.AltModifier
TOO_LONG = "This model's maximum context length is 4096 tokens. However, you requested 9000 tokens."


@pytest.fixture
def open_app(qtbot, qapp, loop, tmp_path: Path, clock: FakeClock) -> Opener:
    return functools.partial(running, qtbot, qapp, loop, tmp_path, clock)


# -- driving the window ------------------------------------------------------------------


def rows(chime: RealApp) -> list[TranscriptRow]:
    model = chime.window.transcript_model
    found = [model.row_at(r) for r in range(model.rowCount())]
    return [row for row in found if row is not None]


def row_of(chime: RealApp, text: str, kind: str = "user") -> int:
    """The row of ``kind`` whose text is ``text``."""
    return next(i for i, row in enumerate(rows(chime)) if row.kind == kind and row.text == text)


def press(chime: RealApp, row: int, name: str) -> None:
    """Click the button ``name`` of transcript row ``row`` as a user does: the row is the
    keyboard's current one (its footer buttons show), the mouse clicks the button."""
    view = chime.window.transcript
    model = chime.window.transcript_model

    def click() -> None:
        view.setFocus()
        view.setCurrentIndex(model.index(row))
        view.scrollTo(model.index(row))
        layout = view.parts.delegate.layout_at(row)
        assert layout is not None
        button = layout.button(name)
        assert button is not None, f"row {row} has no {name} button"
        chime.qtbot.mouseClick(
            view.viewport(),
            Qt.MouseButton.LeftButton,
            pos=button.rect.center() + view.parts.hits.row_origin(row),
        )

    chime.inside(click)


def key(chime: RealApp, key: Qt.Key, modifiers: Qt.KeyboardModifier = CTRL) -> None:
    chime.inside(lambda: chime.qtbot.keyClick(chime.window, key, modifiers))


def settled(chime: RealApp) -> bool:
    return chime.idle() and chime.kinds()[-1:] in (["assistant"], ["error"])


def send(chime: RealApp, text: str) -> None:
    """Type and send ``text``; returns once its turn ended (answered or failed)."""
    count = len(user_messages(chime))
    chime.window.composer.editor.setPlainText(text)
    chime.inside(chime.window.composer.send_button.click)
    chime.until(lambda: len(user_messages(chime)) > count and settled(chime))


def user_messages(chime: RealApp) -> list[UserMessage]:
    opened = chime.controller.current_session()
    assert opened is not None
    return [e.event for e in opened.session.entries if isinstance(e.event, UserMessage)]


def reopen(chime: RealApp) -> None:
    """Close the session on screen (Ctrl+W) and open it again from the sidebar."""
    session_id = chime.controller.current
    assert session_id is not None
    chime.trigger("close_session")
    chime.until(lambda: chime.controller.current not in (None, session_id))  # a new one shows
    chime.inside(lambda: chime.window.sessions.session_chosen.emit(session_id))
    chime.until(lambda: chime.controller.current == session_id and chime.idle())


def long_session(chime: RealApp, exchanges: int, word: Callable[[int], str]) -> str:
    """Write ``exchanges`` answered questions ("question <n> <word(n)>", 4 entries each) into
    the session on screen, show it again (its end loaded) and return its id."""
    opened = chime.controller.current_session()
    assert opened is not None
    model = ModelRef("test", "test")
    for n in range(exchanges):
        seq = len(opened.session.entries)
        opened.session.append_events(
            [
                UserMessage(f"u{n}", f"question {n} {word(n)}", UserSource("UTC")),
                TurnStart(n + 1, seq),
                AssistantMessage(f"a{n}", f"answer {n}", (), model, "stop"),
                TurnEnd(n + 1, "completed"),
            ]
        )
    chime.controller.show_session(opened.id)
    return opened.id


def shown(chime: RealApp) -> list[tuple[str, str, tuple[int, int]]]:
    return [(row.kind, row.text, row.version) for row in rows(chime)]


# -- edit, versions, regenerate ------------------------------------------------------------


def test_an_earlier_message_edited_is_answered_and_its_switcher_goes_back_to_the_first(
    open_app: Opener,
) -> None:
    with open_app() as chime:
        chime.activate()
        send(chime, "what time is it?")
        send(chime, "thanks")
        before = shown(chime)
        press(chime, row_of(chime, "what time is it?"), "edit")
        composer = chime.window.composer
        assert composer.editing() is not None
        assert composer.text() == "what time is it?"
        assert composer.edit_bar.isVisibleTo(chime.window)
        assert composer.edit_bar.label.text() == "Editing a message — Esc to cancel"
        composer.editor.setPlainText("what time is it in Tokyo?")
        chime.inside(composer.send_button.click)
        chime.until(lambda: settled(chime) and chime.transcript_texts()[0].endswith("Tokyo?"))
        assert not composer.edit_bar.isVisibleTo(chime.window)
        texts = chime.transcript_texts()
        assert len(texts) == 2
        assert "Tokyo" in texts[1]
        assert rows(chime)[0].version == (2, 2)
        layout = chime.window.transcript.parts.delegate.layout_at(0)
        assert layout is not None
        assert layout.switcher_text == "2/2"
        assert [b.name for b in layout.buttons] == ["version-previous", "version-next"]
        assert [b.enabled for b in layout.buttons] == [True, False]
        edited = user_messages(chime)[-1]
        assert edited.revises is not None
        assert edited.text == "what time is it in Tokyo?"
        press(chime, 0, "version-previous")
        chime.until(lambda: [t for _k, t, _v in shown(chime)] == [t for _k, t, _v in before])
        assert rows(chime)[0].version == (1, 2)
        back = shown(chime)
        reopen(chime)
        assert shown(chime) == back


def test_up_in_the_empty_message_box_edits_the_last_message_and_esc_cancels(
    open_app: Opener,
) -> None:
    with open_app() as chime:
        chime.activate()
        send(chime, "what time is it?")
        composer = chime.window.composer
        composer.editor.setPlainText("a draft")
        chime.inside(composer.editor.clear)
        chime.inside(lambda: chime.qtbot.keyClick(composer.editor, Qt.Key.Key_Up))
        assert composer.editing() == 0
        assert composer.text() == "what time is it?"
        chime.inside(lambda: chime.qtbot.keyClick(composer.editor, Qt.Key.Key_Escape))
        assert composer.editing() is None
        assert composer.text() == ""
        assert not composer.edit_bar.isVisibleTo(chime.window)
        chime.inside(lambda: chime.qtbot.keyClicks(composer.editor, "half-typed"))
        chime.inside(lambda: chime.qtbot.keyClick(composer.editor, Qt.Key.Key_Up))
        assert composer.editing() is None  # Up in a draft moves the cursor, nothing more


def test_regenerate_answers_again_from_the_row_and_from_ctrl_alt_r(open_app: Opener) -> None:
    with open_app() as chime:
        chime.activate()
        send(chime, "what time is it?")
        answer = chime.transcript_texts()[-1]
        press(chime, row_of(chime, answer, "assistant"), "regenerate")
        chime.until(lambda: settled(chime) and rows(chime)[0].version == (2, 2))
        assert chime.transcript_texts() == ["what time is it?", answer]
        key(chime, Qt.Key.Key_R, CTRL | ALT)
        chime.until(lambda: settled(chime) and rows(chime)[0].version == (3, 3))
        assert [m.text for m in user_messages(chime)] == ["what time is it?"] * 3
        press(chime, 0, "version-previous")
        chime.until(lambda: rows(chime)[0].version == (2, 3))


def test_a_reminder_made_in_a_superseded_exchange_stays_in_the_reminders_panel(
    open_app: Opener,
) -> None:
    with open_app() as chime:
        chime.activate()
        send(chime, "remind me in 10 minutes to stretch")
        assert chime.window.reminders.model.rowCount() == 1
        press(chime, 0, "edit")
        chime.window.composer.editor.setPlainText("what time is it?")
        chime.inside(chime.window.composer.send_button.click)
        chime.until(lambda: settled(chime) and rows(chime)[0].version == (2, 2))
        assert "stretch" not in " ".join(chime.transcript_texts())
        assert chime.window.reminders.model.rowCount() == 1  # the panel is the truth


# -- hide, Undo, Show ----------------------------------------------------------------------


def test_hide_leaves_a_thin_row_undo_and_show_bring_the_exchange_back(open_app: Opener) -> None:
    with open_app() as chime:
        chime.activate()
        send(chime, "remind me in 10 minutes to stretch")
        send(chime, "what time is it?")
        whole = shown(chime)
        press(chime, 0, "hide")
        chime.until(lambda: chime.kinds()[0] == "hidden")
        assert chime.transcript_texts()[0] == "remind me in 10 minutes to stretch"
        assert chime.kinds()[1:] == ["user", "assistant"]
        assert chime.window.reminders.model.rowCount() == 1  # its reminder stays active
        bar = chime.window.message_bar
        assert "is hidden from the model" in bar.text()
        assert bar.action_button.text() == "Undo hide"
        hidden = shown(chime)
        reopen(chime)
        assert shown(chime) == hidden
        press(chime, 0, "show")
        chime.until(lambda: shown(chime) == whole)
        press(chime, 0, "hide")
        chime.until(lambda: chime.kinds()[0] == "hidden")
        chime.inside(bar.action_button.click)
        chime.until(lambda: shown(chime) == whole)
        assert bar.text() == "The message is back in the view and the history."


# -- a failed turn -------------------------------------------------------------------------


class FailsOn:
    """Answers "ok: <message>", except that a message holding "boom" fails while ``failing``."""

    def __init__(self) -> None:
        self.failing = True

    @property
    def info(self) -> ModelInfo:
        return ModelInfo("test", "fails-on")

    async def stream(self, request: ModelRequest) -> AsyncIterator[TextDelta | Finish]:
        text = request.messages[-1].text
        if "boom" in text and self.failing:
            raise ProviderError("bad_response", f"The endpoint refused “{text}”.")
        yield TextDelta(f"ok: {text}")
        yield Finish(f"ok: {text}", (), "stop")


def test_a_failed_rows_retry_edit_and_discard_act_on_that_message(open_app: Opener) -> None:
    with open_app() as chime:
        chime.activate()
        provider = FailsOn()
        chime.controller.set_provider(lambda: provider)
        send(chime, "boom one")
        send(chime, "hello")  # a failure never blocks
        assert chime.kinds() == ["user", "error", "user", "assistant"]
        assert chime.transcript_texts()[1] == "The endpoint refused “boom one”."
        layout = chime.window.transcript.parts.delegate.layout_at(1)
        assert layout is not None
        assert [b.name for b in layout.buttons] == ["retry", "edit", "discard", "settings"]
        provider.failing = False
        press(chime, 1, "retry")
        chime.until(lambda: settled(chime) and "ok: boom one" in chime.transcript_texts())
        # the retried message stands where its new answer is: after the answer that ran since
        assert chime.transcript_texts() == ["hello", "ok: hello", "boom one", "ok: boom one"]
        provider.failing = True
        send(chime, "boom two")
        press(chime, chime.kinds().index("error"), "discard")
        chime.until(lambda: chime.kinds()[-1] == "hidden")
        assert chime.transcript_texts()[-1] == "boom two"
        assert "Discarded “boom two”" in chime.window.message_bar.text()
        send(chime, "boom three")
        press(chime, chime.kinds().index("error"), "edit")
        composer = chime.window.composer
        assert composer.text() == "boom three"
        composer.editor.setPlainText("fine three")
        chime.inside(composer.send_button.click)
        chime.until(lambda: settled(chime) and chime.transcript_texts()[-1] == "ok: fine three")
        assert "error" not in chime.kinds()
        assert rows(chime)[-2].version == (2, 2)
        after = shown(chime)
        reopen(chime)
        assert shown(chime) == after


def test_retry_from_the_menu_retries_the_newest_failed_message(open_app: Opener) -> None:
    with open_app() as chime:
        chime.activate()
        provider = FailsOn()
        chime.controller.set_provider(lambda: provider)
        send(chime, "boom one")
        send(chime, "boom two")
        provider.failing = False
        key(chime, Qt.Key.Key_R, CTRL | Qt.KeyboardModifier.ShiftModifier)
        chime.until(lambda: settled(chime) and chime.transcript_texts()[-1] == "ok: boom two")
        assert chime.transcript_texts()[:2] == ["boom one", "The endpoint refused “boom one”."]


# -- usage ---------------------------------------------------------------------------------


class Reporting:
    """Reads the prompt for 1.5 s of the fake clock, writes for 2 s, and reports 1,234 prompt and
    82 completion tokens."""

    def __init__(self, clock: FakeClock) -> None:
        self.clock = clock

    @property
    def info(self) -> ModelInfo:
        return ModelInfo("test", "reporting")

    async def stream(self, request: ModelRequest) -> AsyncIterator[TextDelta | Finish]:
        self.clock.advance(timedelta(seconds=1.5))
        yield TextDelta("Count")
        self.clock.advance(timedelta(seconds=2))
        yield TextDelta("ed.")
        yield Finish("Counted.", (), "stop", TokenUsage(1234, 82))


def test_the_usage_of_an_answer_is_a_quiet_line_under_it(
    open_app: Opener, clock: FakeClock
) -> None:
    with open_app() as chime:
        send(chime, "what time is it?")
        plain = chime.window.transcript.parts.delegate.layout_at(1)
        assert plain is not None
        assert "tokens" not in plain.footer_text
        chime.controller.set_provider(lambda: Reporting(clock))
        send(chime, "count this")
        layout = chime.window.transcript.parts.delegate.layout_at(
            chime.window.transcript_model.rowCount() - 1
        )
        assert layout is not None
        # The rate is over the writing (82 tokens in 2 s), not the prompt's reading.
        assert layout.footer_text.endswith(
            " · 1,234 → 82 tokens · 41 tok/s · first word after 1.5 s"
        )


# -- find ----------------------------------------------------------------------------------


def test_find_counts_steps_through_highlights_and_closes(open_app: Opener) -> None:
    with open_app() as chime:
        chime.activate()
        send(chime, "remind me in 10 minutes to stretch")
        send(chime, "what time is it?")
        send(chime, "remind me in 20 minutes to Stretch again")
        texts = [r.text for r in rows(chime) if r.kind in ("user", "assistant")]
        total = sum(text.lower().count("stretch") for text in texts)
        key(chime, Qt.Key.Key_F)
        bar = chime.window.finder.bar
        assert bar.isVisible()
        assert bar.edit.hasFocus()
        chime.inside(lambda: chime.qtbot.keyClicks(bar.edit, "stretch"))
        flow = chime.controller.findChild(FindFlow)
        assert flow is not None
        chime.until(lambda: flow.job is not None and flow.job.done)
        count = bar.count_label.text()
        assert count.endswith(f" of {total}")
        first = int(count.split(" ")[0])
        view = chime.window.transcript
        target = flow.current_match()
        assert target is not None
        row = chime.window.transcript_model.row_of_message(target[0])
        marks, current = view.parts.matches.marks(row)
        assert marks
        assert current >= 0
        chime.inside(lambda: chime.qtbot.keyClick(bar.edit, Qt.Key.Key_Return))
        assert bar.count_label.text() == f"{first % total + 1} of {total}"
        chime.inside(
            lambda: chime.qtbot.keyClick(
                bar.edit, Qt.Key.Key_Return, Qt.KeyboardModifier.ShiftModifier
            )
        )
        assert bar.count_label.text() == count
        key(chime, Qt.Key.Key_F3, Qt.KeyboardModifier.NoModifier)
        assert bar.count_label.text() == f"{first % total + 1} of {total}"
        chime.inside(lambda: chime.qtbot.keyClick(bar.edit, Qt.Key.Key_Escape))
        assert not bar.isVisible()
        assert view.parts.matches.marks(row) == ([], -1)
        assert chime.idle()  # Esc closed the bar, it did not reach Stop


def test_find_in_a_long_session_says_plus_while_it_searches_and_loads_a_far_match(
    open_app: Opener, monkeypatch: pytest.MonkeyPatch
) -> None:
    from app import find_flow

    monkeypatch.setattr(find_flow, "SLICE_MS", 0.0)  # one STEP of entries per slice
    with open_app() as chime:
        long_session(chime, 400, lambda n: "needle" if n in (3, 390) else "hay")
        assert chime.window.transcript_model.row_of_message(4 * 3) < 0  # not loaded
        chime.activate()
        key(chime, Qt.Key.Key_F)
        bar = chime.window.finder.bar
        flow = chime.controller.findChild(FindFlow)
        assert flow is not None
        chime.inside(lambda: bar.edit.setText("needle"))
        assert bar.count_label.text() == "1+"  # the first slice found the first one
        chime.until(lambda: flow.job is not None and flow.job.done)
        assert bar.count_label.text() == "2 of 2"  # the newest: nothing below the view's top
        assert len(flow.slices) > 4
        chime.inside(lambda: chime.qtbot.keyClick(bar.edit, Qt.Key.Key_Return))
        assert bar.count_label.text() == "1 of 2"
        row = chime.window.transcript_model.row_of_message(4 * 3)
        assert row >= 0  # loaded to be shown
        assert chime.window.transcript.parts.matches.marks(row)[1] == 0


# -- against a real endpoint ---------------------------------------------------------------


def refusing_long_messages(request: Received) -> Reply:
    """A server that refuses a conversation whose last message says "very long" with the
    context-length 400 real servers send, and answers the others."""
    if request.path.endswith("/models"):
        return model_list("test-model")
    messages: list[dict[str, Any]] = request.json()["messages"]
    last = messages[-1].get("content")
    text = last if isinstance(last, str) else json.dumps(last)
    if "very long" in text:
        return Json(400, error_body(TOO_LONG, "context_length_exceeded"))
    return Sse([chunk("Answered: "), chunk(text[-40:]), chunk(finish="stop")])


@pytest.mark.slow  # real HTTP round trips on the loopback interface
def test_a_refused_message_does_not_block_the_next_one_against_a_real_endpoint(
    open_app: Opener, clock: FakeClock
) -> None:
    with open_app() as chime:
        server = LoopbackServer([], decide=refusing_long_messages)
        chime.run(server.__aenter__())
        try:
            settings = Settings(
                provider="openai-compatible", base_url=server.base_url, model="test-model"
            )
            chime.controller.set_provider(provider_factory(settings, "", clock))
            chime.activate()
            send(chime, "a very long message")
            send(chime, "a short one")
            kinds, texts = chime.kinds(), chime.transcript_texts()
            assert kinds == ["user", "error", "user", "assistant"]
            assert texts[2:] == ["a short one", "Answered: a short one"]
            assert "The conversation is too long for this model's context (400)" in texts[1]
            layout = chime.window.transcript.parts.delegate.layout_at(1)
            assert layout is not None
            assert [b.text for b in layout.buttons] == [
                "Retry (Enter)",
                "Edit",
                "Discard",
                "Settings…",
            ]
            before = shown(chime)
            reopen(chime)
            assert shown(chime) == before
            press(chime, 1, "edit")
            chime.window.composer.editor.setPlainText("a shorter message")
            chime.inside(chime.window.composer.send_button.click)
            chime.until(lambda: settled(chime) and chime.transcript_texts()[-1].endswith("message"))
            assert chime.kinds() == ["user", "assistant"]  # the new version follows no input
            assert chime.transcript_texts()[-1] == "Answered: a shorter message"
        finally:
            chime.run(server.__aexit__(None, None, None))
