"""The one palette source: the light and dark colours and every colour derived from them. No I/O.

``palette_for(scheme)`` is the application palette of a scheme; everything else the
window paints (bubbles, cards, code boxes, muted captions, warnings, the style sheet's colours) is
derived from a palette by the functions here, so a theme switch that sets a new palette changes
every widget and every painted row at once, and the contrast test can check what is really shown.

Choices where the spec is silent:
- Both schemes are Chime's own tables (Fusion's default palette differs per platform); ``system``
  picks one of them from the desktop's light/dark preference.
- Every text colour meets WCAG AA (4.5:1) against the background it is drawn on; colours derived
  from an accent (the warning red, the muted captions, syntax colours) are moved towards the text
  colour until they do (``readable``).
- Disabled text (a greyed-out button, a read-only message box's placeholder, which says why) is
  dimmed towards its background but keeps AA contrast too, though WCAG exempts inactive controls.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Literal

from PySide6.QtGui import QColor, QPalette

from core.frozen import frozen

Scheme = Literal["light", "dark"]
AA = 4.5
"""WCAG 2.x AA contrast for normal text."""

Role = QPalette.ColorRole

LIGHT: Mapping[Role, str] = {
    Role.Window: "#f3f4f6",
    Role.WindowText: "#1b1d21",
    Role.Base: "#ffffff",
    Role.AlternateBase: "#f3f4f7",
    Role.Text: "#1b1d21",
    Role.Button: "#e8eaee",
    Role.ButtonText: "#1b1d21",
    Role.BrightText: "#ffffff",
    Role.Highlight: "#2b5bc8",
    Role.HighlightedText: "#ffffff",
    Role.PlaceholderText: "#5f6570",
    Role.ToolTipBase: "#ffffff",
    Role.ToolTipText: "#1b1d21",
    Role.Link: "#1d55c4",
    Role.LinkVisited: "#6a3bb8",
    Role.Light: "#ffffff",
    Role.Midlight: "#e2e4e8",
    Role.Mid: "#c3c7ce",
    Role.Dark: "#8d939c",
    Role.Shadow: "#4a4d52",
}
DARK: Mapping[Role, str] = {
    Role.Window: "#222428",
    Role.WindowText: "#e5e7ea",
    Role.Base: "#1a1b1e",
    Role.AlternateBase: "#27292d",
    Role.Text: "#e5e7ea",
    Role.Button: "#33363b",
    Role.ButtonText: "#e5e7ea",
    Role.BrightText: "#ffffff",
    Role.Highlight: "#3a66c8",
    Role.HighlightedText: "#ffffff",
    Role.PlaceholderText: "#9da2aa",
    Role.ToolTipBase: "#33363b",
    Role.ToolTipText: "#e5e7ea",
    Role.Link: "#8db4ff",
    Role.LinkVisited: "#c4a5ff",
    Role.Light: "#4d5158",
    Role.Midlight: "#3b3e44",
    Role.Mid: "#4d5158",
    Role.Dark: "#141517",
    Role.Shadow: "#000000",
}

WARNING = QColor("#d4322c")
REMINDER = QColor("#e6a019")
FIND_MATCH = QColor("#f5c400")
FIND_CURRENT = QColor("#f08a00")


def palette_for(scheme: Scheme) -> QPalette:
    """The application palette of ``scheme`` (every colour group; disabled text dimmed)."""
    table = DARK if scheme == "dark" else LIGHT
    palette = QPalette()
    for role, color in table.items():
        palette.setColor(role, QColor(color))
    palette.setColor(Role.Accent, QColor(table[Role.Highlight]))
    text = QColor(table[Role.Text])
    backgrounds = tuple(QColor(table[r]) for r in (Role.Window, Role.Base, Role.Button))
    dimmed = readable(mix(text, QColor(table[Role.Window]), 0.6), backgrounds, text)
    disabled = QPalette.ColorGroup.Disabled
    for role in (Role.Text, Role.WindowText, Role.ButtonText, Role.PlaceholderText):
        palette.setColor(disabled, role, dimmed)
    palette.setColor(disabled, Role.Base, QColor(table[Role.Window]))
    palette.setColor(disabled, Role.Button, QColor(table[Role.Window]))  # flat: plainly inactive
    return palette


def is_dark(palette: QPalette) -> bool:
    return palette.color(Role.Base).lightness() < 128


# -- contrast --------------------------------------------------------------------------------


def luminance(color: QColor) -> float:
    """WCAG relative luminance of an opaque colour."""

    def channel(value: int) -> float:
        c = value / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    return (
        0.2126 * channel(color.red())
        + 0.7152 * channel(color.green())
        + 0.0722 * channel(color.blue())
    )


def contrast(foreground: QColor, background: QColor) -> float:
    """WCAG contrast ratio (1 to 21) of two opaque colours."""
    a, b = luminance(foreground), luminance(background)
    return (max(a, b) + 0.05) / (min(a, b) + 0.05)


def mix(a: QColor, b: QColor, amount: float) -> QColor:
    """``a`` moved ``amount`` (0..1) of the way towards ``b``."""
    return QColor(
        round(a.red() + (b.red() - a.red()) * amount),
        round(a.green() + (b.green() - a.green()) * amount),
        round(a.blue() + (b.blue() - a.blue()) * amount),
    )


def readable(
    color: QColor, backgrounds: tuple[QColor, ...], toward: QColor, minimum: float = AA
) -> QColor:
    """``color``, moved towards ``toward`` (the scheme's text colour) just far enough to reach
    ``minimum`` contrast on every one of ``backgrounds``."""
    step = 0.0
    candidate = QColor(color)
    while min(contrast(candidate, bg) for bg in backgrounds) < minimum and step < 1.0:
        step = min(1.0, step + 0.05)
        candidate = mix(color, toward, step)
    return candidate


# -- what the rows paint ---------------------------------------------------------------------


@frozen
class Surfaces:
    """The colours of painted rows, derived from one palette.

    Every ``*_text`` colour is readable (AA) on the fills it is drawn on.
    """

    text: QColor
    muted_text: QColor
    user_bubble: QColor
    reminder_card: QColor
    reminder_border: QColor
    error_card: QColor
    error_border: QColor
    tool_card: QColor
    code_background: QColor
    code_border: QColor
    code_header: QColor
    inline_code: QColor
    button: QColor
    button_hover: QColor
    warning_text: QColor
    link: QColor
    focus: QColor
    find_match: QColor
    """Behind every match of the find bar's text (the text on it is ``text``)."""
    find_current: QColor
    """Behind the current match (the text on it is ``find_current_text``)."""
    find_current_text: QColor


def surfaces(palette: QPalette) -> Surfaces:
    """The row colours for ``palette`` (light or dark, by its base colour)."""
    base = palette.color(Role.Base)
    window = palette.color(Role.Window)
    text = palette.color(Role.Text)
    highlight = palette.color(Role.Highlight)
    dark = is_dark(palette)
    user_bubble = mix(base, highlight, 0.30 if dark else 0.13)
    reminder_card = mix(base, REMINDER, 0.20 if dark else 0.15)
    error_card = mix(base, WARNING, 0.18 if dark else 0.08)
    tool_card = mix(base, text, 0.06 if dark else 0.04)
    code = mix(base, text, 0.07 if dark else 0.045)
    header = mix(base, text, 0.12 if dark else 0.08)
    placeholder = palette.color(Role.PlaceholderText)
    find_match = mix(base, FIND_MATCH, 0.35 if dark else 0.5)
    find_current = mix(base, FIND_CURRENT, 0.9 if dark else 0.75)
    black = QColor("#000000")
    return Surfaces(
        text=text,
        muted_text=readable(placeholder, (base, window, tool_card, header, code), text),
        user_bubble=user_bubble,
        reminder_card=reminder_card,
        reminder_border=mix(base, REMINDER, 0.65),
        error_card=error_card,
        error_border=mix(base, WARNING, 0.6),
        tool_card=tool_card,
        code_background=code,
        code_border=mix(base, text, 0.18 if dark else 0.14),
        code_header=header,
        inline_code=mix(base, text, 0.12 if dark else 0.07),
        button=mix(header, text, 0.10),
        button_hover=mix(header, text, 0.2),
        warning_text=readable(WARNING, (base, window, error_card), text),
        link=readable(palette.color(Role.Link), (base, user_bubble, reminder_card, code), text),
        focus=highlight,
        find_match=readable(find_match, (text,), base),
        find_current=find_current,
        find_current_text=readable(base if dark else text, (find_current,), black),
    )


@frozen
class CardColors:
    """A list card (a session in the sidebar, a reminder in the panel): its fill (None: the
    list's own background), its texts, and its badge."""

    fill: QColor
    text: QColor
    muted_text: QColor
    warning_text: QColor
    badge: QColor
    border: QColor


def card_colors(
    palette: QPalette, *, selected: bool, background: QColor | None = None
) -> CardColors:
    """The colours of a card on a list whose background is ``background`` (the palette's base
    when None); selected cards are drawn in the selection colours."""
    if selected:
        fill = palette.color(Role.Highlight)
        text = palette.color(Role.HighlightedText)
        return CardColors(fill, text, text, text, mix(fill, QColor("#000000"), 0.25), fill)
    fill = background if background is not None else palette.color(Role.Base)
    derived = surfaces(palette)
    text = palette.color(Role.Text)
    muted = readable(derived.muted_text, (fill,), text)
    warning = readable(derived.warning_text, (fill,), text)
    badge = mix(fill, REMINDER, 0.3)
    return CardColors(fill, text, muted, warning, badge, palette.color(Role.Mid))


# -- the style sheet -------------------------------------------------------------------------

_PALETTE_REF = re.compile(r"palette\(([a-z-]+)\)")
_ROLES = {
    "window": Role.Window,
    "window-text": Role.WindowText,
    "base": Role.Base,
    "alternate-base": Role.AlternateBase,
    "text": Role.Text,
    "button": Role.Button,
    "button-text": Role.ButtonText,
    "highlight": Role.Highlight,
    "highlighted-text": Role.HighlightedText,
    "placeholder-text": Role.PlaceholderText,
    "link": Role.Link,
    "mid": Role.Mid,
    "midlight": Role.Midlight,
    "dark": Role.Dark,
}
_DERIVED: dict[str, Callable[[Surfaces], QColor]] = {
    "warning-text": lambda s: s.warning_text,
    "muted-text": lambda s: s.muted_text,
    "reminder-border": lambda s: s.reminder_border,
    "code-background": lambda s: s.code_background,
}


def style_sheet(template: str, palette: QPalette) -> str:
    """``template`` with every ``palette(role)`` (a Qt role, or one of the derived colours
    ``warning-text``, ``muted-text``, ``reminder-border``, ``code-background``) replaced by the
    colour it has in ``palette``: a concrete sheet, so setting it re-polishes every widget with
    the new colours (a sheet's own ``palette()`` references are resolved once, at polish time)."""
    derived = surfaces(palette)

    def color_of(match: re.Match[str]) -> str:
        name = match.group(1)
        if name in _DERIVED:
            return _DERIVED[name](derived).name()
        role = _ROLES.get(name)
        if role is None:
            raise ValueError(f"unknown palette role in the style sheet: {name}")
        return palette.color(role).name()

    return _PALETTE_REF.sub(color_of, template)
