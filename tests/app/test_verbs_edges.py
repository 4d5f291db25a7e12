"""The conversation verbs and find at their edges, in the real window: a read-only session refuses
each verb in words, a verb that does not apply says so (or does nothing), Undo hide across
sessions, and find while the session changes under it (desktop.md §1.2)."""

from __future__ import annotations

import functools
from datetime import timedelta
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from PySide6.QtCore import Qt

from app import find_flow, verbs
from app.find_flow import FindFlow
from app.verbs import ConversationVerbs
from core.events import AssistantMessage, ModelRef, TurnEnd, TurnStart, UserMessage, UserSource
from tests.app.test_flow import advance_and_fire
from tests.app.test_verbs import FailsOn, key, long_session, press, send, user_messages
from tests.app.window import Opener, RealApp, running
from tests.fakes import FakeClock

READ_ONLY = "This session is read-only: nothing can be changed."


@pytest.fixture
def open_app(qtbot, qapp, loop, tmp_path: Path, clock: FakeClock) -> Opener:
    return functools.partial(running, qtbot, qapp, loop, tmp_path, clock)


def the_verbs(chime: RealApp) -> ConversationVerbs:
    found = chime.controller.findChild(ConversationVerbs)
    assert found is not None
    return found


def the_find(chime: RealApp) -> FindFlow:
    found = chime.controller.findChild(FindFlow)
    assert found is not None
    return found


def entry_count(chime: RealApp) -> int:
    opened = chime.controller.current_session()
    assert opened is not None
    return len(opened.session.entries)


def bar_text(chime: RealApp) -> str:
    return chime.window.message_bar.text()


# -- refusals --------------------------------------------------------------------------------


def test_a_read_only_session_refuses_every_verb_in_a_sentence_and_writes_nothing(
    open_app: Opener,
) -> None:
    with open_app() as first:
        first.send("shared between two windows")
        owned = first.controller.current_session()
        assert owned is not None
        first.run(owned.session.flush())
        with open_app() as second:  # a second instance: the session is read-only there
            opened = second.controller.current_session()
            assert opened is not None
            assert opened.session.read_only
            before = entry_count(second)
            second.trigger("regenerate")
            assert bar_text(second) == READ_ONLY
            chosen = the_verbs(second)
            calls: list[Any] = [
                lambda: chosen.retry(0),
                lambda: chosen.edit(0),
                lambda: chosen.edit_last(),
                lambda: chosen.hide(0),
                lambda: chosen.show(0),
                lambda: chosen.switch_version(0, 1),
            ]
            for call in calls:
                second.window.message_bar.dismiss()
                second.inside(call)
                assert bar_text(second) == READ_ONLY
            assert second.window.composer.editing() is None
            second.inside(lambda: chosen.send_edit(0, "kept for later"))
            assert second.window.composer.text() == "kept for later"  # nothing typed is lost
            assert entry_count(second) == before


def test_verbs_that_do_not_apply_say_so_and_change_nothing(open_app: Opener) -> None:
    with open_app() as chime:
        chime.activate()
        chosen = the_verbs(chime)
        chime.trigger("regenerate")
        assert bar_text(chime) == "There is no answer to regenerate yet."
        chime.trigger("undo_hide")
        assert bar_text(chime) == "There is no hidden message to bring back."
        composer = chime.window.composer
        chime.inside(lambda: chime.qtbot.keyClick(composer.editor, Qt.Key.Key_Up))
        assert composer.editing() is None  # nothing sent yet: nothing to edit
        send(chime, "hello")
        before = entry_count(chime)
        chime.inside(lambda: chosen.retry(0))
        assert bar_text(chime) == "This message has no failed answer to retry."
        chime.inside(lambda: chosen.row_action("no-such-action", 0))
        chime.inside(lambda: chosen.edit(1))  # the turn's start, not a message
        chime.inside(lambda: chosen.edit(10_000))  # past the end
        assert composer.editing() is None
        chime.inside(lambda: chosen.hide(1))
        assert bar_text(chime) == "Could not hide the message: event 1 is not an input"
        chime.inside(lambda: chosen.regenerate(1))
        assert bar_text(chime).startswith("Could not regenerate the answer:")
        chime.inside(lambda: chosen.send_edit(1, "my careful words"))
        assert bar_text(chime).startswith("Could not send the edited message:")
        assert composer.text() == "my careful words"  # given back, not lost
        chime.inside(lambda: chosen.switch_version(0, 1))  # one version: no next one
        chime.inside(lambda: chosen.switch_version(0, -1))
        assert entry_count(chime) == before


