"""Names from outside (a file's name, a title) made safe to show on one line. Pure.

A file may be named ``invoice\\u202efdp.exe``: the right-to-left override makes it read
"invoiceexe.pdf", and an override left open also scrambles whatever is drawn after it on the same
line. A name may hold a line break, which splits a one-line label. ``visible_name`` writes every
such character as its code point in brackets (``invoice[U+202E]fdp.exe``), so the name reads as
what it is and nothing in it reorders or breaks the text around it: the bidirectional embeddings,
overrides, isolates and marks (U+202A–U+202E, U+2066–U+2069, U+200E, U+200F, U+061C), the
control characters (C0, DEL, C1: line breaks and tabs among them) and the line and paragraph
separators (U+2028, U+2029). Letters of right-to-left scripts are left alone: a Hebrew or Arabic
name still reads right to left, within its own run.

Must not: change anything else (a name without such characters is returned unchanged).
"""

from __future__ import annotations

import re

_HIDDEN = re.compile(
    "[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]"
)


def visible_name(name: str) -> str:
    """``name`` with its direction controls, control characters and line breaks written as
    ``[U+XXXX]``."""
    return _HIDDEN.sub(lambda found: f"[U+{ord(found.group()):04X}]", name)


def has_hidden(name: str) -> bool:
    """Whether ``visible_name`` would change ``name``."""
    return _HIDDEN.search(name) is not None
