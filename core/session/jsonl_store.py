"""THE disk door of sessions: layout, publish without overwrite, durable appends, locks, trash.

Every file operation of core/ happens here (one door per kind of I/O: docs/architecture.md); nothing else in core opens a file.
Functions here block: async callers run them through ``asyncio.to_thread`` so the event loop
thread never waits on a write, an fsync, a rename or a directory listing. The one exception is
``LogFile.read``: reading an old event copies bytes out of a memory map of the log (page cache),
which is what makes ``LiveSession.events`` lazy without a thread hop per event.

Layout (session-log.md §1): ``<data>/sessions/<id>/session.jsonl``, ``.../lock``, derived
``.../checkpoint.json`` and ``.../offsets.bin``, torn tails ``.../session.jsonl.torn-<UTC>``, and
``<data>/trash/<id>/``. Directories are created 0700, files 0600.
"""

from __future__ import annotations

import contextlib
import errno
import mmap
import os
import shutil
import sys
from collections.abc import Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import BinaryIO, Protocol

import xxhash

from core.errors import SessionError, SessionNotFoundError

SESSIONS = "sessions"
TRASH = "trash"
LOG_NAME = "session.jsonl"
LOCK_NAME = "lock"
CHECKPOINT_NAME = "checkpoint.json"
OFFSETS_NAME = "offsets.bin"
TORN_PREFIX = LOG_NAME + ".torn-"
DIR_MODE = 0o700
FILE_MODE = 0o600
_CHUNK = 1 << 20
_BINARY = getattr(os, "O_BINARY", 0)


class LogVanishedError(OSError):
    """The live log's file is no longer the one at its path: it was deleted (its link count fell
    to 0, e.g. the data folder was removed) or moved or replaced. What is written to it is lost
    when it is closed, so a write that finds this does not count as durable."""


class FileOps(Protocol):
    """The three calls a durable append makes; tests substitute one that fails (ENOSPC)."""

    def pwrite(self, fd: int, data: bytes, offset: int) -> int: ...

    def sync(self, fd: int) -> None: ...

    def truncate(self, fd: int, length: int) -> None: ...


class OsFileOps:
    """The real calls: positional write, fsync (F_FULLFSYNC is not asked for), ftruncate."""

    def pwrite(self, fd: int, data: bytes, offset: int) -> int:
        if hasattr(os, "pwrite"):
            return os.pwrite(fd, data, offset)
        os.lseek(fd, offset, os.SEEK_SET)  # pragma: no cover -- Windows has no os.pwrite
        return os.write(fd, data)  # pragma: no cover -- Windows has no os.pwrite

    def sync(self, fd: int) -> None:
        os.fsync(fd)

    def truncate(self, fd: int, length: int) -> None:
        os.ftruncate(fd, length)


def session_dir(data_dir: Path, session_id: str, *, trash: bool = False) -> Path:
    return data_dir / (TRASH if trash else SESSIONS) / session_id


def digest(buffer: bytes | mmap.mmap | memoryview) -> str:
    """xxh3-128 of ``buffer`` as hex; never copies a memory map."""
    return str(xxhash.xxh3_128_hexdigest(buffer))


def digest_chunks(chunks: Iterable[bytes]) -> str:
    """``digest`` of the bytes of ``chunks`` joined, without joining them."""
    hasher = xxhash.xxh3_128()
    for chunk in chunks:
        hasher.update(chunk)
    return str(hasher.hexdigest())


SEGMENT = 32 << 20
"""The log digest hashes 32 MiB segments in parallel (xxhash releases the GIL)."""


HASH_STEP = 4 << 20
"""A segment is hashed this many bytes at a time, each step's pages let go after it (``let_go``):
hashing a long log does not hold it in memory."""


def _segment_digest(fd: int, start: int, size: int) -> bytes:
    hasher = xxhash.xxh3_128()
    with (
        mmap.mmap(fd, size, offset=start, access=mmap.ACCESS_READ) as view,
        memoryview(view) as whole,
    ):
        for at in range(0, size, HASH_STEP):
            end = min(size, at + HASH_STEP)
            hasher.update(whole[at:end])
            let_go(view, end)
    return bytes(hasher.digest())


