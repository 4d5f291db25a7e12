"""The per-conversation choice of MCP servers in the session settings (its ``session/tools``)."""

from __future__ import annotations

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QDialogButtonBox, QWidget

from ui.session_settings import SessionSettings, SessionSettingsDialog, ask_session_settings


def test_configured_servers_are_checkboxes_checked_by_the_conversation_s_choice(qtbot) -> None:
    current = SessionSettings("Be brief.", None, servers=("time",))
    dialog = SessionSettingsDialog(None, current, available=("everything", "time"))
    qtbot.addWidget(dialog)
    assert {n: c.isChecked() for n, c in dialog.server_checks.items()} == {
        "everything": False,
        "time": True,
    }
    assert dialog.value() == current
    dialog.server_checks["everything"].setChecked(True)
    dialog.server_checks["time"].setChecked(False)
    assert dialog.value() == SessionSettings("Be brief.", None, servers=("everything",))


def test_a_chosen_server_no_longer_configured_stays_chosen(qtbot) -> None:
    current = SessionSettings("", None, servers=("gone", "time"))
    dialog = SessionSettingsDialog(None, current, available=("time",))
    qtbot.addWidget(dialog)
    assert dialog.value() == current
    dialog.server_checks["time"].setChecked(False)
    assert dialog.value().servers == ("gone",)


def test_without_servers_the_dialog_says_where_to_add_them(qtbot) -> None:
    dialog = SessionSettingsDialog(None, SessionSettings())
    qtbot.addWidget(dialog)
    assert dialog.server_checks == {}
    assert "Settings → Tools (MCP)" in dialog.servers_note.text()
    assert not dialog.servers_note.isHidden()
    configured = SessionSettingsDialog(None, SessionSettings(), available=("time",))
    qtbot.addWidget(configured)
    assert configured.servers_note.isHidden()


def test_checking_a_server_is_a_change_and_order_is_not(qtbot) -> None:
    parent = QWidget()
    qtbot.addWidget(parent)

    def press(name: str | None) -> None:
        def click() -> None:
            dialog = next(
                w
                for w in QApplication.topLevelWidgets()
                if isinstance(w, SessionSettingsDialog) and w.isVisible()
            )
            if name is not None:
                dialog.server_checks[name].setChecked(True)
            dialog.buttons.button(QDialogButtonBox.StandardButton.Ok).click()

        QTimer.singleShot(0, click)

    unordered = SessionSettings("", None, servers=("time", "a"))
    press(None)
    assert ask_session_settings(parent, unordered, available=("a", "time")) is None
    press("b")
    edited = ask_session_settings(parent, unordered, available=("a", "b", "time"))
    assert edited == SessionSettings("", None, servers=("a", "b", "time"))
