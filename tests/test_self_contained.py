"""The repository stands alone: no tracked file names a path outside it.

A clone with nothing beside it must install, run and pass its tests, and a reader must find every
document a file points to inside the clone. Two checks: no tracked text names a place outside the
repository (a parent folder of the checkout, a machine's absolute path), and every relative link
in a Markdown file resolves to a file or folder of the repository.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
OUTSIDE = re.compile(
    r"\.\./shared\b"  # the folder the specification was first handed over in
    r"|(?<![\w.])(?:\.\./){1,}(?:spec|conformance|STYLE\.md)\b"  # its documents, by relative path
    r"|(?<![\w/])/(?:work|home|root|Users)/[\w.-]+"  # an absolute path of some machine
)
LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")
THIS_FILE = Path(__file__).resolve()
UP = ".." + "/"  # the planted samples below are built, so this file names no outside path either


def tracked_files() -> list[Path]:
    """The files git tracks (a clone's content); every file under the root without git."""
    try:
        listed = subprocess.run(
            ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True
        ).stdout
    except (OSError, subprocess.CalledProcessError):
        return [p for p in ROOT.rglob("*") if p.is_file() and ".git" not in p.parts]
    return [ROOT / name for name in listed.decode("utf-8").split("\0") if name]


def texts() -> list[tuple[Path, str]]:
    found = []
    for path in tracked_files():
        if path.resolve() == THIS_FILE or not path.is_file():
            continue
        try:
            found.append((path, path.read_text(encoding="utf-8")))
        except UnicodeDecodeError:  # a binary file (a screenshot) names no path
            continue
    return found


def outside_references(text: str) -> list[str]:
    return [match.group(0) for match in OUTSIDE.finditer(text)]


def broken_links(path: Path, text: str) -> list[str]:
    """Relative Markdown link targets of ``path`` that leave the repository or do not exist."""
    broken = []
    for target in LINK.findall(text):
        if re.match(r"[a-z]+:", target):  # https:, mailto:
            continue
        resolved = (path.parent / target).resolve()
        if not resolved.is_relative_to(ROOT) or not resolved.exists():
            broken.append(target)
    return broken


def test_no_tracked_file_names_a_path_outside_the_repository() -> None:
    found = {
        str(path.relative_to(ROOT)): hits
        for path, text in texts()
        if (hits := outside_references(text))
    }
    assert found == {}


def test_every_relative_markdown_link_resolves_inside_the_repository() -> None:
    found = {
        str(path.relative_to(ROOT)): bad
        for path, text in texts()
        if path.suffix == ".md" and (bad := broken_links(path, text))
    }
    assert found == {}


@pytest.mark.parametrize(
    "planted",
    [
        f"see {UP}shared/spec/schedule.md",
        f"cases in {UP}conformance/ (README)",
        f'ROOT.parent / "shared"  # {UP}shared',
        f"the house style is {UP}STYLE.md",
        "data under /work/main/sessions",
        "see /home/alice/chime",
    ],
)
def test_the_check_catches_a_planted_outside_reference(planted: str) -> None:
    assert outside_references(planted) != []


def test_the_check_accepts_paths_inside_the_repository() -> None:
    ok = "docs/spec/schedule.md §10.6, tests/data/conformance/, https://example.org/a/b"
    assert outside_references(ok) == []


def test_a_link_out_of_the_repository_is_reported() -> None:
    page = ROOT / "docs" / "page.md"
    assert broken_links(page, f"[spec]({UP}{UP}shared/spec/README.md)") != []
    assert broken_links(page, "[spec](spec/README.md)") == []
    assert broken_links(page, "[web](https://example.org/x)") == []


TOP_LEVEL = {
    "pyproject.toml",
    "README.md",
    ".gitignore",
    "app",
    "ui",
    "core",
    "tests",
    "resources",
    ".ci",
    "bench",
    "scripts",
    "docs",
}
"""The repository's fixed top level: the project's layout, which embedding code and CI rely on."""


def test_the_top_level_holds_only_the_fixed_entries() -> None:
    entries = {path.relative_to(ROOT).parts[0] for path in tracked_files()}
    assert entries - TOP_LEVEL == set()  # a stray screenshot or script lands in docs/ or scripts/
