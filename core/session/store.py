"""SessionStore: the sessions of one data directory (session-log.md §1, §4-§7).

Creates, opens (live or read-only), lists, forks, trashes, restores and exports sessions. Async:
every disk step runs in a worker thread through ``jsonl_store``; the clock and the randomness of
new ids are injected. Choices where the spec is silent:

- ``open`` of a session whose lock is held elsewhere returns it read-only (``read_only_reason``
  says so) instead of raising; ``read_only=True`` opens without taking the lock. So does a live
  ``open`` whose folder cannot be written (a read-only disk, no permission: the lock or the log
  cannot be opened for writing), instead of letting the raw OSError escape.
- ``fork(id, cut)`` moves ``cut`` back to a turn boundary: when it falls inside a turn
  (``turn/start`` .. ``turn/end``) it moves to that ``turn/start``, and never splits a group. It is
  also clamped to the parent's good prefix, so a corrupt session can be rescued.
- ``list`` reads each log's header, its checkpoint's folds (not re-hashed: a title is cosmetic) and
  only the bytes after it; sessions whose header is unreadable are listed with ``problem`` set.
- Trashing a session that is live (its lock is held) raises SessionLockedError.
"""

from __future__ import annotations

import asyncio
import builtins
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from core.clock import Clock, NewId
from core.errors import SessionError, SessionLockedError, SessionNotFoundError
from core.instant import format_instant
from core.session import jsonl_store as disk
from core.session.attachments import AttachmentStore
from core.session.checkpointer import CHECKPOINT_EVERY
from core.session.export import render_markdown
from core.session.lines import SessionHeader, is_session_id, session_id
from core.session.live import LiveSession
from core.session.loaded import LoadedSession, ReadOnly
from core.session.recovery import load_session
from core.session.repair import closers
from core.session.summary import SessionFileSummary, summarize
from core.session.turns import fork_point
from core.session.writer import WRITE_BEHIND_SECONDS, Scheduler, loop_scheduler

READ_ONLY = "Opened read-only."
OPEN_ELSEWHERE = (
    "This session is open in another window or process; it is shown read-only here, as it was "
    "when opened, and runs nothing. It opens here live by itself once that one closes it."
)

CANNOT_WRITE = "This session's folder cannot be written ({why}); it is shown read-only."


def cannot_write(error: OSError) -> str:
    return CANNOT_WRITE.format(why=error.strerror or str(error))


@dataclass(frozen=True)
class StoreOptions:
    """Seams for tests and tuning: disk calls, the write-behind timer, checkpoint spacing."""

    file_ops: disk.FileOps | None = None
    scheduler: Scheduler = loop_scheduler
    write_behind_seconds: float = WRITE_BEHIND_SECONDS
    checkpoint_every: int = CHECKPOINT_EVERY


