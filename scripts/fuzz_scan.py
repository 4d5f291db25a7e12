"""Long fuzz of the JSONL scanner (session-log.md §2-§4): random bytes and edited valid logs;
every verdict must match an independent model and the scanner must never raise. See
scripts/fuzz_common.py for the options."""

from __future__ import annotations

import fuzz_common
from hypothesis import strategies as st

from tests.survival import test_fuzz_scan as t

TARGETS: dict[str, fuzz_common.Target] = {
    "scan-edited": (
        fuzz_common.body(t.test_scanner_verdict_on_valid_and_edited_logs_matches_the_model),
        {"buffer": st.one_of(t.valid_log(), t.edited_log())},
    ),
    "scan-bytes": (
        fuzz_common.body(t.test_scanner_returns_a_verdict_for_arbitrary_bytes),
        {"buffer": st.binary(max_size=2000)},
    ),
}

if __name__ == "__main__":
    raise SystemExit(fuzz_common.main(TARGETS, __doc__.splitlines()[0]))
