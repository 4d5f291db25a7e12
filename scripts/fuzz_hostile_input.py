"""Long fuzz of what a hostile file or model hands the window (issue 24): the attachment reader on
every kind of path, and the transcript's Markdown on answers mixed with HTML. See
scripts/fuzz_common.py for the options."""

from __future__ import annotations

import os

import fuzz_common

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtWidgets import QApplication  # after the platform is chosen

from tests.survival import test_fuzz_hostile_input as hostile  # idem

TARGETS: dict[str, fuzz_common.Target] = {
    "attachment-reader": (
        fuzz_common.body(
            hostile.test_any_path_is_read_whole_and_within_the_bound_or_refused_with_a_sentence
        ),
        {"kind": hostile.KINDS, "name": hostile.NAMES, "content": hostile.CONTENT},
    ),
    "markdown-html": (
        fuzz_common.body(hostile.test_any_answer_mixed_with_html_reaches_the_screen_whole),
        {"answer": hostile.ANSWER, "kind": hostile.st.sampled_from(["assistant", "user"])},
    ),
}

if __name__ == "__main__":
    application = QApplication.instance() or QApplication([])
    raise SystemExit(fuzz_common.main(TARGETS, __doc__.splitlines()[0]))
