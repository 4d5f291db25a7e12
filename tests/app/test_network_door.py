"""With an endpoint set, the openai SDK is imported in a worker thread during the start (about
500 modules), so the painted window keeps answering; with the offline assistant it is never
imported. A subprocess runs Chime and reports at ``engine_ready``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.settings import SETTINGS_FILE
from tests.app.probes import start_report

PROBE = """
import json, os, sys, threading
imported = []
def watch(event, args):
    if event == "import" and args[0] == "openai":
        imported.append(threading.current_thread() is threading.main_thread())
sys.addaudithook(watch)
import app.main
from app import launch
traced = launch.trace_start
def trace(window, milestone):
    traced(window, milestone)
    if milestone == "engine_ready":
        sys.stdout.write(json.dumps({"on_main_thread": imported}) + "\\n")
        sys.stdout.flush()
        os._exit(0)
app.main.trace_start = trace
sys.argv = ["chime", "--data-dir", sys.argv[1]]
app.main.run()
"""


@pytest.mark.parametrize("endpoint", [True, False])
def test_the_sdk_loads_off_the_main_thread_and_only_for_an_endpoint(
    tmp_path: Path, endpoint: bool
) -> None:
    data = tmp_path / "data"
    data.mkdir()
    if endpoint:  # a port nothing listens on: the start asks it nothing
        settings = {"provider": "openai-compatible", "base_url": "http://127.0.0.1:9/v1"}
        (data / SETTINGS_FILE).write_text(json.dumps({**settings, "model": "m"}), "utf-8")
    report = start_report(PROBE, data)
    assert report["on_main_thread"] == ([False] if endpoint else [])