def let_go(view: mmap.mmap, end: int) -> None:
    """Let go of the mapped pages of bytes [0, end) of ``view`` that this process has read: the
    page cache keeps them and a later read maps them again, so reading a long log does not leave
    it counted in this process's memory. Where the platform cannot (Windows), nothing happens."""
    advice = getattr(mmap, "MADV_DONTNEED", None)
    length = min(end, len(view))
    length -= length % mmap.PAGESIZE
    if advice is not None and length > 0:
        view.madvise(advice, 0, length)


class PendingDigest:
    """The digest of a log prefix, computed in worker threads while the caller does other work.

    Defined as xxh3-128 over the concatenated xxh3-128 digests of the prefix's 32 MiB segments,
    so it does not depend on how many threads computed it.
    """

    def __init__(self, fd: int, length: int) -> None:
        starts = range(0, length, SEGMENT)
        workers = max(1, min(len(starts), os.cpu_count() or 1))
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="chime-digest")
        self._parts = [
            self._pool.submit(_segment_digest, fd, start, min(SEGMENT, length - start))
            for start in starts
        ]

    def result(self) -> str:
        try:
            return digest(b"".join(part.result() for part in self._parts))
        finally:
            self._pool.shutdown()


class LogFile:
    """An open ``session.jsonl``: memory-mapped reads and durable positional appends."""

    def __init__(self, path: Path, *, writable: bool, ops: FileOps | None = None) -> None:
        flags = (os.O_RDWR if writable else os.O_RDONLY) | _BINARY
        try:
            self._fd = os.open(path, flags)
        except FileNotFoundError:
            raise SessionNotFoundError(f"no session log at {path}") from None
        self.path = path
        self._ops = ops or OsFileOps()
        self._map: mmap.mmap | None = None
        self._stale_tail = False
        opened = os.fstat(self._fd)
        self._identity = (opened.st_dev, opened.st_ino)

    def size(self) -> int:
        return os.fstat(self._fd).st_size

    def buffer(self) -> mmap.mmap | bytes:
        """A read-only view of the whole file as it is now (remapped when it grew)."""
        size = self.size()
        if self._map is None or len(self._map) < size:
            self._unmap()
            self._map = mmap.mmap(self._fd, 0, access=mmap.ACCESS_READ) if size else None
        return self._map if self._map is not None else b""

    def _unmap(self) -> None:
        if self._map is not None:
            self._map.close()
            self._map = None

    def read(self, start: int, end: int) -> bytes:
        """Bytes [start, end) of the log, remapping once if the file grew past the old map."""
        if self._map is None or len(self._map) < end:
            self.buffer()
        assert self._map is not None  # the header alone makes a log non-empty
        return self._map[start:end]

    def release(self, end: int | None = None) -> None:
        """Let go of the mapped pages of bytes [0, end) (all: None) this process has read
        (``let_go``): a scan or a find through a long log leaves memory where it was."""
        if self._map is not None:
            let_go(self._map, len(self._map) if end is None else end)

    def read_at(self, start: int, end: int) -> bytes:
        """Bytes [start, end) read from the file itself, safe in a worker thread while the event
        loop's thread reads or remaps (``read``): a positional read shares nothing with them."""
        if not hasattr(os, "pread"):  # pragma: no cover -- Windows has no os.pread
            return self.read(start, end)
        return os.pread(self._fd, end - start, start)

    def start_digest(self, length: int) -> PendingDigest:
        """Start hashing bytes [0, length) in worker threads (see PendingDigest)."""
        return PendingDigest(self._fd, length)

    def write_durably(self, data: bytes, offset: int) -> None:
        """Write ``data`` at ``offset`` and fsync; on failure truncate back to ``offset`` and raise.
        Then check that the file is still the log at its path: LogVanishedError when it is not
        (the bytes reached an orphan, so nothing of this write is durable)."""
        try:
            written = 0
            while written < len(data):
                written += self._ops.pwrite(self._fd, data[written:], offset + written)
            if self._stale_tail:
                self._ops.truncate(self._fd, offset + len(data))
            self._ops.sync(self._fd)
            self._stale_tail = False
        except OSError:
            self._truncate_back(offset)
            raise
        self.check_in_place()

    def check_in_place(self) -> None:
        """LogVanishedError unless the open file still has a link and is the file at ``path``."""
        if os.fstat(self._fd).st_nlink == 0:
            raise LogVanishedError(errno.ENOENT, "the session log was deleted", str(self.path))
        try:
            found = os.stat(self.path)
        except (FileNotFoundError, NotADirectoryError):
            raise LogVanishedError(
                errno.ENOENT, "the session log is no longer where it was", str(self.path)
            ) from None
        except OSError:  # cannot look (permissions): no evidence that it went
            return
        if (found.st_dev, found.st_ino) != self._identity:
            raise LogVanishedError(
                errno.ENOENT, "the session log was replaced by another file", str(self.path)
            )

    def _truncate_back(self, length: int) -> None:
        try:
            self._ops.truncate(self._fd, length)
            self._ops.sync(self._fd)
        except OSError:
            self._stale_tail = True  # the next successful write cuts what is past its end

    def cut(self, length: int) -> None:
        """Truncate to ``length`` and fsync (the torn-tail repair)."""
        self._unmap()
        self._ops.truncate(self._fd, length)
        self._ops.sync(self._fd)

    def close(self) -> None:
        """Unmap and close; closing twice is harmless."""
        self._unmap()
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1


