"""The link of an attached file in the transcript (``chime-attachment:<sha256>``) and finding the
file a link names. Pure string and sequence work: the window reads these before its first paint,
the transcript's painting parts (``ui.row_files``) only when a row is painted."""

from __future__ import annotations

from collections.abc import Sequence

from core.events import Attachment

ATTACHMENT_URL = "chime-attachment:"
"""The link scheme of an attached file in the transcript (its sha256 follows)."""


def attachment_url(file: Attachment) -> str:
    return f"{ATTACHMENT_URL}{file.sha256}"


def attachment_sha(url: str) -> str:
    """The sha256 an attachment link names ("" when ``url`` is no attachment link)."""
    return url.removeprefix(ATTACHMENT_URL) if url.startswith(ATTACHMENT_URL) else ""


def find_file(files: Sequence[Attachment], sha256: str) -> Attachment | None:
    return next((file for file in files if file.sha256 == sha256), None)
