"""A griffe extension for the API pages: docstrings written for pytest and Sphinx read
well as Markdown.

- each run of ``>>>`` example lines (run by pytest's doctests) is fenced as ``pycon``
  code, since Markdown would read ``>>>`` as nested quotes;
- Sphinx roles such as ``:func:`~cutepy.viz.show``` become plain code spans.
"""

from __future__ import annotations

import re

import griffe

_ROLE = re.compile(r":(?:func|class|mod|meth|data|attr|exc|obj):`~?([^`]+)`")


def fence_doctests(text: str) -> str:
    """Wrap each block of ``>>>`` lines (with their outputs) in a code fence.

    >>> fence_doctests("Intro.\\n\\n>>> 1 + 1\\n2\\n\\nAfter.").splitlines()
    ['Intro.', '', '```pycon', '>>> 1 + 1', '2', '```', '', 'After.']
    """
    out: list[str] = []
    inside = False
    indent = ""
    for line in text.split("\n"):
        stripped = line.lstrip()
        if not inside and stripped.startswith(">>>"):
            indent = line[: len(line) - len(stripped)]
            out.append(f"{indent}```pycon")
            inside = True
        elif inside and not stripped:
            out.append(f"{indent}```")
            inside = False
        out.append(line)
    if inside:
        out.append(f"{indent}```")
    return "\n".join(out)


def plain_roles(text: str) -> str:
    """Sphinx cross-reference roles as code spans (``~`` keeps the last name only).

    >>> plain_roles("see :func:`~cutepy.viz.show` and :class:`cutepy.Layout`")
    'see `show` and `cutepy.Layout`'
    """
    return _ROLE.sub(lambda m: "`" + (m.group(1).rsplit(".", 1)[-1] if m.group(0).count("~") else
                                      m.group(1)) + "`", text)


def markdown_docstring(text: str) -> str:
    """Both rewrites; code blocks are fenced first, so roles inside examples are left alone."""
    parts = fence_doctests(text).split("```")
    return "```".join(plain_roles(p) if k % 2 == 0 else p for k, p in enumerate(parts))


class MarkdownDocstrings(griffe.Extension):
    """Rewrite every docstring griffe loads (see the module docstring)."""

    def on_instance(self, *, obj: griffe.Object, **kwargs: object) -> None:
        if obj.docstring is not None:
            obj.docstring.value = markdown_docstring(obj.docstring.value)