class MappedOffsets:
    """``offsets.bin`` mapped read-only: ``view[i]`` is the byte offset of event ``i``'s line."""

    def __init__(self, fd: int) -> None:
        self._map = mmap.mmap(fd, 0, access=mmap.ACCESS_READ)
        self.view = memoryview(self._map).cast("Q")

    def close(self) -> None:
        self.view.release()
        self._map.close()


def load_offsets(folder: Path, count: int, expected_digest: str) -> MappedOffsets | None:
    """The checkpoint's offsets when the file holds exactly ``count`` of them with that digest."""
    if sys.byteorder != "little":  # pragma: no cover -- offsets.bin is little-endian uint64
        return None
    try:
        fd = os.open(folder / OFFSETS_NAME, os.O_RDONLY | _BINARY)
    except OSError:
        return None
    try:
        if count == 0 or os.fstat(fd).st_size != 8 * count:
            return None  # a checkpoint of no events saves nothing
        offsets = MappedOffsets(fd)
    finally:
        os.close(fd)
    if digest(offsets.view) != expected_digest:
        offsets.close()
        return None
    return offsets


def read_file(path: Path, limit: int) -> bytes | None:
    """The file's first ``limit + 1`` bytes at most (more than ``limit`` says it is too large
    to be read), or None if it cannot be read."""
    try:
        with path.open("rb") as handle:  # read(limit + 1) alone would allocate all of it first
            return handle.read(min(os.fstat(handle.fileno()).st_size, limit) + 1)
    except OSError:
        return None


def read_head(path: Path, limit: int) -> bytes:
    """The first line of ``path`` without its ``\\n`` (the whole file if it has none), cut after
    ``limit + 1`` bytes (more than ``limit`` says it is too long to be a header)."""
    chunks: list[bytes] = []
    size = 0
    with _open_read(path) as handle:
        while size <= limit and (chunk := handle.read(65536)):
            newline = chunk.find(b"\n")
            if newline >= 0:
                chunks.append(chunk[:newline])
                break
            chunks.append(chunk)
            size += len(chunk)
    return b"".join(chunks)[: limit + 1]


def read_range(path: Path, start: int, end: int | None = None) -> bytes:
    """Bytes [start, end) of ``path`` (to its end when ``end`` is None)."""
    with _open_read(path) as handle:
        handle.seek(start)
        return handle.read() if end is None else handle.read(end - start)


def _open_read(path: Path) -> BinaryIO:
    try:
        return path.open("rb")
    except FileNotFoundError:
        raise SessionNotFoundError(f"no session log at {path}") from None


