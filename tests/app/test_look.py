"""The look of the real window: a theme switched live changes every widget's colours from one
palette source, every text keeps WCAG AA contrast on what it is drawn on in both themes, the text
size reaches the transcript and the message box at once, small windows collapse their panels and
nothing overlaps, the tab order follows the screen, and a saved geometry fits the screen."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest
from PySide6.QtCore import QRect, QSize, Qt
from PySide6.QtGui import QColor, QFont, QIcon, QImage, QPalette
from PySide6.QtWidgets import QApplication, QRadioButton, QWidget

from app.appearance import apply_appearance, configured
from app.settings import Settings
from tests.ui.events import EventScript
from ui.highlight import style_token_types
from ui.main_window import MainWindow
from ui.screen import ReminderView, SessionAccess, SessionScreen
from ui.session_list import SessionDelegate, SessionListItem
from ui.theme import AA, card_colors, contrast
from ui.window_parts import fit_rect

Role = QPalette.ColorRole
NOW = datetime(2026, 8, 5, 12, 0, tzinfo=UTC)
ANSWER = "Here is code:\n\n```python\ndef f(x):\n    return x + 1  # add one\n```\n\nSee [docs](https://example.com)."


@pytest.fixture
def look(qapp) -> Iterator[QApplication]:
    """The application's palette, font, style sheet and colour scheme, put back afterwards."""
    saved = (QPalette(qapp.palette()), QFont(qapp.font()), qapp.styleSheet())
    scheme = qapp.styleHints().colorScheme()
    yield qapp
    qapp.styleHints().setColorScheme(scheme)
    qapp.setStyleSheet(saved[2])
    qapp.setPalette(saved[0])
    qapp.setFont(saved[1])


def full_window(qtbot) -> MainWindow:
    window = MainWindow(lambda: NOW, QIcon())
    qtbot.addWidget(window)
    script = EventScript()
    script.turn("hello", ANSWER)
    script.reminder("schedule-1", "stretch", NOW, NOW + timedelta(minutes=3))
    start = script.start(len(script.events) - 1)
    del start
    script.end("failed", "The server did not answer.")
    reminder = ReminderView("schedule-2", "after", "water", NOW - timedelta(minutes=1))
    window.show_session(
        SessionScreen("Plants", script.events, "UTC", (reminder,), SessionAccess("live"))
    )
    window.set_sessions(
        [
            SessionListItem("a", "Plants", NOW, reminder_count=1, live=True),
            SessionListItem("b", "Older", NOW - timedelta(days=1)),
        ],
        "a",
    )
    window.banner.show_message("Opened read-only elsewhere.", offer_fork=True)
    window.notify("Exported to plants.md")
    window.set_persistence_warning(True)
    window.status.set_state("live")
    window.status.set_provider("Offline assistant")
    window.set_zone("UTC")
    window.resize(1300, 800)
    window.show()
    qtbot.waitExposed(window)
    return window


def roles(widget: QWidget, fg: Role | None = None, bg: Role | None = None) -> tuple[QColor, QColor]:
    palette = widget.palette()
    return (
        palette.color(fg if fg is not None else widget.foregroundRole()),
        palette.color(bg if bg is not None else widget.backgroundRole()),
    )


