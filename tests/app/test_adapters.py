"""The app's adapters: the owner's Qt timer, the clock-jump watch, settings, key store, state, paths."""

from __future__ import annotations

import os
import stat
from datetime import timedelta
from pathlib import Path

import pytest

from app.owner_timer import MAX_TIMER_MS, ClockJumpWatch, QtWaker
from app.paths import chosen_data_dir, writable_problem
from app.settings import (
    Endpoint,
    KeyStore,
    Offline,
    Settings,
    effective_provider,
    load_settings,
    read_settings,
    save_settings,
)
from app.state import AppState, read_state, read_state_checked, write_state
from app.system import local_zone_name, system_clock
from tests.fakes import FakeClock


def test_an_armed_waker_fires_once_the_clock_reached_its_target(qtbot, clock: FakeClock) -> None:
    waker = QtWaker(clock)
    with qtbot.waitSignal(waker.woke, timeout=1000):
        waker.arm(clock())  # due now: a 0 ms timer
    assert waker.wake_at is None
    assert not waker.is_armed()


def test_a_far_target_is_capped_and_a_cancelled_waker_stays_silent(qtbot, clock: FakeClock) -> None:
    waker = QtWaker(clock)
    waker.arm(clock() + timedelta(days=400))
    assert waker.is_armed()
    assert MAX_TIMER_MS - 1000 <= waker.remaining_ms() <= MAX_TIMER_MS
    waker.cancel()
    assert not waker.is_armed()
    with qtbot.assertNotEmitted(waker.woke, wait=0):
        pass


def test_a_waker_that_fires_early_rearms_instead_of_waking(qtbot, clock: FakeClock) -> None:
    waker = QtWaker(clock)
    target = clock() + timedelta(minutes=5)
    waker.arm(target)
    clock.advance(timedelta(minutes=-10))  # wall-clock rollback: the timer must not wake early
    waker._timer.timeout.emit()  # the capped segment ended
    assert waker.wake_at == target
    assert waker.is_armed()
    clock.advance(timedelta(minutes=15))
    with qtbot.waitSignal(waker.woke, timeout=1000):
        waker.arm(target)


def test_a_wall_clock_jump_is_noticed_and_steady_time_is_not(qtbot, clock: FakeClock) -> None:
    mono = [100.0]
    watch = ClockJumpWatch(clock, lambda: mono[0], interval_ms=60000)
    watch.start()
    with qtbot.assertNotEmitted(watch.jumped):
        clock.advance(timedelta(seconds=15))
        mono[0] += 15
        watch.check()
    with qtbot.waitSignal(watch.jumped, timeout=100):
        clock.advance(timedelta(hours=8))  # asleep: wall time moved, monotonic time did not
        mono[0] += 15
        watch.check()
    watch.stop()


def test_settings_survive_a_save_and_a_bad_file_falls_back_to_defaults(tmp_path: Path) -> None:
    chosen = Settings(
        provider="openai-compatible",
        preset="lmstudio",
        base_url="http://localhost:1234/v1",
        model="qwen",
        theme="dark",
        text_size=14,
    )
    save_settings(tmp_path, chosen)
    assert load_settings(tmp_path) == chosen
    assert stat.S_IMODE(os.stat(tmp_path / "settings.json").st_mode) == 0o600
    assert "api" not in (tmp_path / "settings.json").read_text().lower()
    (tmp_path / "settings.json").write_text("{not json")
    assert load_settings(tmp_path) == Settings()
    assert (tmp_path / "settings.json.bad-1").exists()


def test_a_second_bad_settings_file_is_set_aside_beside_the_first_and_an_unreadable_one_is_ignored(
    tmp_path: Path,
) -> None:
    path = tmp_path / "settings.json"
    for _ in range(2):
        path.write_text('{"theme": "sepia"}')
        assert load_settings(tmp_path) == Settings()
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "settings.json.bad-1",
        "settings.json.bad-2",
    ]
    path.mkdir()  # not a file that can be read
    assert load_settings(tmp_path) == Settings()
    assert path.is_dir()  # not set aside: it was not invalid, only unreadable


