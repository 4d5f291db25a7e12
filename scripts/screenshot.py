"""Render Chime's window with a demo session, offscreen, to PNGs (default: docs/screenshot.png).

    .venv/bin/python scripts/screenshot.py [--out PATH] [--theme light|dark] [--scene NAME]
        [--size 1180x760] [--scale 2]
    .venv/bin/python scripts/screenshot.py --all   # docs/screenshot.png and docs/screenshots/*.png

Scenes: ``conversation`` (reminders set, one delivered, and an answer with a code block: the
default), ``code`` (a long code block that scrolls sideways, and a user message with code),
``streaming`` (an answer growing in its row, a message queued after it), ``empty`` (first start),
``settings`` (the settings dialog over the window). The demo runs the real engine (session store
in a temporary data directory, reminder owner, the offline assistant or a scripted model for the
code answers) on a simulated clock that starts at 2026-08-05 09:58 in Europe/Berlin, so the
picture is the same on every run. ``--scale 2`` renders as a 2x (high-DPI) screen does.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import os
import subprocess
import sys
import tempfile
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

ZONE = "Europe/Berlin"
SHOTS = ROOT / "docs" / "screenshots"
ALL = (
    ("conversation", "light", "1180x760", 1, ROOT / "docs" / "screenshot.png"),
    ("conversation", "dark", "1180x760", 1, SHOTS / "dark.png"),
    ("conversation", "light", "800x600", 1, SHOTS / "small-800x600.png"),
    ("conversation", "light", "1180x760", 2, SHOTS / "scale-2x.png"),
    ("code", "dark", "1180x760", 1, SHOTS / "code.png"),
    ("streaming", "light", "1180x760", 1, SHOTS / "streaming.png"),
)
"""What ``--all`` renders: (scene, theme, size, scale, file)."""

CODE_ANSWER = """Here is a small **Python** helper that waits, then says so:

```python
import time


def remind(after_seconds: int, prompt: str) -> None:
    \"\"\"Sleep, then print the reminder (a toy: Chime's reminders survive restarts).\"\"\"
    time.sleep(after_seconds)
    print(f"⏰ {prompt}")
```