def text_pairs(window: MainWindow) -> dict[str, tuple[QColor, QColor]]:
    """(text colour, background colour) of every text the window shows, read from the real
    widgets' palettes and the colours their delegates paint with."""
    pairs: dict[str, tuple[QColor, QColor]] = {}
    sessions, reminders, composer = window.sessions, window.reminders, window.composer
    pairs["sidebar filter"] = roles(sessions.filter, Role.Text, Role.Base)
    pairs["sidebar filter placeholder"] = roles(sessions.filter, Role.PlaceholderText, Role.Base)
    for selected in (False, True):
        row = SessionDelegate.colors(sessions.list.palette(), selected=selected)
        pairs[f"session row{' (selected)' * selected}"] = (row.text, row.fill)
        pairs[f"session age{' (selected)' * selected}"] = (row.muted_text, row.fill)
        pairs[f"session badge{' (selected)' * selected}"] = (row.text, row.badge)
        card = card_colors(reminders.list.palette(), selected=selected)
        pairs[f"reminder card{' (selected)' * selected}"] = (card.text, card.fill)
        pairs[f"reminder id{' (selected)' * selected}"] = (card.muted_text, card.fill)
        pairs[f"reminder overdue{' (selected)' * selected}"] = (card.warning_text, card.fill)
    panel_background = reminders.palette().color(reminders.backgroundRole())
    for name in ("panel-title", "reminders-note"):
        label = reminders.findChild(QWidget, name)
        assert label is not None
        pairs[name] = (roles(label)[0], panel_background)
    pairs["dock title"] = roles(window.reminders_dock)
    pairs["menu bar"] = roles(window.menuBar())
    menu = window.menuBar().actions()[0].menu()
    pairs["menu"] = roles(menu)
    pairs["menu item (hovered)"] = roles(menu, Role.HighlightedText, Role.Highlight)
    for button in (composer.send_button, composer.stop_button, reminders.delete_button):
        pairs[f"button {button.objectName()}"] = roles(button, Role.ButtonText, Role.Button)
    pairs["banner button"] = roles(window.banner.button, Role.ButtonText, Role.Button)
    pairs["message box"] = roles(composer.editor, Role.Text, Role.Base)
    pairs["message box placeholder"] = roles(composer.editor, Role.PlaceholderText, Role.Base)
    disabled = composer.editor.palette()
    group = QPalette.ColorGroup.Disabled
    pairs["read-only message box placeholder"] = (
        disabled.color(group, Role.PlaceholderText),
        disabled.color(group, Role.Base),
    )
    status = window.statusBar().palette().color(window.statusBar().backgroundRole())
    for label in (
        window.status.state_label,
        window.status.provider_label,
        window.status.zone_label,
        window.status.persistence_label,
    ):
        pairs[f"status {label.objectName()}"] = (roles(label)[0], status)
    pairs["banner"] = (roles(window.banner.label)[0], roles(window.banner)[1])
    pairs["message bar"] = (roles(window.message_bar.label)[0], roles(window.message_bar)[1])
    pairs["message bar button"] = roles(
        window.message_bar.action_button, Role.ButtonText, Role.Button
    )
    pairs.update(transcript_pairs(window))
    return pairs


def transcript_pairs(window: MainWindow) -> dict[str, tuple[QColor, QColor]]:
    view = window.transcript
    palette = view.palette()
    s = view.parts.delegate.layouts.surfaces
    pairs = {
        "answer": (s.text, palette.color(Role.Base)),
        "user bubble": (s.text, s.user_bubble),
        "reminder card": (s.text, s.reminder_card),
        "error card": (s.text, s.error_card),
        "tool card": (s.text, s.tool_card),
        "time and footer": (s.muted_text, palette.color(Role.Base)),
        "code label": (s.muted_text, s.code_background),
        "code": (s.text, s.code_background),
        "inline code": (s.text, s.inline_code),
        "footer button": (s.text, s.button_hover),
        "link": (s.link, palette.color(Role.Base)),
        "link in a bubble": (s.link, s.user_bubble),
        "selected text": (palette.color(Role.HighlightedText), palette.color(Role.Highlight)),
        "find match": (s.text, s.find_match),
        "current find match": (s.find_current_text, s.find_current),
    }
    formats = view.parts.delegate.layouts.code_formats()
    dark = palette.color(Role.Base).lightness() < 128
    for token in style_token_types(dark):
        pairs[f"code token {token}"] = (formats.color_of(token), s.code_background)
    return pairs