@pytest.mark.parametrize(
    ("settings", "answers", "label"),
    [
        (Settings(), Offline(), "Offline assistant"),
        (
            Settings(provider="openai-compatible", base_url="", model="qwen"),
            Offline(),
            "Offline assistant",
        ),
        (
            Settings(provider="openai-compatible", base_url="http://h:1/v1", model=""),
            Endpoint("http://h:1/v1", "", "ollama"),  # the default preset
            "? @ http://h:1/v1",
        ),
        (
            Settings(provider="openai-compatible", base_url="http://h:1/v1", model="qwen"),
            Endpoint("http://h:1/v1", "qwen", "ollama"),
            "qwen @ http://h:1/v1",
        ),
    ],
    ids=["offline", "endpoint-without-url", "endpoint-without-model", "endpoint"],
)
def test_what_answers_is_the_offline_assistant_unless_an_endpoint_has_a_base_url(
    settings: Settings, answers: Offline | Endpoint, label: str
) -> None:
    assert effective_provider(settings) == answers
    assert effective_provider(settings).label() == label


def test_without_a_keyring_the_key_is_a_private_file_and_the_note_says_so(tmp_path: Path) -> None:
    keys = KeyStore(tmp_path / "config", use_keyring=False)
    assert keys.get() == ""
    keys.set("sk-secret")
    assert keys.get() == "sk-secret"
    path = tmp_path / "config" / "api-key"
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert str(path) in keys.note
    keys.set("")
    assert not path.exists()


def test_state_round_trips_and_garbage_means_nothing_open(tmp_path: Path) -> None:
    write_state(tmp_path, AppState(("a", "b"), "b", "Z2VvbQ=="))
    assert read_state(tmp_path) == AppState(("a", "b"), "b", "Z2VvbQ==")
    (tmp_path / "state.json").write_text("[1, 2")
    assert read_state(tmp_path) == AppState()
    (tmp_path / "state.json").write_text('["a", "b"]')  # JSON, but not an object
    assert read_state(tmp_path) == AppState()


def test_the_data_dir_comes_from_the_flag_then_the_environment(tmp_path: Path) -> None:
    flag = chosen_data_dir(str(tmp_path / "flag"), {"CHIME_DATA_DIR": str(tmp_path / "env")})
    env = chosen_data_dir(None, {"CHIME_DATA_DIR": str(tmp_path / "env")})
    assert flag == tmp_path / "flag"
    assert env == tmp_path / "env"
    assert writable_problem(env) is None  # what run() does: it creates the folder
    assert stat.S_IMODE(os.stat(env).st_mode) == 0o700


def test_a_data_folder_under_a_regular_file_is_reported_and_nothing_is_created(
    tmp_path: Path,
) -> None:
    (tmp_path / "plain-file").write_text("not a folder")
    problem = writable_problem(tmp_path / "plain-file" / "data")
    assert isinstance(problem, NotADirectoryError)
    assert [p.name for p in tmp_path.iterdir()] == ["plain-file"]


def test_the_system_clock_is_aware_utc_in_whole_milliseconds() -> None:
    now = system_clock()
    assert now.utcoffset() == timedelta(0)
    assert now.microsecond % 1000 == 0
    zone = local_zone_name()
    assert zone is None or isinstance(zone, str)


def test_an_unknown_system_zone_is_none(monkeypatch: pytest.MonkeyPatch) -> None:
    import tzlocal  # noqa: TID251 -- the test breaks tzlocal to see app.system cope

    def broken() -> str:
        raise tzlocal.utils.ZoneInfoNotFoundError("no zone")  # type: ignore[attr-defined]  # tzlocal re-exports it

    monkeypatch.setattr(tzlocal, "get_localzone_name", broken)
    assert local_zone_name() is None


@pytest.mark.parametrize(
    "value",
    [
        {"theme": "purple"},
        {"text_size": 99},
        {"text_size": True},
        {"provider": "x"},
        {"model": 3},
        {"warn_waiting_reminders": "no"},
        [1],
    ],
    ids=["theme", "size", "bool-size", "provider", "model-type", "warn-type", "not-object"],
)
def test_invalid_settings_values_are_refused(value: object) -> None:
    with pytest.raises(ValueError):  # noqa: PT011 -- each case has its own message
        Settings.from_json(value)


def test_unknown_settings_keys_are_ignored() -> None:
    assert Settings.from_json({"theme": "dark", "future": 1}) == Settings(theme="dark")


