"""Colour palettes for the pictures: CSS hex strings, all light enough for dark text.

>>> offset_color(0.0), offset_color(1.0)
('#cfe3ff', '#ffd1dc')
>>> THREAD_COLORS[0], len(BANK_COLORS)
('#afafff', 32)
>>> bank_color(33) == bank_color(1) != bank_color(2)
True
"""

from __future__ import annotations

import colorsys

#: CuTe's ``TikzColor_TV`` palette (by thread id modulo 8), as CSS colours.
THREAD_COLORS: tuple[str, ...] = (
    "#afafff", "#afffaf", "#ffffaf", "#ffafaf",
    "#d2d2ff", "#d2ffd2", "#ffffd2", "#ffd2d2",
)

#: CuTe's ``TikzColor_BWx8`` grey levels (``black!00``, ``black!40``, ...), by offset modulo 8.
BW_COLORS: tuple[str, ...] = (
    "#ffffff", "#999999", "#cccccc", "#666666",
    "#e6e6e6", "#808080", "#b3b3b3", "#4d4d4d",
)

#: Colour of padding and of cells that hold nothing.
PAD_COLOR = "#e4e4e4"
#: Colour of a cell that no thread writes.
EMPTY_COLOR = "#ffffff"
#: Colour of a cell that the threads a picture was asked to show do not hold.
OTHER_COLOR = "#ececec"

# light anchors of the offset ramp: blue, green, yellow, orange, pink
_RAMP = ((0xCF, 0xE3, 0xFF), (0xC8, 0xF0, 0xC8), (0xFF, 0xF5, 0xB8), (0xFF, 0xDB, 0xB0), (0xFF, 0xD1, 0xDC))


def _hex(rgb: tuple[float, float, float]) -> str:
    return "#" + "".join(f"{max(0, min(255, round(c))):02x}" for c in rgb)


def offset_color(t: float) -> str:
    """A light colour on a blue-green-yellow-orange-pink ramp, for ``t`` in ``[0, 1]``."""
    t = 0.0 if t != t else min(1.0, max(0.0, float(t)))  # NaN -> 0
    pos = t * (len(_RAMP) - 1)
    i = min(int(pos), len(_RAMP) - 2)
    f = pos - i
    a, b = _RAMP[i], _RAMP[i + 1]
    return _hex(tuple(x + (y - x) * f for x, y in zip(a, b)))


def _hls(h: float, l: float, s: float) -> str:
    r, g, b = colorsys.hls_to_rgb(h % 1.0, l, s)
    return _hex((r * 255, g * 255, b * 255))


# 32 bank colours: hues spread so that neighbouring banks differ a lot.
BANK_COLORS: tuple[str, ...] = tuple(
    _hls((i * 13 % 32) / 32, 0.80 if i % 2 == 0 else 0.70, 0.75) for i in range(32)
)

# categorical colours for tiles and copies
TILE_COLORS: tuple[str, ...] = (
    "#a6cee3", "#b2df8a", "#fb9a99", "#fdbf6f", "#cab2d6", "#ffff99",
    "#8dd3c7", "#bebada", "#fb8072", "#80b1d3", "#fdb462", "#b3de69",
    "#fccde5", "#d9d9d9", "#bc80bd", "#ccebc5",
)


def bank_color(bank: int) -> str:
    """Colour of a shared-memory bank (any bank count: the palette repeats every 32)."""
    return BANK_COLORS[int(bank) % len(BANK_COLORS)]


def tile_color(tile: int) -> str:
    """Colour of a tile (or of a copy in a product), cycling through 16 colours."""
    return TILE_COLORS[int(tile) % len(TILE_COLORS)]


def thread_color(tid: int) -> str:
    """CuTe's colour for thread ``tid`` (eight colours, by ``tid % 8``)."""
    return THREAD_COLORS[int(tid) % len(THREAD_COLORS)]
