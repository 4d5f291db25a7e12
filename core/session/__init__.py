"""Sessions: the append-only JSONL event log on disk, its live in-memory view and its folds."""
