"""Independent model of the schedule fold (schedule.md §2, §7, §8): strict decoding of every
`schedule/change` payload in scope and the transitions, giving the `to_json()` value the fold must
return, or None when the fold must fail. Must not import Chime."""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from typing import Any

from tests.survival.time_oracle import SAFE, safe_int, trim
from tests.survival.tzif_oracle import MAX_MS, canonical, days_in_month, ms_from_fields

_INSTANT = re.compile(
    r"([0-9]{4})-([0-9]{2})-([0-9]{2})T([0-9]{2}):([0-9]{2}):([0-9]{2})\.([0-9]{3})Z"
)
RECORD_KEYS = {
    "after": ["id", "kind", "prompt", "afterSeconds", "scheduledAt"],
    "at": ["id", "kind", "prompt", "scheduledAt"],
    "every": ["id", "kind", "prompt", "everySeconds", "scheduledAt"],
}


class FoldMustFailError(Exception):
    """The fold must fail."""


def instant(value: object) -> int:
    if not isinstance(value, str) or (m := _INSTANT.fullmatch(value)) is None:
        raise FoldMustFailError("not canonical")
    y, mo, d, h, mi, s, ms = (int(x) for x in m.groups())
    if y == 0 or not 1 <= mo <= 12 or not 1 <= d <= days_in_month(y, mo):
        raise FoldMustFailError("no such date")
    if h > 23 or mi > 59 or s > 59:
        raise FoldMustFailError("time out of range")
    return ms_from_fields(y, mo, d, h, mi, s, ms)


def ident(value: object) -> str:
    if not isinstance(value, str) or value == "" or trim(value) != value:
        raise FoldMustFailError("bad id")
    return value


def _seconds(value: object, low: int, high: int) -> int:
    n = safe_int(value)
    if n is None or n < low or n > high:
        raise FoldMustFailError("bad seconds")
    return n


def record(value: object) -> dict[str, Any]:
    if not isinstance(value, Mapping) or not isinstance(value.get("kind"), str):
        raise FoldMustFailError("bad record")
    if value["kind"] not in RECORD_KEYS:
        raise FoldMustFailError("unknown kind")
    keys = RECORD_KEYS[value["kind"]]
    if set(value) != set(keys):
        raise FoldMustFailError("record key set")
    prompt = value["prompt"]
    if not isinstance(prompt, str) or prompt == "" or trim(prompt) != prompt:
        raise FoldMustFailError("bad prompt")
    out = {k: value[k] for k in keys}
    ident(out["id"])
    instant(out["scheduledAt"])
    if "afterSeconds" in out:
        out["afterSeconds"] = _seconds(out["afterSeconds"], 1, SAFE)
    if "everySeconds" in out:
        out["everySeconds"] = _seconds(out["everySeconds"], 300, SAFE // 1000)
    return out


def _version_ok(value: object) -> bool:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return False
    return not (isinstance(value, float) and not math.isfinite(value)) and value == 1


def change(payload: object) -> tuple[str, Any]:
    """Decode one payload: ("create", record) / ("delete", id) / ("dispatch", (id, A or None))."""
    if not isinstance(payload, Mapping) or not _version_ok(payload.get("version")):
        raise FoldMustFailError("payload or version")
    op, keys = payload.get("operation"), set(payload)
    base = {"version", "operation"}
    if op == "create" and keys == base | {"schedule"}:
        return "create", record(payload["schedule"])
    if op == "delete" and keys == base | {"id"}:
        return "delete", ident(payload["id"])
    if op == "dispatch" and keys == base | {"id"}:
        return "dispatch", (ident(payload["id"]), None)
    if op == "dispatch" and keys == base | {"id", "acceptedAt"}:
        return "dispatch", (ident(payload["id"]), instant(payload["acceptedAt"]))
    raise FoldMustFailError("operation or key set")


def _dispatch(active: dict[str, dict[str, Any]], rid: str, accepted: int | None) -> None:
    rec = active.get(rid)
    if rec is None or (accepted is None) != (rec["kind"] != "every"):
        raise FoldMustFailError("dispatch of inactive id or wrong form")
    if accepted is None:
        del active[rid]
        return
    target, interval = instant(rec["scheduledAt"]), rec["everySeconds"] * 1000
    if accepted < target:
        raise FoldMustFailError("every dispatch before its target")
    following = target + (accepted - target) // interval * interval + interval
    if following > MAX_MS:
        del active[rid]
    else:
        active[rid] = {**rec, "scheduledAt": canonical(following)}


def fold(events: Sequence[Mapping[str, Any]], seed_length: object = 0) -> dict[str, Any] | None:
    """The `to_json()` the fold must give, or None when it must raise ScheduleLogError."""
    seed = safe_int(seed_length)
    if seed is None or not 0 <= seed <= len(events):
        return None
    active: dict[str, dict[str, Any]] = {}
    seen: list[str] = []
    try:
        for event in events[seed:]:
            if event.get("type") != "schedule/change" or not isinstance(event.get("type"), str):
                continue
            if "data" not in event:
                raise FoldMustFailError("no data")
            op, value = change(event["data"])
            if op == "create":
                if value["id"] in seen:
                    raise FoldMustFailError("reused id")
                seen.append(value["id"])
                active[value["id"]] = value
            elif op == "delete":
                if active.pop(value, None) is None:
                    raise FoldMustFailError("delete of inactive id")
            else:
                _dispatch(active, *value)
    except FoldMustFailError:
        return None
    return {"active": list(active.values()), "seenIds": seen}