def apply(qapp: QApplication, theme: str, size: int = 11) -> None:
    apply_appearance(qapp, Settings(theme=theme, text_size=size))
    QApplication.processEvents()


def test_every_text_keeps_aa_contrast_in_both_themes(qtbot, look) -> None:
    window = full_window(qtbot)
    for theme in ("light", "dark"):
        apply(look, theme)
        poor = {
            name: round(contrast(*pair), 2)
            for name, pair in text_pairs(window).items()
            if contrast(*pair) < AA
        }
        assert poor == {}, theme
        focus = window.transcript.parts.delegate.layouts.surfaces.focus
        assert contrast(focus, window.transcript.palette().color(Role.Base)) >= 3  # non-text


def test_switching_the_theme_live_changes_every_widget_and_switching_back_restores_it(
    qtbot, look
) -> None:
    window = full_window(qtbot)
    apply(look, "light")
    light = {name: (a.name(), b.name()) for name, (a, b) in text_pairs(window).items()}
    light_backgrounds = backgrounds(window)
    apply(look, "dark")
    dark = {name: (a.name(), b.name()) for name, (a, b) in text_pairs(window).items()}
    unchanged = [name for name in light if light[name] == dark[name]]
    assert unchanged == []
    dark_backgrounds = backgrounds(window)
    assert [n for n in light_backgrounds if light_backgrounds[n] == dark_backgrounds[n]] == []
    assert all(QColor(color).lightness() < 100 for color in dark_backgrounds.values())
    apply(look, "light")
    again = {name: (a.name(), b.name()) for name, (a, b) in text_pairs(window).items()}
    assert again == light
    assert backgrounds(window) == light_backgrounds


def backgrounds(window: MainWindow) -> dict[str, str]:
    """The background actually painted behind the big areas (a grab of each widget)."""
    areas = {
        "sidebar": window.sessions.list.viewport(),
        "transcript": window.transcript.viewport(),
        "message box": window.composer.editor.viewport(),
        "composer": window.composer,
        "reminders": window.reminders.list.viewport(),
        "status bar": window.statusBar(),
        "menu bar": window.menuBar(),
    }
    return {
        name: widget.grab().toImage().pixelColor(2, widget.height() - 3).name()
        for name, widget in areas.items()
    }


def test_the_text_size_applies_live_to_the_transcript_and_the_message_box(qtbot, look) -> None:
    window = full_window(qtbot)
    apply(look, "light", 10)
    row = window.transcript_model.rowCount() - 1
    before = window.transcript.visualRect(window.transcript_model.index(0)).height()
    editor_before = window.composer.editor.height()
    apply(look, "light", 16)
    assert window.transcript.font().pointSize() == 16
    assert window.composer.editor.font().pointSize() == 16
    assert window.transcript.visualRect(window.transcript_model.index(0)).height() > before
    assert window.composer.editor.height() > editor_before
    editor = window.composer.editor
    assert editor.height() >= 3 * editor.fontMetrics().lineSpacing()
    del row


def visible_children(parent: QWidget) -> list[QWidget]:
    return [
        child
        for child in parent.findChildren(QWidget, options=Qt.FindChildOption.FindDirectChildrenOnly)
        if child.isVisible() and not child.isWindow() and child.width() > 0 and child.height() > 0
    ]


def overlaps(window: QWidget) -> list[tuple[str, str]]:
    """Pairs of visible sibling widgets that overlap, anywhere in the window."""
    found = [
        pair
        for parent in [window, *window.findChildren(QWidget)]
        if parent.isVisible()
        for pair in overlapping(visible_children(parent))
    ]
    return [pair for pair in found if "qt_" not in "".join(pair)]


def overlapping(children: list[QWidget]) -> list[tuple[str, str]]:
    def name(widget: QWidget) -> str:
        return widget.objectName() or type(widget).__name__

    return [
        (name(first), name(second))
        for i, first in enumerate(children)
        for second in children[i + 1 :]
        if first.geometry().intersects(second.geometry())
    ]


