"""Where Chime keeps its files: the data directory and the bundled resources. No other I/O.

Besides creating the data directory, ``writable_problem`` probes it once at start (one empty file
created and removed), so an unusable folder is reported in words instead of as a traceback.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from types import ModuleType

APP_NAME = "Chime"
LOG_FILE = "chime.log"
"""The log file in the data folder (``app.log_file``)."""
DATA_DIR_ENV = "CHIME_DATA_DIR"
RESOURCES = Path(__file__).resolve().parent.parent / "resources"


def chosen_data_dir(cli_value: str | None, environ: Mapping[str, str] = os.environ) -> Path:
    """The data directory, absolute, not created: ``--data-dir`` > ``CHIME_DATA_DIR`` > the
    per-user data directory."""
    chosen = (
        cli_value or environ.get(DATA_DIR_ENV) or _platformdirs().user_data_dir(APP_NAME, False)
    )
    return Path(chosen).expanduser().resolve()


def writable_problem(folder: Path) -> OSError | None:
    """Why Chime cannot write to ``folder`` (created if missing, mode 0700: session-log.md §1),
    or None when it can.

    Creates and removes one empty probe file: a read-only disk, a missing permission or a path
    under a regular file (ENOTDIR) all show here, before anything is written for real.
    """
    probe = folder / f".write-probe-{os.getpid()}"
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        os.close(os.open(probe, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600))
        probe.unlink()
    except OSError as error:
        return error
    return None


def config_dir() -> Path:
    """The per-user configuration directory (only the API-key fallback file lives there)."""
    return Path(_platformdirs().user_config_dir(APP_NAME, False))


def resource(*parts: str) -> Path:
    """A bundled file under ``resources/`` (icons, style sheet, prompts)."""
    return RESOURCES.joinpath(*parts)


def _platformdirs() -> ModuleType:
    """platformdirs, imported when a per-user folder is first needed (not with --data-dir)."""
    import platformdirs

    return platformdirs
