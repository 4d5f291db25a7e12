"""Each conversation keeps its own unsent message: switching conversations never carries one
conversation's draft into another, Enter never sends it to the wrong one, and drafts survive a
restart; what was typed before the engine ran stays in the first conversation shown."""

from __future__ import annotations

import functools
from pathlib import Path

import pytest

from app.state import read_state
from tests.app.window import Opener, RealApp, running
from tests.fakes import FakeClock


@pytest.fixture
def open_app(qtbot, qapp, loop, tmp_path: Path, clock: FakeClock) -> Opener:
    return functools.partial(running, qtbot, qapp, loop, tmp_path, clock)


def choose(chime: RealApp, session_id: str) -> None:
    chime.inside(lambda: chime.window.sessions.session_chosen.emit(session_id))
    chime.until(lambda: chime.controller.current == session_id)


def test_a_draft_stays_with_its_conversation(open_app: Opener) -> None:
    with open_app() as chime:
        first = chime.controller.current
        assert first is not None
        chime.send("hello")
        chime.run(chime.controller.new_session())
        second = chime.controller.current
        assert second is not None
        chime.window.composer.editor.setPlainText("half a thought for the second")
        choose(chime, first)
        assert chime.window.draft() == ""  # the second's words did not follow
        chime.window.composer.editor.setPlainText("and one for the first")
        choose(chime, second)
        assert chime.window.draft() == "half a thought for the second"
        choose(chime, first)
        assert chime.window.draft() == "and one for the first"
        texts = chime.transcript_texts()
        chime.inside(chime.window.composer.send_button.click)  # Enter sends to this one only
        chime.until(lambda: chime.idle() and len(chime.transcript_texts()) > len(texts))
        assert "and one for the first" in "\n".join(chime.transcript_texts())
        choose(chime, second)
        assert chime.window.draft() == "half a thought for the second"


def test_drafts_survive_a_restart(open_app: Opener, tmp_path: Path) -> None:
    with open_app() as chime:
        first = chime.controller.current
        assert first is not None
        chime.send("hello")
        chime.window.composer.editor.setPlainText("left in the first")
        chime.run(chime.controller.new_session())
        second = chime.controller.current
        chime.window.composer.editor.setPlainText("left in the second")
    assert dict(read_state(tmp_path).drafts) == {
        first: "left in the first",
        second: "left in the second",
    }
    with open_app() as again:
        assert again.controller.current == second
        assert again.window.draft() == "left in the second"
        choose(again, first)
        assert again.window.draft() == "left in the first"


def test_words_typed_before_the_engine_win_over_a_kept_draft(open_app: Opener) -> None:
    with open_app() as chime:
        chime.send("hello")
        chime.window.composer.editor.setPlainText("an old draft")
    with open_app(start=False) as again:
        again.window.composer.editor.setPlainText("typed right after the window appeared")
        again.run(again.chime.start())
        assert again.window.draft() == "typed right after the window appeared"
