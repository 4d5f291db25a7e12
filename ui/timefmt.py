"""Human time phrases for the window: "today 10:45", "in 12 min". Pure: the caller passes ``now``.

The phrases are in the window's language (``translate("TimeFormat", …)``), day and month names
in the default ``QLocale``'s (app/language.py sets it to the chosen language).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from PySide6.QtCore import QCoreApplication, QLocale

from core.readable import zone_or_utc

translate = QCoreApplication.translate  # pyside6-lupdate reads translate("TimeFormat", …)


def relative(target: datetime, now: datetime) -> str:
    """``in 12 min``, ``in 2 h 5 min``, ``in 3 days``, ``now``, ``5 min ago``, ``2 h ago``."""
    seconds = (target - now).total_seconds()
    past = seconds < 0
    minutes = int(abs(seconds) // 60 + (0 if past else (1 if abs(seconds) % 60 else 0)))
    if minutes == 0:
        return translate("TimeFormat", "now")
    if minutes < 60:
        span = translate("TimeFormat", "%1 min").replace("%1", str(minutes))
    elif minutes < 48 * 60:
        hours, rest = divmod(minutes, 60)
        span = (
            translate("TimeFormat", "%1 h %2 min")
            .replace("%1", str(hours))
            .replace("%2", str(rest))
            if rest and hours < 10
            else translate("TimeFormat", "%1 h").replace("%1", str(hours))
        )
    else:
        span = translate("TimeFormat", "%1 days").replace("%1", str(minutes // (24 * 60)))
    if past:
        return translate("TimeFormat", "%1 ago").replace("%1", span)
    return translate("TimeFormat", "in %1").replace("%1", span)


def day_time(target: datetime, now: datetime, zone_name: str | None) -> str:
    """``today 10:45``, ``tomorrow 09:30``, ``yesterday 18:00``, ``Mon 24 Dec 18:00`` (local zone)."""
    zone = zone_or_utc(zone_name)
    local = target.astimezone(zone)
    today = now.astimezone(zone).date()
    clock = local.strftime("%H:%M")
    day = local.date()
    if day == today:
        return translate("TimeFormat", "today %1").replace("%1", clock)
    if day == today + timedelta(days=1):
        return translate("TimeFormat", "tomorrow %1").replace("%1", clock)
    if day == today - timedelta(days=1):
        return translate("TimeFormat", "yesterday %1").replace("%1", clock)
    if abs((day - today).days) < 300:
        return (  # "Mon 24 Dec 18:00"
            translate("TimeFormat", "%1 %2 %3 %4", "weekday day month time")
            .replace("%1", short_day(local))
            .replace("%2", str(local.day))
            .replace("%3", short_month(local))
            .replace("%4", clock)
        )
    return (
        translate("TimeFormat", "%1 %2 %3 %4", "day month year time")
        .replace("%1", str(local.day))
        .replace("%2", short_month(local))
        .replace("%3", str(local.year))
        .replace("%4", clock)
    )


def short_day(moment: datetime) -> str:
    return QLocale().dayName(moment.isoweekday(), QLocale.FormatType.ShortFormat)


def short_month(moment: datetime) -> str:
    return QLocale().monthName(moment.month, QLocale.FormatType.ShortFormat)


def every_label(seconds: int) -> str:
    """``every 30 min``, ``every 2 h``, ``every day``, ``every 3 days`` (``every 1000 s`` otherwise)."""
    if seconds % 86400 == 0:
        days = seconds // 86400
        if days == 1:
            return translate("TimeFormat", "every day")
        return translate("TimeFormat", "every %1 days").replace("%1", str(days))
    if seconds % 3600 == 0:
        return translate("TimeFormat", "every %1 h").replace("%1", str(seconds // 3600))
    if seconds % 60 == 0:
        return translate("TimeFormat", "every %1 min").replace("%1", str(seconds // 60))
    return translate("TimeFormat", "every %1 s").replace("%1", str(seconds))


def since(moment: datetime, now: datetime) -> str:
    """A short age for the sessions list: ``now``, ``5 min``, ``3 h``, ``2 d``, ``12 Mar``."""
    seconds = max(0.0, (now - moment).total_seconds())
    if seconds < 60:
        return translate("TimeFormat", "now")
    if seconds < 3600:
        return translate("TimeFormat", "%1 min").replace("%1", str(int(seconds // 60)))
    if seconds < 86400:
        return translate("TimeFormat", "%1 h").replace("%1", str(int(seconds // 3600)))
    if seconds < 7 * 86400:
        return translate("TimeFormat", "%1 d").replace("%1", str(int(seconds // 86400)))
    return (
        translate("TimeFormat", "%1 %2", "day month")
        .replace("%1", str(moment.day))
        .replace("%2", short_month(moment))
    )
