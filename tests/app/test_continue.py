"""Continue in the real window (agent.md §7): an answer cut by the model's length limit, or
stopped mid-stream, offers Continue (its footer button, its context menu and Enter alike); the
model is asked to go on from the cut text (the request's last message), and the person reads one
answer, also after a restart. A loopback OpenAI-compatible server stands for the endpoint."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt

from core.events import AssistantMessage, TurnStart
from core.transcript.verbs import Verb
from tests.app.test_session_verbs import chats, endpoint
from tests.app.test_verbs import key, press, rows
from tests.app.window import RealApp, running
from tests.core.llm.loopback import Endless, Reply, Sse, chunk
from tests.fakes import FakeClock

CUT = "To fry an egg: warm the"
REST = " pan, add oil, crack the egg."


def _answer_rows(chime: RealApp) -> list[tuple[str, tuple[Verb, ...]]]:
    return [(row.text, row.verbs) for row in rows(chime) if row.kind == "assistant"]


def _menu(chime: RealApp, text: str) -> list[str]:
    view = chime.window.transcript
    at = next(
        i for i, row in enumerate(rows(chime)) if row.kind == "assistant" and row.text == text
    )
    menu = view.parts.menu.build(at, "")
    try:
        return [action.text() for action in menu.actions()]
    finally:
        menu.deleteLater()


def _logged(chime: RealApp) -> tuple[list[AssistantMessage], list[TurnStart]]:
    opened = chime.controller.current_session()
    assert opened is not None
    events = [entry.event for entry in opened.session.entries]
    answers = [e for e in events if isinstance(e, AssistantMessage)]
    return answers, [e for e in events if isinstance(e, TurnStart)]


def test_a_length_cut_answer_continues_into_one_answer_that_survives_a_restart(
    qtbot, qapp, loop, tmp_path: Path, clock: FakeClock
) -> None:
    script: list[Reply] = [
        Sse([chunk(CUT), chunk(finish="length")]),
        Sse([chunk(" pan,"), chunk(" add oil, crack the egg."), chunk(finish="stop")]),
    ]
    with endpoint(loop, tmp_path, script) as server:
        with running(qtbot, qapp, loop, tmp_path, clock) as chime:
            chime.activate()
            chime.send("How do I fry an egg?")
            assert _answer_rows(chime) == [(CUT, (Verb.COPY, Verb.CONTINUE, Verb.REGENERATE))]
            assert "Continue" in _menu(chime, CUT)
            at = chime.kinds().index("assistant")
            press(chime, at, Verb.CONTINUE)  # the footer button, clicked
            chime.until(lambda: chime.idle() and _answer_rows(chime)[-1][0] == CUT + REST)
            assert chime.transcript_texts() == ["How do I fry an egg?", CUT + REST]
            assert _answer_rows(chime) == [(CUT + REST, (Verb.COPY, Verb.REGENERATE))]
            sent = chats(server)[-1]["messages"]
            assert sent[-1] == {"role": "assistant", "content": CUT}  # it goes on from here
            assert sent[-2]["role"] == "user"
            answers, starts = _logged(chime)
            assert [a.text for a in answers] == [CUT, CUT + REST]
            assert starts[-1].continues is not None
        with running(qtbot, qapp, loop, tmp_path, clock) as again:  # the log says it
            again.until(lambda: "assistant" in again.kinds())
            assert again.transcript_texts() == ["How do I fry an egg?", CUT + REST]
            assert _answer_rows(again) == [(CUT + REST, (Verb.COPY, Verb.REGENERATE))]


def test_an_answer_stopped_mid_stream_continues_with_enter(
    qtbot, qapp, loop, tmp_path: Path, clock: FakeClock
) -> None:
    script: list[Reply] = [
        Endless([chunk(CUT)]),
        Sse([chunk(REST), chunk(finish="stop")]),
    ]
    with (
        endpoint(loop, tmp_path, script) as server,
        running(qtbot, qapp, loop, tmp_path, clock) as chime,
    ):
        chime.activate()
        chime.window.composer.editor.setPlainText("How do I fry an egg?")
        chime.inside(chime.window.composer.send_button.click)
        chime.until(lambda: chime.transcript_texts()[-1:] == [CUT])
        chime.trigger("stop")
        chime.until(lambda: chime.idle() and "notice" in chime.kinds())
        assert _answer_rows(chime) == [(CUT, (Verb.COPY, Verb.CONTINUE, Verb.REGENERATE))]
        view = chime.window.transcript
        at = chime.kinds().index("assistant")

        def enter() -> None:
            view.setFocus()
            view.setCurrentIndex(chime.window.transcript_model.index(at))
            chime.qtbot.keyClick(view, Qt.Key.Key_Return)

        chime.inside(enter)
        chime.until(lambda: chime.idle() and _answer_rows(chime)[-1][0] == CUT + REST)
        assert chime.transcript_texts() == ["How do I fry an egg?", CUT + REST]
        assert "notice" not in chime.kinds()  # the stopped turn is no longer the answer
        assert chats(server)[-1]["messages"][-1] == {"role": "assistant", "content": CUT}


def test_edit_continue_last_answer_goes_on_from_a_cut_answer_and_says_when_there_is_none(
    qtbot, qapp, loop, tmp_path: Path, clock: FakeClock
) -> None:
    script: list[Reply] = [
        Sse([chunk(CUT), chunk(finish="length")]),
        Sse([chunk(REST), chunk(finish="stop")]),
    ]
    with (
        endpoint(loop, tmp_path, script) as server,
        running(qtbot, qapp, loop, tmp_path, clock) as chime,
    ):
        chime.activate()
        chime.trigger("continue_last")  # nothing answered yet
        assert chime.window.message_bar.text() == "There is no answer to continue yet."
        chime.send("How do I fry an egg?")
        chime.until(lambda: _answer_rows(chime) and _answer_rows(chime)[-1][0] == CUT)
        control_alt = Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.AltModifier
        key(chime, Qt.Key.Key_C, control_alt)
        chime.until(lambda: chime.idle() and _answer_rows(chime)[-1][0] == CUT + REST)
        assert chats(server)[-1]["messages"][-1] == {"role": "assistant", "content": CUT}
        chime.window.message_bar.dismiss()
        chime.trigger("continue_last")  # whole now: said, and nothing is sent
        whole = "This answer was not cut off: there is nothing to continue."
        assert chime.window.message_bar.text() == whole
        assert len(chats(server)) == 2
