"""The phrasing judge: what people type to the offline assistant, and the tool calls it must make.

``phrasings.jsonl`` (English) and ``phrasings_de.jsonl`` (German, written before the assistant
understood German, so that it does not flatter) hold one case per line (JSON):

- ``say``: the message judged; ``calls``: the exact tool calls its turn must make, in order, as
  ``[name, arguments]`` pairs (``[]``: it must call no tool, only answer);
- ``before`` (optional): earlier turns of the same conversation, run first and not judged; a
  turn ``"+N"`` moves the clock N minutes on, ``"!deliver"`` delivers what is due;
- ``says`` (optional): text the answer must contain; ``zone`` (default Europe/Berlin, null for an
  unknown zone) and ``now`` (default 2026-08-05T11:21:18Z, a Wednesday, 13:21:18 in Berlin);
- ``family``: the kind of phrasing; ``known`` (optional): why the assistant still gets it wrong
  (the case is then expected to fail, and a pass is reported so the mark can be removed).

Every case runs a real conversation with the real reminder tools on a fake clock
(``tests/core/llm/conversation.py``). ``python -m tests.offline_judge.judge`` prints the score
per family and every failure; ``tests/offline_judge/test_judge.py`` runs each case under pytest.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from tests.core.llm.conversation import Conversation

PHRASINGS = Path(__file__).with_name("phrasings.jsonl")
PHRASINGS_DE = Path(__file__).with_name("phrasings_de.jsonl")
CORPORA = {"en": PHRASINGS, "de": PHRASINGS_DE}
DEFAULT_NOW = "2026-08-05T11:21:18+00:00"
DEFAULT_ZONE = "Europe/Berlin"


@dataclass(frozen=True)
class Case:
    """One line of ``phrasings.jsonl``."""

    line: int
    say: str
    calls: list[list[Any]]
    family: str
    before: list[str] = field(default_factory=list)
    says: str | None = None
    zone: str | None = DEFAULT_ZONE
    now: str = DEFAULT_NOW
    known: str | None = None
    language: str = "en"

    @property
    def name(self) -> str:
        context = f"{' / '.join(self.before)} / " if self.before else ""
        return f"{self.language} {self.line:03d} {self.family}: {context}{self.say}"


@dataclass(frozen=True)
class Verdict:
    """What the assistant did with a case, and whether that was right."""

    case: Case
    calls: list[list[Any]]
    answer: str

    @property
    def passed(self) -> bool:
        return self.calls == self.case.calls and self._says()

    def _says(self) -> bool:
        return self.case.says is None or self.case.says.lower() in self.answer.lower()

    def why(self) -> str:
        parts = []
        if self.calls != self.case.calls:
            parts.append(f"calls {json.dumps(self.calls)}, wanted {json.dumps(self.case.calls)}")
        if not self._says():
            parts.append(f"answer lacks {self.case.says!r}")
        return "; ".join(parts) + f"\n      answer: {self.answer!r}"


def load_cases(path: Path = PHRASINGS, language: str = "en") -> list[Case]:
    """Every case of one data file (blank lines and lines starting with // are skipped)."""
    cases = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if line.strip() and not line.lstrip().startswith("//"):
            cases.append(Case(line=number, language=language, **json.loads(line)))
    return cases


def load_all() -> list[Case]:
    """The cases of every language's corpus."""
    return [case for language, path in CORPORA.items() for case in load_cases(path, language)]


def run_case(case: Case) -> Verdict:
    """Run the conversation of ``case`` and judge its last turn."""
    conversation = Conversation(datetime.fromisoformat(case.now), case.zone)
    try:
        conversation.play(case.before)
    except AssertionError as error:  # "!deliver" with nothing due: an earlier turn went wrong
        return Verdict(case, [["(earlier turns failed)", str(error)]], "")
    answer = conversation.say(case.say)
    return Verdict(case, [[name, args] for name, args in conversation.calls], answer)


def main() -> int:
    """Print the score per language and family and every failure; exit 0."""
    verdicts = [run_case(case) for case in load_all()]
    totals = Counter((v.case.language, v.case.family) for v in verdicts)
    passed = Counter((v.case.language, v.case.family) for v in verdicts if v.passed)
    for language, family in sorted(totals):
        key = (language, family)
        print(f"{language} {family:<14} {passed[key]:>3}/{totals[key]:<3}")
    for language in CORPORA:
        done = sum(n for (lang, _), n in passed.items() if lang == language)
        total = sum(n for (lang, _), n in totals.items() if lang == language)
        print(f"{language} {'all':<14} {done:>3}/{total}")
    for verdict in verdicts:
        if not verdict.passed:
            known = f" (known: {verdict.case.known})" if verdict.case.known else ""
            print(f"\nFAIL {verdict.case.name}{known}\n      {verdict.why()}")
        elif verdict.case.known:
            print(f"\nNOW PASSES {verdict.case.name} (remove its 'known' mark)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
