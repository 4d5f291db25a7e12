"""Sessions: the append-only JSONL event log on disk, its live in-memory view and its folds.

Entry points (session-log.md; docs/architecture.md):

- ``store.SessionStore(data_dir, clock, new_id=None)``: async ``create()``, ``open(id, *,
  read_only=False)``, ``list()``, ``list_trash()``, ``fork(id, cut)``, ``trash(id)``,
  ``restore(id)``, ``empty_trash()``, ``export_markdown(id)``, ``export_jsonl(id)``.
- ``live.LiveSession``: a ``core.schedule.SessionLog`` (sync ``append``, ``async flush`` barrier
  with group commit and write-behind) plus ``append_group``, ``schedule_fold()``,
  ``pending_inputs()``, ``tail_turns(n)``, observers, ``close()``; ``LiveSession.detached`` has no
  storage (its barrier always fails).
- ``folds.pending_inputs(events, seed_length)``: the pure pending-input fold.

Modules: pure ``events`` (line format), ``scan`` (verdicts), ``folds``, ``repair`` (closers),
``turns`` (fork points), ``checkpoint``, ``export``; the disk door ``jsonl_store``; ``event_list``
(lazy events), ``recovery`` and ``summary`` (run in worker threads), ``live``, ``store``.

Known limitations: opening with a checkpoint still hashes every covered byte (linear, ~10 GB/s);
a session whose lock is held elsewhere is a snapshot taken at open time; envelopes handed out are
shared, not copies, so callers must not mutate them.
"""
