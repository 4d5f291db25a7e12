"""Keeps the person's arrangement of the sessions list (pins, folders, archive) in organise.json.

Wires the sidebar (``ui.session_list.SessionListPanel``) to ``app.organise_file``: the file is
read when the window is first shown (so the first paint is already grouped), each change the
person makes is written at once (a small file, replaced atomically as state.json is), and the
list's day groups follow the zone the app reads. A write that fails is logged and said in the
message bar; the list keeps the change until Chime quits.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QCoreApplication

from app.organise_file import read_organisation, write_organisation
from core.organise import Organisation
from core.readable import zone_or_utc
from ui.session_list import SessionListPanel

_log = logging.getLogger(__name__)


def wire_organisation(
    panel: SessionListPanel,
    data_dir: Path,
    zone_source: Callable[[], str | None],
    notify: Callable[[str], None],
) -> None:
    """Show the arrangement kept in ``data_dir`` and keep each change there."""
    panel.zone = lambda: zone_or_utc(zone_source())
    panel.set_organisation(read_organisation(data_dir))

    def keep(organisation: Organisation) -> None:
        try:
            write_organisation(data_dir, organisation)
        except OSError as error:
            _log.warning("cannot write the list's arrangement: %s", error)
            notify(
                QCoreApplication.translate(
                    "Organise", "The pins and folders could not be saved: {reason}."
                ).format(reason=error.strerror or str(error))
            )

    panel.organised.connect(keep)
