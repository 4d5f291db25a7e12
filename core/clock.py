"""Clock and zone ports: the only way the engine learns the time or the user's zone.

Both are zero-argument callables injected by the composition root (`app/system.py` in the app,
fakes in tests). No implementation lives here: the engine never reads the machine itself.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

Clock = Callable[[], datetime]
"""Returns the current instant as a timezone-aware datetime (UTC by convention). May raise."""

ZoneSource = Callable[[], "str | None"]
"""Returns the system's IANA zone name (e.g. ``Europe/Berlin``), or None when it is unknown. May raise."""

NewId = Callable[[], str]
"""Returns a fresh, unique, file-name-safe identifier (uuid4 hex in production, a counter in tests)."""
