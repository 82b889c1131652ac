"""A tiny SVG writer: a canvas of grouped elements and boxes (panels) that stack.

Every picture in :mod:`cutepy.viz` is a tree of :class:`Panel` objects (a grid, a
line of text, a horizontal or vertical stack) rendered onto one :class:`Canvas`.
Elements sharing a style go into one ``<g>`` with presentation attributes, so the
output needs no CSS (it stays correct inlined into a notebook page) and stays small.

>>> svg = render(VStack([Text("hello <world>", size=14), Text("second line")]))
>>> svg.startswith("<svg") and "hello &lt;world&gt;" in svg
True
>>> import xml.etree.ElementTree as ET
>>> ET.fromstring(svg).tag
'{http://www.w3.org/2000/svg}svg'
"""

from __future__ import annotations

import base64
import html
import math
import re
from collections.abc import Sequence
from xml.sax.saxutils import escape, quoteattr

FONT = "DejaVu Sans Mono, Menlo, Consolas, monospace"
#: Width of one character relative to the font size (monospace).
CHAR_W = 0.62


def num(x: float) -> str:
    """Compact number text: ``3``, ``2.5``.

    >>> num(3.0), num(2.25), num(-0.0)
    ('3', '2.2', '0')
    """
    r = round(float(x), 1)
    if r == int(r):
        return str(int(r))
    return f"{r:.1f}"


def text_width(s: str, size: float) -> float:
    """Approximate width of ``s`` in the monospace font at ``size``."""
    return len(s) * size * CHAR_W


class Canvas:
    """SVG elements collected into named groups, each group sharing attributes."""

    def __init__(self) -> None:
        self._groups: dict[tuple[tuple[str, str], ...], list[str]] = {}

    def _add(self, style: dict[str, str], element: str) -> None:
        key = tuple(sorted(style.items()))
        self._groups.setdefault(key, []).append(element)

    def rect(self, x: float, y: float, w: float, h: float, fill: str | None = None,
             stroke: str = "#a0a0a0", width: float = 0.5) -> None:
        """A rectangle; ``fill=None`` leaves it unfilled."""
        f = f' fill="{fill}"' if fill else ""
        self._add(
            {"stroke": stroke, "stroke-width": num(width), "fill": "none"},
            f'<rect x="{num(x)}" y="{num(y)}" width="{num(w)}" height="{num(h)}"{f}/>',
        )

    def text(self, x: float, y: float, s: str, size: float = 11, anchor: str = "middle",
             color: str = "#111111", weight: str = "normal") -> None:
        """Text whose vertical centre is at ``y``."""
        base = y + size * 0.35
        self._add(
            {"font-size": num(size), "text-anchor": anchor, "fill": color, "font-weight": weight},
            f'<text x="{num(x)}" y="{num(base)}">{escape(s)}</text>',
        )

    def line(self, x1: float, y1: float, x2: float, y2: float, color: str = "#000000",
             width: float = 1.0, dash: str | None = None) -> None:
        """A straight line."""
        style = {"stroke": color, "stroke-width": num(width), "stroke-linecap": "square"}
        if dash:
            style["stroke-dasharray"] = dash
        self._add(style, f'<line x1="{num(x1)}" y1="{num(y1)}" x2="{num(x2)}" y2="{num(y2)}"/>')

    def hover(self, x: float, y: float, w: float, h: float, tip: str) -> None:
        """An invisible rectangle whose ``<title>`` a browser shows on hover (drawn on top:
        add hover areas after everything else)."""
        self._add({"fill": "#ffffff", "fill-opacity": "0", "class": "cutepy-hover"},
                  f'<rect x="{num(x)}" y="{num(y)}" width="{num(w)}" height="{num(h)}">'
                  f"<title>{escape(tip)}</title></rect>")

    def to_svg(self, width: float, height: float, title: str | None = None) -> str:
        """The whole document."""
        w, h = num(width), num(height)
        out = [
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
            f'viewBox="0 0 {w} {h}" font-family={quoteattr(FONT)}>'
        ]
        if title:
            out.append(f"<title>{escape(title)}</title>")
        out.append(f'<rect width="{w}" height="{h}" fill="#ffffff"/>')
        for key, elements in self._groups.items():
            attrs = " ".join(f"{k}={quoteattr(v)}" for k, v in key)
            out.append(f"<g {attrs}>")
            out.extend(elements)
            out.append("</g>")
        out.append("</svg>")
        return "\n".join(out)


