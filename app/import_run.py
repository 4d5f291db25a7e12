"""Importing a file of conversations into the data folder, in a worker thread (``run_import``).

The file is read in 1 MiB chunks: a ChatGPT export (``conversations.json``, or the export's zip:
then the pictures and files beside it become the attachments of the messages that sent them,
``classify``'d as a file the person attached would be) through ``core.importing.json_array`` (only the
conversation being read is held, each at most ``MAX_CONVERSATION`` bytes), a Chime JSONL export
line by line; so a 100 MB file costs the memory of its largest conversation, not of the file.
Each conversation is written as a new session into a staging folder ``<data>/import-<id>/``
(``core.session.jsonl_store.stage_session``), and only when every conversation of the file was
read are they made durable and moved into ``sessions/`` (``publish_staged``: each session whole). So a file that turns
out bad half-way, a cancel, or a full disk imports nothing; a crash leaves the staging folder,
which the next import removes. ``Cancelled`` is raised between chunks and conversations once
``cancelled`` is set; ``ImportRefused`` carries the reason a file cannot be imported.

A conversation imported before (``core.importing.sources``: the data folder's ``imported.json``
names the source of each imported session) is not imported again while its session is in the
list: it is counted (``ImportResult.already``), and a file whose every conversation came in
before raises ``AlreadyImported``. The index is written once the sessions are in.
"""

from __future__ import annotations

import logging
import os
import re
import threading
import zipfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path, PurePosixPath
from typing import IO, Any, TypeVar

from core.events import Attachment
from core.importing.chatgpt import Attach, Imported, read_conversation
from core.importing.chime_log import ChimeLog, file_kind
from core.importing.json_array import ArraySplitter
from core.importing.session_lines import event_lines, header_line
from core.importing.sources import (
    INDEX_NAME,
    chatgpt_source,
    chime_source,
    read_sources,
    sources_json,
)
from core.instant import datetime_to_ms
from core.jsonread import MIB, JsonLimits, parse_json
from core.session import jsonl_store as disk
from core.session.attachments import IMAGE_LIMIT, AttachmentStore, classify
from core.session.lines import is_session_id, session_id

T = TypeVar("T")
_log = logging.getLogger(__name__)
CHUNK = MIB
MAX_CONVERSATION = 64 * MIB
"""The largest single conversation of a ChatGPT export that is read (the whole file has no
limit: it is read piece by piece)."""
STAGING = "import-"
Progress = Callable[[int, int, int], None]
"""Called as ``progress(bytes read, file size, conversations read)``."""


class Cancelled(Exception):  # noqa: N818 -- a signal, not an error
    """The person cancelled the import: nothing was imported."""


class ImportRefused(Exception):  # noqa: N818 -- named for what the window says
    """The file cannot be imported; the message is the reason (a short English clause)."""


class AlreadyImported(Exception):  # noqa: N818 -- named for what the window says
    """Every conversation of the file was imported before (``count`` of them): nothing is."""

    def __init__(self, count: int) -> None:
        super().__init__(f"{count} conversation(s) imported before")
        self.count = count


@dataclass(frozen=True, slots=True)
class ImportResult:
    """What was imported: the new sessions' ids, and what of them could not be."""

    kind: str
    session_ids: tuple[str, ...]
    images: int = 0
    files: int = 0
    skipped: int = 0
    already: int = 0
    """Conversations left out because they were imported before."""
    sources: tuple[tuple[str, str], ...] = ()
    """(source, session id) of the new sessions (``core.importing.sources``)."""


def run_import(
    path: Path, data_dir: Path, now: datetime, progress: Progress, cancelled: threading.Event
) -> ImportResult:
    """Import every conversation of ``path`` (see the module docstring)."""
    _remove_leftovers(data_dir)
    staging = data_dir / f"{STAGING}{session_id(now, os.urandom(10))}"
    known = _known_sources(data_dir)
    try:
        with path.open("rb") as handle:
            if zipfile.is_zipfile(handle):
                handle.seek(0)
                result = _from_zip(handle, staging, now, progress, cancelled, known)
            else:
                handle.seek(0)
                size = os.fstat(handle.fileno()).st_size
                kind = file_kind(handle.read(64 * 1024))
                handle.seek(0)
                if kind is None:
                    raise ImportRefused("it is neither a ChatGPT export nor a Chime JSONL export")
                job = _Job(handle, size, staging, now, progress, cancelled, known)
                result = job.chatgpt() if kind == "chatgpt" else job.chime()
        if cancelled.is_set():  # the last moment a cancel leaves nothing: moving in has begun
            raise Cancelled
        disk.publish_staged(
            (staging / sid, disk.session_dir(data_dir, sid)) for sid in result.session_ids
        )
        _remember(data_dir, {**known, **dict(result.sources)})
        return result
    finally:
        if staging.exists():
            disk.remove_tree(staging)


