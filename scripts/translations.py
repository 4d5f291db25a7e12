"""Chime's translations: extract the window's strings into the .ts files and compile the .qm files.

    .venv/bin/python scripts/translations.py           # update resources/i18n/chime_*.ts, build .qm
    .venv/bin/python scripts/translations.py --check   # exit 1 naming what is missing or unfinished

The update runs ``pyside6-lupdate`` over every Python file under ``ui/`` and ``app/`` (with
``-no-obsolete``: strings gone from the code leave the .ts) and ``pyside6-lrelease`` into the .qm
beside it. New strings arrive as unfinished messages: translate them in the .ts (Qt Linguist, or
by hand: fill ``<translation>`` and drop ``type="unfinished"``), then run the update again.
Locations are left out of the .ts (``-locations none``), so moving code does not change it.

``--check`` changes nothing: it extracts into a temporary copy and reports each string of the code
that the .ts lacks, each message left unfinished, and a .qm that is not what lrelease makes of the
.ts. The test suite runs it (tests/app/test_language.py).
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
I18N = ROOT / "resources" / "i18n"
LANGUAGES = {"de": "de_DE", "en": "en"}
"""Each shipped translation: chime_<key>.ts, and the language lupdate writes into it. English is
the source language: chime_en.ts holds only the plural forms ("%n active reminder(s)" reads
"1 active reminder", "2 active reminders")."""
SOURCES = ("ui", "app")

Message = tuple[str, str, str]
"""(context, source text, disambiguation comment): how Qt finds a translation."""


def tool(name: str) -> str:
    """A PySide6 tool from this Python's environment (the venv), else from PATH."""
    beside = Path(sys.executable).parent / name
    found = str(beside) if beside.exists() else shutil.which(name)
    if found is None:
        raise SystemExit(f"{name} not found: install PySide6 into this environment")
    return found


def source_files() -> list[str]:
    return sorted(str(p.relative_to(ROOT)) for d in SOURCES for p in (ROOT / d).rglob("*.py"))


def extract(ts: Path, language: str) -> None:
    """Update ``ts`` from the sources (created when missing)."""
    command = [tool("pyside6-lupdate"), *source_files(), "-no-obsolete", "-locations", "none"]
    command += ["-source-language", "en", "-target-language", language, "-ts", str(ts)]
    if language == "en":
        command.append("-pluralonly")
    subprocess.run(command, cwd=ROOT, check=True, capture_output=True, text=True)


def compile_qm(ts: Path, qm: Path) -> None:
    command = [tool("pyside6-lrelease"), str(ts), "-qm", str(qm)]
    subprocess.run(command, cwd=ROOT, check=True, capture_output=True, text=True)


@dataclass(frozen=True, slots=True)
class Reading:
    """The messages of a .ts file and those of them not translated yet."""

    messages: frozenset[Message]
    unfinished: tuple[Message, ...]


def read_ts(ts: Path) -> Reading:
    messages: set[Message] = set()
    unfinished: list[Message] = []
    for context in ET.parse(ts).getroot().iter("context"):
        name = context.findtext("name") or ""
        for message in context.iter("message"):
            key = (name, message.findtext("source") or "", message.findtext("comment") or "")
            messages.add(key)
            translation = message.find("translation")
            forms = [] if translation is None else [f.text for f in translation.iter("numerusform")]
            texts = forms or ([] if translation is None else [translation.text])
            if (
                translation is None
                or translation.get("type") in ("unfinished", "obsolete", "vanished")
                or not all(t and t.strip() for t in texts)
            ):
                unfinished.append(key)
    return Reading(frozenset(messages), tuple(unfinished))


def problems(key: str, language: str) -> list[str]:
    """What is out of date in chime_<key>.ts/.qm, one line each (empty: all is well)."""
    ts, qm = I18N / f"chime_{key}.ts", I18N / f"chime_{key}.qm"
    if not ts.exists():
        return [f"{ts.relative_to(ROOT)} is missing: run scripts/translations.py"]
    found: list[str] = []
    with tempfile.TemporaryDirectory() as folder:
        fresh = Path(folder) / ts.name
        shutil.copyfile(ts, fresh)
        extract(fresh, language)
        committed, extracted = read_ts(ts), read_ts(fresh)
        for context, text, _comment in sorted(extracted.messages - committed.messages):
            found.append(f"{ts.name}: new string (context {context!r}): {text!r}")
        for context, text, _comment in sorted(committed.messages - extracted.messages):
            found.append(f"{ts.name}: no longer in the code (context {context!r}): {text!r}")
        for context, text, _comment in committed.unfinished:
            found.append(f"{ts.name}: unfinished (context {context!r}): {text!r}")
        built = Path(folder) / qm.name
        compile_qm(ts, built)
        if not qm.exists() or qm.read_bytes() != built.read_bytes():
            found.append(f"{qm.relative_to(ROOT)} is not built from {ts.name}")
    if found:
        found.append("run scripts/translations.py, translate the unfinished messages, run it again")
    return found


def update(key: str, language: str) -> None:
    ts, qm = I18N / f"chime_{key}.ts", I18N / f"chime_{key}.qm"
    I18N.mkdir(parents=True, exist_ok=True)
    extract(ts, language)
    compile_qm(ts, qm)
    unfinished = read_ts(ts).unfinished
    print(
        f"{ts.relative_to(ROOT)}: {len(read_ts(ts).messages)} strings, {len(unfinished)} unfinished"
    )
    for context, text, _comment in unfinished:
        print(f"  unfinished (context {context!r}): {text!r}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--check", action="store_true", help="report, change nothing")
    args = parser.parse_args(argv)
    if not args.check:
        for key, language in LANGUAGES.items():
            update(key, language)
        return 0
    found = [line for key, language in LANGUAGES.items() for line in problems(key, language)]
    for line in found:
        print(line)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
