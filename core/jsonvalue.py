"""JSON values: their one compact rendering (schedule.md §2.7) and their one reader. Pure: no I/O.

``parse_json`` reads a JSON text Chime stored (a log line): orjson first, because reading every
line of a 10^6-event log is most of what a cold open costs and orjson reads it about three times
faster than the standard library; the standard library then reads what orjson refuses but JSON
allows and Chime may have written (a lone surrogate escaped as ``\\ud800``), so both accept
exactly the same texts. Numbers beyond 64 bits come back as floats (Chime never writes one; every
integer field of the log is far smaller, so such a line is refused all the same).
"""

from __future__ import annotations

import json
import re
from typing import Any, TypeAlias

import orjson

JsonValue: TypeAlias = "bool | int | float | str | list[JsonValue] | dict[str, JsonValue] | None"
JsonObject: TypeAlias = dict[str, Any]

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


def parse_json(raw: bytes) -> Any:
    """The JSON value of ``raw``. ValueError says why it is not one: ``not valid UTF-8``, or
    ``not JSON (<what> at column <n>)`` (nesting too deep for the reader included)."""
    try:
        return orjson.loads(raw)
    except orjson.JSONDecodeError:
        pass  # refused by orjson: JSON it does not take (a lone surrogate escape), or not JSON
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise ValueError("not valid UTF-8") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise ValueError(f"not JSON ({error.msg} at column {error.colno})") from None
    except RecursionError:
        raise ValueError("not JSON (nested too deeply to read)") from None
