"""Long fuzz of the tool argument layer (schedule.md §4.1, stage A, §2.6) and of time_zone
acceptance (§6.3): arbitrary JSON-like arguments for all three tools, arbitrary tool names, and
zone names near real ones. See scripts/fuzz_common.py for the options."""

from __future__ import annotations

import fuzz_common

from tests.survival import test_fuzz_tool_arguments as args_tests
from tests.survival import test_fuzz_zone_names as zone_tests

TARGETS: dict[str, fuzz_common.Target] = {
    "any-call": (
        fuzz_common.body(
            args_tests.test_any_tool_call_ends_in_an_argument_error_or_a_closed_set_result
        ),
        {"name": args_tests.NAMES, "arguments": args_tests.ARGS},
    ),
    "create-stage-a": (
        fuzz_common.body(
            args_tests.test_create_stage_a_gives_the_first_failing_rule_with_no_barrier
        ),
        {"arguments": args_tests.CREATE_ARGS},
    ),
    "zone-names": (
        fuzz_common.body(
            zone_tests.test_a_zone_name_is_accepted_exactly_when_section_6_3_accepts_it
        ),
        {"name": zone_tests.NAMES},
    ),
}

if __name__ == "__main__":
    raise SystemExit(fuzz_common.main(TARGETS, __doc__.splitlines()[0]))
