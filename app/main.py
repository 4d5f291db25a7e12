"""The composition root: one run of the app, from the window's first paint to the end of quit.

``run()`` is the ``chime`` entry point and ``python -m app``. It builds every object once and
passes it down: the system clock and zone (app.system), the window, and after its first paint the
engine (``app.composition``: the task runner, the session store, the provider from the settings,
the controller and the settings flow, which ``app.actions_wiring`` connects to the window). Its
arguments, signals and restart are ``app.launch``; its log and crash sentence ``app.run_log``.
Nothing imports this module but ``app/__main__.py`` (an import-linter contract).

Unexpected exceptions are logged to a rotating file in the data directory and shown as one short
sentence, never a traceback. A data directory that cannot be written (read-only, no permission, a
path under a file) does not stop the start: logging goes to stderr and the window says why nothing
can be saved (existing sessions open read-only). SIGTERM/SIGINT (logout, terminal), Ctrl+Q and
closing the window all flush every session before exiting. A second start on the same data
folder hands its ``--session`` to the running instance, which raises its window
(``app.single_instance``), and exits. Choosing another language in the settings offers to start
again in it: Chime quits as it always does (everything flushed, the open sessions recorded) and
replaces its process with a new start on the same data folder (``app.launch.restart_command``).
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication, QLocale, Qt, QTimer
from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QApplication

from app import __version__, qt_feature  # first: its import keeps PySide6 from reading sources
from app.appearance import apply_appearance, make_application, set_window_icon
from app.language import install_language, language_for
from app.launch import install_signal_quit, paint_first, parse_args, restart, trace_start
from app.owner_timer import ClockJumpWatch
from app.paths import chosen_data_dir, config_dir, resource, writable_problem
from app.run_log import EarlyRecords, install_excepthook, setup_logging
from app.settings import Endpoint, KeyStore, ReadSettings, effective_provider, read_settings
from app.single_instance import InstanceGuard, hand_over
from app.start_view import TailEntries, read_start_view, write_start_view
from app.state import read_state_checked
from app.system import local_zone_name, monotonic_seconds, system_clock
from app.zone_watch import ZoneWatch, follow_zone
from core.clock import Clock, NewId, ZoneSource
from ui.i18n import LANGUAGES, QT_TRANSLATE_NOOP
from ui.main_window import MainWindow
from ui.screen import SessionAccess, SessionScreen
from ui.window_parts import bring_forward

if TYPE_CHECKING:  # built after the first paint (``Application.start``); imported there
    from app.actions_wiring import Questions
    from app.background import NotifierFactory, TrayFactory
    from app.composition import Started

NO_TRAY = QT_TRANSLATE_NOOP(
    "MainWindow", "This desktop shows no tray icons, so Chime shows its window instead."
)
TRAY_WAIT_S = 10.0
"""How long a background start (at login) waits for the desktop's tray before it shows the window
instead: a panel that holds the tray often starts a few seconds after the programs of the login."""
TRAY_POLL_S = 0.25
FRAMED_AFTER_MS = 150
"""A window manager frames a new window asynchronously; its frame is known by then."""
_log = logging.getLogger("app")


def _uuid_hex() -> str:
    """A new random id (``uuid`` is imported here: it loads ``platform``, which the first paint
    does not need)."""
    import uuid

    return uuid.uuid4().hex


class Application:
    """Everything one run of the app owns; ``quit`` flushes and exits.

    The window is built and shown first; the engine (session store, agents, providers: the
    heavy imports), the task runner, the settings flow and the wiring are composed by ``start``
    right after its first paint, so the window appears at once.
    """

    def __init__(
        self,
        app: QApplication,
        folder: Path,
        session_arg: str | None,
        *,
        clock: Clock = system_clock,
        zone_source: ZoneSource = local_zone_name,
        new_id: NewId = _uuid_hex,
        keys: KeyStore | None = None,
        questions: Questions | None = None,
        settings: ReadSettings | None = None,
        system_locale: QLocale | None = None,
        tray: TrayFactory | None = None,
        notifier: NotifierFactory | None = None,
    ) -> None:
        """The keyword arguments are seams for in-process tests (a fake clock, a key file, scripted
        answers to the rename and export questions); ``run`` uses the defaults and hands in the
        settings it already read (their look is applied before the window is built)."""
        self.app = app
        self.folder = folder
        self.session_arg = session_arg
        read = settings if settings is not None else read_settings(folder)
        self.first_settings = read.settings
        """The settings read at start: the first paint's look and status bar. From ``start`` on,
        ``started.settings_flow`` holds the settings in effect."""
        self._keys = keys
        self.clock = clock
        self.zone_source = zone_source
        self.new_id = new_id
        self.questions = questions
        """None: the real modal dialogs (``app.actions_wiring.Questions``)."""
        self._tray_factory = tray
        self._early_tray: TrayFactory | None = None
        """The tray a background start waited for, handed to the composition once."""
        """Makes the tray icon (None: the system's, where the desktop has a tray)."""
        self._notifier_factory = notifier
        """Makes the notifier (None: the desktop's notification service over D-Bus)."""
        self.system_locale = system_locale
        self.language = install_language(app, self.first_settings.language, system_locale)
        """The translators in effect, installed before the first widget is built (a language
        applies when Chime starts; ``system_locale`` stands in for the desktop's in tests)."""
        self.window = MainWindow(clock, QIcon(str(resource("icons", "bell.svg"))))
        self.window.help.version_of = lambda: __version__  # app/__init__.py: the one source
        self.started: Started | None = None
        self.jumps = ClockJumpWatch(clock, monotonic_seconds, parent=self.window)
        self.zones = ZoneWatch(zone_source, parent=self.window)
        self._quitting = False
        self._starting = False
        self._quit_asked = False
        self._finished = False
        self._state, state_problem = read_state_checked(folder)
        self._problems = " ".join(p for p in (read.problem, state_problem) if p)
        """What could not be used of settings.json and state.json, said once the window is up."""
        self._done: list[Callable[[], None]] = []
        self.background = False
        """Started with ``--background``: the window stays hidden in the tray."""
        self.restart_wanted = False
        """The user chose to start again (in another language): ``run`` does once quit is done."""
        self._language_setting = self.first_settings.language
        """The ``language`` setting last saved: a restart is offered when it changes."""

    def _compose(self) -> Started:
        """The engine and the wiring (``app.composition``), imported and built after the first
        paint."""
        from app.composition import Composition, compose

        return compose(
            Composition(
                self.app,
                self.window,
                self.folder,
                self.first_settings,
                self.keys,
                self.clock,
                self.zone_source,
                self.new_id,
                self._state,
                quit_app=self.quit,
                is_active=self._is_active,
                settings_saved=lambda saved, asks: self._offer_restart(saved.language, asks),
                questions=self.questions,
                make_tray=self._early_tray or self._tray_factory,
                make_notifier=self._notifier_factory,
            )
        )

    def _is_active(self) -> bool:
        return self.app.applicationState() == Qt.ApplicationState.ApplicationActive

    def _offer_restart(self, setting: str, questions: Questions) -> None:
        """Settings were saved: when their language setting changed to a language other than the
        one shown, offer to start again in it (a language applies at start, desktop.md §3).
        After "Later", saving other settings does not ask again."""
        changed, self._language_setting = setting != self._language_setting, setting
        wanted = language_for(setting, self.system_locale)
        if not changed or wanted == self.language.language:
            return
        if questions.restart_for_language(self.window, dict(LANGUAGES)[wanted]):
            self.restart_wanted = True
            assert self.started is not None  # settings are saved only once the engine runs
            self.started.tasks.spawn(self.quit())

    @property
    def keys(self) -> KeyStore:
        """Where the API key lives (its folder is looked up when first needed: platformdirs
        loads after the first paint)."""
        if self._keys is None:
            self._keys = KeyStore(config_dir())
        return self._keys

    def show_window(self, *, background: bool = False) -> None:
        """Show the (still empty) window at once, its saved geometry fitted into the screen; the
        engine is composed by ``start``. ``background`` (``--background``, start at login):
        prepared but not shown; ``start`` shows it only where the desktop has no tray."""
        self.window.placement.restore(self._state.geometry)
        self.window.status.set_provider(effective_provider(self.first_settings).label())
        self.window.composer.hold_sends()  # typed before the engine runs: sent once it does
        self._show_start_view()
        self.background = background
        if background:
            return
        self.window.show()
        self.window.focus_composer()  # typing goes to the message box from the first paint
        self.window.placement.fit()  # once shown; again when the window manager has framed it
        QTimer.singleShot(FRAMED_AFTER_MS, self.window.placement.fit)

    async def _wait_for_tray(self) -> None:
        """A background start where the desktop's tray is not there yet asks again every
        ``TRAY_POLL_S`` for up to ``TRAY_WAIT_S`` (the sessions open after); past that the window is
        shown instead (``start``)."""
        import asyncio  # loaded after the first paint (see ``run``)

        from app.background import system_tray

        make_tray = self._tray_factory or system_tray
        icon = QIcon(str(resource("icons", "chime.svg")))
        loop = asyncio.get_running_loop()
        deadline = loop.time() + TRAY_WAIT_S
        # Qt signals no tray's arrival, so it is asked again
        while (tray := make_tray(icon)) is None and loop.time() < deadline:  # noqa: ASYNC110
            await asyncio.sleep(TRAY_POLL_S)
        self._early_tray = lambda _icon: tray

    def _show_start_view(self) -> None:
        """The sidebar, the current conversation's tail and its reminders as the last quit left
        them (``app.start_view``), so the first paint shows the person's day; the engine's own
        reading replaces them once it runs."""
        from app.organise_flow import wire_organisation

        wire_organisation(self.window.sessions, self.folder, self.zone_source, self.window.notify)
        view = read_start_view(self.folder)
        if view is None:
            return
        self.window.set_sessions(view.sessions, view.current)
        if view.current is None:
            return
        zone = self.zone_source()
        access = SessionAccess(QCoreApplication.translate("Application", "opening…"))
        entries = TailEntries(view.tail, view.count)
        screen = SessionScreen(
            view.title, entries, zone, view.reminders, access, conversation=view.conversation
        )
        self.window.show_session(screen)

    async def start(self) -> None:
        """Compose the engine, reopen the sessions and start watching the clock."""
        state = self._state
        self._starting = True
        try:
            if self.background:
                await self._wait_for_tray()
            started = self.started = self._compose()
            if isinstance(effective_provider(self.first_settings), Endpoint):
                await _load_network_door()
            qt_feature.forget_sources()  # whatever this PySide6 read while the engine loaded
            wanted = [self.session_arg] if self.session_arg else list(state.open)
            current = self.session_arg or state.current
            if started.presence is not None:
                started.presence.start()
            if self.background and (started.presence is None or started.presence.tray is None):
                self.background = False  # no tray to live in: the window is how Chime is reached
                self.window.show()
                self._problems = " ".join(p for p in (self._problems, self.window.tr(NO_TRAY)) if p)
            await started.controller.start(wanted, current)
            await started.controller.refresh_sessions()
            if self._problems:
                self.window.notify(self._problems, 30000)
            self.app.applicationStateChanged.connect(self._on_application_state_changed)
            self.app.styleHints().colorSchemeChanged.connect(
                started.settings_flow.follow_system_scheme
            )
            self.jumps.jumped.connect(started.controller.redrive_all)
            self.jumps.start()
            self.zones.changed.connect(partial(follow_zone, started.controller))
            self.zones.start()
        finally:
            self._starting = False
            self.window.composer.release_sends()
        trace_start(self.window, "engine_ready")
        if self._quit_asked:  # SIGTERM or Ctrl+Q while the sessions were being opened
            await self.quit()

    async def quit(self) -> None:
        """Flush every session, record what was open, and leave the loop. Asked while ``start``
        still opens sessions, it runs once ``start`` has finished (nothing is left half-open)."""
        if self._starting:
            self._quit_asked = True
            return
        if self._quitting:
            return
        self._quitting = True
        self.jumps.stop()
        self.zones.stop()
        if self.started is not None:
            if self.started.verbs is not None:
                await self.started.verbs.search.stop()
            if self.started.presence is not None:
                await self.started.presence.stop()
            view = self.started.controller.listing.start_view()
            await self.started.controller.shutdown(self.window.saved_geometry())
            if self.started.mcp is not None:
                await self.started.mcp.stop()
            import asyncio  # loaded after the first paint (see ``run``)

            await asyncio.to_thread(write_start_view, self.folder, view)
        self.window.allow_close()
        self.window.close()
        self._finished = True
        for finished in self._done:
            finished()

    async def wait_done(self) -> None:
        """Resolves once ``quit`` has flushed everything (at once if it already has)."""
        import asyncio

        if self._finished:
            return
        done = asyncio.Event()
        self._done.append(done.set)
        await done.wait()

    def bring_forward(self, session_id: str | None) -> None:
        """Chime was started again on this data folder (``app.single_instance``): raise the
        window and open the session it asked for (once the engine runs)."""
        bring_forward(self.window)  # minimized, or hidden in the tray
        QApplication.alert(self.window)
        if not session_id:
            return
        if self.started is None:
            self.session_arg = session_id  # ``start`` opens it
        else:
            self.started.tasks.spawn(self.started.controller.open_session(session_id))

    def _on_application_state_changed(self, state: Qt.ApplicationState) -> None:
        if state == Qt.ApplicationState.ApplicationActive and self.started is not None:
            self.started.controller.redrive_all()
            self.started.controller.mark_current_read()


async def _lifetime(chime: Application) -> None:
    """Start up, then wait until quit has flushed everything."""
    try:
        await chime.start()
    except Exception:  # logged, one sentence shown; the window stays up and can quit
        sys.excepthook(*sys.exc_info())
    await chime.wait_done()


async def _load_network_door() -> None:
    """Import the openai SDK (about 500 modules: 0.5-1 s, seconds on a busy machine) in a worker
    thread before the first session takes its provider, so the painted window keeps answering
    meanwhile instead of freezing on the import."""
    import asyncio
    import importlib

    await asyncio.to_thread(importlib.import_module, "core.llm.openai_compat")


def run(argv: Sequence[str] | None = None) -> int:
    """Start Chime; returns the process exit code."""
    args = parse_args(sys.argv[1:] if argv is None else argv)
    folder = chosen_data_dir(args.data_dir)
    writable_problem(folder)  # creates it when it can; AppController.start shows a failure
    early = EarlyRecords()  # the log file opens once the window is painted
    logging.getLogger().addHandler(early)
    logging.getLogger().setLevel(logging.INFO)
    app = make_application(sys.argv[:1])
    app.setApplicationVersion(__version__)  # the About box shows it
    if hand_over(folder, args.session):  # the running Chime of this data folder raised its window
        print(f"Chime is already running for {folder}: its window was brought forward.")
        return 0
    set_window_icon(app)
    settings = read_settings(folder)
    apply_appearance(app, settings.settings)  # before the window is built: it is polished once
    chime = Application(app, folder, args.session, settings=settings)
    install_excepthook([chime.window])
    chime.show_window(background=args.background)
    paint_first(app, chime.window)  # before asyncio, qasync and the engine are imported
    trace_start(chime.window, "first_paint")
    if not setup_logging(folder, early):
        install_excepthook([chime.window], logged_to_file=False)
    guard = InstanceGuard(folder)  # later starts hand over from now on (QtNetwork loads here)
    guard.requested.connect(chime.bring_forward)
    import asyncio

    from app.qtasync import make_event_loop

    loop = make_event_loop(app)
    asyncio.set_event_loop(loop)
    notifier = install_signal_quit(app, lambda: loop.create_task(chime.quit()))
    app.setQuitOnLastWindowClosed(False)
    with loop:
        # One run of the loop from start-up to the end of quit: between two run_until_complete
        # calls Qt could deliver events while no asyncio loop runs, and engine callbacks then
        # fail with "no running event loop".
        loop.run_until_complete(_lifetime(chime))
    notifier.setEnabled(False)
    guard.close()
    if chime.restart_wanted:
        return restart(folder)
    _log.info("Chime exited cleanly")
    return 0
