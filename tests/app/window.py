"""The real ``app.main.Application`` in-process for tests of its menus and shortcuts: the real
store in a tmp folder, the offline assistant by default, a fake clock, a key file (no keyring) and
scripted answers to the rename and export questions. Every action is triggered inside the running
qasync loop, as Qt delivers it in the app."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
from collections.abc import Callable, Coroutine, Iterator
from pathlib import Path
from typing import Any

from PySide6.QtCore import QLocale, Qt
from PySide6.QtGui import QFont, QPalette
from PySide6.QtWidgets import QApplication, QWidget

from app.actions_wiring import Questions
from app.composition import Started
from app.controller import AppController
from app.language import remove_language
from app.main import FRAMED_AFTER_MS, Application
from app.qtasync import TaskRunner
from app.settings import KeyStore
from app.settings_flow import SettingsFlow
from core.prompts import SavedPrompt
from tests.app.harness import run_loop
from tests.fakes import FakeClock
from ui.dialogs import LeaveAnswer, LeaveWarning
from ui.session_settings import SessionSettings

ZONE = "Europe/Berlin"
WAIT_S = 10.0


class Answers:
    """What the user answers to "Rename session" and "Export session" (None: cancelled), and
    what those questions suggested; to the close/quit/delete warning (``leaves``: None cancels;
    with none scripted the user goes ahead), and the warnings shown."""

    def __init__(self) -> None:
        self.titles: list[str | None] = []
        self.paths: list[Path | None] = []
        self.suggested: list[tuple[Path, str]] = []
        self.opened: list[str] = []
        """Links the user confirmed (opened instead of a real browser)."""
        self.leaves: list[LeaveAnswer | None] = []
        self.warnings: list[LeaveWarning] = []
        self.lose: list[bool] = []
        """Answers to "quit and lose what could not be saved?" (True: quit)."""
        self.asked: list[str] = []
        self.session_settings_given: list[SessionSettings | None] = []
        """What the instructions dialog answers (None: cancelled), one per visit."""
        self.session_settings_shown: list[SessionSettings] = []
        self.session_servers_offered: list[tuple[str, ...]] = []
        """The configured MCP servers each visit offered."""
        self.prompts_offered: list[tuple[SavedPrompt, ...]] = []
        """The saved prompts the instructions dialog offered, one per visit."""
        self.files: list[list[Path]] = []
        """What the paperclip's file dialog answers ([]: cancelled), one per visit."""
        self.restarts: list[bool] = []
        """Answers to "Restart Chime?" after another language was chosen (True: restart now)."""
        self.restart_languages: list[str] = []
        """The language each "Restart Chime?" named."""
        self.set_reminders: list[bool] = []
        """Answers to the safety net's "Set this reminder?" (True: set it)."""
        self.offered: list[tuple[str, str]] = []
        """What each "Set this reminder?" showed: (the reminder's text, when it comes)."""
        self.import_paths: list[Path | None] = []
        """What the import's file question answers (None: cancelled), one per visit."""
        self.opened_files: list[tuple[Path, bytes]] = []
        """The attachments' copies handed to the system's program, with their bytes then."""
        self.open_results: list[bool] = []
        """Whether each of those opened (none scripted: it opened)."""
        self.asked_inside_a_task: list[bool] = []
        """Whether each "lose them?" question was asked inside an asyncio task step: a real
        modal dialog's nested event loop would then starve every other task."""

    def session_settings(
        self,
        _parent: QWidget,
        current: SessionSettings,
        prompts: tuple[SavedPrompt, ...] = (),
        available: tuple[str, ...] = (),
    ) -> SessionSettings | None:
        self.session_servers_offered.append(available)
        self.session_settings_shown.append(current)
        self.prompts_offered.append(prompts)
        return self.session_settings_given.pop(0)

    def open_file(self, path: Path) -> bool:
        self.opened_files.append((path, path.read_bytes()))
        return self.open_results.pop(0) if self.open_results else True

    def attachment_paths(self, _parent: QWidget) -> list[Path]:
        return self.files.pop(0)

    def leave(self, _parent: QWidget, warning: LeaveWarning) -> LeaveAnswer | None:
        self.warnings.append(warning)
        return self.leaves.pop(0) if self.leaves else LeaveAnswer(dont_ask_again=False)

    def title(self, _parent: QWidget, _current: str) -> str | None:
        return self.titles.pop(0)

    def export_path(self, _parent: QWidget, suggested: Path, kind: str) -> Path | None:
        self.suggested.append((suggested, kind))
        return self.paths.pop(0)

    def import_path(self, _parent: QWidget) -> Path | None:
        return self.import_paths.pop(0)

    def restart_for_language(self, _parent: QWidget, language: str) -> bool:
        self.restart_languages.append(language)
        return self.restarts.pop(0)

    def set_reminder(self, _parent: QWidget, prompt: str, when: str) -> bool:
        self.offered.append((prompt, when))
        return self.set_reminders.pop(0)

    def lose_unsaved(self, _parent: QWidget, question: str) -> bool:
        self.asked.append(question)
        self.asked_inside_a_task.append(asyncio.current_task() is not None)
        return self.lose.pop(0)


