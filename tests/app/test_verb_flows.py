"""The edges of the per-session choices, attachments and search flows in the real window: files
that cannot be attached and why, a log that refuses a choice, a search typed while another runs,
what state.json keeps of the recent models, and providers that are replaced or closed."""

from __future__ import annotations

import functools
import json
import logging
import threading
from pathlib import Path
from typing import Any

import pytest

from app.attach_flow import read_file
from app.engine import EngineParts
from app.providers import close_provider
from app.state import STATE_FILE, AppState, read_state, write_state
from core.errors import SessionReadOnlyError
from core.events import SessionModel
from core.llm.offline import OfflineAssistant
from core.session.attachments import IMAGE_LIMIT
from core.session.refusal import Refused
from tests.app.verb_files import chips, write_note, write_picture
from tests.app.window import Opener, RealApp, running
from tests.fakes import FakeClock
from ui.model_picker import ENDPOINT, OFFLINE, ModelOption
from ui.session_settings import SessionSettings


@pytest.fixture
def open_app(qtbot, qapp, loop, tmp_path: Path, clock: FakeClock) -> Opener:
    return functools.partial(running, qtbot, qapp, loop, tmp_path, clock)


def settle(chime: RealApp) -> None:
    chime.until(lambda: chime.tasks.pending == 0)


def test_a_folder_a_missing_file_and_a_too_big_one_are_refused_before_reading(
    tmp_path: Path,
) -> None:
    assert read_file(tmp_path) == Refused(
        f"“{tmp_path.name}” is a folder: choose the files in it instead."
    )
    missing = read_file(tmp_path / "gone.txt")
    assert missing == Refused("“gone.txt” could not be read (No such file or directory).")
    huge = tmp_path / "huge.bin"
    with huge.open("wb") as file:
        file.truncate(IMAGE_LIMIT + 1)  # sparse: its size says it all, nothing is read
    refused = read_file(huge)
    assert isinstance(refused, Refused)
    assert refused.reason.startswith("“huge.bin” is 5.0 MB: attachments are at most")
    fine = tmp_path / "fine.txt"
    fine.write_text("ok", encoding="utf-8")
    assert read_file(fine) == b"ok"


def test_the_same_file_twice_is_one_chip_and_a_folder_dropped_says_why(
    open_app: Opener, tmp_path: Path
) -> None:
    note = write_note(tmp_path)
    with open_app() as chime:
        chime.answers.files += [[note, note], [], [tmp_path]]
        chime.trigger("attach_files")
        settle(chime)
        assert chips(chime) == ["note.txt"]
        chime.trigger("attach_files")  # cancelled: nothing changes
        settle(chime)
        assert chips(chime) == ["note.txt"]
        chime.inside(lambda: chime.window.composer.files_offered.emit([str(tmp_path)]))
        settle(chime)
        assert chime.window.message_bar.text() == (
            f"“{tmp_path.name}” is a folder: choose the files in it instead."
        )
        assert chips(chime) == ["note.txt"]


def test_files_read_while_another_session_is_shown_wait_in_theirs(
    open_app: Opener, tmp_path: Path
) -> None:
    note = write_note(tmp_path)
    with open_app() as chime:
        first = chime.controller.current_session()
        assert first is not None
        chime.send("hello")
        chime.trigger("new_session")
        chime.until(lambda: chime.controller.current != first.id)
        chime.run(chime.started.verbs.attach.add_paths(first, [note]))  # type: ignore[union-attr]
        assert chips(chime) == []  # not shown on the other session
        assert [f.name for f in first.attachments] == ["note.txt"]


def test_an_image_waiting_when_the_offline_assistant_is_chosen_is_not_sent(
    open_app: Opener, tmp_path: Path
) -> None:
    picture = tmp_path / "photo.png"
    write_picture(picture, 4)
    with open_app() as chime:
        opened = chime.controller.current_session()
        assert opened is not None
        chime.controller.set_provider(lambda: _Answerless())  # a model that reads images
        chime.answers.files.append([picture])
        chime.trigger("attach_files")
        settle(chime)
        assert chips(chime) == ["photo.png"]
        chime.inside(lambda: chime.started.verbs.choices.choose(ModelOption(OFFLINE)))  # type: ignore[union-attr]
        chime.window.composer.editor.setPlainText("what is this?")
        chime.inside(chime.window.composer.send_button.click)
        settle(chime)
        assert chime.window.message_bar.text().startswith(
            "The offline assistant cannot read images"
        )
        assert chime.window.composer.text() == "what is this?"  # nothing is lost
        assert chips(chime) == ["photo.png"]
        assert chime.kinds() == []


class _Answerless:
    """A provider that is not the offline assistant (it is never asked in these tests)."""

    @property
    def info(self) -> Any:
        from core.llm.messages import ModelInfo

        return ModelInfo("scripted", "reads-images")

    def stream(self, request: Any) -> Any:  # pragma: no cover -- never asked
        raise AssertionError("not asked")