@pytest.mark.parametrize("size", [QSize(800, 600), QSize(640, 480)], ids=["800x600", "640x480"])
def test_a_small_window_collapses_the_panels_into_toggles_and_nothing_overlaps(
    qtbot, look, size: QSize
) -> None:
    apply(look, "light")
    window = full_window(qtbot)
    assert window.sessions.isVisible()
    assert window.reminders_dock.isVisible()
    window.resize(size)
    qtbot.waitUntil(lambda: window.size() == size)
    QApplication.processEvents()
    assert not window.sessions.isVisible()
    assert not window.reminders_dock.isVisible()
    assert window.toggles.isVisible()
    assert window.transcript.width() >= size.width() - 40  # the chat gets the room
    assert window.composer.editor.width() >= size.width() - 160
    assert overlaps(window) == []
    error = window.transcript_model.rowCount() - 1
    layout = window.transcript.parts.delegate.layout_at(error)
    assert layout is not None
    assert layout.caption is not None
    caption = QRect(
        layout.caption.x,
        layout.caption.y,
        int(layout.caption.doc.idealWidth()),
        layout.caption.height,
    )
    rects = [caption, *(b.rect for b in layout.buttons)]
    message = layout.pieces[0]
    rects.append(QRect(message.x, message.y, int(message.doc.idealWidth()), message.height))
    assert not any(a.intersects(b) for i, a in enumerate(rects) for b in rects[i + 1 :])
    window.window_actions.action("toggle_reminders").trigger()  # Ctrl+R still shows it
    assert window.reminders_dock.isVisible()
    window.window_actions.action("toggle_reminders").trigger()
    window.window_actions.action("focus_sessions").trigger()  # Ctrl+K reveals the sidebar
    QApplication.processEvents()
    assert window.sessions.isVisible()
    assert window.sessions.list.hasFocus()
    assert overlaps(window) == []
    window.resize(1300, 800)
    qtbot.waitUntil(lambda: window.width() == 1300)
    assert window.sessions.isVisible()
    assert window.reminders_dock.isVisible()
    assert not window.toggles.isVisible()


def test_a_full_width_window_keeps_messages_to_a_reading_width(qtbot, look) -> None:
    apply(look, "light")
    window = full_window(qtbot)
    window.resize(2400, 900)
    qtbot.waitUntil(lambda: window.width() == 2400)
    QApplication.processEvents()
    layout = window.transcript.parts.delegate.layout_at(1)
    assert layout is not None
    widest = max(piece.x + int(piece.doc.size().width()) for piece in layout.pieces)
    assert widest < 1000
    assert window.transcript.parts.hits.row_origin(1).x() > 400  # centred in the transcript


def test_the_tab_order_follows_the_screen_left_to_right_top_to_bottom(qtbot, look) -> None:
    window = full_window(qtbot)
    window.sessions.filter.setFocus()
    seen = [window.sessions.filter]
    for _ in range(12):
        widget = seen[-1].nextInFocusChain()
        while not (
            widget.isVisible()
            and widget.isEnabled()
            and widget.focusPolicy() & Qt.FocusPolicy.TabFocus
        ):
            widget = widget.nextInFocusChain()
        if widget is seen[0]:
            break
        seen.append(widget)
    names = [w.objectName() for w in seen]
    expected = [
        "session-filter",
        "session-list-view",
        "banner-fork",
        "transcript",
        "message-action" if window.message_bar.action_button.isVisible() else "message-close",
    ]
    assert names[: len(expected)] == expected
    assert names.index("composer-edit") > names.index("transcript")
    assert names.index("reminders-list") > names.index("composer-edit")