INDEX_LIMIT = 64 * MIB


def _known_sources(data_dir: Path) -> dict[str, str]:
    """The sources imported before whose sessions are still in the list (an unreadable index
    knows none: the import goes on)."""
    found = read_sources(disk.read_file(data_dir / INDEX_NAME, INDEX_LIMIT))
    return {source: sid for source, sid in found.items() if _listed(data_dir, sid)}


def _listed(data_dir: Path, sid: str) -> bool:
    """Whether ``sid`` is a session in the list (a hand-edited index may name anything, even a
    path out of the data folder)."""
    return is_session_id(sid) and disk.session_dir(data_dir, sid).is_dir()


def _remember(data_dir: Path, sources: dict[str, str]) -> None:
    """Write the index (the sessions are in already: a failure only forgets their sources)."""
    try:
        disk.replace_derived(data_dir / INDEX_NAME, sources_json(sources))
    except OSError as error:
        _log.warning("could not write %s: %s", INDEX_NAME, error)


_FILE_ID = re.compile(r"(file[-_][A-Za-z0-9]+)")


def _from_zip(
    handle: IO[bytes],
    staging: Path,
    now: datetime,
    progress: Progress,
    cancelled: threading.Event,
    known: dict[str, str],
) -> ImportResult:
    """ChatGPT's export zip: its ``conversations.json``, with the pictures and files it holds
    beside it (named ``file-<id>-<name>``) attached to the messages that sent them."""
    try:
        archive = zipfile.ZipFile(handle)
    except (zipfile.BadZipFile, ValueError) as error:
        raise ImportRefused(f"the zip cannot be read: {error}") from None
    with archive:
        members = archive.infolist()
        found = [m for m in members if PurePosixPath(m.filename).name == "conversations.json"]
        if not found:
            raise ImportRefused("the zip holds no conversations.json")
        files = _ZipFiles(archive, members)
        with archive.open(found[0]) as inner:
            job = _Job(inner, found[0].file_size, staging, now, progress, cancelled, known, files)
            return job.chatgpt()


class _ZipFiles:
    """The files of an export zip by their ChatGPT file id, made attachments on demand."""

    def __init__(self, archive: zipfile.ZipFile, members: list[zipfile.ZipInfo]) -> None:
        self._archive = archive
        self._by_id: dict[str, zipfile.ZipInfo] = {}
        for member in members:
            match = _FILE_ID.match(PurePosixPath(member.filename).name)
            if match and not member.is_dir():
                self._by_id.setdefault(match.group(1), member)

    def attach(self, file_id: str, name: str, session: Path) -> Attachment | None:
        """The attachment of the file ``file_id``, stored in ``session``'s folder; None when
        the zip does not hold it or Chime cannot attach it (too big, neither text nor a
        picture)."""
        member = self._by_id.get(file_id)
        if member is None or member.file_size > IMAGE_LIMIT:
            return None
        data = self._archive.read(member)
        made = classify(name, data)
        if not isinstance(made, Attachment):
            return None
        AttachmentStore(session).put(made, data)
        return made


def _remove_leftovers(data_dir: Path) -> None:
    """Staging folders a crash left behind (nothing in them was ever listed)."""
    for found in data_dir.glob(f"{STAGING}*"):
        if found.is_dir():
            disk.remove_tree(found)


