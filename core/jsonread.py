"""Reading JSON that enters Chime: the one bounded decode. Pure: no I/O.

Every JSON text that enters is read by ``parse_json`` under the ``JsonLimits`` of its entry point
(the constants below: a model's tool arguments, a log line, the log's header, the checkpoint,
settings.json, state.json, the request line a second start sends the running instance, and a tool
text read back for display). A text is refused with a ``JsonRefusedError`` (a ValueError) whose
message is a short reason the caller puts in its sentence:

- ``too large (N bytes; at most M)``: checked first, on the length alone (``characters`` for
  ``str`` input);
- ``nested too deeply (more than D levels)``: arrays and objects inside each other; D is far
  below Python's recursion limit, so nothing downstream (rendering, re-encoding) can overflow it;
- ``not valid UTF-8``: bytes are decoded strictly;
- ``a number out of range``: beyond a double (``1e400``), or an integer of more than 400 digits;
- ``not JSON (<what> at column <n>)``: anything else RFC 8259 does not allow, ``NaN`` and
  ``Infinity`` included.

Reading every line of a 10^6-event log is most of what a cold open costs, so the common path is
cheap (``bounded_reader`` binds one entry point's limits for such a caller): a text of at most
``2 * max_depth`` characters is within every size limit and cannot nest deeper than ``max_depth``,
a longer one is checked by counting its brackets first (the exact, string-aware depth is worked out
only when there are more brackets than levels allowed), and orjson reads it (about three times
faster than the standard library; it refuses nesting deeper than 1024 on its own). The standard
library then reads what orjson refuses but JSON allows and Chime may have written (a lone surrogate
escaped as ``\\ud800``), with the same refusals, so both accept the same texts. Integers beyond 64
bits come back as floats either way (Chime never writes one).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from functools import cache
from itertools import accumulate
from types import ModuleType
from typing import Any

from core.frozen import frozen

MAX_DEPTH = 256
"""Levels of nesting any entry point accepts: Chime's own JSON nests at most five deep."""

_MAX_DIGITS = 400
"""An integer of more digits is out of range (a double holds at most 309 before the point)."""


class JsonRefusedError(ValueError):
    """A JSON text the bounded decode refuses; the message is the reason, in lower case.
    ``detail`` is the same without its ``not JSON (...)`` frame, for a sentence that already
    says the text is not JSON."""

    def __init__(self, reason: str, detail: str | None = None) -> None:
        super().__init__(reason)
        self.detail = detail or reason


@frozen
class JsonLimits:
    """The bounds of one entry point: ``max_size`` bytes (characters for ``str``), and nesting."""

    max_size: int
    max_depth: int = MAX_DEPTH

    def __post_init__(self) -> None:
        if self.max_size < 2 * self.max_depth:  # the short path skips the size check
            raise ValueError("max_size must be at least twice max_depth")


MIB = 1 << 20
TOOL_ARGUMENTS = JsonLimits(8 * MIB)
"""A model's tool-call arguments (an answer is cut at 4M characters before this)."""
LOG_LINE = JsonLimits(256 * MIB)
"""One line of a session log (the longest Chime writes is an answer cut at 4M characters)."""
LOG_HEADER = JsonLimits(64 * 1024)
CHECKPOINT = JsonLimits(256 * MIB)
SETTINGS = JsonLimits(MIB)
"""settings.json and state.json."""
INSTANCE_REQUEST = JsonLimits(64 * 1024)
"""The line a second start sends the running Chime of its data folder (``app.single_instance``)."""
TOOL_TEXT = JsonLimits(8 * MIB)
"""A tool call's arguments or result, or a reminder follow-up's literal, read back to show or
answer it."""


def parse_json(raw: bytes | str, limits: JsonLimits) -> Any:
    """The JSON value of ``raw`` within ``limits``; JsonRefusedError (a ValueError) says why not."""
    if len(raw) > 2 * limits.max_depth:
        _check_bounds(raw, limits)
    orjson = _orjson()
    try:
        return orjson.loads(raw)
    except orjson.JSONDecodeError:
        pass  # refused by orjson: JSON it does not take (a lone surrogate escape), or not JSON
    return _standard(raw)


