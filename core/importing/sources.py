"""Which imported conversation each session came from, so the same file imported again is said to
be imported already instead of making every conversation twice. Pure: no I/O.

A conversation's *source* names it in the file it came from, with what makes it the same
conversation: a ChatGPT conversation by its ``id`` and ``update_time`` (one continued in ChatGPT
since is new, and imported: nothing it gained is lost), else by the digest of its JSON; a Chime
JSONL export by its header's session id, its event count and its last event's time. The data
folder keeps ``imported.json``: ``{"version": 1, "sources": {source: session id}}`` (a derived
index: when it is lost or unreadable, an import only cannot tell what came in before). A source
whose session is no longer in the list (deleted) is imported again.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping

INDEX_NAME = "imported.json"
VERSION = 1


def chatgpt_source(value: object, element: bytes) -> str:
    """The source of one element of ``conversations.json`` (``element``: its JSON bytes)."""
    if isinstance(value, dict):
        found = value.get("id") or value.get("conversation_id")
        if isinstance(found, str) and found:
            return f"chatgpt:{found}:{value.get('update_time')!r}"
    return "chatgpt-sha256:" + hashlib.sha256(element).hexdigest()


def chime_source(session_id: str, count: int, last_at: str) -> str:
    """The source of a Chime JSONL export: its session, how many events and the last one's time."""
    return f"chime:{session_id}:{count}:{last_at}"


def read_sources(data: bytes | None) -> dict[str, str]:
    """The index's sources ({} for a missing, unreadable or other-version index)."""
    if not data:
        return {}
    try:
        value = json.loads(data)
    except ValueError:  # a torn or foreign file: nothing is known
        return {}
    if not isinstance(value, dict) or value.get("version") != VERSION:
        return {}
    sources = value.get("sources")
    if not isinstance(sources, dict):
        return {}
    return {k: v for k, v in sources.items() if isinstance(k, str) and isinstance(v, str)}


def sources_json(sources: Mapping[str, str]) -> bytes:
    """The index holding ``sources``."""
    document = {"version": VERSION, "sources": dict(sorted(sources.items()))}
    return json.dumps(document, ensure_ascii=False, indent=1).encode("utf-8")
