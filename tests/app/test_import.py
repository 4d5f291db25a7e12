"""Session ▸ Import conversations… in the real window: a realistic ChatGPT export becomes new
conversations with their branches as versions and their own times; a Chime JSONL export comes
back whole; a bad file, a cancel and a huge conversation import nothing; progress is shown."""

from __future__ import annotations

import functools
import json
import threading
import zipfile
from pathlib import Path
from typing import Any

import pytest
import shiboken6

import app.import_run as import_run
from core.events import UserMessage
from core.importing.chatgpt import read_conversation
from tests.app.window import Opener, RealApp, running
from tests.core.importing.chatgpt_export import Conversation, branched, export, with_code_and_image
from tests.fakes import FakeClock


@pytest.fixture
def open_app(qtbot, qapp, loop, tmp_path: Path, clock: FakeClock) -> Opener:
    return functools.partial(running, qtbot, qapp, loop, tmp_path / "data", clock)


def write(tmp_path: Path, name: str, data: bytes) -> Path:
    folder = tmp_path / "in"
    folder.mkdir(exist_ok=True)
    path = folder / name
    path.write_bytes(data)
    return path


def import_file(chime: RealApp, path: Path | None) -> None:
    chime.answers.import_paths.append(path)
    chime.trigger("import_conversations")
    chime.until(lambda: chime.started.verbs.imports.running is None)


def stored(chime: RealApp) -> list[str]:
    return sorted(p.name for p in (chime.chime.folder / "sessions").iterdir())


def test_a_chatgpt_export_becomes_conversations_with_versions(
    open_app: Opener, tmp_path: Path
) -> None:
    plain = Conversation("Shopping list")
    plain.say("hello", "sys", "assistant", "Hi! What can I do?")  # answers no question: left out
    plain.say("u1", "hello", "user", "Milk, eggs")
    plain.say("a1", "u1", "assistant", "Noted: milk and eggs.")
    path = write(tmp_path, "conversations.json", export(branched(), with_code_and_image(), plain))
    with open_app() as chime:
        before = set(stored(chime))
        import_file(chime, path)
        message = chime.window.message_bar.text()
        assert message.startswith("Imported 3 conversations from conversations.json.")
        assert "1 picture or file was not imported" in message
        assert message.endswith("1 message part Chime cannot show was left out.")
        titles = {title for _sid, title in chime.sidebar()}
        assert {"Trip to Lisbon", "Plot data", "Shopping list"} <= titles
        new = set(stored(chime)) - before
        assert len(new) == 3
        assert not list(chime.chime.folder.glob("import-*"))
        trip = next(sid for sid, title in chime.sidebar() if title == "Trip to Lisbon")
        chime.run(chime.controller.open_session(trip))
        texts = chime.transcript_texts()
        assert "Add a beach day" in texts
        assert "Cascais." in texts
        assert "Sintra." not in texts  # the other branch is a version, not shown
        model = chime.window.transcript_model
        versions = [model.row_at(r).version for r in range(model.rowCount())]  # type: ignore[union-attr]  # rows exist
        assert versions[0] == (2, 2)  # the regenerated answer: its question's second version
        assert (2, 2) in versions[1:]  # the edited question: its second version
        log = (chime.chime.folder / "sessions" / trip / "session.jsonl").read_text("utf-8")
        header = json.loads(log.splitlines()[0])
        assert header["createdAt"] == "2023-11-14T22:13:20.000Z"  # its own time, not today's
        chime.send("And a fourth day?")  # the imported conversation goes on in Chime
        assert chime.transcript_texts()[-2] == "And a fourth day?"


