"""Math, quotes and tables in the real window (issue 19): TeX is drawn as images (inline on the
line, display centred) and copied as its source; money is not math; what cannot be drawn shows as
its source in code style, backslashes kept; a quote has its bars; a copied table is tab-separated
with the Markdown beside it; the renderer is not imported at start."""

from __future__ import annotations

import functools
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QFont, QGuiApplication, QTextTable

from core.llm.messages import Finish, ModelInfo
from tests.app.test_verbs import rows
from tests.app.window import Opener, RealApp, running
from tests.fakes import FakeClock
from ui.math_docs import OBJECT
from ui.quotes import quote_bars
from ui.row_layout import HAS_MATH, RowLayout

ROOT = Path(__file__).resolve().parents[2]
MATH = "The circle: $x^2 + y^2 = r^2$, and\n\n$$\\int_0^1 x^2\\,dx = \\frac{1}{3}$$\n\nso."


@pytest.fixture
def open_app(qtbot, qapp, loop, tmp_path: Path, clock: FakeClock) -> Opener:
    return functools.partial(running, qtbot, qapp, loop, tmp_path, clock)


class Writer:
    """A model that answers with ``text``."""

    def __init__(self, text: str) -> None:
        self.text = text

    @property
    def info(self) -> Any:
        return ModelInfo("test", "writer")

    async def stream(self, request: object) -> Any:
        yield Finish(self.text, (), "stop")


def answered(chime: RealApp, text: str) -> tuple[int, RowLayout]:
    chime.controller.set_provider(lambda: Writer(text))
    chime.send("show me")
    row = len(rows(chime)) - 1
    layout = chime.window.transcript.parts.delegate.layout_at(row)
    assert layout is not None
    return row, layout


def copied(chime: RealApp, row: int, layout: RowLayout) -> tuple[str, str]:
    """Select the whole answer and Ctrl+C: (plain text, ``text/markdown``)."""
    view = chime.window.transcript
    chime.inside(lambda: view.parts.selection.select_text(row, 0, layout.length))
    chime.inside(view.parts.menu.copy_action.trigger)  # what Ctrl+C and the menu's Copy do
    data = QGuiApplication.clipboard().mimeData()
    assert data is not None
    return data.text(), bytes(data.data("text/markdown").data()).decode("utf-8")


def test_math_is_drawn_as_images_and_copied_as_its_tex(open_app: Opener) -> None:
    with open_app() as chime:
        row, layout = answered(chime, MATH)
        doc = layout.pieces[0].doc
        assert doc.property(HAS_MATH)
        assert doc.toRawText().count(OBJECT) == 2
        display = doc.begin().next()
        assert display.text() == OBJECT
        assert display.blockFormat().alignment() & Qt.AlignmentFlag.AlignHCenter
        plain, markdown = copied(chime, row, layout)
        assert plain == (  # one line a paragraph, as Qt copies any text
            "The circle: $x^2 + y^2 = r^2$, and\n$$\\int_0^1 x^2\\,dx = \\frac{1}{3}$$\nso."
        )
        assert "$$\\int_0^1 x^2\\,dx = \\frac{1}{3}$$" in markdown
        assert "$x^2 + y^2 = r^2$" in markdown


def test_part_of_a_line_with_math_copies_the_tex_it_covers(open_app: Opener) -> None:
    with open_app() as chime:
        row, _layout = answered(chime, "so $a+b$ is it")
        view = chime.window.transcript
        chime.inside(lambda: view.parts.selection.select_text(row, 3, 6))  # "$a+b$ i"
        assert view.parts.selection.selected_text() == "$a+b$ i"
        assert view.parts.selection.selected_text(markdown=True) == "$a+b$ i"


def test_money_is_not_math_and_what_cannot_be_drawn_is_its_source_in_code(
    open_app: Opener,
) -> None:
    with open_app() as chime:
        _row, layout = answered(
            chime, "It costs $5 and $10. Odd: $\\foo{x}\\,y$ and \\(\\frac{1}{\\)"
        )
        doc = layout.pieces[0].doc
        assert not doc.property(HAS_MATH)
        assert doc.toPlainText() == "It costs $5 and $10. Odd: $\\foo{x}\\,y$ and \\(\\frac{1}{\\)"
        cursor = doc.find("$\\foo{x}\\,y$")
        assert not cursor.isNull()
        assert cursor.charFormat().fontFixedPitch()


def test_a_quote_has_its_bars_and_a_table_copies_as_tab_separated_rows(open_app: Opener) -> None:
    table = "| Day | Task |\n|---|---|\n| Mon | oven |\n| Tue | stretch |"
    with open_app() as chime:
        row, layout = answered(chime, f"> quoted words\n> > deeper\n\n{table}\n\nThat is all.")
        doc = layout.pieces[0].doc
        assert len(quote_bars(doc)) >= 3  # one bar, then two for the deeper
        table = next(f for f in doc.rootFrame().childFrames() if isinstance(f, QTextTable))
        corner = doc.findBlock(table.cellAt(0, 0).firstPosition())
        assert corner.text() == "Day"  # not under an empty line (Qt's reader put one there)
        assert corner.begin().fragment().charFormat().fontWeight() == QFont.Weight.Bold
        plain, markdown = copied(chime, row, layout)
        assert "Day\tTask\nMon\toven\nTue\tstretch\n\nThat is all." in plain
        assert "| Mon | oven |" in markdown or "|Mon|oven|" in markdown


def test_the_math_renderer_is_not_imported_at_start() -> None:
    script = (
        "import sys; import app.main, ui.main_window, ui.row_layout; "
        "print(sorted(m for m in ('ziamath', 'latex2mathml', 'PySide6.QtSvg') if m in sys.modules))"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert done.stdout.strip() == "[]"
