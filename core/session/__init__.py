"""Sessions: the append-only JSONL event log on disk, its live in-memory view and its folds.

Entry points (session-log.md; docs/architecture.md):

- ``store.SessionStore(data_dir, clock, new_id=None)``: async ``create()``, ``open(id, *,
  read_only=False)``, ``list()``, ``list_trash()``, ``fork(id, cut)``, ``trash(id)``,
  ``restore(id)``, ``empty_trash()``, ``export_markdown(id)``, ``export_jsonl(id)``.
- ``live.LiveSession``: the ``port.SessionPort`` of an open session (api.md's ``SessionLog`` plus
  typed entries and appends, the folds, observers, ``close()``); ``LiveSession.detached`` has no
  storage (its barrier always fails).

Modules, pure: ``lines`` (the byte form of a line), ``scan`` (verdicts), ``folds`` (input queue,
open turn, title), ``reconcile`` (after a failed verification), ``repair`` (closers), ``turns``
(fork points), ``checkpoint``, ``export``, ``loaded`` (what an open found), ``memory`` (entries,
folds, observers). Async: ``writer`` (group commit), ``checkpointer``, ``live`` (the facade),
``store``. Blocking, run in worker threads: the disk door ``jsonl_store``, ``recovery`` and
``summary``; ``event_list`` reads the log's memory map.

Known limitations: opening with a checkpoint still hashes every covered byte (linear, ~10 GB/s);
a session whose lock is held elsewhere is a snapshot taken at open time.
"""
