"""organise.json: the person's pins, folders and archive (``core.organise``), beside state.json.

Read once when the engine starts; written whenever the person changes the arrangement, the way
the app's other derived files are (``replace_file``: a temporary file, fsync, rename, mode 0600),
so a crash leaves the old file or the new one, never half of one. A file that cannot be read or
is not valid JSON is logged and the list is shown unorganised (nothing else depends on it); it is
replaced by the next change.
"""

from __future__ import annotations

import json
import logging
import os
from pathlib import Path

from core.jsonread import SETTINGS, parse_json
from core.organise import Organisation, organisation_from_json

_log = logging.getLogger(__name__)

ORGANISE_FILE = "organise.json"


def read_organisation(data_dir: Path) -> Organisation:
    """The arrangement last written, or an empty one."""
    try:
        with (data_dir / ORGANISE_FILE).open("rb") as handle:
            raw = parse_json(handle.read(SETTINGS.max_size + 1), SETTINGS)
    except FileNotFoundError:
        return Organisation()
    except (OSError, ValueError) as error:
        _log.warning("%s unusable, the list is shown unorganised: %s", ORGANISE_FILE, error)
        return Organisation()
    return organisation_from_json(raw)


def write_organisation(data_dir: Path, organisation: Organisation) -> None:
    """Replace organise.json atomically."""
    text = json.dumps(organisation.to_json(), indent=2, ensure_ascii=False) + "\n"
    replace_file(data_dir / ORGANISE_FILE, text)


def replace_file(path: Path, text: str) -> None:
    """Replace ``path`` with ``text`` atomically (temporary file, fsync, rename), mode 0600."""
    tmp = path.with_name(path.name + ".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        handle.write(text)
        handle.flush()
        os.fsync(handle.fileno())
    tmp.replace(path)