def test_regenerate_last_skips_a_hidden_answer_and_undo_finds_its_session(
    open_app: Opener,
) -> None:
    with open_app() as chime:
        chime.activate()
        send(chime, "what time is it?")
        first = chime.controller.current
        press(chime, 0, "hide")
        chime.until(lambda: chime.kinds() == ["hidden"])
        chime.trigger("regenerate")
        assert bar_text(chime) == "There is no answer to regenerate yet."  # only a hidden one
        chime.trigger("new_session")
        chime.until(lambda: chime.controller.current not in (None, first))
        chime.trigger("undo_hide")  # brings the session back on screen, then the exchange
        chime.until(lambda: chime.controller.current == first and chime.kinds()[0] == "user")
        assert bar_text(chime) == "The message is back in the view and the history."
        send(chime, "thanks")
        press(chime, 2, "hide")
        chime.until(lambda: chime.kinds()[-1] == "hidden")
        key(
            chime,
            Qt.Key.Key_R,
            Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.AltModifier,
        )
        chime.until(lambda: chime.idle() and len(user_messages(chime)) == 3)
        assert user_messages(chime)[-1].revises == 0  # the shown answer before the hidden one
        chime.trigger("undo_hide")  # "thanks" is in the log again (on the earlier version)
        assert bar_text(chime).startswith("The message is back, in a version of this conversation")
        opened = chime.controller.current_session()
        assert opened is not None
        assert not opened.session.conversation().hidden
        press(chime, 0, "hide")
        chime.until(lambda: chime.kinds()[0] == "hidden")
        press(chime, 0, "show")
        chime.until(lambda: "hidden" not in chime.kinds())
        chime.trigger("undo_hide")  # shown again already: nothing left to bring back
        assert bar_text(chime) == "There is no hidden message to bring back."


def test_the_event_scan_leaves_out_a_line_that_does_not_decode_yet() -> None:
    class Undecoded:
        @property
        def event(self) -> Any:
            raise ValueError("not verified yet")

    message = SimpleNamespace(event=UserMessage("u", "typed", UserSource("UTC")))
    opened: Any = SimpleNamespace(session=SimpleNamespace(entries=[message, Undecoded()]))
    assert list(verbs._backwards(opened)) == [(0, message.event)]
    assert verbs._message(opened, 1) is None


# -- find while things change ----------------------------------------------------------------


def test_find_takes_in_new_messages_searches_again_when_the_path_changes_and_clears(
    open_app: Opener,
) -> None:
    with open_app() as chime:
        chime.activate()
        send(chime, "remind me in 10 minutes to stretch")
        key(chime, Qt.Key.Key_F)
        bar = chime.window.finder.bar
        flow = the_find(chime)
        chime.inside(lambda: bar.edit.setText("zebra"))
        chime.until(lambda: flow.job is not None and flow.job.done)
        assert bar.count_label.text() == "No matches"
        chime.inside(lambda: chime.qtbot.keyClick(bar.edit, Qt.Key.Key_Return))  # nothing to do
        assert bar.count_label.text() == "No matches"
        chime.inside(lambda: bar.edit.setText("zebras"))
        send(chime, "do zebras stretch?")  # a new message joins the running search
        chime.until(lambda: flow.job is not None and flow.job.done and flow.job.total == 1)
        chime.inside(lambda: chime.qtbot.keyClick(bar.edit, Qt.Key.Key_Return))
        assert bar.count_label.text() == "1 of 1"
        press(chime, chime.kinds().index("user", 1), "hide")  # the path changes: search again
        chime.until(lambda: chime.kinds()[-1] == "hidden")
        chime.until(lambda: flow.job is not None and flow.job.done)
        assert bar.count_label.text() == "No matches"
        chime.inside(lambda: bar.edit.setText(""))
        assert flow.job is None
        assert bar.count_label.text() == ""
        chime.inside(lambda: chime.qtbot.keyClick(bar.edit, Qt.Key.Key_F3))  # no search: nothing
        assert flow.current_match() is None