def test_a_chime_export_comes_back_whole(open_app: Opener, tmp_path: Path) -> None:
    with open_app() as chime:
        chime.send("remind me in 10 minutes to stretch")
        source = chime.controller.current or ""
        target = tmp_path / "in" / "mine.jsonl"
        target.parent.mkdir()
        chime.run(chime.controller.actions.export_current("jsonl", target))
        import_file(chime, target)
        assert chime.window.message_bar.text() == "Imported 1 conversation from mine.jsonl."
        (copy,) = set(stored(chime)) - {source}
        lines = (chime.chime.folder / "sessions" / copy / "session.jsonl").read_bytes()
        original = target.read_bytes()
        assert lines.split(b"\n")[1:] == original.split(b"\n")[1:]
        assert json.loads(lines.split(b"\n")[0])["id"] == copy


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        (b"hello", "it is neither a ChatGPT export nor a Chime JSONL export"),
        (b"[]", "it holds no conversations"),
        (b"", "it is neither a ChatGPT export nor a Chime JSONL export"),
    ],
)
def test_a_file_that_is_not_an_export_says_why(
    open_app: Opener, tmp_path: Path, data: bytes, reason: str
) -> None:
    path = write(tmp_path, "odd.json", data)
    with open_app() as chime:
        before = stored(chime)
        import_file(chime, path)
        assert chime.window.message_bar.text() == (
            f"odd.json could not be imported ({reason}). Nothing was imported."
        )
        assert stored(chime) == before


def test_a_file_bad_half_way_imports_nothing(open_app: Opener, tmp_path: Path) -> None:
    good = export(branched(), with_code_and_image())
    path = write(tmp_path, "conversations.json", good[:-1] + b', {"mapping": {}, oops}]')
    with open_app() as chime:
        before = stored(chime)
        import_file(chime, path)
        text = chime.window.message_bar.text()
        assert text.startswith("conversations.json could not be imported (conversation 3: not JSON")
        assert text.endswith("Nothing was imported.")
        assert stored(chime) == before
        assert not list(chime.chime.folder.glob("import-*"))


def test_a_missing_file_and_a_cancelled_question(open_app: Opener, tmp_path: Path) -> None:
    with open_app() as chime:
        import_file(chime, tmp_path / "gone.json")
        assert chime.window.message_bar.text() == (
            "gone.json could not be imported (No such file or directory). Nothing was imported."
        )
        chime.answers.import_paths.append(None)
        chime.trigger("import_conversations")
        assert chime.started.verbs.imports.running is None


