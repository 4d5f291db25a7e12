"""Files added to a message (agent.md §7): what may be attached, and their content-addressed store
``sessions/<id>/attachments/<sha256>``.

``classify`` is pure: a text file (UTF-8, no NUL byte) up to ``TEXT_LIMIT`` bytes, or a PNG, JPEG,
GIF or WebP image (told by its first bytes, not its name) up to ``IMAGE_LIMIT``; anything else is
refused with a sentence saying why (``core.session.refusal.Refused``, a pure value the session port
names). ``AttachmentStore`` writes each distinct content once (a temporary file, fsynced, renamed
into place, so a crash never leaves a half file under a hash name) and reads it back checked
against its hash: a damaged file reads as None, and the message then says the attachment is
missing instead of sending wrong bytes.

The bytes live in the session's folder, so they move with it to the trash and back; a fork copies
(hard-links where it can) the folder, because the inherited messages name the same files.
"""

from __future__ import annotations

import hashlib
import os
import shutil
from pathlib import Path, PurePath

from core.events import Attachment
from core.session import jsonl_store as disk
from core.session.refusal import RefusalCode, Refused

FOLDER = "attachments"
TEXT_LIMIT = 256 * 1024
IMAGE_LIMIT = 5 * 1024 * 1024

_IMAGE_MAGIC = (
    (b"\x89PNG\r\n\x1a\n", "image/png"),
    (b"\xff\xd8\xff", "image/jpeg"),
    (b"GIF87a", "image/gif"),
    (b"GIF89a", "image/gif"),
)
_TEXT_TYPES = {
    ".md": "text/markdown",
    ".markdown": "text/markdown",
    ".json": "application/json",
    ".csv": "text/csv",
    ".py": "text/x-python",
    ".html": "text/html",
    ".xml": "application/xml",
    ".yaml": "application/yaml",
    ".yml": "application/yaml",
    ".toml": "application/toml",
}


def is_image(media_type: str) -> bool:
    return media_type.startswith("image/")


def image_type(data: bytes) -> str | None:
    """The media type of a PNG, JPEG, GIF or WebP image, told by its first bytes."""
    for magic, media_type in _IMAGE_MAGIC:
        if data.startswith(magic):
            return media_type
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "image/webp"
    return None


def size_refusal(name: str, size: int) -> Refused | None:
    """A file too big to be anything attachable (checked before reading it)."""
    if size > IMAGE_LIMIT:
        return Refused(
            f"“{name}” is {_size(size)}: attachments are at most {_size(TEXT_LIMIT)} for text "
            f"and {_size(IMAGE_LIMIT)} for images.",
            RefusalCode.TOO_BIG,
            (name, size, TEXT_LIMIT, IMAGE_LIMIT),
        )
    return None


def classify(name: str, data: bytes) -> Attachment | Refused:
    """The attachment ``data`` makes (its record, hash included), or why it is refused."""
    display = PurePath(name).name or "file"
    too_big = size_refusal(display, len(data))
    if too_big is not None:
        return too_big
    digest = hashlib.sha256(data).hexdigest()
    kind = image_type(data)
    if kind is not None:
        return Attachment(display, kind, digest, len(data))
    if len(data) > TEXT_LIMIT:
        return Refused(
            f"“{display}” is {_size(len(data))}: text files are at most {_size(TEXT_LIMIT)}.",
            RefusalCode.TEXT_TOO_BIG,
            (display, len(data), TEXT_LIMIT),
        )
    if b"\x00" in data or decode_text(data) is None:
        return Refused(
            f"“{display}” is neither text nor a PNG, JPEG, GIF or WebP image, so it cannot be "
            "attached.",
            RefusalCode.NOT_TEXT,
            (display,),
        )
    media_type = _TEXT_TYPES.get(PurePath(display).suffix.lower(), "text/plain")
    return Attachment(display, media_type, digest, len(data))


def decode_text(data: bytes) -> str | None:
    """The text of a UTF-8 file (a byte-order mark dropped), None when it is not UTF-8."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return None


def _size(count: int) -> str:
    if count >= 1024 * 1024:
        return f"{count / (1024 * 1024):.1f} MB"
    return f"{max(1, round(count / 1024))} KB"


class AttachmentStore:
    """The ``attachments`` folder of one session. Blocking: call it from a worker thread."""

    def __init__(self, session_folder: Path) -> None:
        self.folder = session_folder / FOLDER

    def put(self, attachment: Attachment, data: bytes) -> None:
        """Store ``data`` under its hash (nothing to do when it is there already). OSError when
        the disk refuses; then nothing is left under the hash name."""
        target = self.folder / attachment.sha256
        if not target.exists():
            disk.publish_file(target, data)

    def read(self, sha256: str) -> bytes | None:
        """The stored bytes, or None when they are missing or do not match their hash."""
        if not _is_hash(sha256):
            return None
        try:
            data = (self.folder / sha256).read_bytes()
        except OSError:
            return None
        return data if hashlib.sha256(data).hexdigest() == sha256 else None

    def copy_to(self, other: AttachmentStore) -> None:
        """Every stored file into ``other`` (hard links where the file system allows)."""
        if not self.folder.is_dir():
            return
        disk.make_dirs(other.folder)
        for path in self.folder.iterdir():
            if not _is_hash(path.name) or (other.folder / path.name).exists():
                continue
            try:
                os.link(path, other.folder / path.name)
            except OSError:
                shutil.copy2(path, other.folder / path.name)


def _is_hash(name: str) -> bool:
    return len(name) == 64 and all(c in "0123456789abcdef" for c in name)
