"""Titles people can tell apart, in the real window: the whole first line (the list elides it, the
tooltip has it all), renaming in place in the list (F2, double-click; Enter commits, Esc
cancels), a fork that says so, and a short title the language model writes after the first
exchange (a loopback server stands for it; never for the offline assistant, not when the setting
is off, and a failure leaves the automatic title)."""

from __future__ import annotations

import asyncio
import functools
import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QLineEdit

from app import title_flow
from app.settings import SETTINGS_FILE
from app.title_flow import TITLE_PROMPT, clean_title
from core.events import (
    AssistantMessage,
    Entry,
    ModelRef,
    SessionTitle,
    TurnEnd,
    TurnStart,
    UserMessage,
    UserSource,
)
from core.llm.messages import Finish
from tests.app.harness import run_loop
from tests.app.test_session_verbs import answer, chats, endpoint
from tests.app.window import Opener, RealApp, running, wide
from tests.core.llm.loopback import Json, Reply, error_body
from tests.fakes import FakeClock
from ui.session_delegate import elided_title
from ui.session_list import SessionListItem

FIRST = "Help me plan the vegetable garden for next spring, with tomatoes and beans"


@pytest.fixture
def open_app(qtbot, qapp, loop, tmp_path: Path, clock: FakeClock) -> Opener:
    return functools.partial(running, qtbot, qapp, loop, tmp_path, clock)


def editor(chime: RealApp) -> QLineEdit:
    """The editor open on the list (one closed before may wait for its deletion)."""
    editors = chime.window.sessions.list.findChildren(QLineEdit, "session-title-editor")
    shown = [e for e in editors if e.isVisible()]
    assert len(shown) == 1
    return shown[0]


def key(chime: RealApp, widget: Any, which: Qt.Key) -> None:
    chime.inside(lambda: chime.qtbot.keyClick(widget, which, Qt.KeyboardModifier.NoModifier))


def titles_in_log(folder: Path) -> list[dict[str, Any]]:
    found = []
    for log in folder.glob("sessions/*/*.jsonl"):
        for line in log.read_text(encoding="utf-8").splitlines():
            envelope = json.loads(line)
            if envelope.get("type") == "session/title":
                found.append(envelope["data"])
    return found


def test_the_title_is_the_whole_first_line_and_the_tooltip_has_it(open_app: Opener) -> None:
    with open_app() as chime:
        wide(chime)
        chime.send(FIRST + "\nand a second line")
        sid = chime.controller.current
        assert chime.sidebar() == [(sid, FIRST)]
        panel = chime.window.sessions
        index = panel.proxy.index(1, 0)
        assert index.data(Qt.ItemDataRole.ToolTipRole) == FIRST
        assert chime.window.windowTitle() == f"{FIRST} — Chime"


def test_rename_in_place_with_f2_and_double_click(open_app: Opener, tmp_path: Path) -> None:
    with open_app() as chime:
        wide(chime)
        chime.send("first conversation")
        sid = chime.controller.current
        chime.inside(lambda: chime.qtbot.keyClick(chime.window, Qt.Key.Key_F2))
        edit = editor(chime)
        assert edit.text() == "first conversation"
        assert edit.hasSelectedText()  # typing replaces the old title
        edit.setText("Groceries")
        key(chime, edit, Qt.Key.Key_Return)
        chime.until(lambda: chime.sidebar() == [(sid, "Groceries")])
        assert chime.window.windowTitle() == "Groceries — Chime"
        assert chime.answers.titles == []  # no dialog was asked
        chime.inside(lambda: chime.qtbot.keyClick(chime.window, Qt.Key.Key_F2))
        edit = editor(chime)
        edit.setText("Not this")
        key(chime, edit, Qt.Key.Key_Escape)  # cancelled
        list_view = chime.window.sessions.list
        row = list_view.visualRect(chime.window.sessions.proxy.index(1, 0))
        viewport, at = list_view.viewport(), row.center()
        left = Qt.MouseButton.LeftButton
        chime.inside(lambda: chime.qtbot.mouseClick(viewport, left, pos=at))  # as a double-click
        chime.inside(lambda: chime.qtbot.mouseDClick(viewport, left, pos=at))  # begins
        edit = editor(chime)
        assert edit.text() == "Groceries"  # Esc left the title as it was
        edit.setText("Weekly shop")
        key(chime, edit, Qt.Key.Key_Enter)
        chime.until(lambda: chime.sidebar() == [(sid, "Weekly shop")])
    assert titles_in_log(tmp_path) == [{"title": "Groceries"}, {"title": "Weekly shop"}]


