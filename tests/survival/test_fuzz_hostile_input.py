"""Fuzzing what a hostile file or model can hand the window (issue 24, points 1, 2 and 7): the
attachment reader on every kind of path (regular files of any content and name, folders, pipes,
sockets, devices, links to them, vanished files), and the transcript's Markdown on answers that
mix any letters with HTML of every form. A read must end, give the file's bytes or a sentence,
and never name the file with a hidden character; an answer must reach the screen whole. The long
runs are ``scripts/fuzz_hostile_input.py``."""

from __future__ import annotations

import os
import socket
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PySide6.QtGui import QFont, QPalette

from app.attach_read import read_file
from core.events import Attachment
from core.session.attachments import IMAGE_LIMIT, classify
from core.session.refusal import Refused
from core.visible_text import has_hidden
from ui.row_layouts import RowLayouts
from ui.theme import surfaces
from ui.transcript_rows import TranscriptRow

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("qapp")]
FUZZ = settings(max_examples=200, deadline=None, suppress_health_check=list(HealthCheck))

KINDS = st.sampled_from(
    [
        "regular",
        "regular",
        "regular",
        "empty",
        "sparse-huge",
        "folder",
        "fifo",
        "socket",
        "link-to-fifo",
        "link-to-zero",
        "dangling-link",
        "/dev/zero",
        "/dev/null",
        "/dev/urandom",
        "/proc/self/status",
    ]
)
NAMES = st.text(
    st.characters(blacklist_characters="/\x00", blacklist_categories=["Cs"]), min_size=1
).filter(lambda n: n not in (".", "..") and len(n.encode()) <= 200)
CONTENT = st.one_of(
    st.binary(max_size=4096),
    st.text(max_size=2000).map(str.encode),
    st.sampled_from([b"\x89PNG\r\n\x1a\n" + b"\x00" * 30, b"GIF89a" + b"\x01" * 10]),
)


def _make(folder: Path, kind: str, name: str, content: bytes) -> tuple[Path, socket.socket | None]:
    """The path to read: ``name`` in ``folder`` made as ``kind`` (a device path as itself)."""
    if kind.startswith("/"):
        return Path(kind), None
    path = folder / name
    held: socket.socket | None = None
    match kind:
        case "regular":
            path.write_bytes(content)
        case "empty":
            path.write_bytes(b"")
        case "sparse-huge":
            with path.open("wb") as file:
                file.truncate(IMAGE_LIMIT + 1 + len(content))
        case "folder":
            path.mkdir()
        case "fifo":
            os.mkfifo(path)
        case "socket":
            held = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            held.bind(".sock")  # relative and short: a socket path is limited to 108 bytes
            path.symlink_to(folder / ".sock")  # the name, whatever its length, leads to it
        case "link-to-fifo":
            os.mkfifo(folder / ".pipe")
            path.symlink_to(folder / ".pipe")
        case "link-to-zero":
            path.symlink_to("/dev/zero")
        case _:
            path.symlink_to(folder / ".gone")
    return path, held


@FUZZ
@given(kind=KINDS, name=NAMES, content=CONTENT)
def test_any_path_is_read_whole_and_within_the_bound_or_refused_with_a_sentence(
    kind: str, name: str, content: bytes
) -> None:
    with tempfile.TemporaryDirectory() as where:
        folder = Path(where)
        here = Path.cwd()
        os.chdir(folder)
        try:
            path, held = _make(folder, kind, name, content)
            try:
                outcome = read_file(path)
            finally:
                if held is not None:
                    held.close()
        finally:
            os.chdir(here)
    if kind in ("regular", "empty"):
        assert outcome == (content if kind == "regular" else b"")
    elif kind == "/proc/self/status":
        assert isinstance(outcome, bytes)
        assert b"Name:" in outcome
    elif kind == "/dev/null":  # a device, however harmless
        assert isinstance(outcome, Refused)
    else:
        assert isinstance(outcome, Refused)
    if isinstance(outcome, Refused):
        assert outcome.reason
        assert not has_hidden(outcome.reason.replace("\n", ""))
    else:
        assert len(outcome) <= IMAGE_LIMIT
        made = classify(name, outcome)
        assert isinstance(made, Attachment | Refused)
        if isinstance(made, Attachment):
            assert not has_hidden(made.name)


LETTERS = st.characters(categories=["L", "N"], exclude_characters="_")
WORD = st.builds(
    str.__add__, st.text(LETTERS, min_size=1, max_size=8), st.sampled_from(["", ",", "!", "?", ";"])
)  # no "1." or "1)": those start an ordered list, which is Markdown, not text
TAG_NAMES = st.sampled_from(
    ["title", "style", "textarea", "head", "script", "xmp", "plaintext", "iframe", "noscript",
     "template", "svg", "math", "table", "select", "b", "a", "img", "br", "div", "p"]
)  # fmt: skip
TAG = st.one_of(
    st.builds(lambda n, a: f"<{n}{a}>", TAG_NAMES, st.sampled_from(["", " x=y", ' z="<b>"'])),
    st.builds(lambda n: f"</{n}>", TAG_NAMES),
    st.builds(lambda w: f"<!--{w}-->", WORD),
    st.just("<!DOCTYPE html>"),
    st.builds(lambda w: f"<![CDATA[{w}]]>", WORD),
)
ANSWER = st.lists(
    st.tuples(st.one_of(WORD, TAG), st.sampled_from([" ", "\n", "\n\n", ""])), max_size=40
).map(lambda parts: "".join(token + gap for token, gap in parts))


def shown_text(text: str, kind: str) -> str:
    layouts = RowLayouts()
    layouts.configure(QFont(), surfaces(QPalette()), dark=False)
    row = TranscriptRow(kind, text)  # type: ignore[arg-type]  # "assistant" or "user"
    layout = layouts.layout(row, 500, expanded=False, caption="", time="")
    return "".join(piece.doc.toPlainText() for piece in layout.pieces)


@FUZZ
@given(answer=ANSWER, kind=st.sampled_from(["assistant", "user", "streaming"]))
def test_any_answer_mixed_with_html_reaches_the_screen_whole(answer: str, kind: str) -> None:
    assert "".join(shown_text(answer, kind).split()) == "".join(answer.split())
