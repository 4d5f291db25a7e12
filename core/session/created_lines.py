"""Is a log line exactly the one Chime writes for a reminder's create? Pure: no I/O, no clock.

A warm open's verification re-derives every active reminder from the line of its ``create``
(session-log.md §8 (3)) before any barrier returns, so the owner's first decision waits for it.
Decoding each line (envelope, strict change, record) cost ~11 µs, 1.1 s for 10^5 active
reminders. A reminder that was never dispatched has, as its create line, the line Chime wrote:
``{"seq":N,"at":"<instant>","type":"schedule/change","data":<the canonical create>}``, with a
``"group"`` after the data on a group's first line. ``written_create`` recognises exactly that
line by its bytes, built from the checkpoint's own JSON of the record: when it answers True the
line parses to that envelope and its data to that very record (equal bytes: equal values, types
and key order), so the strict path would accept it too. Any other line (another spelling, an
escape written differently) answers False, and the caller decodes it as before.
Must not decide anything else.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import orjson

from core.jsonread import LOG_LINE
from core.schedule.records import VERSION

_MIDDLE = (
    b'","type":"schedule/change","data":{"version":%d,"operation":"create","schedule":' % VERSION
)
_LONGEST = LOG_LINE.max_size
_AT = re.compile(rb"[0-9T:.Z+-]{1,40}")
"""What may stand between the ``at``'s quotes here: no quote, no escape (the strict check of
the instant is the envelope's, which a line read again does not repeat either)."""
_GROUP = re.compile(rb',"group":[1-9][0-9]{0,17}}')


def written_create(line: bytes, seq: int, record: Mapping[str, Any]) -> bool:
    """True when ``line`` is the line of event ``seq`` that creates ``record`` (its JSON form)."""
    if len(line) > _LONGEST:
        return False
    try:
        middle = _MIDDLE + orjson.dumps(record) + b"}"
    except TypeError:  # not a value orjson writes (a lone surrogate): decode the line instead
        return False
    head = b'{"seq":%d,"at":"' % seq
    at_end = line.find(middle, len(head))
    if at_end < 0 or not line.startswith(head) or not _AT.fullmatch(line, len(head), at_end):
        return False
    tail = at_end + len(middle)
    return line.endswith(b"}") and (tail == len(line) - 1 or bool(_GROUP.fullmatch(line, tail)))
