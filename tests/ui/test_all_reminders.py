"""All reminders in one place: grouped by day in due order, each with its conversation, repeat and
state (live, waiting until opened, overdue), opening its conversation when chosen."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

from hypothesis import given
from hypothesis import strategies as st

from ui.all_reminders import STATE_ROLE, AllRemindersDialog, ReminderLine, group_of
from ui.screen import ReminderView

NOW = datetime(2026, 8, 5, 12, 0, tzinfo=UTC)  # 14:00 in Berlin
ZONE = "Europe/Berlin"


def line(
    sid: str, prompt: str, minutes: float, *, live: bool, every: int | None = None
) -> ReminderLine:
    kind = "every" if every else "after"
    view = ReminderView(f"schedule-{prompt}", kind, prompt, NOW + timedelta(minutes=minutes), every)
    return ReminderLine(sid, f"Chat {sid}", view, live)


def test_lines_are_grouped_by_day_in_due_order_with_their_state(qtbot) -> None:
    dialog = AllRemindersDialog()
    qtbot.addWidget(dialog)
    dialog.set_lines(
        [
            line("b", "tickets", 60 * 40, live=False),
            line("a", "stretch", 30, live=True),
            line("c", "tea", -5, live=False),
            line("a", "water", 60 * 11, live=True, every=1800),  # 01:00 tomorrow in Berlin
        ],
        NOW,
        ZONE,
    )
    model = dialog.model
    assert model.headings() == ["Overdue", "Today", "Tomorrow", "Later"]
    texts = [model.index(r).data() for r in range(model.rowCount())]
    assert texts == [
        "Overdue",
        "today 13:55 · tea\nChat c · once · overdue · opens to deliver",
        "Today",
        "today 14:30 · stretch\nChat a · once · live",
        "Tomorrow",
        "tomorrow 01:00 · water\nChat a · every 30 min · live",
        "Later",
        "Fri 7 Aug 06:00 · tickets\nChat b · once · waiting until its conversation is opened",
    ]
    assert dialog.empty.isHidden()


def test_choosing_a_line_opens_its_conversation_and_headings_open_nothing(qtbot) -> None:
    dialog = AllRemindersDialog()
    qtbot.addWidget(dialog)
    dialog.set_lines([line("a", "stretch", 30, live=True)], NOW, ZONE)
    opened: list[str] = []
    dialog.open_requested.connect(opened.append)
    dialog.view.activated.emit(dialog.model.index(0))  # the heading
    dialog.view.activated.emit(dialog.model.index(1))
    assert opened == ["a"]


def test_with_no_reminder_anywhere_it_says_so(qtbot) -> None:
    dialog = AllRemindersDialog()
    qtbot.addWidget(dialog)
    dialog.set_lines([], NOW, ZONE)
    assert not dialog.empty.isHidden()
    assert dialog.view.isHidden()


def test_a_thousand_conversations_fill_the_list_at_once(qtbot) -> None:
    dialog = AllRemindersDialog()
    qtbot.addWidget(dialog)
    lines = [line(str(n), f"r{n}", n, live=n % 2 == 0) for n in range(3000)]
    dialog.set_lines(lines, NOW, ZONE)
    assert len(dialog.model.lines()) == 3000


@given(st.integers(min_value=-(10**6), max_value=10**7))
def test_every_due_time_falls_in_the_group_its_local_calendar_day_says(minutes: int) -> None:
    due = NOW + timedelta(minutes=minutes)
    zone = ZoneInfo(ZONE)
    days = (due.astimezone(zone).date() - NOW.astimezone(zone).date()).days
    expected = "overdue" if due <= NOW else {0: "today", 1: "tomorrow"}.get(days, "later")
    assert group_of(due, NOW, ZONE) == expected


def test_rows_are_painted_headings_apart_and_the_first_reminder_is_current(qtbot) -> None:
    dialog = AllRemindersDialog()
    qtbot.addWidget(dialog)
    dialog.set_lines(
        [line("c", "tea", -5, live=False), line("a", "stretch", 30, live=True)], NOW, ZONE
    )
    dialog.show()
    qtbot.waitExposed(dialog)
    heading = dialog.view.sizeHintForRow(0)
    reminder = dialog.view.sizeHintForRow(1)
    assert reminder > heading
    assert dialog.view.currentIndex().row() == 1
    image = dialog.view.viewport().grab().toImage()
    assert not image.isNull()
    assert dialog.model.index(1).data(STATE_ROLE) == "overdue"