def require_session(folder: Path) -> None:
    """SessionNotFoundError unless ``folder`` holds a session log."""
    if not (folder / LOG_NAME).is_file():
        raise SessionNotFoundError(f"no session {folder.name} in {folder.parent}")


def make_dirs(path: Path) -> None:
    """Create ``path`` and its missing parents with mode 0700."""
    path.mkdir(mode=DIR_MODE, parents=True, exist_ok=True)


def _sync_dir(path: Path) -> None:
    if os.name == "nt":  # pragma: no cover -- Windows cannot open a directory to fsync it
        return
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _write_new(path: Path, chunks: Iterator[bytes], *, sync: bool) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _BINARY, FILE_MODE)
    try:
        for chunk in chunks:
            view = memoryview(chunk)
            while view:
                view = view[os.write(fd, view) :]
        if sync:
            os.fsync(fd)
    finally:
        os.close(fd)


def copy_chunks(path: Path, start: int, end: int) -> Iterator[bytes]:
    """Bytes [start, end) of ``path`` in chunks of at most 1 MiB."""
    with _open_read(path) as handle:
        handle.seek(start)
        left = end - start
        while left > 0:
            chunk = handle.read(min(left, _CHUNK))
            if not chunk:
                raise SessionError(f"{path} ended {left} bytes early while copying")
            left -= len(chunk)
            yield chunk


def publish_session(folder: Path, header_line: bytes, body: Iterator[bytes]) -> None:
    """Create ``folder`` (which must not exist) holding a durable ``session.jsonl``.

    The log is written to a temporary file, fsynced, published under its final name with
    ``os.link`` (which never overwrites), and the folder is fsynced (session-log.md §2).
    """
    make_dirs(folder.parent)
    folder.mkdir(mode=DIR_MODE)
    temp = folder / f".{LOG_NAME}.new"
    _write_new(temp, _prepend(header_line, body), sync=True)
    os.link(temp, folder / LOG_NAME)
    temp.unlink()
    _sync_dir(folder)
    _sync_dir(folder.parent)


def stage_session(folder: Path, header_line: bytes, body: Iterator[bytes]) -> None:
    """Write a session log into ``folder`` (created when its attachments did not create it; the
    log must not exist) without waiting for the disk: an import stages many sessions, then
    ``publish_staged`` makes them durable and moves them into place together (one fsync per log
    instead of four)."""
    make_dirs(folder)
    _write_new(folder / LOG_NAME, _prepend(header_line, body), sync=False)


def publish_staged(moves: Iterable[tuple[Path, Path]]) -> None:
    """Make each staged log durable, then move each staged folder to its target (which must not
    exist) and fsync the targets' folders: each session arrives whole or not at all."""
    moves = list(moves)
    for source, _target in moves:
        fd = os.open(source / LOG_NAME, os.O_RDONLY | _BINARY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
    for source, target in moves:
        if target.exists():
            raise SessionError(f"{target} already exists")
        make_dirs(target.parent)
        os.rename(source, target)
    for parent in {target.parent for _source, target in moves}:
        _sync_dir(parent)


def _prepend(first: bytes, rest: Iterator[bytes]) -> Iterator[bytes]:
    yield first
    yield from rest


class SessionLock:
    """The exclusive OS lock on ``sessions/<id>/lock``; it dies with the process."""

    def __init__(self, fd: int) -> None:
        self._fd = fd

    def release(self) -> None:
        if self._fd >= 0:
            os.close(self._fd)  # closing the descriptor releases flock/msvcrt locks
            self._fd = -1


def try_lock(folder: Path) -> SessionLock | None:
    """Take the session's live lock without waiting; None when another holder has it."""
    fd = os.open(folder / LOCK_NAME, os.O_RDWR | os.O_CREAT | _BINARY, FILE_MODE)
    try:
        _lock_fd(fd)
    except OSError:
        os.close(fd)
        return None
    return SessionLock(fd)


if sys.platform == "win32":  # pragma: no cover -- exercised only on Windows

    def _lock_fd(fd: int) -> None:
        import msvcrt

        msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)