class SessionStore:
    """The sessions under ``data_dir``. ``new_id`` defaults to a UUIDv7 from ``clock`` and
    ``random_bytes``; a test passes a counter."""

    def __init__(
        self,
        data_dir: Path,
        clock: Clock,
        new_id: NewId | None = None,
        *,
        random_bytes: Callable[[int], bytes] = secrets.token_bytes,
        options: StoreOptions | None = None,
    ) -> None:
        self.data_dir = data_dir
        self._clock = clock
        self._new_id = new_id or (lambda: session_id(clock(), random_bytes(10)))
        self._options = options or StoreOptions()

    def _folder(self, session_id: str, *, trash: bool = False) -> Path:
        if not is_session_id(session_id):
            raise SessionNotFoundError(f"{session_id!r} is not a session id")
        return disk.session_dir(self.data_dir, session_id, trash=trash)

    async def create(self) -> LiveSession:
        """A new, empty session, durable on disk and open live."""
        header = SessionHeader(self._new_id(), format_instant(self._clock()))
        folder = self._folder(header.id)
        await asyncio.to_thread(disk.publish_session, folder, header.line(), iter(()))
        return await self.open(header.id)

    async def open(self, session_id: str, *, read_only: bool = False) -> LiveSession:
        """Open a session live (taking its lock) or read-only; recovery as session-log.md §4.

        Raises SessionNotFoundError, SessionFormatError (header invalid or unknown version), and
        SessionError when a live session's recovery closers cannot be made durable.
        """
        folder = self._folder(session_id)
        loaded = await asyncio.to_thread(self._load, folder, read_only)
        session = LiveSession(
            loaded,
            self._clock,
            scheduler=self._options.scheduler,
            write_behind_seconds=self._options.write_behind_seconds,
            checkpoint_every=self._options.checkpoint_every,
        )
        session.start()
        if not session.read_only:
            await self._close_open_turn(session)
            session.checkpoint_if_due()  # a long cold scan is not repeated after a crash
        return session

    async def lock_is_free(self, session_id: str) -> bool:
        """True when no one holds the session's live lock now (it is not taken: ``open`` does)."""
        folder = self._folder(session_id)
        return await asyncio.to_thread(_lock_is_free, folder)

    def _load(self, folder: Path, read_only: bool) -> LoadedSession:
        disk.require_session(folder)
        try:
            lock = None if read_only else disk.try_lock(folder)
        except OSError as error:  # a read-only disk or no permission: show it, run nothing
            return self._load_locked(folder, None, cannot_write(error))
        reason = None if lock is not None else (READ_ONLY if read_only else OPEN_ELSEWHERE)
        try:
            return self._load_locked(folder, lock, reason)
        except OSError as error:
            if lock is None:
                raise
            return self._load_locked(folder, None, cannot_write(error))

    def _load_locked(
        self, folder: Path, lock: disk.SessionLock | None, reason: str | None
    ) -> LoadedSession:
        try:
            loaded = load_session(
                folder,
                lock=lock,
                read_only_reason=reason,
                ops=self._options.file_ops,
                torn_stamp=self._torn_stamp,
            )
        except BaseException:
            if lock is not None:
                lock.release()
            raise
        if isinstance(loaded.access, ReadOnly) and lock is not None:
            lock.release()  # a corrupt log found under our lock: nothing will be written
        return loaded

    def _torn_stamp(self) -> str:
        return format_instant(self._clock()).replace("-", "").replace(":", "")

    async def _close_open_turn(self, session: LiveSession) -> None:
        """session-log.md §4.4: close a turn a crash left open, durably, before going live.

        An open turn the checkpoint reported waits for the checkpoint's verification (closers are
        decided on verified state); one the re-scan finds is closed by the session itself."""
        if session.open_turn() is not None:
            await session.verification()
            if session.read_only:
                return
        opened = session.open_turn()
        items = closers(
            opened.turn if opened is not None else None,
            session.open_calls(),
            session.started_calls(),
        )
        if not items:
            return
        for event in items:
            session.append_event(event)
        if not await session.flush():
            await session.abandon()
            raise SessionError(f"session {session.id}: the interrupted turn could not be closed")

    async def list(self) -> builtins.list[SessionFileSummary]:
        """Every session in ``sessions/``, most recently active first."""
        return await asyncio.to_thread(self._list, trash=False)

    async def list_trash(self) -> builtins.list[SessionFileSummary]:
        """Every session in ``trash/``, most recently active first."""
        return await asyncio.to_thread(self._list, trash=True)

    def _list(self, *, trash: bool) -> builtins.list[SessionFileSummary]:
        found = []
        for sid in disk.session_ids(self.data_dir, trash=trash):
            try:
                found.append(summarize(self._folder(sid, trash=trash), sid))
            except (FileNotFoundError, SessionNotFoundError):
                continue  # moved to or from the trash since the folder was listed
        return sorted(found, key=lambda s: (s.last_activity_at, s.id), reverse=True)

    async def fork(self, session_id: str, cut: int) -> LiveSession:
        """A new live session holding the parent's events ``[0, cut)`` verbatim (§6).

        ``cut`` is clamped to the parent's good, durable prefix (flush a live parent first: queued
        events are not on disk yet) and moved back to a turn boundary; the child's header has
        ``parentId`` and ``seedLength`` = the final cut.
        """
        parent = await self.open(session_id, read_only=True)
        try:
            await parent.verification()  # the cut is decided on verified events
            final = fork_point(parent.entries, cut)
            span = parent.byte_span(final)
            log_path = self._folder(session_id) / disk.LOG_NAME
            header = SessionHeader(self._new_id(), format_instant(self._clock()), parent.id, final)
            body = disk.copy_chunks(log_path, *span)
            child = self._folder(header.id)
            await asyncio.to_thread(disk.publish_session, child, header.line(), body)
            # The inherited messages name the parent's files (agent.md §7).
            files = AttachmentStore(self._folder(session_id))
            await asyncio.to_thread(files.copy_to, AttachmentStore(child))
        finally:
            await parent.close()
        return await self.open(header.id)

    async def trash(self, session_id: str) -> None:
        """Move ``sessions/<id>`` to ``trash/<id>``. SessionLockedError while it is live."""
        await asyncio.to_thread(self._trash, session_id)

    def _trash(self, session_id: str) -> None:
        folder = self._folder(session_id)
        disk.require_session(folder)
        lock = disk.try_lock(folder)
        if lock is None:
            raise SessionLockedError(f"session {session_id} is open; close it before deleting it")
        try:
            disk.move_session(folder, self._folder(session_id, trash=True))
        finally:
            lock.release()

    async def restore(self, session_id: str) -> None:
        """Move ``trash/<id>`` back to ``sessions/<id>``."""
        await asyncio.to_thread(
            disk.move_session, self._folder(session_id, trash=True), self._folder(session_id)
        )

    async def empty_trash(self) -> int:
        """Erase every trashed session for good; returns how many were erased."""
        return await asyncio.to_thread(self._empty_trash)

    def _empty_trash(self) -> int:
        ids = disk.session_ids(self.data_dir, trash=True)
        for sid in ids:
            disk.remove_tree(self._folder(sid, trash=True))
        return len(ids)

    async def export_markdown(
        self, session_id: str, target: Path | None = None, zone_name: str | None = None
    ) -> str:
        """The readable transcript of the shown path (attachments named), its times in
        ``zone_name`` (UTC when None); also written to ``target`` if given."""
        session = await self.open(session_id, read_only=True)
        try:
            await session.verification()
            text = render_markdown(
                session.header, session.title, session.entries, zone_name, session.conversation()
            )
        finally:
            await session.close()
        if target is not None:
            await asyncio.to_thread(disk.write_private, target, iter([text.encode("utf-8")]))
        return text

    async def export_live(
        self, session: LiveSession, kind: str, target: Path, zone_name: str | None = None
    ) -> None:
        """Write an open session's export from memory, its events not yet saved included: the
        way to keep a conversation whose folder vanished (``kind``: ``markdown`` or ``jsonl``)."""
        if kind == "markdown":
            text = render_markdown(
                session.header, session.title, session.entries, zone_name, session.conversation()
            )
            data = text.encode("utf-8")
        else:
            data = await asyncio.to_thread(session.log_bytes)
        await asyncio.to_thread(disk.write_private, target, iter([data]))

    async def export_jsonl(self, session_id: str, target: Path | None = None) -> bytes:
        """The raw log, every event and the schedule history; also written to ``target``."""
        path = self._folder(session_id) / disk.LOG_NAME
        raw = await asyncio.to_thread(disk.read_range, path, 0)
        if target is not None:
            await asyncio.to_thread(disk.write_private, target, iter([raw]))
        return raw


def _lock_is_free(folder: Path) -> bool:
    try:
        lock = disk.try_lock(folder)
    except OSError:  # a folder that cannot be written is never taken over
        return False
    if lock is None:
        return False
    lock.release()
    return True