def test_a_fork_s_title_says_so_even_when_the_list_elides_it(open_app: Opener) -> None:
    with open_app() as chime:
        wide(chime)
        chime.send(FIRST)
        chime.trigger("fork_session")
        chime.until(lambda: len(chime.sidebar()) == 2)
        titles = sorted(title for _sid, title in chime.sidebar())
        assert titles == [FIRST, f"{FIRST} (fork)"]
        fork = next(
            i
            for i in map(chime.window.sessions.model.item_of, chime.controller.open)
            if i and i.fork
        )
        narrow = elided_title(fork, QFont(), QRect(0, 0, 160, 20))
        assert narrow.endswith("… (fork)")
        original = SessionListItem("x", FIRST, fork.last_activity)
        assert not elided_title(original, QFont(), QRect(0, 0, 160, 20)).endswith("(fork)")


@pytest.mark.slow  # HTTP round trips on the loopback interface
def test_the_model_titles_the_conversation_after_its_first_answer(
    qtbot, qapp, loop, tmp_path: Path, clock: FakeClock
) -> None:
    script: list[Reply] = [
        answer("Plant tomatoes in May."),
        answer('"Spring garden plan."'),
        answer("Beans in June."),
    ]
    with (
        endpoint(loop, tmp_path, script, titles=True) as server,
        running(qtbot, qapp, loop, tmp_path, clock) as chime,
    ):
        chime.send(FIRST)
        sid = chime.controller.current
        chime.until(lambda: chime.sidebar() == [(sid, "Spring garden plan")])
        asked = chats(server)[-1]
        assert asked["messages"][0] == {"role": "system", "content": TITLE_PROMPT}
        assert FIRST in asked["messages"][-1]["content"]
        assert "Plant tomatoes in May." in asked["messages"][-1]["content"]
        assert "tools" not in asked
        chime.send("and the beans?")  # only after the first exchange
        assert len(chats(server)) == 3
        chime.inside(lambda: chime.controller.rename("My garden"))  # a person's title wins
        chime.until(lambda: chime.sidebar() == [(sid, "My garden")])
    assert titles_in_log(tmp_path) == [
        {"title": "Spring garden plan", "by": "model"},
        {"title": "My garden"},
    ]


@pytest.mark.slow
def test_no_model_title_when_it_fails_or_the_setting_is_off(
    qtbot, qapp, loop, tmp_path: Path, clock: FakeClock
) -> None:
    script: list[Reply] = [answer("Fine."), Json(400, error_body("no titles here")), answer("Ok.")]
    with endpoint(loop, tmp_path, script, titles=True) as server:
        with running(qtbot, qapp, loop, tmp_path, clock) as chime:
            chime.send("first words of the first")
            chime.until(lambda: len(chats(server)) == 2)
            chime.run(chime.controller.new_session())
            assert titles_in_log(tmp_path) == []  # the failure left the automatic title
            assert sorted(t for _s, t in chime.sidebar()) == [
                "New session",
                "first words of the first",
            ]
        settings = json.loads((tmp_path / SETTINGS_FILE).read_text(encoding="utf-8"))
        settings["model_titles"] = False
        (tmp_path / SETTINGS_FILE).write_text(json.dumps(settings), encoding="utf-8")
        with running(qtbot, qapp, loop, tmp_path, clock) as chime:
            chime.send("a second conversation")
            assert len(chats(server)) == 3  # the answer only
            assert titles_in_log(tmp_path) == []


