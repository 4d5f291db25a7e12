"""A realistic ChatGPT data export (``conversations.json``) built from its documented format:
each conversation a ``mapping`` of nodes ``{id, message, parent, children}`` and a
``current_node``; messages with ``author.role``, ``content`` (``content_type`` and parts),
``create_time`` in seconds, ``recipient`` and ``metadata``."""

from __future__ import annotations

import json
from typing import Any

T0 = 1_700_000_000.0  # 2023-11-14T22:13:20Z


class Conversation:
    """Builds one conversation: ``add`` a node under a parent, ``current`` the shown leaf."""

    def __init__(self, title: str, created: float = T0) -> None:
        self.title = title
        self.created = created
        self.mapping: dict[str, dict[str, Any]] = {
            "root": {"id": "root", "message": None, "parent": None, "children": []}
        }
        self.current = "root"
        self.add("sys", "root", "system", {"content_type": "text", "parts": [""]}, hidden=True)

    def add(
        self,
        key: str,
        parent: str,
        role: str,
        content: dict[str, Any],
        *,
        at: float | None = None,
        hidden: bool = False,
        recipient: str = "all",
        metadata: dict[str, Any] | None = None,
    ) -> str:
        meta = dict(metadata or {})
        if hidden:
            meta["is_visually_hidden_from_conversation"] = True
        if role == "assistant":
            meta.setdefault("model_slug", "gpt-4o")
        self.mapping[key] = {
            "id": key,
            "message": {
                "id": key,
                "author": {"role": role, "name": None, "metadata": {}},
                "create_time": self.created + len(self.mapping) if at is None else at,
                "update_time": None,
                "content": content,
                "status": "finished_successfully",
                "end_turn": role == "assistant" or None,
                "weight": 1.0,
                "metadata": meta,
                "recipient": recipient,
                "channel": None,
            },
            "parent": parent,
            "children": [],
        }
        self.mapping[parent]["children"].append(key)
        self.current = key
        return key

    def say(self, key: str, parent: str, role: str, text: str, **kw: Any) -> str:
        return self.add(key, parent, role, {"content_type": "text", "parts": [text]}, **kw)

    def to_json(self) -> dict[str, Any]:
        return {
            "title": self.title,
            "create_time": self.created,
            "update_time": self.created + 3600,
            "mapping": self.mapping,
            "moderation_results": [],
            "current_node": self.current,
            "plugin_ids": None,
            "conversation_id": f"conv-{self.title}",
            "conversation_template_id": None,
            "gizmo_id": None,
            "is_archived": False,
            "safe_urls": [],
            "default_model_slug": "gpt-4o",
            "id": f"conv-{self.title}",
        }


def branched() -> Conversation:
    """An edited question (two versions) and a regenerated answer; the second version shown."""
    c = Conversation("Trip to Lisbon")
    c.say("u1", "sys", "user", "Plan three days in Lisbon")
    c.say("a1", "u1", "assistant", "Day 1: Alfama.")
    c.say("a1b", "u1", "assistant", "Day 1: Belém.")  # regenerated
    c.say("u2", "a1b", "user", "Add a day trip")
    c.say("a2", "u2", "assistant", "Sintra.")
    c.say("u2b", "a1b", "user", "Add a beach day")  # the question edited
    c.say("a2b", "u2b", "assistant", "Cascais.")
    c.current = "a2b"
    return c


def with_code_and_image() -> Conversation:
    """A code block, the Python tool's run, an uploaded image and a generated one."""
    c = Conversation("Plot data", T0 + 86_400)
    c.add(
        "u1",
        "sys",
        "user",
        {
            "content_type": "multimodal_text",
            "parts": [
                {
                    "content_type": "image_asset_pointer",
                    "asset_pointer": "file-service://file-AbC123",
                    "size_bytes": 52_000,
                    "width": 800,
                    "height": 600,
                },
                "What does this chart show?",
            ],
        },
        metadata={
            "attachments": [{"id": "file-AbC123", "name": "chart.png", "mimeType": "image/png"}]
        },
    )
    c.add(
        "a1",
        "u1",
        "assistant",
        {"content_type": "code", "language": "python", "text": "print(sum([1, 2]))"},
        recipient="python",
    )
    c.add("t1", "a1", "tool", {"content_type": "execution_output", "text": "3"})
    c.say("a2", "t1", "assistant", "It sums to 3:\n\n```python\nx = 1 + 2\n```")
    return c


def export(*conversations: Conversation) -> bytes:
    return json.dumps([c.to_json() for c in conversations], indent=1).encode()
