"""Each kind of ChatGPT message content as Chime text (``read_node``)."""

from __future__ import annotations

from typing import Any

import pytest

from core.importing.chatgpt_content import SKIP, NodeText, read_node


def node(role: str, content: object, **metadata: Any) -> dict[str, Any]:
    return {"message": {"author": {"role": role}, "content": content, "metadata": metadata}}


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (
            node(
                "assistant",
                {"content_type": "tether_quote", "text": "a\n\nb", "title": "T", "url": "u"},
            ),
            NodeText("answer", "> a\n>\n> b\n> — T u"),
        ),
        (
            node("tool", {"content_type": "tether_browsing_display", "result": "found"}),
            NodeText("answer", "found"),
        ),
        (
            node("tool", {"content_type": "system_error", "name": "E", "text": "failed"}),
            NodeText("answer", "failed"),
        ),
        (
            node(
                "user",
                {
                    "content_type": "multimodal_text",
                    "parts": [{"content_type": "audio_transcription", "text": "spoken"}, {"x": 1}],
                },
            ),
            NodeText("user", "spoken", unknown=1),
        ),
        (
            node(
                "user",
                {"content_type": "text", "parts": ["see file"]},
                attachments=[{"id": "f", "name": "notes.pdf", "mimeType": "application/pdf"}, 3],
            ),
            NodeText(
                "user",
                "see file\n\n[File not imported: notes.pdf]",
                files=1,
                refs=(("f", "notes.pdf", "[File not imported: notes.pdf]", False),),
            ),
        ),
        (
            node("assistant", {"content_type": "code", "language": "unknown", "text": "a ```"}),
            NodeText("answer", "````\na ```\n````"),
        ),
        (node("assistant", {"content_type": "text", "parts": "not a list"}), SKIP),
        (node("assistant", {"content_type": "user_editable_context"}), SKIP),
        (node("assistant", {"content_type": "hologram"}), NodeText("skip", unknown=1)),
        (node("critic", {"content_type": "text", "parts": ["x"]}), NodeText("skip", unknown=1)),
        (node("assistant", "text"), SKIP),
        ({"message": "x"}, SKIP),
        (
            {"message": {"author": None, "content": {}, "metadata": None}},
            NodeText("skip", unknown=1),
        ),
        (node("assistant", {"content_type": "code", "text": ""}), SKIP),
        (node("assistant", {"content_type": "thoughts", "thoughts": "x"}), SKIP),
        (
            node(
                "assistant",
                {
                    "content_type": "multimodal_text",
                    "parts": [{"content_type": "image_asset_pointer", "asset_pointer": ""}],
                },
                attachments="none",
            ),
            NodeText("answer", "[Image not imported: image]", images=1),
        ),
    ],
)
def test_each_content_reads_as(value: dict[str, Any], expected: NodeText) -> None:
    assert read_node(value) == expected
