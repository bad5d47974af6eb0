"""Reading an LED frame back: the text drawn in the built-in fonts, and colours in a region."""

from __future__ import annotations

import numpy as np

from firmware.scoreboard.font import Font
from firmware.scoreboard.led import Colour, Frame


def read_text(frame: Frame, at: tuple[int, int], font: Font, chars: int, *, scale: int = 1) -> str:
    """The `chars` glyphs at `at` (lit pixels against the font; '~' for no glyph)."""
    x, y = at
    lit = frame.any(axis=2)
    out = []
    for i in range(chars):
        left = x + i * font.advance * scale
        cell = lit[y : y + font.height * scale : scale, left : left + font.width * scale : scale]
        match = [
            c
            for c, glyph in font.glyphs.items()
            if glyph.shape == cell.shape and np.array_equal(glyph, cell)
        ]
        out.append(match[0] if match else "~")
    return "".join(out)


def read_right(
    frame: Frame, end: tuple[int, int], font: Font, chars: int, *, scale: int = 1
) -> str:
    """Text of `chars` glyphs ending at `end` (x exclusive, y the top), as scores are drawn."""
    width = (chars * font.advance - 1) * scale
    return read_text(frame, (end[0] - width, end[1]), font, chars, scale=scale)


def colours(frame: Frame, box: tuple[int, int, int, int]) -> set[Colour]:
    """The colours lit in the box (x, y, width, height)."""
    x, y, w, h = box
    pixels = frame[y : y + h, x : x + w].reshape(-1, 3)
    return {(int(r), int(g), int(b)) for r, g, b in pixels if r or g or b}
