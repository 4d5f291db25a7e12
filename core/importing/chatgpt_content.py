"""One message of a ChatGPT export as Chime text (``read_node``). Pure: no I/O.

A node of the export's ``mapping`` is ``{"id", "message", "parent", "children"}``; its message has
``author.role`` (``user``, ``assistant``, ``system``, ``tool``), ``content`` (``content_type`` and
its fields), ``create_time`` (seconds since 1970, or null), ``recipient`` and ``metadata``.

What each content becomes (choices where nothing is specified):
- ``text``, ``multimodal_text``: the text parts, one paragraph each. An image part
  (``image_asset_pointer``, the user's upload or a generated picture) becomes the line
  ``[Image not imported: <name or file id>]``: ``conversations.json`` holds a pointer, not the
  picture. An ``audio_transcription`` part is its text. Files named in ``metadata.attachments``
  add ``[File not imported: <name>]``.
- ``code`` (the model's call to a tool such as the Python runner): a fenced code block in its
  language; ``execution_output`` (the tool's answer): a fenced block; ``tether_quote``: a quote
  with its source; ``tether_browsing_display``: its result text; ``system_error``: its text.
- ``thoughts`` (a reasoning model's thinking): the answer's reasoning, shown folded as Chime shows
  a model's thinking; ``reasoning_recap``, ``user_editable_context``, ``model_editable_context``
  and messages marked hidden (``is_visually_hidden_from_conversation``) are skipped.
- A system message's text becomes the conversation's instructions (only the one on the shown
  path; ChatGPT's own system messages are empty and hidden). Any other content type is skipped
  and counted.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

Kind = Literal["user", "answer", "system", "skip"]
Ref = tuple[str, str, str, bool]
"""A picture or file a user's message names: (file id, name, its placeholder line, is a picture)."""


@dataclass(frozen=True, slots=True)
class NodeText:
    """What one node says: its kind, its text, its reasoning, and what could not be imported."""

    kind: Kind
    text: str = ""
    reasoning: str = ""
    images: int = 0
    files: int = 0
    unknown: int = 0
    model: str = ""
    refs: tuple[Ref, ...] = ()
    """A user message's pictures and files (an export's zip may hold them)."""


SKIP = NodeText("skip")
_SKIPPED_TYPES = frozenset({"reasoning_recap", "user_editable_context", "model_editable_context"})


def read_node(node: Mapping[str, Any]) -> NodeText:
    """The text of a ``mapping`` node (``SKIP`` for an empty or hidden one)."""
    message = node.get("message")
    if not isinstance(message, dict):
        return SKIP
    author = message.get("author")
    role = author.get("role") if isinstance(author, dict) else None
    metadata = message.get("metadata")
    metadata = metadata if isinstance(metadata, dict) else {}
    if metadata.get("is_visually_hidden_from_conversation") is True:
        return SKIP
    content = message.get("content")
    if not isinstance(content, dict):
        return SKIP
    kind: Kind = "user" if role == "user" else "system" if role == "system" else "answer"
    if role not in ("user", "system", "assistant", "tool"):
        return NodeText("skip", unknown=1)
    refs: list[Ref] = []
    text, reasoning, images, unknown = _content(content, metadata, refs)
    files = _files(metadata, kind)
    if files:
        lines = [f"[File not imported: {name}]" for _id, name in files]
        text = "\n\n".join(p for p in (text, *lines) if p)
        refs += [(i, n, line, False) for (i, n), line in zip(files, lines, strict=True)]
    if not text and not reasoning:
        return NodeText("skip", unknown=unknown)
    slug = metadata.get("model_slug")
    model = slug if isinstance(slug, str) else ""
    kept = tuple(refs) if kind == "user" else ()
    return NodeText(kind, text, reasoning, images, len(files), unknown, model, kept)


def _content(
    content: Mapping[str, Any], metadata: Mapping[str, Any], refs: list[Ref]
) -> tuple[str, str, int, int]:
    """(text, reasoning, images not imported, unknown parts) of a message's content; the
    pictures it names go to ``refs``."""
    kind = content.get("content_type")
    match kind:
        case "text" | "multimodal_text":
            return _parts(content.get("parts"), metadata, refs)
        case "code":
            language = _text(content.get("language"))
            language = "" if language == "unknown" else language
            return _fenced(_text(content.get("text")), language), "", 0, 0
        case "execution_output":
            return _fenced(_text(content.get("text")), ""), "", 0, 0
        case "tether_quote":
            quote = _text(content.get("text"))
            source = " ".join(
                p for p in (_text(content.get("title")), _text(content.get("url"))) if p
            )
            lines = [f"> {line}" if line else ">" for line in quote.splitlines()]
            return "\n".join([*lines, f"> — {source}"] if source else lines), "", 0, 0
        case "tether_browsing_display":
            return _text(content.get("result")), "", 0, 0
        case "system_error":
            return _text(content.get("text")), "", 0, 0
        case "thoughts":
            return "", _thoughts(content.get("thoughts")), 0, 0
        case str() if kind in _SKIPPED_TYPES:
            return "", "", 0, 0
    return "", "", 0, 1


def _parts(
    parts: object, metadata: Mapping[str, Any], refs: list[Ref]
) -> tuple[str, str, int, int]:
    if not isinstance(parts, list):
        return "", "", 0, 0
    names = _attachment_names(metadata)
    texts: list[str] = []
    images = unknown = 0
    for part in parts:
        if isinstance(part, str):
            texts.append(part)
        elif isinstance(part, dict) and part.get("content_type") == "image_asset_pointer":
            images += 1
            pointer = _text(part.get("asset_pointer"))
            file_id = pointer.rsplit("/", 1)[-1]
            name = names.get(file_id, file_id or "image")
            texts.append(f"[Image not imported: {name}]")
            refs.append((file_id, name, texts[-1], True))
        elif isinstance(part, dict) and part.get("content_type") == "audio_transcription":
            texts.append(_text(part.get("text")))
        else:
            unknown += 1
    return "\n\n".join(t for t in texts if t.strip()), "", images, unknown


def _attachment_names(metadata: Mapping[str, Any]) -> dict[str, str]:
    found = metadata.get("attachments")
    if not isinstance(found, list):
        return {}
    return {
        str(a["id"]): str(a["name"])
        for a in found
        if isinstance(a, dict) and isinstance(a.get("id"), str) and isinstance(a.get("name"), str)
    }


def _files(metadata: Mapping[str, Any], kind: Kind) -> list[tuple[str, str]]:
    """(id, name) of the files attached to a user's message that are not images (those are
    parts)."""
    found = metadata.get("attachments")
    if kind != "user" or not isinstance(found, list):
        return []
    return [
        (str(a.get("id", "")), str(a["name"]))
        for a in found
        if isinstance(a, dict)
        and isinstance(a.get("name"), str)
        and not str(a.get("mimeType", "")).startswith("image/")
    ]


def _thoughts(thoughts: object) -> str:
    if not isinstance(thoughts, list):
        return ""
    return "\n\n".join(
        _text(t.get("content")) for t in thoughts if isinstance(t, dict) and _text(t.get("content"))
    )


def _fenced(text: str, language: str) -> str:
    if not text:
        return ""
    fence = "```"
    while fence in text:
        fence += "`"
    return f"{fence}{language}\n{text}\n{fence}"


def _text(value: object) -> str:
    return value if isinstance(value, str) else ""
