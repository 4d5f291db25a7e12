"""Reading JSON that enters Chime: the one reader of stored JSON text. Pure: no I/O.

``parse_json`` reads a JSON text Chime stored (a log line, a checkpoint): orjson first, because
reading every line of a 10^6-event log is most of what a cold open costs and orjson reads it about
three times faster than the standard library; the standard library then reads what orjson refuses
but JSON allows and Chime may have written (a lone surrogate escaped as ``\\ud800``), so both
accept exactly the same texts. Numbers beyond 64 bits come back as floats (Chime never writes one;
every integer field of the log is far smaller, so such a line is refused all the same).
"""

from __future__ import annotations

import json
from typing import Any

import orjson


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
