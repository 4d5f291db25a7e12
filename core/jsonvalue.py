"""The one compact rendering of JSON values (schedule.md §2.7). Pure: no I/O.

Reading JSON that enters is ``core.jsonread``'s (it loads orjson, which this module, imported by
the widgets before the first paint, does not need)."""

from __future__ import annotations

import json
import re
from typing import Any

_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def _escape_surrogate(match: re.Match[str]) -> str:
    return f"\\u{ord(match.group()):04x}"


def compact_json(value: Any) -> str:
    """Render ``value`` as compact JSON: ``,``/``:`` separators, raw non-ASCII, key order kept.

    Control characters below U+0020 become escapes (lowercase hex), and an unpaired surrogate is
    written as its six-character escape (json.dumps would emit it raw, which no UTF-8 encoder
    accepts). Paired surrogates cannot occur in a Python ``str``: astral characters are one code
    point, emitted raw. Raises ValueError for NaN/Infinity and TypeError for non-JSON values.
    """
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    return _LONE_SURROGATE.sub(_escape_surrogate, text)
