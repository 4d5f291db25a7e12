"""``python -m app [--data-dir DIR] [--session ID]``: start Chime."""

from app.main import run

raise SystemExit(run())
