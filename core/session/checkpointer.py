"""Writes a live session's derived checkpoint (session-log.md §8). Async; the hashing and the
file writes run in a worker thread through ``jsonl_store``.

A checkpoint vouches for the first ``length`` bytes of the log by their digest; it is written
after every ``checkpoint_every`` new durable events and when the session closes, and only when
nothing is queued (the folds must describe exactly the durable bytes) and the state is verified.
A checkpoint that cannot be written is logged and skipped: it only makes the next open slower.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from pathlib import Path

from core.session.checkpoint import Checkpoint
from core.session.event_list import Offsets
from core.session.jsonl_store import LogFile, digest_chunks, write_checkpoint

logger = logging.getLogger(__name__)

CHECKPOINT_EVERY = 50_000
"""A checkpoint is also written after this many new durable events (besides on close)."""


class Checkpointer:
    """The checkpoint files of one session folder; ``covered`` events are in the one on disk."""

    def __init__(self, folder: Path, log_path: Path, *, every: int, covered: int) -> None:
        self._folder = folder
        self._log_path = log_path
        self._every = every
        self.covered = covered
        self._running: asyncio.Future[None] | None = None

    def due(self, durable_count: int) -> bool:
        """True when ``every`` durable events are not covered yet and no write is running."""
        busy = self._running is not None and not self._running.done()
        return not busy and durable_count - self.covered >= self._every

    def behind(self, durable_count: int) -> bool:
        """True when some durable events are not covered (a close writes one then)."""
        return self.covered < durable_count

    def start(self, state: Checkpoint, offsets: Offsets) -> asyncio.Future[None]:
        """Write ``state`` (its digests are computed here) in the background."""
        self._running = asyncio.ensure_future(self.write(state, offsets))
        return self._running

    async def write(self, state: Checkpoint, offsets: Offsets) -> None:
        self.covered = state.count
        try:
            await asyncio.to_thread(_store, self._folder, self._log_path, state, offsets)
        except OSError as error:
            logger.warning("%s: checkpoint not written: %s", self._folder.name, error)

    def forget(self) -> None:
        """The checkpoint on disk no longer counts (the log was re-scanned)."""
        self.covered = 0


def _store(folder: Path, log_path: Path, state: Checkpoint, offsets: Offsets) -> None:
    """Worker-thread half: hash the covered bytes and the offsets, then replace the files."""
    reader = LogFile(log_path, writable=False)
    try:
        found = reader.start_digest(state.length).result()
    finally:
        reader.close()
    stamped = dataclasses.replace(
        state, digest=found, offsets_digest=digest_chunks(offsets.chunks())
    )
    write_checkpoint(folder, stamped.encode(), offsets.chunks())
