"""MkDocs hooks: pictures drawn at build time, examples shown without doctest prompts.

- A fenced block of language ``picture`` holds Python (``cutepy`` is imported as ``cp``
  and ``cutepy``); its last line is an expression that cutepy draws (a layout, a
  swizzle, a tiler, an XLA shape, or a ``Picture``). The hook replaces the block by the
  picture, an ``<img>`` holding the SVG as a data URI, with the code as its caption. The
  pictures are drawn by the cutepy being documented, every build: never stale.
- A fenced ``python`` block written as a doctest (``>>>`` lines, run by the suite) is
  shown as plain code: prompts dropped, each output as ``# `` comments under its line,
  doctest directives and ``<BLANKLINE>`` removed.

Used from ``mkdocs.yml`` (``hooks: [docs/hooks.py]``); ``tests/test_docs.py`` tests it.
"""

from __future__ import annotations

import html
import re
from typing import Any

import cutepy  # the package being documented
from cutepy.viz import Picture
from cutepy.viz.display import mimebundle

_FENCE = re.compile(r"^```(picture|python|pycon)[ \t]*\n(.*?)^```[ \t]*$", re.S | re.M)
_DIRECTIVE = re.compile(r"\s*#\s*doctest:.*$")


def draw(code: str) -> str:
    """The ``<figure>`` for a ``picture`` block: run the code, draw its last expression.

    >>> draw("cp.Layout((2, 2), (1, 2))").startswith('<figure class="cutepy-picture"><img src="data:')
    True
    """
    lines = code.strip("\n").split("\n")
    scope: dict[str, Any] = {"cp": cutepy, "cutepy": cutepy, "Picture": Picture}
    exec("\n".join(lines[:-1]), scope)  # the page's own code, as written
    obj = eval(lines[-1], scope)
    bundle = mimebundle(obj)
    if "text/html" not in bundle:
        raise ValueError(f"picture block draws nothing: {lines[-1]!r} is a {type(obj).__name__}")
    caption = html.escape(lines[-1])
    img = bundle["text/html"].split("<script>", 1)[0]  # the page shows the <img>; a click enlarges it
    return (f'<figure class="cutepy-picture">{img}'
            f"<figcaption><code>{caption}</code></figcaption></figure>")


def unprompt(code: str) -> str:
    """A doctest as plain code: sources without prompts, outputs as ``#`` comments.

    >>> print(unprompt(">>> x = 1\\n>>> x + 1  # doctest: +ELLIPSIS\\n2\\n>>> f(\\n...     3)\\n"))
    x = 1
    x + 1
    # 2
    f(
        3)
    """
    out: list[str] = []
    traceback = False
    for line in code.rstrip("\n").split("\n"):
        if line.startswith(">>> ") or line == ">>>":
            out.append(_DIRECTIVE.sub("", line[4:]))
            traceback = False
        elif line.startswith("... ") or line == "...":
            if traceback:
                continue
            out.append(_DIRECTIVE.sub("", line[4:]))
        elif line.startswith("Traceback (most recent call last)"):
            traceback = True
        elif not line.strip():
            continue
        else:
            out.append("# " + line.replace("<BLANKLINE>", "").rstrip())
    return "\n".join(out)


def _replace(match: re.Match[str]) -> str:
    kind, body = match.group(1), match.group(2)
    if kind == "picture":
        return draw(body)
    if not body.lstrip().startswith(">>>"):
        return match.group(0)
    return f"```python\n{unprompt(body)}\n```"


def on_page_markdown(markdown: str, **_: Any) -> str:
    """MkDocs hook: pictures drawn, doctest prompts removed."""
    return _FENCE.sub(_replace, markdown)
