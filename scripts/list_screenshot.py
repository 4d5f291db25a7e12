"""Screenshots of the sessions list (issue 21): grouped with pins and a folder, and a title being
renamed in place, light and dark, at 800×600 under Xvfb with openbox (a real X server and window
manager, not the offscreen platform).

    .venv/bin/python scripts/list_screenshot.py [--out docs/screenshots]

Each picture is made by a fresh process running the whole app (``app.main.Application``) on a
temporary data directory with the offline assistant, a simulated clock (2026-08-05 13:00 in
Europe/Berlin) and a few conversations made over the past weeks; the screen is grabbed with the
window on it. Writes ``list-<theme>.png`` and ``rename-<theme>.png``.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import os
import subprocess
import sys
import tempfile
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

CONVERSATIONS = (  # (days ago, first message)
    (40, "Which plants survive a north-facing balcony in winter?"),
    (9, "Draft a polite reply to the landlord about the heating"),
    (5, "remind me every Friday at 17:00 to back up the photos"),
    (1, "Call the plumber about the kitchen tap before the weekend"),
    (1, "Compare two offers for the bathroom tiles"),
    (0, "remind me in 20 minutes to take the bread out of the oven"),
    (0, "Summarise the notes from this morning's meeting with Anna"),
)


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2026, 8, 5, 11, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


async def until(condition: Any, limit_s: float = 20.0) -> None:
    for _ in range(int(limit_s / 0.01)):
        if condition():
            return
        await asyncio.sleep(0.01)
    raise TimeoutError("the scene did not reach the expected state")


async def scene(chime: Any, clock: Clock, name: str) -> None:
    """Conversations over the past weeks, one pinned, two in a folder, one archived."""
    await chime.start()
    controller = chime.started.controller
    base = clock.now
    for days, text in CONVERSATIONS:
        clock.now = base - timedelta(days=days, minutes=len(text))
        if controller.current_session().session.title is not None:
            await controller.new_session()
        opened = controller.current_session()
        chime.window.composer.set_text(text)
        chime.window.composer.send()
        await until(lambda o=opened: o.agent.status == "idle" and o.session.inputs().last_turn > 0)
    clock.now = base
    await controller.refresh_sessions()
    panel = chime.window.sessions
    ids = {
        item.title: item.id for item in map(panel.model.item_of, controller.listing.session_ids())
    }
    org = panel.organisation.add_folder("f1", "House")
    org = org.move(ids[CONVERSATIONS[1][1]], "f1").move(ids[CONVERSATIONS[4][1]], "f1")
    org = org.pin(ids[CONVERSATIONS[2][1]], True).archive(ids[CONVERSATIONS[0][1]], True)
    panel.organise(org)
    chime.window.window_actions.action("focus_sessions").trigger()  # 800 px: the sidebar folds
    if name == "rename":
        panel.edit_title(ids[CONVERSATIONS[3][1]])
        await asyncio.sleep(0.2)
        editor = panel.list.focusWidget()
        editor.setText("Plumber: kitchen tap")
    await asyncio.sleep(0.6)


def shoot(out: Path, theme: str, name: str) -> None:
    from PySide6.QtCore import QLocale

    from app.appearance import apply_appearance, load_style, make_application
    from app.main import Application
    from app.qtasync import make_event_loop
    from app.settings import KeyStore, Settings

    app = make_application([sys.argv[0]])
    load_style(app)
    apply_appearance(app, Settings(theme=theme))  # as app.main.run does before the window
    loop = make_event_loop(app)
    asyncio.set_event_loop(loop)
    clock = Clock()
    counter = itertools.count(1)
    with tempfile.TemporaryDirectory() as folder:
        data = Path(folder)
        (data / "settings.json").write_text(json.dumps({"theme": theme}), encoding="utf-8")
        chime = Application(
            app,
            data,
            None,
            clock=clock,
            zone_source=lambda: "Europe/Berlin",
            new_id=lambda: f"demo{next(counter):02d}",
            keys=KeyStore(data / "config", use_keyring=False),
            system_locale=QLocale(QLocale.Language.English),
            notifier=lambda: None,
        )
        chime.show_window()
        chime.window.showMaximized()
        with loop:
            loop.run_until_complete(scene(chime, clock, name))
            screen = chime.window.screen()
            screen.grabWindow(0).save(str(out))
            loop.run_until_complete(chime.quit())
    os._exit(0)  # WORKAROUND(PySide6 teardown, see app.main.run)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    parser.add_argument(
        "--one", nargs=3, metavar=("FILE", "THEME", "SCENE"), help=argparse.SUPPRESS
    )
    args = parser.parse_args()
    if args.one:
        shoot(Path(args.one[0]), args.one[1], args.one[2])
        return 0
    from tests.desktop import start_x_server

    env = dict(os.environ, QT_QPA_PLATFORM="xcb")
    started = start_x_server(env, screen="800x600x24", window_manager=True)
    try:
        for theme in ("light", "dark"):
            for name in ("list", "rename"):
                target = args.out / f"{name}-{theme}.png"
                command = [sys.executable, __file__, "--one", str(target), theme, name]
                subprocess.run(command, env=env, check=True, timeout=120)
                print(target)
    finally:
        for process in reversed(started):
            process.terminate()
            process.wait(5)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
