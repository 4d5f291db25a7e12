"""The German window with the offline assistant: a reminder set, delivered, listed and deleted in
German, through the real window on a fake clock."""

from __future__ import annotations

import functools
from datetime import timedelta
from pathlib import Path

import pytest

from tests.app.test_flow import advance_and_fire
from tests.app.test_language import with_language
from tests.app.window import Opener, running
from tests.fakes import FakeClock

# WORKAROUND(offscreen QPA): showing a window logs "This plugin does not support
# propagateSizeHints()"; it is the test platform's limitation, not a fault of the app.
pytestmark = pytest.mark.qt_log_ignore("propagateSizeHints")


@pytest.fixture
def open_app(qtbot, qapp, loop, tmp_path: Path, clock: FakeClock) -> Opener:
    return functools.partial(running, qtbot, qapp, loop, tmp_path, clock)


def answers(texts: list[str], kinds: list[str]) -> list[str]:
    return [text for text, kind in zip(texts, kinds, strict=True) if kind == "assistant"]


@pytest.mark.slow  # four turns of the offline assistant and a reminder's turn
def test_a_german_reminder_is_set_delivered_listed_and_deleted_in_german(
    open_app: Opener, tmp_path: Path, clock: FakeClock
) -> None:
    with_language(tmp_path, "de")
    with open_app() as chime:
        assert chime.window.composer.send_button.text() == "Senden"
        chime.send("Erinnere mich in 2 Minuten ans Dehnen")
        said = answers(chime.transcript_texts(), chime.kinds())
        assert said[-1].startswith("Ich erinnere dich um 14:02 Uhr (in 2 Minuten): „Dehnen“")
        assert chime.window.reminders.model.index(0).data().startswith("Dehnen\n")

        advance_and_fire(chime, clock, timedelta(minutes=2))
        chime.until(lambda: "reminder" in chime.kinds() and chime.idle())
        chime.until(lambda: chime.kinds()[-1] == "assistant")
        assert answers(chime.transcript_texts(), chime.kinds())[-1] == "Erinnerung: Dehnen"

        chime.send("erinnere mich morgen früh daran, die Pflanzen zu gießen")
        said = answers(chime.transcript_texts(), chime.kinds())
        assert said[-1].startswith("Ich erinnere dich morgen um 09:00 Uhr")
        assert "„die Pflanzen gießen“" in said[-1]

        chime.send("welche Erinnerungen habe ich?")
        listed = answers(chime.transcript_texts(), chime.kinds())[-1]
        assert listed.startswith("Du hast 1 Erinnerung in diesem Gespräch:")
        assert "die Pflanzen gießen — morgen 09:00 Uhr" in listed

        chime.send("lösch die Pflanzen-Erinnerung")
        assert answers(chime.transcript_texts(), chime.kinds())[-1].startswith(
            "Gelöscht: „die Pflanzen gießen“"
        )
        chime.until(lambda: chime.window.reminders.model.rowCount() == 0)