def test_the_offline_assistant_never_titles(open_app: Opener, tmp_path: Path) -> None:
    with open_app() as chime:
        chime.send("remind me in 10 minutes to stretch")
        chime.send("thanks")
        assert titles_in_log(tmp_path) == []


def test_a_model_s_answer_is_cleaned_into_a_title() -> None:
    assert clean_title('Title: "Garden plan."') == "Garden plan"
    assert clean_title("\n\n  **Tax   return**  \nwith more") == "Tax return"
    assert clean_title("“Reise nach Rom”") == "Reise nach Rom"
    assert clean_title('"."') is None
    assert clean_title("") is None
    assert clean_title("x" * 200) == "x" * 60


class Hanging:
    """A provider whose answer never comes (the title's request times out)."""

    info = None

    async def stream(self, request: object) -> Any:
        await asyncio.Event().wait()
        yield request


class Answering:
    def __init__(self, text: str) -> None:
        self.text = text
        self.requests: list[Any] = []

    async def stream(self, request: object) -> Any:
        self.requests.append(request)
        yield Finish(self.text, (), "stop")


def exchange() -> list[Entry]:
    return [
        Entry(0, "t", UserMessage("m", "Plan the week", UserSource(None))),
        Entry(1, "t", TurnStart(1, 0)),
        Entry(2, "t", AssistantMessage("a", "Monday: gym.", (), ModelRef("p", "m"), "stop")),
        Entry(3, "t", TurnEnd(1, "completed")),
    ]


def fake_open(provider: Any, entries: list[Entry], *, named: bool = False) -> Any:
    recorded: list[Any] = []
    session = SimpleNamespace(
        entries=entries, read_only=False, titled_by_person=named, append_event=recorded.append
    )
    return SimpleNamespace(
        id="s", agent=SimpleNamespace(provider=provider), session=session
    ), recorded


QUESTION = ("Plan the week", "Monday: gym.")


def test_a_title_request_that_hangs_or_comes_too_late_records_nothing(loop, monkeypatch) -> None:
    monkeypatch.setattr(title_flow, "TITLE_SECONDS", 0.01)
    opened, recorded = fake_open(Hanging(), exchange())
    run_loop(loop, title_flow.give_title(opened, QUESTION))
    assert recorded == []
    answering = Answering("Week plan")
    opened, recorded = fake_open(answering, exchange(), named=True)  # renamed meanwhile
    run_loop(loop, title_flow.give_title(opened, QUESTION))
    assert recorded == []
    assert len(answering.requests) == 1
    opened, recorded = fake_open(answering, exchange())
    run_loop(loop, title_flow.give_title(opened, QUESTION))
    assert recorded == [SessionTitle("Week plan", by_model=True)]


def test_the_exchange_titled_is_the_first_that_completed() -> None:
    entries = exchange()
    assert title_flow.first_exchange(entries, 3) == QUESTION
    failed_first = [
        Entry(0, "t", UserMessage("m", "Plan the week", UserSource(None))),
        Entry(1, "t", TurnStart(1, 0)),
        Entry(2, "t", TurnEnd(1, "failed")),
        Entry(3, "t", UserMessage("n", "Plan it again", UserSource(None))),
        Entry(4, "t", TurnStart(2, 3)),
        Entry(5, "t", AssistantMessage("a", "Tuesday: swim.", (), ModelRef("p", "m"), "stop")),
        Entry(6, "t", TurnEnd(2, "completed")),
    ]
    assert title_flow.first_exchange(failed_first, 6) == ("Plan it again", "Tuesday: swim.")
    later = [*entries, *[Entry(e.seq + 4, "t", e.event) for e in failed_first[3:]]]
    assert title_flow.first_exchange(later, 10) is None  # the first exchange was titled already
    no_answer = [*entries[:2], Entry(2, "t", TurnEnd(1, "completed"))]
    assert title_flow.first_exchange(no_answer, 2) is None
