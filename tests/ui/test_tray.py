"""The tray icon: its menu, the unread badge and list, and the signals its entries send."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QIcon

from app.paths import resource
from ui.tray import TrayIcon, UnreadItem, badge_text, short_title


def tray() -> TrayIcon:
    return TrayIcon(QIcon(str(resource("icons", "bell.svg"))))


def test_the_menu_offers_show_new_and_quit_and_lists_unread_conversations(qapp) -> None:
    icon = tray()
    assert icon.menu_texts() == [
        "Show Chime",
        "New conversation",
        "All reminders",
        "",
        "Quit Chime",
    ]
    icon.set_unread([UnreadItem("a", "Plants & water", 2), UnreadItem("b", "Tea", 1)])
    assert icon.menu_texts() == [
        "Show Chime",
        "New conversation",
        "All reminders",
        "",
        "Plants && water (2 unread)",  # && shows one &: a title is never a mnemonic
        "Tea (1 unread)",
        "",
        "Quit Chime",
    ]
    assert icon.unread_total() == 3
    assert icon._icon.toolTip() == "Chime: 3 unread"


def test_menu_entries_send_their_signals(qapp, qtbot) -> None:
    icon = tray()
    icon.set_unread([UnreadItem("a", "Plants", 1)])
    with qtbot.waitSignal(icon.open_requested) as opened:
        icon.trigger("Plants (1 unread)")
    assert opened.args == ["a"]
    with qtbot.waitSignal(icon.show_requested):
        icon.trigger("Show Chime")
    with qtbot.waitSignal(icon.new_requested):
        icon.trigger("New conversation")
    with qtbot.waitSignal(icon.all_reminders_requested):
        icon.trigger("All reminders")
    with qtbot.waitSignal(icon.quit_requested):
        icon.trigger("Quit Chime")
    with pytest.raises(KeyError):
        icon.trigger("Nothing like this")


def test_the_badge_counts_and_caps_and_titles_are_one_short_line() -> None:
    assert [badge_text(n) for n in (0, 1, 99, 100)] == ["", "1", "99", "99+"]
    assert short_title("  a\nb  ") == "a b"
    assert short_title("") == "…"
    long = short_title("x" * 100)
    assert len(long) == 40
    assert long.endswith("…")


def test_a_badge_is_drawn_on_the_icon_only_while_something_is_unread(qapp) -> None:
    icon = tray()
    plain = icon._icon.icon().pixmap(64, 64).toImage()
    icon.set_unread([UnreadItem("a", "Plants", 3)])
    badged = icon._icon.icon().pixmap(64, 64).toImage()
    assert badged != plain
    icon.set_unread([])
    assert icon._icon.icon().pixmap(64, 64).toImage() == plain
