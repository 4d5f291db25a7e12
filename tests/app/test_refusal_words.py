"""Why a file was not attached, in the window's language (app.refusal_words): every code the
engine refuses with is produced, its untranslated words are the engine's English sentence, its
German differs, and a refusal without a code is shown by its own sentence."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtWidgets import QApplication

from app.language import install_language, remove_language
from app.refusal_words import refused_text
from core.session.attachments import IMAGE_LIMIT, TEXT_LIMIT, classify
from core.session.refusal import RefusalCode, Refused

PNG = b"\x89PNG\r\n\x1a\n"


def refusals() -> list[Refused]:
    """One refusal of each code, from the engine's own checks (saving: as the session says it)."""
    found = [
        classify("big.png", PNG + b"\0" * IMAGE_LIMIT),
        classify("notes.txt", b"a" * (TEXT_LIMIT + 1536 * 1024)),
        classify("small.txt", b"a" * (TEXT_LIMIT + 1024)),
        classify("tool.bin", b"\x00\x01"),
        Refused(
            "“a.txt” could not be saved (No space left on device).",
            RefusalCode.NOT_SAVED,
            ("a.txt", "No space left on device"),
        ),
    ]
    assert all(isinstance(r, Refused) for r in found)
    return [r for r in found if isinstance(r, Refused)]


@pytest.fixture
def german(qapp: QApplication) -> Iterator[None]:
    installed = install_language(qapp, "de")
    yield
    remove_language(qapp, installed)


def test_every_code_is_produced_and_untranslated_reads_as_the_engines_sentence() -> None:
    found = refusals()
    assert {r.code for r in found} == set(RefusalCode)
    assert [refused_text(r) for r in found] == [r.reason for r in found]


def test_in_german_every_refusal_differs_and_keeps_the_file_name(german: None) -> None:
    said = [refused_text(r) for r in refusals()]
    assert all(text != r.reason for text, r in zip(said, refusals(), strict=True))
    assert said[0].startswith("„big.png“ ist 5,0 MB groß")
    assert said[1].startswith("„notes.txt“ ist 1,8 MB groß")
    assert said[2] == "„small.txt“ ist 257 KB groß: Textdateien sind höchstens 256 KB groß."
    assert said[4] == "„a.txt“ konnte nicht gespeichert werden (No space left on device)."


def test_a_refusal_without_a_code_is_its_own_sentence(german: None) -> None:
    assert refused_text(Refused("„x“ ist ein Ordner.")) == "„x“ ist ein Ordner."
