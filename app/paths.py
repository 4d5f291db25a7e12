"""Where Chime keeps its files: the data directory and the bundled resources. No other I/O."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

import platformdirs

APP_NAME = "Chime"
DATA_DIR_ENV = "CHIME_DATA_DIR"
RESOURCES = Path(__file__).resolve().parent.parent / "resources"


def data_dir(cli_value: str | None, environ: Mapping[str, str] = os.environ) -> Path:
    """The data directory: ``--data-dir`` > ``CHIME_DATA_DIR`` > the per-user data directory.

    The directory is created (mode 0700, session-log.md §1) and returned absolute.
    """
    chosen = cli_value or environ.get(DATA_DIR_ENV) or platformdirs.user_data_dir(APP_NAME, False)
    path = Path(chosen).expanduser().resolve()
    path.mkdir(mode=0o700, parents=True, exist_ok=True)
    return path


def config_dir() -> Path:
    """The per-user configuration directory (only the API-key fallback file lives there)."""
    return Path(platformdirs.user_config_dir(APP_NAME, False))


def resource(*parts: str) -> Path:
    """A bundled file under ``resources/`` (icons, style sheet, prompts)."""
    return RESOURCES.joinpath(*parts)
