"""The window's words for core's values (ui.wording, ui.failure_words): untranslated they are the
English core writes into logs and exports, in German every one differs, and a failure without a
code (a log written before codes) is said by its stored message."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtWidgets import QApplication

from app.language import install_language, remove_language
from core.errors import ErrorKind, ProviderError
from core.events import Entry, TurnError, decode_event
from core.failures import SIGNATURES, Failure, FailureCode, english
from core.readable import ToolKind, ToolOutcome, ToolRefusal, english_summary
from ui.failure_words import failure_text
from ui.transcript_rows import row_for_event
from ui.wording import provider_error_text, refusal_text, tool_title, turn_error_text

VALUES = {str: "http://model.test/v1", int: 4096, float: 2.5}


def sample(code: FailureCode, detail: str = "") -> Failure:
    return Failure(code, tuple(VALUES[kind] for kind in SIGNATURES.get(code, ())), detail)


def samples(code: FailureCode) -> list[Failure]:
    """The code's failure, with and without the server's text; a count of 0 too (its sentence
    leaves the retries out)."""
    found = [sample(code), sample(code, "model 'x' not loaded")]
    if code is FailureCode.RATE_LIMITED:
        found.append(Failure(code, (0,)))
    if code is FailureCode.SERVER_FAILED:
        found.append(Failure(code, (503, 0)))
    if code is FailureCode.NO_ANSWER:
        found += [Failure(code, (1, 2, source)) for source in ("server", "settings", "odd")]
    return found


OUTCOMES = [
    ToolOutcome(ToolKind.CREATE, "schedule_create", prompt="stretch"),
    ToolOutcome(ToolKind.CREATE, "schedule_create", None, "stretch", "10:45", "schedule-3"),
    ToolOutcome(ToolKind.CREATE, "schedule_create", None, "", "10:45", "schedule-3"),
    ToolOutcome(ToolKind.LIST, "schedule_list"),
    ToolOutcome(ToolKind.LIST, "schedule_list", count=2),
    ToolOutcome(ToolKind.DELETE, "schedule_delete"),
    ToolOutcome(ToolKind.DELETE, "schedule_delete", schedule_id="schedule-2"),
    ToolOutcome(ToolKind.DELETE, "schedule_delete", schedule_id="schedule-2", deleted=True),
    ToolOutcome(ToolKind.DELETE, "schedule_delete", schedule_id="schedule-2", deleted=False),
    ToolOutcome(ToolKind.OTHER, "weather"),
    ToolOutcome(ToolKind.OTHER, ""),
    *(ToolOutcome(ToolKind.LIST, "schedule_list", refusal) for refusal in ToolRefusal),
]


@pytest.fixture
def german(qapp: QApplication) -> Iterator[None]:
    installed = install_language(qapp, "de")
    assert installed.language == "de"
    yield
    remove_language(qapp, installed)


@pytest.mark.parametrize("code", list(FailureCode))
def test_untranslated_each_failure_is_the_english_core_stores(code: FailureCode) -> None:
    for failure in samples(code):
        assert failure_text(failure) == english(failure)


def test_untranslated_each_tool_card_is_the_english_of_the_export() -> None:
    assert [tool_title(o) for o in OUTCOMES] == [english_summary(o) for o in OUTCOMES]


@pytest.mark.parametrize("code", list(FailureCode))
def test_in_german_every_failure_differs_from_the_english(german: None, code: FailureCode) -> None:
    for failure in samples(code):
        said = failure_text(failure)
        assert said != english(failure)
        assert said.strip()
        if failure.detail:  # the server's own text is quoted as it is
            assert said.endswith("Der Server meldete: \"model 'x' not loaded\"")


def test_in_german_every_tool_word_differs_from_the_english(german: None) -> None:
    for outcome in OUTCOMES:
        if outcome.tool is not ToolKind.OTHER or outcome.refusal is not None:
            assert tool_title(outcome) != english_summary(outcome), outcome
    english_reasons = {english_summary(ToolOutcome(ToolKind.OTHER, "", r)) for r in ToolRefusal}
    assert len({refusal_text(r) for r in ToolRefusal}) == len(ToolRefusal)
    assert not english_reasons & {
        tool_title(ToolOutcome(ToolKind.OTHER, "", r)) for r in ToolRefusal
    }
    assert tool_title(OUTCOMES[1]) == "Erinnerung erstellen — stretch, 10:45 · schedule-3"
    assert tool_title(OUTCOMES[-1]) == "Erinnerungen auflisten — nicht erledigt: es wurde abgelehnt"
    assert tool_title(ToolOutcome(ToolKind.OTHER, "")) == "Werkzeug"


def test_in_german_numbers_are_grouped_the_german_way(german: None) -> None:
    failure = Failure(FailureCode.NO_ANSWER, (12_345, 4096, "default"))
    assert "etwa 12.345 Token; der Kontext 4.096 Token, angenommen" in failure_text(failure)
    assert "für 2,5 Sekunden" not in failure_text(sample(FailureCode.TIMED_OUT))
    assert "2,5 Sekunden lang" in failure_text(sample(FailureCode.TIMED_OUT))


def test_a_turn_error_without_a_code_shows_its_stored_message(german: None) -> None:
    assert turn_error_text(TurnError(ErrorKind.OTHER, "Old English words.")) == "Old English words."
    assert turn_error_text(TurnError(ErrorKind.SERVER, "")) == "Die Runde ist fehlgeschlagen."
    assert turn_error_text(None) == "Die Runde ist fehlgeschlagen."
    coded = TurnError(ErrorKind.AUTH, "English.", Failure(FailureCode.KEY_NEEDED))
    assert turn_error_text(coded).startswith("Der Endpunkt verlangt einen API-Schlüssel (401).")


def test_an_endpoint_error_is_said_by_its_failure_else_its_message(german: None) -> None:
    coded = ProviderError.because(ErrorKind.CANCELLED, Failure(FailureCode.CLOSED))
    assert provider_error_text(coded).startswith("Die Anfrage wurde abgebrochen")
    assert provider_error_text(ProviderError(ErrorKind.SERVER, "scripted")) == "scripted"


def test_an_old_logs_failed_turn_shows_its_english_message_in_a_german_window(
    german: None,
) -> None:
    """A ``turn/end`` written before reasons were stored (kind and message only) is an error row
    with that message; one whose code this version does not know too."""
    old = {"kind": "connection", "message": "Could not connect to the model endpoint."}
    later = {**old, "reason": {"code": "from_a_later_version", "args": []}}
    coded = {**old, "reason": {"code": "cut_off", "args": []}}
    texts = []
    for error in (old, later, coded):
        end = decode_event("turn/end", {"turn": 1, "status": "failed", "error": error})
        [row] = row_for_event(Entry(4, "2026-08-07T12:00:00.000Z", end), "UTC")
        assert row.kind == "error"
        texts.append(row.text)
    assert texts[:2] == ["Could not connect to the model endpoint."] * 2
    assert texts[2].startswith("Die Verbindung zum Modell-Endpunkt ist abgebrochen")
