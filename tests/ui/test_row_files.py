"""The files under a user message (``ui.row_files``): lines that break between files only, each
name after its paperclip, the mark of a picture that cannot be shown, and the tooltips."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QFont, QImage

from core.events import Attachment
from ui.math_docs import OBJECT
from ui.row_files import GAP, attachment_url, files_doc, link_tip
from ui.row_layout import LINE_BREAK, Piece, RowLayout

PICTURE = QImage(300, 200, QImage.Format.Format_RGB32)
PICTURE.fill(Qt.GlobalColor.darkGreen)


def lines_of(files: list[Attachment], width: int, font: QFont | None = None) -> list[str]:
    font = QFont() if font is None else font
    doc, _copied = files_doc(files, lambda _f: None, font, QColor("gray"), 1.0, width)
    doc.setTextWidth(width)
    doc.size()  # laid out
    lines, block = [], doc.begin()
    while block.isValid():
        layout = block.layout()
        for number in range(layout.lineCount()):
            line = layout.lineAt(number)
            lines.append(block.text()[line.textStart() : line.textStart() + line.textLength()])
        block = block.next()
    return lines


@settings(max_examples=25, deadline=None)
@given(
    st.lists(st.text("abcdefghij .-", min_size=1, max_size=40), min_size=1, max_size=6),
    st.integers(160, 700),
    st.sampled_from([7, 9, 16, 24]),  # a large font makes a long name wider than its line
)
def test_a_line_breaks_between_files_never_between_a_paperclip_and_its_name(
    qapp, names: list[str], width: int, points: int
) -> None:
    files = [Attachment(n, "text/plain", f"{i:064d}", 10 * i) for i, n in enumerate(names)]
    font = QFont()
    font.setPointSize(points)
    lines = lines_of(files, width, font)
    for number, line in enumerate(lines):
        going_on = number > 0 and lines[number - 1].endswith(LINE_BREAK)
        assert line.startswith(OBJECT) or going_on  # a paperclip, or a too wide name going on
        assert not line.rstrip().endswith(OBJECT)  # never a paperclip alone at a line's end
        assert OBJECT not in line[1:].split(LINE_BREAK)[-1] or GAP in line  # files: whole


def test_a_picture_that_cannot_be_shown_is_named_with_a_mark_and_links_open_by_name(qapp) -> None:
    photo = Attachment("photo.png", "image/png", "a" * 64, 2048)
    broken = Attachment("scan.png", "image/png", "b" * 64, 300)
    pictures = {photo.sha256: PICTURE, broken.sha256: QImage()}
    doc, copied = files_doc(
        [photo, broken], lambda f: pictures.get(f.sha256), QFont(), QColor("gray"), 1.0, 1000
    )  # a picture line, then the names
    assert copied == "photo.png · 2 KB   scan.png · 300 B (missing or damaged)"
    assert doc.blockCount() == 2
    assert link_tip(attachment_url(photo), [photo, broken]) == "Open photo.png"
    assert link_tip("https://example.org", [photo]) == "https://example.org"
    assert link_tip(attachment_url(photo), []) == attachment_url(photo)  # not this row's


def test_a_name_broken_over_lines_is_copied_whole(qapp) -> None:
    font = QFont()
    font.setPointSize(24)
    report = Attachment("a very long file name of a report.pdf", "application/pdf", "c" * 64, 2048)
    doc, copied = files_doc([report], lambda _f: None, font, QColor("gray"), 1.0, 200)
    assert LINE_BREAK in doc.toRawText()  # broken here, inside its name
    layout = RowLayout(height=0, pieces=[Piece(doc, 0, 0, 0, doc.characterCount(), muted=True)])
    assert layout.text(0, layout.length) == copied == "a very long file name of a report.pdf · 2 KB"
