"""Independent model of the JSONL scanner's verdict (session-log.md §2-§4): split on the byte LF
only, a final fragment without LF or a final complete line that fails to decode is a torn tail, a
bad line with a complete line after it is corruption, and an atomic group (first line carries
`"group": k`) counts only when all k lines are present and valid; a torn or corrupt group is
dropped whole. Must not import Chime.

Envelope validity (where session-log.md is terse we follow Chime's documented reading): a UTF-8
JSON object (RFC 8259: no NaN or Infinity; every number finite as a double; nested at most
``MAX_DEPTH`` deep, session-log.md §2) whose `seq` is an int equal to its index, `at` a canonical instant string, `type` a
non-empty string, `data` present (any JSON), `group` absent or an int >= 1, and no `group` key on
a line inside an unfinished group.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from typing import Any

_INSTANT = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{3}Z")


@dataclass(frozen=True)
class Verdict:
    count: int
    committed: int
    end: int
    corrupt_line: int | None  # 1-based, the header being line 1


MAX_DEPTH = 256


def _refuse(_text: str) -> Any:
    raise ValueError("not a JSON value")


def _finite(text: str) -> float:
    if math.isinf(float(text)):
        raise ValueError("out of range")
    return float(text)


def _number(text: str) -> int | float:
    """An integer as Chime reads one: beyond 64 bits a float, beyond a double refused."""
    if len(text) > 400 or math.isinf(float(text)):  # a double ends near 1.8e308
        raise ValueError("out of range")
    value = int(text)
    return value if -(2**63) <= value < 2**64 else float(text)


def depth(value: Any) -> int:
    """How deep arrays and objects nest in ``value`` (a scalar: 0)."""
    deepest, todo = 0, [(value, 1)]
    while todo:
        item, level = todo.pop()
        if isinstance(item, dict | list):
            deepest = max(deepest, level)
            todo.extend(
                (child, level + 1) for child in (item.values() if isinstance(item, dict) else item)
            )
    return deepest


def read_json(raw: bytes | str) -> Any:
    """The value of ``raw`` read as RFC 8259 strictly (UTF-8, no NaN or Infinity, every number
    within a double) and nested at most ``MAX_DEPTH`` deep; ValueError otherwise."""
    try:
        text = raw if isinstance(raw, str) else raw.decode("utf-8")
        value = json.loads(text, parse_constant=_refuse, parse_float=_finite, parse_int=_number)
    except RecursionError:
        raise ValueError("nested too deeply") from None
    if depth(value) > MAX_DEPTH:
        raise ValueError("nested too deeply")
    return value


def envelope(line: bytes, seq: int) -> dict[str, Any] | None:
    try:
        value = read_json(line)
    except ValueError:
        return None
    if not isinstance(value, dict):
        return None
    ok = type(value.get("seq")) is int and value["seq"] == seq
    ok = ok and isinstance(value.get("at"), str) and _INSTANT.fullmatch(value["at"]) is not None
    ok = ok and isinstance(value.get("type"), str) and value["type"] != "" and "data" in value
    group = value.get("group", 1)
    return value if ok and type(group) is int and group >= 1 else None


def _lines(buffer: bytes, start: int) -> list[tuple[int, bytes]]:
    """(offset, content) of every complete line from `start` (the fragment after the last LF
    is not a line)."""
    out, pos = [], start
    while (newline := buffer.find(b"\n", pos)) >= 0:
        out.append((pos, buffer[pos:newline]))
        pos = newline + 1
    return out


def verdict(buffer: bytes, start: int = 0, first_seq: int = 0) -> Verdict:
    lines = _lines(buffer, start)
    committed, count, i = start, first_seq, 0
    while i < len(lines):
        first = envelope(lines[i][1], first_seq + i)
        size = first.get("group", 1) if first is not None else 1
        bad = None if first is not None else i
        j = i + 1
        while bad is None and j < i + size and j < len(lines):
            inner = envelope(lines[j][1], first_seq + j)
            bad = j if inner is None or "group" in inner else None
            j += 1
        if bad is None and j < i + size:
            break  # final group incomplete: torn
        if bad is not None:
            if bad == len(lines) - 1:
                break  # the bad line is the last complete line: torn
            return Verdict(first_seq + i, committed, len(buffer), first_seq + bad + 2)
        count, i = first_seq + j, j
        committed = lines[j - 1][0] + len(lines[j - 1][1]) + 1
    return Verdict(count, committed, len(buffer), None)