Call it with `remind(600, "stretch")`; see [the docs](https://docs.python.org/3/library/time.html)."""

LONG_CODE = """The long line scrolls sideways inside its box (Shift+wheel), or View → Wrap long code lines:

```bash
curl -s http://localhost:11434/v1/chat/completions -H 'Content-Type: application/json' -d '{"model": "qwen2.5:7b", "messages": [{"role": "user", "content": "remind me in 10 minutes to stretch"}]}'
```

```json
{
  "id": "schedule-3",
  "kind": "after",
  "prompt": "stretch",
  "scheduledAt": "2026-08-05T08:10:00.000Z"
}
```"""

STREAMED = (
    "Sure. To water the plants every day:\n\n1. Fill the can in the evening.\n"
    "2. Water before 9:00:\n\n```python\nfor plant in plants:\n    plant.water(ml=250)\n"
)


class DemoClock:
    """A clock the script moves by hand (the demo must not depend on today's time)."""

    def __init__(self) -> None:
        self.now = datetime(2026, 8, 5, 7, 58, 12, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


class Scripted:
    """A model that streams a fixed answer (``hold``: stops half-way and waits)."""

    def __init__(self, text: str, *, hold: bool = False) -> None:
        self.text = text
        self.hold = hold

    @property
    def info(self) -> Any:
        from core.llm.messages import ModelInfo

        return ModelInfo("demo", "scripted")

    async def stream(self, request: object) -> AsyncIterator[Any]:
        from core.llm.messages import Finish, TextDelta

        for word in self.text.split(" "):
            yield TextDelta(word + " ")
        if self.hold:
            await asyncio.Event().wait()
        yield Finish(self.text, (), "stop")


async def until(condition: Callable[[], bool], limit_s: float = 10.0) -> None:
    steps = int(limit_s / 0.005)
    for _ in range(steps):
        if condition():
            return
        await asyncio.sleep(0.005)
    raise TimeoutError("the demo did not reach the expected state")


def turn_ends(events: Sequence[Mapping[str, Any]]) -> int:
    return sum(1 for event in events if event.get("type") == "turn/end")


async def say(window: Any, controller: Any, text: str) -> None:
    opened = controller.current_session()
    assert opened is not None
    assert opened.agent is not None
    agent = opened.agent
    events = opened.session.events
    ends = turn_ends(events)
    window.composer.set_text(text)
    window.composer.send()
    await until(lambda: turn_ends(events) > ends and agent.status == "idle")


async def reminders_demo(window: Any, controller: Any, clock: DemoClock) -> None:
    await say(window, controller, "remind me in 2 minutes to stretch")
    await say(window, controller, "every 30 minutes remind me to drink water")
    opened = controller.current_session()
    waker = opened.waker
    await until(lambda: waker.wake_at is not None)
    ends = turn_ends(opened.session.events)
    clock.now += timedelta(minutes=2, seconds=5)
    waker.arm(clock.now)
    await until(lambda: turn_ends(opened.session.events) > ends)


async def demo(window: Any, controller: Any, clock: DemoClock, scene: str) -> None:
    await controller.start([], None)
    if scene in ("empty", "settings"):
        return
    if scene == "conversation":
        await reminders_demo(window, controller, clock)
        await say(window, controller, "what reminders do I have?")
        controller.set_provider(lambda: Scripted(CODE_ANSWER))
        await say(window, controller, "show me a tiny Python reminder")
        controller.rename("Stretch & water")
    elif scene == "code":
        controller.set_provider(lambda: Scripted(LONG_CODE))
        await say(
            window, controller, "how do I call it from the shell?\n\n```bash\ncurl --version\n```"
        )
        controller.rename("Calling the endpoint")
    elif scene == "streaming":
        await say(window, controller, "remind me every day to water the plants")
        controller.set_provider(lambda: Scripted(STREAMED, hold=True))
        window.composer.set_text("how should I water them?")
        window.composer.send()
        await until(lambda: "streaming" in kinds(window))
        await asyncio.sleep(0.1)
        window.composer.set_text("and the cactus?")
        window.composer.send()
        controller.rename("Plants")
    await controller.refresh_sessions()


def kinds(window: Any) -> list[str]:
    model = window.transcript_model
    return [model.row_at(r).kind for r in range(model.rowCount())]


async def shoot(window: Any, controller: Any, clock: DemoClock, scene: str, out: Path) -> None:
    """Play the scene, grab the window (or the dialog) into ``out``, then close the sessions."""
    from app.providers import preset_choices
    from app.settings import Settings
    from app.settings_flow import settings_draft
    from ui.settings_dialog import SettingsDialog

    await demo(window, controller, clock, scene)
    target = window
    if scene == "settings":
        draft = settings_draft(Settings(), "", "The API key is kept in the system keyring.")
        target = SettingsDialog(draft, preset_choices(), window)
        target.show()
    window.transcript.scroll_to_end()
    await asyncio.sleep(0.3)  # layout and paint on the running loop
    out.parent.mkdir(parents=True, exist_ok=True)
    target.grab().save(str(out))
    if scene == "streaming":
        controller.stop()
    await controller.shutdown()


def render(out: Path, theme: str, scene: str, size: tuple[int, int]) -> Path:
    from PySide6.QtGui import QIcon

    from app.actions_wiring import wire_controller
    from app.appearance import apply_appearance, load_style, make_application
    from app.controller import AppController
    from app.engine import EngineParts
    from app.paths import resource
    from app.qtasync import TaskRunner, make_event_loop
    from app.settings import Settings
    from core.llm.offline import OfflineAssistant
    from core.session.store import SessionStore
    from ui.main_window import MainWindow
    from ui.model_picker import ModelMenu

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
        window.status.set_provider("Offline assistant")
        window.composer.tools.set_model_menu(
            ModelMenu(None, "Offline assistant")
        )  # the app's setting answers
        window.resize(*size)
        window.show()
        with loop:
            loop.run_until_complete(shoot(window, controller, clock, scene, out))
    return out


def render_all() -> None:
    """Every picture of ``ALL``, each in a fresh process (a scale factor is fixed per process)."""
    for scene, theme, size, scale, out in ALL:
        command = [sys.executable, __file__, "--scene", scene, "--theme", theme, "--size", size]
        command += ["--out", str(out), "--scale", str(float(scale))]
        subprocess.run(command, check=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--out", default=str(ROOT / "docs" / "screenshot.png"))
    parser.add_argument("--theme", choices=("light", "dark"), default="light")
    parser.add_argument(
        "--scene",
        choices=("conversation", "code", "streaming", "empty", "settings"),
        default="conversation",
    )
    parser.add_argument("--size", default="1180x760", help="window size, WIDTHxHEIGHT")
    parser.add_argument("--scale", type=float, help="render as a screen of this scale factor")
    parser.add_argument("--all", action="store_true", help="render every documented picture")
    args = parser.parse_args()
    if args.all:
        render_all()
        return 0
    if args.scale and os.environ.get("QT_SCALE_FACTOR") != str(args.scale):
        env = dict(
            os.environ, QT_SCALE_FACTOR=str(args.scale)
        )  # read when Qt starts: a new process
        return subprocess.run(
            [sys.executable, __file__, *sys.argv[1:]], env=env, check=False
        ).returncode
    width, height = (int(part) for part in args.size.split("x"))
    print(render(Path(args.out), args.theme, args.scene, (width, height)))
    os._exit(
        0
    )  # WORKAROUND(PySide6 teardown, see app.main.run): skip finalizer-time GC of Qt wrappers


if __name__ == "__main__":
    raise SystemExit(main())
