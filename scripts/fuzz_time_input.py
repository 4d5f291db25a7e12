"""Long fuzz of `at` (schedule.md §6): offset-form strings and local objects near the grammar,
each answer compared with an independent model of §6 (exact scheduledAt or code and condition).
See scripts/fuzz_common.py for the options."""

from __future__ import annotations

import fuzz_common
from hypothesis import strategies as st

from tests.survival import test_fuzz_time_input as t

TARGETS: dict[str, fuzz_common.Target] = {
    "at-string": (
        fuzz_common.body(t.test_at_strings_near_the_grammar_resolve_exactly_as_section_6_1_says),
        {"at": t.AT_STRINGS, "now": t.CLOCKS},
    ),
    "at-local": (
        fuzz_common.body(t.test_local_objects_near_the_grammar_resolve_exactly_as_section_6_2_says),
        {"at": st.one_of(t.local_objects(), t.local_fields(), t.LOCAL_FIELDS), "now": t.CLOCKS},
    ),
}

if __name__ == "__main__":
    raise SystemExit(fuzz_common.main(TARGETS, __doc__.splitlines()[0]))