def test_a_log_that_refuses_a_choice_or_instructions_says_so_in_the_window(
    open_app: Opener, monkeypatch: pytest.MonkeyPatch
) -> None:
    with open_app() as chime:
        opened = chime.controller.current_session()
        assert opened is not None
        assert opened.agent is not None

        def refused(*_args: object) -> None:
            raise SessionReadOnlyError("The session is open in another Chime window.")

        monkeypatch.setattr(opened.agent, "choose_model", refused)
        monkeypatch.setattr(opened.agent, "set_instructions", refused)
        flows = chime.started.verbs
        assert flows is not None
        chime.inside(lambda: flows.choices.choose(ModelOption(ENDPOINT, "big")))
        assert chime.window.message_bar.text() == (
            "The choice could not be recorded: The session is open in another Chime window."
        )
        chime.answers.session_settings_given.append(SessionSettings("Be brief.", None))
        chime.trigger("session_instructions")
        assert chime.window.message_bar.text().startswith("The instructions could not be recorded")
        chime.answers.session_settings_given.append(None)  # cancelled: nothing is recorded
        chime.trigger("session_instructions")
        assert opened.session.choices().instructions == ""


def test_back_to_the_app_setting_keeps_the_temperature(open_app: Opener) -> None:
    with open_app() as chime:
        flows = chime.started.verbs
        assert flows is not None
        chime.answers.session_settings_given.append(SessionSettings("", 0.5))
        chime.trigger("session_instructions")
        chime.inside(lambda: flows.choices.choose(ModelOption(OFFLINE)))
        chime.inside(lambda: flows.choices.choose(None))
        opened = chime.controller.current_session()
        assert opened is not None
        assert opened.session.choices().model == SessionModel(None, None, 0.5)
        assert chime.window.composer.tools.picker.text() == "Offline assistant"  # the setting


def test_a_search_typed_while_one_runs_is_run_next_and_a_blank_one_clears(
    open_app: Opener, monkeypatch: pytest.MonkeyPatch
) -> None:
    with open_app() as chime:
        chime.send("pack the guidebook")
        search = chime.started.verbs.search  # type: ignore[union-attr]
        chime.inside(lambda: (search.search("guide"), search.search("pack")))
        chime.until(lambda: not search.busy)
        assert search.searches == 1  # typed before the search began: only the newest text
        entered, release = threading.Event(), threading.Event()
        searched = search._search

        def held(ids: list[str], query: str) -> Any:
            entered.set()
            release.wait(10)
            return searched(ids, query)

        monkeypatch.setattr(search, "_search", held)
        chime.inside(lambda: search.search("guide"))
        chime.until(entered.is_set)  # the worker thread is searching
        chime.inside(lambda: search.search("nothing-like-it"))
        release.set()
        chime.until(lambda: not search.busy)
        assert search.searches == 3  # then the text typed meanwhile
        chime.window.sessions.filter.setText("nothing-like-it")
        assert chime.sidebar() == []
        chime.inside(lambda: search.search("  "))
        assert search.searches == 3


def test_an_index_of_a_session_that_went_away_is_not_refreshed(
    open_app: Opener, caplog: pytest.LogCaptureFixture
) -> None:
    with open_app() as chime, caplog.at_level(logging.INFO):
        search = chime.started.verbs.search  # type: ignore[union-attr]
        chime.inside(lambda: search.index_closed("no-such-session"))
        settle(chime)
        assert "search index of no-such-session not refreshed" in caplog.text


def test_state_keeps_a_few_recent_models_and_drops_malformed_ones(tmp_path: Path) -> None:
    recent = tuple((ENDPOINT, f"m{n}") for n in range(9))
    write_state(tmp_path, AppState(("a",), "a", recent_models=((OFFLINE, None), *recent)))
    assert read_state(tmp_path).recent_models == ((OFFLINE, None), *recent[:5])
    raw = json.loads((tmp_path / STATE_FILE).read_text(encoding="utf-8"))
    raw["recentModels"] = [{"provider": ENDPOINT, "model": 3}, "x", {"provider": ENDPOINT}]
    (tmp_path / STATE_FILE).write_text(json.dumps(raw), encoding="utf-8")
    assert read_state(tmp_path).recent_models == ((ENDPOINT, None),)
    raw["recentModels"] = {"not": "a list"}
    (tmp_path / STATE_FILE).write_text(json.dumps(raw), encoding="utf-8")
    assert read_state(tmp_path).recent_models == ()


def test_a_session_without_a_choice_of_its_own_gets_the_settings_provider(
    clock: FakeClock,
) -> None:
    offline = OfflineAssistant(clock)
    parts = EngineParts(clock, lambda: None, lambda: "id", "", lambda: offline)
    assert parts.provider_for(None) is offline
    assert parts.provider_for(SessionModel("offline", None, None)) is offline  # no chooser given


class _Closing:
    def __init__(self, fails: bool) -> None:
        self.fails = fails
        self.closed = False

    async def aclose(self) -> None:
        self.closed = True
        if self.fails:
            raise OSError("the connection broke")


def test_a_replaced_provider_is_closed_once_idle_and_a_failing_close_is_only_logged(
    open_app: Opener, caplog: pytest.LogCaptureFixture, clock: FakeClock
) -> None:
    old, broken = _Closing(fails=False), _Closing(fails=True)
    with open_app() as chime:
        opened = chime.controller.current_session()
        assert opened is not None
        assert opened.host is not None
        opened.host.set_provider(old)  # type: ignore[arg-type]
        chime.inside(lambda: opened.set_provider(OfflineAssistant(clock)))
        chime.until(lambda: old.closed)
        chime.run(close_provider(broken))  # type: ignore[arg-type]
        assert broken.closed
        assert "closing the model provider failed" in caplog.text