class _Job:
    """One file being imported into a staging folder."""

    def __init__(
        self,
        handle: IO[bytes],
        size: int,
        staging: Path,
        now: datetime,
        progress: Progress,
        cancelled: threading.Event,
        known: dict[str, str],
        files: _ZipFiles | None = None,
    ) -> None:
        self._files = files
        self._known = known
        self._sources: dict[str, str] = {}
        self._already = 0
        self._handle, self._size, self._staging = handle, size, staging
        self._now, self._progress, self._cancelled = now, progress, cancelled
        self._read = 0
        self._ids: list[str] = []

    def chatgpt(self) -> ImportResult:
        splitter = ArraySplitter(MAX_CONVERSATION)
        limits = JsonLimits(MAX_CONVERSATION)
        images = files = skipped = 0
        number = 0
        for chunk in self._chunks():
            for element in _split(splitter, chunk):
                number += 1
                value = _refused_at(number, parse_json, element, limits)
                source = chatgpt_source(value, element)
                if self._seen(source):
                    continue
                sid = self._new_id()
                attach = self._attach(sid)
                imported = _refused_at(number, read_conversation, value, self._now_ms(), attach)
                self._write(sid, imported)
                self._sources[source] = sid
                images, files = images + imported.images, files + imported.files
                skipped += imported.skipped
                self._tell()
        _split(splitter, b"", end=True)
        if not self._ids and self._already:
            raise AlreadyImported(self._already)
        if not self._ids:
            raise ImportRefused("it holds no conversations")
        sources = tuple(self._sources.items())
        return ImportResult(
            "chatgpt", tuple(self._ids), images, files, skipped, self._already, sources
        )

    def chime(self) -> ImportResult:
        sid = self._new_id()
        log = ChimeLog(sid)
        lines = self._lines()
        try:
            header = log.line(next(lines, b"").rstrip(b"\n"))
            body = (log.line(line.rstrip(b"\n")) for line in lines)
            disk.stage_session(self._staging / sid, header, _checked(body, log))
        except ValueError as error:
            raise ImportRefused(str(error)) from None
        source = chime_source(log.source_id, log.count, log.last_at)
        if self._seen(source):
            raise AlreadyImported(1)
        self._ids.append(sid)
        self._tell()
        return ImportResult("chime", (sid,), sources=((source, sid),))

    def _seen(self, source: str) -> bool:
        """True (and counted) when ``source`` was imported before, or earlier in this file."""
        if source in self._known or source in self._sources:
            self._already += 1
            return True
        return False

    def _attach(self, sid: str) -> Attach:
        files = self._files
        if files is None:
            return lambda _file_id, _name: None
        return lambda file_id, name: files.attach(file_id, name, self._staging / sid)

    def _write(self, sid: str, imported: Imported) -> None:
        body = event_lines(imported.created_ms, imported.events)
        disk.stage_session(self._staging / sid, header_line(sid, imported.created_ms), body)
        self._ids.append(sid)

    def _chunks(self) -> Iterator[bytes]:
        while chunk := self._handle.read(CHUNK):
            self._check()
            self._read += len(chunk)
            yield chunk
        self._check()

    def _lines(self) -> Iterator[bytes]:
        for line in self._handle:
            self._read += len(line)
            if self._read // CHUNK != (self._read - len(line)) // CHUNK:
                self._check()
                self._tell()
            yield line

    def _check(self) -> None:
        if self._cancelled.is_set():
            raise Cancelled

    def _tell(self) -> None:
        self._progress(self._read, self._size, len(self._ids))

    def _new_id(self) -> str:
        return session_id(self._now, os.urandom(10))

    def _now_ms(self) -> int:
        return datetime_to_ms(self._now)


def _split(splitter: ArraySplitter, chunk: bytes, *, end: bool = False) -> list[bytes]:
    """The conversations ``chunk`` completes (or the end's check); a refusal names the
    conversation being read."""
    try:
        if end:
            splitter.end()
            return []
        return splitter.feed(chunk)
    except ValueError as error:
        raise ImportRefused(f"conversation {splitter.count + 1}: {error}") from None


def _refused_at(number: int, read: Callable[..., T], *args: Any) -> T:
    """``read(*args)``; its ValueError as the refusal of conversation ``number``."""
    try:
        return read(*args)
    except ValueError as error:
        raise ImportRefused(f"conversation {number}: {error}") from None


def _checked(body: Iterator[bytes], log: ChimeLog) -> Iterator[bytes]:
    """The body's lines, then the log's own end check (a torn group refuses the file)."""
    yield from body
    log.end()
