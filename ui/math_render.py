"""TeX drawn as images, without a web engine: ziamath, imported on first use. No I/O.

ziamath (pure Python, maintained; LaTeX read by latex2mathml, laid out with the STIX Two Math
font it ships, written as SVG paths) draws the math; Qt's own SVG renderer (QtSvg, part of
PySide6-Essentials) turns the SVG into an image at the screen's device pixel ratio. Nothing is
downloaded and no browser engine is loaded; the ~0.15 s import happens only when a message first
holds math, never at start (``bench/start_bench.py``).

What ziamath cannot read (a syntax error, an unknown environment) or reads as an unknown command
(latex2mathml keeps ``\\foo`` as a literal identifier, which would draw as "\\foo") is not drawn:
``render`` gives None and the caller shows the source in code style.

An image is padded so that the math's axis (half an x-height above its baseline) is its middle:
Qt centres an inline image set ``AlignMiddle`` on that axis of the line, so inline math sits on
the baseline of the text around it.
"""

from __future__ import annotations

import re
import warnings
from functools import lru_cache
from typing import TYPE_CHECKING

from PySide6.QtCore import QByteArray, QRectF, Qt
from PySide6.QtGui import QColor, QPainter

from core.frozen import frozen

if TYPE_CHECKING:  # imported where a formula is drawn
    from PySide6.QtGui import QImage

RENDERED = 512
"""Images kept (by source, size, colour and pixel ratio)."""
INLINE_SCALE = 1.1
"""Inline math is drawn this much larger than the text's pixel size: STIX Two Math's x-height is
smaller than that of the sans-serif text around it, which made formulas look a size too small."""
DISPLAY_SCALE = 1.25
"""Display math is drawn this much larger than the text's pixel size."""
_UNKNOWN = re.compile(r">\\[A-Za-z]+<")
"""A MathML text node that is a TeX command latex2mathml did not know."""
_VIEWBOX = re.compile(r'viewBox="([-\d.]+) ([-\d.]+) ([-\d.]+) ([-\d.]+)"')


@frozen
class MathImage:
    """Rendered math: ``image`` (at ``ratio`` device pixels per pixel) and its size in pixels."""

    image: QImage
    width: float
    height: float


@lru_cache(maxsize=RENDERED)
def render(
    tex: str, *, display: bool, pixel_size: float, color: str, x_height: float, ratio: float
) -> MathImage | None:
    """``tex`` drawn in ``color`` (``#rrggbb``) at a font of ``pixel_size`` px (None: it cannot
    be drawn as written)."""
    size = pixel_size * (DISPLAY_SCALE if display else INLINE_SCALE)
    svg = _svg(tex, display=display, size=size, color=QColor(color).name())
    if svg is None:
        return None
    box = _VIEWBOX.search(svg)
    if box is None:
        return None
    _left, top, width, height = (float(value) for value in box.groups())
    ascent, descent = -top, height + top
    axis = x_height / 2
    half = max(ascent - axis, descent + axis, 1.0)
    pad_top = half - (ascent - axis)
    return _draw(svg, width, height, pad_top, 2 * half, ratio)


def _svg(tex: str, *, display: bool, size: float, color: str) -> str | None:
    # WORKAROUND(ziamath 0.13, ziafont 0.11): they find their fonts with
    # importlib.resources.path, deprecated on Python 3.11 and 3.12 (a warning, fatal in tests).
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        # imported with the first math, never at start (about 0.15 s)
        from ziamath.config import config
        from ziamath.tex import tex2mml
        from ziamath.zmath import Latex

        config.svg2 = False  # plain paths: Qt's SVG renderer has no <symbol> and SVG 2 href
        try:
            mathml = tex2mml(tex, inline=not display)
            if _UNKNOWN.search(mathml):
                return None
            return str(Latex(tex, size=size, inline=not display, color=color).svg())
        except Exception:  # any failure of the renderer means "show the source"
            return None


def _draw(
    svg: str, width: float, height: float, pad_top: float, total: float, ratio: float
) -> MathImage | None:
    from PySide6.QtSvg import QSvgRenderer  # loaded with the first math

    renderer = QSvgRenderer(QByteArray(svg.encode("utf-8")))
    if not renderer.isValid():
        return None
    from PySide6.QtGui import QImage  # with the first formula drawn (its enums cost a start)

    image = QImage(
        max(1, round(width * ratio)), max(1, round(total * ratio)), QImage.Format.Format_ARGB32
    )
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    renderer.render(painter, QRectF(0, pad_top * ratio, width * ratio, height * ratio))
    painter.end()
    image.setDevicePixelRatio(ratio)
    return MathImage(image, width, total)
