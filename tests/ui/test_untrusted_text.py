"""Text Chime did not write is shown as written (issue 24, points 2 and 7): raw HTML in an answer
is text, nothing an answer holds hides the rest of it, and labels, tooltips and titles never take
a quoted string for HTML."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PySide6.QtCore import Qt
from PySide6.QtGui import QFont, QPalette, QTextDocument
from PySide6.QtGui import Qt as GuiQt

from core.events import Attachment
from tests.ui.events import T0
from ui.message_bar import MessageBar
from ui.row_layouts import RowLayouts
from ui.session_list import SessionListItem, SessionListModel
from ui.theme import surfaces
from ui.transcript_rows import TranscriptRow
from ui.untrusted import literal, set_markdown

# WORKAROUND(offscreen QPA): showing a widget logs "This plugin does not support
# propagateSizeHints()"; it is the test platform's limitation, not a fault of the app.
pytestmark = pytest.mark.qt_log_ignore("propagateSizeHints")

TAGS = (
    "title", "style", "textarea", "head", "script", "html", "body", "iframe", "xmp", "plaintext",
    "noscript", "pre", "div", "p", "b", "i", "a", "img", "br", "table", "td", "span", "select",
    "option", "template", "svg", "math", "object", "h1", "ul", "li", "font", "center",
)  # fmt: skip


def rendered(text: str, kind: str = "assistant") -> str:
    """The plain text of what the transcript lays out for a row holding ``text``."""
    layouts = RowLayouts()
    layouts.configure(QFont(), surfaces(QPalette()), dark=False)
    row = TranscriptRow(kind, text)  # type: ignore[arg-type]  # the kinds the test names
    layout = layouts.layout(row, 600, expanded=False, caption="", time="")
    return "\n".join(piece.doc.toPlainText() for piece in layout.pieces)


def squeezed(text: str) -> str:
    return "".join(text.split())


@pytest.mark.parametrize(
    "answer",
    [
        "Use the <title> tag in your page. It matters for search engines.",
        "Put CSS in a <style> element:\n\n<style>\nbody { color: red }\n</style>\n\nThat is all.",
        "A <textarea> holds many lines; close it with </textarea> or the rest is eaten.",
        "<head>\nThe head holds metadata.\n\nAfter it comes <body>.",
        "<!-- a comment --> is hidden in HTML but not here; <script>alert(1)</script> too.",
        "<img src=x onerror=alert(1)> an image that does not load, and <br> a break.",
    ],
)
def test_an_answer_about_html_shows_every_word_it_wrote(qapp, answer: str) -> None:
    shown = rendered(answer)
    assert squeezed(shown) == squeezed(answer)


WORD = st.builds(
    "{}{}{}".format,
    st.sampled_from(["", "(", "'", '"']),
    st.text(alphabet="abcxyzÄé日本0123456789", min_size=1, max_size=8),
    st.sampled_from(["", ".", ",", ";", "!", "?", ")", "'", '"', "/"]),
).filter(lambda w: not w.rstrip(".)").isdigit())  # "1." and "1)" start a list: Markdown
ATTRIBUTE = st.sampled_from(["", ' class="x"', " href='y'", " src=z", ' a="<b>"', " hidden"])


@st.composite
def tag(draw: st.DrawFn) -> str:
    name = draw(st.sampled_from(TAGS))
    form = draw(st.sampled_from(["open", "close", "self", "comment", "doctype", "cdata", "pi"]))
    match form:
        case "open":
            return f"<{name}{draw(ATTRIBUTE)}>"
        case "close":
            return f"</{name}>"
        case "self":
            return f"<{name}{draw(ATTRIBUTE)}/>"
        case "comment":
            return f"<!--{draw(WORD)}-->"
        case "doctype":
            return "<!DOCTYPE html>"
        case "cdata":
            return f"<![CDATA[{draw(WORD)}]]>"
        case _:
            return f"<?php {draw(WORD)} ?>"


LIST_ITEM = re.compile(r"(?m)^\s*\d+[.)]")
SEPARATOR = st.sampled_from([" ", " ", "\n", "\n\n", ""])
ANSWER = (
    st.lists(st.tuples(st.one_of(WORD, tag()), SEPARATOR), max_size=30)
    .map(lambda parts: "".join(token + gap for token, gap in parts))
    .filter(lambda text: not LIST_ITEM.search(text))  # words run together may make "19."
)


@settings(max_examples=150, deadline=None)
@given(ANSWER)
def test_every_character_of_an_answer_mixed_with_html_reaches_the_screen(qapp, answer: str) -> None:
    """Words and tags in any order: every character that is not white space is shown, in the
    order written (Markdown's own marks are left out of the alphabet: they are markup)."""
    assert squeezed(rendered(answer)) == squeezed(answer)


@settings(max_examples=60, deadline=None)
@given(ANSWER)
def test_a_user_message_with_html_is_shown_whole_too(qapp, message: str) -> None:
    assert squeezed(rendered(message, "user")) == squeezed(message)


def test_markdown_still_renders_as_markdown(qapp) -> None:
    doc = QTextDocument()
    set_markdown(
        doc, "# Title\n\n**bold** and `code` and a | table |\n\n| a | b |\n|---|---|\n| 1 | 2 |"
    )
    assert "**" not in doc.toPlainText()
    assert "#" not in doc.toPlainText()
    assert doc.toPlainText().startswith("Title")


def test_the_message_bar_shows_a_session_argument_as_written(qtbot) -> None:
    bar = MessageBar()
    qtbot.addWidget(bar)
    text = "Could not open the session: <title>x</title><b>no-such</b> session"
    bar.show_message(text)
    assert bar.label.textFormat() == Qt.TextFormat.PlainText
    assert bar.text() == text


def test_a_session_title_tooltip_is_not_taken_for_html(qapp) -> None:
    model = SessionListModel(lambda: T0)
    title = "About <title> & <b>bold</b>"
    model.set_sessions([SessionListItem("s1", title, T0)])
    tip = model.data(model.index(model.row_of("s1")), Qt.ItemDataRole.ToolTipRole)
    doc = QTextDocument()
    doc.setHtml(tip)
    assert doc.toPlainText() == title
    model.set_sessions([SessionListItem("s2", "plan\u202etxt.exe", T0)])
    tip = model.data(model.index(model.row_of("s2")), Qt.ItemDataRole.ToolTipRole)
    assert tip == "plan[U+202E]txt.exe"


PIECES = ["<", ">", "&", "a", "b", "/", " ", "\n", "lt;", "!", "<b>", "<title>", "&amp;"]


@given(st.lists(st.sampled_from(PIECES), max_size=20).map("".join))
def test_a_literal_text_always_reads_back_as_written(text: str) -> None:
    """What a tooltip shows: the text itself when Qt takes it for plain text, else its HTML."""
    shown = literal(text)
    if GuiQt.mightBeRichText(shown):
        doc = QTextDocument()
        doc.setHtml(shown)
        assert squeezed(doc.toPlainText()) == squeezed(text)
    else:
        assert shown == text


def test_an_attachment_name_in_the_transcript_shows_its_direction_controls(qapp) -> None:
    file = Attachment("invoice\u202efdp.exe", "text/plain", "0" * 64, 5)
    layouts = RowLayouts()
    layouts.configure(QFont(), surfaces(QPalette()), dark=False)
    layout = layouts.layout(
        TranscriptRow("user", "see", files=(file,)), 600, expanded=False, caption="", time=""
    )
    shown = "\n".join(piece.doc.toPlainText() for piece in layout.pieces)
    assert "invoice[U+202E]fdp.exe" in shown
    assert "\u202e" not in shown