def test_a_huge_conversation_is_refused(
    open_app: Opener, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(import_run, "MAX_CONVERSATION", 10_000)
    big = Conversation("Big")
    big.say("u1", "sys", "user", "x" * 20_000)
    path = write(tmp_path, "big.json", export(branched(), big))
    with open_app() as chime:
        before = stored(chime)
        import_file(chime, path)
        assert chime.window.message_bar.text() == (
            "big.json could not be imported (conversation 2: a conversation larger than 10,000 "
            "bytes). Nothing was imported."
        )
        assert stored(chime) == before


def test_a_long_import_shows_its_progress_and_can_be_cancelled(
    open_app: Opener, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    conversations = []
    for n in range(40):
        c = Conversation(f"Chat {n}")
        c.say("u1", "sys", "user", f"question {n} " + "words " * 2000)
        conversations.append(c)
    path = write(tmp_path, "conversations.json", export(*conversations))
    monkeypatch.setattr(import_run, "CHUNK", 4096)
    gate, reached = threading.Event(), threading.Event()
    read = 0

    def slow(value: Any, fallback: int, attach: Any) -> Any:
        nonlocal read
        read += 1
        if read == 3:
            reached.set()
            gate.wait(10)
        return read_conversation(value, fallback, attach)

    monkeypatch.setattr(import_run, "read_conversation", slow)
    with open_app() as chime:
        before = stored(chime)
        chime.answers.import_paths.append(path)
        chime.trigger("import_conversations")
        chime.until(reached.is_set)
        chime.trigger("import_conversations")  # one import at a time: not even asked
        assert chime.answers.import_paths == []
        dialog = chime.started.verbs.imports.progress
        assert dialog is not None
        chime.until(lambda: dialog.count.text() == "2 conversations read")
        assert dialog.isVisible()
        assert 0 < dialog.bar.value() < 1000
        chime.inside(dialog.buttons.rejected.emit)  # Cancel
        assert dialog.label.text() == "Cancelling… nothing is imported."
        gate.set()
        chime.until(lambda: chime.started.verbs.imports.running is None)
        assert not shiboken6.isValid(dialog) or not dialog.isVisible()
        assert chime.window.message_bar.text() == "Import cancelled: nothing was imported."
        assert stored(chime) == before
        assert not list(chime.chime.folder.glob("import-*"))


PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 32


def test_the_export_zip_brings_its_pictures_as_attachments(
    open_app: Opener, tmp_path: Path
) -> None:
    archive = tmp_path / "in" / "chatgpt-export.zip"
    archive.parent.mkdir()
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as out:
        out.writestr("conversations.json", export(with_code_and_image(), branched()))
        out.writestr("file-AbC123-chart.png", PNG)
        out.writestr("file-Other-unused.bin", b"\x00\x01")
        out.writestr("chat.html", "<html></html>")
    with open_app() as chime:
        import_file(chime, archive)
        assert chime.window.message_bar.text() == (
            "Imported 2 conversations from chatgpt-export.zip."
        )
        plot = next(sid for sid, title in chime.sidebar() if title == "Plot data")
        chime.run(chime.controller.open_session(plot))
        opened = chime.controller.open[plot]
        question = next(e.event for e in opened.session.entries if isinstance(e.event, UserMessage))
        assert question.text == "What does this chart show?"
        (picture,) = question.attachments
        assert (picture.name, picture.media_type, picture.size) == (
            "chart.png",
            "image/png",
            len(PNG),
        )
        stored = chime.chime.folder / "sessions" / plot / "attachments" / picture.sha256
        assert stored.read_bytes() == PNG


@pytest.mark.parametrize(
    ("members", "reason"),
    [
        ({"readme.txt": b"x"}, "the zip holds no conversations.json"),
        ({"conversations.json": b"[{]"}, "conversation 1: not JSON"),
    ],
)
def test_a_zip_without_a_good_export_says_why(
    open_app: Opener, tmp_path: Path, members: dict[str, bytes], reason: str
) -> None:
    archive = tmp_path / "in" / "odd.zip"
    archive.parent.mkdir()
    with zipfile.ZipFile(archive, "w") as out:
        for name, data in members.items():
            out.writestr(name, data)
    with open_app() as chime:
        before = stored(chime)
        import_file(chime, archive)
        assert chime.window.message_bar.text().startswith(
            f"odd.zip could not be imported ({reason}"
        )
        assert stored(chime) == before


def test_the_same_file_imported_again_says_so_and_makes_no_duplicates(
    open_app: Opener, tmp_path: Path
) -> None:
    first = export(branched(), with_code_and_image())
    path = write(tmp_path, "conversations.json", first)
    later = Conversation("Shopping list")
    later.say("u1", "root", "user", "Milk, eggs")
    later.say("a1", "u1", "assistant", "Noted.")
    newer = write(tmp_path, "newer.json", export(branched(), with_code_and_image(), later))
    with open_app() as chime:
        before = set(stored(chime))
        import_file(chime, path)
        imported = set(stored(chime)) - before
        assert len(imported) == 2
        import_file(chime, path)
        assert chime.window.message_bar.text() == (
            "conversations.json was imported before: its 2 conversations are in the list "
            "already. Nothing was imported."
        )
        assert set(stored(chime)) - before == imported
        import_file(chime, newer)  # a later export: only what is new comes in
        assert chime.window.message_bar.text() == (
            "Imported 1 conversation from newer.json. 2 conversations imported before were "
            "left out."
        )
        assert len(set(stored(chime)) - before) == 3
        titles = [title for _sid, title in chime.sidebar()]
        assert titles.count("Trip to Lisbon") == 1


def test_a_chime_export_imported_twice_is_one_conversation(
    open_app: Opener, tmp_path: Path
) -> None:
    with open_app() as chime:
        chime.send("hello")
        target = tmp_path / "in" / "mine.jsonl"
        target.parent.mkdir()
        chime.run(chime.controller.actions.export_current("jsonl", target))
        import_file(chime, target)
        count = len(stored(chime))
        import_file(chime, target)
        assert chime.window.message_bar.text() == (
            "mine.jsonl was imported before: its 1 conversation is in the list already. "
            "Nothing was imported."
        )
        assert len(stored(chime)) == count