class RealApp:
    """``Application`` over ``folder``, started; ``close()`` quits it and undoes its global
    effects (the application's palette, font, colour scheme and signal connections)."""

    def __init__(
        self,
        qtbot: Any,
        qapp: QApplication,
        loop: Any,
        folder: Path,
        clock: FakeClock,
        *,
        session_arg: str | None = None,
        start: bool = True,
        system_locale: QLocale | None = None,
        zone_source: Callable[[], str | None] = lambda: ZONE,
        **seams: Any,
    ) -> None:
        self.qtbot = qtbot
        self.qapp = qapp
        self.loop = loop
        self.clock = clock
        self.answers = Answers()
        self._saved = (
            QPalette(qapp.palette()),
            QFont(qapp.font()),
            qapp.styleHints().colorScheme(),
        )
        counter = itertools.count(1)
        seams.setdefault("notifier", lambda: None)  # never the machine's own notification service
        self.chime = Application(
            qapp,
            folder,
            session_arg,
            clock=clock,
            zone_source=zone_source,
            new_id=lambda: f"id{next(counter)}",
            keys=KeyStore(folder / "config", use_keyring=False),
            questions=Questions(
                self.answers.title,
                self.answers.export_path,
                self.answers.opened.append,
                self.answers.leave,
                self.answers.lose_unsaved,
                self.answers.session_settings,
                self.answers.attachment_paths,
                self.answers.restart_for_language,
                self.answers.import_path,
                self.answers.set_reminder,
                self.answers.open_file,
            ),
            system_locale=system_locale or QLocale(QLocale.Language.English),
            **seams,
        )
        self.window = self.chime.window  # not given to qtbot: closing it would ask to quit
        self.chime.show_window()
        if start:
            self.run(self.chime.start())

    @property
    def started(self) -> Started:
        assert self.chime.started is not None
        return self.chime.started

    @property
    def controller(self) -> AppController:
        return self.started.controller

    @property
    def settings_flow(self) -> SettingsFlow:
        return self.started.settings_flow

    @property
    def tasks(self) -> TaskRunner:
        return self.started.tasks

    def run(self, coro: Coroutine[Any, Any, Any]) -> Any:
        """Run the loop until ``coro`` is done (``tests.app.harness.run_loop``)."""
        return run_loop(self.loop, coro)

    def until(self, condition: Callable[[], bool]) -> None:
        """Run the loop until ``condition()`` holds (disk work runs in threads, so poll)."""

        async def wait() -> None:
            while not condition():  # noqa: ASYNC110 -- polls state changed by disk threads and Qt
                await asyncio.sleep(0.002)

        self.run(wait())

    def inside(self, act: Callable[[], object]) -> None:
        """Do ``act()`` (a trigger, a key press) inside the running loop, as Qt delivers input."""

        async def step() -> None:
            act()

        self.run(step())

    def trigger(self, name: str) -> None:
        self.inside(self.window.window_actions.action(name).trigger)

    def activate(self) -> None:
        """Make the window active so its shortcuts reach their actions."""
        handle = self.window.windowHandle()
        self.until(handle.isExposed)  # inside the loop: qtbot's waits step tasks outside it
        self.window.activateWindow()
        active = Qt.ApplicationState.ApplicationActive
        self.until(lambda: self.window.isActiveWindow() and self.qapp.applicationState() == active)

    def transcript_texts(self) -> list[str]:
        model = self.window.transcript_model
        return [str(model.index(r).data()) for r in range(model.rowCount())]

    def kinds(self) -> list[str]:
        model = self.window.transcript_model
        return [model.row_at(r).kind for r in range(model.rowCount())]  # type: ignore[union-attr]  # rows exist

    def sidebar(self) -> list[tuple[str, str]]:
        """(id, title) of every visible conversation row, top to bottom (after the filter;
        group headings left out)."""
        proxy = self.window.sessions.proxy
        model = self.window.sessions.model
        rows = []
        for row in range(proxy.rowCount()):
            item = model.item(proxy.mapToSource(proxy.index(row, 0)).row())
            if item is not None:
                rows.append((item.id, item.title))
        return rows

    def idle(self) -> bool:
        opened = self.controller.current_session()
        return (
            opened is not None
            and opened.agent is not None
            and opened.agent.status == "idle"
            and not opened.agent.pending_inputs
        )

    def send(self, text: str) -> None:
        """Type ``text`` into the composer and send it; returns once the turn is over."""
        editor = self.window.composer.editor
        editor.setPlainText(text)
        self.inside(self.window.composer.send_button.click)
        self.until(lambda: self.idle() and self.kinds()[-1:] == ["assistant"])

    def close(self) -> None:
        self.run(self.chime.quit())
        disconnect_application(self.qapp, self.chime)
        remove_language(self.qapp, self.chime.language)
        palette, font, scheme = self._saved
        self.qapp.styleHints().setColorScheme(scheme)
        self.qapp.setPalette(palette)
        self.qapp.setFont(font)


