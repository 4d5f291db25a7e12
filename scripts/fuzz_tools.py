"""Long fuzz of the tool argument layer (schedule.md §4.1, stage A, §2.6) and of time_zone
acceptance (§6.3) and of clock samples (§1.3): arbitrary JSON-like arguments for all three tools,
arbitrary tool names, zone names near real ones, clocks in any offset or failing. See scripts/fuzz_common.py for the options."""

from __future__ import annotations

import fuzz_common

from tests.survival import test_fuzz_clock as clock_tests
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
    "clock-good": (
        fuzz_common.body(
            clock_tests.test_a_good_clock_sample_is_floored_to_the_millisecond_and_offset_aware
        ),
        {"now": clock_tests.AWARE, "seconds": clock_tests.SECONDS},
    ),
    "clock-second-sample": (
        fuzz_common.body(
            clock_tests.test_a_failing_second_sample_is_internal_error_but_the_create_is_kept
        ),
        {"now": clock_tests.AWARE, "bad": clock_tests.BAD},
    ),
}

if __name__ == "__main__":
    raise SystemExit(fuzz_common.main(TARGETS, __doc__.splitlines()[0]))
