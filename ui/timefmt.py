"""Human time phrases for the window: "today 10:45", "in 12 min". Pure: the caller passes ``now``."""

from __future__ import annotations

from datetime import datetime, timedelta

from core.readable import zone_or_utc


def relative(target: datetime, now: datetime) -> str:
    """``in 12 min``, ``in 2 h 5 min``, ``in 3 days``, ``now``, ``5 min ago``, ``2 h ago``."""
    seconds = (target - now).total_seconds()
    past = seconds < 0
    minutes = int(abs(seconds) // 60 + (0 if past else (1 if abs(seconds) % 60 else 0)))
    if minutes == 0:
        return "now"
    if minutes < 60:
        span = f"{minutes} min"
    elif minutes < 48 * 60:
        hours, rest = divmod(minutes, 60)
        span = f"{hours} h {rest} min" if rest and hours < 10 else f"{hours} h"
    else:
        span = f"{minutes // (24 * 60)} days"
    return f"{span} ago" if past else f"in {span}"


def day_time(target: datetime, now: datetime, zone_name: str | None) -> str:
    """``today 10:45``, ``tomorrow 09:30``, ``yesterday 18:00``, ``Mon 24 Dec 18:00`` (local zone)."""
    zone = zone_or_utc(zone_name)
    local = target.astimezone(zone)
    today = now.astimezone(zone).date()
    clock = local.strftime("%H:%M")
    day = local.date()
    if day == today:
        return f"today {clock}"
    if day == today + timedelta(days=1):
        return f"tomorrow {clock}"
    if day == today - timedelta(days=1):
        return f"yesterday {clock}"
    if abs((day - today).days) < 300:
        return f"{local.strftime('%a')} {local.day} {local.strftime('%b')} {clock}"
    return f"{local.day} {local.strftime('%b')} {local.year} {clock}"


def every_label(seconds: int) -> str:
    """``every 30 min``, ``every 2 h``, ``every day``, ``every 3 days`` (``every 1000 s`` otherwise)."""
    if seconds % 86400 == 0:
        days = seconds // 86400
        return "every day" if days == 1 else f"every {days} days"
    if seconds % 3600 == 0:
        return f"every {seconds // 3600} h"
    if seconds % 60 == 0:
        return f"every {seconds // 60} min"
    return f"every {seconds} s"


def since(moment: datetime, now: datetime) -> str:
    """A short age for the sessions list: ``now``, ``5 min``, ``3 h``, ``2 d``, ``12 Mar``."""
    seconds = max(0.0, (now - moment).total_seconds())
    if seconds < 60:
        return "now"
    if seconds < 3600:
        return f"{int(seconds // 60)} min"
    if seconds < 86400:
        return f"{int(seconds // 3600)} h"
    if seconds < 7 * 86400:
        return f"{int(seconds // 86400)} d"
    return f"{moment.day} {moment.strftime('%b')}"
