"""Long fuzz of every place JSON enters Chime (tests/survival/test_fuzz_json_entry.py): the bounded
decode against an independent reading of its rules, tool-call arguments, log lines, headers and
checkpoints, whole sessions with a hostile line or hostile derived files, settings.json and
state.json, the line a second start sends the running instance, the texts read back for display
and answers, and the model stream. Every input must be answered the entry point's way; any other
exception counts as a failure. See scripts/fuzz_common.py for the options."""

from __future__ import annotations

import fuzz_common
from hypothesis import strategies as st

from tests.survival import test_fuzz_json_entry as t
from tests.survival.json_strategies import BYTES, TEXTS

TARGETS: dict[str, fuzz_common.Target] = {
    "decode": (t.check_decode, {"raw": st.one_of(BYTES, TEXTS), "limits": t.LIMITS}),
    "tool-arguments": (t.check_arguments, {"text": TEXTS}),
    "log-line-header-checkpoint": (
        t.check_lines,
        {"raw": st.one_of(BYTES, TEXTS.map(t.envelope))},
    ),
    "session-line": (
        t.check_session_line,
        {"raw": BYTES, "where": st.sampled_from(["header", "middle", "last"])},
    ),
    "derived-files": (
        t.check_derived_files,
        {
            "checkpoint": st.one_of(BYTES, TEXTS.map(lambda x: x.encode("utf-8", "surrogatepass"))),
            "offsets": st.one_of(st.none(), st.binary(max_size=8 * 30)),
            "reseal": st.booleans(),
        },
    ),
    "settings-state": (t.check_settings_files, {"raw": t.SETTINGS_BYTES}),
    "instance-request": (t.check_request_line, {"raw": t.REQUEST_BYTES}),
    "read-back": (t.check_read_back, {"arguments": TEXTS, "result": TEXTS}),
    "stream": (t.check_stream, {"event": TEXTS, "arguments": TEXTS}),
}

if __name__ == "__main__":
    raise SystemExit(fuzz_common.main(TARGETS, __doc__.splitlines()[0]))