def bounded_reader(limits: JsonLimits) -> Callable[[bytes | str], Any]:
    """``parse_json`` with ``limits`` bound in: for a caller that reads 10^6 texts (a log's lines),
    where looking the limits up per text would be a tenth of the decode's cost."""
    orjson = _orjson()
    shallow, loads, refused = 2 * limits.max_depth, orjson.loads, orjson.JSONDecodeError

    def read(raw: bytes | str) -> Any:
        if len(raw) > shallow:
            _check_bounds(raw, limits)
        try:
            return loads(raw)
        except refused:
            pass  # as in parse_json
        return _standard(raw)

    return read


@cache
def _orjson() -> ModuleType:
    """orjson, imported when the first text is read: a start whose window paints before it reads
    any JSON (an empty data folder) does not wait for it and what it loads (``uuid``,
    ``platform``; about 18 M instructions)."""
    import orjson

    return orjson


def _check_bounds(raw: bytes | str, limits: JsonLimits) -> None:
    """Refuse ``raw`` when it is larger or nests deeper than ``limits`` allow."""
    size = len(raw)
    if size > limits.max_size:
        unit = "characters" if isinstance(raw, str) else "bytes"
        raise JsonRefusedError(f"too large ({size:,} {unit}; at most {limits.max_size:,})")
    if _too_deep(raw, limits.max_depth):
        raise JsonRefusedError(f"nested too deeply (more than {limits.max_depth} levels)")


def _standard(raw: bytes | str) -> Any:
    """What the standard library reads, with orjson's refusals (numbers, NaN, Infinity)."""
    import json  # only for what orjson refuses: a start reading no JSON does not load it

    try:
        text = raw if isinstance(raw, str) else raw.decode("utf-8")
    except UnicodeDecodeError:
        raise JsonRefusedError("not valid UTF-8") from None
    try:
        return json.loads(
            text, parse_constant=_no_constant, parse_float=_finite, parse_int=_integer
        )
    except json.JSONDecodeError as error:
        detail = f"{error.msg} at column {error.colno}"
        raise JsonRefusedError(f"not JSON ({detail})", detail) from None


def _no_constant(name: str) -> Any:
    detail = f"{name} is not a JSON value"
    raise JsonRefusedError(f"not JSON ({detail})", detail)


def _finite(text: str) -> float:
    value = float(text)
    if math.isinf(value):
        raise JsonRefusedError("a number out of range")
    return value


def _integer(text: str) -> int | float:
    """orjson's reading of an integer: a float beyond 64 bits, refused beyond a double."""
    if len(text) > _MAX_DIGITS:
        raise JsonRefusedError("a number out of range")
    value = int(text)
    return value if -(2**63) <= value < 2**64 else _finite(text)


_STRING_BYTES = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_STRING_TEXT = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_STEP = {ord("["): 1, ord("{"): 1, ord("]"): -1, ord("}"): -1}
_NOT_BRACKETS = bytes(b for b in range(256) if b not in _STEP)


def _too_deep(raw: bytes | str, limit: int) -> bool:
    """True when ``raw`` nests arrays and objects more than ``limit`` deep (brackets inside
    strings do not count; a string left open counts its brackets, and is not JSON anyway)."""
    if isinstance(raw, str):
        if raw.count("[") + raw.count("{") <= limit:
            return False
        skeleton = _STRING_TEXT.sub("", raw).encode("utf-8", "surrogatepass")
    else:
        if raw.count(b"[") + raw.count(b"{") <= limit:
            return False
        skeleton = _STRING_BYTES.sub(b"", raw)
    brackets = skeleton.translate(None, _NOT_BRACKETS)
    return max(accumulate(map(_STEP.__getitem__, brackets)), default=0) > limit