def wide(chime: RealApp) -> None:
    """Make the window wide enough to show the sessions list (the offscreen screen is 800 px
    wide and the sidebar folds below ``ui.window_parts.SIDEBAR_COLLAPSE``), once the app's own
    fitting to the screen after the window is framed (``FRAMED_AFTER_MS``, a real Qt timer) is
    over; then make it active so shortcuts reach their actions."""
    chime.run(asyncio.sleep((FRAMED_AFTER_MS + 50) / 1000))
    chime.window.resize(1200, 800)
    chime.until(chime.window.sessions.list.isVisible)
    chime.activate()


@contextlib.contextmanager
def running(
    qtbot: Any, qapp: QApplication, loop: Any, folder: Path, clock: FakeClock, **options: Any
) -> Iterator[RealApp]:
    """A started ``RealApp``, quit when the block ends.

    Used inside the test body rather than as a fixture: pytest-qt processes Qt events between
    fixture setup, the test and fixture teardown, with no asyncio loop running, and an
    engine task stepped then fails ("no running event loop")."""
    chime = RealApp(qtbot, qapp, loop, folder, clock, **options)
    try:
        yield chime
    finally:
        chime.close()


def disconnect_application(qapp: QApplication, chime: Application) -> None:
    """Undo what ``Application.start`` connected to the test-wide QApplication."""
    if chime.started is not None:
        qapp.applicationStateChanged.disconnect(chime._on_application_state_changed)
        qapp.styleHints().colorSchemeChanged.disconnect(
            chime.started.settings_flow.follow_system_scheme
        )


Opener = Callable[..., contextlib.AbstractContextManager[RealApp]]
"""``open_app(**options)``: ``running(...)`` bound to a test's qtbot, loop, folder and clock."""
