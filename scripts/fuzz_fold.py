"""Long fuzz of the change decoder and fold (schedule.md §8): model-built logs, their mutations
and arbitrary payloads; fold_schedule must agree with an independent model or raise
ScheduleLogError, nothing else; list/create/delete over such logs must match the model. See scripts/fuzz_common.py for the options."""

from __future__ import annotations

import fuzz_common
from hypothesis import strategies as st

from tests.survival import test_fuzz_fold as t
from tests.survival import test_fuzz_tools_on_logs as logs
from tests.survival.strategies import JSON

TARGETS: dict[str, fuzz_common.Target] = {
    "fold-mutated": (
        fuzz_common.body(
            t.test_fold_returns_what_the_independent_model_says_or_raises_schedule_log_error
        ),
        {"events": st.one_of(t.model_log(), t.mutated_log()), "seed": t.SEEDS},
    ),
    "fold-arbitrary": (
        fuzz_common.body(
            t.test_fold_of_arbitrary_payloads_fails_cleanly_unless_the_model_accepts_them
        ),
        {"payloads": st.lists(JSON, max_size=4), "seed": st.integers(0, 1)},
    ),
    "list-on-logs": (
        fuzz_common.body(logs.test_list_shows_exactly_the_folded_records_or_reports_a_corrupt_log),
        {"events": st.one_of(t.model_log(), t.mutated_log())},
    ),
    "create-delete-on-logs": (
        fuzz_common.body(
            logs.test_create_allocates_the_count_based_id_and_delete_removes_exactly_its_record
        ),
        {"events": t.model_log()},
    ),
}

if __name__ == "__main__":
    raise SystemExit(fuzz_common.main(TARGETS, __doc__.splitlines()[0]))
