"""Saved prompts: the library read from settings.json, and what ``/`` shows for what was typed."""

from __future__ import annotations

import pytest

from core.prompts import MAX_PROMPTS, SavedPrompt, matching, named, read_prompts

LIBRARY = (
    SavedPrompt("Translator", "Translate into German."),
    SavedPrompt("Be brief", "Short answers."),
    SavedPrompt("Code reviewer", "Review the code; translate jargon.", 0.2, "qwen3:8b"),
)


def test_the_library_reads_back_from_its_json() -> None:
    value = [
        {"name": "Translator", "text": "Translate into German."},
        {"name": "Be brief", "text": "Short answers.", "temperature": None},
        {
            "name": "Code reviewer",
            "text": "Review the code; translate jargon.",
            "temperature": 0.2,
            "model": "qwen3:8b",
        },
    ]
    assert read_prompts(value) == LIBRARY
    assert read_prompts([{"name": "One", "temperature": 1}])[0].temperature == 1.0
    assert read_prompts(LIBRARY) == LIBRARY


@pytest.mark.parametrize(
    ("value", "reason"),
    [
        ("x", "must be a list"),
        ([{"name": "a"}] * (MAX_PROMPTS + 1), "at most"),
        (["a"], "must be an object"),
        ([{"name": ""}], "needs a name"),
        ([{"name": "x" * 81}], "needs a name"),
        ([{"name": 3}], "are strings"),
        ([{"name": "a", "text": "x" * 20_001}], "at most 20000"),
        ([{"name": "a", "model": "m" * 400}], "too long"),
        ([{"name": "a", "temperature": 3}], "from 0 to 2"),
        ([{"name": "a", "temperature": True}], "from 0 to 2"),
        ([{"name": "A"}, {"name": "a"}], "same name"),
    ],
)
def test_a_library_that_is_not_one_is_refused(value: object, reason: str) -> None:
    with pytest.raises(ValueError, match=reason):
        read_prompts(value)


def test_names_starting_with_the_query_come_first_then_any_holding_it() -> None:
    assert matching(LIBRARY, "") == list(LIBRARY)
    assert [p.name for p in matching(LIBRARY, "TR")] == ["Translator", "Code reviewer"]
    assert [p.name for p in matching(LIBRARY, " b")] == ["Be brief"]
    assert matching(LIBRARY, "nothing") == []


def test_a_prompt_is_found_by_its_name() -> None:
    assert named(LIBRARY, "Be brief") == LIBRARY[1]
    assert named(LIBRARY, "") is None
    assert named(LIBRARY, "be brief") is None