def test_a_saved_geometry_larger_than_the_screen_is_fitted_into_it(qtbot) -> None:
    screen = QRect(0, 0, 700, 450)  # a 1400 x 900 screen at QT_SCALE_FACTOR=2
    assert fit_rect(QRect(100, 50, 1100, 720), screen) == QRect(0, 0, 700, 450)
    assert fit_rect(QRect(-300, 600, 400, 300), screen) == QRect(0, 150, 400, 300)
    assert fit_rect(QRect(10, 10, 300, 200), screen) == QRect(10, 10, 300, 200)
    window = MainWindow(lambda: NOW, QIcon())
    qtbot.addWidget(window)
    window.resize(5000, 4000)
    saved = window.saved_geometry()
    window.placement.restore(saved)  # as app.main shows it
    available = window.screen().availableGeometry()
    assert window.height() <= available.height() - 36  # room left for a title bar not yet known
    window.show()
    window.placement.fit()
    available = window.screen().availableGeometry()
    assert available.contains(window.frameGeometry())


def strongest_contrast(image: QImage, background: QColor, area: QRect | None = None) -> float:
    """The contrast of the pixel that stands out most from ``background`` (drawn text or lines
    reach their own colour in their darkest or lightest pixels)."""
    rect = area or image.rect()
    return max(
        contrast(QColor(image.pixel(x, y)), background)
        for x in range(rect.left(), rect.right() + 1)
        for y in range(rect.top(), rect.bottom() + 1)
    )


def test_what_is_drawn_for_placeholders_and_radio_buttons_keeps_its_contrast(qtbot, look) -> None:
    window = full_window(qtbot)
    window.show()
    radio = QRadioButton("System")
    qtbot.addWidget(radio)
    radio.show()
    for theme in ("light", "dark"):
        apply(look, theme)
        editor = window.composer.editor
        editor.clear()  # the placeholder shows
        shown = editor.viewport().grab().toImage()
        base = QColor(shown.pixel(1, 1))
        assert strongest_contrast(shown, base) >= AA, theme  # not the text colour at half alpha
        ring = radio.grab().toImage()
        background = QColor(ring.pixel(ring.width() - 1, 0))
        indicator = QRect(0, 0, min(18, ring.width()), ring.height())
        assert strongest_contrast(ring, background, indicator) >= 3, theme  # non-text: 3:1


def test_the_message_box_tools_show_a_focus_ring(qtbot, look) -> None:
    window = full_window(qtbot)
    window.show()
    apply(look, "light")
    tools = window.composer.tools
    highlight = QColor(tools.palette().color(Role.Highlight)).rgb()
    for button in (tools.attach_button, tools.picker, tools.instructions_button):
        window.composer.editor.setFocus()
        QApplication.processEvents()
        assert highlight not in colours(button.grab().toImage())
        button.setFocus(Qt.FocusReason.TabFocusReason)
        QApplication.processEvents()
        assert highlight in colours(button.grab().toImage()), button.objectName()


def colours(image: QImage) -> set[int]:
    return {image.pixel(x, y) for x in range(image.width()) for y in range(image.height())}


def test_the_application_is_named_chime_and_draws_in_fusion(qapp) -> None:
    saved = (qapp.applicationName(), qapp.applicationDisplayName(), qapp.organizationName())
    desktop, sheet = qapp.desktopFileName(), qapp.styleSheet()
    qapp.setStyleSheet("")  # a style sheet wraps the style in one without a name
    style = qapp.style().name()
    try:
        assert configured(qapp) is qapp
        assert (qapp.applicationName(), qapp.applicationDisplayName()) == ("Chime", "Chime")
        assert (qapp.organizationName(), qapp.desktopFileName()) == ("Chime", "chime")
        assert qapp.style().name() == "fusion"
    finally:
        qapp.setApplicationName(saved[0])
        qapp.setApplicationDisplayName(saved[1])
        qapp.setOrganizationName(saved[2])
        qapp.setDesktopFileName(desktop)
        qapp.setStyle(style)
        qapp.setStyleSheet(sheet)