class Panel:
    """A box of known size that draws itself at a given top-left corner."""

    width: float = 0.0
    height: float = 0.0

    def draw(self, canvas: Canvas, x: float, y: float) -> None:  # pragma: no cover - abstract
        raise NotImplementedError


class Text(Panel):
    """One line of text."""

    def __init__(self, s: str, size: float = 12, color: str = "#111111", weight: str = "normal"):
        self.s, self.size, self.color, self.weight = s, size, color, weight
        self.width = text_width(s, size) + 4
        self.height = size * 1.5

    def draw(self, canvas: Canvas, x: float, y: float) -> None:
        canvas.text(x + 2, y + self.height / 2, self.s, self.size, "start", self.color, self.weight)


class Stack(Panel):
    """Panels side by side (``horizontal``) or one under another, ``gap`` apart."""

    def __init__(self, items: Sequence[Panel], horizontal: bool, gap: float = 12):
        self.items, self.horizontal, self.gap = list(items), horizontal, gap
        sizes = [(p.width, p.height) for p in self.items]
        along = [s[0] if horizontal else s[1] for s in sizes]
        across = [s[1] if horizontal else s[0] for s in sizes]
        total = sum(along) + gap * max(0, len(sizes) - 1)
        thick = max(across, default=0.0)
        self.width, self.height = (total, thick) if horizontal else (thick, total)

    def draw(self, canvas: Canvas, x: float, y: float) -> None:
        for p in self.items:
            p.draw(canvas, x, y)
            if self.horizontal:
                x += p.width + self.gap
            else:
                y += p.height + self.gap


def HStack(items: Sequence[Panel], gap: float = 24) -> Stack:
    """Panels left to right."""
    return Stack(items, True, gap)


def VStack(items: Sequence[Panel], gap: float = 6) -> Stack:
    """Panels top to bottom."""
    return Stack(items, False, gap)


def render(panel: Panel, title: str | None = None, margin: float = 10) -> str:
    """An SVG document holding ``panel`` with a white margin around it."""
    canvas = Canvas()
    panel.draw(canvas, margin, margin)
    return canvas.to_svg(panel.width + 2 * margin, panel.height + 2 * margin, title)


_SIZE = re.compile(r'<svg[^>]*?\swidth="([\d.]+)"')
_FONT_SIZE = re.compile(r'font-size="([\d.]+)"')

#: The smallest text, in CSS pixels, a picture's ``<img>`` may shrink its text to.
MIN_TEXT_PX = 9.0


def img_html(svg: str, alt: str = "") -> str:
    """An ``<img>`` holding ``svg`` as a base64 data URI, at most its natural width, shrunk to
    its container only while its smallest text stays legible (at least :data:`MIN_TEXT_PX`);
    a wider picture overflows (notebooks and the docs scroll it sideways).

    >>> tag = img_html('<svg xmlns="http://www.w3.org/2000/svg" width="300" height="20">'
    ...                '<g font-size="12"/></svg>', "a<b")
    >>> tag.startswith('<img src="data:image/svg+xml;base64,')
    True
    >>> tag.split(" alt=")[1]
    '"a&lt;b" width="300" style="width:clamp(225px,100%,300px);max-width:none;height:auto"/>'
    """
    data = base64.b64encode(svg.encode("utf-8")).decode("ascii")
    m = _SIZE.search(svg)
    width, style = "", "max-width:100%;height:auto"
    if m:
        natural = float(m.group(1))
        width = f' width="{round(natural)}"'
        fonts = [float(f) for f in _FONT_SIZE.findall(svg)]
        smallest = min(fonts) if fonts else MIN_TEXT_PX
        floor = natural * min(1.0, MIN_TEXT_PX / smallest) if smallest > 0 else natural
        style = f"width:clamp({math.ceil(floor)}px,100%,{round(natural)}px);max-width:none;height:auto"
    return f'<img src="data:image/svg+xml;base64,{data}" alt="{html.escape(alt)}"{width} style="{style}"/>'
