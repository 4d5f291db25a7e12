"""Attached files in a request (agent.md §7). Pure: the turn reads the bytes, this decides what the
model is sent.

A text file is sent as text inside its message, after the message's own text: its name, then its
content in a code fence longer than any run of backticks in it. An image is sent as an image part
of the message, but only in the ``RECENT_IMAGE_MESSAGES`` newest user messages that have images:
older ones say in a line which image was attached there (resending every image of a long
conversation on each request would be slow and costly, and the model answered about them already).
A file whose bytes are missing or damaged is named with a note saying so. Older messages grown past
the history's bound by their files are shortened like any other (``core.agent.history``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import replace

from core.agent.history import clip_older_turns
from core.events import Attachment
from core.llm.messages import Image, Message
from core.session.attachments import decode_text, is_image

RECENT_IMAGE_MESSAGES = 4

_BACKTICKS = re.compile(r"`+")


def needed(messages: Sequence[Message]) -> set[str]:
    """The hashes whose bytes ``with_files`` will use."""
    recent = _recent_image_messages(messages)
    return {
        file.sha256
        for index, message in enumerate(messages)
        for file in message.attachments
        if not is_image(file.media_type) or index in recent
    }


def with_files(
    messages: Sequence[Message], files: Mapping[str, bytes | None]
) -> tuple[Message, ...]:
    """``messages`` with their attachments made text and image parts (see the module docstring)."""
    if not any(message.attachments for message in messages):
        return tuple(messages)
    recent = _recent_image_messages(messages)
    out = []
    for index, message in enumerate(messages):
        if not message.attachments:
            out.append(message)
            continue
        texts, images = [message.text], []
        for file in message.attachments:
            data = files.get(file.sha256)
            if not is_image(file.media_type):
                texts.append(_as_text(file, data))
            elif index not in recent:
                texts.append(
                    f"[Image “{file.name}” was attached here (sent in an earlier request).]"
                )
            elif data is None:
                texts.append(f"[Image “{file.name}” was attached here; its file is missing.]")
            else:
                images.append(Image(file.media_type, data))
        out.append(replace(message, text="\n\n".join(texts), attachments=(), images=tuple(images)))
    return clip_older_turns(out)


def _recent_image_messages(messages: Sequence[Message]) -> set[int]:
    with_images = [
        index
        for index, message in enumerate(messages)
        if any(is_image(file.media_type) for file in message.attachments)
    ]
    return set(with_images[-RECENT_IMAGE_MESSAGES:])


def _as_text(file: Attachment, data: bytes | None) -> str:
    text = None if data is None else decode_text(data)
    if text is None:
        return f"[File “{file.name}” was attached here; its file is missing or damaged.]"
    longest = max((len(run) for run in _BACKTICKS.findall(text)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"Attached file “{file.name}”:\n{fence}\n{text}\n{fence}"
