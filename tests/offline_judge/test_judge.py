"""Every phrasing of the judge makes exactly its tool calls (known failures are strict xfails)."""

from __future__ import annotations

import pytest

from tests.offline_judge.judge import PHRASINGS_DE, Case, load_all, load_cases, run_case

CASES = load_all()
ENGLISH_WHEN_WRITTEN = 268
"""The English corpus's size when it was first written: the German one holds at least as many."""


def test_the_judge_holds_at_least_150_phrasings_in_every_family_it_names() -> None:
    assert len(CASES) >= 150
    assert len({case.family for case in CASES}) >= 10


def test_the_german_corpus_holds_as_many_phrasings_as_the_english_one_had_when_written() -> None:
    german = load_cases(PHRASINGS_DE, "de")
    assert len(german) >= ENGLISH_WHEN_WRITTEN
    assert len({case.family for case in german}) >= 10


def _param(case: Case) -> object:
    marks = [pytest.mark.xfail(reason=case.known, strict=True)] if case.known else []
    return pytest.param(case, id=case.name[:70], marks=marks)


@pytest.mark.parametrize("case", [_param(case) for case in CASES])
def test_the_phrasing_makes_its_tool_calls(case: Case) -> None:
    verdict = run_case(case)
    assert verdict.passed, verdict.why()