def test_find_steps_while_it_still_searches_and_closes_when_another_session_shows(
    open_app: Opener, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(find_flow, "SLICE_MS", 0.0)  # one STEP of entries per slice
    with open_app() as chime:
        session_id = long_session(chime, 300, lambda n: "needle" if n in (2, 290) else "hay")
        chime.activate()
        key(chime, Qt.Key.Key_F)
        bar = chime.window.finder.bar
        flow = the_find(chime)
        chime.inside(lambda: bar.edit.setText("needle"))
        assert bar.count_label.text() == "1+"  # found above the view: none current yet
        bar.next_requested.emit()  # Enter, before the next slice runs
        assert bar.count_label.text() == "1 of 1+"
        bar.next_requested.emit()
        assert bar.count_label.text() == "1 of 1+"  # the next one is not found yet: stay
        chime.until(lambda: flow.job is not None and flow.job.done)
        assert bar.count_label.text() == "1 of 2"
        chime.trigger("new_session")  # another session shows: the bar was this one's, it closes
        chime.until(lambda: chime.controller.current != session_id)
        assert bar.isHidden()
        assert flow.job is None  # its search stopped, its highlights went
        key(chime, Qt.Key.Key_F)  # Ctrl+F there: the same words, searched in this session
        assert bar.query() == "needle"
        chime.until(lambda: bar.count_label.text() == "No matches")
        chime.inside(bar.close_bar)
        chime.inside(lambda: chime.window.sessions.session_chosen.emit(session_id))
        chime.until(lambda: chime.controller.current == session_id)
        assert flow.job is None  # shown with the bar closed: no search


def test_a_search_of_a_few_hundred_entries_runs_in_one_slice(
    open_app: Opener, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(find_flow, "SLICE_MS", 60_000.0)  # as on a fast machine: no deadline
    with open_app() as chime:
        long_session(chime, 100, lambda _n: "stretch")  # 400 entries: more than one STEP
        chime.activate()
        key(chime, Qt.Key.Key_F)
        bar = chime.window.finder.bar
        flow = the_find(chime)
        chime.inside(lambda: bar.edit.setText("stretch"))
        assert flow.job is not None
        assert flow.job.done  # no waiting for a second slice
        assert len(flow.slices) == 1
        assert bar.count_label.text().endswith(" of 100")


def test_an_edit_far_from_the_end_still_shows_the_messages_before_it(open_app: Opener) -> None:
    with open_app() as chime:
        long_session(chime, 100, lambda _n: "hay")
        chime.activate()
        the_verbs(chime).edit(4 * 10)
        composer = chime.window.composer
        composer.editor.setPlainText("question 10 edited")
        chime.inside(composer.send_button.click)
        chime.until(lambda: chime.idle() and chime.kinds()[-1] == "assistant")
        texts = chime.transcript_texts()
        assert texts[-2] == "question 10 edited"
        assert "question 9 hay" in texts  # the messages before the edited one are there


def closed_session(chime: RealApp, exchanges: int) -> str:
    """A closed session of ``exchanges`` answered questions ("question <n> hay"), written
    through the store (not on screen while it grows); returns its id."""

    async def write() -> str:
        session = await chime.controller.store.create()
        model = ModelRef("test", "test")
        for n in range(exchanges):
            seq = len(session.entries)
            session.append_events(
                [
                    UserMessage(f"u{n}", f"question {n} hay", UserSource("UTC")),
                    TurnStart(n + 1, seq),
                    AssistantMessage(f"a{n}", f"answer {n}", (), model, "stop"),
                    TurnEnd(n + 1, "completed"),
                ]
            )
        await session.close()
        return session.id

    written: str = chime.run(write())
    return written


def test_an_edit_near_the_start_of_a_long_session_loads_back_to_the_messages_before_it(
    open_app: Opener,
) -> None:
    with open_app() as chime:
        session_id = closed_session(chime, 1100)  # more events after the edit than a load reads
        chime.inside(lambda: chime.window.sessions.session_chosen.emit(session_id))
        chime.until(lambda: chime.controller.current == session_id and chime.idle())
        chime.activate()
        the_verbs(chime).edit(4 * 2)
        composer = chime.window.composer
        composer.editor.setPlainText("question 2 edited")
        chime.inside(composer.send_button.click)
        chime.until(lambda: chime.idle() and chime.kinds()[-1] == "assistant")
        chime.until(lambda: "question 1 hay" in chime.transcript_texts())  # batch by batch
        texts = chime.transcript_texts()
        assert texts[0] == "question 0 hay"
        assert texts[-2] == "question 2 edited"
        assert chime.window.transcript.follow.is_following()  # the new answer stays in view


def test_a_failed_reminder_turn_offers_retry_and_discard_but_no_edit(
    open_app: Opener, clock: FakeClock
) -> None:
    with open_app() as chime:
        chime.activate()
        send(chime, "remind me in 2 minutes to boom")
        provider = FailsOn()
        chime.controller.set_provider(lambda: provider)
        advance_and_fire(chime, clock, timedelta(minutes=2))  # a RealApp has what it reads
        chime.until(lambda: chime.idle() and chime.kinds()[-1] == "error")
        row = len(chime.kinds()) - 1
        layout = chime.window.transcript.parts.delegate.layout_at(row)
        assert layout is not None
        assert [b.name for b in layout.buttons] == ["retry", "discard", "settings"]
        value = chime.window.transcript_model.row_at(row)
        assert value is not None
        chime.inside(lambda: the_verbs(chime).edit(value.input))
        assert chime.window.composer.editing() is None
        assert bar_text(chime) == "A reminder cannot be edited: retry it, or discard it."
        provider.failing = False
        press(chime, row, "retry")
        chime.until(lambda: chime.idle() and chime.kinds()[-1] == "assistant")
        assert "error" not in chime.kinds()


def test_a_notice_about_a_conversation_goes_when_another_is_shown_one_about_the_app_stays(
    open_app: Opener,
) -> None:
    with open_app() as chime:
        chime.activate()
        send(chime, "hello")
        first = chime.controller.current
        chime.trigger("undo_hide")  # about this conversation
        assert bar_text(chime) == "There is no hidden message to bring back."
        chime.trigger("new_session")
        chime.until(lambda: chime.controller.current not in (None, first))
        assert chime.window.message_bar.isHidden()
        chime.inside(lambda: chime.window.notify("Exported to /tmp/x.md"))  # about the app
        chime.inside(lambda: chime.controller.show_session(str(first)))
        assert bar_text(chime) == "Exported to /tmp/x.md"
