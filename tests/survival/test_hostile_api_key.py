"""Survival: the API key never leaves the key store (agent.md §5.2), whatever the endpoint does.

A whole session runs with a distinctive key read from the app's ``KeyStore`` (file fallback in a
config folder outside the data folder), every logger at DEBUG into a capture and into the app's
own rotating ``chime.log`` (``app.main.setup_logging``). The endpoint answers, sets a reminder,
delivers it, then fails in every way that can echo the request back: 401/403/400/404/429/500
bodies quoting the ``Authorization`` header (with the key placed at every position a shortened
server message could cut it), and an error event inside the stream. Then the session is exported
(Markdown and JSONL) and state.json written. No file under the data folder and no captured log
line may hold the key or any 8-character piece of it.
"""

from __future__ import annotations

import json
import logging
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from app.run_log import LOG_FILE, setup_logging
from app.settings import KeyStore, Settings, save_settings
from app.state import AppState, write_state
from tests import wire as v
from tests.core.llm.loopback import Sse, chunk
from tests.survival.hostile_kit import GOOD, Rig, hosted, of_type, turn_end
from tests.survival.hostile_server import EchoHeaders, HostileReply

KEY = "sk-chime-HOSTILE-3f9a7c1e-DoNotLeak-Zq81xw"
PIECES = {KEY[i : i + 8] for i in range(len(KEY) - 7)}


def leaks(text: str) -> list[str]:
    return sorted(piece for piece in PIECES if piece in text)


class Capture(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.lines: list[str] = []
        self.setFormatter(logging.Formatter("%(name)s %(levelname)s %(message)s"))

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(self.format(record))  # the formatted line, tracebacks included


@pytest.fixture
def every_logger_at_debug(tmp_path: Path) -> Iterator[tuple[Capture, Path]]:
    """All loggers at DEBUG into a capture and the app's rotating log file; restored after."""
    data_dir = tmp_path / "data"
    data_dir.mkdir()
    root = logging.getLogger()
    before = (list(root.handlers), root.level)
    levels = {
        name: logger.level
        for name, logger in logging.Logger.manager.loggerDict.items()
        if isinstance(logger, logging.Logger)
    }
    capture = Capture()
    setup_logging(data_dir)
    root.addHandler(capture)
    root.setLevel(logging.DEBUG)
    for name in levels:
        logging.getLogger(name).setLevel(logging.NOTSET)
    try:
        yield capture, data_dir
    finally:
        for handler in root.handlers[:]:
            if handler not in before[0]:
                root.removeHandler(handler)
                handler.close()
        root.setLevel(before[1])
        for name, level in levels.items():
            logging.getLogger(name).setLevel(level)


def echo_step_count() -> list[HostileReply]:
    """Failures that quote the request headers, the key at every cut position of a shortened
    server message (which keeps its first 199 characters)."""
    replies: list[HostileReply] = [EchoHeaders(status) for status in (401, 403, 400, 404, 429, 500)]
    replies += [EchoHeaders(400, prefix="p" * n) for n in range(0, 90, 3)]
    replies.append(Sse([chunk("Hel"), {"error": {"message": f"bad token: Bearer {KEY}"}}]))
    return replies


def create_step() -> Sse:
    arguments = json.dumps({"prompt": "stretch", "after_seconds": 60})
    call = {"index": 0, "id": "call_1", "type": "function"}
    call["function"] = {"name": "schedule_create", "arguments": arguments}
    return Sse([chunk(tool_calls=[call]), chunk(finish="tool_calls")])


def all_files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*") if p.is_file())


@pytest.mark.slow  # a whole session of 40 turns with every logger at DEBUG
def test_the_api_key_appears_in_no_log_export_session_settings_or_state_file(
    tmp_path: Path, every_logger_at_debug: tuple[Capture, Path]
) -> None:
    capture, data_dir = every_logger_at_debug
    config_dir = tmp_path / "config"
    keys = KeyStore(config_dir, use_keyring=False)
    keys.set(KEY)
    failures = echo_step_count()

    async def body(rig: Rig) -> list[dict[str, Any]]:
        save_settings(
            data_dir, Settings(provider="openai-compatible", base_url=rig.server.base_url)
        )
        await rig.ask("remind me in a minute to stretch")
        rig.clock.advance(60)
        rig.wakers[0].fire()
        await rig.idle()
        await rig.ask("now fail in every way")
        for _ in failures[1:]:
            await rig.retry()
        await rig.retry()  # the endpoint behaves again
        session_id = rig.session.id
        await rig.store.export_markdown(session_id, data_dir / "export.md")
        await rig.store.export_jsonl(session_id, data_dir / "export.jsonl")
        write_state(data_dir, AppState(open=(session_id,), current=session_id))
        return rig.events()

    script: list[HostileReply] = [create_step(), GOOD, GOOD, *failures, GOOD]
    events = hosted(script, data_dir, body, api_key=keys.get())

    ends = of_type(events, v.TURN_END)
    assert turn_end(events, len(ends))["status"] == "completed"
    assert [e["status"] for e in ends] == ["completed", "completed"] + ["failed"] * len(
        failures
    ) + ["completed"]
    for handler in logging.getLogger().handlers:
        handler.flush()
    files = all_files(data_dir)
    names = {p.name for p in files}
    assert {"settings.json", "state.json", "export.md", "export.jsonl", LOG_FILE} <= names
    assert "session.jsonl" in names
    for path in files:
        assert leaks(path.read_bytes().decode("utf-8", "replace")) == [], path
    log_text = "\n".join(capture.lines)
    assert len(capture.lines) > 100  # DEBUG really reached the capture (SDK, httpx, agent)
    assert leaks(log_text) == []
    assert leaks((data_dir / LOG_FILE).read_text(encoding="utf-8")) == []
    messages = [e["error"]["message"] for e in ends if e["status"] == "failed"]
    assert sum("[redacted]" in m for m in messages) >= 20  # the echoes really carried the key
    key_file = config_dir / "api-key"
    assert key_file.read_text(encoding="utf-8") == KEY  # the one place it lives
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    assert not key_file.is_relative_to(data_dir)