else:

    def _lock_fd(fd: int) -> None:
        import fcntl

        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)


def save_torn(log: LogFile, committed: int, stamp: str) -> Path:
    """Copy bytes past ``committed`` to ``session.jsonl.torn-<stamp>``, then cut the log there."""
    torn = log.read(committed, log.size())
    target = log.path.with_name(TORN_PREFIX + stamp)
    suffix = 0
    while target.exists():
        suffix += 1
        target = log.path.with_name(f"{TORN_PREFIX}{stamp}-{suffix}")
    _write_new(target, iter([torn]), sync=True)
    log.cut(committed)
    _sync_dir(log.path.parent)
    return target


def write_checkpoint(folder: Path, checkpoint: bytes, offsets: Iterable[bytes]) -> None:
    """Replace the derived checkpoint files (no fsync: a torn one fails its digest and is rebuilt);
    ``offsets`` may come in chunks."""
    (folder / CHECKPOINT_NAME).unlink(missing_ok=True)
    for name, data in ((OFFSETS_NAME, offsets), (CHECKPOINT_NAME, [checkpoint])):
        temp = folder / f".{name}.new"
        temp.unlink(missing_ok=True)
        _write_new(temp, iter(data), sync=False)
        os.replace(temp, folder / name)


def discard_checkpoint(folder: Path) -> None:
    """Delete the derived checkpoint files (they vouched for bytes that changed); best effort."""
    for name in (CHECKPOINT_NAME, OFFSETS_NAME):
        with contextlib.suppress(OSError):  # then the next open finds the same mismatch again
            (folder / name).unlink(missing_ok=True)


def log_length(path: Path) -> int:
    return path.stat().st_size


def session_ids(data_dir: Path, *, trash: bool = False) -> list[str]:
    """Names of the folders under ``sessions/`` (or ``trash/``) that hold a session log."""
    root = data_dir / (TRASH if trash else SESSIONS)
    try:
        entries = list(os.scandir(root))
    except FileNotFoundError:
        return []
    return sorted(e.name for e in entries if (Path(e.path) / LOG_NAME).is_file())


def move_session(source: Path, target: Path) -> None:
    """Move a session folder (trash or restore); SessionError if the target exists."""
    if not source.is_dir():
        raise SessionNotFoundError(f"no session folder at {source}")
    if target.exists():
        raise SessionError(f"{target} already exists")
    make_dirs(target.parent)
    os.rename(source, target)
    _sync_dir(target.parent)


def remove_tree(path: Path) -> None:
    shutil.rmtree(path)


def publish_file(path: Path, data: bytes) -> None:
    """Create ``path`` (and its folder) durably holding ``data``: a temporary file, fsynced,
    renamed into place, the folder fsynced (and the folder holding it when this call created it,
    so the new folder's own name is durable too). Nothing is left under either name on failure."""
    created = not path.parent.is_dir()
    make_dirs(path.parent)
    replace_derived(path, data)
    _sync_dir(path.parent)
    if created:
        _sync_dir(path.parent.parent)


def replace_derived(path: Path, data: bytes) -> None:
    """Replace a file in an existing folder with ``data``: a temporary file, fsynced, renamed over
    it (nothing is left under either name on failure). Unlike ``publish_file`` it never creates
    the folder, so a session moved to the trash meanwhile gets no stray folder back (OSError
    instead); and the folder is not fsynced: for a derived file (an index) a lost rename only
    leaves the old file, which its reader checks against the log."""
    temp = path.with_name(f".{path.name}.{os.getpid()}.new")
    temp.unlink(missing_ok=True)  # left by a crash
    try:
        _write_new(temp, iter([data]), sync=True)
        os.replace(temp, path)
    except BaseException:
        temp.unlink(missing_ok=True)
        raise


def write_private(path: Path, chunks: Iterator[bytes]) -> None:
    """Write an export file with mode 0600, replacing any file of that name."""
    path.unlink(missing_ok=True)
    _write_new(path, chunks, sync=True)
