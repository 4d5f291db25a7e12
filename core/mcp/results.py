"""What an MCP tool's answer becomes: the text the model reads, the images saved like attachments,
the resource links kept as links. Pure: no I/O (the caller saves the images).

The answer is the SDK's ``CallToolResult`` as plain JSON data (``content`` blocks,
``structuredContent``, ``isError``). Rules (docs/spec/agent.md §3.1):

- ``text`` blocks are joined with a blank line; an embedded text resource counts as text;
- ``image`` blocks (base64 ``data``, ``mimeType`` ``image/*``) are decoded, at most ``MAX_IMAGES``
  of at most ``MAX_IMAGE_BYTES`` each; the model reads one line naming each image;
- ``resource_link`` blocks (and embedded binary resources) are kept as ``(uri, name)`` links; the
  model reads one line naming each;
- an answer with no text but ``structuredContent`` gives its compact JSON, refused (a sentence
  instead) when the bounded decode refuses it (``core.jsonread.TOOL_TEXT``: nested too deeply);
- audio and unknown blocks are named, not kept;
- the text is cut at ``MAX_TEXT_BYTES`` (64 KiB of UTF-8) with a sentence saying how much was
  cut, so a flood never reaches the log or the model's context whole.
"""

from __future__ import annotations

import base64
import binascii
import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from core.events import ToolLink
from core.jsonread import TOOL_TEXT, JsonRefusedError, parse_json

MAX_TEXT_BYTES = 64 * 1024
MAX_IMAGES = 4
MAX_IMAGE_BYTES = 10 * 1024 * 1024


@dataclass(frozen=True, slots=True)
class Image:
    media_type: str
    data: bytes


@dataclass(frozen=True, slots=True)
class Reading:
    """An answer as Chime keeps it: the model's text, the images to save, the links."""

    text: str
    is_error: bool
    images: tuple[Image, ...] = ()
    links: tuple[ToolLink, ...] = ()


def read_result(raw: Mapping[str, Any]) -> Reading:
    """The reading of one ``CallToolResult`` (as JSON data)."""
    parts: list[str] = []
    images: list[Image] = []
    links: list[ToolLink] = []
    content = raw.get("content")
    for block in content if isinstance(content, list) else ():
        if isinstance(block, Mapping):
            _block(block, parts, images, links)
    structured = raw.get("structuredContent")
    if not any(p.strip() for p in parts) and structured is not None:
        parts.append(_structured(structured))
    text = bounded("\n\n".join(parts))
    return Reading(text, raw.get("isError") is True, tuple(images), tuple(links))


def _block(
    block: Mapping[str, Any], parts: list[str], images: list[Image], links: list[ToolLink]
) -> None:
    match block.get("type"):
        case "text":
            parts.append(str(block.get("text", "")))
        case "image":
            image = _image(block)
            if image is None or len(images) >= MAX_IMAGES:
                parts.append("[An image the tool returned was left out: unreadable or too many.]")
            else:
                images.append(image)
                parts.append(
                    f"[Image ({image.media_type}, {len(image.data):,} bytes): shown to the person.]"
                )
        case "resource_link":
            link = ToolLink(str(block.get("uri", "")), str(block.get("name", "")))
            links.append(link)
            parts.append(f"[Link: {link.name} <{link.uri}>]")
        case "resource":
            _resource(block.get("resource"), parts, links)
        case other:
            parts.append(f"[A {str(other)[:40]} block the tool returned is not shown.]")


def _resource(resource: Any, parts: list[str], links: list[ToolLink]) -> None:
    if not isinstance(resource, Mapping):
        return
    uri = str(resource.get("uri", ""))
    if isinstance(resource.get("text"), str):
        parts.append(resource["text"])
    else:
        links.append(ToolLink(uri, uri.rsplit("/", 1)[-1] or uri))
        parts.append(f"[Resource: <{uri}>]")


def _image(block: Mapping[str, Any]) -> Image | None:
    media_type, data = block.get("mimeType"), block.get("data")
    if not isinstance(media_type, str) or not media_type.startswith("image/"):
        return None
    if not isinstance(data, str) or len(data) > MAX_IMAGE_BYTES * 4 // 3 + 4:
        return None
    try:
        decoded = base64.b64decode(data, validate=True)
    except (binascii.Error, ValueError):
        return None
    return Image(media_type[:100], decoded) if decoded else None


def _structured(value: Any) -> str:
    try:
        text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
        parse_json(text, TOOL_TEXT)
    except (RecursionError, ValueError, TypeError) as error:
        reason = error if isinstance(error, JsonRefusedError) else "not JSON"
        return f"[The tool's structured answer was not kept: {reason}.]"
    return text


def bounded(text: str, limit: int = MAX_TEXT_BYTES) -> str:
    """``text`` within ``limit`` bytes of UTF-8, with a sentence saying how much was cut."""
    data = text.encode("utf-8", "surrogatepass")
    if len(data) <= limit:
        return text
    kept = data[:limit].decode("utf-8", "ignore")
    return (
        f"{kept}\n\n[Cut: the tool returned {len(data):,} bytes; Chime keeps the first {limit:,}.]"
    )
