"""Render Chime's window with a demo session, offscreen, to a PNG (default docs/screenshot.png).

    .venv/bin/python scripts/screenshot.py [--out PATH] [--theme light|dark] [--scene NAME]

Scenes: ``conversation`` (reminders set and one delivered, the default), ``empty`` (first start),
``settings`` (the settings dialog over the window). The demo runs the real engine (session store in
a temporary data directory, offline assistant, reminder owner) on a simulated clock that starts at
2026-08-05 09:58 in Europe/Berlin, so the picture is the same on every run.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import os
import sys
import tempfile
from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtGui import QIcon  # noqa: E402 -- after the platform choice above
from PySide6.QtWidgets import QApplication, QWidget  # noqa: E402

from app.actions_wiring import wire_controller  # noqa: E402
from app.appearance import apply_appearance, load_style, make_application  # noqa: E402
from app.controller import AppController  # noqa: E402
from app.engine import EngineParts  # noqa: E402
from app.paths import resource  # noqa: E402
from app.providers import preset_choices  # noqa: E402
from app.qtasync import TaskRunner, make_event_loop  # noqa: E402
from app.settings import Settings  # noqa: E402
from app.settings_flow import settings_draft  # noqa: E402
from core.llm.offline import OfflineAssistant  # noqa: E402
from core.session.store import SessionStore  # noqa: E402
from ui.main_window import MainWindow  # noqa: E402
from ui.settings_dialog import SettingsDialog  # noqa: E402

ZONE = "Europe/Berlin"


class DemoClock:
    """A clock the script moves by hand (the demo must not depend on today's time)."""

    def __init__(self) -> None:
        self.now = datetime(2026, 8, 5, 7, 58, 12, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


async def until(condition: Callable[[], bool], limit_s: float = 10.0) -> None:
    steps = int(limit_s / 0.005)
    for _ in range(steps):
        if condition():
            return
        await asyncio.sleep(0.005)
    raise TimeoutError("the demo did not reach the expected state")


async def say(window: MainWindow, controller: AppController, text: str) -> None:
    opened = controller.current_session()
    assert opened is not None
    assert opened.agent is not None
    agent = opened.agent
    events = opened.session.events
    ends = turn_ends(events)
    window.composer.set_text(text)
    window.composer.send()
    await until(lambda: turn_ends(events) > ends and agent.status == "idle")


def turn_ends(events: Sequence[Mapping[str, Any]]) -> int:
    return sum(1 for event in events if event.get("type") == "turn/end")


async def demo(window: MainWindow, controller: AppController, clock: DemoClock, scene: str) -> None:
    await controller.start([], None)
    if scene == "empty":
        return
    await say(window, controller, "remind me in 2 minutes to stretch")
    await say(window, controller, "every 30 minutes remind me to drink water")
    opened = controller.current_session()
    assert opened is not None
    waker = opened.waker
    assert waker is not None
    await until(lambda: waker.wake_at is not None)
    ends = turn_ends(opened.session.events)
    clock.now += timedelta(minutes=2, seconds=5)
    waker.arm(clock.now)
    await until(lambda: turn_ends(opened.session.events) > ends)
    await say(window, controller, "what reminders do I have?")
    controller.rename("Stretch & water")
    await controller.refresh_sessions()


async def shoot(
    window: MainWindow, controller: AppController, clock: DemoClock, scene: str, out: Path
) -> None:
    """Play the scene, grab the window (or the dialog) into ``out``, then close the sessions."""
    await demo(window, controller, clock, scene)
    target: QWidget = window
    if scene == "settings":
        draft = settings_draft(Settings(), "", "The API key is kept in the system keyring.")
        dialog = SettingsDialog(draft, preset_choices(), window)
        dialog.show()
        target = dialog
    await asyncio.sleep(0.2)  # layout and paint on the running loop
    out.parent.mkdir(parents=True, exist_ok=True)
    target.grab().save(str(out))
    await controller.shutdown()


def render(out: Path, theme: str, scene: str) -> Path:
    app = make_application([sys.argv[0]])
    load_style(app)
    apply_appearance(app, Settings(theme="dark" if theme == "dark" else "light", text_size=10))
    loop = make_event_loop(app)
    asyncio.set_event_loop(loop)
    clock = DemoClock()
    counter = itertools.count(1)
    with tempfile.TemporaryDirectory() as folder:
        window = MainWindow(clock, QIcon(str(resource("icons", "bell.svg"))))
        parts = EngineParts(
            clock,
            lambda: ZONE,
            lambda: f"demo{next(counter)}",
            resource("prompts", "system.md").read_text(encoding="utf-8"),
            lambda: OfflineAssistant(clock),
        )
        tasks = TaskRunner()
        store = SessionStore(Path(folder), clock)
        controller = AppController(window, store, parts, Path(folder), tasks)
        wire_controller(window, controller, tasks)
        window.set_provider("Offline assistant")
        window.resize(1180, 760)
        window.show()
        with loop:
            loop.run_until_complete(shoot(window, controller, clock, scene, out))
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--out", default=str(ROOT / "docs" / "screenshot.png"))
    parser.add_argument("--theme", choices=("light", "dark"), default="light")
    parser.add_argument(
        "--scene", choices=("conversation", "empty", "settings"), default="conversation"
    )
    args = parser.parse_args()
    print(render(Path(args.out), args.theme, args.scene))
    QApplication.instance()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