def test_an_unexpected_error_is_logged_with_its_traceback_and_shown_in_one_sentence(
    qtbot, tmp_path: Path, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    import logging
    import sys

    from PySide6.QtGui import QIcon
    from PySide6.QtWidgets import QMessageBox

    from app.run_log import LOG_FILE, install_excepthook, setup_logging
    from ui.main_window import MainWindow

    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    monkeypatch.setattr(sys, "excepthook", sys.excepthook)
    window = MainWindow(clock, QIcon())
    qtbot.addWidget(window)
    setup_logging(tmp_path)
    install_excepthook([window])
    try:
        raise RuntimeError("boom in a slot")
    except RuntimeError as error:
        sys.excepthook(type(error), error, error.__traceback__)
    for handler in root.handlers[len(handlers) :]:
        handler.close()
        root.removeHandler(handler)
    root.setLevel(level)
    logged = (tmp_path / LOG_FILE).read_text()
    assert "Traceback" in logged
    assert "boom in a slot" in logged
    boxes = window.findChildren(QMessageBox)
    assert len(boxes) == 1
    assert "Traceback" not in boxes[0].text()
    assert LOG_FILE in boxes[0].text()
    boxes[0].close()


def test_an_interrupt_reaching_the_hook_is_logged_and_shows_no_message(
    qtbot, clock: FakeClock, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    import sys

    from PySide6.QtGui import QIcon
    from PySide6.QtWidgets import QMessageBox

    from app.run_log import install_excepthook
    from ui.main_window import MainWindow

    monkeypatch.setattr(sys, "excepthook", sys.excepthook)
    window = MainWindow(clock, QIcon())
    qtbot.addWidget(window)
    install_excepthook([window])
    sys.excepthook(KeyboardInterrupt, KeyboardInterrupt(), None)  # Ctrl+C: not a crash to show
    assert "unexpected error" in caplog.text
    assert window.findChildren(QMessageBox) == []


@pytest.mark.parametrize("context", [-1, True, "8192", 10_000_001])
def test_a_context_length_that_is_not_a_token_count_is_refused(context: object) -> None:
    with pytest.raises(ValueError, match="context_tokens"):
        Settings.from_json({"context_tokens": context})


def test_test_connection_without_a_model_only_lists_and_asks_for_one() -> None:
    import asyncio

    from app.providers import test_connection
    from tests.core.llm.loopback import LoopbackServer, model_list

    async def scenario() -> tuple[bool, str]:
        async with LoopbackServer([], {"/v1/models": model_list("a")}) as server:
            return await test_connection(Endpoint(server.base_url, ""), "")

    assert asyncio.run(scenario()) == (
        True,
        "Connected: 1 model(s) available. Choose one to test it.",
    )


@pytest.mark.parametrize(
    ("said", "ok", "verdict"),
    [
        (
            '```json\n{"name": "schedule_create", "arguments": {"prompt": "stretch", '
            '"after_seconds": 600}}\n```',
            True,
            "the model writes its tool calls as text, which Chime reads, so reminders work.",
        ),
        ("Sure, I will remind you.", False, "this model does not call tools"),
    ],
)
def test_test_connection_says_what_the_real_probe_saw(said: str, ok: bool, verdict: str) -> None:
    import asyncio

    from app.providers import test_connection
    from tests.core.llm.loopback import Json, LoopbackServer, Sse, chunk, model_list

    stages: list[str] = []
    replies = [Sse([chunk("OK", finish="length")]), Sse([chunk(said), chunk(finish="stop")])]
    routes = {"/v1/models": model_list("qwen"), "/props": Json(404, {}), "/api/": Json(404, {})}

    async def scenario() -> tuple[bool, str, int]:
        async with LoopbackServer(replies, routes) as server:
            answer = await test_connection(
                Endpoint(server.base_url, "qwen", "llamacpp"), "", stages.append
            )
            probe = [r.json() for r in server.received if r.path.endswith("/completions")][-1]
        return *answer, len(probe["tools"])

    passed, message, tools = asyncio.run(scenario())

    assert passed is ok
    assert verdict in message
    assert tools == 3
    assert stages == ["chat", "reading", "answering"]


def test_a_settings_or_state_file_that_cannot_be_read_or_set_aside_is_said_in_a_sentence(
    tmp_path: Path,
) -> None:
    (tmp_path / "settings.json").mkdir()
    (tmp_path / "state.json").mkdir()
    read = read_settings(tmp_path)
    assert read.settings == Settings()
    assert read.problem is not None
    assert read.problem.startswith("settings.json could not be read: ")
    state, problem = read_state_checked(tmp_path)
    assert state == AppState()
    assert problem is not None
    assert problem.startswith("state.json could not be read: ")
    (tmp_path / "settings.json").rmdir()
    for n in range(1, 100):
        (tmp_path / f"settings.json.bad-{n}").write_text("old")
    (tmp_path / "settings.json").write_text("{not json")
    read = read_settings(tmp_path)
    assert read.problem is not None
    assert read.problem.endswith(
        "It was left in place (too many set aside already). The default settings apply."
    )
    assert (tmp_path / "settings.json").read_text() == "{not json"
