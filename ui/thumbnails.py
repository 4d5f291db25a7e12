"""``Thumbnails``: where the window's pictures of image files come from (a function the app
supplies, ``app.tool_images``), and the none there are before it does. Only names: the message
box's chips need them before the first paint, the transcript's rows (``ui.mcp_rows``,
``ui.row_files``) when they are painted."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from core.events import Attachment

if TYPE_CHECKING:  # a picture is made and named only where a row shows one
    from PySide6.QtGui import QImage

Thumbnails = Callable[[Attachment], "QImage | None"]
"""A picture no larger than ``THUMBNAIL`` for an image file of the shown session (None: not
read yet, or no pictures at all; a null ``QImage``: missing, or no picture)."""

THUMBNAIL = 240
"""A thumbnail's largest side in pixels."""


def no_thumbnails(_image: Attachment) -> QImage | None:
    """Before the app supplies the pictures: none (the images are named instead)."""
    return None
